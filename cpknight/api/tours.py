"""Front doors for tours: find, iterate, try, compare and sweep."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from cpknight.api.common import (
    BoardLike,
    each_engine,
    listen_to_solve,
    method_names,
    resolve,
    solve_options,
    task_progress,
)
from cpknight.board import Board, Cell, CellLike
from cpknight.constraints import TourConstraints
from cpknight.engines import outcome_of, outcome_of_error, solve_with
from cpknight.errors import (
    EngineError,
    InvalidInputError,
    NoTourError,
    OutcomeError,
    SolveLimitError,
)
from cpknight.pieces import KNIGHT, Leaper, PieceLike
from cpknight.results import Outcome, Tour
from cpknight.runtime.progress import ProgressLike, TaskProgress, progress_bar
from cpknight.solving import Run, SolveOptions, interruptible
from cpknight.status import Effort, Status
from cpknight.tours import ENGINES as TOUR_METHODS
from cpknight.tours.auto import TourPlan, check_theorems, plan_tour
from cpknight.tours.certificates import check_tour_possible
from cpknight.tours.instance import TourInstance

if TYPE_CHECKING:  # the runner is the sweeps' alone: loaded when one runs
    from cpknight.results import Comparison, Sweep, SweepCell
    from cpknight.runner import Row, RunOptions, Task

T = TypeVar("T")


def find_tour(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    method: str = "auto",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    constraints: TourConstraints | None = None,
    progress: ProgressLike = None,
    minimise: str | None = None,
) -> Tour:
    """Find a tour: every open cell once, closed (a circuit) or open (a path).

    Args:
        board: a finite board.
        piece: the leaper.
        closed: whether the last cell must be one move from the first.
        start: the first cell, if fixed.
        end: the last cell, if fixed (open tours only).
        method: a name in :data:`TOUR_METHODS`, or ``'auto'`` (the default, as
            for :func:`try_tour` and ``cpknight tour``) to let
            :func:`choose_tour_method` pick (the tour's ``method`` says which).
        options: time limit, workers, seed.
        time_limit: seconds, model building included (replaces the limit in
            ``options``).
        progress: ``True`` for a progress bar (``tqdm.auto``), or a callback
            called with a :class:`~cpknight.runtime.progress.Progress` now and then.
        constraints: side constraints (:func:`cpknight.tour_constraints`):
            visit numbers, required and forbidden moves, a symmetry. CP-SAT
            honours them all; an engine that cannot refuses
            (``InvalidInputError``); ``auto`` picks CP-SAT.
        minimise: ``'turns'`` or ``'crossings'``: the tour with the fewest
            (CP-SAT), a :class:`~cpknight.results.ScoredTour` that says
            whether it is optimal, with its proved bound (the same as
            ``constraints=tour_constraints(board, minimise=...)``).

    Returns:
        A checked :class:`~cpknight.results.Tour` (its side constraints
        checked too).

    Raises:
        NoTourError: proved that no such tour exists (with the reason).
        SolveLimitError: the time limit was reached without an answer.
        InvalidBoardError, InvalidCellError, InvalidPieceError, InvalidInputError:
            bad input.

    Examples:
        >>> from cpknight import is_tour
        >>> t = find_tour("6x6", time_limit=10)
        >>> is_tour(t.board, t.cells, closed=True), t.method  # auto picked
        (True, 'prune')
        >>> t = find_tour(Board.parse("6x6", topology="torus"))  # auto: the race
        >>> t.method, t.winner in ("prune", "cpsat")
        ('race', True)
        >>> t = find_tour("6x6", minimise="turns", time_limit=30)
        >>> t.value, str(t.status)  # the fewest turns of a closed 6x6 tour
        (32, 'optimal')
    """
    tour: Tour = _one_tour_run(
        lambda instance, run: _solve_tour(
            instance, plan_tour(instance, method, run), run
        ),
        board,
        piece,
        start,
        end,
        closed=closed,
        constraints=with_objective(constraints, minimise),
        opts=solve_options(options, time_limit),
        progress=progress,
    )
    return tour


def _one_tour_run(
    solve: Callable[[TourInstance, Run], T],
    board: BoardLike,
    piece: PieceLike,
    start: CellLike | None,
    end: CellLike | None,
    *,
    closed: bool,
    constraints: TourConstraints | None,
    opts: SolveOptions,
    progress: ProgressLike,
) -> T:
    """``solve`` on the instance of a tour door, under one clock and one bar.

    The clock starts before the instance is read, so that reading it (the
    board, the constraints) counts against the time limit too.
    """
    with progress_bar(progress, desc="tour", unit="s", total=opts.time_limit) as tick:
        run = opts.start()
        listen_to_solve(run, tick)
        instance = tour_instance(
            board, piece, start, end, closed=closed, constraints=constraints
        )
        return solve(instance, run)


def _solve_tour(instance: TourInstance, plan: TourPlan, run: Run) -> Tour:
    """Carry out a tour plan: its checks in order, its engine, its fallback.

    The plan (:func:`~cpknight.tours.auto.plan_tour`) says all that is done;
    a board the checks settle never reaches an engine.
    """
    for check in plan.checks:
        if check == "theorems":
            check_theorems(
                instance.board,
                instance.piece,
                closed=instance.closed,
                start=instance.start,
                end=instance.end,
            )
        else:
            check_tour_possible(
                instance.build_graph(run),
                closed=instance.closed,
                start=instance.start,
                end=instance.end,
                check=run.check,
            )
    try:
        tour: Tour = solve_with(TOUR_METHODS.engine(plan.method), instance, run)
        return tour
    except SolveLimitError:
        # giving up proves nothing: with time left, the fallback searches on.
        if plan.fallback is None or run.expired():
            raise
    tour = solve_with(TOUR_METHODS.engine(plan.fallback), instance, run)
    return tour


def with_objective(
    constraints: TourConstraints | None, minimise: str | None
) -> TourConstraints | None:
    """The side constraints with ``minimise`` set (checked with the instance).

    Examples:
        >>> with_objective(None, "turns").minimise
        'turns'
        >>> with_objective(None, None) is None
        True
    """
    if minimise is None:
        return constraints
    return dataclasses.replace(constraints or TourConstraints(), minimise=minimise)


def tour_instance(
    board: BoardLike,
    piece: PieceLike,
    start: CellLike | None,
    end: CellLike | None,
    *,
    closed: bool,
    purpose: str = "a tour",
    constraints: TourConstraints | None = None,
) -> TourInstance:
    """Read and check a tour instance: the board, the piece, the ends, constraints.

    Counting reads its instances through it too
    (:func:`cpknight.api.counting.count_instance`).
    """
    resolved, leaper = resolve(board, piece)
    resolved.require_finite(purpose)
    start_cell = None if start is None else resolved.parse_cell(start)
    end_cell = None if end is None else resolved.parse_cell(end)
    if closed and end_cell is not None:
        raise InvalidInputError("a closed tour has no separate end cell; drop 'end'")
    side = TourConstraints()
    if constraints:
        side = constraints.validate(resolved, leaper)
        if side.symmetric and not closed:
            raise InvalidInputError(
                f"a symmetric tour must be closed: drop --open (--symmetric "
                f"{side.symmetric})"
            )
    return TourInstance(
        resolved,
        leaper,
        closed=closed,
        start=start_cell,
        end=end_cell,
        constraints=side,
    )


# ------------------------------------------------- search: enumerate, compare


def iter_tours(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    method: str = "prune",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    constraints: TourConstraints | None = None,
) -> Iterator[Tour]:
    """Every tour of a board, one checked tour at a time, by backtracking search.

    Open tours with no fixed start are listed from every start cell, each
    directed path once; closed tours as sequences from the start (or the first
    cell of lowest degree), each circuit once per direction.

    Args:
        board: a finite board.
        piece: the leaper.
        closed: closed (circuits) or open (paths) tours.
        start: list only the tours from this cell.
        end: list only the tours to this cell (open tours).
        method: ``'prune'`` (fastest), ``'warnsdorff'`` or ``'backtrack'``.
        options: the time limit bounds the whole enumeration.
        time_limit: seconds for the whole enumeration (replaces the limit in
            ``options``).
        constraints: visit numbers, required and forbidden moves.

    Yields:
        Checked tours; each one's ``effort`` is the search's effort so far.

    Raises:
        SolveLimitError: the time limit was reached (tours already yielded stand).
        InvalidBoardError, InvalidCellError, InvalidPieceError, InvalidInputError:
            bad input, or a method that does not backtrack.

    Examples:
        >>> tours = list(iter_tours("3x4", closed=False, start="a1"))
        >>> len(tours), all(t.start == (0, 0) for t in tours)
        (2, True)
        >>> sum(1 for _ in iter_tours("5x5", closed=False, start="a1"))  # Jelliss
        304
    """
    from cpknight.tours.search import iter_search_tours

    instance = tour_instance(
        board, piece, start, end, closed=closed, constraints=constraints
    )
    yield from iter_search_tours(
        instance, solve_options(options, time_limit).start(), method
    )


def try_tour(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    method: str = "auto",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    constraints: TourConstraints | None = None,
    progress: ProgressLike = None,
    minimise: str | None = None,
) -> Outcome:
    """Ask one engine for a tour and report whatever happened, timed.

    Like :func:`find_tour`, but "proved none" and "limit reached" come back as
    a :class:`~cpknight.results.TourOutcome` (status ``'infeasible'`` or
    ``'unknown'``) with the effort spent, instead of an exception. This is
    what ``cpknight compare`` and ``cpknight sweep`` run. The time does not
    include importing the engine's module (OR-Tools takes most of a second).

    Raises:
        InvalidBoardError, InvalidCellError, InvalidPieceError, InvalidInputError:
            bad input (these are not outcomes).

    Examples:
        >>> str(try_tour("4x4", method="prune", time_limit=5).status)
        'infeasible'
        >>> o = try_tour("5x5", closed=False, start="a1", method="warnsdorff")
        >>> str(o.status), o.tour is not None, o.effort.backtracks
        ('found', True, 0)
    """
    return _one_tour_run(
        lambda instance, run: _try_tour(instance, method, run),
        board,
        piece,
        start,
        end,
        closed=closed,
        constraints=with_objective(constraints, minimise),
        opts=solve_options(options, time_limit),
        progress=progress,
    )


def _try_tour(instance: TourInstance, method: str, run: Run) -> Outcome:
    """The outcome of :func:`_solve_tour` on the instance's plan, timed.

    What the engines settle names the engine; what the checks settle, the
    plan's ``reports``; what stops the planning itself, ``method``.
    """
    plan: TourPlan | None = None
    try:
        with interruptible(run):  # Ctrl-C: the certificates stop too
            plan = plan_tour(instance, method, run)
            tour = _solve_tour(instance, plan, run)
    except OutcomeError as exc:
        named = method if plan is None else plan.reports
        return outcome_of_error("tour", exc, run, method=named)
    return outcome_of("tour", tour, run, method=tour.method)


def complete_tour(
    board: BoardLike,
    path: Sequence[CellLike],
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    end: CellLike | None = None,
    method: str = "auto",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
) -> Outcome:
    """Can a partial tour still be finished? A completion, or a proof of none.

    ``path`` is the tour so far: its first cell, then one move at a time to
    the knight's cell. The answer is a tour whose first cells are the path
    (checked by the tour checker, the path's visit numbers with it), or a
    proof that none exists: first the cheap arguments on the free cells
    (:func:`~cpknight.tours.completion.completion_certificate`: a dead end, a
    cell left with one free neighbour, a cut, the colour count), then an
    engine's proof. Like :func:`try_tour`, every ending is an outcome;
    ``cpknight tour BOARD --given FILE`` asks it of a tour file.

    Args:
        board: a finite board.
        path: the cells visited so far, in order (names or coordinates).
        piece: the leaper.
        closed: whether the tour must close (its last cell one move from the
            first).
        end: the last cell, if fixed (open tours only).
        method: ``'auto'`` (the race of ``prune`` and CP-SAT up to 2,500
            cells, else ``prune``), ``'prune'``, ``'warnsdorff'``,
            ``'backtrack'`` or ``'cpsat'``.
        options: time limit, workers, seed.
        time_limit: seconds, the move graph and the certificates included
            (replaces the limit in ``options``).

    Returns:
        A :class:`~cpknight.results.TourOutcome`: ``found`` with the whole
        tour (the path first), ``infeasible`` with the reason, ``unknown`` at
        the limit.

    Raises:
        InvalidBoardError, InvalidCellError, InvalidPieceError, InvalidInputError:
            bad input: a path cell off the board or blocked, a cell twice, a
            step that is not a move, an unknown method.

    Examples:
        >>> o = complete_tour("5x5", ["a1", "b3", "c5"], closed=False)
        >>> str(o.status), o.tour.cells[:3], len(o.tour)
        ('found', ((0, 0), (2, 1), (4, 2)), 25)
        >>> o = complete_tour("8x8", ["d2", "b3", "d4"], closed=True)
        >>> str(o.status), o.reason
        ('infeasible', 'cell a1 has one free neighbour left, so it must be the \
last cell, but it is not one move from the first cell d2: a closed tour cannot end \
there')
    """
    from cpknight.tours.completion import (
        COMPLETION_METHODS,
        check_partial_path,
        completion_certificate,
        completion_instance,
        solve_completion,
    )

    if method not in COMPLETION_METHODS:
        raise InvalidInputError(
            f"expected a method in {', '.join(COMPLETION_METHODS)} to complete a "
            f"tour: {method!r}"
        )
    if isinstance(path, str) or not isinstance(path, Sequence):
        raise InvalidInputError(f"expected the path as a sequence of cells: {path!r}")
    run = solve_options(options, time_limit).start()
    base = tour_instance(board, piece, None, end, closed=closed)
    try:
        with interruptible(run):
            graph = base.build_graph(run)
            nodes = check_partial_path(graph, path)
            proof = completion_certificate(
                graph, path, closed=closed, end=base.end, check=run.check
            )
            if proof is not None:
                raise NoTourError(proof.reason, certificate=proof.name)
            instance = completion_instance(graph, nodes, closed=closed, end=base.end)
            tour = solve_completion(instance, nodes, method, run)
    except OutcomeError as exc:
        return outcome_of_error("tour", exc, run, method=method)
    return outcome_of("tour", tour, run, method=tour.method)


def compare_tours(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    methods: str | Sequence[str] = "all",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    constraints: TourConstraints | None = None,
    progress: ProgressLike = None,
    minimise: str | None = None,
) -> Comparison:
    """Every chosen tour engine on one instance, side by side, cross-checked.

    Each engine gets its own clock (the time limit is per engine). An engine
    that does not take the instance (tiles off its boards) is ``refused``.

    Args:
        board: a finite board.
        piece: the leaper.
        closed: closed or open tours.
        start: the first cell, if fixed.
        end: the last cell, if fixed (open tours).
        methods: names in :data:`TOUR_METHODS` or ``'auto'`` (a list, a comma
            string, or ``'all'``).
        options: time limit (per engine), workers, seed.
        time_limit: seconds per engine (replaces the limit in ``options``).
        progress: ``True`` for a progress bar (``tqdm.auto``), or a callback
            called with a :class:`~cpknight.runtime.progress.Progress` now and then.
        constraints: side constraints; engines that cannot honour them are
            ``refused``.
        minimise: ``'turns'`` or ``'crossings'`` (CP-SAT; see :func:`find_tour`).

    Returns:
        A :class:`~cpknight.results.Comparison`: one outcome per engine, each
        found tour checked.

    Raises:
        EngineError: one engine found a tour where another proved none (a bug
            in cpknight).
        InvalidBoardError, InvalidCellError, InvalidPieceError, InvalidInputError:
            bad input.

    Examples:
        >>> c = compare_tours("5x5", closed=False, start="a1",
        ...                   methods="prune,warnsdorff")
        >>> c.statuses(), c.fastest is not None
        (['found', 'found'], True)
        >>> compare_tours("4x4", methods=["prune", "cpsat"]).statuses()
        ['infeasible', 'infeasible']
    """
    names = method_names(TOUR_METHODS, methods)
    side = with_objective(constraints, minimise)
    instance = tour_instance(board, piece, start, end, closed=closed, constraints=side)
    opts = solve_options(options, time_limit)

    def one(name: str, run: Run) -> Outcome:
        try:
            return _try_tour(instance, name, run)
        except InvalidInputError as exc:
            return Outcome("tour", name, Status.REFUSED, run.elapsed(), reason=str(exc))

    bar = progress_bar(progress, desc="compare", unit="engines", total=len(names))
    with bar as tick:
        rows = each_engine("tour", names, opts, one, tick)
    statuses = {o.status for o in rows}
    if Status.FOUND in statuses and Status.INFEASIBLE in statuses:
        raise EngineError(
            "internal error: engines disagree on existence: "
            + ", ".join(f"{o.method} {o.status}" for o in rows)
        )
    row = instance_row(
        instance.board,
        instance.piece,
        closed=instance.closed,
        start=instance.start,
        end=instance.end,
        time_limit=opts.time_limit,
        constraints=instance.constraints,
    )
    from cpknight.results.comparisons import Comparison

    return Comparison(question="tour", instance=row, rows=tuple(rows))


def instance_row(
    board: Board,
    piece: Leaper,
    *,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    time_limit: float | None,
    constraints: TourConstraints | None = None,
) -> dict[str, Any]:
    """A tour instance as plain data, as a comparison's JSON shows it.

    The playground's runs start their instance from it too
    (:meth:`cpknight.web.jobs.Job.instance`).

    Examples:
        >>> row = instance_row(Board.parse("5x5"), KNIGHT, closed=False,
        ...                    start=(0, 0), end=None, time_limit=None)
        >>> row["board"], row["piece"], row["start"], row["end"]
        ('5x5', [1, 2], [0, 0], None)
    """
    row: dict[str, Any] = {
        "board": board.label,
        "piece": list(piece.vector),
        "closed": closed,
        "start": None if start is None else list(start),
        "end": None if end is None else list(end),
        "time_limit": time_limit,
    }
    if constraints:
        row["constraints"] = constraints.as_dict()
    return row


def sweep(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    method: str = "auto",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    jobs: int = 1,
    progress: ProgressLike | TaskProgress = None,
    budget: float | None = None,
    run: RunOptions | None = None,
) -> Sweep:
    """For every open start cell: does a tour from it exist? With time and effort.

    Args:
        board: a finite board.
        piece: the leaper.
        closed: closed tours (the default, as everywhere) or open ones
            (``closed=False``: the interesting question, since on a closed
            tour every cell is a start).
        method: a name in :data:`TOUR_METHODS` or ``'auto'`` (picked per cell).
        options: the time limit applies to each cell.
        time_limit: seconds for each cell (replaces the limit in ``options``).
        jobs: worker processes (1 runs in this process), at most one per
            usable core; ``run`` overrides it.
        progress: ``True`` for a progress bar (``tqdm.auto``), or a callback
            called with a :class:`~cpknight.runtime.progress.Progress` after each cell
            (the old ``progress(done, total)`` still works, deprecated).
        budget: seconds for the whole sweep; cells it leaves unfinished are
            ``unknown`` (and each cell's limit is cut to what is left).
        run: how to run the cells (:class:`~cpknight.runner.RunOptions`: local
            pool or Dask, results file, resume).

    Ctrl-C stops the sweep within about a second: the cells finished are kept,
    the rest are ``unknown`` and the sweep's ``interrupted`` is true.

    Returns:
        A :class:`~cpknight.results.Sweep`, one cell per open cell, row-major.

    Raises:
        InvalidBoardError, InvalidPieceError, InvalidInputError: bad input.
        RunInterrupted: Ctrl-C; the cells done are in the results file.

    Examples:
        >>> sweep("3x4", method="prune", time_limit=5).counts()  # closed: none
        {'found': 0, 'infeasible': 12, 'unknown': 0}
        >>> s = sweep("3x4", closed=False, method="prune")
        >>> s.counts()
        {'found': 6, 'infeasible': 6, 'unknown': 0}
        >>> str(s["a1"].status), str(s["b1"].status)
        ('found', 'infeasible')
    """
    from cpknight.runner import (
        RunInterrupted,
        RunOptions,
        check_budget_fits,
        run_tasks,
    )

    resolved, leaper = resolve(board, piece)
    resolved.require_finite("a sweep")
    if method != "auto":
        TOUR_METHODS.engine(method)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InvalidInputError(f"jobs must be a positive int: {jobs!r}")
    if budget is not None:
        SolveOptions(time_limit=budget)  # the same check as a time limit
    run = run or RunOptions(jobs=jobs)
    opts = solve_options(options, time_limit)
    check_budget_fits(resolved.n_open, budget, f"a sweep of {resolved.label}")
    cells = list(resolved.open_cells())
    # One clock for the whole sweep: wall time, comparable across processes.
    deadline = None if budget is None else time.time() + budget
    tasks = [
        tour_task(resolved, leaper, closed, cell, None, method, opts, deadline)
        for cell in cells
    ]
    if deadline is not None and run.deadline is None:
        run = dataclasses.replace(run, deadline=deadline)
    interrupted = False
    bar = progress_bar(progress, desc=f"sweep {resolved.label}", unit="cells")
    try:
        with bar as tick:
            report = task_progress(tick, "cells")
            rows: list[Row | None] = list(run_tasks(tasks, run, progress=report))
    except RunInterrupted as exc:
        interrupted = True
        rows = exc.rows
    from cpknight.results.sweeps import Sweep

    return Sweep(
        board=resolved,
        piece=leaper,
        closed=closed,
        method=method,
        cells=tuple(
            _sweep_cell(cell, row) for cell, row in zip(cells, rows, strict=True)
        ),
        interrupted=interrupted,
    )


def _sweep_cell(cell: Cell, row: Row | None) -> SweepCell:
    """A sweep's cell from its runner row (``None``: Ctrl-C came first)."""
    from cpknight.results.sweeps import SweepCell

    if row is None:
        why = "interrupted (Ctrl-C) before this cell was finished"
        return SweepCell(cell, Status.UNKNOWN, 0.0, reason=why)
    return SweepCell(
        cell=cell,
        status=Status(row["status"]),
        seconds=float(row.get("seconds", 0.0)),
        effort=Effort.from_dict(row.get("effort", {})),
        reason=row.get("reason"),
    )


def task_key(
    question: str,
    board: Board,
    piece: Leaper,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
) -> str:
    """The start of a runner task's key: the question and the instance.

    Examples:
        >>> from cpknight.pieces import KNIGHT
        >>> task_key("count", Board.parse("6x6"), KNIGHT, False, (0, 0), None)
        'count 6x6 knight (1,2) open from a1'
    """
    ends = "".join(
        f" {word} {board.cell_name(cell)}"
        for word, cell in (("from", start), ("to", end))
        if cell is not None
    )
    kind = "closed" if closed else "open"
    return f"{question} {board.label} {piece.label} {kind}{ends}"


def tour_task(
    board: Board,
    piece: Leaper,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    method: str,
    options: SolveOptions,
    deadline: float | None = None,
) -> Task:
    """The runner's task for one tour question: its key names all it depends on.

    ``deadline`` (wall time, :func:`time.time`) is the whole run's budget: it
    cuts the task's limit but is not part of its key (a resumed run has its own).

    Examples:
        >>> from cpknight.pieces import KNIGHT
        >>> b = Board.parse("5x5")
        >>> tour_task(b, KNIGHT, False, (0, 0), None, "prune", SolveOptions()).key
        'tour 5x5 knight (1,2) open from a1 by prune, limit none, seed 0'
    """
    from cpknight.runner import Task

    limit = "none" if options.time_limit is None else f"{options.time_limit:g} s"
    key = (
        f"{task_key('tour', board, piece, closed, start, end)} by {method}, "
        f"limit {limit}, seed {options.seed}"
    )
    return Task(
        key,
        "cpknight.api.tours:tour_row",
        (board, piece, closed, start, end, method, options, deadline),
    )


def tour_row(
    board: Board,
    piece: Leaper,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    method: str,
    options: SolveOptions,
    deadline: float | None = None,
) -> dict[str, Any]:
    """One tour question's outcome row (:meth:`Outcome.as_dict`), refusals included.

    What a runner's worker runs for a :func:`tour_task`; a found tour has been
    through the checker before it is a row.

    Examples:
        >>> row = tour_row(Board.parse("3x4"), KNIGHT, False, (0, 1), None,
        ...                "prune", SolveOptions())
        >>> row["status"], row["method"]
        ('infeasible', 'prune')
    """
    if deadline is not None:
        from cpknight.runner import AGAIN

        left = deadline - time.time()
        if left <= 0:
            why = "the run's budget ran out before this task"
            row = Outcome("tour", method, Status.UNKNOWN, 0.0, reason=why).as_dict()
            return {**row, AGAIN: True}
        if options.time_limit is None or options.time_limit > left:
            options = dataclasses.replace(options, time_limit=left)
    run = options.start()
    try:
        instance = tour_instance(board, piece, start, end, closed=closed)
        outcome = _try_tour(instance, method, run)
    except InvalidInputError as exc:
        outcome = Outcome(
            "tour", method, Status.REFUSED, run.elapsed(), reason=str(exc)
        )
    if outcome.interrupted:  # Ctrl-C in this process: the run stops here
        raise KeyboardInterrupt
    return outcome.as_dict()
