"""What every route engine shares: the instance, BFS distances, bounds, greedy.

The route question (the snake's meal): the shortest knight route from a start
cell through every food cell (optionally to a given end; a *simple* route uses
no cell twice). Every engine starts the same way: the food is checked reachable
(one BFS from the start), BFS distances are measured from every terminal, and a
lower bound on the number of moves is proved; the greedy order (nearest food
next) gives the baseline, the hints and the fallbacks.

Examples:
    >>> from cpknight import collect
    >>> collect("8x8", "a1", ["h8", "d4"], method="greedy").moves >= 6
    True
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from cpknight.board import Cell
from cpknight.errors import SolveLimitError
from cpknight.graph import bfs_levels, no_path_error, path_from_levels
from cpknight.pieces import (
    MoveGraph,
)
from cpknight.solving import FALLBACK_GRACE, Run
from cpknight.status import Effort

if TYPE_CHECKING:
    import numpy.typing as npt

    pass

from cpknight.checks import make_route
from cpknight.results import Route
from cpknight.routes.instance import RouteInstance

__all__ = ["DP_FOOD_LIMIT", "Prepared", "bounded_route", "greedy_fallback", "prepare"]


DP_FOOD_LIMIT = 16
"""The most food cells Held-Karp takes (``2**k * k`` states); past it, greedy."""


# ---------------------------------------------------------------- the instance


@dataclass(frozen=True)
class Instance:
    """Plain data for the engines: nodes of the move graph."""

    graph: MoveGraph
    start: int
    food: tuple[int, ...]  # to eat, without the start and the end
    end: int  # -1: the route may stop anywhere
    closed: bool  # end == start with food to eat: a cycle
    simple: bool
    cells: tuple[Cell, tuple[Cell, ...], Cell | None]  # start, food, end as given
    levels: npt.NDArray[np.int32] = field(repr=False, compare=False)  # from start

    @property
    def terminals(self) -> list[int]:
        """Start, food, and the end when it is a separate node."""
        out = [self.start, *self.food]
        if self.end >= 0 and not self.closed:
            out.append(self.end)
        return out

    @property
    def trivial(self) -> bool:
        """Nothing to eat and nowhere else to go: the route is the start alone."""
        return not self.food and (self.end < 0 or self.end == self.start)

    def describe(self) -> str:
        board, piece = self.graph.board, self.graph.piece
        start, food, end = self.cells
        to = "" if end is None else f" to {board.cell_name(end)}"
        kind = "simple route" if self.simple else "route"
        return (
            f"{kind} from {board.cell_name(start)} through {len(food)} food{to} "
            f"on board {board.label} ({piece.label})"
        )


def make_instance(
    graph: MoveGraph,
    start: Cell,
    food: Sequence[Cell],
    end: Cell | None,
    simple: bool,
    check: Callable[[str], None] | None = None,
) -> Instance:
    food_cells = tuple(dict.fromkeys(food))
    s = graph.node(start)
    e = -1 if end is None else graph.node(end)
    eat = tuple(
        n for n in dict.fromkeys(graph.node(f) for f in food_cells) if n not in (s, e)
    )
    closed = e == s and bool(eat)
    if e == s and not eat:
        e = -1
    levels = bfs_levels(graph, s, check=check)
    board, piece = graph.board, graph.piece
    for node, what in [(n, "food") for n in eat] + ([(e, "end")] if e >= 0 else []):
        if levels[node] < 0:
            raise no_path_error(board, piece, start, graph.cell(node), what=what)
    return Instance(graph, s, eat, e, closed, simple, (start, food_cells, end), levels)


def route_of(
    inst: Instance,
    nodes: Sequence[int],
    *,
    status: str,
    bound: int,
    method: str,
    started: float,
    effort: Effort | None = None,
) -> Route:
    start, food, end = inst.cells
    return make_route(
        inst.graph,
        nodes,
        start=start,
        food=food,
        end=end,
        simple=inst.simple,
        status=status,
        bound=bound,
        method=method,
        seconds=time.perf_counter() - started,
        effort=effort,
    )


# ------------------------------------------------------------------ the engines


@dataclass(frozen=True)
class Prepared:
    """A route question made ready for an engine: nodes, distances, a bound.

    Attributes:
        inst: the instance as move-graph nodes.
        dist: BFS levels from every terminal.
        bound: a proved lower bound on the number of moves.
    """

    inst: Instance
    dist: dict[int, npt.NDArray[np.int32]]
    bound: int


def prepare(instance: RouteInstance, run: Run, method: str) -> Prepared | Route:
    """Validate a route question once for any engine.

    Returns:
        The prepared question, or the answer itself when it is trivial
        (nothing to eat and nowhere else to go).

    Raises:
        NoPathError: a food cell or the end cannot be reached.
    """
    inst = make_instance(
        instance.graph, instance.start, instance.food, instance.end, instance.simple
    )
    if inst.trivial:
        return route_of(
            inst,
            [inst.start],
            status="optimal",
            bound=0,
            method=method,
            started=run.clock.started,
        )
    dist = terminal_distances(inst, run)
    return Prepared(inst, dist, _simple_bound(inst, dist))


def bounded_route(
    inst: Instance,
    nodes: Sequence[int],
    *,
    bound: int,
    method: str,
    started: float,
    effort: Effort | None = None,
) -> Route:
    """A route found without a proof: optimal only when it meets the bound."""
    status = "optimal" if len(nodes) - 1 == bound else "feasible"
    return route_of(
        inst,
        nodes,
        status=status,
        bound=bound,
        method=method,
        started=started,
        effort=effort,
    )


def greedy_fallback(
    inst: Instance,
    nodes: Sequence[int] | None,
    *,
    bound: int,
    method: str,
    started: float,
    effort: Effort,
) -> Route:
    """At the limit: the greedy route ``nodes`` handed back, with the bound.

    Its method is ``method`` with ``+greedy`` (``'cpsat+greedy'``).

    Raises:
        SolveLimitError: there is no greedy route (it got stuck, or the limit
            came before it).
    """
    if nodes is None:
        raise SolveLimitError(
            f"no {inst.describe()} found by the time limit; at least {bound} moves",
            bound=bound,
            effort=effort,
        )
    return bounded_route(
        inst,
        nodes,
        bound=bound,
        method=f"{method}+greedy",
        started=started,
        effort=effort,
    )


def terminal_distances(
    inst: Instance, run: Run | None = None
) -> dict[int, npt.NDArray[np.int32]]:
    """BFS levels from every terminal (the graph is symmetric: also *to* it).

    The start's levels are the ones :func:`make_instance` measured: one BFS per
    terminal in all, ``run``'s clock checked once per level.
    """

    def check(what: str) -> None:
        # the fallback routes need these distances: they get the grace too
        if run is not None:
            run.check(what, grace=FALLBACK_GRACE)

    return {
        n: inst.levels if n == inst.start else bfs_levels(inst.graph, n, check=check)
        for n in dict.fromkeys(inst.terminals)
    }


def finish_node(inst: Instance) -> int:
    """The node the route must end on, or -1."""
    return inst.start if inst.closed else inst.end


def _simple_bound(inst: Instance, dist: dict[int, npt.NDArray[np.int32]]) -> int:
    """A cheap lower bound on any route, simple or not.

    The larger of: the farthest food, there and on to the end; and the minimum
    spanning tree of the terminals under BFS distances (the route's legs
    between consecutive terminals form a spanning tree of them).
    """
    s, e = inst.start, finish_node(inst)
    if not inst.food:
        return int(dist[s][e]) if e >= 0 else 0
    far = max(int(dist[f][s]) + (int(dist[f][e]) if e >= 0 else 0) for f in inst.food)
    nodes = inst.terminals
    weights = np.array([[dist[a][b] for b in nodes] for a in nodes], dtype=np.int64)
    # Prim's algorithm on the complete graph of the terminals.
    inside = np.zeros(len(nodes), dtype=bool)
    inside[0] = True
    best = weights[0].copy()
    tree = 0
    for _ in range(len(nodes) - 1):
        j = int(np.argmin(np.where(inside, np.iinfo(np.int64).max, best)))
        tree += int(best[j])
        inside[j] = True
        best = np.minimum(best, weights[j])
    return max(far, tree)


def expand(
    graph: MoveGraph,
    order: Sequence[int],
    dist: dict[int, npt.NDArray[np.int32]],
) -> list[int]:
    """Join consecutive terminals by BFS shortest paths.

    Each leg ``a -> b`` walks down the levels from ``b`` already in ``dist``
    (the path :func:`~cpknight.graph.bfs_path` would give), so no leg
    runs a BFS of its own unless ``b`` has no levels there.
    """
    nodes = [order[0]]
    for a, b in itertools.pairwise(order):
        if a == b:
            continue
        levels = dist.get(b)
        if levels is None:
            levels = bfs_levels(graph, b, target=a)
        nodes.extend(path_from_levels(graph, levels, a)[1:])
    return nodes


def greedy_route(
    inst: Instance, dist: dict[int, npt.NDArray[np.int32]]
) -> list[int] | None:
    if inst.simple:
        return greedy_simple(inst)
    return expand(inst.graph, greedy_order(inst, dist), dist)


def greedy_order(inst: Instance, dist: dict[int, npt.NDArray[np.int32]]) -> list[int]:
    """The walk's terminals in greedy order: the start, nearest food next, the end."""
    order = [inst.start]
    left = list(inst.food)
    while left:
        here = order[-1]
        nxt = min(left, key=lambda f: int(dist[f][here]))
        order.append(nxt)
        left.remove(nxt)
    if finish_node(inst) >= 0:
        order.append(finish_node(inst))
    return order


