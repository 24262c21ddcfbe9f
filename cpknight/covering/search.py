"""The covering puzzles by branch and bound: the search the 0/1 programs replace.

Cells are bits of Python ints (one int is a set of cells).

**Dominating, total, independent** (minimise): take the undominated cell with
the fewest cells left that could dominate it, and branch on each of them in
turn, the earlier ones forbidden in the later branches (so every placement is
reached exactly once, which makes the count exact). An independent placement
also forbids the cells a new knight attacks. The *cover bound* prunes: the
knights still needed are at least the size of a set of undominated cells no
two of which one knight can dominate (found greedily), and at least the
undominated cells divided by the most any one knight dominates.

**Independent set** (maximise): take the free cell with the most free
neighbours; branch on taking it (its neighbours leave) or not. The bound: the
free cells less a greedy matching among them (each matched pair holds one
knight at most).

Counting keeps every placement of the best size. With symmetry breaking the
count is of classes (each placement's least image under the board's
symmetries), as the models count them; the search itself does not use them.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import KNIGHT
    >>> from cpknight.solving import SolveOptions
    >>> inst = CoverInstance(board=Board.parse("3x3"), piece=KNIGHT,
    ...                      kind="dominating", count=True)
    >>> c = solve(inst, SolveOptions().start())
    >>> c.size, c.count  # OEIS A006075(3) = 4, A103315(3) = 8
    (4, 8)
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from cpknight.covering.common import (
    Cover,
    CoverInstance,
    PlacementClasses,
    make_cover,
    maximises,
)
from cpknight.errors import NoPathError, SolveLimitError
from cpknight.solving import Run
from cpknight.status import Effort

__all__ = ["solve"]

CHECK_EVERY = 4096
"""Search nodes between two looks at the run's clock."""


class _Stop(Exception):
    """The run's clock expired inside the search."""


