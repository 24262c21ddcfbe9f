"""The checkers: every answer an engine gives passes one of these before it is returned.

Every engine returns a :class:`~cpknight.results.Tour` only through
:func:`make_tour`, which runs :func:`check_tour` first; a route only through
:func:`make_route` (:func:`check_route`); a distance path only through
:func:`make_distance`. An answer that fails its checker is a bug in cpknight
(:class:`~cpknight.errors.EngineError`), never handed to the user. The checkers
share one set of cell and step checks, vectorised over the whole sequence.

Examples:
    >>> from cpknight.board import Board
    >>> b = Board.parse("3x4")
    >>> cells = ["a1", "c2", "a3", "b1", "d2", "b3", "c1", "a2", "c3", "d1", "b2",
    ...          "d3"]
    >>> is_tour(b, cells, closed=False)
    True
    >>> is_tour(b, cells, closed=True)
    False
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeGuard

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    from cpknight.results import Distance, Route, Tour

from cpknight.board import Board, Cell, CellLike
from cpknight.constraints import TourConstraints, check_constraints
from cpknight.errors import (
    EngineError,
    InvalidCellError,
    InvalidInputError,
    TourCheckError,
)
from cpknight.pieces import (
    KNIGHT,
    Leaper,
    MoveGraph,
    PieceLike,
    as_piece,
    steps_are_moves,
)
from cpknight.runtime.files import reuse_block_memory
from cpknight.status import Effort, Status

__all__ = [
    "cell_array",
    "check_cells",
    "check_constraints",
    "check_end_cell",
    "check_route",
    "check_steps",
    "check_tour",
    "is_route",
    "is_tour",
    "make_distance",
    "make_route",
    "make_tour",
]


def make_distance(
    board: Board,
    piece: Leaper,
    source: Cell,
    target: Cell,
    path: Sequence[Cell],
    *,
    method: str,
    started: float,
    details: dict[str, Any] | None = None,
) -> Distance:
    """The exact answer of a method that found a shortest ``path``.

    Args:
        board: the board.
        piece: the leaper.
        source: the source cell.
        target: the target cell.
        path: a shortest path, source first.
        method: the method's name.
        started: :func:`time.perf_counter` when the method started.
        details: method-specific figures.

    Raises:
        EngineError: ``path`` is not a walk by moves of the piece over open
            cells from ``source`` to ``target`` (a bug in the method).

    Notes:
        This is the only way distance methods that give a path build their
        answer, so every such path is checked here, as :func:`make_tour`
        checks tours. That it is a *shortest* walk is the method's claim.

    Examples:
        >>> import time
        >>> from cpknight.board import Board
        >>> d = make_distance(Board.parse("3x3"), KNIGHT, (0, 0), (1, 2),
        ...                   [(0, 0), (1, 2)], method="hand",
        ...                   started=time.perf_counter())
        >>> d.distance, d.exact, d.names()
        (1, True, ['a1', 'c2'])
        >>> make_distance(Board.parse("3x3"), KNIGHT, (0, 0), (1, 2),
        ...               [(0, 0), (1, 1), (1, 2)], method="hand",
        ...               started=time.perf_counter())
        Traceback (most recent call last):
        ...
        cpknight.errors.EngineError: internal error: method 'hand' returned a bad \
