"""Tours as CP-SAT circuit models: build, print, export and solve.

A closed tour is a Hamiltonian circuit of the move graph: one Boolean
``arc[u->v]`` per move arc and CP-SAT's ``add_circuit`` over them. An open tour
is a Hamiltonian path, turned into a circuit by one of three forms, whichever
is cheapest for the instance:

- ``'closing-arc'`` (start and end fixed): the move arcs that enter the start
  or leave the end are dropped and one arc ``end -> start`` closes the path.
- ``'return-arcs'`` (start fixed, or end fixed): the move arcs into the start
  are replaced by a return arc ``v -> start`` from every other cell; the arc
  used marks the last cell. Symmetrically for a fixed end. No extra node.
- ``'dummy-node'`` (neither fixed): an extra node joined to the cells that can
  be ends; on a bipartite move graph only to one colour class each way (an
  even number of cells: start on colour 0, end on colour 1, which picks one
  direction of each path), or to the larger class (an odd number).

Each form is one function of :mod:`cpknight.tours.cpsat.arcs`, which lays the
arcs out; :mod:`cpknight.tours.cpsat.side` writes the side constraints on
them, before the one frozen bundle is made.

The move arcs are laid out deep first (:func:`deep_first_order`): the cells
farthest from the rim first, the rim last, shuffled within each depth. CP-SAT
takes its first decisions in that order, and this order is what makes the
engine fast on mid-size boards: closed 100x100 in about 4 s and 120x120 in
6-10 s with one worker, where the row-major layout took 25 s and 56 s.
A plain tour (no side constraints) is then solved without presolve, probing or
symmetry detection (:data:`PLAIN_TOUR_PARAMETERS`), which cost more than the
search once the order is right, and, like every tour, without the linear
relaxation. Counting keeps the row-major order (``'moves'``): enumeration
gains nothing from it. Closed tours from 8x8 to 120x120 gain
(``benchmarks/tours.py --big``), and none of open tours, fixed ends, holed
boards, tori and other leapers lost (50x50 open: 1.9 s -> 0.7 s).

:func:`build_tour_model` returns a frozen :class:`TourModel` bundle that can be
printed (:meth:`TourModel.formulation`) or exported (:meth:`TourModel.export`)
without being solved; :func:`solve_tour` is the ``'cpsat'`` engine of
:func:`cpknight.api.find_tour`; :func:`cpknight.counting.cpsat.solve` enumerates.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import move_graph
    >>> m = build_tour_model(move_graph(Board.parse("8x8")), closed=True)
    >>> m.form, m.n_arcs, m.arc_name(0)  # deep first: a cell of the centre
    ('circuit', 336, 'arc[e5->g6]')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt
from ortools.sat.python import cp_model

from cpknight.board import Cell
from cpknight.checks import make_tour
from cpknight.constraints import TourConstraints
from cpknight.errors import (
    CpknightError,
    EngineError,
    InvalidInputError,
    NoTourError,
    SolveLimitError,
)
from cpknight.formulation import CpsatBundle, add_circuit_arcs, check_circuit_size
from cpknight.pieces import MoveGraph
from cpknight.results import Tour
from cpknight.scores import count_crossings, count_turns, make_scored_tour
from cpknight.solving import Run, SolveOptions, configure_cpsat, solve_cpsat
from cpknight.status import Effort
from cpknight.tours.certificates import tour_certificate
from cpknight.tours.constrained import (
    magic_certificate,
    steps_certificate,
    symmetry_certificate,
)
from cpknight.tours.cpsat import magic as magic_model
from cpknight.tours.cpsat import objective as objective_model
from cpknight.tours.cpsat.arcs import (
    ArcLayout,
    cell_depths,
    deep_first_order,
    lay_out_arcs,
)
from cpknight.tours.cpsat.covers import cover_phase
from cpknight.tours.cpsat.magic import add_first_phase, structure_applies
from cpknight.tours.cpsat.objective import ObjectiveModel
from cpknight.tours.cpsat.side import add_side_constraints
from cpknight.tours.instance import TourInstance

__all__ = [
    "TourModel",
    "build_tour_model",
    "cell_depths",
    "circuit_solver",
    "deep_first_order",
    "solve",
]

IntArray = npt.NDArray[np.int64]


PLAIN_TOUR_PARAMETERS: dict[str, bool | int] = {
    "cp_model_presolve": False,
    "cp_model_probing_level": 0,
    "symmetry_level": 0,
}
"""CP-SAT parameters of one tour without side constraints (and no LP, as always).

