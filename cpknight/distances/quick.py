"""Quick single answers: what one board's queries share, kept between calls.

A loop of single queries, ``knight_distance("8x8", s, t)`` over every pair,
once read the board, fetched the move graph, ran a BFS and checked a path on
every call: a quarter of a millisecond each. Here one *board table* per board
and piece keeps what the calls share:

- the board and the piece read once, and each cell name read once;
- for each target asked about, its *tree*: the BFS levels toward it and each
  cell's next hop (the first neighbour in move order one move closer: the
  path the ``bfs`` method walks), certified once when it is made
  (:func:`certify_tree`: the levels are the distances, every hop is a move one
  level down), so that every later answer toward that target is read from two
  arrays, and is what was certified;
- on the unbounded plane, the knight's closed form (no table at all).

A :class:`~cpknight.results.Distance` read from a tree makes its path on
first use, from the tree (or, once the cache dropped it, by the ``bfs``
method's search again). The front doors call :func:`quick_distance`
(:func:`cpknight.knight_distance` with its defaults) and :func:`quick_table`
(:func:`cpknight.shortest_path`, :func:`cpknight.reachable`); a board past
:data:`QUICK_CELLS`, a plane other than the knight's 2D one, or any option
given takes the engines' path as before.

Every cache here is bounded: :data:`SPELLINGS` board and piece spellings,
:data:`TABLES` board tables, :data:`NAMES` cell spellings a table, and trees
of :data:`TREE_ENTRIES` nodes in all (8 bytes a node: 8 MB); boards and pieces
are frozen values, so what is kept never goes stale.

Examples:
    >>> table = quick_table("8x8", "knight")
    >>> d = table.distance("a1", "b2")
    >>> d.distance, d.method, d.names()
    (4, 'bfs', ['a1', 'b3', 'c5', 'a4', 'b2'])
    >>> quick_table("plane", "knight").distance("0,0", "100,57").distance
    53
    >>> quick_table("plane", "camel") is None  # the move-count IP's question
    True
"""

from __future__ import annotations

import threading
import time
import weakref
from array import array
from collections import OrderedDict, deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from cpknight.board import Board, Cell, CellLike
from cpknight.checks import check_cells, make_distance
from cpknight.errors import EngineError, InvalidCellError, NoPathError, TourCheckError
from cpknight.graph.traversal import bfs_levels, bfs_path, next_hops, no_path_error
from cpknight.pieces import (
    KNIGHT,
    Leaper,
    MoveGraph,
    PieceLike,
    as_piece,
    graph_bytes,
    move_graph,
    steps_are_moves,
)
from cpknight.results import Distance
from cpknight.runtime.memory import (
    PATH_CELL_BYTES,
    budget_bytes,
    budget_mb,
    path_bytes,
    refuse_over_budget,
)

__all__ = [
    "MAX_COORDINATE",
    "NAMES",
    "QUICK_CELLS",
    "SPELLINGS",
    "TABLES",
    "TREE_ENTRIES",
    "BoardTable",
    "PlaneTable",
    "Tree",
    "certify_moves",
    "certify_tree",
    "clear_quick_tables",
    "quick_cache_sizes",
    "quick_distance",
    "quick_table",
    "refuse_long_path",
]

QUICK_CELLS = 1 << 16
"""The largest board (cells of its box) that gets a board table: 256x256."""

TREE_ENTRIES = 1 << 20
"""The nodes of all kept trees together (levels and hops, 8 bytes a node)."""

TABLES = 8
"""Board tables kept (the least recently made dropped first)."""

SPELLINGS = 64
"""Spellings of a board and a piece (``'8x8'``, a :class:`Board`) kept."""

NAMES = 4096
"""Cell spellings (``'b3'``, ``'0,0'``) one table keeps."""

MAX_COORDINATE = 10**15
"""The largest coordinate a plane distance takes (the solvers count in 64 bits)."""

