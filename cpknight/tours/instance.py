"""A tour question: the instance every tour engine reads."""

from __future__ import annotations

from dataclasses import dataclass, field

from cpknight.board import Cell
from cpknight.constraints import TourConstraints
from cpknight.engines import BoardInstance

__all__ = ["TourInstance"]


@dataclass(frozen=True, kw_only=True)
class TourInstance(BoardInstance):
    """A tour question: every open cell once, closed or open, ends maybe fixed.

    Attributes:
        board: a finite board.
        piece: the leaper.
        closed: whether the last cell must be one move from the first.
        start: the first cell, if fixed.
        end: the last cell, if fixed (open tours only).
        constraints: side constraints (visit numbers, required and forbidden
            moves, symmetry); empty for a plain tour.
    """

    closed: bool = True
    start: Cell | None = None
    end: Cell | None = None
    constraints: TourConstraints = field(default_factory=TourConstraints)
