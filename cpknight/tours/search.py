"""Tours by search: backtracking, Warnsdorff, critical-cell pruning, greedy.

Four engines, each registered in :data:`cpknight.api.TOUR_METHODS` with the
engine signature of ``CONTRIBUTING.md``:

- ``backtrack``: depth-first search trying the moves in the piece's fixed order.
- ``warnsdorff``: the same search, trying first the free neighbour with the
  fewest free onward moves (Warnsdorff 1823); ties go to the cell farthest from
  the centre of the board (Roth's rule), then to move order; with a non-zero
  ``seed``, ties are broken by a random ranking of the cells drawn from that seed.
- ``prune``: ``warnsdorff`` plus critical-cell pruning: after each move, every
  unvisited cell needs enough usable neighbours (unvisited cells, the current
  cell, and for a closed tour the start) to be entered and left; a cell with
  one left can only be the last cell, so a branch is cut when some cell has
  none, or more cells have one than the tour can end on (one for an open tour,
  only the fixed end when there is one, none for a closed tour), or, for a
  closed tour, when the start has no unvisited neighbour left to end on.
- ``greedy``: Warnsdorff's rule with Roth's tie-break and no backtracking:
  one pass, fast on large boards. It may get stuck; failing proves nothing, so
  it raises :class:`~cpknight.errors.SolveLimitError` ("greedy gave up"), never
  :class:`~cpknight.errors.NoTourError`.

The searches are iterative (an explicit stack, no recursion limit), run on
plain Python lists built from the move graph's CSR arrays as the search
first reaches each cell (a huge board pays for the cells it visits), check the
time limit every 1024 attempts, and count their effort exactly: ``attempts`` is
the number of moves made (each step onto a cell, the start excluded),
``backtracks`` the number of moves undone. When a search returns its first
tour, ``attempts - backtracks`` is the number of moves in the tour; when it
exhausts every branch it has proved that no tour exists and raises
:class:`SearchExhaustedError` (a ``NoTourError`` carrying the effort).

Warnsdorff's order is heavy-tailed: one early mistake can cost millions of
attempts. So ``warnsdorff`` and ``prune``, when looking for one tour, restart:
the first run may make ``max(4096, 2n)`` attempts, each next run twice as many
as the last, with the ties broken by a fresh random ranking (drawn from
``seed``); a run that ends below its cap has searched everything and is a proof.
Enumeration (:func:`iter_search_tours`) makes one run, without restarts.

An open tour with no fixed start is searched from every start cell in turn
(lowest degree first); with a fixed end and no fixed start, it is searched
backwards from the end. A closed tour with no fixed start begins on the first
cell of lowest degree (every cell lies on a circuit).

Examples:
    >>> from cpknight import find_tour, is_tour
    >>> t = find_tour("5x5", closed=False, start="a1", method="warnsdorff")
    >>> is_tour(t.board, t.cells, start="a1", closed=False), t.effort.attempts >= 24
    (True, True)
    >>> from cpknight.board import Board
    >>> from cpknight.tours.instance import TourInstance
    >>> from cpknight.pieces import KNIGHT
    >>> from cpknight.solving import SolveOptions
    >>> solve_prune(TourInstance(Board.parse("4x4"), KNIGHT), SolveOptions().start())
    Traceback (most recent call last):
    ...
    cpknight.tours.search.SearchExhaustedError: the prune search tried every branch: \
no closed tour of 4x4 (knight (1,2))

References:
    H. C. von Warnsdorf, *Des Rösselsprunges einfachste und allgemeinste
    Lösung*, Schmalkalden, 1823.
    I. Pohl, A method for finding Hamilton paths and knight's tours,
    Communications of the ACM 10(7), 1967.
    D. Squirrel and P. Cull, A Warnsdorff-rule algorithm for knight's tours on
    square chessboards, 1996.
    A. Roth, The problem of the knight: a fast and simple algorithm, Wolfram
    Library Archive, 2000 (ties to the cell farthest from the centre).
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from cpknight.board import Cell
from cpknight.checks import make_tour
from cpknight.constraints import TourConstraints
from cpknight.errors import EngineError, InvalidInputError, NoTourError, SolveLimitError
from cpknight.pieces import MoveGraph
from cpknight.results import Tour
from cpknight.solving import Run
from cpknight.status import Effort
from cpknight.tours.certificates import check_tour_possible
from cpknight.tours.instance import TourInstance
from cpknight.tours.search_order import by_degree, rank_of, roth_rank, tie_order

__all__ = [
    "SEARCH_METHODS",
    "SearchExhaustedError",
    "iter_search_tours",
    "solve_backtrack",
    "solve_greedy",
    "solve_prune",
    "solve_warnsdorff",
]

SEARCH_METHODS = ("backtrack", "warnsdorff", "prune")
"""The engines that backtrack (and so can enumerate tours and prove there are none)."""

CHECK_EVERY = 1024
"""The clock is looked at once every this many attempts."""

RESTART_ATTEMPTS = 4096
"""The least attempt cap of a Warnsdorff search's first run (at least twice the
number of cells); it doubles at each restart."""


class SearchExhaustedError(NoTourError):
    """A search tried every branch and found no tour: a proof, with its effort.

    Attributes:
        effort: the attempts and backtracks the search made.
    """

    def __init__(self, reason: str, *, effort: Effort) -> None:
        super().__init__(reason, certificate="search", effort=effort)


class _OutOfTime(Exception):
    """Raised inside a search when the time limit has passed."""


class _Capped(Exception):
    """Raised inside a search when a restart's attempt cap is reached."""


