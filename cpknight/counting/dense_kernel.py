"""The frontier program's dense kernel: 16-byte states, residue counts, hashing.

The third kernel of the frontier program (:mod:`cpknight.counting.frontier`),
for the records (7 x 7 open, 8 x 8 closed). It needs numba (``pip install
'cpknight[fast]'``): its loops (:mod:`cpknight.counting.dense_jit`) are
compiled on first use and cached on disk. Why each choice was made:

- **A state in two 64-bit words.** The cells of the frontier hold the codes
  of :mod:`cpknight.frontier.slots`: 5 bits a slot, 12 slots a word, a path
  end naming the slot of its other end; the free ends used sit in bits 60-61
  of the high word. That raw form is already canonical (equal states, equal
  words). A 4-bit form with the paths relabelled in order of first
  appearance was written first: on the 6x6 open peak step its relabelling
  made the step loop 2.8 times slower (2.5 s against 0.88 s for 24.6 million
  state-choice pairs), so the 5-bit form stayed. Up to 24 slots; the 8 x 8
  board's widest frontier is 18, the numpy kernel (a byte a slot) takes 30.
- **Counts as residues** modulo a few primes just under ``2**62``
  (:mod:`cpknight.counting.residues`): one add and one compare per prime,
  no carries. How many primes is decided up front from Brégman's bound on the
  answer (two for every knight board up to 8 x 8, 123 bits): the count is
  exact, not a guess, and the range is tested past ``2**128``.
- **A hash table, not a sort.** The numpy kernel sorts every step's keys (a
  third of its time); here the states a chunk makes are grouped by region
  (the top bits of their hash) and each region's go into its own
  cache-sized part of an open-addressing table, the regions in parallel,
  equal states summed on the spot (6x6 open: 23 s into one table, 8.5 s by
  regions, numpy 14.4 s). A new table is sized for the step's expected
  states at :data:`LOAD` full in any number of rows (a power of two would
  leave it a quarter full at worst): open 7x7's widest second half took 5.7
  GB against 7.9 GB with power-of-two tables and the step's states kept
  while the next were compacted.
- **Chunks, then buckets on disk.** The states of a step are read in chunks of
  :data:`CHUNK` (the clock and Ctrl-C are checked between chunks). When the
  live states outgrow the memory budget and a directory is given (``--resume
  DIR``), the states are split by a hash of their key into buckets, one file
  each: every input bucket is stepped on its own and its states split into
  the next step's buckets (parts), then each bucket's parts are summed. A
  finished step is a checkpoint: its buckets and a manifest, from which a run
  stopped by Ctrl-C, a limit or a crash resumes (:class:`Spill`).
- **Buckets as tasks.** Stepping one input bucket and summing one output
  bucket are independent tasks (:class:`BucketTask`, run by
  :func:`step_bucket` and :func:`sum_bucket`: plain arguments, the files
  between them); a mapper given in :attr:`Spill.map` runs them on other
  processes or machines (the runner's pool or a Dask cluster, built in
  :mod:`cpknight.api.counting`), which share the checkpoint's directory.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> from cpknight.frontier.plan import plan_frontier
    >>> count_frontier_dense(plan_frontier(move_graph("5x6"), closed=True)).total
    8
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from cpknight.counting.kernels import DENSE, DENSE_WIDTH
from cpknight.counting.residues import crt, primes_for, tour_bound_bits
from cpknight.errors import InvalidInputError
from cpknight.frontier.plan import (
    FrontierPlan,
    FrontierStep,
    StepCheck,
    step_choices,
)
from cpknight.frontier.slots import MATE
from cpknight.runtime.optional import installed, numba_threads, require
from cpknight.runtime.pace import Pace

__all__ = [
    "BYTES_PER_STATE",
    "CHUNK",
    "DENSE_WIDTH",
    "BucketTask",
    "DenseResult",
    "DenseRun",
    "Mapper",
    "Seed",
    "Spill",
    "count_frontier_dense",
    "dense_available",
    "step_bucket",
    "sum_bucket",
]

CHUNK = 1 << 19
"""States finished between two checks of the clock."""

RECORDS = 1 << 22
"""States made between two checks of the clock, at most (a step's states are
read in chunks of about this many divided by the choices a state has)."""

SLICE_SECONDS = 0.25
"""What one chunk may take (:class:`~cpknight.runtime.pace.Pace`)."""

REGION = 1 << 14
"""About how many states one region of a step's table holds (regions of
about 0.5 MB stay in cache while their states go in)."""

LOAD = 0.6
"""How full a new table is meant to be once the step's states are in (a
region that passes 80% full is doubled)."""

MAX_REGION_BITS = 8
"""At most ``2**8`` regions: the states are scattered to that many places at
once (more, and the scatter itself misses the cache)."""

BYTES_PER_STATE = DENSE.bytes_per_state
"""What a live state costs at the peak of a step, two residues a count: its
32 bytes in the states read, the table's entries (32 bytes, the table 35-70%
full) and the compacted states written (the registry's figure,
:data:`cpknight.counting.kernels.DENSE`)."""

_VERSION = 1
"""The checkpoint format (a manifest of another version is refused)."""

Tick = Callable[[str], None]
"""Called between chunks with where the program is (checks the clock)."""

Mapper = Callable[[Callable[..., dict[str, int]], list[Any]], list[dict[str, Any]]]
"""Runs a task function over a list of tasks, anywhere: their rows in order
(``map(step_bucket, tasks)``). A ``workers`` attribute, if it has one, says
how many run at once on this machine (they share the memory budget and the
cores; 0: elsewhere)."""


def dense_available() -> bool:
    """Whether numba is installed (the dense kernel can run)."""
    return installed("numba")


def _jit() -> Any:
    """The compiled loops (numba imported here, with one line if it is missing)."""
    require("numba", "the dense frontier kernel", "fast")
    from cpknight.counting import dense_jit

    return dense_jit


@dataclass
class DenseResult:
    """What a run of the dense kernel found.

    Attributes:
        total: the undirected tours.
        live: the live states after every step.
        tried: the state-and-choice pairs looked at.
        found: the tours of the prefixes asked, by the step that ends them.
        primes: the moduli the counts were kept in.
        buckets: the most buckets a step was split into (1: in memory).
        disk: the most bytes the buckets of one step took on disk.
        resumed: the step the run resumed after (-1: from the start).
    """

    total: int
    live: list[int]
    tried: int = 0
    found: dict[int, int] = field(default_factory=dict)
    primes: tuple[int, ...] = ()
    buckets: int = 1
    disk: int = 0
    resumed: int = -1


@dataclass
class Spill:
    """Where the buckets and checkpoints of a run live, and how many buckets.

    Attributes:
        path: the directory (made if missing; a directory holding anything
            but this run's checkpoint is refused, never overwritten).
        budget_bytes: the memory one bucket's step may take (decides the
            number of buckets).
        buckets: a fixed number of buckets (a power of two; 0: from the
            budget).
        map: runs a step's buckets as tasks (:data:`Mapper`), on processes
            or machines that see ``path``; None: one after another here.
    """

    path: Path
    budget_bytes: float
    buckets: int = 0
    map: Mapper | None = None


@dataclass
class _Params:
    """A step's figures as the compiled loop takes them."""

    width: int
    choices: Any
    short: Any
    end_slots: Any
    leave_slots: Any
    keep_slots: Any
    lut: Any


