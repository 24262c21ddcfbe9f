"""The ``cpsat`` swap engine: a time-indexed CP-SAT planning model.

For a horizon of ``T`` moves, a Boolean ``at[c,v,t]`` says that a knight of
colour ``c`` stands on cell ``v`` after ``t`` moves, and ``move[c,u->v,t]``
that move ``t`` takes a knight of colour ``c`` from ``u`` to ``v``:

- exactly one move per step: ``sum move[.,.,t] = 1``;
- flow: ``at[c,v,t] = at[c,v,t-1] + moves of c into v - moves of c out of v``
  (a knight leaves only a cell it stood on, and lands only on a cell its
  colour did not hold), written as clauses (:data:`FLOW`);
- one knight a cell: ``sum_c at[c,v,t] <= 1`` (with the flow, the cell a knight
  lands on was empty);
- the start at ``t = 0``, the goal at ``t = T``.

Only the ``at`` and ``move`` that distances allow are made: a knight of
colour ``c`` can stand on ``v`` after ``t`` moves only if ``v`` is at most
``t`` moves from a start cell of ``c`` and at most ``T - t`` from a goal cell
of ``c``. Two redundant cuts a step say as much for all knights together:
the knights' distances from their goal cells add up to at most the moves
left, and their distances from their start cells to at most the moves made.

Two cuts keep fewer equivalent plans: of two moves in a row on four
different cells (they commute) only one order is kept, and no move goes
straight back (:func:`_add_order`). CP-SAT runs without presolve and without
its LP relaxation (:data:`PRESOLVE`, :data:`LINEARIZATION`).

The horizon starts at the lower bound (:mod:`cpknight.swaps.bounds`: the
matched distances, with the board's parity) and grows (by two where the
parity is fixed) until the model is feasible: every shorter horizon was
proved infeasible, so the first feasible one is the fewest moves.

Examples:
    >>> from cpknight.swaps.drawings import named_puzzle
    >>> m = build_swap_model(named_puzzle("guarini"), horizon=8)
    >>> m.sizes()["horizon"], "exactly one move" in m.formulation()
    (8, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cpknight.board import Board
from cpknight.errors import EngineError, ModelTooBigError, NoPathError, SolveLimitError
from cpknight.formulation import CpsatBundle
from cpknight.pieces import KNIGHT, PieceLike, as_piece
from cpknight.solving import Run, configure_cpsat, solve_cpsat
from cpknight.status import Effort
from cpknight.swaps.bounds import INF, distances_from, lower_bound, parity
from cpknight.swaps.common import (
    Placement,
    Swap,
    SwapInstance,
    make_swap,
    placement_text,
)

__all__ = [
    "FLOW",
    "LINEARIZATION",
    "MAX_SWAP_LITERALS",
    "ORDER",
    "ORDER_CLAUSES",
    "PRESOLVE",
    "SwapModel",
    "build_swap_model",
    "solve",
]

MAX_SWAP_LITERALS = 3_000_000
"""The most Booleans one horizon's model is built with (about 1 KB each in
CP-SAT with its constraints): past it the horizon is refused, at its limit."""


LINEARIZATION = 0
"""CP-SAT's ``linearization_level`` for the swap model (its default is 1)."""

PRESOLVE = False
"""Whether CP-SAT presolves the swap model: off, it starts searching at once
(presolve stalled on the 8x8 corners' model, and found nothing to remove)."""

FLOW = "clauses"
"""How a cell's colour follows the moves: ``'clauses'`` (implications and
frame axioms) or ``'linear'`` (one equation per colour, cell and step)."""

ORDER = "auto"
"""How the order of commuting moves is kept: ``'arcs'`` (a clause per pair of
disjoint arcs a step: strong, quadratic in the arcs), ``'cells'`` (three
constraints a step on the moves' cell numbers: weaker, small), or ``'auto'``
(arcs up to :data:`ORDER_CLAUSES` clauses, else cells). Guarini: 2.3 s by
arcs, 3.0 s by cells in one run; the 8x8 corners at 20 moves: 2.1 million
clauses by arcs."""

