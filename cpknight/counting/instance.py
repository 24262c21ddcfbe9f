"""A count question: the instance every count engine reads."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cpknight.board import Cell
from cpknight.constraints import TourConstraints
from cpknight.engines import BoardInstance

if TYPE_CHECKING:
    from cpknight.counts import TourCount

__all__ = ["CountInstance"]


@dataclass(frozen=True, kw_only=True)
class CountInstance(BoardInstance):
    """A count question: how many tours, closed or open, ends maybe fixed.

    Attributes:
        board: a finite board.
        piece: the leaper.
        closed: count closed tours (circuits) or open ones (paths).
        start: count only the tours from this cell.
        end: count only the tours to this cell (open tours only).
        constraints: required and forbidden moves, a symmetry (the engines
            that honour them say so); empty for a plain count.
        memory_mb: the frontier program's memory budget (MB; None: its
            default).
        prefixes: also count every prefix of the board (its first rows along
            the long side) in the same frontier run.
        progress: called with a partial count now and then.
        kernel: the frontier program's kernel (``'auto'``, ``'dict'``,
            ``'numpy'``, ``'dense'``).
        checkpoint: a directory for the frontier program's states on disk
            (in buckets when they outgrow the memory budget) and a checkpoint
            after every cell; a run given the directory of a stopped one
            resumes it. None: in memory.
        spread: runs the dense kernel's bucket tasks on other processes or
            machines (``map(function, tasks) -> rows``, see
            :data:`cpknight.counting.dense_kernel.Mapper`); None: here.
    """

    closed: bool = True
    start: Cell | None = None
    end: Cell | None = None
    constraints: TourConstraints = field(default_factory=TourConstraints)
    memory_mb: float | None = None
    prefixes: bool = False
    progress: Callable[[TourCount], None] | None = field(default=None, compare=False)
    kernel: str = "auto"
    checkpoint: str | None = None
    spread: Callable[[Callable[..., Any], list[Any]], list[Any]] | None = field(
        default=None, compare=False
    )


# ``Engine`` and ``Registry`` spelled alone (where any question will do, as in
# a loop over every registry) are ``Engine[Any, Any]`` and ``Registry[Any, Any]``.
