"""Exact counts of knight's tours on small tori, by two independent programs.

What is counted: the closed knight's tours (Hamiltonian cycles) and the open
ones (Hamiltonian paths) of the knight's move graph of an r x c board, each
tour counted once, UNDIRECTED (a cycle is counted once whatever its start and
direction, a path once for its two directions). The graph is SIMPLE: on the
torus cell (i, j) is joined to ((i + di) mod r, (j + dj) mod c) for the 8
moves (di, dj) in {(±1, ±2), (±2, ±1)}; moves that land on the same cell make
one edge, and a move landing on the cell itself is dropped (cpknight's
definition, ``Board((r, c), topology="torus")``). ``--topology bounded`` counts
on the plain board (moves off the board dropped) with the same programs.

The two kernels share nothing but :func:`neighbours` (the move graph, built
here from the definition above; ``tests/test_torus_counts.py`` checks it
against the tests' own oracle). Both are compiled by numba (their work split
among the threads numba is given: ``NUMBA_NUM_THREADS``) and count modulo
2^64 (uint64 wraparound) and modulo the prime P = 2^61 - 1; the two residues
are joined by the Chinese remainder theorem into the exact count of DIRECTED
tours, which is then halved.

1. ``dp``: Held and Karp's dynamic program over subsets (Held & Karp 1962, "A
   dynamic programming approach to sequencing problems", J. SIAM 10(1);
   counting version: Bellman 1962). A start cell s is fixed and the other
   n - 1 cells are bits 0..n-2; ``ways[S, v]`` is the number of paths from s
   that visit exactly s and the cells of S and end at v. It is filled by
   pulling, S in increasing order: ``ways[S, v] = sum of ways[S - v, u]`` over
   the neighbours u of v in S - v, and ``ways[{v}, v] = 1`` if v is a
   neighbour of s. The full row gives both counts: the directed Hamiltonian
   cycles through s are the sum of ``ways[full, v]`` over the neighbours v of
   s (every cycle passes s, so with s = cell 0 these are all of them, each
   twice: two directions), and the directed Hamiltonian paths from s are the
   sum over every v. Open tours need the paths from every start: on a torus
   the translations (i, j) -> (i + a, j + b) are automorphisms of the graph
   (the move set is the same at every cell) and map cell 0 to any cell, so
   every cell starts as many paths as cell 0 and the directed paths are
   n * (those from cell 0); :func:`translation_invariant` checks that on the
   graph itself before it is used. Without it (``--symmetry none``, or a bounded
   board) the program is run from every start. 2^(n-1) * (n-1) uint64 entries,
   one modulus at a time: 3.2 GB for n = 25. ``layers`` is the same
   recurrence kept a layer at a time: the entries of the k-sets S, each S
   under its rank in the combinatorial number system (colex order, walked by
   Gosper's hack) and only at its own k cells, are filled from those of the
   (k - 1)-sets, whose ranks (S less one cell) come from prefix and suffix
   sums of binomials. Its peak is the two largest layers: 4 GiB at 28 cells,
   where the full table is 27 GiB, and 17 GiB at 30. Its compiled loops are
   cpknight's own (``cpknight count --method subsets``,
   :mod:`cpknight.counting.subsets_jit`), run here on this script's graph.
   ``layers16`` runs them with uint16 layers modulo the prime 65,521: a
   quarter of the memory (the open 2x4x4 box: 18.6 GB), and only the
   count's residue, a check of an exact count made by another kernel. Its
   open tours on a bounded box are those from one cell of each orbit of the
   box's symmetries (each checked an automorphism of the graph), times the
   orbit's size: three starts on 2x4x4, not 32.
2. ``ie``: inclusion-exclusion over walks (Karp 1982, "Dynamic programming
   meets the principle of inclusion and exclusion", Oper. Res. Lett. 1(2);
   Bax 1993, "Inclusion and exclusion algorithm for the Hamiltonian path
   problem", Inf. Proc. Lett. 47(4)). A closed walk of n moves from cell 0
   that visits every cell is a directed Hamiltonian cycle through 0, and by
   inclusion-exclusion their number is the sum over the sets S of cells that
   hold 0 of (-1)^(n - |S|) (closed walks of n moves from 0 inside S). The
   directed Hamiltonian paths are the sum over ALL sets S of (-1)^(n - |S|)
   (walks of n - 1 moves inside S, any start and end): no symmetry is used
   (with ``--symmetry both`` it uses the one above: walks from cell 0, times n).
   Each walk count is n - 1 sparse matrix-vector products restricted to S
   (counts kept at 0 outside S); 2^(n-1) or 2^n sets, memory O(n). The
   closed walks at cell 0, and the open walks from every cell, take half of
   them: the graph is undirected, so u^T A^(a+b) u = (A^a u) . (A^b u), one
   vector of n // 2 products and a dot product (mod P without 128-bit
   integers, :func:`_mulmod`), for :data:`LANES` consecutive sets at once,
   side by side in vector registers (about three times as fast as a set at
   a time on this machine's AVX-512 cores).

The DP only adds, and so do the IE's products: the arithmetic modulo P is
safe in uint64 (residues are below 2^61, and each sum of two is reduced at
once, whatever the number of moves: a 3-D knight has up to 24); the IE's one
multiplication, in its dot products, splits each residue into 32-bit halves.

The CRT bound: the joined value is exact when the directed count is below
2^64 * P (about 4.25e37). A directed path from a given start has at most
deg(start) choices for its first move and at most dmax - 1 for each later one
(the cell it came from is visited), so there are at most
n * dmax * (dmax - 1)^(n - 2) directed open tours, and the directed cycles
through cell 0 are at most deg(0) * (dmax - 1)^(n - 2) (each is a path from 0).
With dmax = 8 and n = 25 that is 5.5e21, far below; :func:`exact` checks the
bound for every count.

Run (one JSON line per count: the value, each kernel's value, seconds and
peak resident MB; with ``--kernel both`` each kernel runs in its own child
process so that its peak memory is its own)::

    python benchmarks/torus_counts.py 4x5 --open
    python benchmarks/torus_counts.py 5x5 --kernel dp
    python benchmarks/torus_counts.py 3x4 --open --topology bounded
    python benchmarks/torus_counts.py 4x7 --open --kernel layers,ie
    python benchmarks/torus_counts.py 2x4x4 --topology bounded --kernel ie \
        --open-only --checkpoint runs/ie-244

With ``--checkpoint DIR`` the IE keeps each finished part of its sets (one of
4,096) in a file in DIR and, run again, goes on from it: a count of hours
survives Ctrl-C, a crash or the end of a session.

A kernel whose arrays would not fit the memory free is refused up front,
with its estimate.

``--open`` counts the open tours as well as the closed ones.

Results (undirected; both kernels agree on every one; the first three
reproduce the project's frontier program and ``subset_count``):

=====  =====  ===================  =======================
torus  cells  closed tours         open tours
=====  =====  ===================  =======================
3x5    15     10,594,392           274,255,560
4x5    20     5,199,764            333,184,160
3x6    18     259,338,240          9,704,300,544
3x7    21     6,378,257,020        325,430,160,972
4x6    24     587,553,228          27,835,532,640
3x8    24     147,137,501,488      9,934,105,551,552
5x5    25     335,750,676,480      25,328,684,620,800
3x9    27     3,430,613,186,688    296,017,886,041,056
4x7    28     4,716,693,148        552,570,605,440
5x6    30     80,448,250,337,864   8,633,326,436,698,320
3x10   30     80,448,250,337,864   8,633,326,436,698,320
=====  =====  ===================  =======================

(3x10 and 5x6 are one graph: both tori are Z30, where multiplying by 7 maps
the one's knight moves onto the other's; ``tests/test_tori.py`` checks it.
3x9, 4x7, 5x6 and 3x10 by ``layers`` and ``ie``: the full table of ``dp`` would
not fit. 5x6 with ``--symmetry both``: one pass of the IE over the sets that
hold cell 0 gives both counts.)

6x4 gives 4x6's counts (the same graph transposed). On the plain 5 x 5
board (``--topology bounded``) both give 0 closed and 864 open (OEIS
A165134: 1,728 directed).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from cpknight.counting import subsets_jit as jit
from cpknight.counting.subsets import subset_bytes

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]
U64 = np.uint64

TWO64 = 1 << 64
P = (1 << 61) - 1
"""The second modulus, a Mersenne prime."""

_P = np.uint64(P)
_SHIFT = np.uint64(61)
_ZERO = np.uint64(0)
_ONE = np.uint64(1)

KNIGHT = ((1, 2), (1, -2), (-1, 2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1))


# ------------------------------------------------------------------ the graph


def knight_moves(dim: int) -> list[tuple[int, ...]]:
    """The knight's moves in ``dim`` dimensions: one axis +-1, another +-2.

    >>> len(knight_moves(2)), len(knight_moves(3))
    (8, 24)
    """
    moves = []
    for a, b in itertools.permutations(range(dim), 2):
        for sa, sb in itertools.product((1, -1), repeat=2):
            move = [0] * dim
            move[a], move[b] = sa, 2 * sb
            moves.append(tuple(move))
    return moves


def neighbours(shape: tuple[int, ...], topology: str = "torus") -> list[list[int]]:
    """Each cell's neighbours (cells numbered row-major), sorted, from the definition.

    ``torus`` wraps every axis, ``bounded`` drops the moves off the board (a
    box in 3-D). A move onto the cell itself is dropped; moves onto one cell
    are one edge.
    """
    if topology not in ("torus", "bounded"):
        raise ValueError(f"unknown topology {topology!r}")
    cells = list(itertools.product(*(range(side) for side in shape)))
    number = {cell: k for k, cell in enumerate(cells)}
    out: list[list[int]] = []
    for cell in cells:
        found: set[int] = set()
        for move in knight_moves(len(shape)):
            target = [x + dx for x, dx in zip(cell, move, strict=True)]
            if topology == "torus":
                target = [x % side for x, side in zip(target, shape, strict=True)]
            elif not all(0 <= x < side for x, side in zip(target, shape, strict=True)):
                continue
            if tuple(target) != cell:
                found.add(number[tuple(target)])
        out.append(sorted(found))
    for a, near in enumerate(out):
        assert all(a in out[b] for b in near), "the move graph is not symmetric"
    return out


def translation_invariant(
    shape: tuple[int, ...], nbrs: Sequence[Sequence[int]]
) -> bool:
    """Whether every translation of the torus maps the graph onto itself.

    Then the translations, which take cell 0 to any cell, are automorphisms,
    and every cell starts as many Hamiltonian paths as cell 0.
    """
    cells = list(itertools.product(*(range(side) for side in shape)))
    number = {cell: k for k, cell in enumerate(cells)}
    sets = [set(near) for near in nbrs]
    for shift in cells:

        def move(k: int, shift: tuple[int, ...] = shift) -> int:
            moved = (
                (x + dx) % side
                for x, dx, side in zip(cells[k], shift, shape, strict=True)
            )
            return number[tuple(moved)]

        for cell, near in enumerate(sets):
            if {move(x) for x in near} != sets[move(cell)]:
                return False
    return True


def path_bound(nbrs: Sequence[Sequence[int]], *, closed: bool) -> int:
    """An upper bound on the directed tours a kernel counts (see the docstring)."""
    n = len(nbrs)
    dmax = max((len(near) for near in nbrs), default=0)
    if n < 2:
        return 1
    if closed:
        return len(nbrs[0]) * int(max(dmax - 1, 1) ** (n - 2))
    return n * dmax * int(max(dmax - 1, 1) ** (n - 2))


def crt(r64: int, rp: int) -> int:
    """The x in [0, 2^64 * P) with x = r64 (mod 2^64) and x = rp (mod P)."""
    r64 %= TWO64
    rp %= P
    inverse = pow(TWO64, -1, P)
    return r64 + TWO64 * (((rp - r64) * inverse) % P)


def exact(r64: int, rp: int, bound: int) -> int:
    """The count from its residues, given that it is at most ``bound``."""
    if bound >= TWO64 * P:
        raise ValueError("the count could pass 2^64 * P: add a modulus")
    value = crt(r64, rp)
    assert value <= bound, f"{value} passes the bound {bound}: residues disagree"
    return value


def halve(directed: int) -> int:
    """Undirected tours from directed ones (each undirected tour twice)."""
    assert directed % 2 == 0, f"an odd number of directed tours: {directed}"
    return directed // 2


# -------------------------------------------------- kernel 1: Held-Karp DP


@njit(cache=True)
def _held_karp(nbr: Ints, first: npt.NDArray[np.uint8], m: int, modp: bool) -> Words:
    """The row ``ways[full, .]`` of the DP, modulo P if ``modp`` else 2^64.

    ``nbr[v]`` lists v's neighbours among the m non-start cells as bit
    indices, padded with -1; ``first[v]`` is 1 if v is a neighbour of the
    start. ``ways`` is flat: entry (S, v) at S * m + v.
    """
    size = 1 << m
    ways = np.zeros(size * m, dtype=np.uint64)
    d = nbr.shape[1]
    each = modp and d > 8  # past 8 residues a sum could pass 2^64
    for s in range(1, size):
        base = s * m
        for v in range(m):
            if not (s >> v) & 1:
                continue
            prev = s ^ (1 << v)
            if prev == 0:
                ways[base + v] = np.uint64(first[v])
                continue
            row = prev * m
            total = _ZERO
            for k in range(d):
                u = nbr[v, k]
                if u >= 0 and (prev >> u) & 1:
                    total += ways[row + u]
                    if each and total >= _P:  # two residues: below 2^62
                        total -= _P
            if modp:
                total = (total & _P) + (total >> _SHIFT)
                if total >= _P:
                    total -= _P
            ways[base + v] = total
    return ways[(size - 1) * m : size * m].copy()


def _start_table(
    nbrs: Sequence[Sequence[int]], start: int
) -> tuple[Ints, npt.NDArray[np.uint8]]:
    """The DPs' view of the graph from ``start``: the other cells as bits.

    The cells but the start are bits 0, 1, ... in order; ``table[b]`` lists
    the bits of cell b's neighbours but the start, padded with -1;
    ``first[b]`` is 1 if b is a neighbour of the start.
    """
    others = [x for x in range(len(nbrs)) if x != start]
    bit = {cell: b for b, cell in enumerate(others)}
    d = max((len(nbrs[x]) for x in others), default=0)
    table = np.full((len(others), max(d, 1)), -1, dtype=np.int64)
    first = np.zeros(len(others), dtype=np.uint8)
    for cell in others:
        near = [bit[y] for y in nbrs[cell] if y != start]
        table[bit[cell], : len(near)] = near
        first[bit[cell]] = start in nbrs[cell]
    return table, first


def _dp_rows(nbrs: Sequence[Sequence[int]], start: int) -> tuple[list[int], list[int]]:
    """The full row mod 2^64 and mod P for paths from ``start``."""
    table, first = _start_table(nbrs, start)
    m = len(nbrs) - 1
    rows = []
    for modp in (False, True):
        row = _held_karp(table, first, m, modp)
        rows.append([int(x) for x in row])
    return rows[0], rows[1]


def dp_counts(
    nbrs: Sequence[Sequence[int]], *, transitive: bool = False, want_open: bool = True
) -> tuple[int, int | None]:
    """(closed, open) undirected tours by the Held-Karp DP (open None if unwanted).

    ``transitive``: the graph is vertex-transitive (checked by the caller), so
    the open tours are counted from cell 0 only and multiplied by n.
    """
    return _row_counts(nbrs, lambda start: _dp_rows(nbrs, start), transitive, want_open)


def _row_counts(
    nbrs: Sequence[Sequence[int]],
    rows: Callable[[int], tuple[list[int], list[int]]],
    transitive: bool,
    want_open: bool,
) -> tuple[int, int | None]:
    """(closed, open) undirected tours from the DP's full rows (either kernel's).

    ``rows(start)`` is the row ``ways[full, .]`` of the paths from ``start``,
    mod 2^64 and mod P: the closed tours close at a neighbour of cell 0, the
    open ones end anywhere (from cell 0 times n if ``transitive``, else from
    every start).
    """
    n = len(nbrs)
    if n == 1:
        return 0, 1
    if n == 2:
        return 0, (1 if nbrs[0] else 0)
    row64, rowp = rows(0)
    near0 = [x - 1 for x in nbrs[0]]  # cell x > 0 is bit x - 1 when start = 0
    closed = exact(
        sum(row64[b] for b in near0),
        sum(rowp[b] for b in near0),
        path_bound(nbrs, closed=True),
    )
    if not want_open:
        return halve(closed), None
    bound = path_bound(nbrs, closed=False)
    if transitive:
        from0 = exact(sum(row64), sum(rowp), bound)
        return halve(closed), halve(n * from0)
    total64, totalp = sum(row64), sum(rowp)
    for start in range(1, n):
        r64, rp = rows(start)
        total64 += sum(r64)
        totalp += sum(rp)
    return halve(closed), halve(exact(total64, totalp, bound))


# --------------------------------- kernel 1b: the same DP, a layer at a time
# (cpknight's own ``subsets`` engine: its compiled loops, run here a layer at
# a time on this script's graph)


def _layers_row(
    nbr: Ints,
    first: npt.NDArray[np.uint8],
    m: int,
    modp: bool,
    chunks: int,
    q: int = 0,
) -> npt.NDArray[Any]:
    """The row ``ways[full, .]`` of the DP, keeping two layers (k-sets) at a time.

    ``q`` > 0: modulo ``q``, the layers in uint16 (``layers16``).
    """
    binom = jit.binomials(m)
    dtype = np.uint16 if q else np.uint64
    prev: npt.NDArray[Any] = jit.first_layer(first).astype(dtype)
    for k in range(2, m + 1):
        size = math.comb(m, k)
        cur = np.empty(size * k, dtype=dtype)
        jit.layer_part(prev, k, m, nbr, binom, modp, 0, size, cur, chunks, q)
        prev = cur
    return prev


def layers_bytes(n: int) -> int:
    """The layered DP's peak array bytes on n cells: its two largest layers."""
    return subset_bytes(n - 1) if n > 1 else 0


