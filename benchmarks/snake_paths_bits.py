"""Longest snakes (induced paths) of the knight graph, by a bitboard search
grown from one end.

Run: ``python benchmarks/snake_paths_bits.py RxC [--above K] [--split K]
[--jobs N] [--dir DIR]``. A snake is a path c_0 c_1 ... c_m of the knight graph
(each cell a move from the one before) in which no two cells are a move apart
unless they follow each other: it has m + 1 cells and m moves (OEIS A357500
counts the cells on n x n). ``--above K`` and ``--split K`` count MOVES. The
cells, their index ``c * R + r`` (file-major) and the bitboards of two 64-bit
words (R * C <= 128) are those of ``snake_cycles_bits.py``, whose helpers this
program imports; the search, its canonical form and its bounds are its own.

Canonical form. G is the board's symmetry group (8 maps on a square, 4 on a
rectangle). The representative rho(x) of a cell is the least index in its orbit;
the roots are the representatives, numbered in index order (ord: the cells of
file a first, then nearer the centre). A snake c_0 ... c_m, read in this order,
is searched when (1) c_0 is a root, (2) ord(rho(c_m)) >= ord(c_0), and (3) m = 0
or c_1 <= s(c_1) for every s of G that fixes c_0. Every snake has such an image:
take its end e with the smaller ord(rho(e)) (either on a tie), a map s with
s(e) = rho(e), and read s(snake) from s(e): (1) and (2) hold, as maps keep
orbits. Of the maps t fixing rho(e), apply the one with the least t(c_1): (1)
and (2) still hold, and for any s fixing c_0, s(t(c_1)) = (s t)(c_1) >= t(c_1),
which is (3). So the search from root t needs only the snakes whose last cell
lies in L_t = {u : ord(rho(u)) >= ord(t)} and whose c_1 is in ``first(t)``.

Growth. The path c_0 ... c_D (head v = c_D) grows by a cell that is a move
from v and is not blocked: blocked = the path, the cells a move from c_0 ...
c_{D-1}, and the bits beyond the board (one bitboard per depth, ``blk``). The
sequences grown are exactly the snakes from c_0; each node whose head is in
L_t is a snake the search meets (a 1-cell snake is its root).

Bounds. A node is cut when no snake through it can pass the best length so
far (cells). The rest is P = p_1 ... p_k, k >= 0, with F the free cells: p_1 in
S = the cells of F a move from v; p_2 ... p_k in G = F less the cells a move
from v (a later cell touching v would be a chord); p_k in L_t if k >= 1, v in
L_t if k = 0. (a) Reach: R1 = the cells of G reached from S by moves inside G;
P lies in W = S + R1, and k = 0 if W holds no cell of L_t. The peel: a cell of
P other than p_k has both its neighbours on the snake in P + {v}, and p_k is in
L_t; p_{i+1} (i >= 1) is in R1, never in S. So a cell of R1 outside L_t stays only if
it is a move from 2 cells of R1, or from 1 of R1 and 1 of S; a cell of S
outside L_t only if it is a move from a cell of R1. Cells failing this are
removed until none does (a shifted copy of R1 per move into a two-bit
counter), then the fill is redone inside what is left. (b) Colour: moves change
colour, so P alternates from p_1's colour (the opposite of v's): k <= 2 n1 and
k <= 2 n2 + 1, n1 = 1 + the cells of R1 of p_1's colour (one S cell at most),
n2 = those of the other colour. (c) Discharge: let a(x) count the cells of W +
{v} a move from x, b(x) those of W. A cell of P but p_k is a move from exactly
2 cells of P + {v} (a third would be a chord), so from a(x) - 2 cells of
Q = W - P; p_k (a >= 1) from a - 1 >= max(a - 2, 0). With cost(x) = max(a(x)
- 2, 0), and since the cells of Q a move from white cells of P are black:
(c1) sum over white P of cost + sum over black P of b <= E, E = the moves
inside W (sum of b over the black cells of W); (c2) colours swapped; (c3) their
sum. The bound: the most cells whose costs cost + b fit in 2E (cheapest first),
at most (b), lowered by one until the colour split it implies passes (c1) and
(c2) with the cheapest cells of each colour. The tests check every bound at
every prefix of every searched snake on small boards.

Work. ``--split K`` (K <= ``--above``): one task per root and choice of its
next K cells that passes the bounds at ``--above``, and one per shorter snake
over the threshold (only without ``--above``); ``--jobs N`` runs them in N
processes (spawn). A task starts from the best length in the checkpoint and
reads the shared best again as it runs; that length always belongs to a snake
already written there, so a task that finds nothing above its threshold proves
its part holds nothing above the final answer. ``--dir DIR`` keeps
``DIR/tasks.jsonl``: a header line, then one line per finished task (key, best,
path, threshold, nodes, seconds), flushed and fsynced; a rerun skips finished
tasks, and a last line cut short is dropped and its task redone. The kernel
runs ``BUDGET`` nodes a call, so Ctrl-C is heard between calls (the workers of
``--jobs`` ignore it and are terminated). Every snake reported passes
``check_path``, written apart from the search. Exit 0 when done, 1 when stopped
by Ctrl-C (finished tasks kept), 2 with one line on stderr for bad arguments.

Measured (one core of a shared 2-core machine): 8x8 313,364 nodes, 0.5 s
(34 cells); 9x9 ``--above 39`` 12.2 M nodes, 9 s (none); 10x10 ``--above 45``
309 M nodes, 212 s: 50 cells (49 moves), none longer.
"""

