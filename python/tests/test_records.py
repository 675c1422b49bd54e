"""Records: replay, adjudication, conversion; files that cannot be read, folders and
binary junk reported per file with the rest processed."""

from pathlib import Path

import pytest

import xqspec

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "data" / "records"
MASTER = ROOT / "src" / "cli" / "web" / "bench-game.pgn"

GAME = """[Event "two moves"]
[Red "A"]
[Black "B"]

1. 炮二平五 马8进7 2. 马二进三 车9平8 *
"""


def test_replay_and_convert():
    [g] = xqspec.replay_pgn(GAME, to="wxf")
    assert g["ok"] and g["moves"] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert "C2.5" in g["converted"] and g["title"] == "A – B"
    [g] = xqspec.replay_pgn(GAME.encode("gb18030"))
    assert g["moves"] == ["h2e2", "h9g7", "h0g2", "i9h9"]


def test_a_bad_move_has_its_place():
    [g] = xqspec.replay_pgn(GAME.replace("马二进三", "马二进九"), name="x.pgn")
    assert not g["ok"]
    e = g["error"]
    assert e["ply"] == 3 and e["line"] == 5 and e["column"] > 1 and e["move_number"] == 2
    assert g["moves"] == ["h2e2", "h9g7"]
    assert g["place"] == "x.pgn game 1"


def test_adjudicate_a_master_game():
    [g] = xqspec.adjudicate_files([MASTER])
    assert g["result"] in ("red_wins", "black_wins", "draw", "undecided")
    assert g["place"].endswith("bench-game.pgn game 1")
    assert len(xqspec.record_moves(MASTER)) == 198


def test_batch_reports_every_file_and_goes_on(tmp_path):
    binary = tmp_path / "junk.pgn"
    binary.write_bytes(bytes(range(256)) * 8)
    files = sorted(HOSTILE.glob("*.pgn")) + [tmp_path, tmp_path / "missing.pgn", binary, MASTER]
    items = xqspec.adjudicate_files(files)
    unread = [i for i in items if "file_error" in i]
    assert {i["place"] for i in unread} == {str(tmp_path), str(tmp_path / "missing.pgn")}
    assert any("not_a_game" in i and i["line"] >= 1 for i in items)
    # The master game after them all is still adjudicated.
    assert items[-1]["place"].endswith("bench-game.pgn game 1") and "result" in items[-1]
    replayed = xqspec.replay_files(files)
    assert [i["place"] for i in replayed] == [i["place"] for i in items]


def test_record_errors_carry_the_place(tmp_path):
    with pytest.raises(xqspec.RecordError) as e:
        xqspec.record_moves(tmp_path / "missing.pgn")
    assert e.value.file.endswith("missing.pgn")
    with pytest.raises(xqspec.RecordError) as e:
        xqspec.record_moves(tmp_path)
    p = tmp_path / "bad.pgn"
    p.write_text(GAME.replace("马二进三", "马二进九"), encoding="utf-8")
    with pytest.raises(xqspec.RecordError) as e:
        xqspec.record_moves(p)
    assert (e.value.line, e.value.ply) == (5, 3) and e.value.column > 1
    with pytest.raises(xqspec.RecordError):
        xqspec.record_moves(p, 2)
    with pytest.raises(xqspec.RecordError) as e:
        xqspec.record_moves(HOSTILE / "utf8-cut.pgn", 2)
    assert e.value.line == 7


def test_games_walks_a_file_reading_it_once(tmp_path):
    p = tmp_path / "three.pgn"
    second = '[Event "second"]\n[FEN "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"]\n\n1. 车九进一 将5进1 *\n'
    p.write_bytes((GAME + "\n" + second + "\n" + GAME.replace("马二进三", "马二进九")).encode("gb18030"))
    games = list(xqspec.games(p))
    assert [g["game"] for g in games] == [1, 2, 3]
    assert [g["ok"] for g in games] == [True, True, False]
    assert games[0]["headers"] == {"Event": "two moves", "Red": "A", "Black": "B"}
    assert games[0]["fen"] == xqspec.START_FEN
    assert games[1]["fen"] == "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1" and games[1]["moves"] == ["a8a9", "e9e8"]
    assert games[2]["error"]["ply"] == 3
    # The moves are the ones record_moves gives game by game, ready for the queries.
    for g in games[:2]:
        assert g["moves"] == xqspec.record_moves(p, g["game"])
        assert xqspec.game_status(g["fen"], g["moves"])["state"] == "ongoing"
    assert list(xqspec.games(str(p), encoding="gb18030")) == games
    with pytest.raises(xqspec.RecordError) as e:
        list(xqspec.games(tmp_path / "missing.pgn"))
    assert e.value.file.endswith("missing.pgn")
    it = xqspec.games(MASTER)
    assert len(next(it)["moves"]) == 198
    with pytest.raises(StopIteration):
        next(it)


def test_record_moves_reads_up_to_its_game(tmp_path):
    p = tmp_path / "many.pgn"
    p.write_text((GAME + "\n") * 3000, encoding="utf-8")
    assert xqspec.record_moves(p, 1) == xqspec.record_moves(p, 3000) == ["h2e2", "h9g7", "h0g2", "i9h9"]
    with pytest.raises(xqspec.RecordError) as e:
        xqspec.record_moves(p, 3001)
    assert e.value.kind == "no_game" and "3000 games" in str(e.value)
    assert sum(1 for _ in xqspec.games(p)) == 3000
