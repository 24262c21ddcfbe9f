"""The longest-path puzzles by depth-first branch and bound (the classic way).

From each start cell, extend the path one move at a time while it stays legal
(no cell twice; uncrossed: the new move crosses no move already drawn; induced:
the new cell touches no path cell but the head), keep the longest found, and
cut a branch when even using every cell still usable could not beat it:

- uncrossed: the unused cells the head can still reach by moves that cross
  nothing drawn;
- induced: the unused cells the head can reach through cells that touch no
  path cell but the head (or, for a cycle's last cell, the start): a cell one
  move from any other path cell can never join;

each counted by colour where the move graph has two (a path alternates),
and for the snakes also tile by tile (:mod:`cpknight.longest.forests`: what a
snake still takes of a tile is a linear forest, at most its table's entry).

A path is found from both ends, so the start cells are taken up to the board's
reflections; a cycle is searched from its least cell only, on the cells
whose every image under the reflections is at least that cell (some image of
every cycle lies there). The search proves
what it returns optimal when it runs to the end; at the limit it hands back the
best found, ``feasible``, with the trivial bound (every cell).

Two kernels run it (:data:`KERNELS`): ``python``, the reference, and on the
induced puzzles ``numba`` (:mod:`cpknight.longest.search_jit`, with
``cpknight[fast]``), the same search compiled, move for move: the same answer
and the same counts of attempts and backtracks, tens of times faster. ``auto``
runs the compiled one on induced puzzles of more than :data:`PLAIN_CELLS`
cells once numba has it built (``cpknight warm``), else the plain one: a
first compile would take seconds the time limit may not have.

Examples:
    >>> from cpknight.api import longest_path
    >>> p = longest_path("4x4", kind="uncrossed", method="search", closed=False)
    >>> str(p.status), p.moves
    ('optimal', 5)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cpknight.errors import InvalidInputError, NoPathError, SolveLimitError
from cpknight.graph import two_colours
from cpknight.longest.common import (
    LongestInstance,
    LongestPath,
    make_longest,
    trivial_bound,
)
from cpknight.longest.forests import ForestTiles, forest_tiles
from cpknight.longest.geometry import (
    board_reflections,
    crossing_pairs,
)
from cpknight.runtime.compiled import CompiledLoops
from cpknight.runtime.memory import refuse_over_budget
from cpknight.runtime.optional import installed
from cpknight.solving import Run
from cpknight.status import Effort

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "AUTO",
    "KERNELS",
    "PLAIN_CELLS",
    "SNAKE_LOOPS",
    "choose_search_kernel",
    "solve",
]

AUTO = "auto"
"""The kernel name that asks :func:`choose_search_kernel` to pick one."""

KERNELS = ("python", "numba")
"""The search's kernels: plain Python (every puzzle) and compiled (induced)."""

PLAIN_CELLS = 36
"""``auto`` runs the plain kernel on boards of at most this many cells, where
importing numba (about half a second) costs more than the search."""

SNAKE_LOOPS = CompiledLoops("cpknight.longest.search_jit", 10.0)
"""The compiled snakes' loops: 5-20 s to compile on 2 busy cores (``cpknight warm``)."""

BUDGET = 1 << 21
"""Work (moves tried, cells the bound reached) of one call of the compiled
loop: some milliseconds between two looks at the clock."""

COMPILED_CELL_BYTES = 100
"""What the compiled search holds per cell (ten arrays of 8 bytes, and the
graph's row pointers); its moves take :data:`COMPILED_ARC_BYTES` each."""

COMPILED_ARC_BYTES = 12
"""A move of the compiled search: its ``int64`` index, and the graph's own."""

CHECK_EVERY = 4096
"""Moves tried between two looks at the run's clock."""

CHECK_WORK = 1 << 16
"""Cells the bound has looked at between two looks at the clock (huge boards)."""

CHECK_CELLS = 1 << 12
"""Cells whose tables are made between two looks at the clock."""

