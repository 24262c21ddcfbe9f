"""The snake's meal: the shortest route through required cells (the food).

A leaper starts on ``start`` and must pass through every food cell, ending on
``end`` if one is given, in as few moves as possible: a travelling-salesman
problem on the move graph. Two variants:

- **walk** (default): cells may be revisited. The answer is a shortest order of
  the food, each leg a BFS shortest path.
- **simple** (the snake that must not cross its own body): no cell twice (when
  ``end == start`` the route is a closed cycle and only the start repeats, once,
  at the end).

Engines, side by side:

- ``cpsat``: CP-SAT ``add_circuit``. The walk is a circuit over the start, the
  food and the end, weighted by BFS distances; the simple variant is a circuit
  over every cell of the start's component with a self-loop literal for each
  cell left out, a dummy node closing the open route, and the number of move
  arcs minimised (see :func:`build_collect_model`).
- ``search``: exact by search. The walk by Held and Karp's dynamic program over
  (set of food eaten, last food) with BFS distances, for at most
  :data:`DP_FOOD_LIMIT` food cells (past it, the greedy route, marked
  ``feasible``); the simple variant by iterative-deepening depth-first search
  (IDA*) whose bound is BFS in the cells not yet used, exact but exponential:
  boards of a few dozen cells.
- ``greedy``: always go to the nearest food next (the simple variant avoids its
  own body and may get stuck). The quick baseline.

Every route goes through :func:`check_route` (via :func:`make_route`) before it
is returned.

Examples:
    >>> from cpknight import collect
    >>> r = collect("8x8", "a1", ["h8", "a8"], method="search")
    >>> r.status, r.moves, r.names()[0]  # a1 to a8 is 5 moves, a8 to h8 is 5
    ('optimal', 10, 'a1')
    >>> is_route(r.board, r.cells, start="a1", food=["h8", "a8"])
    True

References:
    M. Held and R. M. Karp, "A dynamic programming approach to sequencing
    problems", J. SIAM 10 (1962) 196-210.
    R. E. Korf, "Depth-first iterative-deepening: an optimal admissible tree
    search", Artificial Intelligence 27 (1985) 97-109.
"""

from __future__ import annotations

from typing import TYPE_CHECKING as _TYPE_CHECKING

if _TYPE_CHECKING:
    from cpknight.engines import RouteInstance
    from cpknight.solving import Run

import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from cpknight.board import Board, Cell, CellLike
from cpknight.checks import cell_array, check_cells, check_end_cell, check_steps
from cpknight.errors import (
    EngineError,
    InvalidCellError,
    InvalidInputError,
    NoPathError,
    SolveLimitError,
    TourCheckError,
)
from cpknight.graph import bfs_levels, no_path_error, path_from_levels
from cpknight.pieces import (
    KNIGHT,
    Leaper,
    MoveGraph,
    PieceLike,
    as_piece,
    move_graph,
)
from cpknight.solving import (
    Deadline,
    SolveOptions,
    configure_cpsat,
    export_cpsat_model,
)
from cpknight.status import Effort

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = [
    "COLLECT_METHODS",
    "DP_FOOD_LIMIT",
    "CollectModel",
    "Route",
    "build_collect_model",
    "check_route",
    "collect_route",
    "is_route",
    "make_route",
]

COLLECT_METHODS = ("cpsat", "search", "greedy")
"""The route engines, by name."""

DP_FOOD_LIMIT = 16
"""The most food cells Held-Karp takes (``2**k * k`` states); past it, greedy."""

STATUSES = ("optimal", "feasible")


# ------------------------------------------------------------------ the result


@dataclass(frozen=True, eq=False)
class Route:
    """A checked route through the food (build with :func:`make_route`).

    Attributes:
        board: the board.
        piece: the leaper.
        start: the first cell.
        food: the cells to visit, without repeats, in the order given.
        end: the required last cell, or ``None``.
        simple: whether no cell may be used twice.
        cells: the route, start first; a walk may repeat cells.
        status: ``'optimal'`` (proved shortest) or ``'feasible'`` (the best
            found at the limit, or by the greedy baseline).
        moves: the number of moves, ``len(cells) - 1``.
        bound: a proved lower bound on the number of moves (``== moves`` when
            optimal).
        method: the engine that found it.
        seconds: wall time, model building included.
        effort: what the engine counted.
    """

    board: Board
    piece: Leaper
    start: Cell
    food: tuple[Cell, ...]
    end: Cell | None
    simple: bool
    cells: tuple[Cell, ...]
    status: str
    moves: int
    bound: int
    method: str
    seconds: float = 0.0
    effort: Effort = field(default_factory=Effort)

    @property
    def optimal(self) -> bool:
        """Whether the route is proved shortest."""
        return self.status == "optimal"

    def names(self) -> list[str]:
        """The route's cells by name."""
        return self.board.cell_names(self.cells)

    def eaten_at(self) -> dict[Cell, int]:
        """The step (0 = the start) at which each food cell is first reached."""
        first: dict[Cell, int] = {}
        for step, cell in enumerate(self.cells):
            first.setdefault(cell, step)
        return {f: first[f] for f in self.food}

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells)

    def __str__(self) -> str:
        from cpknight.render import route_text

        return route_text(self)

    def _repr_svg_(self) -> str:
        from cpknight.svg import route_svg

        return route_svg(self.board, self.cells, piece=self.piece, food=self.food)

    def __repr__(self) -> str:
        kind = "simple route" if self.simple else "route"
        return (
            f"<Route {self.status} {kind} {self.board.label} {self.piece.label} "
            f"{self.moves} moves through {len(self.food)} food by {self.method}>"
        )


# ----------------------------------------------------------------- the checker


