"""Distance as a unit flow over the move arcs: exact on any finite board.

One unit of flow from ``source`` to ``target`` over the arcs of the move graph,
minimising the arcs used. The constraint matrix is a network matrix (totally
unimodular), so even the LP relaxation has an integral optimal vertex: the method
solves just the LP (GLOP) by default, and checks that its optimum is integral.

Examples:
    >>> from cpknight import knight_distance
    >>> int(knight_distance("8x8", "a1", "b2", method="flow"))
    4
"""

from __future__ import annotations

from typing import TYPE_CHECKING as _TYPE_CHECKING

if _TYPE_CHECKING:
    import numpy.typing as npt

    from cpknight.distances.instance import DistanceInstance
    from cpknight.solving import Run

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cpknight.board import Board, Cell
from cpknight.checks import make_distance
from cpknight.distances.linear import (
    CLOCK_CHUNK,
    FLOW_BACKENDS,
    LinearModel,
    Values,
    abridge,
    abridge_linear,
    check_backend,
    check_time,
    load_backend,
    lp_name,
    solve_builder,
)
from cpknight.errors import (
    EngineError,
    InvalidInputError,
    SolveLimitError,
)
from cpknight.graph import no_path_error
from cpknight.pieces import (
    KNIGHT,
    Leaper,
    MoveGraph,
    PieceLike,
    move_graph,
)
from cpknight.results import Distance
from cpknight.solving import (
    Run,
    configure_cpsat,
    solve_cpsat,
)
from cpknight.status import Effort

__all__ = ["FlowModel", "build_flow_model", "solve_flow"]


# ------------------------------------------------------------------ arc flow


@dataclass(frozen=True, eq=False)
class FlowModel(LinearModel):
    """The arc-flow integer program of one query, built and not yet solved.

    ``minimise sum(f)  s.t.  sum_out f - sum_in f = [v = s] - [v = t]`` at every
    node ``v``, ``f`` in ``{0, 1}`` on every arc. Build with
    :func:`build_flow_model`.

    Attributes:
        graph: the move graph.
        source: the source cell.
        target: the target cell.
        tails: the tail node of each arc.
        heads: the head node of each arc.
        backend: ``'cpsat'`` or a ``model_builder`` solver name.
        model: the native model.
        arcs: the arc variables, one per arc, ``arc[a1->b3]``.
    """

    graph: MoveGraph
    source: Cell
    target: Cell
    tails: npt.NDArray[np.int64]
    heads: npt.NDArray[np.int32]
    backend: str
    model: Any
    arcs: tuple[Any, ...]

    @property
    def board(self) -> Board:
        """The board.

        Examples:
            >>> build_flow_model("3x3", "a1", "c2").board.label
            '3x3'
        """
        return self.graph.board

    def arc_names(self) -> list[str]:
        """The arc variables' names, ``arc[a1->b3]``, in arc order.

        Examples:
            >>> build_flow_model("3x3", "a1", "c2").arc_names()[:2]
            ['arc[a1->b3]', 'arc[a1->c2]']
        """
        names = self.graph.cell_names()
        return [
            f"arc[{names[t]}->{names[h]}]"
            for t, h in zip(self.tails.tolist(), self.heads.tolist(), strict=True)
        ]

    def decode(self, values: Values) -> tuple[Cell, ...]:
        """The path carried by an optimal flow, source first.

        Raises:
            EngineError: the values are not a unit flow from source to target.

        Examples:
            >>> f = build_flow_model("3x3", "a1", "c2")
            >>> f.decode([0, 1] + [0] * 14)
            ((0, 0), (1, 2))
        """
        nxt: dict[int, int] = {}
        for t, h, x in zip(
            self.tails.tolist(), self.heads.tolist(), values, strict=True
        ):
            if x > 0.5:
                nxt[t] = h
        node = self.graph.node(self.source)
        end = self.graph.node(self.target)
        nodes = [node]
        while node != end:
            if node not in nxt or len(nodes) > len(nxt) + 1:
                raise EngineError("internal error: the flow is not a path")
            node = nxt[node]
            nodes.append(node)
        return tuple(self.graph.cell(n) for n in nodes)

    def formulation(self) -> str:
        """The model printed with this instance's own numbers (rows abridged).

        Examples:
            >>> f = build_flow_model("3x3", "a1", "c2")
            >>> print(f.formulation().splitlines()[1])
            variables  arc[u->v] in {0,1}: whether the path uses the move u -> v \
(16 arcs)
        """
        g = self.graph
        board = g.board
        names = g.cell_names()
        labels = self.arc_names()
        s, t = g.node(self.source), g.node(self.target)
        out: dict[int, list[str]] = {}
        into: dict[int, list[str]] = {}
        for label, a, b in zip(
            labels, self.tails.tolist(), self.heads.tolist(), strict=True
        ):
            out.setdefault(a, []).append(label)
            into.setdefault(b, []).append(label)
        lines = [
            f"arc-flow IP: {g.piece.label} on {board.label}, {names[s]} -> {names[t]}",
            f"variables  arc[u->v] in {{0,1}}: whether the path uses the move u -> v "
            f"({len(labels)} arcs)",
            "minimise   the number of arcs used: " + abridge(labels, " + "),
            f"subject to flow conservation, one row per open cell ({g.n_nodes} rows):",
            "           out(v) - in(v) = 1 at the source, -1 at the target, "
            "0 elsewhere",
        ]
        shown = [s, t, *[v for v in range(g.n_nodes) if v not in (s, t)][:1]]
        for v in shown:
            rhs = 1 if v == s else -1 if v == t else 0
            terms = [(1, x) for x in out.get(v, [])] + [
                (-1, x) for x in into.get(v, [])
            ]
            lines.append(f"  {names[v]}: {abridge_linear(terms)} = {rhs}")
        if g.n_nodes > len(shown):
            lines.append(f"  ... and {g.n_nodes - len(shown)} more rows like the last")
        lines += [
            "notes:",
            "  the constraint matrix is the node-arc incidence matrix of the move",
            "  graph, a network matrix: totally unimodular, so every vertex of the",
            "  LP relaxation is integral and the LP alone gives the distance",
            "  (method 'flow' solves just the LP, with GLOP, and checks it)",
        ]
        return "\n".join(lines)

    def _builder(self, *, lp_names: bool) -> Any:
        model, _ = _builder_flow(self, lp_names=lp_names)
        return model