_new = object.__new__
_SHORT_GAP = 4096
"""A plane path over a gap this short (under 2,049 moves, 0.63 MB estimated) is
not held to the memory budget: no budget under a megabyte means anything (the
interpreter alone takes 30), and the closed form builds no path at all."""
_PATH_MB = PATH_CELL_BYTES / 2**20
"""A path cell in MB: ``moves * _PATH_MB > budget_mb()`` is ``path_bytes(moves) >
budget_bytes()`` without making an int of the budget (both sides are exact
binary fractions)."""
_lock = threading.Lock()  # the cold paths: making and dropping tables and trees


# ------------------------------------------------------------------ the trees


class Tree:
    """The BFS levels toward one target and each node's next hop, certified.

    Attributes:
        table: the board table it belongs to.
        target: the target's node.
        levels: moves from each node to the target (-1: unreachable).
        hops: each node's next node on its path (-1: the target, unreachable).
        kind: what every answer read from the tree shares
            (``Distance._kind``); its maker holds the tree weakly, so that
            answers kept do not keep trees the cache dropped.
    """

    __slots__ = ("__weakref__", "hops", "kind", "levels", "table", "target")

    def __init__(
        self, table: BoardTable, target: int, levels: array[int], hops: array[int]
    ) -> None:
        self.table = table
        self.target = target
        self.levels = levels
        self.hops = hops
        self.kind = (table.board, table.piece, "bfs", True, _Walk(self))

    def walk(self, node: int) -> tuple[Cell, ...]:
        """The path from ``node`` to the target, cells source first."""
        hops, cell = self.hops, self.table.cell
        path = [cell(node)]
        while node != self.target:
            node = hops[node]
            path.append(cell(node))
        return tuple(path)


class _Walk:
    """A quick answer's path and details, made on first use.

    The path is walked on its tree while the cache keeps it, else found by the
    ``bfs`` method's search again (the same path, checked by ``make_distance``).
    """

    __slots__ = ("board", "piece", "target", "tree")

    def __init__(self, tree: Tree) -> None:
        self.tree = weakref.ref(tree)
        self.board, self.piece = tree.table.board, tree.table.piece
        self.target = tree.table.cell(tree.target)

    def __call__(self, answer: Distance, name: str) -> Any:
        if name != "path":
            return {}
        tree = self.tree()
        if tree is not None:
            return tree.walk(tree.table.node_of_cell(answer.source))
        graph = move_graph(self.board, self.piece)
        nodes = bfs_path(graph, graph.node(answer.source), graph.node(self.target))
        assert nodes is not None  # the answer's distance was read: reachable
        cells = [graph.cell(node) for node in nodes]
        found = make_distance(
            self.board, self.piece, answer.source, self.target, cells,
            method="bfs", started=0.0,
        )  # fmt: skip
        return found.path


def certify_moves(
    graph: MoveGraph,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64]]:
    """Raise unless every arc of the graph is a move between open cells.

    Checked on the coordinates (:func:`~cpknight.checks.check_cells`,
    :func:`~cpknight.pieces.steps_are_moves`), not read from the graph: run
    once per board table, so that each tree need only check that its hops
    are arcs.

    Returns:
        Each arc's tail node, and every arc as ``tail * n + head``, sorted.

    Raises:
        EngineError: an arc is not a move (a bug in cpknight).

    Examples:
        >>> tails, keys = certify_moves(move_graph(Board.parse("2x3"), KNIGHT))
        >>> tails.tolist(), keys.tolist()
        ([0, 2, 3, 5], [5, 15, 20, 30])
    """
    board, piece = graph.board, graph.piece
    n = graph.n_nodes
    tails = np.repeat(np.arange(n), graph.degree)
    heads = graph.indices
    try:
        if n:
            check_cells(board, graph.cells, what="graph")
    except TourCheckError as exc:
        _fault(graph, None, str(exc))
    if not steps_are_moves(board, piece, graph.cells[tails], graph.cells[heads]).all():
        _fault(graph, None, f"an arc is not a {piece.label} move")
    keys = np.sort(tails.astype(np.int64) * n + heads)
    return tails, keys


