#!/usr/bin/env python3
"""Local cross-check (issue 44's target): random 4-ply cycles from master games, ruled under
the AXF rule set by xqspec and by Fairy-Stockfish (pyffish), verdicts compared.

    pip install pyffish
    cargo build --release
    python3 scripts/pyffish_cycles.py [--count 100] [--seed 1] [--xqspec target/release/xqspec]

Not run by CI or the tests (they never need pyffish). A cycle is drawn from a position of a
game of `../shared/data/games` (or `--games FILE`, ICCS movetext) at a random ply: the side to
move plays a random non-capture, the other side a random non-capture, then each plays its
move back, all legal. Two samples are reported: `uniform`, the first `--count` such cycles,
and `attacking`, the first `--count` in which xqspec classes both moves of one side as
attacks (checks, chases, kills: where a verdict other than a draw can arise and the two
programs can disagree). Fairy-Stockfish's verdict is read as the conformance adapter reads
it (`conformance/adapters/pyffish_adapter.py`: `ruling`).
"""

import argparse
import importlib.util
import json
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "conformance", "adapters"))
spec = importlib.util.spec_from_file_location(
    "pyffish_adapter", os.path.join(ROOT, "conformance", "adapters", "pyffish_adapter.py"))
adapter = importlib.util.module_from_spec(spec)
spec.loader.exec_module(adapter)
sf = adapter.sf
# The classes of the attacking family (打); a side all of whose moves are attacks may be
# ordered to change.
ATTACKS = {"check", "kill", "chase"}
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def games(path):
    text = open(path, encoding="utf-8").read()
    for block in re.split(r"\n(?=\[Event )", text):
        moves = re.findall(r"\b([a-i][0-9][a-i][0-9])\b", re.sub(r"\[[^\]]*\]", "", block))
        if len(moves) > 12:
            yield moves


def occupied(fen, square):
    """The piece letter on an ICCS square of a FEN, or None."""
    rows = fen.split()[0].split("/")
    row = rows[9 - int(square[1])]
    col = 0
    for ch in row:
        if ch.isdigit():
            col += int(ch)
            continue
        if col == ord(square[0]) - ord("a"):
            return ch
        col += 1
    return None


def quiet_moves(fen, played):
    now = sf.get_fen(adapter.VARIANT, fen, played)
    return [m for m in (adapter.to_iccs(e) for e in sf.legal_moves(adapter.VARIANT, fen, played))
            if occupied(now, m[2:]) is None]


def cycle_from(rng, fen):
    """A random cycle of four quiet moves from `fen` (each side's move and its way back)."""
    first = quiet_moves(fen, [])
    rng.shuffle(first)
    for m1 in first[:8]:
        p1 = [adapter.to_engine(m1)]
        second = quiet_moves(fen, p1)
        rng.shuffle(second)
        for m2 in second[:8]:
            back1, back2 = m1[2:] + m1[:2], m2[2:] + m2[:2]
            p2 = p1 + [adapter.to_engine(m2)]
            if back1 not in quiet_moves(fen, p2):
                continue
            p3 = p2 + [adapter.to_engine(back1)]
            if back2 not in quiet_moves(fen, p3):
                continue
            return [m1, m2, back1, back2]
    return None


def ours(binary, fen, moves):
    out = subprocess.run([binary, "ruling", "--edition", "axf", "--json", "--fen", fen,
                          "--moves", *moves], capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    return r["verdict"], [p["class"] for p in r["plies"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--xqspec", default=os.path.join(ROOT, "target", "release", "xqspec"))
    ap.add_argument("--games", default=os.path.join(ROOT, "..", "shared", "data", "games",
                                                    "liu-dahua-1125-iccs.pgn"))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    pool = list(games(a.games))
    samples = {"uniform": [], "attacking": []}
    tries = 0
    while min(len(s) for s in samples.values()) < a.count and tries < 50 * a.count:
        tries += 1
        game = rng.choice(pool)
        ply = rng.randrange(10, len(game))
        fen = sf.get_fen(adapter.VARIANT, START, [adapter.to_engine(m) for m in game[:ply]])
        if sf.is_optional_game_end(adapter.VARIANT, fen, [])[0] or not sf.legal_moves(adapter.VARIANT, fen, []):
            continue
        moves = cycle_from(rng, fen)
        if moves is None:
            continue
        verdict, classes = ours(a.xqspec, fen, moves)
        theirs = adapter.ruling(fen, [adapter.to_engine(m) for m in moves])["verdict"]
        row = (fen, moves, classes, verdict, theirs)
        if len(samples["uniform"]) < a.count:
            samples["uniform"].append(row)
        attacks = [c in ATTACKS for c in classes]
        if (all(attacks[0::2]) or all(attacks[1::2])) and len(samples["attacking"]) < a.count:
            samples["attacking"].append(row)
    for name, rows in samples.items():
        agree = sum(1 for r in rows if r[3] == r[4])
        kinds = {}
        for r in rows:
            kinds[r[3]] = kinds.get(r[3], 0) + 1
        print(f"{name}: {agree}/{len(rows)} verdicts agree (xqspec's verdicts: "
              + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) + ")")
        for fen, moves, classes, verdict, theirs in rows:
            if verdict != theirs:
                print(f"  xqspec {verdict} ({' '.join(classes)}), Fairy-Stockfish {theirs}: "
                      f"--fen '{fen}' --moves {' '.join(moves)}")


if __name__ == "__main__":
    main()
