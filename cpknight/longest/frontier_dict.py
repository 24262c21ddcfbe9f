"""The longest-path frontier program over a dict of states, in plain Python.

A state is ``(ends, bits, codes)``: the path ends placed so far (open paths, at
most 2), the crossing word (uncrossed: the used bit of each move in flight,
:mod:`cpknight.longest.frontier_tables`) and one code per frontier slot, the
codes of :mod:`cpknight.frontier.slots` (``DEG0`` no move yet, ``FULL`` takes
no more, ``DANGLING``, ``MATE + p``) and, for induced paths, ``OUT`` (the cell
is not on the path); the moves are applied by the slots' algebra there. The
dict maps a state to the most moves of the partial paths that reach it, and
each step keeps, for every new state, the state and choice it was best reached
from, so that the answer can be rebuilt backwards. Any other path (a finished
one: both ends placed, or a cycle closed) is a whole answer on its own: it is
kept apart as a candidate when no other partial path is in use, and never
carried on.

The reference the tests hold the compiled kernel to.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.longest.common import LongestInstance
    >>> from cpknight.longest.frontier_tables import longest_tables
    >>> from cpknight.pieces import KNIGHT
    >>> inst = LongestInstance(board=Board.parse("5x5"), piece=KNIGHT,
    ...                        kind="uncrossed")
    >>> longest_frontier_dict(longest_tables(inst))[0]
    10
"""

from __future__ import annotations

import itertools

from cpknight.frontier.plan import StepCheck
from cpknight.frontier.slots import (
    CYCLE,
    DANGLING,
    DEG0,
    FULL,
    JOINED,
    OUT,
    end_at,
    join,
    renumber,
)
from cpknight.longest.frontier_tables import LongestStep, LongestTables

__all__ = ["Found", "longest_frontier_dict"]

State = tuple[int, int, tuple[int, ...]]
Found = tuple[int, list[tuple[int, int]], list[int]]
"""What a kernel returns: the most moves (-1: none), the moves of one best
answer as node pairs, and the live states after every step."""

_DONE: tuple[int, tuple[int, ...]] = (-1, ())


def longest_frontier_dict(
    tables: LongestTables, check: StepCheck | None = None
) -> Found:
    """Run the program over a dict of states; the best answer and live states.

    Args:
        tables: the steps.
        check: called as ``check(step, live_states, tried)`` after every step
            (the clock, the budget, the progress).

    Returns:
        The most moves of a path (or cycle) found (-1: none with a move), its
        moves as node pairs, and the live states after every step.
    """
    induced = tables.kind == "induced"
    free_ends = 0 if tables.closed else 2
    states: dict[State, int] = {(0, 0, ()): 0}
    parents: list[dict[State, tuple[State, tuple[int, ...]]]] = []
    live: list[int] = []
    best = -1
    best_at: tuple[int, State, tuple[int, ...]] | None = None
    for i, step in enumerate(tables.steps):
        new: dict[State, int] = {}
        par: dict[State, tuple[State, tuple[int, ...]]] = {}
        tried = 0
        for state, value in states.items():
            ends, bits, codes = state
            for chosen, in_path in _choices(step, codes, bits, induced):
                tried += 1
                base = [*codes, DEG0 if in_path else OUT]
                out = _apply(
                    step, base, ends, chosen, tables.closed, free_ends, induced
                )
                if out is None:
                    continue
                moves = value + len(chosen)
                if out is _DONE:
                    if moves > best:
                        best, best_at = moves, (i, state, chosen)
                    continue
                taken = 0
                for k in chosen:
                    taken |= step.register[k]
                nxt = _canonical(step, out[0], (bits & step.keep) | taken, out[1])
                if moves > new.get(nxt, -1):
                    new[nxt] = moves
                    par[nxt] = (state, chosen)
        states = new
        parents.append(par)
        live.append(len(states))
        if check is not None:
            check(i, len(states), tried)
    edges: list[tuple[int, int]] = []
    if best_at is not None:
        at, state, chosen = best_at
        while True:
            s = tables.steps[at]
            edges.extend((s.frontier[s.back[k]], s.node) for k in chosen)
            if at == 0:
                break
            at -= 1
            state, chosen = parents[at][state]
    return best, edges, live


def _choices(
    step: LongestStep, codes: tuple[int, ...], bits: int, induced: bool
) -> list[tuple[tuple[int, ...], bool]]:
    """The ways the new cell joins the path: (indices into ``back``, on the path).

    Uncrossed: any at most two earlier neighbours that take a move and whose
    move crosses no used move. Induced: off the path, or on it joined to every
    earlier neighbour on the path (none full, at most two).
    """
    back = step.back
    if induced:
        joined = tuple(k for k, s in enumerate(back) if codes[s] != OUT)
        found: list[tuple[tuple[int, ...], bool]] = [((), False)]
        if len(joined) <= 2 and all(codes[back[k]] != FULL for k in joined):
            found.append((joined, True))
        return found
    usable = [
        k for k, s in enumerate(back) if codes[s] != FULL and not step.cross[k] & bits
    ]
    found = [((), True)]
    found.extend(((k,), True) for k in usable)
    found.extend(
        (pair, True)
        for pair in itertools.combinations(usable, 2)
        if pair not in step.clash
    )
    return found


def _canonical(
    step: LongestStep, ends: int, bits: int, codes: tuple[int, ...]
) -> State:
    """The state with dead cells made full and bits no move can cross cleared."""
    if bits:
        fix = [
            k
            for k, masks in step.dead
            if codes[k] == DEG0 and all(m & bits for m in masks)
        ]
        if fix:
            new = list(codes)
            for k in fix:
                new[k] = FULL
            codes = tuple(new)
        for bit, slots in step.relevant:
            if bits & bit and all(codes[k] == FULL for k in slots):
                bits &= ~bit
    return ends, bits, codes


def _apply(
    step: LongestStep,
    codes: list[int],
    ends: int,
    chosen: tuple[int, ...],
    closed: bool,
    free_ends: int,
    induced: bool,
) -> tuple[int, tuple[int, ...]] | None:
    """``(ends, codes)`` after the new cell joins ``chosen``; None if it dies.

    A path finished here, alone, comes back as :data:`_DONE`.
    """
    v = len(codes) - 1
    finished = 0
    for k in chosen:
        made = join(codes, step.back[k], v)
        if made == CYCLE and not closed:
            return None
        finished += made != JOINED
    for x in step.leaving:
        c = codes[x]
        if c in (FULL, OUT):
            continue
        if c == DEG0:
            if induced:
                return None  # on the path with no move: a path of one cell
            continue  # never used
        if ends >= free_ends:
            return None
        ends += 1
        finished += end_at(codes, x)
    if finished:
        gone = set(step.leaving)
        if finished > 1 or any(
            (c >= DANGLING or (induced and c == DEG0))
            for s, c in enumerate(codes)
            if s not in gone
        ):
            return None
        return _DONE
    return ends, renumber(codes, step.leaving)
