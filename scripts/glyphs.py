#!/usr/bin/env python3
"""Writes src/diagram/glyphs.rs: the outlines of the characters board diagrams write.

Board SVGs and ruling sheets draw every character (pieces, numerals, the river, coordinates,
captions, arrow labels, titles) as paths so that they look the same on a machine without
any font (issues 18 and 35). This script is run once, when the set of characters or the
font changes; its output is committed, and neither the build, the tests nor CI need the font.

    pip install fonttools
    apt-get install fonts-noto-cjk        # or unpack the .deb: the font file is all it takes
    python3 scripts/glyphs.py [FONT.ttc] > src/diagram/glyphs.rs

The font is Noto Serif CJK SC Regular (SIL Open Font License 1.1; assets/fonts/README.md).
Every outline is written in font units (1000 to the em) with its origin at the pen position
on the baseline and y pointing down, as SVG draws; coordinates are rounded to whole units
(1/1000 em) and written as relative path commands.
"""

import os
import sys

from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.ttLib import TTCollection, TTFont

FONT = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"
FAMILY = "Noto Serif CJK SC"

# What the diagrams draw with these glyphs (src/diagram/mod.rs): every character a board or a
# ruling sheet writes, so that none needs a font.
#
# * Every character above ASCII in the spec's YAML files (spec/**/*.yaml), collected when the
#   script runs: the kind names of `pieces.kinds`, the file numerals of
#   `board.file_numbering`, the words of Chinese move notation (`notation.*`, simplified and
#   traditional), the `zh` names of the 棋例 classes and patterns shown in captions, arrow
#   labels and sheet titles, and the rest of the spec's prose (a few hundred characters). A
#   new `zh` name needs only a re-run. A character of the spec the font lacks is left out,
#   with a warning: the diagram writes it as `<text>`.
# * FIXED: printable ASCII (captions, case ids, coordinates, titles), the punctuation the
#   diagrams write, the characters of Chinese move notation and full-width digits (also
#   read by the grammar), and the river's inscription. The font must have every one.
#
# `tests/it/diagram.rs` fails, naming the character, when a built-in rule set's board, class
# or pattern needs a character missing here.
FIXED = (
    "".join(chr(c) for c in range(0x20, 0x7F))
    + "·–—…→−≤§：，、（）《》“”‘’"
    + "帅帥仕士相象马馬傌车車俥炮砲包兵卒将將"
    + "进進退平前中后後一二三四五六七八九"
    + "０１２３４５６７８９＋－．＝"
    + "楚河汉界棋例"
)

SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "spec")


def spec_characters():
    """Every character above ASCII in the spec's YAML files, in a stable order."""
    found = set()
    for root, dirs, files in os.walk(SPEC):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".yaml", ".yml")):
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    found.update(ch for ch in f.read() if ord(ch) > 0x7E and ch.isprintable())
    return found


def load(path):
    if path.endswith((".ttc", ".otc")):
        for font in TTCollection(path).fonts:
            if font["name"].getDebugName(1) == FAMILY:
                return font
        sys.exit(f"{path}: no font of the family {FAMILY!r}")
    return TTFont(path)


def path_data(commands):
    """SVG path data from pen commands: relative, whole units, y down."""
    out = []
    pen = (0, 0)
    start = (0, 0)

    def rel(points):
        nonlocal pen
        parts = []
        for x, y in points:
            p = (round(x), -round(y))
            parts.append((p[0] - pen[0], p[1] - pen[1]))
            pen = p
        return parts

    def fmt(op, pairs):
        text = op
        for dx, dy in pairs:
            for v in (dx, dy):
                s = str(v)
                if text[-1].isdigit() and not s.startswith("-"):
                    text += " "
                text += s
        out.append(text)

    for op, args in commands:
        if op == "moveTo":
            fmt("m", rel(args))
            start = pen
        elif op == "lineTo":
            fmt("l", rel(args))
        elif op == "curveTo":
            base = pen
            pairs = rel(args)
            # Control points of a cubic are relative to the segment's start.
            absolute = []
            p = base
            for dx, dy in pairs:
                p = (p[0] + dx, p[1] + dy)
                absolute.append(p)
            fmt("c", [(x - base[0], y - base[1]) for x, y in absolute])
        elif op == "qCurveTo":
            # Quadratic splines (TrueType fonts): implied on-curve points between controls.
            pts = [(round(x), -round(y)) for x, y in args]
            *controls, end = pts
            for i, c in enumerate(controls):
                nxt = end if i == len(controls) - 1 else ((c[0] + controls[i + 1][0]) / 2, (c[1] + controls[i + 1][1]) / 2)
                nxt = (round(nxt[0]), round(nxt[1]))
                fmt("q", [(c[0] - pen[0], c[1] - pen[1]), (nxt[0] - pen[0], nxt[1] - pen[1])])
                pen = nxt
        elif op in ("closePath", "endPath"):
            out.append("z")
            pen = start
        else:
            sys.exit(f"unexpected pen command {op}")
    return "".join(out)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else FONT
    font = load(path)
    name = font["name"]
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    upem = font["head"].unitsPerEm
    if upem != 1000:
        sys.exit(f"{path}: {upem} units to the em; the table is written for 1000")
    wanted = {ch: True for ch in FIXED}
    for ch in spec_characters():
        wanted.setdefault(ch, False)
    rows = []
    for ch in sorted(wanted):
        gid = cmap.get(ord(ch))
        if gid is None:
            if wanted[ch]:
                sys.exit(f"{path}: no glyph for {ch!r} (U+{ord(ch):04X})")
            print(f"{path}: no glyph for {ch!r} (U+{ord(ch):04X}) of the spec; left out", file=sys.stderr)
            continue
        pen = DecomposingRecordingPen(glyphs)
        glyphs[gid].draw(pen)
        rows.append((ch, glyphs[gid].width, path_data(pen.value)))

    print("// @generated by `python3 scripts/glyphs.py FONT > src/diagram/glyphs.rs` (fontTools); do not edit.")
    print(f"// Outlines of {name.getDebugName(4)}, {name.getDebugName(5)}")
    print(f"// ({name.getDebugName(6)}, read from {os.path.basename(path)}).")
    print(f"// {name.getDebugName(0)} Licensed under the SIL Open Font License, Version 1.1:")
    print("// assets/fonts/OFL.txt (the notice and licence); assets/fonts/README.md. The table is no font")
    print("// and bears no font name.")
    print()
    print("//! The outlines of the characters board diagrams and sheets write, so that a picture needs no")
    print("//! font: printable ASCII, the diagrams' punctuation, Chinese move notation and every character")
    print("//! above ASCII of the spec's YAML files (`scripts/glyphs.py` says which).")
    print()
    print("/// Font units to the em of every outline.")
    print(f"pub(crate) const EM: u32 = {upem};")
    print()
    print("/// One character's outline: its advance width (proportional for Latin, 1000 for CJK) and")
    print("/// its SVG path data (empty for a space), in font units, from the pen position on the")
    print("/// baseline, y pointing down.")
    print("pub(crate) struct Glyph {")
    print("    pub(crate) ch: char,")
    print("    pub(crate) advance: u32,")
    print("    pub(crate) d: &'static str,")
    print("}")
    print()
    print("/// The glyphs, ordered by character (binary search).")
    print("pub(crate) const GLYPHS: &[Glyph] = &[")
    for ch, adv, d in rows:
        print(f"    Glyph {{ ch: '\\u{{{ord(ch):04X}}}', advance: {adv}, d: \"{d}\" }},")
    print("];")


if __name__ == "__main__":
    main()