def certify_tree(
    graph: MoveGraph,
    target: int,
    levels: npt.NDArray[np.int32],
    hops: npt.NDArray[np.int32],
    arcs: tuple[npt.NDArray[np.intp], npt.NDArray[np.int64]] | None = None,
) -> None:
    """Raise unless ``levels`` are the distances to ``target`` and ``hops`` walk them.

    The checker of a tree, run once when it is made, before any answer is read
    from it: the target is the one cell of level 0; every arc joins cells both
    reached or both not, at most one level apart (so no walk to the target is
    shorter than its first cell's level); every reached cell but the target
    hops along an arc to a cell one level lower, and every arc is a move of the
    piece between open cells (:func:`certify_moves`, whose answer ``arcs``
    passes on). So every path read from the tree is a legal walk, and a
    shortest one.

    Raises:
        EngineError: the tree fails (a bug in cpknight).

    Examples:
        >>> from cpknight.graph.traversal import bfs_levels, next_hops
        >>> g = move_graph(Board.parse("3x3"), KNIGHT)
        >>> levels = bfs_levels(g, 0)
        >>> certify_tree(g, 0, levels, next_hops(g, levels))
        >>> bad = levels.copy()
        >>> bad[8] = 6  # c3, 4 moves from a1
        >>> certify_tree(g, 0, bad, next_hops(g, levels))
        Traceback (most recent call last):
        ...
        cpknight.errors.EngineError: internal error: the BFS tree toward a1 on \
board 3x3 fails its check: an arc joins cells more than one level apart
    """
    tails, keys = certify_moves(graph) if arcs is None else arcs
    near, far = levels[tails], levels[graph.indices]
    movers = np.flatnonzero(levels > 0)
    steps = hops[movers]
    if int(levels[target]) != 0 or np.count_nonzero(levels == 0) != 1:
        _fault(graph, target, "the target is not the one cell of level 0")
    if np.any((near < 0) != (far < 0)) or np.any(np.abs(near - far) > 1):
        _fault(graph, target, "an arc joins cells more than one level apart")
    if np.any(hops[levels <= 0] != -1) or np.any(steps < 0):
        _fault(graph, target, "a cell hops where it should not")
    if np.any(levels[steps] != levels[movers] - 1):
        _fault(graph, target, "a hop does not go one level down")
    hop_keys = movers.astype(np.int64) * graph.n_nodes + steps
    at = np.minimum(np.searchsorted(keys, hop_keys), max(keys.size - 1, 0))
    if movers.size and not np.array_equal(keys[at], hop_keys):
        _fault(graph, target, "a hop is not an arc")


def _fault(graph: MoveGraph, target: int | None, fault: str) -> NoReturn:
    board = graph.board
    where = "graph" if target is None else "BFS tree toward "
    if target is not None:
        where += board.cell_name(graph.cell(target))
    raise EngineError(
        f"internal error: the {where} on board {board.label} fails its check: {fault}"
    )


# ------------------------------------------------------------ a finite board