@dataclass
class _Counter:
    attempts: int = 0
    backtracks: int = 0

    def effort(self) -> Effort:
        return Effort(attempts=self.attempts, backtracks=self.backtracks)


# ----------------------------------------------------------------- the engines


def solve_backtrack(instance: TourInstance, run: Run) -> Tour:
    """Plain depth-first backtracking, moves tried in the piece's fixed order.

    Complete: it finds a tour or proves there is none, but its effort grows
    exponentially (an open 5x5 tour from a1 takes a few thousand attempts, an
    8x8 one far more than any time limit).

    Raises:
        SearchExhaustedError: every branch was tried (a ``NoTourError``).
        SolveLimitError: the time limit passed (with the effort).

    Examples:
        >>> from cpknight import find_tour
        >>> t = find_tour("3x4", closed=False, start="a1", method="backtrack")
        >>> t.effort.attempts - t.effort.backtracks
        11
    """
    return next(_tours("backtrack", instance, run))


def solve_warnsdorff(instance: TourInstance, run: Run) -> Tour:
    """Backtracking that tries the neighbour with the fewest onward moves first.

    Ties go to the cell farthest from the centre (Roth), then to move order;
    with ``run.options.seed != 0`` ties follow a random ranking drawn from the seed.
    For a closed tour the start counts as an onward move of its neighbours.

    Raises:
        SearchExhaustedError: every branch was tried (a ``NoTourError``).
        SolveLimitError: the time limit passed (with the effort).

    Examples:
        >>> from cpknight import find_tour
        >>> t = find_tour("8x8", closed=False, start="a1", method="warnsdorff")
        >>> len(t), t.effort.backtracks
        (64, 0)
    """
    return next(_tours("warnsdorff", instance, run))


def solve_prune(instance: TourInstance, run: Run) -> Tour:
    """Warnsdorff's order plus critical-cell pruning (see the module notes).

    Raises:
        SearchExhaustedError: every branch was tried (a ``NoTourError``).
        SolveLimitError: the time limit passed (with the effort).

    Examples:
        >>> from cpknight import find_tour
        >>> t = find_tour("6x6", closed=True, method="prune")
        >>> len(t), t.closed
        (36, True)
    """
    return next(_tours("prune", instance, run))