def build_flow_model(
    board: Board | str,
    source: Sequence[int] | str,
    target: Sequence[int] | str,
    *,
    piece: PieceLike = KNIGHT,
    backend: str = "cpsat",
    run: Run | None = None,
) -> FlowModel:
    """Build the arc-flow integer program of one query (without solving it).

    Args:
        board: a finite board.
        source: the source cell.
        target: the target cell.
        piece: the leaper.
        backend: a name in :data:`FLOW_BACKENDS`; decides the native model.
        run: the run context whose clock bounds building (``SolveLimitError``).

    Returns:
        The bundle: native model, arc handles, ``decode``, ``formulation``,
        ``export``.

    Raises:
        InvalidBoardError: the board is the unbounded plane.
        InvalidInputError: an unknown backend.

    Notes:
        One variable per arc of the move graph (336 for the knight on 8x8) and
        one equation per open cell.

    Examples:
        >>> f = build_flow_model("8x8", "a1", "b2")
        >>> len(f.arcs), f.arc_names()[0]
        (336, 'arc[a1->b3]')
    """
    check_backend(backend, FLOW_BACKENDS)
    resolved = Board.parse(board) if isinstance(board, str) else board
    resolved.require_finite("method 'flow'")
    graph = move_graph(resolved, piece)
    check_flow_size(graph)
    start = resolved.parse_cell(source)
    end = resolved.parse_cell(target)
    return _build_flow(graph, start, end, backend, names=True, run=run)


MAX_FLOW_ARCS = 1_000_000
"""The most move arcs (one variable each) a flow model is built with: OR-Tools
takes about 700 bytes an arc (1000x1000, 8 million arcs: past 5.6 GB)."""


def check_flow_size(graph: MoveGraph) -> None:
    """Refuse, before building, a flow model too big to hold in memory.

    Raises:
        InvalidInputError: more than :data:`MAX_FLOW_ARCS` arcs.

    Examples:
        >>> check_flow_size(move_graph("400x400"))
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: method 'flow' makes one variable per \
move arc: 1,270,416 on 400x400 (about 0.9 GB); it takes at most 1,000,000 arcs \
(method 'bfs' answers any board)
    """
    if graph.n_arcs > MAX_FLOW_ARCS:
        raise InvalidInputError(
            f"method 'flow' makes one variable per move arc: {graph.n_arcs:,} on "
            f"{graph.board.label} (about {graph.n_arcs * 700 / 1e9:.1f} GB); it "
            f"takes at most {MAX_FLOW_ARCS:,} arcs (method 'bfs' answers any board)"
        )