class BoardTable:
    """One finite board and piece: its cells by name, its trees by target.

    Attributes:
        board: the board.
        piece: the leaper.
        need: the move graph's estimated bytes (a tree is made under the
            memory budget, by :func:`~cpknight.pieces.move_graph`; an answer
            read from a tree kept builds nothing).
        names: the cells read, by spelling (``'b3'`` or ``(2, 1)``), as
            ``(node, cell)``.
        trees: the tree kept toward each node, or None.
    """

    __slots__ = (
        "arcs",
        "board",
        "cols",
        "flat_of",
        "names",
        "need",
        "node_of",
        "piece",
        "rows",
        "strides",
        "trees",
    )

    def __init__(self, board: Board, piece: Leaper) -> None:
        self.board = board
        self.piece = piece
        self.need = graph_bytes(board, piece)
        mask = board.open_mask.ravel()
        node_of = np.full(mask.size, -1, dtype=np.int32)
        node_of[mask] = np.arange(int(mask.sum()), dtype=np.int32)
        self.node_of = array("i", node_of.tobytes())
        self.flat_of = array("i", np.flatnonzero(mask).astype(np.int32).tobytes())
        shape = board.shape
        self.strides = tuple(
            int(np.prod(shape[axis + 1 :], dtype=np.int64))
            for axis in range(len(shape))
        )
        self.rows, self.cols = (shape[0], shape[1]) if len(shape) == 2 else (-1, -1)
        self.names: dict[str | Cell, tuple[int, Cell]] = {}
        self.trees: list[Tree | None] = [None] * len(self.flat_of)
        self.arcs: tuple[npt.NDArray[np.intp], npt.NDArray[np.int64]] | None = None

    # ----------------------------------------------------------- cells

    def read(self, spec: CellLike) -> tuple[int, Cell]:
        """A cell spelled any way :meth:`Board.parse_cell` reads: its node and cell.

        A name and a 2D cell of two ints, once read, are kept in ``names``
        (a tuple found there is taken only when both its items are ints: a
        float or a bool equals an int).

        Raises:
            InvalidCellError: as :meth:`Board.parse_cell` does.
        """
        kept = type(spec) is str or (
            type(spec) is tuple
            and len(spec) == 2
            and type(spec[0]) is int
            and type(spec[1]) is int
        )
        if kept:
            known = self.names.get(spec)  # type: ignore[arg-type]
            if known is not None:
                return known
            cell = self.board.parse_cell(spec)
            if type(spec) is tuple:
                cell = spec  # the same cell: kept as given, for identity
            known = (self.node_of_cell(cell), cell)
            if len(self.names) >= NAMES:
                self.names.clear()
            self.names[spec] = known  # type: ignore[index]
            return known
        cell = self.board.parse_cell(spec)
        return self.node_of_cell(cell), cell

    def node_of_cell(self, cell: Sequence[int]) -> int:
        """The node of an open cell of the board."""
        flat = 0
        for x, stride in zip(cell, self.strides, strict=True):
            flat += x * stride
        return self.node_of[flat]

    def cell(self, node: int) -> Cell:
        """The cell of a node."""
        flat = self.flat_of[node]
        if self.cols >= 0:
            return divmod(flat, self.cols)
        coords = []
        for stride in self.strides:
            x, flat = divmod(flat, stride)
            coords.append(x)
        return tuple(coords)

    # ----------------------------------------------------------- trees

    def tree(self, target: int) -> Tree:
        """The certified tree toward node ``target``, made now or kept.

        Raises:
            ModelTooBigError: the move graph is over the memory budget.
            EngineError: the tree fails its check (a bug in cpknight).
        """
        tree = self.trees[target]
        if tree is not None:
            return tree
        graph = move_graph(self.board, self.piece)
        levels = bfs_levels(graph, target)
        hops = next_hops(graph, levels)
        if self.arcs is None:  # the moves checked once for the board
            self.arcs = certify_moves(graph)
        certify_tree(graph, target, levels, hops, self.arcs)
        tree = Tree(
            self, target, array("i", levels.tobytes()), array("i", hops.tobytes())
        )
        _keep_tree(self, tree)
        return tree

    # ----------------------------------------------------------- answers

    def distance(self, source: CellLike, target: CellLike) -> Distance:
        """The ``bfs`` method's answer, read from the tree toward ``target``.

        The same distance and path as ``knight_distance(..., method='bfs')``
        (:func:`quick_distance`).

        Raises:
            InvalidCellError: a cell that is not an open cell of the board.
            NoPathError: the target cannot be reached.
            ModelTooBigError: the move graph is over the memory budget, when
                the tree toward ``target`` is to be made (an answer read from
                a tree kept builds nothing).
        """
        answer = quick_distance(self.board, source, target, self.piece)
        assert answer is not None
        return answer

    def reachable(self, source: CellLike) -> frozenset[Cell] | None:
        """The cells reachable from ``source`` (the levels of its own tree).

        None when the move graph is over the memory budget (the caller refuses
        in its own words).

        Raises:
            InvalidCellError: ``source`` is not an open cell of the board.
        """
        s, _ = self.read(source)
        if self.need > budget_bytes():
            return None
        levels = np.frombuffer(self.tree(s).levels, dtype=np.int32)
        graph = move_graph(self.board, self.piece)
        cells = graph.cells[levels >= 0]
        return frozenset(zip(*(column.tolist() for column in cells.T), strict=True))


