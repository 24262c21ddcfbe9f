"""Result values: tours, routes, distances, counts, sweeps and outcomes.

Frozen values, built by the engines through the checkers of
:mod:`cpknight.checks` and returned to the user; each prints as a grid
(``__str__``), draws itself in a notebook (``_repr_svg_``) and gives its JSON
keys (``as_dict()``); the counting values, from :mod:`cpknight.counts`, too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    from cpknight.counts import FrontierStats, TourCount

from cpknight.board import Board, Cell, CellLike
from cpknight.pieces import Leaper
from cpknight.status import Effort, Status

__all__ = [
    "Answer",
    "Comparison",
    "Distance",
    "DistanceMap",
    "FrontierStats",
    "Outcome",
    "Route",
    "ScoredTour",
    "Sweep",
    "SweepCell",
    "Tour",
    "TourCount",
    "TourOutcome",
    "race_label",
]


def __getattr__(name: str) -> Any:  # the counting values: loaded when first used
    if name in ("FrontierStats", "TourCount"):
        from cpknight import counts

        return getattr(counts, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Answer(Protocol):
    """What every answer tells its outcome: which engine, how it ended, at what cost.

    :class:`Tour`, :class:`Distance`, :class:`Route`, :class:`TourCount` and
    the longest paths all have these four; :func:`cpknight.engines.outcome_of`
    reads nothing else.

    Examples:
        >>> from cpknight import find_tour
        >>> t: Answer = find_tour("5x5", closed=False, method="prune")
        >>> t.method, str(t.status), t.bound
        ('prune', 'found', None)
    """

    @property
    def method(self) -> str:
        """The engine that answered."""
        ...

    @property
    def status(self) -> Status:
        """How it ended (``found``, ``optimal``, ``feasible``, ``unknown``)."""
        ...

    @property
    def effort(self) -> Effort:
        """What the engine counted."""
        ...

    @property
    def bound(self) -> int | None:
        """A proved bound on the answer, where the engine has one."""
        ...


@dataclass(frozen=True, eq=False)
class Tour:
    """A checked tour (build with :func:`make_tour`, never directly).

    Attributes:
        board: the board.
        piece: the leaper.
        array: ``(n, d)`` int array of the cells in visiting order.
        closed: whether the last cell is one move from the first.
        method: the engine that found it (``'race'`` for a race).
        effort: what the engine counted.
        seconds: wall time of the solve, model building included.
        winner: for a race, the rival that found it (``'prune'``,
            ``'cpsat'``); ``None`` otherwise.
    """

    board: Board
    piece: Leaper
    array: npt.NDArray[np.int64]
    closed: bool
    method: str
    effort: Effort = field(default_factory=Effort)
    seconds: float = 0.0
    winner: str | None = None

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

    @property
    def method_label(self) -> str:
        """The method as text: ``'prune'``, or ``'race (prune won)'`` for a race."""
        return race_label(self.method, self.winner)

    @property
    def status(self) -> Status:
        """Always ``found``: a tour is built only once checked."""
        return Status.FOUND

    @property
    def bound(self) -> int | None:
        """A tour has no bound to prove (it is the answer or none is)."""
        return None

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
        from cpknight.text.display import tour_str

        return tour_str(self)

    def _repr_svg_(self) -> str | None:
        """The tour as an SVG picture, for notebooks (a PNG on huge boards)."""
        from cpknight.draw import CELL_LIMIT, tour_svg

        return None if self.board.size > CELL_LIMIT else tour_svg(self)

    def _repr_png_(self) -> bytes | None:
        from cpknight.draw import CELL_LIMIT
        from cpknight.draw.values import tour_png

        return tour_png(self) if self.board.size > CELL_LIMIT else None

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        return (
            f"<Tour {kind} {self.board.label} {self.piece.label} "
            f"{len(self)} cells by {self.method_label}>"
        )


@dataclass(frozen=True, eq=False)
class ScoredTour(Tour):
    """A checked tour with the fewest turns or crossings found, and its bound.

    Build with :func:`cpknight.scores.make_scored_tour`, which recounts the
    score from the cells.

    Attributes:
        objective: ``'turns'`` or ``'crossings'``.
        value: the tour's score (recounted by the checker).
        lower: a proved lower bound on the score of any tour of the instance
            (equal to ``value`` when ``optimal``), or ``None``.
        optimal: whether no tour of the instance scores less (proved).
    """

    objective: str = "turns"
    value: int = 0
    lower: int | None = None
    optimal: bool = False

    @property
    def status(self) -> Status:
        """``optimal`` when proved, else ``feasible`` (the best found)."""
        return Status.OPTIMAL if self.optimal else Status.FEASIBLE

    @property
    def bound(self) -> int | None:
        """The proved lower bound on the score."""
        return self.lower

    def as_dict(self) -> dict[str, Any]:
        """The tour's JSON keys, and its score under the objective's name."""
        row = super().as_dict()
        row[self.objective] = int(self.value)
        return row

    def _repr_svg_(self) -> str:
        """The tour with its turns or crossings marked, for notebooks."""
        from cpknight.draw.objectives import scored_tour_svg

        return scored_tour_svg(self)

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        proved = "optimal" if self.optimal else f"bound {self.lower}"
        return (
            f"<ScoredTour {kind} {self.board.label} {self.value} {self.objective} "
            f"({proved}) by {self.method_label}>"
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
        array: board-shaped int array: moves to each cell, :attr:`UNREACHABLE`
            (-1) if unreachable, :attr:`BLOCKED` (-2) if blocked; ``array < 0``
            is every cell without a distance.
    """

    board: Board
    piece: Leaper
    source: Cell
    array: npt.NDArray[np.int32]
    UNREACHABLE: ClassVar[int] = -1
    BLOCKED: ClassVar[int] = -2

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

    def as_dict(self) -> dict[str, Any]:
        """The map's JSON: board, piece, source and the nested distances.

        Examples:
            >>> from cpknight import distance_map
            >>> distance_map("3x3", "a1").as_dict()["distances"][1]
            [3, None, 1]
        """
        return {
            "board": self.board.label,
            "piece": list(self.piece.vector),
            "source": list(self.source),
            "distances": self.to_lists(),
        }

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, a row per open cell: ``cell``, ``coords``, ``distance``.

        ``distance`` is ``<NA>`` where the cell cannot be reached.
        """
        from cpknight.text.frames import distance_map_frame

        return distance_map_frame(self)

    def __str__(self) -> str:
        from cpknight.text.display import distance_map_str

        return distance_map_str(self)

    def _repr_svg_(self) -> str:
        """The distance map as an SVG heat map, for notebooks."""
        from cpknight.draw import distance_map_svg

        return distance_map_svg(self)

    def __repr__(self) -> str:
        return (
            f"<DistanceMap {self.board.label} {self.piece.label} from "
            f"{self.board.cell_name(self.source)}, max {self.max_distance}>"
        )


def race_label(method: str, winner: str | None) -> str:
    """A method's name as text, with the rival that won a race.

    Examples:
        >>> race_label("race", "cpsat"), race_label("prune", None)
        ('race (cpsat won)', 'prune')
    """
    return method if winner is None else f"{method} ({winner} won)"


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


class Distance:
    """The answer to one distance question by one method.

    A frozen value in slots: its fields are read-only, compared (all but
    ``details``), hashed and pickled as a frozen dataclass's are.

    Attributes:
        board: the board.
        piece: the leaper.
        source: the source cell.
        target: the target cell.
        distance: the number of moves (a lower bound when ``exact`` is False).
        path: one shortest path, source first, when the method gives one.
        method: the method's name (``'bfs'``, ``'ip'``, ...).
        exact: whether ``distance`` is the true distance on this board.
        seconds: wall time of the method (0.0 for a quick answer read from a
            table already made).
        details: method-specific figures (first bound, cuts, move counts, ...).

    Notes:
        A quick answer (:mod:`cpknight.distances.quick`) is made without
        ``__init__``: what its answers share (board, piece, method, ``exact``,
        a maker) is one tuple, ``_kind``; ``path`` and ``details`` are made on
        first use by the maker (called with the answer and the field's name).

    Examples:
        >>> from cpknight import knight_distance
        >>> d = knight_distance("8x8", "a1", "b2")
        >>> int(d), d.exact, len(d.path)
        (4, True, 5)
        >>> import pickle
        >>> pickle.loads(pickle.dumps(d)) == d
        True
    """

    __slots__ = ("_info", "_kind", "_moves", "_path", "_secs", "_src", "_tgt")
    _kind: tuple[Board, Leaper, str, bool, Callable[[Distance, str], Any] | None]
    # Read-only properties, made below the class (board ... exact read _kind):
    board: Board
    piece: Leaper
    source: Cell
    target: Cell
    distance: int
    method: str
    exact: bool
    seconds: float

    def __init__(
        self,
        board: Board,
        piece: Leaper,
        source: Cell,
        target: Cell,
        distance: int,
        path: tuple[Cell, ...] | None,
        method: str,
        exact: bool = True,
        seconds: float = 0.0,
        details: dict[str, Any] | None = None,
    ) -> None:
        self._kind = (board, piece, method, exact, None)
        self._src, self._tgt, self._moves = source, target, distance
        self._path, self._secs = path, seconds
        self._info = {} if details is None else details

    @property
    def path(self) -> tuple[Cell, ...] | None:
        """One shortest path, source first, when the method gives one."""
        try:
            return self._path
        except AttributeError:  # a quick answer's, made on first use
            self._path = self._kind[4](self, "path")  # type: ignore[misc]
            return self._path

    @property
    def details(self) -> dict[str, Any]:
        """Method-specific figures (first bound, cuts, move counts, ...)."""
        try:
            return self._info
        except AttributeError:  # a quick answer's, made on first use
            self._info = self._kind[4](self, "details")  # type: ignore[misc]
            return self._info

    def _key(self) -> tuple[Any, ...]:
        """The compared fields (all but ``details``), as a dataclass compares."""
        board, piece, method, exact, _ = self._kind
        cells = (self._src, self._tgt, self._moves, self.path)
        return (board, piece, *cells, method, exact, self.seconds)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distance) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy the fields (a quick answer's path made)."""
        return (Distance, (*self._key(), self.details))

    @property
    def status(self) -> Status:
        """``found`` when ``exact``, else ``feasible`` (a bound, not the distance)."""
        return Status.FOUND if self.exact else Status.FEASIBLE

    @property
    def effort(self) -> Effort:
        """A distance's methods count no effort (their figures are in ``details``)."""
        return Effort()

    @property
    def bound(self) -> None:
        """No separate bound: an inexact ``distance`` is itself the lower bound."""
        return None

    def __int__(self) -> int:
        return self._moves

    def __index__(self) -> int:
        return self._moves

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
        path = self.path
        row: dict[str, Any] = {
            "cells": None if path is None else [list(c) for c in path],
            "distance": self.distance,
            "exact": self.exact,
        }
        row.update(_plain(self.details))
        return row

    def __str__(self) -> str:
        from cpknight.text.display import distance_str

        return distance_str(self)

    def _repr_svg_(self) -> str:
        from cpknight.draw.values import distance_svg

        return distance_svg(self)

    def __repr__(self) -> str:
        kind = "" if self.exact else " (a lower bound)"
        return (
            f"<Distance {self.board.cell_name(self.source)} -> "
            f"{self.board.cell_name(self.target)} {self.distance} moves{kind} "
            f"on {self.board.label} by {self.method}>"
        )


for _field, _slot in [("source", "_src"), ("target", "_tgt"), ("distance", "_moves")]:
    _doc = f"The {_field} (see the class)."
    setattr(Distance, _field, property(attrgetter(_slot), doc=_doc))
for _field, _at in [("board", 0), ("piece", 1), ("method", 2), ("exact", 3)]:
    _doc = f"The {_field} (see the class)."
    _read = lambda d, at=_at: d._kind[at]  # noqa: E731
    setattr(Distance, _field, property(_read, doc=_doc))
for _field, _slot in [("seconds", "_secs")]:
    setattr(Distance, _field, property(attrgetter(_slot), doc="The method's time."))


@dataclass(frozen=True)
class SweepCell:
    """One start cell of a sweep.

    Attributes:
        cell: the start cell.
        status: ``found``, ``infeasible`` (proved none) or ``unknown``
            (the limit was reached), the words of ``cpknight tour --json``.
        seconds: wall time for this cell.
        effort: what the engine counted.
        reason: why there is none, or why it stopped (``None`` when found).
    """

    cell: Cell
    status: Status
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
    interrupted: bool = field(default=False, compare=False)
    """Whether Ctrl-C stopped the engine (its answer, if any, is the best so far)."""
    winner: str | None = None
    """For a race (``method='race'``), the rival whose answer this is."""

    @property
    def method_label(self) -> str:
        """The method as text: ``'prune'``, or ``'race (prune won)'`` for a race.

        Examples:
            >>> Outcome("tour", "race", Status.FOUND, 0.1, winner="prune").method_label
            'race (prune won)'
        """
        return race_label(self.method, self.winner)

    @property
    def tour(self) -> Tour | None:
        """The tour, when this outcome found one."""
        return self.value if isinstance(self.value, Tour) else None

    def as_dict(self) -> dict[str, Any]:
        """The JSON row: the keys every command shares, then the answer's own.

        The shared keys are ``question``, ``method``, ``status``, ``seconds``,
        ``effort``, ``bound``, ``reason`` and ``cells`` (the answer's cells as
        coordinate lists, ``None`` without an answer), and ``winner`` for a
        race (the rival that answered); the answer's ``as_dict()`` adds its own
        keys (``closed``, ``distance``, ``moves``, ``directed`` ...).
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
        if self.winner is not None:
            row["winner"] = self.winner
        if self.value is not None:
            row.update(self.value.as_dict())
        return row

    def __str__(self) -> str:
        from cpknight.text.display import outcome_str

        return outcome_str(self)

    def _repr_html_(self) -> str:
        from cpknight.text.display import outcome_html

        return outcome_html(self)

    def __repr__(self) -> str:
        return (
            f"<Outcome {self.question} by {self.method_label}: {self.status} "
            f"in {self.seconds:.3f} s>"
        )


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

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped the comparison (rows after it were not run)."""
        return any(row.interrupted for row in self.rows)

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

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, a row per engine (see :mod:`cpknight.text.frames`)."""
        from cpknight.text.frames import outcomes_frame

        return outcomes_frame(self.rows)

    def __str__(self) -> str:
        from cpknight.text.display import comparison_str

        return comparison_str(self)

    def _repr_html_(self) -> str:
        from cpknight.text.display import comparison_html

        return comparison_html(self)

    def __repr__(self) -> str:
        return f"<Comparison {self.question}: {', '.join(self.statuses())}>"


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
        cells: one :class:`SweepCell` per open cell, row-major (cells that Ctrl-C
            or the sweep's budget left unfinished are ``unknown``, and say so).
        interrupted: whether Ctrl-C stopped the sweep.
    """

    board: Board
    piece: Leaper
    closed: bool
    method: str
    cells: tuple[SweepCell, ...]
    interrupted: bool = False

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

    def as_dict(self) -> dict[str, Any]:
        """``{"question", "instance", "counts", "rows"}``: one outcome row a start cell.

        Each row has the keys of :meth:`Outcome.as_dict` and ``start``, the cell.

        Examples:
            >>> from cpknight import sweep
            >>> d = sweep("3x4", closed=False, method="prune").as_dict()
            >>> d["counts"], d["rows"][0]["start"], d["rows"][0]["status"]
            ({'found': 6, 'infeasible': 6, 'unknown': 0}, [0, 0], 'found')
        """
        rows = []
        for item in self.cells:
            row = Outcome(
                "tour",
                self.method,
                Status(item.status),
                item.seconds,
                item.effort,
                reason=item.reason,
            ).as_dict()
            row["start"] = list(item.cell)
            rows.append(row)
        return {
            "question": "sweep",
            "instance": {
                "board": self.board.label,
                "piece": list(self.piece.vector),
                "closed": self.closed,
                "method": self.method,
            },
            "counts": self.counts(),
            "rows": rows,
        }

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, a row per start cell (:mod:`cpknight.text.frames`)."""
        from cpknight.text.frames import sweep_frame

        return sweep_frame(self)

    def __str__(self) -> str:
        from cpknight.text.display import sweep_str

        return sweep_str(self)

    def _repr_html_(self) -> str:
        from cpknight.text.display import sweep_html

        return sweep_html(self)

    def _repr_svg_(self) -> str:
        """The sweep as an SVG picture, for notebooks."""
        from cpknight.draw import sweep_svg

        return sweep_svg(self)

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        counts = ", ".join(f"{k} {v}" for k, v in self.counts().items())
        return f"<Sweep {kind} {self.board.label} by {self.method}: {counts}>"


@dataclass(frozen=True, eq=False)
class Route:
    """A checked route through the food (build with :func:`make_route`).

    Attributes:
        board: the board.
        piece: the leaper.
        start: the first cell.
        food: the cells to visit, without repeats, in the order given.
        end: the required last cell, or ``None``.
        simple: whether no cell may be used twice.
        cells: the route, start first; a walk may repeat cells.
        status: ``'optimal'`` (proved shortest) or ``'feasible'`` (the best
            found at the limit, or by the greedy baseline).
        moves: the number of moves, ``len(cells) - 1``.
        bound: a proved lower bound on the number of moves (``== moves`` when
            optimal).
        method: the engine that found it.
        seconds: wall time, model building included.
        effort: what the engine counted.
    """

    board: Board
    piece: Leaper
    start: Cell
    food: tuple[Cell, ...]
    end: Cell | None
    simple: bool
    cells: tuple[Cell, ...]
    status: Status
    moves: int
    bound: int
    method: str
    seconds: float = 0.0
    effort: Effort = field(default_factory=Effort)

    @property
    def optimal(self) -> bool:
        """Whether the route is proved shortest."""
        return self.status is Status.OPTIMAL

    def names(self) -> list[str]:
        """The route's cells by name."""
        return self.board.cell_names(self.cells)

    def eaten_at(self) -> dict[Cell, int]:
        """The step (0 = the start) at which each food cell is first reached."""
        first: dict[Cell, int] = {}
        for step, cell in enumerate(self.cells):
            first.setdefault(cell, step)
        return {f: first[f] for f in self.food}

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells)

    def as_dict(self) -> dict[str, Any]:
        """The route's JSON keys (see :meth:`Outcome.as_dict`).

        Examples:
            >>> from cpknight import collect
            >>> r = collect("8x8", "a1", ["c2"], method="search")
            >>> r.as_dict()["moves"], r.as_dict()["cells"]
            (1, [[0, 0], [1, 2]])
        """
        return {
            "cells": [list(c) for c in self.cells],
            "moves": self.moves,
            "simple": self.simple,
        }

    def __str__(self) -> str:
        from cpknight.text.display import route_str

        return route_str(self)

    def _repr_svg_(self) -> str:
        from cpknight.draw import route_svg

        return route_svg(self)

    def __repr__(self) -> str:
        kind = "simple route" if self.simple else "route"
        return (
            f"<Route {self.status} {kind} {self.board.label} {self.piece.label} "
            f"{self.moves} moves through {len(self.food)} food by {self.method}>"
        )
