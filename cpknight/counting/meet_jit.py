"""The compiled loops of the meet-in-the-middle count (numba, ``cpknight[fast]``).

Imported only by :mod:`cpknight.counting.meet`. The two halves' states (the
dense kernel's words, :mod:`cpknight.counting.dense_jit`) are read into the
cells of the cut (:func:`links`), grouped by their degrees (:func:`keys`),
and every pair of a group whose union is one cycle (closed tours) or one path
(open tours) adds the product of its counts (:func:`join`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from cpknight.frontier.slots import (
    CODE_BITS,
    CODE_MASK,
    DANGLING,
    DEG0,
    ENDS_SHIFT,
    FULL,
    MATE,
    PER_WORD,
)

NONE = -1
"""A cell's link on one side: no path end there (degree 0 or 2 on that side)."""
TERM = -2
"""A cell's link on one side: the path from it ends at a tour end."""

_FIVE = np.uint64(CODE_BITS)
_CODE = np.uint64(CODE_MASK)
_THREE = np.uint64(3)
_USED_SHIFT = np.uint64(ENDS_SHIFT)


@njit(cache=True, parallel=True)
def links(lo: Any, hi: Any, cell_of: Any) -> Any:
    """Every state's degree and link at each cell of the cut.

    ``cell_of[s]``: the cut cell (0..m-1) frontier slot ``s`` holds.
    Returns ``(deg, link, used)``: ``deg[i, c]`` in 0..2, ``link[i, c]`` the
    cell at the other end of the path from ``c`` (:data:`NONE`,
    :data:`TERM`), ``used[i]`` the tour ends already placed.
    """
    n = lo.shape[0]
    m = cell_of.shape[0]
    deg = np.zeros((n, m), dtype=np.int8)
    link = np.full((n, m), NONE, dtype=np.int8)
    used = np.zeros(n, dtype=np.int8)
    for i in prange(n):
        used[i] = np.int8((hi[i] >> _USED_SHIFT) & _THREE)
        for s in range(m):
            if s < PER_WORD:
                c = np.int64((lo[i] >> (_FIVE * np.uint64(s))) & _CODE)
            else:
                c = np.int64((hi[i] >> (_FIVE * np.uint64(s - PER_WORD))) & _CODE)
            x = cell_of[s]
            if c == DEG0:
                deg[i, x] = 0
            elif c == FULL:
                deg[i, x] = 2
            elif c == DANGLING:
                deg[i, x] = 1
                link[i, x] = TERM
            else:
                deg[i, x] = 1
                link[i, x] = cell_of[c - MATE]
    return deg, link, used


@njit(cache=True, parallel=True)
def keys(deg: Any, used: Any) -> Any:
    """Each state's degrees as one number (2 bits a cell, the ends used above)."""
    n, m = deg.shape
    out = np.empty(n, dtype=np.uint64)
    for i in prange(n):
        k = np.uint64(used[i])
        for c in range(m - 1, -1, -1):
            k = (k << np.uint64(2)) | np.uint64(deg[i, c])
        out[i] = k
    return out


@njit(cache=True, parallel=True)
def ends_of(link: Any) -> Any:
    """Each state's first cell with a path end (-1: none) and first dangling one."""
    n, m = link.shape
    first = np.full(n, -1, dtype=np.int8)
    term = np.full(n, -1, dtype=np.int8)
    for i in prange(n):
        for c in range(m - 1, -1, -1):
            if link[i, c] >= 0:
                first[i] = c
            elif link[i, c] == TERM:
                term[i] = c
    return first, term


@njit(cache=True, inline="always")
def _one(lf: Any, lg: Any, cur: int, side: int, closed: bool, ends: int) -> bool:
    """Whether the paths of both sides make one cycle (closed) or one path.

    ``lf``, ``lg``: each cut cell's link on either side; the degrees already
    agree (every cell 2 in all; an open tour's two ends placed). The walk
    starts at cell ``cur``, leaving by side ``side`` (0: the first), at a
    path end of a closed tour, at a tour end of an open one; it must pass
    every one of the ``ends`` path ends of both sides.
    """
    walked = 0
    if closed:
        start = cur
        while True:
            cur = lf[cur]
            cur = lg[cur]
            walked += 4
            if cur == start:
                break
        return walked == ends
    while True:  # open: from one end of the tour to the other
        nxt = lf[cur] if side == 0 else lg[cur]
        if nxt < 0:
            break
        walked += 2
        cur = nxt
        side = 1 - side
    return walked == ends


@njit(cache=True)
def _mulmod(a: Any, b: Any, p: Any) -> Any:
    """``a * b mod p`` for ``p`` below ``2**62`` (shift and add)."""
    r = np.uint64(0)
    a = a % p
    while b:
        if b & np.uint64(1):
            r += a
            if r >= p:
                r -= p
        a += a
        if a >= p:
            a -= p
        b >>= np.uint64(1)
    return r


