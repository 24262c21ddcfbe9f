"""Compile the numba kernels ahead, once per install (``cpknight warm``).

The compiled kernels (``cpknight[fast]``: the dense and met-in-the-middle
counting kernels, the count over subsets, the longest-path program's and the
search's snakes, the symmetry check's orbit search) are built by numba on their
first call and cached beside their source: on a new install the first count
that runs one waits for the compiler, about half a minute, before it counts.
:func:`warm_kernels` does that ahead: it runs each compiled kernel on a tiny
board, every way it can run (open and closed, prefixes, fixed ends, states on
disk, on one thread and two), so that numba compiles and caches every loop
with the argument types a real count passes. A kernel already cached is
passed over (numba is then not even imported for it). ``auto`` meanwhile
counts a small count with the plain kernel while the compiled one is not
built (:func:`cpknight.counting.kernels.kernel_note` says so).

Examples:
    >>> dense = WarmedKernel("count", "dense", ("cpknight.counting.dense_jit",),
    ...                      cached=True, seconds=0.0, estimate=0.0)
    >>> report = WarmReport("0.68.1", (dense,), 0.01)
    >>> report.compiled, report.as_dict()["kernels"][0]["cached"]
    ((), True)
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cpknight.counting.kernels import CountKernel
from cpknight.counting.kernels import compiled_kernels as count_kernels
from cpknight.counting.subsets import LOOPS as SUBSET_LOOPS
from cpknight.counting.symmetry import LOOPS as SYMMETRY_LOOPS
from cpknight.longest.frontier_kernels import LongestKernel
from cpknight.longest.frontier_kernels import compiled_kernels as path_kernels
from cpknight.longest.search import SNAKE_LOOPS
from cpknight.runtime.compiled import CompiledLoops, cache_dir, numba_version
from cpknight.runtime.progress import Progress, ProgressLike, progress_bar

__all__ = ["WarmReport", "WarmedKernel", "warm_kernels"]

QUESTIONS = {
    "count": "counting",
    "longest": "longest-path",
    "classes": "symmetry-check",
}
"""The questions whose kernels are compiled, as the progress lines say them."""


@dataclass(frozen=True)
class OrbitSearch:
    """The symmetry check's compiled orbit search, as warm lists a kernel."""

    name: str = "orbit"
    loops: tuple[CompiledLoops, ...] = (SYMMETRY_LOOPS,)


@dataclass(frozen=True)
class SubsetLoops:
    """The count over subsets' compiled loops, as warm lists a kernel."""

    name: str = "subsets"
    loops: tuple[CompiledLoops, ...] = (SUBSET_LOOPS,)


@dataclass(frozen=True)
class SnakeSearch:
    """The longest-path search's compiled snakes, as warm lists a kernel."""

    name: str = "snakes"
    loops: tuple[CompiledLoops, ...] = (SNAKE_LOOPS,)


Warmable = CountKernel | LongestKernel | OrbitSearch | SubsetLoops | SnakeSearch

WARM_BOARD = "4x5"
"""The board every compiled kernel runs on to be compiled: a few
milliseconds of counting, wide enough to meet in the middle."""


@dataclass(frozen=True)
class WarmedKernel:
    """One compiled kernel, compiled ahead or found cached.

    Attributes:
        question: ``'count'`` or ``'longest'``: whose kernel it is.
        kernel: its name in its question's kernel registry.
        modules: its modules of compiled loops.
        cached: numba had every loop cached already (nothing compiled).
        seconds: the time spent compiling it (0 when cached).
        estimate: what compiling it was expected to take (s).
    """

    question: str
    kernel: str
    modules: tuple[str, ...]
    cached: bool
    seconds: float
    estimate: float

    def as_dict(self) -> dict[str, Any]:
        """The JSON keys: question, kernel, modules, cached, seconds."""
        return {
            "question": self.question,
            "kernel": self.kernel,
            "modules": list(self.modules),
            "cached": self.cached,
            "seconds": round(float(self.seconds), 3),
        }


