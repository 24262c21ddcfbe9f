"""The typed engine contract: every answer is an Answer, outcomes read it as such."""

from __future__ import annotations

import pytest

from cpknight.api import collect, count_tours, find_tour, knight_distance
from cpknight.api.longest import longest_path
from cpknight.distances import ENGINES as DISTANCE_ENGINES
from cpknight.engines import (
    DistanceEngine,
    Engine,
    RouteEngine,
    TourEngine,
    outcome_of,
    solve_with,
)
from cpknight.pieces import KNIGHT
from cpknight.results import Answer, Tour
from cpknight.routes import ENGINES as ROUTE_ENGINES
from cpknight.solving import SolveOptions
from cpknight.status import Effort, Status
from cpknight.tours import ENGINES as TOUR_ENGINES
from cpknight.tours.instance import TourInstance


def test_every_answer_is_an_answer() -> None:
    answers: list[Answer] = [  # the type checker checks these too
        find_tour("5x5", closed=False, method="prune"),
        knight_distance("8x8", "a1", "b2"),
        collect("8x8", "a1", ["c2"], method="search"),
        count_tours("3x4", closed=False),
        longest_path("4x4", kind="uncrossed", method="search"),
    ]
    run = SolveOptions().start()
    for answer in answers:
        outcome = outcome_of("x", answer, run, method="?")
        assert outcome.status is answer.status
        assert outcome.method == answer.method
        assert isinstance(outcome.effort, Effort)
        assert outcome.effort == answer.effort
        assert outcome.bound == answer.bound
    assert [str(a.status) for a in answers] == [
        "found",
        "found",
        "optimal",
        "found",
        "optimal",
    ]


def test_engines_load_typed_solve_functions() -> None:
    tour: TourEngine = TOUR_ENGINES["prune"].load()
    distance: DistanceEngine = DISTANCE_ENGINES["bfs"].load()
    route: RouteEngine = ROUTE_ENGINES["search"].load()
    from cpknight.board import Board

    found = tour(
        TourInstance(Board.parse("5x5"), KNIGHT, closed=False), SolveOptions().start()
    )
    assert isinstance(found, Tour)
    assert callable(distance)
    assert callable(route)


def test_solve_with_returns_the_questions_value() -> None:
    from cpknight.board import Board

    engine: Engine[TourInstance, Tour] = TOUR_ENGINES.engine("prune")
    instance = TourInstance(Board.parse("6x6"), KNIGHT)
    tour = solve_with(engine, instance, SolveOptions().start())
    assert tour.status is Status.FOUND
    assert tour.bound is None


def test_an_engine_answers_one_question() -> None:
    with pytest.raises(ValueError, match="answers tour"):
        DISTANCE_ENGINES.add(Engine("x", "tour", "m:f"))