def solve_greedy(instance: TourInstance, run: Run) -> Tour:
    """Warnsdorff's rule without backtracking, ties by Roth's rule.

    One pass from the start (or, with no start, from the first cell of lowest
    degree farthest from the centre). A closed tour succeeds only when the
    pass happens to end next to the start.

    Raises:
        SolveLimitError: the pass got stuck ("greedy gave up": this proves
            nothing) or the time limit passed (with the effort).

    Examples:
        >>> from cpknight import find_tour
        >>> t = find_tour("20x20", closed=False, start="a1", method="greedy")
        >>> len(t), t.effort.backtracks
        (400, 0)
    """
    graph, closed, start, end = (
        instance.graph,
        instance.closed,
        instance.start,
        instance.end,
    )
    if instance.constraints:
        raise InvalidInputError(
            "the greedy engine does not take side constraints; use cpsat or prune"
        )
    n = graph.n_nodes
    first = _trivial(graph, closed, start, end)
    if first is not None:
        return _finish(graph, first, closed, "greedy", _Counter(), run)
    start_node = _node(graph, start)
    end_node = _node(graph, end)
    if start_node < 0 and end_node >= 0 and not closed:
        start_node, end_node, reverse = end_node, -1, True
    else:
        reverse = False
    rank_np = roth_rank(graph, 0)
    if start_node < 0:
        start_node = int(np.lexsort((rank_np, graph.degree))[0])
    counter = _Counter()
    if run.expired():
        raise _limit("greedy", graph, closed, counter, run)
    path = _greedy_walk(graph, rank_np, start_node, end_node, closed, run, counter)
    ptr, ind = graph.indptr, graph.indices
    ok = len(path) == n
    if ok and closed:
        ok = path[-1] in ind[ptr[start_node] : ptr[start_node + 1]].tolist()
    if not ok:
        kind = "closed" if closed else "open"
        raise SolveLimitError(
            f"greedy gave up after {len(path)} of {n} cells: no {kind} tour found "
            f"on {graph.board.label} (greedy never backtracks, so this proves "
            "nothing; try method 'prune' or 'cpsat')",
            effort=counter.effort(),
        )
    if reverse:
        path.reverse()
    return _finish(graph, path, closed, "greedy", counter, run, start, end)


def _greedy_walk(
    graph: MoveGraph,
    rank_np: npt.NDArray[np.int64],
    start: int,
    end: int,
    closed: bool,
    run: Run,
    counter: _Counter,
) -> list[int]:
    """One pass of Warnsdorff's rule from ``start``: the path until it is stuck.

    Each step takes the unvisited neighbour with the fewest onward moves,
    ties to the lowest ``rank``; ``end`` is entered last only. The path has
    every cell when the pass went through; ``counter.attempts`` its moves.

    Raises:
        SolveLimitError: the time limit passed (with the effort).
    """
    n = graph.n_nodes
    rank: list[int] = rank_np.tolist()
    avail: list[int] = graph.degree.tolist()
    ptr = array("q", graph.indptr.astype(np.int64).tobytes())
    ind = array("i", graph.indices.astype(np.int32).tobytes())
    visited = bytearray(n)
    visited[start] = 1
    path = [start]
    head = start
    for depth in range(1, n):
        if not depth & (CHECK_EVERY - 1) and run.expired():
            counter.attempts = depth - 1
            raise _limit("greedy", graph, closed, counter, run)
        best = -1
        best_key = 0
        for w in ind[ptr[head] : ptr[head + 1]]:
            avail[w] -= 1
            if visited[w] or (w == end and depth < n - 1):
                continue
            key = avail[w] * n + rank[w]
            if best < 0 or key < best_key:
                best, best_key = w, key
        if best < 0:
            break
        visited[best] = 1
        path.append(best)
        head = best
    counter.attempts = len(path) - 1
    return path


def iter_search_tours(instance: TourInstance, run: Run, method: str) -> Iterator[Tour]:
    """Every tour a backtracking search finds, one checked tour at a time.

    Open tours with no fixed start are enumerated from every start cell, each
    directed path once. Closed tours are listed as sequences from the start
    (or the first cell of lowest degree): each circuit twice, once per
    direction.

    Args:
        instance: the tour instance.
        run: the run context: the seed (tie-breaks) and the time limit for the
            whole enumeration.
        method: ``'backtrack'``, ``'warnsdorff'`` or ``'prune'``.

    Yields:
        Checked tours; ``effort`` is the search's effort so far.

    Raises:
        InvalidInputError: a method that does not backtrack.
        SolveLimitError: the time limit passed before the enumeration ended.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.tours.instance import TourInstance
        >>> from cpknight.pieces import KNIGHT
        >>> from cpknight.solving import SolveOptions
        >>> inst = TourInstance(Board.parse("3x4"), KNIGHT, closed=False, start=(0, 0))
        >>> len(list(iter_search_tours(inst, SolveOptions().start(), "prune")))
        2
    """
    if method not in SEARCH_METHODS:
        raise InvalidInputError(
            f"expected a search method in {', '.join(SEARCH_METHODS)}: {method!r}"
        )
    yield from _tours(method, instance, run, enumerate_all=True)


