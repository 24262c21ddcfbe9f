"""Counting tours from both ends: two frontier programs met in the middle.

The frontier program's live states peak in the middle of the board, where the
frontier has seen the most and the cells still to come have not yet cut the
states that cannot be finished. Meeting in the middle runs the program from
the first cell up to a *cut* (the first half: every move between cells added
so far), and from the last cell back to the same cut (the second half: every
other move, those between the cut's cells and the cells after it included),
and joins the two: a tour is one state of each half whose degrees add up to 2
at every cell of the cut (an open tour leaves two cells at 1, its ends) and
whose paths join into one cycle (or one path). Neither half passes the peak.
Why each choice was made, with the live states measured:

- **Where to cut** (:func:`default_cut`): half a row past the middle. The
  second half takes the moves between the cut and the cells after it, so it
  adds the cut's cells (two rows on a rectangle) after its own and is the
  wider one at a cut in the very middle. Open 7x7, cut after 28 cells:

  ====================  ======================  ========================
  cells                 first half (1..28)      second half (49..22)
  ====================  ======================  ========================
  after 7 / 14 / 21     1 / 1,024 / 1,343,415   the same (its first 28
                                                steps are the first's)
  after 26              22,328,087 (peak)       the same
  after 28              19,669,464              19,669,464
  the cut's 7 more      (none)                  29.8, 31.5, 39.5, 45.3,
                                                52.9 (peak), 29.6, 29.3
                                                million
  ====================  ======================  ========================

  The program from one end passed 377 million at cell 38 of 49 and was
  still growing (on disk, 52 minutes, not finished).
- **The second half's first steps run once** (:func:`shared_steps`): on a
  board the same turned half round they are the first half's, step for step
  (open 7x7: all 28), so the second half starts from the first half's states.
- **The join groups, then walks.** Both halves' last states are grouped by
  their degrees on the cut (a key of 2 bits a cell, and the tour ends
  placed); each key of the first half is completed by one key of the second
  (closed tours) or a few (open: the tour's ends may fall on the cut), found
  by binary search; every pair of states of two such groups is walked
  (:mod:`cpknight.counting.meet_jit`) and, when its paths close into one
  cycle or path, adds the product of its counts (residues, as the dense
  kernel keeps them). Open 7x7: 1,483,512,995 pairs, about 40 s on 2 cores.
- **Memory.** Each half runs in memory, or on disk in buckets within the
  budget (:class:`~cpknight.counting.dense_kernel.Spill`); the join holds
  both halves' last states (about :data:`JOIN_BYTES` a state) and refuses
  past the budget.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> from cpknight.frontier.plan import plan_frontier
    >>> g = move_graph("6x6")
    >>> count_meet(g, plan_frontier(g, closed=True)).total
    9862
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cpknight.counting.dense_kernel import DenseRun, Seed, Spill, Tick
from cpknight.counting.residues import crt, primes_for, tour_bound_bits
from cpknight.errors import InvalidInputError
from cpknight.frontier.plan import (
    FrontierPlan,
    StepCheck,
    default_cut,
    frontier_after,
    meet_fits,
    plan_steps,
)
from cpknight.pieces import MoveGraph
from cpknight.runtime.optional import require

__all__ = [
    "JoinTooBig",
    "MeetPlan",
    "MeetResult",
    "count_meet",
    "default_cut",
    "meet_fits",
    "plan_meet",
    "shared_steps",
]


JOIN_BYTES = 64
"""What one state of a half costs in the join: its links (a byte a cell of
the cut), its residues, its key and its place in the sorted order."""


class JoinTooBig(Exception):
    """The halves' last states would not fit the memory budget for the join."""


JOIN_PAIRS = 1 << 25
"""Pairs of states joined between two checks of the clock (about a second)."""


@dataclass(frozen=True)
class MeetPlan:
    """The two halves of a count met in the middle.

    Attributes:
        first: the plan's first ``cut`` steps (every move between them).
        second: the cells after the cut, last first, then the cut's cells
            (every move with an end after the cut).
        cut: the cells where the halves meet (nodes, ascending).
        first_cells: the cut cell (index into ``cut``) each slot of the first
            half's last frontier holds; ``second_cells`` the same.
    """

    first: FrontierPlan
    second: FrontierPlan
    cut: tuple[int, ...]
    first_cells: tuple[int, ...]
    second_cells: tuple[int, ...]


