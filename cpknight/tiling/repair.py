"""Both ends fixed on huge boards: a tiled closed tour, repaired near each end.

The tiles build a closed tour of a large plain board, but cannot choose where
an open tour starts and ends. Given the two ends ``s`` and ``e``, this module
keeps the closed tour everywhere except in a small window around each end and
lets CP-SAT rebuild the inside of the windows:

1. cut the closed tour at every window cell: what is left outside is a set of
   *runs* (maximal stretches of consecutive outside cells);
2. a small circuit model has a node for every window cell and for each end of
   every run; its arcs are the knight's moves between those nodes, one
   *run arc* each way between the two ends of a run (exactly one of the two
   is used: the run is walked one way or the other), and the fixed arc
   ``e -> s`` that closes the open tour into a circuit;
3. a circuit through every node, expanded (each run arc replaced by the run's
   cells), is a closed walk through every cell that uses ``e -> s``: cut
   there, it is an open tour from ``s`` to ``e``.

The model has a few hundred nodes whatever the board's size (a 12 x 12 window
is met by the closed tour a few dozen times), so CP-SAT answers in
milliseconds; when a window admits no repair it is widened. The result goes
through the one checker like every tour.

Only ends that share one window are repaired here (:func:`near`): two
windows apart admit no repair (each is met an even number of times by the
fixed stretches, and a window holding one end of an open tour needs an odd
number), and a band of free cells joining them made CP-SAT take seconds on
100x100. Far-apart ends are joined by a chain of tiles instead
(:mod:`cpknight.tiling.chain`).

The same repair passes a closed tour (or an open one, read as a circuit
through the closing arc ``e -> s``) through required moves
(:func:`through_moves`): a window around each missing move, the move required
in the model (``arc[u->v] + arc[v->u] == 1``), and every required move the
tour already uses kept. A closed tour has no parity to mind: one window is
enough for each move.

Examples:
    >>> from cpknight import find_tour, is_tour
    >>> t = find_tour("100x100", closed=False, start="50,50", end="45,58",
    ...               method="tiles")
    >>> is_tour(t.board, t.array, closed=False), t.cells[0], t.cells[-1]
    (True, (50, 50), (45, 58))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from cpknight.board import Board, Cell
from cpknight.errors import InvalidInputError, NoTourError
from cpknight.pieces import KNIGHT
from cpknight.solving import Run, configure_cpsat, solve_cpsat

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

_Runs = list[tuple[int, int]]
"""Stretches of a cycle outside a window: first and last position of each."""

__all__ = ["NEAR", "WINDOWS", "ends_fixed", "near", "through_moves"]

WINDOWS = (12, 16, 24)
"""Window sides tried around each end, smallest first."""


def ends_fixed(
    board: Board,
    cycle: IntArray,
    start: Cell,
    end: Cell,
    run: Run,
    require: Sequence[tuple[Cell, Cell]] = (),
) -> IntArray:
    """An open knight's tour from ``start`` to ``end``, from a closed tour.

    Args:
        board: a plain rectangular board.
        cycle: a closed knight's tour of it, as flat cells ``r * n + c``.
        start: the first cell.
        end: the last cell.
        run: the run (its clock bounds CP-SAT).
        require: moves the tour must use (windows are added around those the
            closed tour misses).

    Returns:
        The open tour as flat cells (checked by the caller, through
        ``make_tour``).

    Raises:
        NoTourError: the two ends have the same colour on a board with as many
            cells of each colour (every move changes colour).
        InvalidInputError: the ends are not :func:`near` each other, or no
            window up to the largest of :data:`WINDOWS` admits a repair (never
            seen on boards of 12 x 12 and more).
        SolveLimitError: the time limit passed.
    """
    if start == end:
        raise NoTourError(f"an open tour of {board.label} cannot end where it starts")
    check_colours(board, start, end)
    if not near(start, end):
        raise InvalidInputError(
            f"the repair fixes both ends of an open tour on board {board.label} "
            f"only when they lie within {NEAR} rows and files of each other: "
            f"{board.cell_name(start)} and {board.cell_name(end)} are farther apart"
        )
    return _repaired(board, cycle, [start, end], run, (end, start), require)


def through_moves(
    board: Board,
    cycle: IntArray,
    require: Sequence[tuple[Cell, Cell]],
    run: Run,
    *,
    closed: bool,
) -> IntArray:
    """A tour through the required moves, from a tour that may miss some.

    Args:
        board: a plain rectangular board.
        cycle: a knight's tour of it as flat cells ``r * n + c``: closed, or
            (``closed=False``) open, read as a circuit through the closing
            arc from its last cell to its first, which the repair keeps.
        require: moves the tour must use, either way.
        run: the run (its clock bounds CP-SAT).
        closed: whether ``cycle`` is a closed tour.

    Returns:
        The tour as flat cells, with the ends of an open one kept.

    Raises:
        InvalidInputError: no window up to the largest of :data:`WINDOWS`
            admits a repair.
        SolveLimitError: the time limit passed.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.solving import SolveOptions
        >>> from cpknight.tiling import tile_tour
        >>> b = Board((40, 40))
        >>> cells = tile_tour(b).array @ [40, 1]
        >>> t = through_moves(b, cells, [((20, 20), (22, 21))],
        ...                   SolveOptions(workers=1).start(), closed=True)
        >>> abs(int(np.flatnonzero(t == 820)[0]) - int(np.flatnonzero(t == 901)[0]))
        1
    """
    n = board.shape[1]
    missing = [(a, b) for a, b in require if not _uses(cycle, a, b, n)]
    if not missing:
        return cycle
    closing = None
    if not closed:
        s, e = int(cycle[0]), int(cycle[-1])
        closing = (divmod(e, n), divmod(s, n))
    cells = [cell for move in missing for cell in move]
    return _repaired(board, cycle, cells, run, closing, require)


def check_colours(board: Board, start: Cell, end: Cell) -> None:
    """Raise :class:`NoTourError` when colour forbids an open tour from start to end.

    Every knight move changes colour: on a board with an even number of
    cells the ends have opposite colours, on an odd one both lie on the
    colour with more cells (even ``row + col``).

    Examples:
        >>> check_colours(Board((5, 5)), (0, 0), (4, 4))
        >>> check_colours(Board((6, 6)), (0, 0), (2, 2))
        Traceback (most recent call last):
        ...
        cpknight.errors.NoTourError: a1 and c3 have the same colour, and on board \