path: step 1 -> 2 (a1 -> b2) is not a knight (1,2) move
    """
    array = np.array(path, dtype=np.int64).reshape(-1, board.dim)
    try:
        if board.unbounded:
            if len(array) == 0:
                raise TourCheckError("the path is empty", step=None)
        else:
            check_cells(board, array, what="path")
        ends = (tuple(array[0].tolist()), tuple(array[-1].tolist()))
        if ends != (tuple(source), tuple(target)):  # the message, when they differ
            check_end_cell(board, array, source, what="path", last=False)
            check_end_cell(board, array, target, what="path", last=True)
        check_steps(board, piece, array)
    except TourCheckError as exc:
        raise EngineError(
            f"internal error: method {method!r} returned a bad path: {exc}"
        ) from exc
    from cpknight.results.distance import Distance  # made only for a distance

    return Distance(
        board=board,
        piece=piece,
        source=source,
        target=target,
        distance=len(path) - 1,
        path=tuple(path),
        method=method,
        exact=True,
        seconds=time.perf_counter() - started,
        details={} if details is None else details,
    )


# ------------------------------------------------------------------ the checker


def check_tour(
    board: Board | str | Sequence[int],
    cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]],
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    constraints: TourConstraints | None = None,
) -> None:
    """Raise unless ``cells`` visits every open cell exactly once by legal moves.

    A closed tour also needs its last cell one move from its first, and at least
    three cells (a circuit that does not use one move twice).

    Args:
        board: the board (blocked cells and wrap are respected), or a spec such
            as ``'6x6'`` or a shape.
        cells: the cells in visiting order: names, tuples, or an ``(n, d)`` array.
        piece: the leaper.
        closed: require the closing move.
        start: if given, the tour must start here.
        end: if given, the tour must end here.
        constraints: side constraints the tour must honour as well
            (:func:`check_constraints`, once it is a tour).

    Raises:
        TourCheckError: the first fault found, with ``step`` its index: a cell
            off the board or blocked, a cell visited twice, a step that is not a
            move, a missing cell, the wrong start or end, no closing move; then
            the first side constraint broken.

    Notes:
        Vectorised: millions of cells check in well under a second.

    Examples:
        >>> from cpknight.board import Board
        >>> check_tour(Board.parse("3x4"), ["a1", "b3", "c1"], closed=False)
        Traceback (most recent call last):
        ...
        cpknight.errors.TourCheckError: the tour has 3 cells; board 3x4 has 12 \