CELL_BYTES = 3400
"""What the search's tables hold per cell of a knight's board (its moves as a
list, a set and (cell, move) pairs, the move numbers, the marks): a peak of
3.4 KB a cell measured on 300x300 (induced); half of it goes with the cell,
half with its 8 moves, so other leapers scale by their moves."""

CROSSING_BYTES = 400
"""What the uncrossed search adds per arc: the lists of the moves each crosses."""


def table_bytes(n_nodes: int, n_arcs: int, *, uncrossed: bool = False) -> int:
    """The estimated bytes of the search's tables for a graph this big.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph("2000x2000")
        >>> f"{table_bytes(g.n_nodes, g.n_arcs) / 2**30:.1f} GB"
        '12.6 GB'
    """
    per_arc = CELL_BYTES // 16 + (CROSSING_BYTES if uncrossed else 0)
    return CELL_BYTES * n_nodes // 2 + n_arcs * per_arc


def _least_images(instance: LongestInstance, run: Run | None = None) -> list[int]:
    """For each cell, the least cell of its orbit under the board's reflections.

    Every cell itself where the board has none (other dimensions, or no
    reflection maps its open cells onto themselves). ``run``'s clock is
    looked at every :data:`CHECK_CELLS` cells.
    """
    graph = instance.graph
    n = graph.n_nodes
    least = list(range(n))
    if instance.board.dim != 2:
        return least
    rows, cols = instance.board.shape
    flips: dict[str, Callable[[int, int], tuple[int, int]]] = {
        "files": lambda r, c: (r, cols - 1 - c),
        "ranks": lambda r, c: (rows - 1 - r, c),
        "diagonal": lambda r, c: (c, r),
    }
    maps = [flips[name] for name in board_reflections(instance.board)]
    seen: set[int] = set()
    for v in range(n):
        if run is not None and v % CHECK_CELLS == 0:
            run.check("choosing the start cells")
        if v in seen:
            continue
        orbit = {v}
        frontier = [v]
        while frontier:
            u = frontier.pop()
            r, c = graph.cell(u)
            for f in maps:
                w = graph.node(f(r, c))
                if w not in orbit:
                    orbit.add(w)
                    frontier.append(w)
        for w in orbit:
            least[w] = v  # v is the orbit's least: the cells go up from 0
        seen |= orbit
    return least


def snake_tiles(instance: LongestInstance, run: Run) -> ForestTiles | None:
    """The tiles' bound of a snake search (:mod:`cpknight.longest.forests`).

    None when the puzzle is not a snake's, or its board has tiles of too
    many kinds. ``run``'s clock is looked at before each table.
    """
    if instance.kind != "induced":
        return None
    return forest_tiles(instance.graph, lambda: run.check("making the tiles' tables"))


def _start_cells(least: list[int]) -> list[int]:
    """The start cells: the least cell of each orbit (``least[v] == v``).

    A path is found from both ends, so some image of it starts at one. A
    cycle is searched from its least cell, on the cells whose every image is
    at least that cell (``least[v] >= start``): of a cycle's images, the one
    with the least cell of all lies there, from its least cell.
    """
    return [v for v, low in enumerate(least) if low == v]


