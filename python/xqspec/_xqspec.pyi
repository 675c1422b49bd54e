"""Type stubs of the compiled module ``xqspec._xqspec`` (re-exported by ``xqspec``)."""

from os import PathLike
from typing import Any, Dict, Iterator, List, Literal, Optional, Sequence, TypedDict, Union

Json = Any
Moves = Optional[Sequence[str]]
"""Moves in any notation the command line reads (Chinese, WXF, ICCS; move numbers allowed)."""
Overlay = Union[str, Dict[str, Any], None]
Path = Union[str, bytes, "PathLike[str]", "PathLike[bytes]"]

# The answer types, generated from conformance/case.schema.json by tests/it/answers.rs
# (`XQSPEC_UPDATE_STUBS=1 cargo test --test it -- answers::` writes them). Every field is
# optional (total=False), as in the schema: a field may be absent from an answer.
Adjustment = TypedDict("Adjustment", {"by": str, "event": int, "ms": int, "side": str}, total=False)
"""A change of a side's time."""
Cited = TypedDict("Cited", {"article": Optional[str], "clause": Optional[str]}, total=False)
"""A clause and its article, either `null` when there is none."""
ClockAnswer = TypedDict("ClockAnswer", {"adjustments": List[Adjustment], "article": Optional[str], "class": Optional[str], "clause": str, "control": Control, "ended_at": Optional[int], "final": PerSide, "flag": Optional[Flag], "moves": List[ClockMove], "reading": Optional[str], "running": Optional[str], "scheme": str, "start": PerSide, "violations": List[Violation]}, total=False)
"""The answer to `clock` (field `clock`): a game's clock events under a scheme."""
ClockMove = TypedDict("ClockMove", {"added": int, "black": int, "event": int, "number": int, "red": int, "side": str, "took": int}, total=False)
"""A move on the clock."""
Colours = TypedDict("Colours", {"by": Optional[str], "chooser": Optional[str], "red": Optional[str], "rule": str}, total=False)
"""How colours are given."""
Continues = TypedDict("Continues", {"from": int, "left": int}, total=False)
"""Where a record goes on after the game ended by the rules (`xqspec outcome`, `xqspec status`: judged up to the end)."""
Control = TypedDict("Control", {"black": List[Period], "increment": int, "red": List[Period]}, total=False)
"""The control."""
DecidedBy = TypedDict("DecidedBy", {"how": str, "round": Optional[int], "stage": str, "wins": Optional[Dict[str, int]]}, total=False)
"""The stage that decided a play-off."""
Decision = TypedDict("Decision", {"article": Optional[str], "basis": Optional[str], "by": Optional[str], "clause": Optional[str], "count": Optional[int], "decision": str, "event": Optional[int], "moves": Optional[List[str]], "note": Optional[str], "rests_on": Optional[List[str]], "rounds": Optional[int], "seconds": Optional[int], "side": Optional[str], "step": Optional[str]}, total=False)
"""One decision of the arbiter (an item of `outcome.rulings`, of `game_status.next.rulings`)."""
Flag = TypedDict("Flag", {"article": Optional[str], "clause": str, "event": int, "kind": str, "left": int, "move": int, "moves_made": int, "moves_required": Optional[int], "over": int, "side": str}, total=False)
"""The fall of a flag."""
GameStatusAnswer = TypedDict("GameStatusAnswer", {"article": Optional[str], "check": Optional[str], "clause": Optional[str], "continues": Optional[Continues], "how": Optional[str], "natural_limit": Optional[NaturalLimit], "next": Optional[NextAnswer], "orders": Orders, "ply": Optional[int], "position": str, "repeated": List[Repeated], "result": str, "state": str}, total=False)
"""The answer to `game_status` (field `game_status`): how a game in progress stands."""
IndividualStandings = TypedDict("IndividualStandings", {"annulled": List[str], "clause": str, "criteria": List[str], "format": str, "order": str, "ranking": List[Row], "ruleset": str}, total=False)
"""The individual standings a team event was ranked from (队员总分制)."""
NaturalLimit = TypedDict("NaturalLimit", {"limit": int, "remaining": int, "rounds": int}, total=False)
"""The natural move limit: the rounds counted and the limit."""
NextAnswer = TypedDict("NextAnswer", {"article": Optional[str], "clause": Optional[str], "cycle": int, "end": Cited, "plies": int, "ply": int, "result": str, "rulings": List[Decision], "times": int}, total=False)
"""What the board would decide if the cycle that brought the position back were played again, up to its first decision."""
Orders = TypedDict("Orders", {"black": Optional[Cited], "red": Optional[Cited]}, total=False)
"""The orders to change, per side."""
OutcomeAnswer = TypedDict("OutcomeAnswer", {"article": Optional[str], "basis": Optional[str], "by": Optional[str], "clause": Optional[str], "continues": Optional[Continues], "event": Optional[int], "fen": str, "fouls": PerSide, "rests_on": Optional[List[str]], "result": str, "rulings": List[Decision]}, total=False)
"""The answer to `outcome` (field `outcome`): the result of a game given as events."""
Patterns = TypedDict("Patterns", {"black": SidePattern, "red": SidePattern}, total=False)
"""Each side's pattern."""
PerSide = TypedDict("PerSide", {"black": int, "red": int}, total=False)
"""Fouls charged to each side (waived ones not counted)."""
Period = TypedDict("Period", {"moves": Optional[int], "repeat": bool, "time": int}, total=False)
"""One period of a time control."""
PlayoffAnswer = TypedDict("PlayoffAnswer", {"chain": str, "decided_by": Optional[DecidedBy], "games_played": int, "next": Optional[PlayoffNext], "winner": Optional[str]}, total=False)
"""The answer to `playoff` (field `playoff`): a knockout play-off chain so far."""
PlayoffNext = TypedDict("PlayoffNext", {"colours": Colours, "control": Optional[Control], "draw": Optional[str], "game": int, "round": Optional[int], "scheme": Optional[str], "stage": str}, total=False)
"""The next game of a play-off."""
Ply = TypedDict("Ply", {"article": Optional[str], "chase": List[str], "class": str, "clause": str, "family": str, "move": str, "ply": int, "reason": str, "reason_zh": str, "side": str, "targets": List[str], "zh": str}, total=False)
"""One ply of a 棋例 ruling."""
Repeated = TypedDict("Repeated", {"fen": str, "ply": int, "times": int}, total=False)
"""A position that has stood more than once since the last capture."""
Row = TypedDict("Row", {"entrant": str, "place": int, "score": Optional[float], "separated_by": Optional[str], "values": Dict[str, Optional[Union[float, List[float]]]], "withdrawn": Optional[bool]}, total=False)
"""One row of a ranking."""
RulingAnswer = TypedDict("RulingAnswer", {"basis": str, "clauses": List[Cited], "cycle": Optional[List[int]], "judged": str, "patterns": Optional[Patterns], "plies": List[Ply], "rests_on": List[str], "verdict": str, "verdict_only": Optional[bool]}, total=False)
"""The answer to `ruling` (field `ruling`): a 棋例 ruling on a cycle of moves."""
SidePattern = TypedDict("SidePattern", {"en": Optional[str], "pattern": str, "side_zh": str, "status": str, "status_zh": str, "zh": str}, total=False)
"""Black's."""
StandingsAnswer = TypedDict("StandingsAnswer", {"annulled": List[str], "clause": str, "criteria": List[str], "format": str, "individual": Optional[IndividualStandings], "order": str, "ranking": List[Row], "ruleset": str}, total=False)
"""The answer to `standings` (field `standings`): the ranking of a tournament."""
TouchAnswer = TypedDict("TouchAnswer", {"allowed": Optional[List[str]], "article": Optional[str], "clause": str, "foul": bool, "foul_clauses": List[str], "free": Optional[bool], "step": str}, total=False)
"""The answer to `touch_move` (field `touch`): the moves allowed after touching pieces."""
Violation = TypedDict("Violation", {"added": Optional[int], "article": Optional[str], "clause": Optional[str], "count": int, "effect": Optional[str], "event": int, "foul": bool, "kind": str, "side": str}, total=False)
"""A breach of the timing rules."""
# End of the generated answer types.

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
def ruling(fen: str = "startpos", moves: Moves = None, *, edition: Optional[str] = None, overlay: Overlay = None) -> RulingAnswer:
    """The 棋例 ruling on the cycle at the end of ``moves``: verdict, classes with reasons, patterns, clauses, basis."""
