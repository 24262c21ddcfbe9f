"""Side constraints written into a built CP-SAT circuit model.

Visit numbers, required and forbidden moves, a symmetry and magic sums, each
added to the arc literals of :func:`cpknight.tours.cpsat.build_tour_model`,
with one formulation line each (``formulation tour ... --via d4@10`` prints
them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from ortools.sat.python import cp_model

from cpknight.board import Cell
from cpknight.constraints import TourConstraints
from cpknight.formulation import CHUNK
from cpknight.graph import bfs_levels
from cpknight.solving import Run
from cpknight.tours.certificates import two_colouring
from cpknight.tours.constrained import symmetry_nodes, symmetry_turn, via_nodes
from cpknight.tours.cpsat.arcs import ArcLayout
from cpknight.tours.cpsat.magic import first_phase_lines, structure_applies
from cpknight.tours.cpsat.objective import ObjectiveModel, add_objective

__all__ = ["SideModel", "add_side_constraints"]

TURN_ROWS = True
"""Tie a symmetric tour's visit numbers to its images' (:func:`_add_turn`);
``benchmarks/tour_objectives.py`` turns it off for its *before* rows."""

Used = Callable[[int, int], list[cp_model.IntVar]]
"""The Booleans of the move arcs ``u -> v`` and ``v -> u`` (those there are)."""


class SideModel(NamedTuple):
    """What the side constraints added: formulation lines, visit-number variables.

    Attributes:
        lines: one formulation line per kind of side constraint.
        positions: the visit-number variable ``pos[v]`` of each cell, if any.
        objective: the objective (``--min``), if any.
    """

    lines: tuple[str, ...]
    positions: tuple[cp_model.IntVar, ...] = ()
    objective: ObjectiveModel | None = None


def add_side_constraints(
    arcs: ArcLayout,
    model: cp_model.CpModel,
    lits: tuple[cp_model.IntVar, ...],
    side: TourConstraints,
    run: Run | None = None,
) -> SideModel:
    """Add the side constraints to a circuit's Booleans; one formulation line each.

    Args:
        arcs: the circuit's arcs (the Booleans ``lits`` are theirs, in order).
        model: the CP-SAT model the circuit is in.
        lits: the Boolean of each arc.
        side: the side constraints (anchored: see
            :meth:`~cpknight.constraints.TourConstraints.anchored`).
        run: the run whose clock bounds the building (checked every
            :data:`~cpknight.formulation.CHUNK` arcs, cells or terms).

    Returns:
        The formulation lines and the visit-number variables.

    Raises:
        SolveLimitError: the time limit passed (or Ctrl-C) while building.
    """
    check = _checker(run, "adding the side constraints")
    tails, heads = arcs.tails.tolist(), arcs.heads.tolist()
    arc = {(tails[a], heads[a]): a for a in range(arcs.n_move_arcs)}

    def used(u: int, v: int) -> list[cp_model.IntVar]:
        return [lits[arc[p]] for p in ((u, v), (v, u)) if p in arc]

    lines = _add_moves(arcs, model, side, used)
    if side.symmetric:
        lines.append(_add_symmetry(arcs, model, side.symmetric, arc, used, check))
    objective = None
    if side.minimise:
        objective = add_objective(arcs, model, used, side.minimise, check=check)
        lines.extend(objective.lines)
    if not (side.via or side.magic):
        return SideModel(tuple(lines), objective=objective)
    pos = _positions(arcs, model, side, check)
    lines.append(_add_visit_numbers(arcs, model, lits, side, pos, check))
    if side.symmetric and arcs.closed and TURN_ROWS:
        lines.extend(_add_turn(arcs, model, side, pos, check))
    if side.magic:
        lines.append(_add_magic(arcs, model, pos, side.magic_axes, check))
        if side.magic is True and structure_applies(arcs.graph):
            lines.extend(first_phase_lines(arcs.graph))
    if arcs.shift:
        first = -1 if arcs.start is None else arcs.graph.node(arcs.start)
        lines.append(
            f"  (a closed tour: it starts on {arcs.node_name(first)}, the cell of "
            f"the lowest visit number, and is turned back {arcs.shift} places)"
        )
    colour = two_colouring(arcs.graph)
    if colour is not None:
        # The colours alternate along the path: a redundant constraint
        # that settles parity clashes at once (d4@10 from a1 on 8x8).
        flip = model.new_bool_var("flip")
        for v in range(arcs.graph.n_nodes):
            if v % CHUNK == 0:
                check()
            half = model.new_int_var(0, arcs.graph.n_nodes // 2, "")
            odd = flip if colour[v] else ~flip
            model.add(pos[v] == 2 * half + 1 - odd)
        lines.append(
            "parity: pos[v] = 2 half[v] + (colour[v] xor flip) (the colours of "
            "a bipartite move graph alternate along the tour)"
        )
    return SideModel(tuple(lines), tuple(pos), objective)


def _checker(run: Run | None, what: str) -> Callable[[], None]:
    """``run.check(what)`` as a function of nothing (a no-op without a run)."""
    if run is None:
        return lambda: None
    return lambda: run.check(what)


def _add_moves(
    arcs: ArcLayout, model: cp_model.CpModel, side: TourConstraints, used: Used
) -> list[str]:
    """Forbidden moves fix their arcs to 0; a required move's two sum to 1."""
    node = arcs.graph.node
    for a, b in side.forbid:
        for lit in used(node(a), node(b)):
            model.add(lit == 0)
    for a, b in side.require:
        model.add(sum(used(node(a), node(b))) == 1)

    def shown(edges: tuple[tuple[Cell, Cell], ...]) -> str:
        text = " ".join(
            f"{arcs.node_name(node(a))}-{arcs.node_name(node(b))}" for a, b in edges[:6]
        )
        return text + (f" ... ({len(edges)} moves)" if len(edges) > 6 else "")

    lines = []
    if side.forbid:
        lines.append(
            f"forbid: arc[u->v] = arc[v->u] = 0 for u-v in {shown(side.forbid)}"
        )
    if side.require:
        lines.append(
            f"require: arc[u->v] + arc[v->u] = 1 for u-v in {shown(side.require)}"
        )
    return lines


