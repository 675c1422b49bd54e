"""Every query in keyword form (issue 48): ``fen=``, ``moves=`` in any notation the command
line reads (Chinese, WXF, ICCS), ``edition=``, ``overlay=``, and each query's own fields;
the dict form is ``ask``. Checked over every case of the suite: the keyword form answers
as ``ask`` does (and, for ``game_status`` and ``outcome``, judges a record that goes on
after the end up to it, as the command line does), and with the moves written in Chinese
it answers as with ICCS."""

import ast
import inspect
import pathlib

import pytest

import xqspec

START = xqspec.START_FEN
CHASE_FEN = "3k5/R8/2c6/9/9/9/9/9/9/4K4 w - - 0 1"
CHASE_ZH = ["车九退一", "炮3退1", "车九进一", "炮3进1"]
CHASE_ICCS = ["a8a7", "c7c8", "a7a8", "c8c7"]
# Red checks with the chariot on rank 9 and rank 8 for ever; the general steps up and back.
PERPETUAL_FEN = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"
PERPETUAL = ["车九进一", "将5进1", "车九退一", "将5退1"] * 5

# query: (the call in keyword form from a protocol input, the answer's field)
KEYWORD = {
    "legal_moves": (lambda i, kw: xqspec.legal_moves(fen=i.get("fen", "startpos"), moves=i.get("moves"), **kw), "moves"),
    "perft": (lambda i, kw: xqspec.perft(i["depth"], fen=i.get("fen", "startpos"), moves=i.get("moves"), **kw), "nodes"),
    "status": (lambda i, kw: xqspec.status(fen=i.get("fen", "startpos"), moves=i.get("moves"), **kw), "status"),
    "parse_move": (lambda i, kw: xqspec.parse_move(i["text"], i["notation"], fen=i.get("fen", "startpos"), moves=i.get("moves"), **kw), "move"),
    "format_move": (lambda i, kw: xqspec.format_move(i["move"], i["notation"], fen=i.get("fen", "startpos"), moves=i.get("moves"), **kw), "text"),
    "ruling": (lambda i, kw: xqspec.ruling(fen=i.get("fen", "startpos"), moves=i.get("moves"), **kw), "ruling"),
    "game_status": (lambda i, kw: xqspec.game_status(fen=i.get("fen", "startpos"), moves=i.get("moves"), **kw), "game_status"),
    "outcome": (lambda i, kw: xqspec.outcome(fen=i.get("fen", "startpos"), moves=i.get("moves"), events=i.get("events"), **kw), "outcome"),
    "touch_move": (lambda i, kw: xqspec.touch_move(fen=i.get("fen", "startpos"), moves=i.get("moves"), touches=i["touches"], simultaneous=i.get("simultaneous", False), **kw), "touch"),
    "clock": (lambda i, kw: xqspec.clock(i["scheme"], i["events"], settings=i.get("settings"), **kw), "clock"),
    "playoff": (lambda i, kw: xqspec.playoff(i["chain"], i.get("games"), better_ranked=i.get("better_ranked"), **kw), "playoff"),
    "standings": (lambda i, kw: xqspec.standings(i["tournament"], **kw), "standings"),
}


def _answer(call):
    """The answer of a call, or the class and kind of its refusal."""
    try:
        return ("ok", call())
    except xqspec.XqspecError as e:
        return (type(e).__name__, e.kind)
    except (TypeError, ValueError, KeyError) as e:
        return ("python", type(e).__name__)


def _suite_inputs():
    for c in xqspec.cases():
        q, i = c["query"], c["input"]
        if q not in KEYWORD or not isinstance(i, dict):
            continue
        if q == "perft" and not (isinstance(i.get("depth"), int) and 0 <= i["depth"] <= 3):
            continue
        kw = {"edition": c["editions"][0]}
        if c.get("overlay"):
            kw["overlay"] = c["overlay"]
        yield c["id"], q, i, kw


