"""The rows of issue 27, run as a user would: memory, budgets, endings, Ctrl-C.

Run: ``python benchmarks/edges.py`` (a few minutes; ``--only TEXT`` keeps the
rows whose name contains TEXT; ``--tool "python run.py"`` runs another copy of
cpknight, to measure a baseline). Each row runs as its own process group under
a cap on its address space (:data:`CAP_MB`, so that nothing eats a shared
machine) and a wall-clock cap (:data:`WALL`); an interrupt row sends SIGINT
after a few seconds, to the whole group or to the main process alone.

Each row prints the wall seconds, the peak resident memory (``ru_maxrss`` of
the main process), the exit code, the last line of standard error (a
traceback shows as its last line), whether standard output printed something
(``out``), and a verdict against the row's promise:

- a time row (``limit`` s) must end within the limit + 1 s;
- a memory row must end (answer or refusal) under the budget (the default
  4096 MB unless the row says otherwise) without a traceback;
- an interrupt row must exit 130 within 2 s of the signal and print its
  partial answer.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from cpknight.text.render import table_text

CAP_MB = 6144
"""Address-space cap of every row (MB): a row past it fails, never the machine."""

WALL = 45.0
"""Seconds after which a row is killed (and marked as still running)."""

BUDGET_MB = 4096
"""The default memory budget that a memory row is held to."""

GRACE = 1.0


@dataclass(frozen=True)
class Row:
    """One command of the issue and its promise."""

    name: str
    argv: list[str]
    limit: float | None = None  # seconds: the promise is limit + GRACE
    memory: float | None = None  # MB: the promise is under it
    interrupt: str | None = None  # 'group' or 'main': SIGINT after `after` s
    after: float = 4.0
    stdin: str | None = None


def _suite(folder: str) -> str:
    path = Path(folder, "suite.txt")
    path.write_text("".join(f"{n}x{n}\n" for n in range(16, 50, 2)))
    return str(path)


def rows(folder: str) -> list[Row]:
    """Every row of issue 27 that can run on a shared machine."""
    suite = _suite(folder)
    big = "3" + "0" * 19
    mem = BUDGET_MB
    return [
        # -- memory
        Row(
            "distance plane 3e9 --method ip",
            [
                "distance",
                "plane",
                "0,0",
                "3000000000,1",
                "--method",
                "ip",
                "--time-limit",
                "2",
            ],
            2,
            mem,
        ),
        Row(
            "distance plane 3e7 --method ip",
            [
                "distance",
                "plane",
                "0,0",
                "30000000,1",
                "--method",
                "ip",
                "--time-limit",
                "2",
            ],
            2,
            mem,
        ),
        Row(
            "distance plane 20 digits --method ip",
            ["distance", "plane", "0,0", f"{big},1", "--method", "ip"],
            2,
            mem,
        ),
        Row(
            "formulation count 5000x5000",
            ["formulation", "count", "5000x5000", "--time-limit", "2"],
            2,
            mem,
        ),
        Row(
            "longest 3000x3000 --induced",
            ["longest", "3000x3000", "--induced", "--time-limit", "2"],
            2,
            mem,
        ),
        Row(
            "longest 5000x5000 --induced",
            ["longest", "5000x5000", "--induced", "--time-limit", "2"],
            2,
            mem,
        ),
        Row(
            "count 6x6 --shards 100000000",
            ["count", "6x6", "--shards", "100000000", "--time-limit", "2"],
            2,
            mem,
        ),
        Row("count 5000x5000", ["count", "5000x5000", "--time-limit", "2"], 2, mem),
        Row("reach 5000x5000 a1", ["reach", "5000x5000", "a1"], None, mem),
        Row("map 5000x5000 a1", ["map", "5000x5000", "a1"], None, mem),
        Row(
            "longest 2000x2000 --uncrossed",
            ["longest", "2000x2000", "--uncrossed", "--time-limit", "2"],
            2,
            mem,
        ),
        Row(
            "count 7x7 --open --memory 1500",
            ["count", "7x7", "--open", "--memory", "1500", "--time-limit", "30"],
            30,
            1500,
        ),
        # -- budgets and limits
        Row(
            "sweep 20x20 --pairs --budget 2",
            ["sweep", "20x20", "--pairs", "--budget", "2"],
            2,
        ),
        Row(
            "sweep 14x14 --pairs --budget 2 --jobs 2",
            ["sweep", "14x14", "--pairs", "--budget", "2", "--jobs", "2"],
            2,
        ),
        Row("sweep 1000x1000 --budget 2", ["sweep", "1000x1000", "--budget", "2"], 2),
        Row("sweep 3000x3000 --budget 2", ["sweep", "3000x3000", "--budget", "2"], 2),
        Row(
            "sweep 100x100 --budget 2 --jobs 2",
            ["sweep", "100x100", "--budget", "2", "--jobs", "2"],
            2,
        ),
        Row(
            "formulation count 300x300",
            ["formulation", "count", "300x300", "--time-limit", "2"],
            2,
        ),
        Row(
            "formulation count 1000x1000",
            ["formulation", "count", "1000x1000", "--time-limit", "2"],
            2,
        ),
        Row(
            "formulation count 100x100",
            ["formulation", "count", "100x100", "--time-limit", "2"],
            2,
        ),
        Row(
            "count 1000x1000 --method frontier",
            ["count", "1000x1000", "--method", "frontier", "--time-limit", "2"],
            2,
        ),
        Row(
            "longest 1000x1000 --uncrossed",
            ["longest", "1000x1000", "--uncrossed", "--time-limit", "2"],
            2,
        ),
        Row(
            "formulation collect 5000x5000",
            ["formulation", "collect", "5000x5000", "a1", "b3", "--time-limit", "2"],
            2,
        ),
        Row(
            "map 1x25000000 --piece 0,1 --time-limit 2",
            ["map", "1x25000000", "0,0", "--piece", "0,1", "--time-limit", "2"],
            2,
        ),
        # -- engines that never end
        Row(
            "tour 8x8 tiles a1-h8 --time-limit 2",
            [
                "tour",
                "8x8",
                "--method",
                "tiles",
                "--open",
                "--start",
                "a1",
                "--end",
                "h8",
                "--time-limit",
                "2",
            ],
            2,
        ),
        Row(
            "tour 8x8 tiles a1-h8 (default limit)",
            [
                "tour",
                "8x8",
                "--method",
                "tiles",
                "--open",
                "--start",
                "a1",
                "--end",
                "h8",
            ],
            None,
        ),
        Row(
            "longest 6x6 --uncrossed --method all --time-limit 2",
            ["longest", "6x6", "--uncrossed", "--method", "all", "--time-limit", "2"],
            6,  # three runs (search, cpsat with each crossing form), 2 s each
        ),
        # -- interruptions
        Row(
            "^C group: sweep 12x12 --pairs",
            ["sweep", "12x12", "--pairs"],
            interrupt="group",
        ),
        Row(
            "^C main: sweep 12x12 --pairs --jobs 2",
            ["sweep", "12x12", "--pairs", "--jobs", "2"],
            interrupt="main",
        ),
        Row(
            "^C group: study",
            ["study", suite, "--method", "cpsat", "--time-limit", "3"],
            interrupt="group",
        ),
        Row(
            "^C main: study --scheduler local",
            [
                "study",
                suite,
                "--method",
                "cpsat",
                "--time-limit",
                "3",
                "--scheduler",
                "local",
                "--jobs",
                "2",
            ],
            interrupt="main",
            after=8.0,
        ),
        Row(
            "^C group: count 6x6 --shards 16",
            ["count", "6x6", "--shards", "16", "--time-limit", "none"],
            interrupt="group",
            after=2.0,
        ),
        Row(
            "^C main: count 6x6 --shards 16 --jobs 2",
            ["count", "6x6", "--shards", "16", "--jobs", "2", "--time-limit", "none"],
            interrupt="main",
        ),
        Row(
            "^C group: formulation count 6x6 --open",
            ["formulation", "count", "6x6", "--open", "--time-limit", "none"],
            interrupt="group",
        ),
        # -- tracebacks
        *[
            Row(f"{cmd[0]} --scheduler {address}", [*cmd, "--scheduler", address])
            for cmd in (
                ["study", suite],
                ["sweep", "5x5"],
                ["count", "6x6", "--shards", "4"],
            )
            for address in (
                "garbage",
                "tcp://",
                "tcp://host:notaport",
                "http://127.0.0.1:1",
            )
        ],
    ]


def _cap() -> None:
    cap = CAP_MB * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    # A shell that starts this in the background without job control ignores
    # SIGINT, and the children would inherit that: Ctrl-C as a terminal sends it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_row(tool: list[str], row: Row) -> list[object]:
    """Run one row; its table line."""
    began = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(
            [*tool, *row.argv],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            preexec_fn=_cap,
            start_new_session=True,
        )
        signalled: float | None = None
        killed = False
        deadline = began + WALL
        status = usage = None
        while True:
            pid, status_, usage_ = os.wait4(child.pid, os.WNOHANG)
            if pid:
                status, usage = status_, usage_
                break
            now = time.perf_counter()
            if row.interrupt and signalled is None and now - began >= row.after:
                if row.interrupt == "group":
                    os.killpg(child.pid, signal.SIGINT)
                else:
                    os.kill(child.pid, signal.SIGINT)
                signalled = now
            if now >= deadline:
                killed = True
                os.killpg(child.pid, signal.SIGKILL)
                _, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.02)
        wall = time.perf_counter() - began
        with contextlib.suppress(ProcessLookupError):  # stray workers
            os.killpg(child.pid, signal.SIGKILL)
        err.seek(0)
        out.seek(0)
        lines = err.read().decode(errors="replace").strip().splitlines()
        printed = bool(out.read().strip())
        traceback = any(line.startswith("Traceback") for line in lines)
    code = "killed" if killed else os.waitstatus_to_exitcode(status)
    peak = usage.ru_maxrss / 1024 if usage is not None else 0.0
    last = (lines[-1] if lines else "")[:70]
    verdict = _verdict(row, wall, peak, code, traceback, printed, signalled, began)
    stop = f"{wall - (signalled - began):.1f}" if signalled is not None else ""
    return [
        row.name,
        f"{wall:.1f}",
        stop,
        f"{peak:.0f}",
        code,
        "yes" if printed else "",
        ("TB " if traceback else "") + last,
        verdict,
    ]


def _verdict(
    row: Row,
    wall: float,
    peak: float,
    code: object,
    traceback: bool,
    printed: bool,
    signalled: float | None,
    began: float,
) -> str:
    if code == "killed":
        return "RUNS ON"
    if traceback:
        return "TRACEBACK"
    if row.interrupt:
        if signalled is None:
            return "ended first"
        ok = code == 130 and wall - (signalled - began) <= 2.0 and printed
        return "ok" if ok else "LOST" if not printed else "SLOW/CODE"
    if row.memory is not None and peak > row.memory:
        return "OVER MEMORY"
    if row.limit is not None and wall > row.limit + GRACE + STARTUP:
        return "OVER TIME"
    return "ok"


STARTUP = 1.0
"""Seconds of start-up (imports) allowed on top of the limit + 1 s."""


def main(argv: list[str] | None = None) -> int:
    """Run the rows; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", metavar="TEXT", help="rows whose name has TEXT (a comma list)"
    )
    parser.add_argument("--tool", metavar="CMD", help="the cpknight command to run")
    args = parser.parse_args(argv)
    tool = shlex.split(args.tool) if args.tool else [sys.executable, "-m", "cpknight"]
    table: list[list[object]] = []
    with tempfile.TemporaryDirectory() as folder:
        for row in rows(folder):
            if args.only and not any(t in row.name for t in args.only.split(",")):
                continue
            line = run_row(tool, row)
            print(" | ".join(str(x) for x in line), flush=True)
            table.append(line)
    head = ["row", "wall s", "stop s", "peak MB", "exit", "out", "stderr", "verdict"]
    print(table_text(head, table))
    return 0 if all(line[-1] == "ok" for line in table) else 1


if __name__ == "__main__":
    raise SystemExit(main())
