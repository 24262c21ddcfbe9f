"""Counting tours by a frontier (transfer-matrix) dynamic program.

The cells are added one at a time in a fixed order (row by row along the long
side, so that a row spans the short side). When a cell is added, the program
decides which of its moves to cells added earlier are used; a cell added
earlier leaves the *frontier* once all its neighbours are in, and then its
degree is final: 2 (inside the tour) or, for an open tour, 1 (an end). Partial
solutions are grouped by what the cells still to come can see, the *state*:
for every frontier cell, whether it has degree 0, is full (degree 2, or an end
whose degree is final), or is one end of a partial path, and then which
frontier cell is the other end of that path (or that the other end is already
a tour end, *dangling*). For open tours the state also holds how many free
ends have been used. A move that would close a cycle is allowed only as the
last move of a closed tour. The number of partial solutions per state is an
exact integer; the count is the sum over the states left after the last cell.

The cost grows exponentially with the frontier's width (about two rows of the
short side for the knight: 14 cells on 6 x n, the new one included) but only
linearly with the long side. The counts of knight tours on strips were
obtained this way (the comment on OEIS A175881; Knuth, TAOCP 7.2.2.1, does
the same with ZDDs).

Two kernels run the same program: a plain one over a dict of states (small
instances, and the reference in the tests) and a numpy one that moves every
state of a step at once (:mod:`cpknight.counting.frontier_numpy`).

Examples:
    >>> from cpknight.pieces import move_graph
    >>> plan = plan_frontier(move_graph("5x6"), closed=True)
    >>> plan.width, len(plan.order), plan.rows
    (12, 30, (5, 5, 5, 5, 5, 5))
    >>> count_frontier_dict(plan)[0]  # undirected closed tours of 5x6
    8
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from cpknight.board import Cell
from cpknight.engines import TourInstance
from cpknight.errors import InvalidInputError, SolveLimitError
from cpknight.pieces import MoveGraph
from cpknight.results import FrontierStats, TourCount
from cpknight.solving import Run
from cpknight.status import Status

__all__ = [
    "DANGLING",
    "DEFAULT_MEMORY_MB",
    "DEG0",
    "FULL",
    "MATE",
    "MAX_WIDTH",
    "FrontierPlan",
    "FrontierStep",
    "count_frontier_dict",
    "count_tours",
    "frontier_formulation",
    "frontier_width",
    "plan_frontier",
]

DEG0 = 0
"""Slot code: the cell has no move yet (a path of one cell, its own other end)."""
FULL = 1
"""Slot code: the cell takes no more moves (degree 2, or a tour end)."""
DANGLING = 2
"""Slot code: one end of a path whose other end is already a tour end."""
MATE = 3
"""Slot codes ``MATE + p``: one end of a path whose other end is slot ``p``."""


@dataclass(frozen=True)
class FrontierStep:
    """One cell added: its moves back into the frontier, and who leaves after.

    Attributes:
        node: the move-graph node added (it takes the last slot).
        width: the frontier's width while the cell is added (with it).
        back: the slots of the earlier neighbours it may join, in slot order.
        cap: how many moves the new cell may take (1 for a fixed tour end).
        ends: the slots (of the ``width``) holding fixed tour ends.
        leaving: the slots (of the ``width``) that leave after this step,
            ascending: cells with no neighbour still to come.
        short: the slots that stay (numbered after the leavers are gone) of
            cells that are not fixed ends and have one neighbour still to
            come: such a cell with no move yet can only become a tour end.
    """

    node: int
    width: int
    back: tuple[int, ...]
    cap: int
    ends: tuple[int, ...]
    leaving: tuple[int, ...]
    short: tuple[int, ...] = ()


@dataclass(frozen=True)
class FrontierPlan:
    """The order the cells are added in and what each step sees.

    Attributes:
        closed: closed tours (circuits) or open ones (paths).
        ends: the fixed tour ends (nodes), 0, 1 or 2 of them.
        free_ends: how many ends an open tour may place on cells not in
            ``ends`` (``2 - len(ends)``; 0 for closed tours).
        order: the nodes in the order they are added.
        steps: one :class:`FrontierStep` per node.
        axes: the axis order of the cell order (the major axis first).
        rows: how many cells each row (one value of the major axis) has.
    """

    closed: bool
    ends: tuple[int, ...]
    free_ends: int
    order: tuple[int, ...]
    steps: tuple[FrontierStep, ...]
    axes: tuple[int, ...]
    rows: tuple[int, ...]

    @property
    def width(self) -> int:
        """The widest frontier (slots), the exponent of the method's cost."""
        return max((s.width for s in self.steps), default=0)

    def widths(self) -> list[int]:
        """The frontier's width at every step."""
        return [s.width for s in self.steps]