from __future__ import annotations

import functools
import multiprocessing as mp
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for spawned workers

from snake_cycles_bits import (
    Geometry,
    Ints,
    Words,
    _append,
    _around,
    _BadArgument,
    _bit,
    _least,
    _lowest,
    _open_log,
    _Parser,
    _pop,
    _shift,
    _words,
    geometry,
    name,
    parse_board,
)

BUDGET = 300_000  # nodes per kernel call, so that Ctrl-C is heard
PEEL, DISCHARGE = 1, 2  # optional bounds, both on by default
PROGRESS_SECONDS = 60.0
VERSION = "ends-1"  # the canonical form; a checkpoint of another is refused
_ZERO = np.uint64(0)
_ONE = np.uint64(1)

# ---------------------------------------------------------------- symmetry

Cell = tuple[int, int]  # (rank, file)


def _maps(ranks: int, files: int) -> list[tuple[bool, bool, bool]]:
    swaps = (False, True) if ranks == files else (False,)
    return [(s, a, b) for s in swaps for a in (False, True) for b in (False, True)]


def _image(ranks: int, files: int, m: tuple[bool, bool, bool], x: int) -> int:
    r, c = x % ranks, x // ranks
    if m[0]:
        r, c = c, r
    r = ranks - 1 - r if m[1] else r
    c = files - 1 - c if m[2] else c
    return c * ranks + r


@functools.cache
def rep(ranks: int, files: int, x: int) -> int:
    """The least index in the cell's orbit under the board's symmetries."""
    return min(_image(ranks, files, m, x) for m in _maps(ranks, files))


@functools.cache
def roots(ranks: int, files: int) -> tuple[int, ...]:
    """The roots (representatives) in their order ``ord``."""
    return tuple(sorted({rep(ranks, files, x) for x in range(ranks * files)}))


@functools.cache
def ends(ranks: int, files: int, root: int) -> frozenset[int]:
    """L_t: the cells where a snake from ``root`` may end."""
    order = {t: i for i, t in enumerate(roots(ranks, files))}
    k = order[root]
    return frozenset(
        u for u in range(ranks * files) if order[rep(ranks, files, u)] >= k
    )


@functools.cache
def first(ranks: int, files: int, root: int) -> frozenset[int]:
    """The cells c_1 may be: u <= s(u) for each symmetry s fixing the root."""
    stab = [m for m in _maps(ranks, files) if _image(ranks, files, m, root) == root]
    return frozenset(
        u
        for u in range(ranks * files)
        if all(u <= _image(ranks, files, m, u) for m in stab)
    )


