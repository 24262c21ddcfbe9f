"""Serving the playground: bind a loopback port, print the address, run uvicorn.

Examples:
    >>> exposure_note("127.0.0.1") is None
    True
    >>> exposure_note("0.0.0.0")[:40]
    'serving on 0.0.0.0: anyone who can reach'
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

__all__ = ["child_pids", "exposure_note", "serve"]


def exposure_note(host: str) -> str | None:
    """One line saying what a host beyond the loopback exposes (``None`` for it)."""
    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        if host == "localhost":
            return None
    return (
        f"serving on {host}: anyone who can reach this machine there can run "
        "solves (a few at once, capped in size and time) and read the page; "
        "no files are read or written"
    )


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    open_browser: bool = False,
    say: Callable[[str], None] = print,
) -> None:
    """Serve the playground until Ctrl-C, which cancels every run first.

    Args:
        host: the address to bind (the loopback unless told otherwise).
        port: the port; 0 picks a free one.
        open_browser: open the page in the default browser once listening.
        say: where the address and notes go (a line each).

    Raises:
        OSError: the address cannot be bound (the port is taken).
    """
    import uvicorn

    from cpknight.web.app import create_app

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)  # connections wait in the queue while the server starts
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    url = f"http://{shown}:{bound}/"
    app = create_app()
    # The fork server, from the main thread and before the address is shown:
    # deaf to Ctrl-C (the server stops it), it warms while the server starts.
    app.state.runs.context()
    note = exposure_note(host)
    if note is not None:
        say(f"note: {note}")
    say(f"cpknight playground on {url} (Ctrl-C stops it)")
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        loop="asyncio",  # the loop asyncio.run makes, below
        timeout_graceful_shutdown=2,  # an open event stream does not hold Ctrl-C
    )
    server = uvicorn.Server(config)
    if open_browser:  # once uvicorn listens on the socket
        threading.Timer(0.5, webbrowser.open, [url]).start()
    # What ``server.run`` does, holding the coroutine: a Ctrl-C that comes
    # before the loop has started it (the address is already shown) leaves it
    # never awaited, and Python says so on stderr at exit. Closed, it is quiet.
    main = server.serve(sockets=[sock])
    try:
        asyncio.run(main)
    finally:
        main.close()


def child_pids(pid: int) -> list[int]:
    """The direct children of a process, read from ``/proc`` (Linux).

    A server's child is its fork server, whose children are the workers of
    the runs going: what the tests and ``benchmarks/web.py`` look at (the
    workers a Ctrl-C must stop, the memory the server holds).

    Examples:
        >>> import os
        >>> os.getpid() in child_pids(os.getppid())
        True
    """
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found
