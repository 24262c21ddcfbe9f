"""Knight swaps: published answers, the engines against a brute force, the checker."""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from cpknight.api.swaps import compare_swaps, solve_swap, swap_instance, try_swap
from cpknight.board import Board, Cell, Topology
from cpknight.cli import EXIT_BAD_INPUT, main
from cpknight.errors import (
    EngineError,
    InvalidBoardError,
    InvalidInputError,
    ModelTooBigError,
    NoPathError,
    SolveLimitError,
    TourCheckError,
)
from cpknight.pieces import Leaper
from cpknight.solving import Clock, Run, SolveOptions
from cpknight.swaps.common import SwapInstance, check_swap, make_swap, placement
from cpknight.swaps.cpsat import build_swap_model
from cpknight.swaps.drawings import read_drawings

OPTIONS = SolveOptions(time_limit=60, workers=1, seed=0)


# ---------------------------------------------------------------- published


@pytest.mark.parametrize("method", ["bfs", "cpsat"])
def test_guarini_takes_16_moves(method: str) -> None:
    # Guarini di Forli (1512): the two white and two black knights of a 3x3
    # board change places in 16 moves (Dudeney, "Amusements in Mathematics",
    # 1917, the "buttons and string" method; the MISSION's published numbers).
    swap = solve_swap("guarini", method=method, options=OPTIONS)
    assert (swap.moves, str(swap.status), swap.bound) == (16, "optimal", 16)
    check_swap(swap.board, swap.start, swap.goal, swap.steps)


def test_guy_3x4_ordered_pairs_take_32_moves() -> None:
    # Richard Guy, "Swapping knights", seqfan and math-fun lists, 15-17 Oct
    # 2010: n ordered pairs on 3 x n (S_i on the top rank swaps with s_i below
    # it on the first): "n = 4: 32 moves are necessary and sufficient".
    swap = solve_swap("guy3x4", method="bfs", options=OPTIONS)
    assert (swap.moves, str(swap.status)) == (32, "optimal")
    assert dict(swap.start)["A"] == ((2, 0),)
    assert dict(swap.goal)["A"] == ((0, 0),)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_guy_is_impossible_below_4(n: int) -> None:
    # Guy (same message): "Not possible for n = 1, 2, 3."
    outcome = try_swap(f"guy3x{n}", method="bfs", options=OPTIONS)
    assert str(outcome.status) == "infeasible"


# ------------------------------------------------------------- brute force


def _neighbours(board: Board, piece: Leaper, cell: Cell) -> list[Cell]:
    """The cells one move away, from the move vectors (not the move graph)."""
    out = []
    for vector in piece.moves(board.dim).tolist():
        to = []
        for axis, (x, d) in enumerate(zip(cell, vector, strict=True)):
            y = x + d
            if board.wrap[axis]:
                y %= board.shape[axis]
            to.append(y)
        target = tuple(to)
        if target != cell and board.contains(target) and board.is_open(target):
            out.append(target)
    return sorted(set(out))


def _brute_moves(instance: SwapInstance) -> int | None:
    """Plain BFS over knights tracked one by one (no canonical states)."""
    board, piece = instance.board, instance.piece
    colour = [c for c, cells in instance.start for _ in cells]
    first = tuple(cell for _, cells in instance.start for cell in cells)
    want = {(c, cell) for c, cells in instance.goal for cell in cells}
    seen = {first: 0}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        if set(zip(colour, state, strict=True)) == want:
            return seen[state]
        taken = set(state)
        for i, cell in enumerate(state):
            for to in _neighbours(board, piece, cell):
                if to not in taken:
                    nxt = (*state[:i], to, *state[i + 1 :])
                    if nxt not in seen:
                        seen[nxt] = seen[state] + 1
                        queue.append(nxt)
    return None


