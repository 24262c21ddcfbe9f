"""``cpknight course DIR``: the notebooks written out, never over the user's files."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from cpknight.cli import main
from cpknight.course import SOLUTION_TAG, notebook_files

SOURCE = Path(__file__).resolve().parent.parent / "cpknight" / "course"


def _tags(path: Path) -> list[list[str]]:
    book = json.loads(path.read_text(encoding="utf-8"))
    return [cell.get("metadata", {}).get("tags", []) for cell in book["cells"]]


def test_the_course_is_written_as_it_ships(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "new" / "course"  # made, parents too
    assert main(["course", str(folder)]) == 0
    names = sorted(p.name for p in SOURCE.glob("*.ipynb"))
    assert sorted(p.name for p in folder.iterdir()) == names == list(notebook_files())
    for name in names:
        assert (folder / name).read_bytes() == (SOURCE / name).read_bytes()
    out = capsys.readouterr().out
    assert f"wrote the course's 8 notebooks to {folder}/" in out
    assert "cpknight[course]" in out


def test_a_notebook_there_is_kept_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = sorted(notebook_files())[3]
    (tmp_path / first).write_text("mine")
    assert main(["course", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    path = tmp_path / first
    assert err.strip().splitlines() == [
        f"cpknight: error: file '{path}' exists; add --force to overwrite it"
    ]
    assert (tmp_path / first).read_text() == "mine"
    assert [p.name for p in tmp_path.iterdir()] == [first]  # nothing else written
    assert main(["course", str(tmp_path), "--force"]) == 0
    assert (tmp_path / first).read_bytes() == (SOURCE / first).read_bytes()


def test_the_hand_out_has_no_solutions_and_stays_a_notebook(tmp_path: Path) -> None:
    assert main(["course", str(tmp_path), "--no-solutions"]) == 0
    for name in notebook_files():
        written = tmp_path / name
        nbformat.validate(nbformat.read(written, as_version=4))  # type: ignore[no-untyped-call]
        assert not any(SOLUTION_TAG in tags for tags in _tags(written)), name
        kept = [t for t in _tags(SOURCE / name) if SOLUTION_TAG not in t]
        assert len(_tags(written)) == len(kept) < len(_tags(SOURCE / name)), name


def test_a_file_in_the_way_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("keep")
    assert main(["course", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"cpknight: error: '{path}' is a file, not a folder"
    )
    assert path.read_text() == "keep"
