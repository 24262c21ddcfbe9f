"""How a tour instance is solved: what ``method="auto"`` picks, and the plan.

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

Whatever the method, :func:`plan_tour` says the whole of what is done: the
checks asked first, the engine, the fallback, the name an outcome reports.
The front door (:func:`cpknight.api.find_tour`) carries the plan out.

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
from cpknight.errors import InvalidInputError, NoTourError
from cpknight.pieces import Leaper
from cpknight.solving import Run
from cpknight.tours import ENGINES
from cpknight.tours.instance import TourInstance
from cpknight.tours.tiles_scope import plain_knight, suits, takes

__all__ = [
    "CERTIFY_CELLS",
    "GREEDY_CELLS",
    "RACE_CELLS",
    "Check",
    "TourPlan",
    "check_theorems",
    "choose_tour_method",
    "plain_knight",
    "plan_tour",
]

Check = Literal["theorems", "certificates"]
"""What a plan asks before its engine: ``'theorems'`` (:func:`check_theorems`,
from the board's numbers alone) or ``'certificates'``
(:func:`cpknight.tours.certificates.check_tour_possible`, on the move graph)."""


@dataclass(frozen=True)
class TourPlan:
    """How a tour instance is solved: the checks, the engine, the fallback.

    Attributes:
        method: the engine, a name in :data:`ENGINES`.
        reason: why that engine: ``auto``'s rule in a few words, or
            ``'asked for'``.
        checks: what runs before the engine, in order (see :data:`Check`); a
            board they settle (no tour) never reaches an engine.
        reports: the method an outcome names when the checks settle it:
            ``'auto'`` when ``auto`` chose from the move graph, else ``method``
            (what an engine settles names the engine).
        fallback: the engine that searches on when ``method`` gives up with
            time left (``auto``'s greedy falls back on ``prune``), or ``None``.

    Examples:
        >>> TourPlan("prune", "asked for", ("certificates",), "prune")
        ... # doctest: +NORMALIZE_WHITESPACE
        TourPlan(method='prune', reason='asked for', checks=('certificates',),
                 reports='prune', fallback=None)
    """

    method: str
    reason: str
    checks: tuple[Check, ...]
    reports: str
    fallback: str | None = None


def plan_tour(
    instance: TourInstance, method: str = "auto", run: Run | None = None
) -> TourPlan:
    """The plan for solving an instance with ``method`` (or what ``auto`` picks).

    The engine is ``method``, or for ``auto`` what :func:`choose_tour_method`
    picks. The checks: an engine that reads the board is asked only what the
    existence theorems leave open (tiles on 8x8 a1-h8 would search forever), so
    they come first; the certificates run before any engine that reads the
    move graph, and before one that reads the board up to
    :data:`CERTIFY_CELLS` cells; when ``auto`` chose from the move graph the
    theorems follow them. Only ``auto``'s greedy has a fallback: greedy giving
    up proves nothing, so with time left ``prune`` searches on.

    Args:
        instance: the tour instance.
        method: a name in :data:`ENGINES`, or ``'auto'``.
        run: the run whose clock bounds building the move graph, when
            ``auto``'s rule needs it (``None``: built unbounded).

    Returns:
        The :class:`TourPlan`.

    Raises:
        InvalidInputError: an unknown method, or no tour engine is installed.
        SolveLimitError: the time limit passed while building the move graph.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> plan_tour(TourInstance(Board.parse("6x6"), KNIGHT)).checks
        ('certificates', 'theorems')
        >>> plan_tour(TourInstance(Board.parse("6x6"), KNIGHT), "cpsat").reports
        'cpsat'
        >>> big = TourInstance(Board.parse("300x300"), KNIGHT, closed=False)
        >>> plan = plan_tour(big)
        >>> plan.method, plan.checks, plan.reports
        ('tiles', ('theorems', 'certificates'), 'tiles')
    """
    auto = method == "auto"
    by_graph = False  # whether auto chose from the move graph
    if auto:
        method, reason, by_graph = _auto_rule(instance, run)
    else:
        ENGINES.engine(method)  # says which names exist
        reason = "asked for"
    reads_graph = ENGINES[method].reads == "graph"
    board = instance.board
    checks: list[Check] = [] if reads_graph else ["theorems"]
    if reads_graph or (not board.unbounded and board.size <= CERTIFY_CELLS):
        checks.append("certificates")
        if by_graph:
            checks.append("theorems")
    return TourPlan(
        method,
        reason,
        tuple(checks),
        reports="auto" if by_graph else method,
        fallback="prune" if auto and method == "greedy" else None,
    )


def choose_tour_method(instance: TourInstance, run: Run | None = None) -> TourPlan:
    """The plan of ``method='auto'`` for an instance: the engine it picks, and why.

    In order: side constraints go to ``cpsat`` (unless the tiles
    :func:`~cpknight.tiling.takes` them); large plain knight rectangles
    (:func:`~cpknight.tiling.suits`) to ``tiles``,
    before any move graph is built; other plain knight rectangles to
    ``prune``; anything else up to :data:`RACE_CELLS` cells to ``race``; open
    tours with no fixed end over :data:`GREEDY_CELLS` cells to ``greedy``
    (falling back on ``prune`` when it gives up with time left); the rest to
    ``prune``.

    Args:
        instance: the tour instance.
        run: the run whose clock bounds building the move graph, when the
            rule needs it (``None``: built unbounded).

    Returns:
        The :class:`TourPlan` (:func:`plan_tour` with ``'auto'``): the
        engine's name in :data:`ENGINES`, the rule, the checks asked first.

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
    return plan_tour(instance, "auto", run)


def _auto_rule(instance: TourInstance, run: Run | None) -> tuple[str, str, bool]:
    """``auto``'s engine, the rule that picked it, and whether the graph decided.

    ``False`` when the board and the side constraints decided (before any move
    graph is built), ``True`` when the move graph did.
    """
    board, piece = instance.board, instance.piece
    tiles = "tiles" in ENGINES
    if instance.constraints and not (tiles and takes(instance)):
        return "cpsat", "side constraints: cpsat honours them all", False
    if tiles and suits(board, piece, end=instance.end):
        why = "a large plain knight rectangle"
        if instance.constraints:
            why = f"required moves on {why}: the tiles repair them in"
        return "tiles", why, False
    graph = instance.graph if run is None else instance.build_graph(run)
    if (
        not plain_knight(board, piece)
        and graph.n_nodes <= RACE_CELLS
        and "race" in ENGINES
        and "cpsat" in ENGINES
    ):
        why = f"not a plain knight rectangle, up to {RACE_CELLS} cells"
        return "race", f"{why}: prune and cpsat race", True
    if not instance.closed and instance.end is None and graph.n_nodes > GREEDY_CELLS:
        why = f"an open tour with free end over {GREEDY_CELLS} cells"
        return "greedy", why, True
    if "prune" in ENGINES:
        if plain_knight(board, piece):
            return "prune", "a plain knight rectangle", True
        return "prune", f"over {RACE_CELLS} cells, beyond the race", True
    if ENGINES:
        return next(iter(ENGINES)), "the only tour engine installed", True
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

CERTIFY_CELLS = 250_000
"""Up to this many cells the move graph's certificates run before an engine that
reads the board too (building the graph takes a fraction of a second)."""
