"""Tours with the fewest turns or crossings, and semi-magic tours.

The expected minima are computed here, by enumerating every tour of a small
board with a search written for this file and scoring each with counters
written for this file (a turn: the next cell is not ``2 * here - previous``; a
crossing: the integer orientation test). CP-SAT's optimum must equal them, and
the package's own checker (:mod:`cpknight.scores`) must agree with these
counters on every enumerated tour.
"""

from __future__ import annotations

import itertools
import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from cpknight import Board, count_tours, find_tour, iter_tours, tour_constraints
from cpknight.cli import EXIT_BAD_INPUT, EXIT_OK, main
from cpknight.errors import EngineError, InvalidInputError, SolveLimitError
from cpknight.pieces import KNIGHT
from cpknight.results import ScoredTour
from cpknight.scores import count_crossings, count_turns, make_scored_tour
from cpknight.solving import SolveOptions

Cell = tuple[int, int]
KNIGHT_STEPS = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
OPTIONS = SolveOptions(time_limit=30, workers=1, seed=0)


# ------------------------------------------------------------ brute force


def all_tours(
    rows: int,
    cols: int,
    *,
    closed: bool,
    blocked: Sequence[Cell] = (),
    start: Cell | None = None,
    magic_files: bool = False,
) -> list[list[Cell]]:
    """Every knight's tour, as cell lists (closed: from the first cell, both ways).

    Depth first, cut when a free cell can no longer be passed through (no link
    left, or, for a path, two cells that could only be its end). With
    ``magic_files`` (a full board) only the tours whose files share a sum,
    cut when a file's free cells can no longer make its sum up.
    """
    cells = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in blocked]
    index = {cell: i for i, cell in enumerate(cells)}
    nbrs = [
        [index[(r + a, c + b)] for a, b in KNIGHT_STEPS if (r + a, c + b) in index]
        for r, c in cells
    ]
    n = len(cells)
    path: list[int] = []
    seen = [False] * n
    free = [len(x) for x in nbrs]
    found: list[list[Cell]] = []
    total = len(cells) * (len(cells) + 1) // 2
    file_sum, file_left = [0] * cols, [rows] * cols

    def unreachable() -> bool:
        k = len(path)  # numbers 1..k are placed; the rest are k+1..n
        for c in range(cols):
            left, need = file_left[c], total // cols - file_sum[c]
            low = left * (2 * k + left + 1) // 2
            high = left * (2 * len(cells) - left + 1) // 2
            if not low <= need <= high:
                return True
        return False

    def dead(v: int) -> bool:
        ends = 0
        for u in range(n):
            if seen[u]:
                continue
            links = free[u] + (v in nbrs[u])
            links += closed and len(path) > 1 and path[0] in nbrs[u]
            if links == 0:
                return True
            if links == 1 and v not in nbrs[u]:
                ends += 1
        return ends > (0 if closed else 1)

    def visit(u: int) -> None:
        seen[u] = True
        path.append(u)
        file_sum[cells[u][1]] += len(path)
        file_left[cells[u][1]] -= 1
        for w in nbrs[u]:
            free[w] -= 1

    def leave(u: int) -> None:
        for w in nbrs[u]:
            free[w] += 1
        file_sum[cells[u][1]] -= len(path)
        file_left[cells[u][1]] += 1
        path.pop()
        seen[u] = False

    def extend(v: int) -> None:
        if len(path) == n:
            if not closed or path[0] in nbrs[v]:
                found.append([cells[i] for i in path])
            return
        if dead(v) or (magic_files and unreachable()):
            return
        for u in nbrs[v]:
            if not seen[u]:
                visit(u)
                extend(u)
                leave(u)

    starts = [index[start]] if start else ([0] if closed else range(n))
    for s in starts:
        visit(s)
        extend(s)
        leave(s)
    return found


def turns_by_hand(cells: Sequence[Cell], closed: bool) -> int:
    """Cells where the next cell is not the straight continuation."""
    n = len(cells)
    places = range(n) if closed else range(1, n - 1)
    count = 0
    for i in places:
        (pr, pc), (r, c), (nr, nc) = cells[i - 1], cells[i], cells[(i + 1) % n]
        count += (nr, nc) != (2 * r - pr, 2 * c - pc)
    return count


def _orient(a: Cell, b: Cell, c: Cell) -> int:
    value = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (value > 0) - (value < 0)


