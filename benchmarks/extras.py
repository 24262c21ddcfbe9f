"""What each install costs: the plain package and each extra, in a fresh venv.

For the plain install and each extra (``web``, ``png``, ``fast``, ``interop``,
``dask``, ``course``, ``all``, ``test``, ``docs``, ``dev``), a fresh virtual environment
gets the wheel built from this checkout: ``pip install 'WHEEL[EXTRA]'``. The
table gives the wall time of that ``pip install`` and the size of the
environment's ``site-packages`` afterwards (pip and setuptools, there before
the install, counted apart). Downloads are whatever pip's cache and
``PIP_FIND_LINKS`` hold on this machine: on a machine that must fetch every
wheel, add the download.

Run: ``python benchmarks/extras.py`` (a few minutes; ``--only web,all`` for
some).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXTRAS = [
    "",
    "web",
    "png",
    "fast",
    "scip",
    "interop",
    "dask",
    "course",
    "all",
    "test",
    "docs",
    "dev",
]


def folder_bytes(path: Path) -> int:
    """The bytes of every file under ``path``."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def site_packages(venv: Path) -> Path:
    """The venv's ``site-packages``."""
    return next((venv / "lib").glob("python3*/site-packages"))


def measure(wheel: Path, extra: str, work: Path) -> tuple[float, int]:
    """Seconds of ``pip install`` and MB added to a fresh venv, for one extra."""
    venv = work / f"venv-{extra or 'plain'}"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    before = folder_bytes(site_packages(venv))
    spec = f"{wheel}[{extra}]" if extra else str(wheel)
    began = time.perf_counter()
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", spec],
        check=True,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    seconds = time.perf_counter() - began
    return seconds, (folder_bytes(site_packages(venv)) - before) // 2**20


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", help="comma-separated extras ('plain' for none)")
    args = parser.parse_args(argv)
    extras = EXTRAS
    if args.only:
        extras = ["" if e == "plain" else e for e in args.only.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        build = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
        subprocess.run([*build, "-w", folder, str(ROOT)], check=True)
        wheel = next(work.glob("cpknight-*.whl"))
        print(f"{'install':<28} {'seconds':>8} {'MB':>6}")
        for extra in extras:
            seconds, mb = measure(wheel, extra, work)
            label = f"cpknight[{extra}]" if extra else "cpknight"
            print(f"{label:<28} {seconds:8.1f} {mb:6d}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
