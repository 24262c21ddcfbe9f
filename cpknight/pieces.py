"""Leapers and the move graph: the only place a move vector meets a cell.

A :class:`Leaper` ``(a, b, ...)`` moves by any signed permutation of its vector
(padded with zeros to the board's dimension), counted once each: 8 moves for the
knight ``(1, 2)`` in 2D, 24 in 3D, 48 for ``(1, 2, 3)`` in 3D.

A :class:`MoveGraph` is built once per (board, piece) from numpy arrays: the open
cells in row-major order are its nodes, and ``table[node, j]`` is the node reached
by move ``j`` (or -1). Every engine (CP-SAT, the integer programs, BFS, the search
engines, the tour checker) reads it.

Examples:
    >>> len(Leaper((1, 2, 3)).moves(3)), KNIGHT.shifts(2, [12, 1])[:4]
    (48, [25, 23, 14, 10])
    >>> from cpknight.board import Board
    >>> g = move_graph(Board.parse("8x8"), KNIGHT)
    >>> g.n_nodes, g.n_edges
    (64, 168)
"""

from __future__ import annotations

import itertools
import math
import operator
import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

from cpknight.board import Board, Cell
from cpknight.errors import InvalidBoardError, InvalidPieceError
from cpknight.runtime.memory import refuse_over_budget

__all__ = [
    "CAMEL",
    "GIRAFFE",
    "KNIGHT",
    "MAX_COMPONENT",
    "MAX_GRAPH_BYTES",
    "NAMED_PIECES",
    "ZEBRA",
    "Leaper",
    "MoveGraph",
    "PieceLike",
    "as_piece",
    "move_graph",
    "steps_are_moves",
    "walk",
]

MAX_COMPONENT = 2**31 - 1
"""The largest leaper component (far beyond any board cpknight builds)."""

MAX_GRAPH_BYTES = 4 * 10**9
"""The most memory a move graph may take, estimated before it is built."""

_BYTES_PER_NODE = 40
_BYTES_PER_MOVE = 12
"""Measured peaks of :func:`move_graph`: about 40 + 12 k bytes a cell for a
leaper of k moves (1000x1000 knight: 136 MB; 100x100x100 knight, 24 moves:
290 MB)."""


def graph_bytes(board: Board, piece: Leaper) -> int:
    """The memory :func:`move_graph` would take, estimated from the counts.

    Examples:
        >>> graph_bytes(Board((1000, 1000)), Leaper((1, 2))) // 10**6
        136
    """
    k = len(piece.moves(board.dim))
    return board.n_open * (_BYTES_PER_NODE + _BYTES_PER_MOVE * k)


