"""Routes by search: Held-Karp for walks, IDA* for simple routes.

A walk through the food is a travelling-salesman path over the BFS distances
between terminals: Held-Karp's dynamic program solves it exactly up to
:data:`~cpknight.routes.common.DP_FOOD_LIMIT` food cells. A simple route (no
cell twice) is searched cell by cell by IDA*, with the Held-Karp bound as its
heuristic; exhausting the search proves there is none.

Examples:
    >>> from cpknight import collect
    >>> r = collect("8x8", "a1", ["h8", "a8", "h1", "d4"], method="search")
    >>> str(r.status), r.moves
    ('optimal', 15)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from cpknight.errors import (
    NoPathError,
    SolveLimitError,
)
from cpknight.solving import Run
from cpknight.status import Effort

if TYPE_CHECKING:
    import numpy.typing as npt

    pass

from cpknight.results import Route
from cpknight.routes.common import (
    DP_FOOD_LIMIT,
    Instance,
    Prepared,
    expand,
    finish_node,
    greedy_fallback,
    greedy_route,
    greedy_simple,
    prepare,
    route_of,
)
from cpknight.routes.instance import RouteInstance

# --------------------------------------------------------- search: the walk


def _held_karp(
    inst: Instance, dist: dict[int, npt.NDArray[np.int32]], run: Run
) -> tuple[list[int], int] | None:
    """The exact order of the food by Held-Karp; ``None`` past the time limit."""
    food = list(inst.food)
    k = len(food)
    s, e = inst.start, finish_node(inst)
    d = np.array([[int(dist[a][b]) for b in food] for a in food], dtype=np.int64)
    first = np.array([int(dist[f][s]) for f in food], dtype=np.int64)
    last = np.array([int(dist[f][e]) if e >= 0 else 0 for f in food], dtype=np.int64)
    if k == 0:
        return [s, e] if e >= 0 else [s], int(dist[s][e]) if e >= 0 else 0
    table = _hk_table(d, first, run)
    if table is None:
        return None
    dp, parent = table
    size = 1 << k
    total = dp[size - 1] + last
    j = int(np.argmin(total))
    cost = int(total[j])
    order: list[int] = []
    mask = size - 1
    while j >= 0:
        order.append(food[j])
        prev_j = int(parent[mask, j])
        mask ^= 1 << j
        j = prev_j
    order = [s, *order[::-1]]
    if e >= 0:
        order.append(e)
    return order, cost


def _hk_table(
    d: npt.NDArray[np.int64], first: npt.NDArray[np.int64], run: Run
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int8]] | None:
    """Held-Karp's table: shortest walks from an origin through sets of food.

    ``dp[mask, j]`` is the shortest walk from the origin through the food in
    ``mask`` ending on food ``j`` (``first[j]`` from the origin to ``j``, ``d``
    between food); ``parent[mask, j]`` the food before ``j`` (-1 for the first).

    ``None`` when the time limit passes first.
    """
    k = len(first)
    size = 1 << k
    dp = np.full((size, k), np.int64(1 << 40), dtype=np.int64)
    parent = np.full((size, k), -1, dtype=np.int8)
    for j in range(k):
        dp[1 << j, j] = first[j]
    masks = np.arange(size, dtype=np.int64)
    popcount = np.zeros(size, dtype=np.int64)
    for j in range(k):
        popcount += (masks >> j) & 1
    for p in range(2, k + 1):
        if run.expired():
            return None
        layer = masks[popcount == p]
        for j in range(k):
            with_j = layer[((layer >> j) & 1) == 1]
            prev = with_j ^ (1 << j)
            cand = dp[prev] + d[:, j]
            best = np.argmin(cand, axis=1)
            dp[with_j, j] = cand[np.arange(len(with_j)), best]
            parent[with_j, j] = best
    return dp, parent


def _search_walk(
    inst: Instance,
    dist: dict[int, npt.NDArray[np.int32]],
    bound: int,
    run: Run,
) -> Route:
    started = run.clock.started
    if len(inst.food) <= DP_FOOD_LIMIT:
        found = _held_karp(inst, dist, run)
        if found is not None:
            order, cost = found
            nodes = expand(inst.graph, order, dist)
            return route_of(
                inst,
                nodes,
                status="optimal",
                bound=cost,
                method="search",
                started=started,
            )
    walk = greedy_route(inst, dist)
    assert walk is not None  # a walk never gets stuck
    status = "optimal" if len(walk) - 1 == bound else "feasible"
    return route_of(
        inst, walk, status=status, bound=bound, method="search", started=started
    )


# ----------------------------------------------------- search: the simple path


class _OutOfTime(Exception):
    pass


def _search_simple(
    inst: Instance,
    dist: dict[int, npt.NDArray[np.int32]],
    bound: int,
    run: Run,
) -> Route:
    """IDA*: depth-first search under a growing bound on the number of moves.

    A partial route's bound is its length plus the shortest *walk* on from its
    head through the food left to the end (Held-Karp over the food, computed
    once), its first leg measured by BFS through the cells not used yet. A
    partial route that can no longer reach some food is cut. When an iteration
    cuts nothing on the bound, the whole tree was seen: no simple route exists.
    """
    # The greedy route first, within the limit: at the limit it is handed back
    # at once (on 1000x1000 it takes about a second: too long to start then).
    try:
        greedy = greedy_simple(inst, run)
    except SolveLimitError:
        return _fallback(inst, None, bound, Effort(), run)
    search = _SimpleSearch(inst, dist, run)
    if run.expired():
        return _fallback(inst, greedy, bound, Effort(), run)
    limit = bound
    try:
        limit = max(bound, search.estimate(inst.start, search.all_food))
        while limit < _NEVER:
            got = search.dfs(inst.start, 0, search.all_food, limit)
            if got == 0:
                return route_of(
                    inst,
                    search.path,
                    status="optimal",
                    bound=len(search.path) - 1,
                    method="search",
                    started=run.clock.started,
                    effort=search.effort(),
                )
            limit = got
    except _OutOfTime:
        return _fallback(inst, greedy, limit, search.effort(), run)
    raise NoPathError(f"no {inst.describe()}: proved by exhaustive search")


class _SimpleSearch:
    """The state of the IDA* search for a simple route: the path, the cells used.

    Food is a bit mask (``left``: the food not eaten yet); :meth:`need` is the
    bound on the moves still needed, :meth:`cheap` its quick form over plain
    BFS distances, :meth:`estimate` its exact form over the cells not used.
    """

    def __init__(
        self, inst: Instance, dist: dict[int, npt.NDArray[np.int32]], run: Run
    ) -> None:
        graph = inst.graph
        self.run = run
        # Neighbours by slicing, not a list per node made up front (a million
        # lists on 1000x1000, seconds before the first look at the clock).
        self.flat, self.ptr = graph.indices.tolist(), graph.indptr.tolist()
        self.finish, self.closed, self.start = (
            finish_node(inst),
            inst.closed,
            inst.start,
        )
        self.food = food = list(inst.food)
        self.k = k = len(food)
        self.all_food = (1 << k) - 1
        self.bit = {f: 1 << i for i, f in enumerate(food)}
        finish = self.finish
        # rest[mask][j]: the shortest walk from food j through the food in mask
        # to the finish (by symmetry: from the finish through mask, ending on j).
        d = np.array([[int(dist[a][b]) for b in food] for a in food], dtype=np.int64)
        origin = np.array(
            [int(dist[f][finish]) if finish >= 0 else 0 for f in food], dtype=np.int64
        )
        table = _hk_table(d, origin, run) if 0 < k <= DP_FOOD_LIMIT else None
        self.rest: list[list[int]] | None = None if table is None else table[0].tolist()
        self.to_end: list[int] = origin.tolist()
        self.far: list[list[int]] = [dist[f].tolist() for f in food]
        self.end_far: list[int] = dist[finish].tolist() if finish >= 0 else []
        self.used = [False] * graph.n_nodes
        self.used[self.start] = True
        self.path = [self.start]
        self.attempts = 0
        self.backtracks = 0

    def effort(self) -> Effort:
        """What the search has counted so far."""
        return Effort(attempts=self.attempts, backtracks=self.backtracks)

    def need(self, left: int, level: Callable[[int], int]) -> int:
        """Moves still needed, given the first-leg distances ``level(food i)``."""
        if not left:
            return 0 if self.finish < 0 else level(-1)
        k, rest = self.k, self.rest
        if rest is not None:
            return min(level(i) + rest[left][i] for i in range(k) if left >> i & 1)
        to_end = self.to_end
        return max(level(i) + to_end[i] for i in range(k) if left >> i & 1)

    def cheap(self, here: int, left: int) -> int:
        """:meth:`need` over the plain BFS distances (cells used or not)."""
        far, end_far = self.far, self.end_far
        return self.need(left, lambda i: far[i][here] if i >= 0 else end_far[here])

    def estimate(self, here: int, left: int) -> int:
        """``need`` with BFS through unused cells; -1 if some target is cut off."""
        food, finish, run = self.food, self.finish, self.run
        flat, ptr, used = self.flat, self.ptr, self.used
        closed, start = self.closed, self.start
        targets = {food[i] for i in range(self.k) if left >> i & 1}
        if not left and finish >= 0:
            targets = {finish}
        level = {here: 0}
        frontier = [here]
        depth = 0
        found = len(targets & {here})
        while frontier and found < len(targets):
            if run.expired():  # one level can span the whole board
                raise _OutOfTime
            depth += 1
            nxt = []
            for u in frontier:
                for v in flat[ptr[u] : ptr[u + 1]]:
                    if v in level:
                        continue
                    if used[v] and not (closed and v == start and not left):
                        continue
                    level[v] = depth
                    if v in targets:
                        found += 1
                    nxt.append(v)
            frontier = nxt
        if found < len(targets):
            return -1
        return self.need(left, lambda i: level[food[i]] if i >= 0 else level[finish])

    def dfs(self, here: int, g: int, left: int, limit: int) -> int:
        """0 when found; else the smallest bound that was exceeded."""
        finish, closed, start = self.finish, self.closed, self.start
        if not left and (finish < 0 or (here == finish and g > 0)):
            return 0
        self.attempts += 1
        if self.run.expired():  # every attempt: each runs up to 8 estimates
            raise _OutOfTime
        used, bit, path = self.used, self.bit, self.path
        over = _NEVER
        options = []
        for v in self.flat[self.ptr[here] : self.ptr[here + 1]]:
            if used[v]:
                if closed and v == start and not left:
                    options.append((0, v))
                continue
            rest_v = left & ~bit.get(v, 0)
            if v == finish and not closed and rest_v:
                continue
            f = g + 1 + self.cheap(v, rest_v)
            if f > limit:
                over = min(over, f)
                continue
            used[v] = True
            h = self.estimate(v, rest_v)
            used[v] = False
            if h < 0:
                continue
            options.append((h, v))
        options.sort()
        for h, v in options:
            f = g + 1 + h
            if f > limit:
                over = min(over, f)
                continue
            path.append(v)
            if closed and v == start:
                return 0
            used[v] = True
            got = self.dfs(v, g + 1, left & ~bit.get(v, 0), limit)
            if got == 0:
                return 0
            over = min(over, got)
            path.pop()
            used[v] = False
            self.backtracks += 1
        return over


_NEVER = 1 << 30


def _fallback(
    inst: Instance, nodes: list[int] | None, bound: int, effort: Effort, run: Run
) -> Route:
    """At the limit: the greedy route found before the search, if there was one."""
    return greedy_fallback(
        inst,
        nodes,
        bound=bound,
        method="search",
        started=run.clock.started,
        effort=effort,
    )


def solve(instance: RouteInstance, run: Run) -> Route:
    """The ``search`` route engine (see the module notes).

    Raises:
        NoPathError: a food cell or the end cannot be reached, or (simple
            routes) exhausting the search proved there is no route.
        SolveLimitError: nothing found by the time limit (with the bound).
    """
    ready = prepare(instance, run, "search")
    if not isinstance(ready, Prepared):
        return ready
    if instance.simple:
        return _search_simple(ready.inst, ready.dist, ready.bound, run)
    return _search_walk(ready.inst, ready.dist, ready.bound, run)
