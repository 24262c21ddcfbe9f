"""A route question: the instance every route engine reads."""

from __future__ import annotations

from dataclasses import dataclass

from cpknight.board import Cell
from cpknight.engines import BoardInstance

__all__ = ["RouteInstance"]


@dataclass(frozen=True, kw_only=True)
class RouteInstance(BoardInstance):
    """A route question: the shortest route from ``start`` through every food cell.

    Attributes:
        start: the first cell.
        food: the cells to visit, without repeats, in the order given.
        end: the required last cell (``end == start`` asks for a closed route).
        simple: never use a cell twice (default: a walk, cells may repeat).
    """

    start: Cell
    food: tuple[Cell, ...]
    end: Cell | None = None
    simple: bool = False
