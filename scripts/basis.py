#!/usr/bin/env python3
"""Set `basis:` (rule | convention | optional) and `runs: once` on every conformance case.

    python3 scripts/basis.py            # rewrite the case files that need it, print the counts
    python3 scripts/basis.py --check    # change nothing; exit 1 if a file would change

Re-runnable: a file already right is left byte for byte, so a second run changes nothing.
Run it after adding or editing cases (then `xqspec cases check`). It needs `xqspec`: on the
PATH, through `XQSPEC=/path`, or built in `target/` (`cargo build`).

What a case's answer rests on (`basis:`), decided in this order:

1. `optional`: the case carries a feature that `conformance/features.yaml` marks
   `optional: true` (a FEN spelling met in the field, ICCS or WXF notation, traditional
   characters, full-width digits, refusing a position only for an unreachable point):
   a program may leave that feature out without breaking a rule.
2. `convention`: the expected answer is this suite's choice, not an article's:
   a. `format_move`, except its rejection of an illegal move: the rules say what a record
      says (piece, file, action, number; art. 7.5), not how a program spells it; the text
      each notation id writes (half-width digits for Black under `chinese`, the tandem
      designators, …) is the reference's, a convention;
   b. the case cites a clause that is no article's text but recording practice
      (`notation.tandem`: 前/中/后 and the plain form of tandem pieces; `notation.characters`:
      traditional and variant characters), see CONVENTION_CLAUSES;
   c. the case expects a rejection of a kind about the form or the consistency of the
      input, not about the rules (a FEN that is not a FEN, a move that is not ICCS, an event
      list that cannot happen on the board, a tournament file that names no such player …),
      see CONVENTION_REJECTS.
3. `rule`: every other case: an article of the rule set decides the answer (its clauses
   give the article a report quotes; `cases check` makes sure one has an article).

`runs: once` is set exactly where `xqspec cases check` says the reference answers alike
under every rule set of the case (and removed where it says otherwise): one run then stands
for all of them and is counted once.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "conformance"

# Clauses that state recording practice, not an article's text (their provenance says so):
# a case citing one is a convention (unless an optional feature makes it optional).
CONVENTION_CLAUSES = {"notation.tandem", "notation.characters"}

# Reject kinds about the form or the consistency of the input rather than the rules: which
# detail a program gives, or whether it reads the input at all, is the suite's convention.
CONVENTION_REJECTS = {
    # the FEN format (the position's own faults, piece counts, placement and check, are rules)
    "fen.syntax", "fen.board_shape", "fen.side_to_move", "fen.counters",
    # the protocol's move and notation spellings
    "move.syntax", "notation.syntax",
    # event lists that do not read or cannot happen as given
    "events.syntax", "events.impossible", "events.not_illegal", "events.out_of_order",
    # clock events and settings as the protocol writes them
    "clock.event_syntax", "clock.negative_time", "clock.overflow", "clock.unknown_scheme",
    "clock.settings", "clock.out_of_order",
    # play-off and touch-move inputs as the protocol writes them
    "playoff.unknown_chain", "playoff.game", "playoff.missing",
    "touch.syntax", "touch.empty_point", "touch.pattern",
    # tournament files as the protocol writes them
    "tournament.shape", "tournament.empty_id", "tournament.duplicate",
    "tournament.unknown_entrant", "tournament.unknown_value", "tournament.unknown_format",
    "tournament.unknown_order", "tournament.unknown_round", "tournament.edition",
    "tournament.self_game", "tournament.double_booking", "tournament.withdrawal",
}


def xqspec(who="basis.py", profiles=("debug", "release")):
    """The runner: `XQSPEC`, else `xqspec` on the PATH, else the first of `profiles` built in
    `target/` (measure.py asks for `release` first: it runs the whole suite many times)."""
    exe = os.environ.get("XQSPEC") or shutil.which("xqspec")
    for profile in profiles:
        p = ROOT / "target" / profile / "xqspec"
        if not exe and p.is_file():
            exe = str(p)
    if not exe:
        sys.exit(f"{who}: no xqspec (put it on the PATH with `cargo install --path .`, "
                 "build it with `cargo build`, or set XQSPEC)")
    return exe


def optional_features():
    """The features `features.yaml` marks `optional: true` (read line by line: the file is
    a flat mapping of features, each with `description` and `optional`)."""
    out, current = set(), None
    for line in (CASES / "features.yaml").read_text().splitlines():
        m = re.match(r"^  ([a-z0-9-]+):\s*$", line)
        if m:
            current = m.group(1)
        elif current and re.match(r"^    optional:\s*true\s*$", line):
            out.add(current)
    return out


def cases(exe):
    """Every case once (from `xqspec cases dump`): path → its fields and every expectation."""
    out = subprocess.run([exe, "cases", "dump", "--cases", str(CASES)], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    by_path = {}
    for line in out.splitlines():
        d = json.loads(line)
        c = by_path.setdefault(d["path"], {**d, "expects": []})
        c["expects"].append(d["expect"])
    return by_path


def basis_of(case, optional):
    """The basis of one case, by the rules of this file's docstring, and the rule that
    decided it."""
    if any(f in optional for f in case["features"]):
        return "optional", "optional feature"
    rejects = {e["reject"] for e in case["expects"] if isinstance(e, dict) and "reject" in e}
    if case["query"] == "format_move" and not (rejects and rejects <= {"move.illegal"}):
        return "convention", "format_move writes the reference's text"
    if CONVENTION_CLAUSES & set(case["clauses"]):
        return "convention", "a clause of recording practice"
    if rejects and rejects <= CONVENTION_REJECTS:
        return "convention", "a rejection of the input's form"
    return "rule", "an article decides"


def runs_once_from_check(exe):
    """From `xqspec cases check`: the case files the reference answers alike under every rule
    set (`add runs: once`), and those marked once that it answers otherwise."""
    out = subprocess.run([exe, "cases", "check", "--cases", str(CASES)], cwd=ROOT,
                         capture_output=True, text=True).stdout
    add, drop = set(), set()
    for line in out.splitlines():
        path = line.split(":", 1)[0]
        if "add `runs: once`" in line:
            add.add(path)
        elif "the case runs under each rule set" in line:
            drop.add(path)
    return add, drop


def set_field(text, key, value, after):
    """`text` with the top-level `key: value` line (replaced, or inserted after the first
    top-level line of `after`, a list of keys tried in order, else at the end); `value`
    None removes the line."""
    lines = text.split("\n")
    at = next((i for i, l in enumerate(lines) if re.match(rf"^{key}:", l)), None)
    if at is not None:
        if value is None:
            del lines[at]
        else:
            lines[at] = f"{key}: {value}"
        return "\n".join(lines)
    if value is None:
        return text
    for k in after:
        i = next((i for i, l in enumerate(lines) if re.match(rf"^{k}:", l)), None)
        if i is not None:
            # past the key's own continuation lines (a block value)
            j = i + 1
            while j < len(lines) and lines[j].startswith((" ", "-")) and lines[j].strip():
                j += 1
            lines.insert(j, f"{key}: {value}")
            return "\n".join(lines)
    if lines and lines[-1] == "":
        lines.insert(len(lines) - 1, f"{key}: {value}")
    else:
        lines.append(f"{key}: {value}")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    a = ap.parse_args()
    exe = xqspec()
    optional = optional_features()
    all_cases = cases(exe)
    add, drop = runs_once_from_check(exe)
    counts, why, changed = Counter(), Counter(), []
    for path, case in sorted(all_cases.items()):
        b, rule = basis_of(case, optional)
        counts[b] += 1
        why[(b, rule)] += 1
        f = CASES / path
        text = f.read_text()
        new = set_field(text, "basis", b, ["origin"])
        if path in add:
            new = set_field(new, "runs", "once", ["editions"])
        elif path in drop:
            new = set_field(new, "runs", None, [])
        if new != text:
            changed.append(path)
            if not a.check:
                f.write_text(new)
    for (b, rule), n in sorted(why.items()):
        print(f"{b:10} {n:5}  {rule}")
    print(f"{sum(counts.values())} cases: " + ", ".join(f"{counts[b]} {b}" for b in ("rule", "convention", "optional")))
    if add or drop:
        print(f"runs: once added to {len(add)}, removed from {len(drop)}")
    verb = "would change" if a.check else "changed"
    print(f"{verb} {len(changed)} files")
    if a.check and changed:
        sys.exit(1)


if __name__ == "__main__":
    main()