open cells
        >>> check_tour(Board.parse("1x1"), ["a1"], closed=False)
    """
    board = Board.parse(board)  # a Board, or a spec such as '6x6'
    leaper = as_piece(piece)
    board.require_finite("a tour")
    leaper.check_dim(board.dim, board.label)
    array = _tour_cells(board, cells)
    n = int(array.shape[0])
    if n < WALK_CHUNK or not _clean_walk(board, leaper, array):
        _first_fault(board, leaper, array)
    if start is not None:
        check_end_cell(board, array, start, what="tour", last=False)
    if end is not None:
        check_end_cell(board, array, end, what="tour", last=True)
    if n != board.n_open:
        raise TourCheckError(
            f"the tour has {n} cells; board {board.label} has {board.n_open} "
            "open cells",
            step=None,
        )
    if closed:
        if n < 3:
            raise TourCheckError(
                f"a closed tour needs at least 3 cells; this one has {n}", step=None
            )
        back = steps_are_moves(board, leaper, array[-1:], array[:1])
        if not back[0]:
            raise TourCheckError(
                f"the tour is not closed: {board.cell_name(array[-1])} -> "
                f"{board.cell_name(array[0])} is not a {leaper.label} move",
                step=n,
            )
    if constraints:
        check_constraints(board, array, constraints, closed=closed)


WALK_CHUNK = 1 << 15
"""Cells checked at a time by :func:`_clean_walk`: a block that stays in cache."""


def _clean_walk(
    board: Board,
    leaper: Leaper,
    array: npt.NDArray[np.int64],
    chunk: int = WALK_CHUNK,
) -> bool:
    """Whether every cell is open and on the board, none twice, each step a move.

    The same verdict as :func:`_first_fault` (which raises on the first fault),
    reached in one pass over blocks of ``chunk`` cells that stay in the
    processor's cache, without the temporaries of whole-array passes: the
    path that every huge tour takes. A walk it rejects goes to
    :func:`_first_fault` for the message.

    Examples:
        >>> from cpknight.board import Board
        >>> b = Board.parse("3x4")
        >>> walk = np.array([[0, 0], [1, 2], [2, 0], [0, 1], [1, 3], [2, 1]])
        >>> _clean_walk(b, KNIGHT, walk, chunk=4), _clean_walk(b, KNIGHT, walk[::-2])
        (True, False)
    """
    n, dim = array.shape
    if n == 0:
        return False
    shape = board.shape
    weights = [math.prod(shape[k + 1 :]) for k in range(dim)]
    seen = np.zeros(board.size, dtype=np.bool_)
    open_flat = board.open_mask.ravel() if board.blocked else None
    reuse_block_memory()
    for begin in range(0, n, chunk):
        # One cell of overlap: the step into this block from the last one.
        block = array[max(begin - 1, 0) : begin + chunk]
        if int(block.min()) < 0:
            return False
        columns = [block[:, k] for k in range(dim)]
        # One column at a time: numpy's max along axis 0 of an (n, d) array is
        # many times slower than d strided passes.
        if any(
            int(col.max()) >= side for col, side in zip(columns, shape, strict=True)
        ):
            return False
        flat = columns[0] * weights[0]
        for col, weight in zip(columns[1:], weights[1:], strict=True):
            flat += col * weight if weight != 1 else col
        if open_flat is not None and not open_flat[flat].all():
            return False
        seen[flat] = True
        if (
            len(block) > 1
            and not steps_are_moves(board, leaper, block[:-1], block[1:]).all()
        ):
            return False
    # n cells, all on the board, cover n distinct cells only when none repeats.
    return bool(int(np.count_nonzero(seen)) == n)


def _first_fault(board: Board, leaper: Leaper, array: npt.NDArray[np.int64]) -> None:
    """Raise on a walk's first fault: off the board or blocked, a repeat, a step.

    Raises:
        TourCheckError: the first fault, as :func:`check_tour` reports it.
    """
    flat = check_cells(board, array, what="tour")
    n = int(array.shape[0])
    # A linear-time test first; the sort that finds the first repeat only runs
    # when there is one.
    repeated = n > 1 and int(np.bincount(flat, minlength=1).max()) > 1
    if repeated:
        order = np.argsort(flat, kind="stable")
        repeats = np.flatnonzero(flat[order][1:] == flat[order][:-1])
        bad = int(order[repeats + 1].min())
        first = int(np.flatnonzero(flat == flat[bad])[0])
        raise TourCheckError(
            f"cell {bad + 1} ({board.cell_name(array[bad])}) was already visited "
            f"at step {first + 1}",
            step=bad,
        )
    check_steps(board, leaper, array)


def is_tour(
    board: Board | str | Sequence[int],
    cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]],
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
) -> bool:
    """Whether ``cells`` is a tour (see :func:`check_tour`).

    Examples:
        >>> from cpknight.board import Board
        >>> is_tour(Board.parse("2x2"), ["a1", "b2"])
        False
    """
    board = Board.parse(board)  # bad boards raise; bad tours are False
    try:
        check_tour(board, cells, piece=piece, closed=closed, start=start, end=end)
    except (TourCheckError, InvalidCellError):
        return False
    return True


def make_tour(
    board: Board,
    piece: Leaper,
    cells: Sequence[Sequence[int]] | npt.NDArray[np.integer[Any]],
    *,
    closed: bool,
    method: str,
    effort: Effort | None = None,
    seconds: float = 0.0,
    start: CellLike | None = None,
    end: CellLike | None = None,
    constraints: TourConstraints | None = None,
) -> Tour:
    """Check a tour an engine found and wrap it as a :class:`Tour`.

    The tour keeps a copy of ``cells``, unless ``cells`` is an ``(n, d)``
    int64 array that nothing can write to (read-only and owning its memory):
    an engine that hands over a huge tour so saves a copy.

    This is the only way engines build tours. A tour that fails the checker
    (or, given ``constraints``, :func:`check_constraints`) is a bug in the
    engine, not the user's fault: the :class:`EngineError` says which engine.

    Raises:
        EngineError: the engine's answer is not a tour.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import Leaper
        >>> wazir, b = Leaper((0, 1)), Board.parse("1x3")
        >>> make_tour(b, wazir, [(0, 0), (0, 1), (0, 2)], closed=False, method="hand")
        <Tour open 1x3 wazir (0,1) 3 cells by hand>
        >>> make_tour(b, wazir, [(0, 0), (0, 2), (0, 1)], closed=False, method="hand")
        Traceback (most recent call last):
        ...
        cpknight.errors.EngineError: internal error: engine 'hand' returned a bad \
