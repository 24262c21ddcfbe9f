"""The tiles' bound of the snake search: linear forests, tile by tile.

The cells a snake still takes beyond its next cell (a path, or the rest of a
cycle between its head and its start) are a path with no chord. Those of them
in any set of cells therefore make a *linear forest* there: paths, no cell
joined to three, no cycle. Cut the board into tiles of at most 16 cells (4 x 4
in the last two coordinates; a layer of a 3D board apart), and make once, for
each tile's move graph, the table of the most cells of such a forest in each
set of its cells. The sum over the tiles of the table at the cells the bound
reached bounds the room too, and often much lower than their colours do: a
knight's 4 x 4 tile holds a linear forest of at most 11 of its 16 cells
(:func:`forest_table` on ``4x4``).

Both kernels of :mod:`cpknight.longest.search` read the same tables, so they
stay equal move for move.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> tiles = forest_tiles(move_graph("8x8"))
    >>> len(tiles.offset), max(tiles.table)
    (4, 11)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cpknight.pieces import MoveGraph

__all__ = ["MAX_TABLES", "TILE", "ForestTiles", "forest_table", "forest_tiles"]

TILE = 4
"""The side of a tile in the board's last two coordinates (16 cells at most)."""

MAX_TABLES = 64
"""Tiles of more distinct move graphs than this (a board with many holes):
no tiles' bound, rather than seconds of tables (64 KB and about 0.1 s each)."""


@dataclass(frozen=True)
class ForestTiles:
    """The board cut into tiles, and each tile's table.

    Attributes:
        tile: each cell's tile.
        bit: each cell's bit in its tile's sets, ``1 << place``.
        offset: each tile's first entry in ``table``.
        table: for tile ``t`` and a set ``m`` of its cells (bits),
            ``table[offset[t] + m]``: the most cells of a linear forest in ``m``.
    """

    tile: list[int]
    bit: list[int]
    offset: list[int]
    table: bytes

    def arrays(self) -> tuple[npt.NDArray[Any], ...]:
        """The four as arrays for the compiled kernel (the table ``uint8``)."""
        return (
            np.array(self.tile, np.int64),
            np.array(self.bit, np.int64),
            np.array(self.offset, np.int64),
            np.frombuffer(self.table, np.uint8).copy(),
        )


CHECK_TILES = 1 << 12
"""Tiles gathered between two looks at the clock (huge boards)."""


def forest_tiles(
    graph: MoveGraph, check: Callable[[], None] | None = None
) -> ForestTiles | None:
    """The tiles of ``graph``'s board and their tables (None past :data:`MAX_TABLES`).

    ``check`` is called every :data:`CHECK_TILES` tiles and before each table
    is made (the run's clock).

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> t = forest_tiles(move_graph("5x5"))
        >>> t.tile[:6], t.bit[:6]
        ([0, 0, 0, 0, 1, 0], [1, 2, 4, 8, 1, 16])
    """
    look = check if check is not None else (lambda: None)
    n = graph.n_nodes
    if n == 0:
        return ForestTiles([], [], [], b"")
    cells = np.asarray(graph.cells, np.int64)
    side = np.full(cells.shape[1], 1, np.int64)
    side[-2:] = TILE
    if cells.shape[1] == 1:
        side[0] = TILE * TILE
    coords = cells // side
    key = np.ravel_multi_index(tuple(coords.T), tuple(coords.max(axis=0) + 1))
    # tiles numbered in the order of their first cell, cells in node order
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    look()  # each step below is about a second on millions of cells
    tile = np.argsort(np.argsort(first))[inverse]
    order = np.argsort(tile, kind="stable")
    look()
    sizes = np.bincount(tile, minlength=len(first))
    begins = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    place = np.empty(n, np.int64)
    place[order] = np.arange(n) - begins[tile[order]]
    tails, heads = graph.arcs()
    inside = tile[tails] == tile[heads]
    near = np.zeros(n, np.int64)
    np.bitwise_or.at(near, tails[inside], np.int64(1) << place[heads[inside]])
    look()
    near_sorted = near[order].tolist()
    made: dict[tuple[int, ...], int] = {}
    parts: list[bytes] = []
    offset: list[int] = []
    at = 0
    for t, (b, k) in enumerate(zip(begins.tolist(), sizes.tolist(), strict=True)):
        if t % CHECK_TILES == 0:
            look()
        masks = tuple(near_sorted[b : b + k])
        if masks not in made:
            if len(made) == MAX_TABLES:
                return None
            look()
            parts.append(forest_table(masks))
            made[masks] = at
            at += len(parts[-1])
        offset.append(made[masks])
    bit = (np.int64(1) << place).tolist()
    return ForestTiles(tile.tolist(), bit, offset, b"".join(parts))


@functools.lru_cache(maxsize=256)
def forest_table(near: tuple[int, ...]) -> bytes:
    """For each set of a tile's cells, the most of them in a linear forest.

    ``near[i]``: the tile's cells a move from its cell ``i``, as bits. Entry
    ``m`` is the most cells of a set inside ``m`` that joins no cell to three
    and holds no cycle.

    Examples:
        >>> list(forest_table((0b10, 0b101, 0b10)))  # a path of three cells
        [0, 1, 1, 2, 1, 2, 2, 3]
        >>> forest_table((0b110, 0b101, 0b011))[7]  # a triangle: two of three
        2
    """
    k = len(near)
    sets = np.arange(1 << k, dtype=np.int64)
    size = np.zeros(1 << k, np.int64)
    for i in range(k):
        size += (sets >> i) & 1
    # no cell joined to three of the set
    forest = np.ones(1 << k, np.bool_)
    for i in range(k):
        forest &= ((sets >> i) & 1 == 0) | (size[sets & near[i]] <= 2)
    # no cycle: peeling the cells joined to at most one leaves nothing
    left = sets.copy()
    while True:
        peel = np.zeros(1 << k, np.int64)
        for i in range(k):
            peel |= (((left >> i) & 1 == 1) & (size[left & near[i]] <= 1)).astype(
                np.int64
            ) << i
        if not peel.any():
            break
        left &= ~peel
    best = np.where(forest & (left == 0), size, 0)
    # the most over every subset: one cell dropped at a time, each cell once
    for i in range(k):
        has = sets[(sets >> i) & 1 == 1]
        best[has] = np.maximum(best[has], best[has ^ (1 << i)])
    return best.astype(np.uint8).tobytes()
