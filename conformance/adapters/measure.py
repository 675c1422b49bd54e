#!/usr/bin/env python3
"""Measure the third-party implementations that are installed against the
conformance suite and write `reports/implementations.md`.

    python3 conformance/adapters/measure.py            # run every installed one, write the report
    python3 conformance/adapters/measure.py --only cchess
    python3 conformance/adapters/measure.py --raw DIR  # also keep each run's JSON lines in DIR
    python3 conformance/adapters/measure.py --from-raw DIR   # rewrite the report from kept runs

One command, run by hand from the repository's root; CI and `cargo test`
never need it (CI only checks that the report it wrote is well formed).
It looks for, in order:

- Fairy-Stockfish through its Python module (`pip install pyffish`):
  `pyffish_adapter.py`;
- the python `cchess` library (`pip install cchess`): `cchess_adapter.py`;
- Pikafish, a UCI engine, as `pikafish` on the PATH (or `PIKAFISH=/path`):
  `xqspec conform --uci`;
- Fairy-Stockfish's UCI engine, as `fairy-stockfish` on the PATH or in
  /usr/games (Debian's package `fairy-stockfish`): `xqspec conform --uci`.

Each is run once over the whole suite, every rule set, with `--json`. The
runner is `xqspec` on the PATH, or `XQSPEC=/path/to/xqspec`
(`cargo install --path .` puts it on the PATH).

Why cases fail is written by hand, in REASONS below: one sentence per group
of failing cases, keyed by implementation and case-id glob, found by reading
the failures' details. A failure no glob matches is listed under its area and
detail with "no reason written yet": read it and add a line to REASONS.
"""

import argparse
import collections
import datetime
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADAPTERS = Path(__file__).resolve().parent
REPORT = ROOT / "reports" / "implementations.md"
RULE_SETS = ["cxa-1999", "cxa-2011", "cxa-2020", "axf"]
FAILING = ("fail", "error", "crash", "timeout")

