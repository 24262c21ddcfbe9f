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

from cpknight.board import AxisMap, Board
from cpknight.errors import InvalidInputError
from cpknight.graph.segments import (
    CHUNK,
    crossing_cliques,
    move_edges,
    segments_cross,
)
from cpknight.graph.segments import crossing_pairs as plane_crossing_pairs
from cpknight.pieces import MoveGraph

__all__ = [
    "CHUNK",
    "REFLECTIONS",
    "board_reflections",
    "crossing_cliques",
    "crossing_pairs",
    "move_edges",
    "require_drawable",
    "segments_cross",
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


REFLECTIONS: dict[str, AxisMap] = {
    "files": ((0, 1), (False, True)),
    "ranks": ((0, 1), (True, False)),
    "diagonal": ((1, 0), (False, False)),
}
"""The three reflections of a 2D board by name, as :meth:`Board.symmetries` gives
them: left-right, top-bottom and about the a1-h8 diagonal."""


def board_reflections(board: Board) -> list[str]:
    """The names of the :data:`REFLECTIONS` that are symmetries of a 2D board.

    ``'files'`` (left-right), ``'ranks'`` (top-bottom) and, on a square board
    that is bounded or a torus, ``'diagonal'`` (a1-h8; on a cylinder it would
    swap the axis that wraps), each where it maps the open cells onto
    themselves; on a square board they generate every symmetry of the square.
    Boards of other dimensions have none here.

    Examples:
        >>> board_reflections(Board.parse("5x5")), board_reflections(Board.parse("3x4"))
        (['files', 'ranks', 'diagonal'], ['files', 'ranks'])
    """
    if board.dim != 2:
        return []
    found = board.symmetries()
    return [name for name, axis_map in REFLECTIONS.items() if axis_map in found]
