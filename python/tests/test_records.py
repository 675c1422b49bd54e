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
