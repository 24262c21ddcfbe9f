r"""Engine studies: a suite of instances through several engines, cross-checked.

A suite file holds one tour instance a line, as the command line spells it: a
board, then flags (``--open``, ``--start CELL``, ``--end CELL``, ``--piece P``,
``--torus``, ``--cylinder``); ``#`` starts a comment. :func:`run_study` runs
every instance through every chosen engine with one time limit, on the runner,
and returns a :class:`Study`: the outcome rows, each found tour checked again
in this process, answers compared across engines (an engine that says "none"
where another's tour passes the checker is wrong), a summary per engine and the
Dolan-More performance profile.

Examples:
    >>> suite = read_suite_text("3x4 --open\n4x4")
    >>> [i.text for i in suite]
    ['3x4 --open', '4x4']
    >>> s = run_study(suite, methods="prune,warnsdorff")
    >>> summary = s.summary()["prune"]
    >>> summary["solved"], summary["proved none"], summary["wrong"]
    (1, 1, 0)
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import shlex
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from cpknight.api import resolve
from cpknight.api.common import method_names, solve_options, task_progress
from cpknight.api.tours import tour_task
from cpknight.board import Board, Cell, Topology
from cpknight.errors import CpknightError, InvalidInputError
from cpknight.pieces import Leaper
from cpknight.runner import RunInterrupted, RunOptions, run_tasks
from cpknight.runtime.progress import ProgressLike, TaskProgress, progress_bar
from cpknight.solving import SolveOptions
from cpknight.study.common import row_fault
from cpknight.tours import ENGINES as TOUR_METHODS

__all__ = [
    "PROFILE_FLOOR",
    "Study",
    "SuiteInstance",
    "assemble_study",
    "read_suite",
    "read_suite_text",
    "run_study",
]

PROFILE_FLOOR = 1e-3
"""Times below a millisecond count as a millisecond in the profile's ratios."""

CSV_FIELDS = [
    "instance",
    "engine",
    "status",
    "method",
    "seconds",
    "wrong",
    "attempts",
    "backtracks",
    "branches",
    "conflicts",
    "reason",
]


@dataclass(frozen=True)
class SuiteInstance:
    """One line of a suite: a tour question.

    Attributes:
        text: the line as written (comments and extra spaces dropped).
        board: the board.
        piece: the leaper.
        closed: closed (the default) or open (``--open``).
        start: the first cell, if fixed.
        end: the last cell, if fixed.
    """

    text: str
    board: Board
    piece: Leaper
    closed: bool
    start: Cell | None = None
    end: Cell | None = None


class _LineParser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        raise InvalidInputError(message)


def _line_parser() -> argparse.ArgumentParser:
    parser = _LineParser(prog="suite line", add_help=False)
    parser.add_argument("board")
    parser.add_argument("--open", action="store_true")
    parser.add_argument("--closed", action="store_true")
    parser.add_argument("--start")
    parser.add_argument("--end")
    parser.add_argument("--piece", default="knight")
    wrap = parser.add_mutually_exclusive_group()
    wrap.add_argument("--torus", action="store_true")
    wrap.add_argument("--cylinder", action="store_true")
    return parser


def read_suite_text(text: str, *, where: str = "suite") -> list[SuiteInstance]:
    """Read a suite: one instance a line (board, then flags); ``#`` comments.

    Raises:
        InvalidInputError: a line that does not read as an instance; the
            message names the line and echoes it.

    Examples:
        >>> read_suite_text("8x8 --open --start a1  # a corner")[0].start
        (0, 0)
        >>> read_suite_text("8x8 --diagonal")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: suite line 1 '8x8 --diagonal': \
unrecognized arguments: --diagonal
    """
    parser = _line_parser()
    out: list[SuiteInstance] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            args = parser.parse_args(shlex.split(line))
            topology: Topology = (
                "torus" if args.torus else "cylinder" if args.cylinder else "bounded"
            )
            board, piece = resolve(args.board, args.piece, topology=topology)
            board.require_finite("a tour")
            start = None if args.start is None else board.parse_cell(args.start)
            end = None if args.end is None else board.parse_cell(args.end)
            closed = not args.open
            if closed and end is not None:
                raise InvalidInputError("a closed tour has no separate end cell")
        except (CpknightError, ValueError) as exc:
            raise InvalidInputError(f"{where} line {number} {line!r}: {exc}") from None
        out.append(
            SuiteInstance(" ".join(line.split()), board, piece, closed, start, end)
        )
    if not out:
        raise InvalidInputError(f"{where} holds no instances")
    texts = [i.text for i in out]
    if len(set(texts)) != len(texts):
        twice = next(t for k, t in enumerate(texts) if t in texts[:k])
        raise InvalidInputError(f"{where} lists {twice!r} twice")
    return out