# ------------------------------------------------------------------ internals


def _tours(
    method: str,
    instance: TourInstance,
    run: Run,
    *,
    enumerate_all: bool = False,
) -> Iterator[Tour]:
    """The checked tours of a backtracking search, trivial instances settled.

    Finding (not enumerating), it yields one tour or raises (``_paths`` raises
    when it finds none); enumerating, an instance proved to have no tour yields
    nothing.
    """
    graph, closed, start, end = (
        instance.graph,
        instance.closed,
        instance.start,
        instance.end,
    )
    given = instance.constraints
    if given.symmetric or given.magic:
        raise InvalidInputError(
            f"the {method} search does not take --symmetric or --magic; use cpsat"
        )
    counter = _Counter()
    try:
        first = _trivial(graph, closed, start, end)
    except NoTourError:
        if enumerate_all:
            return
        raise
    if first is not None:
        yield _finish(graph, first, closed, method, counter, run, constraints=given)
        return
    anchor, side, shift = given.anchored(closed, start, graph.n_nodes)
    paths = _paths(
        method,
        graph,
        closed,
        anchor,
        end,
        run,
        counter,
        enumerate_all=enumerate_all,
        side=side,
    )
    for path in paths:
        if shift:
            path = path[-shift:] + path[:-shift]
        yield _finish(
            graph, path, closed, method, counter, run, start, end, constraints=given
        )


def _paths(
    method: str,
    graph: MoveGraph,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    run: Run,
    counter: _Counter,
    *,
    enumerate_all: bool = False,
    side: TourConstraints | None = None,
) -> Iterator[list[int]]:
    """The tours (node lists) of a backtracking search, start cells in turn.

    Side constraints (visit numbers, required and forbidden moves) filter the
    moves tried; see :func:`_dfs`. Raises ``SearchExhaustedError`` when it
    found none at all, and ``SolveLimitError`` at the time limit.

    Warnsdorff's order is heavy-tailed: one early mistake can cost millions of
    attempts. When finding (not enumerating), the ordered searches restart with
    a doubling cap and fresh random tie-breaks; a run that ends below its cap
    is a proof.
    """
    if run.expired():
        raise _limit(method, graph, closed, counter, run)
    nbrs = _Neighbours(graph)
    ordered = method != "backtrack"
    start_node, end_node, reverse, rules = _search_ends(graph, nbrs, start, end, side)
    restart = ordered and not enumerate_all
    found = False
    for restart_no in itertools.count():
        rank, starts = _restart_order(
            method, graph, closed, ordered, start_node, rules, run, counter, restart_no
        )
        cap = max(RESTART_ATTEMPTS, 2 * graph.n_nodes) << restart_no
        stop_at = counter.attempts + cap if restart else -1
        try:
            for s in starts:
                for path in _dfs(
                    nbrs,
                    s,
                    end=end_node,
                    closed=closed,
                    ordered=ordered,
                    prune=method == "prune",
                    rank=rank,
                    run=run,
                    counter=counter,
                    stop_at=stop_at,
                    rules=rules,
                ):
                    found = True
                    yield path[::-1] if reverse else list(path)
        except _OutOfTime:
            raise _limit(method, graph, closed, counter, run) from None
        except _Capped:
            continue
        break
    if not found and not enumerate_all:
        raise _exhausted(method, graph, closed, start, end, side, counter)


def _restart_order(
    method: str,
    graph: MoveGraph,
    closed: bool,
    ordered: bool,
    start: int,
    rules: _Rules | None,
    run: Run,
    counter: _Counter,
    restart_no: int,
) -> tuple[array[int], Iterable[int]]:
    """One restart's order: each node's rank (ties broken afresh), the starts.

    The rank is an array, not a list: on a huge board, millions of int objects
    would cost seconds to make and to free after the time limit.

    Raises:
        SolveLimitError: the limit passed while ranking (9 M cells take a
            second) or while ordering the start cells.
    """
    order = tie_order(graph, ordered, run.options.seed, restart_no)
    rank_np = rank_of(order)
    if run.expired():  # ranking 9 M cells takes a second
        raise _limit(method, graph, closed, counter, run)
    rank = array("q", rank_np.astype(np.int64).tobytes())
    starts = _start_nodes(graph, order, start, closed, rules)
    if run.expired():  # and after ordering the starts
        raise _limit(method, graph, closed, counter, run)
    return rank, starts


