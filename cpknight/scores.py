"""The scores of a tour, recounted from its cells: turns and crossings.

The checker of the optimising tours (``cpknight tour --min turns|crossings``),
written apart from the models: it reads nothing but the tour's cells, in order.

- A **turn** is a cell where the knight's direction changes: the move into the
  cell and the move out of it are different vectors. Every cell of a closed
  tour has both; on an open tour the two ends have only one move and are not
  turns. On a torus or cylinder a move's vector is read modulo the wrapped
  axes.
- A **crossing** is a pair of drawn moves (straight segments between cell
  centres) that share a point other than an end they both have; a move that
  touches or overlaps another counts too (it never happens for the knight,
  whose moves pass through no cell centre). Computed with exact rational
  arithmetic, not with the model's geometry (:mod:`cpknight.longest.geometry`).

:func:`make_scored_tour` wraps a checked tour with its recounted score and
refuses one whose score is not what the engine's model claimed (a bug).

Examples:
    >>> cells = [(0, 0), (1, 2), (2, 4), (0, 3)]
    >>> turn_cells(Board.parse("3x5"), cells, closed=False)
    [2]
    >>> crossing_moves(Board.parse("3x5"), cells, closed=False)
    []
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from cpknight.board import Board, Cell
from cpknight.checks import make_tour
from cpknight.constraints import OBJECTIVES, TourConstraints
from cpknight.errors import EngineError
from cpknight.pieces import Leaper
from cpknight.results import ScoredTour
from cpknight.status import Effort

__all__ = [
    "count_crossings",
    "count_turns",
    "crossing_moves",
    "make_scored_tour",
    "score_of",
    "turn_cells",
]

Cells = Sequence[Sequence[int]] | Any  # a list of cells or an (n, d) array


def _cells(cells: Cells) -> list[Cell]:
    return [tuple(int(x) for x in cell) for cell in np.asarray(cells).tolist()]


def _step(board: Board, a: Cell, b: Cell) -> tuple[int, ...]:
    """The vector from ``a`` to ``b``, modulo the axes that wrap."""
    out = []
    for axis, (x, y) in enumerate(zip(a, b, strict=True)):
        d = y - x
        if board.wrap[axis]:
            d %= board.shape[axis]
        out.append(d)
    return tuple(out)


def turn_cells(board: Board, cells: Cells, *, closed: bool) -> list[int]:
    """The places (from 0) in the tour where the direction changes.

    Examples:
        >>> turn_cells(Board.parse("1x5"), [(0, 0), (0, 2), (0, 4)], closed=False)
        []
    """
    seq = _cells(cells)
    n = len(seq)
    if n < 3:
        return []
    places = range(n) if closed else range(1, n - 1)
    found = []
    for i in places:
        before, here, after = seq[i - 1], seq[i], seq[(i + 1) % n]
        if _step(board, before, here) != _step(board, here, after):
            found.append(i)
    return found


def count_turns(board: Board, cells: Cells, *, closed: bool) -> int:
    """How many cells of the tour are turns.

    Examples:
        >>> count_turns(Board.parse("3x4"), [(0, 0), (1, 2), (2, 0)], closed=False)
        1
    """
    return len(turn_cells(board, cells, closed=closed))


def _segments_meet(
    p1: Cell, p2: Cell, q1: Cell, q2: Cell
) -> bool:  # exact: parameters as fractions
    """Whether segments p1p2 and q1q2 share a point that is not a common end."""
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = p1, p2, q1, q2
    rx, ry, sx, sy = bx - ax, by - ay, dx - cx, dy - cy
    denom = rx * sy - ry * sx
    ends = {p1, p2} & {q1, q2}
    if denom != 0:  # the lines meet in one point: is it on both segments?
        t = Fraction((cx - ax) * sy - (cy - ay) * sx, denom)
        u = Fraction((cx - ax) * ry - (cy - ay) * rx, denom)
        if not (0 <= t <= 1 and 0 <= u <= 1):
            return False
        point = (ax + t * rx, ay + t * ry)
        return all(point != (Fraction(e[0]), Fraction(e[1])) for e in ends)
    if (cx - ax) * ry - (cy - ay) * rx != 0:
        return False  # parallel lines, apart
    # Collinear: project onto the segment p1p2 and compare the intervals.
    length = rx * rx + ry * ry

    def along(x: int, y: int) -> Fraction:
        return Fraction((x - ax) * rx + (y - ay) * ry, length)

    lo, hi = sorted((along(cx, cy), along(dx, dy)))
    start, stop = max(lo, Fraction(0)), min(hi, Fraction(1))
    if start > stop:
        return False
    if start < stop:
        return True  # they overlap along a stretch
    touch = (ax + start * rx, ay + start * ry)
    return all(touch != (Fraction(e[0]), Fraction(e[1])) for e in ends)


def crossing_moves(
    board: Board, cells: Cells, *, closed: bool
) -> list[tuple[int, int]]:
    """The pairs of moves that cross, as places ``(i, j)``, ``i < j``.

    Move ``i`` joins the tour's cells ``i`` and ``i + 1`` (the last move of a
    closed tour joins the last cell to the first). Moves are compared only
    when their bounding boxes share a unit square (two segments that meet
    do).

    Examples:
        >>> crossing_moves(Board.parse("3x3"), [(0, 0), (2, 1), (0, 2), (1, 0)],
        ...                closed=False)
        [(0, 2)]
    """
    seq = _cells(cells)
    if board.dim != 2:
        raise ValueError(f"crossings need a 2D board: {board.label}")
    n = len(seq)
    moves = [(seq[i], seq[i + 1]) for i in range(n - 1)]
    if closed and n > 2:
        moves.append((seq[-1], seq[0]))
    boxes: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, (a, b) in enumerate(moves):
        for r in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
            for c in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
                boxes[(r, c)].append(i)
    pairs: set[tuple[int, int]] = set()
    for members in boxes.values():
        for k, i in enumerate(members):
            for j in members[k + 1 :]:
                if (i, j) in pairs:
                    continue
                if _segments_meet(*moves[i], *moves[j]):
                    pairs.add((i, j))
    return sorted(pairs)


def count_crossings(board: Board, cells: Cells, *, closed: bool) -> int:
    """How many pairs of the tour's moves cross.

    Examples:
        >>> count_crossings(Board.parse("3x3"), [(0, 0), (2, 1), (0, 2), (1, 0)],
        ...                 closed=False)
        1
    """
    return len(crossing_moves(board, cells, closed=closed))


def score_of(board: Board, cells: Cells, objective: str, *, closed: bool) -> int:
    """The tour's turns or crossings, as ``objective`` says."""
    if objective == "turns":
        return count_turns(board, cells, closed=closed)
    if objective == "crossings":
        return count_crossings(board, cells, closed=closed)
    raise ValueError(f"expected an objective in {', '.join(OBJECTIVES)}: {objective!r}")


