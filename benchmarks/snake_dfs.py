"""The longest knight snake (induced path) on m x n, by a compiled depth-first search.

A snake is a path whose cells no move joins but consecutive ones (OEIS
A357500 counts its cells on n x n: 1, 1, 7, 9, 15, 21, 24, 34 for n = 1..8).
cpknight proves 40 cells on 9 x 9 by its frontier program (a transfer-matrix
program over the cells, ``cpknight longest 9x9 --induced --method frontier``);
this script is the second route, of another design: a depth-first branch and
bound over the paths themselves, compiled with numba, written apart from the
library (it reads only the board's size).

The search, from each start cell up to the board's symmetries (every path has
an end, and some symmetry takes that end to a representative):

- a cell joins the path after the head when it is a move from the head and
  from no other path cell (``near[v] == 1``: the count of path cells a move
  away);
- a branch is cut when its moves plus ``room`` cannot pass the best so far:
  ``room`` is what the path can still take, counted on the cells the head
  reaches through cells that touch no path cell but the head. Of the head's
  own moves the path takes one, the next cell (another would be a chord).
  A cell the path passes through after it needs two moves to cells of that
  set (or the head); one with fewer can only be the last, which adds one.
  After the next cell the path alternates the two colours of the board,
  beginning with the head's, so of ``a`` usable cells of the head's colour
  and ``b`` of the other (the head's moves left out) it takes at most
  ``min(a, b + 1) + min(b, a)``.

A second bound cuts the board into 4 x 4 tiles: what the path still takes
in a tile has no chord, so it is a *linear forest* there (paths, no cell
joined to three, no cycle), and a table made once per tile shape gives the
most cells of such a forest in each set of the tile's cells. The sum over
the tiles, plus one for a last cell, bounds the room too; the search takes
the lower of the two bounds (``--no-tiles``: the colours' alone).

``--closed`` asks for induced cycles instead (OEIS A165143 counts their
cells on n x n: 8, 10, 16, 20, 22, 32, 40, 48 for n = 3..10). A cycle is
searched from its least cell (in rank-major order), on the cells whose every
image under the board's symmetries is at least that cell (some image of each
cycle lies there), in one direction (its second cell before its last). A move
from the first cell can only be the last cell; the bound counts the cells as
for a path, plus one for the last, and cuts a branch from which no last cell
is reachable.

``--above K`` proves that no snake has more than ``K`` moves: the search
starts with ``K`` as the best so far, so it reports only longer snakes (and
``none`` if it ends without one). With ``K`` one below a known snake's moves,
the two together are the optimum.

Checkpoints (``--dir``): one JSON line per start cell finished (the cell, the
most moves found from it, the path, the nodes and seconds), so the command
resumes after Ctrl-C, a crash or the end of a session. ``--jobs 2`` splits the
start cells between two processes. ``--split K`` makes a task (and a line) of
each start cell with each way of taking its next ``K`` cells, so that a long
start cell is finished in pieces and two processes share it; the tasks find
only snakes longer than ``K`` moves, so it needs ``--above K`` or more.

Usage::

    python benchmarks/snake_dfs.py 8x8                    # A357500(8) = 34 cells
    python benchmarks/snake_dfs.py 9x9 --above 39 --dir DIR --jobs 2
    python benchmarks/snake_dfs.py 10x10 --closed         # A165143(10) = 48
    python benchmarks/snake_dfs.py 11x11 --closed --above 57 --split 3 --dir DIR

Exit code 0 when the search ran to the end (it prints the answer), 1 if it
was stopped (the checkpoint keeps what is finished).
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import queue
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
from numba import njit

MOVES = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

# The searches run in spawned workers, which import this module by its name:
# from beside it, as when it is loaded by path (the tests) rather than run.
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.append(str(Path(__file__).resolve().parent))


def parse_size(text: str) -> tuple[int, int]:
    """``'9x9'`` -> ``(9, 9)`` (ranks, files)."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise ValueError(f"a board is RANKSxFILES, like 9x9, not {text!r}")
    return int(parts[0]), int(parts[1])


