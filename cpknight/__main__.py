"""``python -m cpknight`` and the ``cpknight`` console script: the command line."""

import os
import sys


def run() -> None:
    """Import the command line, run it and exit with its code.

    The command line and the command's modules are loaded inside the guard:
    a Ctrl-C while they load is one line and exit code 130, as it is once the
    command runs, never a traceback.

    OpenBLAS starts a thread per core when numpy loads, for linear algebra
    no command does: one thread makes numpy's import (most of a small
    command's start-up) quicker and steadier. A setting of the user's stands.
    ``cpknight --version`` alone is answered before argparse loads (the same
    line as the parser's ``--version``).

    The garbage collector waits until the command's modules are loaded:
    start-up makes tens of thousands of objects (numpy's, the dataclasses',
    the parser's) that live as long as the process, and walking them a few
    dozen times while they load found nothing and cost about 9 ms of a
    quick command's 150. :func:`cpknight.cli.main` freezes them and starts
    the collector again before the command runs.
    """
    if sys.argv[1:] == ["--version"]:
        from cpknight import __version__

        print(f"cpknight {__version__}")
        sys.exit(0)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import gc

    gc.disable()
    try:
        from cpknight.cli import main

        # main loads the command's own modules, then answers a Ctrl-C itself
        # once the command runs: what reaches here came while starting.
        code = main(collect_after_start=True)
    except KeyboardInterrupt:
        print("cpknight: interrupted (Ctrl-C) while starting", file=sys.stderr)
        raise SystemExit(130) from None
    sys.exit(code)


if __name__ == "__main__":
    run()
