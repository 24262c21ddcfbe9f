"""The course: eight Jupyter notebooks that ship with cpknight.

Each notebook poses one question, answers it two ways (a model and a search),
and ends with exercises whose worked solutions follow them in cells tagged
``solution`` (collapsed when opened in Jupyter). ``cpknight course DIR`` writes
them into a folder; the documentation site renders them; the test suite runs
them top to bottom. This room holds data only: it imports nothing of cpknight.
"""

from __future__ import annotations

import json
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

__all__ = ["SOLUTION_TAG", "notebook_files", "without_solutions"]

SOLUTION_TAG = "solution"
"""The tag of a worked solution's cells (code or markdown)."""


def notebook_files() -> dict[str, Traversable]:
    """The course's notebooks by file name, in reading order.

    Examples:
        >>> names = list(notebook_files())
        >>> names[0]
        '01-knight-graph-and-distances.ipynb'
        >>> len(names)
        8
    """
    folder = resources.files(__name__)
    found = {
        entry.name: entry for entry in folder.iterdir() if entry.name.endswith(".ipynb")
    }
    return dict(sorted(found.items()))


def without_solutions(text: str) -> str:
    """A notebook's JSON text with its solution cells left out (for handing out).

    Examples:
        >>> book = {"cells": [{"metadata": {"tags": ["solution"]}},
        ...                   {"metadata": {}}], "nbformat": 4}
        >>> json.loads(without_solutions(json.dumps(book)))["cells"]
        [{'metadata': {}}]
    """
    book: dict[str, Any] = json.loads(text)
    book["cells"] = [
        cell
        for cell in book["cells"]
        if SOLUTION_TAG not in cell.get("metadata", {}).get("tags", [])
    ]
    return json.dumps(book, indent=1, ensure_ascii=False) + "\n"
