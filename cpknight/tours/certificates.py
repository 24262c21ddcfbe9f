"""Cheap proofs that no tour exists, checked before any search.

Each certificate is a short argument about the move graph that anyone can check
by hand: the board has no cells or too few for a circuit; the move graph is
disconnected; a cell has too few moves; the moves forced by cells of two moves
close a short cycle; the two colour classes of a bipartite move graph cannot
alternate along the tour. :func:`tour_certificate` returns the first that applies
(or ``None``); :func:`check_tour_possible` raises :class:`NoTourError` with it.

Certificates are sufficient, never necessary: when none applies, a tour may
still be impossible, and only a search (CP-SAT, backtracking) can say so.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import move_graph
    >>> tour_certificate(move_graph(Board.parse("4x4")), closed=True).name
    'forced-cycle'
    >>> tour_certificate(move_graph(Board.parse("8x8")), closed=True) is None
    True

References:
    A. J. Schwenk, "Which rectangular chessboards have a knight's tour?",
    Mathematics Magazine 64(5), 1991, 325-332 (the colour and 4 x n arguments).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from cpknight.board import Cell
from cpknight.errors import NoTourError
from cpknight.graph import bfs_levels, component_labels
from cpknight.pieces import MoveGraph

__all__ = [
    "CERTIFICATES",
    "Certificate",
    "check_tour_possible",
    "tour_certificate",
    "two_colouring",
]

CERTIFICATES: dict[str, str] = {
    "empty": "the board has no open cells",
    "too-small": "a closed tour needs at least 3 cells",
    "endpoints": "the fixed start and end cannot both be ends of one tour",
    "degree": "some cell has too few moves",
    "forced-cycle": "moves forced by cells with two moves close a short cycle",
    "disconnected": "the move graph is disconnected",
    "colour": "the colour classes of the bipartite move graph cannot alternate",
    "schwenk": "Schwenk's theorem: this rectangle has no closed knight's tour",
    "conrad": "Conrad et al.'s theorem: this rectangle has no open knight's tour",
}
"""Every certificate's name and what it says; ``'search'`` means none applied."""


@dataclass(frozen=True)
class Certificate:
    """A proof that no tour exists.

    Attributes:
        name: a key of :data:`CERTIFICATES`.
        reason: one line naming this instance's cells and numbers.
    """

    name: str
    reason: str


def tour_certificate(
    graph: MoveGraph,
    *,
    closed: bool,
    start: Cell | None = None,
    end: Cell | None = None,
    check: Callable[[str], None] | None = None,
) -> Certificate | None:
    """The first cheap proof that no such tour exists, or ``None``.

    Args:
        graph: the move graph.
        closed: closed tours (a Hamiltonian circuit) or open ones (a path).
        start: the fixed first cell, if any (an open cell).
        end: the fixed last cell, if any (open tours).
        check: a deadline check (``run.check``), called between the steps and
            once per BFS level: cheap is still seconds on 3000x3000.

    Returns:
        A :class:`Certificate`, or ``None`` when no cheap argument applies.

    Notes:
        Linear in the size of the graph (numpy BFS for connectivity and colours;
        a union-find over the forced moves).

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("5x5"))
        >>> tour_certificate(g, closed=True).reason
        'the move graph is bipartite with colour classes of 13 and 12 cells; a \
closed tour alternates colours, so they must be equal'
        >>> tour_certificate(g, closed=False, start=(0, 1)).name
        'colour'
        >>> tour_certificate(g, closed=False, start=(0, 0)) is None
        True
    """
    if graph.n_nodes < (3 if closed else 2) or (start is not None and start == end):
        return _size_certificate(graph, closed=closed, start=start)
    step = check or _no_check
    step("looking for a certificate")
    degree = graph.degree
    found = _degree_certificate(graph, degree, closed=closed, start=start, end=end)
    if found is not None:
        return found
    step("looking for a certificate")
    levels = bfs_levels(graph, 0, check=check)
    step("looking for a certificate")
    if (levels < 0).any():
        return _disconnected(graph)
    found = _colour_certificate(
        graph, _colouring(graph, levels, check), closed=closed, start=start, end=end
    )
    if found is not None:
        return found
    step("looking for a certificate")
    if closed:
        return _forced_cycle_certificate(graph, degree)
    return _open_forced_cycles(graph, degree, start=start, end=end)


def _size_certificate(
    graph: MoveGraph, *, closed: bool, start: Cell | None
) -> Certificate | None:
    """Too few cells, or a tour asked to end where it starts (``end == start``)."""
    board, n = graph.board, graph.n_nodes
    if n == 0:
        return Certificate("empty", f"board {board.label} has no open cells")
    if closed and n < 3:
        return Certificate(
            "too-small",
            f"a closed tour needs at least 3 cells; board {board.label} has {n}",
        )
    if n == 1 or start is None:
        return None
    return Certificate(
        "endpoints",
        f"the tour cannot start and end on the same cell {board.cell_name(start)} "
        f"of {n} cells",
    )


