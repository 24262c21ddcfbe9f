"""The longest-path puzzles as CP-SAT models: build, print, export, solve.

One circuit over the cells: a Boolean ``arc[u->v]`` per move arc, a self-loop
``skip[v]`` for each cell left out, and (for a path) a dummy node ``*`` with
``arc[*->v]`` (the first cell) and ``arc[v->*]`` (the last); ``add_circuit``
makes the chosen arcs one path (or cycle). Maximise the number of move arcs.

- **uncrossed**: moves that cross may not both be used. *Pairwise*: for each
  crossing pair of moves e = {u, v}, f = {w, z},
  ``arc[u->v] + arc[v->u] + arc[w->z] + arc[z->w] <= 1``. *Cliques*: one
  ``add_at_most_one`` over the arcs of each set of mutually crossing moves
  (:func:`~cpknight.longest.geometry.crossing_cliques`): fewer constraints,
  each as strong as all its pairs together.
- **induced**: two cells that are both used and one move apart must be
  consecutive: ``skip[u] or skip[v] or arc[u->v] or arc[v->u]`` per move.
- A cycle uses each move in one direction at most (no 2-cycle ``u->v->u``).
- Symmetry: a path and its reverse are the same answer, so the first cell's
  index is at most the last one's.

Examples:
    >>> m = build_longest_model("5x5", kind="uncrossed", closed=False)
    >>> m.sizes()["crossing constraints"] < m.sizes()["crossing pairs"]
    True
    >>> "maximise" in m.formulation()
    True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from cpknight.board import Board
from cpknight.errors import EngineError, NoPathError, SolveLimitError
from cpknight.formulation import (
    CHUNK,
    CpsatBundle,
    add_circuit_arcs,
    check_circuit_size,
)
from cpknight.graph import arc_bound, two_colours
from cpknight.longest.common import (
    LongestInstance,
    LongestPath,
    is_longest_kind,
    make_longest,
    trivial_bound,
)
from cpknight.longest.geometry import (
    board_reflections,
    crossing_cliques,
    crossing_pairs,
    move_edges,
)
from cpknight.pieces import KNIGHT, MoveGraph, PieceLike, as_piece
from cpknight.solving import Run, configure_cpsat, solve_cpsat
from cpknight.status import Effort

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["LongestModel", "build_longest_model", "solve"]


@dataclass(frozen=True, eq=False)
class LongestModel(CpsatBundle):
    """A built CP-SAT model of one longest-path question (print, export, solve).

    Build with :func:`build_longest_model`.

    Attributes:
        model: the ``cp_model.CpModel``.
        instance: the question.
        tails: each circuit arc's tail (cells are nodes ``0 .. n - 1``; the
            dummy node is ``n``).
        heads: each circuit arc's head.
        literals: each circuit arc's Boolean.
        edges: the moves, as node pairs ``u < v``.
        pairs: the crossing pairs of moves (uncrossed), as indices in ``edges``.
        cliques: the cliques of mutually crossing moves (uncrossed).
        constraints: how many constraints each part of the model added.
    """

    model: Any
    instance: LongestInstance
    tails: tuple[int, ...]
    heads: tuple[int, ...]
    literals: tuple[Any, ...]
    edges: tuple[tuple[int, int], ...]
    pairs: tuple[tuple[int, int], ...] = ()
    cliques: tuple[tuple[int, ...], ...] = ()
    constraints: dict[str, int] = field(default_factory=dict)

    @property
    def n_cells(self) -> int:
        """The cells (open cells of the board)."""
        return self.instance.graph.n_nodes

    def sizes(self) -> dict[str, int]:
        """Booleans and constraints of this model, with both crossing forms.

        ``crossing constraints`` counts the form built; ``crossing pairs`` and
        ``crossing cliques`` (and their ``clique literals``) are the sizes of
        the pairwise and clique forms, whichever was built.
        """
        sizes = {
            "cells": self.n_cells,
            "moves": len(self.edges),
            "Booleans": len(self.literals),
            **self.constraints,
        }
        if self.instance.kind == "uncrossed":
            sizes["crossing pairs"] = len(self.pairs)
            sizes["crossing cliques"] = len(self.cliques)
            sizes["clique literals"] = 2 * sum(len(c) for c in self.cliques)
            sizes["largest clique"] = max((len(c) for c in self.cliques), default=0)
        return sizes

    def decode(self, values: list[bool]) -> list[int]:
        """The path (or cycle) as move-graph nodes, from the arcs' 0/1 values."""
        n = self.n_cells
        succ = {
            t: h
            for t, h, v in zip(self.tails, self.heads, values, strict=True)
            if v and t != h
        }
        if not succ:
            return []
        first = succ[n] if not self.instance.closed else min(succ)
        order = [first]
        while True:
            nxt = succ[order[-1]]
            if nxt in (n, first):
                return order
            order.append(nxt)

    def formulation(self) -> str:
        """The model, printed with this instance's own numbers."""
        return _formulation(self)


