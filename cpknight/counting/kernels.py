"""The counting frontier program's kernels: one registry, and ``auto``'s rule.

The frontier program (:mod:`cpknight.counting.frontier`) runs in one of four
kernels; each is a :class:`CountKernel` record in :data:`KERNELS`, which says
what it takes (prefix counts, states on disk, a count spread on processes,
fixed tour ends), whether it needs numba (and which modules of compiled
loops: :class:`~cpknight.runtime.compiled.CompiledLoops`), and what a live
state costs. Every check of a kernel name (the front doors, the command line,
the driver) and every help text reads this registry, and
:func:`choose_count_kernel` is ``auto``'s rule. A compiled kernel not built
yet (a new install) waits for numba's compiler first: ``auto`` then counts a
small count with the plain kernel (:func:`kernel_note` says so), and
``cpknight warm`` compiles them ahead.

Examples:
    >>> list(KERNELS)
    ['dict', 'numpy', 'dense', 'meet']
    >>> [k.name for k in KERNELS.values() if k.spread]
    ['dense', 'meet']
    >>> check_kernel("gpu")
    Traceback (most recent call last):
    ...
    cpknight.errors.InvalidInputError: expected a kernel in auto, dict, ...: 'gpu'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cpknight.errors import InvalidInputError
from cpknight.frontier.slots import PER_WORD
from cpknight.runtime.compiled import CompiledLoops, waiting_seconds
from cpknight.runtime.memory import budget_mb
from cpknight.runtime.optional import installed

if TYPE_CHECKING:
    from cpknight.frontier.plan import FrontierPlan

__all__ = [
    "AUTO",
    "BYTES_PER_STATE",
    "DENSE",
    "DENSE_FROM",
    "DENSE_WIDTH",
    "DENSE_WORK",
    "DICT",
    "DICT_WIDTH",
    "DISK_SLOWDOWN",
    "KERNELS",
    "MEET",
    "NUMPY",
    "CountKernel",
    "alternatives",
    "check_kernel",
    "check_spread_kernel",
    "choose_count_kernel",
    "compile_seconds",
    "compiled_kernels",
    "estimated_seconds",
    "kernel_choices",
    "kernel_help",
    "kernel_note",
    "spread_names",
]

AUTO = "auto"
"""The name that asks :func:`choose_count_kernel` to pick a kernel."""

DENSE_WIDTH = 2 * PER_WORD
"""The widest frontier the dense kernel packs (5 bits a slot, 12 a word, two
words a state)."""


@dataclass(frozen=True)
class CountKernel:
    """One kernel of the counting frontier program: what it takes and costs.

    Attributes:
        name: what ``kernel=`` and ``--kernel`` call it.
        summary: a few words for the help texts.
        bytes_per_state: what one live state costs, about, with the working
            arrays of the next step (a few choices per state, each a row of
            codes, keys, sort order, source index and count limbs): the
            memory budget divided by it is the most live states allowed.
        rate: the estimated peak live states times the cells that it steps
            in a second, measured on 2 cores (``benchmarks/count.py``; met in
            the middle, the halves' share of the peak): what
            :func:`estimated_seconds` divides by.
        prefixes: it counts every prefix of the board in the same run.
        disk: its states can go to disk (a checkpoint directory).
        spread: a count on disk can share its buckets among processes.
        fixed_ends: it takes a fixed start or end.
        numba: it needs numba (``cpknight[fast]``).
        max_width: the widest frontier it packs (None: the program's own
            :data:`~cpknight.frontier.plan.MAX_WIDTH`).
        halves: it counts from both ends and joins the halves in the middle
            (a plan it takes passes :func:`~cpknight.frontier.plan.meet_fits`).
        stand_in: the kernel that runs a count asking for what this one
            cannot give (prefixes), or None: such a count is refused.
        loops: the modules of compiled loops it runs (numba's cache of each
            is checked before ``auto`` counts with it: :func:`compile_seconds`).
        share: the share of the estimated peak live states it holds at once
            (met in the middle: the halves', about a fifth), which ``rate``
            is measured against.
    """

    name: str
    summary: str
    bytes_per_state: int
    rate: float
    prefixes: bool
    disk: bool
    spread: bool
    fixed_ends: bool
    numba: bool
    max_width: int | None = None
    halves: bool = False
    stand_in: str | None = None
    loops: tuple[CompiledLoops, ...] = ()
    share: float = 1.0


NUMPY = CountKernel(
    "numpy",
    "every state of a step at once, with numpy",
    256,
    6e6,  # open 6x6 (2e8): 37 s
    prefixes=True,
    disk=False,
    spread=False,
    fixed_ends=True,
    numba=False,
)
DICT = CountKernel(
    "dict",
    "plain Python over a dict of states (narrow plans, the reference)",
    240,
    3e6,  # open 6x6 (2e8): 72 s
    prefixes=False,
    disk=False,
    spread=False,
    fixed_ends=True,
    numba=False,
    stand_in=NUMPY.name,
)
DENSE_LOOPS = CompiledLoops("cpknight.counting.dense_jit", 30.0)
"""The dense kernel's compiled loops (the halves of a count met in the middle
run them too): 27-33 s to compile on 2 busy cores with the read-only arrays
of a count on disk, 20 s for a count in memory (``benchmarks/warm.py``)."""

MEET_LOOPS = CompiledLoops("cpknight.counting.meet_jit", 20.0)
"""The join of a count met in the middle: 15-27 s to compile (the same)."""

DENSE = CountKernel(
    "dense",
    "16-byte states and residue counts, compiled with numba",
    120,
    8e6,  # open 6x6 (2e8): 25 s, a second of it loading the compiled loops
    prefixes=True,
    disk=True,
    spread=True,
    fixed_ends=True,
    numba=True,
    max_width=DENSE_WIDTH,
    loops=(DENSE_LOOPS,),
)
MEET = CountKernel(
    "meet",
    "the dense kernel from both ends, joined in the middle",
    120,
    2.6e7,  # open 7x7 (2.6e9 in the halves): 100 s in memory
    prefixes=False,
    disk=True,
    spread=True,
    fixed_ends=False,
    numba=True,
    max_width=DENSE_WIDTH,
    halves=True,
    loops=(DENSE_LOOPS, MEET_LOOPS),
    share=0.2,  # as MEET_SHARE in cpknight.counting.frontier (the tests hold it)
)

KERNELS: Mapping[str, CountKernel] = {k.name: k for k in (DICT, NUMPY, DENSE, MEET)}
"""The counting frontier program's kernels, by name (``auto`` picks one)."""

BYTES_PER_STATE: Mapping[str, int] = {
    name: k.bytes_per_state for name, k in KERNELS.items()
}
"""What one live state costs, about, in each kernel (bytes)."""

DICT_WIDTH = 6
"""``auto`` runs the dict kernel on frontiers up to this wide (no prefixes):
numpy's overhead per step would dominate."""

DENSE_FROM = 14
"""The narrowest frontier ``auto`` gives the dense kernel (6 x n for the
knight): narrower, the numpy kernel counts in well under the second the dense
one takes to load its compiled loops."""

DENSE_WORK = 1e8
"""The least estimated work (peak states times cells) for which ``auto``
gives the dense kernel: measured in one run (benchmarks/count.py), the dense
kernel counted open 6x6 (2e8) and the 6 x 20 strips (1.7e8) 1.5 times faster
than numpy, and closed 6x6 (5e7) slower, its compiled loops' loading
included."""

DISK_SLOWDOWN = 2.5
"""How much longer a count takes with its states on disk than in memory
(open 7x7 met in the middle: 224 s with its halves on disk, 100 s in memory)."""


def kernel_choices() -> list[str]:
    """What ``--kernel`` accepts: ``auto`` and every kernel's name.

    Examples:
        >>> kernel_choices()
        ['auto', 'dict', 'numpy', 'dense', 'meet']
    """
    return [AUTO, *KERNELS]


def alternatives(names: Iterable[str]) -> str:
    """Names joined for a sentence: ``a``, ``a or b``, ``a, b or c``.

    Examples:
        >>> alternatives(k.name for k in KERNELS.values() if k.disk)
        'dense or meet'
    """
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def spread_names() -> list[str]:
    """The kernels a count shared among processes can run.

    Examples:
        >>> spread_names()
        ['dense', 'meet']
    """
    return [name for name, k in KERNELS.items() if k.spread]


def kernel_help() -> str:
    """The help of ``--kernel``: every kernel in a few words, and ``auto``'s rule.

    Examples:
        >>> kernel_help().startswith("the frontier program's kernel: dict, ")
        True
    """
    parts = [
        f"{k.name}, {k.summary}"
        + (" (pip install 'cpknight[fast]')" if k.numba else "")
        for k in KERNELS.values()
    ]
    fast = alternatives(k.name for k in KERNELS.values() if k.numba)
    return (
        f"the frontier program's kernel: {'; '.join(parts)}; {AUTO}: "
        f"{fast} where installed and worth it (once compiled: 'cpknight warm'; "
        f"before, where compiling costs less than it saves), else {NUMPY.name}, "
        f"or {DICT.name} on narrow boards"
    )


def check_kernel(kernel: str) -> str:
    """A kernel name, checked: ``auto`` or a name of :data:`KERNELS`.

    Raises:
        InvalidInputError: any other name (the message lists them).

    Examples:
        >>> check_kernel("auto"), check_kernel("numpy")
        ('auto', 'numpy')
    """
    if kernel != AUTO and kernel not in KERNELS:
        raise InvalidInputError(
            f"expected a kernel in {', '.join(kernel_choices())}: {kernel!r}"
        )
    return kernel


def check_spread_kernel(kernel: str) -> str:
    """The kernel of a count shared among processes: ``auto`` or one that spreads.

    Raises:
        InvalidInputError: a kernel that keeps its states in memory.

    Examples:
        >>> check_spread_kernel("meet")
        'meet'
        >>> check_spread_kernel("numpy")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: a count shared ... not 'numpy'
    """
    if kernel == AUTO or (kernel in KERNELS and KERNELS[kernel].spread):
        return kernel
    raise InvalidInputError(
        "a count shared by several processes runs the "
        f"{alternatives(spread_names())} kernel, not {kernel!r}"
    )


def choose_count_kernel(
    plan: FrontierPlan,
    kernel: str = AUTO,
    *,
    prefixes: bool,
    spill: bool = False,
    budget: float | None = None,
) -> str:
    """The kernel that runs the plan (checked), ``auto``'s pick if asked.

    ``auto``: the dict kernel up to :data:`DICT_WIDTH` slots (numpy's
    overhead per step would dominate); from :data:`DENSE_FROM` slots, the
    dense kernel (met in the middle where the plan allows it and no prefixes
    are asked) where numba is installed, the frontier is at most
    :data:`DENSE_WIDTH` wide and the estimated work at least
    :data:`DENSE_WORK`, else numpy (prefixes in either); while the compiled
    kernel is not built yet, numpy where it finishes sooner than compiling
    and the compiled count together (:func:`kernel_note` says so). The time limit
    plays no part: a count the limit cannot wait for is refused up front,
    saying so (:func:`estimated_seconds`).
    States on disk (``spill``) take a kernel that keeps them there. ``budget``:
    the count's memory budget in MB (default: the current one), which the
    plain kernel must fit to stand in for one not built. A kernel
    asked for what it cannot give hands the count to its ``stand_in``.

    Raises:
        InvalidInputError: an unknown kernel, or one that cannot run the plan
            as asked (the message says why).

    Examples:
        >>> from cpknight.frontier.plan import plan_frontier
        >>> from cpknight.pieces import move_graph
        >>> plan = plan_frontier(move_graph("6x6"), closed=True)
        >>> choose_count_kernel(plan, prefixes=False) in KERNELS
        True
        >>> choose_count_kernel(plan, DICT.name, prefixes=True)
        'numpy'
    """
    from cpknight.frontier.plan import meet_fits

    chosen = KERNELS.get(check_kernel(kernel))
    if spill:
        disk = [name for name, k in KERNELS.items() if k.disk]
        if chosen is not None and not chosen.disk:
            raise InvalidInputError(
                f"states on disk take the {alternatives(disk)} kernel, not {kernel!r}"
            )
        if chosen is None:
            chosen = MEET if meet_fits(plan) and not prefixes else DENSE
    if chosen is None:
        return _auto_pick(plan, prefixes=prefixes, budget=budget)[0]
    if prefixes and not chosen.prefixes:
        if chosen.stand_in is not None:
            return chosen.stand_in
        raise InvalidInputError(
            f"the {chosen.name} kernel ({chosen.summary}) counts no prefixes"
        )
    if (plan.ends and not chosen.fixed_ends) or (chosen.halves and not meet_fits(plan)):
        raise InvalidInputError(
            f"the {chosen.name} kernel ({chosen.summary}) takes no fixed ends, "
            "and a board of at least four rows across the long side"
        )
    if chosen.max_width is not None and plan.width > chosen.max_width:
        raise InvalidInputError(
            f"the {chosen.name} kernel takes frontiers up to {chosen.max_width} "
            f"cells wide, this one is {plan.width}"
        )
    if chosen.numba and not installed("numba"):
        raise InvalidInputError(
            f"the {chosen.name} kernel needs numba: pip install 'cpknight[fast]'"
        )
    return chosen.name


def _auto_pick(
    plan: FrontierPlan, *, prefixes: bool, budget: float | None = None
) -> tuple[str, CountKernel | None]:
    """``auto``'s pick, and the compiled kernel it passed over as not built yet.

    The compiled kernel not built yet costs its compiling first
    (:func:`compile_seconds`): a count the plain kernel finishes sooner than
    that and the compiled kernel's own time (and within the memory budget)
    takes the plain kernel.
    """
    from cpknight.frontier.plan import meet_fits, plan_states

    if plan.width <= DICT_WIDTH and not prefixes:
        return DICT.name, None
    states = plan_states(plan)
    work = states * len(plan.steps)
    wide = plan.width >= DENSE_FROM and work >= DENSE_WORK
    fits = plan.width <= DENSE_WIDTH
    if not (fits and wide and installed("numba")):
        return NUMPY.name, None
    fast = MEET if meet_fits(plan) and not prefixes else DENSE
    waiting = compile_seconds(fast.name)
    if not waiting:
        return fast.name, None
    steps = len(plan.steps)
    plain = estimated_seconds(states, steps, NUMPY.name, disk=False)
    compiled = estimated_seconds(states * fast.share, steps, fast.name, disk=False)
    mb = budget_mb() if budget is None else budget
    held = states * NUMPY.bytes_per_state <= mb * 2**20
    if held and plain < waiting + compiled:
        return NUMPY.name, fast
    return fast.name, None


def compile_seconds(kernel: str) -> float:
    """How long a kernel waits for numba's compiler first, about (0: built).

    The measured compiling time of its modules of loops, the share of the
    functions numba has no current cache of
    (:meth:`~cpknight.runtime.compiled.CompiledLoops.waiting`, told without
    importing numba); 0 under :data:`COMPILE_FLOOR`, for a plain kernel, or
    for a compiled one without numba installed (it cannot run).

    Examples:
        >>> compile_seconds("numpy")
        0.0
    """
    loops = KERNELS[kernel].loops
    if not loops or not installed("numba"):
        return 0.0
    return waiting_seconds(loops)


def compiled_kernels() -> list[CountKernel]:
    """The kernels that run compiled loops (what ``cpknight warm`` compiles).

    Examples:
        >>> [k.name for k in compiled_kernels()]
        ['dense', 'meet']
    """
    return [k for k in KERNELS.values() if k.loops]


def kernel_note(
    plan: FrontierPlan,
    kernel: str = AUTO,
    *,
    prefixes: bool,
    spill: bool = False,
    budget: float | None = None,
) -> str | None:
    """What to tell the user before a count about the compiled kernels, if anything.

    ``auto`` passed over a compiled kernel not built yet (the plain one is
    sooner): it says so; the kernel that runs is compiled but not built yet
    (asked for, or a count too big for the plain one): it says it compiles
    first, and for how long. None when neither.

    Examples:
        >>> from cpknight.frontier.plan import plan_frontier
        >>> from cpknight.pieces import move_graph
        >>> plan = plan_frontier(move_graph("3x4"), closed=False)
        >>> kernel_note(plan, prefixes=False) is None  # the dict kernel
        True
    """
    chosen = choose_count_kernel(
        plan, kernel, prefixes=prefixes, spill=spill, budget=budget
    )
    waiting = compile_seconds(chosen)
    if waiting:
        return (
            f"compiling the {chosen} kernel first (once per install, about "
            f"{waiting:.0f} s; 'cpknight warm' compiles every kernel ahead)"
        )
    if kernel != AUTO or spill:
        return None
    passed = _auto_pick(plan, prefixes=prefixes, budget=budget)[1]
    if passed is None:
        return None
    return (
        f"the compiled {passed.name} kernel is not built yet: counting with the "
        f"{chosen} kernel (run 'cpknight warm' once to compile it, about "
        f"{compile_seconds(passed.name):.0f} s)"
    )


def estimated_seconds(states: float, cells: int, kernel: str, *, disk: bool) -> float:
    """The time a count takes, about: its peak live states times its cells.

    Args:
        states: the estimated peak live states (met in the middle: of the
            halves).
        cells: the cells the program steps (the plan's steps).
        kernel: a name of :data:`KERNELS` (its measured ``rate``).
        disk: the states go to disk (:data:`DISK_SLOWDOWN` times longer).

    Examples:
        >>> round(estimated_seconds(5.4e7, 49, "meet", disk=False))  # open 7x7
        102
    """
    seconds = states * cells / KERNELS[kernel].rate
    return seconds * (DISK_SLOWDOWN if disk else 1.0)