@dataclass(frozen=True)
class Leaper:
    """A leaper: jumps by any signed permutation of its vector.

    The vector is stored as sorted absolute values, so ``Leaper((2, 1))`` is the
    knight.

    Args:
        vector: the leap, e.g. ``(1, 2)`` for the knight.

    Raises:
        InvalidPieceError: an empty or all-zero vector.

    Examples:
        >>> Leaper((2, -1)) == KNIGHT
        True
        >>> Leaper((0, 1)).moves(2).tolist()
        [[1, 0], [0, 1], [0, -1], [-1, 0]]
        >>> Leaper((0, 0))
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidPieceError: a leaper needs a non-zero component: (0,0)
    """

    vector: tuple[int, ...]

    def __post_init__(self) -> None:
        try:
            # operator.index: ints (and numpy ints) only, never a truncated 1.5
            vector = tuple(sorted(abs(operator.index(x)) for x in self.vector))
        except (TypeError, ValueError):
            raise InvalidPieceError(
                f"a leaper is a tuple of ints: {self.vector!r}"
            ) from None
        if not vector or not any(vector):
            raise InvalidPieceError(
                "a leaper needs a non-zero component: "
                f"({','.join(str(x) for x in self.vector)})"
            )
        if vector[-1] > MAX_COMPONENT:
            raise InvalidPieceError(
                f"a leaper's components must be at most {MAX_COMPONENT}: "
                f"({','.join(str(x) for x in self.vector)})"
            )
        object.__setattr__(self, "vector", vector)

    @classmethod
    def parse(cls, spec: PieceLike) -> Leaper:
        """Read a leaper from a name or components.

        Args:
            spec: ``'knight'``, ``'camel'``, ... (see :data:`NAMED_PIECES`),
                ``'1,3'``, ``'(1,2,3)'``, a tuple of ints, or a :class:`Leaper`.

        Returns:
            The leaper.

        Raises:
            InvalidPieceError: an unknown name or malformed components.

        Examples:
            >>> Leaper.parse("camel").vector
            (1, 3)
            >>> Leaper.parse("1,2,3").vector
            (1, 2, 3)
            >>> Leaper.parse("bishop")
            Traceback (most recent call last):
            ...
            cpknight.errors.InvalidPieceError: expected a piece like '1,2' or a name \
in knight, camel, zebra, giraffe, wazir, ferz, dabbaba, alfil, threeleaper, \
tripper, antelope: 'bishop'
        """
        if isinstance(spec, Leaper):
            return spec
        if isinstance(spec, str):
            text = spec.strip().lower()
            if text in NAMED_PIECES:
                return NAMED_PIECES[text]
            match = re.fullmatch(
                r"[(\[]?\s*(-?\d+(?:\s*[,:/ ]\s*-?\d+)*)\s*[)\]]?", text, re.ASCII
            )
            if not match:
                raise InvalidPieceError(
                    "expected a piece like '1,2' or a name in "
                    f"{', '.join(NAMED_PIECES)}: {spec!r}"
                )
            parts = re.split(r"\s*[,:/ ]\s*", match.group(1))
            return cls(tuple(int(p) for p in parts))
        try:
            return cls(tuple(spec))
        except TypeError:
            raise InvalidPieceError(f"expected a piece like '1,2': {spec!r}") from None

    @property
    def name(self) -> str | None:
        """The piece's common name, if it has one."""
        return _NAMES_BY_VECTOR.get(self.vector)

    @property
    def label(self) -> str:
        """A short name for messages: ``'knight (1,2)'`` or ``'(1,2,3)-leaper'``."""
        text = ",".join(str(x) for x in self.vector)
        return f"{self.name} ({text})" if self.name else f"({text})-leaper"

    def moves(self, dim: int) -> IntArray:
        """The move vectors on a board of ``dim`` axes, one row each, sorted.

        Raises:
            InvalidPieceError: the vector has more components than the board has
                axes.

        Examples:
            >>> Leaper((1, 1)).moves(2).tolist()
            [[1, 1], [1, -1], [-1, 1], [-1, -1]]
            >>> len(KNIGHT.moves(3))
            24
        """
        return _moves(self.vector, dim).copy()

    def shifts(self, dim: int, strides: Sequence[int]) -> list[int]:
        """The moves as distinct non-zero shifts of a row-major index (``strides``)."""
        flat = (_moves(self.vector, dim) @ np.asarray(strides, dtype=np.int64)).tolist()
        return [shift for shift in dict.fromkeys(flat) if shift]

    def check_dim(self, dim: int, board_label: str = "") -> None:
        """Refuse a vector longer than the board's dimension.

        Raises:
            InvalidPieceError: with the piece and the board named.

        Examples:
            >>> KNIGHT.check_dim(3)
            >>> Leaper((1, 2, 3)).check_dim(2, "8x8")
            Traceback (most recent call last):
            ...
            cpknight.errors.InvalidPieceError: piece (1,2,3)-leaper has 3 \
components; board 8x8 has 2 axes
        """
        if len(self.vector) > dim:
            where = f"board {board_label}" if board_label else "the board"
            raise InvalidPieceError(
                f"piece {self.label} has {len(self.vector)} components; "
                f"{where} has {dim} axes"
            )

    def __str__(self) -> str:
        return self.label

    def _repr_svg_(self) -> str | None:
        """The leaper's moves in the plane, for notebooks (None past 2 components)."""
        from cpknight.draw.values import leaper_svg

        return leaper_svg(self)


