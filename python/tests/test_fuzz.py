"""Bad input: random bytes, strings and queries through every entry point. Only
``XqspecError`` (or ``TypeError``/``ValueError``/``OverflowError`` for values of the
wrong Python type) may come out; the interpreter survives every call."""

import os
import random
import time

import pytest

import xqspec

ALLOWED = (xqspec.XqspecError, TypeError, ValueError, OverflowError)
SEED = int(os.environ.get("XQSPEC_FUZZ_SEED", "36"))
ITERATIONS = int(os.environ.get("XQSPEC_FUZZ_ITERATIONS", "10000"))
BUDGET_S = float(os.environ.get("XQSPEC_FUZZ_SECONDS", "15"))

QUERIES = ["legal_moves", "perft", "status", "validate_fen", "parse_move", "format_move",
           "outcome", "touch_move", "game_status", "clock", "playoff", "standings", "ruling",
           "replay_pgn", "", "nonsense"]
NOTATIONS = ["iccs", "wxf", "chinese", "chinese-abbreviated", "chinese-traditional-fullwidth", "x", ""]
ALPHABET = "rnbakcpRNBAKCPhHeE0123456789/ wb-ｗ炮二平五进退马車将帅士象兵卒\x00\n\t{}[]\":,.\\\u202e\ud7ff\ud800"


def rand_text(r: random.Random, n: int = 40) -> str:
    return "".join(r.choice(ALPHABET) for _ in range(r.randrange(n)))


def rand_bytes(r: random.Random, n: int = 400) -> bytes:
    return bytes(r.randrange(256) for _ in range(r.randrange(n)))


def rand_json(r: random.Random, depth: int = 0):
    pick = r.randrange(9 if depth < 4 else 6)
    if pick == 0:
        return None
    if pick == 1:
        return r.choice([True, False])
    if pick == 2:
        return r.choice([0, 1, -1, 2**53, 2**63 - 1, -(2**63), r.randrange(-1000, 1000)])
    if pick == 3:
        return r.choice([0.5, -1e308, 1e-9])
    if pick in (4, 5):
        return rand_text(r)
    if pick == 6:
        return [rand_json(r, depth + 1) for _ in range(r.randrange(4))]
    keys = ["fen", "moves", "depth", "notation", "text", "move", "events", "touched", "scheme",
            "settings", "chain", "games", "tournament", "format", "x"]
    return {r.choice(keys): rand_json(r, depth + 1) for _ in range(r.randrange(5))}


def mutate(r: random.Random, v):
    """A value near a real case's input: one field changed, or text edited."""
    if isinstance(v, dict) and v:
        v = dict(v)
        k = r.choice(list(v))
        v[k] = mutate(r, v[k]) if r.random() < 0.6 else rand_json(r)
        return v
    if isinstance(v, list) and v:
        v = list(v)
        i = r.randrange(len(v))
        choice = r.randrange(3)
        if choice == 0:
            del v[i]
        elif choice == 1:
            v[i] = mutate(r, v[i])
        else:
            v.insert(i, rand_json(r))
        return v
    if isinstance(v, str) and v:
        i = r.randrange(len(v))
        return v[:i] + r.choice(ALPHABET) + v[i + 1:]
    return rand_json(r)


