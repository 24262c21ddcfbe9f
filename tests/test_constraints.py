"""Tours with side constraints: CP-SAT and the searches against a brute force.

The expected answers are computed here by an independent method: the tests'
own enumeration of every directed tour (``brute_tours`` over ``brute_neighbours``
in tests/conftest.py, no cpknight code), filtered by this file's own reading of
each constraint (visit numbers off the sequence, moves as pairs of cells, the
symmetries as coordinate formulas). Every board up to 5x5 and random small
shapes for open tours; 3x10 and 5x6 (the small rectangles with closed tours,
Schwenk 1991) and random shapes for closed ones.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from cpknight import (
    Board,
    InvalidInputError,
    SolveOptions,
    TourConstraints,
    count_tours,
    find_tour,
    tour_constraints,
    try_tour,
)
from cpknight.api import compare_tours, iter_tours
from cpknight.cli import main
from cpknight.constraints import read_given
from cpknight.pieces import move_graph
from cpknight.tours.constrained import symmetry_certificate, symmetry_turn
from tests.conftest import Cell, brute_neighbours, brute_tours, independent_tour_check

OPTS = SolveOptions(time_limit=20, workers=1, seed=0)
BIG = 20
"""Open tours on boards of more open cells than this are tested from one start
(enumerating every start of 5x5 takes the brute force half a minute)."""
SEARCHES = ("backtrack", "warnsdorff", "prune")


# ------------------------------------------------------------------ oracle


@functools.cache
def _board(spec: str) -> Board:
    """A board from a size, a name, or ASCII art (rows of '.' and '#')."""
    if "\n" in spec:
        return Board.from_ascii(spec)
    size, _, topology = spec.partition(" ")
    return Board.parse(size, topology="torus" if topology else "bounded")


@functools.cache
def _tours(
    spec: str, closed: bool, start: Cell | None = None
) -> tuple[tuple[Cell, ...], ...]:
    """Every directed tour as a sequence: open from every start (or ``start``);
    closed from the first cell, then every rotation (each cell first in turn)."""
    board = _board(spec)
    nbrs = brute_neighbours(board, (1, 2))
    if not closed:
        return tuple(tuple(t) for t in brute_tours(nbrs, closed=False, start=start))
    if len(nbrs) < 3:
        return ()
    first = min(nbrs)
    out = []
    for t in brute_tours(nbrs, closed=True, start=first):
        out += [tuple(t[j:] + t[:j]) for j in range(len(t))]
    return tuple(out)


def _moves(seq: tuple[Cell, ...], closed: bool) -> set[frozenset[Cell]]:
    pairs = list(itertools.pairwise(seq))
    if closed:
        pairs.append((seq[-1], seq[0]))
    return {frozenset(p) for p in pairs}


def _image(board: Board, name: str) -> Callable[[Cell], Cell]:
    rows, cols = board.shape
    return {
        "rot180": lambda c: (rows - 1 - c[0], cols - 1 - c[1]),
        "rot90": lambda c: (c[1], rows - 1 - c[0]),
        "mirror-files": lambda c: (c[0], cols - 1 - c[1]),
        "mirror-ranks": lambda c: (rows - 1 - c[0], c[1]),
    }[name]


def _honours(
    board: Board, seq: tuple[Cell, ...], side: TourConstraints, closed: bool
) -> bool:
    """This file's own reading of the constraints."""
    if any(seq[k - 1] != cell for cell, k in side.via):
        return False
    used = _moves(seq, closed)
    if any(frozenset(e) not in used for e in side.require):
        return False
    if any(frozenset(e) in used for e in side.forbid):
        return False
    if side.symmetric:
        s = _image(board, side.symmetric)
        if {frozenset(map(s, e)) for e in used} != used:
            return False
    return True


def _want(spec: str, side: TourConstraints, closed: bool, start: Cell | None) -> int:
    """How many directed tours honour the constraints (from ``start`` if given)."""
    board = _board(spec)
    big = not closed and start is not None and board.n_open > BIG
    return sum(
        1
        for seq in _tours(spec, closed, start if big else None)
        if (start is None or seq[0] == start) and _honours(board, seq, side, closed)
    )


# --------------------------------------------------------------- instances


