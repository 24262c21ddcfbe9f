"""Huge tours made and written fast, and the same: the numpy paths held to the old.

The tiled tour's rows and columns (``expand_pairs``, one array of the board's
size) against the flat cells of ``expand``; the walk's order by pointer
jumping (``follow``) against the plain walk one entry at a time; the tour
file's lines (``Board.cell_line_blocks``) byte for byte against each cell's
own name (``Board.cell_name``); every tour through
``check_tour`` and a few lines of numpy that share no code with it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from cpknight.board import Board
from cpknight.checks import check_tour
from cpknight.io import (
    read_tour_file,
    tour_file_text,
    write_tour_file,
)
from cpknight.tiling import join as tiling_join
from cpknight.tiling import tile_tour
from cpknight.tiling import tiles as tiling_tiles
from cpknight.tiling.layout import layouts
from cpknight.tours.existence import closed_tour_exists


def knight_walk(cells: np.ndarray, m: int, n: int, *, closed: bool) -> bool:
    """Every cell once, every step (and the closing one) a knight's move."""
    if len(cells) != m * n or cells.min() < 0:
        return False
    if cells[:, 0].max() >= m or cells[:, 1].max() >= n:
        return False
    if len(np.unique(cells[:, 0] * n + cells[:, 1])) != m * n:
        return False
    walk = np.vstack([cells, cells[:1]]) if closed else cells
    step = np.abs(np.diff(walk, axis=0))
    return bool(np.all(np.sort(step, axis=1) == [1, 2]))


BOARDS = [
    (12, 12, None),
    (30, 40, None),
    (101, 99, None),
    (25, 27, (12, 14)),
    (60, 90, (7, 3)),
    (333, 100, None),
    (1000, 1000, None),
]


@pytest.mark.parametrize(
    ("m", "n", "start"), BOARDS, ids=[f"{m}x{n}" for m, n, _ in BOARDS]
)
def test_tiled_rows_and_columns_are_the_flat_cells(
    m: int, n: int, start: tuple[int, int] | None
) -> None:
    closed = closed_tour_exists(m, n)
    layout = layouts(m, n, closed=closed, start=None if closed else start)[0]
    flat = tiling_tiles._assemble(m, n, layout, run=None)
    pairs = tiling_tiles._assemble(m, n, layout, run=None, pairs=True)
    assert pairs.shape == (m * n, 2)
    assert pairs.dtype == np.int64
    assert pairs.flags.c_contiguous  # kept by make_tour, not copied
    assert pairs.base is None
    np.testing.assert_array_equal(pairs[:, 0] * n + pairs[:, 1], flat)
    tour = tile_tour(Board((m, n)), closed=closed, start=start)
    check_tour(Board((m, n)), tour.array, closed=closed, start=start)
    assert knight_walk(tour.array, m, n, closed=closed)


def _chains(rng: np.random.Generator) -> list[np.ndarray]:
    """Walks of every kind: chains, closed chains, and broken ones."""
    chains = []
    for size in [1, 2, 3, 7, 40, 300]:
        for closed in (False, True):
            path = [size - 1, *rng.permutation(size - 1).tolist()]
            nxt = np.full(size, -1)
            for a, b in itertools.pairwise(path):
                nxt[a] = b
            if closed and size > 2:
                nxt[path[-1]] = nxt[size - 1]  # back where the root went
            chains.append(nxt)
        chains += [rng.integers(-1, size, size) for _ in range(30)]
    return chains


def test_follow_by_pointer_jumping_is_the_plain_walk() -> None:
    rng = np.random.default_rng(36)
    for nxt in _chains(rng):
        plain = tiling_join._followed(nxt, len(nxt) - 1)
        np.testing.assert_array_equal(tiling_join.follow(nxt), plain, str(nxt))


def _names(board: Board, cells: np.ndarray) -> bytes:
    return "".join(board.cell_name(c) + "\n" for c in cells.tolist()).encode()


