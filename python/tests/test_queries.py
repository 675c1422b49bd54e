"""The protocol's queries from Python: answers are the protocol's, refusals typed
exceptions with their place."""

import pickle

import pytest

import xqspec

START = xqspec.START_FEN
CHASE = {"fen": "3k5/R8/2c6/9/9/9/9/9/9/4K4 w - - 0 1", "moves": ["a8a7", "c7c8", "a7a8", "c8c7"]}


def test_legal_moves_perft_status():
    assert len(xqspec.legal_moves()) == 44
    assert xqspec.legal_moves(START) == xqspec.legal_moves("startpos", [])
    assert xqspec.perft(0) == 1
    assert xqspec.perft(2) == 1920
    assert xqspec.perft(1, START, ["h2e2"]) == 45
    assert xqspec.status() == "ongoing"
    # Mate by a cannon with the horse as its screen (checkmate-horse-behind-cannon).
    mate = "4k4/9/4N4/9/9/9/4C4/9/9/3K5 b - - 0 1"
    assert xqspec.status(mate) == "checkmate"
    assert xqspec.legal_moves(mate) == []


def test_answers_are_the_protocols():
    for query, inp in [("legal_moves", {"fen": START, "moves": []}), ("ruling", CHASE),
                       ("perft", {"fen": START, "moves": [], "depth": 2})]:
        whole = xqspec.answer_json(query, inp)
        assert whole == {"result": xqspec.ask(query, inp)}
    assert xqspec.ask("legal_moves", {"fen": START, "moves": []})["moves"] == xqspec.legal_moves()


def test_validate_fen_and_its_errors():
    assert xqspec.validate_fen(START) is True
    with pytest.raises(xqspec.FenError) as e:
        xqspec.validate_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w - - 0 1")
    assert e.value.kind == "fen.board_shape" and e.value.stage == "syntax" and e.value.column == 1
    with pytest.raises(xqspec.FenError) as e:
        xqspec.validate_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    assert e.value.kind == "fen.opponent_in_check" and e.value.stage == "position"
    with pytest.raises(xqspec.FenError) as e:
        xqspec.validate_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1")
    assert e.value.kind == "fen.side_to_move" and e.value.column is not None
    # Every query refuses a bad FEN the same way.
    with pytest.raises(xqspec.FenError):
        xqspec.legal_moves("nonsense")
    assert isinstance(e.value, xqspec.XqspecError)


def test_move_errors_carry_the_ply():
    with pytest.raises(xqspec.NotationError) as e:
        xqspec.legal_moves(moves=["h2e2", "h9g7", "炮二平"])
    assert e.value.kind == "notation.syntax" and e.value.ply == 3
    # Moves are read in any notation, as the command line reads them: ICCS in capitals
    # with a dash too.
    assert xqspec.legal_moves(moves=["H2-E2"]) == xqspec.legal_moves(moves=["h2e2"])
    with pytest.raises(xqspec.IllegalMoveError) as e:
        xqspec.status(moves=["h2e2", "h9g7", "h2h3"])
    assert e.value.kind == "move.illegal" and e.value.ply == 3
    with pytest.raises(xqspec.IllegalMoveError) as e:
        xqspec.ruling(START, ["a0a5"])
    assert e.value.ply == 1
    assert "ply=1" in repr(e.value)
    # Exceptions survive pickling with their place (Dask ships them between processes).
    again = pickle.loads(pickle.dumps(e.value))
    assert type(again) is xqspec.IllegalMoveError and again.ply == 1 and str(again) == str(e.value)


def test_notation():
    assert xqspec.parse_move("炮二平五", "chinese") == "h2e2"
    assert xqspec.parse_move("C2.5", "wxf") == "h2e2"
    assert xqspec.format_move("h2e2", "wxf") == "C2.5"
    assert xqspec.format_move("h2e2", "chinese") == "炮二平五"
    assert xqspec.convert_moves(["h2e2", "h9g7"], "chinese") == ["炮二平五", "马8进7"]
    assert xqspec.convert_moves(["炮二平五", "马8进7"], "iccs") == ["h2e2", "h9g7"]
    assert xqspec.convert_moves(["C2.5", "H8+7"], "chinese", from_="wxf") == ["炮二平五", "马8进7"]
    with pytest.raises(xqspec.NotationError) as e:
        xqspec.parse_move("炮二平", "chinese")
    assert e.value.kind == "notation.syntax"
    with pytest.raises(xqspec.IllegalMoveError) as e:
        xqspec.parse_move("炮二进九", "chinese")
    with pytest.raises(xqspec.XqspecError) as e:
        xqspec.convert_moves(["h2e2", "h9g7", "炮二平九"], "wxf")
    assert e.value.ply == 3
    with pytest.raises(xqspec.QueryError):
        xqspec.convert_moves(["h2e2"], "klingon")