On a circuit of move arcs presolve finds next to nothing (the cells with two
moves) yet costs more than the search once the arcs are laid out deep first
(closed 100x100, one worker: presolve 4.5 s and probing 1.6 s, then 2.7 s of
search; without them 3.3-4.3 s in all). The arc order is what makes this pay:
with the row-major layout and these parameters 70x70 needs 51,161 conflicts
and 20 s instead of 10 and 1.6 s. Side constraints (visit numbers, magic sums,
symmetry) keep the defaults: presolve simplifies their linear constraints.
"""

PLAIN_TOUR_SUBSOLVERS = ("no_lp", "quick_restart_no_lp")
"""The CP-SAT workers of one plain tour when more than one is asked for.

By default the first of several workers is ``default_lp``, which brings back
the linear relaxation, and the second a feasibility jump that never finds a
tour: closed 100x100 with two workers took 38.6 s against 3.7 s with one; with
these two, 5.1 s (on a machine whose two cores were shared).
"""

_SHOWN_CELLS = 12
"""How many cells' arcs :meth:`TourModel.formulation` lists before eliding."""


@dataclass(frozen=True, eq=False, kw_only=True)
class TourModel(CpsatBundle, ArcLayout):
    """A built tour model: the arcs, the CP-SAT model and what reads it back.

    The :class:`~cpknight.tours.cpsat.arcs.ArcLayout` (graph, ends, form,
    arcs, order) with the model written on it. Arcs ``0 .. n_move_arcs - 1``
    are move arcs; the rest are the open form's extra arcs (closing, return or
    dummy-node arcs). Node ``n`` (the number of cells) is the dummy node when
    there is one.

    Attributes:
        model: the CP-SAT model.
        literals: the Boolean of each arc.
        constraints: the side constraints added (as given; see ``shift``).
        side: one line per kind of side constraint, for the formulation.
        positions: the visit-number variables, if any.
        objective: the turns or crossings minimised (``--min``), if any.
    """

    model: cp_model.CpModel
    literals: tuple[cp_model.IntVar, ...]
    constraints: TourConstraints = field(default_factory=TourConstraints)
    side: tuple[str, ...] = ()
    positions: tuple[cp_model.IntVar, ...] = ()
    objective: ObjectiveModel | None = None

    def decode(self, solver: cp_model.CpSolver) -> list[Cell]:
        """The tour a solved model holds, in visiting order."""
        values = np.array(list(solver.response_proto.solution), np.int64)
        cells = self.decode_values(values[: self.n_arcs])
        if self.closed and self.start is None and self.positions:
            # A floating closed tour starts where its position is 0 (magic).
            first = [solver.value(p) for p in self.positions].index(0)
            at = cells.index(self.graph.cell(first))
            cells = cells[at:] + cells[:at]
        return cells

    def decode_values(self, values: npt.NDArray[np.integer[Any]]) -> list[Cell]:
        """The tour given by 0/1 ``values`` of the arcs, in visiting order."""
        n = self.graph.n_nodes
        chosen = np.asarray(values, dtype=bool)
        succ = np.full(self.n_nodes, -1, dtype=np.int64)
        succ[self.tails[chosen]] = self.heads[chosen]
        node_of = self.graph.node
        if self.form == "dummy-node":
            first = int(succ[n])
        elif self.start is not None:
            first = node_of(self.start)
        elif self.end is not None:
            first = int(succ[node_of(self.end)])
        else:
            first = 0
        order = [first]
        succ_list = succ.tolist()
        node = first
        for _ in range(n - 1):
            node = succ_list[node]
            order.append(node)
        if self.shift:
            order = order[-self.shift :] + order[: -self.shift]
        cells: list[Cell] = [self.graph.cell(v) for v in order if 0 <= v < n]
        return cells

    def formulation(self) -> str:
        """The model in mathematics, with this instance's own numbers and names.

        Examples:
            >>> from cpknight.board import Board
            >>> from cpknight.pieces import move_graph
            >>> text = build_tour_model(move_graph(Board.parse("3x4")),
            ...                         closed=False, start="a1").formulation()
            >>> "return arcs" in text and "arc[a1->c2]" in text
            True
        """
        return _formulation(self)