@dataclass
class MeetResult:
    """What a count met in the middle found.

    Attributes:
        total: the undirected tours.
        first: the live states after each step of the first half.
        second: the same for the second half.
        pairs: the pairs of states whose degrees agree (each looked at).
        tried: the state-and-choice pairs the halves looked at.
        primes: the moduli of the counts.
        disk: the most bytes one step of a half took on disk (0: in memory).
        buckets: the most buckets a step of a half was split into.
        shared: the second half's first steps, the same as the first half's
            (:func:`shared_steps`), run once: its states after them were the
            first half's.
        slices: the slices of the first half's last states joined one after
            another (1: all at once; more when they would not fit the budget
            together, :func:`count_meet`).
    """

    total: int
    first: list[int] = field(default_factory=list)
    second: list[int] = field(default_factory=list)
    pairs: int = 0
    tried: int = 0
    primes: tuple[int, ...] = ()
    disk: int = 0
    buckets: int = 0
    shared: int = 0
    slices: int = 1


def plan_meet(graph: MoveGraph, plan: FrontierPlan, cut: int) -> MeetPlan:
    """Split ``plan`` after its first ``cut`` steps.

    Raises:
        InvalidInputError: the plan has fixed ends, or the cut leaves a half
            empty.
    """
    if plan.ends:
        raise InvalidInputError("a count met in the middle takes no fixed ends")
    n = len(plan.order)
    if not 0 < cut < n:
        raise InvalidInputError(f"the cut must be inside the plan (1..{n - 1}): {cut}")
    head = plan.order[:cut]
    after = set(plan.order[cut:])
    frontier = frontier_after(plan.steps[:cut])
    meet = tuple(sorted(frontier))
    meet_set = set(meet)
    if meet_set == set(head):
        # every cell of the first half on the cut: a tour could lie in the
        # second half's moves alone, which that half does not keep
        raise InvalidInputError(
            f"the cut after {cut} cells leaves the first half no cell of its own"
        )
    index = {u: c for c, u in enumerate(meet)}
    tail = list(reversed(plan.order[cut:]))
    tail += [u for u in reversed(head) if u in meet_set]

    def neighbors(u: int) -> list[int]:
        near = [int(w) for w in graph.neighbors(u)]
        return [w for w in near if w in after] if u in meet_set else near

    steps = plan_steps(neighbors, tail, keep=frozenset(meet_set))
    last = frontier_after(steps)
    if set(last) != meet_set:  # pragma: no cover - a plan that is not a frontier
        raise AssertionError("the second half does not end on the cut")
    first = FrontierPlan(
        closed=plan.closed, ends=(), free_ends=plan.free_ends,
        order=tuple(head), steps=plan.steps[:cut], axes=plan.axes, rows=(),
    )  # fmt: skip
    second = FrontierPlan(
        closed=plan.closed, ends=(), free_ends=plan.free_ends,
        order=tuple(tail), steps=tuple(steps), axes=plan.axes, rows=(),
    )  # fmt: skip
    return MeetPlan(
        first, second, meet,
        tuple(index[u] for u in frontier), tuple(index[u] for u in last),
    )  # fmt: skip


def shared_steps(halves: MeetPlan) -> int:
    """How many first steps the halves share: the same but for the cell added.

    The kernels read a step's width, moves back, ends and leavers, never its
    cell: where those agree, so do the states. On a board the same turned
    half round (a rectangle), the second half's first steps are the turned
    first half's (open 7x7 met after 28 cells: all 28).

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> from cpknight.frontier.plan import plan_frontier
        >>> g = move_graph("7x7")
        >>> shared_steps(plan_meet(g, plan_frontier(g, closed=False), 28))
        28
    """
    count = 0
    for a, b in zip(halves.first.steps, halves.second.steps, strict=False):
        same = (a.width, a.back, a.cap, a.ends, a.leaving, a.short) == (
            b.width, b.back, b.cap, b.ends, b.leaving, b.short,
        )  # fmt: skip
        if not same:
            break
        count += 1
    return count


