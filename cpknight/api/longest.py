"""Front doors for the optimisation puzzles: the longest uncrossed or induced path."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

from cpknight.api.common import (
    BoardLike,
    attempt_or_refuse,
    each_engine,
    listen_to_solve,
    method_names,
    resolve,
    solve_options,
)
from cpknight.engines import attempt, solve_with
from cpknight.errors import InvalidInputError
from cpknight.longest import ENGINES as LONGEST_METHODS
from cpknight.longest.common import LongestInstance, LongestPath, is_longest_kind
from cpknight.pieces import KNIGHT, PieceLike
from cpknight.results import Comparison, Outcome
from cpknight.runtime.memory import budget_mb
from cpknight.runtime.progress import ProgressLike, progress_bar
from cpknight.solving import Run, SolveOptions

__all__ = ["compare_longest", "longest_path", "try_longest"]

AUTO_SEARCH_CELLS = {"uncrossed": 100, "induced": 49}
"""``auto`` runs the search on boards of at most this many open cells, else
CP-SAT: the search proves uncrossed paths where CP-SAT stalls (6x6, 7x7) and
induced cycles up to 7x7 faster; CP-SAT wins the 8x8 induced cycle and gives
a proved bound on larger boards (``benchmarks/longest.py``)."""


AUTO_COMPILED_SNAKE_CELLS = 64
"""``auto`` runs the search on induced puzzles of at most this many open cells
when the search's compiled snakes are built (``cpknight warm``): they prove
the 8x8 snake cycle (32) in 0.6 s and path (34 cells) in 1.2 s, where CP-SAT
takes 21 s for the cycle and has not proved the path in 120 s (one worker;
``benchmarks/longest.py --kernels``)."""


def longest_path(
    board: BoardLike,
    *,
    kind: str,
    closed: bool = False,
    piece: PieceLike = KNIGHT,
    method: str = "auto",
    crossings: Literal["cliques", "pairwise"] = "cliques",
    cuts: bool = False,
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    progress: ProgressLike = None,
) -> LongestPath:
    """The longest uncrossed or induced path (or cycle) of a leaper on a board.

    Args:
        board: a finite board (uncrossed: bounded and 2D).
        kind: ``'uncrossed'`` (no two drawn moves cross; OEIS A003192) or
            ``'induced'`` (no move joins two non-consecutive cells; a snake;
            OEIS A165143 for cycles).
        closed: a cycle rather than a path.
        piece: the leaper.
        method: ``'cpsat'``, ``'search'`` (depth-first branch and bound),
            ``'frontier'`` (a transfer-matrix program keeping the most moves)
            or ``'auto'`` (the frontier program on uncrossed cycles and
            strips 5 to 7 cells across, see :data:`AUTO_FRONTIER_SIDES`; else
            the search on small boards, else CP-SAT; see
            :data:`AUTO_SEARCH_CELLS` and, for snakes once the search's
            compiled kernel is built, :data:`AUTO_COMPILED_SNAKE_CELLS`).
        crossings: how CP-SAT writes the crossings, ``'cliques'`` or
            ``'pairwise'``.
        cuts: CP-SAT adds the reflection and colour-balance cuts.
        options: time limit, workers, seed.
        time_limit: seconds, model building included (replaces the
            one in ``options``).
        progress: ``True`` for a progress bar (``tqdm.auto``), or a callback
            called with a :class:`~cpknight.runtime.progress.Progress` now and then.

    Returns:
        A checked :class:`~cpknight.longest.common.LongestPath`: ``optimal``
        (proved longest) or ``feasible`` (best found at the limit, with a
        proved upper ``bound``).

    Raises:
        NoPathError: proved that there is no such cycle.
        SolveLimitError: nothing found by the limit.
        InvalidInputError: bad input, or an uncrossed path on a torus,
            cylinder or 3D board.

    Examples:
        >>> p = longest_path("5x5", kind="uncrossed", closed=False)
        >>> str(p.status), p.moves  # OEIS A003192: 10 on 5x5
        ('optimal', 10)
        >>> longest_path("3x3", kind="induced", closed=True).moves  # A165143
        8
    """
    instance = _instance(board, kind, closed, piece, crossings, cuts)
    opts = solve_options(options, time_limit)
    engine = LONGEST_METHODS.engine(_pick(instance, method, opts.time_limit))
    _refuse_early(instance, engine.name)
    with progress_bar(
        progress, desc=f"longest {kind}", unit="s", total=opts.time_limit
    ) as tick:
        run = opts.start()
        listen_to_solve(run, tick)
        found: LongestPath = solve_with(engine, instance, run)
    return found


def try_longest(
    board: BoardLike,
    *,
    kind: str,
    closed: bool = False,
    piece: PieceLike = KNIGHT,
    method: str = "auto",
    crossings: Literal["cliques", "pairwise"] = "cliques",
    cuts: bool = False,
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    progress: ProgressLike = None,
) -> Outcome:
    """Like :func:`longest_path`, every ending an outcome (what the CLI runs).

    Examples:
        >>> o = try_longest("3x3", kind="uncrossed", closed=True, method="search")
        >>> str(o.status), o.value is None
        ('infeasible', True)
    """
    instance = _instance(board, kind, closed, piece, crossings, cuts)
    opts = solve_options(options, time_limit)
    engine = LONGEST_METHODS.engine(_pick(instance, method, opts.time_limit))
    _refuse_early(instance, engine.name)
    with progress_bar(
        progress, desc=f"longest {kind}", unit="s", total=opts.time_limit
    ) as tick:
        run = opts.start()
        listen_to_solve(run, tick)
        return attempt(engine, instance, run)


def compare_longest(
    board: BoardLike,
    *,
    kind: str,
    closed: bool = False,
    piece: PieceLike = KNIGHT,
    methods: str | Sequence[str] = "all",
    crossings: Literal["cliques", "pairwise"] = "cliques",
    cuts: bool = False,
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    progress: ProgressLike = None,
) -> Comparison:
    """Every engine on one longest-path question, one outcome each.

    ``methods='all'`` runs CP-SAT with both crossing forms (``cpsat`` with
    cliques, ``cpsat-pairwise``) on uncrossed paths, and the search.

    Examples:
        >>> c = compare_longest(
        ...     "4x4", kind="induced", closed=False, methods="cpsat,search"
        ... )
        >>> [o.value.moves for o in c.rows]
        [8, 8]
    """
    instance = _instance(board, kind, closed, piece, crossings, cuts)
    # Each engine's row; on uncrossed paths "all" runs CP-SAT in both forms.
    forms: dict[str, tuple[str, Literal["cliques", "pairwise"]]] = {}
    options = solve_options(options, time_limit)
    for name in method_names(LONGEST_METHODS, methods):
        engine = _pick(instance, name, options.time_limit)
        forms[engine] = (engine, instance.crossings)
        if engine == "cpsat" and kind == "uncrossed" and methods == "all":
            forms[engine] = (engine, "cliques")
            forms["cpsat-pairwise"] = (engine, "pairwise")

    def one(label: str, run: Run) -> Outcome:
        engine, form = forms[label]
        inst = dataclasses.replace(instance, crossings=form)
        row = attempt_or_refuse(LONGEST_METHODS[engine], inst, run)
        return dataclasses.replace(row, method=label) if label != engine else row

    bar = progress_bar(progress, desc="longest", unit="engines", total=len(forms))
    with bar as tick:
        rows = each_engine("longest", list(forms), options, one, tick)
    return Comparison(
        "longest",
        {
            "board": instance.board.label,
            "piece": list(instance.piece.vector),
            "kind": instance.kind,
            "closed": instance.closed,
            "time_limit": options.time_limit,
        },
        tuple(rows),
    )


AUTO_FRONTIER_SIDES = (5, 7)
"""``auto`` runs the frontier program on uncrossed paths and cycles of bounded
2D boards whose short side is within these (its frontier stays within 16
cells; its cost grows only linearly with the long side), when the compiled
kernel is at hand (``cpknight[fast]``), except on the 5x5 and 6x6 paths, where
the search is faster (6x6: 0.3 s against 0.5 s). Measured
(``benchmarks/longest.py --frontier`` and ``--rectangles 9``): the 7x7 path
(24) in 18 s against the search's 34 s, the 7x7 cycle (24 moves, A157416) in
2.3 s against 8.9 s; paths on 5x9 in 0.5 s against 12.7 s, 6x8 in 7 s against
41 s, 6x9 (29) and 7x8 (30) proved in 13 s and 157 s where the search has 28
and 29 after 60 s."""

AUTO_FRONTIER_EIGHT = {False: (600.0, 13000.0), True: (35.0, 1500.0)}
"""Eight across, the frontier program's seconds on one thread and peak memory
(MB) on 8x8, for a path and for a cycle. Measured: the 35-move path proved
in 599 s on one thread (466 s on two) with 12.8 GB at the peak; the 32-move
cycle in 35 s on one thread (23 s on two) with 1.4 GB. ``auto`` runs it on
an uncrossed 8 x n question (n >= 8) when the memory budget holds that peak
and the time limit (none, or at least half as long again as those seconds
grown with n / 8) lets it finish; otherwise the search, which at least hands
back a path."""


def _pick(
    instance: LongestInstance, method: str, time_limit: float | None = None
) -> str:
    if method != "auto":
        return method
    board = instance.board
    if _frontier_fits(instance, time_limit) and _compiled():
        return "frontier"
    most = AUTO_SEARCH_CELLS[instance.kind]
    if instance.kind == "induced" and _snakes_compiled(instance):
        most = AUTO_COMPILED_SNAKE_CELLS
    return "search" if board.n_open <= most else "cpsat"


def _frontier_fits(instance: LongestInstance, time_limit: float | None) -> bool:
    """Whether ``auto`` should run the frontier program (see the figures above)."""
    board = instance.board
    if instance.kind != "uncrossed" or board.dim != 2:
        return False
    low, high = AUTO_FRONTIER_SIDES
    short, long = sorted(board.shape)
    if low <= short <= high:
        return instance.closed or long > short or short == high
    if short != high + 1 or instance.piece != KNIGHT or board.blocked:
        return False
    seconds, mb = AUTO_FRONTIER_EIGHT[instance.closed]
    soon = time_limit is None or time_limit >= 1.5 * seconds * long / 8
    return soon and budget_mb() >= mb


def _compiled() -> bool:
    """Whether the frontier program's compiled kernel can run (numba imports)."""
    from cpknight.longest.frontier_kernels import NUMBA, choose_longest_kernel

    return choose_longest_kernel() == NUMBA.name