def _random_instance(seed: int) -> SwapInstance:
    rng = random.Random(seed)
    rows, cols = rng.choice([(3, 3), (3, 4), (4, 4), (2, 5), (4, 3)])
    cells: list[Cell] = [(r, c) for r in range(rows) for c in range(cols)]
    blocked = rng.sample(cells, rng.randint(0, 2))
    topologies: list[Topology] = ["bounded", "bounded", "torus", "cylinder"]
    topology = rng.choice(topologies)
    board = Board((rows, cols), blocked, topology=topology)
    piece = Leaper(rng.choice([(1, 2), (1, 2), (0, 1), (1, 1), (1, 3)]))
    free = [c for c in cells if c not in blocked]
    counts = rng.choice([[1, 1], [2, 1], [2, 2], [1, 1, 1], [3]])
    picked = rng.sample(free, sum(counts))
    goal_cells = rng.sample(free, sum(counts))
    start: dict[str, list[Cell]] = {}
    goal: dict[str, list[Cell]] = {}
    at = 0
    for colour, k in zip("WBR", counts, strict=False):
        start[colour] = picked[at : at + k]
        goal[colour] = goal_cells[at : at + k]
        at += k
    return swap_instance(start, goal, board=board, piece=piece)


@pytest.mark.parametrize("seed", range(24))
def test_engines_agree_with_a_brute_force(seed: int) -> None:
    instance = _random_instance(seed)
    expected = _brute_moves(instance)
    for method in ("bfs", "cpsat"):
        outcome = try_swap(
            instance.start,
            instance.goal,
            board=instance.board,
            piece=instance.piece,
            method=method,
            options=OPTIONS,
        )
        if expected is None:
            # bfs proves it; cpsat proves it only when the distances do
            if method == "bfs" or str(outcome.status) != "unknown":
                assert str(outcome.status) == "infeasible", (method, outcome.reason)
            continue
        assert str(outcome.status) == "optimal", (method, outcome.reason)
        assert outcome.value.moves == expected, method


