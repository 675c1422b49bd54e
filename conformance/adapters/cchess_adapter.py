#!/usr/bin/env python3
"""The python `cchess` library (PyPI `cchess`, walker8088's ChineseChess
library) under the xqspec conformance protocol, version 2 (see ../PROTOCOL.md).

    pip install cchess
    xqspec conform --adapter "python3 conformance/adapters/cchess_adapter.py"

An adapter for implementers and for `measure.py`, run by hand; the
repository's tests do not use it. It answers only through cchess's own code
and adds no rules of its own:

- `legal_moves`: cchess's move generator (`ChessBoard.create_moves`) less the
  moves after which the own general is attacked (`is_checked_move`), the
  filter cchess itself applies in `no_moves` / `is_checkmate`.
- `status`: in check is `is_checking` of the side not to move's view; no move
  left is `no_moves`.
- `perft`, counted with those legal moves; cchess is pure Python (about a
  millisecond or more per move tried), so a perft over a budget of positions
  (`XQ_CCHESS_PERFT_NODES`, default 300 move generations) is `unsupported`.
- `validate_fen`: `ChessBoard.from_fen`, which refuses a character that is
  not a piece letter and accepts everything else (it reads the board field
  and the side to move only).
- `parse_move`: `Move.from_text` (simplified Chinese; full-width and
  half-width digits), then `ChessBoard.move` (cchess's own move check). It
  returns no reason, so a text it cannot use is rejected with the family
  `notation` only. Under the `iccs` and `wxf` notations it is `unsupported`.
- `format_move`: `Move.to_text`, which writes simplified Chinese with Black's
  digits full-width: that is `chinese-fullwidth`; for `chinese` (Black's
  digits half-width) its text goes through cchess's own `full2half`. Other
  notations are `unsupported`.

Editions: `cxa-1999`, `cxa-2011`, `cxa-2020` and `axf`: cchess follows no
edition, and the suite's movement rules are the same in all of them.
"""

import os

import cchess
from cchess.common import full2half

from protocol_session import POSITION_QUERIES, Rejected, Unsupported, check_time, iccs_arg, serve_package, status_answer

PERFT_NODES = int(os.environ.get("XQ_CCHESS_PERFT_NODES", "300"))
CHINESE_READ = {"chinese", "chinese-fullwidth"}
CHINESE_WRITE = {"chinese": full2half, "chinese-fullwidth": lambda text: text}


def legal_moves(board):
    """cchess's legal moves, as ((x, y), (x, y)) pairs."""
    return [m for m in board.create_moves()
            if board.is_valid_move_t(m) and not board.is_checked_move(m[0], m[1])]


def iccs(m):
    return cchess.pos2iccs(m[0], m[1])


def read_board(fen):
    board = cchess.ChessBoard()
    if not board.from_fen(fen):
        raise Rejected("fen.syntax", "cchess from_fen refuses the FEN (a character that is no piece)")
    return board


def play(board, move_text, i):
    iccs_arg(move_text, f"move {i + 1}")
    legal = {iccs(m) for m in legal_moves(board)}
    if move_text not in legal:
        raise Rejected("move.illegal", f"move {i + 1} ({move_text}) is not legal")
    board.move_iccs(move_text)
    board.next_turn()


def position(inp):
    board = read_board(inp["fen"])
    for i, m in enumerate(inp.get("moves", [])):
        play(board, m, i)
    return board


def perft(board, depth):
    if depth == 0:
        return 1
    root = legal_moves(board)
    if depth == 1:
        return len(root)
    estimate = len(root) ** (depth - 1)
    if estimate > PERFT_NODES:
        raise Unsupported(f"perft {depth} needs about {estimate} cchess move generations (budget {PERFT_NODES})")

    def count(b, d):
        check_time(depth)
        moves = legal_moves(b)
        if d == 1:
            return len(moves)
        total = 0
        for m in moves:
            child = b.copy()
            child._move_piece(m[0], m[1])
            child.next_turn()
            total += count(child, d - 1)
        return total

    return count(board, depth)


def answer(edition, query, inp):
    if query == "validate_fen":
        read_board(inp["fen"])
        return {"result": {"valid": True}}
    if query in ("parse_move", "format_move"):
        notation = inp.get("notation")
        if (query == "parse_move" and notation not in CHINESE_READ) or (
                query == "format_move" and notation not in CHINESE_WRITE):
            raise Unsupported(f"cchess does not {'read' if query == 'parse_move' else 'write'} {notation}")
    board = position(inp)
    if query == "legal_moves":
        return {"result": {"moves": sorted({iccs(m) for m in legal_moves(board)})}}
    if query == "status":
        other = board.copy()
        other.next_turn()
        return status_answer(other.is_checking(), not board.no_moves())
    if query == "perft":
        return {"result": {"nodes": perft(board, inp["depth"])}}
    if query == "parse_move":
        found = cchess.Move.from_text(board, inp["text"])
        if not found:
            raise Rejected("notation", "cchess Move.from_text finds no move")
        if board.copy().move(found[0], found[1]) is None:
            raise Rejected("notation", f"cchess reads {iccs(found)}, which its move check refuses")
        return {"result": {"move": iccs(found)}}
    if query == "format_move":
        move = iccs_arg(inp["move"], "the move")
        if move not in {iccs(m) for m in legal_moves(board)}:
            raise Rejected("move.illegal", f"{move} is not legal")
        p_from, p_to = cchess.iccs2pos(move)
        text = cchess.Move(board, p_from, p_to).to_text()
        return {"result": {"text": CHINESE_WRITE[inp["notation"]](text)}}
    raise Unsupported(f"{query} is not implemented")


def main():
    serve_package("cchess (PyPI)", "cchess", POSITION_QUERIES, answer)


if __name__ == "__main__":
    main()
