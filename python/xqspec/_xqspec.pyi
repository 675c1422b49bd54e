"""Type stubs of the compiled module ``xqspec._xqspec`` (re-exported by ``xqspec``)."""

from os import PathLike
from typing import Any, Dict, Iterator, List, Literal, Optional, Sequence, Union

Json = Any
Moves = Optional[Sequence[str]]
"""Moves in any notation the command line reads (Chinese, WXF, ICCS; move numbers allowed)."""
Overlay = Union[str, Dict[str, Any], None]
Path = Union[str, bytes, "PathLike[str]", "PathLike[bytes]"]

__version__: str
PROTOCOL_VERSION: int
DEFAULT_EDITION: str

def legal_moves(fen: str = "startpos", moves: Moves = None, *, edition: Optional[str] = None, overlay: Overlay = None) -> List[str]:
    """The legal moves of the side to move after ``moves`` (any notation) from ``fen``, ICCS, sorted."""
def perft(depth: int, fen: str = "startpos", moves: Moves = None, *, edition: Optional[str] = None, overlay: Overlay = None) -> int:
    """The number of legal move sequences of ``depth`` plies."""
def status(fen: str = "startpos", moves: Moves = None, *, edition: Optional[str] = None, overlay: Overlay = None) -> Literal["ongoing", "check", "checkmate", "stalemate"]:
    """The status of the side to move."""
def validate_fen(fen: str, *, edition: Optional[str] = None, overlay: Overlay = None) -> bool:
    """``True``, or a ``FenError`` with ``kind``, ``column`` and ``stage``."""
def parse_move(text: str, notation: str, fen: str = "startpos", moves: Moves = None, *, edition: Optional[str] = None, overlay: Overlay = None) -> str:
    """A move in a notation (``chinese``, ``wxf``, ``iccs`` …) read into ICCS."""
def format_move(move: str, notation: str, fen: str = "startpos", moves: Moves = None, *, edition: Optional[str] = None, overlay: Overlay = None) -> str:
    """An ICCS move written in a notation."""
def convert_moves(moves: Sequence[str], to: str, fen: str = "startpos", from_: Optional[str] = None, *, edition: Optional[str] = None, overlay: Overlay = None) -> List[str]:
    """Moves rewritten from one notation (detected when ``from_`` is None) into ``to``."""
def ruling(fen: str = "startpos", moves: Moves = None, *, edition: Optional[str] = None, overlay: Overlay = None) -> Dict[str, Json]:
    """The 棋例 ruling on the cycle at the end of ``moves``: verdict, classes with reasons, patterns, clauses, basis."""
def outcome(fen: str = "startpos", moves: Moves = None, events: Optional[Sequence[Dict[str, Json]]] = None, *, edition: Optional[str] = None, overlay: Overlay = None) -> Dict[str, Json]:
    """The result of a game: ``moves`` and the arbiter's ``events`` (the moves where ``{"pgn": N}`` or ``{"pgn": "rest"}`` places them, else first), judged up to the end (``continues``)."""
def game_status(fen: str = "startpos", moves: Moves = None, *, edition: Optional[str] = None, overlay: Overlay = None) -> Dict[str, Json]:
    """How a game stands: ended or not, repetitions, orders; a record that goes on after the end is judged up to it (``continues``)."""
def touch_move(fen: str = "startpos", moves: Moves = None, *, touches: Sequence[str], simultaneous: bool = False, edition: Optional[str] = None, overlay: Overlay = None) -> Dict[str, Json]:
    """The moves allowed after touching the pieces on ``touches`` (points, in the order touched)."""
def clock(scheme: str, events: Sequence[Dict[str, Json]], *, settings: Optional[Dict[str, Json]] = None, edition: Optional[str] = None, overlay: Overlay = None) -> Dict[str, Json]:
    """Clock events under a clock scheme of the rule set."""
def playoff(chain: str, games: Optional[Sequence[Dict[str, Json]]] = None, *, better_ranked: Json = None, edition: Optional[str] = None, overlay: Overlay = None) -> Dict[str, Json]:
    """A knockout play-off chain and the games played so far."""
def standings(tournament: Dict[str, Json], *, edition: Optional[str] = None, overlay: Overlay = None) -> Dict[str, Json]:
    """Standings of a tournament given in the shape of a tournament file."""