def build_tour_model(
    graph: MoveGraph,
    *,
    closed: bool,
    start: Cell | str | None = None,
    end: Cell | str | None = None,
    break_symmetry: bool = False,
    names: bool = True,
    run: Run | None = None,
    arcs_only: bool = False,
    constraints: TourConstraints | None = None,
    order: str = "deep-first",
    seed: int = 0,
) -> TourModel:
    """Build the circuit model of a tour (not solved).

    Args:
        graph: the move graph.
        closed: closed (a circuit of the moves) or open (a path).
        start: the fixed first cell (a name or coordinates), if any.
        end: the fixed last cell (open tours), if any.
        break_symmetry: keep one of each tour and its reverse (for counting):
            closed tours enter the cell of fewest moves from its lower-numbered
            neighbour; open tours without fixed ends start on a lower-numbered
            cell than they end (or on colour 0, when the colours already fix it).
        names: give every Boolean its readable name (``arc[a1->b3]``).
        run: the run context whose clock bounds building (``SolveLimitError``).
        arcs_only: lay out the arcs but leave the CP-SAT model empty: enough for
            :meth:`TourModel.formulation`, which reads only the arcs (on
            1000x1000 a second instead of a minute and a half and 5 GB), not
            for solving or exporting.
        constraints: side constraints, all honoured: forbidden moves fix their
            arcs to 0; a required move's two arcs sum to 1; a symmetry ``s``
            adds ``arc[a->b] + arc[b->a] == arc[s(a)->s(b)] + arc[s(b)->s(a)]``
            for every move; visit numbers add a position ``pos[v]`` per cell
            with ``pos[h] == pos[t] + 1`` on every move arc used (``pos[h] ==
            0`` on an arc that starts the path), ``pos`` all different, and
            ``pos[cell] == k - 1``. A closed tour with visit numbers and no
            fixed start starts on the cell of the lowest.
        order: how the move arcs (and their Booleans) are laid out:
            ``'deep-first'`` (see :func:`deep_first_order`; CP-SAT decides the
            Booleans in this order until conflicts reorder them) or ``'moves'``
            (by tail node, then move order).
        seed: shuffles the arcs of each depth in the ``'deep-first'`` order.

    Returns:
        The :class:`TourModel` bundle.

    Raises:
        InvalidInputError: an end cell for a closed tour, or a board of fewer
            than 2 cells (closed: 3), which need no model.
        SolveLimitError: the time limit passed while building.

    Notes:
        Closed: one Boolean per move arc (336 on 8x8) and one circuit
        constraint. Open from a fixed start: the move arcs not entering the
        start plus one return arc from every other cell (329 + 63 on 8x8 from
        a1).

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("8x8"))
        >>> m = build_tour_model(g, closed=False, start="a1")
        >>> m.form, m.n_move_arcs, m.n_arcs - m.n_move_arcs
        ('return-arcs', 334, 63)
        >>> build_tour_model(g, closed=False).form
        'dummy-node'
    """
    board = graph.board
    start_cell = None if start is None else board.parse_cell(start)
    end_cell = None if end is None else board.parse_cell(end)
    given = constraints or TourConstraints()
    start_cell, side, shift = given.anchored(closed, start_cell, graph.n_nodes)
    if side:
        arcs_only = False  # side constraints are written on the Booleans
    _check_request(graph, closed, start_cell, end_cell, side, arcs_only=arcs_only)
    arcs = lay_out_arcs(
        graph,
        closed=closed,
        start=start_cell,
        end=end_cell,
        directed=bool(side.via),  # the visit numbers pick the direction
        break_symmetry=break_symmetry,
        order=order,
        seed=seed,
        shift=shift,
        arrange=not arcs_only,  # printing lists the arcs by cell
        run=run,
    )
    model = cp_model.CpModel()
    model.name = f"{'closed' if closed else 'open'} tour of {board.label}"
    literals: tuple[cp_model.IntVar, ...] = ()
    if not arcs_only:
        literals = _arc_literals(arcs, model, names=names, run=run)
    added = add_side_constraints(arcs, model, literals, side, run) if side else None
    symmetry = arcs.symmetry
    if break_symmetry and not arcs_only:  # symmetry constraints need the Booleans
        symmetry = _break_symmetry(arcs, model, literals)
    return TourModel(
        graph=graph,
        closed=closed,
        start=start_cell,
        end=end_cell,
        form=arcs.form,
        tails=arcs.tails,
        heads=arcs.heads,
        n_move_arcs=arcs.n_move_arcs,
        symmetry=symmetry,
        shift=shift,
        order=order,
        model=model,
        literals=literals,
        constraints=given,
        side=() if added is None else added.lines,
        positions=() if added is None else added.positions,
        objective=None if added is None else added.objective,
    )