@pytest.mark.parametrize("seed", [3, 15, 25, 39])
def test_bfs_one_state_at_a_time_agrees(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Placements past 64 bits are searched one at a time in Python: force
    # that kernel on small instances and compare with the brute force.
    from cpknight.swaps import bfs

    instance = _random_instance(seed)
    expected = _brute_moves(instance)
    monkeypatch.setattr(bfs.Packing, "fits", property(lambda self: False))
    outcome = try_swap(
        instance.start,
        instance.goal,
        board=instance.board,
        piece=instance.piece,
        method="bfs",
        options=OPTIONS,
    )
    if expected is None:
        assert str(outcome.status) == "infeasible"
    else:
        assert outcome.value.moves == expected


def test_cpsat_gives_up_at_the_limit_with_a_bound() -> None:
    # An impossible puzzle the distances cannot see: the horizon grows until
    # the limit, and the bound says how far it was proved.
    outcome = try_swap("guy3x3", method="cpsat", time_limit=2)
    assert str(outcome.status) == "unknown"
    assert outcome.bound is not None
    assert outcome.bound >= 4


# ---------------------------------------------------------------- checker


def _guarini() -> SwapInstance:
    return swap_instance("guarini")


def test_the_checker_refuses_an_illegal_move() -> None:
    inst = _guarini()
    with pytest.raises(TourCheckError, match=r"step 1 \(a1-b2\) is not a knight"):
        check_swap(inst.board, inst.start, inst.goal, [("a1", "b2")])


def test_the_checker_refuses_a_move_onto_a_knight() -> None:
    b = Board.parse("3x4")
    start = placement({"W": ["a1", "c2"]}, b)
    with pytest.raises(TourCheckError, match="lands on c2, which holds a knight"):
        check_swap(b, start, start, [("a1", "c2")])


def test_the_checker_refuses_a_move_from_an_empty_cell() -> None:
    inst = _guarini()
    with pytest.raises(TourCheckError, match="starts on b1, which is empty"):
        check_swap(inst.board, inst.start, inst.goal, [("b1", "c3")])


def test_the_checker_refuses_the_wrong_final_placement() -> None:
    inst = _guarini()
    swap = solve_swap("guarini", method="bfs")
    steps = list(swap.steps)
    with pytest.raises(TourCheckError, match="not as the goal"):
        check_swap(inst.board, inst.start, inst.goal, steps[:-1])
    # the start for its own goal: the same moves now end elsewhere
    with pytest.raises(TourCheckError, match="not as the goal"):
        check_swap(inst.board, inst.start, inst.start, steps)


def test_make_swap_refuses_a_bad_engine_answer() -> None:
    inst = _guarini()
    graph = inst.graph
    bad = [(graph.node((0, 0)), graph.node((1, 2)))]  # a1-c2, then nothing
    with pytest.raises(EngineError, match="internal error: engine 'x'"):
        make_swap(inst, bad, status="optimal", bound=1, method="x", started=0.0)


def test_a_swap_is_an_answer() -> None:
    from cpknight.engines import outcome_of
    from cpknight.results import Answer

    answer: Answer = solve_swap("guarini", method="bfs")  # the type checker too
    outcome = outcome_of("swap", answer, SolveOptions().start(), method="?")
    assert (outcome.method, str(outcome.status), outcome.bound) == (
        "bfs",
        "optimal",
        16,
    )
    assert outcome.effort == answer.effort


def test_the_move_count_matches_the_steps() -> None:
    swap = solve_swap("guarini", method="bfs")
    assert swap.moves == len(swap.steps) == len(swap.names()) == 16
    frames = list(swap.placements())
    assert len(frames) == 17
    assert sorted(frames[-1].items()) == sorted(
        (cell, colour) for colour, cells in swap.goal for cell in cells
    )


# ------------------------------------------------------------ input, sizes


def test_bfs_refuses_a_state_space_too_big_in_one_line() -> None:
    # 8 white and 8 black knights trade the two back ranks of 8x8.
    start = {"W": [f"{f}1" for f in "abcdefgh"], "B": [f"{f}8" for f in "abcdefgh"]}
    goal = {"W": start["B"], "B": start["W"]}
    with pytest.raises(ModelTooBigError) as info:
        solve_swap(start, goal, board="8x8", method="bfs")
    message = str(info.value)
    assert "\n" not in message
    assert "placements" in message
    assert "use --method cpsat" in message


def test_bfs_checks_the_budget_before_each_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Guy's 3x4 has 19,958,400 placements, and bfs holds only the levels it
    # reaches (about 700,000): it runs in the default budget, and with a
    # budget of 20 MB it stops at the level that would pass it, in one line.
    assert solve_swap("guy3x4", method="bfs").moves == 32  # Guy, 2010
    code = main(["swap", "guy3x4", "--method", "bfs", "--memory", "20"])
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT  # too big: refused, as bad input is
    assert err.count("\n") == 1
    assert "breadth-first search" in err
    assert "over the memory budget of 20 MB" in err


def test_drawings_with_blocked_cells(tmp_path: Path) -> None:
    path = tmp_path / "puzzle.txt"
    path.write_text("; a corridor\nW.#\n.B.\n\nB.#\n.W.\n")
    swap = solve_swap(str(path), piece="0,1", method="bfs")
    assert swap.board.blocked == frozenset({(1, 2)})
    assert swap.moves == _brute_moves(swap_instance(str(path), piece="0,1"))


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("W.\n..\n", "expected two drawings"),
        ("W.\n..\n\n.W\n#.\n", "must show the same board"),
        ("W.\n..\n\n.B\n..\n", "the goal must have the start's knights"),
        ("W?\n..\n\n.W\n..\n", "found '?'"),
    ],
)
def test_bad_drawings_are_refused(text: str, error: str) -> None:
    with pytest.raises((InvalidBoardError, InvalidInputError), match=error):
        read_drawings(text)


def test_a_start_placement_needs_a_board_and_a_goal() -> None:
    with pytest.raises(InvalidInputError, match="needs goal= and board="):
        solve_swap({"W": ["a1"]})
    with pytest.raises(InvalidInputError, match="brings its own board"):
        solve_swap("guarini", {"W": ["a1"]})


