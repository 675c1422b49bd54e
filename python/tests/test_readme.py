"""The Python example of docs/python.md (the page the README sends Python users to) runs and
prints what its comments say."""

import contextlib
import io
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def example():
    text = PAGE.read_text(encoding="utf-8")
    return re.search(r"```python\n(.*?)```", text, re.S).group(1)


def test_the_readme_example_runs():
    code = example()
    assert len(code.strip().splitlines()) <= 10
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/python.md", "exec"), {})
    expected = [m.group(1).strip() for m in re.finditer(r"print\(.*#\s*(.+)$", code, re.M)]
    assert out.getvalue().splitlines() == expected
