"""The frontier plan: the order the cells are added in, and what each step sees.

The frontier program (a transfer-matrix dynamic program, run by
:mod:`cpknight.counting.frontier`) adds the cells one at a time in a fixed
order (row by row along the long side, so that a row spans the short side).
When a cell is added, the program decides which of its moves to cells added
earlier are used; a cell added earlier leaves the *frontier* once all its
neighbours are in, and then its degree is final: 2 (inside the tour) or, for an
open tour, 1 (an end). Partial solutions are grouped by what the cells still to
come can see, the *state*: for every frontier cell, whether it has degree 0, is
full (degree 2, or an end whose degree is final), or is one end of a partial
path, and then which frontier cell is the other end of that path (or that the
other end is already a tour end, *dangling*). For open tours the state also
holds how many free ends have been used. A move that would close a cycle is
allowed only as the last move of a closed tour.

This module holds what the kernels read: the plan (:class:`FrontierPlan`, one
:class:`FrontierStep` per cell), the moves a step may choose
(:func:`step_choices`), where a count can be cut and met in the middle
(:func:`default_cut`, :func:`meet_fits`) and the program printed with its own
numbers (:func:`frontier_formulation`). The slot codes of a state are in
:mod:`cpknight.frontier.slots`. The kernels: :mod:`cpknight.counting.dict_kernel`
(a dict of states, plain Python) and :mod:`cpknight.counting.numpy_kernel`
(every state of a step at once).

The cost grows exponentially with the frontier's width (about two rows of the
short side for the knight: 14 cells on 6 x n, the new one included) but only
linearly with the long side.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> plan = plan_frontier(move_graph("5x6"), closed=True)
    >>> plan.width, len(plan.order), plan.rows
    (12, 30, (5, 5, 5, 5, 5, 5))
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from cpknight.board import Board, Cell
from cpknight.errors import InvalidInputError
from cpknight.pieces import Leaper, MoveGraph

__all__ = [
    "MAX_WIDTH",
    "FrontierPlan",
    "FrontierStep",
    "StepCheck",
    "default_cut",
    "estimated_states",
    "frontier_after",
    "frontier_formulation",
    "frontier_width",
    "meet_fits",
    "plan_frontier",
    "plan_steps",
    "step_choices",
]

StepCheck = Callable[[int, int, int], None]
"""What a kernel calls after every step: ``check(step, live_states, tried)``
(``tried``: the state-and-choice pairs the step looked at). The driver's
deadline check, memory budget and progress report."""


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
    """The steps of ``order``: each cell added, then the cells done leave."""
    steps = plan_steps(lambda u: [int(w) for w in graph.neighbors(u)], order, ends=ends)
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


def plan_steps(
    neighbors: Callable[[int], Sequence[int]],
    order: Sequence[int],
    *,
    ends: tuple[int, ...] = (),
    keep: frozenset[int] = frozenset(),
) -> list[FrontierStep]:
    """The steps of adding the cells of ``order`` over the moves ``neighbors`` gives.

    A cell leaves the frontier once no neighbour is still to come. The cells
    of ``keep`` never leave and are never short: their other moves are decided
    elsewhere (the cut of a count met in the middle,
    :mod:`cpknight.counting.meet`).

    Examples:
        >>> path = {0: [1], 1: [0, 2], 2: [1]}
        >>> [s.leaving for s in plan_steps(path.__getitem__, [0, 1, 2])]
        [(), (0,), (0, 1)]
    """
    pos = {u: i for i, u in enumerate(order)}
    frontier: list[int] = []
    steps = []
    for node in order:
        i = pos[node]
        near = set(neighbors(node))
        back = sorted(s for s, u in enumerate(frontier) if u in near)
        frontier.append(node)
        later = [sum(pos.get(w, -1) > i for w in neighbors(u)) for u in frontier]
        leaving = tuple(
            s for s, u in enumerate(frontier) if not later[s] and u not in keep
        )
        gone = set(leaving)
        staying = [s for s in range(len(frontier)) if s not in gone]
        short = tuple(
            k
            for k, s in enumerate(staying)
            if frontier[s] not in ends and frontier[s] not in keep and later[s] == 1
        )
        steps.append(
            FrontierStep(
                node=node,
                width=len(frontier),
                back=tuple(back),
                cap=1 if node in ends else 2,
                ends=tuple(s for s, u in enumerate(frontier) if u in ends),
                leaving=leaving,
                short=short,
            )
        )
        frontier = [frontier[s] for s in staying]
    return steps


MAX_WIDTH = 30
"""The widest frontier the program takes at all (its states are packed in
two 64-bit words): a knight on boards up to 14 cells across."""


def step_choices(back: Sequence[int], cap: int) -> list[tuple[int, ...]]:
    """The ways a new cell can join earlier cells: subsets of ``back``, ``cap`` at most.

    Examples:
        >>> step_choices((0, 2, 5), 2)
        [(), (0,), (2,), (5,), (0, 2), (0, 5), (2, 5)]
    """
    found: list[tuple[int, ...]] = []
    for k in range(min(cap, len(back)) + 1):
        found.extend(itertools.combinations(back, k))
    return found


def narrowest_width(board: Board, piece: Leaper) -> int:
    """A lower bound of the frontier's width from the board's shape alone (or 0).

    On a 2D rectangle without blocked cells, longer than twice the piece's
    reach, whichever way the rows run, the last row done has every cell joined
    to a row not yet done: the frontier is at least the short side wide.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> narrowest_width(Board((5000, 5000)), KNIGHT)
        5000
        >>> narrowest_width(Board((1, 9)), KNIGHT)
        0
    """
    reach = max(int(x) for x in piece.vector)
    if board.dim != 2 or board.blocked or board.unbounded:
        return 0
    short = min(board.shape)
    return short if short > 2 * reach else 0


def check_narrow(board: Board, piece: Leaper) -> None:
    """Refuse, from the shape alone, a board whose frontier passes :data:`MAX_WIDTH`.

    Raises:
        InvalidInputError: :func:`narrowest_width` is over :data:`MAX_WIDTH`.
    """
    side = narrowest_width(board, piece)
    if side > MAX_WIDTH:
        raise InvalidInputError(
            f"the frontier of {board.label} ({piece.label}) is at least {side} "
            f"cells wide; the frontier program takes at most {MAX_WIDTH} (use "
            "--method cpsat)"
        )


def estimated_states(width: int, *, closed: bool) -> float:
    """A rough guess of the peak live states of a knight count with this width.

    Measured: the peak grows about 5-fold per frontier cell (closed tours:
    178, 672, 56,497 and 1,436,836 at widths 8, 10, 12, 14, the strips 3, 4,
    5 and 6 cells across); open tours have about 4 times more at width 14
    (6x6: 5,644,449) and about 8 times at width 16 (7x7: at least
    265,168,867, at cell 36 of 49, the dense kernel on disk). Short boards
    stay below it. Used up front: to refuse a count whose states would not
    fit the memory budget (or, on disk, the free space), and by ``auto``; the
    budget itself is checked on the live states after every cell.

    Examples:
        >>> f"{estimated_states(14, closed=True):.1e}"
        '1.4e+06'
        >>> f"{estimated_states(16, closed=False):.1e}"
        '2.7e+08'
    """
    open_factor = 4.0 * 1.4 ** max(0, width - 14)
    return 1.4e6 * 5.0 ** (width - 14) * (1 if closed else open_factor)


BOX_SHARE = 0.03
"""What a 3-D box's peak live states are of :func:`estimated_states` (made
on 2-D boards), about, for closed tours: measured, closed 2x3x4 peaks at
5,226 live states (the guess: 7.0e6) and closed 2x4x4, met in the middle, at
3.8e7 (the guess for its halves: 8.8e8). The estimate's uses (refusing up
front, spilling to disk) stay on the safe side of the second."""

BOX_SHARE_OPEN = 0.1
""":data:`BOX_SHARE` for open tours, a floor: open 2x4x4, met in the middle,
held 597,135,217 live states after cell 22 of its first half's 25, still
growing threefold a cell (stopped there, its next step's states past 25 GB
on disk), where the guess with :data:`BOX_SHARE` was 5.6e8 for the halves."""


def plan_states(plan: FrontierPlan) -> float:
    """:func:`estimated_states` for a plan: its width, closed or open, and shape.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> plan = plan_frontier(move_graph("2x4x4"), closed=True)
        >>> f"{plan_states(plan):.1e}"  # a 3-D box: a share of the 2-D guess
        '1.3e+08'
        >>> f"{plan_states(plan_frontier(move_graph('2x4x4'), closed=False)):.1e}"
        '9.4e+09'
    """
    guess = estimated_states(plan.width, closed=plan.closed)
    if len(plan.axes) <= 2:
        return guess
    return guess * (BOX_SHARE if plan.closed else BOX_SHARE_OPEN)


def frontier_after(steps: Sequence[FrontierStep]) -> list[int]:
    """The cells in the frontier after ``steps``, slot by slot.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> frontier_after(plan_frontier(move_graph("3x4"), closed=True).steps[:4])
        [0, 4, 8, 1]
    """
    frontier: list[int] = []
    for step in steps:
        frontier.append(step.node)
        gone = set(step.leaving)
        frontier = [u for s, u in enumerate(frontier) if s not in gone]
    return frontier


def default_cut(plan: FrontierPlan) -> int:
    """Where the halves meet: the first row's end half a row past the middle.

    The second half adds the cut's cells after its own (two rows of them on
    a rectangle), so it is the wider one at a cut in the very middle; at a
    row's end the cut is two whole rows. Measured (the peak live states of
    the first half, then the second): open 6x6 met after 18 cells, 85,208
    and 2,349,517; after 21, 508,764 and 1,002,325; after 24 (this cut),
    1,018,828 and 343,213. Open 7x7 after 28 (this cut): 22,328,087 and
    52,902,749. Closed 8x8 after 36: 101,712,531 and more than 148 million
    (stopped); after 40 (this cut): 230,725,913 and 26,689,517.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> default_cut(plan_frontier(move_graph("8x8"), closed=True))
        40
    """
    n = len(plan.order)
    across = max(plan.rows, default=1)
    ends = list(itertools.accumulate(plan.rows))
    past = [e for e in ends if 2 * e >= n + across and e < n]
    best = past[0] if past else max(1, min(n - 1, (n + across + 1) // 2))
    # a cut holding most of the first half (a torus) is passed by
    for cut in [*range(best, n), *range(best - 1, 0, -1)]:
        if _thin(plan, cut):
            return int(cut)
    return best


def _thin(plan: FrontierPlan, cut: int) -> bool:
    """Whether at most two thirds of the first half's cells are on the cut."""
    return 3 * len(frontier_after(plan.steps[:cut])) < 2 * cut


