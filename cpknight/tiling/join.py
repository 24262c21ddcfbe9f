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

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from cpknight.board import Cell
from cpknight.tiling.build import IntArray, structure_moves

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "CHECK_BLOCKS",
    "EXPAND_BLOCK",
    "Joins",
    "KindTables",
    "expand",
    "expand_pairs",
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
    """The entries in walk order, from the last one (the root's) to a ``-1``.

    At most ``len(nxt)`` entries: a closed walk comes back to the cut the
    root's entry ran to, and stops there. Ranked in numpy by pointer jumping
    (a pass per doubling of the steps); what that finds is held to the chain
    it claims to be (each entry the one after the last), and a walk that is
    not one chain of distinct entries (no layout makes one) is followed one
    entry at a time instead, which gives the same answer.

    Examples:
        >>> follow(np.array([2, -1, 1, 0])).tolist()
        [3, 0, 2, 1]
        >>> follow(np.array([1, 2, 1, 1])).tolist()  # closed: back to entry 1
        [3, 1, 2, 1]
    """
    chain = np.asarray(nxt, dtype=np.int64)
    root = len(chain) - 1
    order = _ranked(chain, root)
    return _followed(chain, root) if order is None else order


def _followed(chain: IntArray, root: int) -> IntArray:
    """:func:`follow` one entry at a time: the walk as it is, whatever it is."""
    steps = chain.tolist()
    order_list = [root]
    e = steps[root]
    for _ in range(len(steps) - 1):
        if e < 0:
            break
        order_list.append(e)
        e = steps[e]
    return np.array(order_list, dtype=np.int64)


def _ranked(chain: IntArray, root: int) -> IntArray | None:
    """:func:`follow` by pointer jumping, or None when the walk is not one chain.

    A closed walk's last entry jumps to the cut the root's entry jumps to:
    ending the walk there makes it a chain, and every entry's distance to
    the chain's end, found by doubling, gives its place.
    """
    size = len(chain)
    succ = np.where(chain < 0, size, chain)
    if chain[root] >= 0:
        twins = np.flatnonzero(chain == chain[root])
        twins = twins[twins != root]
        if len(twins) == 1:
            succ[twins[0]] = size
    succ = np.append(succ, size)  # the end: a node that stays where it is
    dist = (succ != size).astype(np.int64)
    hop = 1
    while hop < size:
        dist = dist + dist[succ]
        succ = succ[succ]
        hop *= 2
    count = int(dist[root]) + 1
    if count > size:
        return None
    place = count - 1 - dist[:size]
    on = place >= 0
    order = np.full(count, -1, dtype=np.int64)
    order[place[on]] = np.flatnonzero(on)
    if (
        order[0] != root
        or bool((order < 0).any())
        or not np.array_equal(chain[order[:-1]], order[1:])
        or (count < size and chain[order[-1]] >= 0)
    ):
        return None
    return order


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


EXPAND_BLOCK = 1 << 16
"""Cells written at a time by :func:`expand_pairs`: blocks that stay in cache."""

CHECK_BLOCKS = 16
"""Blocks :func:`expand_pairs` writes between two looks at the clock (a million
cells: about 30 ms)."""


