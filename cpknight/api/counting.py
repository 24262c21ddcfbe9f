"""The front doors for counting tours: one count, its outcome, or a count in shards.

:func:`count_tours` validates the instance, lets ``method='auto'`` pick an
engine (:func:`~cpknight.counting.auto.choose_count_method`) and dispatches
through the registry :data:`cpknight.counting.ENGINES`, like every front door;
:func:`try_count` reports whatever happened as an
:class:`~cpknight.results.Outcome` (what ``cpknight count`` prints).
:func:`count_tours_sharded` splits the CP-SAT enumeration into shards
(:mod:`cpknight.counting.shards`) and runs them on the runner: its workers run
:func:`shard_row`.

Examples:
    >>> count_tours("3x4", closed=False).directed
    16
    >>> c = count_tours_sharded("3x4", closed=False, shards=4)
    >>> str(c.count.status), c.count.directed, c.count.undirected, c.shards >= 4
    ('found', 16, 8, True)
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from cpknight.api.common import BoardLike, resolve, solve_options, task_progress
from cpknight.api.spreading import RunnerMap, spread_kernel, spreading
from cpknight.api.tours import task_key, tour_instance
from cpknight.board import Board, Cell, CellLike
from cpknight.constraints import TourConstraints
from cpknight.counting import ENGINES, ShardedCount
from cpknight.counting.auto import choose_count_method
from cpknight.counting.instance import CountInstance
from cpknight.counting.kernels import check_kernel
from cpknight.counting.symmetry import Classes
from cpknight.engines import Engine, outcome_of_error, solve_with
from cpknight.errors import EngineError, InvalidInputError, OutcomeError
from cpknight.formulation import check_circuit_size
from cpknight.frontier.plan import check_narrow
from cpknight.graph import arc_bound
from cpknight.pieces import KNIGHT, Leaper, PieceLike
from cpknight.results import Outcome, TourCount
from cpknight.runner import Row, RunInterrupted, RunOptions, Task, run_tasks
from cpknight.runtime.memory import refuse_over_budget
from cpknight.runtime.progress import (
    Progress,
    ProgressCallback,
    ProgressLike,
    TaskProgress,
    progress_bar,
)
from cpknight.solving import Run, SolveOptions, interruptible
from cpknight.status import Status
from cpknight.tours.certificates import tour_certificate

__all__ = [
    "COUNT_METHODS",
    "Classes",
    "ShardedCount",
    "check_checkpoint",
    "count_engine",
    "count_instance",
    "count_kernel_note",
    "count_outcome",
    "count_progress",
    "count_tours",
    "count_tours_sharded",
    "shard_row",
    "tours_up_to_symmetry",
    "try_count",
    "try_count_sharded",
]

COUNT_METHODS = ENGINES
"""The counting engines (``method=`` takes their names, or ``'auto'``)."""

CountProgress = Callable[[TourCount], None]
"""What a counting engine calls with its partial count (see :func:`count_progress`)."""


def count_progress(tick: ProgressCallback | None) -> CountProgress | None:
    """A counting engine's partial counts as :class:`Progress` for ``tick``.

    The frontier program reports cells done of all (``unit='cells'``, with its
    live states); enumeration the tours so far (``unit='tours'``, no total).
    The partial :class:`~cpknight.results.TourCount` is the ``value``.

    Examples:
        >>> seen = []
        >>> count_tours("3x4", closed=False, method="cpsat", progress=seen.append)
        ... # doctest: +ELLIPSIS
        TourCount(...)
        >>> {p.unit for p in seen} <= {"tours"}
        True
    """
    if tick is None:
        return None
    report = tick

    def partial(count: TourCount) -> None:
        stats = count.frontier
        if stats is None and count.steps is not None:  # no partial numbers
            done, total = count.steps
            report(Progress(done, total, "layers", "of sets", count))
            return
        if stats is None:
            report(Progress(count.directed, None, "tours", "directed so far", count))
            return
        live = stats.live[-1] if stats.live else 0
        done = stats.steps if count.status is Status.FOUND else stats.done
        report(Progress(done, stats.steps, "cells", f"{live:,} live", count))

    return partial


def count_tours(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    method: str = "auto",
    time_limit: float | None = None,
    options: SolveOptions | None = None,
    progress: ProgressLike = None,
    constraints: TourConstraints | None = None,
    memory_mb: float | None = None,
    prefixes: bool = False,
    kernel: str = "auto",
    checkpoint: str | os.PathLike[str] | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
) -> TourCount:
    """Count the tours of a board, by a frontier program or CP-SAT enumeration.

    Args:
        board: a finite board.
        piece: the leaper.
        closed: count closed tours (circuits) or open ones (paths).
        start: count only the tours from this cell.
        end: count only the tours to this cell (open tours).
        method: an engine of :data:`COUNT_METHODS`: ``'frontier'`` (the
            transfer-matrix program of :mod:`cpknight.counting.frontier`:
            linear in the long side, exponential in the short one),
            ``'cpsat'`` (enumerate the tours one by one) or ``'auto'`` (the
            frontier where it is narrow, see
            :func:`~cpknight.counting.auto.choose_count_method`).
        time_limit: seconds for the count (then ``status`` is ``unknown``);
            replaces the one in ``options``.
        options: the solve options. The enumeration runs on one CP-SAT worker
            whatever ``workers`` says: with several, CP-SAT can report a tour
            twice.
        progress: ``True`` for a progress bar (``tqdm.auto``), or a callback
            called with a :class:`~cpknight.runtime.progress.Progress` about once a
            second (CP-SAT: tours so far) or after every cell (frontier:
            cells done of all), the partial count its ``value``.
        constraints: required and forbidden moves, a symmetry (counting
            refuses visit numbers: they fix a direction); CP-SAT counts them.
        memory_mb: the frontier program's memory budget in MB.
        prefixes: count, in the same frontier run, the tours of every prefix
            of the board too (its first k rows along the long side: one run
            on 6x20 counts 6x1 .. 6x20) into ``frontier.prefixes``.
        kernel: the frontier program's kernel: a name of
            :data:`cpknight.counting.kernels.KERNELS` (plain Python, numpy,
            the dense kernel with numba (``cpknight[fast]``), or the dense
            kernel from both ends joined in the middle: no fixed ends), or
            ``'auto'`` (:func:`~cpknight.counting.kernels.choose_count_kernel`).
        checkpoint: a directory for the frontier program's states on disk,
            in buckets when they outgrow ``memory_mb``, with a checkpoint
            after every cell: a count stopped by the limit, Ctrl-C or a crash
            resumes when given the same directory (the dense kernel).
        jobs: with ``checkpoint``, share the count among this many worker
            processes (capped at the cores): every cell's buckets are
            stepped and summed as tasks on the runner
            (:mod:`cpknight.api.spreading`; the dense kernel; they share
            ``memory_mb``).
        scheduler: with ``checkpoint``, the buckets' tasks on a Dask cluster
            (``'tcp://host:8786'``, or ``'local'`` for a ``LocalCluster`` of
            ``jobs`` workers); ``checkpoint`` must be on a file system every
            worker sees, at the same path.

    Returns:
        A :class:`~cpknight.results.TourCount`: ``directed`` counts each tour
        in both directions, ``undirected`` once (with a fixed start or end an
        open tour has one direction, and the two are equal). Its ``method``
        says which engine counted, its ``frontier`` the program's states.

    Raises:
        InvalidBoardError, InvalidCellError, InvalidPieceError, InvalidInputError:
            bad input, or a frontier too wide for the method.
        SolveLimitError: the time limit passed while the model was built.

    Examples:
        >>> c = count_tours("3x4", closed=False)
        >>> str(c.status), c.directed, c.undirected
        ('found', 16, 8)
        >>> count_tours("4x4").directed
        0
        >>> count_tours("5x6", method="frontier").frontier.width  # 8 closed
        12
        >>> count_tours("3x12", prefixes=True).frontier.prefixes[-3:]  # A070030
        ((10, 16), (11, 0), (12, 176))
    """
    with _counting(
        board, piece=piece, closed=closed, start=start, end=end,
        time_limit=time_limit, options=options, progress=progress,
        constraints=constraints, memory_mb=memory_mb, prefixes=prefixes,
        kernel=kernel, checkpoint=checkpoint, jobs=jobs, scheduler=scheduler,
    ) as (instance, run):  # fmt: skip
        count: TourCount = solve_with(count_engine(instance, method), instance, run)
        if instance.progress is not None:
            instance.progress(count)  # the last word: the count itself
    return count


def try_count(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    method: str = "auto",
    time_limit: float | None = None,
    options: SolveOptions | None = None,
    progress: ProgressLike = None,
    constraints: TourConstraints | None = None,
    memory_mb: float | None = None,
    prefixes: bool = False,
    kernel: str = "auto",
    checkpoint: str | os.PathLike[str] | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
) -> Outcome:
    """Count the tours and report whatever happened as an outcome, timed.

    Like :func:`count_tours` (the same arguments), but a count the limit stopped
    (even before it began) is an ``'unknown'`` :class:`~cpknight.results.Outcome`
    with the reason (:func:`count_outcome`): what ``cpknight count`` prints.

    Raises:
        InvalidBoardError, InvalidCellError, InvalidPieceError, InvalidInputError:
            bad input.

    Examples:
        >>> o = try_count("3x4", closed=False)
        >>> str(o.status), o.method, o.value.directed, o.effort.solutions
        ('found', 'frontier', 16, 8)
        >>> o = try_count("6x6", method="cpsat", time_limit=0.05)
        >>> str(o.status), o.reason
        ('unknown', 'partial: time limit reached')
    """
    began = time.perf_counter()
    try:
        with _counting(
            board, piece=piece, closed=closed, start=start, end=end,
            time_limit=time_limit, options=options, progress=progress,
            constraints=constraints, memory_mb=memory_mb, prefixes=prefixes,
            kernel=kernel, checkpoint=checkpoint, jobs=jobs, scheduler=scheduler,
        ) as (instance, run):  # fmt: skip
            engine = count_engine(instance, method)
            method = engine.name
            try:
                count: TourCount = solve_with(engine, instance, run)
            except OutcomeError as exc:
                return outcome_of_error("count", exc, run, method=engine.name)
            if instance.progress is not None:
                instance.progress(count)  # the last word: the count itself
    except RunInterrupted:
        raise  # a spread count's runner: its own report
    except (KeyboardInterrupt, SystemError) as exc:
        # Ctrl-C before the engine's clock could take it (or a second one):
        # still an outcome, interrupted, with nothing counted
        from cpknight.counting.frontier import from_ctrl_c

        if not from_ctrl_c(exc):
            raise
        return Outcome(
            "count",
            method,
            Status.UNKNOWN,
            time.perf_counter() - began,
            reason="interrupted (Ctrl-C) before anything was counted",
            interrupted=True,
        )
    return count_outcome(count)


@contextlib.contextmanager
def _counting(
    board: BoardLike,
    *,
    piece: PieceLike,
    closed: bool,
    start: CellLike | None,
    end: CellLike | None,
    time_limit: float | None,
    options: SolveOptions | None,
    progress: ProgressLike,
    constraints: TourConstraints | None,
    memory_mb: float | None,
    prefixes: bool,
    kernel: str,
    checkpoint: str | os.PathLike[str] | None,
    jobs: int,
    scheduler: str | None,
) -> Iterator[tuple[CountInstance, Run]]:
    """The instance and run of a count, its progress bar and workers open.

    What :func:`count_tours` and :func:`try_count` share: the run's clock
    starts before the graph is built (it counts), the workers of a spread
    count live as long as the count.
    """
    kernel = spread_kernel(
        kernel, jobs=jobs, scheduler=scheduler, checkpoint=checkpoint
    )
    run = solve_options(options, time_limit).start()  # the graph counts
    with (
        progress_bar(progress, desc="count", unit="cells") as tick,
        spreading(run, jobs=jobs, scheduler=scheduler) as spread,
    ):
        yield (
            count_instance(
                board,
                piece=piece,
                closed=closed,
                start=start,
                end=end,
                constraints=constraints,
                memory_mb=memory_mb,
                prefixes=prefixes,
                progress=count_progress(tick),
                kernel=kernel,
                checkpoint=checkpoint,
                spread=spread,
            ),
            run,
        )


def count_instance(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    constraints: TourConstraints | None = None,
    memory_mb: float | None = None,
    prefixes: bool = False,
    progress: CountProgress | None = None,
    kernel: str = "auto",
    checkpoint: str | os.PathLike[str] | None = None,
    spread: RunnerMap | None = None,
) -> CountInstance:
    """Read and check a count instance: the board, the piece, the ends, constraints.

    Raises:
        InvalidBoardError, InvalidCellError, InvalidPieceError, InvalidInputError:
            bad input; visit numbers (a count is of tours,
            visit numbers fix a direction), an end cell for a closed tour, a
            symmetric open tour.

    Examples:
        >>> count_instance("5x5", closed=False, start="a1").start
        (0, 0)
    """
    tour = tour_instance(
        board,
        piece,
        start,
        end,
        closed=closed,
        purpose="counting tours",
        constraints=constraints,
    )
    check_kernel(kernel)
    side = tour.constraints
    if side.via or (side.magic and closed):
        raise InvalidInputError(
            "counting does not take visit numbers (--via, --given), nor --magic "
            "for closed tours: they fix where a tour starts (and visit numbers "
            "its direction), and counts are of tours"
        )
    return CountInstance(
        tour.board,
        tour.piece,
        closed=closed,
        start=tour.start,
        end=tour.end,
        constraints=side,
        memory_mb=memory_mb,
        prefixes=prefixes,
        progress=progress,
        kernel=kernel,
        checkpoint=None if checkpoint is None else check_checkpoint(checkpoint),
        spread=spread,
    )


def check_checkpoint(checkpoint: str | os.PathLike[str]) -> str:
    """A checkpoint directory, checked before any state is counted.

    It is a directory, or can be made as one: its nearest existing ancestor
    is a directory this process can write in.

    Raises:
        InvalidInputError: a file on the way (``/dev/null/x``), or a place
            that cannot be written; ``-`` (it means standard input or
            output elsewhere).

    Examples:
        >>> check_checkpoint("/dev/null/x")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: the checkpoint directory \
