"""The library's documentation runs (issue 25 item 9): every ``pycon`` block of
docs/library.md and of the README's "From Python" section is a doctest, run in order
in one namespace per page, from the repository's root."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
from conftest import ROOT

_BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.S | re.M)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _blocks(text: str) -> list[tuple[int, str]]:
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in _BLOCK.finditer(text)]


def _run(path: Path, text: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.chdir(ROOT)
    blocks = _blocks(text)
    assert blocks, f"{path.name} shows no pycon example"
    parser, globs, examples = doctest.DocTestParser(), {"__name__": "doc"}, 0
    for line, block in blocks:
        test = parser.get_doctest(block, globs, f"{path.name}:{line}", str(path), line - 1)
        runner, report = doctest.DocTestRunner(optionflags=FLAGS), list[str]()
        result = runner.run(test, out=report.append, clear_globs=False)
        globs.update(test.globs)  # the next block goes on from this one (a test copies its globals)
        if result.failed:
            pytest.fail("".join(report))
        examples += result.attempted
    return examples


def test_library_doc_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "docs" / "library.md"
    assert _run(path, path.read_text(encoding="utf-8"), monkeypatch) >= 30


def test_readme_from_python_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### From Python", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    assert "docs/library.md" in section
    assert _run(ROOT / "README.md", section, monkeypatch) >= 6


def test_a_wrong_example_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner is not a rubber stamp: a block whose output differs fails."""
    with pytest.raises(pytest.fail.Exception, match="Expected"):
        _run(ROOT / "x.md", "```pycon\n>>> 1 + 1\n3\n\n```\n", monkeypatch)