def frontier_width(graph: MoveGraph) -> int:
    """The width of the narrowest frontier :func:`plan_frontier` would plan.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> frontier_width(move_graph("6x40")), frontier_width(move_graph("8x8"))
        (14, 18)
    """
    return min(
        max(_widths(graph, _order(graph, axes)), default=0)
        for axes in itertools.permutations(range(graph.board.dim))
    )


def plan_frontier(
    graph: MoveGraph,
    *,
    closed: bool,
    start: Cell | None = None,
    end: Cell | None = None,
) -> FrontierPlan:
    """The cell order with the narrowest frontier, and the steps it gives.

    Every axis order of the board is tried (rows along the short side come out
    narrowest on rectangles; on a cylinder the wrapped axis is best kept within
    a row); the one with the smallest widest frontier, then the smallest sum of
    widths, wins.

    Args:
        graph: the move graph.
        closed: closed tours or open ones.
        start: a fixed first cell (open tours: a fixed end).
        end: a fixed last cell (open tours).

    Returns:
        The plan.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> p = plan_frontier(move_graph("8x5"), closed=True)
        >>> p.axes, p.width  # rows of 5 cells, eight of them
        ((0, 1), 12)
    """
    dim = graph.board.dim
    best: tuple[tuple[int, int], tuple[int, ...], list[int]] | None = None
    for axes in itertools.permutations(range(dim)):
        order = _order(graph, axes)
        widths = _widths(graph, order)
        key = (max(widths, default=0), sum(widths))
        if best is None or key < best[0]:
            best = (key, axes, order)
    assert best is not None
    _, axes, order = best
    ends: list[int] = []
    if not closed:
        for cell in (start, end):
            if cell is not None:
                ends.append(graph.node(cell))
    return _plan(graph, order, axes, closed=closed, ends=tuple(ends))


def _order(graph: MoveGraph, axes: Sequence[int]) -> list[int]:
    """The nodes sorted by their cells' coordinates along ``axes`` (major first)."""
    cells = graph.cells
    keys = [cells[:, a] for a in reversed(axes)]
    return [int(i) for i in np.lexsort(keys)] if len(cells) else []


def _widths(graph: MoveGraph, order: Sequence[int]) -> list[int]:
    """The frontier width at each step of ``order`` (the new cell included)."""
    n = len(order)
    pos = np.empty(n, dtype=np.int64)
    pos[np.asarray(order, dtype=np.int64)] = np.arange(n)
    leave = pos.copy()
    tails, heads = graph.arcs()
    np.maximum.at(leave, tails, pos[heads])
    # slots in use at step i: nodes with pos <= i <= leave
    delta = np.zeros(n + 1, dtype=np.int64)
    np.add.at(delta, pos, 1)
    np.add.at(delta, leave + 1, -1)
    return [int(x) for x in np.cumsum(delta)[:n]]


