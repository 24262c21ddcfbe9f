"""What ``method="auto"`` picks for a tour instance, and why.

The rule follows ``benchmarks/search.py`` and ``benchmarks/tours.py``: tiles for
large plain knight rectangles, CP-SAT for shaped boards (where many instances
have no tour and CP-SAT proves it fast), greedy for huge open tours, and the
pruned search otherwise.

Examples:
    >>> from cpknight import move_graph
    >>> choose_tour_method(move_graph("holed8"), closed=False, start=None, end=None)
    'cpsat'
"""

from __future__ import annotations

from cpknight.board import Board, Cell
from cpknight.engines import TourInstance
from cpknight.errors import InvalidInputError
from cpknight.pieces import Leaper, MoveGraph
from cpknight.tours import ENGINES

__all__ = [
    "CPSAT_CELLS",
    "FRONTIER_WIDTH",
    "GREEDY_CELLS",
    "choose_count_method",
    "choose_tour_method",
    "tiles_suit",
]


def choose_tour_method(
    graph: MoveGraph, *, closed: bool, start: Cell | None, end: Cell | None
) -> str:
    """The tour engine ``method='auto'`` uses for an instance.

    The rule follows ``benchmarks/search.py``. Boards with blocked cells go to
    ``cpsat`` (up to :data:`CPSAT_CELLS` cells): there many instances have no
    tour, and CP-SAT proves it in milliseconds where search may exhaust a
    huge tree. Plain boards (any size, topology, dimension or leaper) go to
    ``prune``, which finds open and closed tours with few backtracks (8x8 in
    a millisecond, 100x100 closed in a fraction of a second, where CP-SAT
    needs seconds), or to ``greedy`` for open tours with no fixed end beyond
    :data:`GREEDY_CELLS` cells. First of all, plain rectangular knight boards
    that :func:`cpknight.tours.tiles.tiles_suit` accepts (both sides 12 or
    more, or one side 40 or more) go to ``tiles`` (``find_tour`` picks it
    before building the move graph).

    Returns:
        A name in :data:`ENGINES`.

    Raises:
        InvalidInputError: no tour engine is installed.

    Examples:
        >>> from cpknight.pieces import KNIGHT, move_graph
        >>> g = move_graph("8x8", KNIGHT)
        >>> choose_tour_method(g, closed=False, start=(0, 0), end=None)
        'prune'
    """
    if tiles_suit(graph.board, graph.piece, end):
        return "tiles"
    blocked = bool(graph.board.blocked)
    if blocked and "cpsat" in ENGINES and graph.n_nodes <= CPSAT_CELLS:
        return "cpsat"
    if not closed and end is None and graph.n_nodes > GREEDY_CELLS:
        return "greedy"
    if "prune" in ENGINES:
        return "prune"
    if ENGINES:
        return next(iter(ENGINES))
    raise InvalidInputError("no tour engine is available")


GREEDY_CELLS = 40_000
"""Above this many cells ``auto`` sends open tours to ``greedy`` (200x200)."""

CPSAT_CELLS = 2_500
"""Up to this many cells ``auto`` sends boards with blocked cells to ``cpsat``."""


def tiles_suit(board: Board, piece: Leaper, end: Cell | None) -> bool:
    """Whether ``auto`` should build the tour from tiles (plain large knight boards)."""
    from cpknight.tours.tiles import tiles_suit as suits

    return "tiles" in ENGINES and end is None and suits(board, piece)


FRONTIER_WIDTH = 14
"""Up to this frontier width ``auto`` counts tours by the frontier program (the
knight on boards up to 6 cells across; on 7 the open 7x7 count passes the
default memory budget)."""


def choose_count_method(instance: TourInstance) -> str:
    """The counting method ``method='auto'`` uses: ``'frontier'`` or ``'cpsat'``.

    The rule follows ``benchmarks/count.py``: the frontier program's cost does
    not depend on how many tours there are, CP-SAT enumeration's grows with
    each one; the program wins wherever its frontier is at most
    :data:`FRONTIER_WIDTH` cells wide (the knight on boards up to 6 cells
    across), and enumeration is left the wide boards, where it can still
    count a few tours, and the instances a cheap certificate proves have
    none (7x7 closed: odd), which it answers at once.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> choose_count_method(TourInstance(Board.parse("6x12"), KNIGHT))
        'frontier'
        >>> choose_count_method(TourInstance(Board.parse("10x10"), KNIGHT))
        'cpsat'
        >>> choose_count_method(TourInstance(Board.parse("5x5"), KNIGHT))  # odd
        'cpsat'
    """
    from cpknight.tours.certificates import tour_certificate
    from cpknight.tours.frontier import frontier_width

    graph = instance.graph
    if frontier_width(graph) > FRONTIER_WIDTH:
        return "cpsat"
    proved_none = tour_certificate(
        graph, closed=instance.closed, start=instance.start, end=instance.end
    )
    return "cpsat" if proved_none is not None else "frontier"