def build_longest_model(
    board: Board | str,
    *,
    kind: str,
    closed: bool = False,
    piece: PieceLike = KNIGHT,
    crossings: Literal["cliques", "pairwise"] = "cliques",
    cuts: bool = False,
    run: Run | None = None,
) -> LongestModel:
    """Build the CP-SAT model of a longest-path question, without solving it.

    Args:
        board: a finite board (or a spec like ``'7x7'``).
        kind: ``'uncrossed'`` or ``'induced'``.
        closed: a cycle rather than a path.
        piece: the leaper.
        crossings: ``'cliques'`` or ``'pairwise'`` (uncrossed only).
        cuts: add the reflection and colour-balance cuts (valid, and sometimes
            faster, sometimes slower: ``benchmarks/longest.py`` says which).
        run: the run context whose clock bounds building (``SolveLimitError``).

    Returns:
        The model bundle.

    Raises:
        InvalidInputError: an uncrossed path on a board that is not bounded 2D.

    Notes:
        Size: one Boolean per move arc (2 x 168 = 336 on 8x8), one per cell
        (``skip``), two per cell for a path's dummy node. Uncrossed on 8x8:
        the crossing pairs, or far fewer cliques; induced: one clause per move.

    Examples:
        >>> m = build_longest_model("4x4", kind="induced", closed=True)
        >>> m.sizes()["Booleans"], m.constraints["no-chord clauses"]
        (64, 24)
    """
    resolved = board if isinstance(board, Board) else Board.parse(board)
    resolved.require_finite("a longest path")
    leaper = as_piece(piece)
    leaper.check_dim(resolved.dim, resolved.label)
    instance = LongestInstance(
        board=resolved,
        piece=leaper,
        kind=is_longest_kind(kind),
        closed=closed,
        crossings=crossings,
        cuts=cuts,
    )
    return _build(instance, run)


def _build(instance: LongestInstance, run: Run | None) -> LongestModel:
    from ortools.sat.python import cp_model

    board, piece = instance.board, instance.piece
    cells = board.n_open  # the skip loops, and a path's dummy node's arcs
    check_circuit_size(
        arc_bound(board, piece) + (cells if instance.closed else 3 * cells),
        f"the longest-path model of {board.label} ({piece.label})",
    )  # from the shape alone, before the move graph is built
    graph = instance.graph
    n = graph.n_nodes
    edges = move_edges(graph)
    pairs: list[tuple[int, int]] = []
    if instance.kind == "uncrossed":
        # (refuses a board it cannot draw)
        pairs = crossing_pairs(graph, edges, _checker(run, "finding the crossings"))
    tails, heads, name = _circuit_arcs(graph, instance.closed)
    model = cp_model.CpModel()
    literals = add_circuit_arcs(model, tails, heads, name, run=run)
    n_arcs = graph.n_arcs
    arc = {
        (t, h): literals[i]
        for i, (t, h) in enumerate(zip(tails[:n_arcs], heads[:n_arcs], strict=True))
    }
    skip = literals[n_arcs : n_arcs + n]
    counts = _add_one_direction(model, instance, arc, edges, literals[n_arcs:])
    used = [1 - x for x in skip]
    if instance.cuts:
        counts.update(_break_symmetry(model, instance, used))
    cliques, added = _add_kind(model, instance, arc, skip, edges, pairs, run)
    counts.update(added)
    model.maximize(sum(literals[:n_arcs]))
    return LongestModel(
        model=model,
        instance=instance,
        tails=tuple(tails),
        heads=tuple(heads),
        literals=tuple(literals),
        edges=tuple(edges),
        pairs=tuple(pairs),
        cliques=tuple(cliques),
        constraints=counts,
    )


def _checker(run: Run | None, what: str) -> Callable[[], None] | None:
    """``run``'s deadline check saying ``what`` is being done (none without a run)."""
    return None if run is None else lambda: run.check(what)