@functools.cache
def tables(rows: int, cols: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Each cell's moves (``-1`` padded) and their number; cell = rank * cols + file."""
    n = rows * cols
    adj = np.full((n, 8), -1, np.int32)
    deg = np.zeros(n, np.int32)
    for r in range(rows):
        for c in range(cols):
            for dr, dc in MOVES:
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    v = r * cols + c
                    adj[v, deg[v]] = rr * cols + cc
                    deg[v] += 1
    return adj, deg


def symmetries(rows: int, cols: int) -> list[list[int]]:
    """The board's symmetries as cell permutations (8 on a square, else 4)."""
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, c),
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
    if rows == cols:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (cols - 1 - c, r),
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (cols - 1 - c, rows - 1 - r),
        ]
    out = []
    for f in maps:
        perm = []
        for v in range(rows * cols):
            r, c = f(*divmod(v, cols))
            perm.append(r * cols + c)
        out.append(perm)
    return out


def start_cells(rows: int, cols: int) -> list[int]:
    """The least cell of each orbit of the board's symmetries."""
    perms = symmetries(rows, cols)
    return sorted({min(p[v] for p in perms) for v in range(rows * cols)})


TILE = 4  # the side of the tiles of the second bound


@njit(cache=True)
def _forest_table(near: npt.NDArray[np.int64], n: int) -> npt.NDArray[np.int8]:
    """For each set of a tile's ``n`` cells, the most of them a snake can hold.

    ``near[v]``: the cells a move from ``v`` in the tile, as bits. The cells
    a snake still takes (or a cycle, between its head and its first cell) are
    a path with no chord, so those of them in any set of cells make a
    *linear forest*: paths, no cell joined to three, no cycle. The table is,
    for each set, the most cells of such a forest in it.
    """
    size = 1 << n
    best = np.zeros(size, np.int8)
    parent = np.empty(n, np.int64)
    for m in range(size):
        forest = True
        cells = ends = 0
        for v in range(n):
            if m >> v & 1:
                cells += 1
                links = 0
                x = near[v] & m
                while x:
                    x &= x - 1
                    links += 1
                if links > 2:
                    forest = False
                    break
                ends += links
        if forest:  # acyclic: as many links as cells less parts
            for v in range(n):
                parent[v] = v
            parts = cells
            for v in range(n):
                if m >> v & 1:
                    x = near[v] & m
                    for w in range(v + 1, n):
                        if x >> w & 1:
                            a = v
                            while parent[a] != a:
                                a = parent[a]
                            b = w
                            while parent[b] != b:
                                b = parent[b]
                            if a != b:
                                parent[a] = b
                                parts -= 1
            forest = ends // 2 == cells - parts
        if forest:
            best[m] = cells
        else:
            for v in range(n):
                if m >> v & 1 and best[m & ~(1 << v)] > best[m]:
                    best[m] = best[m & ~(1 << v)]
    return best


@functools.cache
def tile_tables(
    rows: int, cols: int, tiles: bool = True
) -> tuple[
    npt.NDArray[np.int32],
    npt.NDArray[np.int32],
    npt.NDArray[np.int64],
    npt.NDArray[np.int8],
]:
    """The board cut into ``TILE`` x ``TILE`` tiles: each cell's tile and bit,
    each tile's place in the flat table, and the tables (:func:`_forest_table`).

    ``tiles=False`` gives tables that count every cell (the bound by colour
    alone then decides), for a comparison.
    """
    tile_of = np.zeros(rows * cols, np.int32)
    bit_of = np.zeros(rows * cols, np.int32)
    offsets: list[int] = []
    parts: list[npt.NDArray[np.int8]] = []
    done: dict[tuple[int, int], npt.NDArray[np.int8]] = {}
    at = 0
    for r0 in range(0, rows, TILE):
        for c0 in range(0, cols, TILE):
            h, w = min(TILE, rows - r0), min(TILE, cols - c0)
            for r in range(h):
                for c in range(w):
                    v = (r0 + r) * cols + c0 + c
                    tile_of[v] = len(offsets)
                    bit_of[v] = r * w + c
            if (h, w) not in done:
                near = np.zeros(h * w, np.int64)
                for u in range(h * w):
                    r, c = divmod(u, w)
                    for dr, dc in MOVES:
                        if 0 <= r + dr < h and 0 <= c + dc < w:
                            near[u] |= 1 << ((r + dr) * w + c + dc)
                if tiles:
                    done[(h, w)] = _forest_table(near, h * w)
                else:
                    count = [bin(m).count("1") for m in range(1 << (h * w))]
                    done[(h, w)] = np.array(count, np.int8)
            offsets.append(at)
            parts.append(done[(h, w)])
            at += len(done[(h, w)])
    return tile_of, bit_of, np.array(offsets, np.int64), np.concatenate(parts)


