"""Distances: the answer to one distance question by one method."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

import numpy as np

from cpknight.board import Board, Cell
from cpknight.pieces import Leaper
from cpknight.status import Effort, Status

__all__ = ["Distance"]


def _plain(value: Any) -> Any:
    """Method details as JSON-ready values (numpy scalars and tuples made plain)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


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
