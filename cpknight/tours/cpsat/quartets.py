"""A first search for magic tours of 8 x 10: the quartets of the published tour.

A magic knight's tour of 8 x 10 exists: Stertenbrink sent Jelliss some in
2020 (``docs/records.md`` has one, read back from Jelliss's 8 x 14). The magic
model alone found none in 20 minutes, nor with Beverley's chunks. The
published tour has more structure than its sums, and this is it, read off it:

- **Blocks.** The board is cut into 4 x 4 blocks and one strip two files wide
  and eight ranks long (files i-j of 8 x 10). A strip of 8 x 2 is four knight
  paths of four cells (``i1 j3 i5 j7`` and three more); a 4 x 4 block is four
  knight 4-cycles.
- **Quartets.** Each run of four visit numbers (1-4, 5-8, ...) stays in one
  block, with one cell in each rank of it (and, in a 4 x 4 block, one in each
  file): a quartet walks one of the block's 4-cycles or paths.
- **The shadow.** The visit number ``k`` and ``k + n/2`` sit at cells of one
  colour, at most two steps apart each way and in the same block: the second
  half of the tour shadows the first (``pos[v] = m[v] + (n/2) h[v]`` with a
  partner of the same ``m`` and the other ``h``). Half of every rank and every
  file comes in each half of the tour.

Asking for all of it, CP-SAT finds a closed magic 8 x 10 tour in 5 to 9 s
with one worker (seeds 0-3, ``benchmarks/tour_objectives.py``; the sums
alone: none in 120 s). In throwaway runs the quartets without the shadow
took 7 to 27 s, and the shadow alone (with its halves, without the blocks)
found one with one seed of two in 25 minutes. The same structure gives
10 x 8 (the strip along the ranks) in 7 s, 8 x 14 in 25 to 55 s and 8 x 18
in 326 s (seed 1); on 8 x 6 it is infeasible in 2 s.

Like the quarters' structure (:mod:`cpknight.tours.cpsat.magic`) it is not
implied by the sums; a "none" from it proves nothing, and the engine goes on
with the plain magic model.

The rule, on a full rectangle with one side a multiple of 8 (the *long* axis)
and the other 2 more than a multiple of 4 (at least 6): the strip is the last
two lines across the long axis; ``at[v, k] <-> pos[v] == k``, one cell per
place, and per quartet ``j`` a Boolean per block, exactly one.

Examples:
    >>> quartets_fit((8, 10)), quartets_fit((10, 8)), quartets_fit((8, 8))
    (True, True, False)
    >>> quartet_blocks((8, 10))[(0, 9)], quartet_blocks((8, 10))[(4, 3)]
    (('strip', 0), (1, 0))
"""

from __future__ import annotations

from collections.abc import Callable

from ortools.sat.python import cp_model

from cpknight.pieces import MoveGraph

__all__ = [
    "SHADOW_STEPS",
    "add_place_booleans",
    "add_quartet_structure",
    "quartet_blocks",
    "quartet_lines",
    "quartets_fit",
]

SHADOW_STEPS = tuple(
    (a, b)
    for a in range(-2, 3)
    for b in range(-2, 3)
    if (a, b) != (0, 0) and (a + b) % 2 == 0
)
"""Where a cell's shadow may be: one colour, at most two steps each way."""


def quartets_fit(shape: tuple[int, ...]) -> bool:
    """Whether a rectangle of this shape has the blocks: sides 8k and 4k + 2.

    Examples:
        >>> quartets_fit((16, 6)), quartets_fit((8, 12)), quartets_fit((4, 10))
        (True, False, False)
    """
    if len(shape) != 2:
        return False
    return any(
        shape[long] % 8 == 0 and shape[1 - long] % 4 == 2 and shape[1 - long] >= 6
        for long in (0, 1)
    )