@njit(cache=True)
def _tiled(
    offset: npt.NDArray[np.int64],
    table: npt.NDArray[np.int8],
    masks: npt.NDArray[np.int64],
) -> int:
    """The most cells of the marked sets a snake holds, tile by tile (and clears)."""
    total = 0
    for t in range(masks.shape[0]):
        total += table[offset[t] + masks[t]]
        masks[t] = 0
    return total


@njit(cache=True)
def path_room(
    head: int,
    adj: npt.NDArray[np.int32],
    deg: npt.NDArray[np.int32],
    colour: npt.NDArray[np.int8],
    used: npt.NDArray[np.bool_],
    near: npt.NDArray[np.int32],
    mark: npt.NDArray[np.int64],
    stamp: int,
    seen: npt.NDArray[np.int32],
    by_head: npt.NDArray[np.int64],
    tile_of: npt.NDArray[np.int32],
    bit_of: npt.NDArray[np.int32],
    offset: npt.NDArray[np.int64],
    table: npt.NDArray[np.int8],
    masks: npt.NDArray[np.int64],
) -> int:
    """At most how many cells the path can still take beyond ``head``."""
    # the cells a move from the head: usable when the head is their only
    # path neighbour; other cells: when they have none
    for j in range(deg[head]):
        by_head[adj[head, j]] = stamp
    mark[head] = stamp
    seen[0] = head
    top = 1
    at = 0
    while at < top:
        u = seen[at]
        at += 1
        for i in range(deg[u]):
            v = adj[u, i]
            if mark[v] == stamp or used[v]:
                continue
            if near[v] != (1 if by_head[v] == stamp else 0):
                continue
            mark[v] = stamp
            seen[top] = v
            top += 1
    # Of the head's moves the path takes one, the next cell: another would be
    # a chord. The cells after it are the head's colour, then the other, ...
    own = other = leaves = first = 0
    for k in range(1, top):
        v = seen[k]
        if by_head[v] == stamp:
            first = 1
            continue
        links = 0
        for i in range(deg[v]):
            if mark[adj[v, i]] == stamp:
                links += 1
        if links < 2:
            leaves = 1
            continue
        masks[tile_of[v]] |= np.int64(1) << bit_of[v]
        if colour[v] == colour[head]:
            own += 1
        else:
            other += 1
    tiled = _tiled(offset, table, masks)
    if first == 0:
        return 0
    return int(1 + min(min(own, other + 1) + min(other, own), tiled) + leaves)


@njit(cache=True)
def _take_prefix(
    prefix: npt.NDArray[np.int32],
    adj: npt.NDArray[np.int32],
    deg: npt.NDArray[np.int32],
    used: npt.NDArray[np.bool_],
    near: npt.NDArray[np.int32],
    path: npt.NDArray[np.int32],
) -> int:
    """Put the prefix's cells on the path after ``path[0]``: its depth then.

    -1 if they are no snake: a cell no move from the one before, taken, or a
    move from another path cell.
    """
    depth = 0
    for k in range(prefix.shape[0]):
        v = prefix[k]
        joined = False
        for i in range(deg[path[depth]]):
            joined = joined or adj[path[depth], i] == v
        if not joined or used[v] or near[v] != 1:
            return -1
        used[v] = True
        for i in range(deg[v]):
            near[adj[v, i]] += 1
        depth += 1
        path[depth] = v
    return depth