PieceLike = Leaper | str | Sequence[int]
"""Anything :func:`as_piece` reads."""


def as_piece(piece: PieceLike) -> Leaper:
    """Read a piece given as a :class:`Leaper`, a name, ``'1,3'`` or a tuple.

    Examples:
        >>> as_piece((1, 3)) == as_piece("camel") == CAMEL
        True
    """
    return Leaper.parse(piece)


@lru_cache(maxsize=64)
def _moves(vector: tuple[int, ...], dim: int) -> IntArray:
    if len(vector) > dim:
        raise InvalidPieceError(
            f"piece ({','.join(str(x) for x in vector)}) has {len(vector)} "
            f"components; the board has {dim} axes"
        )
    nonzero = [c for c in vector if c != 0]  # each on an axis of its own
    found = {  # not the dim! orders of the padded vector: 3.6 M on ten axes
        tuple(dict(zip(axes, signed, strict=True)).get(a, 0) for a in range(dim))
        for axes in itertools.permutations(range(dim), len(nonzero))
        for signed in itertools.product(*[(c, -c) for c in nonzero])
    } - {(0,) * dim}
    moves = np.array(sorted(found, reverse=True), dtype=np.int64).reshape(-1, dim)
    moves.setflags(write=False)
    return moves


NAMED_PIECES: dict[str, Leaper] = {
    "knight": Leaper((1, 2)),
    "camel": Leaper((1, 3)),
    "zebra": Leaper((2, 3)),
    "giraffe": Leaper((1, 4)),
    "wazir": Leaper((0, 1)),
    "ferz": Leaper((1, 1)),
    "dabbaba": Leaper((0, 2)),
    "alfil": Leaper((2, 2)),
    "threeleaper": Leaper((0, 3)),
    "tripper": Leaper((3, 3)),
    "antelope": Leaper((3, 4)),
}
"""The leapers with common names."""

_NAMES_BY_VECTOR = {piece.vector: name for name, piece in NAMED_PIECES.items()}

KNIGHT = NAMED_PIECES["knight"]
CAMEL = NAMED_PIECES["camel"]
ZEBRA = NAMED_PIECES["zebra"]
GIRAFFE = NAMED_PIECES["giraffe"]


# -------------------------------------------------------------------- the graph


