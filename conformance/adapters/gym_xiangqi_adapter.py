#!/usr/bin/env python3
"""The PyPI library `gym-xiangqi` (Li Yon Tan et al.'s OpenAI Gym environment,
github.com/tanliyon/gym-xiangqi) under the xqspec conformance protocol,
version 2 (see ../PROTOCOL.md). Written against version 0.5.0 (with gym
0.26.2, pygame 2.6.1, numpy 2).

    pip install gym-xiangqi
    xqspec conform --adapter "python3 conformance/adapters/gym_xiangqi_adapter.py"

An adapter for implementers and for `measure.py`, run by hand; the
repository's tests do not use it. The library is a reinforcement-learning
environment, `gym_xiangqi.envs.XiangQiEnv` (what `gym.make("xiangqi-v0")`
wraps; the adapter makes it directly, without gym's wrappers). Its
`_state` is a 10 x 9 array of piece ids (row 0 Black's back rank, column 0
file a; Red's pieces positive, the "ally", Black's negative, ids 1 general,
2-3 advisors, 4-5 elephants, 6-7 horses, 8-9 chariots, 10-11 cannons, 12-16
soldiers), with one piece object per id in `_ally_piece` / `_enemy_piece`;
`get_possible_actions(turn)` fills a 0/1 array over its action space (piece
id, from, to) with the moves it allows; `step(action)` plays one;
`check_jiang()` lists the current player's moves that take the opposing
general (将, check). It answers only through that code and adds no rules:

- The environment reads no FEN and always starts from its initial layout
  (`reset()`). The adapter lays a FEN out the way `reset()` lays out
  `INITIAL_BOARD`: the ids in `_state`, one piece object per id on its point,
  the ids the FEN does not use as pieces already taken (`state = DEAD`, as
  `step` leaves a captured piece), the side to move as `_turn`, then
  `get_possible_actions` and the state hash `step` checks. A FEN that does
  not translate (not 10 ranks of 9 points, a letter that is no piece, a side
  that is not `w`/`b`, counters that are not numbers, or more pieces of a
  kind than the environment has ids for, e.g. three horses) is answered
  `unsupported`: the library cannot hold it. `validate_fen` is not declared.
- `moves`: each is played with `step(action)`. A move the environment's
  action array does not allow (its `step` answers the reward `ILLEGAL_MOVE`
  and leaves the board alone), or one from a point without a piece of the
  side to move, is `move.illegal`; so is a move after `step` has ended the
  episode (a general taken, or its own perpetual-check rule).
- `legal_moves`: the moves set in the action array of the side to move.
- `status`: in check is `check_jiang()` asked with the opponent as the
  current player (the environment's own test whether a general is
  threatened); no move left is an empty action array.
- `perft`, counted with the action arrays, each position laid out as above.
  A perft is stopped and answered `unsupported` once it needs more than a
  budget of move generations (`XQ_GYM_XIANGQI_PERFT_NODES`, default 2500).

The environment prints a warning on stdout when `step` is called after the
end of an episode, so its calls run with stdout sent to stderr. Notation is
not answered (the library has none). Editions: `cxa-1999`, `cxa-2011`,
`cxa-2020` and `axf`: the library follows no edition, and the suite's
movement rules are the same in all of them.
"""

import contextlib
import sys

from protocol_session import Budget, Rejected, Unsupported, iccs_arg, lay_out_fen, serve_package, status_answer

with contextlib.redirect_stdout(sys.stderr):
    import numpy as np
    from gym_xiangqi import constants as C
    from gym_xiangqi.envs import XiangQiEnv
    from gym_xiangqi.utils import action_space_to_move, move_to_action_space

PERFT_NODES = ("XQ_GYM_XIANGQI_PERFT_NODES", 2500)
FILES = "abcdefghi"
# FEN letter (upper case) to the environment's piece ids of that kind.
IDS = {"K": [C.GENERAL], "A": [C.ADVISOR_1, C.ADVISOR_2], "B": [C.ELEPHANT_1, C.ELEPHANT_2],
       "N": [C.HORSE_1, C.HORSE_2], "R": [C.CHARIOT_1, C.CHARIOT_2], "C": [C.CANNON_1, C.CANNON_2],
       "P": list(range(C.SOLDIER_1, C.SOLDIER_5 + 1))}
ALLY, ENEMY = 1, -1  # the environment's turns: Red (its ally) and Black


def untranslatable(what):
    return Unsupported(f"gym-xiangqi reads no FEN, and this one does not translate into its state: {what}")


