"""The search engine's snakes compiled with numba (``cpknight[fast]``).

The same depth-first branch and bound as the plain search of
:mod:`cpknight.longest.search` on the induced puzzles (snakes: paths and
cycles with no chord), move for move: the same start cells, the same order of
moves, the same bound, so the same answer and the same counts of attempts and
backtracks (the tests hold the two equal). The recursion is a stack of
arrays (the path, and per depth the next move to try), so that
:func:`snake_loop` can stop when its budget of work is spent and go on at the
next call: the caller looks at the clock and hears Ctrl-C between two calls,
a few milliseconds apart.

The arrays of a search are made by :func:`snake_arrays`; the scalars live in
one ``int64`` array, ``state``, read and written at the ``S_*`` indices.

This module imports numba: it is imported only where numba is installed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = [
    "ARRAY_ORDER",
    "S_ATTEMPTS",
    "S_BACKTRACKS",
    "S_BEST",
    "S_BEST_CELLS",
    "S_DEPTH",
    "S_DONE",
    "S_FRESH",
    "S_START",
    "snake_arrays",
    "snake_loop",
]

S_START, S_DEPTH, S_FRESH, S_BEST, S_BEST_CELLS = 0, 1, 2, 3, 4
S_ATTEMPTS, S_BACKTRACKS, S_DONE, S_STAMP = 5, 6, 7, 8
STATE_SIZE = 9


ARRAY_ORDER = (
    "used",
    "near",
    "by_start",
    "mark",
    "head_mark",
    "queue",
    "path",
    "next_move",
    "best_path",
    "state",
)
"""The arrays of :func:`snake_arrays`, in the order :func:`snake_loop` takes them."""


def snake_arrays(n: int) -> dict[str, Any]:
    """The arrays of a search over ``n`` cells, before its first call.

    ``state``: no start cell begun (``S_START`` -1, ``S_DEPTH`` -1), no snake
    found (``S_BEST`` -1).
    """
    state = np.zeros(STATE_SIZE, np.int64)
    state[S_START] = state[S_DEPTH] = state[S_BEST] = -1
    return {
        "used": np.zeros(n, np.bool_),
        "near": np.zeros(n, np.int64),
        "by_start": np.zeros(n, np.bool_),
        "mark": np.zeros(n, np.int64),
        "head_mark": np.zeros(n, np.int64),
        "queue": np.zeros(n + 1, np.int64),
        "path": np.zeros(n + 1, np.int64),
        "next_move": np.zeros(n + 1, np.int64),
        "best_path": np.zeros(n + 1, np.int64),
        "state": state,
    }


@njit(cache=True)
def _enter(v: int, indptr: Any, indices: Any, used: Any, near: Any, step: int) -> None:
    """Mark ``v`` on the path (``step`` 1) or off it (``step`` -1)."""
    used[v] = step > 0
    for k in range(indptr[v], indptr[v + 1]):
        near[indices[k]] += step


@njit(cache=True)
def _room(
    head: int,
    depth: int,
    closed: bool,
    bipartite: bool,
    indptr: Any,
    indices: Any,
    colour: Any,
    least: Any,
    used: Any,
    near: Any,
    by_start: Any,
    mark: Any,
    head_mark: Any,
    queue: Any,
    state: Any,
    start: int,
    tiles: Any,
) -> tuple[int, int]:
    """At most how many more cells the snake takes from ``head``, and the work.

    The plain search's ``room``: the cells ``head`` reaches through cells that
    touch no path cell but the head (and, for a cycle past its start, the
    start); those with two moves into that set (the head and the start
    included) counted by colour (and by the tiles' tables, ``tiles``: see
    :func:`snake_loop`), one more for a last cell. A cycle whose head reaches
    no move of its start: ``-n``, a cut.
    """
    n = len(used)
    state[S_STAMP] += 1
    stamp = state[S_STAMP]
    for k in range(indptr[head], indptr[head + 1]):
        head_mark[indices[k]] = stamp
    past_start = closed and depth > 0
    low = start if closed else -1
    mark[head] = stamp
    queue[0] = head
    reached = 1
    done = 0
    while done < reached:  # breadth first: the queue keeps every cell reached
        u = queue[done]
        done += 1
        for k in range(indptr[u], indptr[u + 1]):
            v = indices[k]
            if mark[v] == stamp or least[v] < low or used[v]:
                continue
            wanted = (head_mark[v] == stamp) + (past_start and by_start[v])
            if near[v] != wanted:
                continue
            mark[v] = stamp
            queue[reached] = v
            reached += 1
    if past_start:
        if not by_start[head]:
            back = False
            for k in range(indptr[start], indptr[start + 1]):
                if mark[indices[k]] == stamp:
                    back = True
                    break
            if not back:
                return -n, reached
        mark[start] = stamp
    one_next = not closed or depth > 0  # a cycle's start: two of its moves
    tile, tile_bit, tile_offset, tile_table, tile_sets = tiles
    tiled = one_next and len(tile_offset) > 0
    counts0 = counts1 = leaves = nexts = 0
    for i in range(1, reached):
        v = queue[i]
        if one_next and head_mark[v] == stamp:
            nexts = 1
            continue
        degree = 0
        for k in range(indptr[v], indptr[v + 1]):
            if mark[indices[k]] == stamp:
                degree += 1
                if degree == 2:
                    break
        if degree >= 2:
            if colour[v]:
                counts1 += 1
            else:
                counts0 += 1
            if tiled:
                tile_sets[tile[v]] |= tile_bit[v]
        else:
            leaves = 1
    own, other = (counts1, counts0) if colour[head] else (counts0, counts1)
    if one_next and nexts:  # the next cell, then the head's colour first
        most = own + other
        if bipartite:
            most = min(own, other + 1) + min(other, own)
        if tiled:
            forests = 0
            for t in range(len(tile_offset)):
                forests += tile_table[tile_offset[t] + tile_sets[t]]
                tile_sets[t] = 0
            most = min(most, forests)
        return 1 + most + leaves, reached
    if tiled:
        tile_sets[:] = 0
    if one_next:
        return 0, reached  # the head reaches nothing
    if not bipartite:
        return own + other + leaves, reached
    return min(other, own + 1) + min(own, other) + leaves, reached


@njit(cache=True)
def snake_loop(
    indptr: Any,
    indices: Any,
    colour: Any,
    least: Any,
    bipartite: bool,
    closed: bool,
    starts: Any,
    bound: int,
    budget: int,
    tiles: Any,
    used: Any,
    near: Any,
    by_start: Any,
    mark: Any,
    head_mark: Any,
    queue: Any,
    path: Any,
    next_move: Any,
    best_path: Any,
    state: Any,
) -> bool:
    """Search on until ``budget`` work is done (False) or the search ends (True).

    ``least[v]``: the least cell of ``v``'s orbit under the board's
    reflections; a cycle from ``start`` takes only cells with
    ``least[v] >= start`` (a path, every cell). Work: a move tried, or a cell
    the bound reached. The best snake is in
    ``best_path[:state[S_BEST_CELLS]]``, ``state[S_BEST]`` moves (-1: none
    yet); the counts in ``state[S_ATTEMPTS]`` and ``state[S_BACKTRACKS]``.
    ``tiles``: the tiles' bound (:mod:`cpknight.longest.forests`) as arrays,
    ``(tile, bit, offset, table, sets)``, ``sets`` zeros a tile; no tiles
    (``offset`` empty): the colours' bound alone.
    """
    if state[S_DONE]:
        return True
    si = state[S_START]
    depth = state[S_DEPTH]
    fresh = state[S_FRESH] != 0
    best = state[S_BEST]
    attempts = state[S_ATTEMPTS]
    backtracks = state[S_BACKTRACKS]
    start = starts[si] if si >= 0 else -1
    low = start if closed else -1
    work = 0
    finished = False
    while True:
        if best >= bound and depth >= 0:  # unwind as the recursion does
            backtracks += depth
            finished = True
            break
        if depth < 0:
            if start >= 0:  # the last start cell is done: its marks go
                for k in range(indptr[start], indptr[start + 1]):
                    by_start[indices[k]] = False
            if best >= bound or si + 1 >= len(starts):
                finished = True
                break
            si += 1
            start = starts[si]
            low = start if closed else -1
            if closed:
                for k in range(indptr[start], indptr[start + 1]):
                    by_start[indices[k]] = True
            _enter(start, indptr, indices, used, near, 1)
            depth = 0
            path[0] = start
            fresh = True
        if work >= budget:
            break
        head = path[depth]
        if fresh:
            fresh = False
            if not closed and depth > best:
                best = depth
                state[S_BEST_CELLS] = depth + 1
                best_path[: depth + 1] = path[: depth + 1]
            if best >= bound:
                continue
            room, reached = _room(
                head,
                depth,
                closed,
                bipartite,
                indptr,
                indices,
                colour,
                least,
                used,
                near,
                by_start,
                mark,
                head_mark,
                queue,
                state,
                start,
                tiles,
            )
            work += reached
            if depth + room + (1 if closed else 0) <= best:
                next_move[depth] = indptr[head + 1]  # cut: no move is tried
            else:
                next_move[depth] = indptr[head]
        advanced = False
        while next_move[depth] < indptr[head + 1]:
            v = indices[next_move[depth]]
            next_move[depth] += 1
            if used[v] or least[v] < low:
                continue
            attempts += 1
            work += 1
            touches = closed and depth > 0 and by_start[v]
            if near[v] != 1 + touches:
                continue
            if touches:  # v is a move from the start too: the cycle closes
                if depth + 2 > best:
                    best = depth + 2
                    state[S_BEST_CELLS] = depth + 2
                    best_path[: depth + 1] = path[: depth + 1]
                    best_path[depth + 1] = v
                continue
            _enter(v, indptr, indices, used, near, 1)
            depth += 1
            path[depth] = v
            fresh = True
            advanced = True
            break
        if not advanced:
            _enter(head, indptr, indices, used, near, -1)
            depth -= 1
            if depth >= 0:
                backtracks += 1
    state[S_START] = si
    state[S_DEPTH] = depth
    state[S_FRESH] = 1 if fresh else 0
    state[S_BEST] = best
    state[S_ATTEMPTS] = attempts
    state[S_BACKTRACKS] = backtracks
    state[S_DONE] = 1 if finished else 0
    return finished