def _shapes() -> list[str]:
    """Every rectangle up to 5x5 with an open tour or a fair search, and random
    shapes with a few blocked cells (as ASCII files, top rank first)."""
    rng = random.Random(12)
    shapes = [f"{m}x{n}" for m in range(1, 6) for n in range(m, 6)]
    for _ in range(6):
        rows, cols = rng.choice([(4, 4), (4, 5), (5, 5), (3, 6)])
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        blocked = set(rng.sample(cells, rng.randint(1, 3)))
        art = "\n".join(
            "".join("#" if (r, c) in blocked else "." for c in range(cols))
            for r in reversed(range(rows))
        )
        shapes.append(art + "\n")
    return shapes


SHAPES = _shapes()
CLOSED_SHAPES = ["3x10", "3x4", "5x5", "4x4 torus"]


def _specs(
    spec: str, closed: bool, seed: int, start: Cell | None = None
) -> list[TourConstraints]:
    """Random constraints of each kind; half of them read off a real tour."""
    board = _board(spec)
    rng = random.Random(seed)
    cells = list(board.open_cells())
    graph = move_graph(board)
    tails, heads = graph.arcs()
    moves = [
        (graph.cell(int(t)), graph.cell(int(h)))
        for t, h in zip(tails.tolist(), heads.tolist(), strict=True)
        if t < h
    ]
    tours = _tours(spec, closed, start)
    name = board.cell_name
    out: list[TourConstraints] = []
    for _ in range(3):
        seq = rng.choice(tours) if tours and rng.random() < 0.6 else None
        n = len(cells)
        picks = rng.sample(range(1, n + 1), min(n, rng.randint(1, 2)))
        via = [f"{name(seq[k - 1] if seq else rng.choice(cells))}@{k}" for k in picks]
        out.append(
            tour_constraints(board, via=sorted(set(via))[:1] if not seq else via)
        )
        if moves:
            pool = sorted(_moves(seq, closed)) if seq else None
            chosen = (
                [tuple(sorted(rng.choice(pool))) for _ in range(2)]
                if pool
                else rng.sample(moves, min(2, len(moves)))
            )
            out.append(
                tour_constraints(
                    board, require=[f"{name(a)}-{name(b)}" for a, b in chosen]
                )
            )
            gone = rng.sample(moves, min(len(moves), rng.randint(1, 4)))
            out.append(
                tour_constraints(
                    board, forbid=[f"{name(a)}-{name(b)}" for a, b in gone]
                )
            )
    return out


def _ids(shapes: list[str]) -> list[str]:
    return [s.strip().replace("\n", "/") for s in shapes]


def _statuses(
    spec: str, side: TourConstraints, closed: bool, start: Cell | None, method: str
) -> str:
    outcome = try_tour(
        _board(spec),
        closed=closed,
        start=start,
        method=method,
        options=OPTS,
        constraints=side,
    )
    if outcome.tour is not None:
        board = _board(spec)
        seq = outcome.tour.cells
        assert independent_tour_check(board, (1, 2), seq, closed=closed)
        assert _honours(board, seq, side, closed), (method, side)
    return str(outcome.status)


# --------------------------------------------------------------- existence


@pytest.mark.parametrize("spec", SHAPES, ids=_ids(SHAPES))
def test_open_constraints_cpsat_and_search_equal_brute_force(spec: str) -> None:
    board = _board(spec)
    big = board.n_open > BIG
    fixed = min(board.open_cells()) if big else None
    # Warnsdorff's restarts make its proofs slow: its full share runs as slow.
    methods = (
        ("cpsat", *SEARCHES) if board.n_open <= 16 else ("cpsat", "backtrack", "prune")
    )
    for i, side in enumerate(_specs(spec, closed=False, seed=len(spec), start=fixed)):
        start = fixed if big else side.via[0][0] if i % 2 and side.via else None
        want = "found" if _want(spec, side, False, start) else "infeasible"
        for method in methods:
            got = _statuses(spec, side, False, start, method)
            assert got == want, (method, side)


@pytest.mark.slow
def test_open_5x5_constraints_from_any_start_equal_brute_force() -> None:
    for side in _specs("5x5", closed=False, seed=5):
        want = "found" if _want("5x5", side, False, None) else "infeasible"
        for method in ("cpsat", "prune", "warnsdorff"):
            assert _statuses("5x5", side, False, None, method) == want, method