ORDER_CLAUSES = 200_000
"""The most order clauses ``'auto'`` writes pair by pair."""


@dataclass(frozen=True, eq=False)
class SwapModel(CpsatBundle):
    """A built CP-SAT model of one swap at one horizon (print, export, solve).

    Build with :func:`build_swap_model`.

    Attributes:
        model: the ``cp_model.CpModel``.
        instance: the question.
        horizon: the number of moves ``T``.
        at: ``(colour index, node, t) -> Boolean`` for the positions allowed.
        moves: per step ``t = 1..T``, ``(colour index, u, v, Boolean)``.
        counts: how many constraints of each kind were added.
    """

    model: Any
    instance: SwapInstance
    horizon: int
    at: dict[tuple[int, int, int], Any]
    moves: tuple[tuple[tuple[int, int, int, Any], ...], ...]
    counts: dict[str, int] = field(default_factory=dict)

    def sizes(self) -> dict[str, int]:
        """The horizon, the Booleans and the constraints."""
        return {
            "horizon": self.horizon,
            "position Booleans": len(self.at),
            "move Booleans": sum(len(step) for step in self.moves),
            **self.counts,
        }

    def decode(self, value: Any) -> list[tuple[int, int]]:
        """The moves ``(from, to)`` as nodes, from a Boolean's value function."""
        steps = []
        for t, step in enumerate(self.moves, start=1):
            chosen = [(u, v) for _, u, v, x in step if value(x)]
            if len(chosen) != 1:
                raise EngineError(
                    f"internal error: engine 'cpsat' decoded {len(chosen)} moves "
                    f"at step {t}"
                )
            steps.append(chosen[0])
        return steps

    def formulation(self) -> str:
        """The model, printed with this instance's own numbers."""
        return _formulation(self)


def build_swap_model(
    puzzle: SwapInstance | tuple[Board, Placement, Placement, str | None],
    *,
    horizon: int | None = None,
    piece: PieceLike = KNIGHT,
    run: Run | None = None,
) -> SwapModel:
    """Build the CP-SAT planning model of a swap at one horizon, without solving.

    Args:
        puzzle: the instance, or a puzzle ``(board, start, goal, name)``.
        horizon: the number of moves (default: the lower bound).
        piece: the leaper (for a puzzle tuple).
        run: the run whose clock bounds building.

    Returns:
        The model bundle.

    Raises:
        NoPathError: a knight cannot reach its colour's goal cells.
        ModelTooBigError: more than :data:`MAX_SWAP_LITERALS` Booleans.

    Notes:
        Size: at most ``colours x cells x (T + 1)`` position Booleans and
        ``colours x arcs x T`` move Booleans, far fewer once distances
        prune them (Guarini at 16 moves: 2 colours, 8 cells, 16 arcs).

    Examples:
        >>> from cpknight.swaps.drawings import named_puzzle
        >>> m = build_swap_model(named_puzzle("guarini"))
        >>> m.horizon, m.sizes()["move Booleans"] > 0
        (8, True)
    """
    if isinstance(puzzle, SwapInstance):
        instance = puzzle
    else:
        board, start, goal, name = puzzle
        leaper = as_piece(piece)
        leaper.check_dim(board.dim, board.label)
        instance = SwapInstance(
            board=board, piece=leaper, start=start, goal=goal, name=name
        )
    steps = lower_bound(instance) if horizon is None else horizon
    return _build(instance, steps, _Distances(instance), run)


class _Distances:
    """Each colour's distance from its nearest start cell and goal cell, per node."""

    def __init__(self, instance: SwapInstance) -> None:
        n = instance.graph.n_nodes
        self.start: list[list[int]] = []
        self.goal: list[list[int]] = []
        for side, where in ((self.start, instance.start), (self.goal, instance.goal)):
            for group in instance.nodes(where):
                best = [INF] * n
                for a in group:
                    best = [
                        min(x, y)
                        for x, y in zip(best, distances_from(instance, a), strict=True)
                    ]
                side.append(best)