def _plan(
    graph: MoveGraph,
    order: Sequence[int],
    axes: tuple[int, ...],
    *,
    closed: bool,
    ends: tuple[int, ...],
) -> FrontierPlan:
    n = len(order)
    pos = {node: i for i, node in enumerate(order)}
    leave = {}
    for node in order:
        later = [pos[int(u)] for u in graph.neighbors(node)]
        leave[node] = max([pos[node], *later])
    frontier: list[int] = []
    steps = []
    for i, node in enumerate(order):
        slot_of = {u: s for s, u in enumerate(frontier)}
        back = tuple(
            sorted(slot_of[int(u)] for u in graph.neighbors(node) if pos[int(u)] < i)
        )
        frontier.append(node)
        leaving = tuple(s for s, u in enumerate(frontier) if leave[u] == i)
        staying = [u for u in frontier if leave[u] != i]
        short = tuple(
            s
            for s, u in enumerate(staying)
            if u not in ends and sum(pos[int(w)] > i for w in graph.neighbors(u)) == 1
        )
        steps.append(
            FrontierStep(
                node=node,
                width=len(frontier),
                back=back,
                cap=1 if node in ends else 2,
                ends=tuple(s for s, u in enumerate(frontier) if u in ends),
                leaving=leaving,
                short=short,
            )
        )
        gone = set(leaving)
        frontier = [u for s, u in enumerate(frontier) if s not in gone]
    assert not frontier or n == 0
    major = [int(graph.cells[node, axes[0]]) for node in order] if axes else []
    rows = tuple(len(list(g)) for _, g in itertools.groupby(major))
    return FrontierPlan(
        closed=closed,
        ends=ends,
        free_ends=0 if closed else 2 - len(ends),
        order=tuple(order),
        steps=tuple(steps),
        axes=axes,
        rows=rows,
    )


DEFAULT_MEMORY_MB = 2048.0
"""The memory budget of a frontier count unless told otherwise (MB)."""

MAX_WIDTH = 30
"""The widest frontier the program takes at all (its states are packed in
two 64-bit words): a knight on boards up to 14 cells across."""

_BYTES_PER_STATE = {"dict": 240, "numpy": 256}
"""What one live state costs, about, in each kernel, with the working arrays
of the next step (a few choices per state, each a row of codes, keys, sort
order, source index and count limbs): the memory budget divided by it is the
most live states allowed."""

ProgressCallback = Callable[[TourCount], None]


