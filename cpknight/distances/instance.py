"""A distance question: the instance every distance engine reads."""

from __future__ import annotations

from dataclasses import dataclass

from cpknight.board import Cell
from cpknight.engines import BoardInstance

__all__ = ["DistanceInstance"]


@dataclass(frozen=True, kw_only=True)
class DistanceInstance(BoardInstance):
    """A distance question: the fewest moves from ``source`` to ``target``."""

    source: Cell
    target: Cell
