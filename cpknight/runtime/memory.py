"""The memory budget: one figure every big build is estimated against first.

Every command that builds something big (a move graph, a model, a frontier, a
path of millions of cells) estimates its memory from the instance's numbers
alone (cells, moves, arcs, the digits of a target) and refuses, before any
work, what would pass the budget: one line with the estimate and a hint.

The budget is :data:`DEFAULT_MEMORY_MB` (half the memory of this machine,
:func:`machine_mb`) unless told otherwise: the command line's ``--memory MB``,
or :func:`memory_budget` around a call. The estimates
are tested against measured peaks (``ru_maxrss`` of a fresh process) in
``tests/test_memory.py``: each is within a factor of :data:`ESTIMATE_FACTOR`
of the peak it predicts, above the start-up of the process.

Examples:
    >>> with memory_budget(100):
    ...     budget_mb()
    100.0
    >>> refuse_over_budget(2**30, "the frontier of 9x9", "try a smaller board")
    >>> with memory_budget(100):
    ...     refuse_over_budget(2**30, "the frontier of 9x9", "try a smaller board")
    Traceback (most recent call last):
    ...
    cpknight.errors.ModelTooBigError: the frontier of 9x9 would take about 1,024 MB, \
over the memory budget of 100 MB (try a smaller board, or raise --memory)
"""

from __future__ import annotations

import contextlib
import math
import os
import resource
from collections.abc import Iterator

from cpknight.errors import InvalidInputError, ModelTooBigError

__all__ = [
    "DEFAULT_MEMORY_MB",
    "ESTIMATE_FACTOR",
    "FALLBACK_MEMORY_MB",
    "MEMORY_SHARE",
    "PATH_CELL_BYTES",
    "budget_bytes",
    "budget_mb",
    "check_memory_mb",
    "default_memory_text",
    "machine_mb",
    "memory_budget",
    "path_bytes",
    "peak_mb",
    "refuse_over_budget",
    "rss_mb",
    "set_memory_budget",
]

MEMORY_SHARE = 0.5
"""The share of this machine's memory a command may plan to use by default."""

FALLBACK_MEMORY_MB = 4096.0
"""The default budget where the machine's memory cannot be read (MB)."""


def machine_mb() -> float | None:
    """The physical memory of this machine (MB), or None where it cannot be read.

    Examples:
        >>> size = machine_mb()
        >>> size is None or size > 0
        True
    """
    try:
        pages = os.sysconf("SC_PHYS_PAGES")
        page = os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # pragma: no cover (not POSIX)
        return None
    if pages <= 0 or page <= 0:  # pragma: no cover (unknown)
        return None
    return float(pages * page / 2**20)


def _default_mb() -> float:
    """:data:`MEMORY_SHARE` of :func:`machine_mb`, whole MB, else the fallback."""
    size = machine_mb()
    return FALLBACK_MEMORY_MB if size is None else float(round(size * MEMORY_SHARE))


DEFAULT_MEMORY_MB = _default_mb()
"""The memory budget of a command unless ``--memory`` says otherwise (MB): half
the physical memory of this machine (:data:`FALLBACK_MEMORY_MB` where that
cannot be read)."""


def default_memory_text() -> str:
    """The default budget for a help text: the figure and where it comes from.

    Examples:
        >>> "MB" in default_memory_text()
        True
    """
    if machine_mb() is None:  # pragma: no cover (not POSIX)
        return f"{DEFAULT_MEMORY_MB:,.0f} MB"
    return f"{DEFAULT_MEMORY_MB:,.0f} MB, half this machine's memory"


ESTIMATE_FACTOR = 2.0
"""Each estimate is within this factor of the measured peak (above start-up)."""

_BUDGET = [DEFAULT_MEMORY_MB]  # one for the process: threads read it too


def check_memory_mb(value: object) -> float:
    """A memory budget in MB, checked: a positive finite number.

    Raises:
        InvalidInputError: anything else, echoed.

    Examples:
        >>> check_memory_mb("512")
        512.0
    """
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        number = math.nan
    if not (math.isfinite(number) and number > 0):
        raise InvalidInputError(
            f"the memory budget must be a positive number of MB: {value!r}"
        )
    return number


def budget_mb() -> float:
    """The memory budget in force (MB)."""
    return _BUDGET[0]


def budget_bytes() -> int:
    """The memory budget in force, in bytes."""
    return int(_BUDGET[0] * 2**20)


def set_memory_budget(mb: object | None) -> None:
    """Set the budget for the rest of this process (``None``: the default).

    The command line calls it once with ``--memory``.
    """
    _BUDGET[0] = DEFAULT_MEMORY_MB if mb is None else check_memory_mb(mb)


@contextlib.contextmanager
def memory_budget(mb: object | None) -> Iterator[None]:
    """Inside, the budget is ``mb`` MB (``None``: leave it as it is)."""
    if mb is None:
        yield
        return
    previous = _BUDGET[0]
    _BUDGET[0] = check_memory_mb(mb)
    try:
        yield
    finally:
        _BUDGET[0] = previous


def refuse_over_budget(need: float, what: str, hint: str) -> None:
    """Refuse, before building, what is estimated at ``need`` bytes over the budget.

    Args:
        need: the estimate in bytes.
        what: what would be built, naming the instance ("the move graph of ...").
        hint: what the user can do instead.

    Raises:
        ModelTooBigError: ``need`` is over the budget.
    """
    if need <= budget_bytes():
        return
    raise ModelTooBigError(
        f"{what} would take about {need / 2**20:,.0f} MB, over the memory budget "
        f"of {budget_mb():g} MB ({hint}, or raise --memory)"
    )


PATH_CELL_BYTES = 320
"""What one cell of a path held as a tuple of ints costs, with the arrays it is
made from (a plane path of a million cells: about 300 MB)."""


def path_bytes(cells: int) -> int:
    """The memory a path of ``cells`` cells takes (estimated).

    Examples:
        >>> path_bytes(10**6) // 10**6
        320
    """
    return cells * PATH_CELL_BYTES


def rss_mb() -> float:
    """The resident memory of this process now (MB; the peak where unknown)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            pages = int(handle.read().split()[1])
    except (OSError, ValueError, IndexError):  # pragma: no cover (not Linux)
        return peak_mb()
    return pages * resource.getpagesize() / 2**20


def peak_mb() -> float:
    """The peak resident memory of this process so far (MB; Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
