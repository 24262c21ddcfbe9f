"""The course: every notebook in cpknight/course runs top to bottom, outputs stripped.

Each notebook is executed by nbclient in a kernel of this interpreter (the venv
running the tests), in a temporary directory, so that what a teacher hands out
is what CI ran, and shows at least one picture. The repository holds them
without outputs, so a diff shows only what was written.

Every notebook ends with its exercises, (1) to (k), then the worked solutions:
one code cell per exercise, in order, each starting ``# Exercise j`` and
checking its answer with an ``assert``; every solution cell (code or markdown)
is tagged ``solution`` and collapsed (``jupyter.source_hidden``), and
``without_solutions`` leaves a valid notebook with every other cell. The run
test runs the solutions with the rest, so a solution cannot go stale.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
from nbclient import NotebookClient

from cpknight.course import SOLUTION_TAG, without_solutions

NOTEBOOKS = sorted(
    (Path(__file__).resolve().parent.parent / "cpknight" / "course").glob("*.ipynb")
)


def read(path: Path) -> nbformat.NotebookNode:
    """The notebook at ``path`` (nbformat 4)."""
    book: nbformat.NotebookNode = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    return book


def test_there_is_a_course() -> None:
    assert 6 <= len(NOTEBOOKS) <= 8


EXERCISES = "**Exercises.**"
PICTURES = ("image/svg+xml", "image/png")


def is_solution(cell: Any) -> bool:
    """Whether a cell is tagged as (part of) a worked solution."""
    return SOLUTION_TAG in cell.get("metadata", {}).get("tags", [])


def exercises_at(book: nbformat.NotebookNode) -> int:
    """The index of the notebook's exercises cell (its last markdown with them)."""
    found = [
        k
        for k, cell in enumerate(book.cells)
        if cell.cell_type == "markdown" and EXERCISES in cell.source
    ]
    assert len(found) == 1, f"expected one exercises cell, found {len(found)}"
    return found[0]


def exercise_numbers(text: str) -> list[int]:
    """The numbers ``(1)``, ``(2)``, ... of the exercises, in the order written."""
    return [int(k) for k in re.findall(r"\((\d+)\)", text.split(EXERCISES, 1)[1])]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_exercise_has_a_solution_in_order(path: Path) -> None:
    book = read(path)
    at = exercises_at(book)
    numbers = exercise_numbers(book.cells[at].source)
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    assert len(numbers) >= 2
    assert not any(is_solution(cell) for cell in book.cells[: at + 1])
    after = book.cells[at + 1 :]
    assert after, f"{path.name}: no solutions after the exercises"
    assert all(is_solution(cell) for cell in after), "untagged cell after exercises"
    firsts = [cell.source.splitlines()[0] for cell in after if cell.cell_type == "code"]
    assert len(firsts) == len(numbers)
    for number, first in zip(numbers, firsts, strict=True):
        assert re.fullmatch(rf"# Exercise {number}: \S.*", first), first


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_solutions_are_hidden_and_check_their_answers(path: Path) -> None:
    solutions = [cell for cell in read(path).cells if is_solution(cell)]
    assert solutions
    for cell in solutions:
        assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, cell.id
        if cell.cell_type != "code":
            continue
        asserts = [
            node
            for node in ast.walk(ast.parse(cell.source))
            if isinstance(node, ast.Assert)
        ]
        assert asserts, f"{path.name} {cell.id}: a solution that checks nothing"
        constant = [node for node in asserts if isinstance(node.test, ast.Constant)]
        assert not constant, f"{path.name} {cell.id}: an assertion that cannot fail"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_hand_out_keeps_everything_but_the_solutions(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    whole = json.loads(text)["cells"]
    kept = [cell["id"] for cell in whole if not is_solution(cell)]
    assert len(kept) < len(whole)
    hand_out = without_solutions(text)
    book = nbformat.reads(hand_out, as_version=4)  # type: ignore[no-untyped-call]
    nbformat.validate(book)
    assert [cell.id for cell in book.cells] == kept
    assert not any(is_solution(cell) for cell in book.cells)
    assert EXERCISES in book.cells[-1].source


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_committed_without_outputs(path: Path) -> None:
    book = read(path)
    nbformat.validate(book)
    for cell in book.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: outputs committed"
            assert cell.execution_count is None, f"{path.name}: execution count"


def _kernel_of_this_python() -> str:
    """The ipykernel spec that runs this interpreter (the venv's, not another)."""
    manager = KernelSpecManager()
    try:
        spec = manager.get_kernel_spec("python3")
    except NoSuchKernel:  # pragma: no cover - ipykernel provides it
        pytest.fail("no python3 kernel: install the test extra (ipykernel)")
    assert spec.argv[0] in (sys.executable, "python", "python3"), spec.argv
    return "python3"


@pytest.mark.timeout(180)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path) -> None:
    book = read(path)
    client = NotebookClient(
        book,
        kernel_name=_kernel_of_this_python(),
        timeout=120,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    errors = [
        output
        for cell in book.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "error"
    ]
    assert not errors
    displayed = [
        cell for cell in book.cells if cell.cell_type == "code" and cell.outputs
    ]
    assert displayed, f"{path.name} showed nothing"
    pictures = [
        output
        for cell in displayed
        for output in cell.outputs
        if any(kind in output.get("data", {}) for kind in PICTURES)
    ]
    assert pictures, f"{path.name} showed no picture"
