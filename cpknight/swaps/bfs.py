"""The ``bfs`` swap engine: breadth-first search over placements, from both ends.

A state is a placement: each colour's knights as a sorted tuple of move-graph
nodes (knights of one colour are interchangeable, so sorting them makes one
state of all their orders). The states are packed into one 64-bit integer
(``bits`` per knight, colour by colour), and the search runs a level at a time
on numpy arrays: every knight tries every move onto an empty cell, the new
placements are sorted and made unique. Moves can be undone, so the neighbours
of level ``d`` lie in levels ``d - 1``, ``d`` and ``d + 1``: a level is new
placements less those two, and no table of every state seen is needed.

The search grows from the start and from the goal, always the smaller
frontier, until a level of one side meets the last level of the other: then
the distance is proved (no level met before, so it is not shorter) and the
path is read back level by level. A placement that does not fit 64 bits is
searched one state at a time in Python (:func:`_plain_search`).

References:
    The layered ("frontier") breadth-first search of an undirected state
    graph: Korf, "Delayed duplicate detection", IJCAI 2003, and Korf and
    Zhang, "Divide-and-conquer frontier search", AAAI 2000.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from cpknight.errors import NoPathError
from cpknight.runtime.memory import refuse_over_budget
from cpknight.solving import Run
from cpknight.status import Effort
from cpknight.swaps.bounds import lower_bound, parity
from cpknight.swaps.common import Swap, SwapInstance, make_swap

__all__ = ["Packing", "solve"]

Codes = npt.NDArray[np.uint64]
State = tuple[tuple[int, ...], ...]


class Packing:
    """How placements are packed into 64-bit codes, and their moves.

    Attributes:
        groups: each colour's knights as a column range ``(first, stop)``.
        bits: bits per knight (enough for any node).
        knights: the number of knights.
        table: ``(n, degree)`` neighbours of each node, ``-1`` padded.
    """

    def __init__(self, instance: SwapInstance) -> None:
        graph = instance.graph
        n = graph.n_nodes
        self.bits = max(1, (n - 1).bit_length())
        self.groups: list[tuple[int, int]] = []
        first = 0
        for k in instance.counts:
            self.groups.append((first, first + k))
            first += k
        self.knights = first
        degree = graph.degree
        width = int(degree.max()) if n else 0
        table = np.full((n, max(width, 1)), -1, dtype=np.int64)
        for u in range(n):
            row = graph.indices[graph.indptr[u] : graph.indptr[u + 1]]
            table[u, : len(row)] = row
        self.table = table
        self.shifts = np.array(
            [self.bits * (self.knights - 1 - i) for i in range(self.knights)],
            dtype=np.uint64,
        )
        self.mask = np.uint64((1 << self.bits) - 1)

    @property
    def fits(self) -> bool:
        """Whether a placement fits one 64-bit code."""
        return self.bits * self.knights <= 64

    def encode(self, positions: npt.NDArray[np.int64]) -> Codes:
        """``(m, knights)`` positions (sorted within colours) -> ``(m,)`` codes."""
        codes = np.zeros(positions.shape[0], dtype=np.uint64)
        for i in range(self.knights):
            codes |= positions[:, i].astype(np.uint64) << self.shifts[i]
        return codes

    def decode(self, codes: Codes) -> npt.NDArray[np.int64]:
        """``(m,)`` codes -> ``(m, knights)`` positions."""
        out = np.empty((codes.shape[0], self.knights), dtype=np.int64)
        for i in range(self.knights):
            out[:, i] = ((codes >> self.shifts[i]) & self.mask).astype(np.int64)
        return out

    def code_of(self, state: State) -> int:
        """The code of one state."""
        flat = [n for group in state for n in group]
        return int(self.encode(np.array([flat], dtype=np.int64))[0])

    def state_of(self, code: int) -> State:
        """The state of one code."""
        row = self.decode(np.array([code], dtype=np.uint64))[0].tolist()
        return tuple(tuple(row[a:b]) for a, b in self.groups)

    def level_bytes(self, size: int) -> int:
        """What :meth:`expand` holds at most for ``size`` codes (an estimate).

        Each placement has at most (empty cells) x (moves a cell) successors,
        each a code held twice (the parts and their sorted concatenation),
        beside the positions decoded (a row of ``knights`` ints, twice).
        """
        empty = self.table.shape[0] - self.knights
        successors = min(self.knights, max(empty, 0)) * self.table.shape[1]
        return size * (16 * successors + 16 * self.knights + 16)

    def expand(self, codes: Codes, check: Callable[[], None] | None = None) -> Codes:
        """Every placement one move from one of ``codes``, sorted and unique."""
        if codes.size == 0:
            return codes
        positions = self.decode(codes)
        found: list[Codes] = []
        occupied = None
        if self.table.shape[0] <= 64:  # the occupied cells as one bit mask
            occupied = np.zeros(codes.shape[0], dtype=np.uint64)
            for i in range(self.knights):
                occupied |= np.left_shift(
                    np.uint64(1), positions[:, i].astype(np.uint64)
                )
        for first, stop in self.groups:
            for i in range(first, stop):
                if check is not None:
                    check()
                for j in range(self.table.shape[1]):
                    to = self.table[positions[:, i], j]
                    ok = to >= 0
                    if occupied is None:
                        ok &= ~(positions == to[:, None]).any(axis=1)
                    else:
                        bit = np.right_shift(
                            occupied, np.maximum(to, 0).astype(np.uint64)
                        )
                        ok &= (bit & np.uint64(1)) == 0
                    rows = np.nonzero(ok)[0]
                    if rows.size == 0:
                        continue
                    moved = positions[rows]
                    moved[:, i] = to[rows]
                    if stop - first > 1:
                        moved[:, first:stop] = np.sort(moved[:, first:stop], axis=1)
                    found.append(self.encode(moved))
        if not found:
            return np.empty(0, dtype=np.uint64)
        return _sorted_unique(np.concatenate(found))


def _sorted_unique(codes: Codes) -> Codes:
    """The codes sorted, each once.

    A sort and a mask: numpy 2's hashing ``np.unique`` took 11.3 of the 15.9 s
    the 8x8 corners took under a profiler.
    """
    codes.sort()
    if codes.size < 2:
        return codes
    keep = np.empty(codes.size, dtype=bool)
    keep[0] = True
    np.not_equal(codes[1:], codes[:-1], out=keep[1:])
    out: Codes = codes[keep]
    return out


def _member(sorted_codes: Codes, codes: Codes) -> npt.NDArray[np.bool_]:
    """Whether each of ``codes`` is in the sorted array ``sorted_codes``."""
    if sorted_codes.size == 0:
        return np.zeros(codes.shape[0], dtype=bool)
    at = np.searchsorted(sorted_codes, codes)
    at[at == sorted_codes.size] = 0
    hit: npt.NDArray[np.bool_] = sorted_codes[at] == codes
    return hit


def _step(before: State, after: State) -> tuple[int, int]:
    """The move ``(from, to)`` that turns one placement into the next."""
    for old, new in zip(before, after, strict=True):
        if old != new:
            gone = set(old) - set(new)
            came = set(new) - set(old)
            return gone.pop(), came.pop()
    raise ValueError("the two placements are the same")


def solve(instance: SwapInstance, run: Run) -> Swap:
    """The ``bfs`` engine: the fewest moves, proved by breadth-first search.

    Raises:
        NoPathError: the goal cannot be reached (every placement the start
            reaches was searched).
        SolveLimitError: the limit came first (with the proved lower bound).
        ModelTooBigError: the next level would pass the memory budget (the
            levels in 64-bit codes: before each is made), or, for a placement
            past 64 bits (searched one at a time), more placements than
            memory holds (refused first).
    """
    bound = lower_bound(instance)
    start, goal = instance.nodes(instance.start), instance.nodes(instance.goal)
    packing = Packing(instance)
    if not packing.fits:
        instance.require_states()
        return _plain_search(instance, run, start, goal, bound)
    a, b = packing.code_of(start), packing.code_of(goal)
    ahead = [np.array([a], dtype=np.uint64)]
    back = [np.array([b], dtype=np.uint64)]
    reached = 2
    meet: int | None = a if a == b else None

    step = parity(instance)

    def check() -> None:
        # No level of one side met the last of the other: more than
        # (levels - 2) moves, and of the parity every answer has.
        proved = max(bound, len(ahead) + len(back) - 1)
        if step is not None and proved % 2 != step:
            proved += 1
        run.check("searching placements", effort=Effort(attempts=reached), bound=proved)

    while meet is None:
        check()
        grow, other = (
            (ahead, back) if ahead[-1].size <= back[-1].size else (back, ahead)
        )
        refuse_over_budget(
            packing.level_bytes(grow[-1].size) + 8 * reached,
            f"the breadth-first search of {instance.describe()}, at depth "
            f"{len(grow)} from the {'start' if grow is ahead else 'goal'} "
            f"({grow[-1].size:,} placements to expand, {reached:,} held)",
            "use --method cpsat",
        )
        level = packing.expand(grow[-1], check)
        level = level[~_member(grow[-1], level)]
        if len(grow) > 1:
            level = level[~_member(grow[-2], level)]
        if level.size == 0:
            raise NoPathError(
                f"no swap: the goal is not reachable ({reached:,} placements searched)",
                effort=Effort(attempts=reached),
                bound=None,
            )
        reached += int(level.size)
        grow.append(level)
        common = level[_member(other[-1], level)]
        if common.size:
            meet = int(common[0])
    path = _back_to(packing, ahead, meet)[::-1] + _back_to(packing, back, meet)[1:]
    states = [packing.state_of(code) for code in path]
    return _fewest(instance, states, run, least=bound, searched=reached)


def _fewest(
    instance: SwapInstance, states: list[State], run: Run, *, least: int, searched: int
) -> Swap:
    """The swap through ``states`` (start to goal), proved fewest by the search."""
    steps = [_step(x, y) for x, y in pairwise(states)]
    return make_swap(
        instance,
        steps,
        status="optimal",
        bound=len(steps),
        method="bfs",
        started=run.clock.started,
        least=least,
        effort=Effort(attempts=searched),
    )


def _back_to(packing: Packing, levels: list[Codes], code: int) -> list[int]:
    """The codes from ``code`` (in the last level) back to the level-0 placement."""
    depth = next(d for d in range(len(levels)) if _member(levels[d], _one(code))[0])
    path = [code]
    for d in range(depth - 1, -1, -1):
        around = packing.expand(_one(path[-1]))
        inside = around[_member(levels[d], around)]
        path.append(int(inside[0]))
    return path


def _one(code: int) -> Codes:
    return np.array([code], dtype=np.uint64)


def _plain_search(
    instance: SwapInstance, run: Run, start: State, goal: State, bound: int
) -> Swap:
    """Breadth-first search one placement at a time (placements past 64 bits)."""
    graph = instance.graph
    near = [graph.neighbors(u).tolist() for u in range(graph.n_nodes)]
    parent: dict[State, State | None] = {start: None}
    queue = deque([start])
    while queue and goal not in parent:
        if len(parent) % 4096 == 0:
            run.check("searching placements", effort=Effort(attempts=len(parent)))
        state = queue.popleft()
        taken = {n for group in state for n in group}
        for g, group in enumerate(state):
            for i, u in enumerate(group):
                for v in near[u]:
                    if v in taken:
                        continue
                    moved = tuple(sorted((*group[:i], v, *group[i + 1 :])))
                    nxt = (*state[:g], moved, *state[g + 1 :])
                    if nxt not in parent:
                        parent[nxt] = state
                        queue.append(nxt)
    if goal not in parent:
        raise NoPathError(
            f"no swap: the goal is not reachable ({len(parent):,} placements searched)",
            effort=Effort(attempts=len(parent)),
        )
    path: list[State] = [goal]
    while (up := parent[path[-1]]) is not None:
        path.append(up)
    path.reverse()
    return _fewest(instance, path, run, least=bound, searched=len(parent))
