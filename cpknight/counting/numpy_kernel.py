"""The frontier program's numpy kernel: every state of a step moved at once.

The states of a step are the rows of a ``uint8`` array, one column per
frontier slot (the codes of :mod:`cpknight.frontier.slots`), beside the number
of free ends used. For each way the new cell can join its earlier neighbours,
the rows that allow it are copied and the moves applied to all of them with
vectorised operations; the rows of every choice are then packed into one or two
64-bit keys, sorted, and equal keys summed (a hash aggregation by sorting).
When a state fits one key (its codes two a byte: 13 slots or fewer, the 6 x n
boards), the states kept are read back from the sorted keys rather than
gathered. Where the time goes (6 x n): the sort of the keys is about a third,
the moves and the copies of the rows for each choice the rest.

Counts are exact at any size. They are held as base ``2**32`` limbs in
``uint64`` arrays (``counts[k]`` is limb ``k``), limbs added when needed: a
group's sum of ``m`` limbs below ``2**32`` plus the carry from the limb below
stays under ``m * 2**32 + m``, which fits 64 bits for every ``m < 2**31``
rows (asserted; the memory budget stops the program far earlier). Nothing in
the arithmetic can wrap silently.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> from cpknight.frontier.plan import plan_frontier
    >>> count_frontier_numpy(plan_frontier(move_graph("5x6"), closed=True))[0]
    8
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

import numpy as np
import numpy.typing as npt

from cpknight.frontier.plan import (
    FrontierPlan,
    FrontierStep,
    StepCheck,
    step_choices,
)
from cpknight.frontier.slots import DANGLING, DEG0, FULL, MATE

__all__ = ["count_frontier_numpy", "count_prefixes_numpy"]

U8 = npt.NDArray[np.uint8]
U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]

_LIMB = np.uint64(32)
_MASK = np.uint64(0xFFFFFFFF)
_MAX_ROWS = 2**31


def count_frontier_numpy(
    plan: FrontierPlan,
    check: StepCheck | None = None,
    within: Callable[[int], None] | None = None,
    *,
    finish_at: Sequence[int] = (),
) -> tuple[int, list[int]]:
    """Run the frontier program with numpy (the same answers as the dict kernel).

    Args:
        plan: the cell order and its steps.
        check: called as ``check(step, live_states, tried)`` after every
            step (``tried``: the state-and-choice pairs the step looked at).
        within: called as ``within(step)`` inside a step, between its
            choices of moves (a long step's deadline checks; it may raise).
        finish_at: steps after which to finish the board as if it ended
            there too (every frontier cell leaving): the counts of the
            board's prefixes, reported through :func:`count_prefixes_numpy`.

    Returns:
        The number of undirected tours and the live states after every step.
    """
    total, live, _ = _run(plan, check, finish_at, within)
    return total, live


def count_prefixes_numpy(
    plan: FrontierPlan,
    finish_at: Sequence[int],
    check: StepCheck | None = None,
    within: Callable[[int], None] | None = None,
) -> dict[int, int]:
    """The tours of every prefix of the board that ends after a step in ``finish_at``.

    One run of the program on the whole board counts every prefix: at a step
    in ``finish_at`` the states so far are also finished as if the board
    ended there (the transfer-matrix view of a strip: one sweep gives every
    length). The plan must have no fixed ends.

    Returns:
        ``{step: undirected tours of the prefix ending at that step}``, the
        last step included.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> from cpknight.frontier.plan import plan_frontier
        >>> plan = plan_frontier(move_graph("3x12"), closed=True)
        >>> found = count_prefixes_numpy(plan, [29, 35])
        >>> found[29], found[35]  # 3x10 and 3x12 (A070030)
        (16, 176)
    """
    if plan.ends:
        raise ValueError("prefix counts take no fixed ends")
    total, _, found = _run(plan, check, finish_at, within)
    found[len(plan.steps) - 1] = total
    return found


def _run(
    plan: FrontierPlan,
    check: StepCheck | None,
    finish_at: Sequence[int],
    within: Callable[[int], None] | None = None,
) -> tuple[int, list[int], dict[int, int]]:
    codes: U8 = np.zeros((0, 1), dtype=np.uint8)  # codes[slot, state]
    used: U8 = np.zeros(1, dtype=np.uint8)
    counts: list[U64] = [np.ones(1, dtype=np.uint64)]
    live: list[int] = []
    last = len(plan.steps) - 1
    finishing = set(finish_at)
    found: dict[int, int] = {}
    for i, step in enumerate(plan.steps):
        width = step.width
        base = np.zeros((width, codes.shape[1]), dtype=np.uint8)
        base[: width - 1] = codes
        if i == last or i in finishing:
            every = replace(step, leaving=tuple(range(width)))
            found[i], tried = _finish(plan, every, base, used, counts)
            if i == last:
                live.append(0)
                if check is not None:
                    check(i, 0, tried)
                break
        parts_codes, parts_used, parts_src, tried = _advance(
            plan, step, base, used, None if within is None else partial(within, i)
        )
        codes, used, counts = _aggregate(parts_codes, parts_used, parts_src, counts)
        live.append(int(codes.shape[1]))
        if check is not None:
            check(i, live[-1], tried)
        if codes.shape[1] == 0:
            break
    total = found.pop(last, 0)
    return total, live, found


def _advance(
    plan: FrontierPlan,
    step: FrontierStep,
    base: U8,
    used: U8,
    within: Callable[[], None] | None = None,
) -> tuple[list[U8], list[U8], list[I64], int]:
    """Every state joined to the new cell every way it can: the step's states.

    ``within`` is called before each choice of moves (the clock, inside a step).

    Returns:
        Per choice of moves, the states that live on (codes, free ends used,
        the row of the state they came from), not yet summed; and how many
        state-and-choice pairs were tried.
    """
    width = step.width
    gone = set(step.leaving)
    keep = [s for s in range(width) if s not in gone]
    lut = np.arange(256, dtype=np.uint8)
    for new_pos, s in enumerate(keep):
        lut[MATE + s] = MATE + new_pos
    parts_codes: list[U8] = []
    parts_used: list[U8] = []
    parts_src: list[I64] = []
    tried = 0
    for chosen in step_choices(step.back, step.cap):
        if within is not None:
            within()
        src, c = _rows(base, chosen)
        tried += int(src.size)
        if src.size == 0:
            continue
        u8 = used[src].copy()
        alive, done = _move(plan, step, c, u8, chosen, False)
        ok = np.flatnonzero(alive & ~done)
        kept = lut[c.take(ok, axis=1)[keep]]
        u8 = u8[ok]
        src = src[ok]
        if step.short:
            # a cell with no move yet and one neighbour to come can only
            # be a tour end: closed tours die, open ones spend a free end
            need = u8.copy()
            for s in step.short:
                need += kept[s] == DEG0
            fine = np.flatnonzero(need <= plan.free_ends)
            kept, u8, src = kept.take(fine, axis=1), u8[fine], src[fine]
        parts_codes.append(kept)
        parts_used.append(u8)
        parts_src.append(src)
    return parts_codes, parts_used, parts_src, tried


def _rows(base: U8, chosen: tuple[int, ...]) -> tuple[I64, U8]:
    """The states that can take the moves to ``chosen``, and a copy of them."""
    if not chosen:
        return np.arange(base.shape[1]), base.copy()
    rows = base[chosen[0]] != FULL
    for u in chosen[1:]:
        rows &= base[u] != FULL
    src = np.flatnonzero(rows)
    return src, base.take(src, axis=1)


def _finish(
    plan: FrontierPlan, step: FrontierStep, base: U8, used: U8, counts: list[U64]
) -> tuple[int, int]:
    """The tours completed at ``step`` when every frontier cell leaves with it."""
    total = 0
    tried = 0
    for chosen in step_choices(step.back, step.cap):
        src, c = _rows(base, chosen)
        tried += int(src.size)
        if src.size == 0:
            continue
        alive, done = _move(plan, step, c, used[src].copy(), chosen, True)
        take = src[alive & done]
        for k, limb in enumerate(counts):
            total += sum(int(x) for x in limb[take]) << (32 * k)
    return total, tried


def _partner(c: U8, x: int) -> I8:
    """The other end of the path ending at slot ``x``, per row (-1: dangling).

    In ``int8``: the codes are below 128 (slots fewer than 125), so their
    signed view is the same number, and a partner fits.
    """
    code = c[x].view(np.int8)
    part: I8 = code - np.int8(MATE)
    np.putmask(part, code == DEG0, np.int8(x))
    np.putmask(part, code == DANGLING, np.int8(-1))
    return part


def _move(
    plan: FrontierPlan,
    step: FrontierStep,
    c: U8,
    used: U8,
    chosen: tuple[int, ...],
    last: bool,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Join the new cell to ``chosen`` in every row, finalise, check leavers.

    Changes ``c`` and ``used`` in place; returns (alive, done) per row.
    """
    n = c.shape[1]
    v = c.shape[0] - 1
    alive = np.ones(n, dtype=bool)
    done = np.zeros(n, dtype=bool)
    for u in chosen:
        pu, pv = _partner(c, u), _partner(c, v)
        cycle = pu == v
        if cycle.any():
            if plan.closed and last:
                done |= cycle
            else:
                alive &= ~cycle
        go = ~cycle
        # a cycle fills both; otherwise a cell that had a move is now full
        np.putmask(c[u], cycle | (c[u] != DEG0), FULL)
        np.putmask(c[v], cycle | (c[v] != DEG0), FULL)
        done |= go & (pu < 0) & (pv < 0)
        for p, q in ((pu, pv), (pv, pu)):
            r = np.flatnonzero(go & (p >= 0))
            qr = q[r]
            c[p[r], r] = np.where(qr < 0, DANGLING, qr + MATE).astype(np.uint8)
    for x in step.ends:
        _finalise(c, x, c[x] >= DANGLING, done)
    for x in step.leaving:
        cx = c[x]
        alive &= cx != DEG0
        end = cx >= DANGLING
        if plan.closed:
            alive &= ~end
            continue
        used += end.astype(np.uint8)
        alive &= used <= plan.free_ends
        _finalise(c, x, end, done)
    return alive, done


def _finalise(
    c: U8, x: int, rows: npt.NDArray[np.bool_], done: npt.NDArray[np.bool_]
) -> None:
    """Make slot ``x`` a tour end in ``rows``: its path's other end now dangles."""
    cx = c[x]
    done |= rows & (cx == DANGLING)
    mate = np.flatnonzero(rows & (cx >= MATE))
    c[cx[mate].astype(np.int64) - MATE, mate] = DANGLING
    c[x, rows] = FULL


def _aggregate(
    parts_codes: list[U8],
    parts_used: list[U8],
    parts_src: list[I64],
    counts: list[U64],
) -> tuple[U8, U8, list[U64]]:
    """Sum the counts of equal states (sort the packed keys, reduce the runs)."""
    if not parts_codes:
        return (
            np.zeros((0, 0), dtype=np.uint8),  # no slots, no states
            np.zeros(0, dtype=np.uint8),
            [np.zeros(0, dtype=np.uint64)],
        )
    width = parts_codes[0].shape[0]
    src = np.concatenate(parts_src)
    m = len(src)
    assert m < _MAX_ROWS
    # each part packed on its own (one pass, no copy of the rows)
    nibbles = max(int(part.max(initial=0)) for part in parts_codes) < 16
    pairs = zip(parts_codes, parts_used, strict=True)
    packed = [_pack(c, u, nibbles) for c, u in pairs]
    keys = [np.concatenate([p[w] for p in packed]) for w in range(len(packed[0]))]
    if len(keys) == 1:
        order = np.argsort(keys[0])
        sorted_keys = [keys[0][order]]
    else:
        order = np.lexsort(keys[::-1])
        sorted_keys = [k[order] for k in keys]
    first = np.ones(m, dtype=bool)
    if m:
        same = np.ones(m - 1, dtype=bool)
        for k in sorted_keys:
            same &= k[1:] == k[:-1]
        first[1:] = ~same
    starts = np.flatnonzero(first)
    gathered = src[order]
    new = [np.add.reduceat(limb.take(gathered), starts) for limb in counts]
    new = _carry(new)
    if len(keys) == 1 and nibbles:
        # read the states back from their keys: no gather of the rows
        return (*_unpack(sorted_keys[0].take(starts), width), new)
    rep = order.take(starts)
    codes = np.concatenate(parts_codes, axis=1)
    used = np.concatenate(parts_used)
    return codes.take(rep, axis=1), used.take(rep), new


def _pack(codes: U8, used: U8, nibbles: bool) -> list[U64]:
    """The rows as 64-bit keys: their bytes (two codes a byte if ``nibbles``)."""
    width, m = codes.shape
    size = 1 + ((width + 1) // 2 if nibbles else width)
    words = -(-size // 8)
    packed = np.zeros((m, 8 * words), dtype=np.uint8)
    packed[:, 0] = used
    if nibbles:
        for j in range(width // 2):
            packed[:, 1 + j] = (codes[2 * j] << 4) | codes[2 * j + 1]
        if width % 2:
            packed[:, 1 + width // 2] = codes[width - 1]
    else:
        packed[:, 1 : 1 + width] = codes.T
    keys = packed.view(np.uint64)
    return [np.ascontiguousarray(keys[:, w]) for w in range(words)]


def _unpack(keys: U64, width: int) -> tuple[U8, U8]:
    """The codes and free ends used of one-word nibble keys (:func:`_pack`)."""
    raw = keys.view(np.uint8).reshape(len(keys), 8)
    codes = np.empty((width, len(keys)), dtype=np.uint8)
    for j in range(width // 2):
        np.right_shift(raw[:, 1 + j], 4, out=codes[2 * j])
        np.bitwise_and(raw[:, 1 + j], 15, out=codes[2 * j + 1])
    if width % 2:
        codes[width - 1] = raw[:, 1 + width // 2]
    return codes, raw[:, 0].copy()


def _carry(limbs: list[U64]) -> list[U64]:
    """Bring every limb below ``2**32``, adding a limb when the top one spills."""
    out = [limb.copy() for limb in limbs]
    k = 0
    while k < len(out):
        spill = out[k] >> _LIMB
        if spill.any():
            out[k] &= _MASK
            if k + 1 == len(out):
                out.append(spill)
            else:
                out[k + 1] += spill
        k += 1
    return out
