"""The records page's rows, rerun: each count by its command, with its figures.

Every row is one ``cpknight count`` command line, run as a child process with
``--json``: the value it prints is checked against the published value (its
source named) or, for a count nobody has published, against a second route
of a different design, the DP over subsets of ``tests/conftest.py`` (Held and
Karp's, counting; numpy, sharing no code with cpknight) up to 24 cells, and
past them the inclusion-exclusion of ``benchmarks/torus_counts.py``. The
figures are the child's: wall time, peak memory (its ``ru_maxrss``), the disk
its states took and the live states at the frontier's peak (of each half when
met in the middle). Each count is then checked against the board's symmetries
(:mod:`cpknight.counting.symmetry`: the tours each symmetry fixes, counted by
a search over orbits of moves, must make Burnside's sum divide by the number
of symmetries) and given up to symmetry. A count that ``cpknight count``
refuses (the open 2x4x4 box: too many states for this machine's disk) is run
by ``benchmarks/torus_counts.py``'s IE instead, and checked against the
count modulo 65,521 by a second program (``layers16``), where no exact
second count fits in memory.

Run: ``python benchmarks/records.py`` (the rows under a few minutes),
``--row NAME`` (repeatable) for one, ``--list`` for the rows, ``--long`` to
add the rows of an hour or more (8x8 closed: 24 minutes with 16 GB;
``--checkpoints DIR`` keeps their states on disk, resumable: run the same
command again after a stop). ``--markdown`` prints the table as the records
page (``docs/records.md``) holds it. Run nothing else beside it: the two
cores are shared, and the seconds are only as good as the machine was quiet.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the second route lives beside the tests

from cpknight.board import Board  # noqa: E402
from cpknight.counting.symmetry import compiled_fits, tour_classes  # noqa: E402
from cpknight.graph.symmetry import symmetry_group  # noqa: E402
from cpknight.pieces import KNIGHT, move_graph  # noqa: E402
from tests.conftest import brute_neighbours, subset_count  # noqa: E402


def by_subsets(
    shape: tuple[int, ...], closed: bool, *, wrap: bool
) -> Callable[[], int]:
    """The second route for a board of up to 24 cells: undirected tours.

    Its table holds 2^cells x cells counts: 3.2 GB for 24 cells.
    """

    def count() -> int:
        board = Board(shape, topology="torus" if wrap else "bounded")
        return subset_count(brute_neighbours(board, (1, 2)), closed=closed)

    return count


def by_inclusion_exclusion(
    shape: tuple[int, ...], closed: bool, *, wrap: bool
) -> Callable[[], int]:
    """The second route past 24 cells: ``benchmarks/torus_counts.py``'s IE.

    Inclusion-exclusion over walks (numba, memory O(cells)), sharing nothing
    with cpknight but its compiled loops' host: 2^(cells - 1) sets closed,
    2^cells open (the 2x4x4 box closed: about 45 minutes on 2 cores).
    """

    def count() -> int:
        script = _torus_counts()
        nbrs = script.neighbours(shape, "torus" if wrap else "bounded")
        value = script.ie_closed(nbrs) if closed else script.ie_open(nbrs)
        assert isinstance(value, int)
        return value

    return count


def by_layers16(
    shape: tuple[int, ...], closed: bool, *, wrap: bool = False
) -> Callable[[], int]:
    """A second route where no exact one fits: the count modulo 65,521.

    ``benchmarks/torus_counts.py``'s ``layers16``: Held and Karp's DP a layer
    at a time in uint16, modulo the prime 65,521, from one start of each
    orbit of the board's symmetries, or on a torus from one cell times the
    cells (its translations checked automorphisms first): the open 2x4x4
    box, 29 minutes and 18 GB on 2 cores; the 4x8 torus, both counts in 7
    minutes and 18 GB. The first route's exact count must leave its residue.
    """

    def count() -> int:
        script = _torus_counts()
        topology = "torus" if wrap else "bounded"
        nbrs = script.neighbours(shape, topology)
        if wrap and not script.translation_invariant(shape, nbrs):
            raise AssertionError("the torus graph is not translation invariant")
        closed_q, open_q = script.layers16_counts(
            nbrs,
            shape,
            topology,
            transitive=wrap,
            want_open=not closed,
            want_closed=closed,
        )
        value = closed_q if closed else open_q
        assert isinstance(value, int)
        return value

    return count


def _torus_counts() -> Any:
    """``benchmarks/torus_counts.py``, imported as a module."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "torus_counts", ROOT / "benchmarks" / "torus_counts.py"
    )
    assert spec is not None
    assert spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


@dataclass(frozen=True)
class Row:
    """One record: the command, the value expected and where it comes from."""

    name: str
    quantity: str
    argv: tuple[str, ...]
    source: str
    published: int | None = None
    """The undirected count published (``source``), when there is one."""
    second: Callable[[], int] | None = None
    """An independent count of the undirected tours, for a new value."""
    long: bool = False
    board: Board | None = None
    """The board, for the count up to symmetry (None: not checked)."""
    closed: bool = True
    script: bool = False
    """``argv`` is ``benchmarks/torus_counts.py``'s (a count ``cpknight count``
    refuses), not cpknight's: it prints a JSON line with the value."""
    modulus: int | None = None
    """``second`` gives the count modulo this, not the count."""


