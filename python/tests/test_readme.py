"""The README's Python example runs and prints what its comments say."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def example():
    text = README.read_text(encoding="utf-8")
    section = text.split("## From Python", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_example_runs():
    code = example()
    assert len(code.strip().splitlines()) <= 10
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    expected = [m.group(1).strip() for m in re.finditer(r"print\(.*#\s*(.+)$", code, re.M)]
    assert out.getvalue().splitlines() == expected
