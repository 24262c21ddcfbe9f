"""Routes: a walk or path through required cells."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from cpknight.board import Board, Cell
from cpknight.pieces import Leaper
from cpknight.status import Effort, Status

__all__ = ["Route"]


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