'/dev/null/x' cannot be made: '/dev/null' is not a directory
    """
    path = os.fspath(checkpoint)
    if path in ("", "-"):
        raise InvalidInputError(
            f"the checkpoint must be a directory, not {path!r} ('-' means "
            "standard input or output)"
        )
    probe = Path(path)
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    why = ""
    if not probe.is_dir():
        why = "is not a directory"
    elif not os.access(probe, os.W_OK | os.X_OK):
        why = "cannot be written"
    if why and str(probe) == path:
        raise InvalidInputError(f"the checkpoint {path!r} {why}")
    if why:
        raise InvalidInputError(
            f"the checkpoint directory {path!r} cannot be made: {str(probe)!r} {why}"
        )
    return path


def count_engine(instance: CountInstance, method: str) -> Engine:
    """The engine ``method`` names, or the one ``'auto'`` picks for the instance.

    Raises:
        InvalidInputError: no such engine (the message lists the names), a
            board whose frontier or model is too big, seen from its shape, or
            a frontier kernel named for an enumeration.
    """
    if method == "auto":
        method, _ = choose_count_method(instance)
    elif method != "frontier" and instance.kernel != "auto":
        raise InvalidInputError(
            f"--kernel {instance.kernel} is the frontier program's: {method} "
            "does not run it (drop --kernel, or --method frontier)"
        )
    engine = ENGINES.engine(method)
    # From the shape alone, before the engine's move graph is built.
    board, piece = instance.board, instance.piece
    if method == "frontier":
        check_narrow(board, piece)
    elif method == "subsets":
        from cpknight.counting.subsets import check_cells

        check_cells(board)
    elif method == "cpsat":
        check_circuit_size(
            arc_bound(board, piece) + board.n_open,
            f"the counting model of {board.label} ({piece.label})",
        )
    return engine


def count_kernel_note(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    method: str = "auto",
    constraints: TourConstraints | None = None,
    prefixes: bool = False,
    kernel: str = "auto",
    checkpoint: str | os.PathLike[str] | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    memory_mb: float | None = None,
    time_limit: float | None = None,
) -> str | None:
    """What a count would say first about its compiled kernel, if anything.

    The same arguments as :func:`count_tours`. A frontier count whose kernel
    is compiled but not built yet compiles it first (the line says for how
    long); ``auto`` counting a small count with the plain kernel while the
    compiled one is not built says so
    (:func:`~cpknight.counting.kernels.kernel_note`). None otherwise, and
    for a count the front door would refuse (it says why itself, alone:
    the frontier's own refusal is asked here first).

    Examples:
        >>> count_kernel_note("3x4", closed=False) is None  # the dict kernel
        True
    """
    from cpknight.counting.frontier import count_budget, refuse_count
    from cpknight.counting.kernels import choose_count_kernel, kernel_note
    from cpknight.errors import CpknightError
    from cpknight.frontier.plan import plan_frontier

    try:
        kernel = spread_kernel(
            kernel, jobs=jobs, scheduler=scheduler, checkpoint=checkpoint
        )
        instance = count_instance(
            board,
            piece=piece,
            closed=closed,
            start=start,
            end=end,
            constraints=constraints,
            memory_mb=memory_mb,
            prefixes=prefixes,
            kernel=kernel,
            checkpoint=checkpoint,
        )
        if count_engine(instance, method).name != "frontier":
            return None
        plan = plan_frontier(
            instance.graph, closed=closed, start=instance.start, end=instance.end
        )
        spill = checkpoint is not None
        budget = count_budget(memory_mb)
        chosen = choose_count_kernel(
            plan, kernel, prefixes=prefixes, spill=spill, budget=budget
        )
        run = solve_options(None, time_limit).start()
        refuse_count(instance, plan, budget, chosen, run, asked=kernel)
        return kernel_note(plan, kernel, prefixes=prefixes, spill=spill, budget=budget)
    except CpknightError:
        return None


def tours_up_to_symmetry(
    board: BoardLike,
    total: int,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    time_limit: float | None = None,
    options: SolveOptions | None = None,
) -> Classes:
    """The ``total`` undirected tours of ``board``, up to its symmetries, checked.

    Burnside's lemma (:mod:`cpknight.counting.symmetry`): the tours each
    symmetry but the identity fixes are counted by a search over orbits of
    moves, and ``total`` plus their sum must divide by the number of
    symmetries (the turns and mirrors, and the shifts of a torus). The
    search runs compiled where numba is installed (``cpknight[fast]``) and
    the time limit leaves room to load it, else in Python.

    Raises:
        EngineError: the sum does not divide: ``total`` is not the count.
        SolveLimitError: the time limit came first.

    Examples:
        >>> tours_up_to_symmetry("6x6", 9862).classes  # Jelliss's 1,245
        1245
    """
    from cpknight.counting.symmetry import compiled_fits, tour_classes
    from cpknight.pieces import move_graph

    resolved, leaper = resolve(board, piece)
    run = solve_options(options, time_limit).start()
    run.check("counting the tours up to symmetry")
    found = tour_classes(
        move_graph(resolved, leaper),
        total,
        closed=closed,
        tick=lambda: run.check("counting the tours each symmetry fixes"),
        compiled=compiled_fits(run.remaining()),
    )
    if found.classes is None:
        raise EngineError(
            f"{total:,} tours fail the symmetry check: with the {found.symmetric:,} "
            f"that symmetries fix, they do not divide by the {found.group} "
            "symmetries, so the count is wrong"
        )
    return found


def count_outcome(count: TourCount) -> Outcome:
    """The outcome of a count: its status, effort and why it stopped early.

    Examples:
        >>> o = count_outcome(TourCount(Status.UNKNOWN, 6, 3, 9.5))
        >>> str(o.status), o.reason, o.effort.solutions
        ('unknown', 'partial: time limit reached', 3)
    """
    stats = count.frontier
    done = count.status is Status.FOUND and not count.interrupted
    reason = None if done else "partial: time limit reached"
    if count.interrupted:
        reason = "partial: interrupted"
    elif stats is not None and stats.stopped is not None:
        reason = f"limit reached: {stats.stopped}"
    elif count.stopped is not None:
        reason = f"limit reached: {count.stopped}"
    return Outcome(
        "count",
        count.method,
        count.status,
        count.seconds,
        count.effort,
        value=count,
        reason=reason,
        interrupted=count.interrupted,
    )


SHARD_BYTES = 4096
"""What one shard holds, about: its chain, its task with its key, its row
(and the shards made on the way to that many, a few times more)."""


def count_tours_sharded(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    shards: int = 16,
    time_limit: float | None = None,
    options: SolveOptions | None = None,
    run: RunOptions | None = None,
    progress: ProgressLike | TaskProgress = None,
) -> ShardedCount:
    """Count tours by CP-SAT enumeration in independent shards, summed exactly.

    The shards fix the first moves of the counting model's circuit (see
    :mod:`cpknight.counting.shards`); they partition the tours, so the sum is
    the count :func:`count_tours` gives in one piece.

    Args:
        board: a finite board.
        piece: the leaper.
        closed: count closed tours or open ones.
        start: count only the tours from this cell.
        end: count only the tours to this cell (open tours).
        shards: how many shards to aim for (the first moves are fixed one
            more at a time until there are at least this many).
        time_limit: seconds for each shard; replaces the one in ``options``.
        options: the solve options (the time limit applies to each shard).
        run: how to run the shards (local pool or Dask, results file, resume).
        progress: ``True`` for a progress bar (``tqdm.auto``), or a callback
            called with a :class:`~cpknight.runtime.progress.Progress` over the shards.

    Returns:
        A :class:`~cpknight.counting.ShardedCount`.

    Raises:
        InvalidBoardError, InvalidCellError, InvalidPieceError, InvalidInputError:
            bad input.
        RunInterrupted: Ctrl-C; the shards done are in the results file.

    Examples:
        >>> count_tours_sharded("5x5", closed=False, start="a1").count.directed
        304
    """
    began = time.perf_counter()
    if isinstance(shards, bool) or not isinstance(shards, int) or shards < 1:
        raise InvalidInputError(f"shards must be a positive int: {shards!r}")
    refuse_over_budget(  # the chains, the tasks and their rows, before any
        SHARD_BYTES * shards,
        f"{shards:,} shards",
        "ask for fewer shards",
    )
    instance = count_instance(board, piece=piece, closed=closed, start=start, end=end)
    opts = solve_options(options, time_limit)
    graph = instance.graph
    if graph.n_nodes < (3 if closed else 2) or tour_certificate(
        graph, closed=closed, start=instance.start, end=instance.end
    ):
        whole = solve_with(ENGINES.engine("cpsat"), instance, opts.start())
        return ShardedCount(whole, 1)
    from cpknight.counting.shards import shard_chains  # OR-Tools, on use

    chains = shard_chains(instance, shards)
    tasks = _shard_tasks(instance, chains, opts)
    with progress_bar(progress, desc="shards", unit="shards") as tick:
        rows = run_tasks(tasks, run, progress=task_progress(tick, "shards"))
    return _sum_shards(rows, time.perf_counter() - began)


def try_count_sharded(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    shards: int = 16,
    time_limit: float | None = None,
    options: SolveOptions | None = None,
    run: RunOptions | None = None,
    progress: ProgressLike | TaskProgress = None,
) -> Outcome:
    """:func:`count_tours_sharded` as an outcome (what ``count --shards`` prints).

    Its value is the :class:`~cpknight.counting.ShardedCount`; a count some
    shards left unfinished is ``unknown``, its reason says how many.

    Examples:
        >>> o = try_count_sharded("5x5", closed=False, start="a1", shards=4)
        >>> str(o.status), o.value.count.directed, o.as_dict()["shards"] >= 4
        ('found', 304, True)
    """
    began = time.perf_counter()
    try:
        sharded = count_tours_sharded(
            board,
            piece=piece,
            closed=closed,
            start=start,
            end=end,
            shards=shards,
            time_limit=time_limit,
            options=options,
            run=run,
            progress=progress,
        )
    except RunInterrupted as exc:
        return interrupted_shards(exc, time.perf_counter() - began)
    count = sharded.count
    done = count.status is Status.FOUND
    return Outcome(
        "count",
        "cpsat",
        count.status,
        count.seconds,
        count.effort,
        value=sharded,
        reason=None
        if done
        else f"partial: {sharded.unfinished} of {sharded.shards} shards hit the limit",
    )


def interrupted_shards(exc: RunInterrupted, seconds: float) -> Outcome:
    """The outcome of a sharded count Ctrl-C stopped: the shards done, summed.

    The sum is a lower bound (``unknown``, ``interrupted``); the shards done
    are in the run's results file, from which ``--resume`` goes on.

    Examples:
        >>> rows = [{"status": "found", "directed": 4, "undirected": 2}, None]
        >>> o = interrupted_shards(RunInterrupted(1, 2, None, rows), 1.0)
        >>> str(o.status), o.interrupted, o.value.count.directed, o.reason
        ('unknown', True, 4, 'interrupted (Ctrl-C) after 1 of 2 shards: partial')
    """
    done = [row for row in exc.rows if row is not None]
    partial = _sum_shards(done, seconds)
    total = len(exc.rows)
    sharded = ShardedCount(
        TourCount(
            Status.UNKNOWN,
            partial.count.directed,
            partial.count.undirected,
            seconds,
            interrupted=True,
        ),
        total,
        total - len(done) + partial.unfinished,
    )
    return Outcome(
        "count",
        "cpsat",
        Status.UNKNOWN,
        seconds,
        value=sharded,
        reason=f"interrupted (Ctrl-C) after {len(done)} of {total} shards: partial",
        interrupted=True,
    )


def shard_row(
    board: Board,
    piece: Leaper,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    chain: tuple[int, ...],
    options: SolveOptions,
) -> Row:
    """One shard's count as a row (status, directed, undirected, seconds).

    What a runner's worker runs for one shard of :func:`count_tours_sharded`.
    """
    from cpknight.counting.shards import count_shard  # OR-Tools, on use

    run = options.start()
    instance = CountInstance(board, piece, closed=closed, start=start, end=end)
    try:
        with interruptible(run):  # Ctrl-C stops the search, as a limit does
            count = count_shard(instance, chain, run)
    finally:
        if run.clock.interrupted:  # ... and the whole run (as in tour_row),
            raise KeyboardInterrupt  # even while the model was being built
    return {
        "question": "count",
        "status": str(count.status),
        "directed": count.directed,
        "undirected": count.undirected,
        "seconds": round(count.seconds, 6),
    }


def _sum_shards(rows: Sequence[Row], seconds: float) -> ShardedCount:
    """The shards' counts summed: ``found`` only if every shard finished."""
    unfinished = sum(1 for row in rows if row["status"] != "found")
    total = TourCount(
        Status.FOUND if not unfinished else Status.UNKNOWN,
        sum(int(row.get("directed", 0)) for row in rows),
        sum(int(row.get("undirected", 0)) for row in rows),
        seconds,
    )
    return ShardedCount(total, len(rows), unfinished)


def _shard_tasks(
    instance: CountInstance, chains: Sequence[tuple[int, ...]], options: SolveOptions
) -> list[Task]:
    """One runner task per shard; its key names the instance, the arcs, the limit."""
    board, piece, closed = instance.board, instance.piece, instance.closed
    start, end = instance.start, instance.end
    head = task_key("count", board, piece, closed, start, end)
    limit = "none" if options.time_limit is None else f"{options.time_limit:g} s"
    return [
        Task(
            f"{head} shard [{','.join(map(str, chain))}], limit {limit}",
            "cpknight.api.counting:shard_row",
            (board, piece, closed, start, end, chain, options),
        )
        for chain in chains
    ]