def _on(a: Cell, b: Cell, p: Cell) -> bool:
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[
        1
    ] <= max(a[1], b[1])


def crossings_by_hand(cells: Sequence[Cell], closed: bool) -> int:
    """Pairs of drawn moves sharing a point that is not a common end."""
    moves = list(itertools.pairwise(cells))
    if closed:
        moves.append((cells[-1], cells[0]))
    count = 0
    for (p, q), (s, t) in itertools.combinations(moves, 2):
        common = {p, q} & {s, t}
        if common:
            # knight moves from one cell never overlap: a shared end is no crossing
            (x,) = common
            a, b = (q if p == x else p), (t if s == x else s)
            same_way = (a[0] - x[0]) * (b[0] - x[0]) + (a[1] - x[1]) * (b[1] - x[1])
            count += _orient(x, a, b) == 0 and same_way > 0
            continue
        o1, o2, o3, o4 = (
            _orient(p, q, s),
            _orient(p, q, t),
            _orient(s, t, p),
            (_orient(s, t, q)),
        )
        if (o1 * o2 < 0 and o3 * o4 < 0) or (
            (o1 == 0 and _on(p, q, s))
            or (o2 == 0 and _on(p, q, t))
            or (o3 == 0 and _on(s, t, p))
            or (o4 == 0 and _on(s, t, q))
        ):
            count += 1
    return count


BY_HAND = {"turns": turns_by_hand, "crossings": crossings_by_hand}

# (rows, cols, closed, blocked, start): each enumerated here in under a second.
BOARDS = {
    "3x4 open": (3, 4, False, (), None),
    "5x5 open": (5, 5, False, (), None),
    "5x5 open from a1": (5, 5, False, (), (0, 0)),
    "3x10 closed": (3, 10, True, (), None),
    "5x6 closed": (5, 6, True, (), None),
    "4x5 open, a1 blocked": (4, 5, False, ((0, 0),), None),
}


@pytest.fixture(scope="module")
def enumerated() -> dict[str, list[list[Cell]]]:
    return {
        name: all_tours(rows, cols, closed=closed, blocked=blocked, start=start)
        for name, (rows, cols, closed, blocked, start) in BOARDS.items()
    }


def _board(rows: int, cols: int, blocked: Sequence[Cell]) -> Board:
    return Board((rows, cols), list(blocked))


def test_the_brute_force_counts_the_published_tours(
    enumerated: dict[str, list[list[Cell]]],
) -> None:
    # 5x5 open: 1728 directed (A165134); 3x10 closed: 16 (A070030), 5x6
    # closed: 8 (A003192's companion table, Jelliss): listed both ways here.
    assert len(enumerated["5x5 open"]) == 1728
    assert len(enumerated["3x10 closed"]) == 2 * 16
    assert len(enumerated["5x6 closed"]) == 2 * 8


@pytest.mark.parametrize("objective", ["turns", "crossings"])
@pytest.mark.parametrize("name", list(BOARDS))
def test_cpsat_optimum_equals_brute_force(
    name: str, objective: str, enumerated: dict[str, list[list[Cell]]]
) -> None:
    rows, cols, closed, blocked, start = BOARDS[name]
    board = _board(rows, cols, blocked)
    want = min(BY_HAND[objective](t, closed) for t in enumerated[name])
    tour = find_tour(
        board,
        closed=closed,
        start=start,
        method="cpsat",
        options=OPTIONS,
        constraints=tour_constraints(board, minimise=objective),
    )
    assert isinstance(tour, ScoredTour)
    assert str(tour.status) == "optimal"
    assert tour.value == tour.bound == want
    assert BY_HAND[objective]([(r, c) for r, c in tour.cells], closed) == want
    assert tour.as_dict()[objective] == want
    if start is not None:
        assert tour.start == start