def _build_flow(
    graph: MoveGraph,
    start: Cell,
    end: Cell,
    backend: str,
    *,
    names: bool,
    run: Run | None,
) -> FlowModel:
    """The flow bundle; ``names=False`` leaves the variables unnamed (faster)."""
    tails, heads = graph.arcs()
    shell = FlowModel(graph, start, end, tails, heads, backend, None, ())
    if backend == "cpsat":
        model, arcs = _cpsat_flow(shell, names=names, run=run)
    else:
        model, arcs = _builder_flow(shell, lp_names=False, names=names, run=run)
    return FlowModel(graph, start, end, tails, heads, backend, model, tuple(arcs))


@dataclass(frozen=True)
class _Incidence:
    """The node-arc incidence matrix by rows, CSR-style, as lists.

    Row ``v`` (node ``v``'s flow conservation) has the arcs
    ``arcs[ptr[v]:ptr[v + 1]]`` with the coefficients at the same places: +1
    for the arcs out of ``v``, then -1 for the arcs into it.
    """

    ptr: list[int]
    arcs: list[int]
    coefs: list[int]
    rhs: list[int]


def _incidence(f: FlowModel) -> _Incidence:
    n = f.graph.n_nodes
    m = int(f.tails.shape[0])
    # Entries 0..m-1 are the +1s (row: tail), m..2m-1 the -1s (row: head); a
    # stable sort by row keeps each row's out-arcs first, in arc order.
    rows = np.concatenate([f.tails, f.heads.astype(np.int64)])
    order = np.argsort(rows, kind="stable")
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=ptr[1:])
    rhs = np.zeros(n, dtype=np.int64)
    s, t = f.graph.node(f.source), f.graph.node(f.target)
    if s != t:
        rhs[s], rhs[t] = 1, -1
    return _Incidence(
        ptr=ptr.tolist(),
        arcs=(order % max(m, 1)).tolist(),
        coefs=np.where(order < m, 1, -1).tolist(),
        rhs=rhs.tolist(),
    )


def _flow_names(f: FlowModel, names: bool, lp_names: bool) -> list[str | None]:
    if not names:
        return [None] * int(f.tails.shape[0])
    labels = f.arc_names()
    return [lp_name(n) for n in labels] if lp_names else list(labels)


def _cpsat_flow(
    f: FlowModel, *, names: bool = True, run: Run | None = None
) -> tuple[Any, list[Any]]:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    labels = _flow_names(f, names, lp_names=False)
    arcs: list[Any] = []
    for first in range(0, len(labels), CLOCK_CHUNK):
        check_time(run, "building the flow model")
        arcs.extend(
            model.new_bool_var(n or "") for n in labels[first : first + CLOCK_CHUNK]
        )
    inc = _incidence(f)
    weighted_sum = cp_model.LinearExpr.weighted_sum
    for v in range(f.graph.n_nodes):
        if v % CLOCK_CHUNK == 0:
            check_time(run, "building the flow model")
        a, b = inc.ptr[v], inc.ptr[v + 1]
        terms = [arcs[i] for i in inc.arcs[a:b]]
        model.add(weighted_sum(terms, inc.coefs[a:b]) == inc.rhs[v])
    model.minimize(cp_model.LinearExpr.sum(arcs))
    return model, arcs


def _builder_flow(
    f: FlowModel,
    *,
    lp_names: bool,
    names: bool = True,
    run: Run | None = None,
) -> tuple[Any, list[Any]]:
    from ortools.linear_solver.python import model_builder as mb

    model = mb.Model()  # type: ignore[no-untyped-call]
    model.name = "arc_flow"
    labels = _flow_names(f, names, lp_names)
    arcs: list[Any] = []
    for first in range(0, len(labels), CLOCK_CHUNK):
        check_time(run, "building the flow model")
        chunk = labels[first : first + CLOCK_CHUNK]
        if f.backend == "glop":
            arcs.extend(model.new_num_var(0, 1, n) for n in chunk)
        else:
            arcs.extend(model.new_bool_var(n) for n in chunk)
    inc = _incidence(f)
    coefs: list[float] = [float(c) for c in inc.coefs]
    cells = f.graph.cell_names() if names else []
    weighted_sum = mb.LinearExpr.weighted_sum
    for v in range(f.graph.n_nodes):
        if v % CLOCK_CHUNK == 0:
            check_time(run, "building the flow model")
        a, b = inc.ptr[v], inc.ptr[v + 1]
        terms = [arcs[i] for i in inc.arcs[a:b]]
        row = weighted_sum(terms, coefs[a:b]) == inc.rhs[v]
        model.add(row, name=f"flow[{cells[v]}]" if names else None)
    model.minimize(mb.LinearExpr.sum(arcs))
    return model, arcs


