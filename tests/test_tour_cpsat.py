"""The CP-SAT tour models against the theorems, published counts and injection.

Sources of the expected answers:

- Closed tours, Schwenk 1991; open tours, Cull and De Curtins 1978 and Conrad
  et al. 1994: ``schwenk_closed`` and ``conrad_open`` in tests/conftest.py.
- Counts: OEIS A001230 (undirected closed tours on 2n x 2n: 9,862 on 6x6),
  OEIS A165134 (directed open tours on n x n: 1,728 on 5x5), and a brute-force
  enumeration in this file for 3x4 and friends.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import numpy as np
import pytest
from ortools.sat.python import cp_model

from cpknight import (
    Board,
    InvalidInputError,
    NoTourError,
    SolveLimitError,
    SolveOptions,
    is_tour,
)
from cpknight.api import count_tours, find_tour
from cpknight.pieces import MoveGraph, move_graph
from cpknight.tours.certificates import tour_certificate
from cpknight.tours.cpsat import TourModel, build_tour_model, cell_depths
from tests.conftest import (
    Cell,
    brute_neighbours,
    brute_tours,
    conrad_open,
    knight_tour_by_search,
    schwenk_closed,
)

OPTS = SolveOptions(time_limit=20, workers=1, seed=0)


SIZES = [(m, n) for m in range(1, 8) for n in range(m, 11)]


def _outcome(board: str, *, closed: bool, **kw: object) -> bool:
    try:
        tour = find_tour(board, closed=closed, method="cpsat", options=OPTS, **kw)  # type: ignore[arg-type]
    except NoTourError:
        return False
    assert is_tour(tour.board, tour.cells, closed=closed)
    return True


@pytest.mark.parametrize(("m", "n"), SIZES, ids=[f"{m}x{n}" for m, n in SIZES])
def test_closed_tours_follow_schwenk_1991(m: int, n: int) -> None:
    want = schwenk_closed(m, n)
    assert _outcome(f"{m}x{n}", closed=True) is want
    if want:  # a certificate must never fire where a tour exists
        graph = move_graph(Board.parse(f"{m}x{n}"))
        assert tour_certificate(graph, closed=True) is None


@pytest.mark.parametrize(("m", "n"), SIZES, ids=[f"{m}x{n}" for m, n in SIZES])
def test_open_tours_follow_conrad_1994(m: int, n: int) -> None:
    want = conrad_open(m, n)
    assert _outcome(f"{m}x{n}", closed=False) is want
    if want:
        graph = move_graph(Board.parse(f"{m}x{n}"))
        assert tour_certificate(graph, closed=False) is None


@pytest.mark.parametrize(
    ("board", "closed", "start", "end"),
    [
        ("8x8", False, "a1", None),
        ("8x8", False, None, "h8"),
        ("8x8", False, "a1", "h1"),  # different colours, 64 cells: allowed
        ("8x8", True, "d4", None),
        ("5x5", False, "a1", "e5"),  # corners, both on the larger colour class
        ("ring10", True, None, None),
        ("blocks12", True, None, None),
        ("cross5", False, None, None),
        ("frame9", False, "a1", None),
    ],
)
def test_tours_with_fixed_ends_and_named_boards(
    board: str, closed: bool, start: str | None, end: str | None
) -> None:
    tour = find_tour(
        board, closed=closed, start=start, end=end, method="cpsat", options=OPTS
    )
    assert is_tour(tour.board, tour.cells, closed=closed, start=start, end=end)
    assert tour.method == "cpsat"


@pytest.mark.parametrize(
    ("board", "topology", "piece", "closed"),
    [
        ("8x8", "torus", "knight", True),
        ("5x5", "torus", "knight", True),  # odd torus: not bipartite
        ("6x5", "cylinder", "knight", True),
        ("4x4x4", "bounded", "knight", True),
        ("3x4x4", "bounded", "knight", False),
        ("10x10", "bounded", "zebra", True),
        ("10x10", "bounded", "giraffe", True),
        ("4x4", "bounded", "wazir", True),
    ],
)
def test_tours_on_tori_boxes_and_other_leapers(
    board: str, topology: str, piece: str, closed: bool
) -> None:
    b = Board.parse(board, topology=topology)  # type: ignore[arg-type]
    tour = find_tour(b, piece=piece, closed=closed, method="cpsat", options=OPTS)
    assert is_tour(b, tour.cells, piece=piece, closed=closed)


def test_holed8_has_no_open_tour_by_an_independent_naive_model() -> None:
    """The cheap forms agree with the textbook dummy node joined to every cell."""
    graph = move_graph(Board.parse("holed8"))
    with pytest.raises(NoTourError) as info:
        find_tour("holed8", closed=False, start="a1", method="cpsat", options=OPTS)
    assert info.value.certificate == "search"
    assert _naive_open_status(graph, start=graph.node((0, 0))) == cp_model.INFEASIBLE
    assert _naive_open_status(graph, start=None) == cp_model.INFEASIBLE
    # The same naive model finds a tour where one exists (it is not vacuous).
    small = move_graph(Board.parse("5x5"))
    assert _naive_open_status(small, start=None) in (
        cp_model.OPTIMAL,
        cp_model.FEASIBLE,
    )


def _naive_open_status(graph: MoveGraph, *, start: int | None) -> object:
    model = cp_model.CpModel()
    n = graph.n_nodes
    arcs = [
        (int(t), int(h), model.new_bool_var(""))
        for t, h in zip(*graph.arcs(), strict=True)
    ]
    for v in range(n):
        arcs.append((n, v, model.new_bool_var("")))
        arcs.append((v, n, model.new_bool_var("")))
        if start is not None and v == start:
            model.add(arcs[-2][2] == 1)
    model.add_circuit(arcs)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 20
    return solver.solve(model)


# ------------------------------------------------------------------ counting


def _brute_force_open_paths(board: Board, *, start: Cell | None = None) -> int:
    """Directed open knight tours (from ``start`` if given) by the tests' own
    search over their own leap test (neither CP-SAT nor the move graph)."""
    nbrs = brute_neighbours(board, (1, 2))
    return sum(1 for _ in brute_tours(nbrs, closed=False, start=start))


@pytest.mark.parametrize("board", ["3x4", "4x5", "3x7", "cross5"])
def test_open_counts_match_a_brute_force(board: str) -> None:
    want = _brute_force_open_paths(Board.parse(board))
    got = count_tours(board, closed=False, options=OPTS, method="cpsat")
    assert (got.status, got.directed, got.undirected) == ("found", want, want // 2)


def test_open_count_from_a_start_matches_a_brute_force() -> None:
    board = Board.parse("4x5")
    want = _brute_force_open_paths(board, start=(0, 0))  # a1
    got = count_tours(board, closed=False, start="a1", options=OPTS, method="cpsat")
    assert got.directed == got.undirected == want


def test_open_5x5_count_is_oeis_a165134() -> None:
    got = count_tours("5x5", closed=False, options=OPTS, method="cpsat")
    assert (got.status, got.directed, got.undirected) == ("found", 1728, 864)


@pytest.mark.slow
def test_closed_6x6_count_is_oeis_a001230() -> None:
    got = count_tours("6x6", options=SolveOptions(time_limit=120), method="cpsat")
    assert (got.status, got.directed, got.undirected) == ("found", 19724, 9862)


def test_closed_3x10_count_is_oeis_a070030() -> None:
    got = count_tours("3x10", options=OPTS, method="cpsat")
    assert (got.status, got.directed, got.undirected) == ("found", 32, 16)


@pytest.mark.slow
def test_closed_count_on_a_small_board_matches_a_brute_force() -> None:
    board = Board.parse("3x10")
    nbrs = brute_neighbours(board, (1, 2))
    # Circuits through a1, each direction once.
    directed = sum(1 for _ in brute_tours(nbrs, closed=True, start=(0, 0)))
    got = count_tours("3x10", options=OPTS, method="cpsat")
    assert got.status == "found"
    assert (got.directed, got.undirected) == (directed, directed // 2)
    assert directed > 0


def test_count_stops_at_the_time_limit_with_a_partial_count() -> None:
    got = count_tours("6x6", method="cpsat", options=SolveOptions(time_limit=0.5))
    assert got.status == "unknown"
    assert 0 < got.undirected < 9862
    assert got.seconds < 2.0


def test_count_reports_progress() -> None:
    seen: list[int] = []
    count_tours(
        "6x6",
        method="cpsat",
        options=SolveOptions(time_limit=1.0),
        progress=lambda p: seen.append(p.value.directed),
    )
    assert seen == sorted(seen)


# ------------------------------------------------------- models and injection


# The 5x5 open tour printed in the rec.puzzles archive
# (competition/games/chess/knight.tour.s), top rank first.
RECPUZZLES_5X5 = [
    [5, 10, 15, 20, 3],
    [16, 21, 4, 9, 14],
    [11, 6, 25, 2, 19],
    [22, 17, 8, 13, 24],
    [7, 12, 23, 18, 1],
]


def _inject(model: TourModel, nodes: list[int], *, closed: bool) -> object:
    """Fix the arcs of a known tour in the model; return the solver status."""
    index = {
        (int(t), int(h)): k
        for k, (t, h) in enumerate(zip(model.tails, model.heads, strict=True))
    }
    n = model.graph.n_nodes
    steps = list(itertools.pairwise(nodes))
    if closed:
        steps.append((nodes[-1], nodes[0]))
    elif model.form == "dummy-node":
        steps += [(n, nodes[0]), (nodes[-1], n)]
    else:  # the closing arc, or the return arc into the start / out of the end
        steps.append((nodes[-1], nodes[0]))
    for step in steps:
        model.model.add(model.literals[index[step]] == 1)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 10
    status = solver.solve(model.model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        assert model.decode(solver) == [model.graph.cell(v) for v in nodes] or closed
    return status


def test_a_known_closed_tour_is_feasible_in_the_circuit_model() -> None:
    graph = move_graph(Board.parse("3x10"))
    # A closed tour by the tests' own search (independent of CP-SAT).
    nodes = [graph.node(c) for c in knight_tour_by_search(graph.board, closed=True)]
    model = build_tour_model(graph, closed=True)
    assert _inject(model, nodes, closed=True) == cp_model.OPTIMAL
    counting = build_tour_model(graph, closed=True, break_symmetry=True)
    # One of the two directions survives the symmetry breaking.
    statuses = {
        _inject(
            build_tour_model(graph, closed=True, break_symmetry=True), d, closed=True
        )
        for d in (nodes, nodes[::-1])
    }
    assert statuses == {cp_model.OPTIMAL, cp_model.INFEASIBLE}
    assert counting.symmetry


@pytest.mark.parametrize(
    ("start", "end"), [(None, None), ("e1", None), (None, "c3"), ("e1", "c3")]
)
def test_a_published_open_tour_is_feasible_in_every_open_form(
    start: str | None, end: str | None
) -> None:
    board = Board.parse("5x5")
    graph = move_graph(board)
    grid = np.array(RECPUZZLES_5X5[::-1])  # row 0 = rank 1
    cells = [tuple(int(x) for x in np.argwhere(grid == k)[0]) for k in range(1, 26)]
    assert is_tour(board, cells, closed=False)
    assert board.cell_name(cells[0]) == "e1"
    assert board.cell_name(cells[-1]) == "c3"
    nodes = [graph.node(c) for c in cells]
    model = build_tour_model(graph, closed=False, start=start, end=end)
    assert _inject(model, nodes, closed=False) == cp_model.OPTIMAL


def test_formulation_and_export_name_the_arcs(tmp_path: Path) -> None:
    graph = move_graph(Board.parse("8x8"))
    model = build_tour_model(graph, closed=True)
    text = model.formulation()
    assert "336 Booleans" in text
    assert "64 nodes" in text
    assert "arc[a1->b3]" in text
    out = tmp_path / "tour.pbtxt"
    model.export(out)
    proto = out.read_text()
    assert 'name: "arc[a1->b3]"' in proto
    assert "circuit" in proto
    assert proto.count("variables {") == 336


@pytest.mark.parametrize("board", ["20x20", "13x17"])
def test_depths_are_half_the_distance_to_the_rim(board: str) -> None:
    # Independent geometry: a knight has fewer than 8 moves exactly on the two
    # outer rings, and each knight move crosses at most two rings.
    graph = move_graph(Board.parse(board))
    rows, cols = graph.board.shape
    r, c = graph.cells[:, 0], graph.cells[:, 1]
    ring = np.minimum(np.minimum(r, c), np.minimum(rows - 1 - r, cols - 1 - c))
    assert cell_depths(graph).tolist() == (ring // 2).tolist()


def test_depths_are_zero_where_no_cell_has_fewer_moves() -> None:
    board = Board.parse("10x10", topology="torus")
    assert not cell_depths(move_graph(board)).any()


@pytest.mark.parametrize("board", ["8x8", "holed8", "ring10", "9x9"])
def test_the_deep_first_layout_has_the_same_arcs_deepest_first(board: str) -> None:
    graph = move_graph(Board.parse(board))
    moves = build_tour_model(graph, closed=False, order="moves")
    deep = build_tour_model(graph, closed=False, seed=3)
    assert deep.order == "deep-first"
    assert sorted(zip(deep.tails.tolist(), deep.heads.tolist(), strict=True)) == (
        sorted(zip(moves.tails.tolist(), moves.heads.tolist(), strict=True))
    )
    depth = cell_depths(graph)[deep.tails[: deep.n_move_arcs]]
    assert (np.diff(depth) <= 0).all()  # deepest first
    assert "search (the cpsat engine)" in deep.formulation()
    assert "search" not in moves.formulation()
    with pytest.raises(InvalidInputError, match="arc order"):
        build_tour_model(graph, closed=True, order="spiral")


@pytest.mark.parametrize("closed", [True, False])
def test_two_workers_find_a_checked_tour(closed: bool) -> None:
    # Two workers take PLAIN_TOUR_SUBSOLVERS rather than CP-SAT's portfolio.
    options = SolveOptions(time_limit=20, workers=2, seed=0)
    tour = find_tour("20x20", closed=closed, method="cpsat", options=options)
    assert is_tour(tour.board, tour.cells, closed=closed)


def test_open_forms_are_small() -> None:
    graph = move_graph(Board.parse("8x8"))
    closed = build_tour_model(graph, closed=True)
    corner = build_tour_model(graph, closed=False, start="a1")
    free = build_tour_model(graph, closed=False)
    assert corner.n_nodes == closed.n_nodes == 64
    assert corner.n_arcs == 336 - 2 + 63
    # The dummy node joins 32 cells each way (the colours), not all 64.
    assert free.n_arcs - free.n_move_arcs == 64


def test_the_time_limit_includes_model_building() -> None:
    limit = 0.4
    started = time.perf_counter()
    with pytest.raises(SolveLimitError):
        # 100x100 takes seconds to solve, and a third of the limit to build.
        find_tour("100x100", method="cpsat", options=SolveOptions(time_limit=limit))
    assert time.perf_counter() - started < limit + 0.5


def test_an_open_model_refuses_the_same_start_and_end() -> None:
    # The closing arc end -> start would be a self-loop, which add_circuit reads
    # as "skip this node": the model would describe a closed tour of the other
    # cells, which is not what was asked.
    graph = move_graph(Board.parse("5x5"))
    with pytest.raises(InvalidInputError, match="cannot start and end on the same"):
        build_tour_model(graph, closed=False, start="a1", end="a1")


# ---------------------------------------------- stopped with no time limit


def test_a_cancelled_solve_without_a_limit_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A race cancels CP-SAT's clock when the search answers first; with no
    # time limit set the message once formatted None with ':g' (TypeError).
    from cpknight.pieces import KNIGHT
    from cpknight.solving import Run
    from cpknight.tours.cpsat import model as cpsat
    from cpknight.tours.instance import TourInstance

    def stopped(
        solver: cp_model.CpSolver, model: cp_model.CpModel
    ) -> cp_model.CpSolverStatus:
        solver.parameters.max_time_in_seconds = 1e-6
        solver.solve(model)
        return cp_model.UNKNOWN  # whatever it found: no answer in time

    def cancelled(
        solver: cp_model.CpSolver, model: cp_model.CpModel, run: Run
    ) -> tuple[cp_model.CpSolverStatus, bool]:
        run.clock.cancel()  # what the race does while CP-SAT solves
        return stopped(solver, model), False

    monkeypatch.setattr(cpsat, "solve_cpsat", cancelled)
    instance = TourInstance(Board.parse("6x6"), KNIGHT)
    with pytest.raises(SolveLimitError, match="another engine answered first"):
        cpsat.solve(instance, SolveOptions().start())
    with pytest.raises(SolveLimitError, match="another engine answered first"):
        cpsat.solve(instance, SolveOptions(time_limit=5).start())
    monkeypatch.setattr(cpsat, "solve_cpsat", lambda s, m, _: (stopped(s, m), False))
    with pytest.raises(SolveLimitError, match="time limit of 5 s"):
        cpsat.solve(instance, SolveOptions(time_limit=5).start())
