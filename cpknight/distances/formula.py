"""The knight's distance in closed form (no search, no model).

The knight's distance on the plane (OEIS A065775), and on bounded rectangles with
both sides at least 5, where it is the same except for a corner and its diagonal
neighbour (4 moves, not 2).

Examples:
    >>> from cpknight import knight_distance
    >>> int(knight_distance("plane", "0,0", "100,57", method="formula"))
    53
"""

from __future__ import annotations

from typing import TYPE_CHECKING as _TYPE_CHECKING

if _TYPE_CHECKING:
    from cpknight.distances.instance import DistanceInstance
    from cpknight.solving import Run


from collections.abc import Sequence

from cpknight.board import Board, Cell
from cpknight.errors import (
    InvalidBoardError,
    InvalidPieceError,
)
from cpknight.pieces import (
    KNIGHT,
)
from cpknight.results import Distance

__all__ = ["formula_distance", "knight_formula", "solve"]


# ---------------------------------------------------------------- closed form


def knight_formula(offset: Sequence[int]) -> int:
    """The knight's distance on the unbounded plane for an offset ``(dr, dc)``.

    With ``X >= Y`` the absolute offsets, ``p = X - Y`` and ``q = p - Y``: 3 for
    ``(1, 0)``, 4 for ``(2, 2)``, else ``p - 2 * floor(q / r)`` with ``r = 3``
    when ``q < 0`` and ``r = 4`` otherwise.

    Raises:
        InvalidBoardError: the offset does not have two components.

    References:
        OEIS A065775 (least number of knight moves from (0,0) to (i,j) on the
        infinite board). The formula in this form: "Knight's move distance
        function", math-fun mailing list,
        https://lists.xmission.com/hyperkitty/list/mathfun@mailman.xmission.com/message/P7BHLZ42HRQK5BZAJPZJLVZWCZXLX3ED

    Examples:
        >>> [knight_formula(d) for d in [(0, 0), (0, 1), (1, 1), (2, 2), (99, 99)]]
        [0, 3, 2, 4, 66]
    """
    if len(offset) != 2:
        raise InvalidBoardError(
            f"the knight formula takes a 2D offset: {tuple(offset)!r}"
        )
    x, y = abs(int(offset[0])), abs(int(offset[1]))
    if x < y:
        x, y = y, x
    if (x, y) == (1, 0):
        return 3
    if (x, y) == (2, 2):
        return 4
    p = x - y
    q = p - y
    r = 3 if q < 0 else 4
    return p - 2 * (q // r)


def formula_distance(board: Board, source: Cell, target: Cell) -> tuple[int, str]:
    """The knight's distance by the closed form, and which case gave it.

    On the plane it is :func:`knight_formula`. On a bounded rectangle with both
    sides at least 5 and no blocked cell it is the same, except that a corner
    and its diagonal neighbour are 4 moves apart, not 2.

    Returns:
        ``(distance, case)`` with case ``'plane'``, ``'rectangle'`` or
        ``'corner'``.

    Raises:
        InvalidBoardError: any other board (the formula does not apply).

    References:
        For the rectangle: the same math-fun post ("if [0, 0] lay at a corner
        the definition would require another special case: 4 if [X, Y] = [1, 1]");
        checked against BFS for all pairs on every board from 5x5 to 12x12 in
        the tests.

    Examples:
        >>> b = Board.parse("8x8")
        >>> formula_distance(b, (0, 0), (1, 1)), formula_distance(b, (2, 2), (3, 3))
        ((4, 'corner'), (2, 'rectangle'))
    """
    shape = board.shape
    if len(shape) != 2:
        raise InvalidBoardError(
            f"method 'formula' answers on 2D boards only: board {board.label}"
        )
    rows, cols = shape
    # The distance on the plane, inline (one call per query counts at a
    # microsecond a query): see knight_formula.
    x = target[0] - source[0]
    y = target[1] - source[1]
    x = -x if x < 0 else x
    y = -y if y < 0 else y
    if x < y:
        x, y = y, x
    if rows == 0:
        case = "plane"
    elif rows < 5 or cols < 5 or board.blocked or any(board.wrap):
        raise InvalidBoardError(
            "method 'formula' needs the plane or a bounded rectangle with both "
            f"sides at least 5 and no blocked cell: board {board.label}"
        )
    elif x == 1 == y and (
        (source[0] in (0, rows - 1) and source[1] in (0, cols - 1))
        or (target[0] in (0, rows - 1) and target[1] in (0, cols - 1))
    ):
        return 4, "corner"
    else:
        case = "rectangle"
    if y == 0 and x == 1:
        return 3, case
    if x == 2 == y:
        return 4, case
    p = x - y
    q = p - y
    return p - 2 * (q // (3 if q < 0 else 4)), case


def solve(instance: DistanceInstance, run: Run) -> Distance:
    """The ``formula`` distance method: the knight's closed form (no path).

    Raises:
        InvalidPieceError: the piece is not the knight.
        InvalidBoardError: a board the formula does not cover.

    Examples:
        >>> from cpknight import knight_distance
        >>> d = knight_distance("plane", "0,0", "100,57", method="formula")
        >>> d.distance, d.path, d.details
        (53, None, {'case': 'plane'})
    """
    board, piece = instance.board, instance.piece
    if piece != KNIGHT:
        raise InvalidPieceError(
            f"method 'formula' knows the knight (1,2) only: {piece.label}"
        )
    distance, case = formula_distance(board, instance.source, instance.target)
    return Distance(
        board=board,
        piece=piece,
        source=instance.source,
        target=instance.target,
        distance=distance,
        path=None,
        method="formula",
        exact=True,
        seconds=run.elapsed(),
        details={"case": case},
    )
