"""What once ran past a time limit: a search's set-up, and writing an export.

Behaviour only (timings live in ``benchmarks/limits.py``): a search builds the
neighbour list of a cell when it first reaches it, so stopping at the limit
frees only those; an export that cannot finish in the time left writes
nothing, and never leaves a half-written file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ortools.sat.python import cp_model

from cpknight import Board, move_graph
from cpknight.api import try_tour
from cpknight.cli import main
from cpknight.errors import SolveLimitError
from cpknight.pieces import KNIGHT
from cpknight.solving import SolveOptions, export_cpsat_model, write_model_text
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
