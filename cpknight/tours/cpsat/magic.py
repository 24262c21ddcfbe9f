"""A first search for semi-magic tours: the quarters' structure of Beverley's tour.

On 8x8 the magic model alone (the sums over ``pos``) finds no semi-magic tour
in minutes, although 140 exist up to symmetry (Stertenbrink, Meyrignac,
Mackay 2003). Beverley's tour (1848) has more structure than its sums: each
*octet* of visit numbers (1-8, 9-16, ...) visits every file once and stays in
one half of the board (ranks 1-4 or 5-8), and each *quarter* (1-16, 17-32,
...) visits every rank twice and every file twice. Asking for that structure
as well, CP-SAT finds a semi-magic 8x8 tour in about 10 s with one worker
(seeds 0-4: 8 to 34 s; ``benchmarks/tour_objectives.py``).

A board with sides 8k and 4k + 2 (8 x 10, where Beverley's chunks do not
fit) gets the quartets of the published 8 x 10 tour instead
(:mod:`cpknight.tours.cpsat.quartets`, the same two phases).

The structure is not implied by the sums: a board may have semi-magic tours
and none with this structure. So it is only a first phase: when it finds
nothing (or proves that no structured tour exists), the engine goes on with
the plain magic model in the time left, and "none" is only ever said by that
one.

The structure, on a board of ``R x C`` cells (``R`` and ``C`` multiples of 4,
every rank and file magic), with ``b[v, k] <-> pos[v] == k`` (CP-SAT's
``add_map_domain``) and exactly one cell per place:

- chunk ``j`` (places ``jC .. jC + C - 1``): exactly one cell of each file;
  all its cells in ranks ``< R/2`` or all in ranks ``>= R/2``;
- quarter ``q`` (places ``qRC/4 .. (q+1)RC/4 - 1``): ``C/4`` cells of each
  rank and ``R/4`` of each file.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> structure_applies(move_graph("8x8")), structure_applies(move_graph("6x6"))
    (True, False)
"""

from __future__ import annotations

from collections.abc import Callable

from ortools.sat.python import cp_model

from cpknight.pieces import MoveGraph
from cpknight.tours.cpsat.quartets import (
    add_place_booleans,
    add_quartet_structure,
    quartet_lines,
    quartets_fit,
)

__all__ = [
    "FIRST_PHASE",
    "MAX_STRUCTURE_BOOLEANS",
    "STRUCTURE_SHARE",
    "add_first_phase",
    "add_quarter_structure",
    "first_phase_lines",
    "quarter_lines",
    "structure_applies",
]

STRUCTURE_SHARE = 0.8
"""The share of the time left that the structured phase may take."""

FIRST_PHASE = True
"""Whether the cpsat engine runs the structured phase first (read at each
solve; the benchmark turns it off to measure the plain model beside it)."""


MAX_STRUCTURE_BOOLEANS = 1 << 20
"""The most ``at[v,k]`` Booleans (cells squared) the structured phase is built
with: 32x32 (1,048,576). They take seconds and hundreds of MB to make in Python
(100x100 would take 10**8 of them, past 3 GB, for a phase that only helps
small boards), so a bigger board goes straight to the plain magic model."""


def structure_applies(graph: MoveGraph) -> bool:
    """Whether a structured phase applies: a full 2D rectangle, sides 4k and 4k.

    Or sides 8k and 4k + 2 (8 x 10): the quartets of
    :mod:`cpknight.tours.cpsat.quartets`.

    Only up to :data:`MAX_STRUCTURE_BOOLEANS` (the cells squared): a bigger
    board is not refused, it only skips this first phase.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> structure_applies(move_graph("32x32"))
        True
        >>> structure_applies(move_graph("36x36"))  # 1,679,616 Booleans
        False
    """
    board = graph.board
    if board.dim != 2 or board.blocked or board.topology != "bounded":
        return False
    rows, cols = board.shape
    if (rows * cols) ** 2 > MAX_STRUCTURE_BOOLEANS:
        return False
    return _quarters_fit(rows, cols) or quartets_fit((rows, cols))


