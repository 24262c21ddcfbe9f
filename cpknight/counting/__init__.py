"""Counting tours: how many closed or open tours a board has, exactly.

:data:`ENGINES` lists the counting engines: the frontier program
(:mod:`cpknight.counting.frontier`, a transfer-matrix program over the plan of
:mod:`cpknight.frontier.plan`, run by one of the kernels of the registry
:data:`cpknight.counting.kernels.KERNELS`: linear in the long side,
exponential in the short one), the DP over subsets
(:mod:`cpknight.counting.subsets`: exponential in the cells, whatever the
shape: tori and boxes of up to about 30 cells) and CP-SAT enumeration
(:mod:`cpknight.counting.cpsat`, one solution at a time, side constraints
honoured). ``method='auto'`` picks one per instance
(:func:`cpknight.counting.auto.choose_count_method`). The CP-SAT count also
splits into shards (:mod:`cpknight.counting.shards`) that run anywhere: an
option of the front door (:func:`cpknight.api.count_tours_sharded`), since the
runner that runs them is a layer above.

Every count follows one convention (:func:`directions`): ``directed`` counts a
tour and its reverse separately, ``undirected`` once.

Examples:
    >>> list(ENGINES)
    ['frontier', 'subsets', 'cpsat']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cpknight.counting.instance import CountInstance
from cpknight.engines import Engine, Registry
from cpknight.results import TourCount

__all__ = ["ENGINES", "ShardedCount", "directions"]

ENGINES: Registry[CountInstance, TourCount] = Registry(
    "count",
    [
        Engine(
            "frontier",
            "count",
            "cpknight.counting.frontier:solve",
            summary="the frontier (transfer-matrix) program: linear in the long side",
        ),
        Engine(
            "subsets",
            "count",
            "cpknight.counting.subsets:solve",
            summary="Held and Karp's DP over subsets: n 2^n, for small wide boards",
        ),
        Engine(
            "cpsat",
            "count",
            "cpknight.counting.cpsat:solve",
            summary="CP-SAT enumerates the circuits one by one",
            honours=("require", "forbid", "symmetric", "magic"),
        ),
    ],
    auto=True,
)
"""The counting engines, by name (``method='auto'`` picks one per instance)."""


def directions(instance: CountInstance) -> int:
    """Directed tours per undirected one: 1 with a fixed open end, else 2.

    A closed tour with a fixed start still has two directions; an open tour
    with a fixed start or end has one (its reverse starts elsewhere).

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> b = Board.parse("5x5")
        >>> directions(CountInstance(b, KNIGHT, closed=False, start=(0, 0)))
        1
        >>> directions(CountInstance(b, KNIGHT, closed=True, start=(0, 0)))
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

    def as_dict(self) -> dict[str, Any]:
        """The count's JSON keys, and ``shards`` (what ``count --shards`` prints).

        Examples:
            >>> from cpknight.status import Status
            >>> ShardedCount(TourCount(Status.FOUND, 16, 8, 0.1), 4).as_dict()
            {'directed': 16, 'undirected': 8, 'shards': 4}
        """
        return {**self.count.as_dict(), "shards": self.shards}

    def __str__(self) -> str:
        from cpknight.text.display import sharded_str

        return sharded_str(self)

    def _repr_html_(self) -> str:
        from cpknight.text.display import count_html

        return count_html(self.count) + f"<p>{self.shards} shards</p>"