def greedy_simple(
    inst: Instance, run: Run | None = None, *, grace: float = 0.0
) -> list[int] | None:
    """Nearest food by BFS through unused cells; ``None`` when stuck.

    ``run``'s clock is checked once per BFS level; ``grace`` seconds past the
    limit are allowed (the greedy route is what an engine hands back when the
    limit came first), then :class:`SolveLimitError`.
    """
    graph = inst.graph
    used = np.zeros(graph.n_nodes, dtype=bool)
    used[inst.start] = True
    finish = finish_node(inst)
    route = [inst.start]
    left = set(inst.food)
    while True:
        targets = left if left else ({finish} if finish >= 0 else set())
        if not targets:
            return route
        avoid = used.copy()
        if left and finish >= 0:
            avoid[finish] = True  # the end is entered last
        if not left and finish == inst.start:
            avoid[finish] = False
        path = _bfs_to_nearest(graph, route[-1], targets, avoid, run, grace)
        if path is None:
            return None
        for node in path[1:]:
            route.append(node)
            used[node] = True
            left.discard(node)
        if not left and route[-1] == finish:
            return route
        if not left and finish < 0:
            return route


def _bfs_to_nearest(
    graph: MoveGraph,
    source: int,
    targets: set[int],
    avoid: npt.NDArray[np.bool_],
    run: Run | None = None,
    grace: float = 0.0,
) -> list[int] | None:
    """A shortest path to the nearest target through cells not avoided.

    Level by level in numpy: each level's neighbours in the order a plain
    queue would meet them (frontier order, then each cell's arcs in order),
    so the target met first, and every parent, are the queue's own.
    """
    indptr, indices = graph.indptr, graph.indices
    parent = np.full(graph.n_nodes, -1, dtype=np.int64)
    seen = avoid.copy()
    seen[source] = True
    wanted = np.zeros(graph.n_nodes, dtype=bool)
    wanted[list(targets)] = True
    stamp = np.zeros(graph.n_nodes, dtype=np.int64)
    frontier = np.array([source], dtype=np.int64)
    while frontier.size:
        if run is not None:
            run.check("following the greedy route", grace=grace)
        starts = indptr[frontier].astype(np.int64)
        counts = indptr[frontier + 1].astype(np.int64) - starts
        total = int(counts.sum())
        if not total:
            return None
        # positions of every arc of the frontier, frontier order kept
        offsets = np.repeat(starts - np.cumsum(counts) + counts, counts)
        arcs = offsets + np.arange(total, dtype=np.int64)
        heads = indices[arcs].astype(np.int64)
        tails = np.repeat(frontier, counts)
        fresh = ~seen[heads]
        heads, tails = heads[fresh], tails[fresh]
        # keep the first arc into each new cell, in queue order: each cell's
        # stamp becomes the least position of an arc into it
        at = np.arange(heads.size, dtype=np.int64)
        stamp[heads] = heads.size
        np.minimum.at(stamp, heads, at)
        first = stamp[heads] == at
        heads, tails = heads[first], tails[first]
        parent[heads] = tails
        seen[heads] = True
        hits = np.flatnonzero(wanted[heads])
        if hits.size:
            path = [int(heads[hits[0]])]
            while path[-1] != source:
                path.append(int(parent[path[-1]]))
            return path[::-1]
        frontier = heads
    return None