def _solve_flow_cpsat(bundle: FlowModel, run: Run) -> list[float] | None:
    """The arcs' flows by CP-SAT (the integer backend); ``None``: infeasible.

    Raises:
        SolveLimitError: the limit came before the optimum.
    """
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    configure_cpsat(solver, run)
    # The LP relaxation is integral; presolve only costs time here.
    solver.parameters.cp_model_presolve = False
    status, _ = solve_cpsat(solver, bundle.model, run)
    if status == cp_model.OPTIMAL:
        return [float(solver.value(x)) for x in bundle.arcs]
    if status == cp_model.INFEASIBLE:
        return None
    raise SolveLimitError(
        "the time limit was reached before the flow model was solved",
        effort=Effort(branches=solver.num_branches, conflicts=solver.num_conflicts),
    )


def solve_flow(
    board: Board,
    piece: Leaper,
    source: Cell,
    target: Cell,
    *,
    run: Run,
    backend: str = "glop",
) -> Distance:
    """A unit flow over the move graph's arcs, by any backend.

    By default only the LP relaxation is solved (GLOP's simplex returns a
    vertex, integral because the matrix is totally unimodular), and the
    optimum is checked to be integral; the integer backends give the same
    distance, slower.

    Args:
        board: a finite board.
        piece: the leaper.
        source: the source cell.
        target: the target cell.
        run: the run context (time limit, workers, seed; its clock).
        backend: a name in :data:`FLOW_BACKENDS`.

    Returns:
        The distance and the path the flow carries; ``details``: ``arcs``,
        ``backend``, ``solve_seconds``.

    Raises:
        InvalidBoardError: the board is the unbounded plane.
        NoPathError: the flow model is infeasible (the target is unreachable).
        SolveLimitError: the time limit was reached.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> from cpknight.solving import SolveOptions
        >>> b = Board.parse("3x3")
        >>> solve_flow(b, KNIGHT, (0, 0), (1, 2), run=SolveOptions().start()).distance
        1
        >>> solve_flow(b, KNIGHT, (0, 0), (1, 1), run=SolveOptions().start())
        Traceback (most recent call last):
        ...
        cpknight.errors.NoPathError: b2 cannot be reached from a1 by the knight \
(1,2) on board 3x3 (the flow model is infeasible)
    """
    check_backend(backend, FLOW_BACKENDS)
    load_backend(backend)
    board.require_finite("method 'flow'")
    graph = move_graph(board, piece)
    check_flow_size(graph)
    bundle = _build_flow(graph, source, target, backend, names=False, run=run)
    run.check("building the flow model")
    solve_started = time.perf_counter()
    values = (
        _solve_flow_cpsat(bundle, run)
        if backend == "cpsat"
        else solve_builder(bundle.model, bundle.arcs, backend, run)
    )
    solve_seconds = time.perf_counter() - solve_started
    if values is None:
        raise no_path_error(
            board, piece, source, target, why="the flow model is infeasible"
        )
    if backend == "glop" and any(abs(v - round(v)) > 1e-6 for v in values):
        raise EngineError("internal error: the flow LP has a fractional optimum")
    path = bundle.decode(values)
    details = {
        "arcs": len(bundle.arcs),
        "backend": backend,
        "solve_seconds": round(solve_seconds, 6),
    }
    return make_distance(
        board,
        piece,
        source,
        target,
        path,
        method="flow",
        started=run.clock.started,
        details=details,
    )


def solve(instance: DistanceInstance, run: Run) -> Distance:
    """The ``flow`` distance method: the LP relaxation by GLOP (see :func:`solve_flow`).

    Examples:
        >>> from cpknight import knight_distance
        >>> knight_distance("holed8", "a1", "h8", method="flow").distance
        6
    """
    return solve_flow(
        instance.board, instance.piece, instance.source, instance.target, run=run
    )
