"""Completing a partial tour: can the path so far still become a tour?

A partial tour is a path of moves from its first cell to the knight's cell
(the last one). It can be completed when the free cells (the open cells not
on it) and the knight's cell have a path that starts on the knight's cell and
visits each free cell once, ending anywhere (an open tour), on the fixed end
(an open tour with an end), or on a cell one move from the first cell (a
closed tour).

:func:`completion_certificate` looks for a cheap proof that no such path
exists, on the free cells alone, and names the cells it is about:

- ``dead-end``: the knight has no free cell to move to;
- ``no-close``: no free cell is one move from the first cell (closed);
- ``isolated``: a free cell has no free neighbour left;
- ``degree``: free cells with one free neighbour left must each be the last
  cell; more of them than a tour has last cells, or one where the tour cannot
  end;
- ``cut``: the free cells fall apart (some cannot be reached from the knight),
  or one cell separates them so that one path cannot visit both sides and end
  where it must;
- ``colour``: on a two-coloured move graph a path alternates colours, so the
  free cells of each colour must number what the path needs;
- ``complete``: every cell is visited, but the path does not close (closed) or
  does not end on the fixed end.

Certificates are sufficient, never necessary. :func:`completion_instance`
turns the rest into a tour question the engines already answer: the path's
cells are the tour's visit numbers ``1 .. k`` (side constraints ``via``, which
``prune``, ``warnsdorff``, ``backtrack`` and ``cpsat`` honour), so every
completion leaves its engine through the tour checker with its prefix checked
too. :func:`solve_completion` runs an engine (``auto``: the race of ``prune``
and CP-SAT up to :data:`~cpknight.tours.auto.RACE_CELLS` cells, else
``prune``) and words a proof of none for the path.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import move_graph
    >>> g = move_graph(Board.parse("5x5"))
    >>> print(completion_certificate(g, [(0, 0), (2, 1), (0, 2)], closed=False))
    None
    >>> path = ["c2", "a3", "b1", "d2", "b3", "a1"]
    >>> proof = completion_certificate(g, path, closed=False)
    >>> proof.name, proof.reason
    ('dead-end', 'the knight on a1 has no free cell to move to: a dead end (6 of \
25 cells visited)')
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cpknight.board import Cell, CellLike
from cpknight.constraints import TourConstraints
from cpknight.errors import (
    EngineError,
    InvalidCellError,
    InvalidInputError,
    NoTourError,
)
from cpknight.pieces import MoveGraph
from cpknight.results import Tour
from cpknight.solving import Run
from cpknight.tours.instance import TourInstance

__all__ = [
    "COMPLETION_METHODS",
    "CompletionProof",
    "check_partial_path",
    "completion_certificate",
    "completion_instance",
    "solve_completion",
]

COMPLETION_METHODS = ("auto", "prune", "warnsdorff", "backtrack", "cpsat")
"""The engines that complete a path: those that honour visit numbers, and auto."""

NAMED = 12
"""At most this many cells are named in a reason (the proof keeps them all)."""


@dataclass(frozen=True)
class CompletionProof:
    """A proof that a partial tour cannot be completed.

    Attributes:
        name: what kind of argument (see the module notes).
        reason: one line naming the cells and numbers of this path.
        cells: the cells the argument is about (the page outlines them).
    """

    name: str
    reason: str
    cells: tuple[Cell, ...]


def check_partial_path(graph: MoveGraph, path: Sequence[CellLike]) -> list[int]:
    """The path's nodes, once each cell is open, new and one move from the last.

    Args:
        graph: the move graph of the board and piece.
        path: the cells visited so far, in order (names or coordinates).

    Returns:
        The nodes of the path, in order.

    Raises:
        InvalidInputError: an empty path, or a cell that is off the board,
            blocked, visited twice or not one move from the cell before it
            (one line naming it and its place on the path, counted from 1).

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("5x5"))
        >>> check_partial_path(g, [(0, 0), (1, 2)])
        [0, 7]
        >>> check_partial_path(g, [(0, 0), (1, 1)])
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: path cell 2, b2, is not one knight \
(1,2) move from a1
    """
    board = graph.board
    if not path:
        raise InvalidInputError("the path is empty: it needs at least its first cell")
    nodes: list[int] = []
    seen: dict[int, int] = {}
    for place, spec in enumerate(path, 1):
        try:
            cell, shown = board.read_cell(spec)
        except InvalidCellError as exc:
            raise InvalidInputError(f"path cell {place}: {exc}") from None
        if not board.contains(cell):
            raise InvalidInputError(
                f"path cell {place}, {shown}, is not on board {board.label}"
            )
        name = board.cell_name(cell)
        node = graph.node(cell)
        if node < 0:
            raise InvalidInputError(f"path cell {place}, {name}, is blocked")
        if node in seen:
            raise InvalidInputError(
                f"path cell {place}, {name}, is visited twice (first as cell "
                f"{seen[node]})"
            )
        if nodes and node not in graph.neighbors(nodes[-1]).tolist():
            before = board.cell_name(graph.cell(nodes[-1]))
            raise InvalidInputError(
                f"path cell {place}, {name}, is not one {graph.piece.label} move "
                f"from {before}"
            )
        seen[node] = place
        nodes.append(node)
    return nodes


def completion_instance(
    graph: MoveGraph, nodes: Sequence[int], *, closed: bool, end: Cell | None = None
) -> TourInstance:
    """The tour question whose answers complete the path: it fixes visits 1 .. k.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("5x5"))
        >>> i = completion_instance(g, [0, 7], closed=False)
        >>> i.start, i.constraints.via
        ((0, 0), (((0, 0), 1), ((1, 2), 2)))
    """
    via = tuple((graph.cell(v), k) for k, v in enumerate(nodes, 1))
    instance = TourInstance(
        graph.board,
        graph.piece,
        closed=closed,
        start=graph.cell(nodes[0]),
        end=end,
        constraints=TourConstraints(via=via),
    )
    object.__setattr__(instance, "graph", graph)  # built: the cached slot
    return instance


def completion_certificate(
    graph: MoveGraph,
    path: Sequence[CellLike],
    *,
    closed: bool,
    end: Cell | None = None,
    check: Callable[[str], None] | None = None,
) -> CompletionProof | None:
    """The first cheap proof that the path cannot be completed, or ``None``.

    Args:
        graph: the move graph.
        path: the cells visited so far (checked: :func:`check_partial_path`).
        closed: whether the tour must close (its last cell one move from its
            first).
        end: the fixed last cell of an open tour, if any.
        check: a deadline check (``run.check``), called between the steps.

    Returns:
        A :class:`CompletionProof`, or ``None`` when no cheap argument applies.

    Notes:
        Linear in the size of the graph: degrees, one depth-first search for
        the cut cells (Tarjan), one two-colouring.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("8x8"))
        >>> proof = completion_certificate(g, [(1, 3), (2, 1), (3, 3)], closed=True)
        >>> proof.name, proof.cells
        ('degree', ((0, 0), (1, 3)))
    """
    step = check or _no_check
    nodes = check_partial_path(graph, path)
    return _Residual(graph, nodes, closed, end, step).proof()


class _Residual:
    """The free cells and the knight's cell: the graph the rest of the path is in."""

    def __init__(
        self,
        graph: MoveGraph,
        nodes: list[int],
        closed: bool,
        end: Cell | None,
        check: Callable[[str], None],
    ) -> None:
        self.graph = graph
        self.name = graph.board.cell_name
        self.closed = closed
        self.first, self.knight = nodes[0], nodes[-1]
        self.visited = len(nodes)
        self.n = graph.n_nodes
        self.end = -1 if end is None else graph.node(end)
        self.check = check
        ptr, ind = graph.indptr.tolist(), graph.indices.tolist()
        self.adj = [ind[ptr[v] : ptr[v + 1]] for v in range(self.n)]
        self.free = bytearray([1]) * self.n  # in the residual graph
        for v in nodes[:-1]:
            self.free[v] = 0
        self.on_path = set(nodes)
        self.forced = -1  # the one free cell with one free neighbour: the last

    def end_text(self) -> str:
        """Where the path must end: the end, the forced last cell, or near the first."""
        if self.end >= 0:
            return f"{self.name(self.cell(self.end))} (the fixed end)"
        if self.forced >= 0:
            return (
                f"{self.name(self.cell(self.forced))} (the one cell left with one "
                "free neighbour)"
            )
        first = self.name(self.cell(self.first))
        return f"a free cell one move from the first, {first}"

    def cell(self, v: int) -> Cell:
        return self.graph.cell(v)

    def names(self, nodes: Sequence[int]) -> str:
        """The cells' names, at most :data:`NAMED` of them, then how many more."""
        shown = [self.name(self.cell(v)) for v in nodes[:NAMED]]
        more = len(nodes) - len(shown)
        text = ", ".join(shown)
        return text + (f" and {more} more" if more > 0 else "")

    def proof_of(self, name: str, reason: str, nodes: Sequence[int]) -> CompletionProof:
        return CompletionProof(name, reason, tuple(self.cell(v) for v in nodes))

    def targets(self) -> list[int] | None:
        """The free cells the path may end on (``None``: any free cell)."""
        if self.end >= 0:
            return [self.end]
        if self.closed:
            return [w for w in self.adj[self.first] if self.free[w]]
        return None

    # ------------------------------------------------------------ the proofs
    def proof(self) -> CompletionProof | None:
        knight, name = self.knight, self.name
        left = self.n - self.visited
        if left == 0:
            return self._complete()
        if self.end >= 0 and self.end in self.on_path:
            return self.proof_of(
                "complete",
                f"the tour must end on {name(self.cell(self.end))}, which the path "
                "has visited already",
                [self.end],
            )
        here = name(self.cell(knight))
        if not any(self.free[w] for w in self.adj[knight]):
            return self.proof_of(
                "dead-end",
                f"the knight on {here} has no free cell to move to: a dead end "
                f"({self.visited} of {self.n} cells visited)",
                [knight],
            )
        targets = self.targets()
        if targets is not None and not targets:
            first = name(self.cell(self.first))
            return self.proof_of(
                "no-close",
                f"no free cell is one move from the first cell {first}: the tour "
                "can no longer close",
                [self.first],
            )
        self.check("looking for a certificate")
        found = self._degrees(targets)
        if self.forced >= 0:
            targets = [self.forced]
        if found is None:
            self.check("looking for a certificate")
            found = self._cuts(targets)
        if found is None:
            self.check("looking for a certificate")
            found = self._colours(targets)
        return found

    def _complete(self) -> CompletionProof | None:
        """Every cell visited: a tour already, unless it must close or end elsewhere."""
        name = self.name
        last, first = self.cell(self.knight), self.cell(self.first)
        if self.end >= 0 and self.end != self.knight:
            return self.proof_of(
                "complete",
                f"every cell is visited, but the path ends on {name(last)}, not on "
                f"the end {name(self.cell(self.end))}",
                [self.knight, self.end],
            )
        if self.closed and self.visited > 1 and self.first not in self.adj[self.knight]:
            return self.proof_of(
                "complete",
                f"every cell is visited, but the last, {name(last)}, is not one "
                f"move from the first, {name(first)}: an open tour, not a closed one",
                [self.knight, self.first],
            )
        return None

    def _degrees(self, targets: list[int] | None) -> CompletionProof | None:
        """Free cells with no free neighbour, or one (each must be the last)."""
        free, adj, knight = self.free, self.adj, self.knight
        zeros: list[int] = []
        ones: list[int] = []
        for v in range(self.n):
            if not free[v] or v == knight:
                continue
            d = 0
            for w in adj[v]:
                if free[w]:
                    d += 1
                    if d > 1:
                        break
            if d == 0:
                zeros.append(v)
            elif d == 1:
                ones.append(v)
        if zeros:
            many = len(zeros) > 1
            return self.proof_of(
                "isolated",
                f"{'cells' if many else 'cell'} {self.names(zeros)} "
                f"{'have' if many else 'has'} no free neighbour left: the knight "
                "can never reach "
                f"{'them' if many else 'it'}",
                zeros,
            )
        if len(ones) > 1:
            return self.proof_of(
                "degree",
                f"cells {self.names(ones)} each have one free neighbour left, so "
                "each would have to be the last cell; a tour has one",
                ones,
            )
        if ones and (targets is None or ones[0] in targets):
            self.forced = ones[0]
        elif ones and targets is not None:
            v = ones[0]
            if self.end >= 0:
                why = f"the tour must end on {self.name(self.cell(self.end))}"
                cells = [v, self.end]
            else:
                why = (
                    "it is not one move from the first cell "
                    f"{self.name(self.cell(self.first))}: a closed tour cannot "
                    "end there"
                )
                cells = [v, self.first]
            return self.proof_of(
                "degree",
                f"cell {self.name(self.cell(v))} has one free neighbour left, so it "
                f"must be the last cell, but {why}",
                cells,
            )
        return None

    def _cuts(self, targets: list[int] | None) -> CompletionProof | None:
        """Reachability from the knight, and the cells whose loss splits the rest.

        One iterative depth-first search from the knight's cell (Tarjan's low
        points). A cell ``v`` other than the knight's whose removal cuts off
        subtrees (children ``c`` with ``low[c] >= disc[v]``): the path passes
        ``v`` once, so it can enter one such part after ``v`` and never leave
        it, and must end there; two such parts, or one holding no cell the
        path may end on, cannot be. The knight's cell itself may have one
        subtree only.
        """
        free, adj, knight = self.free, self.adj, self.knight
        disc = [-1] * self.n
        low = [0] * self.n
        size = [1] * self.n
        order: list[int] = []
        disc[knight] = 0
        order.append(knight)
        stack = [(knight, -1, iter(adj[knight]))]
        cut: dict[int, list[int]] = {}  # v -> the children it cuts off
        root_children: list[int] = []
        while stack:
            v, parent, it = stack[-1]
            pushed = False
            for w in it:
                if not free[w]:
                    continue
                if disc[w] < 0:
                    disc[w] = low[w] = len(order)
                    order.append(w)
                    stack.append((w, v, iter(adj[w])))
                    pushed = True
                    if v == knight:
                        root_children.append(w)
                    break
                if w != parent and disc[w] < low[v]:
                    low[v] = disc[w]
            if pushed:
                continue
            stack.pop()
            if parent >= 0:
                size[parent] += size[v]
                if low[v] < low[parent]:
                    low[parent] = low[v]
                if parent != knight and low[v] >= disc[parent]:
                    cut.setdefault(parent, []).append(v)
            if not len(order) & 4095:
                self.check("looking for a certificate")
        unreached = [v for v in range(self.n) if free[v] and disc[v] < 0]
        here = self.name(self.cell(knight))
        if unreached:
            return self.proof_of(
                "cut",
                f"the free cells fall apart: {self.names(unreached)} cannot be "
                f"reached from the knight on {here} (a cut)",
                unreached,
            )
        if len(root_children) > 1:
            part = self._smallest(order, disc, size, root_children)
            return self.proof_of(
                "cut",
                f"without the knight's cell {here} the free cells fall into "
                f"{len(root_children)} parts (one is {self.names(part)}): a path "
                "from it enters one and cannot come back",
                [knight, *part],
            )
        return self._cut_cells(cut, order, disc, size, targets)

    def _cut_cells(
        self,
        cut: dict[int, list[int]],
        order: list[int],
        disc: list[int],
        size: list[int],
        targets: list[int] | None,
    ) -> CompletionProof | None:
        """The cut cells' proofs: two parts cut off, or one with nowhere to end."""
        name = self.name
        ends = None if targets is None else sorted(disc[t] for t in targets)
        for v, children in cut.items():
            if len(children) > 1 or v == self.end:
                part = self._smallest(order, disc, size, children)
                cut_cell = name(self.cell(v))
                why = (
                    f"cell {cut_cell} is a cut: without it the free cells fall into "
                    f"{len(children) + 1} parts (one is {self.names(part)}), and a "
                    "path passing it once joins only two"
                    if v != self.end
                    else f"the tour must end on {cut_cell}, but it is a cut: the "
                    f"free cells past it ({self.names(part)}) would come after the end"
                )
                return self.proof_of("cut", why, [v, *part])
            c = children[0]
            lo, hi = disc[c], disc[c] + size[c]
            if ends is not None and bisect.bisect_left(ends, lo) >= bisect.bisect_left(
                ends, hi
            ):
                part = self._subtree(order, disc, size, c)
                return self.proof_of(
                    "cut",
                    f"cell {name(self.cell(v))} is a cut: past it lie "
                    f"{self.names(part)}, where the tour must end, but it must "
                    f"end on {self.end_text()}",
                    [v, *part],
                )
        return None

    @classmethod
    def _smallest(
        cls, order: list[int], disc: list[int], size: list[int], roots: list[int]
    ) -> list[int]:
        """The smallest of the depth-first subtrees of ``roots``."""
        return cls._subtree(order, disc, size, min(roots, key=lambda c: size[c]))

    @staticmethod
    def _subtree(
        order: list[int], disc: list[int], size: list[int], c: int
    ) -> list[int]:
        """The nodes of the depth-first subtree of ``c``, in discovery order."""
        return order[disc[c] : disc[c] + size[c]]

    def _colours(self, targets: list[int] | None) -> CompletionProof | None:
        """The colour count: a path from the knight alternates colours."""
        free, adj, knight = self.free, self.adj, self.knight
        colour = [-1] * self.n
        colour[knight] = 0
        queue = [knight]
        for v in queue:
            for w in adj[v]:
                if not free[w]:
                    continue
                if colour[w] < 0:
                    colour[w] = 1 - colour[v]
                    queue.append(w)
                elif colour[w] == colour[v]:
                    return None  # an odd cycle: the colours say nothing
        m = len(queue)  # every free cell is reached (the cut proof came first)
        same = [v for v in queue if colour[v] == 0]
        other = [v for v in queue if colour[v] == 1]
        need_same, need_other = (m + 1) // 2, m // 2
        here = self.name(self.cell(knight))
        if len(same) != need_same:
            surplus = other[:] if len(other) > need_other else same[1:]
            return self.proof_of(
                "colour",
                f"colour count: a path from the knight on {here} alternates colours, "
                f"so its {m} cells need {need_same} on {here}'s colour and "
                f"{need_other} on the other; there are {len(same)} and {len(other)}",
                surplus,
            )
        last = 0 if m % 2 else 1
        if targets is not None and not any(colour[t] == last for t in targets):
            mine, not_mine = f"{here}'s colour", f"the other colour from {here}"
            ends, theirs = (mine, not_mine) if last == 0 else (not_mine, mine)
            which = "all of those have" if len(targets) > 1 else "which has"
            return self.proof_of(
                "colour",
                f"colour: a path of {m} cells from the knight on {here} ends on "
                f"{ends}; it must end on {self.end_text()}, {which} {theirs}",
                [knight, *targets],
            )
        return None