@dataclass(frozen=True, eq=False)
class MoveGraph:
    """The move graph of a piece on a finite board (build with :func:`move_graph`).

    Nodes are the open cells in row-major order. Arrays are read-only.

    Attributes:
        board: the board.
        piece: the leaper.
        moves: ``(k, d)`` move vectors, in the piece's fixed order.
        cells: ``(n, d)`` coordinates of node ``i``.
        node_of: ``board.shape`` array: the node of each cell, -1 if blocked.
        table: ``(n, k)``: the node reached from node ``i`` by move ``j``, or -1
            (off the board, blocked, or back on the same cell on a tiny torus).
        indptr: CSR row pointers of the neighbour lists (each neighbour once, in
            move order).
        indices: CSR column indices: the neighbours of ``i`` are
            ``indices[indptr[i]:indptr[i + 1]]``.
    """

    board: Board
    piece: Leaper
    moves: IntArray
    cells: IntArray
    node_of: npt.NDArray[np.int32]
    table: npt.NDArray[np.int32]
    indptr: IntArray
    indices: npt.NDArray[np.int32]

    @property
    def n_nodes(self) -> int:
        """The number of nodes (open cells)."""
        return int(self.cells.shape[0])

    @property
    def n_arcs(self) -> int:
        """The number of directed arcs (each edge twice)."""
        return int(self.indices.shape[0])

    @property
    def n_edges(self) -> int:
        """The number of undirected edges."""
        return self.n_arcs // 2

    @cached_property
    def degree(self) -> IntArray:
        """The number of distinct neighbours of each node."""
        degree = np.diff(self.indptr)
        degree.setflags(write=False)
        return degree

    def node(self, cell: Sequence[int]) -> int:
        """The node of a cell on the board (-1 if it is blocked).

        Examples:
            >>> from cpknight.board import Board
            >>> g = move_graph(Board((3, 3), [(0, 1)]), KNIGHT)
            >>> g.node((0, 0)), g.node((0, 1)), g.node((0, 2))
            (0, -1, 1)
        """
        return int(self.node_of[tuple(int(x) for x in cell)])

    def cell(self, node: int) -> Cell:
        """The cell of a node, as a tuple of ints.

        Examples:
            >>> from cpknight.board import Board
            >>> move_graph(Board((3, 3), [(0, 1)]), KNIGHT).cell(1)
            (0, 2)
        """
        return tuple(int(x) for x in self.cells[node])

    def neighbors(self, node: int) -> npt.NDArray[np.int32]:
        """The distinct neighbours of a node, in move order.

        Examples:
            >>> from cpknight.board import Board
            >>> g = move_graph(Board.parse("8x8"), KNIGHT)
            >>> [g.cell(int(n)) for n in g.neighbors(g.node((0, 0)))]
            [(2, 1), (1, 2)]
        """
        return self.indices[self.indptr[node] : self.indptr[node + 1]]

    def arcs(self) -> tuple[IntArray, npt.NDArray[np.int32]]:
        """Every arc once, as two arrays ``(tails, heads)``, tails ascending.

        Examples:
            >>> from cpknight.board import Board
            >>> tails, heads = move_graph(Board.parse("2x3"), KNIGHT).arcs()
            >>> list(zip(tails.tolist(), heads.tolist()))
            [(0, 5), (2, 3), (3, 2), (5, 0)]
        """
        tails = np.repeat(np.arange(self.n_nodes, dtype=np.int64), self.degree)
        return tails, self.indices

    def cell_names(self) -> list[str]:
        """The name of every node's cell, in node order."""
        return self.board.cell_names(self.cells)

    def to_scipy_sparse(self) -> Any:
        """The adjacency matrix as a SciPy sparse CSR array (``n x n``, ones).

        Row and column ``i`` are node ``i`` (the cell ``cells[i]``); each edge
        is there both ways. SciPy is imported here (the ``interop`` extra).

        Examples:
            >>> m = move_graph("3x3").to_scipy_sparse()
            >>> m.shape, int(m.sum())
            ((9, 9), 16)
        """
        from cpknight.runtime.optional import require

        sparse = require("scipy.sparse", "MoveGraph.to_scipy_sparse()")
        data = np.ones(self.n_arcs, dtype=np.int8)
        shape = (self.n_nodes, self.n_nodes)
        arrays = (data, self.indices.copy(), self.indptr.copy())  # scipy may write
        return sparse.csr_array(arrays, shape=shape)

    def to_networkx(self) -> Any:
        """The move graph as a networkx ``Graph`` whose nodes are the cells.

        Nodes are coordinate tuples, each with the attribute ``name``
        (``'a1'``); edges are the moves. networkx is imported here (the
        ``interop`` extra).

        Examples:
            >>> g = move_graph("8x8").to_networkx()
            >>> g.number_of_edges(), sorted(g[(0, 0)])
            (168, [(1, 2), (2, 1)])
        """
        from cpknight.runtime.optional import require

        networkx = require("networkx", "MoveGraph.to_networkx()")
        graph = networkx.Graph()
        cells = [tuple(row) for row in self.cells.tolist()]
        names = self.cell_names()
        graph.add_nodes_from(
            (cell, {"name": name}) for cell, name in zip(cells, names, strict=True)
        )
        tails, heads = self.arcs()
        graph.add_edges_from(
            (cells[t], cells[h])
            for t, h in zip(tails.tolist(), heads.tolist(), strict=True)
            if t < h
        )
        return graph

    def __str__(self) -> str:
        from cpknight.text.display import graph_str

        return graph_str(self)

    def __repr__(self) -> str:
        return (
            f"<MoveGraph {self.piece.label} on {self.board.label}: "
            f"{self.n_nodes} nodes, {self.n_edges} edges>"
        )

    def _repr_svg_(self) -> str | None:
        """Every move drawn, each cell's degree in it (None on huge boards)."""
        from cpknight.draw.values import graph_svg

        return graph_svg(self)