# ----------------------- kernel 1c: the layers modulo a 16-bit prime, a check

Q16 = 65521
"""The largest prime below 2^16: ``layers16`` keeps its counts modulo it."""


def start_orbits(
    shape: tuple[int, ...], topology: str, nbrs: Sequence[Sequence[int]]
) -> list[tuple[int, int]]:
    """(a cell, its orbit's size) for each orbit of the cells under the
    board's symmetries (cpknight's ``symmetry_group``, over the cells in the
    same row-major order) that are automorphisms of this script's move graph,
    each map checked edge by edge here: cells of one orbit start as many
    paths."""
    from cpknight.board import Board
    from cpknight.graph.symmetry import symmetry_group

    sets = [set(near) for near in nbrs]
    group = symmetry_group(Board(shape, topology=topology))  # type: ignore[arg-type]
    autos = [
        f
        for f in group
        if all({f[u] for u in near} == sets[f[v]] for v, near in enumerate(sets))
    ]
    seen: set[int] = set()
    orbits = []
    for v in range(len(nbrs)):
        if v in seen:
            continue
        orbit = {f[v] for f in autos}
        seen |= orbit
        orbits.append((v, len(orbit)))
    return orbits


def layers16_counts(
    nbrs: Sequence[Sequence[int]],
    shape: tuple[int, ...],
    topology: str = "bounded",
    *,
    transitive: bool = False,
    want_open: bool = True,
    want_closed: bool = True,
    q: int = Q16,
) -> tuple[int | None, int | None]:
    """(closed, open) undirected tours modulo ``q`` by the layered DP in uint16.

    A quarter of ``layers``' memory (18.6 GB for the open 2x4x4 box from one
    start, where ``layers`` needs 74 GB), and only the count's residue: a check
    of an exact count made by another kernel. Open tours from every start
    are those from one cell of each orbit (:func:`start_orbits`), times its
    size, or from cell 0 times n on a full torus (``transitive``).
    """
    n = len(nbrs)
    if n < 3:
        raise ValueError("layers16: boards of 3 cells and more")
    chunks = 8 * max(1, numba.get_num_threads())
    half = pow(2, -1, q)

    rows: dict[int, list[int]] = {}

    def row(start: int) -> list[int]:
        if start not in rows:
            table, first = _start_table(nbrs, start)
            row_q = _layers_row(table, first, n - 1, False, chunks, q)
            rows[start] = [int(x) for x in row_q]
        return rows[start]

    closed = opened = None
    if want_closed:
        near0 = [x - 1 for x in nbrs[0]]  # cell x > 0 is bit x - 1 from cell 0
        closed = sum(row(0)[b] for b in near0) * half % q
    if want_open:
        starts = [(0, n)] if transitive else start_orbits(shape, topology, nbrs)
        opened = sum(size * sum(row(v)) for v, size in starts) * half % q
    return closed, opened