def _params(step: FrontierStep, *, finish: bool = False) -> _Params:
    width = step.width
    chosen = step_choices(step.back, step.cap)
    choices = np.full((len(chosen), 2), -1, dtype=np.int64)
    for r, pair in enumerate(chosen):
        choices[r, : len(pair)] = pair
    short = np.zeros(width, dtype=np.int8)
    short[list(step.short)] = 1
    leave = list(range(width) if finish else step.leaving)
    keep = [s for s in range(width) if s not in set(leave)]
    lut = np.arange(MATE + width, dtype=np.int64)  # codes renumbered past leavers
    for new, old in enumerate(keep):
        lut[MATE + old] = MATE + new
    return _Params(
        width,
        choices,
        short,
        np.array(step.ends, dtype=np.int64),
        np.array(leave, dtype=np.int64),
        np.array(keep, dtype=np.int64),
        lut,
    )


def fingerprint(plan: FrontierPlan, moduli: Sequence[int], weight: int) -> str:
    """A digest of what a checkpoint is a checkpoint of (plan, moduli, weight)."""
    text = repr((_VERSION, plan, tuple(moduli), weight))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def count_frontier_dense(
    plan: FrontierPlan,
    check: StepCheck | None = None,
    *,
    degrees: Sequence[int] | None = None,
    finish_at: Sequence[int] = (),
    tick: Tick | None = None,
    spill: Spill | None = None,
    weight: int = 1,
    on_resume: Callable[[list[int]], None] | None = None,
) -> DenseResult:
    """Run the frontier program with the dense kernel (numba).

    Args:
        plan: the cell order and its steps (at most :data:`DENSE_WIDTH` wide).
        check: called as ``check(step, live_states, tried)`` after every step.
        degrees: the move graph's degrees, for the bound on the answer
            (:func:`~cpknight.counting.residues.tour_bound_bits`); None: the
            plan's own cells all of degree 8 would not do, so the caller
            gives them (the tests give them too).
        finish_at: steps after which the prefixes are finished too
            (:func:`cpknight.counting.numpy_kernel.count_prefixes_numpy`).
        tick: called between chunks (the clock).
        spill: buckets on disk and a checkpoint after every step; None: in
            memory.
        weight: every count starts at this (tests take the arithmetic past
            ``2**128`` with it); the answer is ``weight`` times the count.
        on_resume: called with the live states of the steps a checkpoint
            had done, when the run resumes from one.

    Returns:
        The :class:`DenseResult`.
    """
    if plan.width > DENSE_WIDTH:
        raise InvalidInputError(
            f"the dense kernel takes frontiers up to {DENSE_WIDTH} cells wide: "
            f"{plan.width}"
        )
    if weight < 1:
        raise ValueError("the weight must be positive")
    jit = _jit()
    if degrees is None:
        degrees = [8] * len(plan.order)
    bits = tour_bound_bits(degrees, closed=plan.closed) + weight.bit_length()
    moduli = primes_for(bits)
    p = np.array(moduli, dtype=np.uint64)
    run = DenseRun(plan, jit, p, weight, check, tick or (lambda _where: None))
    if spill is None:
        return run.in_memory(set(finish_at))
    return run.on_disk(set(finish_at), spill, on_resume)


