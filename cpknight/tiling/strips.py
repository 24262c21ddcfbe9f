"""Boards 3 or 4 cells high: strips of tiles holding paths between fixed ports.

Boards 3 or 4 cells high are too low for the structured joins. They are cut
into tiles side by side instead, each holding paths between fixed *ports* on
its left and right columns, a knight move from the next tile's ports:

* chain (open tours of 3 x n): one path per tile, entering at L1 and leaving
  at R1, which is a knight move from the next tile's L1;
* lanes (closed tours of 3 x n, open tours of 4 x n): per middle tile an
  outward path L1 -> R1 and a return path R2 -> L2 (L2 a knight move from the
  previous tile's R2). The last tile is one path L1 -> L2; the first is one
  path R2 -> R1 (closed), or two paths start -> R1 and R2 -> end (open).
  CP-SAT builds two paths as one circuit with fixed extra arcs R1 -> R2 and
  L2 -> L1 (not moves).

The tour reads the outward paths left to right, then the return paths right
to left.

Examples:
    >>> cells = strip_tour(3, 40, closed=True, start=None, run=None)
    >>> len(cells), len(set(cells.tolist()))
    (120, 120)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cpknight.board import Cell
from cpknight.solving import Run
from cpknight.tiling.build import IntArray, circuit_order, tile_run
from cpknight.tiling.join import rotated
from cpknight.tours.existence import closed_tour_exists

__all__ = ["strip_tour"]

_PORTS: dict[int, tuple[Cell, Cell, Cell, Cell]] = {
    # L1, R1 (column counted from the right: -1 is w - 1), R2, L2
    3: ((2, 0), (0, -1), (2, -1), (0, 0)),
    4: ((3, 0), (1, -1), (1, -2), (0, 0)),
}
"""The ports L1, R1, R2, L2 of a strip tile 3 or 4 cells high (local row, col)."""


_STRIP_TILES: dict[tuple[int, int, bool, str], tuple[int, ...] | None] = {}
"""Strip tiles built this session (None: proved not to exist)."""


def _strip_tile(
    h: int,
    w: int,
    lanes: bool,
    role: str,
    *,
    run: Run | None = None,
) -> tuple[int, ...] | None:
    """A strip tile's cells in walk order (local ``r * w + c``), or None.

    Roles: ``first``, ``middle``, ``last`` (lanes); ``first open`` is the
    first tile of an open lanes tour. A build gets what is left of ``run``'s limit,
    at most 20 s (:func:`cpknight.tiling.build.tile_run`).
    """
    key = (h, w, lanes, role)
    if key not in _STRIP_TILES:
        _STRIP_TILES[key] = _build_strip_tile(h, w, lanes, role, run)
    return _STRIP_TILES[key]


def _build_strip_tile(
    h: int,
    w: int,
    lanes: bool,
    role: str,
    run: Run | None,
) -> tuple[int, ...] | None:
    (l1r, l1c), (r1r, r1c), (r2r, r2c), (l2r, l2c) = _PORTS[h]
    l1, l2 = l1r * w + l1c, l2r * w + l2c
    r1, r2 = r1r * w + w + r1c, r2r * w + w + r2c

    def tour(
        *,
        closed: bool,
        start: int | None = None,
        end: int | None = None,
        links: Sequence[tuple[int, int]] = (),
    ) -> list[int] | None:
        return circuit_order(
            h,
            w,
            closed=closed,
            start=start,
            end=end,
            links=links,
            run=tile_run(run),
        )

    if not lanes:
        order = tour(
            closed=False,
            start=None if role == "first" else l1,
            end=None if role == "last" else r1,
        )
    elif role == "first":
        order = tour(closed=False, start=r2, end=r1)
    elif role == "first open":
        order = tour(closed=False, links=((r1, r2),))
    elif role == "last":
        order = tour(closed=False, start=l1, end=l2)
    else:
        order = tour(closed=True, start=l1, links=((r1, r2), (l2, l1)))
    return None if order is None else tuple(order)


def _strip_widths(
    h: int,
    n: int,
    lanes: bool,
    first_role: str,
    *,
    run: Run | None,
) -> list[int] | None:
    """Widths first, middle..., last summing to n, each tile feasible."""

    def fits(w: int, role: str) -> bool:
        return _strip_tile(h, w, lanes, role, run=run) is not None

    middles = [w for w in (8, 10, 9, 11, 12, 7, 6) if fits(w, "middle")][:3]
    ends = (8, 10, 12, 9, 11, 7, 6, 13, 14)
    for first in ends:
        for last in ends:
            rest = n - first - last
            if rest < 0:
                continue
            parts = _coins(rest, middles)
            if parts is not None and fits(first, first_role) and fits(last, "last"):
                return [first, *parts, last]
    return None


def _coins(total: int, sizes: Sequence[int]) -> list[int] | None:
    """Write ``total`` as a sum of ``sizes``, or None."""
    best: list[int | None] = [0] + [None] * total
    for value in range(1, total + 1):
        for size in sizes:
            if value >= size and best[value - size] is not None:
                best[value] = size
                break
    if best[total] is None:
        return None
    parts = []
    while total:
        part = best[total]
        assert part is not None
        parts.append(part)
        total -= part
    return parts


def _strip(
    m: int,
    n: int,
    *,
    closed: bool,
    run: Run | None,
) -> IntArray | None:
    """A tour of the m x n board (m = 3 or 4) from strip tiles, or None."""
    lanes = closed or m == 4
    first_role = "first" if closed or not lanes else "first open"
    widths = _strip_widths(m, n, lanes, first_role, run=run)
    if widths is None:
        return None
    col0 = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
    outward: list[IntArray] = []
    back: list[IntArray] = []
    last = len(widths) - 1
    r1 = _PORTS[m][1]
    for k, w in enumerate(widths):
        role = first_role if k == 0 else "last" if k == last else "middle"
        order = _strip_tile(m, w, lanes, role, run=run)
        assert order is not None
        local = np.array(order, dtype=np.int64)
        cells = (local // w) * n + local % w + col0[k]
        if lanes and role in ("middle", "first open"):
            split = int(np.flatnonzero(local == r1[0] * w + w + r1[1])[0]) + 1
            outward.append(cells[:split])
            back.append(cells[split:])
        else:
            outward.append(cells)
    return np.concatenate(outward + back[::-1])


def strip_tour(
    m: int,
    n: int,
    *,
    closed: bool,
    start: Cell | None,
    run: Run | None,
) -> IntArray | None:
    """A tour of the m x n board from strip tiles along its long side, or None.

    Either orientation (3 or 4 rows, or 3 or 4 columns): flat cells
    ``r * n + c``. An open tour is a closed one rotated to ``start`` where the
    board has one; None for an open tour from a given cell otherwise (CP-SAT
    whole), or where no widths fit.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.checks import is_tour
        >>> cells = strip_tour(40, 3, closed=True, start=None, run=None)
        >>> is_tour(Board((40, 3)), np.stack(np.divmod(cells, 3), axis=1), closed=True)
        True
    """
    if not closed and closed_tour_exists(m, n):
        cells = strip_tour(m, n, closed=True, start=None, run=run)
        return None if cells is None else rotated(cells, start, n)
    if not closed and start is not None:
        return None  # an open strip tour from a given cell: CP-SAT whole
    if m <= n:
        return _strip(m, n, closed=closed, run=run)
    cells = _strip(n, m, closed=closed, run=run)
    if cells is None:
        return None
    rows, cols = np.divmod(cells, m)  # transposed board: n rows of m
    return cols * n + rows
