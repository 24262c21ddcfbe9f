"""What once ran past a time limit: a search's set-up, and writing an export.

Behaviour only (timings live in ``benchmarks/limits.py``): a search builds the
neighbour list of a cell when it first reaches it, so stopping at the limit
frees only those; an export that cannot finish in the time left writes
nothing, and never leaves a half-written file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from ortools.sat.python import cp_model

from cpknight import Board, move_graph
from cpknight.api import try_tour
from cpknight.board import Topology
from cpknight.cli import main
from cpknight.errors import SolveLimitError
from cpknight.pieces import KNIGHT
from cpknight.solving import Run, SolveOptions, export_cpsat_model, write_model_text
from cpknight.tours import search, search_order

# ------------------------------------------------------------------ the search


def test_neighbour_lists_are_built_on_first_read_and_match_the_graph() -> None:
    graph = move_graph(Board.parse("5x6"), KNIGHT)
    nbrs = search._Neighbours(graph)
    assert nbrs.built() == []  # nothing built up front
    for v in range(graph.n_nodes):
        want = graph.indices[graph.indptr[v] : graph.indptr[v + 1]].tolist()
        assert nbrs[v] == want
    assert nbrs.built() == list(range(graph.n_nodes))
    assert nbrs.degrees() == graph.degree.tolist()


def test_neighbour_list_edits_show_in_the_degrees() -> None:
    graph = move_graph(Board.parse("4x4"), KNIGHT)
    nbrs = search._Neighbours(graph)
    u = 0
    v = nbrs[u][0]
    nbrs[u].remove(v)  # a forbidden move, as _Rules takes it out
    want = graph.degree.tolist()
    want[u] -= 1
    assert nbrs.degrees() == want
    assert nbrs.built() == [u]  # only the list read was built


@pytest.mark.timeout(60)
def test_a_search_stopped_by_the_limit_built_only_the_lists_it_reached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[int] = []

    class Counting(search._Neighbours):
        def __getitem__(self, v: int) -> list[int]:
            if self.lists[v] is search._UNBUILT:
                built.append(v)
            return super().__getitem__(v)

    monkeypatch.setattr(search, "_Neighbours", Counting)
    # 360,000 cells; no tour of them in 0.5 s of Python search
    outcome = try_tour(
        "600x600", closed=False, method="prune", options=SolveOptions(time_limit=0.5)
    )
    assert str(outcome.status) == "unknown"
    assert "time limit of 0.5 s was reached" in (outcome.reason or "")
    attempts = (outcome.effort.attempts if outcome.effort else None) or 0
    # one list per cell the search stepped onto, and the start's: not 360,000
    assert len(built) <= attempts + 1
    assert len(set(built)) == len(built)


# ------------------------------------------------------------------ the export


def _model(n: int) -> cp_model.CpModel:
    model = cp_model.CpModel()
    for i in range(n):
        model.new_bool_var(f"x{i}")
    return model


def test_an_export_that_cannot_fit_the_time_left_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cpknight.solving as solving

    monkeypatch.setattr(solving, "EXPORT_SECONDS_PER_ITEM", 10.0)  # 1,000 s
    target = tmp_path / "m.pbtxt"
    target.write_text("kept\n", encoding="utf-8")
    run = SolveOptions(time_limit=60).start()
    with pytest.raises(SolveLimitError, match=r"too little to write .*m\.pbtxt"):
        export_cpsat_model(_model(100), target, run=run)
    assert target.read_text(encoding="utf-8") == "kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.pbtxt"]


def test_the_limit_passing_while_writing_leaves_no_part_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cpknight.solving as solving

    monkeypatch.setattr(solving, "WRITE_CHUNK", 10)
    run = SolveOptions(time_limit=60).start()
    checks = iter(range(3))

    def check(what: str, **_: object) -> None:  # the clock passes on the 4th look
        if next(checks, None) is None:
            raise SolveLimitError(f"the time limit was reached while {what}")

    monkeypatch.setattr(run.clock, "check", check)
    target = tmp_path / "m.lp"
    with pytest.raises(SolveLimitError, match="while writing"):
        write_model_text(target, "x" * 100, run=run)
    assert list(tmp_path.iterdir()) == []


def test_a_complete_export_is_renamed_into_place(tmp_path: Path) -> None:
    target = tmp_path / "m.pbtxt"
    target.write_text("old\n", encoding="utf-8")
    export_cpsat_model(_model(3), target, run=SolveOptions(time_limit=60).start())
    text = target.read_text(encoding="utf-8")
    assert 'name: "x2"' in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.pbtxt"]


@pytest.mark.timeout(60)
def test_formulation_export_past_the_limit_exits_3_and_leaves_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 120x120: about 110,000 arcs, some tenths of a second to build and as
    # much to export; 0.2 s runs out while building or before writing
    target = tmp_path / "t.pbtxt"
    target.write_text("kept\n", encoding="utf-8")
    argv = ["formulation", "tour", "120x120", "--export", str(target)]
    code = main([*argv, "--force", "--time-limit", "0.2"])
    _, err = capsys.readouterr()
    assert code == 3
    assert "time limit of 0.2 s" in err
    assert err.count("\n") == 1
    assert target.read_text(encoding="utf-8") == "kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.pbtxt"]


def test_start_order_by_degree_equals_the_lexsort_it_replaces() -> None:
    rng = np.random.default_rng(14)
    for n in (1, 2, 50, 1000):
        order = rng.permutation(n).astype(np.int64)
        degree = rng.integers(0, 9, size=n).astype(np.int64)
        rank = search_order.rank_of(order)
        want = np.lexsort((rank, degree))
        assert search_order.by_degree(order, degree).tolist() == want.tolist()


# ---------------------------------------------- issue 35: builds under the clock


def _expired_run() -> Run:
    """A run whose clock has already passed its limit (deterministic)."""
    run = SolveOptions(time_limit=1.0).start()
    run.clock.exclude(-10.0)  # started ten seconds earlier: expired
    assert run.expired()
    return run


def _counting_check(stop_after: int) -> tuple[list[int], Callable[..., None]]:
    """A check that raises on its ``stop_after``-th call, and the calls so far."""
    calls: list[int] = []

    def check(*_: object) -> None:
        calls.append(1)
        if len(calls) >= stop_after:
            raise SolveLimitError("stopped by the test")

    return calls, check


def test_the_quarters_structure_stops_at_the_clock() -> None:
    from cpknight.tours.cpsat.magic import add_quarter_structure

    graph = move_graph(Board.parse("12x12"))
    model = cp_model.CpModel()
    pos = [model.new_int_var(0, 143, f"p{v}") for v in range(144)]
    calls, check = _counting_check(3)
    with pytest.raises(SolveLimitError):
        add_quarter_structure(graph, model, pos, check)
    # Stopped after two cells' rows of Booleans, not all 144.
    assert len(calls) == 3
    assert len(model.proto.variables) == 144 + 2 * 144


def test_the_structured_phase_is_skipped_past_its_size() -> None:
    from cpknight.tours.cpsat.magic import MAX_STRUCTURE_BOOLEANS, structure_applies

    assert structure_applies(move_graph(Board.parse("32x32")))
    assert MAX_STRUCTURE_BOOLEANS < 100**4
    assert not structure_applies(move_graph(Board.parse("100x100")))


@pytest.mark.parametrize(
    "flags", [("--magic",), ("--min", "turns"), ("--min", "crossings")]
)
def test_a_side_constrained_tour_model_stops_at_an_expired_clock(
    flags: tuple[str, ...],
) -> None:
    from cpknight.constraints import TourConstraints
    from cpknight.tours.cpsat.model import build_tour_model

    side = (
        TourConstraints(magic=True)
        if flags == ("--magic",)
        else TourConstraints(minimise=flags[1])
    )
    graph = move_graph(Board.parse("12x12"))
    with pytest.raises(SolveLimitError, match="reached while"):
        build_tour_model(
            graph,
            closed=True,
            run=_expired_run(),
            constraints=side,
        )


def test_the_side_constraints_check_the_clock_while_adding() -> None:
    from cpknight.constraints import TourConstraints
    from cpknight.tours.cpsat.arcs import lay_out_arcs
    from cpknight.tours.cpsat.side import add_side_constraints

    graph = move_graph(Board.parse("40x40"))
    arcs = lay_out_arcs(graph, closed=True, start=None, end=None)
    model = cp_model.CpModel()
    lits = tuple(model.new_bool_var("") for _ in range(arcs.n_arcs))
    run = SolveOptions(time_limit=1.0).start()
    side = TourConstraints(minimise="turns")
    add_side_constraints(arcs, model, lits, side, run)  # within the limit: builds
    run.clock.exclude(-10.0)
    with pytest.raises(SolveLimitError, match="adding the side constraints"):
        add_side_constraints(arcs, model, lits, side, run)


def test_the_longest_search_tables_stop_at_an_expired_clock() -> None:
    from cpknight.longest.common import LongestInstance
    from cpknight.longest.search import solve

    inst = LongestInstance(board=Board((60, 60)), piece=KNIGHT, kind="induced")
    with pytest.raises(SolveLimitError, match="making the search's tables"):
        solve(inst, _expired_run(), kernel="python")  # the compiled: its own test


def test_the_longest_search_tables_are_refused_over_the_budget() -> None:
    from cpknight.errors import ModelTooBigError
    from cpknight.longest.common import LongestInstance
    from cpknight.longest.search import solve, table_bytes
    from cpknight.runtime.memory import memory_budget

    inst = LongestInstance(board=Board((100, 100)), piece=KNIGHT, kind="induced")
    graph = inst.graph
    need_mb = table_bytes(graph.n_nodes, graph.n_arcs) / 2**20
    with memory_budget(need_mb / 2), pytest.raises(ModelTooBigError):
        solve(inst, SolveOptions().start(), kernel="python")


@pytest.mark.parametrize("size", ["12x12", "30x30", "100x100", "9x40"])
def test_a_too_wide_frontier_is_refused_before_any_plan(
    size: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cpknight.api import try_longest
    from cpknight.errors import ModelTooBigError
    from cpknight.longest import frontier, frontier_tables

    def no_plan(*_: object, **__: object) -> None:
        raise AssertionError("a plan was built before the refusal")

    monkeypatch.setattr(frontier, "longest_tables", no_plan)
    monkeypatch.setattr(frontier_tables, "plan_frontier", no_plan)
    with pytest.raises(ModelTooBigError, match="frontier of"):
        try_longest(size, kind="uncrossed", method="frontier", time_limit=5)


def test_a_wide_frontier_is_refused_from_the_shape_before_the_graph(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cpknight.api import longest_path
    from cpknight.errors import ModelTooBigError
    from cpknight.longest.common import LongestInstance

    def no_graph(self: object) -> None:
        raise AssertionError("the move graph was built before the refusal")

    monkeypatch.setattr(LongestInstance, "graph", property(no_graph))
    with pytest.raises(ModelTooBigError, match="at least 2000 cells wide"):
        longest_path("2000x2000", kind="uncrossed", method="frontier")


@pytest.mark.parametrize("topology", ["bounded", "cylinder", "torus"])
def test_the_move_graph_build_checks_the_clock_per_block(
    topology: Topology, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cpknight.pieces as pieces

    monkeypatch.setattr(pieces, "_ROWS", 1000)
    calls, check = _counting_check(10)
    with pytest.raises(SolveLimitError):
        move_graph(Board.parse("3x10001", topology=topology), KNIGHT, check=check)
    assert len(calls) == 10  # 31 blocks of a thousand cells: stopped inside
    # Built in blocks, the table is each cell plus each move, where it lands.
    board = Board.parse("3x9999", topology=topology)
    graph = move_graph(board, KNIGHT)
    shape = np.array(board.shape)
    wrap = np.array(board.wrap)
    for j, move in enumerate(graph.moves.tolist()):
        reached = graph.cells + np.array(move)
        inside = ((reached >= 0) & (reached < shape)) | wrap
        reached = reached % shape
        expected = np.where(
            inside.all(axis=1),
            reached[:, 0] * shape[1] + reached[:, 1],
            -1,
        )
        assert np.array_equal(graph.table[:, j], expected)


def test_the_two_colouring_checks_the_clock() -> None:
    from cpknight.graph import two_colours

    calls, check = _counting_check(2)
    with pytest.raises(SolveLimitError):
        two_colours(move_graph(Board.parse("300x300")), check)
    assert len(calls) == 2


def test_a_plane_path_that_cannot_be_made_in_time_is_not_started() -> None:
    from cpknight.distances.moves import solve_move_counts

    run = SolveOptions(time_limit=30).start()
    run.clock.exclude(-29.9)  # 0.1 s left: far too little for 1.5 M cells
    with pytest.raises(SolveLimitError) as caught:
        solve_move_counts(
            Board.plane(), KNIGHT, (0, 0), (3_000_000, 1), run=run, backend="cpsat"
        )
    assert caught.value.bound in (None, 1_500_001)


def test_ordering_the_moves_checks_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    from cpknight.distances import moves

    monkeypatch.setattr(moves, "ORDER_CHECK_EVERY", 5)
    graph = move_graph(Board.parse("60x60"))
    counts = [0] * 8
    counts[0] = counts[1] = 10  # 20 moves: a walk exists
    calls, check = _counting_check(2)
    with pytest.raises(SolveLimitError):
        moves.order_moves(graph, (5, 30), counts, check=check)
    assert len(calls) == 2
    assert moves.order_moves(graph, (5, 30), counts) is not None
