"""Shared test helpers: brute-force oracles, tour theorems, Hypothesis strategies.

The oracles here share no code with cpknight: they apply move vectors to cells
with plain Python loops (``itertools`` signed permutations, explicit modulo on
wrapped axes) and run a textbook ``collections.deque`` BFS, so the package's
numpy move graph and frontier BFS are checked against an independent method.
"""

from __future__ import annotations

import itertools
import math
import os
import signal
from collections import deque
from collections.abc import Iterator, Sequence
from types import ModuleType

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from cpknight.board import Board

Cell = tuple[int, ...]

# No Hypothesis test may run past a minute, even on a machine loaded to two busy
# processes a core (``make test-loaded``). The examples are bounded (60 here;
# a test that draws costly cases asks for fewer); there is no per-example
# deadline, which on a loaded machine fails correct tests by wall-clock luck;
# and the shrinking of a failure is bounded too: Hypothesis's own budget (500
# shrinks, 5 minutes) let one case shrink for 9 min 48 s (issue 35).
SHRINKS = 100
SHRINK_SECONDS = 20


def _bound_the_shrinking() -> None:
    """Lower Hypothesis's shrink budget (module constants its engine reads)."""
    from hypothesis.internal.conjecture import engine

    if hasattr(engine, "MAX_SHRINKS"):
        engine.MAX_SHRINKS = SHRINKS
    if hasattr(engine, "MAX_SHRINKING_SECONDS"):
        engine.MAX_SHRINKING_SECONDS = SHRINK_SECONDS


_bound_the_shrinking()
settings.register_profile(
    "cpknight",
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", parent=settings.get_profile("cpknight"), max_examples=600
)
# CI draws the same examples on every run (a submission lands or not on its
# own merits); a developer's runs explore afresh each time.
settings.register_profile(
    "ci", parent=settings.get_profile("cpknight"), derandomize=True
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "cpknight")
)


@pytest.fixture(autouse=True, scope="session")
def _one_memory_budget() -> Iterator[None]:
    """The tests' refusals read one budget, whatever memory the machine has."""
    from cpknight.runtime.memory import FALLBACK_MEMORY_MB, set_memory_budget

    set_memory_budget(FALLBACK_MEMORY_MB)
    yield
    set_memory_budget(None)


@pytest.fixture(autouse=True, scope="session")
def _ctrl_c_heard() -> None:
    """Ctrl-C's default in the test process, as a terminal's.

    A suite started in the background by a shell without job control (``make
    test &``) ignores SIGINT, and every command a test starts to interrupt
    would inherit that and never stop. A Python handler, unlike an ignored
    signal, is reset to the default in the children.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


# ------------------------------------------------------------------- oracles


def load_script(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` imported as the module ``NAME`` (registered, so
    that its dataclasses resolve), for the tests of a record program."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def brute_moves(vector: Sequence[int], dim: int) -> set[Cell]:
    """Every signed permutation of ``vector`` padded to ``dim``, without zero."""
    padded = tuple(vector) + (0,) * (dim - len(vector))
    found = {
        tuple(sign * x for sign, x in zip(signs, perm, strict=True))
        for perm in itertools.permutations(padded)
        for signs in itertools.product((1, -1), repeat=dim)
    }
    found.discard((0,) * dim)
    return found


def all_cells(shape: Sequence[int]) -> Iterator[Cell]:
    """Every cell of a box, row-major."""
    return itertools.product(*(range(s) for s in shape))


def brute_open_cells(board: Board) -> list[Cell]:
    """The open cells, row-major, from the board's blocked set."""
    return [c for c in all_cells(board.shape) if c not in board.blocked]


def brute_neighbours(board: Board, vector: Sequence[int]) -> dict[Cell, set[Cell]]:
    """For each open cell, the open cells one leap away (never the cell itself)."""
    moves = brute_moves(vector, len(board.shape))
    out: dict[Cell, set[Cell]] = {}
    for cell in brute_open_cells(board):
        found: set[Cell] = set()
        for move in moves:
            target = []
            for axis, (x, dx) in enumerate(zip(cell, move, strict=True)):
                side = board.shape[axis]
                y = x + dx
                if board.wrap[axis]:
                    y %= side
                elif not 0 <= y < side:
                    break
                target.append(y)
            else:
                t = tuple(target)
                if t != cell and t not in board.blocked:
                    found.add(t)
        out[cell] = found
    return out


def brute_distances(
    board: Board, vector: Sequence[int], source: Cell
) -> dict[Cell, int]:
    """A textbook deque BFS: the moves from ``source`` to every reachable cell."""
    return brute_distances_from(brute_neighbours(board, vector), source)


def brute_components(board: Board, vector: Sequence[int]) -> list[set[Cell]]:
    """The components, in the order of their first cell (row-major)."""
    nbrs = brute_neighbours(board, vector)
    seen: set[Cell] = set()
    parts: list[set[Cell]] = []
    for cell in brute_open_cells(board):
        if cell in seen:
            continue
        part = set(brute_distances_from(nbrs, cell))
        seen |= part
        parts.append(part)
    return parts