def check_route(
    board: Board,
    cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]],
    *,
    start: CellLike,
    food: Sequence[CellLike] = (),
    end: CellLike | None = None,
    piece: PieceLike = KNIGHT,
    simple: bool = False,
) -> None:
    """Raise unless ``cells`` is a route from ``start`` through all the food.

    Args:
        board: the board (blocked cells and wrap are respected).
        cells: the route, start first: names, tuples or an ``(n, d)`` array.
        start: the required first cell.
        food: the cells the route must visit.
        end: if given, the required last cell.
        piece: the leaper.
        simple: no cell twice (except the start repeated once at the very end
            when ``end == start``).

    Raises:
        TourCheckError: the first fault found (``step`` its index): a cell off
            the board or blocked, a step that is not a move, the wrong start or
            end, a repeated cell in a simple route, a food cell never visited.

    Examples:
        >>> b = Board.parse("3x3")
        >>> check_route(b, ["a1", "b3", "c1"], start="a1", food=["c1"])
        >>> check_route(b, ["a1", "b3"], start="a1", food=["c1"])
        Traceback (most recent call last):
        ...
        cpknight.errors.TourCheckError: the route never visits food c1
    """
    leaper = as_piece(piece)
    board.require_finite("a route")
    leaper.check_dim(board.dim, board.label)
    array = _cell_array(board, cells)
    flat = check_cells(board, array, what="route")
    n = int(array.shape[0])
    want = check_end_cell(board, array, start, what="route", last=False)
    check_steps(board, leaper, array)
    last: Cell | None = None
    if end is not None:
        last = check_end_cell(board, array, end, what="route", last=True)
    if simple:
        body = flat[:-1] if last == want and n > 1 else flat
        _, first_at, counts = np.unique(body, return_index=True, return_counts=True)
        if (counts > 1).any():
            firsts = set(first_at.tolist())
            bad = next(i for i in range(len(body)) if i not in firsts)
            raise TourCheckError(
                f"cell {bad + 1} ({board.cell_name(array[bad])}) is used twice in "
                "a simple route",
                step=bad,
            )
    seen = set(flat.tolist())
    for item in food:
        cell = board.parse_cell(item)
        if board.index(cell) not in seen:
            raise TourCheckError(
                f"the route never visits food {board.cell_name(cell)}", step=None
            )


def is_route(
    board: Board,
    cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]],
    *,
    start: CellLike,
    food: Sequence[CellLike] = (),
    end: CellLike | None = None,
    piece: PieceLike = KNIGHT,
    simple: bool = False,
) -> bool:
    """Whether ``cells`` is a route through the food (see :func:`check_route`).

    Examples:
        >>> b = Board.parse("8x8")
        >>> is_route(b, ["a1", "b3", "a1"], start="a1", food=["b3"])
        True
        >>> is_route(b, ["a1", "b3", "a1"], start="a1", food=["b3"], simple=True)
        False
    """
    try:
        check_route(
            board, cells, start=start, food=food, end=end, piece=piece, simple=simple
        )
    except (TourCheckError, InvalidCellError):
        return False
    return True


def make_route(
    graph: MoveGraph,
    nodes: Sequence[int],
    *,
    start: Cell,
    food: Sequence[Cell],
    end: Cell | None,
    simple: bool,
    status: str,
    bound: int,
    method: str,
    seconds: float = 0.0,
    effort: Effort | None = None,
) -> Route:
    """Check a route an engine found (as move-graph nodes) and wrap it.

    This is the only way engines build routes. A route that fails the checker
    is a bug in the engine: the :class:`EngineError` says which.

    Raises:
        EngineError: the engine's answer is not a valid route, or its status
            and bound do not fit its length.

    Examples:
        >>> g = move_graph(Board.parse("3x3"), KNIGHT)
        >>> nodes = [g.node(c) for c in [(0, 0), (2, 1), (0, 2)]]
        >>> r = make_route(g, nodes, start=(0, 0), food=[(0, 2)], end=None,
        ...                simple=True, status="optimal", bound=2, method="hand")
        >>> r.moves, r.names()
        (2, ['a1', 'b3', 'c1'])
    """
    board = graph.board
    cells = tuple(graph.cell(int(n)) for n in nodes)
    moves = len(cells) - 1
    try:
        check_route(
            board,
            np.array(cells, dtype=np.int64).reshape(-1, board.dim),
            start=start,
            food=food,
            end=end,
            piece=graph.piece,
            simple=simple,
        )
    except TourCheckError as exc:
        raise EngineError(
            f"internal error: engine {method!r} returned a bad route: {exc}"
        ) from exc
    if (
        status not in STATUSES
        or bound > moves
        or (status == "optimal" and bound != moves)
    ):
        raise EngineError(
            f"internal error: engine {method!r} returned a route of {moves} moves "
            f"marked {status!r} with bound {bound}"
        )
    return Route(
        board=board,
        piece=graph.piece,
        start=start,
        food=tuple(food),
        end=end,
        simple=simple,
        cells=cells,
        status=status,
        moves=moves,
        bound=int(bound),
        method=method,
        seconds=float(seconds),
        effort=effort or Effort(),
    )


def _cell_array(
    board: Board, cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]]
) -> npt.NDArray[np.int64]:
    if isinstance(cells, np.ndarray):
        return cell_array(board, cells)
    rows: list[Cell] = []
    for i, cell in enumerate(cells):
        try:
            parsed = board.parse_cell(cell, allow_blocked=True)
        except InvalidCellError as exc:
            raise TourCheckError(f"cell {i + 1}: {exc}", step=i) from None
        rows.append(parsed)
    return np.array(rows, dtype=np.int64).reshape(-1, board.dim)


# ---------------------------------------------------------------- the instance


@dataclass(frozen=True)
class _Instance:
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


