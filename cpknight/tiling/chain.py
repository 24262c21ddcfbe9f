"""Both ends fixed on huge boards: a chain of path tiles among the structured tiles.

A tiled closed tour (:mod:`cpknight.tiling.tiles`) cannot be repaired near two
ends far apart (:mod:`cpknight.tiling.repair`: by parity). Instead the tiles
holding the ends, and the tiles on an L-shaped route between them (along the
start's row of tiles, then down or up the end's column of tiles), each hold a
Hamiltonian *path* of the tile rather than a circuit:

* the start's tile a path from the start to an exit *port* on its border;
* each tile of the route a path from an entry port to an exit port, every exit
  a knight's move from the next tile's entry;
* the end's tile a path from its entry port to the end.

Read one after the other they make one path from the start to the end through
every cell of the chain. Every other tile keeps its structured closed tour and
is joined to the chain by the tiles' move exchange (a circuit and a path become
one path, with the path's ends kept), along a tree: each row of tiles left to
right, except between two chain tiles, and the rows above and below the
chain's rows down the first column. So the chain tiles' paths contain the
structure moves of the joins they take part in. The ``prune`` search builds
each path (the ends fixed and those moves required, an 11 x 11 tile at most: a
fraction of a millisecond), and CP-SAT (``add_circuit``) the rare one the
search gives up on, or proves there is none. The ports are tried in a fixed
order of preference (near the middle of the shared border), so that the tiles
along the route repeat and their paths are built once.

Colour decides the ports: a tile with an even number of cells joins cells of
opposite colours, the one odd x odd tile of an odd x odd board (placed on the
start) two cells of the colour with more cells.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.checks import is_tour
    >>> b = Board((40, 50))
    >>> cells = chain_tour(b, (0, 0), (39, 48))
    >>> is_tour(b, np.stack(np.divmod(cells, 50), axis=1), closed=False)
    True
    >>> int(cells[0]), int(cells[-1])  # flat r * 50 + c: (0, 0) and (39, 48)
    (0, 1998)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING

import numpy as np

from cpknight.board import Board, Cell
from cpknight.errors import InvalidInputError, NoTourError
from cpknight.pieces import KNIGHT, move_graph
from cpknight.solving import Run, SolveOptions
from cpknight.tiling.build import (
    IntArray,
    NoTileError,
    circuit_order,
    structure_moves,
    structured_tile,
    tile_run,
)
from cpknight.tiling.join import (
    Joins,
    KindTables,
    expand,
    follow,
    join_links,
    join_positions,
    kind_tables,
    next_cuts,
)
from cpknight.tiling.layout import (
    closed_sizes,
    join_straight,
    kind_grid,
    layouts,
    locate,
    shifted,
    tile_origins,
)
from cpknight.tiling.repair import check_colours

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["chain_tour", "port_path"]

_PATHS: dict[tuple[int, int, int, int, tuple[int, ...]], tuple[int, ...] | None] = {}
"""Chain tiles built this session: (h, w, entry, exit, required moves) -> path."""

_CANDIDATES = 6  # exit ports tried per chain tile before backing up
_SEARCH_SECONDS = 0.05  # the search's share of a port path before CP-SAT
_BUDGET = 60  # paths built (and tiles placed beyond 4 a tile) per route


def chain_tour(
    board: Board, start: Cell, end: Cell, run: Run | None = None
) -> IntArray:
    """An open knight's tour of a plain board from ``start`` to ``end``.

    Args:
        board: a bounded 2D board without blocked cells, both sides at least
            12 (the tiles' layout).
        start: the first cell.
        end: the last cell.
        run: the run (its clock bounds CP-SAT); by default no limit.

    Returns:
        The tour as flat cells ``r * n + c`` (checked by the caller).

    Raises:
        NoTourError: colour forbids the two ends.
        InvalidInputError: no layout of tiles and ports was found.
        SolveLimitError: the time limit passed.
    """
    run = run or SolveOptions().start()
    m, n = board.shape
    check_colours(board, start, end)
    if start == end:
        raise NoTourError(f"an open tour of {board.label} cannot end where it starts")
    for heights, widths in _tilings(m, n, start):
        for rows_first, first_column in product((True, False), (True, False)):
            run.check("building the chain of tiles")
            try:
                return _chain_assemble(
                    m,
                    n,
                    heights,
                    widths,
                    start,
                    end,
                    run,
                    rows_first=rows_first,
                    column=0 if first_column else len(widths) - 1,
                )
            except NoTileError:
                continue
    raise InvalidInputError(
        f"no chain of tiles joins {board.cell_name(start)} to "
        f"{board.cell_name(end)} on board {board.label}"
    )


def _tilings(m: int, n: int, start: Cell) -> list[tuple[list[int], list[int]]]:
    """The tilings a chain is tried on: ``(heights, widths)``, best first.

    An odd x odd board: the layouts with the odd tile on the start. Else the
    closed layout, then other parts or in other orders, so that the ends fall
    elsewhere in their tiles.

    Examples:
        >>> _tilings(16, 16, (0, 0))[:2]
        [([8, 8], [8, 8]), ([8, 8], [8, 8])]
    """
    odd = m * n % 2 == 1
    candidates = layouts(m, n, closed=not odd, start=start if odd else None)
    tilings = [(layout.heights, layout.widths) for layout in candidates]
    if not odd:
        (h, w), odd_rows = tilings[0], m % 2 == 1  # odd parts on one side only
        h2, w2 = shifted(h, odd=odd_rows), shifted(w, odd=not odd_rows)
        tilings += [(h[::-1], w[::-1]), (h2, w2), (h2[::-1], w2[::-1])]
        tilings += [(h, w2), (h2, w)]
    return tilings


def _route(
    a: tuple[int, int], b: tuple[int, int], *, rows_first: bool
) -> list[tuple[int, int]]:
    """The tiles from ``a`` along its row to ``b``'s column, then to ``b``.

    With ``rows_first=False``: down (or up) ``a``'s column first, then along
    ``b``'s row.

    Examples:
        >>> _route((0, 0), (1, 2), rows_first=True)
        [(0, 0), (0, 1), (0, 2), (1, 2)]
        >>> _route((0, 0), (1, 2), rows_first=False)
        [(0, 0), (1, 0), (1, 1), (1, 2)]
    """
    (i0, j0), (i1, j1) = a, b
    if not rows_first:
        flipped = _route((j0, i0), (j1, i1), rows_first=True)
        return [(i, j) for j, i in flipped]
    step = 1 if j1 >= j0 else -1
    out = [(i0, j) for j in range(j0, j1 + step, step)]
    step = 1 if i1 >= i0 else -1
    out += [(i, j1) for i in range(i0 + step, i1 + step, step)]
    return out


@dataclass(frozen=True)
class _Tree:
    """The joins of the tiles: tile ``a[k]``'s move ``move_a[k]`` with ``b[k]``'s.

    The first ``n_h`` join row neighbours, the rest neighbours in ``column``
    (every closed tile has the vertical joins' moves, so any column will do);
    rows ``lo`` to ``hi`` hold the chain (they are joined through it).
    """

    a: IntArray
    b: IntArray
    move_a: IntArray
    move_b: IntArray
    n_h: int
    lo: int
    hi: int
    column: int


def _chain_assemble(
    m: int,
    n: int,
    heights: list[int],
    widths: list[int],
    start: Cell,
    end: Cell,
    run: Run,
    *,
    rows_first: bool,
    column: int,
) -> IntArray:
    """The tour along one route, the rows off the chain joined down ``column``."""
    p, q = len(heights), len(widths)
    row0, col0, _ = tile_origins(heights, widths, n)
    (i_s, _), (j_s, _) = locate(heights, start[0]), locate(widths, start[1])
    (i_e, _), (j_e, _) = locate(heights, end[0]), locate(widths, end[1])
    route = _route((i_s, j_s), (i_e, j_e), rows_first=rows_first)
    on_chain = np.zeros((p, q), dtype=bool)
    for i, j in route:
        on_chain[i, j] = True
    tree = _chain_tree(on_chain, min(i_s, i_e), max(i_s, i_e), column)
    chain = [i * q + j for i, j in route]
    needs = _needs(tree, chain)
    paths = _chain_paths(route, heights, widths, row0, col0, start, end, needs, run)
    return _assemble_with_chain(m, n, heights, widths, chain, paths, tree, run)


def _chain_tree(
    on_chain: npt.NDArray[np.bool_], lo: int, hi: int, column: int
) -> _Tree:
    """The tree of joins around a chain: (tile A, tile B, A's move, B's move).

    Each row of tiles left to right, except between two chain tiles; the rows
    above ``lo`` and below ``hi`` (the chain's rows) down ``column``.

    Examples:
        >>> on = np.array([[True, True], [False, False]])
        >>> t = _chain_tree(on, 0, 0, 0)
        >>> t.a.tolist(), t.b.tolist(), t.move_a.tolist(), t.n_h
        ([2, 0], [3, 2], [2, 3], 1)
    """
    p, q = on_chain.shape
    tiles = np.arange(p * q, dtype=np.int64).reshape(p, q)
    keep_h = ~(on_chain[:, :-1] & on_chain[:, 1:])
    rows_v = np.arange(p - 1)
    keep_v = ~((rows_v >= lo) & (rows_v + 1 <= hi))
    n_h, n_v = int(keep_h.sum()), int(keep_v.sum())
    return _Tree(
        np.concatenate([tiles[:, :-1][keep_h], tiles[:-1, column][keep_v]]),
        np.concatenate([tiles[:, 1:][keep_h], tiles[1:, column][keep_v]]),
        np.concatenate([np.full(n_h, 2), np.full(n_v, 3)]).astype(np.int64),
        np.concatenate([np.full(n_h, 0), np.full(n_v, 1)]).astype(np.int64),
        n_h,
        lo,
        hi,
        column,
    )


def _needs(tree: _Tree, chain: list[int]) -> dict[int, tuple[int, ...]]:
    """The structure moves each chain tile's path must contain: its joins'.

    Examples:
        >>> on = np.array([[True, True], [False, False]])
        >>> _needs(_chain_tree(on, 0, 0, 0), [0, 1])
        {0: (3,), 1: ()}
    """
    needs: dict[int, set[int]] = {tile: set() for tile in chain}
    for a, b, x, y in zip(
        tree.a.tolist(),
        tree.b.tolist(),
        tree.move_a.tolist(),
        tree.move_b.tolist(),
        strict=True,
    ):
        if a in needs:
            needs[a].add(x)
        if b in needs:
            needs[b].add(y)
    return {tile: tuple(sorted(moves)) for tile, moves in needs.items()}


def _chain_paths(
    route: list[tuple[int, int]],
    heights: list[int],
    widths: list[int],
    row0: IntArray,
    col0: IntArray,
    start: Cell,
    end: Cell,
    needs: dict[int, tuple[int, ...]],
    run: Run,
) -> list[tuple[int, ...]]:
    """Each chain tile's path (local cells ``r * w + c``), ports chosen in turn."""
    q = len(widths)
    last = len(route) - 1

    def local(k: int, cell: Cell) -> int:
        i, j = route[k]
        return (cell[0] - int(row0[i])) * widths[j] + cell[1] - int(col0[j])

    budget = [_BUDGET, 4 * len(route) + _BUDGET]  # paths built, tiles placed

    def solve(k: int, entry: int, exit_: int) -> tuple[int, ...] | None:
        i, j = route[k]
        h, w = heights[i], widths[j]
        moves = needs[i * q + j]
        key = (h, w, entry, exit_, moves)
        if key not in _PATHS:
            budget[0] -= 1
            if budget[0] < 0:
                raise NoTileError("too many port paths built")
            _PATHS[key] = port_path(h, w, entry, exit_, moves, run)
        return _PATHS[key]

    def ports(k: int, entry: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
        (i, j), (i2, j2) = route[k], route[k + 1]
        there = (int(row0[i2] - row0[i]), int(col0[j2] - col0[j]), heights[i2])
        return _ports((heights[i], widths[j]), (*there, widths[j2]), entry)

    def choices(k: int, entry: int) -> Iterator[tuple[tuple[int, ...], int]]:
        """Tile k's paths from ``entry``, each with the next tile's entry."""
        if k == last:
            target = local(k, end)
            found = None if target == entry else solve(k, entry, target)
            if found is not None:
                yield found, -1
            return
        for exit_, entries in ports(k, entry)[:_CANDIDATES]:
            found = solve(k, entry, exit_)
            if found is not None:
                for nxt in entries[:2]:
                    yield found, nxt

    return _depth_first(choices, local(0, start), last, budget, run)


def _depth_first(
    choices: Callable[[int, int], Iterator[tuple[tuple[int, ...], int]]],
    entry: int,
    last: int,
    budget: list[int],
    run: Run,
) -> list[tuple[int, ...]]:
    """Depth first along the route, backing up when a tile has no path left.

    Args:
        choices: tile k's paths from an entry, each with the next tile's entry.
        entry: the first tile's entry (the start).
        last: the index of the last tile of the route.
        budget: ``[paths built, tiles placed]`` left; each tile placed
            spends one of the second.
        run: the run, checked now and then.

    Raises:
        NoTileError: the budget ran out, or no chain of port paths exists.
    """
    paths: list[tuple[int, ...]] = []
    stack = [choices(0, entry)]
    while stack:
        budget[1] -= 1
        if budget[1] < 0:
            raise NoTileError("too many port paths tried")
        if budget[1] % 64 == 0:
            run.check("building the chain of tiles")
        k = len(stack) - 1
        picked = next(stack[-1], None)
        if picked is None:
            stack.pop()
            if paths:
                paths.pop()
            continue
        paths.append(picked[0])
        if k == last:
            return paths
        stack.append(choices(k + 1, picked[1]))
    raise NoTileError("no chain of port paths")


@lru_cache(maxsize=4096)
def _ports(
    here: tuple[int, int], there: tuple[int, int, int, int], entry: int
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Exits of the h x w tile ``here``, each with the entries of ``there`` it reaches.

    ``there`` is ``(top, left, h, w)`` relative to ``here``'s first cell;
    cells are local ``r * w + c``; an exit has the colour that lets the tile's
    path from ``entry`` end there. Best first (nearest the middles of the
    tiles). The moves between the two tiles are read from the move graph of
    the rectangle they make together (neighbours along the route share their
    height or their width). Cached: along a route the same few pairs of tiles
    and entries recur (4 in the 498 asked on 2000x2000).

    Examples:
        >>> ports = _ports((6, 6), (0, 6, 6, 8), entry=0)
        >>> ports[0]  # exit (2, 5): a move from (3, 1), (1, 1), (4, 0), (0, 0)
        (17, (25, 9, 32, 0))
    """
    (h, w), (top2, left2, h2, w2) = here, there
    corner_r, corner_c = min(0, top2), min(0, left2)
    pair = Board((max(h, top2 + h2) - corner_r, max(w, left2 + w2) - corner_c))
    graph = move_graph(pair, KNIGHT)
    tails, heads = graph.arcs()
    r = graph.cells[tails, 0] + corner_r  # tail, local to here
    c = graph.cells[tails, 1] + corner_c
    r2 = graph.cells[heads, 0] + (corner_r - top2)  # head, local to there
    c2 = graph.cells[heads, 1] + (corner_c - left2)
    er, ec = divmod(entry, w)
    odd = h * w % 2 == 1
    keep = (r >= 0) & (r < h) & (c >= 0) & (c < w) & ~((r == er) & (c == ec))
    keep &= (r2 >= 0) & (r2 < h2) & (c2 >= 0) & (c2 < w2)
    keep &= ((r + c + er + ec) % 2 == 0) == odd
    r, c, r2, c2 = r[keep], c[keep], r2[keep], c2[keep]
    score = np.abs(r2 - (h2 - 1) / 2) + np.abs(c2 - (w2 - 1) / 2)
    score += np.abs(r - (h - 1) / 2) + np.abs(c - (w - 1) / 2)
    found = list(
        zip(score.tolist(), (r * w + c).tolist(), (r2 * w2 + c2).tolist(), strict=True)
    )
    found.sort()
    by_exit: dict[int, list[int]] = {}
    for _, a, b in found:
        by_exit.setdefault(a, []).append(b)
    return tuple((a, tuple(b)) for a, b in by_exit.items())


def port_path(
    h: int, w: int, entry: int, exit_: int, moves: tuple[int, ...], run: Run
) -> tuple[int, ...] | None:
    """A Hamiltonian path of the h x w tile from ``entry`` to ``exit_``, or None.

    It contains the structure moves numbered in ``moves``. The ``prune``
    search first (a fraction of a millisecond on these tiles, without loading
    OR-Tools), then, if it gives up within :data:`_SEARCH_SECONDS`, CP-SAT,
    which also proves there is none.
    """
    from cpknight.constraints import TourConstraints
    from cpknight.errors import NoTourError, SolveLimitError
    from cpknight.solving import Clock
    from cpknight.tours.instance import TourInstance
    from cpknight.tours.search import solve_prune

    allowed = structure_moves(h, w)
    required = tuple(allowed[x] for x in moves)
    instance = TourInstance(
        Board((h, w)),
        KNIGHT,
        closed=False,
        start=divmod(entry, w),
        end=divmod(exit_, w),
        constraints=TourConstraints(require=required),
    )
    remaining = run.remaining()
    seconds = _SEARCH_SECONDS if remaining is None else min(remaining, _SEARCH_SECONDS)
    try:
        tour = solve_prune(
            instance, Run(SolveOptions(workers=1, seed=0), Clock(seconds))
        )
        return tuple(int(r) * w + int(c) for r, c in tour.array.tolist())
    except NoTourError:
        return None
    except SolveLimitError:
        run.check("building the chain of tiles")
    order = circuit_order(
        h,
        w,
        closed=False,
        start=entry,
        end=exit_,
        required=required,
        run=tile_run(run),
    )
    return None if order is None else tuple(order)


def _assemble_with_chain(
    m: int,
    n: int,
    heights: list[int],
    widths: list[int],
    chain: list[int],
    paths: list[tuple[int, ...]],
    tree: _Tree,
    run: Run,
) -> IntArray:
    """Join the closed tiles to the chain: the path as flat cells ``r * n + c``.

    As the tiled tour's assembly (:mod:`cpknight.tiling.tiles`), with the
    chain's tiles holding paths read in catalogue direction, a cut at the end of
    each chain tile's path into the next one's first cell, and the walk ending
    at the last.
    """
    ja, jb, ma, mb = tree.a, tree.b, tree.move_a, tree.move_b
    n_h = tree.n_h
    p, q = len(heights), len(widths)
    _, _, base = tile_origins(heights, widths, n)

    (length, move_pos, direction, offsets), kind_of_tile = _chain_kinds(
        heights, widths, chain, paths, n, run
    )
    run.check("assembling the tiles")

    straight = join_straight(n_h, len(ja) - n_h)
    link = join_links(direction, kind_of_tile, (ja, jb, ma, mb), straight)
    sign = _chain_orientation(link, tree, chain, p, q)

    positions = join_positions(
        length, move_pos, direction, kind_of_tile, sign, (ja, jb, ma, mb), straight
    )
    to_tile, to_pos, seg_len, nxt = _chain_segments(
        (ja, jb, ma, mb), positions, chain, length[kind_of_tile]
    )
    run.check("assembling the tiles")

    walk = follow(nxt)
    lens = seg_len[walk]
    total = m * n
    if int(lens.sum()) != total:
        raise NoTileError("the chain's joins do not make one path")
    run.check("assembling the tiles")
    return expand(offsets, kind_of_tile, sign, base, to_tile, to_pos, walk, lens, total)


def _chain_segments(
    joins: Joins,
    positions: tuple[IntArray, IntArray, IntArray, IntArray],
    chain: list[int],
    tile_length: IntArray,
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The walk's segments, as the tiled tour's, with the chain's cuts added.

    Cut ``i`` jumps to entry ``i``: across the joins, then from the end of each
    chain tile's path into the next one's first cell; the last entry (the
    first chain tile's first cell, the start) is the root's, and the walk ends
    where it would return to it.

    Returns:
        ``(to_tile, to_pos, seg_len, nxt)`` per entry: its tile, its position
        there, the cells of its segment, and the entry after it (-1: the end).
    """
    ja, jb, _, _ = joins
    a_out, b_out, b_in, a_in = positions
    chain_a = np.array(chain, dtype=np.int64)
    cut_tile = np.concatenate([ja, jb, chain_a])
    cut_pos = np.concatenate([a_out, b_out, tile_length[chain_a] - 1])
    to_tile = np.concatenate([jb, ja, chain_a[1:], chain_a[:1]])
    to_pos = np.concatenate([b_in, a_in, np.zeros(len(chain), np.int64)])
    root = len(to_tile) - 1
    big = int(tile_length.max()) + 1
    _, stop, nxt = next_cuts(cut_tile, cut_pos, to_tile, to_pos, big)
    nxt = np.where(nxt == root, -1, nxt)
    seg_len = (stop - to_pos) % tile_length[to_tile] + 1
    return to_tile, to_pos, seg_len, nxt


def _chain_kinds(
    heights: list[int],
    widths: list[int],
    chain: list[int],
    paths: list[tuple[int, ...]],
    n: int,
    run: Run,
) -> tuple[KindTables, IntArray]:
    """The kinds' tables and every tile's kind: closed sizes, then the chain's.

    The closed tiles by size (their catalogue tours), then one kind per chain
    tile (its path).
    """
    q = len(widths)
    sizes = closed_sizes(heights, widths)
    orders = [(h, w, structured_tile(h, w, True, run=run)) for h, w in sizes]
    kind_of_tile = kind_grid(heights, widths, sizes)
    for tile, path in zip(chain, paths, strict=True):
        kind_of_tile[tile] = len(orders)
        orders.append((heights[tile // q], widths[tile % q], path))
    return kind_tables(orders, n), kind_of_tile


def _chain_orientation(
    link: IntArray, tree: _Tree, chain: list[int], p: int, q: int
) -> IntArray:
    """Every tile's walk direction (+1: its kind's order) around the chain.

    The chain keeps its paths' direction; every other tile follows its join
    towards the chain (a running product of the :func:`join_links`).
    """
    ja, n_h, lo, hi, col = tree.a, tree.n_h, tree.lo, tree.hi, tree.column
    is_h = np.arange(len(ja)) < n_h
    h_link = np.ones((p, max(q - 1, 0)), dtype=np.int64)  # 1 between chain tiles
    h_link[ja[is_h] // q, ja[is_h] % q] = link[is_h]
    v_link = np.ones(max(p - 1, 0), dtype=np.int64)
    v_link[ja[~is_h] // q] = link[~is_h]
    rel = np.ones((p, q), dtype=np.int64)  # relative to the row's first tile
    if q > 1:
        rel[:, 1:] = np.cumprod(h_link, axis=1)
    on_chain = np.zeros(p * q, dtype=bool)
    on_chain[chain] = True
    chain_grid = on_chain.reshape(p, q)
    grid = np.ones((p, q), dtype=np.int64)
    for i in range(lo, hi + 1):  # the chain's rows: each side follows the chain
        js = np.flatnonzero(chain_grid[i])
        left, right = int(js[0]), int(js[-1])
        grid[i, :left] = rel[i, :left] * rel[i, left]
        grid[i, right + 1 :] = rel[i, right + 1 :] * rel[i, right]
    for i in range(lo - 1, -1, -1):  # the other rows, joined down the column
        grid[i] = rel[i] * rel[i, col] * grid[i + 1, col] * v_link[i]
    for i in range(hi + 1, p):
        grid[i] = rel[i] * rel[i, col] * grid[i - 1, col] * v_link[i - 1]
    sign = grid.ravel()
    return sign
