#!/usr/bin/env python3
"""Check that Cargo.toml's `rust-version` is true: no crate of the lock file needs a newer
Rust (each package's `rust-version` as `cargo metadata` reports it). Run by CI."""

import json
import subprocess
import sys


def version(text):
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def main():
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--locked", "--format-version", "1"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    root = meta["resolve"]["root"]
    ours = next(p for p in meta["packages"] if p["id"] == root)
    declared = version(ours["rust_version"])
    needs = [
        (version(p["rust_version"]), p["name"], p["version"])
        for p in meta["packages"]
        if p.get("rust_version") and p["id"] != root
    ]
    too_new = sorted(n for n in needs if n[0] > declared)
    if too_new:
        for v, name, ver in too_new:
            print(f"{name} {ver} needs Rust {'.'.join(map(str, v))}", file=sys.stderr)
        print(f"Cargo.toml says rust-version = {ours['rust_version']}: raise it", file=sys.stderr)
        return 1
    top = max(needs)
    print(f"rust-version {ours['rust_version']} holds (highest need: {top[1]} {top[2]}, {'.'.join(map(str, top[0]))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