def _add_symmetry(
    arcs: ArcLayout,
    model: cp_model.CpModel,
    symmetric: str,
    arc: dict[tuple[int, int], int],
    used: Used,
    check: Callable[[], None],
) -> str:
    """A move is in the tour exactly when its image under the symmetry is."""
    perm = symmetry_nodes(arcs.graph, symmetric).tolist()
    done: set[tuple[int, int]] = set()
    for i, (p, q) in enumerate(arc):
        if i % CHUNK == 0:
            check()
        key = (min(p, q), max(p, q))
        image = (min(perm[p], perm[q]), max(perm[p], perm[q]))
        if key in done or key == image:
            continue
        done.add(key)
        model.add(sum(used(*key)) == sum(used(*image)))
    return (
        f"symmetric {symmetric}: arc[a->b] + arc[b->a] = arc[s(a)->s(b)] "
        f"+ arc[s(b)->s(a)] for each of {len(done)} moves"
    )


def _add_turn(
    arcs: ArcLayout,
    model: cp_model.CpModel,
    side: TourConstraints,
    pos: list[cp_model.IntVar],
    check: Callable[[], None],
) -> list[str]:
    """A symmetric tour puts each cell's image ``t`` places on, either way round.

    Redundant with the symmetric moves, but it ties the visit numbers of a
    cell and its image at once (``t`` from :func:`symmetry_turn`, when the
    symmetry can only turn the cycle). A half turn (``t = n/2``) is written
    with a number per pair of cells, ``pos[v] = m[pair] + t h[v]`` where
    ``h[v]`` says which of the two comes second; with magic sums each line
    then splits (:func:`_add_magic_halves`). On 8x8 CP-SAT found a closed
    rot180 semi-magic tour in 15 to 21 s with each of four seeds with these
    rows; without them, with one seed of the four (48 s), in 60 s each
    (``python benchmarks/tour_objectives.py``, its symmetric magic rows).
    """
    assert side.symmetric is not None
    turn = symmetry_turn(arcs.graph, side.symmetric)
    if turn is None:
        return []
    n = arcs.graph.n_nodes
    perm = symmetry_nodes(arcs.graph, side.symmetric).tolist()
    if 2 * turn != n:  # a quarter turn: the image is n/4 or 3n/4 places on
        steps = sorted({turn, n - turn, -turn, turn - n})
        domain = cp_model.Domain.from_values(steps)
        for v in range(n):
            if v % CHUNK == 0:
                check()
            model.add_linear_expression_in_domain(pos[perm[v]] - pos[v], domain)
        return [
            f"turn: pos[s(v)] - pos[v] in {{{', '.join(map(str, steps))}}} (a "
            "symmetric closed tour takes every cell to its image the same "
            "number of places on)"
        ]
    pair: dict[int, cp_model.IntVar] = {}
    second = [model.new_bool_var(f"h[{arcs.node_name(v)}]") for v in range(n)]
    for v in range(n):
        if v % CHUNK == 0:
            check()
        if v < perm[v]:
            pair[v] = pair[perm[v]] = model.new_int_var(0, turn - 1, "")
            model.add(second[v] + second[perm[v]] == 1)
        model.add(pos[v] == pair[v] + turn * second[v])
    model.add_all_different([pair[v] for v in range(n) if v < perm[v]])
    lines = [
        f"turn: pos[v] = m[v, s(v)] + {turn} h[v], h[v] + h[s(v)] = 1, the m "
        "all different (a symmetric closed tour takes every cell to its image "
        f"{turn} places on)"
    ]
    if side.magic:
        lines.append(_add_magic_halves(arcs, model, side, perm, pair, second, check))
    return lines