class _Search:
    """The search state: the path, the marks, the incumbent, the effort."""

    def __init__(self, instance: LongestInstance, run: Run, use_tiles: bool) -> None:
        graph = instance.graph
        self.instance = instance
        self.run = run
        self.n = graph.n_nodes
        self.closed = instance.closed
        self.uncrossed = instance.kind == "uncrossed"
        refuse_over_budget(
            table_bytes(self.n, graph.n_arcs, uncrossed=self.uncrossed),
            f"the search tables of {instance.board.label} ({self.n:,} cells)",
            "try a smaller board",
        )
        self.adj: list[list[int]] = []
        self.adjset: list[set[int]] = []
        self.edge_id: dict[tuple[int, int], int] = {}
        # Each cell's neighbours with the move's index: (v, e) pairs.
        self.nbr: list[list[tuple[int, int]]] = []
        edges = self._make_tables(graph.indptr, graph.indices)
        self.blocked = [0] * len(edges)  # uncrossed: drawn moves crossing it
        self.crosses: list[list[int]] = []
        self.mark = [0] * self.n  # room(): cells seen in this call
        self.work = 0  # cells room() has looked at since the last clock check
        self.stamp = 0
        if self.uncrossed:
            self.crosses = [[] for _ in edges]
            check = lambda: run.check("finding the crossings")  # noqa: E731
            for i, j in crossing_pairs(graph, edges, check):
                self.crosses[i].append(j)
                self.crosses[j].append(i)
        self.near = [0] * self.n  # induced: path cells one move away
        self.used = [False] * self.n
        self.path: list[int] = []
        self.best: list[int] = []
        self.best_moves = -1
        self.bound = trivial_bound(instance)
        self.least = _least_images(instance, run)
        self.attempts = 0
        self.backtracks = 0
        self.start = 0
        colours = two_colours(instance.graph, lambda: run.check("colouring the cells"))
        self.bipartite = colours is not None
        self.colour = colours if colours is not None else [0] * self.n
        self.tiles = snake_tiles(instance, run) if use_tiles else None

    def _make_tables(
        self, indptr_array: npt.NDArray[Any], indices_array: npt.NDArray[Any]
    ) -> list[tuple[int, int]]:
        """Fill the moves of every cell, a block of cells between two clock looks.

        Returns:
            Every move once, ``(u, v)`` with ``u < v``, in arc order (as
            :func:`~cpknight.graph.segments.move_edges` lists them).
        """
        edges: list[tuple[int, int]] = []
        edge_id, adj, adjset = self.edge_id, self.adj, self.adjset
        indptr: list[int] = []
        indices: list[int] = []
        base = 0
        for u in range(self.n):
            if u % CHECK_CELLS == 0:  # a block of cells, as lists, at a time
                self.run.check("making the search's tables")
                top = min(u + CHECK_CELLS, self.n)
                indptr = indptr_array[u : top + 1].tolist()
                base = indptr[0]
                indices = indices_array[base : indptr[-1]].tolist()
            first = indptr[u % CHECK_CELLS] - base
            near = indices[
                first : first + indptr[u % CHECK_CELLS + 1] - indptr[u % CHECK_CELLS]
            ]
            adj.append(near)
            adjset.append(set(near))
            for v in near:
                if u < v:
                    edge_id[u, v] = edge_id[v, u] = len(edges)
                    edges.append((u, v))
        for u in range(self.n):
            if u % CHECK_CELLS == 0:
                self.run.check("making the search's tables")
            self.nbr.append([(v, edge_id[u, v]) for v in adj[u]])
        return edges

    def effort(self) -> Effort:
        return Effort(attempts=self.attempts, backtracks=self.backtracks)

    def record(self, moves: int) -> None:
        if moves > self.best_moves:
            self.best_moves = moves
            self.best = list(self.path)

    def tick(self) -> None:
        self.attempts += 1
        if self.attempts % CHECK_EVERY == 0:
            self.run.check("searching", effort=self.effort(), bound=self.bound)

    # ------------------------------------------------------------- marks

    def enter(self, v: int, via: int) -> None:
        self.used[v] = True
        self.path.append(v)
        if via >= 0 and self.uncrossed:
            for j in self.crosses[self.edge_id[via, v]]:
                self.blocked[j] += 1
        if not self.uncrossed:
            for w in self.adj[v]:
                self.near[w] += 1

    def leave(self, v: int, via: int) -> None:
        self.used[v] = False
        self.path.pop()
        if via >= 0 and self.uncrossed:
            for j in self.crosses[self.edge_id[via, v]]:
                self.blocked[j] -= 1
        if not self.uncrossed:
            for w in self.adj[v]:
                self.near[w] -= 1

    # ------------------------------------------------------------- bounds

    def room(self, head: int) -> int:
        """At most how many more cells the path can take from ``head``.

        The cells the head can still reach through usable cells (uncrossed: by
        moves that cross nothing drawn; induced: cells that touch no path cell
        but the head, or the start for a cycle's last cell), counted by colour
        when the move graph has two: the path alternates, so beyond the head
        it takes at most ``min(a, b + 1) + min(b, a)`` of ``a`` cells of the
        other colour and ``b`` of the head's own. Only cells with two usable
        moves count, and one more for the last cell. A cycle whose head can
        reach no cell next to its start has no room at all.
        """
        seen = self.reach(head)
        stamp, mark = self.stamp, self.mark
        self.work += len(seen)
        if self.work >= CHECK_WORK:
            self.work = 0
            self.run.check("searching", effort=self.effort(), bound=self.bound)
        if self.closed and head != self.start:
            ends = self.adjset[self.start]
            if head not in ends and not any(mark[w] == stamp for w in ends):
                return -self.n  # no way back to the start: cut
            mark[self.start] = stamp
        return self.count_room(head, seen)

    def reach(self, head: int) -> list[int]:
        """The cells ``head`` can still reach through usable cells, head first.

        They are marked with a new stamp (``mark[v] == stamp``).
        """
        low = self.start if self.closed else -1
        least = self.least
        used, nbr, blocked = self.used, self.nbr, self.blocked
        self.stamp += 1
        stamp, mark = self.stamp, self.mark
        mark[head] = stamp
        seen = [head]
        stack = [head]
        if self.uncrossed:
            while stack:
                u = stack.pop()
                for v, e in nbr[u]:
                    if (
                        mark[v] != stamp
                        and least[v] >= low
                        and not used[v]
                        and not blocked[e]
                    ):
                        mark[v] = stamp
                        seen.append(v)
                        stack.append(v)
            return seen
        near, by_head = self.near, self.adjset[head]
        by_start = (
            self.adjset[self.start] if self.closed and head != self.start else set()
        )
        while stack:
            u = stack.pop()
            for v, _ in nbr[u]:
                if (
                    mark[v] != stamp
                    and least[v] >= low
                    and not used[v]
                    and near[v] == (v in by_head) + (v in by_start)
                ):
                    mark[v] = stamp
                    seen.append(v)
                    stack.append(v)
        return seen

    def count_room(self, head: int, seen: list[int]) -> int:
        """How many of the cells reached beyond the head the path can take.

        A cell the rest of the path passes through needs two usable moves (to
        cells reached, the head, or a cycle's start); one with fewer can only
        be the last cell. A snake takes one of the head's own moves, the next
        cell (another would join the head to a later cell); after it the
        path alternates from the head's colour. Not so at a cycle's start,
        whose first and last cells are both its moves. The cells past the
        next one are a path with no chord, so a snake's bound is also the sum
        of the tiles' tables at the cells counted (:mod:`~cpknight.longest.forests`).
        """
        colour, nbr, blocked = self.colour, self.nbr, self.blocked
        stamp, mark = self.stamp, self.mark
        one_next = not self.uncrossed and not (self.closed and head == self.start)
        by_head = self.adjset[head] if one_next else set()
        tiles = self.tiles if one_next else None
        sets: dict[int, int] = {}  # the tiles' sets of the cells counted
        counts = [0, 0]
        leaves = nexts = 0
        for v in seen[1:]:
            if v in by_head:
                nexts = 1
                continue
            degree = 0
            for w, e in nbr[v]:
                if mark[w] == stamp and not blocked[e]:
                    degree += 1
                    if degree == 2:
                        break
            if degree >= 2:
                counts[colour[v]] += 1
                if tiles is not None:
                    t = tiles.tile[v]
                    sets[t] = sets.get(t, 0) | tiles.bit[v]
            else:
                leaves = 1
        other, own = counts[1 - colour[head]], counts[colour[head]]
        if one_next and nexts:  # the next cell, then the head's colour first
            most = (
                min(own, other + 1) + min(other, own) if self.bipartite else own + other
            )
            if tiles is not None:
                table, offset = tiles.table, tiles.offset
                most = min(most, sum(table[offset[t] + m] for t, m in sets.items()))
            return 1 + most + leaves
        if one_next:
            return 0  # the head reaches nothing
        if self.bipartite:
            return min(other, own + 1) + min(own, other) + leaves
        return sum(counts) + leaves

    # ------------------------------------------------------------- search

    def extend(self, head: int) -> None:
        moves = len(self.path) - 1
        if self.closed:
            self.try_close(head)
        else:
            self.record(moves)
        if self.best_moves >= self.bound:
            return
        room = self.room(head)
        if moves + room + (1 if self.closed else 0) <= self.best_moves:
            return
        low = self.start if self.closed else -1
        for v in self.adj[head]:
            if self.used[v] or self.least[v] < low:
                continue
            self.tick()
            if self.uncrossed:
                if self.blocked[self.edge_id[head, v]]:
                    continue
            else:
                touches = (
                    self.closed and head != self.start and v in self.adjset[self.start]
                )
                if self.near[v] != 1 + touches:
                    continue
                if touches:  # v touches the start too: the cycle closes at v
                    self.path.append(v)
                    self.record(len(self.path))
                    self.path.pop()
                    continue
            self.enter(v, head)
            self.extend(v)
            self.leave(v, head)
            self.backtracks += 1
            if self.best_moves >= self.bound:
                return

    def try_close(self, head: int) -> None:
        """Uncrossed cycles: close back to the start when the move is free."""
        k = len(self.path)
        if (
            self.uncrossed
            and k >= 3
            and self.start in self.adjset[head]
            and not self.blocked[self.edge_id[head, self.start]]
        ):
            self.record(k)

    def run_all(self) -> None:
        starts = _start_cells(self.least)
        for s in starts:
            self.start = s
            self.enter(s, -1)
            self.extend(s)
            self.leave(s, -1)
            if self.best_moves >= self.bound:
                break


