"""Counting tours: how many closed or open tours a board has, exactly.

Two engines count: the frontier program (:mod:`cpknight.counting.frontier`,
linear in the long side, exponential in the short one) and CP-SAT enumeration
(:mod:`cpknight.counting.cpsat`, one solution at a time); the CP-SAT count
also splits into shards (:mod:`cpknight.counting.shards`) that run anywhere.

Every count follows one convention (:func:`directions`): ``directed`` counts a
tour and its reverse separately, ``undirected`` once.
"""

from __future__ import annotations

from dataclasses import dataclass

from cpknight.engines import TourInstance
from cpknight.results import TourCount

__all__ = ["ShardedCount", "directions"]


def directions(instance: TourInstance) -> int:
    """Directed tours per undirected one: 1 with a fixed open end, else 2.

    A closed tour with a fixed start still has two directions; an open tour
    with a fixed start or end has one (its reverse starts elsewhere).

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> b = Board.parse("5x5")
        >>> directions(TourInstance(b, KNIGHT, closed=False, start=(0, 0)))
        1
        >>> directions(TourInstance(b, KNIGHT, closed=True, start=(0, 0)))
        2
    """
    fixed_end = not instance.closed and (
        instance.start is not None or instance.end is not None
    )
    return 1 if fixed_end else 2


@dataclass(frozen=True)
class ShardedCount:
    """A count made of shards (:func:`cpknight.api.count_tours_sharded`).

    Attributes:
        count: the sum (``found`` only when every shard finished; otherwise
            ``unknown``, its numbers lower bounds).
        shards: how many shards the count was split into.
        unfinished: shards the time limit stopped.
    """

    count: TourCount
    shards: int
    unfinished: int = 0