def _add_magic_halves(
    arcs: ArcLayout,
    model: cp_model.CpModel,
    side: TourConstraints,
    perm: list[int],
    pair: dict[int, cp_model.IntVar],
    second: list[cp_model.IntVar],
    check: Callable[[], None],
) -> str:
    """A magic half-turn tour: each line's sum rewritten in pairs and halves.

    A line ``L`` of ``k`` cells sums to ``S``, so (with ``pos = m + t h``)
    ``sum m + t sum h = S - k``. When the symmetry maps ``L`` onto another
    line ``L'``, the image of each cell of ``L`` is in ``L'``, with the same
    ``m`` and the other ``h``; the two sums being equal, ``2 sum h = k``:
    half of each such line comes in the tour's second half.
    """
    graph = arcs.graph
    n = graph.n_nodes
    turn = n // 2
    total = n * (n + 1) // 2
    cells = graph.cells.tolist()
    for axis in side.magic_axes:
        count = graph.board.shape[axis]
        members: list[list[int]] = [[] for _ in range(count)]
        for v in range(n):
            members[cells[v][axis]].append(v)
        for line in members:
            check()
            k, image = len(line), cells[perm[line[0]]][axis]
            model.add(
                cp_model.LinearExpr.sum([pair[v] for v in line])
                + turn * cp_model.LinearExpr.sum([second[v] for v in line])
                == total // count - k
            )
            if image != cells[line[0]][axis]:
                model.add(2 * cp_model.LinearExpr.sum([second[v] for v in line]) == k)
    return (
        f"magic halves: sum of m[v] + {turn} h[v] = the line's sum less its "
        "cells, and 2 sum h = its cells on a line the symmetry moves"
    )