def _build(
    instance: SwapInstance, horizon: int, dist: _Distances, run: Run | None
) -> SwapModel:
    from ortools.sat.python import cp_model

    graph = instance.graph
    n = graph.n_nodes
    names = graph.cell_names()
    colours = instance.colours
    tails, heads = (a.tolist() for a in graph.arcs())
    model = cp_model.CpModel()
    at: dict[tuple[int, int, int], Any] = {}
    allowed = [
        [
            v
            for v in range(n)
            if dist.start[c][v] <= t and dist.goal[c][v] <= horizon - t
        ]
        for c in range(len(colours))
        for t in range(horizon + 1)
    ]
    literals = sum(len(a) for a in allowed) * 3
    if literals > MAX_SWAP_LITERALS:
        raise ModelTooBigError(
            f"the swap model of {instance.describe()} at {horizon} moves would "
            f"have about {literals:,} Booleans; it is built with at most "
            f"{MAX_SWAP_LITERALS:,}"
        )
    start_nodes = instance.nodes(instance.start)
    goal_nodes = instance.nodes(instance.goal)

    def position(c: int, v: int, t: int) -> Any:
        """The position literal, or the constant 0/1 it is fixed to."""
        if t == 0:
            return int(v in start_nodes[c])
        if t == horizon:
            return int(v in goal_nodes[c])
        return at.get((c, v, t), 0)

    for c in range(len(colours)):
        for t in range(1, horizon):
            if run is not None:
                run.check("building the model")
            for v in allowed[c * (horizon + 1) + t]:
                at[c, v, t] = model.new_bool_var(f"at[{colours[c]},{names[v]},{t}]")
    moves: list[tuple[tuple[int, int, int, Any], ...]] = []
    flow = "flow equations" if FLOW == "linear" else "flow clauses"
    counts = {"one-move constraints": 0, flow: 0, "cell capacities": 0}
    for t in range(1, horizon + 1):
        if run is not None:
            run.check("building the model")
        step = []
        for c in range(len(colours)):
            for u, v in zip(tails, heads, strict=True):
                before, after = position(c, u, t - 1), position(c, v, t)
                if isinstance(before, int) and before == 0:
                    continue
                if isinstance(after, int) and after == 0:
                    continue
                x = model.new_bool_var(f"move[{colours[c]},{names[u]}->{names[v]},{t}]")
                step.append((c, u, v, x))
        if not step:
            raise NoPathError(
                f"no swap of {horizon} moves: no move fits step {t}", bound=horizon
            )
        model.add_exactly_one([x for *_, x in step])
        counts["one-move constraints"] += 1
        into: dict[tuple[int, int], list[Any]] = {}
        out: dict[tuple[int, int], list[Any]] = {}
        for c, u, v, x in step:
            out.setdefault((c, u), []).append(x)
            into.setdefault((c, v), []).append(x)
        for c in range(len(colours)):
            for v in range(n):
                now, before = position(c, v, t), position(c, v, t - 1)
                gain, loss = into.get((c, v), []), out.get((c, v), [])
                if (
                    isinstance(now, int)
                    and isinstance(before, int)
                    and not (gain or loss)
                ):
                    if now != before:
                        raise EngineError("internal error: a fixed position changes")
                    continue
                if FLOW == "linear":
                    model.add(now == before + sum(gain) - sum(loss))
                    counts[flow] += 1
                else:
                    counts[flow] += _add_flow_clauses(model, before, now, gain, loss)
        if t < horizon:
            for v in range(n):
                here = [at[c, v, t] for c in range(len(colours)) if (c, v, t) in at]
                if len(here) > 1:
                    model.add_at_most_one(here)
                    counts["cell capacities"] += 1
            left = [
                dist.goal[c][v] * x
                for (c, v, s), x in at.items()
                if s == t and dist.goal[c][v]
            ]
            made = [
                dist.start[c][v] * x
                for (c, v, s), x in at.items()
                if s == t and dist.start[c][v]
            ]
            if left:
                model.add(sum(left) <= horizon - t)
            if made:
                model.add(sum(made) <= t)
        moves.append(tuple(step))
    counts["distance cuts"] = 2 * max(horizon - 1, 0)
    counts.update(_add_order(model, moves, tails, heads, names, run))
    return SwapModel(
        model=model,
        instance=instance,
        horizon=horizon,
        at=at,
        moves=tuple(moves),
        counts=counts,
    )


