"""The structured tiles of the huge-board tours, built by CP-SAT.

Each tile holds a *structured* tour (Parberry 1997): a tour of the tile that
contains four given moves near its corners. CP-SAT builds them (the circuit
model of :mod:`cpknight.formulation` with each required move fixed by
``arc[u->v] + arc[v->u] == 1``); they are shipped in
``cpknight/tiling/catalogue.json`` and rebuilt on first use if missing
(``python -m cpknight.tiling.build [OUT]`` rebuilds the file). The strips'
tiles (boards 3 or 4 cells high) are in :mod:`cpknight.tiling.strips`.

Examples:
    >>> sorted(structure_moves(6, 6))[:2]
    [((0, 1), (2, 0)), ((1, 0), (0, 2))]

References:
    Parberry, I. (1997). An efficient algorithm for the Knight's tour problem.
    Discrete Applied Mathematics 73, 251-260.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cpknight.board import Board, Cell
from cpknight.errors import NoTourError, SolveLimitError
from cpknight.formulation import add_circuit_arcs, successors
from cpknight.pieces import KNIGHT, MoveGraph, move_graph
from cpknight.solving import Clock, Run, SolveOptions

__all__ = [
    "CATALOGUE_PATH",
    "TILE_SIDES",
    "IntArray",
    "NoTileError",
    "build_catalogue",
    "build_tile",
    "circuit_order",
    "structure_moves",
    "structured_tile",
    "tile_formulation",
    "tile_order",
    "tile_run",
]

IntArray = npt.NDArray[np.int64]
Move = tuple[Cell, Cell]

TILE_SIDES = (5, 6, 7, 8, 9, 10, 11)
"""The side lengths of the tiles in the catalogue."""

CATALOGUE_PATH = Path(__file__).with_name("catalogue.json")
"""Where the shipped tile catalogue lives."""

_TILE_SECONDS = 20.0


# ---------------------------------------------------------------------- tiles


def structure_moves(h: int, w: int) -> tuple[Move, Move, Move, Move]:
    """The four moves a structured h x w tile must contain (local row, col).

    In order: the first corner's two moves (joined to the previous tile of the
    row, and to the tile above), the move joined to the next tile of the row,
    and the move joined to the tile below.

    Examples:
        >>> structure_moves(6, 8)
        (((0, 1), (2, 0)), ((1, 0), (0, 2)), ((1, 7), (3, 6)), ((4, 3), (5, 1)))
    """
    return (
        ((0, 1), (2, 0)),
        ((1, 0), (0, 2)),
        ((1, w - 1), (3, w - 2)),
        ((h - 2, 3), (h - 1, 1)),
    )


def circuit_order(
    h: int,
    w: int,
    *,
    closed: bool,
    start: int | None = None,
    end: int | None = None,
    required: Sequence[Move] = (),
    links: Sequence[tuple[int, int]] = (),
    run: Run | None = None,
) -> list[int] | None:
    """A tour of the h x w board by CP-SAT, as local flat cells, or None if none.

    ``add_circuit`` over the move arcs of ``move_graph`` (whose nodes are the
    local flat cells ``r * w + c``: the board has no blocked cells); an open
    tour adds a dummy node joined to every cell (or only to the fixed start
    and end). ``links`` are extra arcs ``u -> v`` the circuit must use (not
    moves: they split it into paths). The solver is set up by
    ``configure_cpsat`` from ``run`` (default: one worker, seed 0 and
    :data:`_TILE_SECONDS`).

    Raises:
        SolveLimitError: the time ran out without an answer.
    """
    from ortools.sat.python import cp_model

    from cpknight.solving import configure_cpsat, solve_cpsat

    graph = move_graph(Board((h, w)), KNIGHT)
    n = graph.n_nodes
    arcs = _tile_arcs(graph, closed=closed, start=start, end=end, links=links)
    tails, heads, index = arcs.tails, arcs.heads, arcs.index
    model = cp_model.CpModel()
    lit = add_circuit_arcs(model, tails, heads, arcs.names.__getitem__, run=run)
    for i in arcs.forced:
        model.add(lit[i] == 1)
    for a, b in required:
        u, v = graph.node(a), graph.node(b)
        model.add(lit[index[u, v]] + lit[index[v, u]] == 1)
    solver = cp_model.CpSolver()
    this_run = run or tile_run(None)
    configure_cpsat(solver, this_run)
    status, _ = solve_cpsat(solver, model, this_run)
    if status == cp_model.INFEASIBLE:
        return None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolveLimitError(f"cp-sat found no {h}x{w} tile in the time limit")
    succ = successors(tails, heads, [solver.value(x) for x in lit])
    first = (0 if start is None else start) if closed else succ[n]
    order = [first]
    while len(order) < n:
        order.append(succ[order[-1]])
    return order


@dataclass(frozen=True)
class _TileArcs:
    """The arcs of a tile's circuit model: move arcs, dummy arcs, links.

    Attributes:
        tails: the tail node of every arc.
        heads: the head node of every arc.
        names: every arc's readable name (``arc[r,c->r,c]``, ``first[u]``,
            ``last[u]``, ``link[u->v]``).
        index: the arc of each ``(tail, head)`` move or link.
        forced: the arcs the circuit must use (the links).
    """

    tails: list[int]
    heads: list[int]
    names: list[str]
    index: dict[tuple[int, int], int]
    forced: list[int]


def _tile_arcs(
    graph: MoveGraph,
    *,
    closed: bool,
    start: int | None,
    end: int | None,
    links: Sequence[tuple[int, int]],
) -> _TileArcs:
    """The move arcs; for an open tour the arcs from and to a dummy node.

    The dummy node ``n`` closes the path: joined to every cell, or only to
    the fixed start and end. ``links`` are extra arcs the circuit must use
    (a link that is no move splits the circuit into paths).
    """
    n = graph.n_nodes
    tail_array, head_array = graph.arcs()
    tails, heads = tail_array.tolist(), head_array.tolist()
    names = [
        "arc[{},{}->{},{}]".format(*graph.cell(u), *graph.cell(v))
        for u, v in zip(tails, heads, strict=True)
    ]
    index = {(u, v): i for i, (u, v) in enumerate(zip(tails, heads, strict=True))}

    def add(u: int, v: int, name: str) -> None:
        tails.append(u)
        heads.append(v)
        names.append(name)

    if not closed:
        for u in range(n):
            if start is None or u == start:
                add(n, u, f"first[{u}]")
            if end is None or u == end:
                add(u, n, f"last[{u}]")
    forced = []
    for u, v in links:
        if (u, v) not in index:
            index[u, v] = len(tails)
            add(u, v, f"link[{u}->{v}]")
        forced.append(index[u, v])
    return _TileArcs(tails, heads, names, index, forced)


def tile_run(run: Run | None) -> Run:
    """The run for one tile build: what is left of ``run``'s limit, at most 20 s.

    Raises:
        SolveLimitError: ``run``'s limit has already passed.
    """
    if run is None:
        return Run(SolveOptions(), Clock(_TILE_SECONDS))
    run.check("building a tile")
    remaining = run.remaining()
    seconds = _TILE_SECONDS if remaining is None else min(remaining, _TILE_SECONDS)
    return Run(run.options, Clock(seconds))


def build_catalogue(
    sides: Sequence[int] = TILE_SIDES, *, seconds: float = _TILE_SECONDS
) -> dict[str, list[int]]:
    """Build every structured tile with sides in ``sides`` by CP-SAT.

    Keys are ``'HxW'`` (closed tiles, one side even) and ``'HxW open'`` (odd x
    odd, an open tour from its first corner's colour); values are local cells
    ``r * w + c`` in tour order. About a second for the default sides.

    Examples:
        >>> cat = build_catalogue((6,))
        >>> sorted(cat), len(cat["6x6"])
        (['6x6'], 36)
    """
    out: dict[str, list[int]] = {}
    for h in sides:
        for w in sides:
            closed = h * w % 2 == 0
            order = circuit_order(
                h,
                w,
                closed=closed,
                required=structure_moves(h, w),
                run=Run(SolveOptions(workers=1, seed=0), Clock(seconds)),
            )
            if order is not None:
                out[_key(h, w, closed)] = order
    return out


def _key(h: int, w: int, closed: bool) -> str:
    return f"{h}x{w}" if closed else f"{h}x{w} open"


@lru_cache(maxsize=1)
def _catalogue() -> dict[str, list[int]]:
    import json  # the tiles' only: a huge tour's, not every command's start-up

    try:
        data: dict[str, list[int]] = json.loads(
            CATALOGUE_PATH.read_text(encoding="utf-8")
        )
    except (OSError, ValueError):
        data = {}
    return data


_TILES: dict[tuple[int, int, bool, int | None], tuple[int, ...] | None] = {}
"""Tiles built this session (None: proved not to exist); the clock is no key."""


def structured_tile(
    h: int,
    w: int,
    closed: bool,
    start: int | None = None,
    *,
    run: Run | None = None,
) -> tuple[int, ...]:
    """A structured tile's tour (from the catalogue, else built now).

    A build gets what is left of ``run``'s limit, at most :data:`_TILE_SECONDS`.

    Raises:
        SolveLimitError: the limit passed, or the build ran out of time.
    """
    if start is None:
        shipped = _catalogue().get(_key(h, w, closed))
        if shipped is not None and len(shipped) == h * w:
            return tuple(shipped)
    key = (h, w, closed, start)
    if key not in _TILES:
        order = circuit_order(
            h,
            w,
            closed=closed,
            start=start,
            required=structure_moves(h, w),
            run=tile_run(run),
        )
        _TILES[key] = None if order is None else tuple(order)
    found = _TILES[key]
    if found is None:
        raise NoTileError(f"no structured {h}x{w} tile")
    return found


class NoTileError(Exception):
    """A tile (with its start) that does not exist; the layout must change."""


def build_tile(
    h: int, w: int, *, closed: bool = True, start: Cell | None = None
) -> list[Cell]:
    """Build a structured tile now with CP-SAT (not from the catalogue).

    Args:
        h: rows (at least 4).
        w: columns (at least 4).
        closed: a circuit, or an open path.
        start: the first cell of an open tile.

    Returns:
        The cells in tour order, local ``(row, col)``.

    Raises:
        NoTourError: CP-SAT proved there is no such tile.

    Examples:
        >>> from cpknight.checks import is_tour
        >>> tile = build_tile(5, 5, closed=False, start=(2, 2))
        >>> is_tour(Board((5, 5)), tile, closed=False)
        True
    """
    order = circuit_order(
        h,
        w,
        closed=closed,
        start=None if start is None else start[0] * w + start[1],
        required=structure_moves(h, w),
    )
    if order is None:
        raise NoTourError(f"cp-sat proved there is no structured {h}x{w} tile")
    return [divmod(u, w) for u in order]


def tile_formulation(h: int, w: int, *, closed: bool = True) -> str:
    """The CP-SAT model of a structured h x w tile, with this tile's numbers.

    Examples:
        >>> print(tile_formulation(6, 6).splitlines()[0])
        structured closed tour of a 6x6 tile: 36 cells, 160 move arcs
    """
    n = h * w
    arcs = move_graph(Board((h, w)), KNIGHT).n_arcs
    kind = "closed" if closed else "open"
    lines = [
        f"structured {kind} tour of a {h}x{w} tile: {n} cells, {arcs} move arcs",
        "variables: arc[u->v] in {0, 1} for every knight move u -> v on the tile",
    ]
    if closed:
        lines.append(f"  add_circuit(arc) over the {n} cells: one Hamiltonian circuit")
    else:
        lines += [
            f"  plus first[u], last[u] in {{0, 1}}: arcs from and to a dummy node {n}",
            f"  add_circuit over {n + 1} nodes: the dummy closes one Hamiltonian path",
        ]
    lines.append("required moves (each used in one direction or the other):")
    for a, b in structure_moves(h, w):
        lines.append(
            f"  arc[{a[0]},{a[1]}->{b[0]},{b[1]}] + arc[{b[0]},{b[1]}->"
            f"{a[0]},{a[1]}] = 1"
        )
    return "\n".join(lines)


def tile_order(h: int, w: int, *, closed: bool = True) -> list[Cell]:
    """A structured tile: a tour of the h x w board containing the join moves.

    Args:
        h: rows, 5 to 11 for the catalogue (other sizes are built by CP-SAT).
        w: columns.
        closed: a circuit (needs h * w even) or an open path.

    Returns:
        The cells in tour order, local ``(row, col)``.

    Examples:
        >>> from cpknight.checks import is_tour
        >>> t = tile_order(6, 6)
        >>> is_tour(Board((6, 6)), t, closed=True)
        True
        >>> all(abs(t.index(a) - t.index(b)) in (1, 35)
        ...     for a, b in structure_moves(6, 6))
        True
    """
    return [divmod(u, w) for u in structured_tile(h, w, closed)]


if __name__ == "__main__":  # pragma: no cover - regenerate the catalogue
    import sys

    # python -m cpknight.tiling.build [OUT]: the shipped file unless OUT is given.
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else CATALOGUE_PATH
    out.parent.mkdir(exist_ok=True)
    import json

    out.write_text(json.dumps(build_catalogue()), encoding="utf-8")
