"""The geometry of the optimisation puzzles: moves as segments, crossings, chords.

A move is drawn as the straight segment between the centres of its two cells.
Two moves *cross* when their segments share a point that is not an end both
of them have (a proper crossing, one move touching another, or two moves
overlapping along a line). Only bounded 2D boards draw moves this way: on a
torus or cylinder a move that wraps has no single segment, and on a 3D board
segments in space almost never meet, so an uncrossed path is refused there.

The crossing pairs are found cell by cell (two segments whose bounding boxes
meet share a lattice point of both boxes), and the *cliques* (sets of moves
that cross one another pairwise) are grown greedily from each crossing pair
not yet covered, so that every crossing pair lies in at least one clique: one
``at most one`` per clique says what the pairwise constraints say, in fewer and
stronger constraints.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> g = move_graph("4x4")
    >>> edges = move_edges(g)
    >>> len(edges), len(crossing_pairs(g, edges))
    (24, 72)
    >>> cliques = crossing_cliques(len(edges), crossing_pairs(g, edges))
    >>> all(len(c) >= 2 for c in cliques)
    True
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cpknight.board import Board
from cpknight.errors import InvalidInputError
from cpknight.pieces import MoveGraph

if TYPE_CHECKING:
    from cpknight.longest.common import LongestInstance

__all__ = [
    "board_symmetries",
    "crossing_cliques",
    "crossing_pairs",
    "move_edges",
    "require_drawable",
    "segments_cross",
    "two_colours",
]

Point = tuple[int, int]

CHUNK = 4096
"""Steps between two calls of a ``check`` (the run's clock) on large boards."""


def require_drawable(board: Board) -> None:
    """Refuse a board whose moves are not plane segments (uncrossed paths).

    Raises:
        InvalidInputError: a board that is not 2D, or that wraps.

    Examples:
        >>> require_drawable(Board.parse("4x4x4"))
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: uncrossed paths need a bounded 2D \
board, where each move is one segment: '4x4x4'
    """
    if board.dim != 2 or board.topology != "bounded":
        raise InvalidInputError(
            "uncrossed paths need a bounded 2D board, where each move is one "
            f"segment: {board.label!r}"
        )


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

    Raises:
        InvalidInputError: the board is not a bounded 2D board.
    """
    require_drawable(graph.board)
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


def two_colours(instance: LongestInstance) -> list[int] | None:
    """A 2-colouring of the move graph (0/1 per node), or ``None`` if it has none."""
    graph = instance.graph
    colour = [-1] * graph.n_nodes
    indptr, indices = graph.indptr.tolist(), graph.indices.tolist()
    for root in range(graph.n_nodes):
        if colour[root] >= 0:
            continue
        colour[root] = 0
        stack = [root]
        while stack:
            u = stack.pop()
            for v in indices[indptr[u] : indptr[u + 1]]:
                if colour[v] < 0:
                    colour[v] = 1 - colour[u]
                    stack.append(v)
                elif colour[v] == colour[u]:
                    return None
    return colour


def board_symmetries(board: Board) -> list[str]:
    """The reflections of a 2D board that map its open cells onto themselves.

    ``'files'`` (left-right), ``'ranks'`` (top-bottom) and, on a square board
    that is bounded or a torus, ``'diagonal'`` (a1-h8; on a cylinder it would
    swap the axis that wraps); together they generate every symmetry of the
    square.

    Examples:
        >>> board_symmetries(Board.parse("5x5")), board_symmetries(Board.parse("3x4"))
        (['files', 'ranks', 'diagonal'], ['files', 'ranks'])
    """
    if board.dim != 2:
        return []
    mask = board.open_mask
    found = []
    if (mask == mask[:, ::-1]).all():
        found.append("files")
    if (mask == mask[::-1, :]).all():
        found.append("ranks")
    square = mask.shape[0] == mask.shape[1] and board.topology != "cylinder"
    if square and (mask == mask.T).all():
        found.append("diagonal")
    return found
