"""Longest induced cycles of the knight graph, by an exhaustive bitboard search.

Run: ``python benchmarks/snake_cycles_bits.py RxC [--above K] [--split K]
[--jobs N] [--dir DIR]``. The board has R ranks (1..R) and C files (a, b, ...);
cell (r, c) has the index ``c * R + r`` (file-major) and a set of cells is a
bitboard of two 64-bit words, so R * C <= 128 (11 x 11 has 121 cells). An
induced cycle is a cycle of the knight graph with no chord: no two of its
cells are a move apart unless they follow each other on it (OEIS A165143).

Canonical form. A cycle c_0 ... c_{m-1} is searched from its root c_0, its
least cell by index, in the direction with c_1 < c_{m-1}: every cycle has one
such form. The open path c_0 ... c_k grows by a cell v that is a move from the
head c_k, above the root, not on the path and not a move from c_1 ... c_{k-1}.
If v is also a move from the root, the cycle closes there (any later cell would
make v a chord) and v must be above c_1; the root's other neighbours are never
used. A move changes the colour of the square, so the graph is bipartite: no
cell is a move from both c_0 and c_1, and m >= 4. The rules are one bitboard
``blocked`` per depth (the path, the cells below the root, the neighbours of
c_1 ... c_{k-1}); the next cells are ``nb[head] & ~blocked``.

Symmetry (8 maps on a square board, 4 on a rectangle). The gaps of a cycle
are the numbers of empty files left and right of it and of empty ranks below
and above it. (i) Square: a rotation takes the side with the least gap to the
left, so every cycle has an image whose left gap g (its root's file) is at
most every other gap: its cells lie in files and ranks g .. n-1-g. Rectangle:
the left-right mirror, if needed, makes the left gap g at most the right one:
files g .. C-1-g. (ii) The up-down mirror keeps the left and right gaps and
swaps the other two, so it keeps (i). If l and h are the lowest and highest
ranks of the cycle's cells in file g, it maps them to R-1-h and R-1-l, so one
of the two images has l + h <= R - 1: its root has rank l <= (R-1)/2, and it
has no cell in file g above rank R-1-l. Roots and cells are allowed only as
(i) and (ii) say (``allowed``); the chosen image has the same length and meets
every rule, so the search finds it. Tested on small boards: every induced
cycle has an image ``searched`` accepts; the search lists exactly those.

Bounds. A node is cut when no cycle through it can pass the best length so
far (K with ``--above K`` until a longer cycle is found). With the path
c_0 ... c_D, head v, free (not blocked) cells F: X = the cells of F a move
from the root (possible last cells), S = the cells of F a move from v and not
in X (possible next cells), G = F less X and the neighbours of v (no later cell
touches v or the root). The rest of the cycle, P = c_{D+1} ... c_{m-1}, is a
cell of S (or of X, closing at once), then cells of G, each a move from the one
before, then a cell of X.

(a) Reach. R1 = the cells of G reached from S by moves inside G (a flood fill:
each reached cell ORs in its neighbour mask). The last cell is in X and a move
from v, S or R1: with none, cut. Then the peel: a cell of P has its two
neighbours on the cycle in P + {v, root}, and P holds one cell of S and one of
X. So a cell of R1 on P is a move from 2 cells of R1, or from 1 and from S or
X, or from S and X; one of S, from R1 or X; one of X, from R1, S or v. Cells
failing this are removed until none does (the cells a move from 1 or 2 of R1
are found at once: a shifted copy of R1 per move, added into a two-bit
saturating counter), and the fill is redone inside what is left. W = S + R1 +
X after the peel.

(b) Colour. The cycle alternates colours, m/2 cells of each: m <= 2 min over
the colours of (path cells + cells of R1 + the next cell, whose colour is
fixed by D, + the last, the colour opposite the root's, of that colour).

(c) Discharge, a local density bound. Let a(x) count the cells of W + {v,
root} a move from x, b(x) those of W; P lies in W. A cell of P is a move from
exactly 2 cells of P + {v, root} (another would be a chord), so from exactly
a(x) - 2 cells of Q = W - P. Count the moves between P and Q from both sides:
the sum over P of (a - 2) is the sum over y in Q of the cells of P a move
from y, at most the sum over Q of b. The graph is bipartite, the Q cells a move
from white cells of P are black, so (c1) sum over white P of (a - 2) + sum
over black P of b <= E, E = the sum of b over the black cells of W (the moves
inside W); (c2) the same, colours swapped; adding them, (c3) sum over P of
(a + b - 2) <= 2E. The bound: the most cells whose costs a + b - 2 sum to at
most 2E, cheapest first, lowered by 2 until the colour split it implies (the
next cell's colour is opposite v's) passes (c1) and (c2) with the cheapest
cells of each colour. In the open (a = b = 8) it is |P| <= 4/7 |W|. The tests
check it at every rooted prefix of every induced cycle on small boards.

Work. ``--split K`` (K <= ``--above`` when given): one task per root and per
choice of its next K cells that survives the bounds at ``--above``, and one per
cycle closed sooner; ``--jobs N`` runs them in N processes (spawn). A task
starts from the best length in the checkpoint and reads it again as it runs;
that length always belongs to a cycle already written there, so a task that
finds nothing above its threshold proves its part holds nothing above the final
answer. ``--dir DIR`` keeps ``DIR/tasks.jsonl``: a header line, then one line
per finished task (key, best, cycle, threshold, nodes, seconds), flushed and
fsynced; a rerun skips finished tasks, and a last line cut short is dropped and
its task redone. Every cycle reported passes ``check_cycle``. Exit 0 when done,
1 when stopped by Ctrl-C (finished tasks kept), 2 with one line on stderr for
bad arguments.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import signal
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

Words = npt.NDArray[np.uint64]
Ints = npt.NDArray[np.int64]

MOVES = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
MAX_CELLS = 128
BUDGET = 2_000_000  # nodes per kernel call, so that Ctrl-C is heard
PEEL, DISCHARGE = 1, 2  # optional bounds, both on by default
PROGRESS_SECONDS = 60.0
_ZERO = np.uint64(0)
_ONE = np.uint64(1)


# ----------------------------------------------------------- bit helpers


@intrinsic
def _ctpop_intrinsic(typingctx: Any, x: Any) -> Any:
    """The LLVM population count of a uint64."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