def test_every_query_in_keyword_form_answers_as_ask_does():
    compared = {q: 0 for q in KEYWORD}
    for cid, q, i, kw in _suite_inputs():
        call, field = KEYWORD[q]
        asked = _answer(lambda: xqspec.ask(q, i, **kw))
        keyword = _answer(lambda: call(i, kw))
        if asked[0] == "RuleError" and asked[1] == "events.after_end":
            # The protocol refuses a record that goes on after the end; the package, as the
            # command line, judges it up to the end and says how far it goes on.
            assert keyword[0] == "ok" and keyword[1]["continues"]["left"] >= 1, (cid, keyword)
        elif asked[1] == "move.syntax":
            # A move the protocol refuses for not being ICCS is read in any notation: an
            # answer, or the notation's refusal.
            assert keyword == asked or keyword[0] == "ok" or keyword[1].startswith("notation."), (cid, keyword)
        elif asked[0] == "QueryError" or keyword[0] == "python":
            # An input of the wrong shape (a case of the protocol's refusals): refused by
            # both, in Python's terms by the keyword form.
            assert keyword[0] != "ok" and asked[0] != "ok", (cid, asked, keyword)
        elif asked[0] == "ok":
            assert keyword == ("ok", asked[1][field]), (cid, asked, keyword)
        else:
            assert keyword == asked, (cid, asked, keyword)
        compared[q] += 1
    assert all(n >= 5 for n in compared.values()), compared


def test_every_query_with_moves_reads_them_in_chinese_and_wxf():
    """The suite's lines of play written in Chinese and in WXF give the answer of ICCS."""
    compared = {}
    for cid, q, i, kw in _suite_inputs():
        moves = i.get("moves")
        if not moves or not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            continue
        fen = i.get("fen", "startpos")
        try:
            zh = xqspec.convert_moves(moves, "chinese", fen if isinstance(fen, str) else "", from_="iccs", edition=kw["edition"])
            wxf = xqspec.convert_moves(moves, "wxf", fen, from_="iccs", edition=kw["edition"])
        except (xqspec.XqspecError, TypeError):
            continue  # not a line of play (a refusal case)
        call, _ = KEYWORD[q]
        iccs = _answer(lambda: call(i, kw))
        assert _answer(lambda: call(dict(i, moves=zh), kw)) == iccs, (cid, zh)
        assert _answer(lambda: call(dict(i, moves=wxf), kw)) == iccs, (cid, wxf)
        compared[q] = compared.get(q, 0) + 1
    for q in ("legal_moves", "perft", "status", "parse_move", "format_move", "ruling", "game_status", "touch_move"):
        assert compared.get(q, 0) >= 1, (q, compared)


def test_ruling_in_chinese_as_the_command_line_takes_it():
    r = xqspec.ruling(CHASE_FEN, CHASE_ZH)
    assert r == xqspec.ruling(fen=CHASE_FEN, moves=CHASE_ICCS)
    assert r["verdict"] == "red_must_change"
    assert [p["class"] for p in r["plies"]] == ["chase", "idle", "chase", "idle"]
    # Move numbers and several moves to an item, as a record's movetext.
    assert xqspec.ruling(CHASE_FEN, ["1.", "车九退一 炮3退1", "2. 车九进一", "炮3进1"]) == r
    # Other rule sets by edition=.
    assert xqspec.ruling(CHASE_FEN, CHASE_ZH, edition="axf")["verdict"] == xqspec.ask(
        "ruling", {"fen": CHASE_FEN, "moves": CHASE_ICCS}, edition="axf")["ruling"]["verdict"]


def test_a_move_that_does_not_read_says_which_and_its_ply():
    with pytest.raises(xqspec.IllegalMoveError) as e:
        xqspec.legal_moves(moves=["炮二平五", "炮8进9"])
    assert e.value.kind == "notation.no_match" and e.value.ply == 2
    assert str(e.value).startswith('moves[1] "炮8进9" (ply 2)')
    with pytest.raises(xqspec.NotationError) as e:
        xqspec.ruling(moves=["炮二平五", "{"])
    assert e.value.kind == "notation.syntax"
    with pytest.raises(xqspec.FenError) as e:
        xqspec.game_status(fen="9/9 w", moves=["炮二平五"])
    assert e.value.kind.startswith("fen") and e.value.stage == "syntax"
    # ICCS alone is played by the query, which names the illegal move's ply.
    with pytest.raises(xqspec.IllegalMoveError) as e:
        xqspec.ruling(moves=["h2e2", "a0a5"])
    assert e.value.kind == "move.illegal" and e.value.ply == 2


