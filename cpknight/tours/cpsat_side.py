"""Side constraints written into a built CP-SAT circuit model.

Visit numbers, required and forbidden moves, a symmetry and magic sums, each
added to the arc literals of :func:`cpknight.tours.cpsat.build_tour_model`,
with one formulation line each (``formulation tour ... --via d4@10`` prints
them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from ortools.sat.python import cp_model

from cpknight.board import Cell
from cpknight.constraints import TourConstraints
from cpknight.graph import bfs_levels
from cpknight.tours.certificates import two_colouring
from cpknight.tours.constrained import symmetry_nodes, via_nodes

if TYPE_CHECKING:
    from cpknight.tours.cpsat import TourModel

__all__ = ["add_side_constraints"]


def add_side_constraints(m: TourModel, side: TourConstraints) -> tuple[str, ...]:
    """Add the side constraints to a built circuit; one formulation line each."""
    graph, model, lits = m.graph, m.model, m.literals
    n, moves = graph.n_nodes, m.n_move_arcs
    tails, heads = m.tails.tolist(), m.heads.tolist()
    arc = {(tails[a], heads[a]): a for a in range(moves)}
    node = graph.node
    lines: list[str] = []

    def used(u: int, v: int) -> list[cp_model.IntVar]:
        return [lits[arc[p]] for p in ((u, v), (v, u)) if p in arc]

    for a, b in side.forbid:
        for lit in used(node(a), node(b)):
            model.add(lit == 0)
    for a, b in side.require:
        model.add(sum(used(node(a), node(b))) == 1)

    def shown(edges: tuple[tuple[Cell, Cell], ...]) -> str:
        text = " ".join(
            f"{m.node_name(node(a))}-{m.node_name(node(b))}" for a, b in edges[:6]
        )
        return text + (f" ... ({len(edges)} moves)" if len(edges) > 6 else "")

    if side.forbid:
        lines.append(
            f"forbid: arc[u->v] = arc[v->u] = 0 for u-v in {shown(side.forbid)}"
        )
    if side.require:
        lines.append(
            f"require: arc[u->v] + arc[v->u] = 1 for u-v in {shown(side.require)}"
        )
    if side.symmetric:
        perm = symmetry_nodes(graph, side.symmetric).tolist()
        done: set[tuple[int, int]] = set()
        for p, q in arc:
            key = (min(p, q), max(p, q))
            image = (min(perm[p], perm[q]), max(perm[p], perm[q]))
            if key in done or key == image:
                continue
            done.add(key)
            model.add(sum(used(*key)) == sum(used(*image)))
        lines.append(
            f"symmetric {side.symmetric}: arc[a->b] + arc[b->a] = arc[s(a)->s(b)] "
            f"+ arc[s(b)->s(a)] for each of {len(done)} moves"
        )
    if side.via or side.magic:
        pos = _positions(m, side)
        first = -1 if m.start is None else node(m.start)
        round_trip = cp_model.Domain.from_values([1, 1 - n])
        for i in range(m.n_arcs):
            t, h = tails[i], heads[i]
            if h >= n:
                continue
            if i >= moves:  # an arc that starts the path (open forms)
                model.add(pos[h] == 0).only_enforce_if(lits[i])
            elif m.closed and first < 0:  # the closed tour may start anywhere
                model.add_linear_expression_in_domain(
                    pos[h] - pos[t], round_trip
                ).only_enforce_if(lits[i])
            elif not (m.closed and h == first):
                model.add(pos[h] == pos[t] + 1).only_enforce_if(lits[i])
        if m.closed and first >= 0:
            model.add(pos[first] == 0)
        object.__setattr__(m, "positions", tuple(pos))
        model.add_all_different(pos)
        for v, k in via_nodes(graph, side):
            model.add(pos[v] == k)
        lines.append(
            f"via: pos[v] in 0..{n - 1} per cell (less the places fewer moves "
            "from a known place than v is from its cell); pos[head] = pos[tail] + 1 "
            "on each move arc used; all different; "
            + ", ".join(
                f"pos[{m.node_name(v)}] = {k}" for v, k in via_nodes(graph, side)[:6]
            )
            + (" ..." if len(side.via) > 6 else "")
        )
        if side.magic:
            rows, cols = graph.board.shape
            total = n * (n + 1) // 2
            for axis, count in ((0, rows), (1, cols)):
                for line in range(count):
                    model.add(
                        sum(
                            pos[v] + 1 for v in range(n) if graph.cells[v][axis] == line
                        )
                        == total // count
                    )
            lines.append(
                f"magic: sum of pos[v] + 1 = {total // rows} over each rank, "
                f"{total // cols} over each file"
            )
        if m.shift:
            lines.append(
                f"  (a closed tour: it starts on {m.node_name(first)}, the cell of "
                f"the lowest visit number, and is turned back {m.shift} places)"
            )
        colour = two_colouring(graph)
        if colour is not None:
            # The colours alternate along the path: a redundant constraint
            # that settles parity clashes at once (d4@10 from a1 on 8x8).
            flip = model.new_bool_var("flip")
            for v in range(n):
                half = model.new_int_var(0, n // 2, "")
                odd = flip if colour[v] else ~flip
                model.add(pos[v] == 2 * half + 1 - odd)
            lines.append(
                "parity: pos[v] = 2 half[v] + (colour[v] xor flip) (the colours of "
                "a bipartite move graph alternate along the tour)"
            )
    return tuple(lines)


def _positions(m: TourModel, side: TourConstraints) -> list[cp_model.IntVar]:
    """One position variable per cell, its domain cut by move distances.

    A cell ``d`` moves from a cell of known position ``k`` (a visit number, the
    fixed start or end) cannot be fewer than ``d`` places from ``k`` (round
    the cycle, for a closed tour): those positions leave its domain.
    """
    graph, model, n = m.graph, m.model, m.graph.n_nodes
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