def test_compare_runs_both_engines() -> None:
    c = compare_swaps("guy3x2", methods="all", options=OPTIONS)
    assert [str(o.status) for o in c.rows] == ["infeasible", "infeasible"]
    with pytest.raises(NoPathError):
        solve_swap("guy3x2", method="cpsat")


def test_the_model_prints_its_own_numbers() -> None:
    model = build_swap_model(swap_instance("guarini"), horizon=16)
    text = model.formulation()
    assert "T = 16 moves" in text
    assert f"move Booleans {model.sizes()['move Booleans']}" in text


def test_build_model_and_export(tmp_path: Path) -> None:
    from cpknight.api.formulation import build_model

    model = build_model("swap", "guarini", horizon=16)
    assert "4 knights of 2 colours on 3x3" in model.formulation()
    path = tmp_path / "guarini.pb.txt"
    model.export(path)
    assert "move[W,a1->c2,1]" in path.read_text()


def test_auto_runs_cpsat_past_the_placements_bfs_holds() -> None:
    start = {"W": [f"{f}1" for f in "abcdefgh"], "B": [f"{f}8" for f in "abcdefgh"]}
    goal = {"W": start["B"], "B": start["W"]}
    outcome = try_swap(start, goal, board="8x8", time_limit=1)
    assert (outcome.method, str(outcome.status)) == ("cpsat", "unknown")


def test_guarini_on_a_torus_against_the_brute_force() -> None:
    instance = swap_instance("guarini", topology="torus")
    swap = solve_swap("guarini", topology="torus", method="bfs")
    assert swap.board.topology == "torus"
    assert swap.moves == _brute_moves(instance)


# -------------------------------------------------------------------- CLI


def test_cli_swap_json_and_pictures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg, page = tmp_path / "s.svg", tmp_path / "s.html"
    code = main(
        ["swap", "guarini", "--json", "--svg", str(svg), "--animate", str(page)]
    )
    document = json.loads(capsys.readouterr().out)
    assert code == 0
    assert document["moves"] == 16 == len(document["steps"])
    assert document["steps"][0][0] in [[0, 0], [0, 2], [2, 0], [2, 2]]
    assert svg.read_text().startswith("<svg")
    assert page.read_text().count('class="knight"') == 4


