"""``method='auto'``: which engine it picks, and what it does when one gives up."""

from __future__ import annotations

from typing import NoReturn

import pytest

from cpknight import (
    KNIGHT,
    Board,
    InvalidInputError,
    NoTourError,
    SolveLimitError,
    SolveOptions,
    api,
    find_tour,
    is_tour,
    tiling,
    tour_constraints,
)
from cpknight.engines import Engine
from cpknight.pieces import as_piece
from cpknight.solving import Run
from cpknight.tours import auto
from cpknight.tours.instance import TourInstance

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
    assert is_tour(tour.board, tour.cells, closed=False)


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
        ("holed8", False, "race"),  # blocked cells: prune or CP-SAT, no rule wins
        ("40x40", True, "tiles"),  # large plain knight rectangle
        ("4x6 cylinder", True, "race"),  # none: prune stalls, CP-SAT proves it
        ("4x4x4", True, "race"),
        ("60x60 blocked", True, "prune"),  # 3,599 cells: beyond the race
    ],
)
def test_auto_picks(spec: str, closed: bool, expected: str) -> None:
    if spec == "4x6 cylinder":
        board = Board.parse("4x6", topology="cylinder")
    elif spec == "60x60 blocked":
        board = Board((60, 60), [(30, 30)])
    else:
        board = Board.parse(spec)
    if expected == "tiles":
        assert tiling.suits(board, KNIGHT)
        return
    instance = TourInstance(board, KNIGHT, closed=closed)
    assert api.choose_tour_method(instance).method == expected


def test_auto_races_other_leapers() -> None:
    antelope = TourInstance(Board.parse("14x14"), as_piece("antelope"))
    assert api.choose_tour_method(antelope).method == "race"


@pytest.mark.parametrize(
    ("rows", "cols", "closed"),
    [
        *[(3, 4, True), (3, 6, True), (4, 5, True), (3, 10, True), (5, 6, True)],
        *[(3, 5, False), (3, 6, False), (4, 4, False), (3, 4, False), (2, 5, False)],
    ],
)
def test_theorems_agree_with_cpsat(rows: int, cols: int, closed: bool) -> None:
    # Schwenk (closed) and Conrad et al. (open, no fixed end) against CP-SAT
    # solving the same small boards itself.
    board = Board((rows, cols))
    said = api.try_tour(board, closed=closed, method="cpsat", options=OPTIONS)
    exists = str(said.status) == "found"
    assert str(said.status) in ("found", "infeasible")
    if exists:
        auto.check_theorems(board, KNIGHT, closed=closed, start=None, end=None)
    else:
        with pytest.raises(NoTourError):
            auto.check_theorems(board, KNIGHT, closed=closed, start=None, end=None)


def test_auto_names_the_theorem() -> None:
    outcome = api.try_tour("4x8", closed=True, method="auto", options=OPTIONS)
    assert str(outcome.status) == "infeasible"
    assert outcome.reason is not None
    assert "Schwenk" in outcome.reason


@pytest.mark.parametrize(
    ("spec", "closed", "method", "checks", "reports", "fallback"),
    [
        # auto chose from the move graph: the certificates, then the theorems.
        ("8x8", True, "auto", ("certificates", "theorems"), "auto", None),
        # a named engine that reads the graph: the certificates only.
        ("8x8", True, "prune", ("certificates",), "prune", None),
        # an engine that reads the board: the theorems first.
        ("8x8", True, "tiles", ("theorems", "certificates"), "tiles", None),
        # auto chose from the board alone: named by the engine.
        ("40x40", True, "auto", ("theorems", "certificates"), "tiles", None),
    ],
)
def test_the_plan_says_what_runs_first(
    spec: str,
    closed: bool,
    method: str,
    checks: tuple[str, ...],
    reports: str,
    fallback: str | None,
) -> None:
    instance = TourInstance(Board.parse(spec), KNIGHT, closed=closed)
    plan = auto.plan_tour(instance, method)
    assert (plan.checks, plan.reports, plan.fallback) == (checks, reports, fallback)
    if method != "auto":
        assert (plan.method, plan.reason) == (method, "asked for")


def test_the_plan_of_a_greedy_pick_falls_back_on_prune(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(auto, "GREEDY_CELLS", 0)
    instance = TourInstance(Board.parse("6x6"), KNIGHT, closed=False)
    plan = auto.plan_tour(instance)
    assert (plan.method, plan.fallback, plan.reports) == ("greedy", "prune", "auto")
    assert auto.plan_tour(instance, "greedy").fallback is None


def test_side_constraints_plan_cpsat_without_the_theorems() -> None:
    board = Board.parse("6x6")
    side = tour_constraints(board, via=["a1@1"])
    instance = TourInstance(board, KNIGHT, constraints=side)
    plan = auto.plan_tour(instance)
    assert (plan.method, plan.checks, plan.reports) == (
        "cpsat",
        ("certificates",),
        "cpsat",
    )


def test_a_plan_for_an_unknown_method_is_refused() -> None:
    instance = TourInstance(Board.parse("6x6"), KNIGHT)
    with pytest.raises(InvalidInputError):
        auto.plan_tour(instance, "nonesuch")


def test_what_the_checks_settle_names_auto_or_the_engine() -> None:
    by_auto = api.try_tour("4x8", closed=True, method="auto", options=OPTIONS)
    by_prune = api.try_tour("4x8", closed=True, method="prune", options=OPTIONS)
    assert (by_auto.method, by_prune.method) == ("auto", "prune")
    assert str(by_auto.status) == str(by_prune.status) == "infeasible"