def test_game_status_and_outcome_judge_a_record_up_to_its_end():
    s = xqspec.game_status(fen=PERPETUAL_FEN, moves=PERPETUAL)
    assert (s["state"], s["result"], s["how"], s["ply"]) == ("ended", "black_wins", "perpetual_check", 12)
    assert s["continues"] == {"from": 12, "left": 8}
    # The protocol's query refuses it.
    with pytest.raises(xqspec.RuleError) as e:
        xqspec.ask("game_status", {"fen": PERPETUAL_FEN, "moves": xqspec.convert_moves(PERPETUAL, "iccs", PERPETUAL_FEN)})
    assert e.value.kind == "events.after_end"
    o = xqspec.outcome(PERPETUAL_FEN, PERPETUAL)
    assert (o["result"], o["event"], o["continues"]) == ("black_wins", 11, {"from": 12, "left": 8})
    # Events among the moves, placed as `xqspec outcome --pgn` places a record's.
    o = xqspec.outcome(moves=["炮二平五", "马8进7"], events=[{"pgn": 1}, {"offer_draw": "red"}, {"pgn": "rest"}, {"resign": "red"}])
    assert o["result"] == "black_wins" and o["event"] == 3
    with pytest.raises(xqspec.RuleError) as e:
        xqspec.outcome(moves=["炮二平五", "马8进7"], events=[{"pgn": 1}])
    assert e.value.kind == "events.syntax"
    with pytest.raises(TypeError):
        xqspec.outcome(events={"resign": "red"})  # a list of events is wanted


def test_the_dict_form_is_ask():
    with pytest.raises(TypeError):
        xqspec.ruling({"fen": CHASE_FEN, "moves": CHASE_ICCS})
    assert xqspec.ask("ruling", {"fen": CHASE_FEN, "moves": CHASE_ICCS})["ruling"] == xqspec.ruling(CHASE_FEN, CHASE_ICCS)


def test_touch_clock_playoff_standings_by_keyword():
    t = xqspec.touch_move(moves=["炮二平五", "马8进7"], touches=["e2"])
    assert t == xqspec.ask("touch_move", {"fen": "startpos", "moves": ["h2e2", "h9g7"], "touches": ["e2"]})["touch"]
    with pytest.raises(TypeError):
        xqspec.touch_move(moves=["炮二平五"])  # touches= is required
    with pytest.raises(xqspec.XqspecError):
        xqspec.clock("no_such_scheme", [])
    with pytest.raises(TypeError):
        xqspec.clock("quota_90_40", "not a list")


def _stub_signatures():
    tree = ast.parse((pathlib.Path(xqspec.__file__).parent / "_xqspec.pyi").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            yield node


def test_the_stubs_give_the_signatures_of_the_functions():
    checked = 0
    for node in _stub_signatures():
        sig = inspect.signature(getattr(xqspec, node.name))
        a = node.args
        want = [(p.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in a.args]
        want += [(p.arg, inspect.Parameter.KEYWORD_ONLY) for p in a.kwonlyargs]
        defaults = dict(zip([p.arg for p in a.args][len(a.args) - len(a.defaults):], a.defaults))
        defaults.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
        got = [(p.name, p.kind) for p in sig.parameters.values()]
        assert got == want, (node.name, got, want)
        for p in sig.parameters.values():
            assert p.default is not Ellipsis, f"{node.name}({p.name}=Ellipsis)"
            assert not p.name.endswith("_") or p.name == "from_", (node.name, p.name)
            if p.name in defaults:
                assert p.default == ast.literal_eval(defaults[p.name]), (node.name, p.name, p.default)
            else:
                assert p.default is inspect.Parameter.empty, (node.name, p.name, p.default)
        checked += 1
    assert checked >= 30
