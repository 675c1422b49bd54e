"""xqspec from Python: the Chinese Xiangqi Association's competition rules as data.

Every function answers as the conformance protocol (``conformance/PROTOCOL.md``)
does, through the library's reference implementation: the values returned are the
protocol's answer objects as dicts, lists, strings and integers, and every refusal
is an exception of ``XqspecError`` carrying its place.

    >>> import xqspec
    >>> len(xqspec.legal_moves())
    44
    >>> xqspec.parse_move("炮二平五", "chinese")
    'h2e2'

Rule sets are named by ``edition=`` (``cxa-2020`` when omitted; ``cxa-1999``,
``cxa-2011``, ``axf``, or an edition with a shipped overlay such as
``cxa-2011+provincial-2012-open``); ``overlay=`` applies an event overlay given by
its id or as a dict (``load_overlay``).
"""

from __future__ import annotations

from ._errors import (
    FenError,
    IllegalMoveError,
    InternalError,
    NotationError,
    QueryError,
    RecordError,
    Reject,
    RuleError,
    SpecError,
    UnsupportedError,
    XqspecError,
)
from ._xqspec import (
    DEFAULT_EDITION,
    PROTOCOL_VERSION,
    __version__,
    adjudicate_files,
    adjudicate_pgn,
    answer_json,
    ask,
    cases,
    clauses,
    clock,
    convert_moves,
    editions,
    format_move,
    game_status,
    games,
    hello,
    iter_adjudicate_files,
    iter_replay_files,
    legal_moves,
    load_overlay,
    outcome,
    overlays,
    parse_move,
    perft,
    playoff,
    record_moves,
    replay_files,
    replay_pgn,
    ruling,
    rulesets,
    run_suite,
    standings,
    status,
    touch_move,
    validate_fen,
)

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def summary(results: list) -> dict:
    """Counts of ``run_suite`` results by status (``pass``, ``fail``, ``skip`` …)."""
    counts: dict = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    return counts


__all__ = [
    "DEFAULT_EDITION",
    "PROTOCOL_VERSION",
    "START_FEN",
    "__version__",
    "adjudicate_files",
    "adjudicate_pgn",
    "answer_json",
    "ask",
    "cases",
    "clauses",
    "clock",
    "convert_moves",
    "editions",
    "format_move",
    "game_status",
    "games",
    "hello",
    "iter_adjudicate_files",
    "iter_replay_files",
    "legal_moves",
    "load_overlay",
    "outcome",
    "overlays",
    "parse_move",
    "perft",
    "playoff",
    "record_moves",
    "replay_files",
    "replay_pgn",
    "ruling",
    "rulesets",
    "run_suite",
    "standings",
    "status",
    "summary",
    "touch_move",
    "validate_fen",
    "FenError",
    "IllegalMoveError",
    "InternalError",
    "NotationError",
    "QueryError",
    "RecordError",
    "Reject",
    "RuleError",
    "SpecError",
    "UnsupportedError",
    "XqspecError",
]
