"""Routes by CP-SAT: circuit models for walks and for simple routes.

Walk: ``add_circuit`` over the start, the food and the end, the arc costs the
BFS distances, arcs back into the start free (the route may stop anywhere).
Simple: ``add_circuit`` over every cell of the start's component, with a
self-loop for each cell left out and a dummy node closing the path. Built as a
frozen bundle (:class:`CollectModel`) with ``decode``, ``hint``,
``formulation()`` and ``export(path)``, then solved.

Examples:
    >>> from cpknight import collect
    >>> r = collect("8x8", "a1", ["h8", "a8", "h1", "d4"], method="cpsat")
    >>> str(r.status), r.moves
    ('optimal', 15)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from cpknight.board import Board, CellLike
from cpknight.errors import (
    EngineError,
    ModelTooBigError,
    NoPathError,
    SolveLimitError,
)
from cpknight.pieces import (
    KNIGHT,
    MoveGraph,
    PieceLike,
    as_piece,
    move_graph,
)
from cpknight.solving import (
    Run,
    configure_cpsat,
    solve_cpsat,
)
from cpknight.status import Effort

if TYPE_CHECKING:
    import numpy.typing as npt
    from ortools.sat.python import cp_model

from cpknight.formulation import CpsatBundle, add_circuit_arcs, check_circuit_size
from cpknight.results import Route
from cpknight.routes.common import (
    Instance,
    Prepared,
    expand,
    greedy_fallback,
    greedy_order,
    greedy_simple,
    make_instance,
    prepare,
    route_of,
    terminal_distances,
)
from cpknight.routes.instance import RouteInstance

__all__ = ["CollectModel", "build_collect_model"]


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
class CollectModel(CpsatBundle):
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
    instance: Instance = field(repr=False)
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
        return expand(self.graph, order, self.levels)

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


def build_collect_model(
    board: Board | str,
    start: CellLike,
    food: Sequence[CellLike],
    *,
    end: CellLike | None = None,
    piece: PieceLike = KNIGHT,
    simple: bool = False,
    run: Run | None = None,
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
        run: the run context whose clock bounds building (``SolveLimitError``).

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
    check = None if run is None else run.check
    graph = move_graph(resolved, leaper, check=check)
    inst = make_instance(
        graph,
        resolved.parse_cell(start),
        [resolved.parse_cell(f) for f in food],
        None if end is None else resolved.parse_cell(end),
        simple,
        check,
    )
    return _build_model(inst, terminal_distances(inst, run), run)


def _build_model(
    inst: Instance,
    dist: dict[int, npt.NDArray[np.int32]],
    run: Run | None = None,
) -> CollectModel:
    """The circuit model; ``SolveLimitError`` once ``run``'s limit has passed.

    The simple variant's arcs come from :meth:`MoveGraph.arcs` in numpy (in
    the same order as node by node, neighbours in move order) and the cells
    are named once; the one circuit builder
    (:func:`cpknight.formulation.add_circuit_arcs`) looks at the clock as it goes.
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    graph = inst.graph
    nodes, labels, distances, columns = _circuit(inst, dist, run)
    prefix = "arc" if inst.simple else "x"
    cell_t, cell_h, weights, kinds = columns.tolist()

    def name(i: int) -> str:
        tail, head = labels[cell_t[i]], labels[cell_h[i]]
        if _KINDS[kinds[i]] == "skip":
            return f"skip[{tail}]"
        return f"{prefix}[{tail}->{head}]"

    # Circuit index of each node; DUMMY (-1) reads the spare last entry.
    index = np.full(graph.n_nodes + 1, -1, dtype=np.int64)
    index[nodes] = np.arange(len(nodes))
    circuit_t, circuit_h = index[columns[0]].tolist(), index[columns[1]].tolist()
    literals = (
        add_circuit_arcs(model, circuit_t, circuit_h, name, run=run)
        if len(nodes) > 1
        else []
    )
    arcs = [
        _Arc(t, h, x, w, _KINDS[k])
        for t, h, x, w, k in zip(cell_t, cell_h, literals, weights, kinds, strict=True)
    ]
    if len(nodes) > 1:
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


