"""Both ends fixed anywhere, and closed tours through a given move, on tiled boards.

Every tour goes through the one checker (``make_tour``, or ``check_tour`` for
the kernel's flat cells); its ends and required moves are asserted here again
by reading the cells' places off the tour, independently of the engine.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cpknight import (
    KNIGHT,
    Board,
    NoTourError,
    SolveLimitError,
    SolveOptions,
    check_tour,
    find_tour,
    tiling,
    tour_constraints,
)
from cpknight.cli import main
from cpknight.tiling.chain import chain_tour
from cpknight.tours.instance import TourInstance

OPTIONS = SolveOptions(time_limit=60, workers=1, seed=0)
KNIGHT_STEPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]

Cell = tuple[int, int]


def _colour_fixed(m: int, n: int, start: Cell, end: Cell) -> tuple[Cell, Cell]:
    """Move the ends to cells colour allows (a knight's tour alternates colours).

    Even number of cells: ends of opposite colours. Odd: both on the colour
    with more cells (even row + col).
    """

    def even(cell: Cell) -> Cell:
        r, c = cell
        return cell if (r + c) % 2 == 0 else (r, c - 1 if c else c + 1)

    if m * n % 2:
        return even(start), even(end)
    if (sum(start) + sum(end)) % 2 == 0:
        r, c = end
        end = (r, c - 1 if c else c + 1)
    return start, end


def _uses(cells: np.ndarray, a: Cell, b: Cell, *, closed: bool) -> bool:
    """Whether a and b are consecutive in the tour (or first and last, closed)."""
    rows = [tuple(x) for x in cells.tolist()]
    i, j = rows.index(a), rows.index(b)
    return abs(i - j) == 1 or (closed and {i, j} == {0, len(rows) - 1})


def _check_kernel(m: int, n: int, start: Cell, end: Cell) -> None:
    board = Board((m, n))
    flat = chain_tour(board, start, end, OPTIONS.start())
    cells = np.stack(np.divmod(flat, n), axis=1)
    check_tour(board, cells, closed=False, start=start, end=end)
    assert tuple(cells[0]) == start
    assert tuple(cells[-1]) == end
    assert len(np.unique(flat)) == m * n


@given(
    st.integers(12, 40),
    st.integers(12, 40),
    st.tuples(st.floats(0, 1, exclude_max=True), st.floats(0, 1, exclude_max=True)),
    st.tuples(st.floats(0, 1, exclude_max=True), st.floats(0, 1, exclude_max=True)),
)
def test_chain_joins_any_two_cells(
    m: int, n: int, a: tuple[float, float], b: tuple[float, float]
) -> None:
    start = (int(a[0] * m), int(a[1] * n))
    end = (int(b[0] * m), int(b[1] * n))
    start, end = _colour_fixed(m, n, start, end)
    assume(start != end)
    _check_kernel(m, n, start, end)


@pytest.mark.parametrize(
    ("shape", "start", "end"),
    [
        ((40, 40), (0, 0), (39, 38)),  # opposite corners
        ((40, 40), (39, 0), (0, 38)),  # the other diagonal, upwards
        ((40, 40), (3, 3), (4, 5)),  # one move apart, in one tile
        ((40, 40), (7, 7), (8, 9)),  # one move apart, across a tile border
        ((40, 40), (0, 20), (0, 21)),  # the bottom edge, neighbours
        ((40, 40), (20, 39), (20, 0)),  # right edge to left edge
        ((40, 40), (39, 1), (0, 39)),  # top edge to bottom edge
        ((41, 41), (0, 0), (40, 40)),  # odd x odd: both ends on the majority colour
        ((41, 41), (40, 0), (0, 40)),
        ((41, 43), (20, 20), (20, 22)),  # odd, in one tile
        ((37, 50), (36, 49), (0, 0)),  # odd x even, downwards and leftwards
        ((12, 12), (0, 0), (11, 10)),  # the smallest layout: 2 x 2 tiles
        ((13, 13), (0, 0), (12, 12)),
        # The ends are the two cells of a structure move of their tile that
        # the first-column joins need: the rows join down the last column.
        ((32, 16), (14, 3), (15, 1)),
    ],
)
def test_chain_edge_cases(shape: tuple[int, int], start: Cell, end: Cell) -> None:
    _check_kernel(*shape, start, end)


@given(
    st.integers(12, 60),
    st.integers(12, 60),
    st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)),
    st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)),
)
def test_find_tour_fixes_both_ends(
    m: int, n: int, a: tuple[int, int], b: tuple[int, int]
) -> None:
    start, end = _colour_fixed(m, n, (a[0] % m, a[1] % n), (b[0] % m, b[1] % n))
    assume(start != end)
    tour = find_tour(Board((m, n)), closed=False, start=start, end=end, options=OPTIONS)
    assert tour.method == "tiles"  # auto picks the tiles (both sides 12 or more)
    assert (tour.cells[0], tour.cells[-1]) == (start, end)


@given(
    st.integers(12, 70),
    st.integers(12, 70),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.sampled_from(KNIGHT_STEPS),
)
def test_closed_tour_through_a_required_move(
    m: int, n: int, r: int, c: int, step: tuple[int, int]
) -> None:
    assume(m % 2 == 0 or n % 2 == 0)  # closed tours need an even side (Schwenk)
    a = (r % m, c % n)
    b = (a[0] + step[0], a[1] + step[1])
    assume(0 <= b[0] < m and 0 <= b[1] < n)
    board = Board((m, n))
    name = board.cell_name
    side = tour_constraints(board, require=[f"{name(a)}-{name(b)}"])
    tour = find_tour(board, closed=True, constraints=side, options=OPTIONS)
    assert tour.method == "tiles"
    assert _uses(tour.array, a, b, closed=True)


def test_several_required_moves_and_fixed_ends() -> None:
    board = Board((50, 60))
    moves = [((10, 10), (12, 11)), ((30, 40), (31, 42)), ((49, 0), (47, 1))]
    side = tour_constraints(
        board, require=[f"{board.cell_name(a)}-{board.cell_name(b)}" for a, b in moves]
    )
    for closed, start, end in [(True, None, None), (False, (0, 0), (49, 58))]:
        tour = find_tour(
            board,
            closed=closed,
            start=start,
            end=end,
            constraints=side,
            method="tiles",
            options=OPTIONS,
        )
        for a, b in moves:
            assert _uses(tour.array, a, b, closed=closed)
        if start is not None:
            assert (tour.cells[0], tour.cells[-1]) == (start, end)


def test_auto_sends_required_moves_to_the_tiles_only_alone() -> None:
    board = Board((100, 100))
    both = tour_constraints(board, require=["a1-b3"], forbid=["c1-d3"])
    alone = tour_constraints(board, require=["a1-b3"])
    assert not tiling.takes(TourInstance(board, KNIGHT, closed=True, constraints=both))
    assert tiling.takes(TourInstance(board, KNIGHT, closed=True, constraints=alone))


@pytest.mark.parametrize(
    ("shape", "start", "end", "reason"),
    [
        ((60, 60), (0, 0), (2, 2), "same colour"),  # every move changes colour
        ((61, 61), (0, 1), (60, 60), "colour with more cells"),
        ((61, 61), (0, 0), (59, 60), "colour with more cells"),
    ],
)
def test_colour_forbids(
    shape: tuple[int, int], start: Cell, end: Cell, reason: str
) -> None:
    with pytest.raises(NoTourError, match=reason):
        find_tour(Board(shape), closed=False, start=start, end=end, method="tiles")


def test_cli_colour_error_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tour", "100x100", "--open", "--start", "a1", "--end", "2,2"])
    assert code == 1
    assert "same colour" in capsys.readouterr().out  # proved none: an answer


@pytest.mark.slow
@pytest.mark.parametrize("side", [101, 120])
def test_random_ends_and_moves_on_larger_boards(side: int) -> None:
    rng = np.random.default_rng(side)
    board = Board((side, side))
    for _ in range(20):
        start, end = _colour_fixed(
            side,
            side,
            (int(rng.integers(side)), int(rng.integers(side))),
            (int(rng.integers(side)), int(rng.integers(side))),
        )
        if start == end:
            continue
        _check_kernel(side, side, start, end)
    if side % 2 == 0:
        for _ in range(10):
            a = (int(rng.integers(2, side - 2)), int(rng.integers(2, side - 2)))
            dr, dc = KNIGHT_STEPS[int(rng.integers(8))]
            b = (a[0] + dr, a[1] + dc)
            name = board.cell_name
            side_c = tour_constraints(board, require=[f"{name(a)}-{name(b)}"])
            tour = find_tour(board, closed=True, constraints=side_c, options=OPTIONS)
            assert _uses(tour.array, a, b, closed=True)


@pytest.mark.slow
def test_huge_boards() -> None:
    _check_kernel(1000, 1000, (0, 0), (999, 998))
    _check_kernel(999, 999, (998, 0), (0, 998))


def test_time_limit_is_honoured() -> None:
    options = SolveOptions(time_limit=0.05)
    with pytest.raises(SolveLimitError, match=r"time limit of .* was reached"):
        find_tour(
            "3000x3000",
            closed=False,
            start=(0, 0),
            end=(2999, 2998),
            method="tiles",
            options=options,
        )


@pytest.mark.parametrize(
    ("h", "w", "entry", "exit_", "moves"),
    [
        (8, 8, (3, 0), (3, 7), (0, 2)),
        (6, 7, (2, 2), (0, 1), (2,)),
        (6, 7, (3, 5), (0, 1), (2,)),  # none: both methods must prove it
        (11, 11, (0, 0), (10, 10), (0, 1, 2, 3)),
    ],
)
def test_port_paths_by_search_and_by_cp_sat_agree(
    monkeypatch: pytest.MonkeyPatch,
    h: int,
    w: int,
    entry: Cell,
    exit_: Cell,
    moves: tuple[int, ...],
) -> None:
    from cpknight.tiling import chain
    from cpknight.tiling.build import structure_moves

    def path(seconds: float) -> tuple[int, ...] | None:
        monkeypatch.setattr(chain, "_SEARCH_SECONDS", seconds)
        return chain.port_path(
            h,
            w,
            entry[0] * w + entry[1],
            exit_[0] * w + exit_[1],
            moves,
            OPTIONS.start(),
        )

    by_search, by_cpsat = path(1.0), path(0.0)  # 0 s: the search gives up at once
    assert (by_search is None) == (by_cpsat is None)
    for found in (by_search, by_cpsat):
        if found is None:
            continue
        cells = [divmod(u, w) for u in found]
        check_tour(Board((h, w)), cells, closed=False, start=entry, end=exit_)
        for x in moves:
            a, b = structure_moves(h, w)[x]
            assert _uses(np.array(cells), (a[0], a[1]), (b[0], b[1]), closed=False)


def test_repair_of_near_ends_still_answers() -> None:
    # The fallback when no chain is found: a tiled closed tour repaired in one
    # window around both ends.
    from cpknight.tiling import tile_tour
    from cpknight.tiling.repair import ends_fixed

    board = Board((60, 60))
    cycle = tile_tour(board).array @ np.array([60, 1])
    for start, end in [((30, 30), (31, 32)), ((0, 0), (5, 8))]:
        flat = ends_fixed(board, cycle, start, end, OPTIONS.start())
        cells = np.stack(np.divmod(flat, 60), axis=1)
        check_tour(board, cells, closed=False, start=start, end=end)


def test_required_moves_on_an_odd_board_keep_the_ends() -> None:
    # Odd x odd: no closed tour (Schwenk 1991); an open tour through the moves,
    # its ends (both on the majority colour) kept by the repair.
    board = Board((51, 51))
    moves = [((25, 25), (27, 26)), ((1, 1), (3, 0))]
    side = tour_constraints(
        board, require=[f"{board.cell_name(a)}-{board.cell_name(b)}" for a, b in moves]
    )
    tour = find_tour(
        board,
        closed=False,
        start=(0, 0),
        end=(50, 48),
        constraints=side,
        options=OPTIONS,
    )
    assert tour.method == "tiles"
    assert (tour.cells[0], tour.cells[-1]) == ((0, 0), (50, 48))
    for a, b in moves:
        assert _uses(tour.array, a, b, closed=False)