@dataclass
class Advanced:
    """The states after every step of a plan, none finishing (:func:`frontier_states`).

    Attributes:
        states: the last step's states (words, residue counts).
        live: the live states after every step.
        tried: the state-and-choice pairs looked at.
        disk: the most bytes one step's buckets took on disk (0: in memory).
        buckets: the most buckets a step was split into.
        resumed: the steps read from a checkpoint (-1: none).
        kept: the states after the steps asked to be kept (``keep``).
    """

    states: tuple[Any, Any, Any]
    live: list[int]
    tried: int
    disk: int = 0
    buckets: int = 1
    resumed: int = -1
    kept: tuple[Any, Any, Any] | None = None


def frontier_states(
    plan: FrontierPlan,
    moduli: Sequence[int],
    check: StepCheck | None = None,
    *,
    tick: Tick | None = None,
    spill: Spill | None = None,
    on_resume: Callable[[list[int]], None] | None = None,
    seed: Seed | None = None,
    keep: int = 0,
    load: bool = True,
) -> Advanced:
    """The live states after every step of ``plan``, none finishing (numba).

    Each half of a count met in the middle (:mod:`cpknight.counting.meet`):
    its states as words and residue counts modulo ``moduli``. With ``spill``
    the steps run on disk, a checkpoint after each (a finished half is read
    back from its checkpoint). ``seed``: the states after the plan's first
    steps, made by another plan whose first steps are the same (run from
    there). ``keep`` (in memory): the states after that many steps are
    returned too (:attr:`Advanced.kept`). ``load`` (on disk): read the last
    states back into memory (else ``states`` holds None).
    """
    run = DenseRun.create(plan, moduli, check, tick)
    if spill is None:
        return Advanced(run.advance(seed, keep), run.live, run.tried, kept=run.kept)
    result = run.on_disk(set(), spill, on_resume, advance=True, seed=seed)
    states: tuple[Any, Any, Any] = (None, None, None)
    if load and run.final is not None:
        states = _gathered(run.final, run.live[-1] if run.live else 0, len(moduli))
    run.final = None
    return Advanced(
        states, run.live, run.tried,
        disk=result.disk, buckets=result.buckets, resumed=result.resumed,
    )  # fmt: skip


def _gathered(
    read: Callable[[], list[tuple[Any, Any, Any]]], size: int, k: int
) -> tuple[Any, Any, Any]:
    """The buckets ``read`` gives, one after another, in arrays made once."""
    lo = np.empty(size, dtype=np.uint64)
    hi = np.empty(size, dtype=np.uint64)
    cnt = np.empty((size, k), dtype=np.uint64)
    at = 0
    while part := read():
        for b_lo, b_hi, b_cnt in part:
            z = at + len(b_lo)
            lo[at:z], hi[at:z], cnt[at:z] = b_lo, b_hi, b_cnt
            at = z
    return lo[:at], hi[:at], cnt[:at]


