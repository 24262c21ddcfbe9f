"""The numpy steps the tiled tours share: tile kinds, cuts, the walk, the cells.

A tiled tour (:mod:`cpknight.tiling.tiles`) or a tiled path with a chain of path
tiles (:mod:`cpknight.tiling.chain`) is assembled in the same four steps once
each tile's direction is known:

1. :func:`kind_tables`: for every kind of tile (its size and its tour or path),
   the global offsets of its cells in order, the positions of its four
   structure moves, and the direction its order walks each of them;
2. :func:`next_cuts`: each entry into a tile runs to the next cut in that tile
   (cyclically): the cut found for every entry;
3. :func:`follow`: the one plain loop, from the root's entry along the cuts;
4. :func:`expand`: the segments written out as flat cells ``r * n + c``.

Examples:
    >>> from cpknight.tiling.build import structured_tile
    >>> length, move_pos, direction, offsets = kind_tables(
    ...     [(6, 6, structured_tile(6, 6, True))], n=100)
    >>> length.tolist(), sorted(offsets[0].tolist())[:8]
    ([36], [0, 1, 2, 3, 4, 5, 100, 101])
    >>> sorted(set(direction.ravel().tolist()))  # each move walked one way
    [-1, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cpknight.board import Cell
from cpknight.tiling.build import IntArray, structure_moves

__all__ = [
    "Joins",
    "KindTables",
    "expand",
    "follow",
    "join_links",
    "join_positions",
    "kind_tables",
    "next_cuts",
    "rotated",
]

Joins = tuple[IntArray, IntArray, IntArray, IntArray]
"""``(ja, jb, ma, mb)``: the two tiles and the two structure moves of each join."""

KindTables = tuple[IntArray, IntArray, IntArray, list[IntArray]]
"""``(length, move_pos, direction, offsets)`` per tile kind (:func:`kind_tables`)."""


def kind_tables(
    orders: Sequence[tuple[int, int, Sequence[int]]],
    n: int,
) -> KindTables:
    """Per tile kind: length, structure-move positions, their direction, offsets.

    Args:
        orders: each kind as ``(h, w, order)``: the tile's cells ``r * w + c``
            in tour (or path) order.
        n: the board's width (offsets are flat board cells from the tile's
            corner).

    Returns:
        ``(length, move_pos, direction, offsets)``: cells per kind; the order
        positions of each structure move's two cells (``[kind, move, 2]``);
        ``+1`` where the order walks a move as listed, else ``-1``; and the
        offsets of each kind's cells in order.
    """
    n_kinds = len(orders)
    length = np.zeros(n_kinds, dtype=np.int64)
    move_pos = np.zeros((n_kinds, 4, 2), dtype=np.int64)
    offsets: list[IntArray] = []
    for k, (h, w, tour) in enumerate(orders):
        order = np.array(tour, dtype=np.int64)
        pos = np.empty(h * w, dtype=np.int64)
        pos[order] = np.arange(h * w)
        length[k] = h * w
        offsets.append((order // w) * n + order % w)
        for mi, (x, y) in enumerate(structure_moves(h, w)):
            move_pos[k, mi] = pos[x[0] * w + x[1]], pos[y[0] * w + y[1]]
    step = (move_pos[:, :, 1] - move_pos[:, :, 0]) % length[:, None]
    direction = np.where(step == 1, 1, -1)
    return length, move_pos, direction, offsets


def join_links(
    direction: IntArray, kind_of_tile: IntArray, joins: Joins, straight: IntArray
) -> IntArray:
    """How each join relates its two tiles' walk directions: B's sign is A's times it.

    Args:
        direction: structure-move directions per kind (:func:`kind_tables`).
        kind_of_tile: the kind of every tile.
        joins: ``(ja, jb, ma, mb)``: the two tiles and two moves of each join.
        straight: whether each join pairs the first cells of the two moves.

    Returns:
        ``+1`` or ``-1`` per join.
    """
    ja, jb, ma, mb = joins
    ka, kb = kind_of_tile[ja], kind_of_tile[jb]
    link: IntArray = direction[ka, ma] * direction[kb, mb] * np.where(straight, -1, 1)
    return link


def join_positions(
    length: IntArray,
    move_pos: IntArray,
    direction: IntArray,
    kind_of_tile: IntArray,
    sign: IntArray,
    joins: Joins,
    straight: IntArray,
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Where each join leaves and enters its two tiles, in walk positions.

    A join deletes move ``ma`` of tile ``A`` and move ``mb`` of tile ``B`` and
    adds the two moves across their border. ``A`` walks its move from tail to
    head; the partner of its tail is ``B``'s head, unless the join is
    ``straight`` (the first cells pair up).

    Args:
        length: cells per kind (:func:`kind_tables`).
        move_pos: structure-move positions per kind (:func:`kind_tables`).
        direction: structure-move directions per kind (:func:`kind_tables`).
        kind_of_tile: the kind of every tile.
        sign: ``+1`` where a tile walks its order forwards, ``-1`` backwards.
        joins: ``(ja, jb, ma, mb)``: the two tiles and two moves of each join.
        straight: whether each join pairs the first cells of the two moves.

    Returns:
        ``(a_out, b_out, b_in, a_in)``: the positions (in each tile's walk
        direction) where the walk leaves ``A``, leaves ``B``, enters ``B``
        and enters ``A`` across each join.
    """
    ja, jb, ma, mb = joins
    ka, kb = kind_of_tile[ja], kind_of_tile[jb]

    def oriented(tile: IntArray, catalogue_pos: IntArray) -> IntArray:
        size = length[kind_of_tile[tile]]
        return np.where(sign[tile] > 0, catalogue_pos, size - 1 - catalogue_pos)

    a_forward = direction[ka, ma] * sign[ja] > 0
    a_tail = np.where(a_forward, move_pos[ka, ma, 0], move_pos[ka, ma, 1])
    a_head = np.where(a_forward, move_pos[ka, ma, 1], move_pos[ka, ma, 0])
    tail_is_first = a_forward == straight  # the tail pairs with B's first cell
    b_in = np.where(tail_is_first, move_pos[kb, mb, 0], move_pos[kb, mb, 1])
    b_out = np.where(tail_is_first, move_pos[kb, mb, 1], move_pos[kb, mb, 0])
    return (
        oriented(ja, a_tail),
        oriented(jb, b_out),
        oriented(jb, b_in),
        oriented(ja, a_head),
    )


