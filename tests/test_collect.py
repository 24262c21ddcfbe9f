"""The snake's meal: CP-SAT against Held-Karp / IDA* against brute force.

Expected lengths are computed in each test by independent means: walks by
trying every order of the food with the tests' own BFS (``brute_walk`` in
tests/conftest.py); simple routes by enumerating simple paths on boards of at
most 16 cells. Every route is re-checked move by move with the tests' own leap
test (``brute_neighbours``), not the move graph.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cpknight import (
    Board,
    NoPathError,
    Route,
    SolveLimitError,
    SolveOptions,
    TourCheckError,
    collect,
    distance_map,
    move_graph,
)
from cpknight.api import ROUTE_METHODS
from cpknight.board import Cell
from cpknight.checks import check_route, is_route, make_route
from cpknight.errors import EngineError
from cpknight.pieces import KNIGHT, Leaper
from cpknight.routes.common import DP_FOOD_LIMIT
from cpknight.routes.cpsat import build_collect_model
from cpknight.routes.instance import RouteInstance
from tests.conftest import boards, brute_neighbours, brute_walk

OPTS = SolveOptions(time_limit=20, workers=1, seed=0)


# ------------------------------------------------------------------ helpers


def assert_valid(route: Route, board: Board, piece: Leaper = KNIGHT) -> None:
    """Re-check a route step by step with the tests' own leap test (not the
    checker, not the move graph)."""
    nbrs = brute_neighbours(board, piece.vector)
    cells = list(route.cells)
    assert cells[0] == route.start
    if route.end is not None:
        assert cells[-1] == route.end
    assert all(c in nbrs for c in cells), "a cell off the board or blocked"
    for a, b in itertools.pairwise(cells):
        assert b in nbrs[a], (a, b)
    assert set(route.food) <= set(cells)
    assert route.moves == len(cells) - 1
    assert route.bound <= route.moves
    if route.status == "optimal":
        assert route.bound == route.moves
    if route.simple:
        body = cells[:-1] if route.end == route.start and len(cells) > 1 else cells
        assert len(set(body)) == len(body)
    assert all(isinstance(x, int) for c in cells for x in c)


def brute_simple(
    board: Board, start: Cell, food: Sequence[Cell], end: Cell | None
) -> int | None:
    """The shortest simple route by enumerating simple paths (tiny boards),
    over the tests' own leap test."""
    nbrs = brute_neighbours(board, (1, 2))  # the knight
    s = start
    need = {*food, s}
    best: list[int | None] = [None]

    def done(path: list[Cell]) -> bool:
        return need <= set(path)

    def dfs(path: list[Cell]) -> None:
        here = path[-1]
        length = len(path) - 1
        if best[0] is not None and length >= best[0]:
            return
        if end is None and done(path):
            best[0] = length
            return
        if end is not None and end != s and here == end and length > 0:
            if done(path):
                best[0] = length
            return
        for v in sorted(nbrs[here]):
            if v == s and end == s and length >= 1 and done(path):
                best[0] = length + 1
                continue
            if v in path:
                continue
            dfs([*path, v])

    if end == s and need == {s}:
        return 0
    dfs([s])
    return best[0]


def random_instance(
    rng: random.Random, board: Board, n_food: int, *, connected: bool = True
) -> tuple[Cell, list[Cell]]:
    cells = list(board.open_cells())
    start = rng.choice(cells)
    dmap = distance_map(board, start)
    pool = [c for c in cells if c != start and (dmap[c] is not None or not connected)]
    return start, rng.sample(pool, min(n_food, len(pool)))


def instance_with_end(
    board: Board, n_food: int, seed: int, end_kind: str
) -> tuple[Cell, list[Cell], Cell | None]:
    """A start, ``n_food`` food cells and an end: none, one more cell, or the start."""
    start, food = random_instance(random.Random(seed), board, n_food + 1)
    end = {"none": None, "cell": food.pop(), "start": start}[end_kind]
    return start, food, end


def holed(shape: tuple[int, ...], holes: int, seed: int) -> Board:
    rng = random.Random(seed)
    every = list(itertools.product(*(range(s) for s in shape)))
    return Board(shape, rng.sample(every, holes))


# ------------------------------------------------------ walks: cross-checks