# (implementation key, glob over the case id or its path without .yaml, sentence).
# The first matching line names a failure's group.
REASONS = [
    # Fairy-Stockfish through pyffish
    ("pyffish", "fen-*-palace", "accepts a general outside its palace: validate_fen checks no piece placement"),
    ("pyffish", "fen-advisor-off-its-points", "accepts an advisor off the palace's points: validate_fen checks no piece placement"),
    ("pyffish", "fen-*elephant-*", "accepts an elephant across the river or off its seven points: validate_fen checks no piece placement"),
    ("pyffish", "fen-*soldier-*", "accepts a soldier behind its starting rank or between the starting files: validate_fen checks no piece placement"),
    ("pyffish", "fen-six-red-soldiers", "accepts six soldiers, three horses or three advisors: validate_fen counts only the generals"),
    ("pyffish", "fen-three-*", "accepts six soldiers, three horses or three advisors: validate_fen counts only the generals"),
    ("pyffish", "fen-generals-facing*", "accepts a position where the side not to move is in check or the generals face: validate_fen does not look at checks"),
    ("pyffish", "fen-*not-to-move-in-check", "accepts a position where the side not to move is in check or the generals face: validate_fen does not look at checks"),
    ("pyffish", "status-refuses-facing-generals", "accepts a position where the side not to move is in check or the generals face: validate_fen does not look at checks"),
    ("pyffish", "ruling-invalid-fen-refused", "accepts a position where the side not to move is in check or the generals face: validate_fen does not look at checks"),
    ("pyffish", "legal-moves-refuses-invalid-fen", "accepts six soldiers, three horses or three advisors: validate_fen counts only the generals"),
    ("pyffish", "fen-rank-of-ten-points", "accepts a rank of ten points (`9` then a piece) and a `0` in the board field: the ranks' arithmetic is not checked"),
    ("pyffish", "fen-zero-empty-points", "accepts a rank of ten points (`9` then a piece) and a `0` in the board field: the ranks' arithmetic is not checked"),
    ("pyffish", "fen-side-missing", "accepts a FEN without the side-to-move field"),
    ("pyffish", "fen-side-r-for-red", "refuses `r` for Red, a form met in the field (feature fen-side-r)"),
    ("pyffish", "perpetual-kill-forbidden-cxa-allowed-axf", "rules that Black, whose chariot only blocks a perpetual threat of mate (长杀), must change, where the AXF rules allow both sides' moves: a draw"),
    ("pyffish", "axf-orange-113", "finds no forbidden chase in a perpetual chase (the source's own illustration): a draw where the source rules Red must change"),
    ("pyffish", "axf-orange-076", "judges a position the suite refuses (a black soldier behind its first rank): validate_fen checks no piece placement"),
    ("pyffish", "ruling/*", "gives only the verdict: pyffish exposes no per-move classes, targets or patterns, which these cases check"),
    # cchess
    ("cchess", "notation-abbreviated-*", "reads no abbreviated notation (炮2.5, 马8+7): Move.from_text finds no move or raises ValueError"),
    ("cchess", "notation-chinese-*traditional*", "reads no traditional or variant characters (車, 將, 進, 俥, 傌, 砲, 包): simplified characters only"),
    ("cchess", "notation-chinese-*variant*", "reads no traditional or variant characters (車, 將, 進, 俥, 傌, 砲, 包): simplified characters only"),
    ("cchess", "notation-chinese-*-bao", "reads no traditional or variant characters (車, 將, 進, 俥, 傌, 砲, 包): simplified characters only"),
    ("cchess", "notation-chinese-*-pao-stone", "reads no traditional or variant characters (車, 將, 進, 俥, 傌, 砲, 包): simplified characters only"),
    ("cchess", "notation-tandem-rear-traditional", "reads no traditional or variant characters (車, 將, 進, 俥, 傌, 砲, 包): simplified characters only"),
    ("cchess", "notation-error-chinese-empty", "raises IndexError or ValueError on text it cannot read (empty, no number, file 十 or 0) instead of refusing it"),
    ("cchess", "notation-error-chinese-missing-number", "raises IndexError or ValueError on text it cannot read (empty, no number, file 十 or 0) instead of refusing it"),
    ("cchess", "notation-error-chinese-ten-is-no-file", "raises IndexError or ValueError on text it cannot read (empty, no number, file 十 or 0) instead of refusing it"),
    ("cchess", "notation-error-chinese-zero-file", "raises IndexError or ValueError on text it cannot read (empty, no number, file 十 or 0) instead of refusing it"),
    ("cchess", "notation-error-chinese-trailing-text", "ignores characters after the move (炮二平五五 reads as 炮二平五)"),
    ("cchess", "notation-error-front-without-tandem", "reads texts that denote no legal move: 前 for pieces not on one file, 中 of four, a move that leaves the generals facing (its move check looks at no checks)"),
    ("cchess", "notation-error-move-exposing-facing-generals", "reads texts that denote no legal move: 前 for pieces not on one file, 中 of four, a move that leaves the generals facing (its move check looks at no checks)"),
    ("cchess", "notation-tandem-four-no-middle", "reads texts that denote no legal move: 前 for pieces not on one file, 中 of four, a move that leaves the generals facing (its move check looks at no checks)"),
    ("cchess", "notation-tandem-two-files-ambiguous", "does not see ambiguity: of two front soldiers on two files it picks one"),
    ("cchess", "notation-tandem-*", "reads tandem pieces only as 前/中/后 counted over the side's pieces of that kind: no 一二三四 numbering, no file forms (前七, 前兵七), no plain form when only one of two can move, 前/后 picked across files"),
    ("cchess", "notation-format-tandem-*", "writes tandem pieces its own way: no 前/后 for advisors (仕六退五), a digit for Black's third of four (3卒), the piece and not the file where tandems stand on two files (前兵平六)"),
    ("cchess", "fen-letters-h-and-e", "refuses `h` and `e` for horse and elephant, letters met in the field (feature fen-letter-h, fen-letter-e)"),
    ("cchess", "fen/*", "accepts what the suite refuses: from_fen checks only that each character is a piece letter (no board shape, counters, side to move, piece count, placement or checks)"),
    ("cchess", "*-refuses-*", "answers for a FEN the suite refuses (three red horses, facing generals, a short board): from_fen checks only that each character is a piece letter"),
]


def find_executable(name, extra=()):
    found = shutil.which(name)
    if found:
        return found
    for d in extra:
        p = Path(d) / name
        if p.is_file() and os.access(p, os.X_OK):
            return str(p)
    return None


def python_has(module):
    r = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
    return r.returncode == 0


def uci_name(path):
    try:
        out = subprocess.run([path], input="uci\nquit\n", capture_output=True, text=True, timeout=10).stdout
    except Exception:
        return None
    for line in out.splitlines():
        if line.startswith("id name "):
            return line[len("id name "):].strip()
    return None


