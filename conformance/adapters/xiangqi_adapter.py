#!/usr/bin/env python3
"""The PyPI library `xiangqi` (splendor-kill's "Chinese Chess Environment for
Reinforcement Learning", github.com/splendor-kill/xiangqi) under the xqspec
conformance protocol, version 2 (see ../PROTOCOL.md). Written against
version 1.0.5.

    pip install xiangqi
    xqspec conform --adapter "python3 conformance/adapters/xiangqi_adapter.py"

An adapter for implementers and for `measure.py`, run by hand; the
repository's tests do not use it. It answers only through the library's own
code and adds no rules of its own. The package puts its own folder on
`sys.path` and imports its modules by their bare names (`board`, `env`,
`constants`, `piece`), so the adapter takes them from `sys.modules` after
`import xiangqi`, as the package itself does.

- Positions: `Env.from_fen`, the library's FEN reader (board field, side to
  move, and `- - halfmove fullmove` if given). The library spells Red's side
  to move `r` (its `to_fen` writes `r`, and `w` raises KeyError), so a side
  field `w` is handed to it as `r`; that is the only change made to a FEN.
  Any exception of `from_fen` (its checks are `assert`s) is its refusal:
  `reject` with the family `fen` (it gives no reason). `validate_fen` is that
  refusal or `{"valid": true}`.
- `moves`: a move must be one of `Env.get_valid_actions()` (else
  `move.illegal`); it is played with `Board.make_move` and the side to move
  passes to the other camp. (`Env.step` is not used: it also ends the game on
  its own draw rules, after which it no longer switches sides.)
- `legal_moves`: `Env.get_valid_actions()`, ICCS strings.
- `status`: in check is `Board.test_check(opponent)`; no move left is an
  empty `get_valid_actions()`.
- `perft`, counted with `Board.get_final_valid_actions` and the library's own
  `virtual_move` / `undo_virtual_move`. A move generation costs the library
  some 15 ms, so a perft is stopped and answered `unsupported` once it needs
  more than a budget of generations (`XQ_XIANGQI_PERFT_NODES`, default 200).
- `parse_move`: `board.parse_action` (the library's Chinese reader: simplified
  and traditional piece characters, 进退平, digits of any width or Chinese
  numerals) for the `chinese*` notations, `board.parse_action_iccs` for
  `iccs` and `iccs-upper`. The library's checks are `assert`s and
  `ValueError`s: those are its refusal, `reject` with the family `notation`
  (`notation.ambiguous` for its ValueError "undistinguishable"); a move it
  reads that is not among its legal moves is `notation.no_match`. Any other
  exception is an `error`. The abbreviated and WXF notations are
  `unsupported`.
- `format_move`: `board.to_chinese_action` for `chinese` (its text less the
  terminal colour codes it wraps around the piece character on POSIX
  systems; the characters are its own), `board.to_iccs_action` for `iccs`.
  Other notations are `unsupported`.

Editions: `cxa-1999`, `cxa-2011`, `cxa-2020` and `axf`: the library follows
no edition, and the suite's movement rules are the same in all of them.
"""

import re
import sys

import xiangqi

from protocol_session import POSITION_QUERIES, Budget, Rejected, Unsupported, iccs_arg, serve_package, status_answer

XQ_BOARD = sys.modules["board"]  # the library's own module `xiangqi/board.py`, as the package imports it
Env = xiangqi.Env

ANSI = re.compile(r"\x1b\[[0-9;]*m")
PERFT_NODES = ("XQ_XIANGQI_PERFT_NODES", 200)
CHINESE_READ = {"chinese", "chinese-fullwidth", "chinese-traditional", "chinese-traditional-fullwidth"}
ICCS_READ = {"iccs", "iccs-upper"}
WRITE = {"chinese", "iccs"}


def read_fen(fen):
    if not isinstance(fen, str):
        raise Rejected("fen", "not a string")
    fields = fen.split()
    if len(fields) >= 2 and fields[1] == "w":
        fields[1] = "r"  # the library's spelling of Red to move
    try:
        return Env.from_fen(" ".join(fields))
    except Exception as e:  # its checks are asserts: any exception is its refusal
        raise Rejected("fen", f"xiangqi Env.from_fen refuses the FEN ({type(e).__name__}: {e})")


