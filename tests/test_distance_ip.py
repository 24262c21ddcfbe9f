"""Cross-checks of the declarative distances (ip, flow, formula) against BFS.

Every expected distance here is computed independently in the same test by the
reference BFS (cpknight.graph) unless a source is cited: the plane
formula is OEIS A065775; a1 to b2 (2 on the plane, 4 on 8x8) is MISSION.md's
example and is checked against BFS too.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpknight import Board, Distance, InvalidInputError, NoPathError, knight_distance
from cpknight.board import Cell, Topology
from cpknight.checks import make_distance
from cpknight.distances.flow import build_flow_model, solve_flow
from cpknight.distances.formula import formula_distance, knight_formula
from cpknight.distances.linear import BACKENDS, move_label
from cpknight.distances.moves import (
    build_move_count_model,
    lattice_combination,
    order_moves,
    solve_move_counts,
)
from cpknight.errors import (
    EngineError,
    InvalidBoardError,
    InvalidPieceError,
    SolveLimitError,
)
from cpknight.graph import bfs_levels
from cpknight.pieces import KNIGHT, Leaper, as_piece, move_graph, steps_are_moves
from cpknight.solving import SolveOptions

OPTIONS = SolveOptions(time_limit=20, workers=1, seed=0)
ROOT = Path(__file__).resolve().parent.parent

# (board spec, topology, piece): the cross-check boards.
CASES: list[tuple[str, Topology, str]] = [
    ("5x5", "bounded", "knight"),
    ("8x8", "bounded", "knight"),
    ("classic8", "bounded", "knight"),
    ("holed8", "bounded", "knight"),
    ("heart9", "bounded", "knight"),
    ("ring10", "bounded", "knight"),
    ("cross5", "bounded", "knight"),
    ("ring9", "bounded", "knight"),
    ("blocks12", "bounded", "knight"),
    ("frame9", "bounded", "knight"),
    ("8x8", "torus", "knight"),
    ("6x7", "cylinder", "knight"),
    ("cube4", "bounded", "1,2,3"),
    ("8x8", "bounded", "camel"),
    ("3x3", "bounded", "knight"),
]
CASE_IDS = [f"{b}-{t}-{p}" for b, t, p in CASES]


def _pairs(board: Board, piece: Leaper, sample: int | None) -> list[tuple[int, int]]:
    n = move_graph(board, piece).n_nodes
    pairs = [(s, t) for s in range(n) for t in range(n)]
    if sample is not None and sample < len(pairs):
        pairs = random.Random(f"{board.label}{piece.label}").sample(pairs, sample)
    return pairs


def _ip_and_flow(
    board: Board, piece: Leaper, source: Cell, target: Cell, expected: int
) -> tuple[Distance, Distance] | None:
    """The move-count IP and the arc-flow IP, checked against BFS's ``expected``.

    Where BFS says unreachable (``expected < 0``) both must raise ``NoPathError``,
    and there is nothing to return.
    """
    if expected < 0:
        with pytest.raises(NoPathError):
            solve_move_counts(board, piece, source, target, run=OPTIONS.start())
        with pytest.raises(NoPathError):
            solve_flow(board, piece, source, target, run=OPTIONS.start())
        return None
    ip = solve_move_counts(board, piece, source, target, run=OPTIONS.start())
    flow = solve_flow(board, piece, source, target, run=OPTIONS.start())
    assert ip.distance == flow.distance == expected, (source, target)
    assert ip.details["bound"] <= expected
    return ip, flow


def _cross_check(
    spec: str, topology: Topology, piece_spec: str, sample: int | None
) -> None:
    board = Board.parse(spec, topology=topology)
    piece = as_piece(piece_spec)
    graph = move_graph(board, piece)
    levels: dict[int, np.ndarray] = {}
    # The formula answers on the knight's plain rectangles of sides >= 5 only
    # (classic8 and 8x8 here) and refuses every other board.
    try:
        formula_distance(board, graph.cell(0), graph.cell(0))
        formula_answers = piece == KNIGHT
    except InvalidBoardError:
        formula_answers = False
    assert formula_answers == (
        piece == KNIGHT
        and board.dim == 2
        and board.topology == "bounded"
        and not board.blocked
        and min(board.shape) >= 5
    )
    for s, t in _pairs(board, piece, sample):
        if s not in levels:
            levels[s] = bfs_levels(graph, s)
        expected = int(levels[s][t])
        source, target = graph.cell(s), graph.cell(t)
        both = _ip_and_flow(board, piece, source, target, expected)
        if both is None:
            continue
        ip, flow = both
        assert sum(ip.details["counts"].values()) == expected
        if formula_answers:
            assert formula_distance(board, source, target)[0] == expected
        for result in (ip, flow):
            assert result.path is not None
            assert len(result.path) == expected + 1
        if board.topology == "torus" and not board.blocked:
            # A n = d + L w is exact on a torus: no cut is ever needed.
            assert ip.details["bound"] == expected
            assert ip.details["cuts"] == 0


@pytest.mark.parametrize(("spec", "topology", "piece"), CASES, ids=CASE_IDS)
def test_ip_flow_bfs_agree_on_sampled_pairs(
    spec: str, topology: Topology, piece: str
) -> None:
    _cross_check(spec, topology, piece, sample=16)


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "topology", "piece"), CASES[:2] + CASES[3:])
def test_ip_flow_bfs_agree_on_all_pairs(
    spec: str, topology: Topology, piece: str
) -> None:
    _cross_check(spec, topology, piece, sample=None)


def test_mission_example_a1_b2() -> None:
    # MISSION.md: a1 to b2 is 2 on the open plane but 4 on 8x8 (BFS agrees).
    board = Board.parse("8x8")
    ip = knight_distance(board, "a1", "b2", method="ip", options=OPTIONS)
    assert ip.distance == knight_distance(board, "a1", "b2").distance == 4
    assert ip.details["bound"] == 2
    assert ip.details["cuts"] >= 1
    plane = knight_distance("plane", "0,0", "1,1", method="ip", options=OPTIONS)
    assert plane.distance == 2
    assert plane.details["cuts"] == 0


def test_first_bound_is_exact_away_from_edges() -> None:
    # On 20x20, cells at least 6 from every edge: the knight's shortest paths
    # between them fit on the board, so the plane's answer is the distance.
    board = Board.parse("20x20")
    graph = move_graph(board, KNIGHT)
    source = (9, 10)
    levels = bfs_levels(graph, graph.node(source))
    for r in range(6, 14, 2):
        for c in range(6, 14):
            d = solve_move_counts(board, KNIGHT, source, (r, c), run=OPTIONS.start())
            assert d.details["bound"] == d.distance == levels[graph.node((r, c))]
            assert d.details["cuts"] == 0


def _plane_window(step: int) -> None:
    plane = Board.plane()
    for dr in range(-20, 21, step):
        for dc in range(-20, 21, step):
            d = solve_move_counts(plane, KNIGHT, (0, 0), (dr, dc), run=OPTIONS.start())
            assert d.distance == knight_formula((dr, dc)), (dr, dc)
            assert d.path is not None
            cells = np.array(d.path)
            assert steps_are_moves(plane, KNIGHT, cells[:-1], cells[1:]).all()


def test_plane_ip_equals_formula_on_a_41x41_window_every_other_cell() -> None:
    _plane_window(step=2)


@pytest.mark.slow
def test_plane_ip_equals_formula_on_41x41_window() -> None:
    _plane_window(step=1)


def test_ip_equals_bfs_on_every_pair_of_8x8() -> None:
    # Every pair of 8x8 up to the board's eight symmetries: each source in the
    # triangle a1-d1-d4 (row <= column < 4; every cell is one of these turned
    # or reflected), against every target, the move-count IP (with its cuts)
    # against BFS; flow joins it in the slow all-pairs run.
    board = Board.parse("8x8")
    graph = move_graph(board, KNIGHT)
    for s in range(graph.n_nodes):
        row, col = graph.cell(s)
        if not row <= col < 4:
            continue
        levels = bfs_levels(graph, s)
        for t in range(graph.n_nodes):
            ip = solve_move_counts(
                board, KNIGHT, graph.cell(s), graph.cell(t), run=OPTIONS.start()
            )
            assert ip.distance == levels[t]
            assert ip.details["bound"] <= levels[t]


def test_formula_matches_bfs_on_the_plane_window() -> None:
    # The plane formula (OEIS A065775) against BFS from the centre of an 81x81
    # board: offsets up to 20 never need cells outside it.
    board = Board.parse("81x81")
    graph = move_graph(board, KNIGHT)
    levels = bfs_levels(graph, graph.node((40, 40)))
    for dr in range(-20, 21):
        for dc in range(-20, 21):
            want = levels[graph.node((40 + dr, 40 + dc))]
            assert knight_formula((dr, dc)) == want
            # formula_distance has the plane inline: the same numbers.
            assert formula_distance(Board.plane(), (7, -3), (7 + dr, dc - 3)) == (
                want,
                "plane",
            )


@pytest.mark.parametrize("rows", [5, 6, 8, 9])
@pytest.mark.parametrize("cols", [5, 7, 8])
def test_formula_matches_bfs_on_rectangles(rows: int, cols: int) -> None:
    board = Board((rows, cols))
    graph = move_graph(board, KNIGHT)
    for s in range(graph.n_nodes):
        levels = bfs_levels(graph, s)
        for t in range(graph.n_nodes):
            got, _ = formula_distance(board, graph.cell(s), graph.cell(t))
            assert got == levels[t]


@pytest.mark.parametrize(
    ("spec", "piece", "error"),
    [
        ("4x4", "knight", InvalidBoardError),
        ("4x8", "knight", InvalidBoardError),
        ("holed8", "knight", InvalidBoardError),
        ("cube4", "knight", InvalidBoardError),
        ("8x8", "camel", InvalidPieceError),
    ],
)
def test_formula_refuses_other_boards(
    spec: str, piece: str, error: type[Exception]
) -> None:
    board = Board.parse(spec)
    cell = (0,) * board.dim
    with pytest.raises(error, match="formula"):
        knight_distance(board, cell, cell, piece=as_piece(piece), method="formula")
    assert issubclass(error, InvalidInputError)


def test_formula_refuses_torus() -> None:
    assert knight_distance("8x8", "a1", "b2", method="formula").distance == 4
    torus = Board.parse("8x8", topology="torus")
    with pytest.raises(InvalidBoardError, match="torus"):
        knight_distance(torus, (0, 0), (1, 2), method="formula")


def test_formula_known_values() -> None:
    # OEIS A065775 / the code-golf table of knight distances on the plane.
    known = {(0, 1): 3, (1, 1): 2, (3, 3): 2, (4, 0): 2, (42, 22): 22, (84, 73): 53}
    known |= {(99, 99): 66, (-45, -91): 46, (-81, 1): 42, (11, -2): 7}
    for offset, moves in known.items():
        assert knight_formula(offset) == moves


def test_unreachable_targets_are_refused_quickly() -> None:
    started = time.perf_counter()
    with pytest.raises(NoPathError, match="different components"):
        knight_distance("3x3", "a1", "b2", method="ip")
    # The camel keeps its colour: a1 -> a2 is never reachable (8x8 and plane).
    with pytest.raises(NoPathError, match="different components"):
        knight_distance("8x8", "a1", "a2", method="ip", piece="camel")
    with pytest.raises(NoPathError, match="integer combination"):
        knight_distance("plane", "0,0", "0,1", method="ip", piece="camel")
    with pytest.raises(NoPathError, match="infeasible"):
        knight_distance("8x8", "a1", "a2", method="flow", piece="camel")
    assert time.perf_counter() - started < 5


def test_methods_refuse_the_plane_where_they_must() -> None:
    with pytest.raises(InvalidBoardError, match="finite"):
        knight_distance("plane", "0,0", "1,2", method="flow")
    with pytest.raises(InvalidBoardError, match="finite"):
        knight_distance("plane", "0,0", "1,2", method="bfs")


@pytest.mark.parametrize("backend", BACKENDS)
def test_backends_agree(backend: str) -> None:
    board = Board.parse("8x8")
    for source, target in [((0, 0), (1, 1)), ((0, 0), (7, 7)), ((3, 3), (3, 4))]:
        d = solve_move_counts(
            board, KNIGHT, source, target, run=OPTIONS.start(), backend=backend
        )
        graph = move_graph(board, KNIGHT)
        expected = bfs_levels(graph, graph.node(source))[graph.node(target)]
        assert d.distance == expected
        assert d.details["backend"] == backend


@pytest.mark.parametrize("backend", ["cpsat", "scip", "sat"])
def test_flow_backends_agree(backend: str) -> None:
    board = Board.parse("holed8")
    d = solve_flow(board, KNIGHT, (0, 0), (7, 7), run=OPTIONS.start(), backend=backend)
    assert d.distance == knight_distance(board, "a1", "h8").distance


def test_backend_prints_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    board = Board.parse("8x8")
    for backend in BACKENDS:
        solve_move_counts(
            board, KNIGHT, (0, 0), (1, 1), run=OPTIONS.start(), backend=backend
        )
    solve_flow(board, KNIGHT, (0, 0), (1, 1), run=OPTIONS.start())
    solve_flow(board, KNIGHT, (0, 0), (1, 1), run=OPTIONS.start(), backend="scip")
    out, err = capfd.readouterr()
    assert out == ""
    assert err == ""


def test_flow_time_limit_covers_model_building() -> None:
    # 120x120: about 57,000 arcs, far more than 0.05 s of model building.
    board = Board.parse("120x120")
    move_graph(board, KNIGHT)  # the graph's own cache, not what is timed here
    options = SolveOptions(time_limit=0.05, workers=1, seed=0)
    for backend in ("glop", "cpsat"):
        started = time.perf_counter()
        with pytest.raises(SolveLimitError, match="building the flow model"):
            solve_flow(
                board, KNIGHT, (0, 0), (119, 119), run=options.start(), backend=backend
            )
        assert time.perf_counter() - started < 3


def test_limit_after_cuts_keeps_bound_and_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    # a1 -> b2 on 8x8: the first optimum (2, MISSION.md) cannot be ordered, so
    # one cut is needed; the limit is made to strike at the second solve.
    import cpknight.distances.moves as dip

    real = dip._solve_counts
    calls: list[int] = []

    def limited(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) > 1:
            raise SolveLimitError("stopped")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(dip, "_solve_counts", limited)
    with pytest.raises(SolveLimitError, match="after 1 cuts") as info:
        solve_move_counts(
            Board.parse("8x8"), KNIGHT, (0, 0), (1, 1), run=OPTIONS.start()
        )
    assert info.value.bound == 2
    assert info.value.effort.cuts == 1


@pytest.mark.parametrize(
    ("spec", "path", "fault"),
    [
        ("8x8", [(0, 0), (1, 1)], "not a knight"),
        ("8x8", [(0, 0), (2, 1)], "ends on"),
        ("8x8", [(2, 1), (0, 0)], "starts on"),
        ("8x8", [(0, 0), (2, 9)], "not on board"),
        ("holed8", [(0, 0), (1, 2), (3, 3), (2, 1)], "blocked"),
        ("plane", [(0, 0), (1, 1)], "not a knight"),
        ("plane", [], "empty"),
    ],
)
def test_make_distance_refuses_a_bad_path(
    spec: str, path: list[Cell], fault: str
) -> None:
    board = Board.parse(spec)
    if board.blocked:
        assert not board.is_open((3, 3))
    end = path[-1] if path else (0, 0)
    with pytest.raises(EngineError, match=f"method 'x' returned a bad path: .*{fault}"):
        make_distance(
            board,
            KNIGHT,
            (0, 0),
            end if fault != "ends on" else (1, 2),
            path,
            method="x",
            started=time.perf_counter(),
        )


def test_make_distance_accepts_paths_on_the_plane_and_torus() -> None:
    d = make_distance(
        Board.plane(),
        KNIGHT,
        (0, 0),
        (-1, -2),
        [(0, 0), (-1, -2)],
        method="x",
        started=time.perf_counter(),
    )
    assert d.distance == 1
    torus = Board.parse("8x8", topology="torus")
    # a1 -> h7 is one move across both edges on the torus (steps_are_moves).
    assert (
        make_distance(
            torus,
            KNIGHT,
            (0, 0),
            (7, 6),
            [(0, 0), (7, 6)],
            method="x",
            started=time.perf_counter(),
        ).distance
        == 1
    )


def test_unknown_backend() -> None:
    with pytest.raises(InvalidInputError, match="backend"):
        solve_move_counts(
            Board.parse("8x8"), KNIGHT, (0, 0), (1, 1), run=OPTIONS.start(), backend="x"
        )


def test_order_moves_a1_b2() -> None:
    graph = move_graph(Board.parse("8x8"), KNIGHT)
    counts = [0] * 8
    labels = [move_label(v) for v in graph.moves.tolist()]
    counts[labels.index("+2,-1")] = 1
    counts[labels.index("-1,+2")] = 1
    # Both orders leave the board from a1 (col -1 or row -1) ...
    assert order_moves(graph, (0, 0), counts) is None
    # ... but from c3 they stay on it.
    path = order_moves(graph, (2, 2), counts)
    assert path is not None
    assert path[-1] == (3, 3)


def test_lattice_combination() -> None:
    rng = random.Random(4)
    for vector in [(1, 2), (1, 3), (2, 3), (0, 2), (1, 2, 3)]:
        piece = Leaper(vector)
        dim = max(2, len(vector))
        moves = piece.moves(dim).tolist()
        for _ in range(20):
            offset = [rng.randint(-9, 9) for _ in range(dim)]
            y = lattice_combination(moves, offset)
            if y is not None:
                got = [
                    sum(c * m[a] for c, m in zip(y, moves, strict=True))
                    for a in range(dim)
                ]
                assert got == offset
        # Colour: camel and (0,2) never change the parity of row + col.
        if vector in [(1, 3), (0, 2)]:
            assert lattice_combination(moves, [0, 1]) is None
    assert lattice_combination(KNIGHT.moves(2).tolist(), [0, 1]) is not None


def test_plane3_agrees_with_bfs_near_the_centre() -> None:
    # On an 11x11x11 box, offsets of at most 2 from the centre never need to
    # leave it: BFS there is the distance on the unbounded plane3.
    box = Board.parse("11x11x11")
    graph = move_graph(box, KNIGHT)
    centre = (5, 5, 5)
    levels = bfs_levels(graph, graph.node(centre))
    plane3 = Board.parse("plane3")
    for offset in [(0, 0, 1), (1, 1, 1), (2, 2, 0), (0, 1, 2), (2, 2, 2)]:
        target = tuple(c + o for c, o in zip(centre, offset, strict=True))
        d = solve_move_counts(plane3, KNIGHT, (0, 0, 0), offset, run=OPTIONS.start())
        assert d.distance == levels[graph.node(target)]


# --------------------------------------------------------------- formulations


def test_move_count_formulation_and_export(tmp_path: Path) -> None:
    from ortools.linear_solver.python import model_builder as mb

    model = build_move_count_model("8x8", "a1", "b2", cuts=[[0, 1, 0, 0, 1, 0, 0, 0]])
    text = model.formulation()
    assert "n[+1,+2]" in text
    assert "cut 1: n[+2,-1] <= 0 or n[-1,+2] <= 0" in text
    lp = model.export(tmp_path / "a1b2.lp").read_text()
    # LP names cannot hold + or -: n[+1,-2] is spelt n[p1,m2].
    assert " row: " in lp
    assert "n[p1,m2]" in lp
    assert "Generals" in lp
    back = mb.Model()  # type: ignore[no-untyped-call]
    assert back.import_from_mps_string(model.export(tmp_path / "a1b2.mps").read_text())
    # 8 counts and 3 cut literals; 2 axes, the total, and 4 rows for the cut.
    assert back.num_variables == 11
    assert back.num_constraints == 7
    with pytest.raises(InvalidInputError, match=r"\.lp or \.mps"):
        model.export(tmp_path / "a1b2.txt")


def test_torus_formulation_has_wrap_counts() -> None:
    torus = Board.parse("8x8", topology="torus")
    text = build_move_count_model(torus, "a1", "b2").formulation()
    assert "w[row]" in text
    assert "- 8 w[col] = 1" in text


def test_flow_formulation_points_out_integrality(tmp_path: Path) -> None:
    model = build_flow_model("8x8", "a1", "b2")
    text = model.formulation()
    assert "totally unimodular" in text
    assert "arc[a1->b3]" in text
    path = model.export(tmp_path / "flow.mps")
    assert "arc[a1->b3]" in path.read_text()


def test_exported_model_solves_to_the_bound(tmp_path: Path) -> None:
    from ortools.linear_solver.python import model_builder as mb

    path = build_move_count_model("8x8", "a1", "b2").export(tmp_path / "m.mps")
    model = mb.Model()  # type: ignore[no-untyped-call]
    assert model.import_from_mps_file(str(path))
    solver = mb.Solver("scip")
    solver.enable_output(False)
    assert solver.solve(model) == mb.SolveStatus.OPTIMAL
    assert round(solver.objective_value) == 2  # the plane's answer (MISSION.md)


# ------------------------------------------------------------------ hypothesis

LEAPERS = [(1, 2), (1, 3), (2, 3), (0, 1), (1, 1), (1, 4)]


@st.composite
def instances(draw: st.DrawFn) -> tuple[Board, Leaper, Cell, Cell]:
    rows = draw(st.integers(3, 7))
    cols = draw(st.integers(3, 7))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    blocked = draw(st.sets(st.sampled_from(cells), max_size=rows * cols // 4))
    open_cells = [c for c in cells if c not in blocked]
    topologies: list[Topology] = ["bounded", "torus", "cylinder"]
    topology = draw(st.sampled_from(topologies))
    board = Board((rows, cols), blocked, topology=topology)
    piece = Leaper(draw(st.sampled_from(LEAPERS)))
    if not open_cells:
        open_cells = cells
        board = Board((rows, cols), topology=topology)
    source = draw(st.sampled_from(open_cells))
    target = draw(st.sampled_from(open_cells))
    return board, piece, source, target


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(instances())
def test_random_boards_ip_flow_bfs(
    instance: tuple[Board, Leaper, Cell, Cell],
) -> None:
    board, piece, source, target = instance
    graph = move_graph(board, piece)
    expected = int(bfs_levels(graph, graph.node(source))[graph.node(target)])
    both = _ip_and_flow(board, piece, source, target, expected)
    if both is None:
        return
    ip, _ = both
    if board.topology == "torus" and not board.blocked:
        assert ip.details["bound"] == expected
