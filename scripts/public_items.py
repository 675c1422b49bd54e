#!/usr/bin/env python3
"""The public items of the library (variants left out), by kind: what issue 46 counts.

Needs nightly (rustdoc's JSON output):
    cargo +nightly rustdoc --lib -q -- -Z unstable-options --output-format json
    python3 scripts/public_items.py [target/doc/xqspec.json]
"""
import collections
import json
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "target/doc/xqspec.json"
doc = json.load(open(path))
kinds = collections.Counter(
    v["kind"] for v in doc["paths"].values() if v["crate_id"] == 0 and v["kind"] != "variant"
)
print(sum(kinds.values()), dict(kinds.most_common()))
