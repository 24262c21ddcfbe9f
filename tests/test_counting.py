"""Counting as a question: its registry, its ``auto``, its front doors."""

from __future__ import annotations

from collections import Counter

import pytest

from cpknight import Board, Status
from cpknight.api import COUNT_METHODS, count_tours, try_count
from cpknight.api.counting import count_outcome
from cpknight.cli import build_parser
from cpknight.constraints import tour_constraints
from cpknight.counting import ENGINES, ShardedCount
from cpknight.counting.auto import choose_count_method
from cpknight.counting.dense_kernel import BYTES_PER_STATE as DENSE_BYTES
from cpknight.counting.instance import CountInstance
from cpknight.counting.kernels import (
    BYTES_PER_STATE,
    KERNELS,
    check_kernel,
    check_spread_kernel,
    choose_count_kernel,
    kernel_help,
    spread_names,
)
from cpknight.engines import Engine
from cpknight.errors import InvalidInputError
from cpknight.frontier.plan import plan_frontier
from cpknight.pieces import KNIGHT, move_graph
from cpknight.results import FrontierStats, TourCount
from cpknight.solving import Run

CALLS: list[CountInstance] = []


def _counts_seven(instance: CountInstance, run: Run) -> TourCount:
    CALLS.append(instance)
    return TourCount(Status.FOUND, 14, 7, run.elapsed(), method="seven")


def test_the_registry_is_the_doors_one() -> None:
    assert COUNT_METHODS is ENGINES
    assert list(ENGINES) == ["frontier", "subsets", "cpsat"]
    assert {e.question for e in ENGINES.values()} == {"count"}


def test_a_new_engine_is_one_registry_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # The door dispatches through the registry, with no branch per engine.
    seven = Engine("seven", "count", "tests.test_counting:_counts_seven")
    monkeypatch.setitem(ENGINES, "seven", seven)
    CALLS.clear()
    got = count_tours("3x4", closed=False, method="seven", memory_mb=5)
    assert (got.directed, got.method) == (14, "seven")
    assert (CALLS[0].closed, CALLS[0].memory_mb) == (False, 5)


@pytest.mark.parametrize(
    ("spec", "prefixes", "engine", "because"),
    [
        ("6x12", False, "frontier", "14 cells wide"),
        ("10x10", False, "frontier", "22 cells wide: the dense kernel"),
        ("5x5", False, "cpsat", "certificate"),  # odd: no closed tour
        ("6x20", True, "frontier", "prefix"),
    ],
    ids=["strip", "wide", "odd", "prefixes"],
)
def test_auto_names_the_engine_and_why(
    spec: str, prefixes: bool, engine: str, because: str
) -> None:
    instance = CountInstance(Board.parse(spec), KNIGHT, prefixes=prefixes)
    name, reason = choose_count_method(instance)
    assert name == engine
    assert because in reason


def test_auto_leaves_side_constraints_to_cpsat() -> None:
    board = Board.parse("3x10")
    side = tour_constraints(board, KNIGHT, symmetric="rot180")
    instance = CountInstance(board, KNIGHT, constraints=side)
    assert choose_count_method(instance)[0] == "cpsat"
    assert count_tours(board, constraints=side).undirected == 4


def test_frontier_refuses_side_constraints() -> None:
    side = tour_constraints(Board.parse("3x10"), KNIGHT, symmetric="rot180")
    with pytest.raises(InvalidInputError, match="frontier engine does not take"):
        count_tours("3x10", method="frontier", constraints=side)


def test_counts_refuse_visit_numbers() -> None:
    board = Board.parse("5x5")
    side = tour_constraints(board, KNIGHT, via=["a1@1"])
    with pytest.raises(InvalidInputError, match="visit numbers"):
        count_tours(board, closed=False, constraints=side)


def test_try_count_reports_a_stopped_count() -> None:
    done = try_count("3x4", closed=False, time_limit=30)
    assert (done.status, done.reason, done.question) == (Status.FOUND, None, "count")
    stopped = try_count("6x6", method="cpsat", time_limit=0.05)
    assert stopped.status is Status.UNKNOWN
    assert stopped.reason == "partial: time limit reached"
    assert stopped.as_dict()["directed"] is None


def test_count_outcome_says_why_the_frontier_stopped() -> None:
    stats = FrontierStats(5, 4, 2, 7, (1, 7), (0, 1), stopped="budget")
    count = TourCount(Status.UNKNOWN, 0, 0, 1.0, method="frontier", frontier=stats)
    outcome = count_outcome(count)
    assert outcome.reason == "limit reached: budget"
    assert outcome.effort.solutions is None


def test_a_sharded_count_as_json() -> None:
    sharded = ShardedCount(TourCount(Status.FOUND, 16, 8, 0.5), 4)
    assert sharded.as_dict() == {"directed": 16, "undirected": 8, "shards": 4}


# ------------------------------------------------------ the kernels' registry