@pytest.mark.parametrize("workers", [1, 8])
@pytest.mark.parametrize("objective", ["turns", "crossings"])
@pytest.mark.parametrize("name", ["5x5 open", "5x6 closed"])
def test_the_reported_bound_never_passes_the_optimum(
    name: str, objective: str, workers: int, enumerated: dict[str, list[list[Cell]]]
) -> None:
    # A CP-SAT version once reported a best bound past the true optimum with
    # presolve on (which the objective's solve keeps on). Stopped early or
    # run to the end, with one worker or a portfolio, the bound this
    # OR-Tools reports must stay at or below the optimum the brute force
    # finds, and the tour at or above it.
    rows, cols, closed, blocked, start = BOARDS[name]
    board = _board(rows, cols, blocked)
    want = min(BY_HAND[objective](t, closed) for t in enumerated[name])
    seen = 0
    for limit in (0.05, 0.2, 30.0):
        options = SolveOptions(time_limit=limit, workers=workers, seed=int(limit > 1))
        try:
            tour = find_tour(
                board,
                closed=closed,
                start=start,
                method="cpsat",
                options=options,
                constraints=tour_constraints(board, minimise=objective),
            )
        except SolveLimitError:  # stopped before its first tour: no bound said
            continue
        assert isinstance(tour, ScoredTour)
        assert tour.bound is not None  # a tour found: the solve's bound with it
        assert tour.bound <= want <= tour.value, (limit, tour.bound, tour.value)
        seen += 1
    assert seen >= 1  # the 30 s run ends with a tour, optimal


@pytest.mark.parametrize("name", ["3x4 open", "5x5 open", "5x6 closed"])
def test_the_checker_recounts_like_the_hand_counters(
    name: str, enumerated: dict[str, list[list[Cell]]]
) -> None:
    rows, cols, closed, blocked, _ = BOARDS[name]
    board = _board(rows, cols, blocked)
    for tour in enumerated[name][::7]:
        assert count_turns(board, tour, closed=closed) == turns_by_hand(tour, closed)
        assert count_crossings(board, tour, closed=closed) == crossings_by_hand(
            tour, closed
        )


def test_turns_wrap_on_a_torus() -> None:
    # Five (1, 2) moves on the 5x5 torus come back to a1 in a straight line.
    line = [(k % 5, 2 * k % 5) for k in range(5)]
    torus = Board.parse("5x5", topology="torus")
    assert count_turns(torus, line, closed=True) == 0
    plain = count_turns(Board.parse("5x5"), line, closed=True)  # not wrapped
    assert plain == turns_by_hand(line, True) == 4  # a1 c2 e3 are in line


def test_a_wrong_claim_is_an_engine_error(
    enumerated: dict[str, list[list[Cell]]],
) -> None:
    tour = enumerated["3x4 open"][0]
    board = Board.parse("3x4")
    value = turns_by_hand(tour, False)

    def scored(claimed: int | None, lower: int | None, optimal: bool) -> ScoredTour:
        return make_scored_tour(
            board,
            KNIGHT,
            tour,
            closed=False,
            method="hand",
            objective="turns",
            claimed=claimed,
            lower=lower,
            optimal=optimal,
        )

    with pytest.raises(EngineError, match="its model counts"):
        scored(value + 1, None, False)
    with pytest.raises(EngineError, match="below the proved bound"):
        scored(None, value + 1, False)
    ok = scored(value, value, True)
    assert ok.value == value
    assert str(ok.status) == "optimal"


def test_side_constraints_and_objective_together() -> None:
    # The fewest turns among open 5x5 tours from a1 through c3 at step 13.
    board = Board.parse("5x5")
    side = tour_constraints(board, minimise="turns", via=["c3@13"])
    tour = find_tour(board, closed=False, start="a1", options=OPTIONS, constraints=side)
    assert isinstance(tour, ScoredTour)
    assert str(tour.status) == "optimal"
    assert tour.cells[12] == (2, 2)
    want = min(
        turns_by_hand(t, False)
        for t in all_tours(5, 5, closed=False, start=(0, 0))
        if t[12] == (2, 2)
    )
    assert tour.value == want


def test_objective_refusals() -> None:
    with pytest.raises(InvalidInputError, match="expected an objective"):
        tour_constraints("6x6", minimise="moves")
    with pytest.raises(InvalidInputError, match="bounded 2D board"):
        tour_constraints(Board.parse("6x6", topology="torus"), minimise="crossings")
    with pytest.raises(InvalidInputError, match="does not take --min"):
        find_tour(
            "6x6",
            method="prune",
            constraints=tour_constraints("6x6", minimise="turns"),
        )


SCHEMA = json.loads(
    resources.files("cpknight.cli").joinpath("output.schema.json").read_text()
)


