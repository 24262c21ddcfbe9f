"""The longest-path frontier program compiled with numba (``cpknight[fast]``).

The same program as :mod:`cpknight.longest.frontier_dict`, state for state
(the tests hold them equal), with the states packed in 64-bit words
(:class:`Layout`): the slot codes in 5 bits each, twelve to a word (the ends
placed in the first word's top bits; :data:`OUT_CODE` is 31), the crossing
word in the top bits of the last code word when it fits there, else in a word
of its own. On 8x8 (17 slots, 28 registers) a state is two words, not three.

Each cell runs in rounds. A compiled loop adds the cell to a round of the
states and writes the new states (with their hashes) to a buffer, on
``threads`` threads at once (numba's ``prange``, each its own part of the
round and of the buffer); then one loop adds them, in order, to an
open-addressing hash table (linear probing), asking memory for each one's
index slot :data:`AHEAD` states ahead (``llvm.prefetch``), so that the table's
cache misses overlap. An index entry carries 31 bits of the hash beside the
row's number, so a probe passes other states without reading their rows. The
index is rebuilt twice as large past :data:`LOAD`, the rows grown by half
when full, and the round's states added again (adding a state twice changes
nothing). The table keeps the most moves per state, its parent's index and
the choice (a bit mask of the back slots taken); only the parents and
choices are kept per cell, for the way back (8 bytes a state), on disk past
:data:`SPILL_MB`. The table's rows are sized from the growth of the same cell
of the row before (the growth repeats row by row); rows never touched cost
no memory. The clock and Ctrl-C are heard between rounds (a tenth of a second
or so). The answer does not depend on the threads: the table takes the new
states in the order one thread would make them.

Measured on the 7x7 uncrossed path (8,300,248 live states at the peak, one
process, the same machine), one thread: 35.4 s and 1.64 GB with three words a
state, a table rebuilt from scratch whenever it filled and no prefetching;
17.8 s now (14.8 s on two threads). Of the 2.8 s of its widest cell, making
the states took 2.1 s, adding them 0.7 s (3.3 s before the prefetching).

numba is imported on first use through :func:`cpknight.runtime.optional.require`.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cpknight.frontier.plan import StepCheck
from cpknight.frontier.slots import (
    CODE_BITS,
    CODE_MASK,
    DANGLING,
    ENDS_SHIFT,
    FULL,
    MATE,
    OUT_CODE,
    PER_WORD,
)
from cpknight.longest.frontier_dict import Found
from cpknight.longest.frontier_tables import LongestStep, LongestTables
from cpknight.runtime.optional import numba_threads, require

__all__ = ["OUT_CODE", "compile_loops", "longest_frontier_numba"]

_KERNEL: list[Any] = []

_DE_BRUIJN = 0x022FDD63CC95386D
"""A de Bruijn sequence: ``(bit * it) >> 58`` differs for each of 64 bits."""

_prefetch: Any = None
_step: Any = None
_prange: Any = range


def longest_frontier_numba(
    tables: LongestTables,
    check: StepCheck | None = None,
    tick: Callable[[], None] | None = None,
    threads: int = 1,
) -> Found:
    """Run the program compiled; what :func:`longest_frontier_dict` returns.

    Args:
        tables: the program's steps.
        check: called after every cell with its live states.
        tick: called between rounds of a cell's states (the clock, Ctrl-C).
        threads: the threads that make a round's new states; one thread
            adds them to the table in the order one thread would have made
            them, so the answer does not depend on it.

    Raises:
        MissingDependencyError: numba is not installed.
    """
    _kernel()
    if threads <= 1:
        return _run(tables, check, tick, 1)
    with numba_threads(threads) as threads:
        return _run(tables, check, tick, threads)


def compile_loops(tables: LongestTables) -> None:
    """Compile every loop ahead, on a small program (``cpknight warm``).

    The program on one thread and on two (the loop that spreads a round on
    threads: numba compiles it for a run on two or more), and the index
    rebuild, which a run compiles only when a table outgrew its guess. Each
    is cached (numba's ``cache=True``): a later process loads them.

    Raises:
        MissingDependencyError: numba is not installed.
    """
    _kernel()
    _run(tables, None, None, 1)
    _run(tables, None, None, 2)
    words = Layout.of(tables).words
    index = np.full(1024, -1, dtype=np.int64)
    _rehash()(index, np.zeros((1, words), dtype=np.uint64), 0)


def _run(
    tables: LongestTables,
    check: StepCheck | None,
    tick: Callable[[], None] | None,
    threads: int,
) -> Found:
    step_loop, insert, spread = _kernel()
    layout = Layout.of(tables)
    keys = np.zeros((1, layout.words), dtype=np.uint64)
    values = np.zeros(1, dtype=np.int32)
    induced = tables.kind == "induced"
    free_ends = 0 if tables.closed else 2
    live: list[int] = []
    best = -1
    best_at: tuple[int, int, int] | None = None
    ends = np.zeros(threads, dtype=np.int64)
    found = np.zeros((threads, 4), dtype=np.int64)
    with _WayBack() as parents:
        for i, step in enumerate(tables.steps):
            args = _step_arrays(step)
            most = most_choices(step)
            per = max(64, CANDIDATES // most)
            made = _New(threads * per * most, layout.words)
            table = _Table(layout.words, _guess(live, tables.period))
            done = (-1, -1, 0)
            tried = 0
            for lo in range(0, len(values), threads * per):
                hi = min(lo + threads * per, len(values))
                rest = (keys, values, layout.bits_word, layout.bits_shift,
                        step.width - 1, induced, tables.closed, free_ends,
                        *made.arrays(), *args)  # fmt: skip
                if threads == 1:
                    out = step_loop(lo, hi, 0, *rest)
                    ends[0] = out[0]
                    found[0] = out[1:]
                else:
                    spread(threads, per, most, ends, found, lo, hi, *rest)
                for t in range(threads):
                    table.add(insert, made, t * per * most, int(ends[t]))
                    tried += int(found[t, 0])
                    if found[t, 1] > done[0]:
                        done = (int(found[t, 1]), int(found[t, 2]), int(found[t, 3]))
                if tick is not None:
                    tick()
            del keys, values, made  # the states read: freed before the copy
            keys, values, parent, choice = table.rows()  # noqa: RUF059 (read next cell)
            del table
            if done[0] > best:
                best, best_at = done[0], (i, done[1], done[2])
            parents.add(parent, choice)
            del parent, choice
            live.append(len(values))
            if check is not None:
                check(i, len(values), tried)
        edges: list[tuple[int, int]] = []
        if best_at is not None:
            at, index, mask = best_at
            while True:
                s = tables.steps[at]
                edges.extend(
                    (s.frontier[s.back[k]], s.node)
                    for k in range(len(s.back))
                    if mask >> k & 1
                )
                if at == 0:
                    break
                at -= 1
                index, mask = parents.get(at, index)
    return best, edges, live


CANDIDATES = 1 << 20
"""A round of a cell makes up to this many new states a thread (about 40 MB):
a thread takes this many over :func:`most_choices` states; between rounds
the table takes them and the clock and Ctrl-C are heard (a round takes about
a tenth of a second)."""

AHEAD = 16
"""The table asks memory for a new state's index slot this many states
before it adds it."""


def most_choices(step: LongestStep) -> int:
    """The most new states one state can make at ``step``: bounds the room."""
    nb = len(step.back)
    return 2 + nb * nb


class _New:
    """The new states of a round, before the table takes them."""

    def __init__(self, rows: int, words: int) -> None:
        self.keys = np.zeros((rows, words), dtype=np.uint64)
        self.hash = np.zeros(rows, dtype=np.uint64)
        self.values = np.zeros(rows, dtype=np.int32)
        self.parent = np.zeros(rows, dtype=np.int32)
        self.choice = np.zeros(rows, dtype=np.int64)

    def arrays(self) -> tuple[Any, ...]:
        return (self.keys, self.hash, self.values, self.parent, self.choice)


LOAD = 0.7
"""The hash index is grown (doubled, rebuilt) past this load."""


@dataclass(frozen=True)
class Layout:
    """Where a state's fields sit in its 64-bit words.

    The slot codes take 5 bits each, twelve to a word, the ends placed bits 60
    and 61 of the first word. The crossing word (uncrossed) rides in the top
    bits of the last code word when it fits there (8x8: 5 codes and 28
    registers), else it takes a word of its own.

    Attributes:
        code_words: the words holding slot codes.
        words: all the words of a state.
        bits_word: the word holding the crossing bits (-1: none).
        bits_shift: their lowest bit.
    """

    code_words: int
    words: int
    bits_word: int
    bits_shift: int

    @classmethod
    def of(cls, tables: LongestTables) -> Layout:
        code_words = max(1, math.ceil(tables.width / PER_WORD))
        if tables.kind != "uncrossed":
            return cls(code_words, code_words, -1, 0)
        last = tables.width - PER_WORD * (code_words - 1)
        shift = 64 - tables.registers
        if code_words > 1 and CODE_BITS * last <= shift:
            return cls(code_words, code_words, code_words - 1, shift)
        return cls(code_words, code_words + 1, code_words, 0)


def _guess(live: list[int], period: int) -> int:
    """Room for the next cell's states.

    The last count grown as the same cell of the row before grew it (the
    growth repeats row by row).
    """
    if not live:
        return 1024
    last = live[-1]
    growth = live[-period] / max(live[-period - 1], 1) if len(live) > period else 4.0
    return int(last * min(max(growth, 0.5), 8.0) * 1.15) + 1024


class _Table:
    """A cell's new states: an open-addressing index into rows."""

    def __init__(self, words: int, rows: int) -> None:
        self.count = 0
        size = 1 << max(10, math.ceil(math.log2(rows / LOAD)))
        self.index = np.full(size, -1, dtype=np.int64)
        self.keys = np.zeros((rows, words), dtype=np.uint64)
        self.values = np.zeros(rows, dtype=np.int32)
        self.parent = np.zeros(rows, dtype=np.int32)
        self.choice = np.zeros(rows, dtype=np.uint32)

    def arrays(self) -> tuple[Any, ...]:
        limit = min(len(self.values), int(LOAD * len(self.index)))
        return (
            self.index,
            self.keys,
            self.values,
            self.parent,
            self.choice,
            self.count,
            limit,
        )

    def add(self, insert: Any, made: _New, lo: int, hi: int) -> None:
        """Take the new states ``lo..hi`` (growing as often as needed)."""
        while True:
            taken = int(insert(*self.arrays(), *made.arrays(), lo, hi))
            if taken >= 0:
                self.count = taken
                return
            self.count = -1 - taken
            self.grow()

    def grow(self) -> None:
        """More room: rows half as many again, the index doubled if loaded."""
        if self.count >= int(LOAD * len(self.index)):
            self.index = np.full(2 * len(self.index), -1, dtype=np.int64)
            _rehash()(self.index, self.keys, self.count)
        if self.count >= len(self.values):
            rows = int(len(self.values) * 1.5) + 1024
            self.keys = _grown(self.keys, rows)
            self.values = _grown(self.values, rows)
            self.parent = _grown(self.parent, rows)
            self.choice = _grown(self.choice, rows)

    def rows(self) -> tuple[Any, Any, Any, Any]:
        """The states: keys, values, parents, choices; the index freed.

        Views of the rows, not copies: the rows past them were never written,
        so they hold no memory, and a copy at the peak (5.8 GB on 8x8) would
        be seconds the clock cannot interrupt.
        """
        n = self.count
        self.index = np.zeros(0, dtype=np.int64)
        return self.keys[:n], self.values[:n], self.parent[:n], self.choice[:n]


def _grown(array: Any, rows: int) -> Any:
    out = np.zeros((rows, *array.shape[1:]), dtype=array.dtype)
    out[: len(array)] = array
    return out


SPILL_MB = 256.0
"""Past this much (MB) the parents of the finished steps go to files on disk
(a temporary directory, removed at the end), read back by memory map for the
way back: memory then holds about one step's states at a time."""


class _WayBack:
    """Each step's parent indices and choices, in memory, then on disk."""

    def __init__(self) -> None:
        self.steps: list[tuple[Any, Any]] = []
        self.held = 0.0
        self.folder: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> _WayBack:
        return self

    def __exit__(self, *exc: object) -> None:
        self.steps.clear()
        if self.folder is not None:
            self.folder.cleanup()

    def add(self, parent: Any, choice: Any) -> None:
        self.held += (parent.nbytes + choice.nbytes) / 2**20
        if self.held > SPILL_MB:
            if self.folder is None:
                self.folder = tempfile.TemporaryDirectory(prefix="cpknight-longest-")
            base = Path(self.folder.name) / str(len(self.steps))
            np.save(f"{base}-p.npy", parent)
            np.save(f"{base}-c.npy", choice)
            parent = np.load(f"{base}-p.npy", mmap_mode="r")
            choice = np.load(f"{base}-c.npy", mmap_mode="r")
        self.steps.append((parent, choice))

    def get(self, step: int, index: int) -> tuple[int, int]:
        parent, choice = self.steps[step]
        return int(parent[index]), int(choice[index])


def _step_arrays(step: LongestStep) -> tuple[Any, ...]:
    """The step's tables as the arrays the compiled loop reads."""
    nb = len(step.back)
    back = np.array(step.back, dtype=np.int64)
    cross = np.array(step.cross, dtype=np.uint64).reshape(nb)
    register = np.array(step.register, dtype=np.uint64).reshape(nb)
    clash = np.zeros((max(nb, 1), max(nb, 1)), dtype=np.bool_)
    for a, b in step.clash:
        clash[a, b] = clash[b, a] = True
    leaving = np.zeros(step.width, dtype=np.bool_)
    leaving[list(step.leaving)] = True
    new_pos = np.cumsum(~leaving) - 1
    dead_slot = np.array([k for k, _ in step.dead], dtype=np.int64)
    most = max((len(m) for _, m in step.dead), default=1)
    dead_masks = np.zeros((len(step.dead), most), dtype=np.uint64)
    for j, (_, masks) in enumerate(step.dead):
        dead_masks[j, : len(masks)] = masks
    rel_mask = np.array(
        [sum(1 << k for k in slots) for _, slots in step.relevant], dtype=np.uint64
    )
    # a register's entry found from its bit by a de Bruijn multiplication
    rel_of = np.zeros(64, dtype=np.int64)
    for j, (bit, _) in enumerate(step.relevant):
        rel_of[(bit * _DE_BRUIJN % 2**64) >> 58] = j
    rel_all = np.uint64(sum(bit for bit, _ in step.relevant))
    dead_all = np.uint64(sum(1 << k for k, _ in step.dead))
    dead_of = np.zeros(64, dtype=np.int64)
    for j, (k, _) in enumerate(step.dead):
        dead_of[((1 << k) * _DE_BRUIJN % 2**64) >> 58] = j
    return (
        back,
        cross,
        register,
        clash,
        np.uint64(step.keep),
        leaving,
        new_pos.astype(np.int64),
        dead_slot,
        dead_masks,
        rel_mask,
        rel_of,
        rel_all,
        dead_all,
        dead_of,
    )


def _kernel() -> tuple[Any, Any, Any]:
    """The compiled loops, built on first use.

    Making states, adding them, and making them on threads.
    """
    if not _KERNEL:
        numba = require("numba", "the compiled longest-path frontier kernel", "fast")
        global _prefetch, _step, _prange
        _prefetch = _prefetch_intrinsic()
        _prange = numba.prange
        _step = numba.njit(cache=True)(_step_loop)
        _KERNEL.append(_step)
        _KERNEL.append(numba.njit(cache=True)(_insert_loop))
        _KERNEL.append(numba.njit(cache=True, parallel=True)(_spread_loop))
        _KERNEL.append(numba.njit(cache=True)(_rehash_loop))
    return _KERNEL[0], _KERNEL[1], _KERNEL[2]


def _prefetch_intrinsic() -> Any:
    """A numba intrinsic: ``prefetch(array, i)`` asks the CPU for ``array[i]``.

    LLVM's ``llvm.prefetch``: a read, into every cache level.
    """
    from llvmlite import ir
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    @intrinsic
    def prefetch(typingctx: Any, array: Any, index: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            kind = signature.args[0]
            ary = context.make_array(kind)(context, builder, args[0])
            ptr = cgutils.get_item_pointer(context, builder, kind, ary, [args[1]])
            byte = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32])
            fn = cgutils.get_or_insert_function(
                builder.module, fnty, "llvm.prefetch.p0"
            )
            flags = [ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)]
            builder.call(fn, [builder.bitcast(ptr, byte), *flags])
            return context.get_dummy_value()

        return types.void(array, index), codegen

    return prefetch


