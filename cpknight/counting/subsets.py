"""Counting tours over subsets: Held and Karp's dynamic program, a layer at a time.

``ways[S, v]`` is the number of paths from a start cell that visit exactly the
start and the cells of ``S`` and end at ``v`` (Held and Karp 1962, counting
version: Bellman 1962). It is filled for the sets of one size from those one
smaller: ``ways[S, v]`` is the sum of ``ways[S - v, u]`` over the neighbours
``u`` of ``v`` in ``S - v``. The full sets give the counts: the directed
closed tours through the start end at one of its neighbours, the open ones
anywhere. Its cost is ``n 2^n`` sums whatever the board's shape, where the
frontier program's grows with the frontier's width: it counts the small boards
whose moves reach far across them (tori, 3-D boxes, wide leapers), up to
about 30 cells, which no frontier of a few rows can hold (the 5 x 5 torus's
frontier is 21 cells wide).

Which paths are summed:

- closed: from the start (given, else the first cell: every tour passes it),
  ending next to it;
- open from a given start (to a given end): those paths (and an end alone is
  the start of the reversed paths);
- open from anywhere: on a full torus, whose translations take its first
  cell to every cell (:func:`~cpknight.graph.symmetry.transitive_torus`),
  ``n`` times the paths from the first cell; otherwise from a start outside
  the board joined to every cell.

Only the two largest layers are held, each set under its rank in the
combinatorial number system and only at its own cells (the compiled loops
of :mod:`cpknight.counting.subsets_jit`), and the layers are filled a slice
of ranks at a time, the clock (and Ctrl-C) checked between slices. The counts
are kept modulo 2^64, and modulo the prime 2^61 - 1 too (a second pass) when
Brégman's bound on the answer (:func:`~cpknight.counting.residues.tour_bound_bits`)
passes 2^64; the Chinese remainder theorem puts them together.

:func:`solve` is the ``'subsets'`` engine of :data:`cpknight.counting.ENGINES`;
it needs numba (``pip install 'cpknight[fast]'``).

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.counting.instance import CountInstance
    >>> from cpknight.pieces import KNIGHT
    >>> plan = plan_subsets(CountInstance(Board((5, 5), topology="torus"), KNIGHT))
    >>> plan.bits, plan.passes, f"{subset_bytes(plan.bits) / 2**20:.0f} MB"
    (24, 1, '495 MB')
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from cpknight.board import Board
from cpknight.counting import directions
from cpknight.counting.instance import CountInstance
from cpknight.counting.residues import crt, tour_bound_bits
from cpknight.errors import InvalidInputError, ModelTooBigError, SolveLimitError
from cpknight.graph.symmetry import transitive_torus
from cpknight.pieces import MoveGraph
from cpknight.results import TourCount
from cpknight.runtime.compiled import CompiledLoops, waiting_seconds
from cpknight.runtime.memory import budget_mb, peak_mb
from cpknight.runtime.optional import installed
from cpknight.solving import Run
from cpknight.status import Status

__all__ = [
    "LOOPS",
    "MAX_CELLS",
    "SubsetPlan",
    "check_cells",
    "plan_subsets",
    "refuse_subsets",
    "solve",
    "subset_bytes",
    "subsets_seconds",
]

LOOPS = CompiledLoops("cpknight.counting.subsets_jit", 8.0)
"""The compiled loops (numba's cache of them: ``cpknight warm``)."""

MAX_CELLS = 40
"""The most cells (in the DP's sets) this engine takes: past it the layers
alone are terabytes."""

MODULI = (1 << 64, (1 << 61) - 1)
"""The moduli of the passes: 2^64, then the Mersenne prime 2^61 - 1."""

RATE = 1.0e7
"""Entries (a set and one of its cells) filled a second by one thread, about
(the 5 x 6 torus: 7.8e9 entries a pass, two passes in 630 s on 2 threads)."""

SLICE = 1 << 21
"""Entries filled between two checks of the clock: a tenth of a second or so."""

LOAD_SECONDS = 2.0
"""Seconds loading numba and the parallel loops takes, about, on 2 busy cores
(a limit must leave them past compiling)."""


@dataclass(frozen=True)
class SubsetPlan:
    """What the DP runs: its start, the cells of its sets, how many passes.

    Attributes:
        start: the start node, or -1 for a start outside the board joined to
            every cell (open tours from anywhere).
        bits: the cells of the DP's sets (the nodes but the start).
        closed: closed tours (paths back next to the start).
        end: open tours to this node only, or -1.
        times: the paths counted are multiplied by this (a full torus: the
            open tours from one cell, times the cells).
        passes: 1 (modulo 2^64) or 2 (and modulo 2^61 - 1).
    """

    start: int
    bits: int
    closed: bool
    end: int = -1
    times: int = 1
    passes: int = 1

    @property
    def entries(self) -> int:
        """The entries filled in one pass: ``bits * 2^(bits - 1)``."""
        return self.bits << max(self.bits - 1, 0)


def plan_subsets(instance: CountInstance) -> SubsetPlan:
    """The DP's start, sets and passes for a count (see the module's list).

    Raises:
        InvalidInputError: side constraints or prefix counts (which this
            engine does not count), a checkpoint directory, more than
            :data:`MAX_CELLS` cells, or a count past what two moduli hold.
    """
    if instance.constraints:
        raise InvalidInputError(
            "the subsets engine counts plain tours: side constraints are counted "
            "by CP-SAT enumeration (--method cpsat)"
        )
    if instance.prefixes:
        raise InvalidInputError("prefix counts are the frontier program's")
    if instance.checkpoint is not None:
        raise InvalidInputError(
            "the subsets engine keeps no states on disk: --resume DIR is the "
            "frontier program's (--method frontier)"
        )
    check_cells(instance.board)
    graph = instance.graph
    n = graph.n_nodes
    start = -1 if instance.start is None else graph.node(instance.start)
    end = -1 if instance.end is None else graph.node(instance.end)
    times = 1
    if instance.closed:
        start = max(start, 0)  # every closed tour passes every cell
    elif start < 0 and end >= 0:
        start, end = end, -1  # the paths to the end, reversed
    elif start < 0 and n > 1 and transitive_torus(graph.board):
        start, times = 0, n
    bits = n if start < 0 else n - 1
    if bits > MAX_CELLS:
        _too_many(graph.board.label, n)
    degrees = graph.degree.tolist()
    needed = tour_bound_bits(degrees, closed=instance.closed)
    if needed >= math.log2(math.prod(MODULI)):
        raise InvalidInputError(
            f"the tours of {graph.board.label} may number up to 2^{needed:.0f}, "
            "more than the subsets engine's two moduli hold"
        )
    passes = 1 if needed < 64 else 2
    return SubsetPlan(start, bits, instance.closed, end, times, passes)


def check_cells(board: Board) -> None:
    """Refuse, from the board alone (no move graph), more cells than the DP takes.

    Raises:
        InvalidInputError: more than :data:`MAX_CELLS` cells past a start.
    """
    if board.n_open > MAX_CELLS + 1:
        _too_many(board.label, board.n_open)


def _too_many(label: str, cells: int) -> None:
    """Refuse a board of too many cells for the DP, in one line."""
    raise InvalidInputError(
        f"{label} has {cells:,} cells: the subsets engine takes at most "
        f"{MAX_CELLS} (its layers grow as 2^n)"
    )


def subset_bytes(bits: int) -> int:
    """The DP's peak array bytes on ``bits`` cells: its two largest layers.

    Examples:
        >>> f"{subset_bytes(29) / 2**30:.1f} GiB"  # the 5 x 6 torus
        '16.8 GiB'
    """
    sizes = [math.comb(bits, k) * k * 8 for k in range(bits + 1)]
    return max((a + b for a, b in itertools.pairwise(sizes)), default=8)


def estimated_seconds(plan: SubsetPlan, threads: int) -> float:
    """About how long the DP takes on ``threads`` threads (compiled, warm)."""
    return plan.entries * plan.passes / (RATE * max(threads, 1))


def subsets_seconds(instance: CountInstance) -> float | None:
    """About how long this engine takes, loading and compiling included.

    None where it cannot run: numba missing, side constraints or prefixes,
    or its layers past the memory budget.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> subsets_seconds(CountInstance(Board.parse("8x8"), KNIGHT))  # 2^63 sets
    """
    if not installed("numba") or instance.constraints or instance.prefixes:
        return None
    if instance.board.n_open > MAX_CELLS:
        return None
    budget = budget_mb() if instance.memory_mb is None else instance.memory_mb
    try:
        plan = plan_subsets(instance)
    except InvalidInputError:
        return None
    if subset_bytes(plan.bits) > budget * 2**20:
        return None
    return LOAD_SECONDS + waiting_seconds([LOOPS]) + estimated_seconds(plan, 2)


def refuse_subsets(plan: SubsetPlan, instance: CountInstance, run: Run) -> None:
    """Refuse up front, in one line, a count past the memory budget or the limit.

    Past the memory budget: the two largest layers. Past the limit: compiling
    the loops not yet built, or a count estimated at more than four times the
    limit (and over a minute).

    Raises:
        InvalidInputError: numba is not installed.
        ModelTooBigError: the estimates above.
    """
    label = instance.board.label
    if not installed("numba"):
        raise InvalidInputError(
            "the subsets engine runs compiled loops: pip install 'cpknight[fast]'"
        )
    budget = budget_mb() if instance.memory_mb is None else instance.memory_mb
    need = subset_bytes(plan.bits)
    if need > budget * 2**20:
        raise ModelTooBigError(
            f"counting the tours of {label} over subsets of {plan.bits} cells "
            f"takes about {need / 2**20:,.0f} MB, over the memory budget of "
            f"{budget:g} MB (use a larger --memory)"
        )
    limit = run.remaining()
    if limit is None:
        return
    compiling = waiting_seconds([LOOPS])
    if compiling and limit < compiling + LOAD_SECONDS:
        raise ModelTooBigError(
            f"the subsets engine's loops are not compiled yet: about "
            f"{compiling:.0f} s, more than the limit leaves ({limit:.1f} s; run "
            "'cpknight warm' once, or raise --time-limit)"
        )
    seconds = estimated_seconds(plan, _threads())
    if seconds > max(4 * limit, 60.0):
        raise ModelTooBigError(
            f"counting the tours of {label} over subsets of {plan.bits} cells "
            f"takes about {seconds:,.0f} s here, the limit is {limit:.1f} s "
            "(raise --time-limit, or 'none')"
        )


def _threads() -> int:
    """The threads numba runs the loops on."""
    import numba

    return int(numba.get_num_threads())


def solve(instance: CountInstance, run: Run) -> TourCount:
    """The ``'subsets'`` counting engine: the DP over subsets, exact.

    Conventions as every count (:func:`~cpknight.counting.directions`).

    Args:
        instance: the count instance (``memory_mb`` bounds the layers;
            ``progress`` is called after every layer with a partial count,
            no numbers, ``steps`` the layers done of all).
        run: the run context; the clock is checked between slices of a layer.

    Returns:
        A :class:`~cpknight.results.TourCount`; ``unknown`` (the numbers 0: no
        lower bound) when the time limit or Ctrl-C stopped it, with the reason.

    Raises:
        InvalidInputError: side constraints, prefix counts, numba missing, a
            count past the memory budget or far past the limit (up front).

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> from cpknight.solving import SolveOptions
        >>> inst = CountInstance(Board((4, 4), topology="torus"), KNIGHT)
        >>> solve(inst, SolveOptions().start()).undirected  # the 4-cube's 1344
        1344
    """
    from cpknight.counting.cpsat import trivial_count

    trivial = trivial_count(instance, run)
    if trivial is not None:
        return dataclasses.replace(trivial, method="subsets")
    plan = plan_subsets(instance)
    refuse_subsets(plan, instance, run)
    total = plan.bits * plan.passes
    steps = [0]  # layers done

    def note() -> str:
        passes = "modulo 2^64"
        if plan.passes == 2:
            passes = "two passes, modulo 2^64 and 2^61 - 1"
        return (
            f"subsets: Held and Karp's DP over the sets of {plan.bits} cells, "
            f"{passes}; peak memory {peak_mb():,.0f} MB"
        )

    def partial(stopped: str | None, interrupted: bool = False) -> TourCount:
        return TourCount(
            Status.UNKNOWN,
            0,
            0,
            run.elapsed(),
            interrupted=interrupted,
            method="subsets",
            counts_so_far=False,
            stopped=stopped,
            steps=(steps[0], total),
            note=None if stopped is None else note(),
        )

    def tick() -> None:
        steps[0] += 1
        if instance.progress is not None:
            instance.progress(partial(None))

    try:
        residues = [
            _paths(instance.graph, plan, modulus, run, tick)
            for modulus in MODULI[: plan.passes]
        ]
    except SolveLimitError as exc:
        if run.clock.interrupted:
            return partial("interrupted", interrupted=True)
        return partial(str(exc))
    except KeyboardInterrupt:
        return partial("interrupted", interrupted=True)
    except SystemError as exc:  # Ctrl-C inside numba's loading of its cache
        from cpknight.counting.frontier import from_ctrl_c

        if not from_ctrl_c(exc):
            raise
        return partial("interrupted", interrupted=True)
    paths = crt(residues, MODULI[: plan.passes]) * plan.times
    factor = directions(instance)
    undirected = paths if factor == 1 else paths // 2
    count = TourCount(
        Status.FOUND,
        undirected * factor,
        undirected,
        run.elapsed(),
        method="subsets",
        steps=(total, total),
        note=note(),
    )
    if factor == 2 and paths % 2:
        raise AssertionError(f"an odd number of directed tours: {paths}")
    return count


def _paths(
    graph: MoveGraph,
    plan: SubsetPlan,
    modulus: int,
    run: Run,
    tick: Callable[[], None],
) -> int:
    """The directed paths the plan sums, modulo ``modulus`` (one pass)."""
    from cpknight.counting import subsets_jit as jit

    table, first, near = _bit_table(graph, plan.start)
    m = plan.bits
    modp = modulus != MODULI[0]
    binom = jit.binomials(m)
    prev = jit.first_layer(first)
    parts = 8 * _threads()
    where = f"counting tours over subsets (pass {1 + modp} of {plan.passes})"
    tick()
    for k in range(2, m + 1):
        size = math.comb(m, k)
        cur = np.empty(size * k, dtype=np.uint64)
        step = max(1, SLICE // k)
        for lo in range(0, size, step):
            run.check(f"{where}: sets of {k} cells of {m}")
            hi = min(size, lo + step)
            jit.layer_part(prev, k, m, table, binom, modp, lo, hi, cur, parts)
        prev = cur
        tick()
    row = [int(x) for x in prev.tolist()] if m else []
    if plan.closed:
        return sum(row[b] for b in near) % modulus
    if 0 <= plan.end == plan.start:
        return 0  # more than one cell: no path ends where it starts
    if plan.end >= 0:
        end_bit = plan.end - (plan.end > plan.start)
        return row[end_bit] % modulus
    return sum(row) % modulus


def _bit_table(
    graph: MoveGraph, start: int
) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The DP's view of the graph: the nodes but the start as bits 0, 1, ...

    Returns ``table`` (``table[b]``: the bits of b's neighbours, padded with
    -1), ``first`` (1 where a path's first move may go: the start's
    neighbours, or every cell from a start outside the board) and the start's
    neighbours as bits.
    """
    n = graph.n_nodes
    others = [x for x in range(n) if x != start]
    bit = {node: b for b, node in enumerate(others)}
    lists = [
        [bit[int(y)] for y in graph.neighbors(x) if int(y) != start] for x in others
    ]
    width = max((len(near) for near in lists), default=1)
    table = np.full((len(others), max(width, 1)), -1, dtype=np.int64)
    for b, near in enumerate(lists):
        table[b, : len(near)] = near
    if start < 0:
        return table, np.ones(len(others), dtype=np.uint8), []
    near = [bit[int(y)] for y in graph.neighbors(start)]
    first = np.zeros(len(others), dtype=np.uint8)
    first[near] = 1
    return table, first, near