def implementations():
    """(key, title, conform arguments, version or None) of each installed implementation."""
    found = []
    if python_has("pyffish"):
        found.append(("pyffish", "Fairy-Stockfish (pyffish)",
                      ["--adapter", f"{sys.executable} {ADAPTERS / 'pyffish_adapter.py'}"], None))
    if python_has("cchess"):
        found.append(("cchess", "cchess (PyPI)",
                      ["--adapter", f"{sys.executable} {ADAPTERS / 'cchess_adapter.py'}"], None))
    pika = os.environ.get("PIKAFISH") or find_executable("pikafish")
    if pika:
        found.append(("pikafish", "Pikafish (UCI)", ["--uci", pika], uci_name(pika)))
    fsf = find_executable("fairy-stockfish", ["/usr/games"])
    if fsf:
        found.append(("fairy-stockfish-uci", "Fairy-Stockfish (UCI engine)", ["--uci", fsf], uci_name(fsf)))
    return found


def runner():
    exe = os.environ.get("XQSPEC") or shutil.which("xqspec")
    for p in (ROOT / "target" / "release" / "xqspec", ROOT / "target" / "debug" / "xqspec"):
        if not exe and p.is_file():
            exe = str(p)
    if not exe:
        sys.exit("measure.py: no xqspec (put it on the PATH with `cargo install --path .`, or set XQSPEC)")
    return exe


def run(exe, key, args):
    """Run the suite; the JSON lines and the wall time in seconds."""
    cmd = [exe, "conform", "--cases", str(ROOT / "conformance"), "--json", *args]
    print(f"measure.py: {key}: {' '.join(cmd)}", file=sys.stderr, flush=True)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    seconds = time.monotonic() - start
    lines = [json.loads(l) for l in proc.stdout.splitlines() if l.strip().startswith("{")]
    if not any(l.get("type") == "summary" for l in lines):
        sys.exit(f"measure.py: {key}: the run gave no summary\n{proc.stderr[-2000:]}")
    return lines, seconds


def reason_of(key, case):
    path = case["path"][:-5] if case["path"].endswith(".yaml") else case["path"]
    for k, glob, sentence in REASONS:
        if k == key and (fnmatch.fnmatchcase(case["id"], glob) or fnmatch.fnmatchcase(path, glob)):
            return sentence
    return None


def detail_pattern(detail):
    """A failure's detail with the particulars taken out, to group unexplained failures."""
    d = re.sub(r'"[^"]*"', '"…"', detail)
    d = re.sub(r"\{.*\}", "{…}", d)
    d = re.sub(r"\d+", "N", d)
    return d[:120]


def table(rows, first):
    out = [f"| {first} | passed | failed | skipped |", "|---|---:|---:|---:|"]
    for name, c in rows:
        out.append(f"| {name} | {c['pass']} | {c['fail']} | {c['skip']} |")
    return out


def plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def duration(seconds):
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


def bucket(status):
    return "pass" if status == "pass" else "skip" if status == "skip" else "fail"