def _add_visit_numbers(
    arcs: ArcLayout,
    model: cp_model.CpModel,
    lits: tuple[cp_model.IntVar, ...],
    side: TourConstraints,
    pos: list[cp_model.IntVar],
    check: Callable[[], None],
) -> str:
    """Visit numbers: ``pos[head] = pos[tail] + 1`` along the arcs used."""
    graph = arcs.graph
    n, moves = graph.n_nodes, arcs.n_move_arcs
    tails, heads = arcs.tails.tolist(), arcs.heads.tolist()
    first = -1 if arcs.start is None else graph.node(arcs.start)
    round_trip = cp_model.Domain.from_values([1, 1 - n])
    for i in range(arcs.n_arcs):
        if i % CHUNK == 0:
            check()
        t, h = tails[i], heads[i]
        if h >= n:
            continue
        if i >= moves:  # an arc that starts the path (open forms)
            model.add(pos[h] == 0).only_enforce_if(lits[i])
        elif arcs.closed and first < 0:  # the closed tour may start anywhere
            model.add_linear_expression_in_domain(
                pos[h] - pos[t], round_trip
            ).only_enforce_if(lits[i])
        elif not (arcs.closed and h == first):
            model.add(pos[h] == pos[t] + 1).only_enforce_if(lits[i])
    if arcs.closed and first >= 0:
        model.add(pos[first] == 0)
    model.add_all_different(pos)
    for v, k in via_nodes(graph, side):
        model.add(pos[v] == k)
    return (
        f"via: pos[v] in 0..{n - 1} per cell (less the places fewer moves "
        "from a known place than v is from its cell); pos[head] = pos[tail] + 1 "
        "on each move arc used; all different; "
        + ", ".join(
            f"pos[{arcs.node_name(v)}] = {k}" for v, k in via_nodes(graph, side)[:6]
        )
        + (" ..." if len(side.via) > 6 else "")
    )


def _add_magic(
    arcs: ArcLayout,
    model: cp_model.CpModel,
    pos: list[cp_model.IntVar],
    axes: tuple[int, ...] = (0, 1),
    check: Callable[[], None] = lambda: None,
) -> str:
    """The visit numbers of each rank, and of each file, add up to the same sum.

    ``axes`` says which: 0 the ranks, 1 the files. Each line's cells are
    gathered in one pass over the cells (not one pass per line).
    """
    graph = arcs.graph
    n = graph.n_nodes
    total = n * (n + 1) // 2
    cells = graph.cells.tolist()
    shown = []
    for axis, what in ((0, "rank"), (1, "file")):
        if axis not in axes:
            continue
        count = graph.board.shape[axis]
        members: list[list[int]] = [[] for _ in range(count)]
        for v in range(n):
            members[cells[v][axis]].append(v)
        for line in range(count):
            check()
            model.add(
                cp_model.LinearExpr.sum([pos[v] for v in members[line]])
                + len(members[line])
                == total // count
            )
        shown.append(f"{total // count} over each {what}")
    return "magic: sum of pos[v] + 1 = " + ", ".join(shown)


def _positions(
    m: ArcLayout,
    model: cp_model.CpModel,
    side: TourConstraints,
    check: Callable[[], None] = lambda: None,
) -> list[cp_model.IntVar]:
    """One position variable per cell, its domain cut by move distances.

    A cell ``d`` moves from a cell of known position ``k`` (a visit number, the
    fixed start or end) cannot be fewer than ``d`` places from ``k`` (round
    the cycle, for a closed tour): those positions leave its domain.
    """
    graph, n = m.graph, m.graph.n_nodes
    known = via_nodes(graph, side)
    if m.start is not None:
        known.append((graph.node(m.start), 0))
    if m.end is not None:
        known.append((graph.node(m.end), n - 1))
    dists = [
        (k, np.maximum(bfs_levels(graph, v), 0).tolist())
        for v, k in dict(known).items()
    ]
    full = cp_model.Domain(0, n - 1)
    pos = []
    for v in range(n):
        if v % CHUNK == 0:
            check()
        cut: list[list[int]] = []
        for k, dist in dists:
            d = dist[v]
            if d > 0:
                low, high = k - d + 1, k + d - 1
                cut.append([max(low, 0), min(high, n - 1)])
                if m.closed and low < 0:  # round the cycle
                    cut.append([n + low, n - 1])
                if m.closed and high > n - 1:
                    cut.append([0, high - n])
        domain = full
        if cut:
            domain = full.intersection_with(
                cp_model.Domain.from_intervals(cut).complement()
            )
        if domain.is_empty():
            domain = cp_model.Domain(-1, -1)  # no place left: infeasible
        pos.append(model.new_int_var_from_domain(domain, f"pos[{m.node_name(v)}]"))
    return pos
