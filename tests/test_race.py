"""The race of prune against CP-SAT: the first answer wins, the loser stops."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from cpknight import KNIGHT, Board, SolveLimitError, SolveOptions, is_tour
from cpknight.api import compare_tours, try_tour
from cpknight.tours import cpsat
from cpknight.tours.instance import TourInstance

OPTIONS = SolveOptions(time_limit=20, workers=1, seed=0)


def _threads_left() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("cpknight-")]


@pytest.mark.parametrize(
    ("board", "piece", "closed"),
    [
        pytest.param(Board.parse("blocks12"), "knight", True, id="blocks12"),
        pytest.param(
            Board.parse("4x6", topology="cylinder"), "knight", True, id="cylinder-none"
        ),
        pytest.param(Board.parse("holed8"), "knight", False, id="holed8-open-none"),
        pytest.param(Board.parse("10x10"), "zebra", True, id="zebra"),
    ],
)
def test_race_agrees_with_cpsat_and_leaves_no_thread(
    board: Board, piece: str, closed: bool
) -> None:
    raced = try_tour(board, piece=piece, closed=closed, method="race", options=OPTIONS)
    alone = try_tour(board, piece=piece, closed=closed, method="cpsat", options=OPTIONS)
    assert str(raced.status) == str(alone.status)
    assert str(raced.status) in ("found", "infeasible")
    assert raced.method == "race"
    assert raced.winner in ("prune", "cpsat")
    assert raced.as_dict()["winner"] == raced.winner
    if raced.tour is not None:
        assert raced.tour.method == "race"
        assert raced.tour.winner == raced.winner
        assert is_tour(board, raced.tour.cells, piece=piece, closed=closed)
    assert _threads_left() == []


def test_race_at_the_limit_reports_it() -> None:
    began = time.perf_counter()
    outcome = try_tour(
        Board((40, 40), [(0, 1), (5, 5)]),
        closed=True,
        method="race",
        options=SolveOptions(time_limit=1e-3),
    )
    assert str(outcome.status) == "unknown"
    assert time.perf_counter() - began < 2
    assert _threads_left() == []


def test_cancel_stops_a_cpsat_search() -> None:
    # A closed 120x120 tour takes CP-SAT (1 worker) several seconds;
    # cancelling its clock stops the search at once.
    run = SolveOptions(time_limit=60, workers=1, seed=0).start()
    instance = TourInstance(Board((120, 120)), KNIGHT, closed=True)
    box: dict[str, BaseException] = {}

    def target() -> None:
        try:
            cpsat.solve(instance, run)
        except BaseException as exc:
            box["error"] = exc

    # Cancel once the search runs: solve_cpsat hands the clock its solver's
    # stop_search (Clock.on_cancel) just before it solves. Waiting for that
    # event, not for a fixed sleep, keeps the test right on a loaded machine.
    searching = threading.Event()
    hand_over = run.clock.on_cancel

    def on_cancel(stop: Callable[[], None]) -> None:
        hand_over(stop)
        searching.set()

    run.clock.on_cancel = on_cancel  # type: ignore[method-assign]
    thread = threading.Thread(target=target)
    thread.start()
    assert searching.wait(120), "the search never started"
    began = time.perf_counter()
    run.clock.cancel()
    thread.join(60)
    assert not thread.is_alive()
    # a cancel stops CP-SAT at once; the ceiling is generous for a loaded machine
    assert time.perf_counter() - began < 10
    assert isinstance(box.get("error"), SolveLimitError)


def test_the_race_row_names_its_winner() -> None:
    # compare --method all: the race's row says 'race', not its winner's
    # name (which made 'prune' appear twice).
    c = compare_tours("6x6", methods="prune,cpsat,race", options=OPTIONS)
    methods = [o.method for o in c.rows]
    assert methods == ["prune", "cpsat", "race"]
    race = c.rows[-1]
    assert race.winner in ("prune", "cpsat")
    assert race.method_label == f"race ({race.winner} won)"
    assert race.as_dict()["winner"] == race.winner
    assert "winner" not in c.rows[0].as_dict()
    assert race.tour is not None
    assert repr(race.tour).endswith(f"by race ({race.winner} won)>")


def test_a_race_proving_none_names_the_prover() -> None:
    outcome = try_tour(
        Board.parse("4x6", topology="cylinder"),
        closed=True,
        method="race",
        options=OPTIONS,
    )
    assert str(outcome.status) == "infeasible"
    assert outcome.method == "race"
    assert outcome.winner in ("prune", "cpsat")


def test_the_comparison_text_says_who_won_the_race() -> None:
    from cpknight.text.render import comparison_text

    c = compare_tours("6x6", methods="prune,race", options=OPTIONS)
    text = comparison_text(c, "closed tour of 6x6")
    race = c.rows[-1]
    assert f"race ({race.winner} won)" in text