def section(key, title, version, lines, seconds):
    header = next(l for l in lines if l.get("type") == "header")
    cases = [l for l in lines if l.get("type") == "case"]
    impl = header.get("implementation", {})
    version = version or impl.get("version", "?")
    by_area = collections.defaultdict(collections.Counter)
    by_set = collections.defaultdict(collections.Counter)
    total = collections.Counter()
    for c in cases:
        b = bucket(c["status"])
        by_area[c["area"]][b] += 1
        by_set[c["edition"]][b] += 1
        total[b] += 1
    out = [f"## {title}", ""]
    out.append(f"- version: {version}")
    out.append(f"- queries declared: {', '.join(impl.get('queries', []))}")
    out.append(f"- rule sets declared: {', '.join(impl.get('editions', []))}")
    out.append(f"- totals: {total['pass']} passed, {total['fail']} failed, {total['skip']} skipped "
               f"in {duration(seconds)}")
    out.append("")
    out.append("By area:")
    out.append("")
    out += table(sorted(by_area.items()) + [("total", total)], "area")
    out.append("")
    out.append("By rule set:")
    out.append("")
    out += table([(s, by_set[s]) for s in RULE_SETS if s in by_set]
                 + [(s, c) for s, c in sorted(by_set.items()) if s not in RULE_SETS] + [("total", total)], "rule set")
    out.append("")
    groups = collections.OrderedDict()
    for c in cases:
        if c["status"] not in FAILING:
            continue
        sentence = reason_of(key, c)
        if sentence is None:
            sentence = f"{c['area']}: {detail_pattern(c['detail'])} (no reason written yet)"
        groups.setdefault(sentence, []).append(c)
    out.append("What fails and why:")
    out.append("")
    if not groups:
        out.append("- nothing")
    for sentence, cs in sorted(groups.items(), key=lambda g: -len(g[1])):
        ids = sorted({c["id"] for c in cs})
        areas = sorted({c["area"] for c in cs})
        shown = ", ".join(f"`{i}`" for i in ids[:4]) + (f" and {len(ids) - 4} more" if len(ids) > 4 else "")
        out.append(f"- {sentence} ({'/'.join(areas)}; {plural(len(cs), 'run')} of {plural(len(ids), 'case')}: {shown})")
    undeclared = collections.Counter()
    skips = collections.Counter()
    for c in cases:
        if c["status"] != "skip":
            continue
        m = re.fullmatch(r"query (\S+) not supported", c["detail"])
        if m:
            undeclared[m.group(1)] += 1
        else:
            skips[detail_pattern(c["detail"])] += 1
    out.append("")
    out.append("Skipped:")
    out.append("")
    if undeclared:
        out.append(f"- {sum(undeclared.values())}: queries not declared ("
                   + ", ".join(f"{q} {n}" for q, n in undeclared.most_common()) + ")")
    for d, n in skips.most_common(8):
        out.append(f"- {n}: {d}")
    out.append("")
    return out, total, version


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", help="only this implementation key (repeatable)")
    ap.add_argument("--raw", help="keep each run's JSON lines (and its time) in this folder")
    ap.add_argument("--from-raw", help="write the report from the runs kept in this folder, running nothing")
    ap.add_argument("--output", default=str(REPORT))
    a = ap.parse_args()
    impls = implementations()
    if a.only:
        impls = [i for i in impls if i[0] in a.only]
    results = []
    for key, title, args, version in impls:
        if a.from_raw:
            f = Path(a.from_raw) / f"{key}.jsonl"
            if not f.exists():
                continue
            lines = [json.loads(l) for l in f.read_text().splitlines() if l.strip()]
            meta = next(l for l in lines if l.get("type") == "measure")
            seconds = meta["seconds"]
            version = meta.get("version") or version
        else:
            lines, seconds = run(runner(), key, args)
            if a.raw:
                Path(a.raw).mkdir(parents=True, exist_ok=True)
                with open(Path(a.raw) / f"{key}.jsonl", "w") as f:
                    f.write(json.dumps({"type": "measure", "seconds": seconds, "version": version}) + "\n")
                    for l in lines:
                        f.write(json.dumps(l, ensure_ascii=False) + "\n")
        results.append((key, title, version, lines, seconds))
    if not results:
        sys.exit("measure.py: none of the implementations is installed")
    today = datetime.date.today().isoformat()
    head = ["# Third-party implementations on the conformance suite", "",
            f"Generated by `python3 conformance/adapters/measure.py` on {today}; do not edit by hand "
            "(the reasons for failures are kept in the script's REASONS). Each implementation ran once over "
            "the whole suite, every rule set; a case counts once per rule set it runs under. *Skipped* is a "
            "case the implementation does not declare or answers `unsupported` for; *failed* counts wrong "
            "answers, errors, crashes and time-outs.", ""]
    body, summary_rows = [], []
    for key, title, version, lines, seconds in results:
        sec, total, version = section(key, title, version, lines, seconds)
        body += sec
        summary_rows.append(f"| {title} | {version} | {total['pass']} | {total['fail']} | {total['skip']} | {duration(seconds)} |")
    hints = {"pyffish": ("Fairy-Stockfish (pyffish)", "`pip install pyffish`"),
             "cchess": ("cchess (PyPI)", "`pip install cchess`"),
             "pikafish": ("Pikafish (UCI)", "a release binary of its own, found as `pikafish` on the PATH or "
                          "through `PIKAFISH=/path`; no Python or Debian package ships it")}
    missing = [f"{t} ({hint})" for k, (t, hint) in hints.items() if k not in {r[0] for r in results}]
    head += ["## Totals", "", "| implementation | version | passed | failed | skipped | time |",
             "|---|---|---:|---:|---:|---:|"] + summary_rows + [""]
    if missing:
        head += [f"Not installed on the measuring machine, so not measured: {'; '.join(missing)}.", ""]
    Path(a.output).parent.mkdir(parents=True, exist_ok=True)
    Path(a.output).write_text("\n".join(head + body).rstrip() + "\n")
    print(f"measure.py: wrote {a.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