@pytest.mark.parametrize("spec", CLOSED_SHAPES)
def test_closed_constraints_cpsat_and_search_equal_brute_force(spec: str) -> None:
    small = _board(spec).n_open <= BIG  # plain backtracking is slow on 3x10
    for side in _specs(spec, closed=True, seed=7):
        want = "found" if _want(spec, side, True, None) else "infeasible"
        for method in ("cpsat", "prune", *(("backtrack",) if small else ())):
            assert _statuses(spec, side, True, None, method) == want, (method, side)


SYMMETRIC = [
    (spec, name)
    for spec in ["3x10", "3x4", "5x5", "4x4", "4x4 torus"]
    for name in ("rot180", "rot90", "mirror-files", "mirror-ranks")
    if name != "rot90" or spec in ("5x5", "4x4", "4x4 torus")
]


@pytest.mark.parametrize(("spec", "name"), SYMMETRIC)
def test_symmetric_cpsat_equals_brute_force(spec: str, name: str) -> None:
    side = tour_constraints(_board(spec), symmetric=name)
    want = _want(spec, side, True, None)
    assert _statuses(spec, side, True, None, "cpsat") == (
        "found" if want else "infeasible"
    )
    # Counting: every directed closed tour from a fixed cell, both ways.
    first = min(_board(spec).open_cells())
    count = count_tours(_board(spec), options=OPTS, constraints=side)
    assert count.directed == _want(spec, side, True, first)


def test_symmetry_turn_is_where_every_symmetric_tour_puts_the_image() -> None:
    # symmetry_turn's claim, read off every symmetric closed tour the brute
    # force finds: each cell's image sits the same t (or n - t) places on.
    claimed = 0
    for spec, name in SYMMETRIC:
        board = _board(spec)
        turn = symmetry_turn(move_graph(board), name)
        if turn is None:
            continue
        side = tour_constraints(board, symmetric=name)
        image, n = _image(board, name), board.n_open
        for seq in _tours(spec, True):
            if not _honours(board, seq, side, closed=True):
                continue
            where = {c: i for i, c in enumerate(seq)}
            steps = {(where[image(c)] - where[c]) % n for c in seq}
            assert len(steps) == 1, (spec, name, seq)
            assert steps <= {turn, n - turn}, (spec, name, steps)
            claimed += 1
    assert claimed > 0  # some board above has such tours


@pytest.mark.parametrize(("spec", "name"), SYMMETRIC)
def test_symmetric_with_visit_numbers_equals_brute_force(spec: str, name: str) -> None:
    # Visit numbers bring in the turn rows (pos[s(v)] = pos[v] + t - n wraps[v]):
    # a cell's image pinned t places on, t + 2 places on, or anywhere.
    board = _board(spec)
    cells = sorted(board.open_cells())
    image, n = _image(board, name), board.n_open
    turn = symmetry_turn(move_graph(board), name) or n // 2
    rng = random.Random(len(spec) + len(name))
    for k in (1 + turn, 3 + turn, rng.randint(2, n)):
        first = rng.choice(cells)
        via = [f"{board.cell_name(first)}@1", f"{board.cell_name(image(first))}@{k}"]
        if k > n or image(first) == first:
            via = via[:1]
        side = tour_constraints(board, symmetric=name, via=via)
        want = _want(spec, side, True, None)
        got = _statuses(spec, side, True, None, "cpsat")
        assert got == ("found" if want else "infeasible"), side


@pytest.mark.parametrize("spec", ["3x10", "4x4 torus", "4x5", "3x7"])
def test_require_forbid_counts_equal_brute_force(spec: str) -> None:
    closed = spec in ("3x10", "4x4 torus")
    for side in _specs(spec, closed=closed, seed=3):
        if side.via:
            continue
        first = min(_board(spec).open_cells()) if closed else None
        got = count_tours(_board(spec), closed=closed, options=OPTS, constraints=side)
        assert got.directed == _want(spec, side, closed, first), side


def test_iter_tours_with_via_equals_brute_force() -> None:
    seq = _tours("4x5", False)[0]
    side = tour_constraints("4x5", via=[f"{Board.parse('4x5').cell_name(seq[4])}@5"])
    got = {t.cells for t in iter_tours("4x5", closed=False, constraints=side)}
    want = {
        s
        for s in _tours("4x5", False)
        if _honours(Board.parse("4x5"), s, side, closed=False)
    }
    assert got == want
    assert want