@dataclass(frozen=True)
class WarmReport:
    """What :func:`warm_kernels` did.

    Attributes:
        numba: numba's version, or ``None`` when it is not installed (then
            nothing is compiled: the plain kernels run).
        kernels: every compiled kernel, compiled now or cached before.
        seconds: the whole time taken.
        caches: where numba keeps the compiled loops (a folder per folder of
            modules), none without numba.
    """

    numba: str | None
    kernels: tuple[WarmedKernel, ...]
    seconds: float
    caches: tuple[str, ...] = ()

    @property
    def compiled(self) -> tuple[WarmedKernel, ...]:
        """The kernels compiled by this call."""
        return tuple(k for k in self.kernels if not k.cached)

    def as_dict(self) -> dict[str, Any]:
        """The JSON document: numba, caches, seconds and the kernels."""
        return {
            "numba": self.numba,
            "caches": list(self.caches),
            "seconds": round(float(self.seconds), 3),
            "kernels": [k.as_dict() for k in self.kernels],
        }


def warm_kernels(*, progress: ProgressLike = None) -> WarmReport:
    """Compile every numba kernel not compiled yet, and cache it (once per install).

    Each compiled kernel whose loops numba has not cached yet (for this
    numba, this Python and this source) runs on a tiny board every way it
    can run: numba compiles what it calls and caches it
    (``NUMBA_CACHE_DIR``, else ``__pycache__`` beside the source). Without
    numba nothing is compiled: the report says so (``numba`` is ``None``).

    Args:
        progress: ``True`` for a progress bar, or a callback called with a
            :class:`~cpknight.runtime.progress.Progress` before each kernel
            is compiled (its ``what``: which kernel, about how long).

    Returns:
        What was compiled and what was cached already.

    Raises:
        KeyboardInterrupt: Ctrl-C (what was compiled before it stays cached).

    Examples:
        >>> report = warm_kernels(progress=lambda p: print(p.what))  # doctest: +SKIP
        compiling the dense counting kernel (once per install, about 30 s)
        compiling the meet counting kernel (once per install, about 20 s)
        compiling the numba longest-path kernel (once per install, about 10 s)
        >>> [(k.kernel, k.cached) for k in report.kernels]  # doctest: +SKIP
        [('dense', False), ('meet', False), ('numba', False)]
    """
    began = time.perf_counter()
    version = numba_version()
    if version is None:
        return WarmReport(None, (), time.perf_counter() - began)
    todo: list[tuple[str, Warmable]] = [
        *(("count", k) for k in count_kernels()),
        ("count", SubsetLoops()),
        *(("longest", k) for k in path_kernels()),
        ("longest", SnakeSearch()),
        ("classes", OrbitSearch()),
    ]
    waiting = sum(1 for q, k in todo if _compile_seconds(k))
    done: list[WarmedKernel] = []
    with progress_bar(progress, desc="warm", unit="kernels") as tick:
        for question, kernel in todo:
            modules = tuple(m.module for m in kernel.loops)
            seconds = _compile_seconds(kernel)  # what is left of it
            if not seconds:  # cached already
                done.append(WarmedKernel(question, kernel.name, modules, True, 0, 0))
                continue
            if tick is not None:
                compiled = sum(1 for k in done if not k.cached)
                what = f"compiling the {kernel.name} {QUESTIONS[question]} kernel"
                tick(
                    Progress(
                        compiled,
                        waiting,
                        "kernels",
                        what=f"{what} (once per install, about {seconds:.0f} s)",
                    )
                )
            start = time.perf_counter()
            _warm(kernel)
            spent = time.perf_counter() - start
            warmed = WarmedKernel(question, kernel.name, modules, False, spent, seconds)
            done.append(warmed)
    folders = {str(cache_dir(m.source())) for _, k in todo for m in k.loops}
    seconds = time.perf_counter() - began
    return WarmReport(version, tuple(done), seconds, tuple(sorted(folders)))


def _compile_seconds(kernel: Warmable) -> float:
    """What is left of compiling ``kernel``, about (0: every loop cached).

    Every loop: a kernel a count ran in memory has its loops for disk still
    to compile.
    """
    if all(module.built() for module in kernel.loops):
        return 0.0
    return max(sum(module.waiting() for module in kernel.loops), 0.1)


