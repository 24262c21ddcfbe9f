"""Sweeps of start and end pairs: from which cell to which does an open tour run?

Every unordered pair of open cells is one question (an open tour from ``s`` to
``e`` read backwards runs from ``e`` to ``s``, so the table is symmetric). The
cheap certificates (colour classes, cells of one move, forced cycles) answer
most pairs up front without solving; the rest go to the runner, one task each.

Examples:
    >>> p = sweep_pairs("3x4", method="prune")
    >>> p.counts()
    {'found': 7, 'infeasible': 59, 'unknown': 0}
    >>> str(p["a1", "d3"].status), p.certified
    ('found', 48)
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cpknight.api import resolve
from cpknight.api.common import BoardLike, solve_options, task_progress
from cpknight.api.tours import tour_task
from cpknight.board import Board, Cell, CellLike
from cpknight.errors import EngineError
from cpknight.pieces import KNIGHT, Leaper, PieceLike, move_graph
from cpknight.runner import (
    Row,
    RunInterrupted,
    RunOptions,
    Task,
    check_budget_fits,
    run_tasks,
)
from cpknight.runtime.progress import ProgressLike, TaskProgress, progress_bar
from cpknight.solving import SolveOptions
from cpknight.status import Effort, Status
from cpknight.study.common import row_fault
from cpknight.tours import ENGINES as TOUR_METHODS
from cpknight.tours.certificates import tour_certificate

__all__ = ["PairCell", "PairSweep", "sweep_pairs"]

CERTIFICATE = "certificate"
"""The ``method`` of a pair answered by a cheap certificate, without solving."""


@dataclass(frozen=True)
class PairCell:
    """One unordered pair of a pair sweep: is there an open tour from one to the other?

    Attributes:
        start: the first cell (the earlier in row-major order).
        end: the last cell.
        status: ``found``, ``infeasible`` or ``unknown``.
        method: the engine that answered, or ``'certificate'``.
        seconds: wall time (0 for a certificate).
        effort: what the engine counted.
        reason: why there is none, or why it stopped.
    """

    start: Cell
    end: Cell
    status: Status
    method: str
    seconds: float = 0.0
    effort: Effort = field(default_factory=Effort)
    reason: str | None = None


@dataclass(frozen=True, eq=False)
class PairSweep:
    """For every unordered pair of open cells: an open tour between them?

    Attributes:
        board: the board.
        piece: the leaper.
        method: the engine asked for the pairs no certificate answered.
        cells: the open cells, row-major (the table's rows and columns).
        pairs: one :class:`PairCell` per pair ``i < j`` of ``cells``, in order.
    """

    board: Board
    piece: Leaper
    method: str
    cells: tuple[Cell, ...]
    pairs: tuple[PairCell, ...]

    def counts(self) -> dict[str, int]:
        """How many pairs ended in each status."""
        out = {"found": 0, "infeasible": 0, "unknown": 0}
        for pair in self.pairs:
            out[str(pair.status)] = out.get(str(pair.status), 0) + 1
        return out

    @property
    def certified(self) -> int:
        """How many pairs a certificate answered without solving."""
        return sum(1 for pair in self.pairs if pair.method == CERTIFICATE)

    def __getitem__(self, ends: tuple[CellLike, CellLike]) -> PairCell:
        """The pair of two cells, in either order."""
        first, second = (self.board.parse_cell(c) for c in ends)
        for pair in self.pairs:
            if {pair.start, pair.end} == {first, second} and first != second:
                return pair
        raise KeyError(ends)

    def __iter__(self) -> Iterator[PairCell]:
        return iter(self.pairs)

    def ends_from(self) -> dict[Cell, int]:
        """For each cell, how many other cells an open tour from it can end on."""
        out = dict.fromkeys(self.cells, 0)
        for pair in self.pairs:
            if pair.status is Status.FOUND:
                out[pair.start] += 1
                out[pair.end] += 1
        return out

    def as_dict(self) -> dict[str, Any]:
        """``{"question", "instance", "counts", "certified", "rows"}``.

        Each row is an outcome row (:meth:`~cpknight.results.Outcome.as_dict`)
        with ``start`` and ``end``; ``cells`` is left out (the results file
        keeps the tours).

        Examples:
            >>> d = sweep_pairs("3x4", method="prune").as_dict()
            >>> d["counts"]["found"], sorted(d["rows"][0])[:4]
            (7, ['bound', 'cells', 'effort', 'end'])
        """
        rows = []
        for pair in self.pairs:
            rows.append(
                {
                    "question": "tour",
                    "method": pair.method,
                    "status": str(pair.status),
                    "seconds": round(float(pair.seconds), 6),
                    "effort": pair.effort.as_dict(),
                    "bound": None,
                    "reason": pair.reason,
                    "cells": None,
                    "start": list(pair.start),
                    "end": list(pair.end),
                }
            )
        return {
            "question": "pairs",
            "instance": {
                "board": self.board.label,
                "piece": list(self.piece.vector),
                "closed": False,
                "method": self.method,
            },
            "counts": self.counts(),
            "certified": self.certified,
            "rows": rows,
        }

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, a row per pair (see :mod:`cpknight.text.frames`)."""
        from cpknight.text.frames import pairs_frame

        return pairs_frame(self)

    def __str__(self) -> str:
        from cpknight.text.display import pairs_str

        return pairs_str(self)

    def _repr_html_(self) -> str:
        from cpknight.text.display import pairs_html

        return pairs_html(self)

    def _repr_svg_(self) -> str:
        """The table as an SVG picture, for notebooks."""
        from cpknight.draw.pairs import pairs_svg

        return pairs_svg(self)

    def __repr__(self) -> str:
        counts = ", ".join(f"{k} {v}" for k, v in self.counts().items())
        return f"<PairSweep {self.board.label} by {self.method}: {counts}>"


INTERRUPTED = "interrupted (Ctrl-C) before this pair was finished"
"""The reason of a pair Ctrl-C left unsolved."""


def sweep_pairs(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    method: str = "auto",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    run: RunOptions | None = None,
    progress: ProgressLike | TaskProgress = None,
    budget: float | None = None,
) -> PairSweep:
    """For every unordered pair of open cells: does an open tour join them?

    Args:
        board: a finite board.
        piece: the leaper.
        method: the engine for the pairs no certificate answers (a name in
            :data:`~cpknight.api.TOUR_METHODS`, or ``'auto'``).
        options: the time limit applies to each pair.
        time_limit: seconds per pair (replaces the one in ``options``).
        run: how to run the pairs (local pool or Dask, results file, resume).
        progress: ``True`` for a progress bar (``tqdm.auto``), or a callback
            called with a :class:`~cpknight.runtime.progress.Progress` over the
            solved pairs (the old ``progress(done, total)`` still works, deprecated).
        budget: seconds for the whole sweep, the certificates included; the
            pairs it leaves are ``unknown`` (each pair's limit is cut to what
            is left).

    Returns:
        A :class:`PairSweep`: one :class:`PairCell` per pair.

    Raises:
        InvalidBoardError, InvalidPieceError, InvalidInputError: bad input.
        RunInterrupted: Ctrl-C; the pairs done are in the results file.
        EngineError: a tour that came back fails the checker (a bug).

    Notes:
        ``n (n - 1) / 2`` pairs of ``n`` open cells (2016 on 8x8); on a
        bipartite move graph with classes of equal size only the pairs of
        opposite colours need solving (1024 on 8x8).

    Examples:
        >>> p = sweep_pairs("5x5", method="prune")
        >>> p.counts()["found"] > 0, p["a1", "e5"].status == "found"
        (True, True)
    """
    resolved, leaper = resolve(board, piece)
    resolved.require_finite("a pair sweep")
    if method != "auto":
        TOUR_METHODS.engine(method)
    opts = solve_options(options, time_limit)
    deadline = None
    if budget is not None:
        SolveOptions(time_limit=budget)  # the same check as a time limit
        deadline = time.time() + budget
    run = run or RunOptions()
    if deadline is not None:
        run = dataclasses.replace(run, deadline=deadline)
    n = resolved.n_open
    check_budget_fits(n * (n - 1) // 2, budget, f"a pair sweep of {resolved.label}")
    cells = tuple(resolved.open_cells())
    answered, slots, tasks = _certify_pairs(
        resolved, leaper, cells, method, opts, deadline
    )
    if any(cell.reason == INTERRUPTED for cell in answered.values()):
        # Ctrl-C among the certificates: nothing solved yet, nothing kept.
        stop = RunInterrupted(0, len(tasks), run.results, [None] * len(tasks))
        for where, task in zip(slots, tasks, strict=True):
            answered[where] = PairCell(
                task.args[3], task.args[4], Status.UNKNOWN, method, reason=INTERRUPTED
            )
        stop.partial = _pair_sweep(
            resolved, leaper, method, cells, answered, [], [], []
        )
        raise stop
    try:
        with progress_bar(progress, desc="pairs", unit="pairs") as tick:
            rows: list[Row | None] = list(
                run_tasks(tasks, run, progress=task_progress(tick, "pairs"))
            )
    except RunInterrupted as exc:
        for where, task, row in zip(slots, tasks, exc.rows, strict=True):
            if row is None:
                answered[where] = PairCell(
                    task.args[3],
                    task.args[4],
                    Status.UNKNOWN,
                    method,
                    reason=INTERRUPTED,
                )
        exc.partial = _pair_sweep(
            resolved, leaper, method, cells, answered, slots, tasks, exc.rows
        )
        raise
    return _pair_sweep(resolved, leaper, method, cells, answered, slots, tasks, rows)


def _pair_sweep(
    resolved: Board,
    leaper: Leaper,
    method: str,
    cells: tuple[Cell, ...],
    answered: dict[int, PairCell],
    slots: list[int],
    tasks: list[Task],
    rows: Sequence[Row | None],
) -> PairSweep:
    """The pair sweep from the certificates' answers and the rows (checked again)."""
    for where, task, row in zip(slots, tasks, rows, strict=True):
        if row is None:
            continue
        start, end = task.args[3], task.args[4]
        fault = row_fault(resolved, leaper, row, closed=False, start=start, end=end)
        if fault is not None:
            raise EngineError(f"internal error: {task.key}: {fault}")
        answered[where] = PairCell(
            start,
            end,
            Status(row["status"]),
            str(row.get("method", method)),
            float(row.get("seconds", 0.0)),
            Effort.from_dict(row.get("effort", {})),
            row.get("reason"),
        )
    return PairSweep(
        resolved,
        leaper,
        method,
        cells,
        tuple(answered[k] for k in range(len(answered))),
    )


def _certify_pairs(
    board: Board,
    leaper: Leaper,
    cells: tuple[Cell, ...],
    method: str,
    options: SolveOptions,
    deadline: float | None = None,
) -> tuple[dict[int, PairCell], list[int], list[Task]]:
    """The pairs a certificate rules out, and a task for every other pair.

    Pairs are numbered in order (each start with the cells after it); returns
    the answered pairs by number, and the numbers and tasks of the others.
    """
    graph = move_graph(board, leaper)
    answered: dict[int, PairCell] = {}
    tasks: list[Task] = []
    slots: list[int] = []
    slot = 0
    late = "the sweep's budget ran out before this pair"
    stopped = False
    for i, start in enumerate(cells):
        for end in cells[i + 1 :]:
            if stopped or (deadline is not None and time.time() >= deadline):
                why = INTERRUPTED if stopped else late
                answered[slot] = PairCell(
                    start, end, Status.UNKNOWN, method, reason=why
                )
                slot += 1
                continue
            try:
                found = tour_certificate(graph, closed=False, start=start, end=end)
            except KeyboardInterrupt:  # Ctrl-C: the pairs certified are kept
                stopped = True
                answered[slot] = PairCell(
                    start, end, Status.UNKNOWN, method, reason=INTERRUPTED
                )
                slot += 1
                continue
            if found is not None:
                answered[slot] = PairCell(
                    start, end, Status.INFEASIBLE, CERTIFICATE, reason=found.reason
                )
            else:
                slots.append(slot)
                tasks.append(
                    tour_task(
                        board, leaper, False, start, end, method, options, deadline
                    )
                )
            slot += 1
    return answered, slots, tasks