Check = Callable[[str], None]
"""A deadline check, such as ``run.check``: raises once the limit has passed."""


def move_graph(
    board: Board | str | Sequence[int],
    piece: PieceLike = "knight",
    *,
    check: Check | None = None,
) -> MoveGraph:
    """Build (or fetch from a small cache) the move graph of a piece on a board.

    Args:
        board: a finite board, or a spec :meth:`Board.parse` reads (``'8x8'``).
        piece: the leaper.
        check: called between the numpy passes (one per move vector) with
            what is being done: pass ``run.check`` so that a time limit covers
            building the graph (3000x3000: seconds).

    Returns:
        The move graph.

    Raises:
        InvalidBoardError: the board is the unbounded plane, or the graph
            would take more than :data:`MAX_GRAPH_BYTES` (estimated first).
        InvalidPieceError: the piece has more components than the board axes.

    Notes:
        Vectorised: one numpy pass per move vector. The 1000x1000 knight graph
        (8 million table entries) builds in a fraction of a second.

    Examples:
        >>> from cpknight.board import Board
        >>> g = move_graph(Board.parse("3x3"), "knight")
        >>> g.degree.tolist()
        [2, 2, 2, 2, 0, 2, 2, 2, 2]
        >>> g.neighbors(g.node((0, 0))).tolist()
        [7, 5]
        >>> move_graph("8x8").n_arcs
        336
    """
    leaper = as_piece(piece)
    if not isinstance(board, Board):
        board = Board.parse(board)
    board.require_finite("a move graph")
    leaper.check_dim(board.dim, board.label)
    need = graph_bytes(board, leaper)
    refuse_over_budget(
        need,
        f"the move graph of the {leaper.label} on {board.label} "
        f"({board.n_open:,} cells x {len(leaper.moves(board.dim))} moves)",
        "try a smaller board",
    )
    if need > MAX_GRAPH_BYTES:
        k = len(leaper.moves(board.dim))
        raise InvalidBoardError(
            f"the move graph of the {leaper.label} on {board.label} "
            f"({board.n_open:,} cells x {k} moves) would take about "
            f"{need / 1e9:.1f} GB; cpknight builds move graphs of at most "
            f"{MAX_GRAPH_BYTES / 1e9:.0f} GB"
        )
    return _build(board, leaper, check)


_ROWS = 1 << 20
"""Cells of the move table made, or turned into CSR, between two deadline checks."""


class _GraphCache:
    """The last few graphs built, least recently used dropped first.

    Like ``functools.lru_cache`` (``cache_clear`` included), with the deadline
    check passed through to a build; a build that the check stopped is not kept.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.graphs: OrderedDict[tuple[Board, Leaper], MoveGraph] = OrderedDict()

    def __call__(
        self, board: Board, piece: Leaper, check: Check | None = None
    ) -> MoveGraph:
        key = (board, piece)
        graph = self.graphs.get(key)
        if graph is not None:
            self.graphs.move_to_end(key)
            return graph
        graph = _build_graph(board, piece, check)
        self.graphs[key] = graph
        while len(self.graphs) > self.size:
            self.graphs.popitem(last=False)
        return graph

    def cache_clear(self) -> None:
        """Forget every graph (benchmarks time cold builds)."""
        self.graphs.clear()


_build = _GraphCache(16)


def _build_graph(board: Board, piece: Leaper, check: Check | None) -> MoveGraph:
    # int32 throughout (a board has at most MAX_CELLS = 2.5 * 10^7 cells, and
    # every flat index, legal or not, stays far below 2^31): half the memory.
    shape = board.shape
    node_of, flat_open = _number_cells(board.open_mask.ravel())
    n = flat_open.shape[0]
    if check is not None:
        check("building the move graph")
    # Each cell's coordinates, in int32 arithmetic (half the time of
    # np.unravel_index, which works in int64), one axis between two checks.
    coords: list[npt.NDArray[np.int32]] = []
    for axis, size in enumerate(shape):
        if check is not None:  # seconds on 25 million cells
            check("building the move graph")
        stride = math.prod(shape[axis + 1 :])
        coords.append((flat_open // stride % size).astype(np.int32, copy=False))
    if check is not None:
        check("building the move graph")
    cells = np.stack(coords, axis=1).astype(np.int64).reshape(n, board.dim)
    if check is not None:
        check("building the move graph")
    moves = piece.moves(board.dim)
    distinct = _distinct_moves(moves, shape, board.wrap)
    table, counts = _move_table(
        board, moves, distinct, coords, flat_open, node_of, check
    )
    indptr, indices = _table_csr(table, counts, distinct, check)
    for array in (cells, node_of, table, indptr, indices):
        array.setflags(write=False)
    return MoveGraph(
        board=board,
        piece=piece,
        moves=moves,
        cells=cells,
        node_of=node_of.reshape(shape),
        table=table,
        indptr=indptr,
        indices=indices,
    )


def _number_cells(
    mask: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Each flat cell's node (-1 if blocked), and each node's flat cell."""
    size = mask.shape[0]
    n = int(np.count_nonzero(mask))
    if n == size:
        node_of = np.arange(size, dtype=np.int32)
        return node_of, node_of
    node_of = np.full(size, -1, dtype=np.int32)
    node_of[mask] = np.arange(n, dtype=np.int32)
    return node_of, np.flatnonzero(mask).astype(np.int32)