def expand_pairs(
    offsets: list[IntArray],
    kind_of_tile: IntArray,
    sign: IntArray,
    base: IntArray,
    to_tile: IntArray,
    to_pos: IntArray,
    walk: IntArray,
    lens: IntArray,
    total: int,
    n: int,
    check: Callable[[str], None] | None = None,
) -> IntArray:
    """:func:`expand`, as the ``(total, 2)`` array of ``(row, col)`` the tour keeps.

    The one array of the board's size made here is the answer. Each cell is
    carried as one number, ``row * 2**32 + col``, a running sum of the steps
    (each block's steps looked up in the tiles' step tables, the jumps
    between segments written at their first cells), :data:`EXPAND_BLOCK`
    cells at a time, summed on from the last block's cell and split into the
    two columns: no flat cell is made and divided by ``n``, and the
    temporaries stay in the processor's cache.

    Args:
        offsets: each kind's cell offsets in order (:func:`kind_tables`).
        kind_of_tile: the kind of every tile.
        sign: ``+1`` where a tile walks its order forwards, ``-1`` backwards.
        base: the flat cell of every tile's corner.
        to_tile: the tile of every entry.
        to_pos: the (oriented) position of every entry.
        walk: the entries in walk order (:func:`follow`).
        lens: the cells of each walked segment; they sum to ``total``.
        total: the cells of the board.
        n: the board's width.
        check: called every :data:`CHECK_BLOCKS` blocks (such as ``run.check``,
            which raises at the limit or on Ctrl-C): a 5000x5000 tour takes
            most of a second here.

    Raises:
        ValueError: the segments do not cover ``total`` cells.

    Examples:
        >>> offsets = [np.array([0, 12, 1, 13])]  # a 2 x 2 "tile", n = 10
        >>> pairs = expand_pairs(offsets, np.array([0, 0]), np.array([1, -1]),
        ...     np.array([0, 2]), np.array([0, 1]), np.array([1, 0]),
        ...     np.array([0, 1]), np.array([3, 2]), 5, n=10)
        >>> pairs.tolist()
        [[1, 2], [0, 1], [1, 3], [1, 5], [0, 3]]
        >>> (pairs[:, 0] * 10 + pairs[:, 1]).tolist() == expand(offsets,
        ...     np.array([0, 0]), np.array([1, -1]), np.array([0, 2]),
        ...     np.array([0, 1]), np.array([1, 0]), np.array([0, 1]),
        ...     np.array([3, 2]), 5).tolist()
        True
    """
    ext, ext_first = _unrolled(offsets)
    ext_r, ext_c = np.divmod(ext, n)  # a tile's columns are fewer than n
    packed = (ext_r << _HIGH) + ext_c
    tile = to_tile[walk]
    first = ext_first[kind_of_tile[tile], (sign[tile] < 0).astype(np.int64)]
    first = first + to_pos[walk]
    used = lens > 0
    first, tile, lens = first[used], tile[used], lens[used]
    if int(lens.sum()) != total:
        raise ValueError(f"the segments cover {int(lens.sum())} cells, not {total}")
    starts = np.cumsum(lens) - lens
    base_r, base_c = np.divmod(base[tile], n)
    corner = (base_r << _HIGH) + base_c
    last = first + lens - 1
    first_cell, last_cell = packed[first] + corner, packed[last] + corner
    # At a segment's first cell: the jump from the last segment's last cell
    # (the first segment's: from 0), and likewise its place in ``ext`` (one
    # place on at every other cell).
    jump_index = first - np.concatenate([[0], last[:-1]])
    jump = first_cell - np.concatenate([[0], last_cell[:-1]])
    step = np.diff(packed, prepend=0)
    out: IntArray = np.empty((total, 2), dtype=np.int64)
    size = min(EXPAND_BLOCK, total)
    index, cells = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
    cut = np.searchsorted(starts, np.arange(0, total + size, size)).tolist()
    low = np.int64((1 << _HIGH) - 1)
    carry_index = carry = 0
    for k, begin in enumerate(range(0, total, size)):
        if check is not None and k % CHECK_BLOCKS == CHECK_BLOCKS - 1:
            check("assembling the tiles")
        width = min(size, total - begin)
        ix, cl = index[:width], cells[:width]
        here = slice(cut[k], cut[k + 1])
        at = starts[here] - begin
        ix.fill(1)
        ix[at] = jump_index[here]
        ix[0] += carry_index
        np.cumsum(ix, out=ix)
        carry_index = int(ix[-1])
        np.take(step, ix, out=cl)
        cl[at] = jump[here]
        cl[0] += carry
        np.cumsum(cl, out=cl)
        carry = int(cl[-1])
        np.right_shift(cl, _HIGH, out=out[begin : begin + width, 0])
        np.bitwise_and(cl, low, out=out[begin : begin + width, 1])
    return out


_HIGH = 32
"""A cell carried as one number in :func:`expand_pairs`: ``row << _HIGH | col``."""


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
    ``start``; with no start the cells are returned as they are. Cells given
    as rows and columns (an ``(k, 2)`` array) are rotated as such.

    Examples:
        >>> rotated(np.array([5, 9, 2, 7]), (0, 2), n=10).tolist()
        [2, 7, 5, 9]
        >>> rotated(np.array([[0, 5], [0, 9], [0, 2]]), (0, 9), n=10).tolist()
        [[0, 9], [0, 2], [0, 5]]
    """
    if start is None:
        return cells
    if cells.ndim == 2:
        hit = (cells[:, 0] == start[0]) & (cells[:, 1] == start[1])
        return np.roll(cells, -int(np.flatnonzero(hit)[0]), axis=0)
    at = int(np.flatnonzero(cells == start[0] * n + start[1])[0])
    return np.roll(cells, -at)
