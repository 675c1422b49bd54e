#!/usr/bin/env python3
"""Measure the third-party implementations that are installed against the
conformance suite and write `reports/implementations.md`.

    python3 conformance/adapters/measure.py            # run every installed one, write the report
    python3 conformance/adapters/measure.py --only cchess --raw DIR   # run one, keep its JSON lines
    python3 conformance/adapters/measure.py --from-raw DIR   # rewrite the report from kept runs

One command, run by hand from the repository's root; CI and `cargo test`
never need it. `xqspec report --check` (in CI) fails when the report was
measured on another suite than the checkout's (its `Measured on suite …`
line): then run this again.

Each implementation in IMPLEMENTATIONS below is looked for on this machine
(a Python module, an executable on the PATH, a Node.js module, a Rust
example crate) and run once over the whole suite, every rule set, through
the lightest path its users would take: an engine as it is (`--uci`,
`--ucci`), a library through a small adapter of this folder, a Rust crate
through xqspec's own `Harness` in an example crate. None of their code is in
this repository; each entry says how to install it.

The runner is `xqspec` on the PATH, or `XQSPEC=/path/to/xqspec`
(`cargo install --path .` puts it on the PATH), else `target/release/xqspec`.

A case that timed out is run once more, alone, with a longer limit (RERUN_TIMEOUT): a loaded
machine's time-out is no answer of the program's. A run that stopped asking (its summary's
`stopped`: five time-outs or twenty faults in a row, PROTOCOL.md §2.6) writes no row: the
program is listed as not measured, with the reason.

Why cases fail is written by hand, one file per implementation:
`reasons/<key>.txt`, one line per group of failing cases,
`<glob over the case id or its path without .yaml><TAB><sentence>`, the
first match naming a failure's group; found by reading the failures'
details. A failure no glob matches is listed under its area and detail with
"no reason written yet": read it and add a line.
"""

import argparse
import collections
import datetime
import fnmatch
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from basis import xqspec  # noqa: E402  (how every script finds the runner)
ADAPTERS = Path(__file__).resolve().parent
REASONS = ADAPTERS / "reasons"
REPORT = ROOT / "reports" / "implementations.md"
RULE_SETS = ["cxa-1999", "cxa-2011", "cxa-2020", "axf"]
FAILING = ("fail", "error", "crash", "timeout")

# The scoreboard's columns: (title, area, rule set or None for all). The 棋例 rulings are
# shown per rule set, between the areas of the board and those of the arbiter; an area the
# suite has and this list lacks is added at the end.
def for_all(*columns):
    """(title, area) columns, shown over all rule sets."""
    return [(title, area, None) for title, area in columns]


COLUMNS = (
    for_all(("movement", "movement"), ("check and mate", "check"), ("FEN", "fen"), ("perft", "perft"),
            ("notation", "notation"), ("real games", "games"))
    + [(f"棋例 {s.removeprefix('cxa-').upper()}", "ruling", s) for s in RULE_SETS]
    + for_all(("outcome", "outcome"), ("game status", "game-status"), ("touch-move", "touch"), ("clock", "clock"),
              ("standings", "standings"), ("play-off", "playoff"))
)


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


