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

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cpknight.board import Board
from cpknight.errors import InvalidInputError
from cpknight.graph.segments import (
    CHUNK,
    crossing_cliques,
    move_edges,
    segments_cross,
)
from cpknight.graph.segments import crossing_pairs as plane_crossing_pairs
from cpknight.pieces import MoveGraph

if TYPE_CHECKING:
    from cpknight.longest.common import LongestInstance

__all__ = [
    "CHUNK",
    "board_symmetries",
    "crossing_cliques",
    "crossing_pairs",
    "move_edges",
    "require_drawable",
    "segments_cross",
    "two_colours",
]


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


def crossing_pairs(
    graph: MoveGraph,
    edges: Sequence[tuple[int, int]] | None = None,
    check: Callable[[], None] | None = None,
) -> list[tuple[int, int]]:
    """Every pair of moves that cross, as indices ``(i, j)``, ``i < j``, in ``edges``.

    :func:`cpknight.graph.segments.crossing_pairs` on a board checked first.

    Args:
        graph: the move graph of a bounded 2D board.
        edges: the moves (default :func:`move_edges`).
        check: called every :data:`CHUNK` steps (a run's clock check).

    Raises:
        InvalidInputError: the board is not a bounded 2D board.
    """
    require_drawable(graph.board)
    return plane_crossing_pairs(graph, edges, check)


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
