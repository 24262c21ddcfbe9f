"""Which instances the tiler takes: plain knight rectangles, large enough.

The tiler (:mod:`cpknight.tiling`, its public face) sits a layer above the
tour engines, whose small searches it calls; the tour engines' ``auto`` must
know what it suits without importing it. So the rule lives here, cheap to
import (no numpy, no catalogue), and the tiling face re-exports it. The one
test of a "plain knight rectangle" (:func:`plain_knight`) is here too.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import KNIGHT
    >>> suits(Board((100, 100)), KNIGHT), suits(Board((8, 8)), KNIGHT)
    (True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpknight.board import Board, Cell
from cpknight.pieces import KNIGHT, Leaper

if TYPE_CHECKING:
    from cpknight.tours.instance import TourInstance

__all__ = ["AUTO_MIN_SIDE", "fixes_ends", "plain_knight", "suits", "takes"]

AUTO_MIN_SIDE = 12
"""``method='auto'`` picks the tiles for plain knight boards with sides this long."""


def plain_knight(board: Board, piece: Leaper) -> bool:
    """The knight on a bounded 2D rectangle without blocked cells or wrapping.

    The one test of a "plain knight rectangle": the boards the tiles, the
    existence theorems and ``auto``'s rules speak of.

    Examples:
        >>> from cpknight.pieces import CAMEL
        >>> plain_knight(Board((8, 8)), KNIGHT), plain_knight(Board((8, 8)), CAMEL)
        (True, False)
        >>> plain_knight(Board((8, 8), [(0, 0)]), KNIGHT)
        False
    """
    return (
        piece == KNIGHT
        and board.dim == 2
        and not board.unbounded
        and not board.blocked
        and not any(board.wrap)
    )


def fixes_ends(board: Board) -> bool:
    """Whether the tiles fix both ends of an open tour on this board.

    Boards with both sides at least :data:`AUTO_MIN_SIDE`: a chain of path
    tiles joins any two cells colour allows (where it finds no ports, boards
    of up to 1,200 cells go to CP-SAT whole).

    Examples:
        >>> fixes_ends(Board((100, 100))), fixes_ends(Board((101, 101)))
        (True, True)
        >>> fixes_ends(Board((12, 100))), fixes_ends(Board((11, 200)))
        (True, False)
    """
    return min(board.shape) >= AUTO_MIN_SIDE


def suits(board: Board, piece: Leaper, *, end: Cell | None = None) -> bool:
    """Whether ``method='auto'`` should build the tour from tiles.

    Plain knight rectangles (:func:`plain_knight`) with either both sides at
    least :data:`AUTO_MIN_SIDE`, or one side at least 40 and the other at
    least 5 (or 3 when the board has a closed tour, which any start can
    rotate). Any start suits; a fixed ``end`` suits the boards where the tiles
    fix both ends (:func:`fixes_ends`: a chain of path tiles between them,
    milliseconds where a search may wander).

    Examples:
        >>> suits(Board((100, 100)), KNIGHT), suits(Board((8, 8)), KNIGHT)
        (True, False)
        >>> suits(Board((3, 1000)), KNIGHT), suits(Board((4, 1000)), KNIGHT)
        (True, False)
        >>> suits(Board((1000, 1000)), KNIGHT, end=(999, 998))
        True
        >>> suits(Board((11, 200)), KNIGHT, end=(10, 198))
        False
    """
    if board.unbounded or not plain_knight(board, piece):
        return False
    low, high = sorted(board.shape)
    if end is not None:
        return fixes_ends(board)
    if low >= AUTO_MIN_SIDE:
        return True
    if high < 40:
        return False
    from cpknight.tours.existence import closed_tour_exists

    return low >= 5 or closed_tour_exists(low, high)


def takes(instance: TourInstance) -> bool:
    """Whether ``auto`` should hand a constrained instance to the tiles.

    Only required moves (``--require``), which the tiles repair into their
    tour in a window around each, on the boards :func:`suits` accepts.

    Examples:
        >>> from cpknight.constraints import tour_constraints
        >>> from cpknight.tours.instance import TourInstance
        >>> b = Board((100, 100))
        >>> c = tour_constraints(b, require=["a1-b3"])
        >>> takes(TourInstance(b, KNIGHT, closed=True, constraints=c))
        True
        >>> c = tour_constraints(b, forbid=["a1-b3"])
        >>> takes(TourInstance(b, KNIGHT, closed=True, constraints=c))
        False
    """
    return instance.constraints.kinds() == ["require"] and suits(
        instance.board, instance.piece, end=instance.end
    )