def meet_fits(plan: FrontierPlan) -> bool:
    """Whether a count of ``plan`` can meet in the middle.

    No fixed ends, and a cut (:func:`default_cut`) that holds at most two
    thirds of the first half's cells: the cut's states are what the join
    pairs, and on a torus every cut is about as wide as the first half.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> meet_fits(plan_frontier(move_graph("7x7"), closed=False))
        True
        >>> meet_fits(plan_frontier(move_graph("5x6"), closed=False, start=(0, 0)))
        False
    """
    if plan.ends or len(plan.order) < 3:
        return False
    return _thin(plan, default_cut(plan))


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
    return "\n".join([*lines, *_row_table(graph, plan)])


def _row_table(graph: MoveGraph, plan: FrontierPlan) -> list[str]:
    """The plan row by row: its cells, widest frontier and most choices."""
    name = graph.board.cell_name
    rows: list[tuple[str, ...]] = [("row", "cells", "widest", "choices per cell")]
    at = 0
    for number, cells in enumerate(plan.rows, start=1):
        steps = plan.steps[at : at + cells]
        choices = max(len(step_choices(s.back, s.cap)) for s in steps)
        first = name(graph.cell(steps[0].node))
        last = name(graph.cell(steps[-1].node))
        widest = max(s.width for s in steps)
        rows.append((str(number), f"{first}..{last}", str(widest), str(choices)))
        at += cells
    widths = [max(len(row[k]) for row in rows) for k in range(4)]
    rows.insert(1, tuple("-" * w for w in widths))

    def line(row: tuple[str, ...], header: bool) -> str:
        # numbers right-aligned, the cells' names and the headers left-aligned
        return "  ".join(
            v.ljust(w) if header or k == 1 else v.rjust(w)
            for k, (v, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()

    return [line(row, header=i < 2) for i, row in enumerate(rows)]
