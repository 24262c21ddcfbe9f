"""The objectives of an optimising tour: the fewest turns, or the fewest crossings.

Both are written on the circuit's arc Booleans of
:func:`cpknight.tours.cpsat.build_tour_model` (``--min turns|crossings``),
through one Boolean per move, ``edge[u-v] = arc[u->v] + arc[v->u]`` (the move
is drawn, either way):

- **turns**: for each cell ``v`` and each pair of opposite moves ``v - d``,
  ``v + d`` on the board, ``straight[v|d] <-> edge[v-d, v] and edge[v, v+d]``
  (two implications and one clause); at most one per cell. A cell of a closed
  tour is a turn unless it is straight, and so is every cell of an open tour
  but its two ends: minimise ``n - sum(straight)`` (``n - 2`` for a path).
  Cells with no opposite pair of moves (the rim of a knight's board) are turns
  in every tour, which the constant says at once.
- **crossings**: for each pair of moves whose segments cross
  (:func:`cpknight.graph.segments.crossing_pairs`), ``cross[i x j] <-> edge[i]
  and edge[j]``; minimise ``sum(cross)``. A clique of ``k`` moves that cross
  one another pairwise (:func:`~cpknight.graph.segments.crossing_cliques`)
  adds the cut ``sum(cross in the clique) >= sum(edge in the clique) - 1``
  (``m`` of its moves drawn make ``m (m - 1) / 2 >= m - 1`` crossings), which
  tightens the linear relaxation.

CP-SAT then solves with its linear relaxation at level 2 (the plain tour
engine has none): on 8x8 closed it proves 45 turns in seconds, where without
it the bound stays far below after a minute (``benchmarks/tour_objectives.py``).
A tour found by the ``prune`` search warm-starts the solve
(:func:`warm_start`): its moves are the hint of the ``edge`` Booleans.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> g = move_graph("6x6")
    >>> len(straight_pairs(g)), len(straight_pairs(g)) <= 4 * g.n_nodes
    (32, True)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ortools.sat.python import cp_model

from cpknight.formulation import CHUNK
from cpknight.graph.segments import crossing_cliques, crossing_pairs, move_edges
from cpknight.pieces import MoveGraph

if TYPE_CHECKING:
    from cpknight.tours.cpsat.arcs import ArcLayout

__all__ = [
    "CLIQUE_CUTS",
    "OBJECTIVE_LINEARIZATION",
    "PLAIN_PHASE",
    "WARM_START",
    "ObjectiveModel",
    "add_objective",
    "straight_pairs",
]

OBJECTIVE_LINEARIZATION = 2
"""CP-SAT's ``linearization_level`` for an optimising tour (its bound's source).

Read when a solve starts, like :data:`CLIQUE_CUTS` and :data:`WARM_START`: the
benchmark sets them to measure the plain formulation (0, no cuts, no hint)
beside this one in the same run."""

PLAIN_PHASE: dict[str, float] = {"crossings": 0.3}
"""The share of the time an objective first gets without the linear relaxation.

Crossings on 6x6 are proved in 1.6 CPU s without it against 9.5 s with it,
and the plain search finds better 8x8 tours (73 against 78 crossings in
120 s), but its bound stays at 1 where the relaxation reaches 54: so a
first phase without it, then the rest with it. Turns gain nothing from it."""

CLIQUE_CUTS = True
"""Whether crossings add cuts per clique of 3 or more crossing moves."""

CLIQUE_TANGENTS = 1
"""How many tangents of ``m (m - 1) / 2`` each clique gets: ``sum cross >= t m -
t (t + 1) / 2`` for ``t = 1 ..`` (``m`` its moves drawn; all valid)."""

WARM_START = True
"""Whether a tour by the ``prune`` search is the solve's hint."""


@dataclass(frozen=True, eq=False)
class ObjectiveModel:
    """What an objective added to a tour model: the move Booleans and the score.

    Attributes:
        objective: ``'turns'`` or ``'crossings'``.
        edges: the moves ``(u, v)``, ``u < v``, that have a Boolean.
        edge_vars: ``edge[u-v]`` for each of ``edges``.
        base: the constant of the score (turns: the cells that can turn).
        terms: the Booleans the score subtracts (straight cells) or adds
            (crossing pairs).
        lines: the formulation's lines.
    """

    objective: str
    edges: tuple[tuple[int, int], ...]
    edge_vars: tuple[cp_model.IntVar, ...]
    base: int
    terms: tuple[cp_model.IntVar, ...]
    lines: tuple[str, ...]

    def score(self) -> cp_model.LinearExprT:
        """The objective's expression: :func:`score_of` its terms."""
        return score_of(self.objective, self.base, self.terms)

    def hint(self, model: cp_model.CpModel, nodes: Sequence[int], closed: bool) -> None:
        """Hint a tour (its nodes in order) to CP-SAT: the moves it draws."""
        used = {(min(a, b), max(a, b)) for a, b in itertools.pairwise(nodes)}
        if closed and len(nodes) > 2:
            used.add((min(nodes[0], nodes[-1]), max(nodes[0], nodes[-1])))
        for edge, var in zip(self.edges, self.edge_vars, strict=True):
            model.add_hint(var, edge in used)


