"""The fewest turns or crossings of a tour by cycle covers and subtour cuts (DFJ).

A closed tour draws two moves at every cell and is one cycle. Drop "one
cycle" and what is left is a *cycle cover* (a 2-factor of the move graph):
Booleans ``edge[u-v]``, one per move, with ``sum(edge at v) == 2`` at every
cell. The fewest turns over the cycle covers is a lower bound for the fewest
over the tours, and CP-SAT finds it far sooner than it bounds the circuit
model: the degree rows are linear and exact, so its LP (``linearization_level
= 2``) sees them whole. Dantzig, Fulkerson and Johnson's loop (1954) then
closes the gap:

1. solve the cover model to optimality;
2. if its cover is one cycle, that cycle is a tour with the fewest turns
   (every tour is a cover that satisfies every row added so far, so none has
   fewer);
3. else, for each of its cycles ``S``, add the row ``sum(edge[u-v] for one end
   in S) >= 2`` (a tour leaves and re-enters every proper subset of the
   cells), and go to 1.

Each round's optimum is a lower bound for the tour, proved; the bounds only
grow. An open tour is a closed one through a dummy node ``D`` joined to every
cell (its two edges are the path's ends, fixed by ``edge[start-D] = 1`` when
the ends are given); its turns count every cell but the two ends.

The objective is written by :func:`~cpknight.tours.cpsat.objective.objective_terms`,
the same rows as the circuit model's. Measured (``cpknight tour NxN --min
turns``, closed; before: the circuit model alone, 1 worker): 10x10 proves 62
in 4 rounds, 14 s, against 173-200 s; 12x12 proves a bound of 77 in 3 rounds
(the circuit model's stays at 72 after 600 s, and the published interval is
76 to 80); 14x14 proves 92 (the published optimum) in 6 rounds, 115 s, where
the circuit model had 88 to 94 after 1500 s.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> from cpknight.solving import SolveOptions
    >>> found = cover_bound(move_graph("6x6"), "turns", closed=True,
    ...                     run=SolveOptions(time_limit=30).start())
    >>> found.lower, found.value, len(found.nodes or [])  # 32: the fewest
    (32, 32, 36)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from cpknight.board import Cell
from cpknight.formulation import CHUNK
from cpknight.graph.segments import move_edges
from cpknight.graph.symmetry import cell_permutations
from cpknight.pieces import MoveGraph
from cpknight.solving import Run, configure_cpsat, solve_cpsat
from cpknight.tours.cpsat.objective import (
    OBJECTIVE_LINEARIZATION,
    objective_terms,
    score_of,
)
from cpknight.tours.instance import TourInstance

__all__ = ["COVER_SHARE", "CoverBound", "cover_bound", "cover_phase"]

COVER_SHARE: dict[str, float] = {"turns": 0.5, "crossings": 0.5}
"""The share of the time the cover loop gets before the circuit model.

