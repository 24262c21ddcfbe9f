"""The values of the counting question: how many tours, and the frontier's states.

:class:`TourCount` is what every counting engine returns;
:class:`FrontierStats` is what the frontier (transfer-matrix) program did.
Both are re-exported by :mod:`cpknight.results` beside the other answers.

Examples:
    >>> TourCount(Status.FOUND, 16, 8, 0.01).as_dict()
    {'directed': 16, 'undirected': 8}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cpknight.status import Effort, Status

__all__ = ["FrontierStats", "TourCount"]


@dataclass(frozen=True)
class FrontierStats:
    """What the frontier program of a count did: its width and its states.

    The method is exponential in ``width`` (the short side) and linear in
    ``steps`` (the cells): ``live`` shows it, one figure per cell.

    Attributes:
        width: the widest frontier, in cells.
        steps: the number of cells (one step each).
        done: the steps run (``< steps`` when a limit stopped the count).
        peak: the most live states after any step.
        live: the live states after every step run.
        axes: the axis order the cells were added in (the major axis first).
        stopped: why the program stopped early (the time limit, the memory
            budget), or ``None``.
        rows: how many cells each row (along the major axis) has, in order.
        widths: the frontier's width at every step.
        tried: the state-and-choice pairs looked at (the program's effort).
        prefixes: ``(rows, undirected tours)`` of every prefix of the board
            (its first rows along the major axis), when asked for.
        kernel: the kernel that ran the program (``'dict'``, ``'numpy'``,
            ``'dense'``; empty when not recorded).
        exact_bits: the dense kernel's counts are exact below
            ``2**exact_bits`` (the product of its primes; 0: exact integers).
        peak_mb: the most memory the process held during the program (MB).
        disk_mb: the most the states of one step took on disk (MB; 0: none).
        buckets: the most buckets on disk a step's states were split into.
        resumed: the cells done before this run, read from a checkpoint.
        cut: met in the middle (kernel ``'meet'``): the cells of the first
            half, whose live states ``live`` holds (0: one program).
        second: the live states after every step of the second half (from
            the last cell back to the cut, the cut's cells last).
        pairs: the pairs of states of the two halves whose degrees agree,
            each looked at to join them.
        shared: the second half's first steps that were the first half's
            (run once).
        slices: the slices the first half's last states were joined in, read
            back from disk one at a time (0: not met in the middle; 1: at once).

    Examples:
        >>> FrontierStats(3, 2, 2, 5, (5, 1), (0, 1)).as_dict()["peak"]
        5
    """

    width: int
    steps: int
    done: int
    peak: int
    live: tuple[int, ...]
    axes: tuple[int, ...] = ()
    stopped: str | None = None
    rows: tuple[int, ...] = ()
    widths: tuple[int, ...] = ()
    tried: int = 0
    prefixes: tuple[tuple[int, int], ...] = ()
    kernel: str = ""
    exact_bits: int = 0
    peak_mb: float = 0.0
    disk_mb: float = 0.0
    buckets: int = 0
    resumed: int = 0
    cut: int = 0
    second: tuple[int, ...] = ()
    pairs: int = 0
    shared: int = 0
    slices: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The JSON keys: width, steps, done, peak, live (per step), stopped."""
        return {
            "width": int(self.width),
            "steps": int(self.steps),
            "done": int(self.done),
            "peak": int(self.peak),
            "live": [int(x) for x in self.live],
            "tried": int(self.tried),
            "stopped": self.stopped,
            "prefixes": [[int(k), int(c)] for k, c in self.prefixes],
            "kernel": self.kernel,
            "exact_bits": int(self.exact_bits),
            "peak_mb": round(float(self.peak_mb), 1),
            "disk_mb": round(float(self.disk_mb), 1),
            "buckets": int(self.buckets),
            "resumed": int(self.resumed),
            "cut": int(self.cut),
            "second": [int(x) for x in self.second],
            "pairs": int(self.pairs),
            "shared": int(self.shared),
            "slices": int(self.slices),
        }

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, a row per step run: ``step``, ``width``, ``live``."""
        from cpknight.text.frames import frontier_frame

        return frontier_frame(self)

    def __str__(self) -> str:
        from cpknight.text.render import frontier_text

        return frontier_text(self)

    def _repr_html_(self) -> str:
        from cpknight.text.display import frontier_html

        return frontier_html(self)


@dataclass(frozen=True)
class TourCount:
    """How many tours an instance has, in both conventions.

    Attributes:
        status: ``found`` when the count is complete, or ``unknown`` when a
            limit stopped it (the numbers are then only lower bounds).
        directed: tours counted with each direction separately.
        undirected: tours counted once with their reverse.
        seconds: wall time, model building included.
        interrupted: whether Ctrl-C (rather than the time limit) stopped it.
        method: how it was counted (``'cpsat'`` enumeration, ``'frontier'``).
        frontier: the frontier program's width and states (``'frontier'``).
        counts_so_far: whether a stopped count's numbers are the tours found
            so far (enumeration) rather than nothing (the frontier program
            has no count before its last cell: its numbers are then 0 and no
            lower bound is given).
        stopped: why a count with no frontier figures stopped early (the
            subsets engine's), else None.
        steps: the work done of all, for a count that has no partial numbers
            (the subsets engine's layers), else None.
        note: one line on how an engine without frontier figures ran (the
            subsets engine's sets, passes and peak memory), else None.

    Examples:
        >>> TourCount(Status.FOUND, 16, 8, 0.01).undirected
        8
    """

    status: Status
    directed: int
    undirected: int
    seconds: float
    interrupted: bool = False
    method: str = "cpsat"
    frontier: FrontierStats | None = None
    counts_so_far: bool = True
    stopped: str | None = None
    steps: tuple[int, int] | None = None
    note: str | None = None

    @property
    def effort(self) -> Effort:
        """What the count counted: the tours, and the frontier program's tries.

        The frontier program's tours are counted only once it finished (a
        stopped run has no count); its ``attempts`` are the state-and-choice
        pairs it looked at.

        Examples:
            >>> TourCount(Status.FOUND, 16, 8, 0.01).effort.as_dict()
            {'solutions': 8}
            >>> stats = FrontierStats(3, 12, 5, 9, (9,), tried=40)
            >>> TourCount(Status.UNKNOWN, 0, 0, 9.5, frontier=stats).effort.as_dict()
            {'attempts': 40}
        """
        if self.frontier is None:
            counted = self.status is Status.FOUND or self.counts_so_far
            return Effort(solutions=self.undirected if counted else None)
        done = self.status is Status.FOUND and not self.interrupted
        return Effort(
            attempts=self.frontier.tried,
            solutions=self.undirected if done else None,
        )

    @property
    def bound(self) -> None:
        """A stopped count's numbers are lower bounds in ``as_dict``, not here."""
        return None

    def as_dict(self) -> dict[str, Any]:
        """The count's JSON keys (see :meth:`Outcome.as_dict`).

        A count stopped by a limit is no count: its numbers come as
        ``at_least_directed`` / ``at_least_undirected``.

        Examples:
            >>> TourCount(Status.FOUND, 16, 8, 0.01).as_dict()
            {'directed': 16, 'undirected': 8}
            >>> TourCount(Status.UNKNOWN, 6, 3, 9.5).as_dict()
            {'directed': None, 'undirected': None, 'at_least_directed': 6, \
'at_least_undirected': 3}
        """
        extra = {} if self.frontier is None else {"frontier": self.frontier.as_dict()}
        if self.status is Status.FOUND:
            return {
                "directed": int(self.directed),
                "undirected": int(self.undirected),
                **extra,
            }
        least = self.counts_so_far
        return {
            "directed": None,
            "undirected": None,
            "at_least_directed": int(self.directed) if least else None,
            "at_least_undirected": int(self.undirected) if least else None,
            **extra,
        }

    def to_dataframe(self) -> Any:
        """A pandas DataFrame: a row per prefix (``prefixes=True``), or one row."""
        from cpknight.text.frames import count_frame

        return count_frame(self)

    def __str__(self) -> str:
        from cpknight.text.display import count_str

        return count_str(self)

    def _repr_html_(self) -> str:
        from cpknight.text.display import count_html

        return count_html(self)