def next_cuts(
    cut_tile: IntArray,
    cut_pos: IntArray,
    to_tile: IntArray,
    to_pos: IntArray,
    big: int,
) -> tuple[IntArray, IntArray, IntArray]:
    """For every entry ``(to_tile, to_pos)``, the next cut in its tile.

    Args:
        cut_tile: the tile of each cut (a cut leaves its tile after its cell).
        cut_pos: the order position of each cut's cell in its tile.
        to_tile: the tile each entry enters.
        to_pos: the position it enters at.
        big: more than any position (positions are packed ``tile * big + pos``).

    Returns:
        ``(same, stop, cut)``: whether the next cut lies at or after the entry
        (else it wraps past the end of the tile's order); the cut's position;
        the cut's index (the entry it jumps to has the same index).
    """
    keys = cut_tile * big + cut_pos
    by_key = np.argsort(keys, kind="stable")
    sorted_keys = keys[by_key]
    where = np.searchsorted(sorted_keys, to_tile * big + to_pos)
    safe = np.minimum(where, len(sorted_keys) - 1)
    same = (where < len(sorted_keys)) & (sorted_keys[safe] // big == to_tile)
    wrap = np.searchsorted(sorted_keys, to_tile * big)
    pick = np.where(same, safe, wrap)
    return same, sorted_keys[pick] % big, by_key[pick]


def follow(nxt: IntArray) -> IntArray:
    """The entries in walk order, from the last one (the root's) to a ``-1``."""
    chain = nxt.tolist()
    order_list = [len(chain) - 1]
    e = chain[-1]
    for _ in range(len(chain) - 1):
        if e < 0:
            break
        order_list.append(e)
        e = chain[e]
    return np.array(order_list, dtype=np.int64)


def expand(
    offsets: list[IntArray],
    kind_of_tile: IntArray,
    sign: IntArray,
    base: IntArray,
    to_tile: IntArray,
    to_pos: IntArray,
    walk: IntArray,
    lens: IntArray,
    total: int,
) -> IntArray:
    """The segments of the walk written out as flat cells ``r * n + c``.

    Args:
        offsets: each kind's cell offsets in order (:func:`kind_tables`).
        kind_of_tile: the kind of every tile.
        sign: ``+1`` where a tile walks its order forwards, ``-1`` backwards.
        base: the flat cell of every tile's corner.
        to_tile: the tile of every entry.
        to_pos: the (oriented) position of every entry.
        walk: the entries in walk order (:func:`follow`).
        lens: the cells of each walked segment.
        total: the cells of the board.
    """
    ext, ext_first = _unrolled(offsets)
    tile = to_tile[walk]
    index0 = ext_first[kind_of_tile[tile], (sign[tile] < 0).astype(np.int64)]
    starts = np.cumsum(lens) - lens
    index0 += to_pos[walk] - starts
    # Per-segment values spread over their cells without np.repeat: write each
    # segment's change at its first cell, then take running sums.
    used = lens > 0
    starts, index0, tile = starts[used], index0[used], tile[used]
    dtype = np.int32 if 2 * total < 2**31 else np.int64
    index: npt.NDArray[Any] = np.zeros(total, dtype=dtype)
    index[starts] = np.diff(index0, prepend=0)
    np.cumsum(index, out=index)
    index += np.arange(total, dtype=dtype)
    cells: IntArray = ext[index]
    del index
    shift = np.zeros(total, dtype=np.int64)
    shift[starts] = np.diff(base[tile], prepend=0)
    np.cumsum(shift, out=shift)
    cells += shift
    return cells


def _unrolled(offsets: list[IntArray]) -> tuple[IntArray, IntArray]:
    """Each kind's offsets in both directions, written twice, end to end.

    So that a segment that wraps past the end of a tile's order needs no
    modulo.

    Returns:
        ``(ext, ext_first)``: the offsets, and where kind ``k`` starts in them
        forwards (``ext_first[k, 0]``) and backwards (``ext_first[k, 1]``).

    Examples:
        >>> ext, first = _unrolled([np.array([0, 1, 5])])
        >>> ext.tolist(), first.tolist()
        ([0, 1, 5, 0, 1, 5, 5, 1, 0, 5, 1, 0], [[0, 6]])
    """
    ext_first = np.zeros((len(offsets), 2), dtype=np.int64)
    pieces: list[IntArray] = []
    at = 0
    for k, offs in enumerate(offsets):
        for reverse in (0, 1):
            directed = offs[::-1] if reverse else offs
            ext_first[k, reverse] = at
            pieces += [directed, directed]
            at += 2 * len(directed)
    return np.concatenate(pieces), ext_first


def rotated(cells: IntArray, start: Cell | None, n: int) -> IntArray:
    """A closed tour (flat cells ``r * n + c``) rotated to begin on ``start``.

    Dropping the closing move of the rotated circuit gives an open tour from
    ``start``; with no start the cells are returned as they are.

    Examples:
        >>> rotated(np.array([5, 9, 2, 7]), (0, 2), n=10).tolist()
        [2, 7, 5, 9]
    """
    if start is None:
        return cells
    at = int(np.flatnonzero(cells == start[0] * n + start[1])[0])
    return np.roll(cells, -at)
