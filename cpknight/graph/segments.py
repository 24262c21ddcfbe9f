"""Moves drawn as plane segments: which pairs cross, and cliques of them.

A move is drawn as the straight segment between the centres of its two cells.
Two moves *cross* when their segments share a point that is not an end both
of them have (a proper crossing, one move touching another, or two moves
overlapping along a line). The crossing pairs are found cell by cell (two
segments whose bounding boxes meet share a lattice point of both boxes), and
the *cliques* (sets of moves that cross one another pairwise) are grown
greedily from each crossing pair not yet covered.

The tour models (``--min crossings``, :mod:`cpknight.tours.cpsat.objective`)
and the longest uncrossed paths (:mod:`cpknight.longest.geometry`, which
re-exports these) read the same geometry.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> g = move_graph("4x4")
    >>> edges = move_edges(g)
    >>> len(edges), len(crossing_pairs(g, edges))
    (24, 72)
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Sequence

from cpknight.pieces import MoveGraph

__all__ = [
    "CHUNK",
    "crossing_cliques",
    "crossing_pairs",
    "move_edges",
    "segments_cross",
]

Point = tuple[int, int]

CHUNK = 4096
"""Steps between two calls of a ``check`` (the run's clock) on large boards."""


def move_edges(graph: MoveGraph) -> list[tuple[int, int]]:
    """Every move once, as node pairs ``(u, v)`` with ``u < v``, in arc order."""
    tails, heads = graph.arcs()
    return [
        (t, h) for t, h in zip(tails.tolist(), heads.tolist(), strict=True) if t < h
    ]


def _orient(a: Point, b: Point, c: Point) -> int:
    """The sign of the turn a -> b -> c (1 left, -1 right, 0 collinear)."""
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (cross > 0) - (cross < 0)


def _within(a: Point, b: Point, p: Point) -> bool:
    """Whether ``p``, collinear with ``a`` and ``b``, lies on the segment ab."""
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[
        1
    ] <= max(a[1], b[1])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether segments p1p2 and q1q2 share a point other than a common end.

    Examples:
        >>> segments_cross((0, 0), (2, 1), (0, 1), (2, 0))  # an X
        True
        >>> segments_cross((0, 0), (2, 1), (2, 1), (0, 2))  # a shared end
        False
        >>> segments_cross((0, 0), (2, 2), (1, 1), (3, 0))  # a touch
        True
    """
    shared = {p1, p2} & {q1, q2}
    if shared:
        if len(shared) == 2:
            return False
        (s,) = shared
        a = p2 if p1 == s else p1
        b = q2 if q1 == s else q1
        dot = (a[0] - s[0]) * (b[0] - s[0]) + (a[1] - s[1]) * (b[1] - s[1])
        return _orient(s, a, b) == 0 and dot > 0
    o1, o2 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    o3, o4 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True
    return (
        (o1 == 0 and _within(p1, p2, q1))
        or (o2 == 0 and _within(p1, p2, q2))
        or (o3 == 0 and _within(q1, q2, p1))
        or (o4 == 0 and _within(q1, q2, p2))
    )


def crossing_pairs(
    graph: MoveGraph,
    edges: Sequence[tuple[int, int]] | None = None,
    check: Callable[[], None] | None = None,
) -> list[tuple[int, int]]:
    """Every pair of moves that cross, as indices ``(i, j)``, ``i < j``, in ``edges``.

    Args:
        graph: the move graph of a bounded 2D board.
        edges: the moves (default :func:`move_edges`).
        check: called every :data:`CHUNK` steps (a run's clock check).

    The board must be a bounded 2D board (the callers check it).
    """
    if edges is None:
        edges = move_edges(graph)
    cells = graph.cells.tolist()
    points = [(tuple(cells[u]), tuple(cells[v])) for u, v in edges]
    buckets: dict[Point, list[int]] = defaultdict(list)
    for i, (a, b) in enumerate(points):
        if check is not None and i % CHUNK == 0:
            check()
        for r in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
            for c in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
                buckets[(r, c)].append(i)
    candidates: set[tuple[int, int]] = set()
    for members in buckets.values():
        candidates.update(itertools.combinations(members, 2))
    found: list[tuple[int, int]] = []
    for k, (i, j) in enumerate(sorted(candidates)):
        if check is not None and k % CHUNK == 0:
            check()
        if segments_cross(points[i][0], points[i][1], points[j][0], points[j][1]):
            found.append((i, j))
    return found


def crossing_cliques(
    n_edges: int,
    pairs: Sequence[tuple[int, int]],
    check: Callable[[], None] | None = None,
) -> list[tuple[int, ...]]:
    """Sets of mutually crossing moves that cover every crossing pair.

    Greedy: for each crossing pair not yet in a clique, grow a clique from it,
    adding (in index order) every move that crosses all the moves already in
    it. Each clique is maximal; every pair lies in at least one.

    Args:
        n_edges: the number of moves.
        pairs: the crossing pairs (from :func:`crossing_pairs`).
        check: called every :data:`CHUNK` pairs (a run's clock check).

    Returns:
        The cliques, each a sorted tuple of move indices.

    Examples:
        >>> crossing_cliques(4, [(0, 1), (0, 2), (1, 2), (2, 3)])
        [(0, 1, 2), (2, 3)]
    """
    crosses: list[set[int]] = [set() for _ in range(n_edges)]
    for i, j in pairs:
        crosses[i].add(j)
        crosses[j].add(i)
    covered: set[tuple[int, int]] = set()
    cliques: list[tuple[int, ...]] = []
    for k, (i, j) in enumerate(pairs):
        if check is not None and k % CHUNK == 0:
            check()
        if (i, j) in covered:
            continue
        common = crosses[i] & crosses[j]
        clique = [i, j]
        for k in sorted(common):
            if all(k in crosses[m] for m in clique[2:]):
                clique.append(k)
        members = tuple(sorted(clique))
        cliques.append(members)
        covered.update(itertools.combinations(members, 2))
    return cliques