def _warm(kernel: Warmable) -> None:
    """Compile one kernel; Ctrl-C inside numba's own code is Ctrl-C."""
    from cpknight.counting.frontier import from_ctrl_c

    try:
        if isinstance(kernel, CountKernel):
            _warm_count(kernel)
        elif isinstance(kernel, OrbitSearch):
            _warm_classes()
        elif isinstance(kernel, SubsetLoops):
            _warm_subsets()
        elif isinstance(kernel, SnakeSearch):
            _warm_snakes()
        else:
            _warm_longest()
    except SystemError as exc:  # Ctrl-C inside numba's compiling or loading
        if from_ctrl_c(exc):
            raise KeyboardInterrupt from None
        raise


def _warm_count(kernel: CountKernel) -> None:
    """Run a counting kernel on :data:`WARM_BOARD` every way it can run."""
    from cpknight.board import Board
    from cpknight.counting.frontier import solve
    from cpknight.counting.instance import CountInstance
    from cpknight.pieces import KNIGHT
    from cpknight.solving import SolveOptions

    board = Board.parse(WARM_BOARD)
    corner = board.parse_cell("a1")
    with tempfile.TemporaryDirectory(prefix="cpknight-warm-") as scratch:
        ways: list[dict[str, Any]] = [{"closed": False}, {"closed": True}]
        if kernel.prefixes:
            ways.append({"closed": False, "prefixes": True})
        if kernel.fixed_ends:
            ways.append({"closed": False, "start": corner})
        if kernel.disk:
            ways.append({"closed": False, "checkpoint": str(Path(scratch) / "open")})
            ways.append({"closed": True, "checkpoint": str(Path(scratch) / "closed")})
        for way in ways:
            instance = CountInstance(board, KNIGHT, **way)
            count = solve(instance, SolveOptions().start(), kernel=kernel.name)
            if count.interrupted:
                raise KeyboardInterrupt


def _warm_subsets() -> None:
    """Compile the count over subsets' loops on :data:`WARM_BOARD`, both ways."""
    from cpknight.board import Board
    from cpknight.counting.instance import CountInstance
    from cpknight.counting.subsets import solve
    from cpknight.pieces import KNIGHT
    from cpknight.solving import SolveOptions

    for closed in (True, False):
        instance = CountInstance(Board.parse(WARM_BOARD), KNIGHT, closed=closed)
        if solve(instance, SolveOptions().start()).interrupted:
            raise KeyboardInterrupt


def _warm_classes() -> None:
    """Compile the symmetry check's orbit search on :data:`WARM_BOARD`, both ways."""
    from cpknight.counting.symmetry import tour_classes
    from cpknight.pieces import move_graph

    graph = move_graph(WARM_BOARD)
    for closed in (True, False):
        tour_classes(graph, 0, closed=closed, compiled=True)


def _warm_longest() -> None:
    """Compile the longest-path program's loops on :data:`WARM_BOARD`."""
    from cpknight.board import Board
    from cpknight.longest.common import LongestInstance
    from cpknight.longest.frontier_numba import compile_loops
    from cpknight.longest.frontier_tables import longest_tables
    from cpknight.pieces import KNIGHT

    board = Board.parse(WARM_BOARD)
    instance = LongestInstance(board=board, piece=KNIGHT, kind="uncrossed")
    compile_loops(longest_tables(instance))


def _warm_snakes() -> None:
    """Compile the search's snakes on :data:`WARM_BOARD`, paths and cycles."""
    from cpknight.board import Board
    from cpknight.longest.common import LongestInstance
    from cpknight.longest.search import solve
    from cpknight.pieces import KNIGHT
    from cpknight.solving import SolveOptions

    for closed in (False, True):
        board = Board.parse(WARM_BOARD)
        instance = LongestInstance(
            board=board, piece=KNIGHT, kind="induced", closed=closed
        )
        solve(instance, SolveOptions().start(), kernel="numba")