def _check_request(
    graph: MoveGraph,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    side: TourConstraints,
    *,
    arcs_only: bool,
) -> None:
    """Refuse what no circuit model says right, or what is too big to build.

    Raises:
        InvalidInputError: a symmetric open tour, an end cell for a closed
            tour, an open tour from a cell to itself, fewer than 2 cells
            (closed: 3).
        ModelTooBigError: more arcs than a circuit takes (not for ``arcs_only``).
    """
    board, n = graph.board, graph.n_nodes
    if side.symmetric and not closed:
        raise InvalidInputError("a symmetric tour must be closed; drop --open")
    if closed and end is not None:
        raise InvalidInputError("a closed tour has no separate end cell; drop 'end'")
    if start is not None and start == end and n > 1:
        # The closing arc end -> start would be a self-loop, which add_circuit
        # reads as "leave this node out": refuse rather than model the wrong tour.
        raise InvalidInputError(
            f"an open tour cannot start and end on the same cell "
            f"({board.cell_name(start)}); for a circuit ask for a closed tour"
        )
    if n < (3 if closed else 2):
        raise InvalidInputError(
            f"board {board.label} has {n} open cells; a "
            f"{'closed' if closed else 'open'} tour model needs at least "
            f"{3 if closed else 2}"
        )
    if not arcs_only:  # the arcs alone are cheap: printing takes any size
        check_circuit_size(
            graph.n_arcs + n, f"the tour model of {board.label} ({graph.piece.label})"
        )


def _arc_literals(
    arcs: ArcLayout, model: cp_model.CpModel, *, names: bool, run: Run | None
) -> tuple[cp_model.IntVar, ...]:
    """One Boolean per arc (named ``arc[a1->b3]`` with ``names``) and the circuit."""
    tail_list, head_list = arcs.tails.tolist(), arcs.heads.tolist()
    labels = [*arcs.graph.cell_names(), "D"] if names else []

    def arc_name(i: int) -> str:
        return f"arc[{labels[tail_list[i]]}->{labels[head_list[i]]}]"

    return tuple(
        add_circuit_arcs(
            model, tail_list, head_list, arc_name if names else None, run=run
        )
    )


def solve(instance: TourInstance, run: Run) -> Tour:
    """The ``'cpsat'`` tour engine: build the circuit model and solve it.

    Returns:
        A checked tour; its ``effort`` holds CP-SAT's branches and conflicts.

    Raises:
        NoTourError: CP-SAT proved there is none (``certificate='search'``), or
            a cheap certificate applies on a board too small for a model.
        SolveLimitError: the time limit was reached first (with the effort).
        SolveLimitError: also when interrupted (Ctrl-C) before a tour was
            found; the search is stopped cleanly first.

    Examples:
        >>> from cpknight import find_tour, is_tour
        >>> t = find_tour("6x6", method="cpsat")
        >>> is_tour(t.board, t.cells, closed=True), t.effort.branches is not None
        (True, True)
    """
    graph, closed, start, end = (
        instance.graph,
        instance.closed,
        instance.start,
        instance.end,
    )
    options = run.options
    board = graph.board
    side = instance.constraints
    _check_side_certificates(instance)
    if graph.n_nodes < (3 if closed else 2):
        return _without_model(instance, run)
    if (
        side.magic is True
        and not side.minimise
        and magic_model.FIRST_PHASE
        and structure_applies(graph)
    ):
        found = _structured_magic(instance, run)
        if found is not None:
            return found
    bundle = build_tour_model(
        graph,
        closed=closed,
        start=start,
        end=end,
        names=options.log,
        run=run,
        constraints=side,
        seed=options.seed,
    )
    if bundle.objective is not None:
        return _solve_objective(instance, bundle, run)
    solver = circuit_solver(run, plain=not side)
    if side.via:
        # Probing the position constraints costs most of the solve (8x8 via
        # d4@11 from a1: about 0.7 s with it, 0.3 s without).
        solver.parameters.cp_model_probing_level = 0
    status, interrupted = solve_cpsat(solver, bundle.model, run)
    effort = Effort(
        branches=int(solver.num_branches), conflicts=int(solver.num_conflicts)
    )
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return make_tour(
            board,
            graph.piece,
            bundle.decode(solver),
            closed=closed,
            method="cpsat",
            effort=effort,
            seconds=run.elapsed(),
            start=start,
            end=end,
            constraints=side,
        )
    raise _no_tour(bundle, solver, status, run, interrupted=interrupted, side=side)