def searched(ranks: int, files: int, path: list[int]) -> bool:
    """Whether the search meets this snake read in this order (cell indices)."""
    if path[0] != rep(ranks, files, path[0]):
        return False
    if path[-1] not in ends(ranks, files, path[0]):
        return False
    return len(path) == 1 or path[1] in first(ranks, files, path[0])


# ------------------------------------------------------------------ bounds


@njit(cache=True, inline="always")
def _fill(
    nb: Words, p0: np.uint64, p1: np.uint64, g0: np.uint64, g1: np.uint64
) -> tuple[np.uint64, np.uint64]:
    """The cells of g reached from the cells of p by moves inside g."""
    t0, t1 = _around(nb, p0, p1)
    r0, r1 = _ZERO, _ZERO
    q0, q1 = t0 & g0, t1 & g1
    while q0 | q1:
        q0, q1, x = _lowest(q0, q1)
        b0, b1 = _bit(x)
        r0 |= b0
        r1 |= b1
        q0 |= nb[x, 0] & g0 & ~r0
        q1 |= nb[x, 1] & g1 & ~r1
    return r0, r1


@njit(cache=True, inline="always")
def _peel(
    nb: Words, s0: np.uint64, s1: np.uint64, r0: np.uint64, r1: np.uint64,
    l0: np.uint64, l1: np.uint64, valid: Words, delta: Ints,
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:  # fmt: skip
    """The peel of bound (a) on S (s) and R1 (r), L_t (l), until nothing goes."""
    while True:
        z0, z1 = _around(nb, s0, s1)
        o0, o1, w0, w1 = _ZERO, _ZERO, _ZERO, _ZERO
        for d in range(8):
            h0, h1 = _shift(r0, r1, delta[d])
            h0 &= valid[d, 0]
            h1 &= valid[d, 1]
            w0 |= o0 & h0
            w1 |= o1 & h1
            o0 |= h0
            o1 |= h1
        k0 = r0 & (l0 | w0 | (o0 & z0))
        k1 = r1 & (l1 | w1 | (o1 & z1))
        q0, q1 = s0 & (l0 | o0), s1 & (l1 | o1)
        if k0 == r0 and k1 == r1 and q0 == s0 and q1 == s1:
            return s0, s1, r0, r1
        s0, s1, r0, r1 = q0, q1, k0, k1


@njit(cache=True, inline="always")
def _discharge(
    nb: Words, w0: np.uint64, w1: np.uint64, nv0: np.uint64, nv1: np.uint64,
    colour: Words, valid: Words, delta: Ints, first: int, most: int, hc: Ints,
    ha: Ints, hb: Ints,
) -> int:  # fmt: skip
    """Bound (c): the most cells, at most ``most``, that the rest can have in
    w; ``first`` is p_1's colour (0: the cells of ``colour``). Each cell's b:
    8 shifted copies of w added into a 4-bit counter, bit i in (u_i, l_i)."""
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
    hc[:] = 0  # cost + b, both colours
    ha[:] = 0  # cost = max(a - 2, 0), by colour
    hb[:] = 0  # b, by colour
    edges = 0
    e0, e1 = w0 & nv0, w1 & nv1  # the cells of S: a = b + 1
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
            cost = max(k - 2, 0)
            ha[0, cost] += n0
            ha[1, cost] += n - n0
            hc[cost + k] += n
    while e0 | e1:
        e0, e1, x = _lowest(e0, e1)
        k = _pop(nb[x, 0] & w0, nb[x, 1] & w1)
        x0, x1 = _bit(x)
        col = 0 if (colour[0] & x0) | (colour[1] & x1) else 1
        hb[col, k] += 1
        edges += k * col
        cost = max(k - 1, 0)
        ha[col, cost] += 1
        hc[cost + k] += 1
    ub = 0
    room = 2 * edges
    for cost in range(len(hc)):
        take = min(hc[cost], room // cost) if cost else hc[0]
        ub += take
        room -= take * cost
        if take < hc[cost]:
            break
    ub = min(ub, most)
    while ub > 0:
        n1, n2 = (ub + 1) // 2, ub // 2  # p_1's colour, the other
        nw, nk = (n1, n2) if first == 0 else (n2, n1)
        if (
            _least(ha[0], nw) + _least(hb[1], nk) <= edges
            and _least(ha[1], nk) + _least(hb[0], nw) <= edges
        ):
            break
        ub -= 1
    return ub


@njit(cache=True, inline="always")
def _bound(
    nb: Words, colour: Words, valid: Words, delta: Ints, l0: np.uint64,
    l1: np.uint64, dd: int, v: int, b0: np.uint64, b1: np.uint64, best: int,
    flags: int, hc: Ints, ha: Ints, hb: Ints,
) -> int:  # fmt: skip
    """An upper bound on the cells of a searched snake through c_0 .. c_dd
    (head v, blocked cells b); it may stop early once it is at most ``best``."""
    v0, v1 = _bit(v)
    here = dd + 1 if (l0 & v0) | (l1 & v1) else 0  # the snake may end at v
    f0, f1 = ~b0, ~b1
    s0, s1 = nb[v, 0] & f0, nb[v, 1] & f1
    if s0 == 0 and s1 == 0:
        return here
    g0, g1 = f0 & ~nb[v, 0], f1 & ~nb[v, 1]
    r0, r1 = _fill(nb, s0, s1, g0, g1)
    if ((s0 | r0) & l0) == 0 and ((s1 | r1) & l1) == 0:
        return here
    if flags & PEEL:
        q0, q1, k0, k1 = _peel(nb, s0, s1, r0, r1, l0, l1, valid, delta)
        if q0 != s0 or q1 != s1 or k0 != r0 or k1 != r1:
            s0, s1 = q0, q1
            if s0 == 0 and s1 == 0:
                return here
            r0, r1 = _fill(nb, s0, s1, k0, k1)
            if ((s0 | r0) & l0) == 0 and ((s1 | r1) & l1) == 0:
                return here
    if (colour[0] & v0) | (colour[1] & v1):  # p_1 is not of ``colour``
        o0, o1, fc = ~colour[0], ~colour[1], 1
    else:
        o0, o1, fc = colour[0], colour[1], 0
    n1 = 1 + _pop(r0 & o0, r1 & o1)
    n2 = _pop(r0, r1) + 1 - n1
    most = min(2 * n1, 2 * n2 + 1)
    if dd + 1 + most <= best or not flags & DISCHARGE:
        return dd + 1 + most
    rest = _discharge(
        nb, s0 | r0, s1 | r1, nb[v, 0], nb[v, 1], colour, valid, delta, fc, most,
        hc, ha, hb,
    )  # fmt: skip
    return max(dd + 1 + rest, here)


# ------------------------------------------------------------------ kernel


@njit(cache=True)
def _kernel(
    nb: Words, colour: Words, valid: Words, delta: Ints, lm: Words, st: Ints,
    path: Ints, cand: Words, blk: Words, bestpath: Ints, out: Ints, budget: int,
) -> int:  # fmt: skip
    """Run the search from its saved state for up to ``budget`` nodes.

    ``st``: depth, base depth, nodes, best, emit, stop depth, rows out, bound
    flags, best length found (cells). ``lm``: L_t. With emit = 0 it raises
    ``best`` and keeps the snake in ``bestpath``; with emit = 1 ``best`` stays,
    and every snake over it is a row of ``out`` (length, 0, cells), and every
    path that reaches the stop depth and passes the bounds is a row (length,
    1, cells). Returns 0 when done, 1 when the budget ran out, 2 when ``out``
    is full (call again to go on).
    """
    depth, base, nodes, best = st[0], st[1], st[2], st[3]
    emit, stop, nout, flags = st[4], st[5], st[6], st[7]
    l0, l1 = lm[0], lm[1]
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
        b0 = blk[depth, 0] | nb[path[depth], 0] | v0
        b1 = blk[depth, 1] | nb[path[depth], 1] | v1
        dd = depth + 1
        path[dd] = v
        if dd + 1 > best and (l0 & v0) | (l1 & v1) and dd != stop:
            if emit:
                out[nout, 0] = dd + 1
                out[nout, 1] = 0
                out[nout, 2 : dd + 3] = path[: dd + 1]
                nout += 1
            else:
                best = st[8] = dd + 1
                bestpath[: dd + 1] = path[: dd + 1]
        if _bound(nb, colour, valid, delta, l0, l1, dd, v, b0, b1, best, flags,
                  hc, ha, hb) <= best:  # fmt: skip
            continue
        if dd == stop:
            out[nout, 0] = dd + 1
            out[nout, 1] = 1
            out[nout, 2 : dd + 3] = path[: dd + 1]
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
    """What one task found: its best snake above the threshold, and its work."""

    best: int  # cells; 0: none above the threshold
    path: list[int]
    threshold: int  # cells
    nodes: int
    seconds: float


class _Search:
    """The kernel's state for one start: a root, or a root and its next cells."""

    def __init__(
        self, geo: Geometry, prefix: list[int], best: int, *, emit: bool = False,
        stop: int = -1, flags: int = PEEL | DISCHARGE, rows: int = 4096,
    ) -> None:  # fmt: skip
        rr, cc = geo.ranks, geo.files
        n = rr * cc
        root = prefix[0]
        assert root == rep(rr, cc, root), "not a root the search starts from"
        self.geo = geo
        self.lm = _words(set(ends(rr, cc, root)))
        self.path = np.zeros(n + 1, np.int64)
        self.cand = np.zeros((n + 1, 2), np.uint64)
        self.blk = np.zeros((n + 1, 2), np.uint64)
        self.bestpath = np.zeros(n + 1, np.int64)
        self.out = np.zeros((rows if emit else 1, n + 3), np.int64)
        self.blk[0] = ~_words(set(range(n))) | _words([root])
        for k in range(1, len(prefix)):  # the kernel's rules, replayed
            self.blk[k] = self.blk[k - 1] | geo.nb[prefix[k - 1]] | _words([prefix[k]])
        depth = len(prefix) - 1
        self.path[: depth + 1] = prefix
        self.cand[depth] = geo.nb[prefix[-1]] & ~self.blk[depth]
        if depth == 0:
            self.cand[0] &= _words(set(first(rr, cc, root)))
        self.st = np.array(
            [depth, depth, 0, best, int(emit), stop, 0, flags, 0], np.int64
        )

    def step(self, budget: int = BUDGET) -> int:
        g = self.geo
        return int(
            _kernel(
                g.nb, g.colour, g.valid, g.delta, self.lm, self.st, self.path,
                self.cand, self.blk, self.bestpath, self.out, budget,
            )
        )  # fmt: skip

    def drain(self) -> list[tuple[int, list[int]]]:
        """Run to the end in emit mode: every row, (kind, cells)."""
        found: list[tuple[int, list[int]]] = []
        while True:
            status = self.step()
            rows = self.out[: self.st[6]]
            found += [
                (int(row[1]), [int(x) for x in row[2 : row[0] + 2]]) for row in rows
            ]
            self.st[6] = 0
            if status == 0:
                return found


def collect_paths(
    ranks: int, files: int, above: int = 0, *, flags: int = PEEL | DISCHARGE
) -> list[list[int]]:
    """Every snake of more than ``above`` cells that the search meets (cell
    indices), its cut-off held at ``above``: for the tests."""
    geo = geometry(ranks, files)
    found: list[list[int]] = []
    for root in roots(ranks, files):
        if above < 1:
            found.append([root])
        found += [
            p for _, p in _Search(geo, [root], above, emit=True, flags=flags).drain()
        ]
    return found


def prefix_bounds(
    geo: Geometry, path: list[int], flags: int = PEEL | DISCHARGE
) -> list[int]:
    """The bound the search computes at c_0 .. c_k for k = 1 .. len(path) - 1
    (the path's first cell must be a root): for the tests."""
    rr, cc = geo.ranks, geo.files
    lm = _words(set(ends(rr, cc, path[0])))
    h = [np.zeros(19, np.int64), *np.zeros((2, 2, 9), np.int64)]
    blk = ~_words(set(range(rr * cc))) | _words([path[0]])
    out = []
    for k in range(1, len(path)):
        blk = blk | geo.nb[path[k - 1]] | _words([path[k]])
        b0, b1 = blk
        out.append(int(_bound(geo.nb, geo.colour, geo.valid, geo.delta, lm[0],
                              lm[1], k, path[k], b0, b1, -1, flags, *h)))  # fmt: skip
    return out


def tasks(geo: Geometry, above: int, split: int) -> list[tuple[bool, list[int]]]:
    """The starts (leaf, cells): each root's paths of ``split`` more cells that
    pass the bounds at ``above`` cells, and the snakes of more than ``above``
    cells that are shorter (leaves: nothing below them is searched)."""
    out: list[tuple[bool, list[int]]] = []
    for root in roots(geo.ranks, geo.files):
        if not split:
            out.append((False, [root]))
            continue
        if above < 1:
            out.append((True, [root]))
        for kind, cells in _Search(geo, [root], above, emit=True, stop=split).drain():
            out.append((kind == 0, cells))
    return out


def run_task(
    geo: Geometry, prefix: list[int], threshold: int, shared: Any = None,
    *, leaf: bool = False, flags: int = PEEL | DISCHARGE,
) -> Outcome:  # fmt: skip
    """Search below one start for the longest snake of more than ``threshold``
    cells (and more than ``shared.value``, read again as the search runs)."""
    began = time.perf_counter()
    if shared is not None:
        threshold = max(threshold, int(shared.value))
    rr, cc = geo.ranks, geo.files
    found, path = 0, []
    if len(prefix) > threshold and prefix[-1] in ends(rr, cc, prefix[0]):
        found, path = len(prefix), list(prefix)  # the start is a snake itself
    if leaf:
        return Outcome(found, path, threshold, 1, time.perf_counter() - began)
    search = _Search(geo, prefix, max(threshold, found), flags=flags)
    while search.step() != 0:
        if shared is not None and int(shared.value) > threshold:
            threshold = int(shared.value)
            search.st[3] = max(int(search.st[3]), threshold)
    if search.st[8]:
        found = int(search.st[8])
        path = [int(x) for x in search.bestpath[:found]]
    if found <= threshold:
        found, path = 0, []  # nothing, or overtaken by a finished task
    seconds = time.perf_counter() - began
    return Outcome(found, path, threshold, int(search.st[2]), seconds)


# ------------------------------------------------------------------ checker


def check_path(ranks: int, files: int, cells: list[Cell]) -> None:
    """Raise ValueError unless ``cells`` ((rank, file) pairs) is a snake of
    the board: at least one cell, all distinct and on it, each a knight's
    move from the next, no other two a move apart."""
    m = len(cells)
    if m < 1:
        raise ValueError("a snake needs a cell")
    for r, c in cells:
        if not (0 <= r < ranks and 0 <= c < files):
            raise ValueError(f"cell ({r}, {c}) is off the board")
    if len(set(cells)) != m:
        raise ValueError("a cell is repeated")

    def move(p: Cell, q: Cell) -> bool:
        return sorted((abs(p[0] - q[0]), abs(p[1] - q[1]))) == [1, 2]

    for i in range(m):
        for j in range(i + 1, m):
            if j == i + 1 and not move(cells[i], cells[j]):
                raise ValueError(f"cells {i} and {j} are not a knight's move apart")
            if j > i + 1 and move(cells[i], cells[j]):
                raise ValueError(f"cells {i} and {j} make a chord")


def _verify(ranks: int, files: int, names: list[str]) -> None:
    cells = [(int(s[1:]) - 1, ord(s[0]) - ord("a")) for s in names]
    check_path(ranks, files, cells)


# --------------------------------------------------------------------- CLI

_GEO: Geometry | None = None
_SHARED: Any = None


def _init(ranks: int, files: int, shared: Any) -> None:
    import signal

    global _SHARED, _GEO
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the pool
    _SHARED = shared
    _GEO = geometry(ranks, files)


def _work(job: tuple[str, list[int], bool, int]) -> tuple[str, Outcome]:
    key, prefix, leaf, above = job
    assert _GEO is not None
    return key, run_task(_GEO, prefix, above, _SHARED, leaf=leaf)


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit code."""
    parser = _Parser(description=__doc__.splitlines()[0])
    parser.add_argument("board", help="RxC: R ranks, C files (R*C <= 128)")
    parser.add_argument("--above", type=int, default=None, help="only > K moves")
    parser.add_argument("--split", type=int, default=0, help="moves fixed per task")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--dir", type=Path, default=None, help="checkpoint folder")
    try:
        args = parser.parse_args(argv)
        ranks, files = parse_board(args.board)
        for bad, why in (
            (args.above is not None and args.above < 0, "--above must be 0 or more"),
            (args.jobs < 1, "--jobs must be 1 or more"),
            (args.split < 0, "--split must be 0 or more"),
            (args.above is not None and args.split > args.above, "--split > --above"),
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
            header = {
                "board": f"{ranks}x{files}", "above": args.above,
                "split": args.split, "canon": VERSION,
            }  # fmt: skip
            done = _open_log(log, header)
    except (ValueError, _BadArgument, OSError) as err:
        print(f"error: {err}".replace("\n", " "), file=sys.stderr)
        return 2
    above = -1 if args.above is None else args.above  # moves
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
    """Run the tasks not in ``done``; KeyboardInterrupt passes through. Above
    is in moves (-1: none); the search counts cells, one more."""
    began = time.perf_counter()
    geo = geometry(ranks, files)
    cells = above + 1
    keyed = {
        " ".join(name(ranks, x) for x in s): (leaf, s)
        for leaf, s in tasks(geo, cells, split)
    }
    done = {k: row for k, row in done.items() if k in keyed}
    stats["tasks"], stats["done"] = len(keyed), len(done)
    for row in done.values():
        if row["best"]:
            _verify(ranks, files, row["path"])
    best = max([cells] + [int(row["best"]) for row in done.values()])
    todo = [(k, s, leaf, cells) for k, (leaf, s) in keyed.items() if k not in done]
    print(f"{ranks}x{files}: {len(keyed)} tasks, {len(done)} done before", flush=True)
    fh = log.open("a") if log is not None else None
    shown = [time.perf_counter()]

    def record(key: str, res: Outcome) -> None:
        row: dict[str, Any] = {"key": key, **asdict(res)}
        row["path"] = [name(ranks, x) for x in res.path]
        row["seconds"] = round(res.seconds, 3)
        if res.best:
            _verify(ranks, files, row["path"])
        done[key] = row
        stats["done"] = len(done)
        if fh is not None:
            _append(fh, row)
        if time.perf_counter() - shown[0] > PROGRESS_SECONDS:
            shown[0] = time.perf_counter()
            top = max(int(r["best"]) for r in done.values())
            print(
                f"{len(done)} of {len(keyed)} tasks, best {top} cells", file=sys.stderr
            )

    ctx = mp.get_context("spawn")
    shared = ctx.Value("q", best)
    try:
        if jobs == 1:
            for key, prefix, leaf, _ in todo:
                res = run_task(geo, prefix, cells, shared, leaf=leaf)
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
    return _report(ranks, files, cells, done, time.perf_counter() - began)


def _report(
    ranks: int, files: int, cells: int, done: dict[str, dict[str, Any]], secs: float
) -> int:
    rows = list(done.values())
    best = max([0] + [int(r["best"]) for r in rows])
    for r in rows:  # every threshold is --above or a snake in the log
        assert int(r["threshold"]) <= max(cells, best), r
    nodes = sum(int(r["nodes"]) for r in rows)
    print(f"nodes {nodes} in all tasks; {secs:.1f} s this run")
    board = f"{ranks}x{files}"
    if best > cells:
        row = next(r for r in rows if int(r["best"]) == best)
        _verify(ranks, files, row["path"])
        print(f"best: {best} cells ({best - 1} moves): " + " ".join(row["path"]))
    else:
        print(f"no snake on {board} has more than {cells - 1} moves")
    top = max(best, cells)
    print(f"{board}: none longer than {top - 1} moves ({top} cells)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
