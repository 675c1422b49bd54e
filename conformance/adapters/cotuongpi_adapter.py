#!/usr/bin/env python3
"""cotuongpi (PyPI `cotuongpi`, a terminal Cờ Tướng game for two players on a LAN) under
the xqspec conformance protocol, version 2 (see ../PROTOCOL.md): its rules module and game.

    pip install cotuongpi
    xqspec conform --adapter "python3 conformance/adapters/cotuongpi_adapter.py"

An adapter for implementers and for `measure.py`, run by hand; the repository's tests do
not use it. It answers only through cotuongpi's `Rules` and `Game` and adds no rules of its
own. cotuongpi plays in what it calls free-movement mode (its `Rules` docstring): a player
in check is warned, not forced to resolve it, and a captured general ends the game, so its
moves are the pieces' moves without the check filter; that is its rule, measured as it is.

- `legal_moves`: `Rules.get_valid_moves` of every piece of the side to move.
- `status`: `Rules.has_no_moves` and `Rules.is_in_check` of the side to move.
- `perft`: counted with those moves and `Board.clone`/`move_piece`, declined
  (`unsupported`) past a budget of move generations (`XQ_COTUONGPI_PERFT_NODES`, default
  20000) or half the runner's time limit (`limits.timeout_ms`, protocol_session.py).
- Positions: cotuongpi has no FEN reader (a game starts from the opening position), so the
  adapter lays the FEN's pieces out on its `Board` (rows 0-9 from Black's side, as it draws
  them) and sets `Game.current_turn`; the input's moves are played with `Game.make_move`,
  and one it answers `INVALID` is rejected as `move.illegal`.

Editions: all four (the movement rules are the same in all of them).
"""


from cotuongpi.board import Board
from cotuongpi.game import Game, MoveResult
from cotuongpi.pieces import Color, Piece, PieceType, Position
from cotuongpi.rules import Rules

from protocol_session import Budget, Rejected, Unsupported, iccs_arg, serve_package, status_answer

KINDS = {"k": PieceType.GENERAL, "a": PieceType.ADVISOR, "b": PieceType.ELEPHANT,
         "n": PieceType.HORSE, "r": PieceType.CHARIOT, "c": PieceType.CANNON,
         "p": PieceType.SOLDIER}


def square(file, rank):
    """ICCS file and rank (0 = Red's back rank) to cotuongpi's position (row 0 = Black's)."""
    return Position("abcdefghi".index(file), 9 - int(rank))


def game_at(fen, moves):
    fields = fen.split()
    if len(fields) < 2 or fields[1] not in ("w", "b"):
        raise Unsupported("the adapter lays out FENs with a board and a side to move (w or b) only")
    rows = fields[0].split("/")
    if len(rows) != 10:
        raise Unsupported("the adapter lays out 10 rows of 9 points only (cotuongpi reads no FEN)")
    board = Board()
    board.grid = [[None] * Board.COLS for _ in range(Board.ROWS)]
    board.pieces = []
    for row, text in enumerate(rows):
        col = 0
        for ch in text:
            if ch.isdigit():
                col += int(ch)
                continue
            kind = KINDS.get(ch.lower())
            if kind is None or col > 8:
                raise Unsupported(f"`{ch}` in row {row + 1}: the adapter lays out piece letters only")
            board._place(kind, Color.RED if ch.isupper() else Color.BLACK, Position(col, row))
            col += 1
    game = Game()
    game.board = board
    game.current_turn = Color.RED if fields[1] == "w" else Color.BLACK
    key = board.position_key()
    game._position_counts.clear()
    game._position_counts[key] = 1
    game._position_keys = [key]
    for i, m in enumerate(moves):
        iccs_arg(m, f"move {i + 1}")
        if game.make_move(square(m[0], m[1]), square(m[2], m[3])) == MoveResult.INVALID:
            raise Rejected("move.illegal", f"move {i + 1} ({m}): Game.make_move answers INVALID")
    return game


def iccs(a, b):
    return f"{'abcdefghi'[a.col]}{9 - a.row}{'abcdefghi'[b.col]}{9 - b.row}"


def moves_of(board, color):
    return [(p.position, to) for p in board.get_pieces(color) for to in Rules.get_valid_moves(board, p)]


def perft(board, color, depth, budget):
    budget.spend()
    moves = moves_of(board, color)
    if depth == 1:
        return len(moves)
    n = 0
    for a, b in moves:
        child = board.clone()
        child.move_piece(a, b)
        n += perft(child, color.opponent, depth - 1, budget)
    return n


def answer(edition, query, inp):
    game = game_at(inp["fen"], inp.get("moves", []))
    board, color = game.board, game.current_turn
    if query == "legal_moves":
        return {"result": {"moves": [iccs(a, b) for a, b in moves_of(board, color)]}}
    if query == "status":
        return status_answer(Rules.is_in_check(board, color), not Rules.has_no_moves(board, color))
    if query == "perft":
        if inp["depth"] == 0:
            return {"result": {"nodes": 1}}
        budget = Budget("XQ_COTUONGPI_PERFT_NODES", 20000, inp["depth"])
        return {"result": {"nodes": perft(board, color, inp["depth"], budget)}}
    raise Unsupported(f"cotuongpi has no {query}")


def main():
    serve_package("cotuongpi", "cotuongpi", ["legal_moves", "perft", "status"], answer)


if __name__ == "__main__":
    main()