@njit(cache=True)
def search_from(
    start: int,
    prefix: npt.NDArray[np.int32],
    adj: npt.NDArray[np.int32],
    deg: npt.NDArray[np.int32],
    colour: npt.NDArray[np.int8],
    above: int,
    best_path: npt.NDArray[np.int32],
    tile_of: npt.NDArray[np.int32],
    bit_of: npt.NDArray[np.int32],
    offset: npt.NDArray[np.int64],
    table: npt.NDArray[np.int8],
) -> tuple[int, int]:
    """The most moves of a snake from ``start`` if more than ``above``, else ``above``.

    The snake is written to ``best_path`` (its cells, then ``-1``). Returns
    ``(moves, nodes)``. ``prefix``: the cells after ``start`` every snake
    searched begins with (none: all snakes from ``start``); ``(above, 0)``
    if they are no snake.
    """
    n = deg.shape[0]
    used = np.zeros(n, np.bool_)
    near = np.zeros(n, np.int32)
    mark = np.zeros(n, np.int64)
    by_head = np.zeros(n, np.int64)
    seen = np.empty(n, np.int32)
    path = np.empty(n, np.int32)
    nxt = np.zeros(n, np.int32)  # the next move to try at each depth
    masks = np.zeros(offset.shape[0], np.int64)
    best = above
    nodes = 0
    stamp = 0
    path[0] = start
    used[start] = True
    for i in range(deg[start]):
        near[adj[start, i]] += 1
    depth = _take_prefix(prefix, adj, deg, used, near, path)
    if depth < 0:
        return best, 0
    base = depth
    fresh = True  # the head was just entered: record it and bound it
    while depth >= base:
        head = path[depth]
        if fresh:
            fresh = False
            nodes += 1
            if depth > best:
                best = depth
                for k in range(depth + 1):
                    best_path[k] = path[k]
                best_path[depth + 1] = -1
            stamp += 1
            room = path_room(
                head,
                adj,
                deg,
                colour,
                used,
                near,
                mark,
                stamp,
                seen,
                by_head,
                tile_of,
                bit_of,
                offset,
                table,
                masks,
            )
            if depth + room <= best:
                nxt[depth] = deg[head]  # cut: nothing below can pass the best
            else:
                nxt[depth] = 0
        if nxt[depth] < deg[head]:
            v = adj[head, nxt[depth]]
            nxt[depth] += 1
            if used[v] or near[v] != 1:
                continue
            used[v] = True
            for i in range(deg[v]):
                near[adj[v, i]] += 1
            depth += 1
            path[depth] = v
            fresh = True
        else:
            used[head] = False
            for i in range(deg[head]):
                near[adj[head, i]] -= 1
            depth -= 1
    return best, nodes


def cycle_cells(rows: int, cols: int) -> dict[int, list[int]]:
    """For each start ``s`` (an orbit's least cell), the cells a cycle may use.

    Of a cycle's images under the board's symmetries take one whose least cell
    is least of all: every image's least cell is at least its own ``s``, so
    every cell ``v`` on it has ``g(v) >= s`` for every symmetry ``g``. The
    cycles with least cell ``s`` are searched on those cells alone.
    """
    perms = symmetries(rows, cols)
    low = [min(p[v] for p in perms) for v in range(rows * cols)]
    return {
        s: [v for v in range(rows * cols) if low[v] >= s]
        for s in range(rows * cols)
        if low[s] == s
    }