def layers_counts(
    nbrs: Sequence[Sequence[int]], *, transitive: bool = False, want_open: bool = True
) -> tuple[int, int | None]:
    """(closed, open) undirected tours by the DP a layer at a time.

    The same recurrence as :func:`dp_counts`, with ``ways[S, .]`` kept for
    the sets S of one size at a time, each set stored under its rank in the
    combinatorial number system and only at its own cells: the two largest
    layers, about C(n - 1, n / 2) * n * 8 bytes each, instead of
    2^(n - 1) * (n - 1) * 8. The layers are split among threads.
    """
    chunks = 8 * max(1, numba.get_num_threads())

    def rows(start: int) -> tuple[list[int], list[int]]:
        table, first = _start_table(nbrs, start)
        m = len(nbrs) - 1
        row64, rowp = (
            [int(x) for x in _layers_row(table, first, m, modp, chunks)]
            for modp in (False, True)
        )
        return row64, rowp

    return _row_counts(nbrs, rows, transitive, want_open)


# ------------------------------------- kernel 2: inclusion-exclusion on walks


@njit(cache=True, inline="always")
def _vectors(n: int) -> tuple[Words, Words, Words, Words]:
    """The walks' vectors x and y, mod 2^64 and mod P (index n: always 0)."""
    return (
        np.zeros(n + 1, dtype=np.uint64),
        np.zeros(n + 1, dtype=np.uint64),
        np.zeros(n + 1, dtype=np.uint64),
        np.zeros(n + 1, dtype=np.uint64),
    )


