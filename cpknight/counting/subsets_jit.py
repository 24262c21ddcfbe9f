"""The compiled loops of the count over subsets (numba, ``cpknight[fast]``).

Imported only by :mod:`cpknight.counting.subsets` (and by
``benchmarks/torus_counts.py``, whose ``layers`` kernel this is). Held and
Karp's recurrence, kept one layer at a time: ``ways[S, v]``, the paths from
the start through exactly the start and the cells of the k-set S that end at
v, for the k-sets S only. Each S is stored under its rank in the
combinatorial number system (colex order, walked by Gosper's hack) and only
at its own k cells: entry ``r * k + i`` is S's i-th lowest cell. A layer is
filled from the one below it; the rank of S less one cell comes from prefix
and suffix sums of binomials.

The counts are kept modulo 2^64 (uint64 wraparound) or modulo the Mersenne
prime P = 2^61 - 1 (``modp``): only additions, each sum of two residues
below 2^62 and reduced at once, whatever the number of moves (a 3-D leaper
has 24). A small modulus ``q`` (below 2^16, with layers of uint16: a quarter
of the memory) keeps only the count's residue modulo q: each entry is a sum
of at most 24 residues, below 2^21, reduced once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

P = (1 << 61) - 1
"""The second modulus, a Mersenne prime."""

_P = np.uint64(P)
_ZERO = np.uint64(0)


@njit(cache=True)
def binomials(m: int) -> Any:
    """Pascal's triangle: ``table[a, b]`` = C(a, b) for 0 <= a, b <= m."""
    table = np.zeros((m + 1, m + 1), dtype=np.int64)
    for a in range(m + 1):
        table[a, 0] = 1
        for b in range(1, a + 1):
            table[a, b] = table[a - 1, b - 1] + table[a - 1, b]
    return table


@njit(cache=True)
def unrank(rank: int, k: int, m: int, binom: Any) -> int:
    """The k-subset of m bits with this colex rank (the combinatorial number system)."""
    s = 0
    for i in range(k, 0, -1):
        p = i - 1
        while p + 1 < m and binom[p + 1, i] <= rank:
            p += 1
        rank -= binom[p, i]
        s |= 1 << p
    return s


@njit(cache=True)
def layer(
    prev: Any, k: int, m: int, nbr: Any, binom: Any, modp: bool,
    lo: int, hi: int, cur: Any, q: int = 0,
) -> None:  # fmt: skip
    """Fill layer k's entries for the k-sets of colex rank lo .. hi - 1.

    ``cur[r * k + i]`` counts the paths from the start through exactly the
    start and the k-set S of rank r that end at S's i-th lowest cell;
    ``prev`` is layer k - 1 laid out the same way; ``nbr[v]`` lists v's
    neighbours (bits), padded with -1. ``q`` > 0: the entries are residues
    modulo q (``cur`` may then be of uint16).
    """
    d = nbr.shape[1]
    small = np.uint64(q)
    cells = np.empty(k, dtype=np.int64)
    where = np.full(m, -1, dtype=np.int64)
    below = np.empty(k, dtype=np.int64)  # rank of S's cells before i, at i + 1
    above = np.empty(k, dtype=np.int64)  # ... and after i, one place lower
    s = unrank(lo, k, m, binom)
    for r in range(lo, hi):
        j = 0
        for v in range(m):
            if (s >> v) & 1:
                cells[j] = v
                where[v] = j
                j += 1
        total = 0
        for i in range(k):
            below[i] = total
            total += binom[cells[i], i + 1]
        total = 0
        for i in range(k - 1, -1, -1):
            above[i] = total
            total += binom[cells[i], i]
        for i in range(k):
            v = cells[i]
            base = (below[i] + above[i]) * (k - 1)
            acc = _ZERO
            for t in range(d):
                u = nbr[v, t]
                if u < 0 or where[u] < 0 or u == v:
                    continue
                idx = where[u] - 1 if where[u] > i else where[u]
                acc += prev[base + idx]
                if modp and acc >= _P:
                    acc -= _P
            if q > 0:
                acc = acc % small
            cur[r * k + i] = acc
        for i in range(k):
            where[cells[i]] = -1
        # the next k-set in colex order (Gosper's hack)
        low = s & -s
        ripple = s + low
        s = (((ripple ^ s) >> 2) // low) | ripple


@njit(cache=True, parallel=True)
def layer_part(
    prev: Any, k: int, m: int, nbr: Any, binom: Any, modp: bool,
    lo: int, hi: int, cur: Any, parts: int, q: int = 0,
) -> None:  # fmt: skip
    """:func:`layer` for the ranks lo .. hi - 1, split into ``parts`` threads' tasks."""
    size = hi - lo
    parts = max(1, min(parts, size))
    for c in prange(parts):
        layer(
            prev, k, m, nbr, binom, modp,
            lo + size * c // parts, lo + size * (c + 1) // parts, cur, q,
        )  # fmt: skip


def first_layer(first: Any) -> Any:
    """Layer 1: one path from the start to each cell ``first`` marks."""
    return np.asarray(first, dtype=np.uint64).copy()
