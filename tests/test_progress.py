"""One progress shape for every long call, a tqdm bar for ``progress=True``.

Every front door that can run long takes ``progress=``; each callback gets a
:class:`~cpknight.runtime.progress.Progress`, whose numbers are checked here against
what the call did (cells, engines, runs, pairs, shards, the time limit).
The old callback shapes still work, with a deprecation warning.
"""

from __future__ import annotations

import json
import sys
import warnings
from typing import Any

import pytest

from cpknight import (
    TourCount,
    collect,
    compare_distances,
    compare_tours,
    count_tours,
    find_tour,
    knight_distance,
    longest_path,
    sweep,
    sweep_pairs,
)
from cpknight.api import compare_longest, count_tours_sharded, try_collect
from cpknight.cli import main
from cpknight.runtime.progress import Progress, as_callback, progress_bar
from cpknight.solving import Clock
from cpknight.study import read_suite_text, run_study


class Heard:
    """A progress callback that keeps what it hears."""

    def __init__(self) -> None:
        self.seen: list[Progress] = []

    def __call__(self, p: Progress) -> None:
        assert isinstance(p, Progress)
        self.seen.append(p)

    @property
    def done(self) -> list[float]:
        return [p.done for p in self.seen]

    @property
    def units(self) -> set[str]:
        return {p.unit for p in self.seen}


def test_sweep_hears_each_cell() -> None:
    heard = Heard()
    s = sweep("3x4", closed=False, method="prune", progress=heard)
    assert heard.done == list(range(1, len(s.cells) + 1))
    assert {p.total for p in heard.seen} == {12}
    assert heard.units == {"cells"}


def test_the_old_two_argument_callback_still_works_deprecated() -> None:
    seen: list[tuple[int, int | None]] = []
    with pytest.warns(DeprecationWarning, match="progress.done, progress.total"):
        sweep(
            "3x4",
            closed=False,
            method="prune",
            progress=lambda done, total: seen.append((done, total)),
        )
    assert seen == [(k, 12) for k in range(1, 13)]


def test_count_hears_cells_of_the_frontier_and_tours_of_cpsat() -> None:
    heard = Heard()
    n = count_tours("3x8", closed=False, method="frontier", progress=heard)
    assert n.frontier is not None
    assert heard.units == {"cells"}
    assert heard.seen[-1].done == heard.seen[-1].total == n.frontier.steps
    assert all(isinstance(p.value, TourCount) for p in heard.seen)
    heard = Heard()
    n = count_tours("5x5", closed=False, start="a1", method="cpsat", progress=heard)
    assert heard.units <= {"tours"}
    assert all(p.total is None for p in heard.seen)
    assert all(p.done <= n.directed for p in heard.seen)


def test_the_old_count_callback_reads_through_deprecated() -> None:
    seen: list[int] = []

    def old(partial: Any) -> None:  # the TourCount it used to get
        seen.append(partial.directed)

    with pytest.warns(DeprecationWarning, match="progress.value.directed"):
        n = count_tours("3x4", closed=False, method="frontier", progress=old)
    assert seen[-1] == n.directed == 16  # the last word is the count itself


def test_comparisons_hear_each_engine() -> None:
    heard = Heard()
    c = compare_tours("5x5", closed=False, methods="prune,warnsdorff", progress=heard)
    assert heard.units == {"engines"}
    assert heard.seen[0].done == 0
    assert heard.seen[-1].done == heard.seen[-1].total == len(c.rows) == 2
    assert {p.what.split(":")[0] for p in heard.seen if p.what} == {
        "prune",
        "warnsdorff",
    }
    heard = Heard()
    compare_distances("8x8", "a1", "h8", methods="bfs,ip", progress=heard)
    assert heard.seen[-1].done == 2
    heard = Heard()
    compare_longest("4x4", kind="induced", methods="search", progress=heard)
    assert heard.seen[-1].done == 1