tour: step 1 -> 2 (a1 -> c1) is not a wazir (0,1) move
    """
    if _handed_over(cells, board.dim):
        array = cells  # nothing can write to it: kept, not copied
    else:
        array = np.array(cells, dtype=np.int64).reshape(-1, board.dim)
    try:
        check_tour(
            board,
            array,
            piece=piece,
            closed=closed,
            start=start,
            end=end,
            constraints=constraints,
        )
    except TourCheckError as exc:
        raise EngineError(
            f"internal error: engine {method!r} returned a bad tour: {exc}"
        ) from exc
    array.setflags(write=False)
    from cpknight.results.tours import Tour  # made only for a tour

    return Tour(
        board=board,
        piece=piece,
        array=array,
        closed=closed,
        method=method,
        effort=effort or Effort(),
        seconds=float(seconds),
    )


def _handed_over(
    cells: Sequence[Sequence[int]] | npt.NDArray[np.integer[Any]], dim: int
) -> TypeGuard[npt.NDArray[np.int64]]:
    """Whether ``cells`` is an int64 ``(n, dim)`` array nothing can write to.

    Examples:
        >>> cells = np.zeros((3, 2), dtype=np.int64)
        >>> _handed_over(cells, 2)
        False
        >>> cells.setflags(write=False)
        >>> _handed_over(cells, 2), _handed_over(cells[1:], 2)
        (True, False)
    """
    return (
        isinstance(cells, np.ndarray)
        and cells.dtype == np.int64
        and cells.ndim == 2
        and cells.shape[1] == dim
        and cells.base is None
        and not cells.flags.writeable
        and cells.flags.c_contiguous
    )


def _listed_cells(
    board: Board,
    cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]],
    read: Callable[[int, CellLike], Cell],
) -> npt.NDArray[np.int64]:
    """Cells as an ``(n, d)`` array: an array as it is, a list by ``read(i, cell)``."""
    if isinstance(cells, np.ndarray):
        return cell_array(board, cells)
    if isinstance(cells, str) or not isinstance(cells, Iterable):
        raise InvalidInputError(
            "cells must be a list of cells (names or coordinates) or an (n, d) "
            f"array: {cells!r}"
        )
    rows = [read(i, cell) for i, cell in enumerate(cells)]
    return np.array(rows, dtype=np.int64).reshape(-1, board.dim)


def _tour_cells(
    board: Board, cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]]
) -> npt.NDArray[np.int64]:
    """A tour's cells: names, or coordinates that need not be on the board."""

    def read(i: int, cell: CellLike) -> Cell:
        try:
            if isinstance(cell, str):
                row = board.read_cell(cell)[0]
            else:
                row = tuple(int(x) for x in cell)
        except (InvalidCellError, TypeError, ValueError):
            raise TourCheckError(
                f"cell {i + 1} ({cell!r}) is not a cell name or coordinates", step=i
            ) from None
        if len(row) != board.dim:
            raise TourCheckError(
                f"cell {i + 1} ({cell!r}) has {len(row)} coordinates; board "
                f"{board.label} has {board.dim}",
                step=i,
            )
        return row

    return _listed_cells(board, cells, read)


def check_cells(
    board: Board, array: npt.NDArray[np.int64], *, what: str
) -> npt.NDArray[np.intp]:
    """Raise unless ``array`` holds at least one cell and only open cells.

    The cell checks that :func:`check_tour` and ``check_route`` share.

    Args:
        board: the board.
        array: the cells, an ``(n, d)`` array.
        what: the word for the walk in the message, ``'tour'`` or ``'route'``.

    Returns:
        The flat (row-major) index of each cell on the board.

    Raises:
        TourCheckError: no cell at all, else the first cell off the board, else
            the first blocked one.

    Examples:
        >>> from cpknight.board import Board
        >>> b = Board.parse("3x3")
        >>> check_cells(b, np.array([[0, 0], [2, 1]]), what="tour").tolist()
        [0, 7]
    """
    if len(array) == 0:
        raise TourCheckError(f"the {what} is empty", step=None)
    extent = np.array(board.shape)
    if array.min(initial=0) >= 0 and all(
        int(array[:, k].max()) < side for k, side in enumerate(board.shape)
    ):
        inside = np.ones(1, dtype=bool)  # every cell on the board: one pass
    else:
        inside = np.all((array >= 0) & (array < extent), axis=1)
    if not inside.all():
        bad = int(np.argmin(inside))
        raise TourCheckError(
            f"cell {bad + 1} ({_shown(board, array[bad])}) is not on board "
            f"{board.label}",
            step=bad,
        )
    flat: npt.NDArray[np.intp] = np.ravel_multi_index(tuple(array.T), board.shape)
    open_flat = board.open_mask.ravel()[flat] if board.blocked else flat >= 0
    if not open_flat.all():
        bad = int(np.argmin(open_flat))
        raise TourCheckError(
            f"cell {bad + 1} ({board.cell_name(array[bad])}) is blocked", step=bad
        )
    return flat


