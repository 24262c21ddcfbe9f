"""``python -m cpknight`` and the ``cpknight`` console script: the command line."""

import sys


def run() -> None:
    """Import the command line, run it and exit with its code.

    The command line's modules are imported here, inside the guard: a Ctrl-C
    while they load (start-up takes a good part of a second) is one line and
    exit code 130, as it is once the command runs, never a traceback.
    """
    try:
        from cpknight.cli import main
    except KeyboardInterrupt:
        print("cpknight: interrupted (Ctrl-C) while starting", file=sys.stderr)
        raise SystemExit(130) from None
    sys.exit(main())


if __name__ == "__main__":
    run()
