"""Running many solves: ``--jobs``, ``--scheduler``, ``--results``, ``--resume``.

Internal to the command line: ``study``, ``sweep`` and ``count --shards`` run
tasks through :mod:`cpknight.runner` and share these options.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cpknight.cli.common import EXIT_INTERRUPTED, JOBS, progress_bar
from cpknight.errors import InvalidInputError
from cpknight.runtime.progress import Progress

if TYPE_CHECKING:
    from cpknight.runner import RunInterrupted, RunOptions


def quiet_late_ctrl_c() -> None:
    """After an interrupted run is reported: a Ctrl-C as the process exits is ignored.

    Python gives Ctrl-C back to the system as it shuts down (after its
    threads are joined and ``atexit`` has run), and a second Ctrl-C then
    would end the process by the signal, not with the exit code of the
    report already printed (130). Ignored from ``atexit`` on, it cannot.
    """
    import atexit
    import signal

    atexit.register(signal.signal, signal.SIGINT, signal.SIG_IGN)


def add_run_args(parser: argparse.ArgumentParser, *, jobs: bool = True) -> None:
    """``--jobs``, ``--scheduler``, ``--results``, ``--resume``: how to run tasks."""
    group = parser.add_argument_group("running many solves")
    if jobs:
        group.add_argument(
            "--jobs",
            type=int,
            default=JOBS,
            metavar="N",
            help=f"worker processes, capped at the cores; 0 uses one per core "
            f"(default {JOBS}: in this process)",
        )
    group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask cluster: its scheduler's address (tcp://host:8786), "
        "or 'local' to start a LocalCluster of --jobs workers here (needs "
        "pip install 'cpknight[dask]')",
    )
    files = group.add_mutually_exclusive_group()
    files.add_argument(
        "--results",
        metavar="FILE",
        help="append each result to FILE (JSON lines, a new file) as it arrives "
        "(a file: '-' is refused)",
    )
    files.add_argument(
        "--resume",
        metavar="FILE",
        help="continue the run whose results are in FILE: skip the tasks it "
        "holds, append the rest (count without --shards: a directory for the "
        "frontier program's states on disk and its checkpoints)",
    )


def run_options(args: argparse.Namespace, *, keep: str | None = None) -> RunOptions:
    """How to run the tasks, from ``--jobs``, ``--scheduler`` and the files.

    With ``keep`` (the command's name) and no ``--results`` or ``--resume``,
    the rows go to an automatic results file in the temporary folder, so
    that Ctrl-C loses nothing: :func:`drop_automatic` removes it once the
    run has finished, and an interrupted run says where it is.
    """
    from cpknight.runner import RunOptions, check_scheduler, usable_cores

    if args.scheduler is not None:
        check_scheduler(args.scheduler)

    if args.jobs < 0:
        raise InvalidInputError(f"--jobs must be 0 (one per core) or more: {args.jobs}")
    jobs = usable_cores() if args.jobs == 0 else args.jobs
    for option in ("results", "resume"):
        if getattr(args, option) == "-":
            raise InvalidInputError(
                f"--{option} needs a file (it is appended to and read back), not '-'"
            )
    results = args.resume or args.results
    if results is None and keep is not None:
        results = automatic_results(keep)
        args.automatic = results
    return RunOptions(
        jobs=jobs,
        scheduler=args.scheduler,
        results=results,
        resume=bool(args.resume),
    )


def automatic_results(command: str) -> str:
    """A new results file in the temporary folder, named after the command."""
    import tempfile  # a study's only: not every command's start-up

    stamp = time.strftime("%Y%m%d-%H%M%S")
    return str(
        Path(tempfile.gettempdir(), f"cpknight-{command}-{stamp}-{os.getpid()}.jsonl")
    )


def drop_automatic(args: argparse.Namespace) -> None:
    """Remove the automatic results file of a run that finished (if any)."""
    path = getattr(args, "automatic", None)
    if path is not None:
        Path(path).unlink(missing_ok=True)


def task_progress(
    args: argparse.Namespace, what: str
) -> tuple[Any, Callable[[Progress], None] | None]:
    """A progress bar over tasks (done / total, time left) and its callback."""
    bar = progress_bar(
        args, f"{{n}} of {{total}} {what} |{{bar}}| {{elapsed}}<{{remaining}}"
    )
    if bar is None:
        return None, None

    def progress(p: Progress) -> None:
        done, total = int(p.done), p.total
        if bar.total is None:
            bar.total = total
            bar.initial = bar.n = done  # resumed tasks do not count in the rate
            bar.refresh()
        else:
            bar.update(done - bar.n)

    return bar, progress


def interrupted_run(exc: RunInterrupted) -> int:
    """Say how much of an interrupted run is kept, and how to go on; exit 130."""
    note_kept(exc.done, exc.total, exc.results)
    return EXIT_INTERRUPTED


def note_kept(done: int, total: int, results: object) -> None:
    """The line after an interruption: what is done, where it is, how to go on."""
    if results is not None and not Path(str(results)).exists():
        where = ""  # stopped before the first task: nothing to keep
    elif results is not None:
        where = f"; kept in {results} (--resume {results} goes on)"
    else:
        where = "; add --results FILE to keep what is done"
    print(
        f"cpknight: interrupted after {done} of {total} tasks{where}",
        file=sys.stderr,
    )