def brute_distances_from(nbrs: dict[Cell, set[Cell]], source: Cell) -> dict[Cell, int]:
    """Deque BFS over a ready adjacency dict."""
    dist = {source: 0}
    queue = deque([source])
    while queue:
        cell = queue.popleft()
        for nxt in nbrs[cell]:
            if nxt not in dist:
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return dist


def brute_walk(
    board: Board,
    start: Cell,
    food: Sequence[Cell],
    end: Cell | None,
    vector: Sequence[int] = (1, 2),
) -> int:
    """The fewest moves from ``start`` through every food cell (then to ``end``).

    Every order of the food, each leg by the deque BFS.
    """
    eat = [f for f in dict.fromkeys(food) if f not in (start, end)]
    dist = {c: brute_distances(board, vector, c) for c in [start, *eat]}
    best = None
    for order in itertools.permutations(eat):
        stops = [start, *order] + ([end] if end is not None else [])
        total = 0
        for a, b in itertools.pairwise(stops):
            assert b in dist[a], f"{b} cannot be reached from {a}"
            total += dist[a][b]
        best = total if best is None else min(best, total)
    assert best is not None
    return best


def brute_tours(
    nbrs: dict[Cell, set[Cell]], *, closed: bool, start: Cell | None = None
) -> Iterator[list[Cell]]:
    """Every directed tour (Hamiltonian path, or cycle if ``closed``), lazily.

    A plain recursive search over an adjacency dict such as ``brute_neighbours``
    (no cpknight code). From ``start`` only if given, else from every cell in
    turn, so with ``start=None`` a closed tour comes once per cell and direction.
    A closed tour needs at least 3 cells. Count them with ``sum(1 for _ in ...)``;
    test existence, or take the first, with ``next(..., None)``.
    """
    total = len(nbrs)
    if closed and total < 3:
        return
    order = {cell: sorted(found) for cell, found in nbrs.items()}

    def extend(path: list[Cell], seen: set[Cell]) -> Iterator[list[Cell]]:
        if len(path) == total:
            if not closed or path[0] in nbrs[path[-1]]:
                yield list(path)
            return
        for nxt in order[path[-1]]:
            if nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                yield from extend(path, seen)
                path.pop()
                seen.discard(nxt)

    for first in [start] if start is not None else list(nbrs):
        yield from extend([first], {first})


def independent_tour_check(
    board: Board, vector: Sequence[int], cells: Sequence[Cell], *, closed: bool
) -> bool:
    """Every open cell once, each step a leap (the tests' own definition)."""
    cells = list(cells)
    steps = list(itertools.pairwise(cells))
    if closed and cells:
        steps.append((cells[-1], cells[0]))
    return sorted(cells) == brute_open_cells(board) and all(
        is_leap(board, vector, a, b) for a, b in steps
    )


def is_leap(board: Board, vector: Sequence[int], a: Cell, b: Cell) -> bool:
    """Whether ``a -> b`` is one leap (independent of cpknight)."""
    return b in brute_neighbours_of(board, vector, a)


def brute_neighbours_of(board: Board, vector: Sequence[int], cell: Cell) -> set[Cell]:
    """The cells (open or not) one leap from ``cell``, wrap respected."""
    out: set[Cell] = set()
    for move in brute_moves(vector, len(board.shape)):
        target = []
        for axis, (x, dx) in enumerate(zip(cell, move, strict=True)):
            y = x + dx
            if board.wrap[axis]:
                y %= board.shape[axis]
            elif not 0 <= y < board.shape[axis]:
                break
            target.append(y)
        else:
            if tuple(target) != cell:
                out.add(tuple(target))
    return out


def knight_tour_by_search(
    board: Board, *, closed: bool, start: Cell | None = None, budget: int = 200_000
) -> list[Cell]:
    """A knight tour found by a plain Warnsdorff-ordered backtracking search.

    Independent of cpknight's engines: used to build tours to feed the checker.
    Tries each start cell in turn (or only ``start``) with a budget of moves.
    """
    nbrs = brute_neighbours(board, (1, 2))
    for first in [start] if start is not None else list(nbrs):
        path = _warnsdorff_from(nbrs, first, closed=closed, budget=budget)
        if path is not None:
            return path
    raise AssertionError("the test's own search found no tour")


def _warnsdorff_from(
    nbrs: dict[Cell, set[Cell]], first: Cell, *, closed: bool, budget: int
) -> list[Cell] | None:
    path = [first]
    seen = {first}
    tries = 0

    def onward(cell: Cell) -> int:
        return sum(1 for c in nbrs[cell] if c not in seen)

    def extend() -> bool:
        nonlocal tries
        if len(path) == len(nbrs):
            return not closed or first in nbrs[path[-1]]
        for nxt in sorted((c for c in nbrs[path[-1]] if c not in seen), key=onward):
            tries += 1
            if tries > budget:
                return False
            path.append(nxt)
            seen.add(nxt)
            if extend():
                return True
            path.pop()
            seen.discard(nxt)
        return False

    return path if extend() else None


