"""The longest-path puzzles by the frontier program: a maximum instead of a sum.

The frontier (transfer-matrix) program of :mod:`cpknight.counting` adds the
cells one at a time and groups the partial solutions by what the cells still
to come can see. Here it keeps, per state, the *most moves* of the partial
paths reaching it instead of their number, and runs over every cell: the
largest finished path met is the longest, *proved* when the program ends,
since every path is the union of its steps. The state (see
:mod:`cpknight.longest.frontier_dict`) is the counting one (a code per
frontier cell and the pairing of path ends) plus what the puzzle needs:

- not Hamiltonian: a cell may leave the frontier unused; at most two path
  ends; a path finished early (both ends placed, or a cycle closed) is a whole
  answer on its own, taken only when no other partial path is in use;
- uncrossed: the crossing condition is local; the state keeps the used bit of
  each decided move that a move still to come could cross
  (:mod:`cpknight.longest.frontier_tables`);
- induced: each new cell is on the path or off it; on it, it takes every move
  to an earlier cell on the path (no chord), so at most two, none full.

The answer is rebuilt from the best state's parents and goes through
:func:`~cpknight.longest.common.make_longest` like every engine's. The clock
and the memory budget are checked after every cell; at the limit (or Ctrl-C)
the program has no path in hand that it could call longest, so it stops with
nothing (``unknown``) rather than claim anything.

Kernels: those of :mod:`cpknight.longest.frontier_kernels` (plain Python, the
reference, and compiled, with the optional ``cpknight[fast]`` extra), chosen
by :func:`~cpknight.longest.frontier_kernels.choose_longest_kernel`.

Examples:
    >>> from cpknight.api import longest_path
    >>> p = longest_path("6x6", kind="uncrossed", method="frontier")
    >>> str(p.status), p.moves  # OEIS A003192
    ('optimal', 17)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from cpknight.board import Board
from cpknight.errors import (
    ModelTooBigError,
    NoPathError,
    SolveLimitError,
)
from cpknight.frontier.plan import frontier_width, narrowest_width
from cpknight.longest.common import LongestInstance, LongestPath, make_longest
from cpknight.longest.frontier_dict import Found, longest_frontier_dict
from cpknight.longest.frontier_kernels import (
    AUTO,
    BYTES_PER_STATE,
    DICT,
    KERNELS,
    MAX_WIDTH,
    NUMBA,
    check_longest_kernel,
    choose_longest_kernel,
)
from cpknight.longest.frontier_tables import LongestTables, longest_tables
from cpknight.longest.geometry import require_drawable
from cpknight.pieces import Leaper
from cpknight.runtime.memory import budget_mb, peak_mb, rss_mb
from cpknight.solving import Run
from cpknight.status import Effort

__all__ = [
    "BYTES_PER_STATE",
    "KERNELS",
    "MAX_WIDTH",
    "FrontierFigures",
    "check_frontier_shape",
    "check_frontier_size",
    "estimated_peak",
    "run_frontier",
    "solve",
]

READ_BYTES = 24
"""Of the compiled kernel's bytes a state, those of a state being read (its
two words and value); the table's rows, tagged index and the round's buffer
are the rest. Measured in all: 12.8 GB at the peak of the 8x8 path, 179,801,581
live states (71 bytes a state)."""

MEASURED_PEAKS = {
    ("uncrossed", False): (18, 1.8e8, 4.65),
    ("uncrossed", True): (18, 1.28e7, 4.5),
    ("induced", False): (18, 2.18e7, 3.2),
    ("induced", True): (18, 5.2e6, 3.2),
}
"""The peak live states measured on the knight's n x n boards, as ``(width,
peak, growth per slot)``: uncrossed paths 8,994 / 312,541 / 8,300,248 /
179,801,581 at widths 12 / 14 / 16 / 18 (5x5 to 8x8), cycles 678,512 /
12,785,394 at 16 / 18; induced paths 220,728 / 2,313,128 / 21,766,555 and
cycles 53,277 / 530,889 / 5,211,474 at 14 / 16 / 18. Only used to refuse what
is far past the budget."""

REFUSE_FACTOR = 20.0
"""Refuse up front when the guessed peak needs this many times the budget."""


@dataclass(frozen=True)
class FrontierFigures:
    """What a run of the program measured.

    Attributes:
        kernel: the kernel run.
        width: the widest frontier (slots).
        registers: the crossing registers (uncrossed; 0 otherwise).
        live: the live states after every cell done.
        tried: the state-and-choice pairs looked at.
        seconds: wall time of the program (tables included).
        peak_mb: the process's peak resident memory at the end (MB).
        stopped: why it stopped early, or None.
    """

    kernel: str
    width: int
    registers: int
    live: tuple[int, ...]
    tried: int
    seconds: float
    peak_mb: float
    stopped: str | None = None

    @property
    def peak(self) -> int:
        """The most live states after any cell."""
        return max(self.live, default=0)


def solve(instance: LongestInstance, run: Run) -> LongestPath:
    """The ``frontier`` engine (see the module notes).

    Raises:
        NoPathError: the program ran to the end and found no cycle.
        SolveLimitError: the limit, the memory budget or Ctrl-C came first.
        InvalidInputError: an uncrossed path on a board that is not bounded 2D.
    """
    return run_frontier(instance, run)[0]


def run_frontier(
    instance: LongestInstance, run: Run, *, kernel: str = AUTO
) -> tuple[LongestPath, FrontierFigures]:
    """Run the program: the longest path, proved, and the program's figures.

    Args:
        instance: the question.
        run: the run context; the clock is checked after every cell.
        kernel: a kernel of :data:`~cpknight.longest.frontier_kernels.KERNELS`,
            or ``'auto'``.

    Raises:
        NoPathError: no cycle at all (proved).
        SolveLimitError: the limit, the memory budget or Ctrl-C came first
            (``details`` carries the figures so far).
        InvalidInputError: bad input.
        ModelTooBigError: a frontier too wide for the program.
    """
    started = run.clock.started
    if instance.kind == "uncrossed":
        require_drawable(instance.board)
    check_longest_kernel(kernel)
    width = check_frontier_size(instance)  # before any plan or table is made
    kernel = choose_longest_kernel(kernel, width)
    tables = longest_tables(instance, lambda: run.check("finding the crossings"))
    budget = budget_mb()
    tally = _Tally(tables, run, budget, kernel)
    try:
        found = _run_kernel(kernel, tables, tally)
    except (SolveLimitError, _OverBudget, KeyboardInterrupt) as exc:
        figures = tally.figures(kernel, str(exc) or "interrupted")
        raise SolveLimitError(
            f"no {instance.describe()} proved: {figures.stopped}",
            effort=Effort(attempts=tally.tried),
            bound=_trivial_bound(instance),
            details={"live_states": list(figures.live)},
        ) from None
    figures = tally.figures(kernel)
    effort = Effort(attempts=tally.tried)
    best, edges, _ = found
    if best <= 0 or not edges:
        if instance.closed:
            raise NoPathError(
                f"no {instance.describe()}: proved by the frontier program",
                effort=effort,
                bound=0,
            )
        nodes = [tables.steps[0].node]
    else:
        nodes = walk(edges, closed=instance.closed)
    path = make_longest(
        instance,
        nodes,
        status="optimal",
        bound=max(best, 0),
        method="frontier",
        started=started,
        effort=effort,
    )
    return path, figures


def check_frontier_shape(board: Board, piece: Leaper) -> None:
    """Refuse from the board's shape alone (no move graph) a frontier too wide.

    A rectangle's frontier is at least its short side wide
    (:func:`~cpknight.frontier.plan.narrowest_width`).

    Raises:
        ModelTooBigError: wider than :data:`MAX_WIDTH` whatever the order.

    Examples:
        >>> from cpknight.pieces import KNIGHT
        >>> check_frontier_shape(Board((2000, 2000)), KNIGHT)
        Traceback (most recent call last):
        ...
        cpknight.errors.ModelTooBigError: the frontier of 2000x2000 is at least \