@pytest.mark.parametrize(
    "shape",
    [(8, 8), (30, 30), (31, 1000), (1000, 1001), (1001, 1000), (12000, 9), (9, 12000)],
)
def test_tour_lines_are_the_names_byte_for_byte(shape: tuple[int, int]) -> None:
    board = Board(shape)
    rng = np.random.default_rng(sum(shape))
    m, n = shape
    cells = np.stack([rng.integers(0, m, 5000), rng.integers(0, n, 5000)], axis=1)
    cells[:4] = [[0, 0], [m - 1, n - 1], [9, 99], [999, 9999]]  # digits' edges
    cells[:4] %= [m, n]
    expected = _names(board, cells)
    for chunk in (1, 7, 4096, 1 << 17):
        blocks = list(board.cell_line_blocks(cells, chunk))
        assert b"".join(blocks) == expected, chunk
        assert all(block.endswith(b"\n") for block in blocks)  # whole lines


@pytest.mark.parametrize("at", [0, 4095, 4096, 9999])
def test_tour_lines_off_the_board_are_named_as_the_board_names_them(at: int) -> None:
    # A cell off the board (a file being checked, not a checked tour) in any
    # block: the lines from that block on are the board's own.
    board = Board((100, 200))
    rng = np.random.default_rng(at)
    cells = np.stack([rng.integers(0, 100, 10000), rng.integers(0, 200, 10000)], 1)
    cells[at] = [-3, 12345] if at % 2 else [100, 7]
    expected = _names(board, cells)
    assert b"".join(board.cell_line_blocks(cells, 4096)) == expected


ELSEWHERE: dict[str, Callable[[], Board]] = {
    "3d": lambda: Board((4, 5, 6)),
    "plane": Board.plane,  # negative coordinates
    "torus": lambda: Board.parse("20x30", topology="torus"),
    "past 9,999,999": lambda: Board((2, 10**7 + 5)),
}


@pytest.mark.parametrize("kind", list(ELSEWHERE))
def test_tour_lines_elsewhere_are_the_boards_own(kind: str) -> None:
    board = ELSEWHERE[kind]()
    rng = np.random.default_rng(7)
    low = -50 if board.unbounded else 0
    tops = [50 if side == 0 else side for side in board.shape]
    cells = np.stack([rng.integers(low, top, 300) for top in tops], axis=1)
    assert b"".join(board.cell_line_blocks(cells)) == _names(board, cells)


@pytest.mark.parametrize("side", [100, pytest.param(1000, marks=pytest.mark.slow)])
def test_huge_tour_file_is_the_old_bytes_and_a_tour(side: int, tmp_path: Path) -> None:
    board = Board((side, side))
    tour = tile_tour(board)
    path = tmp_path / "t.txt"
    write_tour_file(str(path), tour, force=False)
    data = path.read_bytes()
    assert data == b"".join(board.cell_line_blocks(tour.array))
    assert data == tour_file_text(tour).encode("ascii")
    back = np.array([line.split(b",") for line in data.splitlines()], dtype=np.int64)
    assert knight_walk(back, side, side, closed=True)
    check_tour(board, read_tour_file(str(path), board), closed=True)


def test_expand_pairs_looks_at_the_clock_between_blocks() -> None:
    # A million cells and more between two looks would keep Ctrl-C waiting
    # (5000x5000: most of a second): the check is called every CHECK_BLOCKS
    # blocks, and what it raises stops the expansion.
    from cpknight.tiling.join import CHECK_BLOCKS, EXPAND_BLOCK, expand_pairs

    n = 1024
    total = 2 * CHECK_BLOCKS * EXPAND_BLOCK + 5
    one = np.arange(total)  # one-cell tiles walked in order: row-major cells
    steps = (
        [np.array([0])],
        np.zeros(total, dtype=np.int64),
        np.ones(total, dtype=np.int64),
    )
    args = (
        *steps,
        one,
        one,
        np.zeros(total, dtype=np.int64),
        one,
        np.ones(total, dtype=np.int64),
    )
    looks: list[str] = []
    pairs = expand_pairs(*args, total, n, looks.append)
    assert looks == ["assembling the tiles"] * 2
    assert np.array_equal(pairs, np.stack(np.divmod(one, n), axis=1))

    class Stop(Exception):
        pass

    def stop(what: str) -> None:
        raise Stop(what)

    with pytest.raises(Stop, match="assembling the tiles"):
        expand_pairs(*args, total, n, stop)