def read_suite(path: str | Path) -> list[SuiteInstance]:
    """Read a suite file (see :func:`read_suite_text`).

    Raises:
        InvalidInputError: the file cannot be read, or a line is not an instance.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise InvalidInputError(f"cannot read suite '{path}': {reason}") from None
    return read_suite_text(text, where=f"suite '{path}'")


def suite_names() -> list[str]:
    """The study suites that ship in the package (``cpknight/suites/NAME.txt``).

    Examples:
        >>> "small" in suite_names()
        True
    """
    folder = resources.files("cpknight") / "suites"
    return sorted(
        entry.name.removesuffix(".txt")
        for entry in folder.iterdir()
        if entry.name.endswith(".txt")
    )


def read_named_suite(name: str) -> list[SuiteInstance]:
    """Read a suite that ships in the package, by name (:func:`suite_names`).

    Raises:
        InvalidInputError: no suite of that name ships.

    Examples:
        >>> len(read_named_suite("small")) > 100
        True
    """
    names = suite_names()
    if name not in names:
        raise InvalidInputError(
            f"expected a suite name in {', '.join(names)}: {name!r}"
        )
    text = (resources.files("cpknight") / "suites" / f"{name}.txt").read_text(
        encoding="utf-8"
    )
    return read_suite_text(text, where=f"suite {name!r}")


@dataclass(frozen=True, eq=False)
class Study:
    """A suite through several engines: outcome rows, checked and compared.

    Attributes:
        instances: the suite.
        engines: the engines, in the order asked.
        time_limit: seconds per instance and engine (``None``: no limit).
        rows: ``rows[i][k]``: the outcome row (:meth:`Outcome.as_dict`, cells
            dropped) of instance ``i`` by engine ``k``, with ``instance``,
            ``engine`` and ``wrong`` (``None``, or why the answer is wrong).
    """

    instances: tuple[SuiteInstance, ...]
    engines: tuple[str, ...]
    time_limit: float | None
    rows: tuple[tuple[dict[str, Any], ...], ...]

    def flat(self) -> list[dict[str, Any]]:
        """Every row, instance by instance, engines in order."""
        return [row for per in self.rows for row in per]

    def wrong(self) -> list[dict[str, Any]]:
        """The rows whose answer is wrong (must be none)."""
        return [row for row in self.flat() if row["wrong"]]

    def summary(self) -> dict[str, dict[str, Any]]:
        """Per engine: solved, proved none, limit, refused, wrong, total seconds."""
        out: dict[str, dict[str, Any]] = {}
        for k, engine in enumerate(self.engines):
            tally = {
                "solved": 0,
                "proved none": 0,
                "limit": 0,
                "refused": 0,
                "wrong": 0,
            }
            seconds = 0.0
            for per in self.rows:
                row = per[k]
                seconds += float(row.get("seconds", 0.0))
                if row["wrong"]:
                    tally["wrong"] += 1
                elif row["status"] == "found":
                    tally["solved"] += 1
                elif row["status"] == "infeasible":
                    tally["proved none"] += 1
                elif row["status"] == "refused":
                    tally["refused"] += 1
                else:
                    tally["limit"] += 1
            out[engine] = {**tally, "seconds": round(seconds, 3)}
        return out

    def answer_times(self) -> list[list[float]]:
        """``times[i][k]``: the seconds engine ``k`` took to answer instance ``i``.

        An answer is a checked tour or a proof of none that no tour contradicts;
        anything else (limit, refused, wrong) is ``inf``.
        """
        times = []
        for per in self.rows:
            line = []
            for row in per:
                answered = row["status"] in ("found", "infeasible") and not row["wrong"]
                seconds = float(row.get("seconds", 0.0))
                line.append(seconds if answered else math.inf)
            times.append(line)
        return times

    def profile(self) -> dict[str, list[tuple[float, float]]]:
        """The Dolan-More performance profile, per engine, as steps.

        For instance ``i`` and engine ``k``, ``r = t[i][k] / min_k t[i][k]``
        (times floored at :data:`PROFILE_FLOOR`); ``rho_k(tau)`` is the fraction
        of all instances with ``r <= tau``. Each engine's list holds the points
        ``(tau, rho_k(tau))`` where its profile steps up, from ``tau = 1``.

        References:
            E. D. Dolan and J. J. More, "Benchmarking optimization software
            with performance profiles", Mathematical Programming 91(2), 2002,
            201-213.
        """
        times = self.answer_times()
        total = len(times)
        ratios: list[list[float]] = [[] for _ in self.engines]
        for line in times:
            best = min(line)
            if math.isinf(best):
                continue
            best = max(best, PROFILE_FLOOR)
            for k, t in enumerate(line):
                if not math.isinf(t):
                    ratios[k].append(max(t, PROFILE_FLOOR) / best)
        out: dict[str, list[tuple[float, float]]] = {}
        for k, engine in enumerate(self.engines):
            steps: list[tuple[float, float]] = [(1.0, 0.0)]
            for count, ratio in enumerate(sorted(ratios[k]), start=1):
                if steps and steps[-1][0] == ratio:
                    steps[-1] = (ratio, count / total)
                else:
                    steps.append((ratio, count / total))
            out[engine] = steps
        return out

    def as_dict(self) -> dict[str, Any]:
        """``{"question", "engines", "time_limit", "summary", "rows"}``."""
        return {
            "question": "study",
            "engines": list(self.engines),
            "time_limit": self.time_limit,
            "summary": self.summary(),
            "rows": self.flat(),
        }

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, a row per instance and engine (``--csv``'s columns)."""
        from cpknight.text.frames import study_frame

        return study_frame(self)

    def __str__(self) -> str:
        from cpknight.text.display import study_str

        return study_str(self)

    def _repr_html_(self) -> str:
        from cpknight.text.display import study_html

        return study_html(self)

    def _repr_svg_(self) -> str:
        from cpknight.draw.study import profile_svg

        return profile_svg(self)

    def __repr__(self) -> str:
        wrong = len(self.wrong())
        return (
            f"<Study {len(self.instances)} instances x {len(self.engines)} engines"
            f" ({', '.join(self.engines)}), {wrong} wrong>"
        )

    def csv_text(self) -> str:
        """One CSV line per instance and engine (see :data:`CSV_FIELDS`)."""
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, CSV_FIELDS, lineterminator="\n")
        writer.writeheader()
        for row in self.flat():
            effort = row.get("effort", {})
            writer.writerow(
                {
                    "instance": row["instance"],
                    "engine": row["engine"],
                    "status": row["status"],
                    "method": row.get("method"),
                    "seconds": row.get("seconds"),
                    "wrong": row["wrong"] or "",
                    **{k: effort.get(k, "") for k in CSV_FIELDS[6:10]},
                    "reason": row.get("reason") or "",
                }
            )
        return buffer.getvalue()


