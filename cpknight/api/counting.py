"""The front door for counting tours: one count, or a CP-SAT count in shards.

:func:`count_tours_sharded` splits the CP-SAT enumeration into shards
(:mod:`cpknight.counting.shards`) and runs them on the runner: its workers run
:func:`shard_row`.

Examples:
    >>> c = count_tours_sharded("3x4", closed=False, shards=4)
    >>> str(c.count.status), c.count.directed, c.count.undirected, c.shards >= 4
    ('found', 16, 8, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from cpknight.api.common import BoardLike, resolve
from cpknight.api.tours import count_tours, task_key
from cpknight.board import Board, Cell, CellLike
from cpknight.counting import ShardedCount
from cpknight.engines import TourInstance
from cpknight.errors import InvalidInputError
from cpknight.pieces import KNIGHT, Leaper, PieceLike
from cpknight.results import TourCount
from cpknight.runner import RunOptions, Task, run_tasks
from cpknight.solving import SolveOptions
from cpknight.status import Status
from cpknight.tours.certificates import tour_certificate

__all__ = ["ShardedCount", "count_tours_sharded", "shard_row"]


def count_tours_sharded(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    shards: int = 16,
    options: SolveOptions | None = None,
    run: RunOptions | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ShardedCount:
    """Count tours by CP-SAT enumeration in independent shards, summed exactly.

    The shards fix the first moves of the counting model's circuit (see
    :mod:`cpknight.counting.shards`); they partition the tours, so the sum is
    the count :func:`~cpknight.api.count_tours` gives in one piece.

    Args:
        board: a finite board.
        piece: the leaper.
        closed: count closed tours or open ones.
        start: count only the tours from this cell.
        end: count only the tours to this cell (open tours).
        shards: how many shards to aim for (the first moves are fixed one
            more at a time until there are at least this many).
        options: the time limit applies to each shard.
        run: how to run the shards (local pool or Dask, results file, resume).
        progress: called as ``progress(done, total)`` over the shards.

    Returns:
        A :class:`ShardedCount`.

    Raises:
        InvalidBoardError, InvalidCellError, InvalidPieceError,
        InvalidInputError: bad input.
        RunInterrupted: Ctrl-C; the shards done are in the results file.

    Examples:
        >>> count_tours_sharded("5x5", closed=False, start="a1").count.directed
        304
    """
    began = time.perf_counter()
    if isinstance(shards, bool) or not isinstance(shards, int) or shards < 1:
        raise InvalidInputError(f"shards must be a positive int: {shards!r}")
    resolved, leaper = resolve(board, piece)
    resolved.require_finite("counting tours")
    start_cell = None if start is None else resolved.parse_cell(start)
    end_cell = None if end is None else resolved.parse_cell(end)
    if closed and end_cell is not None:
        raise InvalidInputError("a closed tour has no separate end cell; drop 'end'")
    instance = TourInstance(
        resolved, leaper, closed=closed, start=start_cell, end=end_cell
    )
    opts = options or SolveOptions()
    small = instance.graph.n_nodes < (3 if closed else 2)
    if small or tour_certificate(
        instance.graph, closed=closed, start=start_cell, end=end_cell
    ):
        whole = count_tours(
            resolved,
            piece=leaper,
            closed=closed,
            start=start_cell,
            end=end_cell,
            options=opts,
        )
        return ShardedCount(whole, 1)
    from cpknight.counting.shards import shard_chains  # OR-Tools, on use

    chains = shard_chains(instance, shards)
    tasks = [
        Task(
            _key(resolved, leaper, closed, start_cell, end_cell, chain, opts),
            "cpknight.api.counting:shard_row",
            (resolved, leaper, closed, start_cell, end_cell, chain, opts),
        )
        for chain in chains
    ]
    rows = run_tasks(tasks, run, progress=progress)
    unfinished = sum(1 for row in rows if row["status"] != "found")
    total = TourCount(
        Status.FOUND if not unfinished else Status.UNKNOWN,
        sum(int(row.get("directed", 0)) for row in rows),
        sum(int(row.get("undirected", 0)) for row in rows),
        time.perf_counter() - began,
    )
    return ShardedCount(total, len(chains), unfinished)


def shard_row(
    board: Board,
    piece: Leaper,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    chain: tuple[int, ...],
    options: SolveOptions,
) -> dict[str, Any]:
    """One shard's count as a row (status, directed, undirected, seconds).

    What a runner's worker runs for one shard of :func:`count_tours_sharded`.
    """
    from cpknight.counting.shards import count_shard  # OR-Tools, on use

    run = options.start()
    instance = TourInstance(board, piece, closed=closed, start=start, end=end)
    count = count_shard(instance, chain, run)
    return {
        "question": "count",
        "status": str(count.status),
        "directed": count.directed,
        "undirected": count.undirected,
        "seconds": round(count.seconds, 6),
    }


def _key(
    board: Board,
    piece: Leaper,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    chain: tuple[int, ...],
    options: SolveOptions,
) -> str:
    limit = "none" if options.time_limit is None else f"{options.time_limit:g} s"
    arcs = ",".join(map(str, chain))
    instance = task_key("count", board, piece, closed, start, end)
    return f"{instance} shard [{arcs}], limit {limit}"