def test_ruling_with_classes_reasons_basis_articles():
    r = xqspec.ruling(**CHASE)
    assert r["verdict"] == "red_must_change"
    assert r["basis"] == "text" and r["rests_on"] == []
    assert [p["class"] for p in r["plies"]] == ["chase", "idle", "chase", "idle"]
    assert r["plies"][0]["article"] == "24.3" and "chariot" in r["plies"][0]["reason"]
    assert r["patterns"]["red"]["zh"] == "长捉"
    assert {"clause": "repetition.chase", "article": "24.3"} in r["clauses"]


def test_game_status_and_outcome():
    s = xqspec.game_status(moves=["炮二平五", "马8进7"])
    assert s["state"] == "ongoing" and s["natural_limit"]["limit"] == 60
    assert s == xqspec.game_status(START, ["h2e2", "h9g7"])
    o = xqspec.outcome("4k4/9/9/9/9/9/4C4/9/9/3K5 w - - 0 1", events=[{"move": "e3e4"}])
    assert isinstance(o, dict)
    with pytest.raises(xqspec.RuleError) as e:
        xqspec.outcome(START, events=[{"nonsense": 1}])
    assert e.value.kind.startswith("events.")


def test_rulesets_and_overlays():
    eds = xqspec.editions()
    assert {"cxa-1999", "cxa-2011", "cxa-2020", "axf"} <= set(eds)
    sets = xqspec.rulesets()
    assert "cxa-2011+provincial-2012-open" in sets and set(eds) <= set(sets)
    ovs = {o["overlay"]: o for o in xqspec.overlays()}
    assert ovs["provincial-2012-open"]["edition"] == "cxa-2011"
    # An overlay by id, as a dict, or in the rule-set id: the same rules.
    a = xqspec.game_status(START, edition="cxa-2011", overlay="provincial-2012-open")
    b = xqspec.game_status(START, edition="cxa-2011", overlay=ovs["provincial-2012-open"])
    c = xqspec.game_status(START, edition="cxa-2011+provincial-2012-open")
    assert a == b == c
    with pytest.raises(xqspec.SpecError) as e:
        xqspec.legal_moves(edition="cxa-3000")
    assert "cxa-2020" in str(e.value)
    with pytest.raises(xqspec.SpecError):
        xqspec.legal_moves(edition="cxa-2020", overlay="provincial-2012-open")
    with pytest.raises(xqspec.SpecError):
        xqspec.legal_moves(overlay={"overlay": "x"})
    rs = xqspec.clauses("cxa-2020")
    assert rs["edition"]["id"] == "cxa-2020"
    assert any(c["id"] == "movement.horse" for c in rs["clauses"])


def test_load_overlay_errors_carry_the_place(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("overlay: bad\nname: x\nedition: cxa-2011\nnonsense: [\n")
    with pytest.raises(xqspec.SpecError) as e:
        xqspec.load_overlay(p)
    assert e.value.file and e.value.line is not None
    ok = tmp_path / "provincial-2012-open.yaml"
    import pathlib
    src = pathlib.Path(__file__).resolve().parents[2] / "spec" / "overlays" / "provincial-2012-open.yaml"
    if src.exists():
        ok.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
        o = xqspec.load_overlay(ok)
        assert xqspec.legal_moves(edition="cxa-2011", overlay=o) == xqspec.legal_moves(edition="cxa-2011")


def test_wrong_python_types():
    with pytest.raises(TypeError):
        xqspec.legal_moves(START, "h2e2")  # a str is not a list of moves
    with pytest.raises(TypeError):
        xqspec.ask("legal_moves", [1, 2])
    with pytest.raises(xqspec.QueryError) as e:
        xqspec.ask("legal_moves", {"fen": 1, "moves": []})
    assert isinstance(e.value, ValueError)
    with pytest.raises(TypeError):
        xqspec.ask("legal_moves", {"fen": START, "moves": [object()]})
    deep = []
    for _ in range(100):
        deep = [deep]
    with pytest.raises(ValueError):
        xqspec.ask("legal_moves", {"fen": START, "moves": deep})
    with pytest.raises(xqspec.UnsupportedError):
        xqspec.perft(64)


def test_event_errors_carry_the_event():
    with pytest.raises(xqspec.RuleError) as e:
        xqspec.outcome(START, events=[{"move": "h2e2"}, {"resign": {"side": "blue"}}])
    assert e.value.kind == "events.syntax" and e.value.event == 1
    with pytest.raises(xqspec.IllegalMoveError) as e:
        xqspec.outcome(START, events=[{"move": "h2e2"}, {"move": "h2e2"}])
    assert e.value.event == 1


def test_threads_share_the_library():
    from concurrent.futures import ThreadPoolExecutor

    alone = xqspec.ruling(**CHASE)
    moves = xqspec.legal_moves()
    with ThreadPoolExecutor(4) as pool:
        rulings = list(pool.map(lambda _: xqspec.ruling(**CHASE), range(16)))
        lists = list(pool.map(lambda _: xqspec.legal_moves(), range(16)))
        overlaid = list(pool.map(lambda _: xqspec.game_status(START, edition="cxa-2011", overlay="provincial-2012-open"), range(8)))
    assert all(r == alone for r in rulings) and all(m == moves for m in lists)
    assert all(o == overlaid[0] for o in overlaid)
