"""The frontier program's dict kernel: the states of a step in a dict, plain Python.

A state is the number of free ends used and one slot code per frontier cell
(the codes of :mod:`cpknight.frontier.slots`, whose algebra it applies); the
dict maps it to the number of partial solutions, an exact int. Each step tries
every way the new cell can join its earlier neighbours in every state. Slower
than the numpy kernel past a few slots, it is the reference the tests hold the
numpy kernel to, and runs the narrow plans, where numpy's overhead would
dominate.

Examples:
    >>> from cpknight.frontier.plan import plan_frontier
    >>> from cpknight.pieces import move_graph
    >>> count_frontier_dict(plan_frontier(move_graph("5x6"), closed=True))[0]
    8
"""

from __future__ import annotations

from collections.abc import Callable

from cpknight.frontier.plan import FrontierPlan, FrontierStep, StepCheck, step_choices
from cpknight.frontier.slots import (
    CYCLE,
    DANGLING,
    DEG0,
    FULL,
    JOINED,
    end_at,
    join,
    renumber,
)

__all__ = ["TICK_EVERY", "State", "count_frontier_dict"]

TICK_EVERY = 4096
"""Within a step, ``tick`` is called after this many states (a step of open
6x6 holds millions, tens of seconds in plain Python)."""

State = tuple[int, tuple[int, ...]]
"""A state: (free ends used, the slot codes)."""

_FINISHED: State = (-1, ())
"""What :func:`_apply` returns for a finished tour (legal at the last step)."""


def count_frontier_dict(
    plan: FrontierPlan,
    check: StepCheck | None = None,
    tick: Callable[[int], None] | None = None,
) -> tuple[int, list[int]]:
    """Run the program over a dict of states (plain Python, exact ints).

    Args:
        plan: the cell order and its steps.
        check: called as ``check(step, live_states, tried)`` after every step
            (the deadline check and the progress report; ``tried``: the
            state-and-choice pairs the step looked at).
        tick: called as ``tick(step)`` every :data:`TICK_EVERY` states within
            a step (the deadline check of a long step).

    Returns:
        The number of undirected tours (each edge set once) and the number of
        live states after every step.

    Examples:
        >>> from cpknight.frontier.plan import plan_frontier
        >>> from cpknight.pieces import move_graph
        >>> count_frontier_dict(plan_frontier(move_graph("3x4"), closed=False))[0]
        8
    """
    states: dict[State, int] = {(0, ()): 1}
    live: list[int] = []
    last = len(plan.steps) - 1
    total = 0
    for i, step in enumerate(plan.steps):
        new: dict[State, int] = {}
        tried = 0
        for seen, ((used, codes), count) in enumerate(states.items(), 1):
            if tick is not None and not seen % TICK_EVERY:
                tick(i)
            base = [*codes, DEG0]
            open_back = [s for s in step.back if base[s] != FULL]
            for chosen in step_choices(open_back, step.cap):
                tried += 1
                out = _apply(plan, step, base, used, chosen, i == last)
                if out is None:
                    continue
                if out is _FINISHED:
                    total += count
                    continue
                new[out] = new.get(out, 0) + count
        states = new
        live.append(len(states))
        if check is not None:
            check(i, len(states), tried)
    return total, live


def _apply(
    plan: FrontierPlan,
    step: FrontierStep,
    base: list[int],
    used: int,
    chosen: tuple[int, ...],
    last: bool,
) -> State | None:
    """The state after joining the new cell to ``chosen``; None if it dies.

    A finished tour (legal only at the last step) comes back as
    :data:`_FINISHED`.
    """
    codes = list(base)
    done = _join(codes, chosen, closing=plan.closed and last)
    if done is None:
        return None
    # a fixed tour end takes one move, and is then a tour end
    for x in step.ends:
        if codes[x] >= DANGLING:
            done |= end_at(codes, x)
    for x in step.leaving:
        c = codes[x]
        if c == FULL:
            continue
        if c == DEG0 or plan.closed or used >= plan.free_ends:
            return None
        used += 1
        done |= end_at(codes, x)
    if done:
        return _FINISHED if last else None
    return (used, renumber(codes, step.leaving))


def _join(codes: list[int], chosen: tuple[int, ...], *, closing: bool) -> bool | None:
    """Join the new cell (the last slot) to ``chosen``, in place.

    Returns:
        Whether that finished a tour (a cycle closed, or two dangling ends
        met); None if it closed a cycle where none may close.
    """
    v = len(codes) - 1
    done = False
    for u in chosen:
        made = join(codes, u, v)
        if made == CYCLE and not closing:
            return None
        done |= made != JOINED
    return done
