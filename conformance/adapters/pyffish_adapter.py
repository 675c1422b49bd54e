#!/usr/bin/env python3
"""Fairy-Stockfish (its Python module `pyffish`) under the xqspec conformance
protocol, version 2 (see ../PROTOCOL.md).

    pip install pyffish
    xqspec conform --adapter "python3 conformance/adapters/pyffish_adapter.py"

An adapter for implementers and for `measure.py`, run by hand; the
repository's tests do not use it. It declares what Fairy-Stockfish really
answers, and nothing else:

- `legal_moves`, `status` (from `legal_moves` and `gives_check`) and
  `validate_fen` (Fairy-Stockfish's own `validate_fen`; its error code is
  mapped to the suite's `fen.*` kinds where one fits, else to the family
  `fen`). A FEN it accepts is accepted: the adapter adds no checks of its own.
- `perft`, counted with `legal_moves`. Each call costs pyffish some
  milliseconds (it sets up the position from the FEN and the move list every
  time), so a perft needing more than a budget of engine calls is answered
  `unsupported` instead of running into the runner's time limit. The budget is
  `XQ_PYFFISH_PERFT_CALLS` (default 1200 calls, a few seconds).
- `ruling`, under the `axf` rule set only: the verdict of Fairy-Stockfish's
  repetition judgement (`is_optional_game_end`, which applies the AXF
  chasing rules of its xiangqi variant). Fairy-Stockfish judges a repetition
  when the position occurs for the third time; a case gives the cycle once or
  twice, so the adapter takes the cycle PROTOCOL.md's `ruling` judges (the
  shortest one ending at the latest position that repeats an earlier one),
  plays the moves up to its end, then the cycle again, at most twice, until
  Fairy-Stockfish ends the game. Its result is for the side to move: a win means the other side must
  change, a loss that the side to move must; a draw is a draw. Only
  `verdict` is answered (with `judged` and `cycle`, and `verdict_only`: the
  runner judges the case on its verdict); the plies' classes are not exposed
  by pyffish. Under the CXA rule sets `ruling` is `unsupported`.

Editions: `cxa-1999`, `cxa-2011`, `cxa-2020` and `axf` (the movement rules
are the same in all). Fairy-Stockfish numbers ranks 1-10, so moves are
converted from and to ICCS (ranks 0-9).
"""

import os
import re

import pyffish as sf

from protocol_session import EDITIONS, Rejected, Unsupported, check_time, iccs_arg, last_cycle, serve, status_answer

VARIANT = "xiangqi"
PERFT_CALLS = int(os.environ.get("XQ_PYFFISH_PERFT_CALLS", "1200"))

# Fairy-Stockfish's FEN validation codes (apiutil.h, FEN::FenValidation) and the suite's kinds.
FEN_KINDS = {
    0: ("fen.syntax", "empty FEN"),
    -1: ("fen.counters", "invalid move counter"),
    -2: ("fen.counters", "invalid half move counter"),
    -3: ("fen.piece_count", "invalid number of kings"),
    -6: ("fen.side_to_move", "invalid side to move"),
    -8: ("fen.board_shape", "invalid board geometry"),
    -10: ("fen.syntax", "invalid character"),
    -11: ("fen.syntax", "invalid number of FEN parts"),
}


def to_engine(move):
    """ICCS (ranks 0-9) to Fairy-Stockfish's UCI text (ranks 1-10)."""
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def to_iccs(move):
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    return f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}{int(m.group(4)) - 1}"


def check_fen(fen):
    code = sf.validate_fen(fen, VARIANT)
    if code != sf.FEN_OK:
        kind, what = FEN_KINDS.get(code, ("fen", "refused"))
        raise Rejected(kind, f"Fairy-Stockfish validate_fen: {what} (code {code})")


def position(inp):
    """The FEN and the engine's move list, or a rejection."""
    fen = inp["fen"]
    check_fen(fen)
    played = []
    for i, move in enumerate(inp.get("moves", [])):
        iccs_arg(move, f"move {i + 1}")
        if to_engine(move) not in sf.legal_moves(VARIANT, fen, played):
            raise Rejected("move.illegal", f"move {i + 1} ({move}) is not legal")
        played.append(to_engine(move))
    return fen, played