# ------------------------------------------------------------------- 8x8


def test_8x8_rot180_closed_tour_is_found_and_symmetric() -> None:
    side = tour_constraints("8x8", symmetric="rot180")
    tour = find_tour("8x8", method="cpsat", options=OPTS, constraints=side)
    board = Board.parse("8x8")
    assert independent_tour_check(board, (1, 2), tour.cells, closed=True)
    assert _honours(board, tour.cells, side, closed=True)
    # symmetry_turn's claim on a board the brute force cannot reach.
    where = {c: i for i, c in enumerate(tour.cells)}
    image = _image(board, "rot180")
    assert {(where[image(c)] - where[c]) % 64 for c in tour.cells} == {32}
    assert symmetry_turn(move_graph(board), "rot180") == 32


@pytest.mark.parametrize("name", ["rot90", "mirror-files", "mirror-ranks"])
def test_8x8_symmetries_without_a_tour_say_why(name: str) -> None:
    # rot90: known impossible on 8x8 (quarter-symmetric closed tours need
    # n = 4k + 2); mirror symmetry is impossible for closed knight tours.
    outcome = try_tour(
        "8x8", constraints=tour_constraints("8x8", symmetric=name), options=OPTS
    )
    assert str(outcome.status) == "infeasible"
    assert outcome.reason is not None
    assert "colours" in outcome.reason


def test_symmetry_certificate_agrees_with_cpsat_on_small_boards() -> None:
    # Whenever the certificate fires, CP-SAT without it agrees there is none.
    from cpknight.tours.cpsat import build_tour_model

    for spec, name in SYMMETRIC:
        graph = move_graph(_board(spec))
        if graph.n_nodes < 3 or symmetry_certificate(graph, name) is None:
            continue
        side = tour_constraints(_board(spec), symmetric=name)
        model = build_tour_model(graph, closed=True, constraints=side).model
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = 10
        assert solver.solve(model) == cp_model.INFEASIBLE, (spec, name)


def test_auto_picks_cpsat_and_search_refuses_symmetric() -> None:
    side = tour_constraints("6x6", symmetric="rot180")
    assert try_tour("6x6", constraints=side, options=OPTS).method == "cpsat"
    c = compare_tours("6x6", methods="prune,greedy", constraints=side, options=OPTS)
    assert c.statuses() == ["refused", "refused"]
    assert "--symmetric" in (c.rows[0].reason or "")


# ------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"via": ["i9@3"]}, "via 'i9@3': cell 'i9' is not on board 8x8"),
        ({"via": ["a1@0"]}, "the step must be from 1 to 64"),
        ({"via": ["a1@65"]}, "the step must be from 1 to 64"),
        ({"via": ["a1"]}, "expected a via like 'd4@10'"),
        ({"via": ["a1@3", "b1@3"]}, "step 3 is already a1"),
        ({"require": ["a1-a2"]}, "a1-a2 is not a knight (1,2) move"),
        ({"forbid": ["a1"]}, "expected a move like 'a1-b3'"),
        ({"require": ["a1-b3"], "forbid": ["b3-a1"]}, "both required and forbidden"),
        ({"symmetric": "rot45"}, "expected a symmetry in rot180"),
    ],
)
def test_bad_specs_are_one_clear_line(kw: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=re.escape(message)):
        tour_constraints("8x8", **kw)  # type: ignore[arg-type]


def test_symmetry_must_map_the_board_onto_itself() -> None:
    with pytest.raises(InvalidInputError, match="does not map board 8x6"):
        tour_constraints("8x6", symmetric="rot90")
    with pytest.raises(InvalidInputError, match="blocked"):
        tour_constraints(Board((4, 4), [(0, 0)]), symmetric="rot180")
    with pytest.raises(InvalidInputError, match="must be closed"):
        try_tour(
            "6x6", closed=False, constraints=tour_constraints("6x6", symmetric="rot180")
        )


# --------------------------------------------------------------- given