def _circuit(
    inst: Instance,
    dist: dict[int, npt.NDArray[np.int32]],
    run: Run | None,
) -> tuple[
    list[int],
    dict[int, str] | list[str],
    tuple[tuple[int, ...], ...] | None,
    npt.NDArray[np.int64],
]:
    """The circuit's nodes and arcs: the start alone, every cell, or the terminals.

    Returns:
        The circuit's nodes (a trivial route: the start; a simple route: the
        cells, see :func:`_simple_arcs`; a walk: the terminals), their cells'
        names, the walk's distances between terminals (``None`` otherwise), and
        the arcs as columns (rows: tail, head, weight, kind).
    """
    graph = inst.graph
    if inst.trivial:
        rows: list[tuple[int, int, int, int]] = []
        return [inst.start], {}, None, np.array(rows, np.int64).reshape(-1, 4).T
    if inst.simple:
        check_circuit_size(
            graph.n_arcs + 2 * graph.n_nodes,
            f"the simple route model of {graph.board.label}",
        )
        nodes, names, columns = _simple_arcs(inst, dist, run)
        return nodes, names, None, columns
    nodes = inst.terminals
    labels = {n: graph.board.cell_name(graph.cell(n)) for n in nodes}
    distances = tuple(tuple(int(dist[a][b]) for b in nodes) for a in nodes)
    rows = _walk_rows(inst, dist)
    return nodes, labels, distances, np.array(rows, np.int64).reshape(-1, 4).T


def _walk_rows(
    inst: Instance, dist: dict[int, npt.NDArray[np.int32]]
) -> list[tuple[int, int, int, int]]:
    """The walk's arcs between terminals: (tail, head, weight, kind) each.

    A leg ``a -> b`` weighs the BFS distance; an open route adds arcs of
    weight 0 back into the start (from its end only, when it has one).
    """
    rows: list[tuple[int, int, int, int]] = []
    nodes = inst.terminals
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
    return rows


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
    inst: Instance,
    dist: dict[int, npt.NDArray[np.int32]],
    run: Run | None,
) -> tuple[list[int], list[str], npt.NDArray[np.int64]]:
    """The simple circuit's nodes, the cells' names, and its arcs as columns.

    The arcs, one column each (rows: tail, head, weight, kind as an index of
    :data:`_KINDS`): move arcs between the cells of the start's component (none
    into the start or out of the end of an open route), in node order and then
    move order; a self-loop for each cell that may be left out; the dummy
    node's arcs. The names end with ``'*'``, so ``DUMMY`` (-1) reads it.
    """
    graph = inst.graph
    if run is not None:
        run.check("building the model")
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
        if run is not None:
            run.check("naming the cells")
        labels += [name(c) for c in cells[first : first + _CHUNK]]
    labels.append("*")
    return nodes, labels, columns


_KINDS = ("move", "leg", "return", "skip", "dummy")
"""The kinds of arc, in the order the model builder numbers them."""

_CHUNK = 4096
"""Booleans (or cell names) made between two looks at the clock."""


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
    inst: Instance,
    dist: dict[int, npt.NDArray[np.int32]],
    bound: int,
    run: Run,
) -> Route:
    from ortools.sat.python import cp_model

    started = run.clock.started
    order, greedy = _greedy_hint(inst, dist, run)

    def fallback(effort: Effort) -> Route:
        """The limit came first: hand back the greedy route if there is one."""
        nodes = greedy if order is None else expand(inst.graph, order, dist)
        return greedy_fallback(
            inst, nodes, bound=bound, method="cpsat", started=started, effort=effort
        )

    try:
        built = _build_model(inst, dist, run)
        hint = greedy if order is None else order
        if hint is not None:
            built.hint(hint)
        run.check("hinting the model")
    except (SolveLimitError, ModelTooBigError):
        # out of time, or a model too big to build: hand back the greedy route
        return fallback(Effort())
    solver = cp_model.CpSolver()
    configure_cpsat(solver, run)
    code, _ = solve_cpsat(solver, built.model, run)
    effort = Effort(
        branches=int(solver.num_branches), conflicts=int(solver.num_conflicts)
    )
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        optimal = code == cp_model.OPTIMAL
        return _solved_route(inst, built, solver, optimal, bound, started, effort)
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