def make_scored_tour(
    board: Board,
    piece: Leaper,
    cells: Sequence[Sequence[int]] | npt.NDArray[np.integer[Any]],
    *,
    closed: bool,
    method: str,
    objective: str,
    claimed: int | None,
    lower: int | None,
    optimal: bool,
    effort: Effort | None = None,
    seconds: float = 0.0,
    start: Cell | None = None,
    end: Cell | None = None,
    constraints: TourConstraints | None = None,
) -> ScoredTour:
    """Check a tour, recount its score and wrap it as a :class:`ScoredTour`.

    Args:
        board: the board.
        piece: the leaper.
        cells: the tour, in order.
        closed: whether the tour is closed.
        method: the engine.
        objective: ``'turns'`` or ``'crossings'``.
        claimed: the score the engine's model gives the tour (``None``: none).
        lower: a proved lower bound on the score of any such tour.
        optimal: whether the engine proved the tour optimal.
        effort: what the engine counted.
        seconds: wall time.
        start: the fixed first cell, if any.
        end: the fixed last cell, if any.
        constraints: the side constraints the tour must honour.

    Raises:
        EngineError: not a tour, or its score is not the one claimed, or it is
            below the claimed lower bound, or "optimal" with a bound short of it.

    Examples:
        >>> from cpknight.pieces import KNIGHT
        >>> t = make_scored_tour(Board.parse("3x4"), KNIGHT,
        ...     [(0, 0), (1, 2), (2, 0), (0, 1), (1, 3), (2, 1), (0, 2), (1, 0),
        ...      (2, 2), (0, 3), (1, 1), (2, 3)], closed=False, method="hand",
        ...     objective="turns", claimed=None, lower=None, optimal=False)
        >>> t.value, str(t.status), t.as_dict()["turns"]
        (10, 'feasible', 10)
    """
    tour = make_tour(
        board,
        piece,
        cells,
        closed=closed,
        method=method,
        effort=effort,
        seconds=seconds,
        start=start,
        end=end,
        constraints=constraints,
    )
    value = score_of(board, tour.array, objective, closed=closed)
    fault = None
    if claimed is not None and value != claimed:
        fault = f"its model counts {claimed} {objective}, the tour has {value}"
    elif lower is not None and value < lower:
        fault = f"it has {value} {objective}, below the proved bound {lower}"
    elif optimal and lower is not None and lower != value:
        fault = f"it is called optimal with {value} {objective} but a bound {lower}"
    if fault is not None:
        raise EngineError(
            f"internal error: engine {method!r} returned a bad tour: {fault}"
        )
    return ScoredTour(
        board=tour.board,
        piece=tour.piece,
        array=tour.array,
        closed=tour.closed,
        method=tour.method,
        effort=tour.effort,
        seconds=tour.seconds,
        objective=objective,
        value=value,
        lower=value if optimal else lower,
        optimal=optimal,
    )