def straight_pairs(
    graph: MoveGraph, check: Callable[[], None] | None = None
) -> list[tuple[int, int, int, int]]:
    """Every ``(v, k, a, b)`` where a tour through ``a, v, b`` goes straight.

    ``a`` and ``b`` are ``v``'s neighbours by move ``k`` and by its opposite.

    Each pair of opposite moves is listed once per cell (``k`` the first of the
    two in move order). ``check`` (the run's clock) is called every
    :data:`~cpknight.formulation.CHUNK` cells.
    """
    moves = [tuple(int(x) for x in m) for m in graph.moves.tolist()]
    index = {m: k for k, m in enumerate(moves)}
    table = graph.table.tolist()
    found = []
    seen: set[tuple[int, int, int]] = set()  # a small torus: two moves, one step
    for k, move in enumerate(moves):
        back = index.get(tuple(-x for x in move))
        if back is None or back < k:
            continue
        for v in range(graph.n_nodes):
            if check is not None and v % CHUNK == 0:
                check()
            a, b = table[v][k], table[v][back]
            key = (v, min(a, b), max(a, b))
            if a >= 0 and b >= 0 and a != b and key not in seen:
                seen.add(key)
                found.append((v, k, a, b))
    return found


def add_objective(
    arcs: ArcLayout,
    model: cp_model.CpModel,
    used: Callable[[int, int], list[cp_model.IntVar]],
    objective: str,
    *,
    check: Callable[[], None] | None = None,
) -> ObjectiveModel:
    """Write the objective on a tour model's arcs and ask CP-SAT to minimise it.

    Args:
        arcs: the circuit's arcs.
        model: the CP-SAT model.
        used: the Booleans of the arcs ``u -> v`` and ``v -> u`` (those there are).
        objective: ``'turns'`` or ``'crossings'``.
        check: the run's clock check, called every
            :data:`~cpknight.formulation.CHUNK` Booleans made and while the
            crossings are found.

    Returns:
        The :class:`ObjectiveModel`.

    Raises:
        SolveLimitError: from ``check``, the time limit or Ctrl-C.
    """
    graph = arcs.graph
    name = [*graph.cell_names(), "D"].__getitem__  # one name per node, made once
    edges: list[tuple[int, int]] = []
    edge_vars = []
    var_of: dict[tuple[int, int], cp_model.IntVar] = {}
    for u, v in move_edges(graph):
        if check is not None and len(edges) % CHUNK == 0:
            check()
        lits = used(u, v)
        if not lits:
            continue
        e = model.new_bool_var(f"edge[{name(u)}-{name(v)}]")
        model.add(e == sum(lits))
        edges.append((u, v))
        edge_vars.append(e)
        var_of[(u, v)] = var_of[(v, u)] = e
    base, terms, lines = objective_terms(
        graph, arcs.closed, model, var_of, objective, name, check
    )
    model.minimize(score_of(objective, base, terms))
    return ObjectiveModel(
        objective, tuple(edges), tuple(edge_vars), base, tuple(terms), tuple(lines)
    )


def objective_terms(
    graph: MoveGraph,
    closed: bool,
    model: cp_model.CpModel,
    var_of: dict[tuple[int, int], cp_model.IntVar],
    objective: str,
    name: Callable[[int], str],
    check: Callable[[], None] | None = None,
) -> tuple[int, list[cp_model.IntVar], list[str]]:
    """The objective written on the moves' Booleans ``var_of[(u, v)]`` (both ways).

    Turns are ``base - sum(terms)``, crossings ``sum(terms)`` (``base`` 0);
    the circuit model (:func:`add_objective`) and the cycle covers
    (:mod:`cpknight.tours.cpsat.covers`) write the same score this way.

    Returns:
        ``(base, terms, lines)``: the constant, the Booleans, the formulation.
    """
    if objective == "turns":
        return _turns(graph, closed, model, var_of, name, check)
    edges = [(u, v) for u, v in var_of if u < v]
    return 0, *_crossings(graph, model, edges, var_of, name, check)


