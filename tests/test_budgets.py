"""The edges of size and time (issue 27): what does not fit is refused up front,
in one line, from the instance's numbers alone; budgets bound whole runs;
certificates come before any chosen engine; scheduler addresses are checked.

Each case runs in this process and takes well under a second: a refusal that
built the move graph first would not (and the graph builder is watched)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from cpknight.api import count_tours, distance_map, find_tour, knight_distance, sweep
from cpknight.api.distances import reach_split
from cpknight.board import Board
from cpknight.cli import main
from cpknight.errors import (
    InvalidCellError,
    InvalidInputError,
    ModelTooBigError,
    NoTourError,
    SolveLimitError,
)
from cpknight.graph import arc_bound
from cpknight.pieces import KNIGHT, Leaper, move_graph
from cpknight.runner import AGAIN, RunOptions, Task, check_scheduler, run_tasks
from cpknight.runtime.memory import (
    DEFAULT_MEMORY_MB,
    FALLBACK_MEMORY_MB,
    MEMORY_SHARE,
    budget_mb,
    machine_mb,
    memory_budget,
)
from cpknight.study import sweep_pairs


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def no_big_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any move graph of more than a million cells: refusals come first."""
    import cpknight.pieces as pieces

    real = pieces._build_graph

    def watched(board: Board, piece: Leaper, check: Any) -> Any:
        assert board.n_open <= 10**6, f"built the graph of {board.label}"
        return real(board, piece, check)

    monkeypatch.setattr(pieces, "_build_graph", watched)


# --------------------------------------------------------------- memory


def test_the_budget_is_documented_and_set_by_memory(
    capsys: pytest.CaptureFixture[str],
) -> None:
    machine = machine_mb()  # half of it by default, the tests pin the fallback
    assert machine is None or round(machine * MEMORY_SHARE) == DEFAULT_MEMORY_MB
    assert budget_mb() == FALLBACK_MEMORY_MB == 4096
    with pytest.raises(SystemExit):
        main(["count", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert f"(default {DEFAULT_MEMORY_MB:,.0f} MB, half this machine's" in shown
    code, out, err = cli(capsys, "reach", "2000x2000", "a1", "--memory", "100")
    assert (code, out) == (2, "")
    assert "over the memory budget of 100 MB" in err
    assert err.count("\n") == 1
    assert budget_mb() == FALLBACK_MEMORY_MB  # main() set it for its run only
    with pytest.raises(SystemExit) as stopped:  # argparse: usage, exit 2
        main(["map", "8x8", "a1", "--memory", "-5"])
    assert stopped.value.code == 2
    assert "positive number of MB" in capsys.readouterr().err


@pytest.mark.usefixtures("no_big_graph")
@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["reach", "5000x5000", "a1"], "reachability of the knight"),
        (["map", "25000x1000", "a1", "--memory", "50"], "a distance map of the"),
        (["count", "5000x5000", "--time-limit", "2"], "counting model of 5000x5000"),
        (["count", "1000x1000", "--method", "frontier"], "at least 1000 cells wide"),
        (["formulation", "count", "300x300"], "at least 300 cells wide"),
        (["longest", "3000x3000", "--induced"], "98,928,016 arcs"),
        (["longest", "2000x2000", "--uncrossed"], "arcs"),
        (
            ["count", "7x7", "--open", "--method", "frontier", "--kernel", "dense"],
            "over the memory",
        ),
        # met in the middle: both halves' last states are held to join them
        (["count", "9x9", "--open", "--method", "frontier"], "joining them"),
        (["distance", "plane", "0,0", "3000000000,1", "--method", "ip"], "moves"),
        (["distance", "plane", "0,0", "3" + "0" * 19 + ",1"], "past 1,000,000"),
        (["count", "6x6", "--shards", "100000000"], "shards"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_too_big_is_refused_up_front_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out, err = cli(capsys, *argv)
    assert (code, out) == (2, ""), err
    assert words in err
    assert err.startswith("cpknight: error: ")
    assert err.count("\n") == 1


def test_arc_bound_is_exact_without_blocked_cells() -> None:
    # counted independently: the move graph's own arcs
    for spec, piece in [("8x8", KNIGHT), ("5x9", Leaper((1, 3))), ("4x4x4", KNIGHT)]:
        board = Board.parse(spec)
        assert arc_bound(board, piece) == move_graph(board, piece).n_arcs
    holed = Board((8, 8), [(3, 3), (4, 4)])
    assert arc_bound(holed, KNIGHT) >= move_graph(holed).n_arcs


def test_a_plane_path_is_refused_from_the_targets_digits() -> None:
    with pytest.raises(ModelTooBigError, match="at least 1,500,000,000 moves"):
        knight_distance("plane", "0,0", "3000000000,1", method="ip")
    with pytest.raises(InvalidCellError, match="64-bit"):
        knight_distance("plane", "0,0", f"{10**20},1", method="ip")
    with memory_budget(1):  # a short path still fits a budget of 1 MB
        assert knight_distance("plane", "0,0", "30,1", method="ip").distance == 15


def test_the_frontier_budget_refuses_what_its_estimate_passes() -> None:
    with pytest.raises(ModelTooBigError, match="over the memory budget of 100 MB"):
        count_tours(
            "6x6", closed=False, method="frontier", memory_mb=100, kernel="numpy"
        )
    with memory_budget(100), pytest.raises(ModelTooBigError, match="of 100 MB"):
        count_tours("6x6", closed=False, method="frontier", kernel="numpy")
    # met in the middle: the join holds both halves' last states
    with pytest.raises(ModelTooBigError, match="joining them would take"):
        count_tours("8x8", method="frontier", memory_mb=4096)


def test_a_count_met_in_the_middle_keeps_its_halves_on_disk_past_the_budget() -> None:
    pytest.importorskip("numba")
    # A165134 (directed open tours of n x n): 5x5 has 1,728. Checked on OEIS.
    # A budget of a few MB sends the halves to disk.
    got = count_tours(
        "5x5", closed=False, method="frontier", kernel="meet", memory_mb=4
    )
    assert got.directed == 1728
    stats = got.frontier
    assert stats is not None
    assert stats.kernel == "meet"
    assert stats.disk_mb > 0  # the steps were split
    assert stats.buckets >= 2


# --------------------------------------------------------------- time


def test_map_and_reach_keep_their_time_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SolveLimitError):
        distance_map("600x600", "a1", time_limit=1e-4)
    with pytest.raises(SolveLimitError):
        reach_split("600x600", "a1", time_limit=1e-4)
    assert distance_map("8x8", "a1", time_limit=5)["h8"] == 6
    code, _, err = cli(capsys, "reach", "600x600", "a1", "--time-limit", "0.0001")
    assert code == 3
    assert "time limit" in err


def test_a_sweep_whose_bookkeeping_passes_its_budget_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="bookkeeping alone"):
        sweep("300x300", budget=2)
    with pytest.raises(InvalidInputError, match="bookkeeping alone"):
        sweep_pairs("20x20", budget=2)