def _circuit_arcs(
    graph: MoveGraph, closed: bool
) -> tuple[list[int], list[int], Callable[[int], str]]:
    """The circuit's arcs (tails, heads) and their names, the move arcs first.

    Then a ``skip`` self-loop for each cell; a path adds a dummy node (``*``,
    numbered ``n``) with an arc to and from every cell.
    """
    n = graph.n_nodes
    names = [*graph.cell_names(), "*"]
    arc_t, arc_h = (a.tolist() for a in graph.arcs())
    tails = [*arc_t, *range(n)]
    heads = [*arc_h, *range(n)]
    if not closed:
        tails += [n] * n + list(range(n))
        heads += list(range(n)) + [n] * n

    def name(i: int) -> str:
        t, h = tails[i], heads[i]
        return f"skip[{names[t]}]" if t == h else f"arc[{names[t]}->{names[h]}]"

    return tails, heads, name


def _add_kind(
    model: Any,
    instance: LongestInstance,
    arc: dict[tuple[int, int], Any],
    skip: Sequence[Any],
    edges: list[tuple[int, int]],
    pairs: list[tuple[int, int]],
    run: Run | None,
) -> tuple[list[tuple[int, ...]], dict[str, int]]:
    """The kind's own constraints: no two moves cross, or no move is a chord.

    Returns:
        The cliques of crossing moves (uncrossed; none for induced), and the
        constraints added, by kind.
    """
    if instance.kind != "uncrossed":
        _add_no_chord(model, arc, skip, edges, run)
        return [], {"no-chord clauses": len(edges)}
    cliques = crossing_cliques(len(edges), pairs, _checker(run, "finding the cliques"))
    groups = pairs if instance.crossings == "pairwise" else cliques
    _add_no_crossing(model, arc, edges, groups, instance.crossings, run)
    return cliques, {"crossing constraints": len(groups)}


def _add_one_direction(
    model: Any,
    instance: LongestInstance,
    arc: dict[tuple[int, int], Any],
    edges: list[tuple[int, int]],
    extra: Sequence[Any],
) -> dict[str, int]:
    """Keep one of each answer and its reverse; the constraints added, by kind.

    A cycle uses no move both ways (no 2-cycle); a path's first cell is
    numbered no higher than its last (``extra``: the self-loops, then the
    arcs out of the dummy node, then those into it).
    """
    n = instance.graph.n_nodes
    if instance.closed:
        for u, v in edges:
            model.add_at_most_one(arc[u, v], arc[v, u])
        return {"one-direction constraints": len(edges)}
    if n <= 1:
        return {}
    into, out = extra[n : 2 * n], extra[2 * n :]
    model.add(
        sum(i * x for i, x in enumerate(into)) <= sum(i * x for i, x in enumerate(out))
    )
    return {"symmetry constraints": 1}


def _add_no_crossing(
    model: Any,
    arc: dict[tuple[int, int], Any],
    edges: list[tuple[int, int]],
    groups: Sequence[tuple[int, ...]],
    form: Literal["cliques", "pairwise"],
    run: Run | None,
) -> None:
    """At most one move of each group of mutually crossing moves.

    ``'pairwise'``: the groups are the crossing pairs, one linear constraint
    each; ``'cliques'``: they are cliques, one ``AtMostOne`` each. A move
    ``{u, v}`` is used when either of its arcs is.
    """
    for k, group in enumerate(groups):
        if run is not None and k % CHUNK == 0:
            run.check("building the model")
        if form == "pairwise":
            (u, v), (w, z) = edges[group[0]], edges[group[1]]
            model.add(arc[u, v] + arc[v, u] + arc[w, z] + arc[z, w] <= 1)
        else:
            model.add_at_most_one(
                [arc[e] for i in group for e in (edges[i], edges[i][::-1])]
            )


def _add_no_chord(
    model: Any,
    arc: dict[tuple[int, int], Any],
    skip: Sequence[Any],
    edges: list[tuple[int, int]],
    run: Run | None,
) -> None:
    """Each move joins a cell left out, or is on the path (a snake: no chord)."""
    for k, (u, v) in enumerate(edges):
        if run is not None and k % CHUNK == 0:
            run.check("building the model")
        model.add_bool_or([skip[u], skip[v], arc[u, v], arc[v, u]])