def run_study(
    suite: Sequence[SuiteInstance | str] | str | Path,
    *,
    methods: str | Sequence[str] = "cpsat,prune,warnsdorff",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    run: RunOptions | None = None,
    progress: ProgressLike | TaskProgress = None,
    engines: str | Sequence[str] | None = None,
) -> Study:
    """Every instance of a suite through every chosen engine, on the runner.

    Args:
        suite: the instances (:class:`SuiteInstance` or suite lines such as
            ``'5x5 --open'``), or a suite file to read.
        methods: tour engines (a list, a comma string or ``'all'``).
        options: the time limit applies to each instance and engine.
        time_limit: seconds per instance and engine (replaces the one in
            ``options``).
        run: how to run (local pool or Dask, results file, resume).
        progress: ``True`` for a progress bar (``tqdm.auto``), or a callback
            called with a :class:`~cpknight.runtime.progress.Progress` over the runs
            (the old ``progress(done, total)`` still works, deprecated).
        engines: the old name of ``methods`` (deprecated).

    Returns:
        The :class:`Study`. Its rows come back in suite order whatever ran
        them; every found tour is checked again here.

    Raises:
        InvalidInputError: a bad suite, engine list or run option.
        RunInterrupted: Ctrl-C; the rows done are in the results file.

    Examples:
        >>> s = run_study(["5x5 --open --start a1"], methods=["prune", "backtrack"])
        >>> [row["status"] for row in s.flat()], s.wrong()
        (['found', 'found'], [])
        >>> run_study([5])
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: expected suite instances or suite \
lines such as '5x5 --open': 5
    """
    if engines is not None:
        warnings.warn(
            "run_study(engines=...) is deprecated: use methods=",
            DeprecationWarning,
            stacklevel=2,
        )
        methods = engines
    instances = _suite_instances(suite)
    names = method_names(TOUR_METHODS, methods)
    opts = solve_options(options, time_limit)
    tasks = [
        tour_task(i.board, i.piece, i.closed, i.start, i.end, name, opts)
        for i in instances
        for name in names
    ]
    try:
        with progress_bar(progress, desc="study", unit="runs") as tick:
            flat = run_tasks(tasks, run, progress=task_progress(tick, "runs"))
    except RunInterrupted as exc:
        exc.partial = _finished_study(instances, names, opts.time_limit, exc.rows)
        raise
    return assemble_study(instances, names, opts.time_limit, flat)