def check_steps(board: Board, piece: Leaper, array: npt.NDArray[np.int64]) -> None:
    """Raise unless each step from one row of ``array`` to the next is a move.

    Raises:
        TourCheckError: the first step that is not a move (``step`` the index
            of the cell it lands on).

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> check_steps(Board.parse("3x3"), KNIGHT, np.array([[0, 0], [1, 1]]))
        Traceback (most recent call last):
        ...
        cpknight.errors.TourCheckError: step 1 -> 2 (a1 -> b2) is not a knight \
(1,2) move
    """
    if len(array) < 2:
        return
    legal = steps_are_moves(board, piece, array[:-1], array[1:])
    if not legal.all():
        bad = int(np.argmin(legal))
        raise TourCheckError(
            f"step {bad + 1} -> {bad + 2} "
            f"({board.cell_name(array[bad])} -> {board.cell_name(array[bad + 1])})"
            f" is not a {piece.label} move",
            step=bad + 1,
        )


def check_end_cell(
    board: Board,
    array: npt.NDArray[np.int64],
    cell: CellLike,
    *,
    what: str,
    last: bool,
) -> Cell:
    """Raise unless ``array`` starts (or, with ``last``, ends) on ``cell``.

    Args:
        board: the board.
        array: the cells, at least one.
        cell: the required first (or last) cell.
        what: the word for the walk in the message, ``'tour'`` or ``'route'``.
        last: check the last cell, not the first.

    Returns:
        ``cell``, parsed.

    Raises:
        TourCheckError: the walk starts (ends) elsewhere.

    Examples:
        >>> from cpknight.board import Board
        >>> check_end_cell(Board.parse("3x3"), np.array([[0, 0], [2, 1]]), "b3",
        ...                what="route", last=True)
        (2, 1)
    """
    want = board.parse_cell(cell)
    at = len(array) - 1 if last else 0
    if tuple(int(x) for x in array[at]) != want:
        raise TourCheckError(
            f"the {what} {'ends' if last else 'starts'} on "
            f"{board.cell_name(array[at])}, not {board.cell_name(want)}",
            step=at,
        )
    return want


def cell_array(
    board: Board, cells: npt.NDArray[np.integer[Any]]
) -> npt.NDArray[np.int64]:
    """An array of cells as ``(n, d)`` int64 (any empty array: no cells).

    Raises:
        TourCheckError: a non-empty array of another shape.

    Examples:
        >>> from cpknight.board import Board
        >>> cell_array(Board.parse("3x3"), np.array([[0, 0], [2, 1]], np.int8)).dtype
        dtype('int64')
        >>> cell_array(Board.parse("3x3"), np.array([0, 0]))
        Traceback (most recent call last):
        ...
        cpknight.errors.TourCheckError: expected an (n, 2) array of cells, got \
shape (2,)
    """
    array = cells.astype(np.int64, copy=False)
    if array.ndim != 2 or array.shape[1] != board.dim:
        if array.size == 0:
            return np.zeros((0, board.dim), dtype=np.int64)
        raise TourCheckError(
            f"expected an (n, {board.dim}) array of cells, got shape "
            f"{tuple(array.shape)}"
        )
    return array


def _shown(board: Board, cell: npt.NDArray[np.int64]) -> str:
    return ",".join(str(int(x)) for x in cell)


# ---------------------------------------------------------------- routes


def check_route(
    board: Board | str | Sequence[int],
    cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]],
    *,
    start: CellLike,
    food: Sequence[CellLike] = (),
    end: CellLike | None = None,
    piece: PieceLike = KNIGHT,
    simple: bool = False,
) -> None:
    """Raise unless ``cells`` is a route from ``start`` through all the food.

    Args:
        board: the board (blocked cells and wrap are respected), or a spec.
        cells: the route, start first: names, tuples or an ``(n, d)`` array.
        start: the required first cell.
        food: the cells the route must visit.
        end: if given, the required last cell.
        piece: the leaper.
        simple: no cell twice (except the start repeated once at the very end
            when ``end == start``).

    Raises:
        TourCheckError: the first fault found (``step`` its index): a cell off
            the board or blocked, a step that is not a move, the wrong start or
            end, a repeated cell in a simple route, a food cell never visited.

    Examples:
        >>> b = Board.parse("3x3")
        >>> check_route(b, ["a1", "b3", "c1"], start="a1", food=["c1"])
        >>> check_route(b, ["a1", "b3"], start="a1", food=["c1"])
        Traceback (most recent call last):
        ...
        cpknight.errors.TourCheckError: the route never visits food c1
    """
    board = Board.parse(board)  # a Board, or a spec such as '8x8'
    leaper = as_piece(piece)
    board.require_finite("a route")
    leaper.check_dim(board.dim, board.label)
    array = _route_cells(board, cells)
    flat = check_cells(board, array, what="route")
    n = int(array.shape[0])
    want = check_end_cell(board, array, start, what="route", last=False)
    check_steps(board, leaper, array)
    last: Cell | None = None
    if end is not None:
        last = check_end_cell(board, array, end, what="route", last=True)
    if simple:
        body = flat[:-1] if last == want and n > 1 else flat
        _, first_at, counts = np.unique(body, return_index=True, return_counts=True)
        if (counts > 1).any():
            firsts = set(first_at.tolist())
            bad = next(i for i in range(len(body)) if i not in firsts)
            raise TourCheckError(
                f"cell {bad + 1} ({board.cell_name(array[bad])}) is used twice in "
                "a simple route",
                step=bad,
            )
    seen = set(flat.tolist())
    for item in food:
        cell = board.parse_cell(item)
        if board.index(cell) not in seen:
            raise TourCheckError(
                f"the route never visits food {board.cell_name(cell)}", step=None
            )


