#!/usr/bin/env python3
"""The PyPI library `chinese-chess-lib` (Liang Chenxuan's C++/pybind11 rules
module, imported as `chinese_chess_lib`) under the xqspec conformance
protocol, version 2 (see ../PROTOCOL.md). Written against version 0.3.0.

    pip install chinese-chess-lib
    xqspec conform --adapter "python3 conformance/adapters/chinese_chess_lib_adapter.py"

An adapter for implementers and for `measure.py`, run by hand; the
repository's tests do not use it. The library exposes three functions and a
piece class, and nothing else: `get_legal_moves(board, chess, flag)` (the
moves of one piece as `(capture, dx, dy)`; with `flag` true it drops the moves
after which the opponent's `warn` finds a check), `warn(board, color)` (the
colours whose pieces attack a general) and `dead(board, color)` (`color` when
the other side has no move that ends `color`'s attack). A board is 10 lists
of 9 `Chess` objects or `None`, row 0 Black's back rank, column 0 Red's left
(file a); a `Chess` has `x`, `y`, `name` (`J S X M C P B` for Red's general,
advisor, elephant, horse, chariot, cannon and soldier, lower case for
Black's, as in the library's PieceNameMap) and `color` (`#FF0000` Red,
`#000000` Black). The adapter translates, and adds no rules of its own:

- The library reads no FEN and keeps no side to move. The adapter lays the
  FEN's board field out as that board (every point of it, whatever stands
  where) and keeps the side to move itself. A FEN that does not translate
  (not 10 ranks of 9 points, a letter that is no piece, a side that is not
  `w`/`b`, counters that are not numbers) is answered `unsupported`: the
  library cannot be asked about it. `validate_fen` is not declared.
- `moves` are played as the library's own GUI plays them: a move must be one
  of `get_legal_moves(…, True)` of a piece of the side to move (else
  `move.illegal`); then the piece object is moved on the board.
- `legal_moves`: `get_legal_moves(board, piece, True)` over the pieces of the
  side to move.
- `status`: in check is `warn(board, opponent)` naming the opponent; no move
  left is `dead(board, opponent)` (the library's own end-of-game test).
- `perft`, counted with those legal moves. Each move generation costs about
  a millisecond and a half (the board is converted for every piece), so a
  perft is stopped and answered `unsupported` once it needs more than a
  budget of generations (`XQ_CCL_PERFT_NODES`, default 3000, some seconds).

Notation is not answered: the library has none. Editions: `cxa-1999`,
`cxa-2011`, `cxa-2020` and `axf`: the library follows no edition, and the
suite's movement rules are the same in all of them.
"""

import os

import chinese_chess_lib as ccl

from protocol_session import Budget, Rejected, Unsupported, iccs_arg, lay_out_fen, serve_package, status_answer

PERFT_NODES = ("XQ_CCL_PERFT_NODES", 3000)
RED, BLACK = "#FF0000", "#000000"
# FEN letter (Red's, upper case) to the library's piece name (PieceNameMap.md).
NAMES = {"K": "J", "A": "S", "B": "X", "N": "M", "R": "C", "C": "P", "P": "B"}
FILES = "abcdefghi"


class Position:
    """The library's board (rows of Chess objects or None) and the side to move."""

    def __init__(self, fen):
        def untranslatable(what):
            return Unsupported(f"chinese_chess_lib reads no FEN, and this one does not translate: {what}")

        def lay_row(y, points):
            row = []
            for x, ch in enumerate(points):
                piece = None
                if ch is not None:
                    piece = ccl.Chess()
                    piece.x, piece.y = x, y
                    piece.name = NAMES[ch] if ch.isupper() else NAMES[ch.upper()].lower()
                    piece.color = RED if ch.isupper() else BLACK
                row.append(piece)
            self.board.append(row)

        self.board = []
        self.color = RED if lay_out_fen(fen, untranslatable, lay_row) else BLACK

    @property
    def opponent(self):
        return BLACK if self.color == RED else RED

    def pieces(self, color):
        return [p for row in self.board for p in row if p is not None and p.color == color]

    def legal(self):
        """{ICCS: (piece, dx, dy)} from the library's get_legal_moves(…, True)."""
        out = {}
        for piece in self.pieces(self.color):
            for _capture, dx, dy in ccl.get_legal_moves(self.board, piece, True):
                out[iccs(piece.x, piece.y, piece.x + dx, piece.y + dy)] = (piece, dx, dy)
        return out

    def play(self, piece, dx, dy):
        """Moves the piece object, as the library's GUI does; returns what undoes it."""
        fx, fy = piece.x, piece.y
        tx, ty = fx + dx, fy + dy
        captured = self.board[ty][tx]
        self.board[fy][fx] = None
        self.board[ty][tx] = piece
        piece.x, piece.y = tx, ty
        self.color = self.opponent
        return fx, fy, captured

    def undo(self, piece, undo):
        fx, fy, captured = undo
        tx, ty = piece.x, piece.y
        self.board[ty][tx] = captured
        self.board[fy][fx] = piece
        piece.x, piece.y = fx, fy
        self.color = self.opponent


def iccs(fx, fy, tx, ty):
    if not (0 <= fx <= 8 and 0 <= tx <= 8 and 0 <= fy <= 9 and 0 <= ty <= 9):
        raise ValueError(f"chinese_chess_lib gave a move off the board: ({fx},{fy}) to ({tx},{ty})")
    return f"{FILES[fx]}{9 - fy}{FILES[tx]}{9 - ty}"


def position(inp):
    pos = Position(inp["fen"])
    for i, m in enumerate(inp.get("moves", [])):
        iccs_arg(m, f"move {i + 1}")
        legal = pos.legal()
        if m not in legal:
            raise Rejected("move.illegal", f"move {i + 1} ({m}) is not among chinese_chess_lib's legal moves")
        pos.play(*legal[m])
    return pos


def perft(pos, depth):
    """Counted with the library's legal moves; stops once it has asked for more
    move generations than the budget (it cannot know the count in advance)."""
    budget = Budget(*PERFT_NODES, depth)

    def legal():
        budget.spend()
        return pos.legal()

    def count(d):
        if d == 0:
            return 1
        moves = legal()
        if d == 1:
            return len(moves)
        total = 0
        for piece, dx, dy in moves.values():
            undo = pos.play(piece, dx, dy)
            total += count(d - 1)
            pos.undo(piece, undo)
        return total

    return count(depth)


def answer(edition, query, inp):
    if query not in ("legal_moves", "status", "perft"):
        raise Unsupported(f"chinese_chess_lib does not answer {query}")
    pos = position(inp)
    if query == "legal_moves":
        return {"result": {"moves": sorted(pos.legal())}}
    if query == "status":
        check = pos.opponent in ccl.warn(pos.board, pos.opponent)
        no_move = ccl.dead(pos.board, pos.opponent) is not None
        return status_answer(check, not no_move)
    if query == "perft":
        return {"result": {"nodes": perft(pos, inp["depth"])}}
    raise Unsupported(f"{query} is not implemented")


def main():
    serve_package("chinese-chess-lib (PyPI)", "chinese-chess-lib", ["legal_moves", "status", "perft"], answer,
                  language="C++ (Python module)")


if __name__ == "__main__":
    main()