WALK_CASES = [
    pytest.param(Board.parse("8x8"), 5, 1, id="8x8-5food"),
    pytest.param(Board.parse("holed8"), 6, 2, id="holed8-6food"),
    pytest.param(holed((10, 10), 15, 3), 6, 3, id="10x10-15holes-6food"),
    pytest.param(holed((7, 9), 8, 4), 5, 4, id="7x9-8holes-5food"),
    pytest.param(Board.parse("6x6", topology="torus"), 6, 5, id="torus6-6food"),
    pytest.param(Board.parse("5x8", topology="cylinder"), 5, 6, id="cylinder5x8"),
    pytest.param(Board.parse("3x4x4"), 5, 7, id="3x4x4-5food"),
    pytest.param(Board.parse("ring10"), 6, 8, id="ring10-6food"),
]


@pytest.mark.parametrize(("board", "n_food", "seed"), WALK_CASES)
@pytest.mark.parametrize("end_kind", ["none", "cell", "start"])
def test_walk_cpsat_equals_dp_equals_brute_force(
    board: Board, n_food: int, seed: int, end_kind: str
) -> None:
    start, food, end = instance_with_end(board, n_food, seed, end_kind)
    want = brute_walk(board, start, food, end)
    for method in ("cpsat", "search"):
        route = collect(board, start, food, end=end, method=method, options=OPTS)
        assert route.status == "optimal"
        assert route.moves == want, method
        assert_valid(route, board)


@pytest.mark.parametrize("seed", range(4))
def test_walk_eight_food_cpsat_equals_dp(seed: int) -> None:
    board = holed((10, 10), 10, 100 + seed)
    start, food = random_instance(random.Random(seed), board, 8)
    a = collect(board, start, food, method="cpsat", options=OPTS)
    b = collect(board, start, food, method="search", options=OPTS)
    assert (a.status, b.status) == ("optimal", "optimal")
    assert a.moves == b.moves
    assert_valid(a, board)
    assert_valid(b, board)


def test_walk_other_leaper_3d() -> None:
    board = Board.parse("4x4x4")
    piece = Leaper((1, 2, 3))
    # Every move changes one coordinate by 3, which from 1 or 2 leaves a side
    # of 4: the 8 inner cells are isolated. 1 + 2 + 3 is even, so the leaper
    # keeps the parity of x + y + z: (3,3,3) is out of reach of (0,0,0) too.
    start, food = (0, 0, 0), [(3, 3, 2), (0, 2, 2), (2, 3, 3), (1, 1, 0)]
    for far in [(1, 1, 1), (3, 3, 3)]:
        with pytest.raises(NoPathError, match="cannot be reached"):
            collect(board, start, [far], piece=piece)
    a = collect(board, start, food, piece=piece, method="cpsat", options=OPTS)
    b = collect(board, start, food, piece=piece, method="search", options=OPTS)
    assert a.moves == b.moves
    assert_valid(a, board, piece)


def test_greedy_is_never_shorter_than_optimal() -> None:
    board = Board.parse("10x10")
    rng = random.Random(11)
    for _ in range(5):
        start, food = random_instance(rng, board, 7)
        best = collect(board, start, food, method="search")
        greedy = collect(board, start, food, method="greedy")
        assert greedy.moves >= best.moves
        assert greedy.bound <= best.moves
        assert_valid(greedy, board)


def test_walk_past_the_dp_limit_falls_back_to_greedy() -> None:
    board = Board.parse("12x12")
    start, food = random_instance(random.Random(5), board, DP_FOOD_LIMIT + 1)
    route = collect(board, start, food, method="search")
    greedy = collect(board, start, food, method="greedy")
    assert route.moves == greedy.moves
    assert route.status in ("optimal", "feasible")
    assert_valid(route, board)


# ------------------------------------------------- simple routes: cross-checks

SIMPLE_CASES = [
    pytest.param(Board.parse("4x4"), 3, 1, id="4x4-3food"),
    pytest.param(Board.parse("3x5"), 3, 2, id="3x5-3food"),
    pytest.param(Board.parse("4x4", topology="torus"), 4, 3, id="torus4-4food"),
    pytest.param(holed((4, 4), 2, 4), 3, 4, id="4x4-2holes"),
    pytest.param(Board.parse("2x2x4"), 3, 5, id="2x2x4-3food"),
    pytest.param(Board.parse("3x4", topology="cylinder"), 3, 6, id="cyl3x4"),
]