def _no_check(what: str) -> None:
    """A deadline check that never stops (no run's clock)."""


def solve_completion(
    instance: TourInstance, nodes: Sequence[int], method: str, run: Run
) -> Tour:
    """Complete the path with an engine: a checked tour whose first cells are it.

    Args:
        instance: :func:`completion_instance` of the path.
        nodes: the path's nodes.
        method: a name in :data:`COMPLETION_METHODS`.
        run: the run (its clock).

    Returns:
        The tour, checked with its visit numbers (the path) by the engine's
        :func:`~cpknight.checks.make_tour`.

    Raises:
        NoTourError: an engine proved that no tour continues the path (the
            reason says so for the path, not for the visit numbers).
        SolveLimitError: the time limit passed.
        InvalidInputError: an unknown method.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> from cpknight.solving import SolveOptions
        >>> g = move_graph(Board.parse("5x5"))
        >>> i = completion_instance(g, [0, 7], closed=False)
        >>> t = solve_completion(i, [0, 7], "prune", SolveOptions().start())
        >>> t.cells[:2], len(t)
        (((0, 0), (1, 2)), 25)
    """
    from cpknight.engines import solve_with
    from cpknight.tours import ENGINES
    from cpknight.tours.auto import RACE_CELLS

    if method not in COMPLETION_METHODS:
        raise InvalidInputError(
            f"expected a method in {', '.join(COMPLETION_METHODS)} to complete a "
            f"path: {method!r}"
        )
    graph = instance.build_graph(run)
    try:
        if method == "auto" and graph.n_nodes <= RACE_CELLS:
            from cpknight.solving import interruptible
            from cpknight.tours.race import solve as race

            with interruptible(run):
                tour = race(instance, run)
        else:
            name = "prune" if method == "auto" else method
            tour = solve_with(ENGINES.engine(name), instance, run)
    except NoTourError as exc:
        raise _none_for_path(instance, graph, nodes, exc) from None
    given = [graph.cell(v) for v in nodes]
    if list(tour.cells[: len(given)]) != given:  # make_tour checked the visits
        raise EngineError(
            f"internal error: the {tour.method} engine's tour does not begin with "
            "the path it was to complete"
        )
    return tour


def _none_for_path(
    instance: TourInstance, graph: MoveGraph, nodes: Sequence[int], exc: NoTourError
) -> NoTourError:
    """An engine's proof of none, worded for the path (not its visit numbers)."""
    name = graph.board.cell_name
    who = exc.winner or exc.method or "the engine"
    how = "CP-SAT" if who == "cpsat" else f"the {who} search, trying every branch,"
    kind = "closed" if instance.closed else "open"
    end = "" if instance.end is None else f" to {name(instance.end)}"
    left = graph.n_nodes - len(nodes)
    error = NoTourError(
        f"{how} proved that no {kind} tour{end} goes on from the knight on "
        f"{name(graph.cell(nodes[-1]))} through the {left} free cells",
        certificate=exc.certificate,
        effort=exc.effort,
    )
    error.method, error.winner, error.bound = exc.method, exc.winner, exc.bound
    return error