def _unreachable(
    board: Board, piece: Leaper, source: Cell, target: Cell
) -> NoPathError:
    error = no_path_error(board, piece, source, target)
    error.method = "bfs"  # as solve_with tags it
    return error


def _keep_tree(table: BoardTable, tree: Tree) -> None:
    """Keep a tree, dropping the oldest while all kept pass :data:`TREE_ENTRIES`."""
    size = len(tree.levels)
    with _lock:
        if table.trees[tree.target] is not None:
            return  # another thread made it first
        while _trees and _tree_nodes[0] + size > TREE_ENTRIES:
            old_table, old_target, old_size = _trees.popleft()
            old_table.trees[old_target] = None
            _tree_nodes[0] -= old_size
        if size > TREE_ENTRIES:
            return  # answered, not kept
        table.trees[tree.target] = tree
        _trees.append((table, tree.target, size))
        _tree_nodes[0] += size


_trees: deque[tuple[BoardTable, int, int]] = deque()
_tree_nodes = [0]


# ---------------------------------------------------------------- the plane


class PlaneTable:
    """The knight on the unbounded plane: the closed form, and cells read kept.

    Attributes:
        board: the plane.
        piece: the knight.
        names: the cells read, by spelling (``'3,4'`` or ``(3, 4)``), each
            with coordinates of at most :data:`MAX_COORDINATE`, as ``(0,
            cell)`` (the 0 where a board table has a node).
    """

    __slots__ = ("board", "kind", "names", "piece")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.piece = KNIGHT
        self.names: dict[str | Cell, tuple[int, Cell]] = {}
        self.kind = (board, KNIGHT, "formula", True, _plane_fields)

    def read(self, spec: CellLike) -> tuple[int, Cell]:
        """A cell of the plane, spelled any way :meth:`Board.parse_cell` reads.

        Returns ``(1, cell)``: its coordinates are yet to be checked against
        :data:`MAX_COORDINATE` (:func:`refuse_long_path`). A name or a cell
        of two ints within it is kept in ``names``.
        """
        pair = (
            type(spec) is tuple
            and len(spec) == 2
            and type(spec[0]) is int
            and type(spec[1]) is int
        )
        cell: Cell = spec if pair else self.board.parse_cell(spec)  # type: ignore[assignment]
        if (pair or type(spec) is str) and all(
            -MAX_COORDINATE <= x <= MAX_COORDINATE for x in cell
        ):
            if len(self.names) >= NAMES:
                self.names.clear()
            self.names[spec] = (0, cell)  # type: ignore[index]
        return 1, cell

    def distance(self, source: CellLike, target: CellLike) -> Distance:
        """The ``formula`` method's answer (the knight's closed form).

        Raises:
            InvalidCellError: a bad cell, or a coordinate past
                :data:`MAX_COORDINATE`.
            ModelTooBigError: a path that long is over the memory budget
                (refused from the digits, as every method's is).
        """
        answer = quick_distance(self.board, source, target, self.piece)
        assert answer is not None
        return answer


def _plane_fields(answer: Distance, name: str) -> Any:
    """A plane answer's ``path`` (none) or ``details``, made on first use."""
    return None if name == "path" else {"case": "plane"}


