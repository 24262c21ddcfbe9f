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

Only ends that share one window are repaired (:func:`near`): two windows
apart admit no repair (each is met an even number of times by the fixed
stretches, and a window holding one end of an open tour needs an odd number),
and a band of free cells joining them made CP-SAT take seconds on 100x100.

Examples:
    >>> from cpknight import find_tour, is_tour
    >>> t = find_tour("100x100", closed=False, start="50,50", end="45,58",
    ...               method="tiles")
    >>> is_tour(t.board, t.array), t.cells[0], t.cells[-1]
    (True, (50, 50), (45, 58))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cpknight.board import Board, Cell
from cpknight.errors import InvalidInputError, NoTourError
from cpknight.solving import Run, configure_cpsat

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

__all__ = ["NEAR", "WINDOWS", "ends_fixed", "near"]

WINDOWS = (12, 16, 24)
"""Window sides tried around each end, smallest first."""

_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def ends_fixed(
    board: Board, cycle: IntArray, start: Cell, end: Cell, run: Run
) -> IntArray:
    """An open knight's tour from ``start`` to ``end``, from a closed tour.

    Args:
        board: a plain rectangular board.
        cycle: a closed knight's tour of it, as flat cells ``r * n + c``.
        start: the first cell.
        end: the last cell.
        run: the run (its clock bounds CP-SAT).

    Returns:
        The open tour as flat cells (checked by the caller, through
        ``make_tour``).

    Raises:
        NoTourError: the two ends have the same colour on a board with as many
            cells of each colour (every move changes colour).
        InvalidInputError: no window up to the largest of :data:`WINDOWS`
            admits a repair (never seen on boards of 12 x 12 and more).
        SolveLimitError: the time limit passed.
    """
    m, n = board.shape
    if start == end:
        raise NoTourError(f"an open tour of {board.label} cannot end where it starts")
    if (m * n) % 2 == 0 and (sum(start) + sum(end)) % 2 == 0:
        raise NoTourError(
            f"{board.cell_name(start)} and {board.cell_name(end)} have the same "
            f"colour, and on board {board.label} an open tour (an even number of "
            "cells) joins cells of opposite colours",
            certificate="colour",
        )
    if not near(start, end):
        raise InvalidInputError(
            f"method 'tiles' fixes both ends of an open tour on board {board.label} "
            f"only when they lie within {NEAR} rows and files of each other: "
            f"{board.cell_name(start)} and {board.cell_name(end)} are farther apart "
            "(give one end only, or try method 'cpsat')"
        )
    for side in WINDOWS:
        run.check("repairing the tour near its ends")
        found = _repair(m, n, cycle, start, end, side, run)
        if found is not None:
            return found
    raise InvalidInputError(
        f"no repair of the tiled tour joins {board.cell_name(start)} to "
        f"{board.cell_name(end)} on board {board.label}"
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


def _repair(
    m: int, n: int, cycle: IntArray, start: Cell, end: Cell, side: int, run: Run
) -> IntArray | None:
    from ortools.sat.python import cp_model

    from cpknight.formulation import add_circuit_arcs, successors

    s, e = start[0] * n + start[1], end[0] * n + end[1]
    window = _window(m, n, start, side) | _window(m, n, end, side)
    inside = np.zeros(m * n, dtype=bool)
    inside[list(window)] = True
    # Rotate the cycle to begin at a window cell: no run wraps around its end.
    first = int(np.flatnonzero(inside[cycle])[0])
    cycle = np.roll(cycle, -first)
    flags = inside[cycle]
    change = np.flatnonzero(np.diff(flags.astype(np.int8)))
    starts = change[flags[change]] + 1  # inside -> outside
    stops = change[~flags[change]]  # outside -> inside
    if not flags[-1]:
        stops = np.append(stops, len(cycle) - 1)
    runs = list(zip(starts.tolist(), stops.tolist(), strict=True))

    nodes = sorted(window)
    for i, j in runs:
        nodes.append(int(cycle[i]))
        if j > i:
            nodes.append(int(cycle[j]))
    index = {cell: k for k, cell in enumerate(nodes)}
    if len(index) != len(nodes):  # a run end is also an end of another run
        return None
    tails: list[int] = []
    heads: list[int] = []
    paired: set[tuple[int, int]] = set()
    run_arcs: list[tuple[int, int, int]] = []  # (arc a->b, arc b->a, run)
    for k, (i, j) in enumerate(runs):
        if j > i:
            a, b = index[int(cycle[i])], index[int(cycle[j])]
            paired.update({(a, b), (b, a)})
            run_arcs.append((len(tails), len(tails) + 1, k))
            tails += [a, b]
            heads += [b, a]
    for cell, u in index.items():
        r, c = divmod(cell, n)
        for dr, dc in _KNIGHT:
            rr, cc = r + dr, c + dc
            if 0 <= rr < m and 0 <= cc < n:
                v = index.get(rr * n + cc)
                if v is not None and (u, v) not in paired:
                    tails.append(u)
                    heads.append(v)
    closing = len(tails)
    tails.append(index[e])
    heads.append(index[s])

    model = cp_model.CpModel()
    arcs = add_circuit_arcs(model, tails, heads, run=run)
    model.add(arcs[closing] == 1)
    for forward, backward, _ in run_arcs:
        model.add(arcs[forward] + arcs[backward] == 1)
    solver = cp_model.CpSolver()
    configure_cpsat(solver, run)
    solver.parameters.linearization_level = 0  # as for every circuit model
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        run.check("repairing the tour near its ends")
        return None
    chosen = [bool(solver.value(x)) for x in arcs]
    nxt = successors(tails, heads, chosen)
    expand: dict[tuple[int, int], IntArray] = {}
    for forward, backward, k in run_arcs:
        i, j = runs[k]
        if chosen[forward]:
            expand[tails[forward], heads[forward]] = cycle[i + 1 : j]
        if chosen[backward]:
            expand[tails[backward], heads[backward]] = cycle[j - 1 : i : -1]
    pieces: list[IntArray] = []
    u = index[s]
    for _ in range(len(nodes)):
        pieces.append(np.array([nodes[u]], dtype=np.int64))
        if u == index[e]:
            break
        v = nxt[u]
        inner = expand.get((u, v))
        if inner is not None:
            pieces.append(inner.astype(np.int64))
        u = v
    return np.concatenate(pieces)
