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

    def arrays(self) -> tuple[npt.NDArray[np.int64], ...]:
        """``tile``, ``bit``, ``offset`` and ``table`` as arrays (compiled kernel)."""
        return (
            np.array(self.tile, np.int64),
            np.array(self.bit, np.int64),
            np.array(self.offset, np.int64),
            np.frombuffer(self.table, np.uint8).astype(np.int64),
        )


def _tile_key(cell: tuple[int, ...]) -> tuple[int, ...]:
    if len(cell) == 1:
        return (cell[0] // (TILE * TILE),)
    return (*cell[:-2], cell[-2] // TILE, cell[-1] // TILE)


def forest_tiles(
    graph: MoveGraph, check: Callable[[], None] | None = None
) -> ForestTiles | None:
    """The tiles of ``graph``'s board and their tables (None past :data:`MAX_TABLES`).

    ``check`` is called before each table is made (the run's clock).

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> t = forest_tiles(move_graph("5x5"))
        >>> t.tile[:6], t.bit[:6]
        ([0, 0, 0, 0, 1, 0], [1, 2, 4, 8, 1, 16])
    """
    members: dict[tuple[int, ...], list[int]] = {}
    for v in range(graph.n_nodes):
        members.setdefault(_tile_key(graph.cell(v)), []).append(v)
    tile = [0] * graph.n_nodes
    bit = [0] * graph.n_nodes
    nears: list[tuple[int, ...]] = []
    for t, cells in enumerate(members.values()):
        place = {v: i for i, v in enumerate(cells)}
        masks = []
        for v in cells:
            tile[v] = t
            bit[v] = 1 << place[v]
            mask = 0
            for w in graph.neighbors(v).tolist():
                if w in place:
                    mask |= 1 << place[w]
            masks.append(mask)
        nears.append(tuple(masks))
    if len(set(nears)) > MAX_TABLES:
        return None
    made: dict[tuple[int, ...], int] = {}
    parts: list[bytes] = []
    offset: list[int] = []
    at = 0
    for near in nears:
        if near not in made:
            if check is not None:
                check()
            parts.append(forest_table(near))
            made[near] = at
            at += len(parts[-1])
        offset.append(made[near])
    return ForestTiles(tile, bit, offset, b"".join(parts))


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
