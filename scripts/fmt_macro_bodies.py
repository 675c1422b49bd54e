#!/usr/bin/env python3
"""Format the bodies of the crate's item macros (`shapes! { … }`, `wire! { … }`) as rustfmt
formats items, which it does not do inside a macro's braces. Run by CI with `--check` (a body
rustfmt would change fails, with the diff); without it, rewrites the files in place.

Each body is a list of items: it is cut out, unindented, given to rustfmt with the width its
indentation leaves of the crate's 100 columns, and put back indented as it was."""

import difflib
import pathlib
import re
import subprocess
import sys

MACROS = ("shapes", "wire")
WIDTH = 100
OPEN = re.compile(r"^(\s*)(%s)! \{$" % "|".join(MACROS))


def blocks(lines):
    """(first body line, end line, indentation) of each macro body."""
    i = 0
    while i < len(lines):
        m = OPEN.match(lines[i])
        if m:
            close = m.group(1) + "}"
            end = next(k for k in range(i + 1, len(lines)) if lines[k] == close)
            yield i + 1, end, m.group(1) + "    "
            i = end
        i += 1


def rustfmt(text, width, where):
    ran = subprocess.run(
        ["rustfmt", "--edition", "2021", "--emit", "stdout", "--config", f"max_width={width}"],
        input=text,
        capture_output=True,
        text=True,
    )
    if ran.returncode != 0:
        sys.exit(f"{where}: rustfmt failed on a macro body:\n{ran.stderr}")
    return ran.stdout


def formatted(path):
    lines = path.read_text().split("\n")
    out, at = [], 0
    for first, end, indent in blocks(lines):
        body = [l[len(indent) :] if l.startswith(indent) else l.lstrip() for l in lines[first:end]]
        text = rustfmt("\n".join(body) + "\n", WIDTH - len(indent), f"{path}:{first}")
        out += lines[at:first]
        out += [indent + l if l else l for l in text.rstrip("\n").split("\n")]
        at = end
    return "\n".join(out + lines[at:])


def main():
    check = "--check" in sys.argv[1:]
    root = pathlib.Path(__file__).resolve().parent.parent
    differ = False
    for path in sorted((root / "src").rglob("*.rs")):
        old = path.read_text()
        new = formatted(path)
        if new == old:
            continue
        rel = path.relative_to(root)
        if check:
            differ = True
            diff = difflib.unified_diff(
                old.split("\n"), new.split("\n"), str(rel), str(rel), lineterm=""
            )
            print("\n".join(diff))
        else:
            path.write_text(new)
            print(f"formatted {rel}")
    if differ:
        sys.exit("macro bodies differ from rustfmt: run scripts/fmt_macro_bodies.py")


main()