def outcome(fen: str = "startpos", moves: Moves = None, events: Optional[Sequence[Dict[str, Json]]] = None, *, edition: Optional[str] = None, overlay: Overlay = None) -> OutcomeAnswer:
    """The result of a game: ``moves`` and the arbiter's ``events`` (the moves where ``{"pgn": N}`` or ``{"pgn": "rest"}`` places them, else first), judged up to the end (``continues``)."""
def game_status(fen: str = "startpos", moves: Moves = None, *, edition: Optional[str] = None, overlay: Overlay = None) -> GameStatusAnswer:
    """How a game stands: ended or not, repetitions, orders; a record that goes on after the end is judged up to it (``continues``)."""
def touch_move(fen: str = "startpos", moves: Moves = None, *, touches: Sequence[str], simultaneous: bool = False, edition: Optional[str] = None, overlay: Overlay = None) -> TouchAnswer:
    """The moves allowed after touching the pieces on ``touches`` (points, in the order touched)."""
def clock(scheme: str, events: Sequence[Dict[str, Json]], *, settings: Optional[Dict[str, Json]] = None, edition: Optional[str] = None, overlay: Overlay = None) -> ClockAnswer:
    """Clock events under a clock scheme of the rule set."""
def playoff(chain: str, games: Optional[Sequence[Dict[str, Json]]] = None, *, better_ranked: Json = None, edition: Optional[str] = None, overlay: Overlay = None) -> PlayoffAnswer:
    """A knockout play-off chain and the games played so far."""
def standings(tournament: Dict[str, Json], *, edition: Optional[str] = None, overlay: Overlay = None) -> StandingsAnswer:
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