def _structured_magic(instance: TourInstance, run: Run) -> Tour | None:
    """A semi-magic tour with a first phase's structure, or ``None`` (go on).

    The first phase of a magic tour on boards whose sides are multiples of 4
    (the quarters of :mod:`cpknight.tours.cpsat.magic`) or 8k and 4k + 2 (the
    quartets of :mod:`cpknight.tours.cpsat.quartets`), in ``STRUCTURE_SHARE`` of the
    time left. Its "none" proves nothing about plain semi-magic tours.
    Skipped when :data:`cpknight.tours.cpsat.magic.FIRST_PHASE` is false.
    """
    graph = instance.graph
    bundle = build_tour_model(
        graph,
        closed=instance.closed,
        start=instance.start,
        end=instance.end,
        names=run.options.log,
        run=run,
        constraints=instance.constraints,
        seed=run.options.seed,
    )
    add_first_phase(
        graph,
        bundle.model,
        list(bundle.positions),
        lambda: run.check("building the first phase's structure (magic)"),
    )
    solver = circuit_solver(run)
    left = run.remaining()
    if left is not None:
        share = magic_model.STRUCTURE_SHARE
        solver.parameters.max_time_in_seconds = max(left * share, 1e-3)
    status, interrupted = solve_cpsat(solver, bundle.model, run)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if interrupted:  # Ctrl-C in this phase: say so, not "building the model"
            run.check("searching with the first phase's structure (magic)")
        return None
    return make_tour(
        graph.board,
        graph.piece,
        bundle.decode(solver),
        closed=instance.closed,
        method="cpsat",
        effort=Effort(
            branches=int(solver.num_branches), conflicts=int(solver.num_conflicts)
        ),
        seconds=run.elapsed(),
        start=instance.start,
        end=instance.end,
        constraints=instance.constraints,
    )


def _solve_objective(instance: TourInstance, bundle: TourModel, run: Run) -> Tour:
    """Minimise the turns or crossings: the best tour found, optimal or with a bound.

    A tour from the ``prune`` search (a tenth of the time left, at most 2 s)
    is the hint. Crossings first get a share of the time without the linear
    relaxation (``objective_model.PLAIN_PHASE``: it proves small boards
    sooner and finds better tours), then, unless proved, the rest with it
    (level ``objective_model.OBJECTIVE_LINEARIZATION``, where the lower bound
    comes from), hinted with the best tour so far.
    """
    objective = bundle.objective
    assert objective is not None
    model = bundle.model
    nodes = _warm_start(instance, run) if objective_model.WARM_START else None
    if nodes is not None:
        objective.hint(model, nodes, instance.closed)
    best: tuple[list[Cell], int] | None = None
    lower, optimal, interrupted = 0, False, False
    branches = conflicts = 0
    cover = cover_phase(instance, run)  # cycle covers and subtour cuts first
    if cover is not None:
        lower, interrupted = cover.lower, cover.interrupted
        branches, conflicts = cover.branches, cover.conflicts
        if cover.nodes is not None:
            best = ([bundle.graph.cell(v) for v in cover.nodes], cover.lower)
            optimal = True
        elif lower:  # a proved bound: CP-SAT proves a tour that meets it
            model.add(objective.score() >= lower)
        if interrupted and best is None and nodes is not None:  # keep the hint
            cells = [bundle.graph.cell(v) for v in nodes]
            count = count_turns if objective.objective == "turns" else count_crossings
            best = (cells, count(bundle.graph.board, cells, closed=instance.closed))
    share = objective_model.PLAIN_PHASE.get(objective.objective, 0.0)
    phases = [(0, share), (objective_model.OBJECTIVE_LINEARIZATION, 1.0)]
    for level, part in phases if share > 0 else phases[1:]:
        if optimal or interrupted or (best is not None and run.expired()):
            break
        solver = circuit_solver(run)
        solver.parameters.linearization_level = level
        left = run.remaining()
        if left is not None and part < 1.0:
            solver.parameters.max_time_in_seconds = max(left * part, 1e-3)
        status, interrupted = solve_cpsat(solver, model, run)
        branches += int(solver.num_branches)
        conflicts += int(solver.num_conflicts)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            lower = max(lower, math.ceil(solver.best_objective_bound - 1e-6))
            value = round(solver.objective_value)
            if best is None or value < best[1]:
                best = (bundle.decode(solver), value)
            optimal = status == cp_model.OPTIMAL
            model.clear_hints()  # type: ignore[no-untyped-call]
            graph = bundle.graph
            objective.hint(model, [graph.node(c) for c in best[0]], instance.closed)
        elif status == cp_model.INFEASIBLE or (best is None and run.expired()):
            error = _no_tour(
                bundle,
                solver,
                status,
                run,
                interrupted=interrupted,
                side=instance.constraints,
            )
            if isinstance(error, SolveLimitError) and lower > 0:
                error.bound = lower  # the cycle covers' proved bound is kept
            raise error
    optimal = optimal or (best is not None and best[1] <= lower)
    if best is None:
        raise SolveLimitError(
            "no tour found within the time limit (CP-SAT)",
            effort=Effort(branches=branches, conflicts=conflicts),
            bound=lower or None,
        )
    return make_scored_tour(
        bundle.graph.board,
        bundle.graph.piece,
        best[0],
        closed=instance.closed,
        method="cpsat",
        objective=objective.objective,
        claimed=best[1],
        lower=max(0, lower),
        optimal=optimal,
        effort=Effort(branches=branches, conflicts=conflicts),
        seconds=run.elapsed(),
        start=instance.start,
        end=instance.end,
        constraints=instance.constraints,
    )


