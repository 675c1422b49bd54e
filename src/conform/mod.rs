//! The conformance suite: case format, harness, implementer protocol, runner.
