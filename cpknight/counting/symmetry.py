"""Tours up to the board's symmetries: Burnside's count, a check on a count.

The board's symmetries (:func:`~cpknight.graph.symmetry.symmetry_group`: its
reflections and rotations, and the translations of a torus) act on its tours,
so the tours fall into classes, and by Burnside's lemma the number of classes
is the average number of tours each symmetry fixes:

    classes = (total + sum of fix(g) over the symmetries g but the identity) / |G|

The identity fixes every tour (the count being checked); the others fix few,
and those few are counted here by a search of a different kind: a tour fixed
by ``g`` is a union of whole orbits of moves under ``g``, so the search picks
orbits of moves, not single moves, each cell's two tour moves at a time. If
the sum does not divide by ``|G|``, the count (or a fixed count) is wrong:
Löbbing and Wegener's published count of the 8 x 8 closed tours (1996) failed
a test of this kind (it was not divisible by 4), and McKay's (1997) replaced
it. Passing it is not a proof, but a count that is off by anything but a
multiple of ``|G|`` fails it.

Open tours are counted as closed tours of the graph with one more cell joined
to every cell (a tour through it, cut there, is an open tour and each open
tour is cut from one); the new cell is fixed by every symmetry.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> classes = tour_classes(move_graph("6x6"), 9862, closed=True)
    >>> classes.group, classes.classes, classes.divides
    (8, 1245, True)
    >>> tour_classes(move_graph("6x6"), 9863, closed=True).divides
    False
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cpknight.graph.symmetry import symmetry_group
from cpknight.pieces import MoveGraph
from cpknight.runtime.compiled import CompiledLoops, waiting_seconds
from cpknight.runtime.optional import installed

__all__ = ["LOOPS", "Classes", "compiled_fits", "fixed_tours", "tour_classes"]


@dataclass(frozen=True)
class Classes:
    """A count of tours and its classes under the board's symmetries.

    Attributes:
        total: the undirected tours (the count checked).
        group: the number of symmetries (the identity among them).
        fixed: the tours each symmetry but the identity fixes (of the
            symmetries of :func:`~cpknight.graph.symmetry.symmetry_group`,
            in its order).
        classes: the tours up to symmetry (Burnside), or None when the sum
            does not divide.
    """

    total: int
    group: int
    fixed: tuple[int, ...]
    classes: int | None

    @property
    def divides(self) -> bool:
        """Whether ``total + sum(fixed)`` divides by ``group``: the check."""
        return self.classes is not None

    @property
    def symmetric(self) -> int:
        """The tours fixed by some symmetry but the identity, with repeats."""
        return sum(self.fixed)


def tour_classes(
    graph: MoveGraph,
    total: int,
    *,
    closed: bool,
    tick: Callable[[], None] | None = None,
    compiled: bool = False,
) -> Classes:
    """Check ``total`` (undirected tours of ``graph``) against its symmetries.

    ``tick`` is called now and then (a clock that may raise to stop);
    ``compiled``: the search runs compiled (:func:`fixed_tours`).
    """
    group = symmetry_group(graph.board)
    # Conjugate symmetries (a g a^-1) fix as many tours (a maps the ones g fixes
    # onto the ones a g a^-1 fixes): one search a conjugacy class.
    found: dict[tuple[int, ...], int] = {}
    inverse = [_inverse(a) for a in group]
    for g in group[1:]:
        if g in found:
            continue
        count = fixed_tours(graph, g, closed=closed, tick=tick, compiled=compiled)
        for a, a_inv in zip(group, inverse, strict=True):
            found[tuple(a[g[a_inv[i]]] for i in range(len(g)))] = count
    fixed = tuple(found[g] for g in group[1:])
    whole = total + sum(fixed)
    classes = whole // len(group) if whole % len(group) == 0 else None
    return Classes(total, len(group), fixed, classes)


def _inverse(perm: Sequence[int]) -> list[int]:
    out = [0] * len(perm)
    for i, j in enumerate(perm):
        out[j] = i
    return out


def fixed_tours(
    graph: MoveGraph,
    perm: Sequence[int],
    *,
    closed: bool,
    tick: Callable[[], None] | None = None,
    compiled: bool = False,
) -> int:
    """The undirected tours of ``graph`` that ``perm`` maps onto themselves.

    ``perm[i]`` is the image of node ``i``; it must map moves to moves. The
    identity gives every tour (a plain count, fine for small boards: the
    tests hold it to a brute force). ``compiled`` runs the search's numba
    twin (``cpknight[fast]``), step for step the same, tens of times faster.
    """
    n = graph.n_nodes
    edges = {
        (min(u, int(v)), max(u, int(v))) for u in range(n) for v in graph.neighbors(u)
    }
    image = list(perm)
    if not closed:  # one more cell joined to every cell, fixed by the symmetry
        edges |= {(u, n) for u in range(n)}
        image.append(n)
        n += 1
    if n < 3:
        return 0 if closed or n < 2 else 1
    orbits = _orbits(edges, image)
    if compiled:
        return _compiled_count(n, orbits, tick)
    return _OrbitSearch(n, orbits, tick).count()


LOOPS = CompiledLoops("cpknight.counting.symmetry_jit", 5.0)
"""The compiled search: about 5 s to compile, 1 s to load (numba's import)."""

LOAD_SECONDS = 3.0
"""Seconds a limit must leave, past compiling, for the compiled search to
be worth loading: numba's import alone takes about one on 2 busy cores."""


def compiled_fits(remaining: float | None) -> bool:
    """Whether to run the compiled search with ``remaining`` seconds (None: no limit).

    numba installed, and the limit leaves room to load (and compile) it.
    """
    if not installed("numba"):
        return False
    return remaining is None or remaining > LOAD_SECONDS + waiting_seconds([LOOPS])


COMPILED_CHECK = 1 << 18
"""Steps of the compiled search between two calls of the clock (milliseconds)."""


def _compiled_count(
    n: int, orbits: list[list[tuple[int, int]]], tick: Callable[[], None] | None
) -> int:
    """:class:`_OrbitSearch`'s count by its compiled twin (``symmetry_jit``)."""
    import numpy as np

    from cpknight.counting import symmetry_jit as jit

    edges, at = _incidence(n, orbits)
    if min(edges) < 2:
        return 0
    left = np.array(edges, dtype=np.int64)
    first = np.cumsum([0] + [len(orbit) for orbit in orbits], dtype=np.int64)
    ends = np.array([edge for orbit in orbits for edge in orbit], dtype=np.int64)
    at_first = np.cumsum([0] + [len(ks) for ks in at], dtype=np.int64)
    at_flat = np.array([k for ks in at for k in ks], dtype=np.int64)
    degree = np.zeros(n, dtype=np.int64)
    state = np.zeros(len(orbits), dtype=np.int64)
    stack = jit.start(n, len(orbits))
    search = (n, first, ends, at_first, at_flat, degree, left, state, *stack)
    while not jit.advance(COMPILED_CHECK, *search):
        if tick is not None:
            tick()
    return int(stack[0][jit.COUNT])


def _incidence(
    n: int, orbits: list[list[tuple[int, int]]]
) -> tuple[list[int], list[list[int]]]:
    """Each cell's number of edges, and the orbits it is in (in order, once each)."""
    edges = [0] * n
    at: list[list[int]] = [[] for _ in range(n)]
    for k, orbit in enumerate(orbits):
        for a, b in orbit:
            edges[a] += 1
            edges[b] += 1
            for c in (a, b):
                if not at[c] or at[c][-1] != k:
                    at[c].append(k)
    return edges, at


def _orbits(
    edges: set[tuple[int, int]], perm: Sequence[int]
) -> list[list[tuple[int, int]]]:
    """The edges in orbits under ``perm``.

    Raises:
        ValueError: ``perm`` maps an edge to a non-edge.
    """
    left = set(edges)
    found: list[list[tuple[int, int]]] = []
    while left:
        first = min(left)
        orbit = [first]
        left.discard(first)
        a, b = first
        while True:
            a, b = perm[a], perm[b]
            edge = (min(a, b), max(a, b))
            if edge == first:
                break
            if edge not in left:
                raise ValueError(f"the symmetry maps a move to a non-move: {edge}")
            orbit.append(edge)
            left.discard(edge)
        found.append(orbit)
    return found


class _OrbitSearch:
    """Count the Hamiltonian cycles made of whole orbits of edges.

    Every cell needs two edges. The search takes the cell with a missing edge
    and the fewest edges left to choose from, and branches on one of its
    undecided orbits: in (every edge of the orbit in the cycle) or out. A
    cell with more than two edges, or too few left, ends the branch, and so
    does a cycle closed before it holds every cell (a union-find of the chosen
    edges, undone on the way back).
    """

    CHECK = 1 << 14
    """Branches between two calls of the clock."""

    def __init__(
        self,
        n: int,
        orbits: list[list[tuple[int, int]]],
        tick: Callable[[], None] | None,
    ) -> None:
        self.n = n
        self.orbits = orbits
        self.tick = tick
        self.state = [0] * len(orbits)  # 0 undecided, 1 in, -1 out
        self.degree = [0] * n
        # undecided edges at each cell, and the orbits at each cell
        self.left, self.at = _incidence(n, orbits)
        self.parent = list(range(n))
        self.size = [1] * n
        self.steps = 0

    def _root(self, a: int) -> int:
        while self.parent[a] != a:
            a = self.parent[a]
        return a

    def count(self) -> int:
        if any(self.left[c] < 2 for c in range(self.n)):
            return 0
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * len(self.orbits) + 100))
        try:
            return self._branch()
        finally:
            sys.setrecursionlimit(limit)

    def _branch(self) -> int:
        self.steps += 1
        if self.tick is not None and self.steps % self.CHECK == 0:
            self.tick()
        cell, fewest = -1, 1 << 30
        for c in range(self.n):
            if self.degree[c] < 2 and self.left[c] < fewest:
                cell, fewest = c, self.left[c]
        if cell < 0:  # every cell has its two edges: the cycle closed whole
            return 1
        k = next(k for k in self.at[cell] if self.state[k] == 0)
        found = 0
        undo = self._take(k)
        if undo is not None:
            found += self._branch()
            self._untake(k, undo)
        if self._drop(k):
            found += self._branch()
        self._undrop(k)
        return found

    def _take(self, k: int) -> list[tuple[int, int]] | None:
        """Put orbit ``k`` in; the unions made (None: the branch is dead)."""
        self.state[k] = 1
        unions: list[tuple[int, int]] = []
        ok = True
        done = 0
        for a, b in self.orbits[k]:
            done += 1
            for c in (a, b):
                self.degree[c] += 1
                self.left[c] -= 1
            if self.degree[a] > 2 or self.degree[b] > 2:
                ok = False
                break
            ra, rb = self._root(a), self._root(b)
            if ra == rb:  # a cycle closes: only the whole tour may
                if self.size[ra] != self.n:
                    ok = False
                    break
                continue
            if self.size[ra] < self.size[rb]:
                ra, rb = rb, ra
            self.parent[rb] = ra
            self.size[ra] += self.size[rb]
            unions.append((ra, rb))
        if ok:
            return unions
        self._untake(k, unions, done)
        return None

    def _untake(
        self, k: int, unions: list[tuple[int, int]], done: int | None = None
    ) -> None:
        for ra, rb in reversed(unions):
            self.parent[rb] = rb
            self.size[ra] -= self.size[rb]
        edges = self.orbits[k] if done is None else self.orbits[k][:done]
        for a, b in edges:
            for c in (a, b):
                self.degree[c] -= 1
                self.left[c] += 1
        self.state[k] = 0

    def _drop(self, k: int) -> bool:
        """Keep orbit ``k`` out; whether every cell can still get two edges."""
        self.state[k] = -1
        ok = True
        for a, b in self.orbits[k]:
            for c in (a, b):
                self.left[c] -= 1
                if self.degree[c] + self.left[c] < 2:
                    ok = False
        return ok

    def _undrop(self, k: int) -> None:
        for a, b in self.orbits[k]:
            for c in (a, b):
                self.left[c] += 1
        self.state[k] = 0