@njit(cache=True, inline="always")
def _load_set(
    t: int, n: int, root: int, members: Ints, x64: Words, xp: Words, y64: Words,
    yp: Words,
) -> int:  # fmt: skip
    """List the cells of set number ``t`` in ``members`` and start the walks:
    the vectors cleared, then 1 at the root (``root`` >= 0) or at every cell
    of the set. Returns its cells.

    With a root, the sets are those holding it: ``t``'s bits are the other
    cells, the root's bit put in between; without, ``t`` is the set.
    """
    s = t
    if root >= 0:
        low = t & ((1 << root) - 1)
        s = low | (1 << root) | ((t >> root) << (root + 1))
    k = 0
    for v in range(n):
        x64[v] = _ZERO
        xp[v] = _ZERO
        y64[v] = _ZERO
        yp[v] = _ZERO
        if (s >> v) & 1:
            members[k] = v
            k += 1
    if root >= 0:
        x64[root] = _ONE
        xp[root] = _ONE
    else:
        for i in range(k):
            x64[members[i]] = _ONE
            xp[members[i]] = _ONE
    return k


@njit(cache=True, inline="always")
def _product(
    nbr: Ints, members: Ints, k: int, x64: Words, xp: Words, y64: Words, yp: Words
) -> None:
    """y = A_S x, mod 2^64 and mod P, at the set's k cells (``members``).

    Up to 8 moves a cell, the residues (below 2^61) are summed and the sum
    (below 2^64) reduced once; past 8 (a 3-D knight has up to 24) each
    addition is reduced, as a sum of up to 24 would pass 2^64.
    """
    d = nbr.shape[1]
    each = d > 8  # loop-invariant: the compiler keeps a loop for either
    for i in range(k):
        v = members[i]
        a64 = _ZERO
        ap = _ZERO
        for j in range(d):
            u = nbr[v, j]
            a64 += x64[u]
            ap += xp[u]
            if each and ap >= _P:  # two residues below P: below 2^62
                ap -= _P
        ap = (ap & _P) + (ap >> _SHIFT)  # at most 8 residues: below 2^64
        if ap >= _P:
            ap -= _P
        y64[v] = a64
        yp[v] = ap