def test_cli_min_json_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tour", "5x5", "--open", "--min", "turns", "--json"])
    out, _ = capsys.readouterr()
    assert code == EXIT_OK
    row = json.loads(out)
    jsonschema.validate(row, SCHEMA)
    assert row["status"] == "optimal"
    assert row["turns"] == row["bound"]
    assert turns_by_hand([tuple(c) for c in row["cells"]], False) == row["turns"]
    code = main(["tour", "3x4", "--open", "--min", "crossings"])
    out, _ = capsys.readouterr()
    assert code == EXIT_OK
    assert "crossings (recounted), optimal" in out
    with pytest.raises(SystemExit) as stop:  # argparse refuses the choice
        main(["tour", "5x5", "--min", "bends"])
    assert stop.value.code == EXIT_BAD_INPUT


# ------------------------------------------------------------------ magic


def line_sums(
    cells: Sequence[Sequence[int]], rows: int, cols: int
) -> tuple[list[int], list[int]]:
    """The visit-number sums of each rank and of each file, recomputed."""
    ranks, files = [0] * rows, [0] * cols
    for k, (r, c) in enumerate(cells, start=1):
        ranks[r] += k
        files[c] += k
    return ranks, files


def short_lines_magic(cells: Sequence[Cell], rows: int, cols: int) -> bool:
    files = line_sums(cells, rows, cols)[1]
    return len(set(files)) == 1


# A328816 (semi-magic knight's tours of 4 x 2n, only the short lines magic):
# 0, 0, 0, 16, 104, ...; A309273 the same for 4 x n: ..., 9 (n = 7), 16 (n = 8).
# They count numbered tours up to the board's four symmetries: every directed
# tour has four images (a symmetry maps a numbered tour onto itself only if it
# fixes every cell), so the directed counts here are four times theirs.
SYMMETRIES_OF_A_RECTANGLE = 4


@pytest.mark.parametrize(
    ("cols", "published"),
    [
        pytest.param(6, 0, id="4x6 A328816 a(3)=0"),
        pytest.param(7, 9, id="4x7 A309273 a(7)=9"),
    ],
)
def test_short_line_magic_counts_by_enumeration(cols: int, published: int) -> None:
    board = Board((4, cols))
    side = tour_constraints(board, magic="files")
    found = all_tours(4, cols, closed=False, magic_files=True)
    by_hand = sum(short_lines_magic(t, 4, cols) for t in found)
    assert by_hand == len(found)
    counted = count_tours(board, closed=False, constraints=side, options=OPTIONS)
    assert by_hand == counted.directed == SYMMETRIES_OF_A_RECTANGLE * published
    assert counted.undirected * 2 == counted.directed


def test_a328816_4x8_by_cpsat_enumeration() -> None:
    side = tour_constraints("4x8", magic="files")
    counted = count_tours("4x8", closed=False, constraints=side, options=OPTIONS)
    assert str(counted.status) == "found"
    assert counted.directed == SYMMETRIES_OF_A_RECTANGLE * 16  # A328816 a(4)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("cols", "published"),
    [pytest.param(8, 16, id="4x8 A328816 a(4)=16")],
)
def test_a328816_by_independent_enumeration(cols: int, published: int) -> None:
    found = all_tours(4, cols, closed=False, magic_files=True)
    assert all(short_lines_magic(t, 4, cols) for t in found)
    assert len(found) == SYMMETRIES_OF_A_RECTANGLE * published


@pytest.mark.slow
def test_a328816_4x10_by_cpsat_enumeration() -> None:
    side = tour_constraints("4x10", magic="files")
    counted = count_tours(
        "4x10", closed=False, constraints=side, options=SolveOptions(time_limit=300)
    )
    assert counted.directed == SYMMETRIES_OF_A_RECTANGLE * 104  # A328816 a(5)


@pytest.mark.parametrize("lines", ["files", "ranks"])
def test_one_direction_magic_sums_recomputed(lines: str) -> None:
    board = Board.parse("4x8")
    tour = find_tour(
        board,
        closed=False,
        options=OPTIONS,
        constraints=tour_constraints(board, magic=lines),
    )
    ranks, files = line_sums(tour.cells, 4, 8)
    magic, other = (files, ranks) if lines == "files" else (ranks, files)
    assert len(set(magic)) == 1
    assert sum(magic) == 32 * 33 // 2
    # the 4 x 8 board has no tour magic both ways (A328816 counts the others)
    assert len(set(other)) > 1 or lines == "ranks"