def _search_ends(
    graph: MoveGraph,
    nbrs: _Neighbours,
    start: Cell | None,
    end: Cell | None,
    side: TourConstraints | None,
) -> tuple[int, int, bool, _Rules | None]:
    """Where the search starts and ends, whether it runs backwards, its rules.

    A path with only its end fixed is searched from the end and reversed; a
    visit number 1 fixes the start.

    Returns:
        ``(start, end, reverse, rules)``: nodes (-1 when free), whether the
        paths found are to be reversed, the side constraints' filter.
    """
    start_node, end_node = _node(graph, start), _node(graph, end)
    reverse = False
    if start_node < 0 and end_node >= 0:
        start_node, end_node, reverse = end_node, -1, True
    rules = _Rules.of(graph, nbrs, side, reverse)
    if rules is not None and start_node < 0 and rules.via_at[0] >= 0:
        start_node = rules.via_at[0]
    return start_node, end_node, reverse, rules


def _start_nodes(
    graph: MoveGraph,
    order: npt.NDArray[np.int64],
    start: int,
    closed: bool,
    rules: _Rules | None,
) -> Iterable[int]:
    """The cells a search starts from, in turn.

    The fixed start; for a closed tour, a cell of fewest moves (every cell is
    on it); for an open tour every cell, fewest moves first (ties in
    ``order``), less those a visit number places elsewhere than first.
    """
    starts: Iterable[int]
    if start >= 0:
        return [start]
    if closed:
        starts = [int(np.argmin(graph.degree))]
    else:
        starts = map(int, by_degree(order, graph.degree))
    if rules is not None:
        via_pos = rules.via_pos
        starts = (v for v in starts if via_pos[v] < 0)
    return starts


def _exhausted(
    method: str,
    graph: MoveGraph,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    side: TourConstraints | None,
    counter: _Counter,
) -> SearchExhaustedError:
    """The proof that there is none: the search tried every branch."""
    kind = "closed" if closed else "open"
    where = ""
    if start is not None:
        where += f" from {graph.board.cell_name(start)}"
    if end is not None:
        where += f" to {graph.board.cell_name(end)}"
    if side:
        where += f" with {side.describe(graph.board)}"
    return SearchExhaustedError(
        f"the {method} search tried every branch: no {kind} tour of "
        f"{graph.board.label}{where} ({graph.piece.label})",
        effort=counter.effort(),
    )


_UNBUILT: list[int] = []
"""The place-holder of a neighbour list not built yet (never edited)."""


class _Neighbours:
    """Each node's neighbour list, built from the CSR arrays when first read.

    A search reads the lists of the cells on its path and of few others, so on
    a huge board building all of them up front (tens of seconds for 9 M cells)
    and freeing them after the time limit (seconds, outside any clock) is
    wasted: a list is made the first time its node is looked up
    (``nbrs[v]``), and lists may be edited in place (forbidden moves are taken
    out). ``lists`` is the plain list the search's inner loop reads, with
    :data:`_UNBUILT` for the lists not built; ``degrees()`` is every node's
    list length, built or not.
    """

    def __init__(self, graph: MoveGraph) -> None:
        self.lists: list[list[int]] = [_UNBUILT] * graph.n_nodes
        self._built: list[int] = []
        self._degree = graph.degree
        self._ptr = np.ascontiguousarray(graph.indptr, dtype=np.int64).data
        self._ind = np.ascontiguousarray(graph.indices, dtype=np.int32).data

    def __getitem__(self, v: int) -> list[int]:
        found = self.lists[v]
        if found is _UNBUILT:
            found = self._ind[self._ptr[v] : self._ptr[v + 1]].tolist()
            self.lists[v] = found
            self._built.append(v)
        return found

    def built(self) -> list[int]:
        """The nodes whose lists are built, in the order they were."""
        return list(self._built)

    def degrees(self) -> list[int]:
        """The length of every node's list (edits included), in node order."""
        out: list[int] = self._degree.tolist()
        for v in self._built:
            out[v] = len(self.lists[v])
        return out


