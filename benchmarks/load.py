"""A loaded machine on demand: busy processes, a few a core, until stopped.

``make test-loaded`` runs ``make test`` beside this script, so that the suite
is held to what it promises on a busy machine (issue 35: it passes with two
busy processes a core, no test depends on wall-clock luck). Each process
spins on pure Python arithmetic (no memory to speak of, no files); the script
stops them all on Ctrl-C, SIGTERM or after ``--seconds``, and each stops by
itself if the script is gone (killed with SIGKILL).

Usage::

    python benchmarks/load.py                  # two a core, until Ctrl-C
    python benchmarks/load.py --per-core 4 --seconds 60
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import sys
import time


def cores() -> int:
    """The cores this process may run on (its affinity, else the count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def spin(parent: int) -> None:
    """Keep one core busy until the parent is gone or this process is stopped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us,
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # with SIGTERM
    x = 0
    while True:
        for i in range(200_000):
            x = (x * 31 + i) % 1_000_003
        if os.getppid() != parent:
            return


def main(argv: list[str] | None = None) -> int:
    """Start the busy processes, wait, stop them; exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--per-core",
        type=int,
        default=2,
        metavar="N",
        help="busy processes a core (default 2)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        metavar="S",
        help="stop after S seconds (default: until Ctrl-C or SIGTERM)",
    )
    args = parser.parse_args(argv)
    if args.per_core < 1:
        parser.error(f"expected --per-core of at least 1: {args.per_core}")
    count = args.per_core * cores()
    stop = False

    def stopping(signum: int, frame: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, stopping)
    signal.signal(signal.SIGINT, stopping)
    context = multiprocessing.get_context("fork")
    me = os.getpid()
    busy = [context.Process(target=spin, args=(me,), daemon=True) for _ in range(count)]
    for process in busy:
        process.start()
    print(
        f"load: {count} busy processes ({args.per_core} a core on {cores()}); "
        "stop with Ctrl-C or SIGTERM",
        file=sys.stderr,
        flush=True,
    )
    began = time.monotonic()
    while not stop:
        if args.seconds is not None and time.monotonic() - began >= args.seconds:
            break
        time.sleep(0.2)
    for process in busy:
        process.terminate()
    for process in busy:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