@pytest.mark.parametrize(("board", "n_food", "seed"), SIMPLE_CASES)
@pytest.mark.parametrize("end_kind", ["none", "cell", "start"])
def test_simple_cpsat_equals_search_equals_brute_force(
    board: Board, n_food: int, seed: int, end_kind: str
) -> None:
    start, food, end = instance_with_end(board, n_food, seed, end_kind)
    assert board.n_open <= 16  # small enough to enumerate simple paths
    want = brute_simple(board, start, food, end)
    outcomes: list[int | None] = []
    for method in ("cpsat", "search"):
        try:
            route = collect(
                board, start, food, end=end, simple=True, method=method, options=OPTS
            )
        except NoPathError:
            outcomes.append(None)
            continue
        assert route.status == "optimal"
        assert_valid(route, board)
        outcomes.append(route.moves)
    assert outcomes == [want, want]
    if want is not None:
        walk = brute_walk(board, start, food, end)
        assert want >= walk


@pytest.mark.parametrize(
    ("board", "n_food", "seed"),
    [
        pytest.param(Board.parse("6x6"), 4, 0, id="6x6-4food"),
        pytest.param(holed((10, 10), 15, 21), 8, 1, id="10x10-15holes-8food"),
        pytest.param(Board.parse("7x7", topology="torus"), 6, 2, id="torus7-6food"),
        pytest.param(Board.parse("3x4x4"), 5, 3, id="3x4x4-5food"),
    ],
)
def test_simple_cpsat_equals_search_on_larger_boards(
    board: Board, n_food: int, seed: int
) -> None:
    start, food = random_instance(random.Random(seed), board, n_food)
    a = collect(board, start, food, simple=True, method="cpsat", options=OPTS)
    b = collect(board, start, food, simple=True, method="search", options=OPTS)
    assert a.moves == b.moves
    assert_valid(a, board)
    assert_valid(b, board)


def test_no_simple_route_on_a_path_graph() -> None:
    # On 2 x n boards every knight move changes the row and moves 2 files, so
    # each cell has at most two neighbours: the graph is a union of paths.
    # From the middle c2 of the path a1 - c2 - e1 both ends cannot be reached
    # without passing c2 twice; the walk c2 a1 c2 e1 takes 3 moves.
    board = Board.parse("2x5")
    for method in ("cpsat", "search"):
        with pytest.raises(NoPathError, match="no simple route"):
            collect(board, "c2", ["a1", "e1"], simple=True, method=method)
    assert collect(board, "c2", ["a1", "e1"], method="search").moves == 3


def test_closed_routes_on_3x3() -> None:
    # The 8 outer cells of 3x3 form one knight cycle a1 b3 c1 a2 c3 b1 a3 c2:
    # a closed simple route through c3 (4 steps round from a1) is the cycle
    # itself, 8 moves; the closed walk goes there and back, 2 * 4 moves.
    board = Board.parse("3x3")
    for method in ("cpsat", "search"):
        simple = collect(board, "a1", ["c3"], end="a1", simple=True, method=method)
        assert simple.moves == 8
        assert_valid(simple, board)
        walk = collect(board, "a1", ["c3"], end="a1", method=method)
        assert walk.moves == 8
        assert walk.cells[0] == walk.cells[-1] == (0, 0)


# ------------------------------------------------- properties on random boards


@settings(max_examples=40)
@given(board=boards(max_side=6), data=st.data())
def test_property_held_karp_equals_brute_force(
    board: Board, data: st.DataObject
) -> None:
    cells = list(board.open_cells())
    assume(cells)
    start = data.draw(st.sampled_from(cells))
    dmap = distance_map(board, start)
    reach = [c for c in cells if dmap[c] is not None]
    food = data.draw(st.lists(st.sampled_from(reach), max_size=5, unique=True))
    end = data.draw(st.none() | st.sampled_from(reach))
    route = collect(board, start, food, end=end, method="search")
    assert route.status == "optimal"
    assert route.moves == brute_walk(board, start, food, end)
    assert_valid(route, board)


