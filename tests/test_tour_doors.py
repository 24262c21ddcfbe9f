"""The tour front doors speak the one vocabulary: time_limit=, closed=True."""

from __future__ import annotations

import inspect

import pytest

from cpknight import SolveLimitError, SolveOptions
from cpknight.api import compare_tours, find_tour, iter_tours, sweep, try_tour

DOORS = [find_tour, try_tour, iter_tours, compare_tours, sweep]


@pytest.mark.parametrize("door", DOORS, ids=lambda d: d.__name__)
def test_every_tour_door_takes_time_limit_and_closes_by_default(door: object) -> None:
    params = inspect.signature(door).parameters  # type: ignore[arg-type]
    assert params["time_limit"].default is None
    assert params["time_limit"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["closed"].default is True


def test_time_limit_bounds_the_doors() -> None:
    hard = "8x8"  # closed by plain backtracking: far beyond a hundredth of a second
    outcome = try_tour(hard, method="backtrack", time_limit=0.01)
    assert str(outcome.status) == "unknown"
    with pytest.raises(SolveLimitError, match=r"0\.01 s"):
        find_tour(hard, method="backtrack", time_limit=0.01)
    with pytest.raises(SolveLimitError):
        list(iter_tours(hard, method="backtrack", time_limit=0.01))
    c = compare_tours(hard, methods="backtrack", time_limit=0.01)
    assert c.instance["time_limit"] == 0.01
    assert c.statuses() == ["unknown"]


def test_time_limit_replaces_the_options_limit() -> None:
    outcome = try_tour(
        "8x8",
        method="backtrack",
        options=SolveOptions(time_limit=60, seed=1),
        time_limit=0.01,
    )
    assert str(outcome.status) == "unknown"


def test_sweep_is_closed_by_default() -> None:
    closed = sweep("3x4", method="prune", time_limit=5)
    assert closed.closed
    assert closed.counts() == {"found": 0, "infeasible": 12, "unknown": 0}
    assert sweep("3x4", closed=False, method="prune").counts()["found"] == 6
