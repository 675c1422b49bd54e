"""Hostile use of the Python package (issue 45): each attack in functions of its own."""

import copy
from concurrent.futures import ThreadPoolExecutor

import pytest

import xqspec

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