def calls(r: random.Random, inputs):
    """One random call of an entry point: (name, thunk)."""
    fen = r.choice([xqspec.START_FEN, "startpos", rand_text(r, 80), mutate(r, xqspec.START_FEN),
                    rand_bytes(r, 90).decode("latin-1")])
    moves = r.choice([[], ["h2e2"], [rand_text(r, 6) for _ in range(r.randrange(4))], ["h2e2", "h9g7", "b0c2"]])
    q = r.choice(QUERIES)
    base = r.choice(inputs) if inputs and r.random() < 0.7 else (q, rand_json(r))
    name, inp = base
    inp = mutate(r, inp) if r.random() < 0.8 else inp
    if name == "perft" and isinstance(inp, dict):
        inp = dict(inp, depth=r.choice([0, 1, 2, -1, "2", None]))
    ed = r.choice([None, None, "cxa-1999", "cxa-2011", "axf", "nope", "cxa-2011+provincial-2012-open", ""])
    pick = r.randrange(17)
    return [
        ("legal_moves", lambda: xqspec.legal_moves(fen, moves, edition=ed)),
        ("perft", lambda: xqspec.perft(r.choice([0, 1, 2, -1]), fen, moves, edition=ed)),
        ("status", lambda: xqspec.status(fen, moves, edition=ed)),
        ("validate_fen", lambda: xqspec.validate_fen(fen, edition=ed)),
        ("parse_move", lambda: xqspec.parse_move(rand_text(r, 8), r.choice(NOTATIONS), fen, moves, edition=ed)),
        ("format_move", lambda: xqspec.format_move(rand_text(r, 5), r.choice(NOTATIONS), fen, moves)),
        ("convert_moves", lambda: xqspec.convert_moves([rand_text(r, 6) for _ in range(3)], r.choice(NOTATIONS), fen)),
        ("ask", lambda: xqspec.ask(name, inp, edition=ed)),
        ("answer_json", lambda: xqspec.answer_json(name if r.random() < 0.8 else q, inp, edition=ed)),
        ("ruling", lambda: xqspec.ruling(fen, moves, edition=ed)),
        ("game_status", lambda: xqspec.game_status(fen=fen, moves=moves, edition=ed)),
        ("adjudicate_pgn", lambda: xqspec.adjudicate_pgn(rand_bytes(r), edition=ed)),
        ("replay_pgn", lambda: xqspec.replay_pgn(r.choice([rand_bytes(r), rand_text(r, 200)]), to=r.choice([None, "wxf", "chinese", "x"]))),
        ("overlay", lambda: xqspec.legal_moves(overlay=r.choice([rand_json(r), "nope", {"overlay": "x"}]))),
        ("outcome", lambda: xqspec.outcome(fen, moves, inp.get("events") if isinstance(inp, dict) else inp, edition=ed)),
        ("standings", lambda: xqspec.standings(inp.get("tournament") if isinstance(inp, dict) else inp, edition=ed)),
        ("ask_bytes", lambda: xqspec.ask(rand_bytes(r, 12).decode("latin-1"), rand_json(r))),
    ][pick]


def test_random_input_raises_only_xqspec_errors():
    r = random.Random(SEED)
    inputs = [(c["query"], c["input"]) for c in xqspec.cases()
              if c["query"] != "perft" or c["input"].get("depth", 0) <= 3]
    seen = {}
    started = time.monotonic()
    done = 0
    for _ in range(ITERATIONS):
        if time.monotonic() - started > BUDGET_S:
            break
        name, thunk = calls(r, inputs)
        try:
            thunk()
            seen[(name, "ok")] = seen.get((name, "ok"), 0) + 1
        except ALLOWED as e:
            seen[(name, type(e).__name__)] = seen.get((name, type(e).__name__), 0) + 1
            if isinstance(e, xqspec.InternalError):
                pytest.fail(f"{name}: a panic inside the library: {e}")
        done += 1
    assert done >= min(ITERATIONS, 500), f"only {done} calls in {BUDGET_S} s"
    # Both accepted and refused input were reached.
    assert any(k[1] == "ok" for k in seen) and any(k[1] != "ok" for k in seen), seen


def test_random_files_are_reported_per_file(tmp_path):
    r = random.Random(SEED + 1)
    paths = []
    for i in range(30):
        p = tmp_path / f"junk-{i}.pgn"
        p.write_bytes(rand_bytes(r, 2000))
        paths.append(p)
    paths.append(tmp_path)  # a folder
    paths.append(tmp_path / "missing.pgn")
    for f in (xqspec.adjudicate_files, xqspec.replay_files):
        items = f(paths)
        assert any(i.get("file_error") for i in items)
        places = {i["place"].split(" ")[0] for i in items}
        assert str(tmp_path) in places and str(tmp_path / "missing.pgn") in places


def test_random_overlay_files(tmp_path):
    r = random.Random(SEED + 2)
    good = "overlay: x\nname: x\nedition: cxa-2011\nprovenance: {status: verified, source: digest, ref: x}\nchanges:\n- clause: draw.natural_limit\n  data: {rounds: 40}\n"
    for i in range(200):
        p = tmp_path / f"x.yaml"
        if i % 2:
            p.write_bytes(rand_bytes(r, 300))
        else:
            p.write_text(mutate(r, good), encoding="utf-8", errors="surrogatepass")
        try:
            o = xqspec.load_overlay(p)
            xqspec.legal_moves(edition=o.get("edition"), overlay=o)
        except ALLOWED:
            pass


def test_a_panic_is_an_internal_error():
    with pytest.raises(xqspec.InternalError) as e:
        xqspec._xqspec._panic_for_test()
    assert "panic" in str(e.value)
    # The interpreter and the library go on.
    assert len(xqspec.legal_moves()) == 44
