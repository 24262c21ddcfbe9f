"""Knight tours on huge boards: CP-SAT-built structured tiles joined in numpy.

The board is cut into a grid of tiles whose sides are 5 to 11 cells. Each tile
holds a *structured* tour (Parberry 1997): a tour of the tile that contains four
given moves near its corners,

* ``(0,1)-(2,0)`` and ``(1,0)-(0,2)`` in the first corner (local row, col),
* ``(1,w-1)-(3,w-2)`` near the end of the first rows,
* ``(h-2,3)-(h-1,1)`` near the end of the first columns.

CP-SAT builds those tiles (``add_circuit`` over the move arcs, each required
move fixed by ``arc[u->v] + arc[v->u] == 1``); they are shipped in
``cpknight/tiling/catalogue.json`` and rebuilt on first use if missing.

Two neighbouring tiles are joined by exchanging two moves: delete the move
``a1-a2`` of one tile and ``b1-b2`` of the other, add the moves ``a1-b1`` and
``a2-b2`` across their border. Two circuits become one circuit; a circuit and a
path become one path. The tiles of a row are joined left to right, the rows
down the first column, so every tile is joined once to a tree of the others and
the result is one tour. The join only needs each tile's two moves to point the
right way, so the orientation of every tile is fixed first (a walk down the
tree), then the tour is read off segment by segment and assembled with numpy.

* Closed tours: every m x n board with one (Schwenk 1991): one side even and
  tiled by parts 6, 8, 10; the other by parts 5..11.
* Open tours: a closed tour with its closing move dropped where one exists;
  on odd x odd boards one odd x odd tile holds a structured *open* tour, placed
  to contain the start cell when one is given (the start must have an even
  ``row + col``: the colour of the corners, of which there is one more cell).
* Both ends fixed (boards with both sides 12 or more):
  the tiles on an L-shaped route from the start's tile to the end's hold
  paths between ports instead (``cpknight.tiling.chain``); a closed tour
  through a required move is such a path between the move's cells.
* Boards 3 or 4 cells high (and longer than 16) are strips of tiles holding
  paths between fixed ports (:mod:`cpknight.tiling.strips`).
* Smaller boards (at most 1200 cells) go to CP-SAT whole: the ``cpsat``
  engine.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.checks import is_tour
    >>> t = tile_tour(Board((30, 40)), closed=True)
    >>> is_tour(t.board, t.array, closed=True)
    True
    >>> t = tile_tour(Board((25, 27)), closed=False, start=(12, 14))
    >>> t.start, is_tour(t.board, t.array, closed=False)
    ((12, 14), True)

References:
    Parberry, I. (1997). An efficient algorithm for the Knight's tour problem.
    Discrete Applied Mathematics 73, 251-260.
    Schwenk, A. J. (1991). Which rectangular chessboards have a knight's tour?
    Mathematics Magazine 64(5), 325-332.
    Conrad, A., Hindrichs, T., Morsy, H., Wegener, I. (1994). Solution of the
    knight's Hamiltonian path problem on chessboards. Discrete Applied
    Mathematics 50, 125-134.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cpknight.board import Board, Cell
from cpknight.checks import make_tour
from cpknight.errors import InvalidInputError, NoTourError
from cpknight.pieces import KNIGHT
from cpknight.results import Tour
from cpknight.solving import Run, SolveOptions
from cpknight.status import Effort
from cpknight.tiling.build import (
    IntArray,
    NoTileError,
    structured_tile,
)
from cpknight.tiling.join import (
    Joins,
    KindTables,
    expand,
    expand_pairs,
    follow,
    join_links,
    join_positions,
    kind_tables,
    next_cuts,
    rotated,
)
from cpknight.tiling.layout import (
    Layout,
    closed_sizes,
    join_straight,
    kind_grid,
    layouts,
    tile_origins,
)
from cpknight.tours.existence import closed_tour_exists, no_tour_error
from cpknight.tours.instance import TourInstance
from cpknight.tours.tiles_scope import AUTO_MIN_SIDE, fixes_ends, plain_knight

__all__ = ["solve", "tile_tour"]

_WHOLE_MAX = 1200  # cells: larger boards are never handed to CP-SAT whole


# ------------------------------------------------------------------- assembly


def _assemble(
    m: int,
    n: int,
    layout: Layout,
    *,
    run: Run | None,
    pairs: bool = False,
) -> IntArray:
    """Join the tiles of a layout: the tour as flat cells ``r * n + c``.

    With ``pairs``, as the ``(m * n, 2)`` array of rows and columns instead
    (:func:`expand_pairs`: the tour's own array, made once). Every step is a
    numpy pass over tiles, joins, segments or cells.
    """
    p, q = len(layout.heights), len(layout.widths)
    _, _, base = tile_origins(layout.heights, layout.widths, n)
    (length, move_pos, direction, offsets), kind_of_tile, root = _kinds(
        layout, n, run=run
    )
    if run is not None:
        run.check("assembling the tiles")

    joins = _tree_joins(p, q)
    n_h = p * (q - 1)
    straight = join_straight(n_h, p - 1)
    link = join_links(direction, kind_of_tile, joins, straight)
    sign = _orientation(link, p, q, root)
    positions = join_positions(
        length, move_pos, direction, kind_of_tile, sign, joins, straight
    )
    to_tile, to_pos, seg_len, nxt = _segments(
        joins,
        positions,
        root,
        length[kind_of_tile],
        open_root=layout.open_tile is not None,
    )
    if run is not None:
        run.check("assembling the tiles")

    walk = follow(nxt)  # from the root's start
    lens = seg_len[walk]
    total = m * n
    done = np.cumsum(lens)
    lens = np.minimum(lens, total - (done - lens))
    lens = np.maximum(lens, 0)

    if run is not None:
        run.check("assembling the tiles")
    steps = (offsets, kind_of_tile, sign, base, to_tile, to_pos, walk, lens, total)
    if pairs:
        try:
            return expand_pairs(*steps, n, None if run is None else run.check)
        except ValueError as exc:  # no layout does this: try the next one
            raise NoTileError(str(exc)) from None
    return expand(*steps)


def _segments(
    joins: Joins,
    positions: tuple[IntArray, IntArray, IntArray, IntArray],
    root: int,
    tile_length: IntArray,
    *,
    open_root: bool,
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The walk's segments: where each enters a tile, its length, the next one.

    The walk leaves a tile after a cut's cell (the join positions ``a_out``,
    ``b_out``), into an entry (``b_in``, ``a_in``; the last entry is the
    root's first cell). Each entry runs to the next cut in its tile
    (cyclically; an open root tile ends its path instead of wrapping).

    Returns:
        ``(to_tile, to_pos, seg_len, nxt)`` per entry: its tile, its position
        there, the cells of its segment, and the entry after it (-1: the end).
    """
    ja, jb, _, _ = joins
    a_out, b_out, b_in, a_in = positions
    cut_tile = np.concatenate([ja, jb])
    cut_pos = np.concatenate([a_out, b_out])
    to_tile = np.concatenate([jb, ja, [root]])
    to_pos = np.concatenate([b_in, a_in, [0]])
    same, next_stop, cut = next_cuts(
        cut_tile, cut_pos, to_tile, to_pos, int(tile_length.max()) + 1
    )
    size = tile_length[to_tile]
    ends = (~same) & (to_tile == root) & open_root
    stop = np.where(ends, size - 1, next_stop)
    nxt = np.where(ends, -1, cut)
    seg_len = (stop - to_pos) % size + 1
    return to_tile, to_pos, seg_len, nxt


def _kinds(
    layout: Layout, n: int, *, run: Run | None
) -> tuple[KindTables, IntArray, int]:
    """The layout's tile kinds, the kind of every tile, and the root tile.

    Kinds are ``(h, w, open)``: the closed tile sizes, then the one open tile
    (holding the start, if given) of an odd x odd board, which is the root;
    else tile 0 is. Their tables (:func:`kind_tables`): the catalogue order,
    the global offsets of its cells in that order, the positions of the
    structure moves' cells, and the direction the order walks each structure
    move (+1: as listed).
    """
    sizes = closed_sizes(layout.heights, layout.widths)
    kinds = [(h, w, False) for h, w in sizes]
    if layout.open_tile is not None:
        i, j = layout.open_tile
        kinds.append((layout.heights[i], layout.widths[j], True))
    orders: list[tuple[int, int, Sequence[int]]] = []
    for h, w, is_open in kinds:
        local = None
        if is_open and layout.start is not None:
            local = layout.start[0] * w + layout.start[1]
        orders.append((h, w, structured_tile(h, w, not is_open, local, run=run)))
    tables = kind_tables(orders, n)
    kind_of_tile = kind_grid(layout.heights, layout.widths, sizes)
    root = 0
    if layout.open_tile is not None:
        root = layout.open_tile[0] * len(layout.widths) + layout.open_tile[1]
        kind_of_tile[root] = len(kinds) - 1
    return tables, kind_of_tile, root


def _tree_joins(p: int, q: int) -> Joins:
    """The joins of a p x q grid of tiles: a tree, every tile joined once.

    The tiles of each row left to right (move 2 of A with move 0 of B), then
    the first column top to bottom (move 3 of A with move 1 of B).

    Examples:
        >>> [x.tolist() for x in _tree_joins(2, 2)]
        [[0, 2, 0], [1, 3, 2], [2, 2, 3], [0, 0, 1]]
    """
    tiles = np.arange(p * q, dtype=np.int64).reshape(p, q)
    ja = np.concatenate([tiles[:, :-1].ravel(), tiles[:-1, 0]])
    jb = np.concatenate([tiles[:, 1:].ravel(), tiles[1:, 0]])
    n_h = p * (q - 1)
    ma = np.concatenate([np.full(n_h, 2), np.full(p - 1, 3)]).astype(np.int64)
    mb = np.concatenate([np.full(n_h, 0), np.full(p - 1, 1)]).astype(np.int64)
    return ja, jb, ma, mb


def _orientation(link: IntArray, p: int, q: int, root: int) -> IntArray:
    """Every tile's walk direction (+1: its catalogue order) from the links.

    The walk direction of A's move fixes B's: along a row and down the first
    column this is a running product of the :func:`join_links` of
    :func:`_tree_joins`. The root keeps its catalogue direction.
    """
    n_h = p * (q - 1)
    sign = np.ones(p * q, dtype=np.int64)
    if q > 1:
        row_links = link[:n_h].reshape(p, q - 1)
        sign.reshape(p, q)[:, 1:] = np.cumprod(row_links, axis=1)
    if p > 1:
        col_sign = np.concatenate([[1], np.cumprod(link[n_h:])])
        sign.reshape(p, q)[:, :] *= col_sign[:, None]
    sign *= sign[root]
    return sign


# --------------------------------------------------------------------- engine


def tile_tour(
    board: Board,
    *,
    closed: bool = True,
    start: Cell | None = None,
    end: Cell | None = None,
    run: Run | None = None,
    require: Sequence[tuple[Cell, Cell]] = (),
) -> Tour:
    """A knight's tour of a plain rectangular board from structured tiles.

    Args:
        board: a bounded 2D board without blocked cells.
        closed: a circuit, or an open path.
        start: the first cell (a closed tour is rotated to start there).
        end: the last cell: on boards small enough for CP-SAT whole, or, on
            larger ones (:func:`fixes_ends`), with the start anywhere colour
            allows: a chain of path tiles from the start's tile to the end's
            (``cpknight.tiling.chain``).
        run: the run context (time limit and seed for the CP-SAT parts);
            by default no limit.
        require: moves the tour must use, either way. A closed tour on a
            board with both sides 12 or more runs from one end of the first
            move to the other (the chain of path tiles), closed by the move;
            any other move it misses is repaired by CP-SAT in a window around
            it (``cpknight.tiling.repair``); small boards pass them to CP-SAT.

    Returns:
        The checked tour.

    Raises:
        NoTourError: the board has no such tour (Schwenk 1991 for closed tours,
            Conrad et al. 1994 for open ones; on odd x odd boards an open tour
            starts on a cell with even row + col).
        InvalidInputError: not a plain bounded 2D board, or an end cell on a
            board too large for CP-SAT whole.
        SolveLimitError: CP-SAT ran out of time on a small board.

    Examples:
        >>> tile_tour(Board((60, 90))).closed
        True
        >>> tile_tour(Board((5, 5)), closed=True)
        Traceback (most recent call last):
        ...
        cpknight.errors.NoTourError: board 5x5 has no closed knight's tour: both \
sides are odd (Schwenk 1991)
    """
    run = run or SolveOptions().start()
    if not plain_knight(board, KNIGHT):
        raise InvalidInputError(
            "method 'tiles' needs a plain bounded 2D board without blocked cells: "
            f"{board.label}"
        )
    _require_existence(board, closed=closed, start=start)
    run.check("assembling the tiles")
    cells = _from_tiles(
        board, closed=closed, start=start, end=end, run=run, require=require
    )
    n = board.shape[1]
    if cells is None:
        _check_whole(board, start=start, end=end)
        cells = _whole(
            board, closed=closed, start=start, end=end, run=run, require=require
        )
    else:
        run.check("assembling the tiles")
        if closed:
            cells = rotated(cells, start, n)
    if cells.ndim == 2:  # the rows and columns already (the tiled tour)
        array = cells
    else:
        array = np.empty((len(cells), 2), dtype=np.int64)
        np.divmod(cells, n, out=(array[:, 0], array[:, 1]))
    array.setflags(write=False)  # handed over to the tour: make_tour keeps it
    return make_tour(
        board,
        KNIGHT,
        array,
        closed=closed,
        method="tiles",
        effort=Effort(),
        seconds=run.elapsed(),
        start=start,
        end=end,
        constraints=_required(require),
    )


def _from_tiles(
    board: Board,
    *,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    run: Run,
    require: Sequence[tuple[Cell, Cell]],
) -> IntArray | None:
    """The tour as flat cells from whichever tiles fit, or None (CP-SAT whole).

    Through the first required move (closed, both sides 12 or more), the tiled
    tour (sides 5 and more, one over 11), the strips (3 or 4 high, over 16
    long), or the chain to a fixed end; then any required move still missed
    is repaired. A closed tour is not yet rotated to ``start``.
    """
    m, n = board.shape
    cells: IntArray | None = None
    if end is None and closed and require and min(m, n) >= AUTO_MIN_SIDE:
        cells = _through_move(board, require[0], run)
    elif end is None and min(m, n) >= 5 and max(m, n) > 11:
        # Without required moves to repair: the rows and columns at once.
        cells = _tiled(m, n, closed=closed, start=start, run=run, pairs=not require)
    elif end is None and min(m, n) in (3, 4) and max(m, n) > 16:
        from cpknight.tiling.strips import strip_tour

        cells = strip_tour(m, n, closed=closed, start=start, run=run)
    elif end is not None and not closed and fixes_ends(board):
        cells = _ends_fixed(board, start=start, end=end, run=run)
    if cells is not None and require:
        from cpknight.tiling.repair import through_moves

        cells = through_moves(board, cells, require, run, closed=closed)
    return cells


def _check_whole(board: Board, *, start: Cell | None, end: Cell | None) -> None:
    """Refuse a board the tiles could not do that is too large for CP-SAT whole.

    Raises:
        InvalidInputError: more than :data:`_WHOLE_MAX` cells.
    """
    m, n = board.shape
    if m * n <= _WHOLE_MAX:
        return
    what = (
        "fix the end cell"
        if end is not None
        else f"start an open tour on {board.cell_name(start)}"
        if start is not None
        else "tile"
    )
    raise InvalidInputError(
        f"method 'tiles' cannot {what} on board {board.label} (more than "
        f"{_WHOLE_MAX} cells for cp-sat whole); try method 'cpsat'"
    )


def _required(require: Sequence[tuple[Cell, Cell]]) -> Any:
    """The required moves as constraints for the checker (None when there are none)."""
    from cpknight.constraints import TourConstraints

    return TourConstraints(require=tuple(require)) if require else None


def _ends_fixed(
    board: Board, *, start: Cell | None, end: Cell, run: Run
) -> IntArray | None:
    """An open tour to ``end`` (from ``start``, if given) from the tiles.

    With the start free: a closed tour cut just after the end, or (odd x odd)
    an open tour from the end, reversed. With both ends: a chain of path tiles
    (:mod:`cpknight.tiling.chain`), or where that finds no ports and the ends
    are near each other, a tiled closed tour repaired around them; else None
    on boards small enough for CP-SAT whole.
    """
    from cpknight.tiling.chain import chain_tour
    from cpknight.tiling.repair import check_colours, ends_fixed, near

    m, n = board.shape
    if start is None:
        odd = m * n % 2 == 1
        if odd:
            check_colours(board, end, end)
        cycle = _tiled(m, n, closed=not odd, start=end if odd else None, run=run)
        if cycle is None:
            raise InvalidInputError(f"the tiles do not cover board {board.label}")
        if odd:
            return cycle[::-1].copy()
        at = int(np.flatnonzero(cycle == end[0] * n + end[1])[0])
        return np.roll(cycle, -(at + 1))
    try:
        return chain_tour(board, start, end, run)
    except InvalidInputError:
        if not (near(start, end) and closed_tour_exists(m, n)):
            if m * n <= _WHOLE_MAX:
                return None
            raise
    cycle = _tiled(m, n, closed=True, start=None, run=run)
    if cycle is None:
        raise InvalidInputError(f"the tiles do not cover board {board.label}")
    return ends_fixed(board, cycle, start, end, run)


def _through_move(board: Board, move: tuple[Cell, Cell], run: Run) -> IntArray | None:
    """A closed tour through ``move``: an open tour between its cells, closed by it.

    The chain of path tiles joins the move's two cells (a knight's move apart,
    so of opposite colours); where it finds no ports, the tiled closed tour
    (repaired afterwards by the caller).
    """
    from cpknight.tiling.chain import chain_tour

    try:
        return chain_tour(board, move[0], move[1], run)
    except InvalidInputError:
        m, n = board.shape
        return _tiled(m, n, closed=True, start=None, run=run)


def _require_existence(board: Board, *, closed: bool, start: Cell | None) -> None:
    error = no_tour_error(board, closed=closed)
    if error is not None:
        raise error
    m, n = board.shape
    if not closed and start is not None and m * n % 2 and (start[0] + start[1]) % 2:
        raise NoTourError(
            f"{board.cell_name(start)} has the colour with fewer cells: on a board "
            "with an odd number of cells a tour alternates colours and starts and "
            "ends on the colour with more cells (even row + col)",
            certificate="colour",
        )


def _tiled(
    m: int,
    n: int,
    *,
    closed: bool,
    start: Cell | None,
    run: Run | None,
    pairs: bool = False,
) -> IntArray | None:
    """The tour as flat cells from the tiles, or None when no layout fits.

    With ``pairs``, as rows and columns (an ``(m * n, 2)`` array).
    """
    if not closed and closed_tour_exists(m, n):
        cells = _tiled(m, n, closed=True, start=None, run=run, pairs=pairs)
        return None if cells is None else rotated(cells, start, n)
    candidates = layouts(m, n, closed=closed, start=start if not closed else None)
    for layout in candidates:
        if len(layout.heights) * len(layout.widths) == 1:
            return None
        try:
            return _assemble(m, n, layout, run=run, pairs=pairs)
        except NoTileError:
            continue
    return None


def _whole(
    board: Board,
    *,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    run: Run,
    require: Sequence[tuple[Cell, Cell]] = (),
) -> IntArray:
    """A small board by CP-SAT whole: the ``cpsat`` engine."""
    from cpknight.constraints import TourConstraints
    from cpknight.tours import cpsat

    n = board.shape[1]
    instance = TourInstance(
        board,
        KNIGHT,
        closed=closed,
        start=start,
        end=end,
        constraints=TourConstraints(require=tuple(require)),
    )
    tour = cpsat.solve(instance, run)
    cells: IntArray = tour.array[:, 0] * n + tour.array[:, 1]
    return cells


def solve(instance: TourInstance, run: Run) -> Tour:
    """The ``tiles`` engine: it reads the board (the move graph is never built).

    Raises:
        InvalidInputError: a piece other than the knight, or a board that is not
            plain rectangular.

    Examples:
        >>> from cpknight import find_tour, is_tour
        >>> t = find_tour("12x12", method="tiles")
        >>> is_tour(t.board, t.array, closed=True), t.method
        (True, 'tiles')
    """
    if instance.piece != KNIGHT:
        raise InvalidInputError(
            f"method 'tiles' builds knight's tours only: {instance.piece.label}"
        )
    return tile_tour(
        instance.board,
        closed=instance.closed,
        start=instance.start,
        end=instance.end,
        run=run,
        require=instance.constraints.require,
    )