def count_tours(
    instance: TourInstance,
    run: Run,
    *,
    memory_mb: float | None = None,
    progress: ProgressCallback | None = None,
    kernel: str = "auto",
    prefixes: bool = False,
) -> TourCount:
    """Count the tours of an instance by the frontier program.

    Conventions as :func:`cpknight.counting.cpsat.count_tours`: ``directed``
    counts a tour and its reverse separately, ``undirected`` once; an open
    tour with a fixed start or end has one direction.

    Args:
        instance: the tour instance (any board, topology and leaper; the width
            of the frontier decides whether it is practical).
        run: the run context; the clock is checked after every cell.
        memory_mb: the memory budget (MB) for the live states; the count
            stops (``unknown``) when they would pass it.
        progress: called with a partial count (no numbers, the frontier's
            figures so far) after every cell.
        kernel: ``'dict'`` (plain Python), ``'numpy'`` or ``'auto'``.
        prefixes: also count the tours of every prefix of the board (its
            first ``k`` rows along the long side, ``6x1`` .. ``6x20`` for
            ``6x20``) in the same run, into ``frontier.prefixes``.

    Returns:
        A :class:`~cpknight.results.TourCount` with its
        :class:`~cpknight.results.FrontierStats`; ``status`` is ``unknown``
        (and the numbers 0, no lower bound) when the time limit or the memory
        budget stopped it.

    Raises:
        InvalidInputError: the frontier is wider than :data:`MAX_WIDTH`;
            prefixes asked with fixed ends, or along a wrapped axis.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> from cpknight.solving import SolveOptions
        >>> inst = TourInstance(Board.parse("3x4"), KNIGHT, closed=False)
        >>> c = count_tours(inst, SolveOptions().start())
        >>> c.directed, c.undirected, c.frontier.width
        (16, 8, 8)
    """
    graph, closed, start, end = (
        instance.graph,
        instance.closed,
        instance.start,
        instance.end,
    )
    n = graph.n_nodes
    budget = DEFAULT_MEMORY_MB if memory_mb is None else float(memory_mb)
    if not budget > 0:
        raise InvalidInputError(
            f"the memory budget must be a positive number of MB: {memory_mb}"
        )
    plan = plan_frontier(graph, closed=closed, start=start, end=end)
    wide = f"the frontier of {graph.board.label} ({graph.piece.label}) is "
    if plan.width > MAX_WIDTH:
        raise InvalidInputError(
            f"{wide}{plan.width} cells wide; the frontier program takes at most "
            f"{MAX_WIDTH} (use --method cpsat)"
        )
    guess = estimated_states(plan.width, closed=closed)
    if guess * _BYTES_PER_STATE["numpy"] > 50 * budget * 2**20:
        raise InvalidInputError(
            f"{wide}{plan.width} cells wide: about {guess:.0e} live states, "
            f"far past the memory budget of {budget:g} MB (use --method cpsat, "
            "or a larger --memory)"
        )
    fixed_end = not closed and (start is not None or end is not None)
    factor = 1 if fixed_end else 2
    row_ends = list(itertools.accumulate(plan.rows))
    found: dict[int, int] = {}
    if prefixes:
        if start is not None or end is not None:
            raise InvalidInputError("prefix counts take no fixed start or end")
        if graph.board.wrap[plan.axes[0]]:
            raise InvalidInputError(
                f"the rows of {graph.board.label} wrap around: its prefixes "
                "are not boards of the same kind"
            )
        kernel = "numpy"
    if kernel == "auto":
        kernel = "dict" if plan.width <= 6 else "numpy"
    per_state = _BYTES_PER_STATE[kernel]
    live: list[int] = []
    tried = [0]

    def stats(stopped: str | None = None) -> FrontierStats:
        return FrontierStats(
            width=plan.width,
            steps=len(plan.steps),
            done=len(live),
            peak=max(live, default=1),
            live=tuple(live),
            axes=plan.axes,
            stopped=stopped,
            rows=plan.rows,
            widths=tuple(plan.widths()),
            tried=tried[0],
            prefixes=tuple(
                (k + 1, found[stop - 1])
                for k, stop in enumerate(row_ends)
                if stop - 1 in found
            ),
        )

    def partial(stopped: str | None = None, interrupted: bool = False) -> TourCount:
        return TourCount(
            Status.UNKNOWN,
            0,
            0,
            run.elapsed(),
            interrupted=interrupted,
            method="frontier",
            frontier=stats(stopped),
            counts_so_far=False,
        )

    def check(step: int, states: int, step_tried: int) -> None:
        live.append(states)
        tried[0] += step_tried
        if progress is not None:
            progress(partial())
        if states * per_state > budget * 2**20:
            raise _OverBudget(
                f"the memory budget of {budget:g} MB was reached after cell "
                f"{step + 1} of {len(plan.steps)} ({states} live states)"
            )
        run.check(f"counting tours: cell {step + 1} of {len(plan.steps)}")

    if (
        (start is not None and end is not None and start == end and n > 1)
        or n == 0
        or (closed and n < 3)
    ):
        undirected = 0
    elif n == 1:
        undirected = 1
    else:
        try:
            if kernel == "dict":
                undirected, _ = count_frontier_dict(plan, check)
            elif prefixes:
                from cpknight.counting.frontier_numpy import count_prefixes_numpy

                found.update(
                    count_prefixes_numpy(plan, [e - 1 for e in row_ends], check)
                )
                undirected = found[len(plan.steps) - 1]
            else:
                from cpknight.counting.frontier_numpy import count_frontier_numpy

                undirected, _ = count_frontier_numpy(plan, check)
        except (SolveLimitError, _OverBudget) as exc:
            return partial(str(exc))
        except KeyboardInterrupt:
            return partial("interrupted", interrupted=True)
    if n == 1 or fixed_end:
        return TourCount(
            Status.FOUND,
            undirected,
            undirected,
            run.elapsed(),
            method="frontier",
            frontier=stats(),
        )
    return TourCount(
        Status.FOUND,
        factor * undirected,
        undirected,
        run.elapsed(),
        method="frontier",
        frontier=stats(),
    )


