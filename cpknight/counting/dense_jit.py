"""The compiled loops of the dense frontier kernel (numba, ``cpknight[fast]``).

Imported only by :mod:`cpknight.counting.dense_kernel`, and only when numba is
installed. One state is two ``uint64`` words (the codes of the frontier cells,
5 bits each, 12 to a word, a path end naming the slot of its other end; the
free ends used in bits 60-61 of the high word), its count a row of residues
modulo the primes of :mod:`cpknight.counting.residues`. A step makes the
states of a chunk in parallel blocks (:func:`emit`), groups them by region
(:func:`group`) and sums equal states region by region in an open-addressing
table (:func:`insert_regions`: linear probing, the high word's top bit
marking a used row): no sort.

The functions take and return plain arrays, so that a table can be kept across
the chunks of a step (the driver checks the clock between chunks).
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

_OCC = np.uint64(1) << np.uint64(63)
_USED_SHIFT = np.uint64(ENDS_SHIFT)
_FIVE = np.uint64(CODE_BITS)
_CODE = np.uint64(CODE_MASK)
_THREE = np.uint64(3)


@njit(cache=True, inline="always")
def _mix(lo: Any, hi: Any) -> Any:
    """A 64-bit hash of a state (splitmix64's finaliser over both words)."""
    h = lo ^ (hi * np.uint64(0x9E3779B97F4A7C15))
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(31)
    return h


@njit(cache=True, inline="always")
def _home(h: Any, rows: int) -> Any:
    """The row a hash starts probing at in a region of ``rows`` rows.

    Any number of rows below ``2**32``: the low 32 bits scaled, not masked.
    """
    return ((h & np.uint64(0xFFFFFFFF)) * np.uint64(rows)) >> np.uint64(32)


@njit(cache=True)
def compact(table: Any, size: int) -> Any:
    """The used rows of a table as arrays (lo, hi, counts), in table order."""
    k = table.shape[1] - 2
    lo = np.empty(size, dtype=np.uint64)
    hi = np.empty(size, dtype=np.uint64)
    cnt = np.empty((size, k), dtype=np.uint64)
    at = 0
    for j in range(table.shape[0]):
        th = table[j, 1]
        if th == 0:
            continue
        lo[at] = table[j, 0]
        hi[at] = th ^ _OCC
        for r in range(k):
            cnt[at, r] = table[j, 2 + r]
        at += 1
    return lo, hi, cnt


@njit(cache=True)
def buckets_of(lo: Any, hi: Any, bits: int) -> Any:
    """The bucket of every state: the top ``bits`` bits of another hash."""
    out = np.empty(lo.shape[0], dtype=np.int64)
    if bits == 0:
        out[:] = 0
        return out
    shift = np.uint64(64 - bits)
    for i in range(lo.shape[0]):
        out[i] = np.int64(_mix(hi[i], lo[i] ^ np.uint64(0x632BE59BD9B4E019)) >> shift)
    return out


@njit(cache=True, inline="always")
def _partner(code: Any, x: int) -> Any:
    """The other end of the path ending at slot ``x`` (-1: it dangles)."""
    c = code[x]
    if c == DEG0:
        return x
    if c == DANGLING:
        return -1
    return c - MATE


@njit(cache=True, inline="always")
def _finalise(code: Any, x: int) -> bool:
    """Make slot ``x`` (a path end) a tour end; True if that finishes the path."""
    c = code[x]
    code[x] = FULL
    if c == DANGLING:
        return True
    code[c - MATE] = DANGLING
    return False


@njit(cache=True, inline="always")
def _decode(wlo: Any, whi: Any, width: int, code: Any) -> Any:
    """A state's slots into ``code``, the new cell last: the free ends used."""
    for s in range(width - 1):
        if s < PER_WORD:
            code[s] = np.int64((wlo >> (_FIVE * np.uint64(s))) & _CODE)
        else:
            code[s] = np.int64((whi >> (_FIVE * np.uint64(s - PER_WORD))) & _CODE)
    code[width - 1] = DEG0
    return np.int64((whi >> _USED_SHIFT) & _THREE)


@njit(cache=True, inline="always")
def _join(code: Any, a: int, b: int, closing: bool) -> Any:
    """Join the new cell (the last slot) to slots ``a`` and ``b`` (-1: none).

    Returns (alive, done): a cycle closed where none may close kills the
    state; ``done`` when a cycle closed (``closing``: the last cell of a
    closed tour) or two dangling ends met.
    """
    v = code.shape[0] - 1
    done = False
    for m in range(2):
        u = a if m == 0 else b
        if u < 0:
            continue
        pu = _partner(code, u)
        pv = _partner(code, v)
        if pu == v:  # the move closes a cycle
            if not closing:
                return False, done
            done = True
            code[u] = FULL
            code[v] = FULL
            continue
        if code[u] != DEG0:
            code[u] = FULL
        if code[v] != DEG0:
            code[v] = FULL
        if pu < 0 and pv < 0:
            done = True
        if pu >= 0:
            code[pu] = DANGLING if pv < 0 else MATE + pv
        if pv >= 0:
            code[pv] = DANGLING if pu < 0 else MATE + pu
    return True, done


@njit(cache=True, inline="always")
def _settle(
    code: Any,
    end_slots: Any,
    leave_slots: Any,
    closed: bool,
    free_ends: int,
    used: Any,
) -> Any:
    """Finalise the fixed ends and the leavers: (alive, done, free ends used)."""
    done = False
    for x in end_slots:
        if code[x] >= DANGLING and _finalise(code, x):
            done = True
    for x in leave_slots:
        c = code[x]
        if c == DEG0 or (c >= DANGLING and closed):
            return False, done, used
        if c >= DANGLING:
            used += 1
            if used > free_ends:
                return False, done, used
            if _finalise(code, x):
                done = True
    return True, done, used


@njit(cache=True)
def finish(
    lo: Any,
    hi: Any,
    cnt: Any,
    width: int,
    choices: Any,
    end_slots: Any,
    leave_slots: Any,
    closed: bool,
    free_ends: int,
    primes: Any,
    total: Any,
) -> Any:
    """The tours finished at a step where every frontier cell leaves.

    Each state (``width - 1`` slots) gets the new cell (slot ``width - 1``),
    joined to each choice of earlier slots (``choices``: rows of two slots,
    -1 for none); the moves are applied, the fixed ends and every slot
    (``leave_slots``) finalised, and the counts of the finished tours are
    added to ``total`` (residues). Returns the pairs tried.
    """
    k = primes.shape[0]
    base = np.empty(width, dtype=np.int64)
    code = np.empty(width, dtype=np.int64)
    tried = 0
    for i in range(lo.shape[0]):
        used0 = _decode(lo[i], hi[i], width, base)
        for ch in range(choices.shape[0]):
            a = choices[ch, 0]
            b = choices[ch, 1]
            if (a >= 0 and base[a] == FULL) or (b >= 0 and base[b] == FULL):
                continue
            tried += 1
            for s in range(width):
                code[s] = base[s]
            alive, done = _join(code, a, b, closed)
            if not alive:
                continue
            alive, ended, _ = _settle(
                code, end_slots, leave_slots, closed, free_ends, used0
            )
            if alive and (done or ended):
                for r in range(k):
                    s2 = total[r] + cnt[i, r]
                    if s2 >= primes[r]:
                        s2 -= primes[r]
                    total[r] = s2
    return tried


@njit(cache=True)
def _emit_block(
    out_lo: Any,
    out_hi: Any,
    out_src: Any,
    at: int,
    i0: int,
    i1: int,
    lo: Any,
    hi: Any,
    width: int,
    choices: Any,
    end_slots: Any,
    leave_slots: Any,
    keep_slots: Any,
    lut: Any,
    short: Any,
    closed: bool,
    free_ends: int,
) -> Any:
    """States ``i0..i1`` stepped, the states made written from ``at`` on.

    The moves of :func:`finish` (its helpers :func:`_join` and
    :func:`_settle`, written out here: called, they cost this loop a fifth
    of its speed), at a step that is not the last: each state that lives on
    is written (its two words and the row it came from) rather than added
    into a table. Returns the end of what was written and the pairs tried.
    """
    base = np.empty(width, dtype=np.int64)
    code = np.empty(width, dtype=np.int64)
    tried = 0
    v = width - 1
    for i in range(i0, i1):
        wlo = lo[i]
        whi = hi[i]
        used0 = np.int64((whi >> _USED_SHIFT) & _THREE)
        for s in range(width - 1):
            if s < PER_WORD:
                base[s] = np.int64((wlo >> (_FIVE * np.uint64(s))) & _CODE)
            else:
                base[s] = np.int64((whi >> (_FIVE * np.uint64(s - PER_WORD))) & _CODE)
        base[v] = DEG0
        for ch in range(choices.shape[0]):
            a = choices[ch, 0]
            b = choices[ch, 1]
            if (a >= 0 and base[a] == FULL) or (b >= 0 and base[b] == FULL):
                continue
            tried += 1
            for s in range(width):
                code[s] = base[s]
            used = used0
            alive = True
            done = False
            for m in range(2):
                u = a if m == 0 else b
                if u < 0:
                    continue
                pu = _partner(code, u)
                pv = _partner(code, v)
                if pu == v:  # a cycle closes before the last cell
                    alive = False
                    break
                if code[u] != DEG0:
                    code[u] = FULL
                if code[v] != DEG0:
                    code[v] = FULL
                if pu < 0 and pv < 0:
                    done = True
                if pu >= 0:
                    code[pu] = DANGLING if pv < 0 else MATE + pv
                if pv >= 0:
                    code[pv] = DANGLING if pu < 0 else MATE + pu
            if not alive:
                continue
            for x in end_slots:
                if code[x] >= DANGLING and _finalise(code, x):
                    done = True
            for x in leave_slots:
                c = code[x]
                if c == DEG0:
                    alive = False
                    break
                if c >= DANGLING:
                    if closed:
                        alive = False
                        break
                    used += 1
                    if used > free_ends:
                        alive = False
                        break
                    if _finalise(code, x):
                        done = True
            if not alive or done:
                continue
            klo = np.uint64(0)
            khi = np.uint64(0)
            need = used
            for k in range(keep_slots.shape[0]):
                c = code[keep_slots[k]]
                if c == DEG0 and short[k]:
                    need += 1
                e = np.uint64(lut[c])
                if k < PER_WORD:
                    klo |= e << (_FIVE * np.uint64(k))
                else:
                    khi |= e << (_FIVE * np.uint64(k - PER_WORD))
            if need > free_ends:
                continue
            out_lo[at] = klo
            out_hi[at] = khi | (np.uint64(used) << _USED_SHIFT)
            out_src[at] = i
            at += 1
    return at, tried


@njit(cache=True, parallel=True)
def emit(
    lo: Any,
    hi: Any,
    width: int,
    choices: Any,
    end_slots: Any,
    leave_slots: Any,
    keep_slots: Any,
    lut: Any,
    short: Any,
    closed: bool,
    free_ends: int,
    blocks: int,
) -> Any:
    """A chunk of states stepped in ``blocks`` parallel blocks.

    The states made are written block after block.

    Returns the words and source rows made (block ``b``'s from
    ``starts[b]``, ``ends_[b]`` of them in all), the per-block ends, and the
    pairs tried.
    """
    n = lo.shape[0]
    nc = choices.shape[0]
    out_lo = np.empty(n * nc, dtype=np.uint64)
    out_hi = np.empty(n * nc, dtype=np.uint64)
    out_src = np.empty(n * nc, dtype=np.int64)
    step = (n + blocks - 1) // blocks
    stops = np.zeros(blocks, dtype=np.int64)
    tries = np.zeros(blocks, dtype=np.int64)
    for b in prange(blocks):
        i0 = min(n, b * step)
        i1 = min(n, i0 + step)
        stop, tried = _emit_block(
            out_lo, out_hi, out_src, i0 * nc, i0, i1, lo, hi,
            width, choices, end_slots, leave_slots, keep_slots, lut, short,
            closed, free_ends,
        )  # fmt: skip
        stops[b] = stop
        tries[b] = tried
    return out_lo, out_hi, out_src, stops, step * nc, tries.sum()


@njit(cache=True, parallel=True)
def group(
    pbits: int,
    out_lo: Any,
    out_hi: Any,
    out_src: Any,
    stops: Any,
    stride: int,
) -> Any:
    """The states made (:func:`emit`) grouped by region (a counting sort).

    A partitioned table is ``2**pbits`` regions of equal size, a state's
    region the top bits of its hash, its row within the region the low bits:
    grouped, the states of a region go in together (:func:`insert_regions`),
    the regions in parallel, each small enough to stay in cache.

    Returns the grouped words and source rows, and where each region starts.
    """
    regions = 1 << pbits
    blocks = stops.shape[0]
    shift = np.uint64(64 - pbits)
    n = out_lo.shape[0]
    region = np.zeros(n, dtype=np.uint16)
    counts = np.zeros((blocks, regions), dtype=np.int64)
    for b in prange(blocks):
        for j in range(b * stride, stops[b]):
            r = 0 if pbits == 0 else np.int64(_mix(out_lo[j], out_hi[j]) >> shift)
            region[j] = r
            counts[b, r] += 1
    # region r's states: block 0's, then block 1's, ...
    offsets = np.zeros((blocks, regions), dtype=np.int64)
    starts = np.zeros(regions + 1, dtype=np.int64)
    total = 0
    for r in range(regions):
        starts[r] = total
        for b in range(blocks):
            offsets[b, r] = total
            total += counts[b, r]
    starts[regions] = total
    g_lo = np.empty(total, dtype=np.uint64)
    g_hi = np.empty(total, dtype=np.uint64)
    g_src = np.empty(total, dtype=np.int64)
    for b in prange(blocks):
        pos = offsets[b].copy()
        for j in range(b * stride, stops[b]):
            r = region[j]
            at = pos[r]
            g_lo[at] = out_lo[j]
            g_hi[at] = out_hi[j]
            g_src[at] = out_src[j]
            pos[r] = at + 1
    return g_lo, g_hi, g_src, starts


@njit(cache=True, parallel=True)
def insert_regions(
    table: Any,
    sizes: Any,
    pbits: int,
    g_lo: Any,
    g_hi: Any,
    g_src: Any,
    starts: Any,
    done: Any,
    cnt: Any,
    primes: Any,
) -> bool:
    """Insert the grouped states (:func:`absorb`) region by region, in parallel.

    ``done[r]``: how many of region ``r``'s states are in already (updated).
    A region stops at 80% full. Returns whether every state went in.
    """
    regions = 1 << pbits
    rows = table.shape[0] >> pbits
    last = np.uint64(rows - 1)
    k = primes.shape[0]
    for r in prange(regions):
        base = r * rows
        size = sizes[r]
        j0 = starts[r] + done[r]
        j1 = starts[r + 1]
        j = j0
        while j < j1:
            if (size + 1) * 10 > rows * 8:
                break
            lo = g_lo[j]
            hi = g_hi[j]
            tag = hi | _OCC
            src = g_src[j]
            x = _home(_mix(lo, hi), rows)
            while True:
                row = base + np.int64(x)
                th = table[row, 1]
                if th == 0:
                    table[row, 0] = lo
                    table[row, 1] = tag
                    for q in range(k):
                        table[row, 2 + q] = cnt[src, q]
                    size += 1
                    break
                if th == tag and table[row, 0] == lo:
                    for q in range(k):
                        s = table[row, 2 + q] + cnt[src, q]
                        if s >= primes[q]:
                            s -= primes[q]
                        table[row, 2 + q] = s
                    break
                x = np.uint64(0) if x == last else x + np.uint64(1)
            j += 1
        sizes[r] = size
        done[r] = j - starts[r]
    ok = True
    for r in range(regions):
        if starts[r] + done[r] < starts[r + 1]:
            ok = False
    return ok


@njit(cache=True, parallel=True)
def grow_regions(table: Any, pbits: int) -> Any:
    """The partitioned table with every region twice the rows (rehashed)."""
    regions = 1 << pbits
    rows = table.shape[0] >> pbits
    cols = table.shape[1]
    out = np.zeros((table.shape[0] * 2, cols), dtype=np.uint64)
    last = np.uint64(2 * rows - 1)
    for r in prange(regions):
        for i in range(r * rows, (r + 1) * rows):
            hi = table[i, 1]
            if hi == 0:
                continue
            x = _home(_mix(table[i, 0], hi ^ _OCC), 2 * rows)
            while out[2 * r * rows + np.int64(x), 1] != 0:
                x = np.uint64(0) if x == last else x + np.uint64(1)
            row = 2 * r * rows + np.int64(x)
            for c in range(cols):
                out[row, c] = table[i, c]
    return out