def score_of(
    objective: str, base: int, terms: Sequence[cp_model.IntVar]
) -> cp_model.LinearExprT:
    """The score of :func:`objective_terms`: turns ``base - sum(terms)``."""
    return base - sum(terms) if objective == "turns" else sum(terms)


def _turns(
    graph: MoveGraph,
    closed: bool,
    model: cp_model.CpModel,
    var_of: dict[tuple[int, int], cp_model.IntVar],
    name: Callable[[int], str],
    check: Callable[[], None] | None = None,
) -> tuple[int, list[cp_model.IntVar], list[str]]:
    """``straight[v|d]`` per cell and pair of opposite moves; the turns' constant."""
    n = graph.n_nodes
    moves = graph.moves.tolist()
    per_cell: dict[int, list[cp_model.IntVar]] = {}
    for i, (v, k, a, b) in enumerate(straight_pairs(graph, check)):
        if check is not None and i % CHUNK == 0:
            check()
        first, second = var_of.get((v, a)), var_of.get((v, b))
        if first is None or second is None:
            continue
        d = ",".join(f"{x:+d}" for x in moves[k])
        s = model.new_bool_var(f"straight[{name(v)}|{d}]")
        model.add_implication(s, first)
        model.add_implication(s, second)
        model.add_bool_or([~first, ~second, s])
        per_cell.setdefault(v, []).append(s)
    for group in per_cell.values():
        if len(group) > 1:
            model.add_at_most_one(group)
    base = n if closed else n - 2
    terms = [s for group in per_cell.values() for s in group]
    never = n - len(per_cell)
    who = "every cell" if closed else "every cell but the two ends"
    lines = [
        f"objective: minimise turns = {base} - sum straight[v|d]   ({who} can turn)",
        "  edge[u-v] = arc[u->v] + arc[v->u] for each move: "
        f"{len(var_of) // 2} Booleans",
        "  straight[v|d] <-> edge[v-d, v] and edge[v, v+d] for each cell v and "
        f"opposite moves -d, +d: {len(terms)} Booleans",
        "  at most one straight[v|d] per cell",
        f"  {never} cells have no opposite pair of moves: they turn in every tour",
    ]
    return base, terms, lines


def _crossings(
    graph: MoveGraph,
    model: cp_model.CpModel,
    edges: list[tuple[int, int]],
    var_of: dict[tuple[int, int], cp_model.IntVar],
    name: Callable[[int], str],
    check: Callable[[], None] | None,
) -> tuple[list[cp_model.IntVar], list[str]]:
    """``cross[i x j]`` per crossing pair of moves, and the clique cuts."""
    every = move_edges(graph)
    pairs = crossing_pairs(graph, every, check)
    present = [(u, v) in var_of for u, v in every]
    terms: dict[tuple[int, int], cp_model.IntVar] = {}
    for made, (i, j) in enumerate(pairs):
        if check is not None and made % CHUNK == 0:
            check()
        if not (present[i] and present[j]):
            continue
        (a, b), (c, d) = every[i], every[j]
        ei, ej = var_of[(a, b)], var_of[(c, d)]
        x = model.new_bool_var(f"cross[{name(a)}-{name(b)}x{name(c)}-{name(d)}]")
        model.add_bool_or([~ei, ~ej, x])
        model.add_implication(x, ei)  # exact: the score is the recount
        model.add_implication(x, ej)
        terms[(i, j)] = x
    cuts = 0
    cliques = crossing_cliques(len(every), list(terms), check) if CLIQUE_CUTS else []
    for seen, clique in enumerate(cliques):
        if check is not None and seen % CHUNK == 0:
            check()
        if len(clique) < 3:
            continue  # a pair's cut is its clause
        inside = sum(terms[p] for p in itertools.combinations(clique, 2))
        drawn = sum(var_of[every[i]] for i in clique)
        for t in range(1, min(CLIQUE_TANGENTS, len(clique) - 1) + 1):
            model.add(inside >= t * drawn - t * (t + 1) // 2)
        cuts += 1
    lines = [
        "objective: minimise crossings = sum cross[i x j]",
        f"  edge[u-v] = arc[u->v] + arc[v->u] for each move: {len(edges)} Booleans",
        "  cross[i x j] <-> edge[i] and edge[j] for each pair of moves that "
        f"cross: {len(terms)} Booleans",
        "  sum cross[i x j] over a clique K of mutually crossing moves >= "
        f"sum edge[i] over K - 1: {cuts} cliques of 3 or more",
    ]
    return list(terms.values()), lines