def ask(query: str, input: Dict[str, Json], *, edition: Optional[str] = None, overlay: Overlay = None) -> Dict[str, Json]:
    """Any query by name with the protocol's input object (moves in ICCS): the protocol's result object, or the exception of a rejection."""
def answer_json(query: str, input: Dict[str, Json], *, edition: Optional[str] = None, overlay: Overlay = None) -> Dict[str, Json]:
    """The protocol's whole answer: ``{"result"|"reject"|"unsupported"|"error": …}``."""
def rulesets() -> List[str]:
    """Every rule-set id: the editions, then ``edition+overlay`` for each shipped overlay."""
def editions() -> List[str]:
    """The edition ids."""
def overlays() -> List[Dict[str, Json]]:
    """The shipped event overlays as dicts."""
def load_overlay(path: Path) -> Dict[str, Json]:
    """An overlay YAML file read into the dict ``overlay=`` takes (``SpecError`` with its place)."""
def clauses(edition: Optional[str] = None, *, overlay: Overlay = None) -> Dict[str, Json]:
    """A rule set's edition header and clauses."""
def hello() -> Dict[str, Json]:
    """The reference's protocol hello."""
def adjudicate_files(paths: Union[Path, Sequence[Path]], *, edition: Optional[str] = None, overlay: Overlay = None, encoding: Optional[str] = None) -> List[Dict[str, Json]]:
    """``xqspec adjudicate --json`` of the files: one dict per game, text that is no game, file not read."""
def replay_files(paths: Union[Path, Sequence[Path]], *, edition: Optional[str] = None, overlay: Overlay = None, encoding: Optional[str] = None, to: Optional[str] = None, style: Optional[str] = None) -> List[Dict[str, Json]]:
    """Every game of the files replayed (and converted with ``to``, in ``style``: simplified when None), problems per file."""
def iter_adjudicate_files(paths: Union[Path, Sequence[Path]], *, edition: Optional[str] = None, overlay: Overlay = None, encoding: Optional[str] = None) -> Iterator[Dict[str, Json]]:
    """``adjudicate_files`` item by item as found: memory does not grow with the files."""
def iter_replay_files(paths: Union[Path, Sequence[Path]], *, edition: Optional[str] = None, overlay: Overlay = None, encoding: Optional[str] = None, to: Optional[str] = None, style: Optional[str] = None) -> Iterator[Dict[str, Json]]:
    """``replay_files`` item by item as found: memory does not grow with the files."""
def adjudicate_pgn(text: Union[str, bytes, bytearray], *, name: str = "<text>", edition: Optional[str] = None, overlay: Overlay = None, encoding: Optional[str] = None) -> List[Dict[str, Json]]:
    """``adjudicate_files`` of one record given as text."""
def replay_pgn(text: Union[str, bytes, bytearray], *, name: str = "<text>", edition: Optional[str] = None, overlay: Overlay = None, encoding: Optional[str] = None, to: Optional[str] = None, style: Optional[str] = None) -> List[Dict[str, Json]]:
    """``replay_files`` of one record given as text."""
def record_moves(path: Path, game: int = 1, *, edition: Optional[str] = None, overlay: Overlay = None, encoding: Optional[str] = None) -> List[str]:
    """The ICCS moves of game ``game`` of a record file, read up to that game (``RecordError`` with its place)."""
def games(path: Path, *, edition: Optional[str] = None, overlay: Overlay = None, encoding: Optional[str] = None) -> Iterator[Dict[str, Json]]:
    """The games of one record file as they are read, the file read once: ``replay_files``'s items (``game``, ``headers``, ``fen``, ``moves`` …)."""
def run_suite(implementation: Any, *, editions: Optional[Sequence[str]] = None, run: Optional[Sequence[str]] = None, skip: Optional[Sequence[str]] = None, skip_features: Optional[Sequence[str]] = None, areas: Optional[Sequence[str]] = None, known_failures: Optional[Path] = None) -> List[Dict[str, Json]]:
    """The conformance suite against a Python object with ``hello()`` and one method per query (a ``KeyboardInterrupt`` or ``SystemExit`` of a method stops it and is raised)."""
def cases() -> List[Dict[str, Json]]:
    """The suite's cases."""
def _rust_time(query: str, input: Dict[str, Json], n: int, *, edition: Optional[str] = None) -> float: ...
def _panic_for_test() -> None: ...