def test_given_round_trip_and_completion() -> None:
    tour = find_tour("5x5", closed=False, start="a1", method="prune")
    text = str(tour)
    assert read_given(text, tour.board) == sorted(
        ((c, i + 1) for i, c in enumerate(tour.cells)),
        key=lambda p: (-p[0][0], p[0][1]),
    )
    keep = {1, 7, 13, 25}
    puzzle = "\n".join(
        " ".join(
            tok if not tok.isdigit() or int(tok) in keep else "."
            for tok in line.split()
        )
        for line in text.splitlines()
    )
    side = tour_constraints("5x5", given=read_given(puzzle, tour.board))
    done = find_tour(
        "5x5", closed=False, method="cpsat", options=OPTS, constraints=side
    )
    assert _honours(tour.board, done.cells, side, closed=False)
    assert _want("5x5", side, False, (0, 0)) > 0


# ------------------------------------------------------------------- CLI


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_tour_8x8_symmetric_rot180(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tour", "8x8", "--symmetric", "rot180", "--seed", "0")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("closed tour of 8x8 (knight (1,2)), 64 cells, found by")
    assert lines[1] == "side constraints checked: symmetric rot180"
    board = Board.parse("8x8")
    cells = [board.parse_cell(x) for x in lines[-1].removeprefix("path: ").split()]
    side = tour_constraints(board, symmetric="rot180")
    assert _honours(board, tuple(cells), side, closed=True)


def test_cli_compare_8x8_via(capsys: pytest.CaptureFixture[str]) -> None:
    # d4@10 from a1: a1 and d4 have one colour, and 9 moves change it: none.
    code, out, _ = run(
        capsys, "compare", "8x8", "--via", "d4@10", "--start", "a1", "--open",
        "--time-limit", "5",
    )  # fmt: skip
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("open tour of 8x8 (knight (1,2)) from a1 with via d4@10")
    rows = {line.split()[0]: line for line in lines[3:9]}
    assert "proved none" in rows["cpsat"]
    for method in SEARCHES:
        assert "proved none" in rows[method] or "unknown" in rows[method]
    assert "refused" in rows["greedy"]
    assert "refused" in rows["tiles"]


def test_cli_bad_specs_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, text in [
        (["tour", "8x8", "--via", "z9@3"], "cell 'z9' is not on board 8x8"),
        (["tour", "5x5", "--open", "--via", "a1@26"], "from 1 to 25"),
        (["tour", "8x8", "--require", "a1-b2"], "is not a knight (1,2) move"),
        (["tour", "8x6", "--symmetric", "rot90"], "does not map board 8x6"),
        (["tour", "6x6", "--open", "--symmetric", "rot180"], "must be closed"),
        (["count", "5x6", "--symmetric", "spin"], "expected a symmetry"),
    ]:
        code, _out, err = run(capsys, *argv)
        assert code == 2, argv
        assert err.count("\n") == 1, err
        assert text in err, err


def test_cli_given_and_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("5 | . . . . .\n4 | . . . . .\n3 | . . . . .\n"
                      "2 | . . 2 . .\n1 | 1 . . . .\n    a b c d e\n")  # fmt: skip
    code, out, _ = run(capsys, "tour", "5x5", "--open", "--given", str(puzzle))
    assert code == 0
    grid = "\n".join(out.splitlines()[2:8])
    cells = read_given(grid, Board.parse("5x5"))
    assert ((0, 0), 1) in cells
    assert ((1, 2), 2) in cells
    assert len(cells) == 25
    puzzle.write_text(". . . . .\n. . . . .\n. . . . .\n. . . . .\n1 2 . . .\n")
    code, out, _ = run(capsys, "tour", "5x5", "--open", "--given", str(puzzle))
    assert code == 1
    assert out.startswith("no open tour of 5x5")
    code, out, _ = run(capsys, "count", "3x10", "--require", "a1-b3", "--json")
    side = tour_constraints("3x10", require=["a1-b3"])
    assert code == 0
    assert f'"directed": {_want("3x10", side, True, (0, 0))}' in out


# ------------------------------------------------------------------ magic

# W. Beverley's semi-magic open tour (1848), as printed in W. W. Rouse Ball,
# Mathematical Recreations and Essays: every rank and file sums to 260.
BEVERLEY = """\
 1 30 47 52  5 28 43 54
48 51  2 29 44 53  6 27
31 46 49  4 25  8 55 42
50  3 32 45 56 41 26  7
33 62 15 20  9 24 39 58
16 19 34 61 40 57 10 23
63 14 17 36 21 12 59 38
18 35 64 13 60 37 22 11
"""


def _is_magic(board: Board, seq: tuple[Cell, ...]) -> bool:
    return _magic_lines(board, seq, (0, 1))


def _magic_lines(board: Board, seq: tuple[Cell, ...], axes: tuple[int, ...]) -> bool:
    """This file's own reading of magic sums over the lines of ``axes``."""
    rows, cols = board.shape
    order = {cell: i + 1 for i, cell in enumerate(seq)}
    sums = [
        {sum(order[(r, c)] for c in range(cols)) for r in range(rows)},
        {sum(order[(r, c)] for r in range(rows)) for c in range(cols)},
    ]
    return all(len(sums[axis]) == 1 for axis in axes)


def _kept_with_its_moves(
    board: Board, seq: list[Cell], side: TourConstraints, *, closed: bool
) -> list[Cell] | None:
    """The tour the model decodes once ``seq``'s moves are fixed (None: cut off)."""
    from ortools.sat.python import cp_model

    from cpknight.tours.cpsat import build_tour_model

    graph = move_graph(board)
    start = None if closed else seq[0]
    model = build_tour_model(graph, closed=closed, start=start, constraints=side)
    arcs = {
        (int(t), int(h)): lit
        for t, h, lit in zip(model.tails, model.heads, model.literals, strict=True)
    }
    for a, b in itertools.pairwise([*seq, seq[0]] if closed else seq):
        model.model.add(arcs[(graph.node(a), graph.node(b))] == 1)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 20
    if solver.solve(model.model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return model.decode(solver)


@pytest.mark.parametrize(
    ("spec", "start", "closed"),
    [
        ("3x7", None, False),
        ("4x6", (0, 0), False),
        ("5x5", (0, 0), False),
        ("4x5", None, False),
        ("4x4 torus", None, True),  # a closed tour may start on any cell
    ],
)
def test_magic_cpsat_equals_brute_force(
    spec: str, start: Cell | None, closed: bool
) -> None:
    board = _board(spec)
    side = tour_constraints(board, magic=True)
    want = sum(
        1
        for seq in _tours(spec, closed, start)
        if (start is None or seq[0] == start) and _is_magic(board, seq)
    )
    got = _statuses(spec, side, closed, start, "cpsat")
    assert got == ("found" if want else "infeasible")


def test_beverley_is_feasible_in_the_magic_model() -> None:
    from cpknight.checks import check_constraints

    board = Board.parse("8x8")
    seq = [c for c, _ in sorted(read_given(BEVERLEY, board), key=lambda p: p[1])]
    assert independent_tour_check(board, (1, 2), seq, closed=False)
    assert _is_magic(board, tuple(seq))
    side = tour_constraints(board, magic=True)
    check_constraints(board, seq, side, closed=False)
    assert _kept_with_its_moves(board, seq, side, closed=False) == seq


# A closed rot180 semi-magic 8x8 tour found by CP-SAT without the turn rows
# (cpknight tour 8x8 --magic --symmetric rot180, before them): each number's
# image under the half turn is 32 more or 32 less.
HALF_TURN_MAGIC = """\
11 14 33 58  9 50 31 54
34 59 10 13 32 55  8 49
15 12 57 36 51  6 53 30
60 35 20  5 56 29 48  7
39 16 61 24 37 52  3 28
62 21 38 19  4 25 44 47
17 40 23 64 45 42 27  2
22 63 18 41 26  1 46 43
"""


def test_a_half_turn_magic_tour_found_without_the_turn_rows_is_kept() -> None:
    # The turn rows and the magic halves must not cut off a tour CP-SAT found
    # without them: its moves fixed, the model with them is still feasible.
    from cpknight.tours.cpsat import build_tour_model

    board = Board.parse("8x8")
    seq = [c for c, _ in sorted(read_given(HALF_TURN_MAGIC, board), key=lambda p: p[1])]
    assert independent_tour_check(board, (1, 2), seq, closed=True)
    assert _is_magic(board, tuple(seq))
    side = tour_constraints(board, magic=True, symmetric="rot180")
    assert _honours(board, tuple(seq), side, closed=True)
    model = build_tour_model(move_graph(board), closed=True, constraints=side)
    assert any(line.startswith("magic halves") for line in model.side)
    kept = _kept_with_its_moves(board, seq, side, closed=True)
    assert kept is not None
    assert _is_magic(board, tuple(kept))


@pytest.mark.slow  # every closed 6x6 tour listed, two enumerations: half a minute
def test_half_turn_magic_numberings_of_6x6_equal_plain_loops() -> None:
    # Every closed 6x6 tour (listed by the prune search), kept when the half
    # turn maps its moves onto themselves (156 directed: Jelliss's 78 twice),
    # numbered from each cell: how many numberings are magic over the ranks,
    # by plain loops. CP-SAT enumerates the same with and without the rows.
    from ortools.sat.python import cp_model

    from cpknight.tours.cpsat import build_tour_model
    from cpknight.tours.cpsat import side as side_model

    board = Board.parse("6x6")
    side = tour_constraints(board, symmetric="rot180", magic="ranks")
    symmetric = [
        t.cells
        for t in iter_tours(board, closed=True)
        if _honours(board, t.cells, side, closed=True)
    ]
    assert len(symmetric) == 156
    want = sum(
        _magic_lines(board, seq[j:] + seq[:j], (0,))
        for seq in symmetric
        for j in range(len(seq))
    )
    assert want > 0

    class Count(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found = 0

        def on_solution_callback(self) -> None:
            self.found += 1

    for rows in (True, False):
        saved, side_model.TURN_ROWS = side_model.TURN_ROWS, rows
        try:
            model = build_tour_model(move_graph(board), closed=True, constraints=side)
        finally:
            side_model.TURN_ROWS = saved
        assert any(line.startswith("magic halves") for line in model.side) == rows
        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = 120
        count = Count()
        assert solver.solve(model.model, count) == cp_model.OPTIMAL
        assert count.found == want, rows


def test_mirror_magic_ranks_on_3x10_equal_brute_force() -> None:
    # mirror-files maps each rank onto itself: the halves' rank rows without
    # the "2 sum h = k" row. Against every closed 3x10 tour, numbered from
    # each cell, read by plain loops.
    board = _board("3x10")
    side = tour_constraints(board, symmetric="mirror-files", magic="ranks")
    want = sum(
        1
        for seq in _tours("3x10", True)
        if _honours(board, seq, side, closed=True) and _magic_lines(board, seq, (0,))
    )
    got = _statuses("3x10", side, True, None, "cpsat")
    assert got == ("found" if want else "infeasible")


def test_magic_bad_input_and_refusals() -> None:
    with pytest.raises(InvalidInputError, match="no blocked cells"):
        tour_constraints("holed8", magic=True)
    side = tour_constraints("4x5", magic=True)
    outcome = try_tour("4x5", closed=False, constraints=side, options=OPTS)
    assert str(outcome.status) == "infeasible"
    assert "cannot share equally" in (outcome.reason or "")
    c = compare_tours("5x5", closed=False, methods="prune", constraints=side)
    assert c.statuses() == ["refused"]


@pytest.mark.parametrize(
    ("name", "undirected"),
    [
        # Jelliss, "Closed Knight's Tours of the 6 by 6 Board" (mayhematics.com):
        # 5 geometrically distinct tours with quaternary symmetry (2 diagrams
        # each) and 17 with binary symmetry (4 each): 10 diagrams the quarter
        # turn keeps, 10 + 68 = 78 the half turn keeps.
        pytest.param("rot90", 10, id="rot90-jelliss-5x2"),
        pytest.param("rot180", 78, id="rot180-jelliss-5x2+17x4"),
    ],
)
def test_symmetric_6x6_counts_follow_jelliss(name: str, undirected: int) -> None:
    side = tour_constraints("6x6", symmetric=name)
    got = count_tours("6x6", options=OPTS, constraints=side)
    assert (str(got.status), got.undirected) == ("found", undirected)


def test_steps_certificate_only_fires_when_brute_force_finds_none() -> None:
    from cpknight.tours.constrained import steps_certificate

    fired = 0
    for spec in ["3x4", "4x4", "4x5", "3x7"]:
        board, graph = _board(spec), move_graph(_board(spec))
        rng = random.Random(spec)
        cells = list(board.open_cells())
        for _ in range(40):
            picks = rng.sample(range(1, len(cells) + 1), 2)
            where = rng.sample(cells, 2)
            side = tour_constraints(
                board,
                via=[
                    f"{board.cell_name(c)}@{k}"
                    for c, k in zip(where, picks, strict=True)
                ],
            )
            if steps_certificate(graph, side, closed=False) is not None:
                fired += 1
                assert _want(spec, side, False, None) == 0, side
    assert fired > 10