def torus(shape: tuple[int, int], closed: bool) -> Row:
    """A row for the ``shape`` torus: new, proved by the DP over subsets."""
    spec = f"{shape[0]}x{shape[1]}"
    kind = "closed" if closed else "open"
    return Row(
        f"torus-{spec}-{kind}",
        f"{kind} knight's tours of the {spec} torus (undirected)",
        ("count", spec, "--torus", "--method", "frontier")
        + (() if closed else ("--open",)),
        "new: no published count found; two routes agree",
        second=by_subsets(shape, closed, wrap=True),
        board=Board(shape, topology="torus"),
        closed=closed,
    )


def box(shape: tuple[int, int, int], closed: bool) -> Row:
    """A row for the 3-D ``shape`` box: new, proved by the DP over subsets."""
    spec = "x".join(map(str, shape))
    kind = "closed" if closed else "open"
    return Row(
        f"box-{spec}-{kind}",
        f"{kind} knight's tours of the {spec} box (undirected)",
        ("count", spec, "--method", "frontier") + (() if closed else ("--open",)),
        "new: no published count found; two routes agree",
        second=by_subsets(shape, closed, wrap=False),
        board=Board(shape),
        closed=closed,
    )


Q16 = 65521
"""The prime ``layers16`` counts modulo (``benchmarks/torus_counts.py``'s ``Q16``)."""


def by_script(shape: tuple[int, ...], closed: bool, *, wrap: bool) -> Row:
    """A long row past the tool: ``torus_counts.py``'s IE, checked mod Q16.

    For the counts ``cpknight count`` refuses and no exact second program
    fits: the IE's exact count must leave ``layers16``'s residue.
    """
    spec = "x".join(map(str, shape))
    kind = "closed" if closed else "open"
    where = "torus" if wrap else "box"
    topology = "torus" if wrap else "bounded"
    return Row(
        f"{where}-{spec}-{kind}",
        f"{kind} knight's tours of the {spec} {where} (undirected)",
        (spec, "--topology", topology, "--kernel", "ie")
        + (() if closed else ("--open-only",)),
        "new: no published count found; two routes agree",
        second=by_layers16(shape, closed, wrap=wrap),
        long=True,
        board=Board(shape, topology="torus" if wrap else "bounded"),
        closed=closed,
        script=True,
        modulus=Q16,
    )


ROWS = [
    Row(
        "6x6-closed",
        "closed knight's tours of 6x6 (undirected)",
        ("count", "6x6"),
        "OEIS A001230(6)",
        published=9862,
        board=Board((6, 6)),
    ),
    Row(
        "6x6-open",
        "open knight's tours of 6x6 (undirected)",
        ("count", "6x6", "--open"),
        "OEIS A165134(6) (6,637,920 directed)",
        published=6637920 // 2,
        board=Board((6, 6)),
        closed=False,
    ),
    Row(
        "7x7-open",
        "open knight's tours of 7x7 (undirected)",
        ("count", "7x7", "--open", "--memory", "8000"),
        "Stertenbrink 2013; OEIS A165134(7) (165,575,218,320 directed)",
        published=165575218320 // 2,
        board=Board((7, 7)),
        closed=False,
    ),
    torus((3, 6), True),
    torus((3, 6), False),
    torus((6, 3), True),
    torus((4, 5), True),
    torus((4, 5), False),
    torus((5, 4), True),
    box((2, 3, 4), True),
    box((2, 3, 4), False),
    Row(
        "box-2x4x4-closed",
        "closed knight's tours of the 2x4x4 box (undirected)",
        ("count", "2x4x4", "--method", "frontier"),
        "new: no published count found; two routes agree",
        second=by_inclusion_exclusion((2, 4, 4), True, wrap=False),
        long=True,
        board=Board((2, 4, 4)),
    ),
    by_script((2, 4, 4), False, wrap=False),
    by_script((4, 8), True, wrap=True),
    by_script((4, 8), False, wrap=True),
    Row(
        "8x8-closed",
        "closed knight's tours of 8x8 (undirected)",
        ("count", "8x8", "--memory", "16000"),
        "McKay 1997; OEIS A001230(8)",
        published=13267364410532,
        long=True,
        board=Board((8, 8)),
    ),
]


def by_symmetry(board: Board, total: int, closed: bool) -> int:
    """The tours up to symmetry (Burnside), or -1 when the sum does not divide."""
    graph = move_graph(board, KNIGHT)
    found = tour_classes(graph, total, closed=closed, compiled=compiled_fits(None))
    return -1 if found.classes is None else found.classes


