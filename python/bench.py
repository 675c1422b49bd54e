"""Speed of the binding: a Python call against the same call in Rust, both timed in
one run (``_rust_time`` loops over the reference's answer in Rust, with no Python in
the loop). Run: ``python python/bench.py``. The bound (issue 36): a ruling or
legal-move call costs no more than 1.5x the Rust call plus a few microseconds."""

import os
import sys
import time

# The installed package, not the source folder beside this script (which has no binary).
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import xqspec  # noqa: E402
from xqspec import _xqspec  # noqa: E402

START = xqspec.START_FEN
MIDGAME = ("r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RN1AKAB1R b - - 3 3", [])
CHASE = {"fen": "3k5/R8/2c6/9/9/9/9/9/9/4K4 w - - 0 1", "moves": ["a8a7", "c7c8", "a7a8", "c8c7"]}


def python_time(f, n):
    t = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t) / n * 1e6


def timed(query, inp, call, n, rounds=9):
    """The best of `rounds` of each, taken in turn, so that the machine's load weighs on
    both alike."""
    r = p = float("inf")
    for _ in range(rounds):
        r = min(r, _xqspec._rust_time(query, inp, n))
        p = min(p, python_time(call, n))
    return r, p


def main():
    rows = []
    cases = [
        ("legal_moves, start", "legal_moves", {"fen": START, "moves": []},
         lambda: xqspec.legal_moves(START), 5000),
        ("legal_moves, after 6 moves", "legal_moves",
         {"fen": START, "moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]},
         lambda: xqspec.legal_moves(START, ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]), 5000),
        ("legal_moves, midgame", "legal_moves", {"fen": MIDGAME[0], "moves": []},
         lambda: xqspec.legal_moves(MIDGAME[0]), 5000),
        ("ruling, 4-ply chase", "ruling", CHASE, lambda: xqspec.ruling(**CHASE), 300),
        ("ask('ruling'), 4-ply chase", "ruling", CHASE, lambda: xqspec.ask("ruling", CHASE), 300),
        ("status, start", "status", {"fen": START, "moves": []}, lambda: xqspec.status(START), 5000),
    ]
    ok = True
    for name, query, inp, call, n in cases:
        call()
        r, p = timed(query, inp, call, n)
        bound = 1.5 * r + 5.0
        ok &= p <= bound
        rows.append((name, r, p, p / r, p - r, bound, "ok" if p <= bound else "OVER"))
    print(f"{'call':30} {'Rust µs':>9} {'Python µs':>10} {'ratio':>6} {'extra µs':>9} {'bound µs':>9}")
    for name, r, p, ratio, extra, bound, verdict in rows:
        print(f"{name:30} {r:9.2f} {p:10.2f} {ratio:6.2f} {extra:9.2f} {bound:9.2f} {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