def _disconnected(graph: MoveGraph) -> Certificate:
    """The move graph falls apart: two cells no move sequence joins."""
    name = graph.board.cell_name
    labels = component_labels(graph)
    parts = int(labels.max()) + 1
    first = name(graph.cell(0))
    other = name(graph.cell(int(np.flatnonzero(labels != labels[0])[0])))
    return Certificate(
        "disconnected",
        f"the move graph has {parts} components; no move sequence joins "
        f"{first} and {other}",
    )


def check_tour_possible(
    graph: MoveGraph,
    *,
    closed: bool,
    start: Cell | None = None,
    end: Cell | None = None,
    check: Callable[[str], None] | None = None,
) -> None:
    """Raise :class:`NoTourError` when a cheap certificate proves there is no tour.

    ``check`` is the deadline check :func:`tour_certificate` calls.

    Raises:
        NoTourError: with the certificate's ``reason`` and ``name``.
        SolveLimitError: ``check`` found the limit passed.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> check_tour_possible(move_graph(Board.parse("3x3")), closed=False)
        Traceback (most recent call last):
        ...
        cpknight.errors.NoTourError: cell b2 has no moves
    """
    found = tour_certificate(graph, closed=closed, start=start, end=end, check=check)
    if found is not None:
        raise NoTourError(found.reason, certificate=found.name)


def _no_check(what: str) -> None:
    """No deadline: the check that never fires."""


def two_colouring(graph: MoveGraph) -> npt.NDArray[np.int8] | None:
    """A proper 2-colouring of a connected move graph, or ``None`` if it has none.

    Node 0 gets colour 0; every move changes colour.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> two_colouring(move_graph(Board.parse("3x4"))).tolist()[:4]
        [0, 1, 0, 1]
        >>> two_colouring(move_graph(Board.parse("5x5", topology="torus"))) is None
        True
    """
    if graph.n_nodes == 0:
        return np.zeros(0, dtype=np.int8)
    levels = bfs_levels(graph, 0)
    if (levels < 0).any():
        return None
    return _colouring(graph, levels)


def _colouring(
    graph: MoveGraph,
    levels: npt.NDArray[np.int32],
    check: Callable[[str], None] | None = None,
) -> npt.NDArray[np.int8] | None:
    """The colouring by BFS level parity, if every move changes colour.

    Read from the move table a block of rows at a time (its -1 entries read a
    colour no cell has), the clock checked between blocks.
    """
    colour = (levels % 2).astype(np.int8)
    padded = np.append(colour, np.int8(-1))
    table = graph.table
    for first in range(0, table.shape[0], _ROWS):
        if check is not None:
            check("colouring the move graph")
        rows = table[first : first + _ROWS]
        if (padded[rows] == colour[first : first + _ROWS, None]).any():
            return None
    return colour


_ROWS = 1 << 18
"""Rows of the move table read between two looks at the clock."""


# --------------------------------------------------------------------- private


def _degree_certificate(
    graph: MoveGraph,
    degree: npt.NDArray[np.int64],
    *,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
) -> Certificate | None:
    name = graph.board.cell_name
    isolated = np.flatnonzero(degree == 0)
    if isolated.size:
        return Certificate(
            "degree", f"cell {name(graph.cell(int(isolated[0])))} has no moves"
        )
    ones = [int(v) for v in np.flatnonzero(degree == 1)]
    if closed:
        if ones:
            return Certificate(
                "degree",
                f"cell {name(graph.cell(ones[0]))} has one move; a closed tour "
                "enters and leaves every cell",
            )
        return None
    if len(ones) > 2:
        shown = ", ".join(name(graph.cell(v)) for v in ones[:3])
        return Certificate(
            "degree",
            f"{len(ones)} cells have one move ({shown}, ...); only the two ends of "
            "an open tour can",
        )
    fixed = {graph.node(c) for c in (start, end) if c is not None}
    loose = [v for v in ones if v not in fixed]
    if len(loose) > 2 - len(fixed):
        ends = " and ".join(name(c) for c in (start, end) if c is not None)
        return Certificate(
            "degree",
            f"cell {name(graph.cell(loose[0]))} has one move, so it must be an end "
            f"of the tour, but the tour's fixed end is {ends}",
        )
    return None