@njit(cache=True)
def _walks(nbr: Ints, n: int, root: int, lo: int, hi: int) -> tuple[U64, U64, U64, U64]:
    """Inclusion-exclusion sums (closed mod 2^64, mod P, open mod 2^64, mod P).

    Over the sets numbered lo .. hi - 1 (see below) only: the sets are split
    among threads by :func:`_walks_split`.

    ``nbr[v]`` lists v's neighbours padded with n (an index whose count is
    always 0). With ``root`` >= 0 the sets S run over those holding ``root``,
    the walks start at ``root``; "closed" sums the closed walks of n moves at
    ``root`` and "open" the walks of n - 1 moves from it. With ``root`` = -1
    every set S, walks from every cell of S ("closed" is then 0).
    """
    d = nbr.shape[1]
    x64, xp, y64, yp = _vectors(n)
    members = np.empty(n, dtype=np.int64)
    closed64 = _ZERO
    closedp = _ZERO
    open64 = _ZERO
    openp = _ZERO
    free = n - 1 if root >= 0 else n
    for t in range(lo, min(hi, 1 << free)):
        k = _load_set(t, n, root, members, x64, xp, y64, yp)
        if k == 0:
            continue
        for _ in range(n - 1):
            _product(nbr, members, k, x64, xp, y64, yp)
            x64, y64 = y64, x64
            xp, yp = yp, xp
        o64 = _ZERO
        op = _ZERO
        for i in range(k):
            v = members[i]
            o64 += x64[v]
            op += xp[v]
            if op >= _P:
                op -= _P
        c64 = _ZERO
        cp = _ZERO
        if root >= 0:
            for j in range(d):
                u = nbr[root, j]
                c64 += x64[u]
                cp += xp[u]
                if cp >= _P:
                    cp -= _P
        if (n - k) & 1:
            open64 -= o64
            closed64 -= c64
            openp += _P - op
            closedp += _P - cp
        else:
            open64 += o64
            closed64 += c64
            openp += op
            closedp += cp
        if openp >= _P:
            openp -= _P
        if closedp >= _P:
            closedp -= _P
    return closed64, closedp, open64, openp


_MASK32 = np.uint64(0xFFFFFFFF)
_MASK29 = np.uint64((1 << 29) - 1)


@njit(cache=True)
def _mulmod(a: U64, b: U64) -> U64:
    """``a * b mod P`` for residues below P, in uint64 (2^61 = 1 and 2^64 = 8)."""
    a1 = a >> np.uint64(32)
    a0 = a & _MASK32
    b1 = b >> np.uint64(32)
    b0 = b & _MASK32
    top = a1 * b1  # below 2^58: times 2^64 = 8
    mid = a1 * b0 + a0 * b1  # below 2^62: times 2^32
    low = a0 * b0  # below 2^64
    r = top << np.uint64(3)
    r += (mid >> np.uint64(29)) + ((mid & _MASK29) << np.uint64(32))
    r += (low & _P) + (low >> _SHIFT)
    r = (r & _P) + (r >> _SHIFT)
    if r >= _P:
        r -= _P
    return r


LANES = 16
"""The sets :func:`_half_walks` walks side by side: consecutive set numbers,
which differ in their low cells only, so they share the loop over their
cells and each neighbour's look-up, and their counts sit side by side in a
row (``x[v, lane]``) that the compiler adds in vector registers."""

_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def _half_walks(
    nbr: Ints, n: int, root: int, lo: int, hi: int
) -> tuple[U64, U64, U64, U64]:
    """:func:`_walks`' closed sums (``root`` >= 0) or open ones (``root`` = -1)
    in half the moves, :data:`LANES` sets at a time.

    The move graph is undirected, so A_S (its adjacency matrix restricted to
    S) is symmetric and u^T A^(a+b) u = (A^a u) . (A^b u): the closed walks of
    n moves at the root are ``x . x`` or ``x . (A x)`` with x = A^(n // 2) e_root,
    and the walks of n - 1 moves from every cell of S likewise with the
    vector of ones. About half the sparse products of :func:`_walks`, and one
    dot product (mod P by :func:`_mulmod`). With ``root`` >= 0 only the
    closed sums are made (the open ones from the root need two vectors), with
    ``root`` = -1 only the open ones.

    The sets t .. t + LANES - 1 are walked together (a lane each, past ``hi``
    an empty set): the products run over the cells of any of them, and a
    lane's counts are masked to zero at the cells its set lacks (``mask``,
    all ones or zero), so each lane's walks stay inside its set. Written apart
    from :func:`_walks` (one set at a time, whole walks), which the tests hold
    it to.
    """
    d = nbr.shape[1]
    each = d > 8  # a sum of more than 8 residues passes 2^64: reduce each
    x64 = np.zeros((n + 1, LANES), dtype=np.uint64)  # row n: always 0
    xp = np.zeros((n + 1, LANES), dtype=np.uint64)
    y64 = np.zeros((n + 1, LANES), dtype=np.uint64)
    yp = np.zeros((n + 1, LANES), dtype=np.uint64)
    mask = np.zeros((n + 1, LANES), dtype=np.uint64)
    members = np.empty(n, dtype=np.int64)
    sets = np.zeros(LANES, dtype=np.int64)
    d64 = np.zeros(LANES, dtype=np.uint64)
    dp = np.zeros(LANES, dtype=np.uint64)
    free = n - 1 if root >= 0 else n
    steps = n if root >= 0 else n - 1
    half = steps // 2
    end = min(hi, 1 << free)
    sum64 = _ZERO
    sump = _ZERO
    for base in range(lo, end, LANES):
        union = 0
        for lane in range(LANES):
            t = base + lane
            s = 0
            if t < end:  # with a root, t's bits are the other cells
                s = t
                if root >= 0:
                    low = t & ((1 << root) - 1)
                    s = low | (1 << root) | ((t >> root) << (root + 1))
            sets[lane] = s
            union |= s
        k = 0
        for v in range(n):
            for lane in range(LANES):
                m = _ALL if (sets[lane] >> v) & 1 else _ZERO
                mask[v, lane] = m
                start = m & _ONE if root < 0 or v == root else _ZERO
                x64[v, lane] = start
                xp[v, lane] = start
                y64[v, lane] = _ZERO
                yp[v, lane] = _ZERO
            if (union >> v) & 1:
                members[k] = v
                k += 1
        for step in range(half + (steps & 1)):
            for i in range(k):  # y = A_S x in every lane
                v = members[i]
                for lane in range(LANES):
                    y64[v, lane] = _ZERO
                    yp[v, lane] = _ZERO
                for j in range(d):
                    u = nbr[v, j]
                    for lane in range(LANES):
                        y64[v, lane] += x64[u, lane]
                        a = yp[v, lane] + xp[u, lane]
                        if each and a >= _P:  # two residues: below 2^62
                            a -= _P
                        yp[v, lane] = a
                for lane in range(LANES):
                    a = yp[v, lane]  # at most 8 residues: below 2^64
                    a = (a & _P) + (a >> _SHIFT)
                    if a >= _P:
                        a -= _P
                    yp[v, lane] = a & mask[v, lane]
                    y64[v, lane] &= mask[v, lane]
            if step < half:  # else y = A x is kept beside x = A^half u
                x64, y64 = y64, x64
                xp, yp = yp, xp
        d64[:] = _ZERO
        dp[:] = _ZERO
        other64 = y64 if steps & 1 else x64
        otherp = yp if steps & 1 else xp
        for i in range(k):
            v = members[i]
            for lane in range(LANES):
                d64[lane] += x64[v, lane] * other64[v, lane]
                a = dp[lane] + _mulmod(xp[v, lane], otherp[v, lane])
                if a >= _P:
                    a -= _P
                dp[lane] = a
        for lane in range(LANES):
            cells = 0  # |S| of the lane's set
            s = sets[lane]
            while s:
                s &= s - 1
                cells += 1
            if (n - cells) & 1:
                sum64 -= d64[lane]
                sump += _P - dp[lane]
            else:
                sum64 += d64[lane]
                sump += dp[lane]
            if sump >= _P:
                sump -= _P
    if root >= 0:
        return sum64, sump, _ZERO, _ZERO
    return _ZERO, _ZERO, sum64, sump


