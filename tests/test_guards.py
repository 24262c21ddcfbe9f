"""Size guards: what would not fit in memory is refused before it is built."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpknight import Board, move_graph
from cpknight.cli import main
from cpknight.distances.flow import MAX_FLOW_ARCS, check_flow_size
from cpknight.errors import InvalidBoardError, InvalidInputError
from cpknight.pieces import MAX_GRAPH_BYTES, Leaper, graph_bytes
from cpknight.runtime.memory import memory_budget
from cpknight.tours.cpsat import build_tour_model


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_move_graph_too_big_is_refused_before_it_is_built(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 300x300x250 is under the 25 M cell cap, but 24 knight moves a cell
    board = Board((300, 300, 250))
    assert graph_bytes(board, Leaper((1, 2))) > MAX_GRAPH_BYTES
    # refused by the memory budget first (4096 MB by default), then by the cap
    with pytest.raises(InvalidInputError, match=r"22,500,000 cells x 24 moves"):
        move_graph(board)
    with memory_budget(100_000), pytest.raises(InvalidBoardError, match=r"7\.4 GB"):
        move_graph(board)
    code, out, err = run(capsys, "reach", "300x300x250", "0,0,0")
    assert (code, out) == (2, "")
    assert "over the memory budget of 4096 MB" in err


def test_the_graph_estimate_bounds_what_a_graph_holds() -> None:
    # the estimate is at least the bytes the graph's arrays hold
    for board, vector in [(Board((60, 70)), (1, 2)), (Board((9, 9, 9)), (1, 2, 3))]:
        graph = move_graph(board, vector)
        held = graph.table.nbytes + graph.indices.nbytes + graph.indptr.nbytes
        assert graph_bytes(board, Leaper(vector)) >= held


def test_flow_refuses_boards_with_too_many_arcs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    graph = move_graph("400x400")
    assert graph.n_arcs > MAX_FLOW_ARCS
    with pytest.raises(InvalidInputError, match="one variable per move arc"):
        check_flow_size(graph)
    check_flow_size(move_graph("300x300"))  # 712,816 arcs: taken
    code, out, err = run(
        capsys, "distance", "400x400", "a1", "0,399", "--method", "flow"
    )
    assert (code, out) == (2, "")
    assert "1,270,416 on 400x400" in err  # 8 x 399 x 398 arcs


@pytest.mark.parametrize(
    ("closed", "start", "end"),
    [
        (True, None, None),
        (False, "a1", None),
        (False, None, "f6"),
        (False, "a1", "f6"),
        (False, None, None),
    ],
)
def test_formulation_from_the_arcs_alone_is_the_same_text(
    closed: bool, start: str | None, end: str | None
) -> None:
    graph = move_graph("6x6")
    full = build_tour_model(graph, closed=closed, start=start, end=end)
    arcs = build_tour_model(graph, closed=closed, start=start, end=end, arcs_only=True)
    assert arcs.formulation() == full.formulation()
    assert arcs.literals == ()
    assert len(full.literals) == full.n_arcs


def test_formulation_tour_prints_a_big_board_without_building_the_model(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "formulation", "tour", "300x300")
    assert code == 0
    # 300x300: 4 (m-1)(n-2) + 4 (m-2)(n-1) = 712,816 directed knight moves
    assert "712816 Booleans" in out


def test_formulation_export_honours_its_time_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "t.pbtxt"
    code, out, err = run(
        capsys,
        "formulation",
        "tour",
        "300x300",
        "--export",
        str(path),
        "--time-limit",
        "0.05",
    )
    assert (code, out) == (3, "")
    assert "time limit of 0.05 s was reached while building the model" in err
    assert not path.exists()


@pytest.mark.parametrize(
    "side",
    [
        {"symmetric": "rot180"},
        {"symmetric": "rot180", "magic": True},
        {"symmetric": "rot90", "via": ["a1@1"]},
    ],
    ids=["symmetric", "symmetric-magic", "quarter-turn-via"],
)
def test_side_constraints_stop_on_a_stopped_clock(side: dict[str, object]) -> None:
    # Every loop over the moves or cells of the side constraints looks at the
    # clock: the symmetric moves alone once took 300x300 4.5 s past its limit.
    from cpknight import SolveOptions, tour_constraints
    from cpknight.errors import SolveLimitError
    from cpknight.tours.cpsat.side import add_side_constraints

    built = build_tour_model(move_graph(Board.parse("8x8")), closed=True)
    run = SolveOptions(time_limit=60).start()
    run.clock.interrupt()
    with pytest.raises(SolveLimitError, match="side constraints"):
        add_side_constraints(
            built,
            built.model,
            built.literals,
            tour_constraints("8x8", **side),  # type: ignore[arg-type]
            run,
        )