2000 cells wide; the frontier program takes at most 28 (use --method search)
    """
    side = narrowest_width(board, piece)
    if side > MAX_WIDTH:
        raise ModelTooBigError(
            f"the frontier of {board.label} is at least {side} cells wide; the "
            f"frontier program takes at most {MAX_WIDTH} (use --method search)"
        )


def check_frontier_size(instance: LongestInstance) -> int:
    """Refuse, before any plan or table is made, a frontier too wide or too big.

    The board's shape alone first (a rectangle's frontier is at least its
    short side wide: no graph needed), then the width of the plan's cell
    order (a few numpy passes over the move graph), then the live states
    guessed from that width against the memory budget.

    Returns:
        The frontier's width.

    Raises:
        ModelTooBigError: wider than :data:`MAX_WIDTH`, or a guessed peak of
            :data:`REFUSE_FACTOR` times the memory budget or more.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> check_frontier_size(LongestInstance(board=Board((5, 5)), piece=KNIGHT,
        ...                                     kind="uncrossed"))
        12
        >>> check_frontier_size(LongestInstance(board=Board((100, 100)),
        ...                                     piece=KNIGHT, kind="uncrossed"))
        Traceback (most recent call last):
        ...
        cpknight.errors.ModelTooBigError: the frontier of 100x100 is at least 100 \