def _snakes_compiled(instance: LongestInstance) -> bool:
    """Whether the search would run its compiled snakes (built, numba found)."""
    from cpknight.longest.search import choose_search_kernel

    return choose_search_kernel(instance) == "numba"


def _refuse_early(instance: LongestInstance, method: str) -> None:
    """Refuse what the board's shape alone rules out, before any graph is built.

    Raises:
        ModelTooBigError: the frontier program on a board too wide for it.
    """
    if method == "frontier":
        from cpknight.longest.frontier import check_frontier_shape

        check_frontier_shape(instance.board, instance.piece)


def _instance(
    board: BoardLike,
    kind: str,
    closed: bool,
    piece: PieceLike,
    crossings: str,
    cuts: bool,
) -> LongestInstance:
    resolved, leaper = resolve(board, piece)
    resolved.require_finite("a longest path")
    which = is_longest_kind(kind)
    if crossings not in ("cliques", "pairwise"):
        raise InvalidInputError(
            f"expected crossings 'cliques' or 'pairwise': {crossings!r}"
        )
    if which == "uncrossed":
        from cpknight.longest.geometry import require_drawable

        require_drawable(resolved)
    if resolved.n_open == 0:
        raise InvalidInputError(f"board {resolved.label} has no open cell")
    form: Literal["cliques", "pairwise"] = (
        "pairwise" if crossings == "pairwise" else "cliques"
    )
    return LongestInstance(
        board=resolved,
        piece=leaper,
        kind=which,
        closed=closed,
        crossings=form,
        cuts=cuts,
    )