@njit(cache=True, parallel=True)
def _walks_split(nbr: Ints, n: int, root: int, chunks: int, half: bool) -> Words:
    """:func:`_walks` (:func:`_half_walks` if ``half``) over every set, in
    ``chunks`` parts run by the threads."""
    free = n - 1 if root >= 0 else n
    total = 1 << free
    parts = max(1, min(chunks, total))
    out = np.zeros((parts, 4), dtype=np.uint64)
    for c in prange(parts):
        first, last = total * c // parts, total * (c + 1) // parts
        if half:
            sums = _half_walks(nbr, n, root, first, last)
        else:
            sums = _walks(nbr, n, root, first, last)
        for i in range(4):
            out[c, i] = sums[i]
    return out


@njit(cache=True, parallel=True)
def _walks_parts(nbr: Ints, n: int, root: int, lo: Ints, hi: Ints, half: bool) -> Words:
    """:func:`_walks` (or :func:`_half_walks`) over the sets ``lo[c] .. hi[c] - 1``
    for each c, in threads."""
    out = np.zeros((len(lo), 4), dtype=np.uint64)
    for c in prange(len(lo)):
        if half:
            sums = _half_walks(nbr, n, root, lo[c], hi[c])
        else:
            sums = _walks(nbr, n, root, lo[c], hi[c])
        for i in range(4):
            out[c, i] = sums[i]
    return out


CHECKPOINT_PARTS = 4096
"""The parts a checkpointed IE is cut into (each a line of its file when done)."""

PART_SETS = 1 << 12
"""The fewest sets a checkpointed part holds (a small graph's parts are fewer):
a part's line is written and synced to disk, which costs more than the walks
of a few thousand small sets (3x4: 4,096 parts of one set took 22 s, one part
a millisecond)."""


def _walk_sums(
    nbrs: Sequence[Sequence[int]],
    root: int,
    checkpoint: str | None = None,
    *,
    half: bool = False,
) -> tuple[int, int, int, int]:
    """The four sums of :func:`_walks` over every set, joined from the parts.

    ``half``: by :func:`_half_walks` (the closed sums with a root, the open
    ones without), on a graph checked undirected here.

    With ``checkpoint`` (a file), the sets are cut into
    :data:`CHECKPOINT_PARTS` parts (fewer on a small graph, at least
    :data:`PART_SETS` sets a part), a few run at once by the threads, and each
    finished part's sums are appended to the file as a JSON line; a run that
    finds the file skips the parts it lists (a run stopped by Ctrl-C, a crash
    or the end of a session goes on where it stopped, losing at most the parts
    in flight). The file's first line names the graph (a digest of its move
    table), the root and the parts, and a file of another graph is refused.
    """
    table = _walk_table(nbrs)
    n = len(nbrs)
    if half and any(v not in nbrs[u] for v, near in enumerate(nbrs) for u in near):
        raise AssertionError("the move graph is not undirected")
    if checkpoint is None:
        parts = _walks_split(table, n, root, 8 * numba.get_num_threads(), half)
        rows = [tuple(int(x) for x in row) for row in parts]
    else:
        rows = _checkpointed_parts(table, n, root, checkpoint, half)
    c64, cp, o64, op = (sum(row[i] for row in rows) for i in range(4))
    return c64 % TWO64, cp % P, o64 % TWO64, op % P


