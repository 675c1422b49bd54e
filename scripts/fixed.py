#!/usr/bin/env python3
"""Propose `fixed:` for the conformance cases that expect a rejection and lack it.

    python3 scripts/fixed.py              # print a proposal per case
    python3 scripts/fixed.py --write      # and write each into its case file

A case that expects a rejection under every rule set it names says, in `fixed:`, the input field that fixes the one fault
the rejection names: the input so fixed must be accepted (`xqspec cases check` asks the
reference), so the case has no second fault and the order in which a program checks does
not matter. This script searches for such a fix by small edits of the input, each tried
against the reference (`xqspec serve`), and keeps the first one accepted:

- a list of moves, events, touches or games: one item removed (the one the rejection's
  message names first, then each from the end);
- a FEN: one field put right (the side `w`/`b`, the counters `0 1`), one piece removed, a
  general put back in its palace or moved within it, one rank added, removed or refilled;
- a `move` to format: the move in ICCS spelling, else the first legal move;
- a notation `text`: the text the reference writes (in any notation id of the case's
  notation) for the legal move closest to it, by edit distance;
- a clock scheme, a play-off chain: the first the rule set has.

What it cannot fix is listed: write those by hand. Read every proposal before committing
it: the fix should name the fault the case is about (a search can fix another thing).
Needs `xqspec` (PATH, `XQSPEC=`, or `target/`).
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from basis import CASES, ROOT, set_field, xqspec  # noqa: E402


class Reference:
    """`xqspec serve`, asked in batches."""

    def __init__(self, exe):
        self.exe = exe
        self.n = 0

    def ask_all(self, asks):
        """Answers to `asks` (each `(edition, query, input)`), in order."""
        lines = [json.dumps({"type": "hello", "protocol": 2})]
        for e, q, i in asks:
            self.n += 1
            lines.append(json.dumps({"type": "ask", "id": self.n, "edition": e, "query": q, "input": i},
                                    ensure_ascii=False))
        out = subprocess.run([self.exe, "serve"], input="\n".join(lines) + "\n", capture_output=True,
                             text=True, check=True).stdout.splitlines()
        return [json.loads(l) for l in out[1:]]

    def accepted(self, editions, query, inp):
        return all("result" in a for a in self.ask_all([(e, query, inp) for e in editions]))


def expand(board):
    return [list(re.sub(r"\d", lambda m: "." * int(m.group()), rank)) for rank in board.split("/")]


def compress(ranks):
    out = []
    for r in ranks:
        s = "".join(r)
        out.append(re.sub(r"\.+", lambda m: str(len(m.group())), s))
    return "/".join(out)


def fen_candidates(fen):
    fields = fen.split()
    board = fields[0] if fields else ""
    # The side and the counters.
    for i, good in ((1, ["w", "b"]), (4, ["0"]), (5, ["1"])):
        for g in good:
            if len(fields) > i and fields[i] != g:
                f = list(fields)
                f[i] = g
                yield " ".join(f)
    if len(fields) == 1:
        yield board + " w - - 0 1"
    if len(fields) in (2, 4, 5) and fields[1] in ("w", "b"):
        yield " ".join(fields[:2] + ["-", "-", "0", "1"])
    ranks = expand(board)
    rest = " ".join(fields[1:]) or "w - - 0 1"
    # the board as a FEN writes it (a `0` count, counts split in two)
    yield compress(ranks) + " " + rest
    if len(ranks) == 10 and all(len(r) == 9 for r in ranks):
        # a piece removed
        for y in range(10):
            for x in range(9):
                if ranks[y][x] != ".":
                    r = [list(row) for row in ranks]
                    r[y][x] = "."
                    yield compress(r) + " " + rest
        # a general moved within its palace, or put there
        # (back rank first, its centre first)
        palaces = {"k": [(y, x) for y in (0, 1, 2) for x in (4, 3, 5)],
                   "K": [(y, x) for y in (9, 8, 7) for x in (4, 3, 5)]}
        for g, points in palaces.items():
            where = [(y, x) for y in range(10) for x in range(9) if ranks[y][x] == g]
            for (y, x) in points:
                if ranks[y][x] != ".":
                    continue
                r = [list(row) for row in ranks]
                if len(where) == 1:
                    r[where[0][0]][where[0][1]] = "."
                r[y][x] = g
                yield compress(r) + " " + rest
    else:
        rows = board.split("/")
        # (an empty rank put in the middle first, where a short board misses it)
        for i in sorted(range(len(rows) + 1), key=lambda i: abs(2 * i - len(rows))):
            yield "/".join(rows[:i] + ["9"] + rows[i:]) + " " + rest
        for i in range(len(rows)):
            yield "/".join(rows[:i] + rows[i + 1:]) + " " + rest
        for i, r in enumerate(ranks):
            n = len(r)
            if n != 9:
                fixed = (r + ["."] * 9)[:9] if n < 9 else [c for c in r if c != "."][:9]
                fixed = (fixed + ["."] * 9)[:9]
                yield "/".join(rows[:i] + [compress([fixed])] + rows[i + 1:]) + " " + rest


def edit_distance(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def named_index(message):
    m = re.search(r"events\[(\d+)\]|event (\d+)|move (\d+)|ply (\d+)", message or "")
    if not m:
        return None
    n = int(next(g for g in m.groups() if g))
    return n if "events[" in m.group() else n - 1


def list_candidates(items, first=None):
    order = ([first] if first is not None and 0 <= first < len(items) else []) + \
        [i for i in reversed(range(len(items))) if i != first]
    for i in order:
        yield items[:i] + items[i + 1:]


def propose(ref, case, editions):
    """The first `{field: value}` the reference accepts, or None."""
    q, inp = case["query"], case["input"]
    answers = ref.ask_all([(e, q, inp) for e in editions])
    message = next((a["reject"].get("message", "") for a in answers if "reject" in a), "")
    kind = next((a["reject"]["kind"] for a in answers if "reject" in a), "")
    tries = []
    if kind.startswith("fen") and "fen" in inp:
        tries += [("fen", f) for f in fen_candidates(inp["fen"])]
    if kind.startswith(("move", "events", "touch", "clock", "playoff")) or kind == "notation.no_match":
        for field in ("moves", "events", "touches", "games"):
            if isinstance(inp.get(field), list) and inp[field]:
                tries += [(field, l) for l in list_candidates(inp[field], named_index(message))]
    if q == "format_move" and kind.startswith("move"):
        m = inp.get("move", "")
        spelled = m.replace("-", "").lower()
        if spelled != m:
            tries.append(("move", spelled))
        legal = ref.ask_all([(editions[0], "legal_moves", {"fen": inp["fen"], "moves": inp.get("moves", [])})])[0]
        moves = legal.get("result", {}).get("moves", [])
        tries += [("move", mv) for mv in sorted(moves, key=lambda mv: (edit_distance(mv, m), mv))[:3]]
    if q == "parse_move" and kind.startswith("notation"):
        legal = ref.ask_all([(editions[0], "legal_moves", {"fen": inp["fen"], "moves": inp.get("moves", [])})])[0]
        family = inp["notation"].split("-")[0]
        ids = [i for i in ("chinese", "chinese-fullwidth", "chinese-traditional", "chinese-traditional-fullwidth",
                           "chinese-abbreviated", "chinese-abbreviated-fullwidth", "wxf", "wxf-fullwidth",
                           "iccs", "iccs-upper") if i.startswith(family)]
        pos = {"fen": inp["fen"], "moves": inp.get("moves", [])}
        # The text read in another notation: the same move written in the case's.
        for other in ("iccs", "wxf", "chinese"):
            if other != family:
                read = ref.ask_all([(editions[0], "parse_move", {**pos, "notation": other, "text": inp["text"]})])[0]
                if "result" in read:
                    w = ref.ask_all([(editions[0], "format_move", {**pos, "notation": inp["notation"],
                                                                   "move": read["result"]["move"]})])[0]
                    if "result" in w:
                        tries.append(("text", w["result"]["text"]))
        # Else the text of a legal move closest to it, in the case's own notation id first.
        for group in ([inp["notation"]], ids):
            asks = [(editions[0], "format_move", {**pos, "notation": n, "move": mv})
                    for mv in legal.get("result", {}).get("moves", []) for n in group]
            texts = {a["result"]["text"] for a in ref.ask_all(asks) if "result" in a}
            for t in sorted(texts, key=lambda t: (edit_distance(t, inp["text"]), t)):
                tries.append(("text", t))
    if kind == "clock.unknown_scheme":
        tries += [("scheme", s) for s in ("standard", "sudden_death", "increment", "quota_90_40")]
    if kind == "playoff.unknown_chain":
        tries += [("chain", c) for c in ("standard", "default", "blitz")]
    if kind.startswith("tournament") and isinstance(inp.get("tournament"), dict):
        t = inp["tournament"]
        for field in ("games", "byes", "withdrawals", "sanctions", "matches", "players", "teams"):
            if isinstance(t.get(field), list):
                for l in list_candidates(t[field]):
                    tries.append(("tournament", {**t, field: l}))
    seen = set()
    for field, value in tries:
        key = json.dumps([field, value], sort_keys=True, ensure_ascii=False)
        if key in seen:
            continue
        seen.add(key)
        if ref.accepted(editions, q, {**inp, field: value}):
            return {field: value}
    return None


def yaml_scalar(v):
    """A value as one line of flow YAML (JSON is YAML)."""
    return json.dumps(v, ensure_ascii=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--only", action="append", help="only the case with this id (repeatable)")
    a = ap.parse_args()
    exe = xqspec()
    ref = Reference(exe)
    out = subprocess.run([exe, "cases", "dump", "--cases", str(CASES)], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    by_path = {}
    for line in out.splitlines():
        d = json.loads(line)
        c = by_path.setdefault(d["path"], {**d, "rejecting": [], "editions_seen": []})
        c["editions_seen"].append(d["edition"])
        if isinstance(d["expect"], dict) and "reject" in d["expect"]:
            c["rejecting"].append(d["edition"])
    missing = []
    for path, case in sorted(by_path.items()):
        # A case whose input another rule set accepts needs no `fixed:` (an edition difference).
        if len(case["rejecting"]) < len(case["editions_seen"]):
            continue
        if not case["rejecting"] or case.get("fixed") or case.get("overlay"):
            if case["rejecting"] and case.get("overlay") and not case.get("fixed"):
                missing.append(path)
            continue
        if a.only and case["id"] not in a.only:
            continue
        fix = propose(ref, case, case["rejecting"])
        if fix is None:
            missing.append(path)
            continue
        (field, value), = fix.items()
        print(f"{path}: fixed: {{{field}: {yaml_scalar(value)}}}   (was {yaml_scalar(case['input'].get(field))})")
        if a.write:
            f = CASES / path
            f.write_text(set_field(f.read_text(), "fixed", f"{{{field}: {yaml_scalar(value)}}}",
                                   ["expect_by_edition", "expect"]))
    for p in missing:
        print(f"{p}: no fix found: write `fixed:` by hand")


if __name__ == "__main__":
    main()
