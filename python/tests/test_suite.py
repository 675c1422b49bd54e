"""The conformance suite run against Python objects that implement the protocol's
queries as methods: no process adapter."""

import xqspec


class Reference:
    """Every query answered by xqspec itself, through its Python API."""

    def hello(self):
        return xqspec.hello()

    def __getattr__(self, query):
        def method(edition, input, overlay=None):
            return xqspec.ask(query, input, edition=edition, overlay=overlay)
        return method


class MovesOnly:
    """A small implementation of three queries under one edition, with bugs."""

    def hello(self):
        return {"implementation": {"name": "moves-only", "version": "0.1", "language": "Python"},
                "editions": ["cxa-2020"], "queries": ["legal_moves", "status", "validate_fen"]}

    def legal_moves(self, edition, input):
        assert edition == "cxa-2020"
        return {"moves": xqspec.legal_moves(input["fen"], input["moves"])}

    def status(self, edition, input):
        raise RuntimeError("not written yet")

    def validate_fen(self, edition, input):
        if "/" not in input["fen"]:
            raise xqspec.Reject("fen.syntax", "no ranks")
        if input["fen"].count("/") != 9:
            raise xqspec.UnsupportedError("only full boards")
        return {"valid": True}


def test_the_reference_through_python_passes_the_suite():
    results = xqspec.run_suite(Reference(), known_failures="reference")
    counts = xqspec.summary(results)
    # A case whose answers agree under every rule set is asked once (`runs: once`).
    assert counts.get("pass", 0) > 1500, counts
    bad = [r for r in results if r["status"] != "pass" and not r["known_failure"]]
    assert bad == [], bad[:3]
    assert {"id", "path", "area", "edition", "status", "detail", "expected", "got", "ms"} <= set(results[0])


def test_a_partial_implementation_is_judged_per_case():
    results = xqspec.run_suite(MovesOnly(), run=["movement/**", "fen/**", "check/**"])
    by = {}
    for r in results:
        by.setdefault((r["area"], r["status"]), 0)
        by[(r["area"], r["status"])] += 1
    # Legal moves pass; status raises (an error, not a crash of the run); validate_fen
    # passes some, fails the positions it accepts, declines some; other editions skip.
    assert by.get(("movement", "pass"), 0) > 10
    errors = [r for r in results if r["status"] == "error"]
    assert errors and all("not written yet" in r["detail"] or "RuntimeError" in r["detail"] for r in errors)
    assert any(r["status"] == "fail" and r["area"] == "fen" for r in results)
    # Each case is asked once, under the one rule set the program declares (a case whose
    # answers differ between rule sets is skipped under the others).
    asked = [r for r in results if r["status"] != "skip"]
    assert len({r["id"] for r in asked}) == len(asked)
    assert all(r["edition"] == "cxa-2020" for r in results if r["status"] in ("pass", "fail", "error"))


def test_a_broken_hello_is_an_error():
    class NoHello:
        pass

    class BadHello:
        def hello(self):
            return {"implementation": {"name": "x", "version": "1"}, "editions": "cxa-2020"}

    import pytest
    with pytest.raises(AttributeError):
        xqspec.run_suite(NoHello())
    with pytest.raises(xqspec.QueryError):
        xqspec.run_suite(BadHello())
