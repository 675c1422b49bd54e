"""The protocol-2 session (conformance/PROTOCOL.md §2) shared by the Python adapters of this
folder: read requests, answer `hello` with what the adapter declares, put each `ask` to the
adapter's `answer` function, stop at `stop`. An adapter imports it from its own folder
(`python3 conformance/adapters/X_adapter.py` puts that folder on the module path).

`answer(edition, query, input)` returns the answer's field (`{"result": {...}}`), or raises
`Rejected(kind, message)` for a rejection or `Unsupported(reason)` for a query it declines;
any other exception is the library's (or the adapter's) failure, answered as an `error`, and
the session goes on.
"""

import importlib.metadata
import json
import os
import re
import sys
import time


class Rejected(Exception):
    """The program refuses the input: a reject kind of PROTOCOL.md §4 (or its family alone)."""

    def __init__(self, kind, message=""):
        super().__init__(message)
        self.kind = kind


class Unsupported(Exception):
    """The program does not answer this request; the reason says why."""


# The runner's limits from its hello (PROTOCOL.md §2.1): `timeout_ms`, the time it waits for
# each answer. A request that has used TIME_SHARE of it stops its perft (`check_time`).
RUNNER_LIMITS = {}
TIME_SHARE = 0.5
_deadline = [None]


def check_time(depth):
    """Raises `Unsupported` once the request being answered has used TIME_SHARE of the
    runner's time limit (`limits.timeout_ms` of its hello): a perft too big for the limit on
    this machine, now, is declined in time rather than timed out."""
    if _deadline[0] is not None and time.monotonic() > _deadline[0]:
        raise Unsupported(f"perft {depth} stopped: past {TIME_SHARE:.0%} of the runner's time limit "
                          f"({RUNNER_LIMITS['timeout_ms']} ms, limits.timeout_ms)")


class Budget:
    """A perft's budget of move generations, read from the environment variable `variable`
    (default `default`): `spend()` once per generation; past the budget, or past the share of
    the runner's time limit (`check_time`), it raises `Unsupported`, so that a perft too big
    for the time limit is declined, not timed out."""

    def __init__(self, variable, default, depth):
        self.limit = int(os.environ.get(variable, str(default)))
        self.variable = variable
        self.depth = depth
        self.spent = 0

    def spend(self):
        check_time(self.depth)
        self.spent += 1
        if self.spent > self.limit:
            raise Unsupported(f"perft {self.depth} stopped: more than {self.limit} move generations "
                              f"(the budget, {self.variable})")


def status_answer(check, has_moves):
    """The answer to `status` (PROTOCOL.md §3) for a side to move that is in check or not and
    has legal moves or none."""
    if has_moves:
        status = "check" if check else "ongoing"
    else:
        status = "checkmate" if check else "stalemate"
    return {"result": {"status": status}}


def last_cycle(keys):
    """The cycle PROTOCOL.md's `ruling` judges, from the keys of the positions of a line
    (`keys[0]` before the first move): `[first, last]` plies (1-based) of the shortest cycle
    ending at the latest position that repeats an earlier one, or None."""
    for last in range(len(keys) - 1, 0, -1):
        earlier = [i for i in range(last) if keys[i] == keys[last]]
        if earlier:
            return [earlier[-1] + 1, last]
    return None


def reply_to(request, answer):
    """The answer line of one `ask`."""
    timeout_ms = RUNNER_LIMITS.get("timeout_ms")
    _deadline[0] = time.monotonic() + TIME_SHARE * timeout_ms / 1000 if timeout_ms else None
    try:
        body = answer(request.get("edition"), request["query"], request["input"])
    except Rejected as r:
        body = {"reject": {"kind": r.kind, "message": str(r)}}
    except Unsupported as u:
        body = {"unsupported": {"reason": str(u)}}
    except Exception as e:  # the library (or this adapter) failed: report it and go on
        body = {"error": {"message": f"{type(e).__name__}: {e}"}}
    return {"id": request.get("id"), **body}


# A move in ICCS (PROTOCOL.md): the file letter and rank digit of the point it leaves, then
# of the point it reaches.
ICCS = re.compile(r"^[a-i][0-9][a-i][0-9]$")


def iccs_arg(move, what):
    """`move` of a request, which must be an ICCS string; otherwise a `move.syntax` rejection
    saying that `what` (\"move 3\", \"the move\") is not ICCS."""
    if not isinstance(move, str) or not ICCS.match(move):
        raise Rejected("move.syntax", f"{what} is not ICCS")
    return move


# The queries on a position, its moves and their notation: what an adapter of a library that
# reads FEN, generates moves and writes them can answer in full.
POSITION_QUERIES = ["legal_moves", "status", "perft", "validate_fen", "parse_move", "format_move"]

def lay_out_fen(fen, untranslatable, lay_row):
    """Reads `fen` for an adapter that lays out the board of a library that reads no FEN:
    calls `lay_row(y, points)` for each rank from Black's back rank (y = 0), its nine points
    a FEN letter or None each, and returns whether Red is to move. A FEN that does not
    translate raises `untranslatable(what)`, at the first place that does not."""
    fields = fen.split() if isinstance(fen, str) else []
    if len(fields) not in (2, 4, 6):
        raise untranslatable("its fields")
    ranks = fields[0].split("/")
    if len(ranks) != 10:
        raise untranslatable("not 10 ranks")
    for y, rank in enumerate(ranks):
        points = []
        for ch in rank:
            if ch in "123456789":
                points.extend([None] * int(ch))
            elif ch.upper() in "KABNRCP":
                points.append(ch)
            else:
                raise untranslatable(repr(ch))
        if len(points) != 9:
            raise untranslatable(f"a rank of {len(points)} points")
        lay_row(y, points)
    if fields[1] not in ("w", "b"):
        raise untranslatable("side to move")
    if len(fields) == 6 and not (fields[4].isdigit() and fields[5].isdigit()):
        raise untranslatable("counters")
    return fields[1] == "w"


# The rule sets the adapters of this folder declare in their hello.
EDITIONS = ["cxa-1999", "cxa-2011", "cxa-2020", "axf"]


def serve_package(name, distribution, queries, answer, language="Python"):
    """Runs the session for an adapter of the PyPI package `distribution`, named `name` in the
    hello, with the package's installed version and its PyPI page, for every rule set of
    EDITIONS."""
    serve({"name": name, "version": importlib.metadata.version(distribution),
           "language": language, "homepage": f"https://pypi.org/project/{distribution}/"},
          EDITIONS, queries, answer)


def serve(implementation, editions, queries, answer, limits=None, stdin=sys.stdin, stdout=sys.stdout):
    """Runs the session: `implementation` is the hello's object (name, version …)."""
    for line in stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        kind = request.get("type")
        if kind == "hello":
            limits = request.get("limits")
            if isinstance(limits, dict) and isinstance(limits.get("timeout_ms"), (int, float)):
                RUNNER_LIMITS["timeout_ms"] = limits["timeout_ms"]
            if request.get("protocol") != 2:
                print(json.dumps({"type": "error", "message": "this adapter speaks protocol 2"}), file=stdout, flush=True)
                return
            reply = {"type": "hello", "protocol": 2, "implementation": implementation,
                     "editions": editions, "queries": queries}
            if limits:
                reply["limits"] = limits
        elif kind == "stop":
            return
        else:
            reply = reply_to(request, answer)
        print(json.dumps(reply, ensure_ascii=False), file=stdout, flush=True)