def _move_table(
    board: Board,
    moves: IntArray,
    distinct: npt.NDArray[np.bool_],
    coords: list[npt.NDArray[np.int32]],
    flat_open: npt.NDArray[np.int32],
    node_of: npt.NDArray[np.int32],
    check: Check | None,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """The table (node reached by each move, or -1), one numpy pass per move.

    Returns:
        The table, and each node's count of distinct neighbours (reached by the
        moves that are ``distinct``: see :func:`_distinct_moves`).
    """
    shape = board.shape
    n = flat_open.shape[0]
    strides = [math.prod(shape[a + 1 :]) for a in range(len(shape))]
    inside, term = _axis_steps(board, moves, coords, strides)
    if check is not None:
        check("building the move graph")
    idle = _idle_moves(moves, shape, board.wrap)
    table = np.empty((n, len(moves)), dtype=np.int32)
    counts = np.zeros(n, dtype=np.int32)  # distinct neighbours per node
    vectors = moves.tolist()
    # Per move: the flat shift along bounded axes, the wrap terms, the mask
    # of cells whose step stays on the board.
    plans: list[tuple[int, list[tuple[int, int]], list[tuple[int, int]]]] = []
    for vector in vectors:
        shift = 0
        wrapped: list[tuple[int, int]] = []
        bounded: list[tuple[int, int]] = []
        for axis, value in enumerate(vector):
            if value == 0:
                continue
            if board.wrap[axis]:
                wrapped.append((axis, value))
            else:
                bounded.append((axis, value))
                shift += value * strides[axis]
        plans.append((shift, wrapped, bounded))
    # A block of cells at a time, every move in it, a clock check between two
    # blocks: a move's whole column of 25 million cells takes seconds (the
    # table's pages are touched for the first time).
    for first in range(0, n, _ROWS):
        if check is not None:
            check("building the move graph")
        last = min(n, first + _ROWS)
        cells = slice(first, last)
        target = np.empty(last - first, dtype=np.int32)
        column = np.empty(last - first, dtype=np.int32)
        for j, (shift, wrapped, bounded) in enumerate(plans):
            if idle[j]:
                table[cells, j] = -1
                continue
            np.add(flat_open[cells], np.int32(shift), out=target)
            for axis, value in wrapped:
                target += term[axis, value][cells]
            np.take(node_of, target, mode="clip", out=column)
            for axis, value in bounded:
                np.copyto(column, np.int32(-1), where=~inside[axis, value][cells])
            table[cells, j] = column
            if distinct[j]:
                counts[cells] += column >= 0
    return table, counts


def _axis_steps(
    board: Board,
    moves: IntArray,
    coords: list[npt.NDArray[np.int32]],
    strides: list[int],
) -> tuple[
    dict[tuple[int, int], npt.NDArray[np.bool_]],
    dict[tuple[int, int], npt.NDArray[np.int32]],
]:
    """Per axis and per component value: where a step stays on the board.

    Returns:
        For bounded axes, which cells stay on the board; for wrapped axes, the
        change of each cell's flat index. A leaper uses few distinct values
        per axis, so these few arrays serve every move.
    """
    inside: dict[tuple[int, int], npt.NDArray[np.bool_]] = {}
    term: dict[tuple[int, int], npt.NDArray[np.int32]] = {}
    for axis, extent in enumerate(board.shape):
        for value in {int(v) for v in moves[:, axis]} - {0}:
            if board.wrap[axis]:
                moved = coords[axis] + np.int32(value % extent)
                moved %= np.int32(extent)
                moved -= coords[axis]
                moved *= np.int32(strides[axis])
                term[axis, value] = moved
            elif abs(value) < extent:
                inside[axis, value] = (
                    coords[axis] < extent - value
                    if value > 0
                    else coords[axis] >= -value
                )
    return inside, term


def _table_csr(
    table: npt.NDArray[np.int32],
    counts: npt.NDArray[np.int32],
    distinct: npt.NDArray[np.bool_],
    check: Check | None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """CSR (``indptr``, ``indices``) straight from the table, row by row.

    Neighbours in move order: a move that lands where an earlier move lands (a
    small torus) adds no new neighbour.
    """
    n = table.shape[0]
    if check is not None:
        check("building the move graph")
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, dtype=np.int64, out=indptr[1:])
    indices = np.empty(int(indptr[-1]), dtype=np.int32)
    for first in range(0, n, _ROWS):  # a block of rows between two checks
        if check is not None:
            check("building the move graph")
        rows = table[first : first + _ROWS]
        valid = rows >= 0
        if not distinct.all():
            valid[:, ~distinct] = False
        indices[indptr[first] : indptr[min(n, first + _ROWS)]] = rows[valid]
    return indptr, indices


def _reduced(
    moves: IntArray, shape: tuple[int, ...], wrap: tuple[bool, ...]
) -> IntArray:
    reduced = moves.copy()
    for axis, wraps in enumerate(wrap):
        if wraps:
            reduced[:, axis] %= shape[axis]
    return reduced


def _self_moves(
    moves: IntArray, shape: tuple[int, ...], wrap: tuple[bool, ...]
) -> npt.NDArray[np.bool_]:
    """Which moves land on their own cell (every component 0 modulo its side)."""
    reduced = _reduced(moves, shape, wrap)
    return np.array([not row.any() for row in reduced], dtype=bool)


def _idle_moves(
    moves: IntArray, shape: tuple[int, ...], wrap: tuple[bool, ...]
) -> list[bool]:
    """Which moves reach no cell: their own cell, or off a bounded axis from any.

    A move leaves the board from every cell when a component is at least the
    side of a bounded axis.
    """
    self_moves = _self_moves(moves, shape, wrap)
    return [
        bool(self_moves[j])
        or any(
            not wrap[axis] and abs(value) >= extent
            for axis, (value, extent) in enumerate(zip(vector, shape, strict=True))
        )
        for j, vector in enumerate(moves.tolist())
    ]


def _distinct_moves(
    moves: IntArray, shape: tuple[int, ...], wrap: tuple[bool, ...]
) -> npt.NDArray[np.bool_]:
    """Which moves reach a cell no earlier move reaches, and not their own cell."""
    reduced = _reduced(moves, shape, wrap)
    seen: set[tuple[int, ...]] = set()
    keep = np.zeros(len(moves), dtype=bool)
    for j, row in enumerate(reduced.tolist()):
        key = tuple(row)
        if key not in seen and any(row):
            keep[j] = True
        seen.add(key)
    return keep


def steps_are_moves(
    board: Board, piece: PieceLike, tails: IntArray, heads: IntArray
) -> npt.NDArray[np.bool_]:
    """Whether each step ``tails[i] -> heads[i]`` is one move of the piece.

    Vectorised over millions of steps without building the move graph: a step is
    a move when its difference equals a move vector, modulo the side on each
    wrapped axis. Cells are assumed to lie on the board.

    Args:
        board: the board (its wrap decides the arithmetic).
        piece: the leaper.
        tails: ``(s, d)`` cells.
        heads: ``(s, d)`` cells.

    Returns:
        A boolean array of length ``s``.

    Examples:
        >>> from cpknight.board import Board
        >>> b = Board.parse("8x8")
        >>> steps_are_moves(b, KNIGHT, np.array([[0, 0], [0, 0]]),
        ...                 np.array([[2, 1], [1, 1]])).tolist()
        [True, False]
        >>> t = Board.parse("8x8", topology="torus")
        >>> steps_are_moves(t, KNIGHT, np.array([[0, 0]]), np.array([[7, 6]])).tolist()
        [True]
    """
    leaper = as_piece(piece)
    leaper.check_dim(board.dim, board.label)
    diff = np.asarray(heads, dtype=np.int64) - np.asarray(tails, dtype=np.int64)
    moves = leaper.moves(board.dim)
    wrapped = np.array(board.wrap, dtype=bool)
    if board.unbounded or not wrapped.any():
        pad = (0,) * (board.dim - len(leaper.vector)) + leaper.vector
        if board.dim == 2:  # two axes: no sort, two comparisons per step
            low, high = pad
            rows, cols = np.abs(diff[:, 0]), np.abs(diff[:, 1])
            pair: npt.NDArray[np.bool_] = (rows == low) & (cols == high)
            pair |= (rows == high) & (cols == low)
            return pair
        same: npt.NDArray[np.bool_] = np.all(
            np.sort(np.abs(diff), axis=1) == np.array(pad), axis=1
        )
        return same
    extent = np.array(board.shape, dtype=np.int64)
    diff[:, wrapped] %= extent[wrapped]
    ok = np.zeros(diff.shape[0], dtype=bool)
    for vector in moves:
        want = vector.copy()
        want[wrapped] %= extent[wrapped]
        if not want[~wrapped].any() and not want[wrapped].any():
            continue  # this move lands back on its own cell
        ok |= np.all(diff == want, axis=1)
    return ok


def walk(
    board: Board,
    piece: PieceLike,
    start: Sequence[int],
    moves: Sequence[int] | IntArray,
) -> IntArray:
    """The cells visited from ``start`` by a sequence of moves, ``start`` first.

    Moves are indices into ``piece.moves(board.dim)``. Wrapped axes are taken
    modulo their side; nothing else is checked (a finite board's
    :attr:`MoveGraph.table` says which moves stay on open cells). This is how
    the unbounded plane, which has no move graph, turns moves into cells.

    Args:
        board: the board (the plane, or a finite board for its wrap).
        piece: the leaper.
        start: the first cell.
        moves: the move indices, in order.

    Returns:
        A ``(len(moves) + 1, d)`` int array of cells.

    Examples:
        >>> from cpknight.board import Board
        >>> walk(Board.plane(), KNIGHT, (0, 0), [2, 2, 7]).tolist()
        [[0, 0], [1, 2], [2, 4], [0, 3]]
        >>> walk(Board.parse("8x8", topology="torus"), KNIGHT, (0, 0), [7]).tolist()
        [[0, 0], [6, 7]]
    """
    leaper = as_piece(piece)
    leaper.check_dim(board.dim, board.label)
    vectors = leaper.moves(board.dim)
    index = moves if isinstance(moves, np.ndarray) else list(moves)
    steps = vectors[np.asarray(index, dtype=np.int64)].reshape(-1, board.dim)
    cells = np.vstack([np.asarray(start, dtype=np.int64).reshape(1, board.dim), steps])
    for axis in range(board.dim):  # a column at a time: many times faster
        np.cumsum(cells[:, axis], out=cells[:, axis])
    if not board.unbounded:
        for axis, wraps in enumerate(board.wrap):
            if wraps:
                cells[:, axis] %= board.shape[axis]
    return cells