@njit(cache=True)
def cycle_room(
    head: int,
    adj: npt.NDArray[np.int32],
    deg: npt.NDArray[np.int32],
    colour: npt.NDArray[np.int8],
    used: npt.NDArray[np.bool_],
    near: npt.NDArray[np.int32],
    by_start: npt.NDArray[np.int32],
    mark: npt.NDArray[np.int64],
    stamp: int,
    seen: npt.NDArray[np.int32],
    by_head: npt.NDArray[np.int64],
    tile_of: npt.NDArray[np.int32],
    bit_of: npt.NDArray[np.int32],
    offset: npt.NDArray[np.int64],
    table: npt.NDArray[np.int8],
    masks: npt.NDArray[np.int64],
) -> int:
    """At most how many cells the cycle still takes after ``head`` (-1: none closes).

    The cells the head reaches through cells whose only path neighbours are
    the head (and, for the last cell, the start). A move from the start can
    only be the last cell, so the search does not go on from one.
    """
    for j in range(deg[head]):
        by_head[adj[head, j]] = stamp
    mark[head] = stamp
    seen[0] = head
    top = 1
    at = 0
    while at < top:
        u = seen[at]
        at += 1
        if at > 1 and by_start[u] == 1:
            continue  # a last cell: nothing comes after it
        for i in range(deg[u]):
            v = adj[u, i]
            if mark[v] == stamp or used[v]:
                continue
            if near[v] != (1 if by_head[v] == stamp else 0) + by_start[v]:
                continue
            mark[v] = stamp
            seen[top] = v
            top += 1
    # Of the head's moves the cycle takes one (the next cell), of the start's
    # one (the last); the cells between are the head's colour, the other, ...
    own = other = first = 0
    closes = False
    for k in range(1, top):
        v = seen[k]
        if by_start[v] == 1:
            closes = True
            continue
        if by_head[v] == stamp:
            first = 1
            continue
        links = 0
        for i in range(deg[v]):
            if mark[adj[v, i]] == stamp:
                links += 1
        if links < 2:
            continue  # neither on the way nor last: no use
        masks[tile_of[v]] |= np.int64(1) << bit_of[v]
        if colour[v] == colour[head]:
            own += 1
        else:
            other += 1
    tiled = _tiled(offset, table, masks)
    if not closes:
        return -1
    return int(first + min(min(own, other + 1) + min(other, own), tiled) + 1)


@njit(cache=True)
def search_cycle_from(
    start: int,
    prefix: npt.NDArray[np.int32],
    allowed: npt.NDArray[np.bool_],
    adj: npt.NDArray[np.int32],
    deg: npt.NDArray[np.int32],
    colour: npt.NDArray[np.int8],
    above: int,
    best_path: npt.NDArray[np.int32],
    tile_of: npt.NDArray[np.int32],
    bit_of: npt.NDArray[np.int32],
    offset: npt.NDArray[np.int64],
    table: npt.NDArray[np.int8],
) -> tuple[int, int]:
    """The most moves of an induced cycle through ``start`` on ``allowed`` cells.

    Only cycles longer than ``above`` moves are reported (else ``above``
    comes back). A cycle is taken in one direction: its second cell before
    its last. It is written to ``best_path`` (its cells, then ``-1``).
    Returns ``(moves, nodes)``. ``prefix``: the cells after ``start`` every
    cycle searched begins with.
    """
    n = deg.shape[0]
    used = np.zeros(n, np.bool_)
    for v in range(n):
        used[v] = not allowed[v]  # off the cycle, and joined to nothing on it
    near = np.zeros(n, np.int32)
    by_start = np.zeros(n, np.int32)
    mark = np.zeros(n, np.int64)
    by_head = np.zeros(n, np.int64)
    seen = np.empty(n, np.int32)
    path = np.empty(n, np.int32)
    nxt = np.zeros(n, np.int32)
    masks = np.zeros(offset.shape[0], np.int64)
    best = above
    nodes = 0
    stamp = 0
    path[0] = start
    used[start] = True
    for i in range(deg[start]):
        near[adj[start, i]] += 1
        by_start[adj[start, i]] = 1
    depth = _take_prefix(prefix, adj, deg, used, near, path)
    if depth < 0:
        return best, 0
    base = depth
    fresh = True
    while depth >= base:
        head = path[depth]
        if fresh:
            fresh = False
            nodes += 1
            nxt[depth] = 0
            if depth >= 1:
                stamp += 1
                room = cycle_room(
                    head,
                    adj,
                    deg,
                    colour,
                    used,
                    near,
                    by_start,
                    mark,
                    stamp,
                    seen,
                    by_head,
                    tile_of,
                    bit_of,
                    offset,
                    table,
                    masks,
                )
                # every cycle of knight moves is even (a move changes colour)
                if room < 0 or (depth + 1 + room) & ~1 <= best:
                    nxt[depth] = deg[head]
        if nxt[depth] < deg[head]:
            v = adj[head, nxt[depth]]
            nxt[depth] += 1
            if used[v]:
                continue
            if depth >= 2 and by_start[v] == 1 and near[v] == 2:
                # v closes the cycle: its path neighbours are the head and start
                if depth + 2 > best and v > path[1]:
                    best = depth + 2
                    for k in range(depth + 1):
                        best_path[k] = path[k]
                    best_path[depth + 1] = v
                    best_path[depth + 2] = -1
                continue
            if near[v] != 1:
                continue
            used[v] = True
            for i in range(deg[v]):
                near[adj[v, i]] += 1
            depth += 1
            path[depth] = v
            fresh = True
        else:
            used[head] = False
            for i in range(deg[head]):
                near[adj[head, i]] -= 1
            depth -= 1
    return best, nodes


