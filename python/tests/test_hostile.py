"""Hostile use of the Python package (issue 45), each attack in functions of its own: no exception but ``KeyboardInterrupt`` and ``SystemExit``
leaves the package other than as an ``Exception`` (a path the file system cannot name, a
number out of range: a ``ValueError`` naming the argument); ``run_suite`` stops on
``KeyboardInterrupt`` and ``SystemExit``; arguments are checked as the command line checks
them; the batch calls keep nothing per file, and their iterators nothing at all; an overlay
is found by its content, never by its id alone."""

import copy
from concurrent.futures import ThreadPoolExecutor
import subprocess
import sys
import textwrap
import time

import pytest

import xqspec

GAME = '[Event "a"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n'
SURROGATE = "\ud800"


def _value_error_naming(call, name):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value).startswith(f"{name}:"), str(e.value)


def test_a_path_the_file_system_cannot_name_is_a_value_error(tmp_path):
    _value_error_naming(lambda: xqspec.load_overlay(SURROGATE), "path")
    _value_error_naming(lambda: xqspec.record_moves(SURROGATE), "path")
    _value_error_naming(lambda: xqspec.replay_files([SURROGATE]), "paths[0]")
    good = tmp_path / "g.pgn"
    good.write_text(GAME)
    _value_error_naming(lambda: xqspec.adjudicate_files([good, SURROGATE]), "paths[1]")
    # One path (str, bytes or os.PathLike) is a list of one.
    one = xqspec.adjudicate_files([good])
    assert xqspec.adjudicate_files(str(good)) == xqspec.adjudicate_files(good) == one
    assert xqspec.adjudicate_files(bytes(good)) == one
    assert xqspec.replay_files(good) == xqspec.replay_files([good])
    assert list(xqspec.iter_replay_files(good)) == xqspec.replay_files([good])
    _value_error_naming(lambda: xqspec.adjudicate_files(SURROGATE), "paths")
    _value_error_naming(lambda: xqspec.games(SURROGATE), "path")
    with pytest.raises(TypeError):
        xqspec.adjudicate_files(3)  # neither a path nor a list of them
    # bytes and os.PathLike are paths too.
    assert xqspec.record_moves(bytes(good)) == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert len(xqspec.replay_files([good])) == 1


def test_moves_that_a_tag_or_a_result_would_cut_are_refused_not_dropped():
    # Read as a record's movetext, a tag or a result among the moves would end them there.
    for moves, item in [(["h2e2", '[Event "x"]', "h9g7"], 1), (["炮二平五", "1-0", "马8进7"], 1),
                        (["炮二平五 *", "马8进7"], 0)]:
        for call in (xqspec.legal_moves, xqspec.ruling, xqspec.game_status, xqspec.outcome):
            with pytest.raises(xqspec.NotationError) as e:
                call(moves=moves)
            assert e.value.kind == "notation.syntax" and str(e.value).startswith(f"moves[{item}] "), str(e.value)
    assert xqspec.legal_moves(moves=["炮二平五", "马8进7", "1-0"]) == xqspec.legal_moves(moves=["h2e2", "h9g7"])


def test_numbers_out_of_range_are_value_errors_naming_the_argument(tmp_path):
    for depth in (-1, 2**32, 2**64, 2**200):
        _value_error_naming(lambda: xqspec.perft(depth), "depth")
    good = tmp_path / "g.pgn"
    good.write_text(GAME)
    for game in (-1, 0, 2**64):
        _value_error_naming(lambda: xqspec.record_moves(good, game), "game")
    with pytest.raises(TypeError):
        xqspec.perft(1.5)
    assert xqspec.perft(1) == 44


class _Stops:
    """An implementation whose third answer raises ``exc``."""

    def __init__(self, exc):
        self.exc = exc
        self.calls = 0

    def hello(self):
        return xqspec.hello()

    def __getattr__(self, query):
        def method(edition, input, **kw):
            self.calls += 1
            if self.calls == 3:
                raise self.exc
            return xqspec.ask(query, input, edition=edition)

        return method


@pytest.mark.parametrize("exc", [KeyboardInterrupt(), SystemExit(3)])
def test_run_suite_stops_on_keyboard_interrupt_and_system_exit(exc):
    imp = _Stops(exc)
    t = time.monotonic()
    with pytest.raises(type(exc)):
        xqspec.run_suite(imp)
    assert imp.calls == 3 and time.monotonic() - t < 5


def test_run_suite_turns_any_other_exception_into_that_case_s_error():
    imp = _Stops(GeneratorExit())
    results = xqspec.run_suite(imp, run=["movement/*"])
    assert any(r["status"] == "error" and "GeneratorExit" in r["detail"] for r in results)

    class BadHello:
        def hello(self):
            raise GeneratorExit("gone")

    with pytest.raises(xqspec.QueryError, match="GeneratorExit"):
        xqspec.run_suite(BadHello())


def test_run_suite_checks_its_options_as_the_command_line_does():
    with pytest.raises(xqspec.QueryError, match="unknown edition `cxa-1066`"):
        xqspec.run_suite(_Stops(None), editions=["cxa-1066"])
    _value_error_naming(
        lambda: xqspec.run_suite(_Stops(None), known_failures=SURROGATE), "known_failures"
    )


