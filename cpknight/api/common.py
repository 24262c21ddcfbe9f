"""What every front door shares: resolving boards and pieces, method lists."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from cpknight.board import Board, Cell, CellLike, Topology
from cpknight.engines import (
    Engine,
    Registry,
    attempt,
)
from cpknight.errors import (
    InvalidInputError,
)
from cpknight.pieces import (
    KNIGHT,
    Leaper,
    MoveGraph,
    PieceLike,
    as_piece,
    graph_bytes,
    move_graph,
)
from cpknight.results import (
    Outcome,
)
from cpknight.runtime.memory import refuse_over_budget
from cpknight.runtime.progress import Progress, ProgressCallback
from cpknight.solving import Run, SolveOptions
from cpknight.status import Status

BoardLike = Board | str | Sequence[int]
"""A :class:`Board` or anything :meth:`Board.parse` reads (a spec or a shape)."""


def resolve(
    board: BoardLike,
    piece: PieceLike = KNIGHT,
    *,
    topology: Topology | None = None,
) -> tuple[Board, Leaper]:
    """Read a board and a piece and check that the piece fits the board.

    Raises:
        InvalidBoardError: a bad board spec.
        InvalidPieceError: a bad piece, or one with more components than the
            board has axes.

    Examples:
        >>> resolve("4x4x4", "1,2,3")[1].label
        '(1,2,3)-leaper'
    """
    if isinstance(board, Board):
        resolved = board if topology is None else board.with_topology(topology)
    else:  # Board.parse caches specs; it refuses None, 8, 8.5 in one line
        resolved = Board.parse(board, topology=topology or "bounded")
    leaper = as_piece(piece)
    leaper.check_dim(resolved.dim, resolved.label)
    return resolved, leaper


_DEFAULT_OPTIONS = SolveOptions()  # frozen: one for every call without options


def solve_options(
    options: SolveOptions | None = None, time_limit: float | None = None
) -> SolveOptions:
    """The options of a front door call: ``options``, with ``time_limit`` if given.

    Every front door takes ``time_limit=`` (seconds, model building included)
    beside ``options=``; a ``time_limit`` given replaces the one in ``options``.

    Raises:
        InvalidInputError: a time limit that is not a positive number.

    Examples:
        >>> solve_options(time_limit=5).time_limit
        5.0
        >>> solve_options(SolveOptions(time_limit=9, seed=3), 2)
        SolveOptions(time_limit=2.0, workers=1, seed=3, log=False, log_callback=None)
        >>> solve_options().time_limit is None
        True
    """
    if options is not None and not isinstance(options, SolveOptions):
        raise InvalidInputError(
            "options must be a SolveOptions (or None; a time limit alone goes "
            f"in time_limit=): {options!r}"
        )
    opts = options or _DEFAULT_OPTIONS
    if time_limit is None:
        return opts
    return dataclasses.replace(opts, time_limit=time_limit)


def method_names(registry: Registry, methods: str | Sequence[str]) -> list[str]:
    """The engine names of ``methods``: a name, a comma list, ``'all'`` or a list.

    Examples:
        >>> from cpknight.distances import ENGINES
        >>> method_names(ENGINES, ["bfs", "formula"])
        ['bfs', 'formula']
    """
    if isinstance(methods, str):
        return registry.names(methods)
    if not isinstance(methods, Iterable) or not all(
        isinstance(m, str) for m in methods
    ):
        raise InvalidInputError(
            "methods must be a name, a comma list, 'all' or a list of names: "
            f"{methods!r}"
        )
    return registry.names(",".join(methods))


def attempt_or_refuse(engine: Engine, instance: Any, run: Run) -> Outcome:
    """:func:`attempt`, with an engine refusing the instance as an outcome."""
    try:
        return attempt(engine, instance, run)
    except InvalidInputError as exc:
        return Outcome(
            question=engine.question,
            method=engine.name,
            status=Status.REFUSED,
            seconds=run.elapsed(),
            reason=str(exc),
        )


def not_run(question: str, names: Sequence[str]) -> list[Outcome]:
    """Rows for the engines Ctrl-C kept from running (``unknown``, and why)."""
    return [
        Outcome(
            question,
            name,
            Status.UNKNOWN,
            0.0,
            reason="interrupted (Ctrl-C) before this engine ran",
            interrupted=True,
        )
        for name in names
    ]


def cell_tuples(cells: npt.NDArray[np.int64]) -> list[Cell]:
    """Rows of an ``(n, d)`` array as tuples of ints (column-wise: fast for 10^6)."""
    return list(zip(*(column.tolist() for column in cells.T), strict=True))


def graph_and_cell(
    board: BoardLike,
    piece: PieceLike,
    source: CellLike,
    purpose: str,
    *,
    run: Run | None = None,
    cell_bytes: int = 0,
) -> tuple[MoveGraph, Cell]:
    """The move graph of a finite board and a cell on it, for ``purpose``.

    Args:
        board: the board.
        piece: the leaper.
        source: the cell.
        purpose: what the graph is for (named in a refusal).
        run: the run whose clock bounds building the graph.
        cell_bytes: what ``purpose`` holds per open cell beside the graph:
            the graph and that are estimated against the memory budget first.

    Raises:
        ModelTooBigError: the estimate is over the memory budget.

    Examples:
        >>> graph, cell = graph_and_cell("5x5", "knight", "a1", "a map")
        >>> cell, graph.n_nodes
        ((0, 0), 25)
    """
    resolved, leaper = resolve(board, piece)
    resolved.require_finite(purpose)
    cell = resolved.parse_cell(source)
    refuse_over_budget(
        graph_bytes(resolved, leaper) + cell_bytes * resolved.n_open,
        f"{purpose} of the {leaper.label} on {resolved.label} "
        f"({resolved.n_open:,} cells)",
        "try a smaller board",
    )
    check = None if run is None else run.check
    return move_graph(resolved, leaper, check=check), cell


def listen_to_solve(run: Run, tick: ProgressCallback | None) -> None:
    """Report one solve's progress to ``tick``: seconds spent of its limit.

    A single solve has no other measure: the :class:`Progress` is the time
    spent (``unit='s'``) out of the time limit (``None`` without one), with
    what the engine is doing and its bound so far. The first word comes at
    once (an engine that never checks its clock, or finishes before its first
    check, is still heard).

    Examples:
        >>> seen = []
        >>> run = SolveOptions(time_limit=5).start()
        >>> listen_to_solve(run, seen.append)
        >>> seen[0].total, seen[0].unit, seen[0].what
        (5.0, 's', 'starting')
    """
    if tick is None:
        return
    limit = run.options.time_limit

    def heard(what: str, bound: int | None) -> None:
        extra = "" if bound is None else f", bound {bound}"
        tick(Progress(run.elapsed(), limit, "s", f"{what}{extra}"))

    run.clock.listen(heard)
    run.clock.tick("starting")


def task_progress(
    tick: ProgressCallback | None, unit: str
) -> Callable[[int, int], None] | None:
    """The runner's ``progress(done, total)`` as :class:`Progress` of ``unit``.

    Examples:
        >>> seen = []
        >>> task_progress(seen.append, "cells")(3, 12)
        >>> seen
        [Progress(done=3, total=12, unit='cells', what='', value=None)]
    """
    if tick is None:
        return None
    report = tick

    def progress(done: int, total: int) -> None:
        report(Progress(done, total, unit))

    return progress


def each_engine(
    question: str,
    names: Sequence[str],
    options: SolveOptions,
    attempt_one: Callable[[str, Run], Outcome],
    progress: ProgressCallback | None = None,
) -> list[Outcome]:
    """One outcome per engine of a comparison, each on a clock of its own.

    After Ctrl-C (an engine's run interrupted) the engines not yet run are
    not started: their rows say so (:func:`not_run`), and what is finished is
    kept. ``progress`` hears the engines done (``unit='engines'``), with the
    one running and its seconds so far.

    Examples:
        >>> def one(name: str, run: Run) -> Outcome:
        ...     return Outcome("tour", name, Status.FOUND, run.elapsed())
        >>> rows = each_engine("tour", ["a", "b"], SolveOptions(), one)
        >>> [(o.method, str(o.status)) for o in rows]
        [('a', 'found'), ('b', 'found')]
    """
    rows: list[Outcome] = []
    total = len(names)
    for name in names:
        run = options.start()
        if progress is not None:
            progress(Progress(len(rows), total, "engines", name))
            run.clock.listen(_engine_listener(progress, len(rows), total, name, run))
        rows.append(attempt_one(name, run))
        if run.clock.interrupted:  # Ctrl-C: keep what is finished, run no more
            rows += not_run(question, names[len(rows) :])
            break
    if progress is not None:
        progress(Progress(len(rows), total, "engines"))
    return rows


def _engine_listener(
    progress: ProgressCallback, done: int, total: int, name: str, run: Run
) -> Callable[[str, int | None], None]:
    def heard(what: str, bound: int | None) -> None:
        text = f"{name}: {what}, {run.elapsed():.0f} s"
        progress(Progress(done, total, "engines", text))

    return heard
