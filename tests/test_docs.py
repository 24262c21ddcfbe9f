"""The documentation site's sources: examples run, every page and notebook is listed.

The site itself is built by ``make docs`` (``mkdocs build --strict``) in CI; these
checks are the quick part of it that the default suite can afford.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from cpknight.course import notebook_files

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_getting_started_examples_run() -> None:
    result = doctest.testfile(
        str(DOCS / "getting-started.md"),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
    )
    assert result.attempted > 0
    assert result.failed == 0


def test_every_page_and_notebook_is_in_the_nav() -> None:
    config = (ROOT / "mkdocs.yml").read_text()
    listed = set(re.findall(r"([\w/-]+\.(?:md|ipynb))", config))
    pages = {
        str(p.relative_to(DOCS))
        for p in DOCS.rglob("*")
        if p.suffix in (".md", ".ipynb") and ".ipynb_checkpoints" not in p.parts
    }
    # The course's notebooks ship in the package; the site's hook serves them
    # as course/NAME (docs/hooks.py).
    pages |= {f"course/{name}" for name in notebook_files()}
    assert listed == pages


def test_every_marker_is_known() -> None:
    hooks = (DOCS / "hooks.py").read_text()
    known = set(re.findall(r"<!-- cpknight:\w+ -->", hooks))
    used = {
        m
        for p in DOCS.glob("*.md")
        for m in re.findall(r"<!-- cpknight:\w+ -->", p.read_text())
    }
    assert used == known