def estimated_states(width: int, *, closed: bool) -> float:
    """A rough guess of the peak live states of a knight count with this width.

    Measured: the peak grows about 5-fold per frontier cell (closed tours:
    178, 672, 56,497 and 1,436,836 at widths 8, 10, 12, 14, the strips 3, 4,
    5 and 6 cells across), and open tours have about 4 times more; short
    boards stay well below it. Only used to refuse what is far past the
    memory budget (fifty times over); the budget itself is checked on the
    live states after every cell.

    Examples:
        >>> f"{estimated_states(14, closed=True):.1e}"
        '1.4e+06'
    """
    return 1.4e6 * 5.0 ** (width - 14) * (1 if closed else 4)


class _OverBudget(Exception):
    """The live states would pass the memory budget."""


def frontier_formulation(graph: MoveGraph, plan: FrontierPlan) -> str:
    """The frontier program of an instance, printed with its own numbers.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph("3x4")
        >>> text = frontier_formulation(g, plan_frontier(g, closed=True))
        >>> print(text.splitlines()[0])
        frontier program: closed tours of 3x4 (knight (1,2)), 12 cells
    """
    board = graph.board
    kind = "closed" if plan.closed else "open"
    name = board.cell_name
    ends = ", ".join(name(graph.cell(e)) for e in plan.ends) or "none"
    axis = plan.axes[0] if plan.axes else 0
    lines = [
        f"frontier program: {kind} tours of {board.label} ({graph.piece.label}), "
        f"{len(plan.order)} cells",
        f"order: {len(plan.rows)} rows along axis {axis} of "
        f"{max(plan.rows, default=0)} cells, row by row (the short side across)",
        f"fixed tour ends: {ends}; free ends: {plan.free_ends}",
        "state: one code per frontier cell (a cell added whose moves are not all",
        "  decided): 0 no move yet, 1 full (degree 2, or a tour end), 2 a path end",
        "  whose other end is a tour end, 3+p a path end whose other end is slot p;",
        "  and the free ends used so far (open tours). Count: exact integers.",
        "step: add the next cell; join it to at most 2 (1 for a fixed end) of its",
        "  earlier neighbours that are not full, never closing a cycle except as",
        "  the last move of a closed tour; cells with no neighbour still to come",
        "  leave the frontier and must be full (or, open tours, become an end).",
        f"widest frontier: {plan.width} cells (cost grows about like c^width; "
        f"steps: {len(plan.steps)}, one per cell)",
    ]
    rows: list[list[object]] = []
    at = 0
    for number, cells in enumerate(plan.rows, start=1):
        steps = plan.steps[at : at + cells]
        choices = [
            sum(
                len(list(itertools.combinations(s.back, k)))
                for k in range(min(s.cap, len(s.back)) + 1)
            )
            for s in steps
        ]
        first = name(graph.cell(steps[0].node))
        last = name(graph.cell(steps[-1].node))
        rows.append(
            [number, f"{first}..{last}", max(s.width for s in steps), max(choices)]
        )
        at += cells
    from cpknight.render import table_text

    lines.append(table_text(["row", "cells", "widest", "choices per cell"], rows))
    return "\n".join(lines)


# ------------------------------------------------------------ the dict kernel

State = tuple[int, tuple[int, ...]]
"""A state: (free ends used, the slot codes)."""


