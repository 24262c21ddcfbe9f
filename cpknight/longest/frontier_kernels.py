"""The longest-path frontier program's kernels: one registry, and ``auto``'s rule.

The program (:mod:`cpknight.longest.frontier`) runs in one of two kernels,
each a :class:`LongestKernel` record in :data:`KERNELS`: what a state costs
and whether it needs numba (and its module of compiled loops). Every check of
a kernel name reads it, and :func:`choose_longest_kernel` is ``auto``'s rule:
while the compiled kernel is not built yet (a new install), a small program
runs in the dict kernel rather than wait for numba's compiler
(:func:`kernel_note` says so; ``cpknight warm`` compiles it ahead).

Examples:
    >>> list(KERNELS)
    ['dict', 'numba']
    >>> choose_longest_kernel("auto", 8)
    'dict'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cpknight.errors import InvalidInputError
from cpknight.frontier.slots import MATE, OUT_CODE
from cpknight.runtime.compiled import CompiledLoops, waiting_seconds
from cpknight.runtime.optional import installed

__all__ = [
    "AUTO",
    "BYTES_PER_STATE",
    "COLD_WIDTH",
    "DICT",
    "DICT_WIDTH",
    "KERNELS",
    "MAX_WIDTH",
    "NUMBA",
    "NUMBA_LOOPS",
    "LongestKernel",
    "check_longest_kernel",
    "choose_longest_kernel",
    "compile_seconds",
    "compiled_kernels",
    "kernel_note",
]

AUTO = "auto"
"""The name that asks :func:`choose_longest_kernel` to pick a kernel."""

MAX_WIDTH = OUT_CODE - MATE
"""The widest frontier taken (28: the compiled kernel packs a slot in 5 bits:
the partner of a path end, 3 + slot, stays below the code of a cell off the
path)."""


@dataclass(frozen=True)
class LongestKernel:
    """One kernel of the longest-path frontier program.

    Attributes:
        name: what ``kernel=`` calls it.
        summary: a few words for the help texts.
        bytes_per_state: what one state costs, about (bytes).
        numba: it needs numba (``cpknight[fast]``).
        loops: the modules of compiled loops it runs.
    """

    name: str
    summary: str
    bytes_per_state: int
    numba: bool
    loops: tuple[CompiledLoops, ...] = ()


DICT = LongestKernel(
    "dict",
    "plain Python over a dict of states (the reference)",
    400,
    numba=False,
)
NUMBA_LOOPS = CompiledLoops("cpknight.longest.frontier_numba", 10.0)
"""The compiled kernel's loops: 4-14 s to compile on 2 busy cores
(``benchmarks/warm.py``)."""

NUMBA = LongestKernel(
    "numba",
    "compiled with numba, a state packed in 64-bit words",
    72,
    numba=True,
    loops=(NUMBA_LOOPS,),
)

KERNELS: Mapping[str, LongestKernel] = {k.name: k for k in (DICT, NUMBA)}
"""The kernels, by name, slowest first."""

BYTES_PER_STATE: Mapping[str, int] = {
    name: k.bytes_per_state for name, k in KERNELS.items()
}
"""What one state costs, about (bytes). The dict kernel keeps every step's
states with their parents for the way back: the budget divided by it bounds
the states of all steps together. The compiled kernel keeps one step in memory
(the states read, :data:`~cpknight.longest.frontier.READ_BYTES` each, and the
table of the next cell's, the rest; the parents of the steps done go to disk):
the budget divided by it bounds the live states of a step."""

DICT_WIDTH = 10
"""``auto`` runs the dict kernel on frontiers up to this wide (4 x n boards):
there the compiled kernel's import (about a second) costs more than it saves."""

COLD_WIDTH = 12
"""While the compiled kernel is not built yet, ``auto`` runs the dict kernel on
frontiers up to this wide (5 x n boards), sooner than numba compiles it:
measured, the dict kernel proves the uncrossed path of 5x5 in 0.7 s, of 5x6
in 2.6 s and of 5x8 in 10 s; compiling takes about 10 s; 6x6 (14 wide) takes
it 41 s."""


def check_longest_kernel(kernel: str) -> str:
    """A kernel name, checked: ``auto`` or a name of :data:`KERNELS`.

    Raises:
        InvalidInputError: any other name (the message lists them).

    Examples:
        >>> check_longest_kernel("numba")
        'numba'
    """
    if kernel != AUTO and kernel not in KERNELS:
        raise InvalidInputError(
            f"expected a kernel in {', '.join(KERNELS)}, {AUTO}: {kernel!r}"
        )
    return kernel


def choose_longest_kernel(kernel: str = AUTO, width: int = MAX_WIDTH) -> str:
    """The kernel for a frontier ``width`` wide (a name of :data:`KERNELS`).

    ``auto``: the dict kernel up to :data:`DICT_WIDTH` slots or without numba
    installed, and up to :data:`COLD_WIDTH` while the compiled kernel is not
    built yet; else the compiled one.

    Raises:
        InvalidInputError: an unknown kernel.

    Examples:
        >>> choose_longest_kernel("auto", 8), choose_longest_kernel("dict", 20)
        ('dict', 'dict')
    """
    if check_longest_kernel(kernel) != AUTO:
        return kernel
    if width <= DICT_WIDTH:
        return DICT.name
    # found, not imported: the kernel imports it through cpknight.runtime.optional
    if not installed("numba"):
        return DICT.name
    if width <= COLD_WIDTH and compile_seconds(NUMBA.name):
        return DICT.name
    return NUMBA.name


def compile_seconds(kernel: str) -> float:
    """How long a kernel waits for numba's compiler first, about (0: built).

    The share of its measured compiling time that numba has no current cache
    of (:meth:`~cpknight.runtime.compiled.CompiledLoops.waiting`, told
    without importing numba); 0 under :data:`COMPILE_FLOOR`, for the dict
    kernel, or without numba installed.

    Examples:
        >>> compile_seconds("dict")
        0.0
    """
    loops = KERNELS[kernel].loops
    if not loops or not installed("numba"):
        return 0.0
    return waiting_seconds(loops)


def compiled_kernels() -> list[LongestKernel]:
    """The kernels that run compiled loops (what ``cpknight warm`` compiles).

    Examples:
        >>> [k.name for k in compiled_kernels()]
        ['numba']
    """
    return [k for k in KERNELS.values() if k.loops]


def kernel_note(kernel: str = AUTO, width: int = MAX_WIDTH) -> str | None:
    """What to tell the user before the program about its compiled kernel, if anything.

    ``auto`` ran the dict kernel because the compiled one is not built yet:
    it says so; the compiled kernel runs but is not built yet: it says it
    compiles first. None when neither.

    Examples:
        >>> kernel_note("auto", 8) is None
        True
    """
    chosen = choose_longest_kernel(kernel, width)
    waiting = compile_seconds(NUMBA.name)
    if not waiting:
        return None
    if chosen == NUMBA.name:
        return (
            f"compiling the {chosen} kernel first (once per install, about "
            f"{waiting:.0f} s; 'cpknight warm' compiles every kernel ahead)"
        )
    if kernel != AUTO or width <= DICT_WIDTH:
        return None
    return (
        f"the compiled {NUMBA.name} kernel is not built yet: running the "
        f"{chosen} kernel (run 'cpknight warm' once to compile it, about "
        f"{waiting:.0f} s)"
    )