Read when a solve starts (the benchmark sets it to 0 to measure the circuit
model alone). Crossings too: on 8 x 8 the loop's first round bounds them at
68 (the circuit model's bound was 56 after 110 s), and its second round
proves 69 with a tour (the best tour known before had 73)."""


SMALL_CYCLES: dict[str, bool] = {"crossings": True}
"""Whether an objective's loop starts with a row for every 4-cycle of moves.

The covers with the fewest crossings are full of 4-cycles (a knight's 4-cycle
crosses nothing of its own), and the loop would cut them off a round at a
time; the rows (two chosen moves leave each 4-cycle's cells) cut them all at
once. The covers with the fewest turns have long cycles instead."""


@dataclass(frozen=True)
class CoverBound:
    """What the cover loop proved.

    Attributes:
        lower: the best lower bound proved for the tour's score (0: none).
        nodes: a tour with that score (its nodes in order), when a round's
            cover was one cycle; ``None`` otherwise.
        value: its score, or ``None``.
        rounds: the covers solved.
        cuts: the subtour rows added.
        branches: CP-SAT's branches over the rounds.
        conflicts: CP-SAT's conflicts over the rounds.
        infeasible: no cover exists at all (so no tour either).
        interrupted: Ctrl-C stopped a round.
    """

    lower: int
    nodes: list[int] | None = None
    value: int | None = None
    rounds: int = 0
    cuts: int = 0
    branches: int = 0
    conflicts: int = 0
    infeasible: bool = False
    interrupted: bool = False


def cover_bound(
    graph: MoveGraph,
    objective: str,
    *,
    closed: bool,
    run: Run,
    start: Cell | None = None,
    end: Cell | None = None,
    seconds: float | None = None,
    on_round: Callable[[int, int, list[int]], None] | None = None,
) -> CoverBound:
    """Run the loop (see the module notes) for at most ``seconds`` (or the run's time).

    Args:
        graph: the move graph (no side constraints: the caller checks).
        objective: ``'turns'`` or ``'crossings'``.
        closed: closed tours; else open, through a dummy node.
        run: the run's clock; a round stops at its limit or Ctrl-C.
        start: an open tour's first cell, if fixed.
        end: an open tour's last cell, if fixed.
        seconds: the loop's own limit, within the run's.
        on_round: called after each round solved to the end with the round,
            the bound and the sizes of the cover's cycles (a record run's log).

    Returns:
        The :class:`CoverBound`: an optimal tour, or the best bound proved.
    """
    n = graph.n_nodes
    model = cp_model.CpModel()
    dummy = n  # open tours only
    var_of: dict[tuple[int, int], cp_model.IntVar] = {}
    pairs = sorted(set(move_edges(graph)))
    if not closed:
        pairs += [(v, dummy) for v in range(n)]
    for made, (u, v) in enumerate(pairs):
        if made % CHUNK == 0:
            run.check("building the cycle covers")
        var_of[(u, v)] = var_of[(v, u)] = model.new_bool_var("")
    size = n + (0 if closed else 1)
    # each node's edges, with the node at their other end (a cut's row reads
    # only its own cells' edges, not every edge of the board)
    touching: list[list[tuple[int, cp_model.IntVar]]] = [[] for _ in range(size)]
    for u, v in pairs:
        touching[u].append((v, var_of[(u, v)]))
        touching[v].append((u, var_of[(u, v)]))
    for edges in touching:
        model.add(sum(x for _, x in edges) == 2)
    for fixed in (start, end):
        if fixed is not None and not closed:
            model.add(var_of[(graph.node(fixed), dummy)] == 1)
    base, terms, _ = objective_terms(
        graph,
        closed,
        model,
        {k: x for k, x in var_of.items() if dummy not in k},
        objective,
        str,
        lambda: run.check("building the cycle covers"),
    )
    model.minimize(score_of(objective, base, terms))
    if SMALL_CYCLES.get(objective, False):
        for cells in _four_cycles(n, pairs):
            run.check("building the cycle covers")
            if len(cells) < n:  # a 4-cell board's tour is its 4-cycle
                model.add(_leaving(touching, cells) >= 2)
    deadline = None if seconds is None else run.elapsed() + seconds
    lower, rounds, cuts, branches, conflicts = 0, 0, 0, 0, 0
    # every row holds for every set of cells, so each cycle's images under the
    # board's symmetries are cut off too (the tours are not assumed symmetric)
    images = cell_permutations(graph.board) if graph.board.dim <= 3 else []
    done_cuts: set[frozenset[int]] = set()
    while True:
        solver = cp_model.CpSolver()
        configure_cpsat(solver, run)
        solver.parameters.linearization_level = OBJECTIVE_LINEARIZATION
        if deadline is not None:
            left = deadline - run.elapsed()
            if left <= 0:
                break
            solver.parameters.max_time_in_seconds = min(
                solver.parameters.max_time_in_seconds, left
            )
        status, interrupted = solve_cpsat(solver, model, run)
        rounds += 1
        branches += int(solver.num_branches)
        conflicts += int(solver.num_conflicts)
        if status == cp_model.INFEASIBLE:
            return CoverBound(
                lower,
                rounds=rounds,
                cuts=cuts,
                branches=branches,
                conflicts=conflicts,
                infeasible=True,
            )
        if status != cp_model.OPTIMAL:  # the limit or Ctrl-C: its bound stands
            if status == cp_model.FEASIBLE:
                lower = max(lower, math.ceil(solver.best_objective_bound - 1e-6))
            return CoverBound(
                lower,
                rounds=rounds,
                cuts=cuts,
                branches=branches,
                conflicts=conflicts,
                interrupted=interrupted,
            )
        lower = max(lower, round(solver.objective_value))
        chosen = [(u, v) for u, v in pairs if solver.value(var_of[(u, v)])]
        cycles = _cycles(size, chosen)
        if on_round is not None:
            on_round(rounds, lower, sorted(len(c) for c in cycles))
        if len(cycles) == 1:
            nodes = _ordered(cycles[0], graph, closed, start, end)
            return CoverBound(
                lower,
                nodes=nodes,
                value=lower,
                rounds=rounds,
                cuts=cuts,
                branches=branches,
                conflicts=conflicts,
            )
        for cut in _images(cycles, images, size, done_cuts):
            run.check("adding the subtour rows")
            model.add(_leaving(touching, cut) >= 2)
            cuts += 1
    return CoverBound(
        lower, rounds=rounds, cuts=cuts, branches=branches, conflicts=conflicts
    )


def _images(
    cycles: list[list[int]],
    images: list[tuple[int, ...]],
    size: int,
    done: set[frozenset[int]],
) -> list[frozenset[int]]:
    """The sets to cut: each cycle and its images, each once.

    A set and its complement give one row (the moves between them), so each is
    kept as the side without node 0. The dummy node (``size - 1`` of an open
    tour) stays where it is.
    """
    every = set(range(size))
    new = []
    for cycle in cycles:
        for p in [None, *images]:
            cut = frozenset(v if p is None or v >= len(p) else p[v] for v in cycle)
            if 0 in cut:
                cut = frozenset(every - cut)
            if cut and cut not in done:
                done.add(cut)
                new.append(cut)
    return new


def _leaving(
    touching: list[list[tuple[int, cp_model.IntVar]]], inside: frozenset[int]
) -> cp_model.LinearExprT:
    """The moves (and dummy edges) with one end in ``inside``, summed."""
    return sum(x for v in inside for w, x in touching[v] if w not in inside)


def _four_cycles(n: int, pairs: list[tuple[int, int]]) -> set[frozenset[int]]:
    """The cells of every 4-cycle of moves (the dummy node left out)."""
    near: list[set[int]] = [set() for _ in range(n)]
    for u, v in pairs:
        if v < n:
            near[u].add(v)
            near[v].add(u)
    found: set[frozenset[int]] = set()
    for a in range(n):
        for b, d in itertools.combinations(sorted(near[a]), 2):
            for c in near[b] & near[d]:
                if c != a:
                    found.add(frozenset((a, b, c, d)))
    return found


def _ordered(
    cycle: list[int],
    graph: MoveGraph,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
) -> list[int]:
    """The tour's nodes from its start: an open tour between the dummy's edges."""
    n = graph.n_nodes
    if closed:
        at = 0 if start is None else cycle.index(graph.node(start))
        return cycle[at:] + cycle[:at]
    i = cycle.index(n)
    nodes = cycle[i + 1 :] + cycle[:i]
    first = None if start is None else graph.node(start)
    last = None if end is None else graph.node(end)
    if (first is not None and nodes[0] != first) or (
        last is not None and nodes[-1] != last
    ):
        nodes.reverse()
    return nodes


def _cycles(size: int, chosen: list[tuple[int, int]]) -> list[list[int]]:
    """The cycles of a cover (every node on two chosen edges), each in order."""
    near: list[list[int]] = [[] for _ in range(size)]
    for u, v in chosen:
        near[u].append(v)
        near[v].append(u)
    seen = [False] * size
    cycles = []
    for first in range(size):
        if seen[first]:
            continue
        cycle = [first]
        seen[first] = True
        previous, here = first, near[first][0]
        while here != first:
            cycle.append(here)
            seen[here] = True
            a, b = near[here]
            previous, here = here, (b if a == previous else a)
        cycles.append(cycle)
    return cycles


def cover_phase(instance: TourInstance, run: Run) -> CoverBound | None:
    """The loop for an optimising tour, when it applies: ``None`` if it does not.

    It applies to the objectives of :data:`COVER_SHARE` with no other side
    constraint (visit numbers, required or forbidden moves, symmetry and magic
    lines are the circuit model's), and gets that share of the time left.
    """
    side = instance.constraints
    objective = side.minimise
    share = COVER_SHARE.get(objective or "", 0.0)
    if objective is None or share <= 0 or replace(side, minimise=None):
        return None
    left = run.remaining()
    return cover_bound(
        instance.graph,
        objective,
        closed=instance.closed,
        run=run,
        start=instance.start,
        end=instance.end,
        seconds=None if left is None else left * share,
    )
