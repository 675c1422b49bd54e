"""The exceptions of xqspec. Every refusal of the library is an ``XqspecError``
carrying what the library says of its place: ``kind`` (the protocol's reject kind,
such as ``fen.board_shape`` or ``move.illegal``), ``file``, ``line``, ``column``,
``ply`` (the 1-based number of the move in the moves given, or of the game's
ply in a record) and ``event`` (the index of an event in an ``outcome`` input's
``events`` list, from 0, as the message writes ``events[i]``), each ``None`` when
it does not apply."""

from __future__ import annotations

from typing import Any, Optional


class XqspecError(Exception):
    """Base class of every exception xqspec raises."""

    kind: Optional[str]
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    ply: Optional[int]
    event: Optional[int]

    def __init__(
        self,
        message: str = "",
        *,
        kind: Optional[str] = None,
        file: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
        ply: Optional[int] = None,
        event: Optional[int] = None,
        **more: Any,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.ply = ply
        self.event = event
        for k, v in more.items():
            setattr(self, k, v)

    @property
    def place(self) -> dict:
        """The place as a dict of the attributes that are set."""
        return {
            k: getattr(self, k)
            for k in ("file", "line", "column", "ply", "event")
            if getattr(self, k) is not None
        }

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        parts = [repr(self.message)]
        if self.kind:
            parts.append(f"kind={self.kind!r}")
        parts += [f"{k}={v!r}" for k, v in self.place.items()]
        return f"{type(self).__name__}({', '.join(parts)})"

    def __reduce__(self):  # picklable with its attributes (Dask ships exceptions)
        return (_rebuild, (type(self), self.message, dict(self.__dict__)))


def _rebuild(cls, message, state):
    e = cls(message)
    e.__dict__.update(state)
    return e


class FenError(XqspecError):
    """A FEN that is not a FEN (``stage == "syntax"``) or gives a position the rules
    do not allow (``stage == "position"``); ``column`` where the text has a place."""

    stage: Optional[str] = None


class NotationError(XqspecError):
    """A move that does not read: not ICCS (``move.syntax``, with its ``ply``) or
    notation text that cannot be read (``notation.syntax``)."""


class IllegalMoveError(XqspecError):
    """A move that reads but is not legal where it is played (``move.illegal``, with
    its ``ply``), or notation text naming no legal move or several
    (``notation.no_match``, ``notation.ambiguous``)."""


class RuleError(XqspecError):
    """Input the rules refuse in another domain: events (``events.*``), touch-move
    (``touch.*``), clock (``clock.*``), play-off (``playoff.*``), tournaments
    (``tournament.*``)."""


class RecordError(XqspecError):
    """A game record that cannot be read or replayed, with ``file``, ``line``,
    ``column`` and ``ply``."""


class SpecError(XqspecError):
    """An unknown rule set or overlay, or an overlay file that does not read (with
    ``file``, ``line``, ``column`` and ``clause``)."""


class UnsupportedError(XqspecError):
    """The library declines the query (a perft beyond its node budget, a notation
    the rule set cannot write). Raise it from a method of an implementation run by
    ``run_suite`` to decline a case."""


class QueryError(XqspecError, ValueError):
    """Input that does not make the query: a missing or mistyped field, an unknown
    query, notation or encoding."""


class InternalError(XqspecError):
    """A bug of the library (a panic inside it), reported instead of a crash."""


class Reject(XqspecError):
    """For implementations run by ``run_suite``: ``raise Reject("fen.board_shape",
    "9 ranks")`` answers a rejection of that kind."""

    def __init__(self, kind: str, message: str = "", **place: Any) -> None:
        super().__init__(message, kind=kind, **place)


__all__ = [
    "XqspecError",
    "FenError",
    "NotationError",
    "IllegalMoveError",
    "RuleError",
    "RecordError",
    "SpecError",
    "UnsupportedError",
    "QueryError",
    "InternalError",
    "Reject",
]