def _finished_study(
    instances: Sequence[SuiteInstance],
    names: Sequence[str],
    time_limit: float | None,
    rows: Sequence[dict[str, Any] | None],
) -> Study:
    """The study of the instances every engine finished (Ctrl-C stopped the rest)."""
    k = len(names)
    kept: list[SuiteInstance] = []
    flat: list[dict[str, Any]] = []
    for n, instance in enumerate(instances):
        group = rows[n * k : (n + 1) * k]
        if len(group) == k and all(row is not None for row in group):
            kept.append(instance)
            flat += [row for row in group if row is not None]
    return assemble_study(kept, names, time_limit, flat)


def _suite_instances(
    suite: Sequence[SuiteInstance | str] | str | Path,
) -> list[SuiteInstance]:
    """The instances of a suite: given, read from suite lines, or from a file."""
    if isinstance(suite, str | Path):
        return read_suite(suite)
    instances: list[SuiteInstance] = []
    for item in suite:
        if isinstance(item, SuiteInstance):
            instances.append(item)
        elif isinstance(item, str):
            instances += read_suite_text(item)
        else:
            raise InvalidInputError(
                "expected suite instances or suite lines such as "
                f"'5x5 --open': {item!r}"
            )
    return instances


def assemble_study(
    instances: Sequence[SuiteInstance],
    engines: Sequence[str],
    time_limit: float | None,
    flat: Sequence[dict[str, Any]],
) -> Study:
    """A :class:`Study` from its rows (instance by instance, engines in order).

    Each found tour is checked here again (a row that fails is wrong); then an
    engine that proved none where another's tour passed is wrong too.

    Examples:
        >>> suite = read_suite_text("3x4 --open --start a1")
        >>> rows = [{"status": "infeasible"}, {"status": "found", "cells": [[0, 0]]}]
        >>> [r["wrong"] is not None for r in
        ...  assemble_study(suite, ["a", "b"], None, rows).flat()]
        [False, True]
    """
    if len(flat) != len(instances) * len(engines):
        raise ValueError("expected one row per instance and engine")
    rows: list[tuple[dict[str, Any], ...]] = []
    for n, instance in enumerate(instances):
        per = []
        for k, name in enumerate(engines):
            row = dict(flat[n * len(engines) + k])
            row.pop("key", None)
            fault = row_fault(
                instance.board,
                instance.piece,
                row,
                closed=instance.closed,
                start=instance.start,
                end=instance.end,
            )
            row.pop("cells", None)
            row = {"instance": instance.text, "engine": name, **row, "wrong": fault}
            per.append(row)
        found = [r for r in per if r["status"] == "found" and not r["wrong"]]
        for row in per:
            if found and row["status"] == "infeasible":
                row["wrong"] = (
                    f"proved none, but {found[0]['engine']} found a tour that "
                    "passes the checker"
                )
        rows.append(tuple(per))
    return Study(tuple(instances), tuple(engines), time_limit, tuple(rows))