def dist_version(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def python_adapter(module, dist, adapter):
    def find():
        if not python_has(module):
            return None
        return ["--adapter", f"{sys.executable} {ADAPTERS / adapter}"], dist_version(dist)
    return find


def engine(flag, names, env, extra=()):
    def find():
        path = os.environ.get(env) or next((p for n in names for p in [find_executable(n, extra)] if p), None)
        if not path:
            return None
        return [flag, path], None  # the version is the engine's `id name` (and `id version`)
    return find


def node_adapter():
    """xiangqi.js through `xiangqijs_adapter.js`: the module from XIANGQI_JS, else Node's own lookup."""
    if not shutil.which("node"):
        return None
    env = dict(os.environ)
    probe = "const p=process.env.XIANGQI_JS;const m=require(p||'xiangqi.js');console.log(typeof m)"
    r = subprocess.run(["node", "-e", probe], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        return None
    return ["--adapter", f"node {ADAPTERS / 'xiangqijs_adapter.js'}"], None


def node_module_adapter(module, adapter):
    """A Node.js library through an adapter of this folder: found by Node's module lookup
    (NODE_PATH included, e.g. `NODE_PATH=/path/to/node_modules`)."""
    def find():
        if not shutil.which("node"):
            return None
        r = subprocess.run(["node", "-e", f"require.resolve({json.dumps(module)})"], capture_output=True)
        if r.returncode != 0:
            return None
        return ["--adapter", f"node {ADAPTERS / adapter}"], None
    return find


def searching_engine(flag, names, env, extra=()):
    """An engine (`engine`) that must answer a search: Pikafish without its network file
    quits at every `go`, perft included; it is then listed as not measured."""
    found_engine = engine(flag, names, env, extra)

    def find():
        found = found_engine()
        if not found:
            return None
        hello = "uci" if flag == "--uci" else "ucci"
        try:
            out = subprocess.run([found[0][1]], input=f"{hello}\nposition startpos\ngo perft 1\nquit\n",
                                 capture_output=True, text=True, timeout=10).stdout
        except Exception as e:
            return f"found at {found[0][1]}, but it does not start ({e})"
        if "Nodes searched" in out:
            return found
        return (f"found at {found[0][1]}, but it answers no `go` (perft included): "
                + (next((l for l in out.splitlines() if "ERROR" in l), "") or "no answer"))
    return find


def rust_example(folder):
    """A Rust crate through xqspec's `Harness`: an example crate that prints the runner's JSON lines."""
    def find():
        manifest = ADAPTERS / folder / "Cargo.toml"
        if not manifest.exists() or not shutil.which("cargo"):
            return None
        return ["cargo", "run", "--quiet", "--release", "--manifest-path", str(manifest)], None
    return find


# key: the name of its reasons file and of its kept run; title; how it is found and run
# (a function giving the conform arguments, or a whole command, and a version, or None
# when it is not installed); how to install it.
IMPLEMENTATIONS = [
    ("pikafish", "Pikafish (UCI)", searching_engine("--uci", ["pikafish"], "PIKAFISH"),
     "a release binary, or built from github.com/official-pikafish/Pikafish (`make -j2 build "
     "ARCH=x86-64-bmi2`), with its network file `pikafish.nnue` beside it (a release asset of "
     "official-pikafish/Networks), found as `pikafish` on the PATH or through `PIKAFISH=/path`; without "
     "the network file it quits at every `go`, perft included, and is not measured; no Python or Debian "
     "package ships it"),
    ("fairy-stockfish-uci", "Fairy-Stockfish (UCI engine)",
     engine("--uci", ["fairy-stockfish"], "FAIRY_STOCKFISH", ["/usr/games"]),
     "built from github.com/fairy-stockfish/Fairy-Stockfish (`make -j2 build ARCH=x86-64-bmi2 "
     "largeboards=yes` in src/; release 14 or later: the `xiangqi` variant's chasing rules, which "
     "the 棋例 column needs), found as `fairy-stockfish` on the PATH or through `FAIRY_STOCKFISH=/path`; "
     "Debian's package `fairy-stockfish` (11.1, `/usr/games`) predates the chasing rules: it answers "
     "perft and legal moves only"),
    ("eleeye", "ElephantEye (UCCI)", engine("--ucci", ["eleeye", "ELEEYE"], "ELEEYE"),
     "built from github.com/xqbase/eleeye with a C++ compiler (in eleeye/: `g++ -O2 -o eleeye "
     "../base/pipe.cpp ucci.cpp pregen.cpp position.cpp genmoves.cpp hash.cpp book.cpp movesort.cpp "
     "preeval.cpp evaluate.cpp search.cpp eleeye.cpp`), found as `eleeye` on the PATH or through "
     "`ELEEYE=/path`"),
    ("pyffish", "Fairy-Stockfish (pyffish)", python_adapter("pyffish", "pyffish", "pyffish_adapter.py"),
     "`pip install pyffish`"),
    ("cchess", "cchess (PyPI)", python_adapter("cchess", "cchess", "cchess_adapter.py"), "`pip install cchess`"),
    ("chinese-chess-lib", "chinese-chess-lib (PyPI)",
     python_adapter("chinese_chess_lib", "chinese-chess-lib", "chinese_chess_lib_adapter.py"),
     "`pip install chinese-chess-lib`"),
    ("xiangqi", "xiangqi (PyPI)", python_adapter("xiangqi", "xiangqi", "xiangqi_adapter.py"), "`pip install xiangqi`"),
    ("gym-xiangqi", "gym-xiangqi (PyPI)", python_adapter("gym_xiangqi", "gym-xiangqi", "gym_xiangqi_adapter.py"),
     "`pip install gym-xiangqi`"),
    ("xiangqi.js", "xiangqi.js (Node.js)", node_adapter,
     "github.com/lengyanyu258/xiangqi.js, or its npm package, found through `XIANGQI_JS=/path/to/xiangqi.js` "
     "or Node's module lookup"),
    ("chessai", "chessai (crates.io)", rust_example("rust-chessai"),
     "nothing to install: `conformance/adapters/rust-chessai/` depends on it, cargo fetches it"),
    ("elephantops", "elephantops (npm)", node_module_adapter("elephantops", "elephantops_adapter.js"),
     "`npm install elephantops`, found by Node's module lookup (`NODE_PATH=/path/to/node_modules`)"),
    ("jocly", "Jocly (npm)", node_module_adapter("jocly", "jocly_adapter.js"),
     "`npm install jocly`, found by Node's module lookup (`NODE_PATH=/path/to/node_modules`)"),
    ("xiangqibench", "xiangqibench (PyPI)", python_adapter("xiangqibench", "xiangqibench", "xiangqibench_adapter.py"),
     "`pip install xiangqibench`"),
    ("cotuongpi", "cotuongpi (PyPI)", python_adapter("cotuongpi", "cotuongpi", "cotuongpi_adapter.py"),
     "`pip install cotuongpi`"),
]

# The 棋例 rules each program's `ruling` answers follow, where it answers one: its rulings are
# measured under that rule set only (PROTOCOL.md §7.1).
RULES = {
    "fairy-stockfish-uci": "AXF-like: the AXF chasing rules of its `xiangqi` variant (`chasingRule = axf`): "
                           "one-sided perpetual check, or perpetual chase of one piece, loses; judged at "
                           "the third occurrence; measured under `axf`, through its search score",
    "eleeye": "AXF-like: the rules of its UCCI league (`LEAGUE/RULE.TXT` 5.1–5.7: one-sided perpetual check "
              "loses, a one-sided perpetual chase of one piece loses, anything else is a draw), chases "
              "simplified to the moved piece's own attack on a chariot or on an unprotected horse, cannon or "
              "crossed soldier; judged in its search at the second occurrence; measured under `axf`, through "
              "its search score",
    "pikafish": "AXF-like: its own chase detection (`Position::detect_chases`), judged at the third "
                "occurrence; not measured here without its network file",
    "pyffish": "AXF-like: Fairy-Stockfish's AXF chasing rules (`is_optional_game_end`); measured under `axf`",
    "cotuongpi": "its own free-movement mode (no 棋例): a side in check is warned, not made to resolve it, "
                 "and a captured general ends the game, so its moves are the pieces' moves without the check "
                 "filter; a position standing three times is a draw, no moves left a draw",
    "xiangqibench": "a simplification: threefold repetition is a draw unless one side checked on every "
                    "move (perpetual check loses); chases are not adjudicated; measured under `axf`",
}


def engine_name(flag, path):
    """`id name` (and `id version`) of a UCI or UCCI engine."""
    hello = "uci" if flag == "--uci" else "ucci"
    try:
        out = subprocess.run([path], input=f"{hello}\nquit\n", capture_output=True, text=True, timeout=10).stdout
    except Exception:
        return None
    name = version = None
    for line in out.splitlines():
        if line.startswith("id name "):
            name = line[len("id name "):].strip()
        elif line.startswith("id version "):
            version = line[len("id version "):].strip()
    return f"{name} {version}" if name and version else name


def run(exe, key, args):
    """Run the suite; the JSON lines and the wall time in seconds. `args` are the options of
    `xqspec conform`, or (a Rust example) a whole command that prints the same lines."""
    if args[0] == "cargo":
        cmd = args
    else:
        cmd = [exe, "conform", "--cases", str(ROOT / "conformance"), "--json", "--quiet", *args]
    print(f"measure.py: {key}: {' '.join(cmd)}", file=sys.stderr, flush=True)
    env = dict(os.environ)
    if args[0] == "cargo":
        # Built outside conformance/, which xqspec embeds; built before the clock starts.
        env.setdefault("CARGO_TARGET_DIR", str(ROOT / "target" / "adapters"))
        subprocess.run(["cargo", "build", "--quiet", "--release", *args[4:]], cwd=ROOT, env=env, check=True)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    seconds = time.monotonic() - start
    lines = [json.loads(l) for l in proc.stdout.splitlines() if l.strip().startswith("{")]
    if not any(l.get("type") == "summary" for l in lines):
        sys.exit(f"measure.py: {key}: the run gave no summary\n{proc.stderr[-2000:]}")
    return lines, seconds


# A case that timed out is run once more with this limit (seconds): a loaded machine's
# time-out is no answer of the program's.
RERUN_TIMEOUT = 30


def rerun_timeouts(exe, key, args, lines):
    """`lines` with every case that timed out run once more, alone, with the longer limit
    RERUN_TIMEOUT; its new line replaces the time-out (a Rust example, run by cargo, is kept
    as it ran)."""
    timed_out = [l for l in lines if l.get("type") == "case" and l["status"] == "timeout"]
    if not timed_out or args[0] == "cargo":
        return lines
    ids = sorted({l["id"] for l in timed_out})
    print(f"measure.py: {key}: running {len(ids)} timed-out cases again with --timeout {RERUN_TIMEOUT}",
          file=sys.stderr, flush=True)
    runs = [a for i in ids for a in ("--run", i)]
    again, _ = run(exe, key, [*args, *runs, "--timeout", str(RERUN_TIMEOUT)])
    new = {(l["id"], l["edition"]): l for l in again if l.get("type") == "case"}
    out = []
    for l in lines:
        if l.get("type") == "case" and l["status"] == "timeout":
            l = new.get((l["id"], l["edition"]), l)
        out.append(l)
    return out


def stopped_reason(lines):
    """Why a run is no measurement of its program: it stopped asking (its summary's
    `stopped`, PROTOCOL.md §2.6), leaving cases `not_asked`. None for a whole run."""
    summary = next((l for l in lines if l.get("type") == "summary"), {})
    stopped = summary.get("stopped")
    if not stopped:
        return None
    return (f"its run stopped asking after {stopped.get('after')} {stopped.get('kind', 'time-outs')} in a row "
            f"({stopped.get('unasked')} cases not asked; the last, {stopped.get('last')}: "
            f"{str(stopped.get('printed'))[:200]}), so no row is written from it")


def suite_dump(exe):
    """Every case × rule set of the checkout's suite (`xqspec cases dump`), by (id, rule set)."""
    out = subprocess.run([exe, "cases", "dump", "--cases", str(ROOT / "conformance")], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    rows = [json.loads(l) for l in out.splitlines() if l.strip()]
    return {(r["id"], r["edition"]): r for r in rows}


def planned_runs(dumped):
    """The runs of the whole suite: a case once per rule set it runs under, or once for all
    (`runs: once`, its answer the same under each), whichever rule sets a program declares."""
    once = {i for (i, _), r in dumped.items() if r.get("runs") == "once"}
    return len(once) + sum(1 for (i, _) in dumped if i not in once)


def suite_version(exe):
    out = subprocess.run([exe, "conform", "--run", "-", "--json", "--quiet"], cwd=ROOT,
                         capture_output=True, text=True).stdout
    for l in out.splitlines():
        if l.startswith("{") and json.loads(l).get("type") == "header":
            return json.loads(l)["suite"]
    sys.exit("measure.py: cannot read the suite's version from `xqspec conform --json`")


def reasons(key):
    f = REASONS / f"{key}.txt"
    out = []
    if f.exists():
        for n, line in enumerate(f.read_text().splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            glob, sep, sentence = line.partition("\t")
            if not sep or not sentence.strip():
                sys.exit(f"measure.py: {f}:{n}: want `<glob><TAB><sentence>`")
            out.append((glob.strip(), sentence.strip()))
    return out


def reason_of(rules, case):
    path = case["path"][:-5] if case["path"].endswith(".yaml") else case["path"]
    for glob, sentence in rules:
        if fnmatch.fnmatchcase(case["id"], glob) or fnmatch.fnmatchcase(path, glob):
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


def code(text, limit=400):
    text = str(text)
    if len(text) > limit:
        text = text[:limit] + " …"
    return "`" + text.replace("`", "'") + "`"


def article_text(case):
    """`art. 2.4 (movement.horse)` for each clause the case cites, in its rule set."""
    arts = case.get("articles") or {}
    out = []
    for c in case.get("clauses", []):
        a = arts.get(c)
        out.append(f"art. {a} (`{c}`)" if a else f"`{c}`")
    return ", ".join(out)


def expected_text(c, d):
    """What is expected and why: "the rules say", with the articles, only for a `rule` case;
    a convention or an optional feature is named as such."""
    basis = c.get("basis") or d.get("basis")
    if basis == "rule":
        return f"the rules say: {code(c['expected'])}, by {article_text(d) or 'the case'}"
    if basis == "optional":
        return f"expected (an optional feature, which a program may leave out: {', '.join(d.get('features', []))}): {code(c['expected'])}"
    return f"expected (a convention of the suite, not a rule): {code(c['expected'])}"


BASIS_RANK = {"rule": 0, "convention": 1, "optional": 2}


def repro(c, dumped):
    """The smallest case of a group, written to be pasted into the program's issue tracker."""
    d = dumped.get((c["id"], c["edition"]), {})
    inp = d.get("input", {})
    lines = [f"  - smallest case: `{c['id']}` under {c['edition']} (`conformance/{c['path']}`), query `{d.get('query', '?')}`"]
    if "fen" in inp:
        lines.append(f"    - FEN: {code(inp['fen'])}")
    moves = inp.get("moves")
    if moves:
        lines.append(f"    - moves: {code(' '.join(moves) if isinstance(moves, list) else moves)}")
    rest = {k: v for k, v in inp.items() if k not in ("fen", "moves")}
    if rest:
        lines.append(f"    - input: {code(json.dumps(rest, ensure_ascii=False))}")
    lines.append(f"    - {expected_text(c, d)}")
    said = c["got"] or f"{c['status']}: {c['detail']}"
    # the detail, where it says more than the answer (`moves differ: missing d9d8`)
    more = c["got"] and c["detail"] and not c["detail"].startswith("expected ")
    lines.append(f"    - the program says: {code(said)}" + (f" ({c['detail']})" if more else ""))
    return lines


def size(c, dumped):
    d = dumped.get((c["id"], c["edition"]), {})
    # a rule case first: a convention or an optional feature shows a bug less plainly
    return (BASIS_RANK.get(c.get("basis"), 3), len(json.dumps(d.get("input", {}), ensure_ascii=False)),
            c["edition"] != "cxa-2020", c["id"])


def columns_of(cases):
    """COLUMNS, then a column for each area of `cases` that COLUMNS lacks."""
    known = {a for _, a, _ in COLUMNS}
    return COLUMNS + [(a, a, None) for a in sorted({c["area"] for c in cases} - known)]


def verdict_only(c):
    """Whether the case's answer showed a ruling's verdict alone (`verdict_only`: an engine's
    score, a library's game end): it is judged on the verdict."""
    return '"verdict_only":true' in (c.get("got") or "").replace(" ", "")


def partially_judged(c):
    return c["status"] == "pass" and c.get("detail", "").startswith("judged on the verdict alone")


def cell(c):
    run = c["pass"] + c["fail"]
    if run == 0:
        return "–"
    pct = 100 * c["pass"] / run
    shown = f"{pct:.0f} %" if c["fail"] == 0 or pct < 99.5 else f"{pct:.1f} %"
    if c["fail"] and shown == "100 %":
        shown = ">99 %"
    return f"{shown} {c['pass']}/{run}" + (" ᵛ" if c["verdict"] else "")


BASES = ["rule", "convention", "optional"]


def basis_of(c, dumped):
    """The case's `basis` (rule, convention, optional) as `cases dump` gives it, or `unmarked`."""
    return dumped.get((c["id"], c["edition"]), {}).get("basis") or "unmarked"


def by_basis_text(counts):
    return ", ".join(f"{b} {counts[b]}" for b in BASES + ["unmarked"] if counts[b] or b in BASES)


def section(key, title, version, lines, seconds, dumped):
    header = next(l for l in lines if l.get("type") == "header")
    cases = [l for l in lines if l.get("type") == "case"]
    impl = header.get("implementation", {})
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
    failed_by_basis = collections.Counter(basis_of(c, dumped) for c in cases if c["status"] in FAILING)
    out.append(f"- failures by basis: {by_basis_text(failed_by_basis)}")
    if key in RULES:
        out.append(f"- 棋例 rules: {RULES[key]}")
    shown = [c for c in cases if verdict_only(c)]
    if shown:
        partial = sum(partially_judged(c) for c in shown)
        out.append(f"- 棋例 answers showing the verdict alone: {len(shown)}, judged on it; {partial} of "
                   "their passes are of cases that also check the moves' classes, not compared")
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
    rules = reasons(key)
    groups = collections.OrderedDict()
    for c in cases:
        if c["status"] not in FAILING:
            continue
        sentence = reason_of(rules, c)
        if sentence is None:
            sentence = f"{c['area']}: {detail_pattern(c['detail'])} (no reason written yet)"
        groups.setdefault(sentence, []).append(c)
    out.append("What fails and why, each with its smallest case:")
    out.append("")
    if not groups:
        out.append("- nothing")
    for sentence, cs in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])):
        ids = sorted({c["id"] for c in cs})
        areas = sorted({c["area"] for c in cs})
        shown = ", ".join(f"`{i}`" for i in ids[:4]) + (f" and {len(ids) - 4} more" if len(ids) > 4 else "")
        out.append(f"- {sentence} ({'/'.join(areas)}; {plural(len(cs), 'run')} of {plural(len(ids), 'case')}: {shown})")
        out += repro(min(cs, key=lambda c: size(c, dumped)), dumped)
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
    return out, total, failed_by_basis


def scoreboard(results):
    """Implementations down, areas across: the pass rate of the cases each ran, with counts."""
    all_cases = [c for r in results for c in r["cases"]]
    cols = [col for col in columns_of(all_cases)
            if any(c["area"] == col[1] and (col[2] is None or c["edition"] == col[2]) for c in all_cases)]
    out = ["| implementation | " + " | ".join(t for t, _, _ in cols) + " |",
           "|---|" + "---:|" * len(cols)]
    for r in results:
        by = collections.defaultdict(collections.Counter)
        for c in r["cases"]:
            for t, area, rs in cols:
                if c["area"] == area and (rs is None or c["edition"] == rs):
                    by[t][bucket(c["status"])] += 1
                    by[t]["verdict"] += verdict_only(c)
        out.append(f"| {r['title']} | " + " | ".join(cell(by[t]) for t, _, _ in cols) + " |")
    return out


def load_raw(folder, key):
    f = Path(folder) / f"{key}.jsonl"
    if not f.exists():
        return None
    lines = [json.loads(l) for l in f.read_text().splitlines() if l.strip()]
    meta = next(l for l in lines if l.get("type") == "measure")
    return lines, meta["seconds"], meta.get("version")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", help="only this implementation key (repeatable)")
    ap.add_argument("--raw", help="keep each run's JSON lines (and its time) in this folder")
    ap.add_argument("--from-raw", help="write the report from the runs kept in this folder, running only "
                    "the implementations named with --only")
    ap.add_argument("--output", default=str(REPORT))
    a = ap.parse_args()
    exe = xqspec("measure.py", ("release", "debug"))
    dumped = suite_dump(exe)
    version_of_suite = suite_version(exe)
    case_files = len({r["path"] for r in dumped.values()})
    results, missing = [], []
    for key, title, find, install in IMPLEMENTATIONS:
        kept = load_raw(a.from_raw, key) if a.from_raw and not (a.only and key in a.only) else None
        if a.from_raw and kept is None and not (a.only and key in a.only):
            missing.append((title, install, "no kept run"))
            continue
        if not a.from_raw and a.only and key not in a.only:
            continue
        if kept:
            lines, seconds, version = kept
        else:
            found = find()
            if not found or isinstance(found, str):
                missing.append((title, install, found or "not installed"))
                continue
            args, version = found
            if args[0] in ("--uci", "--ucci"):
                version = engine_name(args[0], args[1])
            lines, seconds = run(exe, key, args)
            lines = rerun_timeouts(exe, key, args, lines)
            if a.raw or a.from_raw:
                folder = Path(a.raw or a.from_raw)
                folder.mkdir(parents=True, exist_ok=True)
                with open(folder / f"{key}.jsonl", "w") as f:
                    f.write(json.dumps({"type": "measure", "seconds": seconds, "version": version}) + "\n")
                    for l in lines:
                        f.write(json.dumps(l, ensure_ascii=False) + "\n")
        why = stopped_reason(lines)
        if why:
            print(f"measure.py: {key}: {why}", file=sys.stderr, flush=True)
            missing.append((title, install, why))
            continue
        header = next(l for l in lines if l.get("type") == "header")
        cases = [l for l in lines if l.get("type") == "case"]
        if header.get("suite") != version_of_suite or len(cases) != planned_runs(dumped):
            sys.exit(f"measure.py: {key} ran {len(cases)} cases of suite {header.get('suite')}; the checkout's suite "
                     f"{version_of_suite} has {planned_runs(dumped)}: run it again")
        version = version or header.get("implementation", {}).get("version", "?")
        results.append({"key": key, "title": title, "version": version, "lines": lines, "seconds": seconds,
                        "cases": cases})
    if not results:
        sys.exit("measure.py: none of the implementations is installed")
    today = datetime.date.today().isoformat()
    head = ["# Third-party implementations on the conformance suite", "",
            f"Generated by `python3 conformance/adapters/measure.py` on {today}; do not edit by hand "
            "(the reasons for failures are kept in `conformance/adapters/reasons/`). Each implementation ran once "
            "over the whole suite, every rule set, through the lightest path its users would take (an engine as it "
            "is, a library through a small adapter in `conformance/adapters/`); a case counts once per rule set it "
            "runs under, or once for all where its answer is the same under each (`runs: once`); a case that "
            "timed out was run once more with a longer limit. *Skipped* is a case the implementation does not declare or answers `unsupported` for; "
            "*failed* counts wrong answers, errors, crashes and time-outs.", "",
            f"Measured on suite {version_of_suite}, {case_files} case files, {planned_runs(dumped)} runs "
            "(a case once per rule set it runs under, or once for all where its answer is the same under each).", ""]
    body, summary_rows = [], []
    for r in results:
        sec, total, failed_by_basis = section(r["key"], r["title"], r["version"], r["lines"], r["seconds"], dumped)
        body += sec
        summary_rows.append(f"| {r['title']} | {r['version']} | {total['pass']} | {total['fail']} | "
                            + " | ".join(str(failed_by_basis[b]) for b in BASES)
                            + f" | {total['skip']} | {duration(r['seconds'])} |")
    head += ["## Scoreboard", "",
             "Each cell: the share of the cases run in that area that pass, then passed/run (skipped cases "
             "are not run); – where the program answers none. 棋例 is the `ruling` query under each rule set; "
             "ᵛ marks a cell whose answers show the verdict alone (an engine's search score, a library's game "
             "end: PROTOCOL.md §7.1), judged on it, `X_loses` read as `X_must_change`.", ""]
    head += scoreboard(results) + [""]
    head += ["## Totals", "",
             "Failed cases split by what their answer rests on (a case's `basis`): a rule of the text, a "
             "convention of the suite, an optional feature.", "",
             "| implementation | version | passed | failed | of them rule | convention | optional | skipped | time |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"] + summary_rows + [""]
    if missing:
        head += ["Not measured here:", ""]
        head += [f"- {t}: {why}; {install}." for t, install, why in missing] + [""]
    Path(a.output).parent.mkdir(parents=True, exist_ok=True)
    Path(a.output).write_text("\n".join(head + body).rstrip() + "\n")
    print(f"measure.py: wrote {a.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