def apart(count: Callable[[], int]) -> int:
    """``count()`` in a forked process, so that this one stays small.

    A child started later inherits, through ``vfork``, this process's peak
    memory as its own ``ru_maxrss``: the next row's figure would be the DP's.
    """
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    worker = context.Process(target=lambda: send.send(count()))
    worker.start()
    value = receive.recv()
    worker.join()
    assert isinstance(value, int)
    return value


def run_row(row: Row, checkpoints: Path | None) -> dict[str, object]:
    """Run one row's command; its value, figures and verdict."""
    if row.script:
        argv = [sys.executable, str(ROOT / "benchmarks" / "torus_counts.py")]
        argv += row.argv
        if checkpoints is not None:
            argv += ["--checkpoint", str(checkpoints / row.name)]
    else:
        argv = [sys.executable, "-m", "cpknight", *row.argv, "--json"]
        argv += ["--time-limit", "none"]
        if checkpoints is not None and row.long:
            argv += ["--resume", str(checkpoints / row.name)]
    began = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    output = child.stdout.read()
    child.stdout.close()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - began
    if child.returncode != 0:
        return {"row": row.name, "verdict": f"exit {child.returncode}"}
    answer = json.loads(output.strip().splitlines()[-1])
    value = int(answer["value" if row.script else "undirected"])
    frontier = answer.get("frontier") or {}
    peak = frontier.get("peak", 0)
    second_peak = max(frontier.get("second") or [0])
    if row.published is not None:
        check, verdict = row.published, "agrees with the published value"
    else:
        assert row.second is not None
        began_second = time.perf_counter()
        check = apart(row.second)
        took = time.perf_counter() - began_second
        verdict = f"agrees with the DP over subsets ({took:.1f} s)"
        if row.modulus is not None:
            verdict = f"leaves the DP's residue mod {row.modulus:,} ({took:.1f} s)"
    mine = value if row.modulus is None else value % row.modulus
    if mine != check:
        verdict = f"DISAGREES: {mine} against {check}"
    classes = "not checked"
    if row.board is not None:
        began_classes = time.perf_counter()
        board, closed = row.board, row.closed
        found = apart(lambda: by_symmetry(board, value, closed))
        took = time.perf_counter() - began_classes
        if found < 0:
            verdict += f"; FAILS the symmetry check ({took:.1f} s)"
            classes = "the sum does not divide"
        else:
            classes = (
                f"{found:,} ({len(symmetry_group(board))} symmetries, {took:.1f} s)"
            )
    return {
        "row": row.name,
        "quantity": row.quantity,
        "value": value,
        "classes": classes,
        "command": ("python benchmarks/torus_counts.py " if row.script else "cpknight ")
        + " ".join(row.argv),
        "seconds": round(seconds, 1),
        "peak_mb": round(usage.ru_maxrss / 1024),
        "disk_mb": round(float(frontier.get("disk_mb", 0.0))),
        "live_states": f"{peak:,}" + (f" / {second_peak:,}" if second_peak else ""),
        "source": row.source,
        "verdict": verdict,
    }


def markdown(results: list[dict[str, object]]) -> str:
    """The rows as the records page's table."""
    head = "| quantity | value | command | time | peak memory | disk | live states "
    head += "at the peak (the run / its second half) | up to symmetry | source "
    head += "| check |"
    lines = [
        head,
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for r in results:
        if "value" not in r:
            lines.append(f"| {r['row']} | | | | | | | | | {r['verdict']} |")
            continue
        value = r["value"]
        assert isinstance(value, int)
        lines.append(
            f"| {r['quantity']} | {value:,} | `{r['command']}` | {r['seconds']} s "
            f"| {r['peak_mb']} MB | {r['disk_mb']} MB | {r['live_states']} "
            f"| {r['classes']} | {r['source']} | {r['verdict']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the rows asked; print them; exit 1 when a value disagrees."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--row", action="append", help="a row by name (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the rows")
    parser.add_argument("--long", action="store_true", help="add the long rows")
    parser.add_argument("--checkpoints", type=Path, help="the long rows' states")
    parser.add_argument("--markdown", action="store_true", help="the page's table")
    args = parser.parse_args(argv)
    if args.list:
        for row in ROWS:
            print(f"{row.name:<20} {'long  ' if row.long else ''}{row.quantity}")
        return 0
    known = {row.name: row for row in ROWS}
    unknown = [name for name in args.row or [] if name not in known]
    if unknown:
        parser.error(f"no row {', '.join(unknown)} (--list lists them)")
    rows = (
        [known[name] for name in args.row]
        if args.row
        else [row for row in ROWS if args.long or not row.long]
    )
    python = platform.python_version()
    print(f"# {platform.node()}: {os.cpu_count()} cores, Python {python}")
    results = []
    for row in rows:
        result = run_row(row, args.checkpoints)
        results.append(result)
        if not args.markdown:
            print(json.dumps(result), flush=True)
    if args.markdown:
        print(markdown(results))
    return (
        1
        if any(
            "DISAGREES" in str(r["verdict"]) or "exit" in str(r["verdict"])
            for r in results
        )
        else 0
    )


if __name__ == "__main__":
    sys.exit(main())