def _forced_cycle_certificate(
    graph: MoveGraph, degree: npt.NDArray[np.int64]
) -> Certificate | None:
    """A closed tour uses both moves of a cell with two: look for a short cycle."""
    name = graph.board.cell_name
    n = graph.n_nodes
    used = _forced_edges(graph, degree)
    if not used:
        return None
    edges = {(min(u, v), max(u, v)) for u, others in used.items() for v in others}
    for node, others in sorted(used.items()):
        if len(others) > 2:
            shown = ", ".join(name(graph.cell(o)) for o in sorted(others))
            return Certificate(
                "forced-cycle",
                f"cell {name(graph.cell(node))} would need {len(others)} moves "
                f"({shown}) forced by neighbours with only two moves",
            )
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, v in sorted(edges):
        ru, rv = find(u), find(v)
        if ru == rv:
            cycle = _walk_cycle(used, min(_walk_cycle(used, u)))
            if len(cycle) < n:
                shown = "-".join(name(graph.cell(c)) for c in [*cycle, cycle[0]])
                return Certificate(
                    "forced-cycle",
                    f"the moves forced by cells with only two moves close the cycle "
                    f"{shown} of {len(cycle)} cells, short of all {n}",
                )
            return None
        parent[ru] = rv
    return None


def _forced_edges(
    graph: MoveGraph, degree: npt.NDArray[np.int64]
) -> dict[int, list[int]]:
    """For each node, its neighbours along moves incident to a cell of two moves."""
    edges: set[tuple[int, int]] = set()
    for v in np.flatnonzero(degree == 2).tolist():
        for u in graph.neighbors(v).tolist():
            edges.add((min(u, v), max(u, v)))
    used: dict[int, list[int]] = {}
    for u, v in sorted(edges):
        used.setdefault(u, []).append(v)
        used.setdefault(v, []).append(u)
    return used


def _open_forced_cycles(
    graph: MoveGraph,
    degree: npt.NDArray[np.int64],
    *,
    start: Cell | None,
    end: Cell | None,
) -> Certificate | None:
    """Each cycle of forced moves must hold an end of an open tour.

    A path cannot use every move of a cycle, and a move forced by a cell of two
    moves can go unused only when that cell is an end of the path. So each
    separate cycle of forced moves holds one of the path's two ends.
    """
    name = graph.board.cell_name
    used = _forced_edges(graph, degree)
    seen: set[int] = set()
    cycles: list[list[int]] = []
    for first in sorted(used):
        if first in seen:
            continue
        part = {first}
        stack = [first]
        while stack:
            for other in used[stack.pop()]:
                if other not in part:
                    part.add(other)
                    stack.append(other)
        seen |= part
        if all(len(used[v]) == 2 for v in part):
            cycles.append(_walk_cycle(used, first))
    fixed = {graph.node(c) for c in (start, end) if c is not None}
    free = 2 - len(fixed)
    open_cycles = [c for c in cycles if not fixed & set(c)]
    if len(open_cycles) <= free:
        return None
    shown = "-".join(name(graph.cell(c)) for c in [*open_cycles[0], open_cycles[0][0]])
    if not fixed:
        where = "an open tour has two ends"
    else:
        ends = " and ".join(name(c) for c in (start, end) if c is not None)
        where = f"with {ends} fixed only {free} end{'s' if free != 1 else ''} remain"
    return Certificate(
        "forced-cycle",
        f"the moves forced by cells with only two moves form {len(cycles)} separate "
        f"cycles (such as {shown}); each must hold an end of the tour, and "
        f"{where}",
    )


def _walk_cycle(used: dict[int, list[int]], first: int) -> list[int]:
    cycle = [first]
    prev, node = first, used[first][0]
    while node != first:
        cycle.append(node)
        nxt = used[node][0] if used[node][0] != prev else used[node][1]
        prev, node = node, nxt
    return cycle


def _colour_certificate(
    graph: MoveGraph,
    colour: npt.NDArray[np.int8] | None,
    *,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
) -> Certificate | None:
    if colour is None:
        return None
    name = graph.board.cell_name
    n = graph.n_nodes
    ones = int(colour.sum())
    zeros = n - ones
    big, small = max(zeros, ones), min(zeros, ones)
    head = f"the move graph is bipartite with colour classes of {big} and {small} cells"
    if closed:
        if big != small:
            return Certificate(
                "colour",
                f"{head}; a closed tour alternates colours, so they must be equal",
            )
        return None
    if big - small > 1:
        return Certificate(
            "colour",
            f"{head}; an open tour alternates colours, so they differ by at most one",
        )
    ends = [c for c in (start, end) if c is not None]
    if big != small:
        major = 0 if zeros > ones else 1
        for cell in ends:
            if int(colour[graph.node(cell)]) != major:
                return Certificate(
                    "colour",
                    f"{head}; an open tour must start and end in the larger class, "
                    f"and {name(cell)} is in the smaller",
                )
    elif (
        start is not None
        and end is not None
        and colour[graph.node(start)] == colour[graph.node(end)]
    ):
        return Certificate(
            "colour",
            f"{head}; an open tour of an even number of cells starts and ends "
            f"on different colours, and {name(start)} and {name(end)} share one",
        )
    return None
