"""The search engines against the theorems, published counts and hand counts.

Sources of the expected answers:

- Closed tours, Schwenk 1991; open tours, Cull and De Curtins 1978 and Conrad
  et al. 1994: ``schwenk_closed`` and ``conrad_open`` in tests/conftest.py.
- Counts: 304 directed open tours of 5x5 from a corner, 1,728 from all starts
  (G. Jelliss, Knight's Tour Notes; OEIS A165134); 16 closed tours of 3x10
  (OEIS A070030); the 3x4 and 4x5 counts by a brute force in this file.
- A tour that is found is its own proof: every engine's answer goes through the
  checker, and these tests check it again with an independent leap test.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cpknight import Board, NoTourError, SolveLimitError, SolveOptions, Tour
from cpknight.api import (
    choose_tour_method,
    count_tours,
    find_tour,
    iter_tours,
    sweep,
    try_tour,
)
from cpknight.pieces import KNIGHT, MoveGraph, move_graph
from cpknight.runtime.progress import Progress
from cpknight.tours.instance import TourInstance
from cpknight.tours.search import (
    SearchExhaustedError,
    solve_backtrack,
    solve_greedy,
    solve_prune,
    solve_warnsdorff,
)
from tests.conftest import (
    boards,
    brute_neighbours,
    brute_tours,
    conrad_open,
    independent_tour_check,
    schwenk_closed,
)

ENGINES: dict[str, Callable[..., Tour]] = {
    "backtrack": solve_backtrack,
    "warnsdorff": solve_warnsdorff,
    "prune": solve_prune,
    "greedy": solve_greedy,
}
SEARCH = ("backtrack", "warnsdorff", "prune")


def run_engine(
    method: str,
    graph: MoveGraph,
    *,
    closed: bool,
    start: tuple[int, ...] | None,
    end: tuple[int, ...] | None = None,
    options: SolveOptions,
) -> Tour:
    """Call an engine directly (no certificates), its clock started here."""
    instance = TourInstance(
        graph.board, graph.piece, closed=closed, start=start, end=end
    )
    return ENGINES[method](instance, options.start())


def engine_outcome(
    method: str,
    board: Board,
    *,
    piece: str = "knight",
    closed: bool,
    start: tuple[int, ...] | None = None,
    end: tuple[int, ...] | None = None,
    limit: float = 0.3,
) -> Tour | str | None:
    """Call an engine directly (no certificates): a tour, None (proved), 'limit'."""
    graph = move_graph(board, piece)
    opts = SolveOptions(time_limit=limit)
    try:
        return run_engine(
            method, graph, closed=closed, start=start, end=end, options=opts
        )
    except NoTourError:
        return None
    except SolveLimitError:
        return "limit"


# ------------------------------------------------ existence on rectangles

RECTANGLES = [(m, n) for m in range(3, 9) for n in range(m, 9)]


@pytest.mark.parametrize("method", list(ENGINES))
@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_engines_agree_with_the_theorems(method: str, closed: bool) -> None:
    """Schwenk 1991 (closed) and Conrad et al. 1994 (open) on 3x3 .. 8x8.

    The search engines may reach their limit on some boards. Greedy makes one
    pass per board, so it answers every one in time: a (checked) tour, or
    "greedy gave up", which is a SolveLimitError and never a proof.
    """
    finished = 0
    gave_up = 0
    for m, n in RECTANGLES:
        board = Board((m, n))
        want = schwenk_closed(m, n) if closed else conrad_open(m, n)
        limit = 0.05 if method == "backtrack" and m * n > 25 else 0.2
        opts = SolveOptions(time_limit=limit)
        graph = move_graph(board)
        got: Tour | NoTourError | SolveLimitError
        try:
            got = run_engine(method, graph, closed=closed, start=None, options=opts)
        except (NoTourError, SolveLimitError) as err:
            got = err
        if isinstance(got, SolveLimitError):
            if method == "greedy":
                assert "greedy gave up" in str(got), f"{m}x{n}: {got}"
                gave_up += 1
            continue
        if isinstance(got, NoTourError):
            assert method != "greedy", "greedy must never claim a proof"
            assert not want, f"{m}x{n}: {method} proved none, the theorem has one"
            finished += 1
            continue
        finished += 1
        assert want, f"{m}x{n}: a tour the theorem forbids"
        assert independent_tour_check(board, (1, 2), got.cells, closed=closed)
    if method == "greedy":
        assert finished + gave_up == len(RECTANGLES)
    if method != "greedy" or not closed:
        assert finished >= 5
    # Greedy on closed boards closes a tour only by chance: no count is asserted.


@pytest.mark.parametrize("method", ["warnsdorff", "prune"])
@pytest.mark.parametrize(("m", "n"), [(m, n) for m, n in RECTANGLES if m >= 5])
def test_ordered_search_finds_every_open_tour(method: str, m: int, n: int) -> None:
    """Conrad et al. 1994: m x n with n >= m >= 5 has an open tour; found fast."""
    got = engine_outcome(method, Board((m, n)), closed=False, start=(0, 0), limit=2)
    assert isinstance(got, Tour)
    assert got.effort.backtracks == 0  # Warnsdorff's rule needs no backtrack here


@pytest.mark.parametrize(
    ("m", "n", "closed"),
    [(3, 5, False), (3, 6, False), (4, 4, False), (4, 5, True), (3, 4, True)],
    ids=["3x5-open", "3x6-open", "4x4-open", "4x5-closed", "3x4-closed"],
)
def test_prune_proves_the_small_impossible_boards(m: int, n: int, closed: bool) -> None:
    """Conrad et al. 1994 (open), Schwenk 1991 (closed): none; prune exhausts."""
    board = Board((m, n))
    for method in SEARCH:
        assert engine_outcome(method, board, closed=closed, limit=5) is None


@pytest.mark.parametrize("method", ["prune", "warnsdorff"])
def test_closed_8x8_by_restarts(method: str) -> None:
    """Schwenk 1991: 8x8 has a closed tour; the restarts find one in time."""
    got = engine_outcome(method, Board((8, 8)), closed=True, limit=10)
    assert isinstance(got, Tour)
    assert got.closed
    assert independent_tour_check(Board((8, 8)), (1, 2), got.cells, closed=True)


# ------------------------------------------------- every kind of board

EXOTIC = [
    ("5x5 torus closed", Board((5, 5), topology="torus"), "knight", True),
    ("5x6 cylinder closed", Board((5, 6), topology="cylinder"), "knight", True),
    ("2x3x4 box open", Board((2, 3, 4)), "knight", False),
    ("10x10 zebra open", Board((10, 10)), "zebra", False),
    ("5x5 torus camel closed", Board((5, 5), topology="torus"), "camel", True),
    ("7x7 torus zebra closed", Board((7, 7), topology="torus"), "zebra", True),
    ("ring10 closed", Board.parse("ring10"), "knight", True),
    ("frame9 open", Board.parse("frame9"), "knight", False),
    ("cross5 open", Board.parse("cross5"), "knight", False),
    ("blocks12 open", Board.parse("blocks12"), "knight", False),
]


@pytest.mark.parametrize(
    ("board", "piece", "closed"),
    [case[1:] for case in EXOTIC],
    ids=[case[0] for case in EXOTIC],
)
def test_prune_tours_every_kind_of_board(
    board: Board, piece: str, closed: bool
) -> None:
    """Tori, cylinders, 3D, other leapers, holes: a found tour proves itself."""
    got = engine_outcome("prune", board, piece=piece, closed=closed, limit=5)
    assert isinstance(got, Tour)
    vector = move_graph(board, piece).piece.vector
    assert independent_tour_check(board, vector, got.cells, closed=closed)


@pytest.mark.parametrize("method", SEARCH)
def test_fixed_start_and_end(method: str) -> None:
    """An 8x8 open tour a1 -> b1 exists (found: checked); a1 -> h8 does not.

    a1 and h8 have the same colour and 64 is even, so no open tour joins them.
    """
    board = Board((8, 8))
    got = engine_outcome(method, board, closed=False, start=(0, 0), end=(0, 1))
    if method != "backtrack":
        assert isinstance(got, Tour)
    if isinstance(got, Tour):
        assert got.start == (0, 0)
        assert got.end == (0, 1)
    with pytest.raises(NoTourError):
        find_tour(board, closed=False, start="a1", end="h8", method=method)


def test_end_without_start_searches_backwards() -> None:
    t = find_tour("5x5", closed=False, end="c3", method="prune")
    assert t.end == (2, 2)
    assert len(t) == 25


def test_tiny_boards() -> None:
    for method in ENGINES:
        assert find_tour("1x1", closed=False, method=method).cells == ((0, 0),)
        assert engine_outcome(method, Board((1, 1)), closed=True) is None


def test_cpsat_agrees_on_existence() -> None:
    """The search and CP-SAT agree (both finish)."""
    opts = SolveOptions(time_limit=10, workers=1, seed=0)
    for board, closed in [("holed8", False), ("6x6", True), ("4x5", True)]:
        a = try_tour(board, closed=closed, method="prune", options=opts)
        b = try_tour(board, closed=closed, method="cpsat", options=opts)
        assert a.status == b.status != "unknown", board


# ------------------------------------------------------------ greedy


def test_greedy_failing_proves_nothing() -> None:
    """6x6 has closed tours (Schwenk); greedy's pass misses: a limit, not a proof."""
    with pytest.raises(SolveLimitError, match="greedy gave up") as info:
        find_tour("6x6", closed=True, method="greedy")
    assert not isinstance(info.value, NoTourError)
    assert info.value.effort.as_dict() == {"attempts": 35, "backtracks": 0}


