"""The course: every notebook in cpknight/course runs top to bottom, outputs stripped.

Each notebook is executed by nbclient in a kernel of this interpreter (the venv
running the tests), in a temporary directory, so that what a teacher hands out
is what CI ran. The repository holds them without outputs, so a diff shows
only what was written.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
from nbclient import NotebookClient

NOTEBOOKS = sorted(
    (Path(__file__).resolve().parent.parent / "cpknight" / "course").glob("*.ipynb")
)


def read(path: Path) -> nbformat.NotebookNode:
    """The notebook at ``path`` (nbformat 4)."""
    book: nbformat.NotebookNode = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    return book


def test_there_is_a_course() -> None:
    assert 6 <= len(NOTEBOOKS) <= 8


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