def _clause(model: Any, literals: list[Any]) -> int:
    """Add the clause (``1``: true, ``0``: false, negation by ``('not', x)``)."""
    out = []
    for lit in literals:
        if isinstance(lit, tuple):
            x = lit[1]
            if isinstance(x, int):
                if x == 0:
                    return 0  # not false: the clause holds
                continue
            out.append(x.Not())
        elif isinstance(lit, int):
            if lit == 1:
                return 0
        else:
            out.append(lit)
    if not out:
        raise NoPathError("no swap: a step cannot be made", bound=None)
    model.add_bool_or(out)
    return 1


def _add_flow_clauses(
    model: Any, before: Any, now: Any, gain: list[Any], loss: list[Any]
) -> int:
    """The flow of one colour at one cell and step, as clauses.

    A move out needs the knight before and leaves the cell empty of its
    colour; a move in needs it empty before and fills it; a cell changes only
    by a move (frame axioms). With exactly one move a step and one knight a
    cell, these say what the flow equation says. Returns the clauses added.
    """
    added = 0
    for x in loss:
        added += _clause(model, [("not", x), before])
        added += _clause(model, [("not", x), ("not", now)])
    for x in gain:
        added += _clause(model, [("not", x), now])
        added += _clause(model, [("not", x), ("not", before)])
    added += _clause(model, [("not", before), now, *loss])
    added += _clause(model, [before, ("not", now), *gain])
    return added


def _add_order(
    model: Any,
    moves: list[tuple[tuple[int, int, int, Any], ...]],
    tails: list[int],
    heads: list[int],
    names: list[str],
    run: Run | None,
) -> dict[str, int]:
    """Keep one order of independent moves, and never undo the last move.

    Two moves in a row on four different cells can be made in either order;
    keep the order that leaves the lower numbered cell first (the
    lexicographically least order of each set of commuting moves survives,
    so some fewest-move answer always does). ``from[t]`` and ``to[t]`` are
    the cells of move ``t`` (sums of its Booleans times the cell numbers);
    ``back[t]`` may hold only if move ``t+1`` leaves the cell move ``t``
    reached, ``into[t]`` only if it lands where move ``t`` left:
    ``from[t] < from[t+1]`` unless one of them holds. A move straight back
    undoes the one before it: no fewest-move answer has it.

    With :data:`ORDER` ``'arcs'`` (or ``'auto'`` on small models), the order
    is written as one clause per pair of disjoint arcs at each step instead.
    """
    if ORDER == "none":
        return {}
    pairs = len(tails) ** 2 * max(len(moves) - 1, 0)
    if ORDER == "arcs" or (ORDER == "auto" and pairs <= ORDER_CLAUSES):
        return _add_order_by_arcs(model, moves, tails, heads, names, run)
    undo = 0
    for t in range(len(moves) - 1):
        if run is not None:
            run.check("building the model")
        now, nxt = moves[t], moves[t + 1]
        first = sum(u * x for _, u, _, x in now)
        second = sum(u * x for _, u, _, x in nxt)
        reached = sum(v * x for _, _, v, x in now)
        landed = sum(v * x for _, _, v, x in nxt)
        back = model.new_bool_var(f"back[{t + 1}]")
        into = model.new_bool_var(f"into[{t + 1}]")
        model.add(second == reached).only_enforce_if(back)
        model.add(landed == first).only_enforce_if(into)
        model.add(first < second).only_enforce_if([back.Not(), into.Not()])
        arc_now: dict[tuple[int, int], list[Any]] = {}
        arc_next: dict[tuple[int, int], list[Any]] = {}
        for _, u, v, x in now:
            arc_now.setdefault((u, v), []).append(x)
        for _, u, v, x in nxt:
            arc_next.setdefault((u, v), []).append(x)
        for (u, v), xs in arc_now.items():
            ys = arc_next.get((v, u))
            if ys:
                model.add(sum(xs) + sum(ys) <= 1)
                undo += 1
    steps = max(len(moves) - 1, 0)
    return {"order constraints": 3 * steps, "no-undo constraints": undo}