@dataclass
class Seed:
    """The states after a plan's first ``len(live)`` steps, to run on from.

    Attributes:
        states: the states (words, residue counts).
        live: the live states after each of those steps.
    """

    states: tuple[Any, Any, Any]
    live: list[int]


class DenseRun:
    """One run of the program: the plan, the compiled loops, the moduli.

    Made by :func:`count_frontier_dense`, and by
    :func:`cpknight.counting.meet.frontier_states` (a half of a count met in
    the middle) through :meth:`create`.
    """

    @classmethod
    def create(
        cls,
        plan: FrontierPlan,
        moduli: Sequence[int],
        check: StepCheck | None = None,
        tick: Tick | None = None,
    ) -> DenseRun:
        """A run of ``plan`` with counts modulo ``moduli`` (numba loaded)."""
        p = np.array(moduli, dtype=np.uint64)
        return cls(plan, _jit(), p, 1, check, tick or (lambda _where: None))

    def __init__(
        self,
        plan: FrontierPlan,
        jit: Any,
        p: Any,
        weight: int,
        check: StepCheck | None,
        tick: Tick,
    ) -> None:
        self.plan = plan
        self.jit = jit
        self.p = p
        self.weight = weight
        self.check = check
        self.tick = tick
        self.moduli = tuple(int(q) for q in p)
        self.total = np.zeros(len(p), dtype=np.uint64)
        self.found: dict[int, list[int]] = {}
        self.live: list[int] = []
        self.tried = 0
        self.reported = 0
        self.pace = Pace(RECORDS, SLICE_SECONDS)
        """States made a chunk: halved or doubled by how long the last took."""
        self.final: Callable[[], list[tuple[Any, Any, Any]]] | None = None
        """Reads the last step's buckets, one a call (:meth:`on_disk`
        advancing): each bucket's states, then an empty list."""
        self.kept: tuple[Any, Any, Any] | None = None
        """The states after the steps :meth:`advance` was asked to keep."""

    def start(self) -> tuple[Any, Any, Any]:
        """The one state before any cell: no slots, the weight as its count."""
        cnt = np.array([[self.weight % q for q in self.moduli]], dtype=np.uint64)
        return np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.uint64), cnt

    def finish(self, i: int, chunks: Sequence[tuple[Any, Any, Any]]) -> list[int]:
        """The tours finished at step ``i`` (every frontier cell leaving)."""
        step = self.plan.steps[i]
        prm = _params(step, finish=True)
        total = np.zeros(len(self.p), dtype=np.uint64)
        for lo, hi, cnt in chunks:
            for a in range(0, len(lo), CHUNK):
                b = a + CHUNK
                tried = self.jit.finish(
                    lo[a:b], hi[a:b], cnt[a:b], prm.width, prm.choices,
                    prm.end_slots, prm.leave_slots, self.plan.closed,
                    self.plan.free_ends, self.p, total,
                )  # fmt: skip
                self.tried += tried
                self.tick(f"cell {i + 1} of {len(self.plan.steps)}, finishing")
        return [int(x) for x in total]

    def step(
        self, i: int, chunks: Sequence[tuple[Any, Any, Any]], hint: int
    ) -> tuple[Any, int]:
        """Step ``i`` over the states in ``chunks``: the table and its size."""
        jit = self.jit
        prm = _params(self.plan.steps[i])
        nc = max(1, len(prm.choices))
        table, sizes, pbits = _regions(hint, len(self.p))
        where = f"cell {i + 1} of {len(self.plan.steps)}"
        blocks = 4 * _threads()
        for lo, hi, cnt in chunks:
            a = 0
            while a < len(lo):
                per = max(256, self.pace.size // nc)
                b = a + per
                began = time.perf_counter()
                made_lo, made_hi, src, stops, stride, tried = jit.emit(
                    lo[a:b], hi[a:b], prm.width, prm.choices, prm.end_slots,
                    prm.leave_slots, prm.keep_slots, prm.lut, prm.short,
                    self.plan.closed, self.plan.free_ends, blocks,
                )  # fmt: skip
                self.tried += int(tried)
                g_lo, g_hi, g_src, starts = jit.group(
                    pbits, made_lo, made_hi, src, stops, stride
                )
                del made_lo, made_hi, src
                grouped = (g_lo, g_hi, g_src, starts)
                table = _absorb(jit, table, sizes, pbits, grouped, cnt[a:b], self.p)
                self.pace.took(time.perf_counter() - began)
                a = b
                self.tick(where)
        return table, int(sizes.sum())

    def result(self, buckets: int = 1, disk: int = 0, resumed: int = -1) -> DenseResult:
        """The counts found, with the run's figures."""
        last = len(self.plan.steps) - 1
        counts = {i: crt(r, self.moduli) for i, r in self.found.items()}
        total = counts.pop(last, 0)
        return DenseResult(
            total=total,
            live=self.live,
            tried=self.tried,
            found=counts,
            primes=self.moduli,
            buckets=buckets,
            disk=disk,
            resumed=resumed,
        )

    def in_memory(self, finishing: set[int]) -> DenseResult:
        """Every step's states in one table in memory."""
        box = [self.start()]
        last = len(self.plan.steps) - 1
        grow = 2.0
        for i in range(len(self.plan.steps)):
            if i == last or i in finishing:
                self.found[i] = self.finish(i, box)
                if i == last:
                    self.live.append(0)
                    self._checked(i, 0)
                    break
            grow = self._stepped(i, box, grow)
            self._checked(i, self.live[-1])
            if not self.live[-1]:
                break
        return self.result()

    def _stepped(self, i: int, box: list[tuple[Any, Any, Any]], grow: float) -> float:
        """Step ``i`` in memory on the states in ``box`` (replaced): their growth.

        ``box`` holds the only reference, so that a step's states are freed
        before the next are compacted (open 7x7: 1.4 GB at the peak).
        """
        before = len(box[0][0])
        table, size = self.step(i, box, int(before * grow))
        box.clear()
        made = self.jit.compact(table, size)
        del table
        box.append(made)
        self.live.append(size)
        return max(1.0, size / max(before, 1))

    def advance(self, seed: Seed | None = None, keep: int = 0) -> tuple[Any, Any, Any]:
        """Every step of the plan in memory, none finishing: the last states.

        ``seed``: start after its steps, from its states. ``keep``: the
        states after that many steps are kept in :attr:`kept` too.
        """
        box = [self.start()]
        first = 0
        if seed is not None:
            box, self.live = [seed.states], list(seed.live)
            first = len(seed.live)
        grow = 2.0
        for i in range(first, len(self.plan.steps)):
            grow = self._stepped(i, box, grow)
            if i + 1 == keep:
                self.kept = box[0]
            self._checked(i, self.live[-1])
            if not self.live[-1]:
                break
        return box[0]

    def _checked(self, i: int, size: int) -> None:
        """Report step ``i`` (its live states, the pairs it tried)."""
        tried, self.reported = self.tried - self.reported, self.tried
        if self.check is not None:
            self.check(i, size, tried)

    def _each(
        self, task: Callable[..., dict[str, int]], tasks: list[BucketTask],
        spread: Mapper | None,
    ) -> list[dict[str, Any]]:  # fmt: skip
        """Run ``task`` over ``tasks``: here (the clock between slices) or spread."""
        if spread is None:
            return [task(t, self) for t in tasks]
        rows = spread(task, tasks)
        self.tried += sum(int(row.get("tried", 0)) for row in rows)
        return rows

    def on_disk(
        self,
        finishing: set[int],
        spill: Spill,
        on_resume: Callable[[list[int]], None] | None,
        *,
        advance: bool = False,
        seed: Seed | None = None,
    ) -> DenseResult:
        """Every step's states in buckets on disk, a checkpoint after each step.

        ``advance``: no step finishes; the last step's states stay in their
        buckets, read back by :meth:`last_states`.
        """
        store = _Store(spill.path, fingerprint(self.plan, self.moduli, self.weight))
        share = getattr(spill.map, "workers", 1)  # 0: on other machines
        workers, threads = max(1, share), 0
        if spill.map is not None:  # tasks at once share the budget and the cores
            spill = replace(spill, budget_bytes=spill.budget_bytes / workers)
            threads = max(1, _threads() // workers) if share else 0
        resumed = store.load(self)
        if resumed >= 0 and on_resume is not None:
            on_resume(list(self.live))
        self.reported = self.tried
        if resumed < 0 and seed is not None:  # a checkpoint after its steps
            store.save_bucket(len(seed.live), 0, seed.states)
            self.live = list(seed.live)
            store.commit(len(seed.live), 1, self)
            resumed = len(seed.live) - 1
        elif resumed < 0:
            store.save_bucket(0, 0, self.start())
            store.commit(0, 1, self)
        at, buckets = store.step, store.buckets
        last = -1 if advance else len(self.plan.steps) - 1
        most, disk = buckets, store.bytes(at)
        for i in range(resumed + 1, len(self.plan.steps)):
            if i == last or i in finishing:
                self.found[i] = self.finish(i, store.chunks(at, buckets))
                if i == last:
                    self.live.append(0)
                    store.commit(at, buckets, self, done=True)
                    self._checked(i, 0)
                    break
            live = self.live[-1] if self.live else 1
            out = _buckets_for(live, spill)
            # A slice of a bucket's states makes states of every bucket: the
            # slice is what bounds the table, so it is cut to the budget.
            grow = live / self.live[-2] if len(self.live) > 1 and self.live[-2] else 2
            per = _slice_states(spill.budget_bytes, grow)
            # the parts numbered as one process would: bucket after bucket,
            # slice after slice (the tasks never write the same file)
            task = BucketTask(str(spill.path), self.plan, self.moduli, i, at,
                              0, out, 0, per, grow, threads)  # fmt: skip
            tasks, parts = [], 0
            for b in range(buckets):
                tasks.append(replace(task, bucket=b, first=parts))
                parts += max(1, math.ceil(store.size(at, b) / per))
            self._each(step_bucket, tasks, spill.map)
            sums = [replace(task, bucket=o, parts=parts) for o in range(out)]
            size = sum(r["live"] for r in self._each(sum_bucket, sums, spill.map))
            disk = max(disk, store.bytes(at + 1) + store.bytes(at))
            store.drop_parts(at + 1, parts)
            self.live.append(size)
            store.commit(at + 1, out, self)
            at, buckets = at + 1, out
            most = max(most, out)
            self._checked(i, size)
            if size == 0:
                break
        if advance:
            if not store.done:
                store.commit(at, buckets, self, done=True)
            self.final = _reader(store, at, buckets)
        return self.result(buckets=most, disk=disk, resumed=resumed)


@dataclass(frozen=True)
class BucketTask:
    """One bucket of one step on disk: a task any process seeing ``path`` runs.

    Attributes:
        path: the checkpoint's directory.
        plan: the plan run.
        moduli: the primes the counts are kept modulo.
        step: the plan's step.
        at: the checkpoint step whose buckets are read (the parts and sums
            go to ``at + 1``).
        bucket: the input bucket stepped, or the output bucket summed.
        buckets: the output buckets (stepping).
        first: the number of the bucket's first part (stepping).
        per: the states of one slice (stepping).
        grow: the live states' growth over the last cell (stepping).
        threads: the compiled loops' threads (0: as they are).
        parts: the parts to sum (summing).
    """

    path: str
    plan: FrontierPlan
    moduli: tuple[int, ...]
    step: int
    at: int
    bucket: int
    buckets: int
    first: int
    per: int
    grow: float
    threads: int = 0
    parts: int = 0


def step_bucket(task: BucketTask, run: DenseRun | None = None) -> dict[str, int]:
    """Step one input bucket, slice by slice, into its parts: the pairs tried.

    Each slice's states are grouped by the output bucket they go to and
    written as part ``task.first + k`` (:meth:`_Store.save_part`).
    """
    with _worker(task, run) as here:
        store, per, i = _Store(Path(task.path), ""), task.per, task.step
        tried = here.tried
        lo, hi, cnt = store.chunks(task.at, 0, task.bucket)[0]
        for k, a in enumerate(range(0, max(len(lo), 1), per)):
            z = a + per
            chunk = (lo[a:z], hi[a:z], cnt[a:z])
            table, size = here.step(i, [chunk], int(len(chunk[0]) * task.grow))
            made = here.jit.compact(table, size)
            del table
            parts = _grouped(here.jit, made, task.buckets)
            store.save_part(task.at + 1, task.first + k, *parts)
            del made, parts
        return {"tried": here.tried - tried}


def sum_bucket(task: BucketTask, run: DenseRun | None = None) -> dict[str, int]:
    """Sum output bucket ``task.bucket``'s slices of every part: its live states."""
    with _worker(task, run) as here:
        store = _Store(Path(task.path), "")
        return {"live": store.merge(task.at + 1, task.bucket, task.parts, here)}


@contextlib.contextmanager
def _worker(task: BucketTask, run: DenseRun | None) -> Iterator[DenseRun]:
    """The run a task steps in: the coordinator's, or one made in a worker."""
    if run is not None:
        yield run
        return
    jit = _jit()
    p = np.array(task.moduli, dtype=np.uint64)
    with numba_threads(task.threads):  # the tasks at once share the cores
        yield DenseRun(task.plan, jit, p, 1, None, lambda _where: None)


def _reader(
    store: _Store, at: int, buckets: int
) -> Callable[[], list[tuple[Any, Any, Any]]]:
    """A call that reads step ``at``'s next bucket (an empty list when done)."""
    left = list(range(buckets))

    def read() -> list[tuple[Any, Any, Any]]:  # mapped: read as it is used
        return store.chunks(at, buckets, left.pop(0), "r") if left else []

    return read


def _regions(hint: int, k: int) -> tuple[Any, Any, int]:
    """An empty partitioned table for about ``hint`` states of ``k`` residues.

    Returns the table, the states per region (zeros) and the region bits.
    """
    pbits = 0
    while (1 << pbits) * REGION < hint and pbits < MAX_REGION_BITS:
        pbits += 1
    # rows for the hint at LOAD full, in steps of 1024 (not a power of two:
    # the table is the step's largest array)
    rows = 1024 * max(1, math.ceil(hint / LOAD / (1 << pbits) / 1024))
    table = np.zeros((rows << pbits, 2 + k), dtype=np.uint64)
    return table, np.zeros(1 << pbits, dtype=np.int64), pbits


def _absorb(
    jit: Any, table: Any, sizes: Any, pbits: int, grouped: Any, cnt: Any, p: Any
) -> Any:
    """Insert grouped states (``jit.group``) into a partitioned table: the table.

    A region that fills stops taking; the table is grown and the rest goes in.
    """
    done = np.zeros(1 << pbits, dtype=np.int64)
    while not jit.insert_regions(table, sizes, pbits, *grouped, done, cnt, p):
        table = jit.grow_regions(table, pbits)
    return table


def _threads() -> int:
    """The threads the compiled loops run on (numba's count)."""
    import numba

    return int(numba.get_num_threads())


def _slice_states(budget_bytes: float, grow: float) -> int:
    """How many states of a bucket one table takes in (the rest in more slices).

    The states a slice makes go into one table before they are split, and
    they are of every bucket: about ``2 x grow`` rows a state (the live
    states' growth over the last cell), each row of the table and of the
    compacted copy :data:`BYTES_PER_STATE` together.
    """
    rows = max(2.0, 2.0 * grow)
    return max(1024, int(budget_bytes / (BYTES_PER_STATE * rows)))


def _grouped(jit: Any, made: tuple[Any, Any, Any], out: int) -> tuple[Any, Any]:
    """The states made, grouped by the bucket they go to, and the groups' ends."""
    lo, hi, cnt = made
    which = jit.buckets_of(lo, hi, out.bit_length() - 1)
    order = np.argsort(which.astype(np.uint16), kind="stable")
    ends = np.zeros(out + 1, dtype=np.int64)
    np.cumsum(np.bincount(which, minlength=out), out=ends[1:])
    return (lo[order], hi[order], cnt[order]), ends


def _buckets_for(live: int, spill: Spill) -> int:
    """How many buckets the next step's states are split into (a power of two)."""
    if spill.buckets:
        return spill.buckets
    need = 3 * live * BYTES_PER_STATE  # the next step grows the states, about
    out = 1
    while out * spill.budget_bytes < need and out < MAX_BUCKETS:
        out *= 2
    return out


MAX_BUCKETS = 1024
"""The most buckets a step is split into (a bucket's parts are read in
slices, so files grow as ``4 x`` buckets, not their square)."""


class _Store:
    """The files of an on-disk run: ``step-N/bucket-B.*.npy``, parts, a manifest."""

    def __init__(self, path: Path, digest: str) -> None:
        self.path = Path(path)
        self.digest = digest
        self.step = 0
        self.buckets = 1
        self.done = False
        self.manifest = self.path / "manifest.json"

    def load(self, run: DenseRun) -> int:
        """Resume from the manifest if there is one: the last step done (or -1)."""
        path = self.path
        if path.exists() and not path.is_dir():
            raise InvalidInputError(f"not a directory: {path}")
        if not self.manifest.exists():
            if path.exists() and any(path.iterdir()):
                raise InvalidInputError(
                    f"{path} is not empty and holds no checkpoint: give an empty "
                    "or new directory"
                )
            path.mkdir(parents=True, exist_ok=True)
            return -1
        try:
            data = json.loads(self.manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InvalidInputError(
                f"cannot read the checkpoint {self.manifest}: {exc}"
            ) from None
        if data.get("fingerprint") != self.digest:
            raise InvalidInputError(
                f"{path} holds the checkpoint of another count (another board, "
                "ends, piece or kernel): give a new directory"
            )
        self.step, self.buckets = int(data["step"]), int(data["buckets"])
        self.done = bool(data.get("done", False))
        run.live = [int(x) for x in data["live"]]
        run.tried = int(data["tried"])
        run.found = {int(k): [int(x) for x in v] for k, v in data["found"].items()}
        run.total[:] = 0
        return self.step - 1

    def commit(
        self, step: int, buckets: int, run: DenseRun, *, done: bool = False
    ) -> None:
        """Write the manifest for ``step`` (atomically), then drop older steps."""
        data = {
            "version": _VERSION,
            "fingerprint": self.digest,
            "step": step,
            "buckets": buckets,
            "live": run.live[:step],
            "tried": run.tried,
            "found": {str(k): [str(x) for x in v] for k, v in run.found.items()},
            "moduli": [str(q) for q in run.moduli],
            "done": done,
        }
        tmp = self.manifest.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, self.manifest)
        self.step, self.buckets, self.done = step, buckets, done
        for old in self.path.glob("step-*"):
            if old.name != f"step-{step}":
                shutil.rmtree(old, ignore_errors=True)

    def _dir(self, step: int) -> Path:
        d = self.path / f"step-{step}"
        d.mkdir(exist_ok=True)
        return d

    def save_bucket(self, step: int, b: int, states: tuple[Any, Any, Any]) -> None:
        _save(self._dir(step) / f"bucket-{b}", states)

    def save_part(
        self, step: int, b: int, states: tuple[Any, Any, Any], ends: Any
    ) -> None:
        """Input bucket ``b``'s states made, grouped by the bucket they go to.

        Four ``.npy`` files (words, counts, and where each bucket's group
        ends), read back in slices by :meth:`merge` without loading the rest.
        """
        d = self._dir(step)
        for name, array in zip(
            ("lo", "hi", "cnt", "ends"), (*states, ends), strict=False
        ):
            tmp = d / f"part-{b}.{name}.tmp.npy"
            np.save(tmp, array)
            os.replace(tmp, d / f"part-{b}.{name}.npy")

    def size(self, step: int, b: int) -> int:
        """The states of bucket ``b`` of a step (read from its file's header)."""
        lo = self.path / f"step-{step}" / f"bucket-{b}.lo.npy"
        return int(np.load(lo, mmap_mode="r").shape[0])

    def chunks(
        self, step: int, buckets: int, only: int | None = None, mmap: Any = None
    ) -> list[tuple[Any, Any, Any]]:
        """A step's buckets (or bucket ``only``), loaded or mapped (``mmap='r'``)."""
        which = range(buckets) if only is None else [only]
        return [_load(self.path / f"step-{step}" / f"bucket-{b}", mmap) for b in which]

    def merge(self, step: int, o: int, parts: int, run: DenseRun) -> int:
        """Sum bucket ``o``'s parts into its bucket file: its live states.

        The slices are summed as a step's states are (:meth:`DenseRun.step`):
        grouped by region, then each region's in parallel, in cache.
        """
        jit = run.jit
        d = self._dir(step)
        slices = []
        for b in range(parts):
            ends = np.load(d / f"part-{b}.ends.npy", mmap_mode="r")
            slices.append((b, int(ends[o]), int(ends[o + 1])))
        hint = sum(z - a for _, a, z in slices) // 2
        table, sizes, pbits = _regions(hint, len(run.p))
        for b, a, z in slices:
            lo, hi, cnt = (
                np.ascontiguousarray(
                    np.load(d / f"part-{b}.{name}.npy", mmap_mode="r")[a:z]
                )
                for name in ("lo", "hi", "cnt")
            )
            n = z - a
            grouped = jit.group(
                pbits, lo, hi, np.arange(n, dtype=np.int64),
                np.array([n], dtype=np.int64), 0,
            )  # fmt: skip
            table = _absorb(jit, table, sizes, pbits, grouped, cnt, run.p)
            run.tick(f"summing bucket {o + 1}")
        size = int(sizes.sum())
        states = jit.compact(table, size)
        _save(d / f"bucket-{o}", states)
        return size

    def drop_parts(self, step: int, parts: int) -> None:
        """Remove the parts of a step once every bucket is summed."""
        d = self._dir(step)
        for b in range(parts):
            for name in ("lo", "hi", "cnt", "ends"):
                (d / f"part-{b}.{name}.npy").unlink(missing_ok=True)

    def bytes(self, step: int) -> int:
        d = self.path / f"step-{step}"
        return sum(f.stat().st_size for f in d.glob("*")) if d.exists() else 0


def _save(path: Path, states: tuple[Any, Any, Any]) -> None:
    """Write states as three ``.npy`` files named after ``path``.

    Each is renamed into place once whole; the manifest, written after a
    step's buckets, says which step's files are complete. Plain ``.npy``:
    ``np.savez`` would checksum every byte.
    """
    for name, array in zip(("lo", "hi", "cnt"), states, strict=True):
        tmp = path.with_name(f"{path.name}.{name}.tmp.npy")
        np.save(tmp, array)
        os.replace(tmp, path.with_name(f"{path.name}.{name}.npy"))


def _load(path: Path, mmap: Any = None) -> tuple[Any, Any, Any]:
    """The states :func:`_save` wrote (``mmap``: :func:`numpy.load`'s mmap_mode)."""
    lo, hi, cnt = (
        np.load(path.with_name(f"{path.name}.{name}.npy"), mmap_mode=mmap)
        for name in ("lo", "hi", "cnt")
    )
    return lo, hi, cnt