def _warm_start(instance: TourInstance, run: Run) -> list[int] | None:
    """A tour by the ``prune`` search, as nodes, or ``None`` (none in its time).

    Only with side constraints the search takes (required and forbidden
    moves): the objective itself it ignores.
    """
    from cpknight.tours.search import solve_prune

    side = instance.constraints
    if side.via or side.symmetric or side.magic:
        return None
    left = run.remaining()
    budget = 2.0 if left is None else min(2.0, left / 10)
    if budget <= 0.01:
        return None
    plain = replace(side, minimise=None)
    try:
        tour = solve_prune(
            replace(instance, constraints=plain),
            SolveOptions(time_limit=budget, seed=run.options.seed).start(),
        )
    except CpknightError:
        return None
    graph = instance.graph
    return [graph.node(cell) for cell in tour.cells]


def _without_model(instance: TourInstance, run: Run) -> Tour:
    """A board too small for a circuit model: its one tour, or the proof of none."""
    graph, closed = instance.graph, instance.closed
    start, end = instance.start, instance.end
    found = tour_certificate(graph, closed=closed, start=start, end=end)
    if found is not None:
        raise NoTourError(found.reason, certificate=found.name)
    return make_tour(
        graph.board,
        graph.piece,
        graph.cells,
        closed=closed,
        method="cpsat",
        seconds=run.elapsed(),
        start=start,
        end=end,
        constraints=instance.constraints,
    )


def _check_side_certificates(instance: TourInstance) -> None:
    """Raise :class:`NoTourError` where a cheap certificate rules the side out.

    A symmetry no closed tour has, magic sums no board of this shape has, or
    visit numbers too few moves apart.
    """
    graph, side, closed = instance.graph, instance.constraints, instance.closed
    if side.symmetric and closed and graph.n_nodes >= 3:
        reason = symmetry_certificate(graph, side.symmetric)
        if reason is not None:
            raise NoTourError(reason, certificate="symmetry")
    if side.magic:
        reason = magic_certificate(graph, side.magic_axes)
        if reason is not None:
            raise NoTourError(reason, certificate="magic")
    if side.via:
        reason = steps_certificate(
            graph, side, closed=closed, start=instance.start, end=instance.end
        )
        if reason is not None:
            raise NoTourError(reason, certificate="steps")