def refuse_long_path(
    board: Board, piece: Leaper, source: Cell, target: Cell, *, budget: bool = True
) -> None:
    """Refuse a plane path too long to hold, from the target's digits alone.

    Each move changes a coordinate by at most the piece's largest component,
    so the path has at least ``max |target - source| / largest`` moves.
    ``budget=False`` checks the coordinates only.

    Raises:
        InvalidCellError: a coordinate past :data:`MAX_COORDINATE`.
        ModelTooBigError: the path would be over the memory budget.

    Examples:
        >>> refuse_long_path(Board.parse("plane"), KNIGHT, (0, 0), (10**16, 0))
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidCellError: a coordinate of 10,000,000,000,000,000 \
is past 1,000,000,000,000,000: the move counts are 64-bit integers
    """
    reach = max(int(x) for x in piece.vector)
    gap = max(abs(t - s) for s, t in zip(source, target, strict=True))
    far = max(abs(x) for x in (*source, *target))
    if far > MAX_COORDINATE:
        raise InvalidCellError(
            f"a coordinate of {far:,} is past {MAX_COORDINATE:,}: the move counts "
            "are 64-bit integers"
        )
    moves = -(-gap // reach)
    if not budget:
        return
    refuse_over_budget(
        path_bytes(moves + 1),
        f"a shortest path of the {piece.label} from "
        f"{_text(source)} to {_text(target)} "
        f"(at least {moves:,} moves)",
        "ask for a nearer target",
    )


def _text(cell: Sequence[int]) -> str:
    return ",".join(str(x) for x in cell)


# ---------------------------------------------------------------- the caches

QuickTable = BoardTable | PlaneTable
_MISSING: Any = object()
_spellings: dict[tuple[object, object], QuickTable | None] = {}
_knight_spellings: dict[object, QuickTable | None] = {}  # the same, the knight's
_pinned: dict[tuple[object, object], tuple[object, object]] = {}
_tables: OrderedDict[tuple[Board, Leaper], QuickTable | None] = OrderedDict()


def quick_distance(
    board: object, source: CellLike, target: CellLike, piece: PieceLike = KNIGHT
) -> Distance | None:
    """The answer ``knight_distance`` gives with its defaults, from a kept table.

    None where no table applies (:func:`quick_table`): the engines answer.

    Raises:
        InvalidBoardError, InvalidPieceError, InvalidCellError, NoPathError,
        ModelTooBigError: as ``knight_distance`` does.

    Examples:
        >>> quick_distance("8x8", "a1", (7, 7)).distance
        6
    """
    if piece is KNIGHT:  # the default: a key of one string or one int
        table = _knight_spellings.get(board if type(board) is str else id(board))
    else:
        table = _spellings.get((board if type(board) is str else id(board), id(piece)))
    if table is None:
        return _other_distance(board, source, target, piece)
    # The answer, inline (a call costs a tenth of it): cells already read are
    # looked up here, not through read(); a tuple found is taken only when
    # both its items are ints ((1.0, 0) finds (1, 0): read() refuses it).
    names = table.names
    if type(source) is str:
        known = names.get(source)
    elif type(source) is tuple:
        known = names.get(source)
        if (
            known is not None
            and known[1] is not source  # the very tuple kept: its items are ints
            and not (type(source[0]) is int and type(source[1]) is int)
        ):
            known = None
    else:
        known = None
    s, s_cell = table.read(source) if known is None else known
    if type(target) is str:
        known = names.get(target)
    elif type(target) is tuple:
        known = names.get(target)
        if (
            known is not None
            and known[1] is not target  # the very tuple kept: its items are ints
            and not (type(target[0]) is int and type(target[1]) is int)
        ):
            known = None
    else:
        known = None
    t, t_cell = table.read(target) if known is None else known
    answer = _new(Distance)  # its path and details made on first use
    answer._src = s_cell
    answer._tgt = t_cell
    if type(table) is PlaneTable:
        # The knight's distance on the plane: see formula.knight_formula. A
        # cell just read (s or t is 1) has its coordinates checked; a far
        # target is refused from its digits, as every method's is.
        r0, c0 = s_cell
        r1, c1 = t_cell
        x = r1 - r0
        y = c1 - c0
        x = -x if x < 0 else x
        y = -y if y < 0 else y
        if x < y:
            x, y = y, x
        if s or t or (x > _SHORT_GAP and ((x + 1) // 2 + 1) * _PATH_MB > budget_mb()):
            long = x > _SHORT_GAP
            refuse_long_path(table.board, KNIGHT, s_cell, t_cell, budget=long)
        if y == 0 and x == 1:
            answer._moves = 3
        elif x == 2 == y:
            answer._moves = 4
        else:
            x -= y
            y = x - y
            answer._moves = x - 2 * (y // (3 if y < 0 else 4))
        answer._kind = table.kind
        answer._secs = 0.0
        return answer
    assert type(table) is BoardTable
    tree = table.trees[t]
    began = 0.0
    if tree is None:
        began = time.perf_counter()
        tree = table.tree(t)
    moves = tree.levels[s]
    if moves < 0:
        raise _unreachable(table.board, table.piece, s_cell, t_cell)
    answer._kind = tree.kind
    answer._moves = moves
    answer._secs = time.perf_counter() - began if began else 0.0
    return answer


def _other_distance(
    board: object, source: CellLike, target: CellLike, piece: PieceLike
) -> Distance | None:
    """:func:`quick_distance` for a spelling not kept (or no table)."""
    table = quick_table(board, piece)
    return None if table is None else table.distance(source, target)


def quick_table(board: object, piece: PieceLike = KNIGHT) -> QuickTable | None:
    """The kept table of a board and piece, or None where no quick answer applies.

    A finite board of at most :data:`QUICK_CELLS` cells gets a
    :class:`BoardTable` (any leaper); the 2D plane with the knight a
    :class:`PlaneTable`; anything else None (the engines answer).

    Raises:
        InvalidBoardError, InvalidPieceError: bad input, as the front doors say.

    Examples:
        >>> quick_table("8x8") is quick_table(Board.parse("8x8"), "1,2")
        True
        >>> quick_table("300x300") is None
        True
    """
    key = (board if type(board) is str else id(board), id(piece))
    table = _spellings.get(key, _MISSING)
    if table is not _MISSING:
        return table  # type: ignore[no-any-return]
    return _remember(board, piece, key)


def _remember(
    board: object, piece: PieceLike, key: tuple[object, object]
) -> QuickTable | None:
    """Read the board and piece, find or make their table, keep the spelling.

    Raises:
        InvalidBoardError, InvalidPieceError: as the front doors' ``resolve``.
    """
    if isinstance(board, Board):
        resolved = board
    else:  # Board.parse caches specs; it refuses None, 8, 8.5 in one line
        resolved = Board.parse(board, topology="bounded")  # type: ignore[arg-type]
    leaper = as_piece(piece)
    leaper.check_dim(resolved.dim, resolved.label)
    pair = (resolved, leaper)
    with _lock:
        table = _tables.get(pair, _MISSING)
        if table is _MISSING:
            table = _make_table(resolved, leaper)
            _tables[pair] = table
            if len(_tables) > TABLES:
                _tables.popitem(last=False)
                _forget_spellings()  # a spelling may name the table dropped
        else:
            _tables.move_to_end(pair)
        # Only immutable spellings are kept: a str by its value, a Board or a
        # Leaper by its id, pinned (a live object's id is never reused).
        if type(board) in (str, Board) and type(piece) in (str, Leaper):
            if len(_spellings) >= SPELLINGS:
                _forget_spellings()
            _spellings[key] = table
            _pinned[key] = (board, piece)
            if piece is KNIGHT:
                _knight_spellings[key[0]] = table
    return table  # type: ignore[no-any-return]


def _make_table(board: Board, piece: Leaper) -> QuickTable | None:
    if board.unbounded:
        knight = board.dim == 2 and piece.vector == KNIGHT.vector
        return PlaneTable(board) if knight else None
    if board.size > QUICK_CELLS:
        return None
    return BoardTable(board, piece)


def _forget_spellings() -> None:
    _knight_spellings.clear()
    _spellings.clear()
    _pinned.clear()


def quick_cache_sizes() -> dict[str, int]:
    """What the caches hold now: spellings, tables, trees, their nodes, names.

    Examples:
        >>> clear_quick_tables()
        >>> _ = quick_distance("8x8", "a1", "h8")
        >>> sizes = quick_cache_sizes()
        >>> sizes["tables"], sizes["trees"], sizes["tree_nodes"], sizes["names"]
        (1, 1, 64, 2)
    """
    with _lock:
        return {
            "spellings": len(_spellings),
            "tables": len(_tables),
            "trees": len(_trees),
            "tree_nodes": _tree_nodes[0],
            "names": max(
                (len(t.names) for t in _tables.values() if t is not None), default=0
            ),
        }


def clear_quick_tables() -> None:
    """Forget every kept table and tree (the benchmarks time cold sweeps)."""
    with _lock:
        _forget_spellings()
        _tables.clear()
        for table, target, _ in _trees:
            table.trees[target] = None
        _trees.clear()
        _tree_nodes[0] = 0