def _dfs(
    nbrs: _Neighbours,
    start: int,
    *,
    end: int,
    closed: bool,
    ordered: bool,
    prune: bool,
    rank: Sequence[int],
    run: Run,
    counter: _Counter,
    stop_at: int,
    rules: _Rules | None = None,
) -> Iterator[list[int]]:
    """Depth-first search from ``start``; yields the path list (do not keep it).

    ``avail[w]`` is the number of neighbours of ``w`` that are unvisited or the
    current cell (for a closed tour the start stays counted too): moving the
    head from ``u`` lowers it by one exactly on the neighbours of ``u``.
    ``zeros`` and ``ones`` count the unvisited cells with 0 and 1 of them.
    """
    avail = nbrs.degrees()
    n = len(avail)
    built = nbrs.lists  # every cell on the path has its list built (see below)
    visited = bytearray(n)
    visited[start] = 1
    path = [start]
    if n == 1:
        yield path
        return
    back = bytearray(n)
    for w in nbrs[start]:
        back[w] = 1
    home = len(built[start])  # unvisited neighbours of the start: a closed end
    zeros = ones = 0
    if prune:  # the start is visited: not counted
        zeros = avail.count(0) - (avail[start] == 0)
        ones = avail.count(1) - (avail[start] == 1)
    track = ordered or prune
    # How many one-exit cells may remain: only the cell the tour ends on.
    allowed = 0 if closed else 1

    def candidates(v: int, depth: int) -> list[int]:
        nxt = [w for w in built[v] if not visited[w]]
        if end >= 0 and depth < n - 1 and end in nxt:
            nxt.remove(end)
        if rules is not None:
            nxt = rules.filter(nxt, path, visited, depth, closed)
        if ordered and len(nxt) > 1:
            nxt.sort(key=lambda w: avail[w] * n + rank[w])
        nxt.reverse()
        return nxt

    if prune and (zeros or ones > _allowed(allowed, end, avail, visited)):
        return
    if run.expired():  # the set-up is linear in the cells: a look at the clock
        raise _OutOfTime
    attempts, backtracks = counter.attempts, counter.backtracks
    stack = [candidates(start, 1)]
    try:
        while stack:
            top = stack[-1]
            if top:
                v = top.pop()
                attempts += 1
                if not attempts & (CHECK_EVERY - 1) and run.expired():
                    raise _OutOfTime
                if attempts == stop_at:
                    raise _Capped
                u = path[-1]
                if track and not (closed and u == start):
                    for w in built[u]:
                        a = avail[w] - 1
                        avail[w] = a
                        if prune and not visited[w]:
                            if a == 1:
                                ones += 1
                            elif a == 0:
                                ones -= 1
                                zeros += 1
                visited[v] = 1
                path.append(v)
                if built[v] is _UNBUILT:
                    built[v] = nbrs[v]  # its list, built on the first visit
                home -= back[v]
                if prune:
                    a = avail[v]
                    if a == 0:
                        zeros -= 1
                    elif a == 1:
                        ones -= 1
                depth = len(path)
                if depth == n:
                    if not closed or back[v]:
                        counter.attempts, counter.backtracks = attempts, backtracks
                        yield path
                elif not prune or not (
                    zeros
                    or ones > _allowed(allowed, end, avail, visited)
                    or (closed and not home)
                ):
                    stack.append(candidates(v, depth))
                    continue
            else:
                stack.pop()
                if not stack:
                    break
            # Undo the last move.
            v = path.pop()
            u = path[-1]
            backtracks += 1
            visited[v] = 0
            home += back[v]
            if prune:
                a = avail[v]
                if a == 0:
                    zeros += 1
                elif a == 1:
                    ones += 1
            if track and not (closed and u == start):
                for w in built[u]:
                    a = avail[w] + 1
                    avail[w] = a
                    if prune and not visited[w]:
                        if a == 2:
                            ones -= 1
                        elif a == 1:
                            zeros -= 1
                            ones += 1
    finally:
        counter.attempts, counter.backtracks = attempts, backtracks