def test_greedy_tours_a_large_board() -> None:
    t = find_tour("100x100", closed=False, start="a1", method="greedy")
    assert len(t) == 10_000
    assert t.effort.backtracks == 0


# ------------------------------------------------------------- counts


def brute_count(m: int, n: int, *, closed: bool) -> int:
    """Directed tours of an m x n knight graph by the tests' own search."""
    nbrs = brute_neighbours(Board((m, n)), (1, 2))
    return sum(1 for _ in brute_tours(nbrs, closed=closed))


@pytest.mark.parametrize("method", SEARCH)
def test_counts_3x4_by_brute_force(method: str) -> None:
    want = brute_count(3, 4, closed=False)
    tours = list(iter_tours("3x4", closed=False, method=method))
    assert len(tours) == want
    assert len({t.cells for t in tours}) == want


def test_count_5x5_from_a_corner() -> None:
    """304 directed open tours of 5x5 from a1 (Jelliss; OEIS A165134 has 1,728)."""
    assert sum(1 for _ in iter_tours("5x5", closed=False, start="a1")) == 304


def test_count_5x5_all_starts() -> None:
    """OEIS A165134: 1,728 directed open tours of 5x5."""
    assert sum(1 for _ in iter_tours("5x5", closed=False)) == 1728


def test_count_3x10_closed() -> None:
    """OEIS A070030: 16 closed tours of 3x10, listed once per direction."""
    tours = list(iter_tours("3x10", closed=True))
    assert len(tours) == 32
    assert len({frozenset(zip(t.cells, t.cells[1:] + t.cells[:1], strict=True))
                for t in tours}) == 32  # fmt: skip


