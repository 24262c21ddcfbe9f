"""How a board is cut into tiles, and where two tiles join.

Internal to :mod:`cpknight.tiling`: the tiled tour (``tiles``) and the chain
of path tiles (``chain``) both read it.

A *layout* cuts the rows into heights and the columns into widths (parts 6, 8
and 10 along an even side; 5 to 11 with one odd part along an odd one). The
tiles of a layout are numbered row by row; each has a corner on the board
(:func:`tile_origins`) and a kind, the index of its size among the closed
tile sizes (:func:`closed_sizes`, :func:`kind_grid`). Two neighbouring tiles
join by exchanging structure moves, which pair up first cell with first cell
or crossed (:func:`straight`, :func:`join_straight`).

Examples:
    >>> even_parts(24), any_parts(21)
    ([8, 8, 8], [7, 8, 6])
    >>> [(x.heights, x.widths) for x in layouts(12, 14, closed=True, start=None)]
    [([6, 6], [8, 6])]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from cpknight.board import Board, Cell
from cpknight.pieces import KNIGHT, steps_are_moves
from cpknight.tiling.build import IntArray, structure_moves

__all__ = [
    "Layout",
    "any_parts",
    "closed_sizes",
    "even_parts",
    "join_straight",
    "kind_grid",
    "layouts",
    "locate",
    "parts_with_odd",
    "shifted",
    "straight",
    "tile_origins",
]


# ---------------------------------------------------------------------- parts


def even_parts(n: int) -> list[int] | None:
    """Split an even n >= 6 (or 0) into parts 6, 8 and 10, or None.

    Examples:
        >>> even_parts(30), even_parts(7)
        ([8, 8, 8, 6], None)
    """
    if n == 0:
        return []
    if n < 6 or n % 2:
        return None
    k, r = divmod(n, 8)
    if r == 0:
        return [8] * k
    if r == 2:
        return [8] * (k - 1) + [10]
    if r == 4:
        return [8] * (k - 1) + [6, 6]
    return [8] * k + [6]


def parts_with_odd(n: int, at: int | None) -> list[tuple[list[int], int]]:
    """Ways to split an odd n into even parts and one odd part (5..11).

    Returns ``(parts, index of the odd part)``; with ``at`` given, only splits
    whose odd part covers position ``at`` and starts at an even offset.

    Examples:
        >>> parts_with_odd(21, None)
        [([7, 8, 6], 0)]
    """
    found: list[tuple[list[int], int]] = []
    for odd in (7, 9, 11, 5):
        for before in range(0, n - odd + 1, 2):
            if at is not None and not before <= at < before + odd:
                continue
            head = even_parts(before)
            tail = even_parts(n - odd - before)
            if head is None or tail is None:
                continue
            found.append(([*head, odd, *tail], len(head)))
            if at is None:
                return found
    found.sort(key=lambda item: (item[0][item[1]] != 7, len(item[0])))
    return found


def any_parts(n: int) -> list[int] | None:
    """Even parts where n is even, else even parts and one odd part, or None.

    Examples:
        >>> any_parts(16), any_parts(13), any_parts(4)
        ([8, 8], [7, 6], None)
    """
    even = even_parts(n)
    if even is not None:
        return even
    split = parts_with_odd(n, None)
    return split[0][0] if split else None


def shifted(parts: list[int], *, odd: bool) -> list[int]:
    """Parts of the same total whose inner borders all move, or ``parts``.

    A part of 6 or 10 first (or, with ``odd``, 5, 7, 9 or 11: allowed along
    one side when every part of the other side is even), the rest as the
    layout splits them.

    Examples:
        >>> shifted([8, 8, 8], odd=False), shifted([6, 6], odd=False)
        ([6, 8, 10], [6, 6])
        >>> shifted([6, 6], odd=True), shifted([7, 8, 10], odd=True)
        ([5, 7], [6, 7, 6, 6])
    """
    total, borders = sum(parts), set(np.cumsum(parts).tolist()[:-1])
    split = any_parts if odd else even_parts
    for first in (6, 10, 5, 7, 9, 11) if odd else (6, 10):
        rest = split(total - first) if total - first >= 5 else None
        if rest and not borders & set(np.cumsum([first, *rest]).tolist()[:-1]):
            return [first, *rest]
    return parts


def locate(parts: Sequence[int], x: int) -> tuple[int, int]:
    """The index of the part covering ``x`` and that part's first position.

    Examples:
        >>> locate([6, 8, 10], 13)
        (1, 6)
    """
    at = 0
    for k, size in enumerate(parts):
        if x < at + size:
            return k, at
        at += size
    raise ValueError(x)


# -------------------------------------------------------------------- layouts


@dataclass(frozen=True)
class Layout:
    """A tiling of the board: row heights, column widths, the open tile if any.

    Attributes:
        heights: the tiles' heights, top to bottom.
        widths: the tiles' widths, left to right.
        open_tile: ``(row, column)`` of the one odd x odd tile holding an open
            path (odd x odd boards), else None.
        start: the start cell local to the open tile, if given.
    """

    heights: list[int]
    widths: list[int]
    open_tile: tuple[int, int] | None
    start: Cell | None


def layouts(m: int, n: int, *, closed: bool, start: Cell | None) -> list[Layout]:
    """Candidate tilings of the m x n board (closed, or odd x odd open).

    Examples:
        >>> [x.open_tile for x in layouts(13, 13, closed=False, start=(6, 6))]
        [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    if closed:
        if m % 2 == 0 and (heights := even_parts(m)) and (widths := any_parts(n)):
            return [Layout(heights, widths, None, None)]
        if n % 2 == 0 and (widths := even_parts(n)) and (heights := any_parts(m)):
            return [Layout(heights, widths, None, None)]
        return []
    out = []
    rows = parts_with_odd(m, None if start is None else start[0])
    cols = parts_with_odd(n, None if start is None else start[1])
    for heights, i in rows[:3]:
        for widths, j in cols[:3]:
            local = None
            if start is not None:
                local = (start[0] - sum(heights[:i]), start[1] - sum(widths[:j]))
            out.append(Layout(heights, widths, (i, j), local))
    return out


# ---------------------------------------------------------------------- tiles


def tile_origins(
    heights: Sequence[int], widths: Sequence[int], n: int
) -> tuple[IntArray, IntArray, IntArray]:
    """The first row and column of every tile row and column, and every corner.

    Returns:
        ``(row0, col0, base)``: the first board row of each row of tiles, the
        first board column of each column of tiles, and the flat board cell
        ``r * n + c`` of every tile's corner, tiles numbered row by row.

    Examples:
        >>> row0, col0, base = tile_origins([6, 8], [6, 6], n=12)
        >>> row0.tolist(), col0.tolist(), base.tolist()
        ([0, 6], [0, 6], [0, 6, 72, 78])
    """
    row0 = np.concatenate([[0], np.cumsum(heights)[:-1]]).astype(np.int64)
    col0 = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
    rows, cols = np.divmod(
        np.arange(len(heights) * len(widths), dtype=np.int64), len(widths)
    )
    base: IntArray = row0[rows] * n + col0[cols]
    return row0, col0, base


def closed_sizes(
    heights: Sequence[int], widths: Sequence[int]
) -> list[tuple[int, int]]:
    """The sizes ``(h, w)`` of the layout's closed tiles (h * w even), sorted.

    Examples:
        >>> closed_sizes([6, 7], [8, 7])
        [(6, 7), (6, 8), (7, 8)]
    """
    return sorted({(h, w) for h in set(heights) for w in set(widths) if h * w % 2 == 0})


def kind_grid(
    heights: Sequence[int], widths: Sequence[int], sizes: Sequence[tuple[int, int]]
) -> IntArray:
    """The index in ``sizes`` of every tile's size, tiles row by row (-1: absent).

    Examples:
        >>> kind_grid([6, 7], [8, 7], [(6, 7), (6, 8), (7, 8)]).tolist()
        [1, 0, 2, -1]
    """
    table = np.full((12, 12), -1, dtype=np.int64)
    for k, (h, w) in enumerate(sizes):
        table[h, w] = k
    h_arr = np.array(heights, dtype=np.int64)
    w_arr = np.array(widths, dtype=np.int64)
    grid: IntArray = table[h_arr[:, None], w_arr[None, :]].ravel()
    return grid


# ---------------------------------------------------------------------- joins


@lru_cache(maxsize=2)
def straight(*, horizontal: bool) -> bool:
    """Whether the joined moves pair first cell with first cell (else crossed).

    Tile A's move and tile B's move, placed side by side (or one above the
    other) on a 12 x 12 patch of two 6-cell tiles: the same for every tile
    size (the moves sit at fixed distances from the border).

    Examples:
        >>> straight(horizontal=True) in (True, False)
        True
    """
    h = w = 6
    if horizontal:
        (a1, _), (b1, _) = structure_moves(h, w)[2], structure_moves(h, w)[0]
        dr, dc = b1[0] - a1[0], b1[1] + w - a1[1]
    else:
        (a1, _), (b1, _) = structure_moves(h, w)[3], structure_moves(h, w)[1]
        dr, dc = b1[0] + h - a1[0], b1[1] - a1[1]
    step = np.array([[dr, dc]], dtype=np.int64)
    board = Board((2 * h, 2 * w))
    return bool(steps_are_moves(board, KNIGHT, np.zeros_like(step), step)[0])


def join_straight(n_h: int, n_v: int) -> IntArray:
    """:func:`straight` for ``n_h`` joins along rows, then ``n_v`` down columns.

    Examples:
        >>> join_straight(2, 1).dtype.name
        'bool'
    """
    flags: IntArray = np.concatenate(
        [
            np.full(n_h, straight(horizontal=True)),
            np.full(n_v, straight(horizontal=False)),
        ]
    ).astype(bool)
    return flags