def _no_tour(
    bundle: TourModel,
    solver: cp_model.CpSolver,
    status: Any,
    run: Run,
    *,
    interrupted: bool,
    side: TourConstraints,
) -> NoTourError | SolveLimitError | EngineError:
    """Why CP-SAT returned no tour: proved none, stopped, or a bug.

    A run with no time limit stops only when another engine cancels it (the
    race) or on Ctrl-C: the message then says so, with no limit to name.
    """
    effort = Effort(
        branches=int(solver.num_branches), conflicts=int(solver.num_conflicts)
    )
    if status == cp_model.INFEASIBLE:
        kind = "closed" if bundle.closed else "open"
        such = f" with {side.describe(bundle.graph.board)}" if side else ""
        return NoTourError(
            f"no cheap certificate applies, but CP-SAT proved that no {kind} tour"
            f"{such} exists ({bundle.n_arcs} arcs, {effort.branches} branches)",
            certificate="search",
            effort=effort,
        )
    if interrupted:
        return SolveLimitError(
            "interrupted (Ctrl-C) before CP-SAT found a tour", effort=effort
        )
    if status == cp_model.MODEL_INVALID:
        return EngineError(
            f"internal error: CP-SAT says the tour model is invalid: "
            f"{bundle.model.validate()}"
        )
    limit = run.options.time_limit
    if run.clock.cancelled or limit is None:
        when = "before it was stopped: another engine answered first"
    else:
        when = f"within the time limit of {limit:g} s"
    return SolveLimitError(
        f"no tour found {when} (CP-SAT: {solver.status_name(status).lower()})",
        effort=effort,
    )


# --------------------------------------------------------------------- private


def circuit_solver(
    run: Run, *, enumerate_all: bool = False, plain: bool = False
) -> cp_model.CpSolver:
    """A CP-SAT solver for a built circuit model, once the clock is checked.

    No LP relaxation: a circuit feasibility problem gains nothing from it, nor
    does enumeration (30x30 tour: about 3 times faster; 6x6 count: 22 s -> 2.4 s).

    ``plain`` (one tour, no side constraints): no presolve, no probing, no
    symmetry detection either (:data:`PLAIN_TOUR_PARAMETERS`).
    """
    run.check("building the model")
    solver = cp_model.CpSolver()
    configure_cpsat(solver, run, enumerate_all=enumerate_all)
    solver.parameters.linearization_level = 0
    if plain and not enumerate_all:
        for name, value in PLAIN_TOUR_PARAMETERS.items():
            setattr(solver.parameters, name, value)
        if run.options.workers > 1:
            solver.parameters.subsolvers.extend(PLAIN_TOUR_SUBSOLVERS)
    return solver


def _break_symmetry(
    arcs: ArcLayout, model: cp_model.CpModel, lits: tuple[cp_model.IntVar, ...]
) -> str:
    """Keep one of each tour and its reverse (for counting); the rule, or ``''``."""
    if arcs.closed:
        return _break_closed_symmetry(arcs, model, lits)
    if arcs.form == "dummy-node" and not arcs.symmetry:
        return _break_open_symmetry(arcs, model, lits)
    return arcs.symmetry  # the dummy node's colours, or nothing to break


def _break_closed_symmetry(
    bundle: ArcLayout, model: cp_model.CpModel, lits: tuple[cp_model.IntVar, ...]
) -> str:
    """Enter the cell of fewest moves from its lower-numbered neighbour."""
    graph = bundle.graph
    v = int(np.argmin(graph.degree))
    into = np.flatnonzero(bundle.heads[: bundle.n_move_arcs] == v)
    out = np.flatnonzero(bundle.tails[: bundle.n_move_arcs] == v)
    rank_in = {int(bundle.tails[a]): a for a in into.tolist()}
    rank_out = {int(bundle.heads[a]): a for a in out.tolist()}
    order = sorted(set(rank_in) & set(rank_out))
    model.add(
        sum(k * lits[rank_in[u]] for k, u in enumerate(order))
        < sum(k * lits[rank_out[u]] for k, u in enumerate(order))
    )
    name = bundle.node_name
    if len(order) == 2:
        return (
            f"{name(v)} has two moves: the tour enters it from {name(order[0])} "
            f"and leaves to {name(order[1])}"
        )
    return (
        f"the tour enters {name(v)} from a lower-numbered neighbour than it leaves to"
    )


def _break_open_symmetry(
    bundle: ArcLayout, model: cp_model.CpModel, lits: tuple[cp_model.IntVar, ...]
) -> str:
    """Start on a lower-numbered cell than the end."""
    n = bundle.graph.n_nodes
    start_arcs = np.flatnonzero(bundle.tails == n)
    end_arcs = np.flatnonzero(bundle.heads == n)
    model.add(
        sum(int(bundle.heads[a]) * lits[a] for a in start_arcs.tolist())
        < sum(int(bundle.tails[a]) * lits[a] for a in end_arcs.tolist())
    )
    return "the start is a lower-numbered cell than the end"


