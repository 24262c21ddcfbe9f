"""The one tour checker: published and hand-searched tours, and every fault named."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cpknight import Board, EngineError, TourCheckError, check_tour, is_tour
from cpknight.board import Topology
from cpknight.checks import make_tour
from cpknight.pieces import KNIGHT
from cpknight.status import Effort
from tests.conftest import independent_tour_check, is_leap, knight_tour_by_search

# An open knight tour of the 3x4 board (files a-d, ranks 1-3); 3x4 has open
# tours but no closed one (Schwenk 1991: no closed tour when m = 3 and n = 4).
TOUR_3X4 = ["a1", "c2", "a3", "b1", "d2", "b3", "c1", "a2", "c3", "d1", "b2", "d3"]


def test_published_3x4_open_tour() -> None:
    board = Board.parse("3x4")
    cells = [board.parse_cell(name) for name in TOUR_3X4]
    assert independent_tour_check(board, (1, 2), cells, closed=False)
    check_tour(board, TOUR_3X4, closed=False)
    assert is_tour(board, TOUR_3X4, closed=False)
    assert is_tour(board, cells, closed=False)
    assert is_tour(board, np.array(cells), closed=False)
    assert is_tour(board, TOUR_3X4[::-1], closed=False)
    assert is_tour(board, TOUR_3X4, start="a1", end="d3", closed=False)
    assert not is_tour(board, TOUR_3X4, closed=True)


@pytest.mark.parametrize(
    ("spec", "topology", "closed"),
    [
        ("5x5", "bounded", False),
        ("cross5", "bounded", False),
        ("6x6", "bounded", True),
        ("8x8", "bounded", True),
        ("3x10", "bounded", True),
        ("5x5", "torus", True),
        ("3x4x4", "bounded", False),
        ("2x3x4", "bounded", False),
    ],
)
def test_searched_tours_pass(spec: str, topology: Topology, closed: bool) -> None:
    board = Board.parse(spec, topology=topology)
    cells = knight_tour_by_search(board, closed=closed, budget=20_000)
    assert independent_tour_check(board, (1, 2), cells, closed=closed)
    check_tour(board, cells, closed=closed)
    if closed:
        # a closed tour read from any cell, either way round, is still closed
        rotated = cells[7:] + cells[:7]
        assert is_tour(board, rotated, closed=True)
        assert is_tour(board, rotated[::-1], closed=True)
    # swapping two cells breaks a step; the checker names the first bad one
    broken = cells.copy()
    broken[3], broken[9] = broken[9], broken[3]
    with pytest.raises(TourCheckError) as info:
        check_tour(board, broken, closed=closed)
    bad = next(
        i
        for i in range(len(broken) - 1)
        if not is_leap(board, (1, 2), broken[i], broken[i + 1])
    )
    assert info.value.step == bad + 1
    assert str(info.value).startswith(f"step {bad + 1} -> {bad + 2} (")
    assert str(info.value).endswith("is not a knight (1,2) move")


def test_torus_tour_is_not_a_board_tour() -> None:
    torus = Board.parse("5x5", topology="torus")
    cells = knight_tour_by_search(torus, closed=True, budget=20_000)
    bounded = Board.parse("5x5")
    uses_wrap = not independent_tour_check(bounded, (1, 2), cells, closed=True)
    assert is_tour(bounded, cells, closed=True) is not uses_wrap


@pytest.mark.parametrize(
    ("cells", "kwargs", "step", "message"),
    [
        (
            ["a1", "b3", "c1", "a2", "c3", "d1", "b2", "d3", "c1", "a3", "b1", "d2"],
            {},
            8,
            "cell 9 (c1) was already visited at step 3",
        ),
        (
            ["a1", "c2", "a3", "b1", "d2", "b3", "c1", "a2", "c3", "d1", "d3", "b2"],
            {},
            10,
            "step 10 -> 11 (d1 -> d3) is not a knight (1,2) move",
        ),
        (
            ["a1", "c2", "a3", "e1"],
            {},
            3,
            "cell 4 (0,4) is not on board 3x4",
        ),
        (
            ["a1", "c2", "a3"],
            {},
            None,
            "the tour has 3 cells; board 3x4 has 12 open cells",
        ),
        ([], {}, None, "the tour is empty"),
        (TOUR_3X4, {"start": "d3"}, 0, "the tour starts on a1, not d3"),
        (TOUR_3X4, {"end": "a1"}, 11, "the tour ends on d3, not a1"),
        (
            TOUR_3X4,
            {"closed": True},
            12,
            "the tour is not closed: d3 -> a1 is not a knight (1,2) move",
        ),
        (
            ["a1", "zz"],
            {},
            1,
            "cell 2 ('zz') is not a cell name or coordinates",
        ),
        (
            ["a1", "0,1,2"],
            {},
            1,
            "cell 2 ('0,1,2') has 3 coordinates; board 3x4 has 2",
        ),
    ],
)
def test_faults_are_named(
    cells: list[str], kwargs: dict[str, object], step: int | None, message: str
) -> None:
    board = Board.parse("3x4")
    with pytest.raises(TourCheckError) as info:
        check_tour(board, cells, **kwargs)  # type: ignore[arg-type]
    assert str(info.value) == message
    assert info.value.step == step
    assert not is_tour(board, cells, **kwargs)  # type: ignore[arg-type]


def test_blocked_cell_is_named() -> None:
    with pytest.raises(TourCheckError) as info:
        check_tour(Board.parse("cross5"), ["a1", "c3"], closed=False)
    assert str(info.value) == "cell 2 (c3) is blocked"
    assert info.value.step == 1


def test_tiny_boards() -> None:
    one = Board.parse("1x1")
    check_tour(one, ["a1"], closed=False)
    with pytest.raises(TourCheckError) as info:
        check_tour(one, ["a1"], closed=True)
    assert str(info.value) == "a closed tour needs at least 3 cells; this one has 1"
    assert not is_tour(Board.parse("2x2"), ["a1", "b2", "a2", "b1"], closed=False)


def test_array_shape_is_checked() -> None:
    with pytest.raises(TourCheckError) as info:
        check_tour(Board.parse("3x4"), np.zeros((12, 3), dtype=np.int64), closed=False)
    assert str(info.value) == "expected an (n, 2) array of cells, got shape (12, 3)"


def test_other_leapers() -> None:
    # The wazir (0,1) walks a 2x3 board as a boustrophedon: a1 b1 c1 c2 b2 a2.
    board = Board.parse("2x3")
    snake = ["a1", "b1", "c1", "c2", "b2", "a2"]
    assert is_tour(board, snake, piece="wazir", closed=False)
    assert is_tour(board, snake, piece="wazir", closed=True)
    assert not is_tour(board, snake, piece=KNIGHT, closed=False)
    with pytest.raises(TourCheckError) as info:
        check_tour(board, snake, closed=False)  # the default piece is the knight
    assert str(info.value) == "step 1 -> 2 (a1 -> b1) is not a knight (1,2) move"


def test_make_tour_refuses_a_bad_tour() -> None:
    board = Board.parse("3x4")
    cells = [board.parse_cell(c) for c in TOUR_3X4]
    tour = make_tour(
        board, KNIGHT, cells, closed=False, method="hand", effort=Effort(1)
    )
    assert tour.names() == TOUR_3X4
    assert tour.start == (0, 0)
    assert tour.end == (2, 3)
    assert len(tour) == 12
    assert not tour.array.flags.writeable
    with pytest.raises(EngineError) as info:
        make_tour(board, KNIGHT, cells, closed=True, method="hand")
    assert str(info.value) == (
        "internal error: engine 'hand' returned a bad tour: the tour is not closed: "
        "d3 -> a1 is not a knight (1,2) move"
    )


@pytest.mark.parametrize(
    ("spec", "topology", "closed"),
    [
        ("6x6", "bounded", True),
        ("cross5", "bounded", False),
        ("5x5", "torus", True),
        ("3x4x4", "bounded", False),
    ],
)
@pytest.mark.parametrize("chunk", [1, 3, 16])
def test_blockwise_walk_check_agrees_with_the_first_fault_finder(
    spec: str, topology: Topology, closed: bool, chunk: int
) -> None:
    # The cache-sized pass that huge tours take (_clean_walk) must accept
    # exactly the walks the detailed checker (_first_fault) accepts: good
    # tours, and the same tours broken in every way the checker names, with
    # the fault before, on and after the block borders.
    from cpknight.checks import _clean_walk, _first_fault
    from tests.conftest import brute_open_cells

    board = Board.parse(spec, topology=topology)
    good = np.array(knight_tour_by_search(board, closed=closed, budget=20_000))
    rng = np.random.default_rng(1)
    walks = [good, good[::-1], good[:-1], good[:1]]
    for _ in range(40):
        walk = good.copy()
        i, j = rng.integers(0, len(walk), 2)
        kind = rng.integers(0, 4)
        if kind == 0:
            walk[[i, j]] = walk[[j, i]]  # two cells swapped: bad steps
        elif kind == 1:
            walk[i] = walk[j]  # a repeat (unless i == j)
        elif kind == 2:
            walk[i, rng.integers(0, board.dim)] = rng.choice([-1, max(board.shape)])
        else:
            walk = np.concatenate([walk, walk[i : i + 1]])  # one cell more
        walks.append(walk)
    if board.blocked:
        walk = good.copy()
        walk[5] = sorted(board.blocked)[0]
        walks.append(walk)
    open_cells = set(brute_open_cells(board))
    verdicts = set()
    for walk in walks:
        cells = [tuple(c) for c in walk.tolist()]
        # the tests' own verdict: open cells, none twice, every step a leap
        expected = (
            set(cells) <= open_cells
            and len(set(cells)) == len(cells)
            and all(is_leap(board, (1, 2), a, b) for a, b in itertools.pairwise(cells))
        )
        try:
            _first_fault(board, KNIGHT, walk)
            assert expected
        except TourCheckError:
            assert not expected
        assert _clean_walk(board, KNIGHT, walk, chunk=chunk) is expected
        verdicts.add(expected)
    assert verdicts == {True, False}


def test_huge_tours_name_their_first_fault_past_the_first_block() -> None:
    # A tour long enough for the blockwise pass, broken far from its start:
    # the message is the detailed checker's, with the step counted from 1.
    from cpknight.checks import WALK_CHUNK
    from cpknight.tiling import tile_tour

    board = Board((200, 200))
    assert board.n_open > WALK_CHUNK
    tour = tile_tour(board, closed=True).array.copy()
    check_tour(board, tour, closed=True)
    late = WALK_CHUNK + 5
    broken = tour.copy()
    broken[late] = broken[3]
    with pytest.raises(TourCheckError) as info:
        check_tour(board, broken, closed=True)
    assert info.value.step == late
    assert str(info.value).startswith(f"cell {late + 1} (")
    assert str(info.value).endswith("was already visited at step 4")
    broken = tour.copy()
    broken[late, 1] = 200
    with pytest.raises(TourCheckError) as info:
        check_tour(board, broken, closed=False)
    assert (
        str(info.value)
        == f"cell {late + 1} ({broken[late, 0]},200) is not on board 200x200"
    )


def test_make_tour_keeps_only_arrays_nothing_can_write_to() -> None:
    # A read-only int64 array that owns its memory is kept (no copy of a huge
    # tour); anything else is copied, so the engine's array can change later
    # without changing the tour.
    board = Board.parse("3x4")
    cells = np.array([board.parse_cell(name) for name in TOUR_3X4], dtype=np.int64)
    copied = make_tour(board, KNIGHT, cells, closed=False, method="hand")
    assert not np.shares_memory(copied.array, cells)
    cells[0] = cells[1]
    assert copied.array[0].tolist() == [0, 0]
    cells[0] = (0, 0)
    cells.setflags(write=False)
    kept = make_tour(board, KNIGHT, cells, closed=False, method="hand")
    assert kept.array is cells
    with pytest.raises(EngineError):
        make_tour(board, KNIGHT, cells[::-1][1:], closed=False, method="hand")


def test_the_checker_holds_a_tour_to_its_side_constraints() -> None:
    # one checker for engines (make_tour), `cpknight check` and /api/check
    from cpknight.constraints import tour_constraints
    from tests.test_record_certificates import MAGIC_8X10

    board = Board.parse("8x10")
    magic = tour_constraints(board, magic=True)
    check_tour(board, MAGIC_8X10, constraints=magic)  # the recovered magic tour
    moved = MAGIC_8X10[1:] + MAGIC_8X10[:1]  # the same tour from its second cell
    check_tour(board, moved)
    with pytest.raises(TourCheckError, match="the tour is not magic"):
        check_tour(board, moved, constraints=magic)
    # a broken tour is reported as such before any constraint is looked at
    with pytest.raises(TourCheckError, match="not a knight"):
        check_tour(
            board, MAGIC_8X10[:2] + MAGIC_8X10[3:] + [MAGIC_8X10[2]], constraints=magic
        )