def choose_search_kernel(instance: LongestInstance, kernel: str = AUTO) -> str:
    """The kernel the search runs: ``python`` or ``numba`` (see the module notes).

    Raises:
        InvalidInputError: an unknown kernel, or ``numba`` on the uncrossed
            puzzles (it runs the induced ones only).

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> small = LongestInstance(board=Board.parse("5x5"), piece=KNIGHT,
        ...                         kind="induced")
        >>> choose_search_kernel(small)
        'python'
    """
    if kernel != AUTO and kernel not in KERNELS:
        raise InvalidInputError(
            f"expected a search kernel in {', '.join(KERNELS)}, {AUTO}: {kernel!r}"
        )
    if kernel == "numba" and instance.kind != "induced":
        raise InvalidInputError("the compiled search runs the induced puzzles only")
    if kernel != AUTO:
        return kernel
    if (
        instance.kind != "induced"
        or instance.board.n_open <= PLAIN_CELLS
        or not installed("numba")
        or not SNAKE_LOOPS.built()
    ):
        return "python"
    return "numba"


def solve(
    instance: LongestInstance, run: Run, *, kernel: str = AUTO, tiles: bool = True
) -> LongestPath:
    """The ``search`` engine (see the module notes).

    Args:
        instance: the question.
        run: the clock.
        kernel: ``python``, ``numba`` or ``auto`` (:func:`choose_search_kernel`).
        tiles: False: snakes without the tiles' bound (the colours' alone), to
            measure what it saves.

    Raises:
        NoPathError: the search ran to the end and found no cycle.
        SolveLimitError: the limit came first with nothing found.
        InvalidInputError: an uncrossed path on a board that is not bounded 2D,
            or a kernel that cannot run the puzzle.
    """
    started = run.clock.started
    if choose_search_kernel(instance, kernel) == "numba":
        best_moves, best, finished, effort, bound = _run_compiled(instance, run, tiles)
    else:
        best_moves, best, finished, effort, bound = _run_plain(instance, run, tiles)
    if best_moves < 0:
        if finished:
            raise NoPathError(
                f"no {instance.describe()}: proved by search", effort=effort, bound=0
            )
        raise SolveLimitError(
            f"no {instance.describe()} found by the time limit; at most {bound} moves",
            effort=effort,
            bound=bound,
        )
    optimal = finished or best_moves >= bound
    return make_longest(
        instance,
        best,
        status="optimal" if optimal else "feasible",
        bound=best_moves if optimal else bound,
        method="search",
        started=started,
        effort=effort,
    )