def test_cli_swap_reads_a_file_on_a_torus(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "puzzle.txt"
    path.write_text("W . B\n. # .\n\nB . W\n. # .\n")
    instance = swap_instance(str(path), topology="torus")
    code = main(["swap", str(path), "--torus", "--method", "cpsat"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"swap of {_brute_moves(instance)} moves on 2x3 (1 blocked) torus" in out
    assert "B . W" in out  # the goal drawn beside the start


def test_cli_swap_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["swap", "guy3x3"]) == 1
    assert main(["swap", "nowhere"]) == 2
    assert "expected a puzzle in guarini" in capsys.readouterr().err
    assert main(["swap", "guy3x4", "--method", "cpsat", "--time-limit", "1"]) == 3


# ------------------------------------------------- bounds at the limit


class _ExpiresAt(Clock):
    """A clock that expires at its ``checks``-th deadline check: no wall-clock luck."""

    def __init__(self, checks: int) -> None:
        super().__init__(3600.0)  # a limit to name, never reached by the wall clock
        self.left = checks

    def expired(self, grace: float = 0.0) -> bool:
        self.left -= 1
        return self.left < 0


def _layer_sizes(instance: SwapInstance, placement_: Any) -> list[int]:
    """How many placements lie at each distance from ``placement_`` (plain BFS).

    Placements are each colour's set of cells, moved by the move vectors
    (``_neighbours``), not by the engine's move graph or packing.
    """
    board, piece = instance.board, instance.piece
    first = tuple(frozenset(cells) for _, cells in placement_)
    seen = {first}
    layer = [first]
    sizes = []
    while layer:
        sizes.append(len(layer))
        after = []
        for state in layer:
            taken = set().union(*state)
            for g, group in enumerate(state):
                for cell in group:
                    for to in _neighbours(board, piece, cell):
                        if to in taken:
                            continue
                        moved = (*state[:g], group - {cell} | {to}, *state[g + 1 :])
                        if moved not in seen:
                            seen.add(moved)
                            after.append(moved)
        layer = after
    return sizes


def _searched(instance: SwapInstance, distance: int) -> dict[int, tuple[int, int]]:
    """Placements reached -> levels searched from (start, goal), before the meet.

    The engine's documented order: grow the side with the smaller last level
    (the start's on a tie); it meets once the two depths add up to the distance.
    """
    ahead, back = (
        _layer_sizes(instance, instance.start),
        _layer_sizes(instance, instance.goal),
    )
    levels = [1, 1]
    stops = {2: (1, 1)}
    while levels[0] + levels[1] - 2 < distance:
        side = 0 if ahead[levels[0] - 1] <= back[levels[1] - 1] else 1
        levels[side] += 1
        if levels[0] + levels[1] - 2 == distance:
            break  # this level meets the other side: solved, not stopped
        reached = sum(ahead[: levels[0]]) + sum(back[: levels[1]])
        stops[reached] = (levels[0], levels[1])
    return stops


def _stopped_at(instance: SwapInstance, checks: int) -> Any:
    """The bfs engine's swap, or its limit error at deadline check ``checks``."""
    from cpknight.swaps import bfs

    try:
        return bfs.solve(instance, Run(OPTIONS, _ExpiresAt(checks)))
    except SolveLimitError as stopped:
        return stopped


@pytest.mark.parametrize(
    "puzzle", ["guarini", "guarini-torus", "seed-6", "seed-25", "seed-39"]
)
def test_bfs_stopped_at_any_check_reports_the_levels_it_searched(
    puzzle: str,
) -> None:
    # Searched levels 0..A-1 from the start and 0..B-1 from the goal without
    # meeting prove more than A + B - 2 moves (and every answer has the
    # board's parity). Stop the search at every one of its deadline checks in
    # turn, by a clock that expires at the k-th check, and hold the bound it
    # reports to that, recomputed from a plain BFS here; a proved bound is
    # never past the true distance (16 for Guarini: 18 was reported once).
    from cpknight.swaps.bounds import lower_bound, parity

    if puzzle.startswith("seed-"):
        instance = _random_instance(int(puzzle[5:]))
    else:
        topology: Topology = "torus" if puzzle.endswith("torus") else "bounded"
        instance = swap_instance("guarini", topology=topology)
    distance = _brute_moves(instance)
    assert distance is not None
    assert distance > 2
    stops = _searched(instance, distance)
    least, step = lower_bound(instance), parity(instance)
    seen: set[int] = set()
    for checks in range(10_000):
        ended = _stopped_at(instance, checks)
        if not isinstance(ended, SolveLimitError):
            assert ended.moves == distance
            break
        reached = ended.effort.attempts
        assert reached in stops, (checks, reached, stops)
        a, b = stops[reached]
        proved = max(least, a + b - 1)
        if step is not None and proved % 2 != step:
            proved += 1
        assert ended.bound == proved, (checks, a, b)
        assert ended.bound <= distance
        seen.add(reached)
    else:
        raise AssertionError("the search never finished")
    assert seen == set(stops)  # it was stopped after every level it searched


def test_cli_swap_reads_its_drawings_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    drawings = "W . B\n. # .\n\nB . W\n. # .\n"
    instance = swap_instance(drawings, topology="torus")
    monkeypatch.setattr("sys.stdin", io.StringIO(drawings))
    assert main(["swap", "-", "--torus", "--method", "bfs"]) == 0
    assert f"swap of {_brute_moves(instance)} moves" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("guarini\n"))  # drawings only
    assert main(["swap", "-"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "expected two drawings" in err