def is_route(
    board: Board | str | Sequence[int],
    cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]],
    *,
    start: CellLike,
    food: Sequence[CellLike] = (),
    end: CellLike | None = None,
    piece: PieceLike = KNIGHT,
    simple: bool = False,
) -> bool:
    """Whether ``cells`` is a route through the food (see :func:`check_route`).

    Examples:
        >>> b = Board.parse("8x8")
        >>> is_route(b, ["a1", "b3", "a1"], start="a1", food=["b3"])
        True
        >>> is_route(b, ["a1", "b3", "a1"], start="a1", food=["b3"], simple=True)
        False
    """
    board = Board.parse(board)  # bad boards raise; bad routes are False
    try:
        check_route(
            board, cells, start=start, food=food, end=end, piece=piece, simple=simple
        )
    except (TourCheckError, InvalidCellError):
        return False
    return True


def make_route(
    graph: MoveGraph,
    nodes: Sequence[int],
    *,
    start: Cell,
    food: Sequence[Cell],
    end: Cell | None,
    simple: bool,
    status: Status | str,
    bound: int,
    method: str,
    seconds: float = 0.0,
    effort: Effort | None = None,
) -> Route:
    """Check a route an engine found (as move-graph nodes) and wrap it.

    This is the only way engines build routes. A route that fails the checker
    is a bug in the engine: the :class:`EngineError` says which.

    Raises:
        EngineError: the engine's answer is not a valid route, or its status
            and bound do not fit its length.

    Examples:
        >>> from cpknight.pieces import KNIGHT, move_graph
        >>> g = move_graph(Board.parse("3x3"), KNIGHT)
        >>> nodes = [g.node(c) for c in [(0, 0), (2, 1), (0, 2)]]
        >>> r = make_route(g, nodes, start=(0, 0), food=[(0, 2)], end=None,
        ...                simple=True, status="optimal", bound=2, method="hand")
        >>> r.moves, r.names()
        (2, ['a1', 'b3', 'c1'])
    """
    board = graph.board
    cells = tuple(graph.cell(int(n)) for n in nodes)
    moves = len(cells) - 1
    try:
        check_route(
            board,
            np.array(cells, dtype=np.int64).reshape(-1, board.dim),
            start=start,
            food=food,
            end=end,
            piece=graph.piece,
            simple=simple,
        )
    except TourCheckError as exc:
        raise EngineError(
            f"internal error: engine {method!r} returned a bad route: {exc}"
        ) from exc
    status = Status(status)
    if (
        status not in (Status.OPTIMAL, Status.FEASIBLE)
        or bound > moves
        or (status is Status.OPTIMAL and bound != moves)
    ):
        raise EngineError(
            f"internal error: engine {method!r} returned a route of {moves} moves "
            f"marked {str(status)!r} with bound {bound}"
        )
    from cpknight.results.routes import Route  # made only for a route

    return Route(
        board=board,
        piece=graph.piece,
        start=start,
        food=tuple(food),
        end=end,
        simple=simple,
        cells=cells,
        status=status,
        moves=moves,
        bound=int(bound),
        method=method,
        seconds=float(seconds),
        effort=effort or Effort(),
    )


def _route_cells(
    board: Board, cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]]
) -> npt.NDArray[np.int64]:
    """A route's cells: names or coordinates of cells on the board."""

    def read(i: int, cell: CellLike) -> Cell:
        try:
            return board.parse_cell(cell, allow_blocked=True)
        except InvalidCellError as exc:
            raise TourCheckError(f"cell {i + 1}: {exc}", step=i) from None

    return _listed_cells(board, cells, read)