_Found = tuple[int, list[int], bool, Effort, int]
"""What a kernel hands back: the best moves (-1: none), its cells, whether
the search ran to the end, the effort, the trivial bound."""


def _run_plain(instance: LongestInstance, run: Run, use_tiles: bool) -> _Found:
    """The plain kernel: :class:`_Search`, recursive."""
    search = _Search(instance, run, use_tiles)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * search.n + 100))
    finished = True
    try:
        search.run_all()
    except SolveLimitError:
        finished = False
    finally:
        sys.setrecursionlimit(limit)
    return search.best_moves, search.best, finished, search.effort(), search.bound


def _run_compiled(instance: LongestInstance, run: Run, use_tiles: bool) -> _Found:
    """The compiled kernel: :func:`~cpknight.longest.search_jit.snake_loop`.

    It is called again and again, :data:`BUDGET` work at a time, with the
    run's clock looked at between two calls.
    """
    import numpy as np

    from cpknight.runtime.optional import require

    graph = instance.graph
    n = graph.n_nodes
    refuse_over_budget(
        COMPILED_CELL_BYTES * n + COMPILED_ARC_BYTES * graph.n_arcs,
        f"the compiled search's arrays of {instance.board.label} ({n:,} cells)",
        "try a smaller board",
    )
    require("numba", "the compiled search", "fast")
    from cpknight.longest import search_jit as jit

    colours = two_colours(graph, lambda: run.check("colouring the cells"))
    colour = np.array(colours if colours is not None else [0] * n, np.int8)
    images = _least_images(instance, run)
    least = np.array(images, np.int64)
    starts = np.array(_start_cells(images), np.int64)
    indptr = np.asarray(graph.indptr, np.int64)
    indices = np.asarray(graph.indices, np.int64)
    a = jit.snake_arrays(n)
    state = a["state"]
    bound = trivial_bound(instance)
    tiles = snake_tiles(instance, run) if use_tiles else None
    none = np.zeros(0, np.int64)  # no tiles: the same types, one compiled loop
    tile_arrays = (
        (*tiles.arrays(), np.zeros(len(tiles.offset), np.int64))
        if (tiles is not None)
        else (none, none, none, np.zeros(0, np.uint8), none)
    )

    def effort() -> Effort:
        return Effort(
            attempts=int(state[jit.S_ATTEMPTS]),
            backtracks=int(state[jit.S_BACKTRACKS]),
        )

    finished = False
    try:
        while not jit.snake_loop(
            indptr,
            indices,
            colour,
            least,
            colours is not None,
            instance.closed,
            starts,
            bound,
            BUDGET,
            tile_arrays,
            *(a[name] for name in jit.ARRAY_ORDER),
        ):
            run.check("searching", effort=effort(), bound=bound)
        finished = True
    except SolveLimitError:
        pass
    best_moves = int(state[jit.S_BEST])
    best = [int(v) for v in a["best_path"][: int(state[jit.S_BEST_CELLS])]]
    return best_moves, best if best_moves >= 0 else [], finished, effort(), bound
