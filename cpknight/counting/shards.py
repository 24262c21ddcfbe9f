"""Counting tours in shards: the CP-SAT enumeration split by its first moves.

The counting model (:func:`~cpknight.counting.cpsat.counting_model`: the
circuit model with its symmetry breaking) is a circuit through the cells (and
a dummy node for open tours without fixed ends). Every solution leaves a
chosen *root* node along one chain of arcs; fixing the first ``depth`` arcs
of that chain splits the solutions into disjoint shards whose counts add up
to the whole count exactly. The root is the dummy node (open tours: the chain
starts with the first cell), the fixed start or end, or the cell the
closed-tour symmetry breaking names.

Each shard is an independent enumeration (the same model, a few arcs fixed),
so shards run anywhere: :func:`cpknight.api.count_tours_sharded` hands them
to the runner.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.counting.instance import CountInstance
    >>> from cpknight.pieces import KNIGHT
    >>> from cpknight.solving import SolveOptions
    >>> inst = CountInstance(Board.parse("3x4"), KNIGHT, closed=False)
    >>> chains = shard_chains(inst, 6)
    >>> len(chains) >= 6
    True
    >>> sum(count_shard(inst, c, SolveOptions().start()).undirected for c in chains)
    8
"""

from __future__ import annotations

import numpy as np
from ortools.sat.python import cp_model

from cpknight.counting import directions
from cpknight.counting.cpsat import TourCounter, counting_model
from cpknight.counting.instance import CountInstance
from cpknight.errors import EngineError
from cpknight.results import TourCount
from cpknight.solving import Run, solve_cpsat
from cpknight.status import Status
from cpknight.tours.cpsat import TourModel, circuit_solver

__all__ = ["Chain", "count_shard", "shard_chains"]

Chain = tuple[int, ...]
"""Arc indices of the counting model, the first ``depth`` arcs from the root."""


def shard_chains(instance: CountInstance, shards: int) -> list[Chain]:
    """The chains that split the count into at least ``shards`` parts (if it can).

    The depth grows one arc at a time until there are ``shards`` chains (or no
    chain can grow); chains that cannot be part of a circuit through every
    node still count as shards (of zero tours).

    Args:
        instance: the tour instance (a board with at least 3 open cells for a
            closed tour, 2 for an open one).
        shards: how many shards to aim for (at least 1).

    Returns:
        The chains, in a fixed order (depth first, arcs in model order).
    """
    bundle = counting_model(instance)
    tails = bundle.tails.tolist()
    heads = bundle.heads.tolist()
    out_arcs: dict[int, list[int]] = {}
    for arc, tail in enumerate(tails):
        out_arcs.setdefault(tail, []).append(arc)
    root = _root(bundle)
    n_nodes = bundle.n_nodes
    chains: list[tuple[Chain, int, frozenset[int]]] = [((), root, frozenset([root]))]
    while len(chains) < shards:
        grown: list[tuple[Chain, int, frozenset[int]]] = []
        for chain, node, seen in chains:
            if len(seen) == n_nodes:
                grown.append((chain, node, seen))
                continue
            for arc in out_arcs.get(node, []):
                head = heads[arc]
                if head not in seen:
                    grown.append(((*chain, arc), head, seen | {head}))
        if len(grown) <= len(chains):
            chains = grown
            break
        chains = grown
    return [chain for chain, _, _ in chains]


def count_shard(instance: CountInstance, chain: Chain, run: Run) -> TourCount:
    """Count the tours whose chain from the root starts with ``chain``.

    Returns:
        The shard's :class:`~cpknight.results.TourCount` (``undirected``: the
        solutions of the counting model in this shard; ``directed``: times
        :func:`~cpknight.counting.directions`). ``status`` is ``unknown`` when
        the limit stopped it, the numbers then lower bounds.
    """
    bundle = counting_model(instance, run)
    for arc in chain:
        bundle.model.add(bundle.literals[arc] == 1)
    factor = directions(instance)

    def make(found: int, status: Status, interrupted: bool = False) -> TourCount:
        return TourCount(
            status, factor * found, found, run.elapsed(), interrupted=interrupted
        )

    solver = circuit_solver(run, enumerate_all=True)  # one worker: each tour once
    counter = TourCounter(make, None, 1.0)
    status, interrupted = solve_cpsat(solver, bundle.model, run, counter)
    if interrupted:
        raise KeyboardInterrupt
    if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return make(counter.found, Status.FOUND)
    if status == cp_model.MODEL_INVALID:
        raise EngineError("internal error: CP-SAT says the counting model is invalid")
    return make(counter.found, Status.UNKNOWN)


def _root(bundle: TourModel) -> int:
    """The node whose chain of arcs splits the solutions."""
    graph = bundle.graph
    if bundle.form == "dummy-node":
        return graph.n_nodes
    if bundle.start is not None:
        return graph.node(bundle.start)
    if bundle.end is not None:
        return graph.node(bundle.end)
    return int(np.argmin(graph.degree))