def test_style_is_the_style_of_converted_records():
    with pytest.raises(xqspec.QueryError) as e:
        xqspec.replay_pgn(GAME, style="traditional")
    assert e.value.kind == "style"
    with pytest.raises(xqspec.QueryError):
        xqspec.replay_pgn(GAME, to="chinese", style="nonsense")
    [g] = xqspec.replay_pgn(GAME, to="chinese", style="traditional")
    assert g["converted"]


def test_an_iterator_gives_the_list_s_items_and_stops_when_dropped(tmp_path):
    paths = []
    for i in range(300):
        p = tmp_path / f"g{i:03}.pgn"
        p.write_text(GAME if i % 7 else "1. h2e2 h2e2 *\n")
        paths.append(p)
    paths.append(tmp_path / "missing.pgn")
    assert list(xqspec.iter_adjudicate_files(paths)) == xqspec.adjudicate_files(paths)
    assert list(xqspec.iter_replay_files(paths, to="wxf")) == xqspec.replay_files(paths, to="wxf")
    it = xqspec.iter_replay_files(paths * 20)
    next(it)
    del it  # the stream stops; nothing hangs
    _value_error_naming(lambda: xqspec.iter_replay_files([SURROGATE]), "paths[0]")
    with pytest.raises(xqspec.QueryError):
        xqspec.iter_replay_files(paths, style="traditional")


def test_a_list_of_numbers_is_no_record():
    with pytest.raises(TypeError):
        xqspec.replay_pgn([49, 46, 32])
    assert xqspec.replay_pgn(bytearray(GAME, "ascii"))[0]["ok"]


_PEAK = textwrap.dedent(
    """
    import sys, xqspec
    paths = sys.stdin.read().split("\\n")
    items = getattr(xqspec, sys.argv[1])(paths)
    count = sum(1 for _ in items) if sys.argv[1].startswith("iter_") else len(items)
    assert count == len(paths), count
    # The high-water mark of this process's own memory since exec (ru_maxrss would
    # count the parent's, shared until exec).
    with open("/proc/self/status") as f:
        print(next(l.split()[1] for l in f if l.startswith("VmHWM:")))
    """
)


@pytest.mark.skipif(sys.platform != "linux", reason="/proc/self/status is Linux's")
@pytest.mark.parametrize(
    "call, per_file_kib",
    [
        ("adjudicate_files", 6),
        ("replay_files", 6),
        ("iter_adjudicate_files", 1),
        ("iter_replay_files", 1),
    ],
)
def test_the_batch_calls_keep_nothing_per_file(tmp_path, call, per_file_kib):
    files = []
    for i in range(4000):
        p = tmp_path / f"g{i:05}.pgn"
        p.write_text(f'[Event "game {i}"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n')
        files.append(str(p))

    def peak(paths):
        out = subprocess.run(
            [sys.executable, "-c", _PEAK, call],
            input="\n".join(paths),
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0, out.stderr[-2000:]
        return int(out.stdout.split()[-1])

    few, many = peak(files[:1000]), peak(files)
    # A list answer (a dict a game) grows with the files, about 2.5 KiB each; the items of
    # an iterator are not kept. Before, each file also kept a 256 KiB read buffer (and
    # replay_files read every file first).
    assert many - few < 3000 * per_file_kib + 4096, (few, many)


START = xqspec.START_FEN


# ---- The overlay cache (issue 45, item 1): keyed by the overlay's content, not its id ----


def _overlay_with_rounds(rounds):
    """The shipped overlay provincial-2012-open, its natural limit set to `rounds`, its id
    unchanged."""
    o = copy.deepcopy({o["overlay"]: o for o in xqspec.overlays()}["provincial-2012-open"])
    change = next(c for c in o["changes"] if c["clause"] == "draw.natural_limit")
    change["data"]["rounds"] = rounds
    return o


def _natural_limit(overlay):
    """The natural limit a fresh game has under cxa-2011 with `overlay` (the query releases
    the GIL, so threads run it at once)."""
    r = xqspec.ask("game_status", {"fen": START, "moves": []}, edition="cxa-2011", overlay=overlay)
    return r.get("game_status", r)["natural_limit"]["limit"]


def test_overlays_of_one_id_with_other_data_each_get_their_own_rules():
    fifty, thirty = _overlay_with_rounds(50), _overlay_with_rounds(30)
    assert _natural_limit(fifty) == 50
    assert _natural_limit(thirty) == 30
    assert _natural_limit(fifty) == 50
    # An invalid overlay after a valid one with its id is refused; a valid one after it is
    # accepted.
    bad = copy.deepcopy(thirty)
    bad["changes"][0]["clause"] = "no.such_clause"
    with pytest.raises(xqspec.XqspecError) as e:
        _natural_limit(bad)
    assert "no.such_clause" in str(e.value)
    assert _natural_limit(thirty) == 30


def test_eight_threads_with_two_overlays_of_one_id_always_get_their_own_answer():
    fifty, thirty = _overlay_with_rounds(50), _overlay_with_rounds(30)

    def call(i):
        want, overlay = (50, fifty) if i % 2 else (30, thirty)
        return want, _natural_limit(overlay)

    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(call, range(4000)))
    wrong = [(want, limit) for want, limit in got if want != limit]
    assert wrong == [], f"{len(wrong)} of {len(got)} calls got the other overlay's limit"
