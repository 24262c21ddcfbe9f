"""``method='auto'``: which engine it picks, and what it does when one gives up."""

from __future__ import annotations

from typing import NoReturn

import pytest

from cpknight import (
    KNIGHT,
    Board,
    SolveLimitError,
    SolveOptions,
    api,
    find_tour,
    is_tour,
    move_graph,
)
from cpknight.engines import Engine, TourInstance
from cpknight.solving import Run
from cpknight.tours import auto

OPTIONS = SolveOptions(time_limit=10, workers=1, seed=0)


def _gives_up(instance: TourInstance, run: Run) -> NoReturn:
    raise SolveLimitError("greedy gave up (a stuck greedy walk proves nothing)")


GIVES_UP = Engine("greedy", "tour", "tests.test_auto:_gives_up", proves=False)


def test_auto_searches_on_when_greedy_gives_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Send every open tour to a greedy engine that always gets stuck: auto must
    # not report the limit while time is left, but search on with prune.
    monkeypatch.setitem(api.TOUR_METHODS, "greedy", GIVES_UP)
    monkeypatch.setattr(auto, "GREEDY_CELLS", 0)
    tour = find_tour("6x6", closed=False, method="auto", options=OPTIONS)
    assert tour.method == "prune"
    assert is_tour(tour.board, tour.cells)


def test_a_chosen_greedy_that_gives_up_is_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(api.TOUR_METHODS, "greedy", GIVES_UP)
    with pytest.raises(SolveLimitError, match="greedy gave up"):
        find_tour("6x6", closed=False, method="greedy", options=OPTIONS)


@pytest.mark.parametrize(
    ("spec", "closed", "expected"),
    [
        ("8x8", True, "prune"),  # plain board: search answers in a millisecond
        ("holed8", False, "cpsat"),  # blocked cells: CP-SAT proves "none" fast
        ("40x40", True, "tiles"),  # large plain knight rectangle
    ],
)
def test_auto_picks(spec: str, closed: bool, expected: str) -> None:
    board = Board.parse(spec)
    if expected == "tiles":
        assert auto.tiles_suit(board, KNIGHT, None)
        return
    graph = move_graph(board, KNIGHT)
    assert api.choose_tour_method(graph, closed=closed, start=None, end=None) == (
        expected
    )