# ------------------------------------------------------------------ theorems


def schwenk_closed(m: int, n: int) -> bool:
    """Whether an m x n board has a closed knight's tour.

    Schwenk 1991 ("Which rectangular chessboards have a knight's tour?", Math.
    Mag. 64(5)): with m <= n, it does unless m and n are both odd, or m in
    {1, 2, 4}, or m = 3 and n in {4, 6, 8}.
    """
    m, n = min(m, n), max(m, n)
    if m % 2 == 1 and n % 2 == 1:
        return False
    if m in (1, 2, 4):
        return False
    return not (m == 3 and n in (4, 6, 8))


def conrad_open(m: int, n: int) -> bool:
    """Whether an m x n board has an open knight's tour.

    Cull and De Curtins 1978; Conrad et al. 1994 (as summarised in the
    rec.puzzles archive, competition/games/chess/knight.tour.s): with m <= n,
    it does for 1x1, 3x4, 3xn with n >= 7, 4xn with n >= 5, and m x n with
    n >= m >= 5; for no other m <= n.
    """
    m, n = min(m, n), max(m, n)
    if m == 1:
        return n == 1
    if m == 2:
        return False
    if m == 3:
        return n == 4 or n >= 7
    if m == 4:
        return n >= 5
    return True


# ----------------------------------------------------------------- strategies


@st.composite
def boards(
    draw: st.DrawFn,
    *,
    dims: Sequence[int] = (2, 3),
    max_side: int = 7,
    topologies: Sequence[str] = ("bounded", "torus", "cylinder"),
) -> Board:
    """A random box with random blocked cells and a random topology."""
    dim = draw(st.sampled_from(list(dims)))
    side = max_side if dim == 2 else min(max_side, 4)
    shape = tuple(draw(st.integers(1, side)) for _ in range(dim))
    cells = list(all_cells(shape))
    blocked = draw(st.sets(st.sampled_from(cells), max_size=len(cells) - 1))
    topology = draw(st.sampled_from(list(topologies)))
    return Board(shape, blocked, topology=topology)  # type: ignore[arg-type]


@st.composite
def leapers(draw: st.DrawFn, *, dim: int, max_component: int = 4) -> tuple[int, ...]:
    """A leaper vector of at most ``dim`` components, not all zero."""
    length = draw(st.integers(1, dim))
    vector = draw(
        st.lists(st.integers(0, max_component), min_size=length, max_size=length)
        .filter(any)
        .map(tuple)
    )
    return tuple(vector)


SLOW_TIMEOUT = 1800
"""Seconds a ``slow`` test may take (the default, 120 s in pyproject.toml, is
for the quick suite: an engine that ignores its deadline fails, not hangs)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give ``slow`` tests their own, longer timeout unless they set one."""
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))


def subset_count(nbrs: dict[Cell, set[Cell]], *, closed: bool) -> int:
    """The undirected tours (Hamiltonian cycles, or paths) by a DP over subsets.

    Held and Karp's dynamic program (1962), counting: ``ways[S, v]`` is the
    number of paths that visit exactly the cells of ``S`` and end at ``v``,
    filled in numpy one layer of ``|S|`` at a time. An open tour starts
    anywhere, so every cell starts a path; a closed one from the first cell
    only, ended by a move back to it. A second route beside the plain search
    (:func:`brute_tours`, one path at a time) that is fast enough for the tori
    of up to 20 cells, and shares no code with cpknight's counters.
    """
    cells = sorted(nbrs)
    n = len(cells)
    if n == 1:
        return 0 if closed else 1
    if closed and n < 3:
        return 0
    assert n <= 24, "2^n x n counts: past 24 cells this needs over 3 GB"
    # No entry passes the number of paths from its start: the start picks one
    # of its moves, every later cell one of its moves but the one it came by.
    onward = math.prod(max(len(found) - 1, 1) for found in nbrs.values())
    most = max(len(found) for found in nbrs.values()) * onward
    assert min(math.factorial(n), n * most) < 2**63, "int64 could overflow"
    index = {cell: i for i, cell in enumerate(cells)}
    arcs = [(index[a], index[b]) for a in cells for b in nbrs[a]]
    ways = np.zeros((1 << n, n), dtype=np.int64)
    starts = [0] if closed else range(n)
    for v in starts:
        ways[1 << v, v] = 1
    masks = np.arange(1 << n, dtype=np.int64)
    sizes = np.zeros(1 << n, dtype=np.int64)
    for bit in range(n):
        sizes += (masks >> bit) & 1
    for size in range(1, n):
        layer = masks[sizes == size]
        for v, u in arcs:
            has_v = layer[((layer >> v) & 1 == 1) & ((layer >> u) & 1 == 0)]
            ways[has_v | (1 << u), u] += ways[has_v, v]
    full = (1 << n) - 1
    if closed:  # from cell 0, back to it: once in each direction
        return (
            int(sum(ways[full, v] for v in range(n) if cells[0] in nbrs[cells[v]])) // 2
        )
    return int(ways[full].sum()) // 2
