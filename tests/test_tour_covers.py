"""The fewest turns by cycle covers and subtour cuts (cpknight.tours.cpsat.covers).

Every expected number is the minimum over every tour listed by the brute force
of ``tests/test_tour_objectives.py`` (plain loops over coordinates), or the
circuit model's proved optimum with the cover loop turned off, in the same
test. The loop's bound, round after round and whatever it is cut short at,
must never pass the true optimum.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest

from cpknight import Board, find_tour, tour_constraints
from cpknight.graph.symmetry import cell_permutations
from cpknight.pieces import move_graph
from cpknight.results import ScoredTour
from cpknight.solving import SolveOptions
from cpknight.tours.cpsat import covers
from cpknight.tours.cpsat.covers import cover_bound
from tests.test_tour_objectives import all_tours, crossings_by_hand, turns_by_hand

Cell = tuple[int, int]
OPTIONS = SolveOptions(time_limit=60, workers=1, seed=0)

# (rows, cols, closed, blocked, start, end): each enumerated here in a second
CASES = {
    "3x4 open": (3, 4, False, (), None, None),
    "5x5 open": (5, 5, False, (), None, None),
    "5x5 open from a1": (5, 5, False, (), (0, 0), None),
    "5x5 open a1 to e5": (5, 5, False, (), (0, 0), (4, 4)),
    "3x10 closed": (3, 10, True, (), None, None),
    "5x6 closed": (5, 6, True, (), None, None),
    "5x6 closed, from c3": (5, 6, True, (), (2, 2), None),
    "4x5 open, a1 blocked": (4, 5, False, ((0, 0),), None, None),
    "3x7 open, a path-shaped corner": (3, 7, False, ((1, 1),), None, None),
}


def _tours(name: str) -> list[list[Cell]]:
    rows, cols, closed, blocked, start, end = CASES[name]
    found = all_tours(rows, cols, closed=closed, blocked=blocked, start=start)
    return [t for t in found if end is None or tuple(t[-1]) == end]


@pytest.mark.parametrize("name", list(CASES))
def test_the_loop_finds_the_brute_force_optimum(name: str) -> None:
    rows, cols, closed, blocked, start, end = CASES[name]
    tours = _tours(name)
    board = Board((rows, cols), list(blocked))
    graph = move_graph(board)
    if not tours:
        found = cover_bound(
            graph, "turns", closed=closed, run=OPTIONS.start(), start=start, end=end
        )
        assert found.nodes is None
        return
    want = min(turns_by_hand(t, closed) for t in tours)
    found = cover_bound(
        graph, "turns", closed=closed, run=OPTIONS.start(), start=start, end=end
    )
    assert found.nodes is not None
    cells = [(r, c) for r, c in map(graph.cell, found.nodes)]
    assert sorted(cells) == sorted(board.open_cells())
    assert found.value == found.lower == want == turns_by_hand(cells, closed)
    if start is not None:
        assert cells[0] == start
    if end is not None:
        assert cells[-1] == end
    # every round but the last ended in a cover the rows so far allowed, and
    # its cycles' rows cut it off: one new row at least a round
    assert found.rounds >= 1
    assert found.cuts >= found.rounds - 1


@pytest.mark.parametrize("name", ["5x6 closed", "5x5 open"])
def test_crossings_through_the_loop_equal_the_brute_force(name: str) -> None:
    # not the engine's default (it takes many rounds), but the same rows
    rows, cols, closed, blocked, _, _ = CASES[name]
    want = min(crossings_by_hand(t, closed) for t in _tours(name))
    graph = move_graph(Board((rows, cols), list(blocked)))
    found = cover_bound(graph, "crossings", closed=closed, run=OPTIONS.start())
    assert found.nodes is not None
    cells = [(r, c) for r, c in map(graph.cell, found.nodes)]
    assert found.value == want == crossings_by_hand(cells, closed)


@pytest.mark.parametrize("seconds", [0.01, 0.05, 0.2])
def test_a_loop_cut_short_bounds_below_the_optimum(seconds: float) -> None:
    # 8x8 closed: 45 turns (a 2026 CP-SAT study; the circuit model proves it,
    # tests/test_tour_objectives.py's benchmarks); the covers alone say 44
    graph = move_graph("8x8")
    found = cover_bound(
        graph, "turns", closed=True, run=OPTIONS.start(), seconds=seconds
    )
    assert found.lower <= 45
    assert found.nodes is None or found.value == 45


def test_the_engine_with_and_without_the_loop_agree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def solve(board: str, closed: bool) -> tuple[int, int]:
        tour = find_tour(
            board,
            closed=closed,
            method="cpsat",
            options=OPTIONS,
            constraints=tour_constraints(board, minimise="turns"),
        )
        assert isinstance(tour, ScoredTour)
        assert str(tour.status) == "optimal"
        return tour.value, tour.bound or 0

    boards = [("6x6", True), ("6x6", False), ("5x8", True)]
    with_loop = [solve(b, c) for b, c in boards]
    monkeypatch.setitem(covers.COVER_SHARE, "turns", 0.0)
    without = [solve(b, c) for b, c in boards]
    assert with_loop == without
    assert all(value == bound for value, bound in with_loop)


def test_side_constraints_leave_the_loop_out(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = covers.cover_bound

    def spy(*args: object, **kwargs: object) -> covers.CoverBound:
        calls.append(str(args[1]))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(covers, "cover_bound", spy)
    board = Board((6, 6))
    for side, used in (
        (tour_constraints(board, minimise="turns"), ["turns"]),
        (tour_constraints(board, minimise="turns", forbid=["c3-d5"]), []),
        (tour_constraints(board, minimise="crossings"), ["crossings"]),
        (tour_constraints(board, minimise="crossings", require=["c3-d5"]), []),
    ):
        calls.clear()
        tour = find_tour(board, method="cpsat", options=OPTIONS, constraints=side)
        assert isinstance(tour, ScoredTour)
        assert str(tour.status) == "optimal"
        assert calls == used


def test_cycles_are_read_in_order() -> None:
    # two triangles' worth of a 6-node cover: 0-1-2-0 and 3-4-5-3
    chosen = [(0, 1), (1, 2), (0, 2), (3, 5), (4, 5), (3, 4)]
    cycles = covers._cycles(6, chosen)
    assert sorted(map(sorted, cycles)) == [[0, 1, 2], [3, 4, 5]]
    for cycle in cycles:
        pairs: Sequence[tuple[int, int]] = list(
            zip(cycle, cycle[1:] + cycle[:1], strict=True)
        )
        assert all((min(p), max(p)) in chosen for p in pairs)


def test_each_round_is_logged_and_the_bounds_only_grow() -> None:
    seen: list[tuple[int, int, list[int]]] = []
    found = cover_bound(
        move_graph("8x8"),
        "turns",
        closed=True,
        run=OPTIONS.start(),
        on_round=lambda r, lower, sizes: seen.append((r, lower, sizes)),
    )
    assert [r for r, _, _ in seen] == list(range(1, found.rounds + 1))
    bounds = [lower for _, lower, _ in seen]
    assert bounds == sorted(bounds)
    assert bounds[-1] == found.value == 45  # 8x8: the 2026 CP-SAT study
    assert seen[-1][2] == [64]  # the last cover is one cycle: the tour
    assert all(sum(sizes) == 64 for _, _, sizes in seen)


@pytest.mark.parametrize("board", ["4x4", "5x5", "3x6", "4x4x2"])
def test_the_four_cycles_are_every_one(board: str) -> None:
    graph = move_graph(board)
    edges = {(u, v) for u in range(graph.n_nodes) for v in graph.neighbors(u).tolist()}
    brute = set()
    for a, b, c, d in itertools.permutations(range(graph.n_nodes), 4):
        if {(a, b), (b, c), (c, d), (d, a)} <= edges:
            brute.add(frozenset((a, b, c, d)))
    pairs = sorted({(min(u, v), max(u, v)) for u, v in edges})
    assert covers._four_cycles(graph.n_nodes, pairs) == brute
    assert brute  # each of these boards has some


def test_each_cut_is_a_set_once_with_its_images() -> None:
    # 4x4: a cycle and its images under the square's
    # 7 other symmetries; a set and its complement are one row, kept once
    images = [tuple(p) for p in cell_permutations(Board((4, 4)))]
    done: set[frozenset[int]] = set()
    cycle = [0, 6, 15, 9]  # a1 c2 d4 b3: a 4-cycle of moves on 4x4
    first = covers._images([cycle], images, 16, done)
    assert all(0 not in cut for cut in first)
    every = set(range(16))
    # each image of the cycle (or its complement) is there, and only those
    wanted = set()
    for p in [tuple(range(16)), *images]:
        cut = frozenset(p[v] for v in cycle)
        wanted.add(cut if 0 not in cut else frozenset(every - cut))
    assert set(first) == wanted
    assert len(first) == len(wanted)
    assert covers._images([cycle], images, 16, done) == []  # nothing new


@pytest.mark.parametrize("objective", ["turns", "crossings"])
def test_a_cover_phase_cut_short_by_ctrl_c_keeps_the_hint_and_its_bound(
    monkeypatch: pytest.MonkeyPatch, objective: str
) -> None:
    # Ctrl-C in the cover phase: the circuit model does not run, but the tour
    # the prune search gave as a hint is kept, scored by the checker's
    # count, with the bound the loop had proved
    def stopped(*args: object, **kwargs: object) -> covers.CoverBound:
        return covers.CoverBound(lower=3, interrupted=True)

    monkeypatch.setattr(covers, "cover_bound", stopped)
    board = Board((6, 6))
    tour = find_tour(
        board,
        method="cpsat",
        options=OPTIONS,
        constraints=tour_constraints(board, minimise=objective),
    )
    assert isinstance(tour, ScoredTour)
    assert str(tour.status) == "feasible"
    assert tour.bound == 3
    count = turns_by_hand if objective == "turns" else crossings_by_hand
    cells = [(r, c) for r, c in tour.cells]
    assert tour.value == count(cells, True) > 3


def test_no_tour_by_the_limit_still_reports_the_covers_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the cover loop proved 40 and the circuit model then found no tour (its
    # solves stopped with nothing): the error keeps the proved bound
    from ortools.sat.python import cp_model

    from cpknight.errors import SolveLimitError
    from cpknight.tours.cpsat import model as circuit

    def proved(*args: object, **kwargs: object) -> covers.CoverBound:
        return covers.CoverBound(lower=40)

    from cpknight.solving import solve_cpsat as real

    def nothing(solver: cp_model.CpSolver, *args: object) -> tuple[object, bool]:
        solver.parameters.max_time_in_seconds = 0.0  # stops before any tour
        status, interrupted = real(solver, *args)  # type: ignore[arg-type]
        assert status == cp_model.UNKNOWN
        return status, interrupted

    monkeypatch.setattr(covers, "cover_bound", proved)
    monkeypatch.setattr(circuit, "solve_cpsat", nothing)
    monkeypatch.setattr(circuit, "_warm_start", lambda instance, run: None)
    board = Board((8, 8))
    with pytest.raises(SolveLimitError) as caught:
        find_tour(
            board,
            method="cpsat",
            options=OPTIONS,
            constraints=tour_constraints(board, minimise="turns"),
        )
    assert caught.value.bound == 40