@settings(max_examples=40)
@given(board=boards(max_side=4), data=st.data())
def test_property_ida_star_equals_brute_force(
    board: Board, data: st.DataObject
) -> None:
    cells = list(board.open_cells())
    assume(0 < len(cells) <= 12)
    start = data.draw(st.sampled_from(cells))
    dmap = distance_map(board, start)
    reach = [c for c in cells if dmap[c] is not None]
    food = data.draw(st.lists(st.sampled_from(reach), max_size=4, unique=True))
    end = data.draw(st.none() | st.sampled_from(reach))
    want = brute_simple(board, start, food, end)
    try:
        route = collect(board, start, food, end=end, simple=True, method="search")
    except NoPathError:
        assert want is None
        return
    assert route.moves == want
    assert_valid(route, board)


# ----------------------------------------------------------- outcomes, edges


@pytest.mark.parametrize("method", ["cpsat", "search", "greedy"])
@pytest.mark.parametrize("simple", [False, True])
def test_unreachable_food_is_proved_quickly(method: str, simple: bool) -> None:
    started = time.perf_counter()
    with pytest.raises(NoPathError, match="food b2 cannot be reached from a1"):
        collect("3x3", "a1", ["c3", "b2"], method=method, simple=simple)
    with pytest.raises(NoPathError, match="end b2 cannot be reached"):
        collect("3x3", "a1", ["c3"], end="b2", method=method, simple=simple)
    # The ferz moves diagonally and never changes colour: a1 is dark, b1 light.
    with pytest.raises(NoPathError):
        collect("holed8", "a1", ["b1"], piece="ferz", method=method, simple=simple)
    assert time.perf_counter() - started < 5


@pytest.mark.parametrize("method", ["cpsat", "search", "greedy"])
def test_trivial_routes(method: str) -> None:
    r = collect("8x8", "a1", ["a1"], method=method)
    assert (r.cells, r.moves, r.status) == (((0, 0),), 0, "optimal")
    r = collect("8x8", "a1", [], end="a1", method=method)
    assert r.moves == 0
    r = collect("8x8", "a1", ["b3"], end="b3", method=method)
    assert (r.moves, r.status) == (1, "optimal")
    r = collect("8x8", "a1", [], end="h8", method=method)  # knight distance 6
    assert r.moves == 6


def test_tiny_time_limit_still_gives_a_checked_answer() -> None:
    board = Board.parse("16x16")
    start, food = random_instance(random.Random(3), board, 20)
    # The move graph built (and cached) first: its build is under the clock
    # too, and a millisecond on a loaded machine may not hold it; this test is
    # of the route engine's answer when its own limit has passed
    move_graph(board, KNIGHT)
    options = SolveOptions(time_limit=0.001)
    route = collect(board, start, food, options=options)
    assert route.status in ("optimal", "feasible")
    assert_valid(route, board)


def test_simple_search_past_the_limit_is_feasible_or_unknown() -> None:
    board = Board.parse("12x12")
    start, food = random_instance(random.Random(4), board, 8)
    options = SolveOptions(time_limit=0.05)
    try:
        route = collect(
            board, start, food, simple=True, method="search", options=options
        )
    except SolveLimitError as exc:
        details: dict[str, int] = exc.details
        assert details["bound"] >= 1
    else:
        assert_valid(route, board)
        # IDA*'s first bound is the shortest walk, so its bound is at least that
        walk = collect(board, start, food, method="search")
        assert route.bound >= walk.moves


@pytest.mark.parametrize("method", ["search", "cpsat"])
def test_simple_route_honours_a_short_limit_on_a_large_board(method: str) -> None:
    # Regression: IDA* looked at the clock every 256 attempts (each up to 8
    # BFS over the whole board) and the CP-SAT model was built without looking
    # at it: 300x300 with a 2 s limit ran 25 s (search) and 62 s (cpsat).
    board = Board.parse("200x200")
    food = [(100, 100), (199, 199)]
    options = SolveOptions(time_limit=0.5, workers=1, seed=0)
    began = time.perf_counter()
    try:
        route = collect(
            board, (0, 0), food, simple=True, method=method, options=options
        )
    except SolveLimitError as exc:
        details: dict[str, int] = exc.details
        assert details["bound"] >= 1
    else:
        assert_valid(route, board)
    assert time.perf_counter() - began < 10


def test_bad_method_and_bad_cells() -> None:
    with pytest.raises(ValueError, match="expected a route method"):
        collect("8x8", "a1", ["h8"], method="magic")
    with pytest.raises(ValueError, match="cell 'i9' is not on board 8x8"):
        collect("8x8", "a1", ["i9"])
    with pytest.raises(ValueError, match="blocked"):
        collect("holed8", "a1", ["d4"])