class _Search:
    """The state of one branch and bound run (bit sets of cells)."""

    def __init__(self, instance: CoverInstance, run: Run) -> None:
        graph = instance.graph
        n = graph.n_nodes
        self.n = n
        self.run = run
        self.kind = instance.kind
        self.counting = instance.count
        self.near = [0] * n  # the cells one move away, as a bit set
        for v in range(n):
            for u in graph.neighbors(v).tolist():
                self.near[v] |= 1 << int(u)
        if self.kind == "total":
            self.covers = list(self.near)  # what a knight on v dominates
        else:
            self.covers = [self.near[v] | (1 << v) for v in range(n)]
        self.most = max((c.bit_count() for c in self.covers), default=1) or 1
        self.nodes = 0
        self.backtracks = 0
        self.best: list[int] | None = None
        self.best_size = n + 1 if not maximises(self.kind) else -1
        self.found: list[list[int]] = []

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and self.run.expired():
            raise _Stop

    def record(self, chosen: list[int]) -> None:
        size = len(chosen)
        better = (
            size > self.best_size if maximises(self.kind) else size < self.best_size
        )
        if better:
            self.best, self.best_size = list(chosen), size
            self.found = [list(chosen)]
        elif size == self.best_size and self.counting:
            self.found.append(list(chosen))

    # -------------------------------------------------------- minimising

    def need(self, undominated: int, allowed: int) -> int:
        """A lower bound on the knights still needed (the cover bound)."""
        packed = 0
        used = 0
        rest = undominated
        while rest:
            low = rest & -rest
            v = low.bit_length() - 1
            rest ^= low
            who = self.covers[v] & allowed  # covers is symmetric: who dominates v
            if not who & used:
                used |= who
                packed += 1
        spread = -(-undominated.bit_count() // self.most)
        return max(packed, spread)

    def dominate(self, chosen: list[int], undominated: int, allowed: int) -> None:
        self.tick()
        if not undominated:
            self.record(chosen)
            return
        slack = 0 if self.counting else 1  # counting keeps ties with the best
        if len(chosen) + self.need(undominated, allowed) > self.best_size - slack:
            self.backtracks += 1
            return
        # the undominated cell with the fewest possible dominators
        pick, options = -1, -1
        rest = undominated
        while rest:
            low = rest & -rest
            v = low.bit_length() - 1
            rest ^= low
            who = self.covers[v] & allowed
            k = who.bit_count()
            if k == 0:
                self.backtracks += 1
                return
            if options < 0 or k < options:
                pick, options = v, k
                if k == 1:
                    break
        who = self.covers[pick] & allowed
        order = []
        while who:
            low = who & -who
            c = low.bit_length() - 1
            who ^= low
            order.append(((self.covers[c] & undominated).bit_count(), c))
        order.sort(reverse=True)
        independent = self.kind == "independent"
        for _, c in order:
            keep = allowed & ~(1 << c)
            if independent:
                keep &= ~self.near[c]
            chosen.append(c)
            self.dominate(chosen, undominated & ~self.covers[c], keep)
            chosen.pop()
            allowed &= ~(1 << c)  # later branches never use c: each set once

    # -------------------------------------------------------- maximising

    def room(self, free: int) -> int:
        """An upper bound on the knights that fit on ``free``: less a matching."""
        matched = 0
        pairs = 0
        rest = free
        while rest:
            low = rest & -rest
            v = low.bit_length() - 1
            rest ^= low
            if matched >> v & 1:
                continue
            mate = self.near[v] & free & ~matched
            if mate:
                matched |= low | (mate & -mate)
                pairs += 1
        return free.bit_count() - pairs

    def pack(self, chosen: list[int], free: int) -> None:
        self.tick()
        if not free:
            self.record(chosen)
            return
        slack = 0 if self.counting else 1
        if len(chosen) + self.room(free) < self.best_size + slack:
            self.backtracks += 1
            return
        # free cells with no free neighbour go in every best placement
        rest, alone = free, []
        pick, most = -1, -1
        while rest:
            low = rest & -rest
            v = low.bit_length() - 1
            rest ^= low
            k = (self.near[v] & free).bit_count()
            if k == 0:
                alone.append(v)
            elif k > most:
                pick, most = v, k
        if alone:
            mask = sum(1 << v for v in alone)
            self.pack([*chosen, *alone], free & ~mask)
            return
        chosen.append(pick)
        self.pack(chosen, free & ~self.near[pick] & ~(1 << pick))
        chosen.pop()
        self.pack(chosen, free & ~(1 << pick))


def solve(instance: CoverInstance, run: Run) -> Cover:
    """Solve (and, if asked, count) a covering question by branch and bound.

    Raises:
        NoPathError: proved that there is no such placement.
        SolveLimitError: the limit came before any placement.
    """
    started = time.perf_counter()
    search = _Search(instance, run)
    full = (1 << search.n) - 1
    maximise = maximises(instance.kind)
    stopped = False
    try:
        if maximise:
            search.pack([], full)
        else:
            search.dominate([], full, full)
    except _Stop:
        stopped = True
    effort = Effort(attempts=search.nodes, backtracks=search.backtracks)
    if search.best is None:
        if stopped:
            raise SolveLimitError(
                f"no {instance.describe()} found by the limit", effort=effort
            )
        raise NoPathError(
            f"no {instance.describe()} exists (the search proved it)", effort=effort
        )
    count = at_least = None
    if instance.count:
        number = (
            _classes(instance, search.found) if instance.symmetry else len(search.found)
        )
        count, at_least = (None, number) if stopped else (number, None)
    # stopped midway, the search has proved the root's bound only
    root = search.room(full) if maximise else search.need(full, full)
    bound = root if stopped else search.best_size
    return make_cover(
        instance,
        search.best,
        status="feasible" if stopped else "optimal",
        bound=bound,
        method="search",
        started=started,
        effort=Effort(
            attempts=search.nodes,
            backtracks=search.backtracks,
            solutions=len(search.found) if instance.count else None,
        ),
        count=count,
        count_at_least=at_least,
    )


def _classes(instance: CoverInstance, placements: Sequence[Sequence[int]]) -> int:
    """How many placements are left when images under a symmetry are one."""
    classes = PlacementClasses(instance)
    for placement in placements:
        classes.add(placement)
    return len(classes)