def _instance(
    graph: MoveGraph,
    start: Cell,
    food: Sequence[Cell],
    end: Cell | None,
    simple: bool,
) -> _Instance:
    food_cells = tuple(dict.fromkeys(food))
    s = graph.node(start)
    e = -1 if end is None else graph.node(end)
    eat = tuple(
        n for n in dict.fromkeys(graph.node(f) for f in food_cells) if n not in (s, e)
    )
    closed = e == s and bool(eat)
    if e == s and not eat:
        e = -1
    levels = bfs_levels(graph, s)
    board, piece = graph.board, graph.piece
    for node, what in [(n, "food") for n in eat] + ([(e, "end")] if e >= 0 else []):
        if levels[node] < 0:
            raise no_path_error(board, piece, start, graph.cell(node), what=what)
    return _Instance(graph, s, eat, e, closed, simple, (start, food_cells, end), levels)


def _route(
    inst: _Instance,
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


def collect_route(
    graph: MoveGraph,
    start: Cell,
    food: Sequence[Cell],
    *,
    end: Cell | None = None,
    simple: bool = False,
    method: str = "cpsat",
    options: SolveOptions | None = None,
    deadline: Deadline | None = None,
) -> Route:
    """The engine behind :func:`cpknight.collect`, on validated cells.

    Args:
        graph: the move graph.
        start: the first cell (open).
        food: the cells to visit (open).
        end: the required last cell, or ``None``.
        simple: no cell twice.
        method: ``'cpsat'``, ``'search'`` or ``'greedy'``.
        options: time limit, workers, seed.
        deadline: a started deadline (default: start one from ``options``).

    Returns:
        The checked route.

    Raises:
        NoPathError: proved impossible: a food cell or the end unreachable, or
            no simple route.
        SolveLimitError: nothing found by the limit (``partial`` is ``None``;
            ``details['bound']`` the lower bound proved so far).
        InvalidInputError: an unknown method.

    Examples:
        >>> g = move_graph(Board.parse("5x5"), KNIGHT)
        >>> r = collect_route(g, (0, 0), [(4, 4), (0, 4)], method="greedy")
        >>> r.status in ("optimal", "feasible"), r.cells[0]
        (True, (0, 0))
    """
    if method not in COLLECT_METHODS:
        raise InvalidInputError(
            f"expected a collect method in {', '.join(COLLECT_METHODS)}: {method!r}"
        )
    opts = options or SolveOptions()
    clock = deadline or opts.deadline()
    started = clock.started
    inst = _instance(graph, start, food, end, simple)
    if inst.trivial:
        return _route(
            inst,
            [inst.start],
            status="optimal",
            bound=0,
            method=method,
            started=started,
        )
    dist = _distances(inst)
    bound = _simple_bound(inst, dist)
    if method == "greedy":
        nodes = _greedy(inst, dist)
        if nodes is None:
            raise SolveLimitError(
                f"the greedy {inst.describe()} got stuck", bound=bound
            )
        status = "optimal" if len(nodes) - 1 == bound else "feasible"
        return _route(
            inst, nodes, status=status, bound=bound, method=method, started=started
        )
    if method == "search":
        if simple:
            return _search_simple(inst, dist, bound, clock)
        return _search_walk(inst, dist, bound, clock)
    return _solve_cpsat(inst, dist, bound, opts, clock)


def _distances(inst: _Instance) -> dict[int, npt.NDArray[np.int32]]:
    """BFS levels from every terminal (the graph is symmetric: also *to* it).

    The start's levels are the ones :func:`_instance` measured: one BFS per
    terminal in all.
    """
    return {
        n: inst.levels if n == inst.start else bfs_levels(inst.graph, n)
        for n in dict.fromkeys(inst.terminals)
    }


def _finish(inst: _Instance) -> int:
    """The node the route must end on, or -1."""
    return inst.start if inst.closed else inst.end


def _simple_bound(inst: _Instance, dist: dict[int, npt.NDArray[np.int32]]) -> int:
    """A cheap lower bound on any route, simple or not.

    The larger of: the farthest food, there and on to the end; and the minimum
    spanning tree of the terminals under BFS distances (the route's legs
    between consecutive terminals form a spanning tree of them).
    """
    s, e = inst.start, _finish(inst)
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


def _expand(
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


def _greedy(
    inst: _Instance, dist: dict[int, npt.NDArray[np.int32]]
) -> list[int] | None:
    if inst.simple:
        return _greedy_simple(inst)
    return _expand(inst.graph, _greedy_order(inst, dist), dist)


def _greedy_order(inst: _Instance, dist: dict[int, npt.NDArray[np.int32]]) -> list[int]:
    """The walk's terminals in greedy order: the start, nearest food next, the end."""
    order = [inst.start]
    left = list(inst.food)
    while left:
        here = order[-1]
        nxt = min(left, key=lambda f: int(dist[f][here]))
        order.append(nxt)
        left.remove(nxt)
    if _finish(inst) >= 0:
        order.append(_finish(inst))
    return order


def _greedy_simple(inst: _Instance) -> list[int] | None:
    """Nearest food by BFS through unused cells; ``None`` when stuck."""
    graph = inst.graph
    used = np.zeros(graph.n_nodes, dtype=bool)
    used[inst.start] = True
    finish = _finish(inst)
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
        path = _bfs_to_nearest(graph, route[-1], targets, avoid)
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
    graph: MoveGraph, source: int, targets: set[int], avoid: npt.NDArray[np.bool_]
) -> list[int] | None:
    """A shortest path to the nearest target through cells not avoided."""
    parent = {source: -1}
    frontier = [source]
    indptr, indices = graph.indptr, graph.indices
    while frontier:
        nxt: list[int] = []
        for u in frontier:
            for v in indices[indptr[u] : indptr[u + 1]].tolist():
                if v in parent or avoid[v]:
                    continue
                parent[v] = u
                if v in targets:
                    path = [v]
                    while parent[path[-1]] >= 0:
                        path.append(parent[path[-1]])
                    return path[::-1]
                nxt.append(v)
        frontier = nxt
    return None


# --------------------------------------------------------- search: the walk


def _held_karp(
    inst: _Instance, dist: dict[int, npt.NDArray[np.int32]], clock: Deadline
) -> tuple[list[int], int] | None:
    """The exact order of the food by Held-Karp; ``None`` past the deadline."""
    food = list(inst.food)
    k = len(food)
    s, e = inst.start, _finish(inst)
    d = np.array([[int(dist[a][b]) for b in food] for a in food], dtype=np.int64)
    first = np.array([int(dist[f][s]) for f in food], dtype=np.int64)
    last = np.array([int(dist[f][e]) if e >= 0 else 0 for f in food], dtype=np.int64)
    if k == 0:
        return [s, e] if e >= 0 else [s], int(dist[s][e]) if e >= 0 else 0
    table = _hk_table(d, first, clock)
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
    d: npt.NDArray[np.int64], first: npt.NDArray[np.int64], clock: Deadline
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int8]] | None:
    """Held-Karp's table: shortest walks from an origin through sets of food.

    ``dp[mask, j]`` is the shortest walk from the origin through the food in
    ``mask`` ending on food ``j`` (``first[j]`` from the origin to ``j``, ``d``
    between food); ``parent[mask, j]`` the food before ``j`` (-1 for the first).

    ``None`` when the deadline passes first.
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
        if clock.expired():
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
    inst: _Instance,
    dist: dict[int, npt.NDArray[np.int32]],
    bound: int,
    clock: Deadline,
) -> Route:
    started = clock.started
    if len(inst.food) <= DP_FOOD_LIMIT:
        found = _held_karp(inst, dist, clock)
        if found is not None:
            order, cost = found
            nodes = _expand(inst.graph, order, dist)
            return _route(
                inst,
                nodes,
                status="optimal",
                bound=cost,
                method="search",
                started=started,
            )
    walk = _greedy(inst, dist)
    assert walk is not None  # a walk never gets stuck
    status = "optimal" if len(walk) - 1 == bound else "feasible"
    return _route(
        inst, walk, status=status, bound=bound, method="search", started=started
    )


# ----------------------------------------------------- search: the simple path


class _OutOfTime(Exception):
    pass


def _search_simple(
    inst: _Instance,
    dist: dict[int, npt.NDArray[np.int32]],
    bound: int,
    clock: Deadline,
) -> Route:
    """IDA*: depth-first search under a growing bound on the number of moves.

    A partial route's bound is its length plus the shortest *walk* on from its
    head through the food left to the end (Held-Karp over the food, computed
    once), its first leg measured by BFS through the cells not used yet. A
    partial route that can no longer reach some food is cut. When an iteration
    cuts nothing on the bound, the whole tree was seen: no simple route exists.
    """
    graph = inst.graph
    started = clock.started
    # Neighbours by slicing, not a list per node made up front (a million
    # lists on 1000x1000, seconds before the first look at the clock).
    flat, ptr = graph.indices.tolist(), graph.indptr.tolist()
    finish, closed, start = _finish(inst), inst.closed, inst.start
    food = list(inst.food)
    k = len(food)
    bit = {f: 1 << i for i, f in enumerate(food)}
    # rest[mask][j]: the shortest walk from food j through the food in mask to
    # the finish (by symmetry: from the finish through mask, ending on j).
    d = np.array([[int(dist[a][b]) for b in food] for a in food], dtype=np.int64)
    origin = np.array(
        [int(dist[f][finish]) if finish >= 0 else 0 for f in food], dtype=np.int64
    )
    table = _hk_table(d, origin, clock) if 0 < k <= DP_FOOD_LIMIT else None
    rest: list[list[int]] | None = None if table is None else table[0].tolist()
    to_end: list[int] = origin.tolist()
    far: list[list[int]] = [dist[f].tolist() for f in food]
    end_far: list[int] = dist[finish].tolist() if finish >= 0 else []
    used = [False] * graph.n_nodes
    used[start] = True
    path = [start]
    counts = {"attempts": 0, "backtracks": 0}

    def need(left: int, level: Callable[[int], int]) -> int:
        """Moves still needed, given the first-leg distances ``level(food i)``."""
        if not left:
            return 0 if finish < 0 else level(-1)
        if rest is not None:
            return min(level(i) + rest[left][i] for i in range(k) if left >> i & 1)
        return max(level(i) + to_end[i] for i in range(k) if left >> i & 1)

    def cheap(here: int, left: int) -> int:
        return need(
            left,
            lambda i: far[i][here] if i >= 0 else end_far[here],
        )

    def estimate(here: int, left: int) -> int:
        """``need`` with BFS through unused cells; -1 if some target is cut off."""
        targets = {food[i] for i in range(k) if left >> i & 1}
        if not left and finish >= 0:
            targets = {finish}
        level = {here: 0}
        frontier = [here]
        depth = 0
        found = len(targets & {here})
        while frontier and found < len(targets):
            if clock.expired():  # one level can span the whole board
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
        return need(left, lambda i: level[food[i]] if i >= 0 else level[finish])

    def dfs(here: int, g: int, left: int, limit: int) -> int:
        """0 when found; else the smallest bound that was exceeded."""
        if not left and (finish < 0 or (here == finish and g > 0)):
            return 0
        counts["attempts"] += 1
        if clock.expired():  # every attempt: each runs up to 8 estimates
            raise _OutOfTime
        over = _NEVER
        options = []
        for v in flat[ptr[here] : ptr[here + 1]]:
            if used[v]:
                if closed and v == start and not left:
                    options.append((0, v))
                continue
            rest_v = left & ~bit.get(v, 0)
            if v == finish and not closed and rest_v:
                continue
            f = g + 1 + cheap(v, rest_v)
            if f > limit:
                over = min(over, f)
                continue
            used[v] = True
            h = estimate(v, rest_v)
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
            got = dfs(v, g + 1, left & ~bit.get(v, 0), limit)
            if got == 0:
                return 0
            over = min(over, got)
            path.pop()
            used[v] = False
            counts["backtracks"] += 1
        return over

    left0 = (1 << k) - 1
    limit = bound
    try:
        limit = max(bound, estimate(start, left0))
        while limit < _NEVER:
            got = dfs(start, 0, left0, limit)
            if got == 0:
                return _route(
                    inst,
                    path,
                    status="optimal",
                    bound=len(path) - 1,
                    method="search",
                    started=started,
                    effort=Effort(**counts),
                )
            limit = got
    except _OutOfTime:
        return _fallback_simple(inst, limit, "search", Effort(**counts), started)
    raise NoPathError(f"no {inst.describe()}: proved by exhaustive search")


_NEVER = 1 << 30


def _fallback_simple(
    inst: _Instance, bound: int, method: str, effort: Effort, started: float
) -> Route:
    nodes = _greedy_simple(inst)
    if nodes is None:
        raise SolveLimitError(
            f"no {inst.describe()} found by the time limit; at least {bound} moves",
            bound=bound,
            effort=effort,
        )
    status = "optimal" if len(nodes) - 1 == bound else "feasible"
    return _route(
        inst,
        nodes,
        status=status,
        bound=bound,
        method=f"{method}+greedy",
        started=started,
        effort=effort,
    )


# -------------------------------------------------------------------- CP-SAT

DUMMY = -1
"""The dummy node of the simple model (it joins the open route's two ends)."""


@dataclass(frozen=True)
class _Arc:
    tail: int  # a move-graph node, or DUMMY
    head: int
    literal: Any
    weight: int
    kind: str  # 'move' | 'leg' | 'return' | 'skip' | 'dummy'


@dataclass(frozen=True, eq=False)
class CollectModel:
    """A built CP-SAT model of one route question: print it, export it, solve it.

    Build with :func:`build_collect_model`.

    Attributes:
        model: the ``cp_model.CpModel``.
        graph: the move graph.
        simple: which variant: the food circuit (walk) or the full graph
            (simple).
        nodes: the circuit's nodes, as move-graph nodes (:data:`DUMMY` for the
            dummy node), in the order of their circuit index.
        arcs: the circuit's arcs with their literals and costs.
        distances: for the walk, the BFS distance between the circuit's nodes.
        levels: the BFS levels from the walk's terminals (for decoding).
    """

    model: Any
    graph: MoveGraph
    simple: bool
    nodes: tuple[int, ...]
    arcs: tuple[_Arc, ...]
    distances: tuple[tuple[int, ...], ...] | None
    instance: _Instance = field(repr=False)
    levels: dict[int, npt.NDArray[np.int32]] = field(default_factory=dict, repr=False)

    def decode(self, solver: cp_model.CpSolver) -> list[int]:
        """The route, as move-graph nodes, from a solved model."""
        inst = self.instance
        if len(self.nodes) == 1:
            return [inst.start]
        succ = {
            a.tail: a.head
            for a in self.arcs
            if a.kind != "skip" and solver.boolean_value(a.literal)
        }
        order = [inst.start]
        while True:
            nxt = succ[order[-1]]
            if nxt == DUMMY or (nxt == inst.start and not inst.closed):
                break
            order.append(nxt)
            if nxt == inst.start:
                break
        if self.simple:
            return order
        return _expand(self.graph, order, self.levels)

    def hint(self, nodes: Sequence[int]) -> None:
        """Give CP-SAT a route (as move-graph nodes) to start from.

        For the walk, the route's order of the food is what counts: the
        walk's terminals alone (start, food, end) make a hint too.
        """
        inst = self.instance
        if self.simple:
            _hint_simple(self, nodes)
            return
        eat = set(inst.food)
        order = [inst.start, *dict.fromkeys(n for n in nodes if n in eat)]
        if inst.end >= 0 and not inst.closed:
            order.append(inst.end)
        order.append(inst.start)
        steps = set(itertools.pairwise(order))
        for a in self.arcs:
            self.model.add_hint(a.literal, (a.tail, a.head) in steps)

    def formulation(self) -> str:
        """The model, printed with this instance's own numbers."""
        return _formulation(self)

    def export(self, path: str | Path) -> None:
        """Write the CP-SAT model as a text proto (variables carry their names).

        Raises:
            InvalidInputError: the file cannot be written.
        """
        export_cpsat_model(self.model, path)

    def __str__(self) -> str:
        return self.formulation()


def build_collect_model(
    board: Board | str,
    start: CellLike,
    food: Sequence[CellLike],
    *,
    end: CellLike | None = None,
    piece: PieceLike = KNIGHT,
    simple: bool = False,
) -> CollectModel:
    """Build the CP-SAT model of a route question, without solving it.

    Walk: a circuit over the start, the food and the end, arc ``i -> j``
    costing the BFS distance ``d(i, j)``; arcs back into the start cost 0 (they
    close the open route and are not moves; with an end, only the end has one).
    Simple: a circuit over every cell of the start's component with one literal
    per move arc, a self-loop literal for each cell that may be left out, and a
    dummy node ``*`` with ``* -> start`` and ``v -> *`` for the cells the route
    may stop on (the end alone when it is given); a closed route (``end ==
    start``) needs no dummy.

    Args:
        board: a finite board (or a spec like ``'8x8'``).
        start: the first cell.
        food: the cells to visit.
        end: the required last cell, if any.
        piece: the leaper.
        simple: no cell twice.

    Returns:
        The model bundle (:meth:`CollectModel.formulation`,
        :meth:`CollectModel.export`).

    Raises:
        NoPathError: a food cell or the end cannot be reached.

    Notes:
        Simple model size: one Boolean per move arc (336 for the knight on
        8x8, less those into the start), one per optional cell, and one per
        cell the route may stop on.

    Examples:
        >>> m = build_collect_model("8x8", "a1", ["h8", "a8"])
        >>> len(m.nodes), len(m.arcs)
        (3, 6)
        >>> "minimise" in m.formulation()
        True
        >>> m = build_collect_model("5x5", "a1", ["e5"], simple=True)
        >>> sum(a.kind == "move" for a in m.arcs)  # 2 * 4(n-1)(n-2), less 2 into a1
        94
    """
    resolved = board if isinstance(board, Board) else Board.parse(board)
    leaper = as_piece(piece)
    resolved.require_finite("a route")
    leaper.check_dim(resolved.dim, resolved.label)
    graph = move_graph(resolved, leaper)
    inst = _instance(
        graph,
        resolved.parse_cell(start),
        [resolved.parse_cell(f) for f in food],
        None if end is None else resolved.parse_cell(end),
        simple,
    )
    return _build_model(inst, _distances(inst))


def _build_model(
    inst: _Instance,
    dist: dict[int, npt.NDArray[np.int32]],
    deadline: Deadline | None = None,
) -> CollectModel:
    """The circuit model; ``SolveLimitError`` once ``deadline`` has passed.

    The simple variant's arcs come from :meth:`MoveGraph.arcs` in numpy (in
    the same order as node by node, neighbours in move order) and the cells
    are named once; the deadline is looked at every :data:`_CHUNK` Booleans.
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    graph = inst.graph
    labels: dict[int, str] | list[str] = {}
    distances: tuple[tuple[int, ...], ...] | None = None
    rows: list[tuple[int, int, int, int]] = []  # tail, head, weight, kind
    if inst.trivial:
        nodes: list[int] = [inst.start]
    elif inst.simple:
        nodes, labels, columns = _simple_arcs(inst, dist, deadline)
    else:
        nodes = inst.terminals
        labels = {n: graph.board.cell_name(graph.cell(n)) for n in nodes}
        distances = tuple(tuple(int(dist[a][b]) for b in nodes) for a in nodes)
        end = inst.end if not inst.closed else -1
        for a in nodes:
            for b in nodes:
                if a == b or (a == end and b != inst.start):
                    continue
                if b == inst.start and not inst.closed:
                    if end >= 0 and a != end:
                        continue
                    rows.append((a, b, 0, _KINDS.index("return")))
                else:
                    rows.append((a, b, int(dist[a][b]), _KINDS.index("leg")))
    if not inst.simple or inst.trivial:
        columns = np.array(rows, dtype=np.int64).reshape(-1, 4).T
    prefix = "arc" if inst.simple else "x"
    arcs: list[_Arc] = []
    for first in range(0, columns.shape[1], _CHUNK):
        if deadline is not None:
            _check_deadline(deadline, "building the model")
        chunk = columns[:, first : first + _CHUNK].tolist()
        for t, h, w, k in zip(*chunk, strict=True):
            kind = _KINDS[k]
            var = (
                f"skip[{labels[t]}]"
                if kind == "skip"
                else f"{prefix}[{labels[t]}->{labels[h]}]"
            )
            arcs.append(_Arc(t, h, model.new_bool_var(var), w, kind))
    if len(nodes) > 1:
        if deadline is not None:
            _check_deadline(deadline, "building the model")
        # Circuit index of each node; DUMMY (-1) reads the spare last entry.
        index = np.full(graph.n_nodes + 1, -1, dtype=np.int64)
        index[nodes] = np.arange(len(nodes))
        literals = [a.literal for a in arcs]
        circuit_t, circuit_h = index[columns[0]].tolist(), index[columns[1]].tolist()
        model.add_circuit(list(zip(circuit_t, circuit_h, literals, strict=True)))
        _minimise(
            model,
            [a.literal for a in arcs if a.weight],
            [a.weight for a in arcs if a.weight],
        )
    return CollectModel(
        model=model,
        graph=graph,
        simple=inst.simple,
        nodes=tuple(nodes),
        arcs=tuple(arcs),
        distances=distances,
        instance=inst,
        levels={} if inst.simple else dist,
    )


def _hint_simple(m: CollectModel, nodes: Sequence[int]) -> None:
    """Hint every arc of the simple model: on the route, or a skipped cell.

    In numpy, and written into the proto at once (``CpModel.add_hint`` is one
    Python call per arc: seconds on a large board).
    """
    inst, n = m.instance, m.graph.n_nodes
    route = np.asarray(nodes, dtype=np.int64)
    on = np.zeros(n + 1, dtype=bool)
    on[route] = True
    step_t, step_h = route[:-1], route[1:]
    if not inst.closed:  # DUMMY is node n here
        step_t = np.append(step_t, [n, route[-1]])
        step_h = np.append(step_h, [inst.start, n])
    count = len(m.arcs)
    tails = np.fromiter((a.tail for a in m.arcs), dtype=np.int64, count=count)
    heads = np.fromiter((a.head for a in m.arcs), dtype=np.int64, count=count)
    skip = np.fromiter((a.kind == "skip" for a in m.arcs), dtype=bool, count=count)
    tails[tails == DUMMY] = n
    heads[heads == DUMMY] = n
    value = np.isin(tails * (n + 1) + heads, step_t * (n + 1) + step_h)
    value[skip] = ~on[tails[skip]]
    hint = m.model.proto.solution_hint
    hint.vars.extend([a.literal.index for a in m.arcs])
    hint.values.extend(value.astype(np.int64).tolist())


def _simple_arcs(
    inst: _Instance,
    dist: dict[int, npt.NDArray[np.int32]],
    deadline: Deadline | None,
) -> tuple[list[int], list[str], npt.NDArray[np.int64]]:
    """The simple circuit's nodes, the cells' names, and its arcs as columns.

    The arcs, one column each (rows: tail, head, weight, kind as an index of
    :data:`_KINDS`): move arcs between the cells of the start's component (none
    into the start or out of the end of an open route), in node order and then
    move order; a self-loop for each cell that may be left out; the dummy
    node's arcs. The names end with ``'*'``, so ``DUMMY`` (-1) reads it.
    """
    graph = inst.graph
    if deadline is not None:
        _check_deadline(deadline, "building the model")
    start, end, closed = inst.start, inst.end, inst.closed
    reach = dist[start] >= 0
    comp = np.flatnonzero(reach)
    all_t, all_h = graph.arcs()
    keep = reach[all_t]  # the graph is symmetric: the heads are reached too
    if not closed:
        keep &= (all_t != end) & (all_h != start)
    must = np.zeros(graph.n_nodes, dtype=bool)
    must[_must_cells(inst)] = True
    skips = comp[~must[comp]]
    nodes = comp.tolist()
    parts: list[tuple[npt.NDArray[Any], npt.NDArray[Any], str]] = [
        (all_t[keep], all_h[keep], "move"),
        (skips, skips, "skip"),
    ]
    if not closed:
        stops = np.array([end]) if end >= 0 else comp
        parts.append((np.array([DUMMY]), np.array([start]), "dummy"))
        parts.append((stops, np.full(stops.size, DUMMY), "dummy"))
        nodes.append(DUMMY)
    columns = np.empty((4, sum(t.size for t, _, _ in parts)), dtype=np.int64)
    first = 0
    for tails, heads, kind in parts:
        last = first + tails.size
        columns[0, first:last] = tails
        columns[1, first:last] = heads
        columns[2, first:last] = int(kind == "move")
        columns[3, first:last] = _KINDS.index(kind)
        first = last
    name = graph.board.cell_name
    cells = graph.cells.tolist()
    labels: list[str] = []
    for first in range(0, len(cells), _CHUNK):
        if deadline is not None:
            _check_deadline(deadline, "naming the cells")
        labels += [name(c) for c in cells[first : first + _CHUNK]]
    labels.append("*")
    return nodes, labels, columns


_KINDS = ("move", "leg", "return", "skip", "dummy")
"""The kinds of arc, in the order the model builder numbers them."""

_CHUNK = 4096
"""Booleans (or cell names) made between two looks at the deadline."""


def _check_deadline(deadline: Deadline, what: str) -> None:
    if deadline.expired():
        raise SolveLimitError(
            f"the time limit of {deadline.seconds:g} s was reached while {what}",
            details={"seconds": deadline.elapsed()},
        )


def _minimise(model: Any, literals: list[Any], weights: list[int]) -> None:
    """``model.minimize(sum of weight * literal)``, written into the proto at once.

    ``CpModel.minimize`` appends the terms to the proto one at a time from
    Python (seconds for the 700,000 arcs of the simple model on 300x300);
    this fills the same fields (variables, coefficients, scaling factor 1) in
    two calls.
    """
    objective = model.proto.objective
    objective.vars.extend([lit.index for lit in literals])
    objective.coeffs.extend(weights)
    objective.scaling_factor = 1.0


def _solve_cpsat(
    inst: _Instance,
    dist: dict[int, npt.NDArray[np.int32]],
    bound: int,
    options: SolveOptions,
    clock: Deadline,
) -> Route:
    from ortools.sat.python import cp_model

    started = clock.started
    # The hint: the walk's greedy order of the food (expanded into a route only
    # if it is handed back), or the greedy simple route (None when stuck).
    order = None if inst.simple else _greedy_order(inst, dist)
    greedy = _greedy_simple(inst) if inst.simple else None

    def fallback(effort: Effort) -> Route:
        """The limit came first: hand back the greedy route if there is one."""
        nodes = greedy if order is None else _expand(inst.graph, order, dist)
        if nodes is None:
            raise SolveLimitError(
                f"no {inst.describe()} found by the time limit; at least {bound} moves",
                bound=bound,
                effort=effort,
            )
        status = "optimal" if len(nodes) - 1 == bound else "feasible"
        return _route(
            inst,
            nodes,
            status=status,
            bound=bound,
            method="cpsat+greedy",
            started=started,
            effort=effort,
        )

    try:
        built = _build_model(inst, dist, clock)
        hint = greedy if order is None else order
        if hint is not None:
            built.hint(hint)
        _check_deadline(clock, "hinting the model")
    except SolveLimitError:
        return fallback(Effort())
    solver = cp_model.CpSolver()
    configure_cpsat(solver, options, clock)
    code = solver.solve(built.model)
    effort = Effort(
        branches=int(solver.num_branches), conflicts=int(solver.num_conflicts)
    )
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        nodes = built.decode(solver)
        moves = len(nodes) - 1
        if moves != round(solver.objective_value):
            raise EngineError(
                f"internal error: engine 'cpsat' decoded {moves} moves from a "
                f"solution of cost {solver.objective_value}"
            )
        if code == cp_model.OPTIMAL:
            status, proved = "optimal", moves
        else:
            proved = max(bound, int(np.ceil(solver.best_objective_bound - 1e-6)))
            status = "optimal" if proved >= moves else "feasible"
            proved = min(proved, moves)
        return _route(
            inst,
            nodes,
            status=status,
            bound=proved,
            method="cpsat",
            started=started,
            effort=effort,
        )
    if code == cp_model.INFEASIBLE:
        if not inst.simple:
            raise EngineError(
                f"internal error: engine 'cpsat' found no walk for a {inst.describe()}"
            )
        raise NoPathError(f"no {inst.describe()}: proved by cpsat")
    if code == cp_model.MODEL_INVALID:
        raise EngineError(
            f"internal error: engine 'cpsat' built an invalid model: "
            f"{built.model.validate()}"
        )
    # UNKNOWN: the limit came first.
    return fallback(effort)


# --------------------------------------------------------------- formulation


def _formulation(m: CollectModel) -> str:
    inst = m.instance
    board, piece = m.graph.board, m.graph.piece
    name = board.cell_name

    def label(node: int) -> str:
        return "*" if node == DUMMY else name(m.graph.cell(node))

    start, food, end = inst.cells
    eaten = ", ".join(name(f) for f in food) or "none"
    lines = [
        f"The snake's meal ({'simple' if m.simple else 'walk'} variant): the "
        f"{piece.label} on board {board.label}",
        f"starts on {name(start)}, must visit the food ({eaten})"
        + (f" and end on {name(end)}" if end is not None else "")
        + (", never using a cell twice." if m.simple else ", cells may repeat."),
        "",
    ]
    if len(m.nodes) == 1:
        lines.append("Nothing to eat and nowhere to go: the route is the start alone.")
        return "\n".join(lines)
    if not m.simple:
        assert m.distances is not None
        names = [label(n) for n in m.nodes]
        width = max(3, *(len(x) for x in names)) + 1
        lines += [
            "A travelling-salesman circuit over the start and the food"
            + (" and the end" if inst.end >= 0 and not inst.closed else "")
            + ",",
            f"costs d(i, j) = the fewest {piece.label} moves from i to j (BFS):",
            "",
            " " * width + "".join(x.rjust(width) for x in names),
        ]
        for n, row in zip(names, m.distances, strict=True):
            lines.append(n.rjust(width) + "".join(str(v).rjust(width) for v in row))
        legs = sum(a.kind == "leg" for a in m.arcs)
        back = [a for a in m.arcs if a.kind == "return"]
        back_text = (
            [
                f"           the {len(back)} arc{'s' if len(back) != 1 else ''} "
                f"back into {name(start)} cost 0: they close the open route and "
                "are not moves"
            ]
            if back
            else []
        )
        lines += [
            "",
            f"variables  x[i->j] in {{0, 1}}: {len(m.arcs)} arcs",
            f"minimise   sum of d(i, j) * x[i->j] over the {legs} legs;",
            *back_text,
            "subject to AddCircuit(x): every node has one successor and one "
            "predecessor,",
            "           and the chosen arcs form a single cycle",
            "then each leg i->j becomes a BFS shortest path of d(i, j) moves.",
        ]
        return "\n".join(lines)
    moves = [a for a in m.arcs if a.kind == "move"]
    skips = [a for a in m.arcs if a.kind == "skip"]
    stops = [a for a in m.arcs if a.kind == "dummy" and a.head == DUMMY]
    cells = len(m.nodes) - (0 if inst.closed else 1)
    lines += [
        f"nodes      the {cells} cells reachable from {name(start)}"
        + ("" if inst.closed else ", and a dummy node * joining the route's ends"),
        f"variables  arc[u->v] in {{0, 1}}: one per move, {len(moves)}"
        + ("" if inst.closed else f" (none into {name(start)}: * comes first")
        + ("" if inst.closed or end is None else f"; none out of {name(end)}")
        + ("" if inst.closed else ")"),
        f"           skip[v] in {{0, 1}}: the self-loop of each of the {len(skips)} "
        "cells that may be left out",
    ]
    if not inst.closed:
        where = (
            f"only {label(inst.end)}"
            if inst.end >= 0
            else f"any of the {len(stops)} cells"
        )
        lines += [
            f"           arc[*->{name(start)}] (the only arc out of *: the start)",
            f"           arc[v->*] for the cells the route may stop on: {where}",
        ]
    lines += [
        f"minimise   sum of arc[u->v] over the {len(moves)} moves",
        "subject to AddCircuit(arc, skip): every node has one successor and one",
        "           predecessor, and the arcs that are not self-loops form a single",
        "           cycle" + ("" if inst.closed else " through *"),
        f"           no skip[v] for the {len(_must_cells(inst))} cells that must "
        "be visited (start, food" + (", end)" if end is not None else ")"),
    ]
    return "\n".join(lines)


def _must_cells(inst: _Instance) -> list[int]:
    """The cells every route visits (start, food, end)."""
    return list(
        dict.fromkeys([inst.start, *inst.food, *([inst.end] if inst.end >= 0 else [])])
    )


def solve_cpsat(instance: RouteInstance, run: Run) -> Route:
    """The ``cpsat`` route engine in the engine contract's call shape."""
    return collect_route(
        instance.graph,
        instance.start,
        instance.food,
        end=instance.end,
        simple=instance.simple,
        method="cpsat",
        options=run.options,
        deadline=run.clock,
    )


def solve_search(instance: RouteInstance, run: Run) -> Route:
    """The ``search`` route engine in the engine contract's call shape."""
    return collect_route(
        instance.graph,
        instance.start,
        instance.food,
        end=instance.end,
        simple=instance.simple,
        method="search",
        options=run.options,
        deadline=run.clock,
    )


def solve_greedy(instance: RouteInstance, run: Run) -> Route:
    """The ``greedy`` route engine in the engine contract's call shape."""
    return collect_route(
        instance.graph,
        instance.start,
        instance.food,
        end=instance.end,
        simple=instance.simple,
        method="greedy",
        options=run.options,
        deadline=run.clock,
    )