def _formulation(m: TourModel) -> str:
    """The model in mathematics: nodes, Booleans, the circuit, the rest, the arcs."""
    graph = m.graph
    n = graph.n_nodes
    kind = "closed" if m.closed else "open"
    lines = [
        f"{kind.capitalize()} {graph.piece.label} tour of {graph.board.label} "
        f"as a CP-SAT circuit model ({m.form})",
        "",
        f"nodes: the {n} open cells"
        + (" and the dummy node D" if m.form == "dummy-node" else ""),
        f"variables: arc[u->v] in {{0, 1}} for each arc (u, v): {m.n_arcs} Booleans",
        f"  {m.n_move_arcs} move arcs (each of the {graph.n_edges} moves, both ways)",
        *_open_form_lines(m),
        "",
        "constraint:",
        f"  add_circuit(all {m.n_arcs} (u, v, arc[u->v])): the arcs set to 1 form "
        f"one circuit through all {m.n_nodes} nodes",
        "    sum_v arc[u->v] = 1 for every node u   (leave each node once)",
        "    sum_u arc[u->v] = 1 for every node v   (enter each node once)",
        "    no subtour                             (one circuit, not several)",
    ]
    if m.side:
        lines += ["", "side constraints:", *(f"  {line}" for line in m.side)]
    if m.symmetry:
        lines += ["", f"symmetry breaking: {m.symmetry}"]
    if m.order == "deep-first":
        lines += [
            "",
            "search (the cpsat engine):",
            "  the move arcs are laid out deepest tail first (depth: the fewest moves",
            "  to a cell with fewer moves than most), shuffled within a depth; CP-SAT",
            "  decides them in that order, to 0 first, until conflicts reorder them",
            (
                "  parameters: linear relaxation at level "
                f"{objective_model.OBJECTIVE_LINEARIZATION} "
                "(where the bound comes from); a tour by prune as the hint"
                if m.objective is not None
                else "  parameters: no linear relaxation"
                + ("" if m.side else "; no presolve, probing or symmetry detection")
            ),
        ]
    lines += ["", "arcs by tail node:", *_arc_lines(m)]
    return "\n".join(lines)


def _open_form_lines(m: TourModel) -> list[str]:
    """The open form's extra arcs, in words (none for a closed tour)."""
    board, n = m.graph.board, m.graph.n_nodes
    extra = m.n_arcs - m.n_move_arcs
    s = None if m.start is None else board.cell_name(m.start)
    e = None if m.end is None else board.cell_name(m.end)
    if m.form == "closing-arc":
        return [
            f"  1 closing arc arc[{e}->{s}]; the move arcs into {s} and out of {e} "
            "are dropped"
        ]
    if m.form == "return-arcs" and s is not None:
        return [
            f"  {extra} return arcs arc[v->{s}] from every other cell v (the one used "
            f"marks the last cell); the move arcs into {s} are dropped"
        ]
    if m.form == "return-arcs":
        return [
            f"  {extra} return arcs arc[{e}->v] to every other cell v (the one used "
            f"marks the first cell); the move arcs out of {e} are dropped"
        ]
    if m.form == "dummy-node":
        n_starts = int((m.tails == n).sum())
        return [
            f"  {n_starts} arcs arc[D->v] to the cells that may start, "
            f"{extra - n_starts} arcs arc[v->D] from the cells that may end"
        ]
    return []


def _arc_lines(m: TourModel) -> list[str]:
    """The arcs of the first :data:`_SHOWN_CELLS` nodes, each node's in move order."""
    graph, n = m.graph, m.graph.n_nodes
    tails = m.tails
    order = np.flatnonzero(np.bincount(tails, minlength=m.n_nodes)).tolist()
    lines = []
    for node in order[:_SHOWN_CELLS]:
        arcs = np.flatnonzero(tails == node).tolist()
        if m.order != "moves" and node < n:  # list them in move order all the same
            rank = {int(v): k for k, v in enumerate(graph.neighbors(node))}
            arcs.sort(key=lambda a: rank.get(int(m.heads[a]), len(rank)))
        lines.append(f"  {m.node_name(node)}: " + " ".join(m.arc_name(a) for a in arcs))
    if len(order) > _SHOWN_CELLS:
        lines.append(f"  ... and {len(order) - _SHOWN_CELLS} more nodes (see --export)")
    return lines