def _quarters_fit(rows: int, cols: int) -> bool:
    return rows % 4 == 0 and cols % 4 == 0 and rows >= 8 and cols >= 8


def first_phase_lines(graph: MoveGraph) -> list[str]:
    """The formulation's lines of the first phase (where :func:`structure_applies`).

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> print(first_phase_lines(move_graph("8x8"))[0][:55])
        first phase (the quarters' structure of Beverley's tour
        >>> print(first_phase_lines(move_graph("8x10"))[0][:54])
        first phase (the quartets of the published 8 x 10 tour
    """
    if _quarters_fit(*graph.board.shape):
        return quarter_lines(graph)
    return quartet_lines(graph)


def add_first_phase(
    graph: MoveGraph,
    model: cp_model.CpModel,
    pos: list[cp_model.IntVar],
    check: Callable[[], None] | None = None,
) -> list[str]:
    """Add the first phase's structure (where :func:`structure_applies`); its lines.

    The quarters' on sides that are multiples of 4, else the quartets'.
    """
    if _quarters_fit(*graph.board.shape):
        return add_quarter_structure(graph, model, pos, check)
    return add_quartet_structure(graph, model, pos, check)


def add_quarter_structure(
    graph: MoveGraph,
    model: cp_model.CpModel,
    pos: list[cp_model.IntVar],
    check: Callable[[], None] | None = None,
) -> list[str]:
    """Add the chunks' and quarters' structure to a magic model; its lines.

    Args:
        graph: the move graph (a board where :func:`structure_applies`).
        model: the tour model with its visit numbers ``pos``.
        pos: the place of each cell, from 0.
        check: the run's clock check, called after each cell's row of
            Booleans and each constraint group (``n`` Booleans or terms).

    Returns:
        The formulation's lines.

    Raises:
        SolveLimitError: from ``check``, the time limit or Ctrl-C.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph("8x8")
        >>> model = cp_model.CpModel()
        >>> pos = [model.new_int_var(0, 63, f"pos{v}") for v in range(64)]
        >>> lines = add_quarter_structure(g, model, pos)
        >>> len(model.proto.variables), lines[1]
        (4168, '  at[v,k] <-> pos[v] = k - 1: 4096 Booleans, one cell per place')
    """
    rows, cols = graph.board.shape
    n = graph.n_nodes
    cells = graph.cells.tolist()

    def tick() -> None:
        if check is not None:
            check()

    at = add_place_booleans(graph, model, pos, tick)
    for j in range(n // cols):
        tick()
        places = range(j * cols, (j + 1) * cols)
        for c in range(cols):
            model.add_exactly_one(
                at[v][k] for v in range(n) if cells[v][1] == c for k in places
            )
        top = model.new_bool_var(f"top[{j + 1}]")
        for v in range(n):
            upper = cells[v][0] >= rows // 2
            for k in places:
                model.add_implication(at[v][k], top if upper else ~top)
    quarter = n // 4
    for q in range(4):
        places = range(q * quarter, (q + 1) * quarter)
        for axis, count, times in ((0, rows, cols // 4), (1, cols, rows // 4)):
            for line in range(count):
                tick()
                model.add(
                    sum(
                        at[v][k]
                        for v in range(n)
                        if cells[v][axis] == line
                        for k in places
                    )
                    == times
                )
    return quarter_lines(graph)


def quarter_lines(graph: MoveGraph) -> list[str]:
    """The formulation's lines of the quarters' first phase on this board."""
    rows, cols = graph.board.shape
    n = graph.n_nodes
    return [
        "first phase (the quarters' structure of Beverley's tour, not implied "
        "by the sums):",
        f"  at[v,k] <-> pos[v] = k - 1: {n * n} Booleans, one cell per place",
        f"  each run of {cols} places visits every file once, within ranks "
        f"1-{rows // 2} or {rows // 2 + 1}-{rows}",
        f"  each quarter of {n // 4} places visits every rank {cols // 4} times "
        f"and every file {rows // 4} times",
        "  then, if it finds no tour, the plain model above in the time left",
    ]
