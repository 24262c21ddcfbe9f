"""The serve subcommand: the playground in a browser, on this machine."""

from __future__ import annotations

import argparse
import sys

from cpknight.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    SubParsers,
    add_command,
    out,
)


def add_serve(sub: SubParsers) -> None:
    """Register ``cpknight serve``."""
    parser = add_command(
        sub,
        "serve",
        _run_serve,
        examples="""
cpknight serve
cpknight serve --port 8000 --open""",
        description="Serve the playground on this machine: a page to draw a board\n"
        "(click to block, shift-click the start, alt-click the end), ask a\n"
        "question, race engines with live rows and a Cancel button, watch the\n"
        "knight and read the model; plus the JSON API the page uses. Ctrl-C\n"
        "stops it, cancelling every run. Needs the extra: pip install "
        "'cpknight[web]'.",
        epilog="exit codes:\n  2    bad input (the extra missing, the port taken)\n"
        "  130  stopped by Ctrl-C (every run cancelled first)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=0,
        metavar="N",
        help="the port (default: a free one)",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="H",
        help="the address to listen on (default 127.0.0.1, this machine only; "
        "another says what it exposes)",
    )
    parser.add_argument(
        "--open", action="store_true", help="open the page in the default browser"
    )


def _run_serve(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        print(
            "cpknight: error: 'cpknight serve' needs the web extra: "
            "pip install 'cpknight[web]'",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if not 0 <= args.port <= 65535:
        print(
            f"cpknight: error: expected a port from 0 to 65535: {args.port}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    from cpknight.web.server import serve

    try:
        serve(host=args.host, port=args.port, open_browser=args.open, say=out)
    except OSError as exc:
        print(
            f"cpknight: error: cannot listen on {args.host}:{args.port}: "
            f"{exc.strerror or exc}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return EXIT_OK