def count_frontier_dict(
    plan: FrontierPlan,
    check: Callable[[int, int, int], None] | None = None,
) -> tuple[int, list[int]]:
    """Run the program over a dict of states (plain Python, exact ints).

    Args:
        plan: the cell order and its steps.
        check: called as ``check(step, live_states, tried)`` after every step
            (the deadline check and the progress report; ``tried``: the
            state-and-choice pairs the step looked at).

    Returns:
        The number of undirected tours (each edge set once) and the number of
        live states after every step.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> count_frontier_dict(plan_frontier(move_graph("3x4"), closed=False))[0]
        8
    """
    states: dict[State, int] = {(0, ()): 1}
    live: list[int] = []
    last = len(plan.steps) - 1
    total = 0
    for i, step in enumerate(plan.steps):
        new: dict[State, int] = {}
        tried = 0
        for (used, codes), count in states.items():
            base = [*codes, DEG0]
            for chosen in _choices(step, base):
                tried += 1
                out = _apply(plan, step, base, used, chosen, i == last)
                if out is None:
                    continue
                if out[0] < 0:  # a finished tour
                    total += count
                    continue
                new[out] = new.get(out, 0) + count
        states = new
        live.append(len(states))
        if check is not None:
            check(i, len(states), tried)
    return total, live


def _choices(step: FrontierStep, codes: list[int]) -> list[tuple[int, ...]]:
    open_back = [s for s in step.back if codes[s] != FULL]
    found: list[tuple[int, ...]] = []
    for k in range(min(step.cap, len(open_back)) + 1):
        found.extend(itertools.combinations(open_back, k))
    return found


def _partner(codes: list[int], x: int) -> int:
    """The other end of the path ending at slot ``x`` (-1: dangling)."""
    c = codes[x]
    if c == DEG0:
        return x
    if c == DANGLING:
        return -1
    return c - MATE


def _apply(
    plan: FrontierPlan,
    step: FrontierStep,
    base: list[int],
    used: int,
    chosen: tuple[int, ...],
    last: bool,
) -> State | None:
    """The state after joining the new cell to ``chosen``; None if it dies.

    A finished tour (legal only at the last step) comes back as ``(-1, ())``.
    """
    codes = list(base)
    v = len(codes) - 1
    done = False
    for u in chosen:
        pu, pv = _partner(codes, u), _partner(codes, v)
        if pu == v:  # u and v are the two ends of one path: a cycle
            if not (plan.closed and last):
                return None
            codes[u] = codes[v] = FULL
            done = True
            continue
        if codes[u] != DEG0:
            codes[u] = FULL
        if codes[v] != DEG0:
            codes[v] = FULL
        if pu < 0 and pv < 0:
            done = True
        if pu >= 0:
            codes[pu] = DANGLING if pv < 0 else MATE + pv
        if pv >= 0:
            codes[pv] = DANGLING if pu < 0 else MATE + pu
    # a fixed tour end takes one move, and is then a tour end
    for x in step.ends:
        if codes[x] >= DANGLING:
            if codes[x] == DANGLING:
                done = True
            else:
                codes[codes[x] - MATE] = DANGLING
            codes[x] = FULL
    for x in step.leaving:
        c = codes[x]
        if c == FULL:
            continue
        if c == DEG0 or plan.closed or used >= plan.free_ends:
            return None
        used += 1
        if c == DANGLING:
            done = True
        else:
            codes[c - MATE] = DANGLING
        codes[x] = FULL
    if done:
        return (-1, ()) if last else None
    gone = set(step.leaving)
    new_pos = []
    k = 0
    for s in range(len(codes)):
        new_pos.append(k)
        if s not in gone:
            k += 1
    kept = tuple(
        c if c < MATE else MATE + new_pos[c - MATE]
        for s, c in enumerate(codes)
        if s not in gone
    )
    return (used, kept)
