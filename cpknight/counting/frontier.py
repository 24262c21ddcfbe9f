"""Counting tours by the frontier (transfer-matrix) program: the driver.

The program adds the cells one at a time and groups partial tours by what the
cells still to come can see (:mod:`cpknight.frontier.plan` says how). Its cost
grows exponentially with the frontier's width (about two rows of the short
side for the knight: 14 cells on 6 x n, the new one included) but only
linearly with the long side. The counts of knight tours on strips were
obtained this way (the comment on OEIS A175881; Knuth, TAOCP 7.2.2.1, does the
same with ZDDs).

:func:`solve` is the ``'frontier'`` engine of :data:`cpknight.counting.ENGINES`.
It plans the program, refuses what is far past the memory budget, picks a
kernel (:func:`~cpknight.counting.kernels.choose_count_kernel`, the rule of
the kernels' registry), runs it with a :class:`FrontierTally` checking the
clock, the budget and reporting progress after every cell, and makes the
result.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.counting.instance import CountInstance
    >>> from cpknight.pieces import KNIGHT
    >>> from cpknight.solving import SolveOptions
    >>> inst = CountInstance(Board.parse("5x6"), KNIGHT, closed=True)
    >>> solve(inst, SolveOptions().start()).undirected
    8
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Callable
from pathlib import Path

from cpknight.counting import directions
from cpknight.counting.dense_kernel import DenseResult, Spill, count_frontier_dense
from cpknight.counting.dict_kernel import count_frontier_dict
from cpknight.counting.instance import CountInstance
from cpknight.counting.kernels import (
    AUTO,
    BYTES_PER_STATE,
    DENSE,
    DICT,
    KERNELS,
    MEET,
    choose_count_kernel,
    estimated_seconds,
)
from cpknight.counting.meet import JOIN_BYTES, JoinTooBig, MeetResult, count_meet
from cpknight.counting.numpy_kernel import count_frontier_numpy, count_prefixes_numpy
from cpknight.errors import InvalidInputError, ModelTooBigError, SolveLimitError
from cpknight.frontier.plan import (
    MAX_WIDTH,
    FrontierPlan,
    default_cut,
    plan_frontier,
    plan_states,
)
from cpknight.results import FrontierStats, TourCount
from cpknight.runtime.memory import DEFAULT_MEMORY_MB as MEMORY_MB
from cpknight.runtime.memory import budget_mb, peak_mb, rss_mb
from cpknight.solving import Run
from cpknight.status import Status

__all__ = [
    "BYTES_PER_STATE",
    "DEFAULT_MEMORY_MB",
    "FrontierTally",
    "from_ctrl_c",
    "solve",
]

DEFAULT_MEMORY_MB = MEMORY_MB
"""The memory budget of a frontier count unless told otherwise (MB): the
budget in force (:func:`cpknight.runtime.memory.budget_mb`), by default this."""

ProgressCallback = Callable[[TourCount], None]


def solve(instance: CountInstance, run: Run, *, kernel: str = AUTO) -> TourCount:
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
        kernel: a kernel of :data:`~cpknight.counting.kernels.KERNELS`, or
            ``'auto'`` (the instance's ``kernel``, then the registry's rule)
            as :func:`~cpknight.counting.kernels.choose_count_kernel` checks.

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
    budget = count_budget(instance.memory_mb)
    plan = plan_frontier(
        graph, closed=instance.closed, start=instance.start, end=instance.end
    )
    if kernel == AUTO:
        kernel = instance.kernel
    spill = instance.checkpoint is not None
    chosen = choose_count_kernel(
        plan, kernel, prefixes=prefixes, spill=spill, budget=budget
    )
    refuse_count(instance, plan, budget, chosen, run, asked=kernel)
    kernel = chosen
    per_state = 0 if spill else BYTES_PER_STATE[kernel]
    tally = FrontierTally(plan, run, budget, per_state, instance.progress)
    tally.kernel = kernel
    undirected = _trivial(instance)
    if undirected is None:
        try:
            undirected = _run_kernel(plan, kernel, tally, instance)
        except (SolveLimitError, _OverBudget, JoinTooBig, KeyboardInterrupt) as exc:
            return tally.stopped_by(exc)
        except SystemError as exc:  # Ctrl-C inside numba's loading of its cache
            if not from_ctrl_c(exc):
                raise
            return tally.stopped_by(KeyboardInterrupt())
    one = graph.n_nodes == 1  # a tour of one cell is its own reverse
    return tally.result(undirected * (1 if one else directions(instance)), undirected)


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
        self.kernel = ""
        self.dense: DenseResult | None = None
        """The dense kernel's figures (moduli, disk), once it has run."""
        self.resumed = 0
        self.disk_mb = 0.0
        self.buckets = 0
        self.cut = 0
        """Met in the middle: the first half's steps (its live in ``live``)."""
        self.second: list[int] = []
        self.meet: MeetResult | None = None
        """The join's figures (moduli, pairs), once it has run."""

    def check(self, step: int, states: int, tried: int) -> None:
        """After a cell: note its states, report, check the budget and the clock.

        Raises:
            SolveLimitError: the time limit passed (or Ctrl-C).
        """
        second = self.cut and step >= self.cut
        (self.second if second else self.live).append(states)
        self.tried += tried
        if self.progress is not None:
            self.progress(self.partial())
        steps = len(self.plan.steps)
        where = f"cell {step + 1} of {steps}"
        if second:
            where = f"cell {step + 1 - self.cut} of the second half"
        mine = self.second if second else self.live
        held = rss_mb()
        # The next cell multiplies the states (and what they hold) as this
        # one did: stop before a step that would pass the budget, on what the
        # process holds, not only on the states counted.
        growth = mine[-1] / mine[-2] if len(mine) > 1 and mine[-2] else 1
        ahead = held + max(0.0, growth - 1) * max(0.0, held - self.base)
        over = states * self.per_state > self.budget * 2**20 or ahead > self.budget
        if self.per_state and over:
            raise _OverBudget(
                f"the memory budget of {self.budget:g} MB was reached after "
                f"{where} ({states} live states, {held:,.0f} MB held, about "
                f"{ahead:,.0f} MB at the next cell)"
            )
        self.run.check(f"counting tours: {where}")

    def _done(self) -> int:
        """The cells whose moves are all decided (met: both halves' own)."""
        if not self.cut:
            return len(self.live)
        if self.meet is not None:
            return len(self.plan.steps)
        return min(len(self.live) + len(self.second), len(self.plan.steps) - 1)

    def stats(self, stopped: str | None = None) -> FrontierStats:
        """The program's figures so far (``stopped``: why it stopped early)."""
        plan = self.plan
        row_ends = itertools.accumulate(plan.rows)
        primes = self.dense.primes if self.dense is not None else ()
        if self.meet is not None:
            primes = self.meet.primes
        bits = 0
        if primes:
            product = 1
            for q in primes:
                product *= q
            bits = product.bit_length() - 1
        return FrontierStats(
            width=plan.width,
            steps=len(plan.steps),
            done=self._done(),
            peak=max([*self.live, *self.second], default=1),
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
            kernel=self.kernel,
            exact_bits=bits,
            peak_mb=peak_mb(),
            disk_mb=self.disk_mb,
            buckets=self.buckets,
            resumed=self.resumed,
            cut=self.cut,
            second=tuple(self.second),
            pairs=self.meet.pairs if self.meet is not None else 0,
            shared=self.meet.shared if self.meet is not None else 0,
            slices=self.meet.slices if self.meet is not None else 0,
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


def count_budget(memory_mb: float | None) -> float:
    """The memory budget in MB (the default if None), checked."""
    budget = budget_mb() if memory_mb is None else float(memory_mb)
    if not budget > 0:
        raise InvalidInputError(
            f"the memory budget must be a positive number of MB: {memory_mb}"
        )
    return budget


def refuse_count(
    instance: CountInstance,
    plan: FrontierPlan,
    budget: float,
    kernel: str,
    run: Run,
    *,
    asked: str = AUTO,
) -> None:
    """Refuse up front a count the frontier program cannot hold, in one line.

    A frontier too wide for the program; a count whose estimated live states
    pass the memory budget (met in the middle, chosen by ``auto``: more than
    :data:`MEET_DISK` times it, its halves on a temporary disk), or whose
    estimated time passes the time limit :data:`TIME_MARGIN`-fold (and
    :data:`TIME_FLOOR`): the line gives both estimates, says which one
    decided, and the ways out. With a checkpoint directory the states go to
    disk and a count stopped by the limit goes on from there: what is refused
    then is a run the free disk space cannot hold. Also prefix counts with
    fixed ends, or along rows that wrap.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> from cpknight.solving import SolveOptions
        >>> inst = CountInstance(Board.parse("7x7"), KNIGHT, closed=False)
        >>> plan = plan_frontier(inst.graph, closed=False)
        >>> run = SolveOptions(time_limit=2).start()
        >>> refuse_count(inst, plan, 1e5, "meet", run)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cpknight.errors.ModelTooBigError: the frontier of 7x7 (knight (1,2)) is \
16 cells wide: met in the middle, about 5e+07 live states, ... in memory; at \
the measured rate of the meet kernel this needs about 2 min, the limit is 2 s \
(raise --time-limit, ...)
    """
    graph = instance.graph
    wide = f"the frontier of {graph.board.label} ({graph.piece.label}) is "
    if plan.width > MAX_WIDTH:
        raise InvalidInputError(
            f"{wide}{plan.width} cells wide; the frontier program takes at most "
            f"{MAX_WIDTH} (use --method cpsat to enumerate the tours one by one: "
            "a partial count)"
        )
    _refuse_prefixes(instance, plan)
    guess = plan_states(plan)
    wide += f"{plan.width} cells wide"
    if kernel == MEET.name:
        guess *= MEET_SHARE
        join = guess * JOIN_BYTES  # both halves' last states, held to join
        held = ""
        if guess * BYTES_PER_STATE[kernel] > budget * 2**20 and (
            instance.checkpoint is not None or asked == AUTO
        ):
            # the halves go to disk, and the join reads the first half's last
            # states back a slice at a time (count_meet): the second half's
            # must fit, guessed here as half of them
            join *= SLICED_JOIN
            held = " (the second half's states, the first read back in slices)"
        if join > budget * 2**20:
            raise ModelTooBigError(
                f"{wide}: met in the middle, about {guess:.0e} live states in "
                f"the halves; joining them would take about {join / 2**20:,.0f} "
                f"MB{held}, over the memory budget of {budget:g} MB (use a larger "
                "--memory, or --method cpsat to enumerate the tours one by one: "
                "a partial count)"
            )
    need = guess * BYTES_PER_STATE[kernel]
    met = "met in the middle, " if kernel == MEET.name else ""
    states = f"{met}about {guess:.0e} live states, about {need / 2**20:,.0f} MB"
    steps = len(plan.steps)
    if instance.checkpoint is not None:
        _refuse_disk(instance.checkpoint, guess, wide)
        return  # a count on disk stopped by the limit goes on from there
    disk = need > budget * 2**20
    seconds = estimated_seconds(guess, steps, kernel, disk=disk)
    took = f"at the measured rate of the {kernel} kernel this needs about "
    took += _duration(seconds)
    on_disk = asked == AUTO or KERNELS[kernel].disk
    keep = "--resume DIR to keep the states on disk, " if on_disk else ""
    over_disk = asked == AUTO and need > MEET_DISK * budget * 2**20
    if disk and (kernel != MEET.name or over_disk):
        raise ModelTooBigError(
            f"{wide}: {states}, over the memory budget of {budget:g} MB "
            f"({took}; use {keep}a larger --memory, or --method cpsat to "
            "enumerate the tours one by one: a partial count)"
        )
    if disk:  # the halves go to a temporary directory: its free space counts
        _refuse_disk(tempfile.gettempdir(), guess, wide)
        states += f" (on disk past the memory budget of {budget:g} MB)"
    else:
        states += " in memory"
    limit = run.remaining()
    if limit is not None and seconds > max(TIME_MARGIN * limit, TIME_FLOOR):
        raise ModelTooBigError(
            f"{wide}: {states}; {took}, the limit is {_duration(limit)} (raise "
            f"--time-limit, or 'none'; {keep and '--resume DIR to stop and go on '}"
            f"{keep and 'later; '}or --method cpsat to enumerate the tours one by "
            "one, a partial count)"
        )


TIME_MARGIN = 4.0
"""A count whose estimated time passes the time limit this many times over is
refused up front (the estimates are good to about a factor of 3)."""

TIME_FLOOR = 60.0
"""... and only when its estimate is over this many seconds: a count that
takes a minute or less runs to its limit and says how far it got."""


def _duration(seconds: float) -> str:
    """Seconds for a message: ``2 s``, ``14 min``, ``3.2 h``.

    Examples:
        >>> _duration(2.0), _duration(600.0), _duration(86400.0), _duration(1e9)
        ('2 s', '10 min', '24 h', '32 years')
    """
    if seconds < 90:
        return f"{seconds:.2g} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 72 * 3600:
        return f"{seconds / 3600:.2g} h"
    days = seconds / 86400
    return f"{days:.0f} days" if days < 730 else f"{days / 365.25:,.0f} years"


def _refuse_prefixes(instance: CountInstance, plan: FrontierPlan) -> None:
    """Refuse prefix counts with fixed ends, or along rows that wrap."""
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


def from_ctrl_c(exc: BaseException) -> bool:
    """Whether a Ctrl-C (:class:`KeyboardInterrupt`) is in ``exc``'s chain.

    A second Ctrl-C that lands while numba loads its compiled loops from the
    cache surfaces as a :class:`SystemError` raised from it.

    Examples:
        >>> try:
        ...     try:
        ...         raise KeyboardInterrupt
        ...     except KeyboardInterrupt:
        ...         raise SystemError("unpickling failed")
        ... except SystemError as exc:
        ...     from_ctrl_c(exc)
        True
        >>> from_ctrl_c(SystemError("a bug"))
        False
    """
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


DISK_BYTES_PER_STATE = 100
"""What a live state costs on disk at the peak of a step: the step's buckets
read (32 bytes a state, two residues) and the next step's parts and buckets
written beside them (measured: about 27 GB at 265 million states, 7x7 open)."""


def _refuse_disk(directory: str, states: float, what: str) -> None:
    """Refuse a run on disk that the free space under ``directory`` cannot hold."""
    import shutil

    path = Path(directory)
    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    free = shutil.disk_usage(probe).free
    need = states * DISK_BYTES_PER_STATE
    if need > free:
        raise ModelTooBigError(
            f"{what}: about {states:.0e} live states, about {need / 2**30:,.1f} "
            f"GB on disk, more than the {free / 2**30:,.1f} GB free under {path}"
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
    plan: FrontierPlan, kernel: str, tally: FrontierTally, instance: CountInstance
) -> int:
    """Run the plan in ``kernel``: the undirected tours (prefixes into the tally)."""
    prefixes = instance.prefixes
    row_ends = [stop - 1 for stop in itertools.accumulate(plan.rows)]
    if kernel == DENSE.name:
        return _run_dense(plan, tally, instance, row_ends if prefixes else [])
    if kernel == MEET.name:
        return _run_meet(plan, tally, instance)
    steps = len(plan.steps)

    def within(step: int) -> None:  # a long step's deadline checks
        tally.run.check(f"counting tours: cell {step + 1} of {steps}")

    if kernel == DICT.name:
        return count_frontier_dict(plan, tally.check, within)[0]
    if not prefixes:
        return count_frontier_numpy(plan, tally.check, within)[0]
    tally.found.update(count_prefixes_numpy(plan, row_ends, tally.check, within))
    return tally.found[len(plan.steps) - 1]


def _run_dense(
    plan: FrontierPlan,
    tally: FrontierTally,
    instance: CountInstance,
    finish_at: list[int],
) -> int:
    """Run the dense kernel, in memory or on disk (its figures into the tally)."""
    graph = instance.graph
    degrees = [len(graph.neighbors(u)) for u in range(graph.n_nodes)]
    spill = None
    if instance.checkpoint is not None:
        spill = Spill(Path(instance.checkpoint), tally.budget * 2**20 / 3)
        spill.map = instance.spread  # a step's buckets as tasks, or None

    def tick(where: str) -> None:
        tally.run.check(f"counting tours: {where}")

    def on_resume(done: list[int]) -> None:
        tally.live.extend(done)
        tally.resumed = len(done)

    result = count_frontier_dense(
        plan,
        tally.check,
        degrees=degrees,
        finish_at=finish_at,
        tick=tick,
        spill=spill,
        on_resume=on_resume,
    )
    tally.dense = result
    tally.disk_mb = result.disk / 2**20
    tally.buckets = result.buckets if spill is not None else 0
    tally.found.update(result.found)
    if finish_at:
        tally.found[len(plan.steps) - 1] = result.total  # the whole board too
    return result.total


def _run_meet(plan: FrontierPlan, tally: FrontierTally, instance: CountInstance) -> int:
    """Count from both ends, met in the middle (its figures into the tally).

    The halves' states go to disk, in buckets within the memory budget, when
    a checkpoint directory is given or when the estimate passes the budget
    (then in a temporary directory, removed after).
    """
    tally.cut = default_cut(plan)
    budget = tally.budget * 2**20
    guess = plan_states(plan) * MEET_SHARE
    temp: tempfile.TemporaryDirectory[str] | None = None
    spill = None
    if instance.checkpoint is not None:
        spill = Spill(Path(instance.checkpoint), budget / 3)
        spill.map = instance.spread  # the halves' steps' buckets as tasks
    elif guess * MEET.bytes_per_state > budget:
        temp = tempfile.TemporaryDirectory(prefix="cpknight-meet-")
        spill = Spill(Path(temp.name) / "halves", budget / 3)
    if spill is not None:
        tally.per_state = 0  # the buckets keep the steps within the budget

    def tick(where: str) -> None:
        tally.run.check(f"counting tours: {where}")

    def on_resume(half: int, done: list[int]) -> None:
        (tally.second if half else tally.live).extend(done)
        tally.resumed += len(done)

    try:
        result = count_meet(
            instance.graph, plan, tally.cut, tally.check, tick=tick, spill=spill,
            on_resume=on_resume, budget_bytes=budget,
        )  # fmt: skip
    finally:
        if temp is not None:
            temp.cleanup()
    tally.meet = result
    tally.disk_mb = result.disk / 2**20
    tally.buckets = result.buckets
    return result.total


MEET_DISK = 4.0
"""How far past the memory budget a count met in the middle that ``auto``
chose may go, its halves' states in a temporary directory (open 7x7: about
6.5 GB against 4 GB); past it the count is refused."""

SLICED_JOIN = 0.5
"""The share of the halves' last states a join on disk holds at once: the
second half's whole (the first half's are read a slice at a time), guessed as
half of them (the closed 2x4x4 box's second half held 0.5 % of them, open 7x7
60 %)."""

MEET_SHARE = 0.2
"""The peak live states of a count met in the middle, as a share of the
whole program's estimate (:func:`~cpknight.frontier.plan.estimated_states`):
measured, open 6x6 peaks at 1.0 million (the program: 5.6 million), open 7x7
at 53 million (the program: at least 377 million)."""
