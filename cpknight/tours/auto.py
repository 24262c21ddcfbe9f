"""What ``method="auto"`` picks for a tour instance, and why.

The rule follows ``benchmarks/auto.py`` (every engine on every class of
instance): the existence theorems first for the knight on plain rectangles,
then tiles for large plain knight rectangles, ``prune`` for the other plain
knight boards, and a race of ``prune`` against CP-SAT on everything else
(shaped boards, tori, cylinders, 3D, other leapers) up to
:data:`RACE_CELLS` cells, where neither wins everywhere; greedy for huge open
tours, and ``prune`` beyond. No rule picks well off plain boards: ``prune``
finds 40x40 with 30 blocked cells in 0.01 s where CP-SAT needs a second, but
stalls on the antelope's 14x14 and on the 4x6 cylinder (which has no tour),
where CP-SAT answers in 0.1 s; hence the race.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import KNIGHT
    >>> choose_tour_method(TourInstance(Board.parse("holed8"), KNIGHT)).method
    'race'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cpknight.board import Board, Cell
from cpknight.engines import TourInstance
from cpknight.errors import InvalidInputError, NoTourError
from cpknight.pieces import Leaper
from cpknight.solving import Run
from cpknight.tours import ENGINES
from cpknight.tours.tiles_scope import plain_knight, suits, takes

__all__ = [
    "GREEDY_CELLS",
    "RACE_CELLS",
    "Choice",
    "check_theorems",
    "choose_tour_method",
    "plain_knight",
]


@dataclass(frozen=True)
class Choice:
    """The engine ``method='auto'`` picked for a tour instance, and why.

    Attributes:
        method: a name in :data:`ENGINES`.
        reason: the rule that picked it, in a few words.
        stage: ``'board'`` when the board and the side constraints decided
            (before any move graph is built), ``'graph'`` when the move graph
            did: the certificates and the existence theorems are asked first
            (see :func:`cpknight.api.find_tour`), so that a board without a
            tour never reaches an engine.

    Examples:
        >>> Choice("prune", "a plain knight rectangle")
        Choice(method='prune', reason='a plain knight rectangle', stage='graph')
    """

    method: str
    reason: str
    stage: Literal["board", "graph"] = "graph"


def choose_tour_method(instance: TourInstance, run: Run | None = None) -> Choice:
    """The tour engine ``method='auto'`` uses for an instance, and why.

    In order: side constraints go to ``cpsat`` (unless the tiles
    :func:`~cpknight.tiling.takes` them); large plain knight rectangles
    (:func:`~cpknight.tiling.suits`) to ``tiles``,
    before any move graph is built; other plain knight rectangles to
    ``prune``; anything else up to :data:`RACE_CELLS` cells to ``race``; open
    tours with no fixed end over :data:`GREEDY_CELLS` cells to ``greedy``
    (``find_tour`` falls back on ``prune`` when it gives up with time left);
    the rest to ``prune``.

    Args:
        instance: the tour instance.
        run: the run whose clock bounds building the move graph, when the
            rule needs it (``None``: built unbounded).

    Returns:
        The :class:`Choice`: the engine's name in :data:`ENGINES` and the rule.

    Raises:
        InvalidInputError: no tour engine is installed.
        SolveLimitError: the time limit passed while building the move graph.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> choose_tour_method(TourInstance(Board.parse("8x8"), KNIGHT)).method
        'prune'
        >>> choose_tour_method(TourInstance(Board.parse("holed8"), KNIGHT)).reason
        'not a plain knight rectangle, up to 2500 cells: prune and cpsat race'
    """
    board, piece = instance.board, instance.piece
    tiles = "tiles" in ENGINES
    if instance.constraints and not (tiles and takes(instance)):
        return Choice("cpsat", "side constraints: cpsat honours them all", "board")
    if tiles and suits(board, piece, end=instance.end):
        why = "a large plain knight rectangle"
        if instance.constraints:
            why = f"required moves on {why}: the tiles repair them in"
        return Choice("tiles", why, "board")
    graph = instance.graph if run is None else instance.build_graph(run)
    if (
        not plain_knight(board, piece)
        and graph.n_nodes <= RACE_CELLS
        and "race" in ENGINES
        and "cpsat" in ENGINES
    ):
        why = f"not a plain knight rectangle, up to {RACE_CELLS} cells"
        return Choice("race", f"{why}: prune and cpsat race")
    if not instance.closed and instance.end is None and graph.n_nodes > GREEDY_CELLS:
        return Choice("greedy", f"an open tour with free end over {GREEDY_CELLS} cells")
    if "prune" in ENGINES:
        if plain_knight(board, piece):
            return Choice("prune", "a plain knight rectangle")
        return Choice("prune", f"over {RACE_CELLS} cells, beyond the race")
    if ENGINES:
        return Choice(next(iter(ENGINES)), "the only tour engine installed")
    raise InvalidInputError("no tour engine is available")


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
        >>> from cpknight.pieces import KNIGHT
        >>> check_theorems(Board((4, 8)), KNIGHT, closed=True, start=None, end=None)
        Traceback (most recent call last):
        ...
        cpknight.errors.NoTourError: board 4x8 has no closed knight's tour: a 4 x n \
board never has one (Schwenk 1991)
    """
    if not plain_knight(board, piece):
        return
    from cpknight.tours.existence import no_tour_error

    if closed or (start is None and end is None):
        error = no_tour_error(board, closed=closed)
        if error is not None:
            raise error
    if not closed:
        _check_end_colours(board, start, end)


def _check_end_colours(board: Board, start: Cell | None, end: Cell | None) -> None:
    """The colour argument on a plain rectangle, from the cells' coordinates alone.

    A knight's move changes the colour of its square, so an open tour of an
    even number of cells ends on the colour it did not start on, and one of an
    odd number starts and ends on the larger class (that of the corner a1).
    The same certificate the move graph gives (``colour``), without building it.
    """
    cells = board.shape[0] * board.shape[1]
    name = board.cell_name
    if cells % 2:
        for which, cell in (("start", start), ("end", end)):
            if cell is not None and sum(cell) % 2:
                raise NoTourError(
                    f"an open tour of {board.label} ({cells} cells, an odd number) "
                    f"starts and ends on the colour with more cells, a1's: {which} "
                    f"{name(cell)} is not on it",
                    certificate="colour",
                )
    elif start is not None and end is not None and sum(start) % 2 == sum(end) % 2:
        raise NoTourError(
            f"cells {name(start)} and {name(end)} have the same colour; an open "
            f"tour of {cells} cells, an even number, ends on the other colour",
            certificate="colour",
        )


RACE_CELLS = 2_500
"""Up to this many cells ``auto`` races ``prune`` and CP-SAT off plain knight boards."""

GREEDY_CELLS = 40_000
"""Above this many cells ``auto`` sends open tours to ``greedy`` (200x200)."""
