"""Every engine, the certificates and the counts against the brute-force oracle.

First the five planted bugs that once survived the whole suite, each pinned by
the instance that catches it; then Hypothesis draws small boards (holes, tori,
cylinders, other leapers), with and without fixed ends, and every tour engine,
every certificate and every count is held to the tests' own brute force
(``tests/conftest.py``: plain recursion over an adjacency dict, no cpknight
code).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cpknight import (
    Board,
    count_tours,
    iter_tours,
    knight_distance,
    move_graph,
)
from cpknight.api import try_tour
from cpknight.board import Cell
from cpknight.errors import SolveLimitError
from cpknight.solving import SolveOptions
from cpknight.tours import ENGINES as TOUR_METHODS
from cpknight.tours.certificates import tour_certificate
from tests.conftest import (
    boards,
    brute_distances,
    brute_neighbours,
    brute_tours,
    independent_tour_check,
    leapers,
)

OPTS = SolveOptions(time_limit=10, workers=1, seed=0)
PROVERS = ["cpsat", "backtrack", "warnsdorff", "prune", "race"]


def oracle_tours(
    board: Board,
    vector: Sequence[int],
    *,
    closed: bool,
    start: Cell | None = None,
    end: Cell | None = None,
) -> list[list[Cell]]:
    """Every directed tour by brute force (closed: from ``start`` or every cell)."""
    return list(_oracle(board, vector, closed=closed, start=start, end=end))


def oracle_exists(
    board: Board,
    vector: Sequence[int],
    *,
    closed: bool,
    start: Cell | None = None,
    end: Cell | None = None,
) -> bool:
    """Whether brute force finds a tour (it stops at the first)."""
    tours = _oracle(board, vector, closed=closed, start=start, end=end)
    return next(tours, None) is not None


def _oracle(
    board: Board,
    vector: Sequence[int],
    *,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
) -> Iterator[list[Cell]]:
    nbrs = brute_neighbours(board, vector)
    first = min(nbrs) if nbrs else None
    for path in brute_tours(nbrs, closed=closed, start=start):
        if end is not None and path[-1] != end:
            continue
        if closed and start is None and path[0] != first:
            continue  # a circuit comes once per first cell: keep the first's
        yield path


def assert_engines_agree(
    board: Board,
    vector: Sequence[int],
    *,
    closed: bool,
    start: Cell | None = None,
    end: Cell | None = None,
    methods: Sequence[str] = (*PROVERS, "greedy", "auto"),
) -> None:
    exists = oracle_exists(board, vector, closed=closed, start=start, end=end)
    for method in methods:
        o = try_tour(
            board,
            piece=vector,
            closed=closed,
            start=start,
            end=end,
            method=method,
            options=OPTS,
        )
        status = str(o.status)
        if method == "greedy" and status == "unknown":
            continue  # greedy giving up proves nothing
        assert status == ("found" if exists else "infeasible"), (method, o.reason)
        if o.tour is not None:
            cells = [tuple(c) for c in o.tour.cells]
            assert independent_tour_check(board, vector, cells, closed=closed)
            assert start is None or cells[0] == start
            assert end is None or cells[-1] == end


# --------------------------------------------------- the five survivors


@pytest.mark.parametrize(
    ("board", "vector"),
    [
        # the 8 outer cells of 3x3 form one knight circuit
        (Board((3, 3), blocked=[(1, 1)]), (1, 2)),
        (Board((2, 2)), (0, 1)),  # the wazir walks round the 2x2 square
    ],
    ids=["3x3-without-b2", "wazir-2x2"],
)
def test_a_forced_cycle_through_every_cell_is_a_tour(
    board: Board, vector: tuple[int, int]
) -> None:
    assert oracle_exists(board, vector, closed=True)  # brute force: a circuit
    assert tour_certificate(move_graph(board, vector), closed=True) is None
    assert_engines_agree(board, vector, closed=True)


@pytest.mark.parametrize(
    ("board", "vector", "source", "target"),
    [
        # the move graph of 3x3 without b1 and b2 is one path a3 .. c3
        (Board((3, 3), blocked=[(0, 1), (1, 1)]), (1, 2), (2, 0), (2, 2)),
        (Board((1, 5)), (0, 1), (0, 0), (0, 4)),  # the wazir on 1x5
    ],
    ids=["3x3-path-a3-c3", "wazir-1x5"],
)
def test_a_path_shaped_graph_end_to_end(
    board: Board, vector: tuple[int, int], source: Cell, target: Cell
) -> None:
    want = brute_distances(board, vector, source)[target]
    assert want == board.n_open - 1  # the whole path: 6 and 4
    for method in ("bfs", "ip", "flow", "bidirectional"):
        got = knight_distance(
            board, source, target, piece=vector, method=method, options=OPTS
        )
        assert (method, got.distance) == (method, want)


def test_an_open_tour_with_a1_blocked_takes_the_right_colour_class() -> None:
    board = Board((5, 5), blocked=[(0, 0), (0, 3)])  # a1 and d1 blocked
    assert oracle_exists(board, (1, 2), closed=False)  # brute force: one exists
    assert_engines_agree(board, (1, 2), closed=False)


def test_search_engines_enter_a_fixed_end_last() -> None:
    board = Board((3, 3), topology="torus")
    assert_engines_agree(board, (1, 2), closed=False, start=(0, 0), end=(0, 2))


def test_open_tours_from_a_start_on_a_board_with_closed_tours() -> None:
    # 5x6 has closed tours (Schwenk 1991), counted alike by CP-SAT and by the
    # search's enumeration (every circuit passes a1, once each way); the open
    # tours from a1 are 4,542 by brute force (47 s: see the slow test below)
    # and by the search's enumeration here
    closed = count_tours("5x6", closed=True, options=OPTS).directed
    assert closed > 0
    assert closed == sum(1 for _ in iter_tours("5x6", closed=True, start="a1"))
    count = count_tours("5x6", closed=False, start="a1", options=OPTS)
    assert count.directed == 4542
    assert sum(1 for _ in iter_tours("5x6", closed=False, start="a1")) == 4542


@pytest.mark.slow
def test_open_count_5x6_by_brute_force() -> None:
    assert len(oracle_tours(Board((5, 6)), (1, 2), closed=False, start=(0, 0))) == 4542


# ------------------------------------------------------------ properties


@st.composite
def tour_cases(
    draw: st.DrawFn,
) -> tuple[Board, tuple[int, ...], bool, Cell | None, Cell | None]:
    """A small board (at most 9 open cells), a leaper, closed or not, ends."""
    board = draw(boards(dims=(2, 3), max_side=4))
    assume(1 <= board.n_open <= 9)
    vector = draw(leapers(dim=board.dim, max_component=2))
    closed = draw(st.booleans())
    cells = sorted(board.open_cells())
    start = draw(st.none() | st.sampled_from(cells))
    end = None if closed else draw(st.none() | st.sampled_from(cells))
    assume(start is None or start != end)
    return board, vector, closed, start, end


SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


@SETTINGS
@given(tour_cases())
def test_every_engine_agrees_with_brute_force(
    case: tuple[Board, tuple[int, ...], bool, Cell | None, Cell | None],
) -> None:
    board, vector, closed, start, end = case
    assert_engines_agree(board, vector, closed=closed, start=start, end=end)


@SETTINGS
@given(tour_cases())
def test_certificates_never_deny_a_tour_brute_force_finds(
    case: tuple[Board, tuple[int, ...], bool, Cell | None, Cell | None],
) -> None:
    board, vector, closed, start, end = case
    found = tour_certificate(
        move_graph(board, vector), closed=closed, start=start, end=end
    )
    if found is not None:
        assert not oracle_exists(board, vector, closed=closed, start=start, end=end)


@SETTINGS
@given(tour_cases())
def test_counts_equal_brute_force(
    case: tuple[Board, tuple[int, ...], bool, Cell | None, Cell | None],
) -> None:
    board, vector, closed, start, end = case
    tours = oracle_tours(board, vector, closed=closed, start=start, end=end)
    # directed: a closed tour counts once per direction (brute force lists it
    # once per direction from its first cell)
    want = len(tours)
    count = count_tours(
        board, piece=vector, closed=closed, start=start, end=end, options=OPTS
    )
    assert str(count.status) == "found"
    assert count.directed == want
    if want > LISTABLE:
        return  # counted above; listing them one by one would pass the limit
    listed = iter_tours(
        board, piece=vector, closed=closed, start=start, end=end, options=OPTS
    )
    assert sum(1 for _ in listed) == want


LISTABLE = 5_000
"""The most tours the property lists one by one within :data:`OPTS`' limit.

A board whose cells all see each other has factorially many tours (the (1,1)
leaper on a 1x3x3 torus: 8! = 40,320 closed ones from a cell), which the
search lists, each checked, in more than ten seconds: those are counted
against brute force but not listed."""


def test_listing_stops_at_the_limit_where_there_are_too_many() -> None:
    # The case above: counted exactly (the frontier program), and the listing
    # it skips would indeed pass the limit.
    board = Board.parse("1x3x3", topology="torus")
    assert len(oracle_tours(board, (1, 1), closed=True, start=None, end=None)) == (
        40_320
    )
    assert count_tours(board, piece=(1, 1), options=OPTS).directed == 40_320
    quick = SolveOptions(time_limit=0.5, workers=1, seed=0)
    with pytest.raises(SolveLimitError):
        for _ in iter_tours(board, piece=(1, 1), options=quick):
            pass


def test_the_engines_are_all_held_to_the_oracle() -> None:
    # a new tour engine joins the property above (tiles takes only big plain
    # boards, which brute force cannot reach)
    assert set(TOUR_METHODS) == {*PROVERS, "greedy", "tiles"}