def _greedy_hint(
    inst: Instance, dist: dict[int, npt.NDArray[np.int32]], run: Run
) -> tuple[list[int] | None, list[int] | None]:
    """The hint: the walk's greedy order of the food, or the greedy simple route.

    Returns:
        ``(order, None)`` for a walk (the order is expanded into a route only
        if it is handed back), ``(None, route)`` for a simple route (``None``
        when the greedy route got stuck or the limit came first).
    """
    if not inst.simple:
        return greedy_order(inst, dist), None
    try:
        return None, greedy_simple(inst, run)
    except SolveLimitError:
        return None, None  # the limit came first: nothing to hand back


def _solved_route(
    inst: Instance,
    built: CollectModel,
    solver: cp_model.CpSolver,
    optimal: bool,
    bound: int,
    started: float,
    effort: Effort,
) -> Route:
    """The route of CP-SAT's solution: ``optimal``, else feasible with its bound.

    Raises:
        EngineError: the decoded route's length is not the solution's cost.
    """
    nodes = built.decode(solver)
    moves = len(nodes) - 1
    if moves != round(solver.objective_value):
        raise EngineError(
            f"internal error: engine 'cpsat' decoded {moves} moves from a "
            f"solution of cost {solver.objective_value}"
        )
    if optimal:
        status, proved = "optimal", moves
    else:
        proved = max(bound, int(np.ceil(solver.best_objective_bound - 1e-6)))
        status = "optimal" if proved >= moves else "feasible"
        proved = min(proved, moves)
    return route_of(
        inst,
        nodes,
        status=status,
        bound=proved,
        method="cpsat",
        started=started,
        effort=effort,
    )


# --------------------------------------------------------------- formulation


def _formulation(m: CollectModel) -> str:
    inst = m.instance
    board, piece = m.graph.board, m.graph.piece
    name = board.cell_name
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
    lines += _simple_lines(m) if m.simple else _walk_lines(m)
    return "\n".join(lines)


def _walk_lines(m: CollectModel) -> list[str]:
    """The walk variant: a travelling-salesman circuit over BFS distances."""
    inst = m.instance
    piece, name = m.graph.piece, m.graph.board.cell_name

    def label(node: int) -> str:
        return "*" if node == DUMMY else name(m.graph.cell(node))

    start = inst.cells[0]
    assert m.distances is not None
    names = [label(n) for n in m.nodes]
    width = max(3, *(len(x) for x in names)) + 1
    lines = [
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
        "subject to AddCircuit(x): every node has one successor and one predecessor,",
        "           and the chosen arcs form a single cycle",
        "then each leg i->j becomes a BFS shortest path of d(i, j) moves.",
    ]
    return lines


def _simple_lines(m: CollectModel) -> list[str]:
    """The simple variant: one circuit over the cells, self-loops for cells left out."""
    inst = m.instance
    name = m.graph.board.cell_name

    def label(node: int) -> str:
        return "*" if node == DUMMY else name(m.graph.cell(node))

    start, _, end = inst.cells
    moves = [a for a in m.arcs if a.kind == "move"]
    skips = [a for a in m.arcs if a.kind == "skip"]
    stops = [a for a in m.arcs if a.kind == "dummy" and a.head == DUMMY]
    cells = len(m.nodes) - (0 if inst.closed else 1)
    lines = [
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
    return lines


def _must_cells(inst: Instance) -> list[int]:
    """The cells every route visits (start, food, end)."""
    return list(
        dict.fromkeys([inst.start, *inst.food, *([inst.end] if inst.end >= 0 else [])])
    )


def solve(instance: RouteInstance, run: Run) -> Route:
    """The ``cpsat`` route engine (see the module notes).

    Raises:
        NoPathError: a food cell or the end cannot be reached, or (simple
            routes) exhausting the search proved there is no route.
        SolveLimitError: nothing found by the time limit (with the bound).
    """
    ready = prepare(instance, run, "cpsat")
    if not isinstance(ready, Prepared):
        return ready
    return _solve_cpsat(ready.inst, ready.dist, ready.bound, run)