def test_counts_4x5_match_brute_force_and_cpsat() -> None:
    want = brute_count(4, 5, closed=False)
    assert sum(1 for _ in iter_tours("4x5", closed=False)) == want
    got = count_tours(
        "4x5", closed=False, options=SolveOptions(time_limit=20), method="cpsat"
    )
    assert got.directed == want


def test_iter_tours_refuses_greedy_and_yields_nothing_when_none() -> None:
    with pytest.raises(ValueError, match="search method"):
        next(iter_tours("5x5", method="greedy"))
    assert list(iter_tours("4x4", closed=True)) == []


# ------------------------------------------------------ exact effort


def test_effort_by_hand_wazir_1x4() -> None:
    """The wazir on 1x4 is the path a1-b1-c1-d1; its move order is (1,0), (0,1),
    (0,-1), (-1,0), so from b1 the search tries c1 before a1.

    backtrack from b1: b1->c1, c1->d1 (stuck, 2 of 4), undo d1, undo c1,
    b1->a1 (stuck), undo a1: 3 attempts, 3 backtracks, proved none.
    From a1: a1->b1->c1->d1 at once: 3 attempts, 0 backtracks.
    prune from b1: a1 and d1 each have one usable neighbour and an open tour
    has one last cell: cut at the root, 0 attempts.
    """
    board = Board((1, 4))
    graph = move_graph(board, "wazir")
    opts = SolveOptions()

    def run(method: str, start: tuple[int, ...]) -> Tour:
        return run_engine(method, graph, closed=False, start=start, options=opts)

    with pytest.raises(SearchExhaustedError) as info:
        run("backtrack", (0, 1))
    assert info.value.effort.as_dict() == {"attempts": 3, "backtracks": 3}
    assert run("backtrack", (0, 0)).effort.as_dict() == {
        "attempts": 3,
        "backtracks": 0,
    }
    with pytest.raises(SearchExhaustedError) as info:
        run("prune", (0, 1))
    assert info.value.effort.as_dict() == {"attempts": 0, "backtracks": 0}


def test_effort_balances_on_success() -> None:
    """On the first tour found, attempts - backtracks = the moves of the tour."""
    for method in SEARCH:
        t = find_tour("3x4", closed=False, start="a1", method=method)
        assert t.effort.attempts is not None
        assert t.effort.backtracks is not None
        assert t.effort.attempts - t.effort.backtracks == 11