# Called from compiled code only, where numba types them (uint64 -> uint64).
_ctpop: Any = _ctpop_intrinsic
_ctz: Any = trailing_zeros


@njit(cache=True, inline="always")
def _pop(a: np.uint64, b: np.uint64) -> int:
    return int(np.int64(_ctpop(a))) + int(np.int64(_ctpop(b)))


@njit(cache=True, inline="always")
def _bit(i: int) -> tuple[np.uint64, np.uint64]:
    if i < 64:
        return _ONE << np.uint64(i), _ZERO
    return _ZERO, _ONE << np.uint64(i - 64)


@njit(cache=True, inline="always")
def _shift(a: np.uint64, b: np.uint64, s: int) -> tuple[np.uint64, np.uint64]:
    """Bit x of the result is bit x + s of (a, b) (s may be negative)."""
    if s >= 64:
        return b >> np.uint64(s - 64), _ZERO
    if s > 0:
        u = np.uint64(s)
        return (a >> u) | (b << np.uint64(64 - s)), b >> u
    if s <= -64:
        return _ZERO, a << np.uint64(-s - 64)
    if s < 0:
        u = np.uint64(-s)
        return a << u, (b << u) | (a >> np.uint64(64 + s))
    return a, b


@njit(cache=True, inline="always")
def _lowest(a: np.uint64, b: np.uint64) -> tuple[np.uint64, np.uint64, int]:
    """(a, b) without its lowest cell, and that cell (the set is not empty)."""
    if a:
        low = a & (~a + _ONE)
        return a ^ low, b, int(np.int64(_ctz(low)))
    low = b & (~b + _ONE)
    return a, b ^ low, 64 + int(np.int64(_ctz(low)))


# ---------------------------------------------------------------- geometry


@dataclass
class Geometry:
    """A board's masks, in the arrays the kernel reads."""

    ranks: int
    files: int
    nb: Words  # (cells, 2): the cells a move away
    colour: Words  # (2,): the cells with rank + file even
    valid: Words  # (8, 2): the cells whose move d stays on the board
    delta: Ints  # (8,): the index change of move d