def read_fen(fen):
    """The FEN as the environment's state array (signed piece ids) and turn."""
    state = np.zeros((C.BOARD_ROWS, C.BOARD_COLS), dtype=int)
    free = {(sign, kind): list(ids) for kind, ids in IDS.items() for sign in (ALLY, ENEMY)}

    def lay_row(row, points):
        for col, ch in enumerate(points):
            if ch is None:
                continue
            sign = ALLY if ch.isupper() else ENEMY
            ids = free[(sign, ch.upper())]
            if not ids:
                raise untranslatable(f"more {ch} pieces than the environment has ids for")
            state[row][col] = sign * ids.pop(0)

    red_to_move = lay_out_fen(fen, untranslatable, lay_row)
    return state, (ALLY if red_to_move else ENEMY)


def lay_out(env, state, turn):
    """Puts the environment in this position, as reset() does with INITIAL_BOARD."""
    env._done = False
    env._state = np.array(state)
    for sign, pieces, color in ((ALLY, env._ally_piece, env.ally_color), (ENEMY, env._enemy_piece, env.enemy_color)):
        for pid in range(1, C.PIECE_CNT + 1):
            where = np.argwhere(env._state == sign * pid)
            if len(where):
                pieces[pid] = env.id_to_class[pid](color, int(where[0][0]), int(where[0][1]))
            else:  # no such piece on the board: a taken piece, as step() leaves one
                pieces[pid] = env.id_to_class[pid](color, -1, -1)
                pieces[pid].state = C.DEAD
    env._ally_jiang_history = {}
    env._enemy_jiang_history = {}
    env._turn = turn
    env.get_possible_actions(turn)
    env._state_hash = hash(str(env._state))
    return env


def actions_of(env):
    """{ICCS: action id} from the action array of the side to move."""
    actions = env.ally_actions if env.turn == ALLY else env.enemy_actions
    out = {}
    for action in np.where(actions == 1)[0]:
        _pid, (fr, fc), (tr, tc) = action_space_to_move(int(action))
        out[f"{FILES[fc]}{9 - fr}{FILES[tc]}{9 - tr}"] = int(action)
    return out


def action_for(env, move):
    """The action id of an ICCS move, from the piece id standing on its from-point."""
    fc, fr = FILES.index(move[0]), 9 - int(move[1])
    tc, tr = FILES.index(move[2]), 9 - int(move[3])
    pid = int(env.state[fr][fc]) * env.turn
    if pid <= 0:
        return None
    return move_to_action_space(pid, (fr, fc), (tr, tc))


def position(inp, env=None):
    state, turn = read_fen(inp["fen"])
    env = lay_out(env or XiangQiEnv(), state, turn)
    for i, m in enumerate(inp.get("moves", [])):
        iccs_arg(m, f"move {i + 1}")
        if env._done:
            raise Rejected("move.illegal", f"move {i + 1} ({m}): gym-xiangqi's step() ended the episode before it")
        action = action_for(env, m)
        if action is None:
            raise Rejected("move.illegal", f"move {i + 1} ({m}): no piece of the side to move on its point")
        _obs, reward, _done, _info = env.step(action)
        if reward == C.ILLEGAL_MOVE:
            raise Rejected("move.illegal", f"move {i + 1} ({m}): gym-xiangqi's step() answers ILLEGAL_MOVE")
    return env


def in_check(env):
    """check_jiang() asked for the opponent of the side to move, then the turn restored."""
    turn = env.turn
    env._turn = -turn
    try:
        return bool(env.check_jiang())
    finally:
        env._turn = turn
        env.get_possible_actions(turn)


def perft(env, depth):
    budget = Budget(*PERFT_NODES, depth)

    def count(state, turn, d):
        if d == 0:
            return 1
        budget.spend()
        lay_out(env, state, turn)
        actions = list(actions_of(env).values())
        if d == 1:
            return len(actions)
        total = 0
        for action in actions:
            pid, (fr, fc), (tr, tc) = action_space_to_move(action)
            child = np.array(state)  # what step() does to the state
            child[fr][fc] = C.EMPTY
            child[tr][tc] = pid * turn
            total += count(child, -turn, d - 1)
        return total

    return count(np.array(env.state), env.turn, depth)


def answer(edition, query, inp):
    if query not in ("legal_moves", "status", "perft"):
        raise Unsupported(f"gym-xiangqi does not answer {query}")
    env = position(inp)
    if env._done:
        raise Unsupported("gym-xiangqi's step() ended the episode with the last move; it answers nothing after")
    if query == "legal_moves":
        return {"result": {"moves": sorted(actions_of(env))}}
    if query == "status":
        check = in_check(env)
        no_move = not actions_of(env)
        return status_answer(check, not no_move)
    if query == "perft":
        return {"result": {"nodes": perft(env, inp["depth"])}}
    raise Unsupported(f"{query} is not implemented")


def quiet(edition, query, inp):
    """`answer`, with what the environment prints (a warning once an episode ended) on stderr."""
    with contextlib.redirect_stdout(sys.stderr):
        return answer(edition, query, inp)


def main():
    serve_package("gym-xiangqi (PyPI)", "gym-xiangqi", ["legal_moves", "status", "perft"], quiet)


if __name__ == "__main__":
    main()