def _rehash() -> Any:
    _kernel()
    return _KERNEL[3]


def _step_loop(
    lo: int,
    hi: int,
    start: int,
    keys: Any,
    values: Any,
    bits_word: int,
    bits_shift: int,
    before: int,
    induced: bool,
    closed: bool,
    free_ends: int,
    ckeys: Any,
    chash: Any,
    cvals: Any,
    cpar: Any,
    ccho: Any,
    back: Any,
    cross: Any,
    register: Any,
    clash: Any,
    keep: Any,
    leaving: Any,
    new_pos: Any,
    dead_slot: Any,
    dead_masks: Any,
    rel_mask: Any,
    rel_of: Any,
    rel_all: Any,
    dead_all: Any,
    dead_of: Any,
) -> Any:
    """The cell added to states ``lo..hi`` (numba compiles this).

    Writes the new states (``ckeys``, their hashes, moves, parents and
    choices) from row ``start`` on, room for :func:`most_choices` a state.
    Returns ``(end, tried, done, done_parent, done_choice)``: the row after
    the last written, the choices tried, and the best finished path's moves,
    parent and choice (-1: none).
    """
    full = FULL
    dangling = DANGLING
    mate = MATE
    out_code = OUT_CODE
    width = before + 1
    nb = back.shape[0]
    nw = ckeys.shape[1]
    count = start
    has_bits = bits_word >= 0
    bword = max(bits_word, 0)
    bshift = np.uint64(bits_shift)
    tried = 0
    done_best = -1
    done_parent = -1
    done_choice = 0
    codes0 = np.zeros(width, dtype=np.int64)
    codes = np.zeros(width, dtype=np.int64)
    packed = np.zeros(nw, dtype=np.uint64)
    masks = np.zeros(2 + nb * nb, dtype=np.int64)
    five = np.uint64(CODE_MASK)
    after = width - int(np.sum(leaving))
    for i in range(lo, hi):
        for s in range(before):
            w = keys[i, s // PER_WORD] >> np.uint64(CODE_BITS * (s % PER_WORD))
            codes0[s] = np.int64(w & five)
        ends0 = np.int64((keys[i, 0] >> np.uint64(ENDS_SHIFT)) & np.uint64(3))
        bits0 = (keys[i, bword] >> bshift) if has_bits else np.uint64(0)
        v0 = values[i]
        # the choices: bit masks over the back slots, and on the path or not
        nm = 0
        if induced:
            joined = 0
            cnt = 0
            bad = False
            for k in range(nb):
                c = codes0[back[k]]
                if c != out_code:
                    joined |= 1 << k
                    cnt += 1
                    if c == full:
                        bad = True
            masks[nm] = -1  # off the path
            nm += 1
            if cnt <= 2 and not bad:
                masks[nm] = joined
                nm += 1
        else:
            masks[nm] = 0
            nm += 1
            for a in range(nb):
                if codes0[back[a]] == full or (cross[a] & bits0) != 0:
                    continue
                masks[nm] = 1 << a
                nm += 1
                for b in range(a + 1, nb):
                    if codes0[back[b]] == full or (cross[b] & bits0) != 0:
                        continue
                    if clash[a, b]:
                        continue
                    masks[nm] = (1 << a) | (1 << b)
                    nm += 1
        for j in range(nm):
            tried += 1
            m = masks[j]
            for s in range(before):
                codes[s] = codes0[s]
            if m < 0:
                codes[before] = out_code
                m = 0
            else:
                codes[before] = 0
            ends = ends0
            v = before
            finished = 0
            alive = True
            taken = 0
            moves = 0
            for k in range(nb):
                if not (m >> k) & 1:
                    continue
                moves += 1
                u = back[k]
                cu = codes[u]
                cv = codes[v]
                pu = u if cu == 0 else (-1 if cu == dangling else cu - mate)
                pv = v if cv == 0 else (-1 if cv == dangling else cv - mate)
                if pu == v:
                    if not closed:
                        alive = False
                        break
                    codes[u] = full
                    codes[v] = full
                    finished += 1
                    continue
                if cu != 0:
                    codes[u] = full
                if cv != 0:
                    codes[v] = full
                if pu < 0 and pv < 0:
                    finished += 1
                if pu >= 0:
                    codes[pu] = dangling if pv < 0 else mate + pv
                if pv >= 0:
                    codes[pv] = dangling if pu < 0 else mate + pu
            if not alive:
                continue
            for x in range(width):
                if not leaving[x]:
                    continue
                c = codes[x]
                if c in (full, out_code):
                    continue
                if c == 0:
                    if induced:
                        alive = False
                        break
                    continue
                if ends >= free_ends:
                    alive = False
                    break
                ends += 1
                if c == dangling:
                    finished += 1
                else:
                    codes[c - mate] = dangling
                codes[x] = full
            if not alive:
                continue
            value = v0 + moves
            if finished:
                if finished > 1:
                    continue
                ok = True
                for s in range(width):
                    if leaving[s]:
                        continue
                    c = codes[s]
                    if (c >= dangling and c != out_code) or (induced and c == 0):
                        ok = False
                        break
                if ok and value > done_best:
                    done_best = value
                    done_parent = i
                    done_choice = m
                continue
            for k in range(nb):
                if (m >> k) & 1:
                    taken |= int(register[k])
            bits = (bits0 & keep) | np.uint64(taken)
            # pack, renumbered, canonical
            for w in range(nw):
                packed[w] = np.uint64(0)
            zeros = np.uint64(0)
            for s in range(width):
                if leaving[s]:
                    continue
                c = codes[s]
                if c >= mate and c != out_code:
                    c = mate + new_pos[c - mate]
                codes[new_pos[s]] = c
                if c == 0:
                    zeros |= np.uint64(1) << np.uint64(new_pos[s])
            # each cell with no move yet whose every move still to come
            # crosses a used move: made full
            blank = zeros & dead_all if bits != 0 else np.uint64(0)
            while blank != 0:
                low = blank & (~blank + np.uint64(1))
                d = dead_of[(low * np.uint64(_DE_BRUIJN)) >> np.uint64(58)]
                blank ^= low
                dead = True
                for q in range(dead_masks.shape[1]):
                    mk = dead_masks[d, q]
                    if mk == 0:
                        break
                    if (mk & bits) == 0:
                        dead = False
                        break
                if dead:
                    codes[dead_slot[d]] = full
            held = bits & rel_all
            if held != 0:
                fullmask = np.uint64(0)
                for s in range(after):
                    if codes[s] == full:
                        fullmask |= np.uint64(1) << np.uint64(s)
                # each used bit a later move could cross: cleared when every
                # cell that move could come from is full
                while held != 0:
                    low = held & (~held + np.uint64(1))
                    r = rel_of[(low * np.uint64(_DE_BRUIJN)) >> np.uint64(58)]
                    if (rel_mask[r] & ~fullmask) == 0:
                        bits &= ~low
                    held ^= low
            for s in range(after):
                packed[s // PER_WORD] |= np.uint64(codes[s]) << np.uint64(
                    CODE_BITS * (s % PER_WORD)
                )
            packed[0] |= np.uint64(ends) << np.uint64(ENDS_SHIFT)
            if has_bits:
                packed[bword] |= bits << bshift
            h = np.uint64(0x9E3779B97F4A7C15)
            for w in range(nw):
                h ^= packed[w]
                h *= np.uint64(0xBF58476D1CE4E5B9)
                h ^= h >> np.uint64(31)
            for w in range(nw):
                ckeys[count, w] = packed[w]
            chash[count] = h
            cvals[count] = value
            cpar[count] = i
            ccho[count] = m
            count += 1
    return (count, tried, done_best, done_parent, done_choice)


def _insert_loop(
    table: Any,
    tkeys: Any,
    tvals: Any,
    tpar: Any,
    tcho: Any,
    count: int,
    limit: int,
    ckeys: Any,
    chash: Any,
    cvals: Any,
    cpar: Any,
    ccho: Any,
    lo: int,
    hi: int,
) -> int:
    """Add new states ``lo..hi`` to the table (numba compiles this).

    Keeps the most moves per state (the first parent of a tie). Each state's
    index slot is asked of memory :data:`AHEAD` states before it is needed,
    so that the table's cache misses overlap. Returns the rows taken, or
    ``-1 - rows`` when the table reached ``limit`` (grow it and add the
    states again: adding one twice changes nothing).
    """
    cap = table.shape[0]
    nw = tkeys.shape[1]
    for b in range(lo, hi):
        if b + AHEAD < hi:
            _prefetch(table, np.int64(chash[b + AHEAD] & np.uint64(cap - 1)))
        h = chash[b]
        slot = np.int64(h & np.uint64(cap - 1))
        # an index entry: the hash's top 31 bits over the row's number, so
        # that a probe passes other states without reading their rows
        tag = np.int64(h >> np.uint64(33)) << 32
        while True:
            entry = table[slot]
            if entry < 0:
                if count >= limit:
                    return -1 - count
                table[slot] = tag | count
                for w in range(nw):
                    tkeys[count, w] = ckeys[b, w]
                tvals[count] = cvals[b]
                tpar[count] = cpar[b]
                tcho[count] = ccho[b]
                count += 1
                break
            if (entry >> 32) << 32 == tag:
                at = entry & 0xFFFFFFFF
                same = True
                for w in range(nw):
                    if tkeys[at, w] != ckeys[b, w]:
                        same = False
                        break
                if same:
                    if cvals[b] > tvals[at]:
                        tvals[at] = cvals[b]
                        tpar[at] = cpar[b]
                        tcho[at] = ccho[b]
                    break
            slot = (slot + 1) & (cap - 1)
    return count


def _spread_loop(
    threads: int,
    per: int,
    most: int,
    ends: Any,
    found: Any,
    lo: int,
    hi: int,
    *rest: Any,
) -> None:
    """States ``lo..hi`` in ``threads`` runs of ``per`` at once (numba's prange).

    Thread ``t`` writes from row ``t * per * most``: its end in ``ends[t]``,
    its tried and best finished path in ``found[t]``.
    """
    for t in _prange(threads):
        a = min(lo + t * per, hi)
        b = min(a + per, hi)
        out = _step(a, b, t * per * most, *rest)
        ends[t] = out[0]
        found[t, 0] = out[1]
        found[t, 1] = out[2]
        found[t, 2] = out[3]
        found[t, 3] = out[4]


def _rehash_loop(index: Any, keys: Any, count: int) -> None:
    """Rebuild the index of the first ``count`` rows (numba compiles this)."""
    cap = index.shape[0]
    nw = keys.shape[1]
    for r in range(count):
        h = np.uint64(0x9E3779B97F4A7C15)
        for w in range(nw):
            h ^= keys[r, w]
            h *= np.uint64(0xBF58476D1CE4E5B9)
            h ^= h >> np.uint64(31)
        slot = np.int64(h & np.uint64(cap - 1))
        while index[slot] >= 0:
            slot = (slot + 1) & (cap - 1)
        index[slot] = (np.int64(h >> np.uint64(33)) << 32) | r
