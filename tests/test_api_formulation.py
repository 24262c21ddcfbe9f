"""The model front door: every question's bundle, printed and exported."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpknight.api import build_model
from cpknight.api.formulation import count_program, distance_model, tour_model
from cpknight.errors import InvalidInputError
from cpknight.formulation import Formulation


@pytest.mark.parametrize(
    ("question", "kwargs", "suffix"),
    [
        ("tour", {"closed": False, "start": "a1"}, ".pbtxt"),
        ("distance", {"source": "a1", "target": "b2"}, ".lp"),
        ("distance", {"source": "a1", "target": "b2", "method": "flow"}, ".mps"),
        ("collect", {"start": "a1", "food": ["f6", "d4"]}, ".pbtxt"),
        ("longest", {"kind": "induced"}, ".pbtxt"),
    ],
)
def test_every_question_builds_prints_and_exports(
    question: str, kwargs: dict[str, object], suffix: str, tmp_path: Path
) -> None:
    model = build_model(question, "6x6", **kwargs)
    assert isinstance(model, Formulation)
    assert model.formulation()
    path = tmp_path / f"model{suffix}"
    model.export(path)
    assert path.stat().st_size > 0


def test_the_doors_read_specs_names_and_time_limits() -> None:
    model = tour_model("8x8", closed=False, start="a1", end="h8", time_limit=30)
    assert model.form != "circuit"
    assert count_program("3x4", closed=False).startswith("frontier program")
    with pytest.raises(InvalidInputError, match="'ip' or 'flow'"):
        distance_model("8x8", "a1", "b2", method="bfs")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="expected a question"):
        build_model("count", "8x8")


def test_the_count_program_reads_its_instance_as_the_count_does() -> None:
    with pytest.raises(InvalidInputError, match="closed tour has no separate end"):
        count_program("5x6", end="a1")
    ends = count_program("3x4", closed=False, start="a1").splitlines()[2]
    assert ends.startswith("fixed tour ends: a1")
