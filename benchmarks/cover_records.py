"""The covering tables of n x n at the record sizes, resumable.

Run: ``python benchmarks/cover_records.py --table A261752 --sizes 19-32 --dir
DIR``. The tables are the four covering sequences of the n x n knight graph:

- ``A006075``, domination (``cpknight dominate NxN``);
- ``A261752``, total domination (``--total``);
- ``A342576``, independent domination (``--independent``);
- ``A279407``, domination of the torus (``--torus``).

Each size is one ``cpknight dominate NxN ... --method M --json`` in a process
of its own (its wall seconds and peak memory measured from outside); the row
it prints, with those figures, is one JSON line of ``DIR/rows.jsonl``, written
when the size ends, so a run stopped between sizes resumes where it was (a
size cut short is run again, and so is a size that reached its limit unproved
when the new limit is longer). ``--limit S`` is each size's time limit;
``--method`` picks the engine (``scip`` by default; a second engine on the
same sizes is the second route a value nobody has published needs, and its
rows sit beside the first's, keyed by size and method).

The table at the end holds every row against the published values (read
2026-11-30); a size with no published value is reported as found, and as
"two routes agree" once two methods proved the same value. Exit code 1 if a
proved value disagrees with the table or two methods disagree.

Total domination splits into the two colours' set covers (a knight's move
changes colour; ``cpknight/covering/parts.py``), and on an even board one
colour is the mirror image of the other, so one half is solved.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Table:
    """One published sequence: its flags for ``cpknight dominate`` and values."""

    what: str
    flags: tuple[str, ...]
    values: dict[int, int]


def _from(first: int, values: list[int]) -> dict[int, int]:
    return dict(zip(range(first, first + len(values)), values, strict=True))


TABLES = {
    "A006075": Table(
        "domination of n x n",
        (),
        _from(1, [1, 4, 4, 4, 5, 8, 10, 12, 14, 16, 21, 24, 28, 32, 36, 40])
        | _from(17, [46, 52, 57, 62, 68]),
    ),
    "A261752": Table(
        "total domination of n x n",
        ("--total",),
        _from(4, [6, 7, 8, 10, 14, 18, 22, 25, 28, 32, 36, 43, 48, 54, 58, 66])
        | _from(20, [70, 78, 84, 91, 98, 107, 112, 123, 128, 139, 146, 156, 164])
        | {34: 182, 36: 202, 38: 224},  # the entry's comment (Huchala, 2021)
    ),
    "A342576": Table(
        "independent domination of n x n",
        ("--independent",),
        _from(1, [1, 4, 4, 4, 5, 8, 13, 14, 14, 16, 22, 24, 29, 33, 36, 40])
        | _from(17, [47, 52, 58, 63, 68]),
    ),
    "A279407": Table(
        "domination of the n x n torus",
        ("--torus",),
        _from(1, [1, 2, 3, 4, 5, 6, 9, 8, 12, 15, 18, 21, 25, 28, 33, 32]),
    ),
}
"""The OEIS entries, read 2026-11-30 (A006075 to a(21) = 68, Huchala 2021;
A261752 from a(4), to a(32) = 164 and three even terms past it; A342576 to
a(21) = 68, Huchala 2024; A279407 to a(16) = 32, Huchala 2024)."""


def sizes(text: str) -> list[int]:
    """``19-32`` or ``20,24,28``: the board sizes."""
    out: list[int] = []
    for piece in text.split(","):
        first, _, last = piece.partition("-")
        out += list(range(int(first), int(last or first) + 1))
    return out


def run_size(table: str, n: int, limit: float, method: str) -> dict[str, object]:
    """One size in a process of its own: cpknight's JSON row and the figures."""
    command = [
        sys.executable,
        "-m",
        "cpknight",
        "dominate",
        f"{n}x{n}",
        *TABLES[table].flags,
        "--method",
        method,
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
        "table": table,
        "n": n,
        "method": method,
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


def read_rows(path: Path, table: str) -> dict[tuple[int, str], dict[str, object]]:
    """The table's rows kept, by size and method; a line cut short is skipped.
    (The runner's first version ran A261752 by SCIP alone, and its rows name
    neither.)"""
    done: dict[tuple[int, str], dict[str, object]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short: that size runs again
            if row.get("table", "A261752") == table:
                done[int(row["n"]), str(row.get("method", "scip"))] = row
    return done


def verdicts(
    table: str, done: dict[tuple[int, str], dict[str, object]], wanted: list[int]
) -> tuple[list[str], bool]:
    """The report's lines, one per size and method, and whether all agree."""
    known = TABLES[table].values
    lines = [f"n  method  found  bound  status  seconds  {table}"]
    ok = True
    for n in wanted:
        proved = {
            method: row["size"]
            for (m, method), row in done.items()
            if m == n and row["status"] == "optimal"
        }
        if n in known:
            note = str(known[n])
        elif len(proved) >= 2 and len(set(proved.values())) == 1:
            note = f"not published; two routes agree ({', '.join(sorted(proved))})"
        else:
            note = "not published"
        split = len(set(proved.values())) > 1
        ok &= not split
        for (m, method), row in sorted(done.items()):
            if m != n:
                continue
            wrong = (
                row["status"] == "optimal" and n in known and row["size"] != known[n]
            )
            ok &= not wrong
            lines.append(
                f"{n}  {method}  {row['size']}  {row['bound']}  {row['status']}  "
                f"{row['seconds']}  {note}"
                + ("  WRONG" if wrong else "")
                + ("  METHODS DISAGREE" if split else "")
            )
    return lines, ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", required=True, choices=sorted(TABLES))
    parser.add_argument("--sizes", required=True, help="like 19-32 or 20,24")
    parser.add_argument("--dir", type=Path, required=True, help="the rows' folder")
    parser.add_argument("--limit", type=float, default=3600.0, help="s per size")
    parser.add_argument("--method", default="scip", help="cpknight's --method")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    path = args.dir / "rows.jsonl"
    done = read_rows(path, args.table)
    wanted = sizes(args.sizes)
    for n in wanted:
        key = (n, args.method)
        if key in done and _settled(done[key], args.limit):
            continue
        row = run_size(args.table, n, args.limit, args.method)
        with path.open("a") as out:
            out.write(json.dumps(row) + "\n")
            out.flush()
            os.fsync(out.fileno())
        done[key] = row
        print(
            f"{n}x{n} ({args.method}): {row['size']} ({row['status']}, bound "
            f"{row['bound']}) in {row['seconds']} s",
            flush=True,
        )
    lines, ok = verdicts(args.table, done, wanted)
    print(f"{TABLES[args.table].what} ({args.table})")
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