@dataclass
class _Rules:
    """Side constraints as the search reads them: per node, plain lists.

    ``via_at[i]`` is the node that must be at index ``i`` (or -1), ``via_pos[v]``
    the index node ``v`` must take (or -1); ``req[v]`` the nodes ``v`` must be
    joined to. Forbidden moves are taken out of ``nbrs`` itself.
    """

    via_at: list[int]
    via_pos: list[int]
    req: list[list[int]] | None

    @classmethod
    def of(
        cls,
        graph: MoveGraph,
        nbrs: _Neighbours,
        side: TourConstraints | None,
        reverse: bool,
    ) -> _Rules | None:
        if not side:
            return None
        n = graph.n_nodes
        node = graph.node
        for a, b in side.forbid:
            u, v = node(a), node(b)
            nbrs[u].remove(v)
            nbrs[v].remove(u)
        via_at, via_pos = [-1] * n, [-1] * n
        for cell, k in side.via:
            i = n - k if reverse else k - 1
            via_at[i], via_pos[node(cell)] = node(cell), i
        req: list[list[int]] | None = None
        if side.require:
            req = [[] for _ in range(n)]
            for a, b in side.require:
                req[node(a)].append(node(b))
                req[node(b)].append(node(a))
        return cls(via_at, via_pos, req)

    def filter(
        self, nxt: list[int], path: list[int], visited: bytearray, d: int, closed: bool
    ) -> list[int]:
        """The candidates for index ``d`` that break no constraint yet."""
        at = self.via_at[d]
        if at >= 0:
            nxt = [at] if at in nxt else []
        pos = self.via_pos
        nxt = [w for w in nxt if pos[w] < 0 or pos[w] == d]
        req = self.req
        if req is None or not nxt:
            return nxt
        u, first, n = path[-1], path[0], len(visited)
        pred = path[-2] if len(path) > 1 else -1
        need = [x for x in req[u] if x != pred]
        if u == first and closed:
            if len(need) > 2:
                return []
            if len(need) == 2:
                nxt = [w for w in nxt if w in need]
        elif len(need) > 1:
            return []
        elif need:
            nxt = [w for w in nxt if w == need[0]]

        def fits(w: int) -> bool:
            for x in req[w]:
                if x != u and visited[x] and not (closed and x == first and d == n - 1):
                    return False
            return True

        return [w for w in nxt if fits(w)]


def _allowed(allowed: int, end: int, avail: list[int], visited: bytearray) -> int:
    """How many unvisited one-exit cells a state may have (the last cell only)."""
    if end < 0 or allowed == 0:
        return allowed
    return 1 if not visited[end] and avail[end] == 1 else 0


def _node(graph: MoveGraph, cell: Cell | None) -> int:
    return -1 if cell is None else graph.node(cell)


def _trivial(
    graph: MoveGraph, closed: bool, start: Cell | None, end: Cell | None
) -> list[int] | None:
    """Settle the instances no search is needed for: one cell, or proved none."""
    n = graph.n_nodes
    if n < 3 or (start is not None and start == end):
        # Too few cells, or one cell asked to be both ends: the certificates
        # say why (find_tour has run them already; direct callers have not).
        check_tour_possible(graph, closed=closed, start=start, end=end)
    return [0] if n == 1 else None


def _finish(
    graph: MoveGraph,
    nodes: list[int],
    closed: bool,
    method: str,
    counter: _Counter,
    run: Run,
    start: Cell | None = None,
    end: Cell | None = None,
    *,
    constraints: TourConstraints | None = None,
) -> Tour:
    return make_tour(
        graph.board,
        graph.piece,
        graph.cells[nodes],
        closed=closed,
        method=method,
        effort=counter.effort(),
        seconds=run.elapsed(),  # graph building included, as for cpsat
        start=start,
        end=end,
        constraints=constraints,
    )


def _limit(
    method: str, graph: MoveGraph, closed: bool, counter: _Counter, run: Run
) -> SolveLimitError:
    """The limit-reached error, raised by the run's clock (the one deadline check)."""
    kind = "a closed" if closed else "an open"
    try:
        run.check(
            f"the {method} search looked for {kind} tour of {graph.board.label} "
            f"({counter.attempts} attempts, {counter.backtracks} backtracks)",
            effort=counter.effort(),
        )
    except SolveLimitError as exc:
        return exc
    raise EngineError(f"internal error: the {method} search stopped before its limit")
