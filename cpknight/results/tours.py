"""Tours: the checked tour every tour engine returns."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from cpknight.board import Board, Cell
from cpknight.pieces import Leaper
from cpknight.results.answer import race_label
from cpknight.status import Effort, Status

__all__ = ["Tour"]


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
