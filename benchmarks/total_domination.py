"""Total domination of n x n (OEIS A261752) at the record sizes, resumable.

Run: ``python benchmarks/total_domination.py --sizes 19-32 --dir DIR``. Each
size is one ``cpknight dominate NxN --total --method scip --json`` in a
process of its own (its wall seconds and peak memory measured from outside);
the row it prints, with those figures, is one JSON line of ``DIR/rows.jsonl``,
written when the size ends, so a run stopped between sizes resumes where it
was (a size cut short is run again, and so is a size that reached its limit
unproved when the new limit is longer). ``--limit S`` is each size's time limit.
The table at the end holds every row against A261752 (read 2026-11-30: a(4)
to a(32), and a(34) = 182, a(36) = 202, a(38) = 224 from the entry's comment);
a size with no published value is reported as found, for a second route to
confirm. Exit code 1 if a proved value disagrees with the table.

The program splits into the two colours' set covers (a knight's move changes
colour; ``cpknight/covering/parts.py``), and on an even board one colour is
the mirror image of the other, so one half is solved.
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

A261752 = dict(
    zip(
        range(4, 33),
        [
            *[6, 7, 8, 10, 14, 18, 22, 25, 28, 32, 36, 43, 48, 54, 58, 66, 70, 78],
            *[84, 91, 98, 107, 112, 123, 128, 139, 146, 156, 164],
        ],
        strict=True,
    )
) | {34: 182, 36: 202, 38: 224}
"""OEIS A261752, total domination number of the n x n knight graph."""


def sizes(text: str) -> list[int]:
    """``19-32`` or ``20,24,28``: the board sizes."""
    out: list[int] = []
    for piece in text.split(","):
        first, _, last = piece.partition("-")
        out += list(range(int(first), int(last or first) + 1))
    return out


def run_size(n: int, limit: float) -> dict[str, object]:
    """One size in a process of its own: cpknight's JSON row and the figures."""
    command = [
        sys.executable,
        "-m",
        "cpknight",
        "dominate",
        f"{n}x{n}",
        "--total",
        "--method",
        "scip",
        "--time-limit",
        str(limit),
        "--json",
    ]
    began = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(command, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own peak
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - began
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    try:
        row = json.loads(stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        row = {"error": (stderr.strip().splitlines() or ["no output"])[-1]}
    return {
        "n": n,
        "size": row.get("size"),
        "bound": row.get("bound"),
        "status": row.get("status"),
        "lp_bound": row.get("lp_bound"),
        "cells": row.get("cells"),
        "error": row.get("error"),
        "exit": child.returncode,
        "seconds": round(seconds, 1),
        "peak_mb": usage.ru_maxrss // 1024,
        "limit": limit,
    }


def _settled(row: dict[str, object], limit: float) -> bool:
    """A size run before is not run again: proved, or stopped at this limit
    or a longer one (a longer limit runs a size cut short again)."""
    ran = row.get("limit")
    return row.get("status") == "optimal" or (
        isinstance(ran, int | float) and ran >= limit
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="19-32", help="like 19-32 or 20,24")
    parser.add_argument("--dir", type=Path, required=True, help="the rows' folder")
    parser.add_argument("--limit", type=float, default=3600.0, help="s per size")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    path = args.dir / "rows.jsonl"
    done: dict[int, dict[str, object]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short: that size runs again
            done[int(row["n"])] = row
    for n in sizes(args.sizes):
        if n in done and _settled(done[n], args.limit):
            continue
        row = run_size(n, args.limit)
        with path.open("a") as out:
            out.write(json.dumps(row) + "\n")
            out.flush()
            os.fsync(out.fileno())
        done[n] = row
        print(
            f"{n}x{n}: {row['size']} ({row['status']}, bound {row['bound']}) "
            f"in {row['seconds']} s",
            flush=True,
        )
    ok = True
    print("n  found  bound  status  seconds  A261752")
    for n in sizes(args.sizes):
        row = done[n]
        known = A261752.get(n)
        wrong = (
            row["status"] == "optimal" and known is not None and row["size"] != known
        )
        ok &= not wrong
        print(
            f"{n}  {row['size']}  {row['bound']}  {row['status']}  {row['seconds']}  "
            f"{known if known is not None else 'not published'}"
            + ("  WRONG" if wrong else "")
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
