#!/usr/bin/env python3
"""An example adapter in Python: Fairy-Stockfish (the `pyffish` module) under
the xqspec conformance protocol, version 1 (see ../PROTOCOL.md).

    pip install pyffish
    xqspec conform --adapter "python3 conformance/adapters/pyffish_adapter.py"

It is an example for implementers, run by hand; the repository's tests do not
use it. It answers legal_moves, perft, status and validate_fen. Fairy-Stockfish
numbers ranks 1-10, so moves are converted from and to ICCS (ranks 0-9).
"""

import json
import re
import sys

import pyffish as sf

VARIANT = "xiangqi"
ICCS = re.compile(r"^[a-i][0-9][a-i][0-9]$")


def to_engine(move):
    """ICCS (ranks 0-9) to Fairy-Stockfish's UCI text (ranks 1-10)."""
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def to_iccs(move):
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    return f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}{int(m.group(4)) - 1}"


class Rejected(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


def position(inp):
    """The FEN and the engine's move list, or a rejection."""
    fen = inp["fen"]
    if sf.validate_fen(fen, VARIANT) != 1:
        raise Rejected("fen", "Fairy-Stockfish refuses the FEN")
    played = []
    for i, move in enumerate(inp.get("moves", [])):
        if not ICCS.match(move):
            raise Rejected("move.syntax", f"move {i + 1} is not ICCS")
        if to_engine(move) not in sf.legal_moves(VARIANT, fen, played):
            raise Rejected("move.illegal", f"move {i + 1} is not legal")
        played.append(to_engine(move))
    return fen, played


def perft(fen, played, depth):
    if depth == 0:
        return 1
    moves = sf.legal_moves(VARIANT, fen, played)
    if depth == 1:
        return len(moves)
    return sum(perft(fen, played + [m], depth - 1) for m in moves)


def answer(query, inp):
    try:
        if query == "validate_fen":
            position({"fen": inp["fen"]})
            return {"result": {"valid": True}}
        fen, played = position(inp)
        if query == "legal_moves":
            return {"result": {"moves": [to_iccs(m) for m in sf.legal_moves(VARIANT, fen, played)]}}
        if query == "perft":
            return {"result": {"nodes": perft(fen, played, inp["depth"])}}
        if query == "status":
            moves = sf.legal_moves(VARIANT, fen, played)
            check = sf.gives_check(VARIANT, fen, played)
            if moves:
                status = "check" if check else "ongoing"
            else:
                status = "checkmate" if check else "stalemate"
            return {"result": {"status": status}}
    except Rejected as r:
        return {"reject": {"kind": r.kind, "message": str(r)}}
    return {"unsupported": {"reason": f"{query} is not implemented"}}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        kind = request.get("type")
        if kind == "hello":
            # Protocol 2 only adds queries and overlays, neither of which this adapter answers:
            # it speaks version 1 to a runner of either version.
            if request.get("protocol") not in (1, 2):
                print(json.dumps({"type": "error", "message": "this adapter speaks protocol 1"}), flush=True)
                return
            reply = {
                "type": "hello",
                "protocol": 1,
                "implementation": {"name": "Fairy-Stockfish (pyffish)", "version": ".".join(str(n) for n in sf.version()), "language": "Python"},
                "editions": ["cxa-1999", "cxa-2011", "cxa-2020"],
                "queries": ["legal_moves", "perft", "status", "validate_fen"],
            }
        elif kind == "stop":
            return
        else:
            try:
                reply = {"id": request["id"], **answer(request["query"], request["input"])}
            except Exception as e:  # our own bug: report it and go on
                reply = {"id": request.get("id"), "error": {"message": repr(e)}}
        print(json.dumps(reply, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
