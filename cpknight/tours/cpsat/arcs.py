"""The arcs of a tour's circuit model: the open forms and the order of the arcs.

A closed tour is a circuit of the move arcs. An open tour is a path, turned
into a circuit by one of three forms (see :mod:`cpknight.tours.cpsat`), one
function each here: :func:`closing_arc_form` (both ends fixed),
:func:`return_arcs_form` (one end fixed) and :func:`dummy_node_form` (neither).
:func:`open_form` picks the form, :func:`lay_out_arcs` lays the arcs out
(:func:`deep_first_order` or by move) and returns the :class:`ArcLayout` that
the circuit, its side constraints and its symmetry breaking are written on.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import move_graph
    >>> g = move_graph(Board.parse("8x8"))
    >>> arcs = lay_out_arcs(g, closed=False, start=(0, 0), end=None)
    >>> arcs.form, arcs.n_move_arcs, arcs.n_arcs - arcs.n_move_arcs
    ('return-arcs', 334, 63)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from cpknight.board import Cell
from cpknight.errors import InvalidInputError
from cpknight.pieces import MoveGraph
from cpknight.solving import Run
from cpknight.tours.certificates import two_colouring

__all__ = [
    "ArcLayout",
    "OpenForm",
    "cell_depths",
    "closing_arc_form",
    "deep_first_order",
    "dummy_node_form",
    "lay_out_arcs",
    "open_form",
    "return_arcs_form",
]

IntArray = npt.NDArray[np.int64]

ARC_ORDERS = ("deep-first", "moves")
"""How the move arcs may be laid out (see :func:`lay_out_arcs`)."""


@dataclass(frozen=True, eq=False)
class ArcLayout:
    """The arcs of a circuit model, laid out: which arcs, in which order, what form.

    Arcs ``0 .. n_move_arcs - 1`` are move arcs; the rest are the open form's
    extra arcs (closing, return or dummy-node arcs). Node ``n`` (the number of
    cells) is the dummy node when there is one.

    Attributes:
        graph: the move graph.
        closed: closed (circuit) or open (path).
        start: the fixed first cell, if any.
        end: the fixed last cell, if any.
        form: ``'circuit'``, ``'closing-arc'``, ``'return-arcs'`` or
            ``'dummy-node'``.
        tails: the tail node of each arc (read-only).
        heads: the head node of each arc (read-only).
        n_move_arcs: how many arcs are moves.
        symmetry: the symmetry-breaking rule of the model, or ``''``.
        shift: a closed tour with floating visit numbers starts on the first
            of them; decoding rolls the tour back by this many places.
        order: how the move arcs are laid out: ``'deep-first'`` or ``'moves'``.
    """

    graph: MoveGraph
    closed: bool
    start: Cell | None
    end: Cell | None
    form: str
    tails: IntArray
    heads: IntArray
    n_move_arcs: int
    symmetry: str = ""
    shift: int = 0
    order: str = "moves"

    @property
    def n_nodes(self) -> int:
        """Circuit nodes: the cells, plus one for the dummy node."""
        return self.graph.n_nodes + (self.form == "dummy-node")

    @property
    def n_arcs(self) -> int:
        """Arcs (and Booleans) in the circuit."""
        return int(self.tails.shape[0])

    def node_name(self, node: int) -> str:
        """A node's name: its cell's name, or ``'D'`` for the dummy node."""
        if node == self.graph.n_nodes:
            return "D"
        return self.graph.board.cell_name(self.graph.cells[node])

    def arc_name(self, arc: int) -> str:
        """The readable name of arc ``arc``: ``arc[a1->b3]``."""
        tail = self.node_name(int(self.tails[arc]))
        head = self.node_name(int(self.heads[arc]))
        return f"arc[{tail}->{head}]"


class OpenForm(NamedTuple):
    """How an open form turns a path into a circuit.

    Attributes:
        name: the form's name (``'closing-arc'``, ``'return-arcs'``,
            ``'dummy-node'``; ``'circuit'`` for a closed tour).
        keep: which move arcs stay (a mask over the move arcs).
        extra_tails: the tail node of each extra arc.
        extra_heads: the head node of each extra arc.
        rule: the restriction on the ends it reports as symmetry breaking, or
            ``''``.
    """

    name: str
    keep: npt.NDArray[np.bool_]
    extra_tails: IntArray
    extra_heads: IntArray
    rule: str = ""


def closing_arc_form(tails: IntArray, heads: IntArray, s: int, e: int) -> OpenForm:
    """Start and end fixed: drop the arcs into ``s`` and out of ``e``, close ``e -> s``.

    Examples:
        >>> t, h = np.array([0, 1, 2]), np.array([1, 2, 0])
        >>> f = closing_arc_form(t, h, 0, 2)
        >>> f.keep.tolist(), f.extra_tails.tolist(), f.extra_heads.tolist()
        ([True, True, False], [2], [0])
    """
    return OpenForm(
        "closing-arc",
        (heads != s) & (tails != e),
        np.array([e], np.int64),
        np.array([s], np.int64),
    )


def return_arcs_form(
    tails: IntArray, heads: IntArray, n: int, *, start: int = -1, end: int = -1
) -> OpenForm:
    """One end fixed: return arcs from every other cell to the start (or from the end).

    With a fixed start the move arcs into it are replaced by an arc ``v ->
    start`` from every other cell ``v`` (the arc used marks the last cell);
    with a fixed end, the move arcs out of it by an arc ``end -> v`` to every
    other cell (the arc used marks the first). No extra node.

    Examples:
        >>> t, h = np.array([0, 1, 2]), np.array([1, 2, 0])
        >>> f = return_arcs_form(t, h, 3, start=0)
        >>> f.keep.tolist(), f.extra_tails.tolist(), f.extra_heads.tolist()
        ([True, True, False], [1, 2], [0, 0])
    """
    every = np.arange(n, dtype=np.int64)
    if start >= 0:
        others = every[every != start]
        return OpenForm(
            "return-arcs", heads != start, others, np.full(n - 1, start, np.int64)
        )
    others = every[every != end]
    return OpenForm("return-arcs", tails != end, np.full(n - 1, end, np.int64), others)


def dummy_node_form(
    graph: MoveGraph, move_tails: IntArray, *, break_symmetry: bool, directed: bool
) -> OpenForm:
    """Neither end fixed: a dummy node ``D`` joined to the cells that can be ends.

    On a bipartite move graph ``D`` leaves only to one colour class and is
    entered only from the other (an even number of cells: start on colour 0,
    end on colour 1, which picks one direction of each path), or to and from
    the larger class (an odd number); when two cells have one move, they are
    the ends. ``directed``: a path and its reverse are different answers
    (visit numbers fix the direction), so both ends take every cell that can
    be an end.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("5x5"))
        >>> f = dummy_node_form(g, g.arcs()[0], break_symmetry=False, directed=False)
        >>> f.name, f.extra_tails.size, f.rule  # 13 starts and 13 ends: colour 0
        ('dummy-node', 26, '')
    """
    n = graph.n_nodes
    starts, ends, rule = _dummy_ends(graph, break_symmetry, directed)
    return OpenForm(
        "dummy-node",
        np.ones(move_tails.shape[0], dtype=bool),
        np.concatenate([np.full(starts.size, n, np.int64), ends]),
        np.concatenate([starts, np.full(ends.size, n, np.int64)]),
        rule,
    )


def open_form(
    graph: MoveGraph,
    tails: IntArray,
    heads: IntArray,
    *,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    directed: bool = False,
    break_symmetry: bool = False,
) -> OpenForm:
    """The form that makes the tour a circuit: the cheapest for its fixed ends.

    A closed tour is a circuit already (``'circuit'``: every move arc, nothing
    added); an open one takes :func:`closing_arc_form` (both ends fixed),
    :func:`return_arcs_form` (one) or :func:`dummy_node_form` (neither).

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("3x4"))
        >>> t, h = g.arcs()
        >>> [open_form(g, t, h, closed=c, start=s, end=None).name
        ...  for c, s in ((True, None), (False, (0, 0)), (False, None))]
        ['circuit', 'return-arcs', 'dummy-node']
    """
    n = graph.n_nodes
    s = -1 if start is None else graph.node(start)
    e = -1 if end is None else graph.node(end)
    if closed:
        nothing = np.zeros(0, dtype=np.int64)
        return OpenForm("circuit", np.ones(tails.shape[0], bool), nothing, nothing)
    if s >= 0 and e >= 0:
        return closing_arc_form(tails, heads, s, e)
    if s >= 0 or e >= 0:
        return return_arcs_form(tails, heads, n, start=s, end=e)
    return dummy_node_form(
        graph, tails, break_symmetry=break_symmetry, directed=directed
    )


def lay_out_arcs(
    graph: MoveGraph,
    *,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    directed: bool = False,
    break_symmetry: bool = False,
    order: str = "moves",
    seed: int = 0,
    shift: int = 0,
    arrange: bool = True,
    run: Run | None = None,
) -> ArcLayout:
    """The arcs of a tour's circuit: the move arcs, the open form's, in order.

    Args:
        graph: the move graph.
        closed: closed (a circuit of the moves) or open (a path).
        start: the fixed first cell, if any.
        end: the fixed last cell (open tours), if any.
        directed: a path and its reverse are different answers (visit
            numbers): the dummy node joins every cell that can be an end.
        break_symmetry: report the dummy node's colour rule as symmetry
            breaking (for counting).
        order: ``'deep-first'`` (:func:`deep_first_order`) or ``'moves'`` (by
            tail node, then move order).
        seed: shuffles the arcs of each depth in the ``'deep-first'`` order.
        shift: the layout's :attr:`ArcLayout.shift`.
        arrange: lay the move arcs out in ``order``; ``False`` leaves them by
            move and only names the order (printing lists the arcs by cell).
        run: the run whose clock is checked once the arcs are laid out.

    Returns:
        The :class:`ArcLayout`, its arrays read-only.

    Raises:
        InvalidInputError: an unknown ``order``.
        SolveLimitError: the time limit passed while laying out.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("8x8"))
        >>> lay_out_arcs(g, closed=False, start=(0, 0), end=(1, 2)).form
        'closing-arc'
    """
    if order not in ARC_ORDERS:
        raise InvalidInputError(f"unknown arc order {order!r}: deep-first or moves")
    move_tails, move_heads = graph.arcs()
    tails: IntArray = move_tails.astype(np.int64)
    heads: IntArray = move_heads.astype(np.int64)
    form = open_form(
        graph,
        tails,
        heads,
        closed=closed,
        start=start,
        end=end,
        directed=directed,
        break_symmetry=break_symmetry,
    )
    tails, heads = tails[form.keep], heads[form.keep]
    if order == "deep-first" and arrange:
        layout = deep_first_order(graph, tails, seed)
        tails, heads = tails[layout], heads[layout]
        if run is not None:
            run.check("building the model")
    all_t = np.concatenate([tails, form.extra_tails])
    all_h = np.concatenate([heads, form.extra_heads])
    for array in (all_t, all_h):
        array.setflags(write=False)
    return ArcLayout(
        graph=graph,
        closed=closed,
        start=start,
        end=end,
        form=form.name,
        tails=all_t,
        heads=all_h,
        n_move_arcs=int(tails.shape[0]),
        symmetry=form.rule,
        shift=shift,
        order=order,
    )


def cell_depths(graph: MoveGraph) -> IntArray:
    """Each cell's depth: the fewest moves to a cell with fewer moves than most.

    The cells of fewest moves (those with fewer than the largest degree: the
    rim of a plain board, the cells around a hole) have depth 0. On a board
    where every cell has as many moves (a torus) every depth is 0.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> d = cell_depths(move_graph(Board.parse("8x8")))
        >>> int(d.max()), int(d[0]), int(d[27])  # a1 is on the rim, d4 inside
        (1, 0, 1)
    """
    n = graph.n_nodes
    degree = graph.degree
    depth = np.full(n + 1, -1, dtype=np.int64)
    depth[n] = 0  # the spare entry the table's -1 (no move) reads
    frontier: IntArray = np.flatnonzero(degree < degree.max()).astype(np.int64)
    depth[frontier] = 0
    level = 0
    table = graph.table
    while frontier.size:
        level += 1
        reached = table.take(frontier, axis=0).ravel()
        frontier = np.unique(reached[depth.take(reached) < 0]).astype(np.int64)
        depth[frontier] = level
    depth[:n][depth[:n] < 0] = 0
    result: IntArray = depth[:n]
    return result


def deep_first_order(graph: MoveGraph, tails: IntArray, seed: int = 0) -> IntArray:
    """The arcs laid out deepest tail first, shuffled within each depth.

    CP-SAT's first decisions take the Booleans in the order they were made,
    and set them to 0 (its default polarity). Taking the arcs of the cells
    deep inside the board first (each has eight moves and can spare one) and
    the rim last (a corner has two moves: both are in every closed tour)
    leaves the rim its moves until propagation forces them; shuffling within
    each depth keeps the decisions from sweeping the board row by row, which
    leaves dead ends behind the sweep. Closed n x n, one worker, the order
    alone (presolve on in both): 100x100 from 59,095 conflicts and 24.7 s to 10
    and 9.7 s, 120x120 from 74,087 and 56 s to 7 and 18 s; laying the rim out
    first instead leaves 50x50 unsolved after 30 s. See ``benchmarks/tours.py``.

    Args:
        graph: the move graph.
        tails: the tail node of each arc.
        seed: the seed of the shuffle.

    Returns:
        A permutation of ``range(len(tails))``.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("8x8"))
        >>> tails, _ = g.arcs()
        >>> first = tails[deep_first_order(g, tails)]
        >>> int(cell_depths(g)[first[0]]), sorted(first.tolist()) == tails.tolist()
        (1, True)
    """
    depth = cell_depths(graph)
    shuffle = np.random.default_rng(seed).random(size=int(tails.shape[0]))
    layout: IntArray = np.lexsort((shuffle, -depth[tails])).astype(np.int64)
    return layout


def _dummy_ends(
    graph: MoveGraph, break_symmetry: bool, directed: bool = False
) -> tuple[IntArray, IntArray, str]:
    """The cells the dummy node may enter (starts) and leave (ends), and the rule."""
    n = graph.n_nodes
    every = np.arange(n, dtype=np.int64)
    degree = graph.degree
    ones = every[degree == 1]
    colour = two_colouring(graph)
    if colour is None:
        starts = ends = every
        rule = ""
    elif n % 2 == 0:
        # Every path alternates colours and has one end of each: start it on 0.
        starts, ends = every[colour == 0], every[colour == 1]
        rule = "start on colour 0, end on colour 1 (one direction of each path)"
    else:
        major = 0 if int((colour == 0).sum()) > n // 2 else 1
        starts = ends = every[colour == major]
        rule = ""
    if ones.size == 2 and not rule:
        # Both ends are forced: the two cells with one move.
        starts, ends = ones[:1], ones[1:]
        rule = "the two cells with one move are the ends"
    if not break_symmetry and rule.startswith("start on colour"):
        rule = ""  # a valid restriction, not reported as symmetry breaking
    if directed:
        starts = ends = np.union1d(starts, ends)
        rule = ""
    return starts, ends, rule
