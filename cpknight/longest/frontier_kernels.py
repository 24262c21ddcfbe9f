"""The longest-path frontier program's kernels: one registry, and ``auto``'s rule.

The program (:mod:`cpknight.longest.frontier`) runs in one of two kernels,
each a :class:`LongestKernel` record in :data:`KERNELS`: what a state costs
and whether it needs numba. Every check of a kernel name reads it, and
:func:`choose_longest_kernel` is ``auto``'s rule.

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
from cpknight.runtime.optional import installed

__all__ = [
    "AUTO",
    "BYTES_PER_STATE",
    "DICT",
    "DICT_WIDTH",
    "KERNELS",
    "MAX_WIDTH",
    "NUMBA",
    "LongestKernel",
    "check_longest_kernel",
    "choose_longest_kernel",
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
    """

    name: str
    summary: str
    bytes_per_state: int
    numba: bool


DICT = LongestKernel(
    "dict",
    "plain Python over a dict of states (the reference)",
    400,
    numba=False,
)
NUMBA = LongestKernel(
    "numba",
    "compiled with numba, a state packed in 64-bit words",
    72,
    numba=True,
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
    installed, else the compiled one.

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
    return NUMBA.name if installed("numba") else DICT.name