6x6 an open tour (an even number of cells) joins cells of opposite colours
    """
    m, n = board.shape
    name = board.cell_name
    if (m * n) % 2 == 0 and (sum(start) + sum(end)) % 2 == 0:
        raise NoTourError(
            f"{name(start)} and {name(end)} have the same colour, and on board "
            f"{board.label} an open tour (an even number of cells) joins cells of "
            "opposite colours",
            certificate="colour",
        )
    if (m * n) % 2 and ((sum(start) % 2) or (sum(end) % 2)):
        odd = start if sum(start) % 2 else end
        raise NoTourError(
            f"no open tour of {board.label} starts or ends on {name(odd)}: on a "
            "board with an odd number of cells a tour alternates colours and "
            "starts and ends on the colour with more cells (even row + col)",
            certificate="colour",
        )


def _uses(cycle: IntArray, a: Cell, b: Cell, n: int) -> bool:
    """Whether the tour (read as a circuit) has ``a`` and ``b`` next to each other."""
    i = int(np.flatnonzero(cycle == a[0] * n + a[1])[0])
    size = len(cycle)
    u = b[0] * n + b[1]
    return int(cycle[(i + 1) % size]) == u or int(cycle[i - 1]) == u


def _repaired(
    board: Board,
    cycle: IntArray,
    cells: Sequence[Cell],
    run: Run,
    closing: tuple[Cell, Cell] | None,
    require: Sequence[tuple[Cell, Cell]],
) -> IntArray:
    """Repair ``cycle`` in windows around ``cells``, widened until one admits it."""
    m, n = board.shape
    flat_closing = None
    if closing is not None:
        flat_closing = (
            closing[0][0] * n + closing[0][1],
            closing[1][0] * n + closing[1][1],
        )
    flat_require = [(a[0] * n + a[1], b[0] * n + b[1]) for a, b in require]
    for side in WINDOWS:
        run.check("repairing the tour")
        window: set[int] = set()
        for cell in cells:
            window |= _window(m, n, cell, side)
        found = _repair(m, n, cycle, window, run, flat_closing, flat_require)
        if found is not None:
            return found
    names = ", ".join(board.cell_name(c) for c in cells)
    raise InvalidInputError(
        f"no repair of the tiled tour around {names} on board {board.label} was found"
    )


def near(start: Cell, end: Cell) -> bool:
    """Whether the two ends are close enough to share one window.

    Two windows apart never admit a repair: the tour's stretches outside a
    window always meet it an even number of times, and a window holding one
    end of an open tour needs an odd number. One window around both ends
    (or a band joining two, which CP-SAT solves only in seconds) is needed.

    Examples:
        >>> near((0, 0), (5, 11)), near((0, 0), (50, 50))
        (True, False)
    """
    return abs(start[0] - end[0]) <= NEAR and abs(start[1] - end[1]) <= NEAR


NEAR = WINDOWS[0] - 1
"""Ends at most this many rows and files apart are repaired in one window."""


def _window(m: int, n: int, cell: Cell, side: int) -> set[int]:
    """The flat cells of a ``side`` square around ``cell``, moved inside the board."""
    top = min(max(cell[0] - side // 2, 0), max(m - side, 0))
    left = min(max(cell[1] - side // 2, 0), max(n - side, 0))
    return {
        r * n + c
        for r in range(top, min(top + side, m))
        for c in range(left, min(left + side, n))
    }


@dataclass
class _Arcs:
    """The repair's circuit model before it is solved: nodes and arcs.

    Attributes:
        nodes: the flat cell of every node: the window's cells, then the ends
            of every run (one node for a run of one cell).
        index: the node of each of those cells.
        tails: the tail node of every arc.
        heads: the head node of every arc.
        paired: the arcs that join the two ends of a run, both ways.
        run_arcs: ``(arc a -> b, arc b -> a, run)`` for every run of two cells
            or more: exactly one of the two is used.
        between: the arc of every knight's move between two nodes (not paired).
        forced: the arcs the circuit must use (the closing arc ``e -> s``).
    """

    nodes: list[int]
    index: dict[int, int]
    tails: list[int] = field(default_factory=list)
    heads: list[int] = field(default_factory=list)
    paired: set[tuple[int, int]] = field(default_factory=set)
    run_arcs: list[tuple[int, int, int]] = field(default_factory=list)
    between: dict[tuple[int, int], int] = field(default_factory=dict)
    forced: list[int] = field(default_factory=list)

    def add(self, tail: int, head: int) -> int:
        """Add the arc ``tail -> head``; its index."""
        self.tails.append(tail)
        self.heads.append(head)
        return len(self.tails) - 1


def _runs(cycle: IntArray, inside: npt.NDArray[np.bool_]) -> tuple[IntArray, _Runs]:
    """The cycle rotated to a window cell, and its runs outside the window.

    A run is ``(i, j)``: the positions of the first and last cell of a maximal
    stretch of consecutive outside cells (no run wraps around the end).
    """
    first = int(np.flatnonzero(inside[cycle])[0])
    cycle = np.roll(cycle, -first)
    flags = inside[cycle]
    change = np.flatnonzero(np.diff(flags.astype(np.int8)))
    starts = change[flags[change]] + 1  # inside -> outside
    stops = change[~flags[change]]  # outside -> inside
    if not flags[-1]:
        stops = np.append(stops, len(cycle) - 1)
    return cycle, list(zip(starts.tolist(), stops.tolist(), strict=True))


def _window_arcs(
    m: int,
    n: int,
    cycle: IntArray,
    window: set[int],
    runs: _Runs,
    closing: tuple[int, int] | None,
) -> _Arcs | None:
    """The nodes and arcs of the repair model, or None if it cannot be built.

    None when a run's end is also an end of another run, or the closing arc's
    cells are not both nodes.
    """
    nodes = sorted(window)
    for i, j in runs:
        nodes.append(int(cycle[i]))
        if j > i:
            nodes.append(int(cycle[j]))
    index = {cell: k for k, cell in enumerate(nodes)}
    if len(index) != len(nodes):  # a run end is also an end of another run
        return None
    arcs = _Arcs(nodes, index)
    for k, (i, j) in enumerate(runs):
        if j > i:
            a, b = index[int(cycle[i])], index[int(cycle[j])]
            arcs.paired.update({(a, b), (b, a)})
            arcs.run_arcs.append((arcs.add(a, b), arcs.add(b, a), k))
    moves = KNIGHT.moves(2).tolist()
    for cell, u in index.items():
        r, c = divmod(cell, n)
        for dr, dc in moves:
            rr, cc = r + dr, c + dc
            if 0 <= rr < m and 0 <= cc < n:
                v = index.get(rr * n + cc)
                if v is not None and (u, v) not in arcs.paired:
                    arcs.between[u, v] = arcs.add(u, v)
    if closing is not None and (closing[0] in window or closing[1] in window):
        e, s = closing
        if e not in index or s not in index:
            return None
        arcs.forced.append(arcs.add(index[e], index[s]))
    return arcs


def _require_moves(
    model: Any,
    lit: Sequence[Any],
    arcs: _Arcs,
    cycle: IntArray,
    runs: _Runs,
    require: Sequence[tuple[int, int]],
) -> bool:
    """Require each move in the model; False when one cannot be (a longer run).

    A move inside a run, or a run of just its two cells, is kept as the cycle
    has it.
    """
    for a, b in require:
        x, y = arcs.index.get(a), arcs.index.get(b)
        if x is None or y is None:
            continue  # inside a run: the cycle keeps it as it is
        if (x, y) in arcs.paired:
            ends = {int(cycle[i]) for i, j in runs if j == i + 1}
            if a in ends and b in ends:
                continue  # a run of these two cells: kept
            return False  # a longer run joins them: the move is not in the model
        model.add(lit[arcs.between[x, y]] + lit[arcs.between[y, x]] == 1)
    return True


def _written_out(
    arcs: _Arcs, chosen: list[bool], cycle: IntArray, runs: _Runs
) -> IntArray:
    """The circuit through the nodes, each used run arc replaced by its run."""
    from cpknight.formulation import successors

    nxt = successors(arcs.tails, arcs.heads, chosen)
    inner_of: dict[tuple[int, int], IntArray] = {}
    for forward, backward, k in arcs.run_arcs:
        i, j = runs[k]
        if chosen[forward]:
            inner_of[arcs.tails[forward], arcs.heads[forward]] = cycle[i + 1 : j]
        if chosen[backward]:
            inner_of[arcs.tails[backward], arcs.heads[backward]] = cycle[j - 1 : i : -1]
    pieces: list[IntArray] = []
    u = 0
    for _ in range(len(arcs.nodes)):
        pieces.append(np.array([arcs.nodes[u]], dtype=np.int64))
        v = nxt[u]
        inner = inner_of.get((u, v))
        if inner is not None:
            pieces.append(inner.astype(np.int64))
        u = v
    return np.concatenate(pieces)


def _repair(
    m: int,
    n: int,
    cycle: IntArray,
    window: set[int],
    run: Run,
    closing: tuple[int, int] | None,
    require: Sequence[tuple[int, int]],
) -> IntArray | None:
    """One repair: the cycle rebuilt inside ``window``, or None if none.

    ``closing`` is the arc ``e -> s`` of an open tour (the circuit is cut
    there): new when both ends lie in the window, else the cycle's own
    (``cycle`` then ends on ``e`` and starts on ``s``) and kept.
    """
    from ortools.sat.python import cp_model

    from cpknight.formulation import add_circuit_arcs

    inside = np.zeros(m * n, dtype=bool)
    inside[list(window)] = True
    cycle, runs = _runs(cycle, inside)
    arcs = _window_arcs(m, n, cycle, window, runs, closing)
    if arcs is None:
        return None
    model = cp_model.CpModel()
    lit = add_circuit_arcs(model, arcs.tails, arcs.heads, run=run)
    for k in arcs.forced:
        model.add(lit[k] == 1)
    for forward, backward, _ in arcs.run_arcs:
        model.add(lit[forward] + lit[backward] == 1)
    if not _require_moves(model, lit, arcs, cycle, runs, require):
        return None
    solver = cp_model.CpSolver()
    configure_cpsat(solver, run)
    solver.parameters.linearization_level = 0  # as for every circuit model
    status, _ = solve_cpsat(solver, model, run)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        run.check("repairing the tour")
        return None
    out = _written_out(arcs, [bool(solver.value(x)) for x in lit], cycle, runs)
    if closing is None:
        return out
    e, s = closing
    out = np.roll(out, -int(np.flatnonzero(out == s)[0]))
    if int(out[-1]) != e:  # walked the other way round: reverse behind the start
        out = np.roll(out[::-1], 1)
    return out