def test_the_pair_sweep_keeps_its_budget() -> None:
    began = time.perf_counter()
    pairs = sweep_pairs("8x8", method="prune", budget=0.2)
    spent = time.perf_counter() - began
    unknown = [p for p in pairs.pairs if p.status == "unknown"]
    assert unknown, f"2016 pairs certified and solved in {spent:.2f} s"
    # every task not started says so; the one running as the budget ran out
    # had what was left of it as its own limit, and says that limit was reached
    cut = [p for p in unknown if "budget" not in (p.reason or "")]
    assert len(cut) <= 1, [p.reason for p in cut]
    assert all("time limit" in (p.reason or "") for p in cut)


def test_the_runner_starts_no_task_past_its_deadline() -> None:
    tasks = [Task(f"n={k}", "cpknight.runner:square_row", (k, 0.05)) for k in range(8)]
    rows = run_tasks(tasks, RunOptions(deadline=time.time() + 0.12))
    late = [row for row in rows if row.get(AGAIN)]
    assert late
    assert all(row["status"] == "unknown" for row in late)
    assert rows[0]["square"] == 0


# --------------------------------------------------------------- certificates


@pytest.mark.parametrize(
    ("board", "start", "end"),
    [("8x8", "a1", "h8"), ("7x7", "b1", None), ("1001x1001", "a1", "b1")],
)
def test_certificates_come_before_a_chosen_engine(
    board: str, start: str, end: str | None
) -> None:
    # Colours (a knight's move changes colour): a1 and h8 are both dark; on
    # an odd board an open tour starts and ends on a1's colour, which b1 is not.
    with pytest.raises(NoTourError) as caught:
        find_tour(board, method="tiles", closed=False, start=start, end=end)
    assert caught.value.certificate == "colour"


def test_the_chosen_engine_still_runs_when_no_certificate_applies() -> None:
    tour = find_tour("8x8", method="prune", closed=False, start="a1", end="h7")
    assert tour.cells[0] == (0, 0)
    assert tour.cells[-1] == (6, 7)


# --------------------------------------------------------------- schedulers


BAD_ADDRESSES = ["garbage", "tcp://", "tcp://host:notaport", "http://127.0.0.1:1"]


@pytest.mark.parametrize("address", BAD_ADDRESSES)
def test_a_malformed_scheduler_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Any, address: str
) -> None:
    suite = tmp_path / "suite.txt"
    suite.write_text("5x5 --open\n")
    for argv in (
        ["study", str(suite)],
        ["sweep", "5x5"],
        ["count", "6x6", "--shards", "4"],
    ):
        code, out, err = cli(capsys, *argv, "--scheduler", address)
        assert (code, out) == (2, ""), (argv, err)
        assert "expected a Dask scheduler address" in err
        assert err.count("\n") == 1
    with pytest.raises(InvalidInputError, match="scheduler address"):
        RunOptions(scheduler=address)


@pytest.mark.parametrize("address", ["local", "tcp://127.0.0.1:8786", "host:1"])
def test_wellformed_scheduler_addresses_pass(address: str) -> None:
    assert check_scheduler(address) == address
