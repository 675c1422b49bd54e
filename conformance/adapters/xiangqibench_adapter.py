#!/usr/bin/env python3
"""xiangqibench (PyPI `xiangqibench`, a benchmark of LLM agents on xiangqi endgames) under
the xqspec conformance protocol, version 2 (see ../PROTOCOL.md): its rules module,
`xiangqibench.rules.XiangqiEnv`, the game state its harness plays and adjudicates.

    pip install xiangqibench
    xqspec conform --adapter "python3 conformance/adapters/xiangqibench_adapter.py"

An adapter for implementers and for `measure.py`, run by hand; the repository's tests do
not use it. It answers only through `XiangqiEnv` and adds no rules of its own:

- `legal_moves`: `get_legal_moves()` (cchess's generator, less the moves that leave the own
  general attacked); a move of the input is played with `step()`, and one it refuses is
  rejected as `move.illegal`.
- `status`: no legal move is checkmate when `is_in_check()`, else stalemate.
- `perft`: counted with `get_legal_moves()` and `step()` on copies of the environment
  (`set_state_from_fen` of the position reached, some milliseconds each), declined
  (`unsupported`) past a budget of move generations (`XQ_XIANGQIBENCH_PERFT_NODES`, default
  5000) or half the runner's time limit (`limits.timeout_ms`, protocol_session.py).
- `ruling`, under `axf` only: the env's own adjudication of repetitions (`_check_game_over`
  after each `step`: at the third occurrence of a position a draw, unless exactly one side
  checked on every one of its moves since the first of the three, which then loses;
  chases are not adjudicated, as its module says). Where the env ends the game while the
  moves are played (a position stood three times), that is its verdict; otherwise, like
  pyffish_adapter.py, the cycle the protocol's `ruling` judges is played again (at most
  twice) until the env ends the game.
  Only the verdict is shown (`verdict_only`): a loss for perpetual check is answered
  `X_must_change`, the AXF rule set's verdict for it.

Editions: all four for the movement queries; `ruling` under `axf` only, the rule set whose
perpetual-check rule the env follows (it has none of the CXA chasing rules either).
"""


from xiangqibench.rules.xiangqi_env import XiangqiEnv

from protocol_session import Budget, Rejected, Unsupported, iccs_arg, last_cycle, serve_package, status_answer



def env_at(fen, moves):
    """The env after `moves` from `fen`, or a rejection; the env's refusals are the program's."""
    env = XiangqiEnv()
    try:
        env.set_state_from_fen(fen)
    except Exception as e:  # cchess refuses the FEN
        raise Rejected("fen", f"set_state_from_fen: {type(e).__name__}: {e}")
    for i, m in enumerate(moves):
        iccs_arg(m, f"move {i + 1}")
        if not env.step(m):
            raise Rejected("move.illegal", f"move {i + 1} ({m}): step() refuses it")
    return env


def perft(fen, depth, budget):
    budget.spend()
    env = env_at(fen, [])
    moves = env.get_legal_moves()
    if depth == 1:
        return len(moves)
    n = 0
    for m in moves:
        child = env_at(fen, [m])
        n += perft(child.board.to_fen(), depth - 1, budget)
    return n


def ruling(fen, moves):
    """The env's verdict on the repetition of the moves: where it ends the game while they are
    played, else on their last cycle played again until it rules."""
    env = env_at(fen, [])
    keys = [env._get_position_key()]
    for i, m in enumerate(moves):
        if env.is_game_over():  # the env ruled before the moves' end: that is its verdict
            return verdict_of(env, None, f"ended the game after {i} of the {len(moves)} plies")
        iccs_arg(m, f"move {i + 1}")
        if not env.step(m):
            raise Rejected("move.illegal", f"move {i + 1} ({m}): step() refuses it")
        keys.append(env._get_position_key())
    cycle = last_cycle(keys)
    if cycle is None:
        raise Unsupported("no position repeats: the env adjudicates repetitions only")
    # The cycle again, at most twice, until the env ends the game (a position stands 3 times).
    env = env_at(fen, moves[:cycle[1]])
    n = cycle[1]
    for m in moves[cycle[0] - 1:cycle[1]] * 2:
        if env.is_game_over():
            break
        env.step(m)
        n += 1
    return verdict_of(env, cycle, f"after {n} plies")


def verdict_of(env, cycle, when):
    details = env.get_outcome_details()
    if not details:
        return {"verdict": "none", "verdict_only": True, "judged": "none", "cycle": None}
    if details["reason"] == "repetition":
        verdict = "draw"
    elif details["reason"] == "perpetual_check":
        verdict = "red_must_change" if details["winner"] == "black" else "black_must_change"
    else:
        verdict = "none"
    return {"verdict": verdict, "verdict_only": True, "judged": "repetition", "cycle": cycle,
            "note": f"XiangqiEnv: {details['reason']}, {when}"}


def answer(edition, query, inp):
    if query == "ruling" and edition != "axf":
        raise Unsupported("xiangqibench adjudicates repetitions by perpetual check only: measured under axf")
    fen, moves = inp["fen"], inp.get("moves", [])
    if query == "ruling":
        return {"result": {"ruling": ruling(fen, moves)}}
    env = env_at(fen, moves)
    if query == "legal_moves":
        return {"result": {"moves": env.get_legal_moves()}}
    if query == "status":
        return status_answer(env.is_in_check(), bool(env.get_legal_moves()))
    if query == "perft":
        if inp["depth"] == 0:
            return {"result": {"nodes": 1}}
        budget = Budget("XQ_XIANGQIBENCH_PERFT_NODES", 5000, inp["depth"])
        return {"result": {"nodes": perft(env.board.to_fen(), inp["depth"], budget)}}
    raise Unsupported(f"xiangqibench has no {query}")


def main():
    serve_package("xiangqibench", "xiangqibench", ["legal_moves", "perft", "status", "ruling"], answer)


if __name__ == "__main__":
    main()
