"""The warm command: compile the numba kernels ahead, once (``cpknight warm``).

One door answers (:func:`cpknight.api.warm.warm_kernels`); this module
announces each kernel it compiles with a line on standard error, and prints
what was compiled and what was cached already, as text or JSON.
"""

from __future__ import annotations

import argparse
import sys

from cpknight.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    SubParsers,
    add_command,
    add_json,
    out,
    print_json,
)
from cpknight.runtime.progress import Progress

__all__ = ["add_warm"]

_DESCRIPTION = (
    "Compile the compiled kernels (numba, 'cpknight[fast]') ahead, once per "
    "install: the dense and met-in-the-middle counting kernels and the "
    "longest-path program's and search's. numba compiles a kernel on its "
    "first use and "
    "caches it beside the source (or in NUMBA_CACHE_DIR), so the first count "
    "of a new install would wait for the compiler (about half a minute); "
    "until then auto counts small counts with the plain kernel and says so. "
    "A kernel cached already is passed over. Without numba there is nothing "
    "to compile: the plain kernels run."
)

_EXAMPLES = """\
cpknight warm
cpknight warm --json
NUMBA_CACHE_DIR=/tmp/cache cpknight warm   # compile into another cache
"""
"""Two or three command lines for ``--help``."""

_EXIT_CODES = """\
exit codes:
  0  compiled, or cached already, or nothing to compile (no numba)
  130 interrupted (Ctrl-C): the kernels compiled before it stay cached
"""


def add_warm(sub: SubParsers) -> None:
    """Register ``cpknight warm``."""
    parser = add_command(
        sub,
        "warm",
        _run_warm,
        examples=_EXAMPLES,
        description=_DESCRIPTION,
        epilog=_EXIT_CODES,
    )
    add_json(parser)


def _run_warm(args: argparse.Namespace) -> int:
    from cpknight.api.warm import QUESTIONS, warm_kernels

    def announce(p: Progress) -> None:
        print(f"cpknight: {p.what}...", file=sys.stderr, flush=True)

    try:
        report = warm_kernels(progress=announce)
    except KeyboardInterrupt:
        print(
            "cpknight: interrupted (Ctrl-C): the kernels compiled before it stay "
            "cached; 'cpknight warm' compiles the rest",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    if args.json:
        print_json(report.as_dict())
        return EXIT_OK
    if report.numba is None:
        out(
            "numba is not installed: nothing to compile, the plain kernels run "
            "(pip install 'cpknight[fast]' for the compiled ones)"
        )
        return EXIT_OK
    if not report.compiled:
        out(f"every compiled kernel is built already (numba {report.numba})")
    else:
        count = len(report.compiled)
        kernels = "kernel" if count == 1 else "kernels"
        spent = f"{report.seconds:.1f} s"
        out(f"compiled {count} {kernels} in {spent} (numba {report.numba})")
    for k in report.kernels:
        label = f"{k.kernel} ({QUESTIONS[k.question]})"
        done = "cached already" if k.cached else f"compiled in {k.seconds:.1f} s"
        out(f"  {label:<24} {done}")
    out(f"  cached in {'; '.join(report.caches)}")
    return EXIT_OK