cells wide; the frontier program takes at most 28 (use --method search)
    """
    label = instance.board.label
    check_frontier_shape(instance.board, instance.piece)
    width = frontier_width(instance.graph)
    if width > MAX_WIDTH:
        raise ModelTooBigError(
            f"the frontier of {label} is {width} cells wide; the frontier program "
            f"takes at most {MAX_WIDTH} (use --method search)"
        )
    budget = budget_mb()
    guess = estimated_peak(instance, width)
    need = guess * NUMBA.bytes_per_state / 2**20
    if need > REFUSE_FACTOR * budget:
        raise ModelTooBigError(
            f"the frontier of {label} is {width} cells wide: about {guess:.0e} live "
            f"states, about {need:,.0f} MB, far over the memory budget of "
            f"{budget:g} MB (use --method search or cpsat)"
        )
    return width


def estimated_peak(instance: LongestInstance, width: int) -> float:
    """A rough guess of the peak live states of a knight's program this wide.

    From :data:`MEASURED_PEAKS` (n x n boards; strips of the same width
    peak about as high). Other leapers and holes differ: only a guess.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> inst = LongestInstance(board=Board((7, 7)), piece=KNIGHT,
        ...                        kind="uncrossed")
        >>> f"{estimated_peak(inst, 16):.1e}"
        '8.3e+06'
    """
    at, peak, growth = MEASURED_PEAKS[instance.kind, instance.closed]
    return float(peak * growth ** (width - at))


def walk(edges: Sequence[tuple[int, int]], *, closed: bool) -> list[int]:
    """The nodes of a path (or cycle) given as its moves, in order.

    Examples:
        >>> walk([(2, 5), (1, 2)], closed=False)
        [1, 2, 5]
        >>> walk([(0, 1), (1, 2), (2, 0)], closed=True)
        [0, 1, 2]
    """
    near: dict[int, list[int]] = {}
    for u, v in edges:
        near.setdefault(u, []).append(v)
        near.setdefault(v, []).append(u)
    ends = sorted(u for u, a in near.items() if len(a) == 1)
    start = min(near) if closed or not ends else ends[0]
    nodes = [start]
    prev = -1
    while True:
        options = [w for w in near[nodes[-1]] if w != prev]
        if closed and len(nodes) > 1:
            options = [w for w in options if w != start]
        if not options:
            break
        prev = nodes[-1]
        nodes.append(min(options) if len(nodes) == 1 else options[0])
    return nodes


def _trivial_bound(instance: LongestInstance) -> int:
    n = instance.graph.n_nodes
    return n if instance.closed else max(n - 1, 0)


def _run_kernel(kernel: str, tables: LongestTables, tally: _Tally) -> Found:
    if kernel == NUMBA.name:
        from cpknight.longest.frontier_numba import longest_frontier_numba

        workers = tally.run.options.workers
        threads = workers or len(os.sched_getaffinity(0))
        return longest_frontier_numba(tables, tally.check, tally.tick, threads)
    return longest_frontier_dict(tables, tally.check)


class _OverBudget(Exception):
    """The states kept would pass the memory budget."""


class _Tally:
    """The live states, the clock and the budget, checked after every cell."""

    def __init__(
        self, tables: LongestTables, run: Run, budget: float, kernel: str
    ) -> None:
        self.tables = tables
        self.run = run
        self.budget = budget
        self.kernel = kernel
        self.per_state = BYTES_PER_STATE[kernel]
        self.live: list[int] = []
        self.growth: list[float] = []
        self.tried = 0
        self.base = rss_mb()

    def check(self, step: int, states: int, tried: int) -> None:
        """After a cell: note it, check the budget and the clock.

        Raises:
            SolveLimitError: the time limit passed (or Ctrl-C).
        """
        before = self.live[-1] if self.live else 1
        self.live.append(states)
        self.tried += tried
        steps = len(self.tables.steps)
        # The next cell may multiply the states as the same cell of the row
        # before did (or, early on, as much as any of the last row's): stop
        # before a step that would pass the budget.
        self.growth.append(states / max(before, 1))
        period = self.tables.period
        if len(self.growth) > period:
            growth = max(1.0, 1.15 * self.growth[-period])
        else:
            growth = max(1.0, *self.growth[-period:])
        if self.kernel == DICT.name:
            kept = sum(self.live) * self.per_state / 2**20
            ahead = kept + (growth - 1) * states * self.per_state / 2**20
        else:
            kept = states * READ_BYTES / 2**20
            table = (self.per_state - READ_BYTES) / 2**20
            ahead = kept + growth * states * table
        if ahead > self.budget or rss_mb() > self.budget + self.base:
            raise _OverBudget(
                f"the memory budget of {self.budget:g} MB was reached after cell "
                f"{step + 1} of {steps} ({states:,} live states, about "
                f"{kept:,.0f} MB, about {ahead:,.0f} MB at the next cell)"
            )
        self.run.check(f"longest path by the frontier: cell {step + 1} of {steps}")

    def tick(self) -> None:
        """Within a cell: the clock (and Ctrl-C).

        Raises:
            SolveLimitError: the time limit passed (or Ctrl-C).
        """
        cell, steps = len(self.live) + 1, len(self.tables.steps)
        self.run.check(f"longest path by the frontier: cell {cell} of {steps}")

    def figures(self, kernel: str, stopped: str | None = None) -> FrontierFigures:
        return FrontierFigures(
            kernel=kernel,
            width=self.tables.width,
            registers=self.tables.registers,
            live=tuple(self.live),
            tried=self.tried,
            seconds=self.run.elapsed(),
            peak_mb=peak_mb(),
            stopped=stopped,
        )
