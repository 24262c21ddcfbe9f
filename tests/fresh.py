"""Run a short script in a fresh interpreter: what a command loads, from scratch."""

from __future__ import annotations

import subprocess
import sys


def fresh_output(script: str) -> str:
    """The last line ``script`` prints, run by a new Python process.

    A test asks what a command imports (``sys.modules``) without the modules
    the test session has already loaded.
    """
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout.strip().splitlines()[-1]