def count_meet(
    graph: MoveGraph,
    plan: FrontierPlan,
    cut: int | None = None,
    check: StepCheck | None = None,
    *,
    tick: Tick | None = None,
    spill: Spill | None = None,
    on_resume: Callable[[int, list[int]], None] | None = None,
    budget_bytes: float | None = None,
) -> MeetResult:
    """Count the tours of ``plan`` from both ends, met after step ``cut``.

    Args:
        graph: the move graph the plan was made of.
        plan: the frontier plan (no fixed ends).
        cut: the steps of the first half (None: :func:`default_cut`).
        check: called after every step of either half (the second half's
            steps numbered after the first's).
        tick: called between chunks (the clock).
        spill: the halves' states in buckets on disk, under
            ``spill.path / 'first'`` and ``'second'``, a checkpoint after
            every step (a count stopped resumes from them); None: in memory.
        on_resume: called with the half (0, 1) and the live states of the
            steps its checkpoint had done, when it resumes from one.
        budget_bytes: the memory the join may take (None: no limit); the
            halves' last states are held in memory by it,
            :data:`JOIN_BYTES` a state. On disk, when the first half's last
            states would not fit beside the second's, they are read back a
            slice at a time and each slice is joined with the whole second
            half (every pair is still looked at once: the sum over the
            slices is the sum over the states).

    Returns:
        The :class:`MeetResult`.

    Raises:
        JoinTooBig: the halves' last states would pass ``budget_bytes``.
    """
    meet_jit = _jit()
    if cut is None:
        cut = default_cut(plan)
    halves = plan_meet(graph, plan, cut)
    degrees = [len(graph.neighbors(u)) for u in range(graph.n_nodes)]
    moduli = primes_for(tour_bound_bits(degrees, closed=plan.closed) + 1)
    shift = len(halves.first.steps)
    spills = _spills(spill)

    def later(step: int, live: int, tried: int) -> None:
        if check is not None:
            check(shift + step, live, tried)

    def resumed(half: int) -> Callable[[list[int]], None] | None:
        if on_resume is None:
            return None
        return lambda done: on_resume(half, done)

    # the second half's first steps are often the first half's (a board the
    # same turned half round): they are run once
    shared = shared_steps(halves)
    keep = shared if spill is None and shared < cut else 0

    def said(half: str) -> Tick | None:
        return None if tick is None else lambda where: tick(f"the {half} half, {where}")

    first = frontier_states(
        halves.first, moduli, check, tick=said("first"), spill=spills[0],
        on_resume=resumed(0), keep=keep, load=spill is None or shared == cut,
    )  # fmt: skip
    seed = None
    if shared == cut and len(first.live) == cut and first.states[0] is not None:
        seed = Seed(first.states, list(first.live))
    elif keep and first.kept is not None:
        seed = Seed(first.kept, first.live[:keep])
    first.kept = None
    if seed is not None:
        for i, live in enumerate(seed.live):  # the shared steps, reported once more
            later(i, live, 0)
    if spill is not None:
        first.states = (None, None, None)  # read back from its buckets later
    second = frontier_states(
        halves.second, moduli, later, tick=said("second"), spill=spills[1],
        on_resume=resumed(1), seed=seed,
    )  # fmt: skip
    seeded = len(seed.live) if seed is not None else 0
    del seed
    if not (first.live and first.live[-1] and second.live and second.live[-1]):
        return MeetResult(  # a half with no state left: no tour
            0, first.live, second.live, 0, first.tried + second.tried, tuple(moduli)
        )
    need = (first.live[-1] + second.live[-1]) * JOIN_BYTES
    room = None  # the first half's states a slice may hold (None: all)
    if budget_bytes is not None and need > budget_bytes:
        # a slice's groups beside the second half's and the bucket it is cut
        # from (read whole, a fifth over its share for buckets of unequal size)
        bucket = first.live[-1] / max(first.buckets, 1) * (16 + 8 * len(moduli))
        room = int((budget_bytes - 1.2 * bucket) // JOIN_BYTES) - 2 * second.live[-1]
        if spill is None or room < min(first.live[-1], MIN_SLICE):
            raise JoinTooBig(
                f"joining the halves ({first.live[-1]:,} and {second.live[-1]:,} "
                f"states) would take about {need / 2**20:,.0f} MB, over the memory "
                f"budget of {budget_bytes / 2**20:,.0f} MB"
            )
    side_g = _side(meet_jit, second.states, halves.second_cells)
    second.states = (None, None, None)
    join = _Join(meet_jit, side_g, halves, plan, moduli, tick)
    if room is None:
        if spill is not None:  # the first half's checkpoint is whole: read back
            first.states = frontier_states(halves.first, moduli, spill=spills[0]).states
        join.add(_side(meet_jit, first.states, halves.first_cells))
    elif spills[0] is not None:  # a slice of the first half's checkpoint at a time
        for states in state_slices(halves.first, moduli, spills[0], room):
            join.add(_side(meet_jit, states, halves.first_cells))
            del states
            if tick is not None:  # the clock between slices (each read, joined)
                tick(f"joining the halves, slice {join.slices} done")
    first.states = (None, None, None)
    return MeetResult(
        total=crt(join.total, moduli),
        first=first.live,
        second=second.live,
        pairs=join.pairs,
        tried=first.tried + second.tried,
        primes=tuple(moduli),
        disk=max(first.disk, second.disk),
        buckets=max(first.buckets, second.buckets) if spill is not None else 0,
        shared=seeded,
        slices=join.slices,
    )


MIN_SLICE = 1 << 20
"""The fewest states of the first half a slice of the join is worth (else
the join is refused)."""


class _Join:
    """The join's sums, a slice of the first half's states at a time."""

    def __init__(
        self,
        jit: Any,
        side_g: tuple[Any, ...],
        halves: MeetPlan,
        plan: FrontierPlan,
        moduli: Sequence[int],
        tick: Tick | None,
    ) -> None:
        self.jit, self.side_g, self.moduli, self.tick = jit, side_g, moduli, tick
        self.shape = (len(halves.cut), plan.closed, plan.free_ends)
        self.total = [0] * len(moduli)
        self.pairs = 0
        self.slices = 0

    def add(self, side_f: tuple[Any, ...]) -> None:
        """Join one slice of the first half (as :func:`_side` gives it)."""
        jit, side_g = self.jit, self.side_g
        m, closed, free = self.shape
        self.slices += 1
        per_group = jit.pairs(
            side_f[0], side_f[1], side_g[0], side_g[1], m, closed, free
        )
        everything = int(per_group.sum())
        p = np.array(self.moduli, dtype=np.uint64)
        j0 = 0
        done = 0
        # runs of the first side's groups of about JOIN_PAIRS pairs, the clock
        # checked between them
        marks = np.arange(1, 1 + everything // JOIN_PAIRS) * JOIN_PAIRS
        bounds = np.searchsorted(np.cumsum(per_group), marks)
        for j1 in [*(int(b) + 1 for b in bounds), len(per_group)]:
            if j1 <= j0:
                continue
            part = jit.join(j0, j1, *side_f, *side_g, m, closed, free, p)
            self.total = [
                (a + int(b)) % q
                for a, b, q in zip(self.total, part, self.moduli, strict=True)
            ]
            done += int(per_group[j0:j1].sum())
            j0 = j1
            if self.tick is not None:
                where = f" (slice {self.slices})" if self.slices > 1 else ""
                self.tick(
                    f"joining the halves{where}, {done:,} of {everything:,} pairs"
                )
        self.pairs += everything


def state_slices(
    plan: FrontierPlan, moduli: Sequence[int], spill: Spill, room: int
) -> Iterator[tuple[Any, Any, Any]]:
    """The last states of a finished half on disk, at most ``room`` at a time."""
    run = DenseRun.create(plan, moduli, None, None)
    run.on_disk(set(), spill, None, advance=True)
    read = run.final
    run.final = None
    if read is None:
        return
    while part := read():  # a bucket, mapped: each slice read from disk on its own
        for lo, hi, cnt in part:
            for at in range(0, len(lo), max(room, 1)):
                yield tuple(  # type: ignore[misc]
                    np.ascontiguousarray(x[at : at + room]) for x in (lo, hi, cnt)
                )


def _jit() -> Any:
    """The compiled loops (numba imported here, with one line if it is missing)."""
    require("numba", "a count met in the middle", "fast")
    from cpknight.counting import meet_jit

    return meet_jit


def _spills(spill: Spill | None) -> tuple[Spill | None, Spill | None]:
    """Each half's spill: a directory of its own under the count's.

    Raises:
        InvalidInputError: the directory holds anything but the halves'.
    """
    if spill is None:
        return None, None
    path = Path(spill.path)
    if path.exists() and not path.is_dir():
        raise InvalidInputError(f"not a directory: {path}")
    if path.exists():
        other = [p.name for p in path.iterdir() if p.name not in HALVES]
        if other:
            raise InvalidInputError(
                f"{path} holds files that are not a count met in the middle "
                f"({other[0]}): give an empty or new directory"
            )
    return (
        Spill(path / HALVES[0], spill.budget_bytes, spill.buckets, spill.map),
        Spill(path / HALVES[1], spill.budget_bytes, spill.buckets, spill.map),
    )


HALVES = ("first", "second")
"""The directories of the two halves' checkpoints."""


def _side(
    jit: Any, states: tuple[Any, Any, Any], cells: Sequence[int]
) -> tuple[Any, ...]:
    """One half's states as the join takes them: sorted and grouped by degrees.

    Returns the distinct keys, where each group starts, and the states' links,
    counts, first path end and first dangling end, in the keys' order (a
    group's states side by side in memory).
    """
    lo, hi, cnt = states
    deg, link, used = jit.links(lo, hi, np.array(cells, dtype=np.int64))
    key = jit.keys(deg, used)
    del deg, used
    order = np.argsort(key, kind="stable")
    key = key[order]
    link = link[order]
    cnt = cnt[order]
    del order
    distinct = np.flatnonzero(np.diff(key)) + 1
    starts = np.concatenate(([0], distinct, [len(key)])).astype(np.int64)
    first, term = jit.ends_of(link)
    return key[starts[:-1]], starts, link, cnt, first, term
