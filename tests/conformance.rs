fn check(_p: &datatest_stable::Utf8Path, _c: String) -> datatest_stable::Result<()> { Ok(()) }
datatest_stable::harness! { { test = check, root = "conformance", pattern = r"^.*\.yaml$" }, }