# ------------------------------------------------------------- the checker


def test_check_route_faults() -> None:
    b = Board.parse("8x8")
    check_route(b, ["a1", "b3", "a1", "c2"], start="a1", food=["b3", "c2"])
    with pytest.raises(TourCheckError, match="step 1 -> 2"):
        check_route(b, ["a1", "b2"], start="a1", food=["b2"])
    with pytest.raises(TourCheckError, match="never visits food h8"):
        check_route(b, ["a1", "b3"], start="a1", food=["h8"])
    with pytest.raises(TourCheckError, match="starts on b3"):
        check_route(b, ["b3", "a1"], start="a1", food=[])
    with pytest.raises(TourCheckError, match="ends on b3, not c2"):
        check_route(b, ["a1", "b3"], start="a1", end="c2")
    with pytest.raises(TourCheckError, match="used twice"):
        check_route(b, ["a1", "b3", "a1", "c2"], start="a1", simple=True)
    with pytest.raises(TourCheckError, match="blocked"):
        check_route(Board.parse("holed8"), ["a1", "c2", "d4"], start="a1")
    with pytest.raises(TourCheckError, match="empty"):
        check_route(b, [], start="a1")
    # a closed simple route may repeat its start, once, at the end
    assert is_route(b, ["a1", "b3", "a1"], start="a1", end="a1", simple=True)
    assert is_route(b, np.array([[0, 0], [2, 1]]), start="a1", food=["b3"], simple=True)


def test_make_route_refuses_a_bad_answer() -> None:
    g = move_graph(Board.parse("8x8"), KNIGHT)
    nodes = [g.node((0, 0)), g.node((2, 1))]
    with pytest.raises(EngineError, match="bad route"):
        make_route(
            g,
            nodes[::-1],
            start=(0, 0),
            food=[],
            end=None,
            simple=False,
            status="optimal",
            bound=1,
            method="x",
        )
    with pytest.raises(EngineError, match="marked 'optimal' with bound 0"):
        make_route(
            g,
            nodes,
            start=(0, 0),
            food=[],
            end=None,
            simple=False,
            status="optimal",
            bound=0,
            method="x",
        )


def test_route_text_and_names() -> None:
    r = collect("3x3", "a1", ["c1"], method="search")
    assert r.names() == ["a1", "b3", "c1"]
    assert r.eaten_at() == {(0, 2): 2}
    text = str(r)
    assert "2*" in text
    assert "optimal" in repr(r)


# -------------------------------------------------------- the CP-SAT models


def test_walk_model_formulation_and_export(tmp_path: Path) -> None:
    m = build_collect_model("8x8", "a1", ["h8", "a8", "h1", "d4"])
    text = m.formulation()
    # d(a1, h8) = 6 on 8x8 (the knight-distance table of the README)
    assert "AddCircuit" in text
    assert "  a1   0   6" in text
    assert len(m.arcs) == 4 * 5  # 5 nodes, every ordered pair
    out = tmp_path / "walk.txt"
    m.export(out)
    proto = out.read_text()
    assert "circuit" in proto
    assert "x[a1->h8]" in proto


def test_simple_model_sizes() -> None:
    # The knight graph of n x n has 4(n-1)(n-2) edges: 168 on 8x8, 336 arcs.
    m = build_collect_model("8x8", "a1", ["h8"], simple=True)
    kinds = [a.kind for a in m.arcs]
    assert kinds.count("move") == 336 - 2  # none into a1 (degree 2)
    assert kinds.count("skip") == 62
    assert kinds.count("dummy") == 1 + 64  # * -> a1, and v -> * for every cell
    closed = build_collect_model("8x8", "a1", ["h8"], end="a1", simple=True)
    assert [a.kind for a in closed.arcs].count("move") == 336
    assert "dummy" not in [a.kind for a in closed.arcs]


def test_engine_entry_point_matches_front_door() -> None:
    board = Board.parse("8x8")
    instance = RouteInstance(board, KNIGHT, start=(0, 0), food=((7, 7), (7, 0)))
    r = ROUTE_METHODS["search"].load()(instance, OPTS.start())
    assert r.moves == collect("8x8", "a1", ["h8", "a8"], method="search").moves