def colours(rows: int, cols: int) -> npt.NDArray[np.int8]:
    return np.array([(v // cols + v % cols) % 2 for v in range(rows * cols)], np.int8)


def name(v: int, cols: int) -> str:
    r, c = divmod(v, cols)
    return f"{chr(ord('a') + c)}{r + 1}"


def check_snake(rows: int, cols: int, cells: list[int]) -> None:
    """Raise unless ``cells`` is a snake: distinct, a move apart in turn, no chord."""
    if len(set(cells)) != len(cells):
        raise AssertionError("a cell twice")
    if not all(0 <= v < rows * cols for v in cells):
        raise AssertionError("a cell off the board")
    at = {v: i for i, v in enumerate(cells)}

    def moves(v: int) -> set[int]:
        r, c = divmod(v, cols)
        return {
            (r + dr) * cols + c + dc
            for dr, dc in MOVES
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        }

    for i, v in enumerate(cells):
        for w in moves(v):
            j = at.get(w)
            if j is not None and abs(i - j) != 1:
                raise AssertionError(f"{name(v, cols)} joins a path cell past its own")
        if i and cells[i - 1] not in moves(v):
            raise AssertionError(f"{name(cells[i - 1], cols)}-{name(v, cols)} no move")


def check_cycle(rows: int, cols: int, cells: list[int]) -> None:
    """Raise unless ``cells`` is an induced cycle: a snake, its ends a move apart."""
    if len(cells) < 4:
        raise AssertionError("a cycle of knight moves has at least four cells")
    if len(set(cells)) != len(cells):
        raise AssertionError("a cell twice")
    check_snake(rows, cols, cells[1:])  # every chord but those at the first cell
    r, c = divmod(cells[0], cols)
    joined = {
        i
        for i, v in enumerate(cells)
        if (abs(v // cols - r), abs(v % cols - c)) in ((1, 2), (2, 1))
    }
    if joined != {1, len(cells) - 1}:
        raise AssertionError(
            f"{name(cells[0], cols)} is not joined to its two neighbours alone"
        )


def prefixes(
    rows: int, cols: int, start: int, k: int, closed: bool
) -> list[tuple[int, ...]]:
    """Every way a snake (or cycle) from ``start`` can take its next ``k`` cells.

    A cell joins when it is a move from the last and from no other cell
    taken; a cycle takes only cells of its start's list (:func:`cycle_cells`).
    """
    adj, deg = tables(rows, cols)
    allowed = set(cycle_cells(rows, cols)[start]) if closed else set(range(rows * cols))
    out: list[tuple[int, ...]] = []

    def grow(path: list[int]) -> None:
        if len(path) == k + 1:
            out.append(tuple(path[1:]))
            return
        for i in range(deg[path[-1]]):
            v = int(adj[path[-1], i])
            touching = [u for u in path if v in adj[u, : deg[u]]]
            if v in allowed and v not in path and touching == [path[-1]]:
                grow([*path, v])

    grow([start])
    return out


def task_name(start: int, prefix: tuple[int, ...], cols: int) -> str:
    """A checkpoint's key: the start cell, then the prefix's cells."""
    return " ".join(name(v, cols) for v in (start, *prefix))


def run_start(
    rows: int,
    cols: int,
    start: int,
    above: int,
    closed: bool = False,
    tiles: bool = True,
    prefix: tuple[int, ...] = (),
) -> dict[str, object]:
    """One start cell (or one prefix from it) searched to the end: its JSON line.

    ``closed``: the induced cycles whose least cell (of all their images) is
    ``start``; their moves are their cells. ``tiles=False``: without the
    tiles' bound (the bound by colour alone), for a comparison. ``prefix``:
    only the snakes that take these cells after ``start``, and only those of
    more moves than the prefix (``above`` must be at least its length).
    """
    adj, deg = tables(rows, cols)
    tiling = tile_tables(rows, cols, tiles)
    best_path = np.full(rows * cols + 1, -1, np.int32)
    first = np.array(prefix, np.int32)
    began = time.perf_counter()
    if closed:
        allowed = np.zeros(rows * cols, np.bool_)
        allowed[cycle_cells(rows, cols)[start]] = True
        moves, nodes = search_cycle_from(
            start,
            first,
            allowed,
            adj,
            deg,
            colours(rows, cols),
            above,
            best_path,
            *tiling,
        )
    else:
        moves, nodes = search_from(
            start, first, adj, deg, colours(rows, cols), above, best_path, *tiling
        )
    seconds = time.perf_counter() - began
    cells: list[int] = []
    if moves > above:
        cells = [int(v) for v in best_path[: moves if closed else moves + 1]]
        (check_cycle if closed else check_snake)(rows, cols, cells)
        if tuple(cells[1 : len(prefix) + 1]) != prefix:
            raise AssertionError("the answer does not begin with its prefix")
    return {
        "start": name(start, cols),
        "task": task_name(start, prefix, cols),
        "above": above,
        "moves": int(moves) if moves > above else None,
        "path": [name(v, cols) for v in cells],
        "nodes": int(nodes),
        "seconds": round(seconds, 3),
    }


def _job(
    args: tuple[int, int, int, int, bool, bool, tuple[int, ...]],
) -> dict[str, object]:
    return run_start(*args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("board", help="RANKSxFILES, like 9x9")
    parser.add_argument(
        "--above", type=int, default=-1, help="report only snakes of more moves"
    )
    parser.add_argument(
        "--closed",
        action="store_true",
        help="induced cycles (OEIS A165143) instead of paths",
    )
    parser.add_argument(
        "--no-tiles",
        action="store_true",
        help="bound by colour alone, without the tiles (for a comparison)",
    )
    parser.add_argument(
        "--split",
        type=int,
        default=0,
        metavar="K",
        help="one task (and checkpoint line) per start cell and its next K cells;"
        " needs --above K or more",
    )
    parser.add_argument("--dir", type=Path, help="the checkpoint's directory")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    try:
        rows, cols = parse_size(args.board)
    except ValueError as error:
        print(f"snake_dfs.py: {error}", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("snake_dfs.py: --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.split < 0 or 0 < args.split > args.above:
        print(
            "snake_dfs.py: --split K needs 0 <= K <= --above (a task finds only"
            " snakes longer than its K cells)",
            file=sys.stderr,
        )
        return 2
    done: dict[str, dict[str, object]] = {}
    log = None
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        kind = "cycle" if args.closed else "snake"
        kind += "-untiled" if args.no_tiles else ""
        split = f"-split{args.split}" if args.split else ""
        log = args.dir / f"{kind}-{rows}x{cols}-above{args.above}{split}.jsonl"
        if log.exists():
            whole = []
            for line in log.read_text().splitlines():
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:  # cut short by a crash: done again
                    continue
                done[str(row.get("task", row["start"]))] = row
                whole.append(line)
            mended = log.with_suffix(".mended")
            mended.write_text("".join(line + "\n" for line in whole))
            os.replace(mended, log)  # whole lines only, never half a file
    tasks: list[tuple[int, tuple[int, ...]]] = []
    try:
        starts = (
            sorted(cycle_cells(rows, cols)) if args.closed else start_cells(rows, cols)
        )
        tasks = [
            (start, prefix)
            for start in starts
            for prefix in (
                prefixes(rows, cols, start, args.split, args.closed)
                if args.split
                else [()]
            )
        ]
        todo = [t for t in tasks if task_name(*t, cols) not in done]
        began = time.perf_counter()
        tiles = not args.no_tiles
        jobs = [
            (rows, cols, start, args.above, args.closed, tiles, prefix)
            for start, prefix in todo
        ]
        print(
            f"{rows}x{cols}: {len(starts)} start cells up to symmetry,"
            f" {len(tasks)} tasks, {len(done)} done before;"
            f" above {args.above} moves",
            flush=True,
        )
        # The searches run in worker processes: compiled code does not hear
        # Ctrl-C, and the pool's workers are ended the moment it comes.
        _run_pool(args.jobs, jobs, args.above, done, log)
    except KeyboardInterrupt:
        if tasks:
            print(f"stopped: {len(done)} of {len(tasks)} tasks done", flush=True)
        else:
            print("stopped while the tasks were listed: nothing new done", flush=True)
        return 1
    found = [row for row in done.values() if row["moves"] is not None]
    nodes = sum(int(str(row["nodes"])) for row in done.values())
    cpu = sum(float(str(row["seconds"])) for row in done.values())
    print(
        f"all {len(tasks)} tasks: {nodes:,} nodes, {cpu:.1f} s of search "
        f"({time.perf_counter() - began:.1f} s wall this run)"
    )
    what = "induced cycle" if args.closed else "snake"
    if not found:
        print(f"none: no {what} on {rows}x{cols} has more than {args.above} moves")
        return 0
    top = max(found, key=lambda row: int(str(row["moves"])))
    moves = int(str(top["moves"]))
    cells = moves if args.closed else moves + 1
    print(f"longest {what}: {moves} moves ({cells} cells), proved")
    print("path: " + " ".join(str(c) for c in top["path"]))  # type: ignore[attr-defined]
    return 0


def _run_pool(
    processes: int,
    jobs: list[tuple[int, int, int, int, bool, bool, tuple[int, ...]]],
    above: int,
    done: dict[str, dict[str, object]],
    log: Path | None,
) -> None:
    """Run ``jobs`` in ``processes`` spawned workers, writing each line as it ends.

    A task is handed out when a worker is free, with the most moves found so
    far as its bar (``above`` at first), so a snake found by one task bounds
    every task that starts after it, with one worker or several.
    """
    if not jobs:
        return
    finished: queue.SimpleQueue[dict[str, object] | BaseException] = queue.SimpleQueue()
    waiting = list(reversed(jobs))
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(processes, len(jobs))) as pool:

        def hand_out() -> None:
            job = waiting.pop()
            found = [r["moves"] for r in done.values() if r["moves"] is not None]
            bar = max([above] + [int(str(m)) for m in found])
            pool.apply_async(
                _job,
                ((*job[:3], bar, *job[4:]),),
                callback=finished.put,
                error_callback=finished.put,
            )

        running = 0
        while waiting or running:
            while waiting and running < processes:
                hand_out()
                running += 1
            row = finished.get()
            running -= 1
            if isinstance(row, BaseException):
                raise row
            done[str(row["task"])] = row
            _write(log, row)


def _write(log: Path | None, row: dict[str, object]) -> None:
    print(
        f"  {row['task']}: {row['moves'] if row['moves'] is not None else 'none'}"
        f" ({row['nodes']:,} nodes, {row['seconds']} s)",
        flush=True,
    )
    if log is None:
        return
    with log.open("a") as f:
        f.write(json.dumps(row) + "\n")
        f.flush()
        os.fsync(f.fileno())


if __name__ == "__main__":
    sys.exit(main())
