"""The longest-path frontier program compiled with numba (``cpknight[fast]``).

The same program as :mod:`cpknight.longest.frontier_dict`, state for state
(the tests hold them equal), with the states packed in 64-bit words: the slot
codes in 5 bits each, twelve to a word (the ends placed in the first word's
top bits; :data:`OUT` is 31), then the crossing word. Each step is one
compiled loop over the states into an open-addressing hash table (linear
probing; the table doubles and the step reruns when it is half full) keeping
the most moves per state, its parent's index and the choice (a bit mask of the
back slots taken). Only those two small arrays are kept per step, for the way
back (8 bytes a state), on disk past :data:`SPILL_MB`.

numba is imported on first use through :func:`cpknight.optional.require`.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from cpknight.counting.plan import StepCheck
from cpknight.longest.frontier_dict import Found
from cpknight.longest.frontier_tables import LongestStep, LongestTables
from cpknight.optional import require

__all__ = ["OUT_CODE", "longest_frontier_numba"]

OUT_CODE = 31
"""The packed code of a cell off the path (induced)."""

PER_WORD = 12
"""Slot codes per 64-bit word (5 bits each)."""

_KERNEL: list[Any] = []


def longest_frontier_numba(
    tables: LongestTables, check: StepCheck | None = None
) -> Found:
    """Run the program compiled; what :func:`longest_frontier_dict` returns.

    Raises:
        MissingDependencyError: numba is not installed.
    """
    kernel = _kernel()
    words = max(1, math.ceil(tables.width / PER_WORD))
    has_bits = tables.kind == "uncrossed"
    keys = np.zeros((1, words + has_bits), dtype=np.uint64)
    values = np.zeros(1, dtype=np.int32)
    induced = tables.kind == "induced"
    free_ends = 0 if tables.closed else 2
    live: list[int] = []
    best = -1
    best_at: tuple[int, int, int] | None = None
    growth = 4.0
    with _WayBack() as parents:
        for i, step in enumerate(tables.steps):
            args = _step_arrays(step)
            # room for the next step's states at most half full, guessed from
            # the last step's growth (a step that outgrows it reruns, larger)
            guess = len(values) * min(max(growth, 1.0), 8.0) * 1.25 + 1024
            cap = 1 << max(10, int(2 * guess).bit_length())
            while True:
                out = kernel(
                    keys,
                    values,
                    words,
                    has_bits,
                    step.width - 1,
                    induced,
                    tables.closed,
                    free_ends,
                    cap,
                    *args,
                )
                if out[0]:
                    break
                cap *= 2
            before = len(values)
            _, keys, values, parent, choice, tried, done, at, mask, count = out
            # the next step reads the table's rows in place (no copy at the
            # peak); the parents are copied out to their size
            keys, values = keys[:count], values[:count]
            parent, choice = parent[:count].copy(), choice[:count].copy()
            out = ()
            if done > best:
                best, best_at = int(done), (i, int(at), int(mask))
            growth = len(values) / max(before, 1)
            parents.add(parent, choice)
            live.append(len(values))
            if check is not None:
                check(i, len(values), int(tried))
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
    rel_bit = np.array([b for b, _ in step.relevant], dtype=np.uint64)
    most = max((len(s) for _, s in step.relevant), default=1)
    rel_slots = np.full((len(step.relevant), max(most, 1)), -1, dtype=np.int64)
    for j, (_, slots) in enumerate(step.relevant):
        rel_slots[j, : len(slots)] = slots
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
        rel_bit,
        rel_slots,
    )


def _kernel() -> Any:
    """The compiled step, built on first use."""
    if not _KERNEL:
        numba = require("numba", "the compiled longest-path frontier kernel", "fast")
        _KERNEL.append(numba.njit(cache=True)(_step_loop))
    return _KERNEL[0]


def _step_loop(
    keys: Any,
    values: Any,
    words: int,
    has_bits: bool,
    before: int,
    induced: bool,
    closed: bool,
    free_ends: int,
    cap: int,
    back: Any,
    cross: Any,
    register: Any,
    clash: Any,
    keep: Any,
    leaving: Any,
    new_pos: Any,
    dead_slot: Any,
    dead_masks: Any,
    rel_bit: Any,
    rel_slots: Any,
) -> Any:
    """One cell added to every state (numba compiles this).

    Returns ``(ok, keys, values, parent, choice, tried, done, done_parent,
    done_choice, count)``, the arrays with room to spare (the first ``count``
    rows are the states); ``ok`` False when the table filled (rerun larger).
    """
    full = 1
    dangling = 2
    mate = 3
    out_code = 31
    width = before + 1
    nb = back.shape[0]
    table = np.full(cap, -1, dtype=np.int32)
    nw = words + 1 if has_bits else words
    tkeys = np.zeros((cap // 2 + 1, nw), dtype=np.uint64)
    tvals = np.zeros(cap // 2 + 1, dtype=np.int32)
    tpar = np.zeros(cap // 2 + 1, dtype=np.int32)
    tcho = np.zeros(cap // 2 + 1, dtype=np.uint32)
    count = 0
    tried = 0
    done_best = -1
    done_parent = -1
    done_choice = 0
    codes0 = np.zeros(width, dtype=np.int64)
    codes = np.zeros(width, dtype=np.int64)
    packed = np.zeros(nw, dtype=np.uint64)
    masks = np.zeros(2 + nb * nb, dtype=np.int64)
    five = np.uint64(31)
    after = width - int(np.sum(leaving))
    for i in range(keys.shape[0]):
        for s in range(before):
            w = keys[i, s // 12] >> np.uint64(5 * (s % 12))
            codes0[s] = np.int64(w & five)
        ends0 = np.int64((keys[i, 0] >> np.uint64(60)) & np.uint64(3))
        bits0 = keys[i, words] if has_bits else np.uint64(0)
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
            for s in range(width):
                if leaving[s]:
                    continue
                c = codes[s]
                if c >= mate and c != out_code:
                    c = mate + new_pos[c - mate]
                codes[new_pos[s]] = c
            if bits != 0:
                for d in range(dead_slot.shape[0]):
                    k = dead_slot[d]
                    if codes[k] != 0:
                        continue
                    dead = True
                    for q in range(dead_masks.shape[1]):
                        mk = dead_masks[d, q]
                        if mk == 0:
                            break
                        if (mk & bits) == 0:
                            dead = False
                            break
                    if dead:
                        codes[k] = full
                for r in range(rel_bit.shape[0]):
                    if (bits & rel_bit[r]) == 0:
                        continue
                    clear = True
                    for q in range(rel_slots.shape[1]):
                        k = rel_slots[r, q]
                        if k < 0:
                            break
                        if codes[k] != full:
                            clear = False
                            break
                    if clear:
                        bits &= ~rel_bit[r]
            for s in range(after):
                packed[s // 12] |= np.uint64(codes[s]) << np.uint64(5 * (s % 12))
            packed[0] |= np.uint64(ends) << np.uint64(60)
            if has_bits:
                packed[words] = bits
            h = np.uint64(0x9E3779B97F4A7C15)
            for w in range(nw):
                h ^= packed[w]
                h *= np.uint64(0xBF58476D1CE4E5B9)
                h ^= h >> np.uint64(31)
            slot = np.int64(h & np.uint64(cap - 1))
            while True:
                at = table[slot]
                if at < 0:
                    if count * 2 >= cap:
                        return (False, tkeys, tvals, tpar, tcho, tried, 0, 0, 0, 0)
                    table[slot] = np.int32(count)
                    for w in range(nw):
                        tkeys[count, w] = packed[w]
                    tvals[count] = value
                    tpar[count] = i
                    tcho[count] = m
                    count += 1
                    break
                same = True
                for w in range(nw):
                    if tkeys[at, w] != packed[w]:
                        same = False
                        break
                if same:
                    if value > tvals[at]:
                        tvals[at] = value
                        tpar[at] = i
                        tcho[at] = m
                    break
                slot = (slot + 1) & (cap - 1)
    return (
        True,
        tkeys,
        tvals,
        tpar,
        tcho,
        tried,
        done_best,
        done_parent,
        done_choice,
        count,
    )