def legal_actions(env):
    """{ICCS: action} from the library's legal moves of the side to move."""
    return {XQ_BOARD.to_iccs_action(a): a for a in env.board.get_final_valid_actions(env.cur_player)}


def position(inp):
    env = read_fen(inp["fen"])
    for i, m in enumerate(inp.get("moves", [])):
        iccs_arg(m, f"move {i + 1}")
        legal = legal_actions(env)
        if m not in legal:
            raise Rejected("move.illegal", f"move {i + 1} ({m}) is not among xiangqi's valid actions")
        env.board.make_move(legal[m]["piece"], legal[m]["dst"])
        env.cur_player = env.cur_player.opponent()
    return env


def perft(env, depth):
    board = env.board
    budget = Budget(*PERFT_NODES, depth)

    def count(camp, d):
        if d == 0:
            return 1
        budget.spend()
        actions = board.get_final_valid_actions(camp)
        if d == 1:
            return len(actions)
        total = 0
        for a in actions:
            piece = a["piece"]
            is_ok, bak_pos, captured = False, None, None
            try:
                is_ok, bak_pos, captured = board.virtual_move(piece, a["dst"])
                total += count(camp.opponent(), d - 1)
            finally:
                if is_ok:
                    board.undo_virtual_move(piece, bak_pos, captured)
        return total

    return count(env.cur_player, depth)


def parse(env, notation, text):
    if not isinstance(text, str):
        raise Rejected("notation.syntax", "not a string")
    try:
        if notation in CHINESE_READ:
            piece, dst = XQ_BOARD.parse_action(text, env.cur_player, env.board)
        else:
            piece, dst = XQ_BOARD.parse_action_iccs(text, env.board)
    except (AssertionError, ValueError) as e:  # the library's own checks
        kind = "notation.ambiguous" if "undistinguishable" in str(e) else "notation"
        raise Rejected(kind, f"xiangqi refuses the text ({type(e).__name__}: {e})")
    move = XQ_BOARD.to_iccs_action({"piece": piece, "dst": dst})
    if move not in legal_actions(env):
        raise Rejected("notation.no_match", f"xiangqi reads {move}, which is not among its valid actions")
    return move


def answer(edition, query, inp):
    if query == "validate_fen":
        read_fen(inp["fen"])
        return {"result": {"valid": True}}
    if query == "parse_move" and inp.get("notation") not in CHINESE_READ | ICCS_READ:
        raise Unsupported(f"xiangqi does not read {inp.get('notation')}")
    if query == "format_move" and inp.get("notation") not in WRITE:
        raise Unsupported(f"xiangqi does not write {inp.get('notation')}")
    if query not in ("legal_moves", "status", "perft", "parse_move", "format_move"):
        raise Unsupported(f"xiangqi does not answer {query}")
    env = position(inp)
    if query == "legal_moves":
        return {"result": {"moves": sorted(env.get_valid_actions())}}
    if query == "status":
        check = env.board.test_check(env.cur_player.opponent())
        no_move = len(env.get_valid_actions()) == 0
        return status_answer(check, not no_move)
    if query == "perft":
        return {"result": {"nodes": perft(env, inp["depth"])}}
    if query == "parse_move":
        return {"result": {"move": parse(env, inp["notation"], inp["text"])}}
    if query == "format_move":
        move = iccs_arg(inp["move"], "the move")
        legal = legal_actions(env)
        if move not in legal:
            raise Rejected("move.illegal", f"{move} is not among xiangqi's valid actions")
        action = legal[move]
        if inp["notation"] == "iccs":
            text = XQ_BOARD.to_iccs_action(action)
        else:
            text = ANSI.sub("", XQ_BOARD.to_chinese_action(action["piece"], action["dst"]))
        return {"result": {"text": text}}
    raise Unsupported(f"{query} is not implemented")


def main():
    serve_package("xiangqi (PyPI)", "xiangqi", POSITION_QUERIES, answer)


if __name__ == "__main__":
    main()
