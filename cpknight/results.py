"""Result values (tours, distances, effort) and the one tour checker.

Every engine returns a :class:`Tour` only through :func:`make_tour`, which runs
:func:`check_tour` first: a tour that fails the checker is a bug in cpknight, and
is never handed to the user.

Examples:
    >>> from cpknight.board import Board
    >>> b = Board.parse("3x4")
    >>> cells = ["a1", "c2", "a3", "b1", "d2", "b3", "c1", "a2", "c3", "d1", "b2",
    ...          "d3"]
    >>> is_tour(b, cells)
    True
    >>> is_tour(b, cells, closed=True)
    False
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from cpknight.board import Board, Cell, CellLike
from cpknight.errors import EngineError, InvalidCellError, TourCheckError
from cpknight.pieces import KNIGHT, Leaper, PieceLike, as_piece, steps_are_moves
from cpknight.status import Effort, Status

__all__ = [
    "Comparison",
    "Distance",
    "DistanceMap",
    "Effort",
    "Outcome",
    "Status",
    "Sweep",
    "SweepCell",
    "Tour",
    "TourCount",
    "TourOutcome",
    "check_tour",
    "is_tour",
    "make_tour",
]


@dataclass(frozen=True, eq=False)
class Tour:
    """A checked tour (build with :func:`make_tour`, never directly).

    Attributes:
        board: the board.
        piece: the leaper.
        array: ``(n, d)`` int array of the cells in visiting order.
        closed: whether the last cell is one move from the first.
        method: the engine that found it.
        effort: what the engine counted.
        seconds: wall time of the solve, model building included.
    """

    board: Board
    piece: Leaper
    array: npt.NDArray[np.int64]
    closed: bool
    method: str
    effort: Effort = field(default_factory=Effort)
    seconds: float = 0.0

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """The cells in visiting order, as tuples of ints."""
        return tuple(tuple(row) for row in self.array.tolist())

    @property
    def start(self) -> Cell:
        """The first cell."""
        return tuple(int(x) for x in self.array[0])

    @property
    def end(self) -> Cell:
        """The last cell."""
        return tuple(int(x) for x in self.array[-1])

    def names(self) -> list[str]:
        """The cells in visiting order, named (``a1``, ``c2``, ...)."""
        return self.board.cell_names(self.array)

    def order(self) -> npt.NDArray[np.int64]:
        """A board-shaped array: the 1-based visit number of each cell, 0 if none."""
        grid = np.zeros(self.board.shape, dtype=np.int64)
        grid[tuple(self.array.T)] = np.arange(1, len(self.array) + 1)
        return grid

    def __len__(self) -> int:
        return int(self.array.shape[0])

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells)

    def as_dict(self) -> dict[str, Any]:
        """The tour's JSON keys (see :meth:`Outcome.as_dict`).

        Examples:
            >>> from cpknight import find_tour
            >>> sorted(find_tour("3x4", closed=False, method="prune").as_dict())
            ['cells', 'closed', 'length']
        """
        return {
            "cells": self.array.tolist(),
            "closed": self.closed,
            "length": len(self),
        }

    def __str__(self) -> str:
        from cpknight.render import tour_text

        return tour_text(self)

    def _repr_svg_(self) -> str:
        """The tour as an SVG picture, for notebooks."""
        from cpknight.svg import tour_svg

        return tour_svg(self)

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        return (
            f"<Tour {kind} {self.board.label} {self.piece.label} "
            f"{len(self)} cells by {self.method}>"
        )


@dataclass(frozen=True, eq=False)
class DistanceMap:
    """The number of moves from a source to every cell.

    Index it by cell: ``m[(r, c)]`` or ``m["b3"]`` gives an int, or ``None`` when
    the cell is blocked or unreachable.

    Attributes:
        board: the board.
        piece: the leaper.
        source: the source cell.
        array: board-shaped int array: moves to each cell, -1 if unreachable or
            blocked.
    """

    board: Board
    piece: Leaper
    source: Cell
    array: npt.NDArray[np.int32]

    def __getitem__(self, cell: CellLike) -> int | None:
        where = self.board.parse_cell(cell, allow_blocked=True)
        value = int(self.array[where])
        return None if value < 0 else value

    @property
    def max_distance(self) -> int:
        """The largest distance to a reachable cell (the source's eccentricity)."""
        return int(self.array.max())

    @property
    def n_reachable(self) -> int:
        """The number of cells reachable from the source (the source included)."""
        return int((self.array >= 0).sum())

    def unreachable(self) -> list[Cell]:
        """The open cells that cannot be reached, row-major."""
        where = np.argwhere((self.array < 0) & self.board.open_mask)
        return [tuple(int(x) for x in row) for row in where]

    def to_lists(self) -> Any:
        """Nested lists indexed by coordinates, ``None`` for blocked or unreachable."""
        return _nested(self.array)

    def __str__(self) -> str:
        from cpknight.render import distance_map_text

        return distance_map_text(self)

    def _repr_svg_(self) -> str:
        """The distance map as an SVG heat map, for notebooks."""
        from cpknight.svg import distance_map_svg

        return distance_map_svg(self)

    def __repr__(self) -> str:
        return (
            f"<DistanceMap {self.board.label} {self.piece.label} from "
            f"{self.board.cell_name(self.source)}, max {self.max_distance}>"
        )


def _plain(value: Any) -> Any:
    """Method details as JSON-ready values (numpy scalars and tuples made plain)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def _nested(array: npt.NDArray[np.int32]) -> Any:
    if array.ndim == 1:
        return [None if int(v) < 0 else int(v) for v in array]
    return [_nested(sub) for sub in array]


@dataclass(frozen=True)
class Distance:
    """The answer to one distance question by one method.

    Attributes:
        board: the board.
        piece: the leaper.
        source: the source cell.
        target: the target cell.
        distance: the number of moves (a lower bound when ``exact`` is False).
        path: one shortest path, source first, when the method gives one.
        method: the method's name (``'bfs'``, ``'ip'``, ...).
        exact: whether ``distance`` is the true distance on this board.
        seconds: wall time of the method.
        details: method-specific figures (first bound, cuts, move counts, ...).

    Examples:
        >>> from cpknight import knight_distance
        >>> d = knight_distance("8x8", "a1", "b2")
        >>> int(d), d.exact, len(d.path)
        (4, True, 5)
    """

    board: Board
    piece: Leaper
    source: Cell
    target: Cell
    distance: int
    path: tuple[Cell, ...] | None
    method: str
    exact: bool = True
    seconds: float = 0.0
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    def __int__(self) -> int:
        return self.distance

    def __index__(self) -> int:
        return self.distance

    def names(self) -> list[str]:
        """The path's cells by name (empty when the method gives no path)."""
        return self.board.cell_names(self.path or ())

    def as_dict(self) -> dict[str, Any]:
        """The distance's JSON keys (see :meth:`Outcome.as_dict`).

        Examples:
            >>> from cpknight import knight_distance
            >>> knight_distance("8x8", "a1", "c2").as_dict()["distance"]
            1
        """
        row: dict[str, Any] = {
            "cells": None if self.path is None else [list(c) for c in self.path],
            "distance": self.distance,
            "exact": self.exact,
        }
        row.update(_plain(self.details))
        return row


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


@dataclass(frozen=True)
class SweepCell:
    """One start cell of a sweep.

    Attributes:
        cell: the start cell.
        status: ``'found'``, ``'infeasible'`` (proved none) or ``'unknown'``
            (the limit was reached), the words of ``cpknight tour --json``.
        seconds: wall time for this cell.
        effort: what the engine counted.
        reason: why there is none, or why it stopped (``None`` when found).
    """

    cell: Cell
    status: str
    seconds: float
    effort: Effort = field(default_factory=Effort)
    reason: str | None = None


@dataclass(frozen=True, eq=False)
class Outcome:
    """One engine's answer to one question, whatever it was: the unit of every report.

    Proved-none and limit-reached come back as outcomes too, with the effort the
    engine spent (and its bound, where it has one), so that engines can be
    compared and tabulated whatever happened. :meth:`as_dict` is the one JSON
    schema of every command.

    Attributes:
        question: ``'tour'``, ``'distance'``, ``'route'`` or ``'count'``.
        method: the engine (the one ``auto`` picked, when it picked).
        status: how it ended (:class:`~cpknight.status.Status`).
        seconds: wall time, model building included.
        effort: what the engine counted (also when it found nothing).
        value: the checked answer (a Tour, Distance, Route, TourCount) when
            ``status.solved``, else ``None``.
        bound: a proved bound on the answer, where the engine has one.
        reason: why there is none, why it stopped, or why it was refused.

    Examples:
        >>> o = Outcome("tour", "prune", Status.INFEASIBLE, 0.5, reason="4x4")
        >>> o.as_dict()["status"], o.tour is None
        ('infeasible', True)
    """

    question: str
    method: str
    status: Status
    seconds: float
    effort: Effort = field(default_factory=Effort)
    value: Any = None
    bound: int | None = None
    reason: str | None = None

    @property
    def tour(self) -> Tour | None:
        """The tour, when this outcome found one."""
        return self.value if isinstance(self.value, Tour) else None

    def as_dict(self) -> dict[str, Any]:
        """The JSON row: the keys every command shares, then the answer's own.

        The shared keys are ``question``, ``method``, ``status``, ``seconds``,
        ``effort``, ``bound``, ``reason`` and ``cells`` (the answer's cells as
        coordinate lists, ``None`` without an answer); the answer's
        ``as_dict()`` adds its own keys (``closed``, ``distance``, ``moves``,
        ``directed`` ...).
        """
        row: dict[str, Any] = {
            "question": self.question,
            "method": self.method,
            "status": str(self.status),
            "seconds": round(float(self.seconds), 6),
            "effort": self.effort.as_dict(),
            "bound": None if self.bound is None else int(self.bound),
            "reason": self.reason,
            "cells": None,
        }
        if self.value is not None:
            row.update(self.value.as_dict())
        return row


@dataclass(frozen=True, eq=False)
class Comparison:
    """The same instance through several engines: one outcome each, cross-checked.

    Attributes:
        question: ``'tour'`` or ``'distance'``.
        instance: the instance as plain data (board label, piece vector, cells,
            time limit), as the JSON shows it.
        rows: one :class:`Outcome` per engine, in the order asked.
    """

    question: str
    instance: dict[str, Any]
    rows: tuple[Outcome, ...]

    def statuses(self) -> list[str]:
        """Each engine's status word, in row order."""
        return [str(o.status) for o in self.rows]

    @property
    def fastest(self) -> Outcome | None:
        """The fastest outcome that answered (found, optimal or proved none)."""
        answered = [o for o in self.rows if o.status.proved]
        return min(answered, key=lambda o: o.seconds) if answered else None

    def as_dict(self) -> dict[str, Any]:
        """``{"question", "instance", "rows"}``, each row an :meth:`Outcome.as_dict`."""
        return {
            "question": self.question,
            "instance": dict(self.instance),
            "rows": [o.as_dict() for o in self.rows],
        }


TourOutcome = Outcome
"""An :class:`Outcome` of the tour question (the name ``try_tour`` documents)."""


@dataclass(frozen=True, eq=False)
class Sweep:
    """For every start cell: whether a tour from it exists, its time and effort.

    Attributes:
        board: the board.
        piece: the leaper.
        closed: closed or open tours.
        method: the engine used.
        cells: one :class:`SweepCell` per open cell, row-major.
    """

    board: Board
    piece: Leaper
    closed: bool
    method: str
    cells: tuple[SweepCell, ...]

    def counts(self) -> dict[str, int]:
        """How many cells ended in each status (``found``, ``infeasible``, ...)."""
        out = {"found": 0, "infeasible": 0, "unknown": 0}
        for item in self.cells:
            out[item.status] = out.get(item.status, 0) + 1
        return out

    def __getitem__(self, cell: CellLike) -> SweepCell:
        where = self.board.parse_cell(cell)
        for item in self.cells:
            if item.cell == where:
                return item
        raise KeyError(cell)

    def _repr_svg_(self) -> str:
        """The sweep as an SVG picture, for notebooks."""
        from cpknight.svg import sweep_svg

        return sweep_svg(self)


@dataclass(frozen=True)
class TourCount:
    """How many tours an instance has, in both conventions.

    Attributes:
        status: ``found`` when the count is complete, or ``unknown`` when a
            limit stopped it (the numbers are then only lower bounds).
        directed: tours counted with each direction separately.
        undirected: tours counted once with their reverse.
        seconds: wall time, model building included.
        interrupted: whether Ctrl-C (rather than the time limit) stopped it.

    Examples:
        >>> TourCount(Status.FOUND, 16, 8, 0.01).undirected
        8
    """

    status: Status
    directed: int
    undirected: int
    seconds: float
    interrupted: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The count's JSON keys (see :meth:`Outcome.as_dict`).

        A count stopped by a limit is no count: its numbers come as
        ``at_least_directed`` / ``at_least_undirected``.

        Examples:
            >>> TourCount(Status.FOUND, 16, 8, 0.01).as_dict()
            {'directed': 16, 'undirected': 8}
            >>> TourCount(Status.UNKNOWN, 6, 3, 9.5).as_dict()
            {'directed': None, 'undirected': None, 'at_least_directed': 6, \
'at_least_undirected': 3}
        """
        if self.status is Status.FOUND:
            return {"directed": int(self.directed), "undirected": int(self.undirected)}
        return {
            "directed": None,
            "undirected": None,
            "at_least_directed": int(self.directed),
            "at_least_undirected": int(self.undirected),
        }


# ------------------------------------------------------------------ the checker


def check_tour(
    board: Board,
    cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]],
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = False,
    start: CellLike | None = None,
    end: CellLike | None = None,
) -> None:
    """Raise unless ``cells`` visits every open cell exactly once by legal moves.

    A closed tour also needs its last cell one move from its first, and at least
    three cells (a circuit that does not use one move twice).

    Args:
        board: the board (blocked cells and wrap are respected).
        cells: the cells in visiting order: names, tuples, or an ``(n, d)`` array.
        piece: the leaper.
        closed: require the closing move.
        start: if given, the tour must start here.
        end: if given, the tour must end here.

    Raises:
        TourCheckError: the first fault found, with ``step`` its index: a cell
            off the board or blocked, a cell visited twice, a step that is not a
            move, a missing cell, the wrong start or end, no closing move.

    Notes:
        Vectorised: millions of cells check in well under a second.

    Examples:
        >>> from cpknight.board import Board
        >>> check_tour(Board.parse("3x4"), ["a1", "b3", "c1"])
        Traceback (most recent call last):
        ...
        cpknight.errors.TourCheckError: the tour has 3 cells; board 3x4 has 12 \
open cells
        >>> check_tour(Board.parse("1x1"), ["a1"])
    """
    leaper = as_piece(piece)
    board.require_finite("a tour")
    leaper.check_dim(board.dim, board.label)
    array = _as_cell_array(board, cells)
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


def is_tour(
    board: Board,
    cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]],
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = False,
    start: CellLike | None = None,
    end: CellLike | None = None,
) -> bool:
    """Whether ``cells`` is a tour (see :func:`check_tour`).

    Examples:
        >>> from cpknight.board import Board
        >>> is_tour(Board.parse("2x2"), ["a1", "b2"])
        False
    """
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
) -> Tour:
    """Check a tour an engine found and wrap it as a :class:`Tour`.

    This is the only way engines build tours. A tour that fails the checker is
    a bug in the engine, not the user's fault: the :class:`EngineError` says
    which engine.

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
    array = np.array(cells, dtype=np.int64).reshape(-1, board.dim)
    try:
        check_tour(board, array, piece=piece, closed=closed, start=start, end=end)
    except TourCheckError as exc:
        raise EngineError(
            f"internal error: engine {method!r} returned a bad tour: {exc}"
        ) from exc
    array.setflags(write=False)
    return Tour(
        board=board,
        piece=piece,
        array=array,
        closed=closed,
        method=method,
        effort=effort or Effort(),
        seconds=float(seconds),
    )


def _as_cell_array(
    board: Board, cells: Sequence[CellLike] | npt.NDArray[np.integer[Any]]
) -> npt.NDArray[np.int64]:
    if isinstance(cells, np.ndarray):
        return cell_array(board, cells)
    rows: list[Cell] = []
    for i, cell in enumerate(cells):
        try:
            if isinstance(cell, str):
                rows.append(board._read_cell(cell)[0])
            else:
                rows.append(tuple(int(x) for x in cell))
        except (InvalidCellError, TypeError, ValueError):
            raise TourCheckError(
                f"cell {i + 1} ({cell!r}) is not a cell name or coordinates", step=i
            ) from None
        if len(rows[-1]) != board.dim:
            raise TourCheckError(
                f"cell {i + 1} ({cell!r}) has {len(rows[-1])} coordinates; board "
                f"{board.label} has {board.dim}",
                step=i,
            )
    return np.array(rows, dtype=np.int64).reshape(-1, board.dim)


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
    if array.min(initial=0) >= 0 and np.all(array.max(axis=0) < extent):
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