def _add_order_by_arcs(
    model: Any,
    moves: list[tuple[tuple[int, int, int, Any], ...]],
    tails: list[int],
    heads: list[int],
    names: list[str],
    run: Run | None,
) -> dict[str, int]:
    """The order as clauses over pairs of disjoint arcs (the first formulation).

    ``moved[u->v,t]`` says move ``t`` goes from ``u`` to ``v`` (any colour);
    for two disjoint arcs ``a > b``, not ``moved[a,t]`` and ``moved[b,t+1]``.
    """
    arcs = list(zip(tails, heads, strict=True))
    index = {arc: i for i, arc in enumerate(arcs)}
    moved: list[dict[int, Any]] = []
    for t, step in enumerate(moves, start=1):
        by_arc: dict[int, list[Any]] = {}
        for _, u, v, x in step:
            by_arc.setdefault(index[u, v], []).append(x)
        here = {}
        for a, xs in by_arc.items():
            u, v = arcs[a]
            y = model.new_bool_var(f"moved[{names[u]}->{names[v]},{t}]")
            model.add(y == sum(xs))
            here[a] = y
        moved.append(here)
    order = undo = 0
    for t in range(len(moved) - 1):
        if run is not None:
            run.check("building the model")
        now, nxt = moved[t], moved[t + 1]
        for a, x in now.items():
            u, v = arcs[a]
            back = index[v, u]
            if back in nxt:
                model.add_bool_or([x.Not(), nxt[back].Not()])
                undo += 1
            for b, y in nxt.items():
                if b < a and not {u, v} & set(arcs[b]):
                    model.add_bool_or([x.Not(), y.Not()])
                    order += 1
    return {"order clauses": order, "no-undo clauses": undo}


def solve(instance: SwapInstance, run: Run) -> Swap:
    """The ``cpsat`` engine: grow the horizon until the model is feasible.

    Returns:
        The fewest moves, proved: every shorter horizon was infeasible.

    Raises:
        NoPathError: proved impossible (a knight cannot reach its goal cells,
            or the horizon passed the number of placements).
        SolveLimitError: the limit came first, with the horizon proved so far.
    """
    from ortools.sat.python import cp_model

    started = run.clock.started
    bound = lower_bound(instance)
    step = 1 if parity(instance) is None else 2
    dist = _Distances(instance)
    branches = conflicts = 0
    horizon = bound
    while True:
        effort = Effort(branches=branches, conflicts=conflicts)
        run.check(f"trying {horizon} moves", effort=effort, bound=horizon)
        if horizon > instance.states:
            raise NoPathError(
                f"no swap: {horizon} moves exceed the {instance.states:,} placements",
                effort=effort,
            )
        if horizon == 0:
            return make_swap(
                instance, [], status="optimal", bound=0, method="cpsat", started=started
            )
        try:
            built = _build(instance, horizon, dist, run)
        except SolveLimitError:  # while building: every shorter horizon is out
            raise SolveLimitError(
                f"no swap found by the time limit (building the model of {horizon} "
                f"moves); at least {horizon} moves",
                effort=effort,
                bound=horizon,
            ) from None
        solver = cp_model.CpSolver()
        configure_cpsat(solver, run)
        # No LP relaxation by default: one run of benchmarks/swaps.py --lp
        # found the 8x8 corners (20 moves) in 2.5 s of CPU without it and
        # nothing in 20 s with it; Guarini took 0.44 s against 0.26 s.
        solver.parameters.linearization_level = LINEARIZATION
        solver.parameters.cp_model_presolve = PRESOLVE
        code, _ = solve_cpsat(solver, built.model, run)
        branches += int(solver.num_branches)
        conflicts += int(solver.num_conflicts)
        effort = Effort(branches=branches, conflicts=conflicts)
        if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            steps = built.decode(solver.boolean_value)
            return make_swap(
                instance,
                steps,
                status="optimal",
                bound=horizon,
                method="cpsat",
                started=started,
                effort=effort,
                least=bound,
            )
        if code == cp_model.MODEL_INVALID:
            raise EngineError(
                "internal error: engine 'cpsat' built an invalid model: "
                f"{built.model.validate()}"
            )
        if code != cp_model.INFEASIBLE:
            raise SolveLimitError(
                f"no swap found by the time limit; at least {horizon} moves",
                effort=effort,
                bound=horizon,
            )
        horizon += step