def _checkpointed_parts(
    table: Ints, n: int, root: int, path: str, half: bool
) -> list[tuple[int, ...]]:
    """Every part's four sums, read from ``path`` or computed and appended."""
    total = 1 << (n - 1 if root >= 0 else n)
    parts = max(1, min(CHECKPOINT_PARTS, total // PART_SETS))
    header = {
        "graph": hashlib.sha256(table.tobytes()).hexdigest()[:16],
        "cells": n,
        "root": root,
        "parts": parts,
        "half": half,
    }
    done: dict[int, tuple[int, ...]] = {}
    if os.path.exists(path):
        with open(path, encoding="ascii") as lines:
            first = json.loads(lines.readline() or "{}")
            if first != header:
                raise SystemExit(f"{path}: a checkpoint of another count: {first}")
            for line in lines:
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:  # a line cut short by a crash
                    continue
                done[int(record["part"])] = tuple(int(x) for x in record["sums"])
    else:
        with open(path, "w", encoding="ascii") as out:
            out.write(json.dumps(header) + "\n")
    todo = [c for c in range(parts) if c not in done]
    batch = max(1, numba.get_num_threads())
    with open(path, "rb") as raw:
        raw.seek(-1, os.SEEK_END)
        cut = raw.read(1) != b"\n"  # a crash cut the last line short
    with open(path, "a", encoding="ascii") as out:
        if cut:
            out.write("\n")
        for start in range(0, len(todo), batch):
            chosen = todo[start : start + batch]
            began = time.perf_counter()
            lo = np.array([total * c // parts for c in chosen], dtype=np.int64)
            hi = np.array([total * (c + 1) // parts for c in chosen], dtype=np.int64)
            sums = _walks_parts(table, n, root, lo, hi, half)
            seconds = round((time.perf_counter() - began) / len(chosen), 3)
            for c, row in zip(chosen, sums, strict=True):
                done[c] = tuple(int(x) for x in row)
                record = {"part": c, "sums": list(done[c]), "seconds": seconds}
                out.write(json.dumps(record) + "\n")
            out.flush()
            os.fsync(out.fileno())
    return [done[c] for c in range(parts)]


def _walk_table(nbrs: Sequence[Sequence[int]]) -> Ints:
    n = len(nbrs)
    d = max((len(near) for near in nbrs), default=0)
    table = np.full((n, max(d, 1)), n, dtype=np.int64)
    for v, near in enumerate(nbrs):
        table[v, : len(near)] = near
    return table


def ie_closed(nbrs: Sequence[Sequence[int]], checkpoint: str | None = None) -> int:
    """Undirected closed tours by inclusion-exclusion over closed walks at cell 0.

    ``checkpoint``: a file that keeps the finished parts (see :func:`_walk_sums`).
    """
    n = len(nbrs)
    if n < 3:
        return 0
    c64, cp, _, _ = _walk_sums(nbrs, 0, checkpoint, half=True)
    return halve(exact(int(c64), int(cp), path_bound(nbrs, closed=True)))


def ie_open(
    nbrs: Sequence[Sequence[int]],
    *,
    transitive: bool = False,
    checkpoint: str | None = None,
) -> int:
    """Undirected open tours by inclusion-exclusion over walks.

    Over every set S and every start unless ``transitive`` (the graph checked
    vertex-transitive by the caller): then from cell 0, times n.
    """
    n = len(nbrs)
    if n == 1:
        return 1
    bound = path_bound(nbrs, closed=False)
    if transitive:
        _, _, o64, op = _walk_sums(nbrs, 0, checkpoint)
        return halve(n * exact(int(o64), int(op), bound))
    _, _, o64, op = _walk_sums(nbrs, -1, checkpoint, half=True)
    return halve(exact(int(o64), int(op), bound))


def ie_both(
    nbrs: Sequence[Sequence[int]], checkpoint: str | None = None
) -> tuple[int, int]:
    """(closed, open) undirected tours of a vertex-transitive graph in one pass.

    The sets holding cell 0 give the closed walks at 0 and the walks from 0
    together; the open tours are those from 0 times n (checked by the caller).
    """
    n = len(nbrs)
    if n < 3:
        return ie_closed(nbrs), ie_open(nbrs, transitive=True)
    c64, cp, o64, op = _walk_sums(nbrs, 0, checkpoint)
    closed = halve(exact(c64, cp, path_bound(nbrs, closed=True)))
    opened = halve(n * exact(o64, op, path_bound(nbrs, closed=False)))
    return closed, opened


# ------------------------------------------------------------------ the record


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux: KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_kernel(
    kernel: str,
    shape: tuple[int, ...],
    topology: str,
    *,
    want_open: bool,
    symmetry: bool,
    checkpoint: str | None = None,
    want_closed: bool = True,
) -> dict[str, Any]:
    """One kernel's counts on one board: values and seconds, and peak MB.

    ``checkpoint``: a directory where the IE keeps its finished parts (one
    file a count: ``ie-closed.jsonl``, ``ie-open.jsonl``, ``ie-both.jsonl``).
    """

    def kept(name: str) -> str | None:
        if checkpoint is None:
            return None
        os.makedirs(checkpoint, exist_ok=True)
        return os.path.join(checkpoint, f"ie-{name}.jsonl")

    nbrs = neighbours(shape, topology)
    transitive = symmetry and topology == "torus"
    if transitive and not translation_invariant(shape, nbrs):
        raise AssertionError("the torus graph is not translation invariant")
    out: dict[str, Any] = {}
    if kernel in ("dp", "layers"):
        began = time.perf_counter()
        count = dp_counts if kernel == "dp" else layers_counts
        closed, opened = count(nbrs, transitive=transitive, want_open=want_open)
        seconds = time.perf_counter() - began
        out["closed"] = {"value": closed, "seconds": round(seconds, 3)}
        if opened is not None:
            out["open"] = {
                "value": opened,
                "seconds": round(seconds, 3),
                "note": "same run as closed",
            }
    elif kernel == "layers16":
        began = time.perf_counter()
        residues = layers16_counts(
            nbrs, shape, topology, transitive=transitive, want_open=want_open,
            want_closed=want_closed,
        )  # fmt: skip
        seconds = round(time.perf_counter() - began, 3)
        for kind, residue in zip(("closed", "open"), residues, strict=True):
            if residue is not None:
                out[kind] = {"residue": residue, "modulus": Q16, "seconds": seconds}
    elif kernel == "ie" and transitive and want_open:  # one pass gives both
        began = time.perf_counter()
        closed, opened = ie_both(nbrs, kept("both"))
        seconds = round(time.perf_counter() - began, 3)
        out["closed"] = {"value": closed, "seconds": seconds}
        out["open"] = {"value": opened, "seconds": seconds, "note": "same run"}
    elif kernel == "ie":
        if want_closed:
            began = time.perf_counter()
            closed = ie_closed(nbrs, kept("closed"))
            out["closed"] = {
                "value": closed,
                "seconds": round(time.perf_counter() - began, 3),
                **part_seconds(kept("closed")),
            }
        if want_open:
            began = time.perf_counter()
            opened = ie_open(nbrs, transitive=transitive, checkpoint=kept("open"))
            out["open"] = {
                "value": opened,
                "seconds": round(time.perf_counter() - began, 3),
                **part_seconds(kept("open")),
            }
    else:
        raise ValueError(f"unknown kernel {kernel!r}")
    out["peak_mb"] = round(peak_mb(), 1)
    return out


def part_seconds(path: str | None) -> dict[str, float]:
    """The compute seconds of every part in a checkpoint (all its runs together)."""
    if path is None:
        return {}
    total = 0.0
    with open(path, encoding="ascii") as lines:
        next(lines)
        for line in lines:
            try:
                total += float(json.loads(line).get("seconds", 0.0))
            except json.JSONDecodeError:  # a line cut short by a crash
                continue
    return {"checkpoint_seconds": round(total, 1)}


def memory_bytes(kernel: str, n: int) -> int:
    """About how many bytes a kernel's arrays take on n cells."""
    if kernel == "dp":
        return (1 << max(n - 1, 0)) * max(n - 1, 1) * 8
    if kernel == "layers":
        return layers_bytes(n)
    if kernel == "layers16":
        return layers_bytes(n) // 4
    return 0


def available_bytes() -> int:
    """The memory free for a new process (Linux: MemAvailable), or a large number."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 1 << 62


def warm(kernel: str, checkpoint: bool = False) -> None:
    """Compile a kernel (numba caches it on disk) before any timing."""
    nbrs = neighbours((3, 3), "torus")
    if kernel == "dp":
        dp_counts(nbrs)
    elif kernel == "layers":
        layers_counts(nbrs)
    elif kernel == "layers16":
        layers16_counts(nbrs, (3, 3), "torus")
    elif checkpoint:
        one = np.ones(1, dtype=np.int64)
        for half in (False, True):
            _walks_parts(_walk_table(nbrs), len(nbrs), 0, one, one + 1, half)
    else:
        ie_both(nbrs)
        ie_closed(nbrs)
        ie_open(nbrs)


def parse_shape(text: str) -> tuple[int, ...]:
    """``'5x5'`` -> (5, 5); ``'2x4x4'`` -> (2, 4, 4)."""
    return tuple(int(side) for side in text.lower().split("x"))


def main(argv: Sequence[str] | None = None) -> None:
    """Count, print one JSON line per count (closed, and open with ``--open``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", help="rows x columns, e.g. 5x5")
    parser.add_argument("--open", action="store_true", help="open tours too")
    parser.add_argument(
        "--kernel",
        default="both",
        help="kernels, comma-separated, from dp, layers and ie (both: dp,ie); "
        "layers is the DP in a fraction of its memory, for 26 to 30 cells",
    )
    parser.add_argument("--topology", choices=("torus", "bounded"), default="torus")
    parser.add_argument(
        "--symmetry",
        choices=("dp", "both", "none"),
        default="dp",
        help="kernels that count open tours from cell 0 times n on a torus "
        "(default: the DPs only; the IE sums over all sets)",
    )
    parser.add_argument(
        "--open-only",
        action="store_true",
        help="the open tours and not the closed ones (the IE: a pass less)",
    )
    parser.add_argument(
        "--checkpoint",
        metavar="DIR",
        help="keep the IE's finished parts in DIR and go on from them when run "
        "again (Ctrl-C, a crash, the end of a session lose only the parts in flight)",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    shape = parse_shape(args.board)
    kernels = ["dp", "ie"] if args.kernel == "both" else args.kernel.split(",")
    unknown = sorted(set(kernels) - {"dp", "layers", "layers16", "ie"})
    if unknown or len(set(kernels)) != len(kernels):
        parser.error(
            f"--kernel: dp, layers, layers16 or ie, each once: {args.kernel!r}"
        )
    cells = math.prod(shape)
    for kernel in kernels:
        need = memory_bytes(kernel, cells)
        if need > 0.8 * available_bytes():
            sys.exit(
                f"{args.board}: the {kernel} kernel needs about {need / 2**30:.1f} "
                f"GiB, more than the {available_bytes() / 2**30:.1f} GiB free here"
            )
    results: dict[str, dict[str, Any]] = {}
    for kernel in kernels:
        if args.child or len(kernels) == 1:
            warm(kernel, checkpoint=args.checkpoint is not None)
            symmetry = args.symmetry == "both" or (
                args.symmetry == "dp" and kernel in ("dp", "layers", "layers16")
            )
            results[kernel] = run_kernel(
                kernel,
                shape,
                args.topology,
                want_open=args.open or args.open_only,
                symmetry=symmetry,
                checkpoint=args.checkpoint,
                want_closed=not args.open_only,
            )
            if args.child:
                print(json.dumps(results[kernel]))
                return
        else:
            command = [sys.executable, __file__, args.board, "--kernel", kernel]
            command += ["--topology", args.topology, "--symmetry", args.symmetry]
            command += ["--child"] + (["--open"] if args.open else [])
            command += ["--open-only"] if args.open_only else []
            if args.checkpoint:
                command += ["--checkpoint", os.path.join(args.checkpoint, kernel)]
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            results[kernel] = json.loads(done.stdout.strip().splitlines()[-1])
    kinds = ["closed", "open"] if args.open else ["closed"]
    for kind in ["open"] if args.open_only else kinds:
        values = {k: r[kind]["value"] for k, r in results.items() if "value" in r[kind]}
        residues = {
            k: r[kind]["residue"] for k, r in results.items() if "residue" in r[kind]
        }
        # every exact value the same, and each residue that value's
        agree = len(set(values.values())) <= 1 and all(
            v % Q16 == r for v in values.values() for r in residues.values()
        )
        line: dict[str, Any] = {
            "board": args.board,
            "topology": args.topology,
            "tours": kind,
            "cells": math.prod(shape),
            "value": next(iter(values.values()), None) if agree else None,
            "agree": agree,
        }
        for k, r in results.items():
            line[k] = {**r[kind], "peak_mb": r["peak_mb"]}
        print(json.dumps(line), flush=True)
        if not agree:
            sys.exit(f"the kernels disagree on {args.board} {kind}: {values}")


if __name__ == "__main__":
    main()
