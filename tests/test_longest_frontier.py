"""The frontier engine of the longest-path puzzles: against the search, CP-SAT,
an independent brute force and OEIS.

Published values (checked on oeis.org): A003192 (longest uncrossed knight
path on n x n, moves: 0, 0, 2, 5, 10, 17, 24, 35, 47), A157416 (uncrossed
cycle: 0, 0, 0, 4, 8, 12, 24, 32, 42, 54), A165143 (induced cycle, offset 3:
8, 10, 16, 20, 22, 32, 40, 48) and A357500 (induced path, *nodes*: 1, 1, 7, 9,
15, 21, 24, 34).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpknight.api.longest import compare_longest, longest_path, try_longest
from cpknight.board import Board
from cpknight.errors import InvalidInputError, NoPathError, SolveLimitError
from cpknight.graph.segments import segments_cross
from cpknight.longest import ENGINES
from cpknight.longest.common import LongestInstance
from cpknight.longest.frontier import run_frontier, walk
from cpknight.longest.frontier_dict import longest_frontier_dict
from cpknight.longest.frontier_kernels import KERNELS as LONGEST_KERNELS
from cpknight.longest.frontier_kernels import MAX_WIDTH, choose_longest_kernel
from cpknight.longest.frontier_tables import longest_tables
from cpknight.pieces import KNIGHT, Leaper, as_piece, move_graph
from cpknight.solving import SolveOptions
from cpknight.status import Status

A003192 = {3: 2, 4: 5, 5: 10, 6: 17}
A157416 = {3: 0, 4: 4, 5: 8, 6: 12}
A165143 = {3: 8, 4: 10, 5: 16, 6: 20}
A357500_NODES = {3: 7, 4: 9, 5: 15, 6: 21}

OPTIONS = SolveOptions(time_limit=60, workers=1, seed=0)


def tiny_brute_force(board: Board, piece: Leaper, kind: str, closed: bool) -> int:
    """The most moves of a legal path (cycle) by trying every simple path (-1: none).

    Independent of the engines: every simple path of the move graph is grown
    from every cell; a prefix of a legal path (and the path of a legal cycle
    without its closing move) is legal, so only legal prefixes are grown.
    Crossings by :func:`segments_cross` (turn signs), chords by adjacency.
    """
    graph = move_graph(board, piece)
    n = graph.n_nodes
    adj = [set(graph.neighbors(v).tolist()) for v in range(n)]
    pts = [(int(graph.cell(v)[0]), int(graph.cell(v)[1])) for v in range(n)]
    best = -1 if closed else 0

    def fits(path: list[int], v: int) -> bool:
        head = path[-1]
        if kind == "uncrossed":
            a, b = pts[head], pts[v]
            return not any(
                segments_cross(pts[path[i]], pts[path[i + 1]], a, b)
                for i in range(len(path) - 1)
            )
        # induced: v touches no path cell but the head (and, on a cycle, the
        # start: then the cycle must close at v)
        allowed = {head, path[0]} if closed else {head}
        return all(u in allowed or u not in adj[v] for u in path)

    def grow(path: list[int]) -> None:
        nonlocal best
        head = path[-1]
        if not closed:
            best = max(best, len(path) - 1)
        elif len(path) >= 3 and path[0] in adj[head]:
            if kind == "induced":
                best = max(best, len(path))
                return  # the head touches the start: the cycle closes here
            if fits(path, path[0]):
                best = max(best, len(path))
        for v in sorted(adj[head]):
            if v not in path and fits(path, v):
                grow([*path, v])

    for s in range(n):
        grow([s])
    return best


def frontier(board: Board, piece: Leaper, kind: str, closed: bool, kernel: str) -> int:
    inst = LongestInstance(board=board, piece=piece, kind=kind, closed=closed)  # type: ignore[arg-type]
    try:
        path, _ = run_frontier(inst, OPTIONS.start(), kernel=kernel)
    except NoPathError:
        return -1
    assert path.status is Status.OPTIMAL
    assert path.bound == path.moves
    return path.moves


def engine(board: Board, piece: Leaper, kind: str, closed: bool, method: str) -> int:
    o = try_longest(
        board, kind=kind, closed=closed, piece=piece, method=method, options=OPTIONS
    )
    if o.status is Status.INFEASIBLE:
        return -1
    assert o.status is Status.OPTIMAL
    assert o.value is not None
    return int(o.value.moves)


KERNELS = ["dict", "numba"]


def test_registered() -> None:
    assert "frontier" in ENGINES


def test_walk_orders_the_moves() -> None:
    assert walk([(4, 9), (9, 2), (7, 4)], closed=False) in ([2, 9, 4, 7], [7, 4, 9, 2])
    assert sorted(walk([(0, 1), (1, 2), (2, 3), (3, 0)], closed=True)) == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("kernel", "n"),
    [
        *((kernel, n) for kernel in KERNELS for n in (3, 4)),
        ("numba", 5),
        pytest.param("dict", 5, marks=pytest.mark.slow),  # 7 s; numba's 5 stays
    ],
)
def test_oeis_squares(kernel: str, n: int) -> None:
    board = Board((n, n))
    assert frontier(board, KNIGHT, "uncrossed", False, kernel) == A003192[n]
    got = frontier(board, KNIGHT, "uncrossed", True, kernel)
    assert max(got, 0) == A157416[n]  # A157416 writes 0 where there is no cycle
    assert frontier(board, KNIGHT, "induced", True, kernel) == A165143[n]
    assert frontier(board, KNIGHT, "induced", False, kernel) + 1 == A357500_NODES[n]


# The rectangle table in A003192's example (uncrossed paths on m x n).
A003192_RECTANGLES = {(3, 6): 6, (3, 7): 8, (4, 6): 9, (4, 7): 11, (5, 6): 14}


@pytest.mark.parametrize(("m", "n"), sorted(A003192_RECTANGLES))
def test_oeis_rectangles(m: int, n: int) -> None:
    want = A003192_RECTANGLES[m, n]
    assert frontier(Board((m, n)), KNIGHT, "uncrossed", False, "numba") == want
    assert frontier(Board((n, m)), KNIGHT, "uncrossed", False, "numba") == want


def test_oeis_six_numba() -> None:
    board = Board((6, 6))
    assert frontier(board, KNIGHT, "uncrossed", False, "numba") == A003192[6]
    assert frontier(board, KNIGHT, "uncrossed", True, "numba") == A157416[6]
    assert frontier(board, KNIGHT, "induced", True, "numba") == A165143[6]
    assert frontier(board, KNIGHT, "induced", False, "numba") + 1 == A357500_NODES[6]


@st.composite
def small_boards(draw: st.DrawFn, kind: str) -> tuple[Board, Leaper]:
    rows = draw(st.integers(2, 4))
    cols = draw(st.integers(2, 5 if rows < 4 else 4))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    holes = draw(st.lists(st.sampled_from(cells), max_size=3, unique=True))
    if len(holes) == len(cells):
        holes = holes[:-1]
    topology = "bounded"
    if kind == "induced":
        topology = draw(st.sampled_from(["bounded", "bounded", "cylinder", "torus"]))
    piece = as_piece(draw(st.sampled_from([(1, 2), (1, 3), (2, 3), (1, 1)])))
    return Board((rows, cols), holes, topology=topology), piece  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["uncrossed", "induced"])
@pytest.mark.parametrize("closed", [False, True])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_boards_match_brute_force(
    kind: str, closed: bool, data: st.DataObject
) -> None:
    board, piece = data.draw(small_boards(kind))
    want = tiny_brute_force(board, piece, kind, closed)
    assert frontier(board, piece, kind, closed, "dict") == want
    assert frontier(board, piece, kind, closed, "numba") == want


@pytest.mark.parametrize("kind", ["uncrossed", "induced"])
@pytest.mark.parametrize("closed", [False, True])
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_boards_match_search_and_cpsat(
    kind: str, closed: bool, data: st.DataObject
) -> None:
    board, piece = data.draw(small_boards(kind))
    got = frontier(board, piece, kind, closed, "numba")
    assert got == engine(board, piece, kind, closed, "search")
    assert got == engine(board, piece, kind, closed, "cpsat")


def test_kernels_keep_the_same_states() -> None:
    inst = LongestInstance(board=Board((5, 5)), piece=KNIGHT, kind="uncrossed")
    run = OPTIONS.start()
    _, dict_figures = run_frontier(inst, run, kernel="dict")
    _, numba_figures = run_frontier(inst, OPTIONS.start(), kernel="numba")
    assert dict_figures.live == numba_figures.live
    assert dict_figures.peak == max(dict_figures.live) > 0


def test_no_cycle_is_proved() -> None:
    with pytest.raises(NoPathError):
        longest_path("3x3", kind="uncrossed", closed=True, method="frontier")


def test_single_cell_path() -> None:
    p = longest_path("2x2", kind="uncrossed", closed=False, method="frontier")
    assert p.moves == 0
    assert p.optimal


def test_tiny_limit_claims_nothing() -> None:
    o = try_longest("6x6", kind="uncrossed", method="frontier", time_limit=1e-6)
    assert o.status is Status.UNKNOWN
    assert o.value is None
    with pytest.raises(SolveLimitError):
        longest_path("6x6", kind="uncrossed", method="frontier", time_limit=1e-6)


def test_interrupt_claims_nothing() -> None:
    inst = LongestInstance(board=Board((5, 5)), piece=KNIGHT, kind="uncrossed")
    run = OPTIONS.start()
    run.clock.interrupt()
    with pytest.raises(SolveLimitError, match="interrupted"):
        run_frontier(inst, run, kernel="dict")


def test_kernel_names() -> None:
    assert choose_longest_kernel("dict") == "dict"
    assert choose_longest_kernel("auto", 8) == "dict"
    assert choose_longest_kernel("auto", 16) in ("dict", "numba")
    with pytest.raises(Exception, match="kernel"):
        choose_longest_kernel("gpu")


def test_dict_kernel_rebuilds_a_best_path() -> None:
    inst = LongestInstance(
        board=Board((4, 5)), piece=KNIGHT, kind="induced", closed=True
    )
    best, edges, live = longest_frontier_dict(longest_tables(inst))
    assert best == len(edges)
    assert len(live) == 20


def test_compare_runs_frontier_beside_the_others() -> None:
    c = compare_longest(
        "5x5", kind="uncrossed", methods="search,frontier", options=OPTIONS
    )
    assert [o.value.moves for o in c.rows if o.value is not None] == [10, 10]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("kind", "closed", "want"),
    [("uncrossed", True, 24), ("induced", True, 22), ("induced", False, 23)],
)
def test_seven_by_seven(kind: str, closed: bool, want: int) -> None:
    """A157416(7) = 24, A165143(7) = 22, A357500(7) = 24 nodes (23 moves)."""
    assert frontier(Board((7, 7)), KNIGHT, kind, closed, "numba") == want


def test_parents_spill_to_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    from cpknight.longest import frontier_numba

    monkeypatch.setattr(frontier_numba, "SPILL_MB", 0.0)
    board = Board((5, 5))
    assert frontier(board, KNIGHT, "induced", True, "numba") == A165143[5]
    assert frontier(board, KNIGHT, "uncrossed", False, "numba") == A003192[5]


def test_refuses_far_past_the_budget() -> None:
    from cpknight.errors import ModelTooBigError

    with pytest.raises(ModelTooBigError, match="memory budget"):
        longest_path("9x9", kind="uncrossed", method="frontier")


def test_memory_budget_stops_before_the_step() -> None:
    from cpknight.runtime.memory import memory_budget

    with memory_budget(20), pytest.raises(SolveLimitError, match="memory budget"):
        longest_path("6x6", kind="uncrossed", method="frontier")


def test_auto_picks_the_frontier_on_strips() -> None:
    p = longest_path("5x7", kind="uncrossed", options=OPTIONS)
    assert p.moves == 16  # A003192's rectangle table
    compiled = choose_longest_kernel("auto", 14) == "numba"
    assert p.method == ("frontier" if compiled else "search")
    square = longest_path("5x5", kind="uncrossed", options=OPTIONS)
    assert square.method == "search"


def test_auto_runs_eight_across_only_when_it_can_finish() -> None:
    """8 x n: the frontier when the limit and the budget hold the measured
    run (AUTO_FRONTIER_EIGHT), else the search, which hands back a path."""
    from cpknight.api.longest import AUTO_FRONTIER_EIGHT, _frontier_fits
    from cpknight.runtime.memory import memory_budget

    def fits(spec: str, closed: bool, limit: float | None, mb: float) -> bool:
        inst = LongestInstance(
            board=Board.parse(spec), piece=KNIGHT, kind="uncrossed", closed=closed
        )
        with memory_budget(mb):
            return _frontier_fits(inst, limit)

    path_s, path_mb = AUTO_FRONTIER_EIGHT[False]
    assert not fits("8x8", False, 60.0, 4096)  # the default limit: the search
    assert fits("8x8", False, None, path_mb)
    assert fits("8x8", False, 2 * path_s, path_mb)
    assert not fits("8x8", False, None, path_mb / 2)  # past the budget
    assert not fits("8x16", False, 2 * path_s, path_mb)  # twice as long
    assert fits("8x8", True, 60.0, 4096)  # the cycle: 32 s, 1.4 GB
    assert not fits("8x8", True, 10.0, 4096)
    assert fits("7x7", False, 60.0, 4096)  # 18 s against the search's 34 s
    assert not fits("6x6", False, 60.0, 4096)
    assert not fits("9x9", True, None, 20000)  # not measured: not taken


def test_the_crossing_bits_ride_in_the_last_code_word() -> None:
    from cpknight.longest.frontier_numba import Layout

    def layout(n: int, kind: str) -> Layout:
        inst = LongestInstance(board=Board((n, n)), piece=KNIGHT, kind=kind)  # type: ignore[arg-type]
        return Layout.of(longest_tables(inst))

    # 6x6: 14 slots, the last word's 2 codes and 20 registers share it
    assert layout(6, "uncrossed") == Layout(2, 2, 1, 64 - 20)
    # 4x4: one word of codes (the ends in its top bits): a word of their own
    assert layout(4, "uncrossed") == Layout(1, 2, 1, 0)
    assert layout(6, "induced") == Layout(2, 2, -1, 0)
    # the rows of the cell order, whose growth sizes the next cell's table
    strip = LongestInstance(board=Board((5, 8)), piece=KNIGHT, kind="uncrossed")
    assert longest_tables(strip).period == 5


@pytest.mark.parametrize(("kind", "closed"), [("uncrossed", False), ("induced", True)])
def test_a_table_that_fills_grows_within_a_slice(
    monkeypatch: pytest.MonkeyPatch, kind: str, closed: bool
) -> None:
    """A table guessed one row small grows (rows, index rebuilt) again and again
    in the middle of rounds of a few states: the same states and optimum."""
    from cpknight.longest import frontier_numba

    inst = LongestInstance(board=Board((5, 5)), piece=KNIGHT, kind=kind, closed=closed)  # type: ignore[arg-type]
    _, want = run_frontier(inst, OPTIONS.start(), kernel="dict")
    monkeypatch.setattr(frontier_numba, "CANDIDATES", 100)
    monkeypatch.setattr(frontier_numba, "_guess", lambda live, period: 1)
    path, got = run_frontier(inst, OPTIONS.start(), kernel="numba")
    assert got.live == want.live
    assert path.moves == (A003192[5] if kind == "uncrossed" else A165143[5])


def test_the_clock_is_heard_within_a_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    from cpknight.longest import frontier_numba

    monkeypatch.setattr(frontier_numba, "CANDIDATES", 64 * 18)  # 64 states
    inst = LongestInstance(board=Board((6, 6)), piece=KNIGHT, kind="uncrossed")
    cells: list[int] = []
    ticks: list[int] = []

    def tick() -> None:
        ticks.append(len(cells))
        if len(cells) == 20 and ticks.count(20) == 3:
            raise SolveLimitError("the clock")

    with pytest.raises(SolveLimitError, match="the clock"):
        frontier_numba.longest_frontier_numba(
            longest_tables(inst), lambda step, states, tried: cells.append(states), tick
        )
    # three rounds of cell 21 were heard before it was done
    assert len(cells) == 20
    assert ticks.count(20) == 3


@pytest.mark.parametrize(
    ("kind", "closed", "want"),
    [("uncrossed", False, A003192[6]), ("induced", True, A165143[6])],
)
def test_threads_make_the_same_states(
    monkeypatch: pytest.MonkeyPatch, kind: str, closed: bool, want: int
) -> None:
    """Two threads making a cell's states (in rounds of a few hundred) keep
    the states, the optimum and the path of one."""
    from cpknight.longest import frontier_numba

    monkeypatch.setattr(frontier_numba, "CANDIDATES", 5000)
    inst = LongestInstance(board=Board((6, 6)), piece=KNIGHT, kind=kind, closed=closed)  # type: ignore[arg-type]
    tables = longest_tables(inst)
    one = frontier_numba.longest_frontier_numba(tables, threads=1)
    two = frontier_numba.longest_frontier_numba(tables, threads=2)
    assert one == two
    assert one[0] == want


def test_the_kernels_registry_is_what_the_program_takes() -> None:
    assert list(LONGEST_KERNELS) == KERNELS  # the kernels every test runs
    assert MAX_WIDTH == 28  # a packed code stays below the code of a cell off
    inst = LongestInstance(board=Board((3, 3)), piece=KNIGHT, kind="uncrossed")
    with pytest.raises(InvalidInputError, match="dict, numba, auto: 'gpu'"):
        run_frontier(inst, OPTIONS.start(), kernel="gpu")