# --------------------------------------------------------------- formulation


def _flow_lines() -> list[str]:
    """The flow, as built (:data:`FLOW`)."""
    if FLOW == "linear":
        return [
            "           flow: at[c,v,t] = at[c,v,t-1] + sum_u move[c,u->v,t] - "
            "sum_w move[c,v->w,t]"
        ]
    return [
        "           flow as clauses: move[c,u->v,t] => at[c,u,t-1], not at[c,u,t], "
        "at[c,v,t], not at[c,v,t-1];",
        "           a cell changes only by a move: at[c,v,t-1] and not at[c,v,t] "
        "=> some move[c,v->w,t],",
        "           not at[c,v,t-1] and at[c,v,t] => some move[c,u->v,t]",
    ]


def _order_lines(m: SwapModel) -> list[str]:
    """The order of commuting moves and the no-undo cut, as built."""
    if "order clauses" in m.counts:
        return [
            "           order: not (moved[a,t] and moved[b,t+1]) for disjoint arcs "
            "a > b (commuting moves: keep one order),",
            "           no undo: not (moved[u->v,t] and moved[v->u,t+1])",
        ]
    if "order constraints" in m.counts:
        return [
            "           order: from[t] < from[t+1] unless move t+1 leaves to[t] "
            "or lands on from[t] (commuting moves: keep one order),",
            "           no undo: sum_c move[c,u->v,t] + sum_c move[c,v->u,t+1] <= 1",
        ]
    return []


def _formulation(m: SwapModel) -> str:
    inst = m.instance
    board = inst.board
    sizes = m.sizes()
    T = m.horizon
    colours = ", ".join(inst.colours)
    lines = [
        f"The fewest moves that swap {inst.describe()}",
        f"start      {placement_text(board, inst.start)}",
        f"goal       {placement_text(board, inst.goal)}",
        f"horizon    T = {T} moves (grown from the lower bound until feasible)",
        "",
        f"variables  at[c,v,t] in {{0, 1}}: a knight of colour c in {{{colours}}} "
        f"on cell v after t moves, 0 < t < {T}: {sizes['position Booleans']}",
        f"           move[c,u->v,t] in {{0, 1}}: move t takes a knight of colour c "
        f"from u to v: {sizes['move Booleans']}",
        "           (only those the distances allow: v within t moves of a start "
        f"cell of c and {T} - t of a goal cell)",
        "subject to exactly one move a step: sum_{c,u->v} move[c,u->v,t] = 1, "
        f"t = 1..{T}",
        *_flow_lines(),
        "           one knight a cell: sum_c at[c,v,t] <= 1",
        "           at[c,v,0] = 1 on the start cells of c, at[c,v,T] = 1 on its "
        "goal cells, 0 elsewhere",
        "           cuts: sum_{c,v} dist(v, goal of c) at[c,v,t] <= T - t and "
        "sum_{c,v} dist(start of c, v) at[c,v,t] <= t",
        *_order_lines(m),
        "solve      feasibility; T = lower bound, lower bound + "
        f"{1 if parity(inst) is None else 2}, ... until feasible",
        "",
        "sizes      " + ", ".join(f"{k} {v}" for k, v in sizes.items()),
    ]
    return "\n".join(lines)