def quartet_blocks(shape: tuple[int, ...]) -> dict[tuple[int, int], tuple[object, ...]]:
    """The block of each cell: ``(i, j)`` for a 4 x 4 block, ``('strip', i)``.

    The long axis is the ranks when both would do (a square cannot: its
    sides would be 0 and 2 modulo 4).
    """
    rows, cols = shape
    long = 0 if rows % 8 == 0 and cols % 4 == 2 else 1
    across = shape[1 - long]
    blocks: dict[tuple[int, int], tuple[object, ...]] = {}
    for r in range(rows):
        for c in range(cols):
            along, side = (r, c) if long == 0 else (c, r)
            if side >= across - 2:
                blocks[r, c] = ("strip", along // 8)
            else:
                blocks[r, c] = (along // 4, side // 4)
    return blocks


def add_place_booleans(
    graph: MoveGraph,
    model: cp_model.CpModel,
    pos: list[cp_model.IntVar],
    tick: Callable[[], None],
) -> list[list[cp_model.IntVar]]:
    """``at[v][k] <-> pos[v] == k``, exactly one cell per place; the Booleans.

    ``tick`` (the clock) is called after each cell's row and every 64 places.
    The quarters' structure (:mod:`cpknight.tours.cpsat.magic`) uses them too.
    """
    n = graph.n_nodes
    name = graph.board.cell_name
    cells = graph.cells.tolist()
    at = []
    for v in range(n):
        tick()
        at.append(
            [model.new_bool_var(f"at[{name(cells[v])},{k + 1}]") for k in range(n)]
        )
        model.add_map_domain(pos[v], at[v])
    for k in range(n):
        if k % 64 == 0:
            tick()
        model.add_exactly_one(at[v][k] for v in range(n))
    return at


def add_quartet_structure(
    graph: MoveGraph,
    model: cp_model.CpModel,
    pos: list[cp_model.IntVar],
    check: Callable[[], None] | None = None,
) -> list[str]:
    """Add the blocks, quartets and shadow to a magic model; its lines.

    Args:
        graph: the move graph (a board where :func:`quartets_fit`).
        model: the tour model with its visit numbers ``pos``.
        pos: the place of each cell, from 0.
        check: the run's clock check, called after each cell's row of
            Booleans and each constraint group.

    Returns:
        The formulation's lines.

    Raises:
        SolveLimitError: from ``check``, the time limit or Ctrl-C.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph("8x10")
        >>> model = cp_model.CpModel()
        >>> pos = [model.new_int_var(0, 79, f"pos{v}") for v in range(80)]
        >>> lines = add_quartet_structure(g, model, pos)
        >>> lines[1]
        '  at[v,k] <-> pos[v] = k - 1: 6400 Booleans, one cell per place'
    """
    shape = graph.board.shape
    n = graph.n_nodes
    cells = [(int(r), int(c)) for r, c in graph.cells.tolist()]
    name = graph.board.cell_name
    node = {cell: v for v, cell in enumerate(cells)}
    blocks = quartet_blocks(shape)
    block = [blocks[cell] for cell in cells]
    long = 0 if shape[0] % 8 == 0 and shape[1] % 4 == 2 else 1

    def tick() -> None:
        if check is not None:
            check()

    half = n // 2
    tick()
    shadow = [model.new_int_var(0, half - 1, f"m[{name(c)}]") for c in cells]
    second = [model.new_bool_var(f"h[{name(c)}]") for c in cells]
    partners: list[list[cp_model.IntVar]] = [[] for _ in range(n)]
    for v, (r, c) in enumerate(cells):
        model.add(pos[v] == shadow[v] + half * second[v])
        for dr, dc in SHADOW_STEPS:
            w = node.get((r + dr, c + dc))
            if w is None or w <= v or block[w] != block[v]:
                continue
            paired = model.new_bool_var(f"shadow[{name(cells[v])},{name(cells[w])}]")
            model.add(shadow[v] == shadow[w]).only_enforce_if(paired)
            model.add(second[v] + second[w] == 1).only_enforce_if(paired)
            partners[v].append(paired)
            partners[w].append(paired)
    for v in range(n):
        model.add_exactly_one(partners[v])
    for axis in (0, 1):
        for line in range(shape[axis]):
            members = [second[v] for v in range(n) if cells[v][axis] == line]
            model.add(2 * cp_model.LinearExpr.sum(members) == len(members))

    at = add_place_booleans(graph, model, pos, tick)
    kinds = sorted(set(block), key=str)
    across = shape[1 - long]
    # the strip's two lines across hold two cells of a quartet each
    lines = [
        [v for v in range(n) if cells[v][axis] == line]
        for axis, count in ((long, shape[long]), (1 - long, across - 2))
        for line in range(count)
    ]
    for j in range(n // 4):
        tick()
        places = range(4 * j, 4 * j + 4)
        chosen = {b: model.new_bool_var(f"in[{j + 1},{b}]") for b in kinds}
        model.add_exactly_one(chosen.values())
        for v in range(n):
            for k in places:
                model.add_implication(at[v][k], chosen[block[v]])
        for line_cells in lines:
            model.add_at_most_one(at[v][k] for v in line_cells for k in places)
    return quartet_lines(graph)


def quartet_lines(graph: MoveGraph) -> list[str]:
    """The formulation's lines of the quartets' first phase on this board."""
    n = graph.n_nodes
    return [
        "first phase (the quartets of the published 8 x 10 tour, not implied "
        "by the sums):",
        f"  at[v,k] <-> pos[v] = k - 1: {n * n} Booleans, one cell per place",
        "  each run of 4 places stays in one 4 x 4 block (one cell per rank "
        "and file) or in the 8 x 2 strip (one per rank)",
        f"  pos[v] = m[v] + {n // 2} h[v]: a partner of the same m and the other "
        "h in v's block, one colour, at most 2 steps each way; half of each "
        "line has h = 1",
        "  then, if it finds no tour, the plain model above in the time left",
    ]