def test_single_solves_hear_seconds_of_their_limit() -> None:
    heard = Heard()
    d = knight_distance("8x8", "a1", "h8", method="ip", time_limit=20, progress=heard)
    assert d.distance == 6  # a1 -> h8 on 8x8 (test_bfs' diagram)
    assert heard.units == {"s"}
    assert {p.total for p in heard.seen} == {20.0}
    assert all(0 <= p.done <= 20 for p in heard.seen)
    heard = Heard()
    tour = find_tour("6x6", method="cpsat", time_limit=30, progress=heard)
    assert len(tour) == 36
    assert heard.units == {"s"}
    heard = Heard()
    longest_path("4x4", kind="uncrossed", method="cpsat", time_limit=30, progress=heard)
    assert heard.seen
    assert heard.units == {"s"}
    heard = Heard()
    collect("6x6", "a1", ["f6", "a6"], method="cpsat", time_limit=30, progress=heard)
    assert heard.seen
    heard = Heard()
    try_collect("6x6", "a1", ["f6"], method="cpsat", progress=heard)
    assert {p.total for p in heard.seen} == {None}  # no limit: no total


def test_runner_front_doors_hear_their_tasks() -> None:
    heard = Heard()
    pairs = sweep_pairs("3x4", method="prune", progress=heard)
    solved = len(pairs.pairs) - pairs.certified
    assert heard.units == {"pairs"}
    assert heard.seen[-1].done == heard.seen[-1].total == solved
    heard = Heard()
    study = run_study(
        read_suite_text("4x4\n5x5 --open"), methods="prune", progress=heard
    )
    assert heard.units == {"runs"}
    assert heard.seen[-1].done == len(study.flat()) == 2
    heard = Heard()
    sharded = count_tours_sharded(
        "5x5", closed=False, start="a1", shards=4, progress=heard
    )
    assert heard.units == {"shards"}
    assert heard.seen[-1].total == sharded.shards


def test_progress_true_draws_a_bar_on_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sweep("3x4", closed=False, method="prune", progress=True)
    err = capsys.readouterr().err
    assert "sweep 3x4" in err
    assert "12/12" in err
    with progress_bar(None, desc="x") as tick:
        assert tick is None


def test_a_clock_tells_its_listener_now_and_then() -> None:
    heard: list[tuple[str, int | None]] = []
    clock = Clock(None)
    clock.listen(lambda what, bound: heard.append((what, bound)))
    for _ in range(1000):
        clock.check("searching", bound=3)
    assert 1 <= len(heard) <= 5  # throttled: at most every LISTEN_EVERY s
    assert heard[0] == ("searching", 3)
    clock.listen(None)
    clock.check("after")
    assert heard[-1] != ("after", None)


def test_progress_fields_and_adapter() -> None:
    p = Progress(3, 12, "cells")
    assert p.fraction == 0.25
    assert Progress(2, None, "tours").fraction is None
    assert as_callback(True) is None
    assert as_callback(None) is None
    with pytest.raises(AttributeError):
        _ = p.directed  # type: ignore[attr-defined]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = Heard()
        assert as_callback(new) is new  # the one shape: no warning


@pytest.mark.parametrize(
    "argv",
    [
        ["longest", "4x4", "--uncrossed", "--method", "cpsat"],
        ["compare", "5x5", "--open", "--method", "prune,warnsdorff"],
        ["collect", "6x6", "a1", "f6", "a6"],
        ["distance", "8x8", "a1", "h8", "--method", "ip"],
    ],
    ids=["longest", "compare", "collect", "distance ip"],
)
def test_cli_bar_on_a_terminal_stays_off_stdout(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code = main([*argv, "--time-limit", "30", "--json"])
    out, err = capsys.readouterr()
    assert code == 0
    assert json.loads(out)["schema"] == 1  # stdout is the document alone
    assert argv[0] in err or "engines" in err  # the bar went to stderr


def test_cli_progress_flag_draws_the_bar_without_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["distance", "8x8", "a1", "h8", "--method", "ip", "--progress"])
    out, err = capsys.readouterr()
    assert code == 0
    assert out.startswith("a1 -> h8 on 8x8, knight (1,2): 6 moves")
    assert "distance" in err
    code = main(["distance", "8x8", "a1", "h8", "--method", "ip"])
    assert capsys.readouterr().err == ""  # not a terminal, no --progress: quiet


def test_a_seconds_bar_heard_after_its_limit_still_draws(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # tqdm forgets the total once the count passes it (by half a unit), and
    # the seconds bar's format needs the total: a check 2 s past a 5 s limit
    # once raised a TypeError from inside tqdm.
    with progress_bar(True, desc="longest", unit="s", total=5.0) as tick:
        assert tick is not None
        tick(Progress(7.0, 5.0, "s", "cell 33 of 49"))
    assert "5/5 s, cell 33 of 49" in capsys.readouterr().err
