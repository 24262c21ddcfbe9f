"""What ``method="auto"`` picks for a tour instance, and why.

The rule follows ``benchmarks/auto.py`` (every engine on every class of
instance): the existence theorems first for the knight on plain rectangles,
then tiles for large plain knight rectangles, ``prune`` for the other plain
knight boards, and a race of ``prune`` against CP-SAT on everything else
(shaped boards, tori, cylinders, 3D, other leapers) up to
:data:`RACE_CELLS` cells, where neither wins everywhere; greedy for huge open
tours, and ``prune`` beyond.

Examples:
    >>> from cpknight import move_graph
    >>> choose_tour_method(move_graph("holed8"), closed=False, start=None, end=None)
    'race'
"""

from __future__ import annotations

from cpknight import tiling
from cpknight.board import Board, Cell
from cpknight.errors import InvalidInputError, NoTourError
from cpknight.pieces import KNIGHT, Leaper, MoveGraph
from cpknight.tours import ENGINES

__all__ = [
    "GREEDY_CELLS",
    "RACE_CELLS",
    "check_theorems",
    "choose_tour_method",
    "plain_knight",
]


def choose_tour_method(
    graph: MoveGraph, *, closed: bool, start: Cell | None, end: Cell | None
) -> str:
    """The tour engine ``method='auto'`` uses for an instance.

    The rule follows ``benchmarks/auto.py``. First, plain rectangular knight
    boards that :func:`cpknight.tiling.suits` accepts (both sides 12
    or more, or one side 40 or more) go to ``tiles`` (``find_tour`` picks it
    before building the move graph). Other plain knight rectangles go to
    ``prune`` (8x8 in a millisecond). Everything else up to :data:`RACE_CELLS`
    cells (blocked cells, tori, cylinders, 3D boards, other leapers) goes to
    ``race``: ``prune`` and CP-SAT side by side, the first answer wins. There
    no rule picks well: ``prune`` finds 40x40 with 30 blocked cells in 0.01 s
    where CP-SAT needs a second, but stalls on the antelope's 14x14 and on the
    4x6 cylinder (which has no tour), where CP-SAT answers in 0.1 s. Beyond,
    open tours with no fixed end over :data:`GREEDY_CELLS` cells go to
    ``greedy``, and the rest to ``prune``.

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
    if "tiles" in ENGINES and tiling.suits(graph.board, graph.piece, end=end):
        return "tiles"
    if (
        not plain_knight(graph.board, graph.piece)
        and graph.n_nodes <= RACE_CELLS
        and "race" in ENGINES
        and "cpsat" in ENGINES
    ):
        return "race"
    if not closed and end is None and graph.n_nodes > GREEDY_CELLS:
        return "greedy"
    if "prune" in ENGINES:
        return "prune"
    if ENGINES:
        return next(iter(ENGINES))
    raise InvalidInputError("no tour engine is available")


def plain_knight(board: Board, piece: Leaper) -> bool:
    """The knight on a bounded 2D rectangle without blocked cells.

    Examples:
        >>> from cpknight.pieces import CAMEL, KNIGHT
        >>> plain_knight(Board((8, 8)), KNIGHT), plain_knight(Board((8, 8)), CAMEL)
        (True, False)
    """
    return (
        piece == KNIGHT
        and board.dim == 2
        and not board.unbounded
        and not board.blocked
        and not any(board.wrap)
    )


def check_theorems(
    board: Board, piece: Leaper, *, closed: bool, start: Cell | None, end: Cell | None
) -> None:
    """Raise :class:`NoTourError` where an existence theorem says there is none.

    For the knight on plain rectangles: Schwenk (1991) for closed tours, Conrad
    et al. (1994) for open tours with no fixed end (see
    :mod:`cpknight.tours.existence`). ``auto`` asks before it picks an engine
    (the search would have to exhaust the tree: 4x8 closed takes ``prune``
    0.2 s, the theorem nothing).

    Raises:
        NoTourError: the theorem says the board has no such tour.

    Examples:
        >>> check_theorems(Board((4, 8)), KNIGHT, closed=True, start=None, end=None)
        Traceback (most recent call last):
        ...
        cpknight.errors.NoTourError: board 4x8 has no closed knight's tour: a 4 x n \
board never has one (Schwenk 1991)
    """
    if not plain_knight(board, piece):
        return
    from cpknight.tours.existence import closed_tour_exists, open_tour_exists

    m, n = sorted(board.shape)
    if closed and not closed_tour_exists(m, n):
        if m * n % 2:
            why = "both sides are odd"
        elif m in (1, 2, 4):
            why = f"a {m} x n board never has one"
        else:
            why = f"3 x {n} has none"
        raise NoTourError(
            f"board {board.label} has no closed knight's tour: {why} (Schwenk 1991)",
            certificate="schwenk",
        )
    if not closed and start is None and end is None and not open_tour_exists(m, n):
        raise NoTourError(
            f"board {board.label} has no open knight's tour (Conrad et al. 1994)",
            certificate="conrad",
        )


RACE_CELLS = 2_500
"""Up to this many cells ``auto`` races ``prune`` and CP-SAT off plain knight boards."""

GREEDY_CELLS = 40_000
"""Above this many cells ``auto`` sends open tours to ``greedy`` (200x200)."""