def perft(fen, played, depth):
    if depth == 0:
        return 1
    root = sf.legal_moves(VARIANT, fen, played)
    if depth == 1:
        return len(root)
    # Calls needed: about one per node at depth - 1. Refuse at once what is clearly too big.
    estimate = len(root) ** (depth - 1) if root else 0
    if estimate > 3 * PERFT_CALLS:
        raise Unsupported(f"perft {depth} needs about {estimate} pyffish calls (budget {PERFT_CALLS})")
    calls = [1]

    def count(moves, d):
        check_time(depth)
        calls[0] += 1
        if calls[0] > PERFT_CALLS:
            raise Unsupported(f"perft {depth} needs more than {PERFT_CALLS} pyffish calls")
        legal = sf.legal_moves(VARIANT, fen, moves)
        if d == 1:
            return len(legal)
        return sum(count(moves + [m], d - 1) for m in legal)

    return sum(count(played + [m], depth - 1) for m in root)


def board_key(fen, played):
    """Pieces and side to move of the position after `played` (what a repetition compares)."""
    return " ".join(sf.get_fen(VARIANT, fen, played).split()[:2])


def ruling(fen, played):
    """The verdict of Fairy-Stockfish on the cycle PROTOCOL.md's `ruling` judges."""
    cycle = last_cycle([board_key(fen, played[:i]) for i in range(len(played) + 1)])
    if cycle is None:
        end, value = sf.is_optional_game_end(VARIANT, fen, played)
        moves = list(played)
    else:
        # Fairy-Stockfish judges at the end of the moves, when the position stands for the third
        # time: play up to the cycle's end, then the cycle again until it ends the game.
        moves = played[:cycle[1]]
        again = played[cycle[0] - 1:cycle[1]]
        end, value = sf.is_optional_game_end(VARIANT, fen, moves)
        for _ in range(2):
            if end:
                break
            moves = moves + again
            end, value = sf.is_optional_game_end(VARIANT, fen, moves)
    if not end:
        return {"verdict": "none", "verdict_only": True, "judged": "none", "cycle": None,
                "note": "Fairy-Stockfish ends no game here"}
    red_to_move = (fen.split()[1] == "w") == (len(moves) % 2 == 0)
    if value == 0:
        verdict = "draw"
    else:
        red_changes = red_to_move if value < 0 else not red_to_move
        verdict = "red_must_change" if red_changes else "black_must_change"
    return {"verdict": verdict, "verdict_only": True, "judged": "repetition", "cycle": cycle,
            "note": f"is_optional_game_end = {value} for the side to move after {len(moves)} plies"}


def answer(edition, query, inp):
    if query == "validate_fen":
        check_fen(inp["fen"])
        return {"result": {"valid": True}}
    if query == "ruling" and edition != "axf":
        raise Unsupported("Fairy-Stockfish judges repetitions by the AXF rules only")
    fen, played = position(inp)
    if query == "legal_moves":
        return {"result": {"moves": [to_iccs(m) for m in sf.legal_moves(VARIANT, fen, played)]}}
    if query == "perft":
        return {"result": {"nodes": perft(fen, played, inp["depth"])}}
    if query == "status":
        moves = sf.legal_moves(VARIANT, fen, played)
        check = sf.gives_check(VARIANT, fen, played)
        return status_answer(check, bool(moves))
    if query == "ruling":
        return {"result": {"ruling": ruling(fen, played)}}
    raise Unsupported(f"{query} is not implemented")


def main():
    serve({"name": "Fairy-Stockfish (pyffish)", "version": ".".join(str(n) for n in sf.version()),
           "language": "Python", "homepage": "https://github.com/fairy-stockfish/Fairy-Stockfish"},
          EDITIONS,
          ["legal_moves", "perft", "status", "validate_fen", "ruling"],
          answer)


if __name__ == "__main__":
    main()
