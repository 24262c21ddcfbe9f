"""Counting tours by the frontier (transfer-matrix) program: the driver.

The program adds the cells one at a time and groups partial tours by what the
cells still to come can see (:mod:`cpknight.counting.plan` says how). Its cost
grows exponentially with the frontier's width (about two rows of the short
side for the knight: 14 cells on 6 x n, the new one included) but only
linearly with the long side. The counts of knight tours on strips were
obtained this way (the comment on OEIS A175881; Knuth, TAOCP 7.2.2.1, does the
same with ZDDs).

:func:`solve` is the ``'frontier'`` engine of :data:`cpknight.counting.ENGINES`.
It plans the program, refuses what is far past the memory budget,
picks a kernel (:func:`choose_kernel`: the dict kernel on narrow plans, the
numpy one beyond), runs it with a :class:`FrontierTally` checking the clock,
the budget and reporting progress after every cell, and makes the result.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.engines import CountInstance
    >>> from cpknight.pieces import KNIGHT
    >>> from cpknight.solving import SolveOptions
    >>> inst = CountInstance(Board.parse("5x6"), KNIGHT, closed=True)
    >>> solve(inst, SolveOptions().start()).undirected
    8
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from cpknight.counting import directions
from cpknight.counting.dict_kernel import count_frontier_dict
from cpknight.counting.numpy_kernel import count_frontier_numpy, count_prefixes_numpy
from cpknight.counting.plan import (
    MAX_WIDTH,
    FrontierPlan,
    estimated_states,
    plan_frontier,
)
from cpknight.engines import CountInstance
from cpknight.errors import InvalidInputError, ModelTooBigError, SolveLimitError
from cpknight.memory import DEFAULT_MEMORY_MB as MEMORY_MB
from cpknight.memory import budget_mb, rss_mb
from cpknight.results import FrontierStats, TourCount
from cpknight.solving import Run
from cpknight.status import Status

__all__ = [
    "BYTES_PER_STATE",
    "DEFAULT_MEMORY_MB",
    "FrontierTally",
    "choose_kernel",
    "solve",
]

DEFAULT_MEMORY_MB = MEMORY_MB
"""The memory budget of a frontier count unless told otherwise (MB): the
budget in force (:func:`cpknight.memory.budget_mb`), by default this."""

BYTES_PER_STATE = {"dict": 240, "numpy": 256}
"""What one live state costs, about, in each kernel, with the working arrays
of the next step (a few choices per state, each a row of codes, keys, sort
order, source index and count limbs): the memory budget divided by it is the
most live states allowed."""

ProgressCallback = Callable[[TourCount], None]


def solve(instance: CountInstance, run: Run, *, kernel: str = "auto") -> TourCount:
    """The ``'frontier'`` counting engine: count the tours by the frontier program.

    Conventions as every count (:func:`~cpknight.counting.directions`).

    Args:
        instance: the count instance (any board, topology and leaper; the width
            of the frontier decides whether it is practical): ``memory_mb``
            bounds the live states, ``progress`` is called after every cell
            (no numbers, the frontier's figures so far), ``prefixes`` counts
            every prefix of the board too (its first ``k`` rows along the long
            side) into ``frontier.prefixes``.
        run: the run context; the clock is checked after every cell.
        kernel: ``'dict'`` (plain Python), ``'numpy'`` or ``'auto'``.

    Returns:
        A :class:`~cpknight.results.TourCount` with its ``frontier`` figures;
        ``unknown`` (the numbers 0, no lower bound) when the time limit or
        the memory budget stopped it.

    Raises:
        InvalidInputError: a frontier wider than :data:`MAX_WIDTH`;
            prefixes asked with fixed ends, or along a wrapped axis.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> from cpknight.solving import SolveOptions
        >>> inst = CountInstance(Board.parse("3x4"), KNIGHT, closed=False)
        >>> c = solve(inst, SolveOptions().start())
        >>> c.directed, c.undirected, c.frontier.width
        (16, 8, 8)
    """
    graph, prefixes = instance.graph, instance.prefixes
    budget = _budget(instance.memory_mb)
    plan = plan_frontier(
        graph, closed=instance.closed, start=instance.start, end=instance.end
    )
    _refuse(instance, plan, budget)
    kernel = choose_kernel(plan, kernel, prefixes=prefixes)
    per_state = BYTES_PER_STATE[kernel]
    tally = FrontierTally(plan, run, budget, per_state, instance.progress)
    undirected = _trivial(instance)
    if undirected is None:
        try:
            undirected = _run_kernel(plan, kernel, tally, prefixes=prefixes)
        except (SolveLimitError, _OverBudget, KeyboardInterrupt) as exc:
            return tally.stopped_by(exc)
    one = graph.n_nodes == 1  # a tour of one cell is its own reverse
    return tally.result(undirected * (1 if one else directions(instance)), undirected)


def choose_kernel(plan: FrontierPlan, kernel: str = "auto", *, prefixes: bool) -> str:
    """The kernel that runs the plan: ``'dict'`` or ``'numpy'``.

    ``auto``: the dict kernel up to 6 slots (numpy's overhead per step would
    dominate), numpy beyond; prefixes only in numpy.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> choose_kernel(plan_frontier(move_graph("6x6"), closed=True), prefixes=False)
        'numpy'
    """
    if prefixes:
        return "numpy"
    if kernel == "auto":
        return "dict" if plan.width <= 6 else "numpy"
    if kernel not in BYTES_PER_STATE:
        raise InvalidInputError(f"expected a kernel in dict, numpy, auto: {kernel!r}")
    return kernel


class FrontierTally:
    """What the driver keeps of a run: live states, the budget, the progress.

    Its :meth:`check` is what the kernels call after every cell; it makes the
    count's :class:`~cpknight.results.FrontierStats`, partial or final.

    Args:
        plan: the plan run.
        run: the run context (its clock is checked after every cell).
        budget: the memory budget in MB.
        per_state: what one live state costs in the kernel run (bytes).
        progress: called with a partial count after every cell.
    """

    def __init__(
        self,
        plan: FrontierPlan,
        run: Run,
        budget: float,
        per_state: int,
        progress: ProgressCallback | None = None,
    ) -> None:
        self.plan = plan
        self.run = run
        self.budget = budget
        self.per_state = per_state
        self.progress = progress
        self.live: list[int] = []
        self.base = rss_mb()  # what the process held before the program
        self.tried = 0
        self.found: dict[int, int] = {}
        """Tours of the prefixes, by the step that ends them."""

    def check(self, step: int, states: int, tried: int) -> None:
        """After a cell: note its states, report, check the budget and the clock.

        Raises:
            SolveLimitError: the time limit passed (or Ctrl-C).
        """
        self.live.append(states)
        self.tried += tried
        if self.progress is not None:
            self.progress(self.partial())
        steps = len(self.plan.steps)
        held = rss_mb()
        # The next cell multiplies the states (and what they hold) as this
        # one did: stop before a step that would pass the budget, on what the
        # process holds, not only on the states counted.
        growth = states / self.live[-2] if len(self.live) > 1 and self.live[-2] else 1
        ahead = held + max(0.0, growth - 1) * max(0.0, held - self.base)
        if states * self.per_state > self.budget * 2**20 or ahead > self.budget:
            raise _OverBudget(
                f"the memory budget of {self.budget:g} MB was reached after cell "
                f"{step + 1} of {steps} ({states} live states, {held:,.0f} MB "
                f"held, about {ahead:,.0f} MB at the next cell)"
            )
        self.run.check(f"counting tours: cell {step + 1} of {steps}")

    def stats(self, stopped: str | None = None) -> FrontierStats:
        """The program's figures so far (``stopped``: why it stopped early)."""
        plan = self.plan
        row_ends = itertools.accumulate(plan.rows)
        return FrontierStats(
            width=plan.width,
            steps=len(plan.steps),
            done=len(self.live),
            peak=max(self.live, default=1),
            live=tuple(self.live),
            axes=plan.axes,
            stopped=stopped,
            rows=plan.rows,
            widths=tuple(plan.widths()),
            tried=self.tried,
            prefixes=tuple(
                (k + 1, self.found[stop - 1])
                for k, stop in enumerate(row_ends)
                if stop - 1 in self.found
            ),
        )

    def partial(
        self, stopped: str | None = None, interrupted: bool = False
    ) -> TourCount:
        """No count (the program has no partial one), with the figures so far."""
        return TourCount(
            Status.UNKNOWN,
            0,
            0,
            self.run.elapsed(),
            interrupted=interrupted,
            method="frontier",
            frontier=self.stats(stopped),
            counts_so_far=False,
        )

    def stopped_by(self, exc: BaseException) -> TourCount:
        """No count: the limit, the budget or Ctrl-C (``exc``) stopped the run."""
        if isinstance(exc, KeyboardInterrupt) or self.run.clock.interrupted:
            return self.partial("interrupted", interrupted=True)  # Ctrl-C
        return self.partial(str(exc))

    def result(self, directed: int, undirected: int) -> TourCount:
        """The count, with the program's figures."""
        return TourCount(
            Status.FOUND,
            directed,
            undirected,
            self.run.elapsed(),
            method="frontier",
            frontier=self.stats(),
        )


class _OverBudget(Exception):
    """The live states would pass the memory budget."""


def _budget(memory_mb: float | None) -> float:
    """The memory budget in MB (the default if None), checked."""
    budget = budget_mb() if memory_mb is None else float(memory_mb)
    if not budget > 0:
        raise InvalidInputError(
            f"the memory budget must be a positive number of MB: {memory_mb}"
        )
    return budget


def _refuse(instance: CountInstance, plan: FrontierPlan, budget: float) -> None:
    """Refuse a frontier too wide for the program, or far past the budget.

    Also prefix counts with fixed ends, or along rows that wrap.
    """
    graph = instance.graph
    wide = f"the frontier of {graph.board.label} ({graph.piece.label}) is "
    if plan.width > MAX_WIDTH:
        raise InvalidInputError(
            f"{wide}{plan.width} cells wide; the frontier program takes at most "
            f"{MAX_WIDTH} (use --method cpsat)"
        )
    guess = estimated_states(plan.width, closed=instance.closed)
    need = guess * BYTES_PER_STATE["numpy"]
    if need > budget * 2**20:
        raise ModelTooBigError(
            f"{wide}{plan.width} cells wide: about {guess:.0e} live states, "
            f"about {need / 2**20:,.0f} MB, over the memory budget of {budget:g} "
            "MB (use --method cpsat, or a larger --memory)"
        )
    if not instance.prefixes:
        return
    if instance.start is not None or instance.end is not None:
        raise InvalidInputError("prefix counts take no fixed start or end")
    board = instance.board
    if board.wrap[plan.axes[0]]:
        raise InvalidInputError(
            f"the rows of {board.label} wrap around: its prefixes "
            "are not boards of the same kind"
        )


def _trivial(instance: CountInstance) -> int | None:
    """The undirected count of an instance too small for the program, or None."""
    n = instance.graph.n_nodes
    start, end = instance.start, instance.end
    same_ends = start is not None and start == end and n > 1
    if same_ends or n == 0 or (instance.closed and n < 3):
        return 0
    return 1 if n == 1 else None


def _run_kernel(
    plan: FrontierPlan, kernel: str, tally: FrontierTally, *, prefixes: bool
) -> int:
    """Run the plan in ``kernel``: the undirected tours (prefixes into the tally)."""
    if kernel == "dict":
        return count_frontier_dict(plan, tally.check)[0]
    if not prefixes:
        return count_frontier_numpy(plan, tally.check)[0]
    row_ends = [stop - 1 for stop in itertools.accumulate(plan.rows)]
    tally.found.update(count_prefixes_numpy(plan, row_ends, tally.check))
    return tally.found[len(plan.steps) - 1]