def _words(cells: list[int] | set[int]) -> Words:
    out = np.zeros(2, np.uint64)
    for i in cells:
        out[i // 64] |= _ONE << np.uint64(i % 64)
    return out


def geometry(ranks: int, files: int) -> Geometry:
    """The masks of a ranks x files board."""
    rr, cc = ranks, files
    cells = [(r, c) for c in range(cc) for r in range(rr)]
    nb = np.zeros((rr * cc, 2), np.uint64)
    valid = np.zeros((8, 2), np.uint64)
    delta = np.zeros(8, np.int64)
    for d, (dr, dc) in enumerate(MOVES):
        delta[d] = dc * rr + dr
        inside = [(r, c) for r, c in cells if 0 <= r + dr < rr and 0 <= c + dc < cc]
        valid[d] = _words([c * rr + r for r, c in inside])
        for r, c in inside:
            nb[c * rr + r] |= _words([(c + dc) * rr + r + dr])
    colour = _words([c * rr + r for r, c in cells if (r + c) % 2 == 0])
    return Geometry(rr, cc, nb, colour, valid, delta)


# ---------------------------------------------------------------- symmetry


def allowed(ranks: int, files: int, root: int) -> set[int] | None:
    """The cells a cycle rooted at ``root`` may use under rules (i) and (ii),
    or None when no cycle is searched from that root."""
    rr, cc = ranks, files
    r0, g = root % rr, root // rr
    rlo, rhi = (g, rr - 1 - g) if rr == cc else (0, rr - 1)
    if r0 + r0 > rr - 1 or not rlo <= r0 <= rhi or g > cc - 1 - g:
        return None
    return {
        c * rr + r
        for c in range(g, cc - g)
        for r in range(rlo, rhi + 1)
        if c * rr + r >= root and not (c == g and r > rr - 1 - r0)
    }


def searched(ranks: int, files: int, cells: list[tuple[int, int]]) -> bool:
    """Whether the search meets this cycle, given as (rank, file) cells."""
    index = [c * ranks + r for r, c in cells]
    box = allowed(ranks, files, min(index))
    return box is not None and set(index) <= box


def roots(ranks: int, files: int) -> list[int]:
    """The cells a search starts from, in index order."""
    return [x for x in range(ranks * files) if allowed(ranks, files, x)]


# ------------------------------------------------------------------ bounds


@njit(cache=True, inline="always")
def _around(nb: Words, a0: np.uint64, a1: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The cells a move from a cell of a (a has few cells)."""
    t0, t1 = _ZERO, _ZERO
    while a0 | a1:
        a0, a1, x = _lowest(a0, a1)
        t0 |= nb[x, 0]
        t1 |= nb[x, 1]
    return t0, t1


@njit(cache=True, inline="always")
def _flood(
    nb: Words, p0: np.uint64, p1: np.uint64, g0: np.uint64, g1: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """The cells of g reached from the cells of p by moves inside g, and the
    cells a move from p or from a reached cell (each cell ORs in its mask)."""
    t0, t1 = _around(nb, p0, p1)
    r0, r1 = _ZERO, _ZERO
    q0, q1 = t0 & g0, t1 & g1
    while q0 | q1:
        q0, q1, x = _lowest(q0, q1)
        b0, b1 = _bit(x)
        r0 |= b0
        r1 |= b1
        t0 |= nb[x, 0]
        t1 |= nb[x, 1]
        q0 |= nb[x, 0] & g0 & ~r0
        q1 |= nb[x, 1] & g1 & ~r1
    return r0, r1, t0, t1


@njit(cache=True, inline="always")
def _peel(
    nb: Words, nv0: np.uint64, nv1: np.uint64, p0: np.uint64, p1: np.uint64,
    r0: np.uint64, r1: np.uint64, x0: np.uint64, x1: np.uint64, valid: Words,
    delta: Ints,
) -> tuple[np.uint64, ...]:  # fmt: skip
    """The peel of bound (a) on S (p), R1 (r) and X (x), until nothing goes."""
    while True:
        s0, s1 = _around(nb, p0, p1)
        z0, z1 = _around(nb, x0, x1)
        o0, o1, w0, w1 = _ZERO, _ZERO, _ZERO, _ZERO
        for d in range(8):
            h0, h1 = _shift(r0, r1, delta[d])
            h0 &= valid[d, 0]
            h1 &= valid[d, 1]
            w0 |= o0 & h0
            w1 |= o1 & h1
            o0 |= h0
            o1 |= h1
        k0 = r0 & (w0 | (o0 & (s0 | z0)) | (s0 & z0))
        k1 = r1 & (w1 | (o1 & (s1 | z1)) | (s1 & z1))
        q0, q1 = p0 & (o0 | z0), p1 & (o1 | z1)
        y0, y1 = x0 & (o0 | s0 | nv0), x1 & (o1 | s1 | nv1)
        if k0 == r0 and k1 == r1 and q0 == p0 and q1 == p1 and y0 == x0 and y1 == x1:
            return p0, p1, r0, r1, x0, x1
        p0, p1, r0, r1, x0, x1 = q0, q1, k0, k1, y0, y1


@njit(cache=True, inline="always")
def _colour_ub(
    dd: int, r0: np.uint64, r1: np.uint64, same0: np.uint64, same1: np.uint64
) -> int:
    """Bound (b): the path c_0 .. c_dd, the cells r, one next and one last cell."""
    na = _pop(r0 & same0, r1 & same1)
    no = _pop(r0, r1) - na + 1  # the last cell: not the root's colour
    if dd % 2 == 1:  # the next cell, c_{dd+1}, has the root's colour
        na += 1
    else:
        no += 1
    return 2 * min(dd // 2 + 1 + na, (dd + 1) // 2 + no)


@njit(cache=True, inline="always")
def _least(hist: Ints, n: int) -> int:
    """The sum of the n smallest values counted in ``hist`` (value = index)."""
    total = 0
    for value in range(len(hist)):
        take = min(n, int(hist[value]))
        total += take * value
        n -= take
        if n == 0:
            return total
    return 1 << 40


@njit(cache=True, inline="always")
def _discharge(
    nb: Words, w0: np.uint64, w1: np.uint64, nv0: np.uint64, nv1: np.uint64,
    nr0: np.uint64, nr1: np.uint64, colour: Words, valid: Words, delta: Ints,
    first: int, most: int, hc: Ints, ha: Ints, hb: Ints,
) -> int:  # fmt: skip
    """Bound (c): the most cells, at most ``most`` and of its parity, that the
    rest of the cycle can have in w; ``first`` is the colour of the next cell
    (0: the cells of ``colour``). Each cell's b, for all cells at once: 8
    shifted copies of w added into a 4-bit counter, bit i in (u_i, l_i)."""
    u0, u1, u2, u3 = _ZERO, _ZERO, _ZERO, _ZERO
    l0, l1, l2, l3 = _ZERO, _ZERO, _ZERO, _ZERO
    for d in range(8):
        h0, h1 = _shift(w0, w1, delta[d])
        h0 &= valid[d, 0] & w0
        h1 &= valid[d, 1] & w1
        c0, c1 = u0 & h0, l0 & h1
        u0 ^= h0
        l0 ^= h1
        h0, h1 = u1 & c0, l1 & c1
        u1 ^= c0
        l1 ^= c1
        c0, c1 = u2 & h0, l2 & h1
        u2 ^= h0
        l2 ^= h1
        u3 |= c0
        l3 |= c1
    hc[:] = 0  # cost a - 2 + b, both colours
    ha[:] = 0  # cost a - 2, by colour
    hb[:] = 0  # cost b, by colour
    edges = 0
    e0, e1 = w0 & (nv0 | nr0), w1 & (nv1 | nr1)  # the few cells with a > b
    m0, m1 = w0 & ~e0, w1 & ~e1
    left = _pop(m0, m1)
    for k in range(9):
        if left == 0:
            break
        q0 = m0 & (u0 if k & 1 else ~u0) & (u1 if k & 2 else ~u1)
        q0 &= (u2 if k & 4 else ~u2) & (u3 if k & 8 else ~u3)
        q1 = m1 & (l0 if k & 1 else ~l0) & (l1 if k & 2 else ~l1)
        q1 &= (l2 if k & 4 else ~l2) & (l3 if k & 8 else ~l3)
        n = _pop(q0, q1)
        if n:
            left -= n
            n0 = _pop(q0 & colour[0], q1 & colour[1])
            hb[0, k] += n0
            hb[1, k] += n - n0
            edges += k * (n - n0)
            if k >= 2:  # a cell with a < 2 is on no path
                ha[0, k - 2] += n0
                ha[1, k - 2] += n - n0
                hc[2 * k - 2] += n
    while e0 | e1:
        e0, e1, x = _lowest(e0, e1)
        k = _pop(nb[x, 0] & w0, nb[x, 1] & w1)
        x0, x1 = _bit(x)
        a = k + (1 if (nv0 & x0) | (nv1 & x1) else 0)
        a += 1 if (nr0 & x0) | (nr1 & x1) else 0
        col = 0 if (colour[0] & x0) | (colour[1] & x1) else 1
        hb[col, k] += 1
        edges += k * col
        if a >= 2:
            ha[col, a - 2] += 1
            hc[a + k - 2] += 1
    ub = 0
    room = 2 * edges
    for cost in range(len(hc)):
        take = min(hc[cost], room // cost) if cost else hc[0]
        ub += take
        room -= take * cost
        if take < hc[cost]:
            break
    ub = min(ub, most)
    if (most - ub) % 2:
        ub -= 1
    while ub > 0:
        nw = (ub + 1) // 2 if first == 0 else ub // 2
        nk = ub - nw
        if (
            _least(ha[0], nw) + _least(hb[1], nk) <= edges
            and _least(ha[1], nk) + _least(hb[0], nw) <= edges
        ):
            break
        ub -= 2
    return ub


@njit(cache=True, inline="always")
def _bound(
    nb: Words, colour: Words, valid: Words, delta: Ints, root: int, dd: int,
    v: int, b0: np.uint64, b1: np.uint64, best: int, flags: int, hc: Ints,
    ha: Ints, hb: Ints,
) -> int:  # fmt: skip
    """An upper bound on the length of a cycle through the path c_0 .. c_dd
    (head v, blocked cells b); it stops early once it is at most ``best``."""
    nr0, nr1 = nb[root, 0], nb[root, 1]
    f0, f1 = ~b0, ~b1
    x0, x1 = nr0 & f0, nr1 & f1
    s0, s1 = nb[v, 0] & f0, nb[v, 1] & f1
    p0, p1 = s0 & ~nr0, s1 & ~nr1
    g0, g1 = f0 & ~nr0 & ~nb[v, 0], f1 & ~nr1 & ~nb[v, 1]
    r0, r1, t0, t1 = _flood(nb, p0, p1, g0, g1)
    x0 &= s0 | t0
    x1 &= s1 | t1
    if x0 == 0 and x1 == 0:
        return 0
    v0, v1 = _bit(v)
    rb0, rb1 = _bit(root)
    if flags & PEEL:
        q0, q1, k0, k1, y0, y1 = _peel(
            nb, nb[v, 0], nb[v, 1], p0, p1, r0, r1, x0, x1, valid, delta
        )
        if q0 != p0 or q1 != p1 or k0 != r0 or k1 != r1 or y0 != x0 or y1 != x1:
            p0, p1, x0, x1 = q0, q1, y0, y1
            r0, r1, t0, t1 = _flood(nb, p0, p1, k0, k1)
            x0 &= s0 | t0
            x1 &= s1 | t1
            if x0 == 0 and x1 == 0:
                return 0
    if (colour[0] & rb0) | (colour[1] & rb1):
        same0, same1 = colour[0], colour[1]
    else:
        same0, same1 = ~colour[0], ~colour[1]
    ub = _colour_ub(dd, r0, r1, same0, same1)
    if ub <= best or not flags & DISCHARGE:
        return ub
    first = 1 if (colour[0] & v0) | (colour[1] & v1) else 0
    rest = _discharge(
        nb, p0 | r0 | x0, p1 | r1 | x1, nb[v, 0], nb[v, 1], nr0, nr1, colour, valid,
        delta, first, ub - dd - 1, hc, ha, hb,
    )  # fmt: skip
    return dd + 1 + rest


# ------------------------------------------------------------------ kernel


@njit(cache=True)
def _kernel(
    nb: Words, colour: Words, valid: Words, delta: Ints, st: Ints, path: Ints,
    cand: Words, blk: Words, bestpath: Ints, out: Ints, budget: int,
) -> int:  # fmt: skip
    """Run the search from its saved state for up to ``budget`` nodes.

    ``st``: depth, base depth, nodes, best, emit, stop depth, rows out, bound
    flags, best length found. With emit = 0 it raises ``best`` and keeps the
    cycle in ``bestpath``; with emit = 1 ``best`` stays, and every cycle over
    it, and every path that reaches the stop depth, is a row of ``out``
    (length, cells). Returns 0 when done, 1 when the budget ran out, 2 when
    ``out`` is full (call again to go on).
    """
    depth, base, nodes, best = st[0], st[1], st[2], st[3]
    emit, stop, nout, flags = st[4], st[5], st[6], st[7]
    root = path[0]
    nr0, nr1 = nb[root, 0], nb[root, 1]
    hc = np.zeros(19, np.int64)
    ha = np.zeros((2, 9), np.int64)
    hb = np.zeros((2, 9), np.int64)
    spent = 0
    status = 0
    while depth >= base:
        if emit and nout == out.shape[0]:
            status = 2
            break
        if spent >= budget:
            status = 1
            break
        c0, c1 = cand[depth, 0], cand[depth, 1]
        if c0 == 0 and c1 == 0:
            depth -= 1
            continue
        cand[depth, 0], cand[depth, 1], v = _lowest(c0, c1)
        nodes += 1
        spent += 1
        v0, v1 = _bit(v)
        if depth == 0:  # v is c_1: the root's neighbours below it go
            b0 = blk[0, 0] | v0 | (nr0 & (v0 - _ONE if v < 64 else ~_ZERO))
            b1 = blk[0, 1] | v1 | (nr1 & (v1 - _ONE if v >= 64 else _ZERO))
        elif (nr0 & v0) | (nr1 & v1):  # v closes the cycle
            m = depth + 2
            path[m - 1] = v
            if m > best and emit:
                out[nout, 0] = m
                out[nout, 1 : m + 1] = path[:m]
                nout += 1
            elif m > best:
                best = st[8] = m
                bestpath[:m] = path[:m]
            continue
        else:
            b0 = blk[depth, 0] | nb[path[depth], 0]
            b1 = blk[depth, 1] | nb[path[depth], 1]
        dd = depth + 1
        if _bound(nb, colour, valid, delta, root, dd, v, b0, b1, best, flags,
                  hc, ha, hb) <= best:  # fmt: skip
            continue
        path[dd] = v
        if dd == stop:
            out[nout, 0] = dd + 1
            out[nout, 1 : dd + 2] = path[: dd + 1]
            nout += 1
            continue
        blk[dd, 0], blk[dd, 1] = b0, b1
        cand[dd, 0] = nb[v, 0] & ~b0
        cand[dd, 1] = nb[v, 1] & ~b1
        depth = dd
    st[0], st[2], st[3], st[6] = depth, nodes, best, nout
    return status


# ------------------------------------------------------------------ runner


@dataclass
class Outcome:
    """What one task found: its best cycle above the threshold, and its work."""

    best: int  # 0: none above the threshold
    cycle: list[int]
    threshold: int
    nodes: int
    seconds: float


class _Search:
    """The kernel's state for one start: a root, or a root and its next cells."""

    def __init__(
        self, geo: Geometry, prefix: list[int], best: int, *, emit: bool = False,
        stop: int = -1, flags: int = PEEL | DISCHARGE, rows: int = 4096,
    ) -> None:  # fmt: skip
        n = geo.ranks * geo.files
        self.geo = geo
        self.path = np.zeros(n + 2, np.int64)
        self.cand = np.zeros((n + 2, 2), np.uint64)
        self.blk = np.zeros((n + 2, 2), np.uint64)
        self.bestpath = np.zeros(n + 2, np.int64)
        self.out = np.zeros((rows if emit else 1, n + 2), np.int64)
        root = prefix[0]
        box = allowed(geo.ranks, geo.files, root)
        assert box is not None, "not a root the search starts from"
        self.blk[0] = ~_words(box) | _words([root])
        for k in range(1, len(prefix)):  # the kernel's rules, replayed
            if k == 1:
                below = _words(set(range(prefix[1])))
                self.blk[1] = self.blk[0] | _words([prefix[1]]) | (geo.nb[root] & below)
            else:
                self.blk[k] = self.blk[k - 1] | geo.nb[prefix[k - 1]]
        depth = len(prefix) - 1
        self.path[: depth + 1] = prefix
        self.cand[depth] = geo.nb[prefix[-1]] & ~self.blk[depth]
        self.st = np.array(
            [depth, depth, 0, best, int(emit), stop, 0, flags, 0], np.int64
        )

    def step(self, budget: int = BUDGET) -> int:
        g = self.geo
        return int(
            _kernel(
                g.nb, g.colour, g.valid, g.delta, self.st, self.path, self.cand,
                self.blk, self.bestpath, self.out, budget,
            )
        )  # fmt: skip

    def bound(self) -> int:
        """The bound at the start (its path must have 2 cells or more)."""
        g, k, p = self.geo, int(self.st[0]), self.path
        h = [np.zeros(19, np.int64), *np.zeros((2, 2, 9), np.int64)]
        b0, b1 = self.blk[k]
        return int(_bound(g.nb, g.colour, g.valid, g.delta, p[0], k, p[k], b0, b1,
                          -1, int(self.st[7]), *h))  # fmt: skip

    def drain(self) -> list[list[int]]:
        """Run to the end in emit mode: every row."""
        found: list[list[int]] = []
        while True:
            status = self.step()
            rows = self.out[: self.st[6]]
            found += [[int(x) for x in row[1 : row[0] + 1]] for row in rows]
            self.st[6] = 0
            if status == 0:
                return found


def collect_cycles(
    ranks: int, files: int, above: int = 3, *, flags: int = PEEL | DISCHARGE
) -> list[list[int]]:
    """Every cycle of more than ``above`` cells that the search meets (cell
    indices), its cut-off held at ``above``: for the tests."""
    geo = geometry(ranks, files)
    found: list[list[int]] = []
    for root in roots(ranks, files):
        found += _Search(geo, [root], above, emit=True, flags=flags).drain()
    return found


def node_bound(geo: Geometry, prefix: list[int]) -> int:
    """The bound the search computes at a rooted path of 2 cells or more."""
    return _Search(geo, prefix, 0).bound()


def tasks(geo: Geometry, above: int, split: int) -> list[list[int]]:
    """The starts: each root's paths of ``split`` more cells that pass the
    bounds at ``above``, and the cycles of more than ``above`` cells closed
    sooner, by root in index order."""
    out: list[list[int]] = []
    for root in roots(geo.ranks, geo.files):
        search = _Search(geo, [root], above, emit=True, stop=split)
        out += search.drain() if split else [[root]]
    return out


def run_task(
    geo: Geometry, prefix: list[int], threshold: int, shared: Any = None,
    *, flags: int = PEEL | DISCHARGE,
) -> Outcome:  # fmt: skip
    """Search below one start for the longest cycle above ``threshold`` (and
    above ``shared.value``, read again as the search runs)."""
    began = time.perf_counter()
    if shared is not None:
        threshold = max(threshold, int(shared.value))
    last = _words([prefix[-1]])
    if len(prefix) >= 4 and (geo.nb[prefix[0]] & last).any():  # a closed cycle
        found = len(prefix) if len(prefix) > threshold else 0
        cycle = prefix if found else []
        return Outcome(found, cycle, threshold, 1, time.perf_counter() - began)
    search = _Search(geo, prefix, threshold, flags=flags)
    while search.step() != 0:
        if shared is not None and int(shared.value) > threshold:
            threshold = int(shared.value)
            search.st[3] = max(int(search.st[3]), threshold)
    found = int(search.st[8])
    cycle = [int(x) for x in search.bestpath[:found]] if found else []
    if found <= threshold:  # nothing, or overtaken by a finished task
        found, cycle = 0, []
    seconds = time.perf_counter() - began
    return Outcome(found, cycle, threshold, int(search.st[2]), seconds)


# ------------------------------------------------------------------ checker


def name(ranks: int, cell: int) -> str:
    """The cell's name: file letter, then rank from 1 (index c * R + r)."""
    return chr(ord("a") + cell // ranks) + str(cell % ranks + 1)


def check_cycle(ranks: int, files: int, cells: list[tuple[int, int]]) -> None:
    """Raise ValueError unless ``cells`` ((rank, file) pairs) is an induced
    knight cycle of the board: at least 4 distinct cells on it, each a move
    from the next and the last from the first, no other pair a move apart."""
    m = len(cells)
    if m < 4:
        raise ValueError(f"a cycle needs 4 cells or more, not {m}")
    if len(set(cells)) != m:
        raise ValueError("a cell is repeated")
    for r, c in cells:
        if not (0 <= r < ranks and 0 <= c < files):
            raise ValueError(f"cell ({r}, {c}) is off the board")

    def move(p: tuple[int, int], q: tuple[int, int]) -> bool:
        return sorted((abs(p[0] - q[0]), abs(p[1] - q[1]))) == [1, 2]

    for i in range(m):
        for j in range(i + 1, m):
            joined = j == i + 1 or (i == 0 and j == m - 1)
            if joined and not move(cells[i], cells[j]):
                raise ValueError(f"cells {i} and {j} are not a knight's move apart")
            if not joined and move(cells[i], cells[j]):
                raise ValueError(f"cells {i} and {j} make a chord")


# --------------------------------------------------------------------- CLI


class _BadArgument(Exception):
    """A bad argument: one line on stderr, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _BadArgument(message)


def parse_board(text: str) -> tuple[int, int]:
    """``RxC`` (ranks x files) as two ints; ValueError if not a usable board."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"board {text!r} is not RxC, e.g. 8x8")
    ranks, files = map(int, parts)
    if ranks < 1 or files < 1 or ranks * files > MAX_CELLS or files > 26:
        raise ValueError(f"board {text!r}: need R, C >= 1, C <= 26, R*C <= 128")
    return ranks, files


_GEO: Geometry | None = None
_SHARED: Any = None


def _init(ranks: int, files: int, shared: Any) -> None:
    global _SHARED, _GEO
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the pool
    _SHARED = shared
    _GEO = geometry(ranks, files)


def _work(job: tuple[str, list[int], int]) -> tuple[str, Outcome]:
    key, prefix, above = job
    assert _GEO is not None
    return key, run_task(_GEO, prefix, above, _SHARED)


def _open_log(path: Path, header: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Read the finished tasks (a last line cut short is dropped), or start
    the file with its header line."""
    done: dict[str, dict[str, Any]] = {}
    text = path.read_text() if path.exists() else ""
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
        path.write_text(text)
    lines = text.splitlines()
    if lines:
        if json.loads(lines[0]) != header:
            raise _BadArgument(f"{path} holds another run: {lines[0]}")
        for line in lines[1:]:
            try:
                row = json.loads(line)
                done[row["key"]] = row
            except (ValueError, KeyError, TypeError):
                continue  # a damaged line: its task is run again
        return done
    with path.open("w") as fh:
        _append(fh, header)
    return done


def _append(fh: Any, row: dict[str, Any]) -> None:
    """One JSON line, on the disk before this returns."""
    fh.write(json.dumps(row) + "\n")
    fh.flush()
    os.fsync(fh.fileno())


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit code."""
    parser = _Parser(description=__doc__.splitlines()[0])
    parser.add_argument("board", help="RxC: R ranks, C files (R*C <= 128)")
    parser.add_argument("--above", type=int, default=None, help="only cycles > K")
    parser.add_argument("--split", type=int, default=0, help="cells fixed per task")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--dir", type=Path, default=None, help="checkpoint folder")
    try:
        args = parser.parse_args(argv)
        ranks, files = parse_board(args.board)
        above = 0 if args.above is None else args.above
        for bad, why in (
            (above < 0, "--above must be 0 or more"),
            (args.jobs < 1, "--jobs must be 1 or more"),
            (args.split < 0, "--split must be 0 or more"),
            (args.split > above and args.above is not None, "--split > --above"),
        ):
            if bad:
                raise _BadArgument(why)
        done: dict[str, dict[str, Any]] = {}
        log = None
        if args.dir is not None:
            if args.dir.exists() and not args.dir.is_dir():
                raise _BadArgument(f"--dir {args.dir} is not a folder")
            args.dir.mkdir(parents=True, exist_ok=True)
            log = args.dir / "tasks.jsonl"
            header = {"board": f"{ranks}x{files}", "above": above, "split": args.split}
            done = _open_log(log, header)
    except (ValueError, _BadArgument, OSError) as err:
        print(f"error: {err}".replace("\n", " "), file=sys.stderr)
        return 2
    stats = {"done": 0, "tasks": 0}
    try:
        return _solve(ranks, files, above, args.split, args.jobs, log, done, stats)
    except KeyboardInterrupt:
        print(f"stopped: {stats['done']} of {stats['tasks']} done", file=sys.stderr)
        return 1


def _solve(
    ranks: int, files: int, above: int, split: int, jobs: int, log: Path | None,
    done: dict[str, dict[str, Any]], stats: dict[str, int],
) -> int:  # fmt: skip
    """Run the tasks not in ``done``; KeyboardInterrupt passes through."""
    began = time.perf_counter()
    geo = geometry(ranks, files)
    keyed = {" ".join(name(ranks, x) for x in s): s for s in tasks(geo, above, split)}
    done = {k: row for k, row in done.items() if k in keyed}
    stats["tasks"], stats["done"] = len(keyed), len(done)
    for row in done.values():
        if row["best"]:
            _verify(ranks, files, row["cycle"])
    best = max([above] + [int(row["best"]) for row in done.values()])
    todo = [(k, s, above) for k, s in keyed.items() if k not in done]
    print(f"{ranks}x{files}: {len(keyed)} tasks, {len(done)} done before", flush=True)
    fh = log.open("a") if log is not None else None
    shown = [time.perf_counter()]

    def record(key: str, res: Outcome) -> None:
        row: dict[str, Any] = {"key": key, **asdict(res)}
        row["cycle"] = [name(ranks, x) for x in res.cycle]
        row["seconds"] = round(res.seconds, 3)
        if res.best:
            _verify(ranks, files, row["cycle"])
        done[key] = row
        stats["done"] = len(done)
        if fh is not None:
            _append(fh, row)
        if time.perf_counter() - shown[0] > PROGRESS_SECONDS:
            shown[0] = time.perf_counter()
            top = max(int(r["best"]) for r in done.values())
            print(f"{len(done)} of {len(keyed)} tasks, best {top}", file=sys.stderr)

    ctx = mp.get_context("spawn")
    shared = ctx.Value("q", best)
    try:
        if jobs == 1:
            for key, prefix, _ in todo:
                res = run_task(geo, prefix, above, shared)
                record(key, res)
                shared.value = max(int(shared.value), res.best)
        else:
            with ctx.Pool(jobs, _init, (ranks, files, shared)) as pool:
                for key, res in pool.imap_unordered(_work, todo):
                    record(key, res)  # written before others may use it
                    with shared.get_lock():
                        shared.value = max(int(shared.value), res.best)
    finally:
        if fh is not None:
            fh.close()
    return _report(ranks, files, above, done, time.perf_counter() - began)


def _verify(ranks: int, files: int, names: list[str]) -> None:
    cells = [(int(s[1:]) - 1, ord(s[0]) - ord("a")) for s in names]
    check_cycle(ranks, files, cells)


def _report(
    ranks: int, files: int, above: int, done: dict[str, dict[str, Any]], secs: float
) -> int:
    rows = list(done.values())
    best = max([0] + [int(r["best"]) for r in rows])
    for r in rows:  # every threshold is --above or a cycle in the log
        assert int(r["threshold"]) <= max(above, best), r
    nodes = sum(int(r["nodes"]) for r in rows)
    print(f"nodes {nodes} in all tasks; {secs:.1f} s this run")
    if best <= above:
        print(f"none: no induced cycle on {ranks}x{files} has more than {above} cells")
        return 0
    row = next(r for r in rows if int(r["best"]) == best)
    _verify(ranks, files, row["cycle"])
    print(f"longest induced cycle: {best} cells, proved")
    print(" ".join(row["cycle"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
