"""The compiled orbit search of the symmetry check (numba, ``cpknight[fast]``).

Imported only by :mod:`cpknight.counting.symmetry`, whose ``_OrbitSearch``
it follows step for step: count the Hamiltonian cycles made of whole orbits
of edges, branching on an undecided orbit at the cell with a missing edge
and the fewest edges left (in, then out), a union-find of the chosen edges
(undone on the way back) ending a branch that closes a cycle too soon.

The search is a loop over an explicit stack kept in arrays, so that it can
stop after a number of steps and go on where it stopped: :func:`advance`
runs up to ``budget`` steps and says whether it is done, and the caller
checks its clock between the calls.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

# ctl: the search's own registers, kept between calls of advance()
DEPTH = 0  # frames on the stack
VISIT = 1  # 1: the next step chooses a cell (a new node); 0: a frame goes on
COUNT = 2  # cycles found so far
SP = 3  # unions on the undo stack
CONTROLS = 4


def start(n: int, orbits: int) -> tuple[Any, ...]:
    """The search's arrays for ``n`` cells and ``orbits`` orbits, at its root."""
    ctl = np.zeros(CONTROLS, dtype=np.int64)
    ctl[VISIT] = 1
    frames = np.zeros((orbits + 1, 3), dtype=np.int64)  # orbit, phase, union base
    unions = np.zeros((n + 1, 2), dtype=np.int64)
    parent = np.arange(n, dtype=np.int64)
    size = np.ones(n, dtype=np.int64)
    return ctl, frames, unions, parent, size


@njit(cache=True)
def _root(parent: Any, a: int) -> int:
    while parent[a] != a:
        a = parent[a]
    return a


@njit(cache=True)
def _untake(
    k: int, done: int, base: int, ctl: Any, unions: Any, parent: Any, size: Any,
    first: Any, ends: Any, degree: Any, left: Any, state: Any,
) -> None:  # fmt: skip
    """Take orbit k's first ``done`` edges out again, and its unions from ``base``."""
    while ctl[SP] > base:
        ctl[SP] -= 1
        ra = unions[ctl[SP], 0]
        rb = unions[ctl[SP], 1]
        parent[rb] = rb
        size[ra] -= size[rb]
    for e in range(first[k], first[k] + done):
        for c in (ends[e, 0], ends[e, 1]):
            degree[c] -= 1
            left[c] += 1
    state[k] = 0


@njit(cache=True)
def _take(
    k: int, n: int, ctl: Any, unions: Any, parent: Any, size: Any,
    first: Any, ends: Any, degree: Any, left: Any, state: Any,
) -> bool:  # fmt: skip
    """Put orbit k in; False (and everything undone) when the branch is dead."""
    state[k] = 1
    base = ctl[SP]
    done = 0
    for e in range(first[k], first[k + 1]):
        a = ends[e, 0]
        b = ends[e, 1]
        done += 1
        degree[a] += 1
        degree[b] += 1
        left[a] -= 1
        left[b] -= 1
        if degree[a] > 2 or degree[b] > 2:
            _untake(k, done, base, ctl, unions, parent, size, first, ends,
                    degree, left, state)  # fmt: skip
            return False
        ra = _root(parent, a)
        rb = _root(parent, b)
        if ra == rb:  # a cycle closes: only the whole tour may
            if size[ra] != n:
                _untake(k, done, base, ctl, unions, parent, size, first, ends,
                        degree, left, state)  # fmt: skip
                return False
            continue
        if size[ra] < size[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        size[ra] += size[rb]
        unions[ctl[SP], 0] = ra
        unions[ctl[SP], 1] = rb
        ctl[SP] += 1
    return True


@njit(cache=True)
def _drop(k: int, first: Any, ends: Any, degree: Any, left: Any, state: Any) -> bool:
    """Keep orbit k out; whether every cell can still get two edges."""
    state[k] = -1
    ok = True
    for e in range(first[k], first[k + 1]):
        for c in (ends[e, 0], ends[e, 1]):
            left[c] -= 1
            if degree[c] + left[c] < 2:
                ok = False
    return ok


@njit(cache=True)
def _undrop(k: int, first: Any, ends: Any, left: Any, state: Any) -> None:
    for e in range(first[k], first[k + 1]):
        for c in (ends[e, 0], ends[e, 1]):
            left[c] += 1
    state[k] = 0


@njit(cache=True)
def advance(
    budget: int, n: int, first: Any, ends: Any, at_first: Any, at: Any,
    degree: Any, left: Any, state: Any,
    ctl: Any, frames: Any, unions: Any, parent: Any, size: Any,
) -> bool:  # fmt: skip
    """Run up to ``budget`` steps of the search; True when it is done.

    ``first[k]`` .. ``first[k + 1]`` are orbit k's rows of ``ends`` (its
    edges); ``at_first[c]`` .. ``at_first[c + 1]`` are cell c's rows of
    ``at`` (the orbits at it). ``degree``, ``left`` and ``state`` are the
    search's counts (edges chosen and undecided at each cell; each orbit 0
    undecided, 1 in, -1 out), the others its stack (:func:`start`).
    """
    steps = 0
    while steps < budget:
        if ctl[VISIT] == 1:  # a new node: the cell to branch at
            ctl[VISIT] = 0
            steps += 1
            cell = -1
            fewest = 1 << 30
            for c in range(n):
                if degree[c] < 2 and left[c] < fewest:
                    cell = c
                    fewest = left[c]
            if cell < 0:  # every cell has its two edges: the cycle closed whole
                ctl[COUNT] += 1
                continue
            k = -1
            for i in range(at_first[cell], at_first[cell + 1]):
                if state[at[i]] == 0:
                    k = at[i]
                    break
            d = ctl[DEPTH]
            frames[d, 0] = k
            frames[d, 1] = 0
            frames[d, 2] = ctl[SP]
            ctl[DEPTH] = d + 1
            continue
        d = ctl[DEPTH] - 1
        if d < 0:
            return True
        k = frames[d, 0]
        phase = frames[d, 1]
        if phase == 0:  # in
            frames[d, 1] = 1
            if _take(k, n, ctl, unions, parent, size, first, ends, degree, left,
                     state):  # fmt: skip
                frames[d, 1] = 2
                ctl[VISIT] = 1
        elif phase <= 2:  # back from in (taken if 2): now out
            if phase == 2:
                _untake(k, first[k + 1] - first[k], frames[d, 2], ctl, unions,
                        parent, size, first, ends, degree, left, state)  # fmt: skip
            frames[d, 1] = 3
            if _drop(k, first, ends, degree, left, state):
                ctl[VISIT] = 1
        else:  # back from out
            _undrop(k, first, ends, left, state)
            ctl[DEPTH] = d
    return False