def solve(instance: LongestInstance, run: Run) -> LongestPath:
    """The ``cpsat`` engine: build the model, maximise, check, return.

    Returns:
        The longest path proved optimal, or the best found by the limit with
        CP-SAT's bound (``feasible``).

    Raises:
        NoPathError: proved that there is no such cycle.
        SolveLimitError: nothing found by the limit (with the bound).
        InvalidInputError: an uncrossed path on a board that is not bounded 2D.
    """
    from ortools.sat.python import cp_model

    started = run.clock.started
    if instance.board.n_open <= 1 and not instance.closed:
        return make_longest(
            instance,
            list(range(instance.graph.n_nodes)),
            status="optimal",
            bound=0,
            method="cpsat",
            started=started,
        )
    built = _build(instance, run)
    run.check("building the model")
    solver = cp_model.CpSolver()
    configure_cpsat(solver, run)
    code, _ = solve_cpsat(solver, built.model, run)
    effort = Effort(
        branches=int(solver.num_branches), conflicts=int(solver.num_conflicts)
    )
    if code == cp_model.MODEL_INVALID:
        raise EngineError(
            f"internal error: engine 'cpsat' built an invalid model: "
            f"{built.model.validate()}"
        )
    bound = trivial_bound(instance)
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        bound = min(bound, math.floor(solver.best_objective_bound + 1e-6))
        optimal = code == cp_model.OPTIMAL
        found = _solved_path(built, solver, optimal, bound, started, effort)
        if found is not None:
            return found
        if optimal:
            raise NoPathError(
                f"no {instance.describe()}: proved by cpsat", effort=effort, bound=0
            )
    if code == cp_model.INFEASIBLE:
        raise NoPathError(
            f"no {instance.describe()}: proved by cpsat", effort=effort, bound=0
        )
    raise SolveLimitError(
        f"no {instance.describe()} found by the time limit; at most {bound} moves",
        effort=effort,
        bound=bound,
    )


def _solved_path(
    built: LongestModel,
    solver: cp_model.CpSolver,
    optimal: bool,
    bound: int,
    started: float,
    effort: Effort,
) -> LongestPath | None:
    """The path of CP-SAT's solution (``None``: the empty one), checked.

    Optimal when CP-SAT proved it or the bound meets it; else feasible, with
    the bound.

    Raises:
        EngineError: the decoded path's length is not the solution's value.
    """
    instance = built.instance
    values = [bool(solver.boolean_value(x)) for x in built.literals]
    nodes = built.decode(values)
    moves = round(solver.objective_value)
    if not nodes:
        return None
    decoded = len(nodes) - (0 if instance.closed else 1)
    if decoded != moves:
        raise EngineError(
            f"internal error: engine 'cpsat' decoded {decoded} moves from "
            f"a solution of {moves}"
        )
    status = "optimal" if optimal or bound <= moves else "feasible"
    return make_longest(
        instance,
        nodes,
        status=status,
        bound=moves if status == "optimal" else bound,
        method="cpsat",
        started=started,
        effort=effort,
    )


def _break_symmetry(
    model: Any, instance: LongestInstance, used: list[Any]
) -> dict[str, int]:
    """Cheap valid cuts: reflections of the board, and the two colours' balance.

    A reflection maps any answer onto another as long: keep the image with at
    least as many cells on the left as on the right (``files``), on the lower
    half as on the upper (``ranks``), on the a8 side of the a1-h8 diagonal as on
    the h1 side (``diagonal``, which keeps the first two). A bipartite move graph
    alternates colours along a path: the used cells of each colour differ by
    at most one (a cycle: none).
    """
    counts: dict[str, int] = {}
    graph = instance.graph
    cells = graph.cells.tolist()
    added = 0
    board = instance.board
    for which in board_reflections(board):
        rows, cols = board.shape
        if which == "files":
            side = [c[1] * 2 + 1 - cols for c in cells]
        elif which == "ranks":
            side = [c[0] * 2 + 1 - rows for c in cells]
        else:
            side = [c[1] - c[0] for c in cells]
        low = [x for x, s in zip(used, side, strict=True) if s < 0]
        high = [x for x, s in zip(used, side, strict=True) if s > 0]
        if low and high:
            model.add(sum(low) >= sum(high))
            added += 1
    if added:
        counts["reflection cuts"] = added
    colour = two_colours(instance.graph)
    if colour is not None and graph.n_nodes > 1:
        balance = sum(x for x, c in zip(used, colour, strict=True) if c == 0) - sum(
            x for x, c in zip(used, colour, strict=True) if c == 1
        )
        if instance.closed:
            model.add(balance == 0)
        else:
            model.add(balance <= 1)
            model.add(balance >= -1)
        counts["colour balance"] = 1
    return counts