def test_the_cli_takes_the_kernels_of_the_registry(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = build_parser()
    for name in ["auto", *KERNELS]:
        assert parser.parse_args(["count", "3x4", "--kernel", name]).kernel == name
    assert parser.parse_args(["count", "3x4"]).kernel == "auto"
    with pytest.raises(SystemExit):
        parser.parse_args(["count", "3x4", "--kernel", "gpu"])
    capsys.readouterr()
    with pytest.raises(SystemExit):
        parser.parse_args(["count", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert " ".join(kernel_help().split()) in shown  # the registry's own words


def test_the_registry_says_what_each_kernel_takes() -> None:
    assert BYTES_PER_STATE["dense"] == DENSE_BYTES  # one figure, two readers
    assert {n for n, k in KERNELS.items() if k.disk} == set(spread_names())
    for name, k in KERNELS.items():
        assert check_kernel(name) == name
        if k.spread:
            assert check_spread_kernel(name) == name
        else:
            with pytest.raises(InvalidInputError, match="dense or meet kernel"):
                check_spread_kernel(name)
    with pytest.raises(InvalidInputError, match="auto, dict, numpy, dense, meet"):
        check_kernel("gpu")


def test_the_rule_of_the_registry_picks_and_refuses() -> None:
    narrow = plan_frontier(move_graph("2x10"), closed=False)  # 5 slots
    fixed = plan_frontier(move_graph("5x6"), closed=False, start=(0, 0))
    assert choose_count_kernel(narrow, prefixes=False) == "dict"
    assert choose_count_kernel(narrow, prefixes=True) == "numpy"
    assert choose_count_kernel(narrow, "dict", prefixes=True) == "numpy"  # stand-in
    with pytest.raises(InvalidInputError, match="states on disk"):
        choose_count_kernel(narrow, "numpy", prefixes=False, spill=True)
    with pytest.raises(InvalidInputError, match="prefixes"):
        choose_count_kernel(narrow, "meet", prefixes=True)
    with pytest.raises(InvalidInputError, match="fixed ends"):
        choose_count_kernel(fixed, "meet", prefixes=False)
    wide = plan_frontier(move_graph("26x26"), closed=True)  # past 24 slots
    with pytest.raises(InvalidInputError, match="up to 24 cells"):
        choose_count_kernel(wide, "dense", prefixes=False)


# ------------------------------------- one decision, one reason (issue 35)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from cpknight.cli import main

    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        # the memory estimate decides (the tests' budget: 4096 MB)
        (["count", "8x8"], ["live states", "over the memory budget of 4096 MB"]),
        (["count", "10x10"], ["joining them would take"]),
        (["count", "12x12", "--time-limit", "none"], ["over the memory budget"]),
        (["count", "100x100", "--open"], ["at least 100 cells wide"]),
        # the time limit decides, and the line says so
        (
            ["count", "7x7", "--open", "--time-limit", "2", "--memory", "16000"],
            ["6,281 MB in memory", "needs about 2 min, the limit is 2 s"],
        ),
        (
            ["count", "8x8", "--memory", "60000", "--time-limit", "10"],
            ["needs about", "the limit is 10 s"],
        ),
        (["count", "8x8", "--kernel", "dict"], ["dict kernel", "over the memory"]),
    ],
    ids=" ".join,
)
def test_a_count_the_frontier_cannot_hold_is_refused_up_front(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: list[str]
) -> None:
    code, out, err = _cli(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    for word in [*words, "--method cpsat"]:
        assert word in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["count", "6x6", "--method", "cpsat", "--kernel", "dict"], "--kernel dict"),
        (["count", "3x10", "--symmetric", "rot180", "--kernel", "dict"], "side"),
        (["count", "6x6", "--resume", "/dev/null/x"], "'/dev/null' is not a dir"),
        (["count", "6x6", "--resume", "-"], "'-' (standard input or output)"),
    ],
    ids=" ".join,
)
def test_a_kernel_or_checkpoint_that_cannot_be_used_is_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out, err = _cli(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert words in err


def test_the_dict_kernel_checks_the_clock_within_a_step() -> None:
    from cpknight.counting.dict_kernel import TICK_EVERY, count_frontier_dict

    plan = plan_frontier(move_graph("5x5"), closed=False)
    ticks: list[int] = []
    total, live = count_frontier_dict(plan, tick=ticks.append)
    assert total == 864  # A165134: 1728 directed
    assert len(ticks) == sum(n // TICK_EVERY for n in [1, *live[:-1]])
    assert len(ticks) > 10


def test_the_numpy_kernel_checks_the_clock_within_a_step() -> None:
    # A step is one pass per choice of moves; the clock is asked before each,
    # so a long step (seconds, on a wide board) stops inside it, not after.
    from cpknight.counting.numpy_kernel import count_frontier_numpy

    plan = plan_frontier(move_graph("5x5"), closed=False)
    asked: list[int] = []
    total, _ = count_frontier_numpy(plan, within=asked.append)
    assert total == 864  # A165134: 1728 directed
    per_step = Counter(asked)
    assert asked == sorted(asked)  # step by step
    assert max(per_step.values()) > 1  # several times inside one step

    class Stop(Exception):
        pass

    def stop_at_ten(step: int) -> None:
        if step == 10:
            raise Stop

    after: list[int] = []
    with pytest.raises(Stop):
        count_frontier_numpy(
            plan, lambda step, live, tried: after.append(step), stop_at_ten
        )
    assert after == list(range(10))  # stopped inside step 10, before its end
