"""What ``method='auto'`` counts with, and why.

The rule follows ``benchmarks/count.py``: the frontier program's cost does not
depend on how many tours there are, CP-SAT enumeration's grows with each one;
the program wins wherever its frontier is at most :data:`FRONTIER_WIDTH` cells
wide (the knight on boards up to 6 cells across), and enumeration is left the
wide boards, where it can still count a few tours, the instances a cheap
certificate proves have none (7x7 closed: odd), which it answers at once, and
the side constraints, which only it honours.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.engines import CountInstance
    >>> from cpknight.pieces import KNIGHT
    >>> choose_count_method(CountInstance(Board.parse("6x12"), KNIGHT))
    ('frontier', 'the frontier is 14 cells wide, at most 14')
"""

from __future__ import annotations

from cpknight.engines import CountInstance
from cpknight.frontier.plan import frontier_width, narrowest_width
from cpknight.tours.certificates import tour_certificate

__all__ = ["FRONTIER_WIDTH", "choose_count_method"]

FRONTIER_WIDTH = 14
"""Up to this frontier width ``auto`` counts tours by the frontier program (the
knight on boards up to 6 cells across; on 7 the open 7x7 count passes the
default memory budget)."""


def choose_count_method(instance: CountInstance) -> tuple[str, str]:
    """The counting engine ``method='auto'`` uses, and the reason.

    Returns:
        ``('frontier', why)`` or ``('cpsat', why)``.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> choose_count_method(CountInstance(Board.parse("10x10"), KNIGHT))[0]
        'cpsat'
        >>> choose_count_method(CountInstance(Board.parse("5x5"), KNIGHT))  # odd
        ('cpsat', 'a certificate proves there is none')
    """
    if instance.constraints:
        return "cpsat", "side constraints: the frontier program counts plain tours"
    if instance.prefixes:
        return "frontier", "prefix counts are the frontier program's"
    side = narrowest_width(instance.board, instance.piece)
    if side > FRONTIER_WIDTH:  # from the shape alone: no graph built
        return (
            "cpsat",
            f"the frontier is at least {side} cells wide, over {FRONTIER_WIDTH}",
        )
    width = frontier_width(instance.graph)
    if width > FRONTIER_WIDTH and not _dense_fits(instance, width):
        return "cpsat", f"the frontier is {width} cells wide, over {FRONTIER_WIDTH}"
    proved_none = tour_certificate(
        instance.graph,
        closed=instance.closed,
        start=instance.start,
        end=instance.end,
    )
    if proved_none is not None:
        return "cpsat", "a certificate proves there is none"
    if width > FRONTIER_WIDTH:
        where = "on disk" if instance.checkpoint is not None else "in memory"
        return (
            "frontier",
            f"the frontier is {width} cells wide: the dense kernel {where}, or "
            "met in the middle",
        )
    return "frontier", f"the frontier is {width} cells wide, at most {FRONTIER_WIDTH}"


def _dense_fits(instance: CountInstance, width: int) -> bool:
    """Whether the dense kernel can take a frontier this wide, on disk or in memory.

    On disk (a checkpoint directory given) whenever it packs the frontier;
    in memory when the estimated live states fit the memory budget.
    """
    from cpknight.counting.dense_kernel import (
        BYTES_PER_STATE,
        DENSE_WIDTH,
        dense_available,
    )
    from cpknight.counting.frontier import MEET_SHARE
    from cpknight.frontier.plan import estimated_states
    from cpknight.runtime.memory import budget_mb

    if width > DENSE_WIDTH or not dense_available():
        return False
    if instance.checkpoint is not None:
        return True
    budget = budget_mb() if instance.memory_mb is None else instance.memory_mb
    guess = estimated_states(width, closed=instance.closed)
    if instance.start is None and instance.end is None:
        # met in the middle (cpknight.counting.meet), its halves on disk past
        # the budget: up to MEET_DISK times it
        guess *= MEET_SHARE / MEET_DISK
    return guess * BYTES_PER_STATE <= budget * 2**20


MEET_DISK = 4.0
"""How far past the memory budget ``auto`` lets a count met in the middle
go, its halves' states on disk (open 7x7: about 6.5 GB against 4 GB)."""