# -------------------------------------------------------- time limit

HARD = [
    ("backtrack", Board((8, 8)), True),
    ("warnsdorff", Board((16, 16)), True),
    ("prune", Board((7, 7)), True),  # none (odd cells), but no cheap cut finds it
    # 600x600: about 0.7 s unhindered, 0.1 s of it set-up before the first step
    ("greedy", Board((600, 600)), False),
]


@pytest.mark.parametrize(
    ("method", "board", "closed"), HARD, ids=[case[0] for case in HARD]
)
def test_time_limit_stops_each_engine(method: str, board: Board, closed: bool) -> None:
    graph = move_graph(board)
    opts = SolveOptions(time_limit=0.2)
    began = time.perf_counter()
    with pytest.raises(SolveLimitError) as info:
        run_engine(method, graph, closed=closed, start=(0, 0), options=opts)
    assert time.perf_counter() - began < 0.5
    assert info.value.effort.as_dict()["attempts"] > 0


# ------------------------------------------------------------ sweep


def test_sweep_5x5_open_starts_on_even_cells() -> None:
    """5x5 has 13 cells with row + col even and 12 odd; the knight alternates, so
    a 25-cell path starts and ends on the 13 (none from an odd cell); from each
    even cell a tour is found (checked)."""
    result = sweep("5x5", closed=False, method="prune")
    for item in result.cells:
        even = sum(item.cell) % 2 == 0
        assert item.status == ("found" if even else "infeasible"), item.cell
    assert result.counts() == {"found": 13, "infeasible": 12, "unknown": 0}


def test_sweep_in_worker_processes_matches() -> None:
    one = sweep("3x4", closed=False, method="prune")
    two = sweep("3x4", closed=False, method="prune", jobs=2)
    assert [c.status for c in one.cells] == [c.status for c in two.cells]
    seen: list[float] = []

    def heard(p: Progress) -> None:
        seen.append(p.done)

    sweep("3x4", closed=False, method="prune", progress=heard)
    assert seen == list(range(1, 13))


def test_sweep_reports_unknown_cells() -> None:
    result = sweep(
        "6x6",
        closed=True,
        method="backtrack",
        options=SolveOptions(time_limit=0.02),
    )
    assert result.counts()["unknown"] >= 1


# ------------------------------------------------------------- auto


def test_auto_picks_by_the_measured_rule() -> None:
    """benchmarks/auto.py: prune on plain boards, greedy on huge open ones,
    the race of prune and CP-SAT on boards with blocked cells."""
    plain = Board((8, 8))
    assert choose_tour_method(TourInstance(plain, KNIGHT)).method == "prune"
    from_a1 = TourInstance(plain, KNIGHT, closed=False, start=(0, 0))
    assert choose_tour_method(from_a1).method == "prune"
    huge = TourInstance(Board((250, 250), topology="torus"), KNIGHT, closed=False)
    assert choose_tour_method(huge).method == "greedy"
    holed = TourInstance(Board.parse("holed8"), KNIGHT, closed=False)
    assert choose_tour_method(holed).method == "race"
    assert find_tour("6x6", closed=True, method="auto").method == "prune"


@pytest.mark.slow
def test_count_6x6_closed() -> None:
    """OEIS A001230: 9,862 closed tours of 6x6, listed once per direction."""
    assert sum(1 for _ in iter_tours("6x6", closed=True)) == 2 * 9862


# ----------------------------------------------- random small boards


@given(
    board=boards(dims=(2, 3), max_side=4),
    vector=st.sampled_from([(1, 2), (0, 1), (1, 1), (1, 3), (2, 3)]),
    closed=st.booleans(),
    data=st.data(),
)
def test_prune_and_backtrack_match_brute_force(
    board: Board, vector: tuple[int, ...], closed: bool, data: st.DataObject
) -> None:
    """Random boxes, holes, tori, cylinders and leapers up to 4x4 (or 4x4x4 with
    at most 12 open cells): existence by the engines equals a brute force."""
    nbrs = brute_neighbours(board, vector)
    assume(0 < len(nbrs) <= 12)
    start = data.draw(st.sampled_from([None, *sorted(nbrs)]))
    want = next(brute_tours(nbrs, closed=closed, start=start), None) is not None
    piece = ",".join(map(str, vector))
    for method in ("prune", "backtrack", "warnsdorff"):
        got = engine_outcome(
            method, board, piece=piece, closed=closed, start=start, limit=5
        )
        assert got != "limit"
        assert isinstance(got, Tour) == want, (method, board, vector, start)
