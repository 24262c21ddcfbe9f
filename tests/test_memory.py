"""The memory budget kept (issue 27): each estimate against the measured peak.

Every case runs ``cpknight`` in a fresh process under an address-space cap
(``resource.setrlimit``, the budget plus the start-up's own address space),
and reads its peak resident memory (``ru_maxrss``, :func:`os.wait4`). Above
the start-up's peak (``map 8x8``, measured in the same run):

- the biggest instance the estimate accepts stays under the budget;
- the smallest it refuses is refused at once, in one line, exit 2;
- over a range of sizes, each estimate is within a factor of
  :data:`~cpknight.runtime.memory.ESTIMATE_FACTOR` of the peak it predicts.

The budgets are small (``--memory``), so that the instances are too."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable

import pytest

from cpknight.api.distances import REACH_CELL_BYTES, map_bytes
from cpknight.board import Board
from cpknight.pieces import KNIGHT, graph_bytes
from cpknight.runtime.memory import ESTIMATE_FACTOR, path_bytes

MB = 2**20
SLACK_MB = 1500
"""What the address-space cap allows beyond the budget: the interpreter, numpy
and their threads map far more than they touch."""


def _peak(argv: list[str], cap_mb: float) -> tuple[float, int, str, float]:
    """Peak MB, exit code, standard error and wall seconds of one command."""

    def cap() -> None:
        limit = int(cap_mb * MB)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "cpknight", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=cap,
    )
    assert child.stderr is not None
    with child.stderr:
        err = child.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here
    return usage.ru_maxrss / 1024, child.returncode, err, seconds


@pytest.fixture(scope="module")
def start_up() -> float:
    """The peak of a command that builds nothing big (MB)."""
    return min(_peak(["map", "8x8", "a1"], 4000)[0] for _ in range(2))


def _map_bytes(n: int) -> float:
    return map_bytes(Board((n, n)), KNIGHT)


def _reach_bytes(n: int) -> float:
    board = Board((n, n))
    return graph_bytes(board, KNIGHT) + REACH_CELL_BYTES * board.n_open


def _largest(estimate: Callable[[int], float], budget_mb: float) -> int:
    """The largest n whose estimate fits the budget."""
    n = 8
    while estimate(n + 1) <= budget_mb * MB:
        n += 1
    return n


@pytest.mark.parametrize(
    ("command", "estimate"),
    [("map", _map_bytes), ("reach", _reach_bytes)],
)
def test_the_biggest_accepted_fits_and_the_next_is_refused(
    start_up: float, command: str, estimate: Callable[[int], float]
) -> None:
    budget = 60
    n = _largest(estimate, budget)
    peak, code, err, _ = _peak(
        [command, f"{n}x{n}", "a1", "--memory", str(budget)], budget + SLACK_MB
    )
    assert code == 0, err
    assert peak - start_up <= budget, (n, peak, start_up)
    peak, code, err, _ = _peak(
        [command, f"{n + 1}x{n + 1}", "a1", "--memory", str(budget)],
        budget + SLACK_MB,
    )
    assert code == 2
    assert "over the memory budget of 60 MB" in err
    assert err.count("\n") == 1
    assert peak <= start_up * 1.5  # refused before anything was built


CASES = [
    *(
        # a map is 4 bytes a cell: smaller boards hide in the start-up's peak
        (f"map {n}x{n}", ["map", f"{n}x{n}", "a1"], _map_bytes(n))
        for n in (2000, 3000, 4000)
    ),
    *(
        (f"reach {n}x{n}", ["reach", f"{n}x{n}", "a1"], _reach_bytes(n))
        for n in (700, 1400, 2000)
    ),
    *(
        (
            f"distance plane to {x:,}",
            ["distance", "plane", "0,0", f"{x},1", "--method", "ip"],
            float(path_bytes(x // 2 + 1)),
        )
        for x in (600_000, 1_200_000, 2_400_000)
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "argv", "estimate"), CASES, ids=[c[0] for c in CASES])
def test_each_estimate_is_within_its_factor_of_the_peak(
    start_up: float, name: str, argv: list[str], estimate: float
) -> None:
    budget = 4096
    peak, code, err, _ = _peak([*argv, "--time-limit", "none"], budget + SLACK_MB)
    assert code == 0, err
    used = max(peak - start_up, 1.0)
    ratio = estimate / MB / used
    assert 1 / ESTIMATE_FACTOR <= ratio <= ESTIMATE_FACTOR, (name, used, ratio)