# --------------------------------------------------------------- formulation


def _formulation(m: LongestModel) -> str:
    inst = m.instance
    board, piece = inst.board, inst.piece
    shape = "cycle" if inst.closed else "path"
    sizes = m.sizes()
    lines = [
        f"The longest {inst.kind} {shape} of the {piece.label} on board {board.label}:",
        (
            "no two drawn moves (segments between cell centres) may cross."
            if inst.kind == "uncrossed"
            else "no move may join two of its cells other than consecutive ones "
            "(a snake)."
        ),
        "",
        f"nodes      the {m.n_cells} cells"
        + ("" if inst.closed else ", and a dummy node * joining the path's ends"),
        f"variables  arc[u->v] in {{0, 1}}: one per move arc, {2 * len(m.edges)}",
        f"           skip[v] in {{0, 1}}: the self-loop of each of the {m.n_cells} "
        "cells (v left out)",
    ]
    if not inst.closed:
        lines.append(
            f"           arc[*->v], arc[v->*]: the first and last cell, {2 * m.n_cells}"
        )
    lines += [
        f"maximise   sum of arc[u->v] over the {2 * len(m.edges)} move arcs",
        "subject to AddCircuit(arc, skip): one successor and one predecessor per node,",
        "           the arcs that are not self-loops form a single "
        + ("cycle" if inst.closed else "cycle through *"),
    ]
    if inst.closed:
        lines.append(
            f"           arc[u->v] + arc[v->u] <= 1 for each of the {len(m.edges)} "
            "moves (no 2-cycle)"
        )
    elif m.n_cells > 1:
        lines.append(
            "           sum_v v * arc[*->v] <= sum_v v * arc[v->*] (a path and its "
            "reverse: keep one)"
        )
    lines += _no_crossing_lines(m) if inst.kind == "uncrossed" else _no_chord_lines(m)
    lines += _cut_lines(m)
    lines += [
        "",
        "sizes      " + ", ".join(f"{k} {v}" for k, v in sizes.items()),
    ]
    return "\n".join(lines)


def _no_crossing_lines(m: LongestModel) -> list[str]:
    """The uncrossed kind's constraints, in the form built and the other form."""
    inst = m.instance
    sizes = m.sizes()
    names = inst.graph.cell_names()
    e = [(names[u], names[v]) for u, v in m.edges]
    example = ""
    if m.pairs:
        i, j = m.pairs[0]
        example = f" (e.g. {e[i][0]}-{e[i][1]} and {e[j][0]}-{e[j][1]})"
    pairwise = (
        f"           pairwise: x[e] + x[f] <= 1 for each of the {len(m.pairs)} "
        f"crossing pairs{example},"
    )
    clique = (
        f"           cliques:  AtMostOne(x[e] for e in C) for each of the "
        f"{len(m.cliques)} cliques C of mutually crossing moves "
        f"(largest {sizes['largest clique']}),"
    )
    built = pairwise if inst.crossings == "pairwise" else clique
    other = clique if inst.crossings == "pairwise" else pairwise
    return [
        "           with x[e] = arc[u->v] + arc[v->u] for a move e = {u, v}:",
        built + " <- built",
        other.replace("           ", "       or: ", 1) + " (the other form)",
    ]


def _no_chord_lines(m: LongestModel) -> list[str]:
    """The induced kind's constraints: no move between two used cells but the path's."""
    return [
        "           skip[u] or skip[v] or arc[u->v] or arc[v->u] for each of "
        f"the {len(m.edges)} moves {{u, v}}",
        "           (both ends used: then the move is on the path, not a chord)",
    ]


def _cut_lines(m: LongestModel) -> list[str]:
    """The optional cuts built: reflections and the colours' balance."""
    inst = m.instance
    lines: list[str] = []
    if m.constraints.get("reflection cuts"):
        lines.append(
            f"           {m.constraints['reflection cuts']} reflection cut(s): at "
            "least as many used cells left of the middle file as right of it (and "
            "likewise below the middle rank, on the a8 side of the a1-h8 diagonal)"
        )
    if m.constraints.get("colour balance"):
        balance = "equal" if inst.closed else "within one"
        lines.append(
            "           colour balance: the used cells of the two colours are "
            f"{balance} (moves alternate colours)"
        )
    return lines