@njit(cache=True)
def _targets(
    key: Any, m: int, closed: bool, free_ends: int, gkeys: Any, out: Any
) -> int:
    """The second side's groups whose degrees complete a first-side ``key``.

    Every cell of degree 2 in all; an open tour's two ends on cells of the
    cut (degree 1 in all) or placed already, in either half. ``out`` gets
    a row per group found: its index, the first cell left at degree 1 (-1:
    none) and the path ends of both sides; returns how many.
    """
    mask = np.uint64(3)
    uf = np.int64(key >> np.uint64(2 * m))
    spare = 0 if closed else free_ends - uf
    ones = 0
    for c in range(m):
        if ((key >> np.uint64(2 * c)) & mask) == 1:
            ones += 1
    found = 0
    for t1 in range(-1, m):
        if t1 >= 0 and (spare < 1 or ((key >> np.uint64(2 * t1)) & mask) > 1):
            continue
        for t2 in range(-1, m):
            if t2 >= 0 and (
                t1 < 0 or t2 <= t1 or spare < 2
                or ((key >> np.uint64(2 * t2)) & mask) > 1
            ):  # fmt: skip
                continue
            placed = (t1 >= 0) + (t2 >= 0)
            ug = spare - placed
            if ug < 0:
                continue
            target = np.uint64(ug)
            g_ones = 0
            for c in range(m - 1, -1, -1):
                d = np.uint64(2) - ((key >> np.uint64(2 * c)) & mask)
                if c in (t1, t2):
                    d -= np.uint64(1)
                if d == 1:
                    g_ones += 1
                target = (target << np.uint64(2)) | d
            g = np.searchsorted(gkeys, target)
            if g < gkeys.shape[0] and gkeys[g] == target:
                out[found, 0] = g
                out[found, 1] = t1
                # a side's path ends: its cells of degree 1 less its dangling
                # ones (each the end of a path from a tour end)
                out[found, 2] = ones - uf + g_ones - ug
                found += 1
    return found


@njit(cache=True, parallel=True)
def pairs(
    fkeys: Any, fstarts: Any, gkeys: Any, gstarts: Any,
    m: int, closed: bool, free_ends: int,
) -> Any:  # fmt: skip
    """How many pairs of states :func:`join` looks at, group by group."""
    nf = fkeys.shape[0]
    out = np.zeros(nf, dtype=np.int64)
    for j in prange(nf):
        found = np.empty((1 + m + m * m, 3), dtype=np.int64)
        t = _targets(fkeys[j], m, closed, free_ends, gkeys, found)
        size = fstarts[j + 1] - fstarts[j]
        for x in range(t):
            g = found[x, 0]
            out[j] += size * (gstarts[g + 1] - gstarts[g])
    return out


@njit(cache=True, parallel=True)
def join(
    j0: int,
    j1: int,
    fkeys: Any,
    fstarts: Any,
    flink: Any,
    fcnt: Any,
    ffirst: Any,
    fterm: Any,
    gkeys: Any,
    gstarts: Any,
    glink: Any,
    gcnt: Any,
    gfirst: Any,
    gterm: Any,
    m: int,
    closed: bool,
    free_ends: int,
    primes: Any,
) -> Any:
    """The tours made of one state of each side: their count's residues.

    ``fkeys``: the distinct degree keys of the first side, sorted, group
    ``j``'s states (sorted with them) ``fstarts[j]:fstarts[j + 1]``; the
    same for the second side; ``first``, ``term``: :func:`ends_of`. For each
    group ``j0 <= j < j1`` of the first side, the groups of the second side
    that complete it (:func:`_targets`) are looked up, and each pair of their
    states whose paths join into one tour adds the product of its counts.
    Returns the residues.
    """
    k = primes.shape[0]
    part = np.zeros((j1 - j0, k), dtype=np.uint64)
    for j in prange(j0, j1):
        found = np.empty((1 + m + m * m, 3), dtype=np.int64)
        t = _targets(fkeys[j], m, closed, free_ends, gkeys, found)
        acc = np.zeros(k, dtype=np.uint64)
        sums = np.zeros(k, dtype=np.uint64)
        for x in range(t):
            g = found[x, 0]
            t1 = found[x, 1]
            ends = found[x, 2]
            for fi in range(fstarts[j], fstarts[j + 1]):
                lf = flink[fi]
                for q in range(k):
                    sums[q] = 0
                hit = False
                for gi in range(gstarts[g], gstarts[g + 1]):
                    lg = glink[gi]
                    # where the walk starts (-1: nowhere, no tour)
                    cur = -1
                    side = 0
                    if closed:
                        cur = ffirst[fi]
                    elif t1 >= 0:
                        cur = t1
                        side = 0 if lf[t1] != NONE else 1
                    elif fterm[fi] >= 0:
                        cur = fterm[fi]
                        side = 1
                    elif gterm[gi] >= 0:
                        cur = gterm[gi]
                    if cur < 0 or not _one(lf, lg, cur, side, closed, ends):
                        continue
                    hit = True
                    for q in range(k):
                        s = sums[q] + gcnt[gi, q]
                        if s >= primes[q]:
                            s -= primes[q]
                        sums[q] = s
                if hit:
                    for q in range(k):
                        s = acc[q] + _mulmod(fcnt[fi, q], sums[q], primes[q])
                        if s >= primes[q]:
                            s -= primes[q]
                        acc[q] = s
        for q in range(k):
            part[j - j0, q] = acc[q]
    total = np.zeros(k, dtype=np.uint64)
    for j in range(j1 - j0):
        for q in range(k):
            s = total[q] + part[j, q]
            if s >= primes[q]:
                s -= primes[q]
            total[q] = s
    return total