def test_magic_counts_refused_for_closed_tours() -> None:
    with pytest.raises(InvalidInputError, match="closed tours"):
        count_tours("6x6", constraints=tour_constraints("6x6", magic=True))
    with pytest.raises(InvalidInputError, match="expected magic"):
        tour_constraints("6x6", magic="diagonals")


def test_beverley_has_the_quarters_structure() -> None:
    # The first phase's structure is Beverley's (1848): his tour, injected,
    # must be feasible in the structured model (it catches a structure that
    # over-constrains); its sums recomputed.
    from ortools.sat.python import cp_model

    from cpknight.constraints import read_given
    from cpknight.pieces import move_graph
    from cpknight.tours.cpsat import build_tour_model
    from cpknight.tours.cpsat.magic import add_quarter_structure
    from tests.test_constraints import BEVERLEY

    board = Board.parse("8x8")
    given = sorted(read_given(BEVERLEY, board), key=lambda p: p[1])
    seq = [(int(r), int(c)) for (r, c), _ in given]
    ranks, files = line_sums(seq, 8, 8)
    assert set(ranks) == set(files) == {260}
    graph = move_graph(board)
    side = tour_constraints(board, magic=True)
    # From Beverley's start: with free ends the model keeps one direction of
    # each path (his reverse, which has the structure too).
    bundle = build_tour_model(graph, closed=False, start=seq[0], constraints=side)
    add_quarter_structure(graph, bundle.model, list(bundle.positions))
    for k, cell in enumerate(seq):
        bundle.model.add(bundle.positions[graph.node(cell)] == k)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 20
    assert solver.solve(bundle.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


@pytest.mark.slow
def test_a_semi_magic_8x8_tour_is_found() -> None:
    tour = find_tour(
        "8x8",
        closed=False,
        options=SolveOptions(time_limit=180, workers=1, seed=0),
        constraints=tour_constraints("8x8", magic=True),
    )
    ranks, files = line_sums(tour.cells, 8, 8)
    assert set(ranks) == set(files) == {260}


@pytest.mark.parametrize("objective", ["turns", "crossings"])
def test_the_picture_marks_each_turn_or_crossing(
    objective: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "t.svg"
    code = main(["tour", "5x5", "--open", "--min", objective, "--svg", str(svg)])
    out, _ = capsys.readouterr()
    assert code == EXIT_OK
    value = int(next(x for x in out.splitlines() if "(recounted)" in x).split()[0])
    root = ET.fromstring(svg.read_text())
    marks = root.findall(
        f".//{{http://www.w3.org/2000/svg}}circle[@class='{objective[:-1]}']"
    )
    assert len(marks) == value


def test_formulation_and_count_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["formulation", "tour", "5x5", "--open", "--min", "crossings"]) == 0
    out, _ = capsys.readouterr()
    assert "objective: minimise crossings = sum cross[i x j]" in out
    assert "linear relaxation at level 2" in out
    assert main(["formulation", "tour", "8x8", "--open", "--magic"]) == 0
    out, _ = capsys.readouterr()
    assert "260 over each rank, 260 over each file" in out
    assert "quarters' structure" in out
    code = main(["count", "4x8", "--open", "--magic", "files", "--json"])
    out, _ = capsys.readouterr()
    assert code == EXIT_OK
    row = json.loads(out)
    jsonschema.validate(row, SCHEMA)
    assert row["directed"] == SYMMETRIES_OF_A_RECTANGLE * 16  # A328816 a(4)


def test_fewest_turns_on_a_small_torus() -> None:
    # On the 4x4 torus the moves (2, 1) and (-2, 1) are one step: each way of
    # going straight must count once. Every closed tour, listed by the prune
    # search, scored by a hand counter modulo 4.
    board = Board.parse("4x4", topology="torus")

    def turns_mod(cells: Sequence[Sequence[int]]) -> int:
        n = len(cells)
        return sum(
            tuple((cells[(i + 1) % n][a] - cells[i][a]) % 4 for a in (0, 1))
            != tuple((cells[i][a] - cells[i - 1][a]) % 4 for a in (0, 1))
            for i in range(n)
        )

    want = min(
        turns_mod(t.cells)
        for t in iter_tours(board, closed=True, method="prune", options=OPTIONS)
    )
    tour = find_tour(board, minimise="turns", method="cpsat", options=OPTIONS)
    assert isinstance(tour, ScoredTour)
    assert str(tour.status) == "optimal"
    assert tour.value == turns_mod(tour.cells) == want
