"""The first count after a clean install: compiling ahead, or the plain kernel.

numba compiles the compiled kernels on first use and caches them: on a new
install the first ``cpknight count 6x6 --open`` waited for the compiler (issue
36: 39.6 s, against 8.9 s run again). Each case here is a whole process with
``NUMBA_CACHE_DIR`` pointed at a fresh empty directory (a new install, as far
as numba can tell), in the same run, one after the other:

- before: the count with the kernel ``auto`` used to pick (``--kernel meet``),
  cold (empty cache) and then again (cached): the wait the issue measured;
- after, cold: ``count 6x6 --open`` in an empty cache: ``auto`` now counts
  with the plain kernel while the compiled one is not built, and says so;
- ``cpknight warm`` in an empty cache (what ``make demo`` runs), then the
  count: ``auto`` takes the compiled kernel, cached;
- the check ``auto`` makes (is the kernel built?) against importing numba.

Targets: the first count after a clean install takes at most 0.9 times what
it took before (it no longer waits for the compiler unannounced); after
``cpknight warm`` the count takes at most 1.3 times the cached run of before;
the check costs under a quarter of numba's import (which it avoids).

Run: ``python benchmarks/warm.py`` (``--quick``: one case each, no plain
kernel reference). Exit code 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PY = sys.executable
BOARD = ["6x6", "--open"]

WARM_API = (
    "import json, sys; from cpknight.api.warm import warm_kernels; "
    "r = warm_kernels(progress=lambda p: print(p.what, file=sys.stderr)); "
    "print(json.dumps(r.as_dict()))"
)
"""``cpknight warm`` through its front door, while the command is not yet in
the command table."""

CHECK = (
    "import time; from cpknight.counting.kernels import compile_seconds; "
    "t = time.perf_counter(); compile_seconds('meet'); "
    "print(time.perf_counter() - t)"
)
"""The check ``auto`` makes, its module loaded (as the count has it)."""
NUMBA = (
    "import time; t = time.perf_counter(); import numba; print(time.perf_counter() - t)"
)


def warm_argv() -> list[str]:
    """``cpknight warm`` if the command table has it, else its front door."""
    from cpknight.cli.parser import command_named

    if command_named(["warm"]) is not None:
        return [PY, "-m", "cpknight", "warm", "--json"]
    return [PY, "-c", WARM_API]


def timed(argv: list[str], cache: Path) -> tuple[float, str, str]:
    """Run ``argv`` with numba's cache in ``cache``: wall seconds, stderr, stdout."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    began = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr}")
    return seconds, done.stderr.strip(), done.stdout


def count(*extra: str) -> list[str]:
    return [PY, "-m", "cpknight", "count", *BOARD, *extra]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    fast = count("--kernel", "meet")
    with tempfile.TemporaryDirectory(prefix="cpknight-bench-warm-") as scratch:
        root = Path(scratch)
        before_cold, _, _ = timed(fast, root / "before")
        before_warm, _, _ = timed(fast, root / "before")
        after_cold, said, _ = timed(count(), root / "after")
        warm, warm_said, report = timed(warm_argv(), root / "warm")
        after_warm, said_warm, _ = timed(count(), root / "warm")
        rewarm, _, _ = timed(warm_argv(), root / "warm")
        plain = None
        if not args.quick:
            plain, _, _ = timed(count("--kernel", "numpy"), root / "plain")
        env = {**os.environ, "NUMBA_CACHE_DIR": str(root / "warm")}
        check = float(
            subprocess.run(
                [PY, "-c", CHECK], env=env, capture_output=True, text=True
            ).stdout.strip()
        )
        numba = float(
            subprocess.run(
                [PY, "-c", NUMBA], capture_output=True, text=True
            ).stdout.strip()
        )
    line = "count " + " ".join(BOARD)
    print(f"{line}, a whole process each, NUMBA_CACHE_DIR fresh per case:")
    print(f"  before, cold (--kernel meet, compiling)   {before_cold:7.1f} s")
    print(f"  before, cached                            {before_warm:7.1f} s")
    print(f"  after, cold (auto)                        {after_cold:7.1f} s")
    print(f"      {said.splitlines()[-1] if said else '(no note)'}")
    print(f"  cpknight warm, cold                       {warm:7.1f} s")
    print(f"  after warm (auto)                         {after_warm:7.1f} s")
    print(f"  cpknight warm again (all cached)          {rewarm:7.1f} s")
    if plain is not None:
        print(f"  plain kernel (--kernel numpy), reference  {plain:7.1f} s")
    print(
        f"  is-it-built check {check * 1e3:.1f} ms, numba's import {numba * 1e3:.0f} ms"
    )
    for line in warm_said.splitlines():
        print(f"      {line}")
    for kernel in json.loads(report)["kernels"]:
        name = f"{kernel['kernel']} ({kernel['question']})"
        print(f"      {name:<18} compiled in {kernel['seconds']:5.1f} s")
    ratios = {
        "first run after a clean install, after / before": (
            after_cold / before_cold,
            0.9,
        ),
        "after warm / before cached": (after_warm / before_warm, 1.3),
        "the check / numba's import": (check / numba, 0.25),
    }
    missed = 0
    print(f"  before: cold / cached = {before_cold / before_warm:.1f}x")
    for what, (ratio, target) in ratios.items():
        ok = ratio <= target
        missed += not ok
        print(f"  {what}: {ratio:.2f} (target <= {target}) {'ok' if ok else 'MISSED'}")
    if said_warm:
        print(f"  unexpected note after warm: {said_warm}")
        missed += 1
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
