"""The covering puzzles: every engine against brute force, the checker, OEIS values.

The brute force here computes the attacks from the leaper's vector itself
(every signed permutation, wrapped on a torus), apart from the package's
move graph, and tries every placement.

Published values, each read in its OEIS entry before use:

- A006075, domination number of the n x n knight graph: 1, 4, 4, 4, 5, 8,
  10, 12, 14, 16, 21, 24, 28, 32, 36, 40, ... (n = 1 ...);
- A103315, the number of minimum dominating sets: 1, 1, 8, 9, 47, 127, 10,
  2, 2, 4, 800, 2, 152, ...; A006076, the same up to the board's symmetries:
  1, 1, 2, 3, 8, 23, 3, 1, 1, 2, 100, 1, 20, ... (both read again 2026-11-29);
- A261752, total domination (every square attacked), from n = 4: 6, 7, 8,
  10, 14, 18, 22, 25, 28, ...;
- A342576, independent domination: 1, 4, 4, 4, 5, 8, 13, 14, 14, 16, 22, ...;
- A279407, domination on the n x n torus: 1, 2, 3, 4, 5, 6, 9, 8, 12, 15, ...;
- A030978, independence number (non-attacking knights), from n = 0: 0, 1, 4,
  5, 8, 13, 18, 25, 32, 41, 50, ... = n^2/2 (even n > 2), (n^2 + 1)/2 (odd
  n > 1).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cpknight.api.covering import compare_covers, dominate, independent, try_cover
from cpknight.api.formulation import build_model, cover_model
from cpknight.board import Board, Cell
from cpknight.covering import ENGINES
from cpknight.covering.common import (
    CoverInstance,
    Kind,
    cell_permutations,
    check_cover,
    make_cover,
)
from cpknight.errors import (
    EngineError,
    InvalidInputError,
    NoPathError,
    SolveLimitError,
    TourCheckError,
)
from cpknight.pieces import KNIGHT, Leaper
from cpknight.solving import SolveOptions
from cpknight.status import Status

OPTIONS = SolveOptions(time_limit=60, workers=1, seed=0)
METHODS = list(ENGINES)

A006075 = [1, 4, 4, 4, 5, 8, 10, 12, 14, 16, 21, 24, 28, 32, 36, 40]
A103315 = [1, 1, 8, 9, 47, 127, 10, 2, 2, 4, 800, 2, 152]
A006076 = [1, 1, 2, 3, 8, 23, 3, 1, 1, 2, 100, 1, 20]
A261752 = {4: 6, 5: 7, 6: 8, 7: 10, 8: 14, 9: 18, 10: 22, 11: 25, 12: 28}
A342576 = [1, 4, 4, 4, 5, 8, 13, 14, 14, 16, 22, 24]
A279407 = [1, 2, 3, 4, 5, 6, 9, 8, 12, 15, 18, 21]
A030978 = [0, 1, 4, 5, 8, 13, 18, 25, 32, 41, 50, 61, 72]
RING4 = Board((4, 4), [(1, 1), (1, 2), (2, 1), (2, 2)])
"""4x4 with its centre removed: 12 cells, the square's 8 symmetries."""


# ----------------------------------------------------------------- brute force


def _attacks(board: Board, vector: tuple[int, ...]) -> dict[Cell, set[Cell]]:
    """Each open cell's attacked cells, from the leaper's vector alone."""
    dim = board.dim
    padded = tuple(vector) + (0,) * (dim - len(vector))
    moves = {
        tuple(s * x for s, x in zip(signs, perm, strict=True))
        for perm in itertools.permutations(padded)
        for signs in itertools.product((1, -1), repeat=dim)
    }
    cells = list(board.open_cells())
    is_open = set(cells)
    out: dict[Cell, set[Cell]] = {}
    for cell in cells:
        near = set()
        for move in moves:
            target = []
            for axis, (c, m) in enumerate(zip(cell, move, strict=True)):
                t = c + m
                if board.wrap[axis]:
                    t %= board.shape[axis]
                target.append(t)
            key = tuple(target)
            if key in is_open and key != cell:
                near.add(key)
        out[cell] = near
    return out


def _valid(kind: str, chosen: tuple[Cell, ...], att: dict[Cell, set[Cell]]) -> bool:
    picked = set(chosen)
    if kind in ("independent", "independent-set") and any(
        att[c] & picked for c in chosen
    ):
        return False
    if kind == "independent-set":
        return True
    hit = set().union(*(att[c] for c in chosen)) if chosen else set()
    if kind != "total":
        hit |= picked
    return hit == set(att)


def _brute(
    board: Board, vector: tuple[int, ...], kind: str
) -> tuple[int, list[frozenset[Cell]]] | None:
    """The optimum and every optimal placement, by trying every placement."""
    att = _attacks(board, vector)
    cells = sorted(att)
    if kind == "independent-set":  # every independent set, grown cell by cell
        sets: list[frozenset[Cell]] = []

        def grow(i: int, chosen: frozenset[Cell]) -> None:
            if i == len(cells):
                sets.append(chosen)
                return
            grow(i + 1, chosen)
            if not att[cells[i]] & chosen:
                grow(i + 1, chosen | {cells[i]})

        grow(0, frozenset())
        best = max(len(x) for x in sets)
        return best, [x for x in sets if len(x) == best]
    for k in range(len(cells) + 1):
        found = [
            frozenset(s)
            for s in itertools.combinations(cells, k)
            if _valid(kind, s, att)
        ]
        if found:
            return k, found
    return None


def _classes(board: Board, placements: list[frozenset[Cell]]) -> int:
    """Placements up to the square's symmetries that keep the board (2D only)."""
    rows, cols = board.shape
    maps = []
    for swap, fr, fc in itertools.product((False, True), repeat=3):
        if swap and rows != cols:
            continue

        def f(cell: Cell, swap: bool = swap, fr: bool = fr, fc: bool = fc) -> Cell:
            r, c = (cell[1], cell[0]) if swap else cell
            return (rows - 1 - r if fr else r, cols - 1 - c if fc else c)

        if {f(c) for c in board.open_cells()} == set(board.open_cells()):
            maps.append(f)
    seen = {min(tuple(sorted(f(c) for c in p)) for f in maps) for p in placements}
    return len(seen)


def _random_board(rng: random.Random) -> Board:
    rows, cols = rng.choice([(3, 3), (3, 4), (4, 4), (2, 5), (3, 5), (4, 3)])
    holes = rng.sample(
        [(r, c) for r in range(rows) for c in range(cols)], rng.randint(0, 3)
    )
    torus = rng.random() < 0.35
    return Board((rows, cols), holes, topology="torus" if torus else "bounded")


def _cases() -> Iterator[tuple[str, Board, tuple[int, ...]]]:
    rng = random.Random(25)
    for i in range(6):
        yield f"random{i}", _random_board(rng), (1, 2)
    yield "camel-4x4", Board.parse("4x4"), (1, 3)
    yield "zebra-torus-4x4", Board.parse("4x4", topology="torus"), (2, 3)
    # an odd torus: the programs put a piece on a1 (every placement shifts there)
    yield "knight-torus-3x5", Board.parse("3x5", topology="torus"), (1, 2)
    yield "ring4-knight", RING4, (1, 2)
    yield "knight-2x2x3", Board.parse("2x2x3"), (1, 2)
    yield "leaper123-2x3x2", Board.parse("2x3x2"), (1, 2, 3)


CASES = list(_cases())


# The cases whose many optimal placements SCIP and HiGHS count one cut at a
# time (3 to 15 s each): the same kinds run on the other boards by default,
# these with -m slow.
SLOW_COVER_CASES = {
    ("random0", "total"),
    ("random1", "dominating"),
    ("random2", "dominating"),
    ("zebra-torus-4x4", "dominating"),
    ("ring4-knight", "dominating"),
    ("knight-2x2x3", "dominating"),
    ("knight-torus-3x5", "dominating"),  # 185 placements
    ("knight-torus-3x5", "total"),  # 60
    ("zebra-torus-4x4", "total"),
    ("zebra-torus-4x4", "independent"),
    ("random1", "independent"),
    ("random2", "independent"),
}
COVER_CASES = [
    pytest.param(
        name,
        board,
        vector,
        kind,
        id=f"{name}-{kind}",
        marks=[pytest.mark.slow] if (name, kind) in SLOW_COVER_CASES else [],
    )
    for kind in ["dominating", "total", "independent", "independent-set"]
    for name, board, vector in CASES
]


@pytest.mark.parametrize(("name", "board", "vector", "kind"), COVER_CASES)
def test_every_engine_against_brute_force(
    name: str, board: Board, vector: tuple[int, ...], kind: Kind
) -> None:
    expected = _brute(board, vector, kind)
    leaper = Leaper(vector)
    for method in METHODS:
        if method != "search" and name.startswith("random") and kind == "total":
            pass  # every engine runs every case; nothing skipped
        instance = CoverInstance(board=board, piece=leaper, kind=kind, count=True)
        if expected is None:
            with pytest.raises(NoPathError):
                ENGINES[method].load()(instance, OPTIONS.start())
            continue
        size, placements = expected
        cover = ENGINES[method].load()(instance, OPTIONS.start())
        assert cover.status is Status.OPTIMAL, method
        assert (cover.size, cover.count) == (size, len(placements)), method
        assert frozenset(cover.cells) in placements, method
        check_cover(board, cover.cells, kind=kind, piece=leaper)
        if cover.lp_bound is not None:  # the relaxation bounds the optimum
            if kind == "independent-set":
                assert cover.lp_bound >= size - 1e-6
            else:
                assert cover.lp_bound <= size + 1e-6


@pytest.mark.parametrize("method", ["cpsat", "search", "highs"])
@pytest.mark.parametrize("kind", ["dominating", "total", "independent-set"])
@pytest.mark.parametrize("spec", ["3x4", "4x4", "3x5", "ring4", "4x4-torus"])
def test_symmetry_counts_classes(spec: str, kind: Kind, method: str) -> None:
    """Classes under the square's reflections and turns (on a torus too: the
    programs break other symmetries there, and count the classes apart)."""
    if spec == "ring4":
        board = RING4
    else:
        shape, _, torus = spec.partition("-")
        board = Board.parse(shape, topology="torus" if torus else "bounded")
    expected = _brute(board, (1, 2), kind)
    instance = CoverInstance(
        board=board, piece=KNIGHT, kind=kind, count=True, symmetry=True
    )
    if expected is None:  # ring4's corners: no move reaches them
        with pytest.raises(NoPathError):
            ENGINES[method].load()(instance, OPTIONS.start())
        return
    size, placements = expected
    found = ENGINES[method].load()(instance, OPTIONS.start())
    assert found.size == size
    assert found.count == _classes(board, placements)


def test_cell_permutations_map_the_move_graph_onto_itself() -> None:
    from cpknight.pieces import move_graph

    for spec, topology in [("6x6", "bounded"), ("5x7", "torus"), ("holed8", "bounded")]:
        board = Board.parse(spec, topology=topology)  # type: ignore[arg-type]
        graph = move_graph(board, KNIGHT)
        edges = {(v, int(u)) for v in range(graph.n_nodes) for u in graph.neighbors(v)}
        for perm in cell_permutations(board):
            assert sorted(perm) == list(range(graph.n_nodes))
            assert {(perm[v], perm[u]) for v, u in edges} == edges


# ------------------------------------------------------------- published values


@pytest.mark.parametrize("n", range(1, 9))
def test_domination_a006075_and_counts_a103315(n: int) -> None:
    cover = dominate(f"{n}x{n}", count=True, options=OPTIONS)
    assert (cover.size, cover.count) == (A006075[n - 1], A103315[n - 1])
    assert cover.optimal
    assert cover.bound == cover.size
    if n <= 7:
        search = dominate(f"{n}x{n}", count=True, method="search", options=OPTIONS)
        assert (search.size, search.count) == (cover.size, cover.count)


@pytest.mark.parametrize("n", range(1, 8))
def test_domination_up_to_symmetry_a006076(n: int) -> None:
    cover = dominate(f"{n}x{n}", count=True, symmetry=True, options=OPTIONS)
    assert (cover.size, cover.count) == (A006075[n - 1], A006076[n - 1])


@pytest.mark.parametrize("n", range(4, 9))
def test_total_domination_a261752(n: int) -> None:
    for method in ("cpsat", "highs", "search"):
        assert (
            dominate(f"{n}x{n}", kind="total", method=method, options=OPTIONS).size
            == (A261752[n])
        )


@pytest.mark.parametrize("n", range(1, 9))
def test_independent_domination_a342576(n: int) -> None:
    for method in ("cpsat", "scip", "search"):
        cover = dominate(f"{n}x{n}", kind="independent", method=method, options=OPTIONS)
        assert cover.size == A342576[n - 1], method


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 8])  # 7 (9 knights) is slow
def test_torus_domination_a279407(n: int) -> None:
    for method in ("cpsat", "search"):
        cover = dominate(f"{n}x{n}", topology="torus", method=method, options=OPTIONS)
        assert cover.size == A279407[n - 1], method


@pytest.mark.parametrize("n", range(1, 11))
def test_independence_a030978_and_its_closed_form(n: int) -> None:
    closed = 4 if n == 2 else (n * n + 1) // 2
    assert A030978[n] == closed
    assert independent(f"{n}x{n}", options=OPTIONS).size == closed
    assert independent(f"{n}x{n}", method="search", options=OPTIONS).size == closed


@pytest.mark.slow
@pytest.mark.parametrize("n", range(9, 13))
def test_slow_domination_and_counts(n: int) -> None:
    # 11x11's 800 placements take CP-SAT about 70 s on a loaded machine; 12x12's
    # two (one up to symmetry) about 15 s each
    slow = SolveOptions(time_limit=900, workers=1, seed=0)
    cover = dominate(f"{n}x{n}", count=True, options=slow)
    assert (cover.size, cover.count) == (A006075[n - 1], A103315[n - 1])
    sym = dominate(f"{n}x{n}", count=True, symmetry=True, options=slow)
    assert sym.count == A006076[n - 1]


@pytest.mark.slow
@pytest.mark.parametrize("n", range(9, 13))
def test_slow_other_tables(n: int) -> None:
    assert dominate(f"{n}x{n}", kind="total", options=OPTIONS).size == A261752[n]
    assert (
        dominate(f"{n}x{n}", kind="independent", options=OPTIONS).size
        == (A342576[n - 1])
    )
    assert (
        dominate(f"{n}x{n}", topology="torus", options=OPTIONS).size == (A279407[n - 1])
    )
    assert dominate(f"{n}x{n}", method="scip", options=OPTIONS).size == A006075[n - 1]


# ------------------------------------------------------------------ the checker


def test_the_checker_catches_each_fault() -> None:
    b = Board.parse("4x4")
    good = ["b2", "c2", "b3", "c3"]  # the 4x4 domination (A006075(4) = 4)
    check_cover(b, good, kind="dominating")
    with pytest.raises(TourCheckError, match="neither occupied nor attacked"):
        check_cover(b, good[:3], kind="dominating")
    with pytest.raises(TourCheckError, match="holds two knights"):
        check_cover(b, [*good, "b2"], kind="dominating")
    with pytest.raises(TourCheckError, match="attack each other"):
        check_cover(b, ["a1", "c2"], kind="independent-set")
    with pytest.raises(TourCheckError, match="is not attacked"):
        check_cover(b, good, kind="total")  # b2's attackers are not among them
    with pytest.raises(InvalidInputError, match="blocked"):
        check_cover(Board.parse("cross5"), ["c3"], kind="independent-set")
    with pytest.raises(InvalidInputError):
        check_cover(b, good, kind="queens")


def test_make_cover_refuses_a_bad_answer_and_a_bad_bound() -> None:
    inst = CoverInstance(board=Board.parse("3x3"), piece=KNIGHT, kind="dominating")
    with pytest.raises(EngineError, match="bad dominating"):
        make_cover(inst, [0], status="optimal", bound=1, method="x", started=0.0)
    every = list(range(9))
    with pytest.raises(EngineError, match="wrong side"):
        make_cover(inst, every, status="feasible", bound=10, method="x", started=0.0)


# ----------------------------------------------------------------- front doors


def test_compare_and_try_cover() -> None:
    c = compare_covers("5x5", kind="total", methods="all", options=OPTIONS)
    assert [o.value.size for o in c.rows] == [A261752[5]] * len(METHODS)
    assert c.as_dict()["instance"]["kind"] == "total"
    o = try_cover("2x2", kind="total", method="cpsat", options=OPTIONS)
    assert o.status is Status.INFEASIBLE  # no knight move on 2x2
    with pytest.raises(InvalidInputError, match="expected a kind"):
        dominate("4x4", kind="independent-set")
    with pytest.raises(InvalidInputError, match="cover method"):
        dominate("4x4", method="gurobi")


def test_a_limit_keeps_the_best_with_its_bound() -> None:
    try:
        cover = dominate("14x14", method="search", time_limit=0.3)
    except SolveLimitError:
        return  # nothing found in 0.3 s is an honest ending too
    assert cover.status is Status.FEASIBLE
    assert cover.bound <= cover.size
    check_cover(cover.board, cover.cells, kind="dominating")


# ----------------------------------------------------------------- formulation


@pytest.mark.parametrize(
    "kind", ["dominating", "total", "independent", "independent-set"]
)
def test_the_exported_program_solves_to_the_same_optimum(
    kind: str, tmp_path: Path
) -> None:
    from ortools.linear_solver.python import model_builder as mb

    program = cover_model("5x5", kind=kind, symmetry=True)
    text = program.formulation()
    assert "x[a1]" in text
    assert "lex[" in text
    optimum = (
        independent("5x5", options=OPTIONS)
        if kind == "independent-set"
        else dominate("5x5", kind=kind, options=OPTIONS)
    ).size
    # OR-Tools reads MPS back (its LP reader does not take its own LP export)
    path = program.export(tmp_path / "k.mps")
    model = mb.Model()  # type: ignore[no-untyped-call]
    assert model.import_from_mps_string(path.read_text())
    solver = mb.Solver("scip")
    assert solver.solve(model) == mb.SolveStatus.OPTIMAL
    assert round(solver.objective_value) == optimum
    lp = program.export(tmp_path / "k.lp").read_text()
    assert "x[a1]" in lp
    assert len(lp.split("Binaries")[1].split()) >= 25  # every cell a Boolean
    assert (
        build_model("cover", "5x5", kind=kind).sizes()["cells"] == 25  # type: ignore[attr-defined]
    )
    program.export(tmp_path / "k.pbtxt")
    with pytest.raises(InvalidInputError, match="export file ending"):
        program.export(tmp_path / "k.json")


def test_the_picture_draws_every_knight() -> None:
    import xml.etree.ElementTree as ET

    from cpknight.draw.covering import cover_svg

    cover = dominate("holed8", options=OPTIONS)
    root = ET.fromstring(cover_svg(cover))
    knights = root.findall(".//{http://www.w3.org/2000/svg}circle[@class='knight']")
    assert len(knights) == cover.size


# ---------------------------------------------------------------- command line


def test_the_commands_print_the_knights_and_draw_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from cpknight.cli import main

    svg = tmp_path / "k.svg"
    code = main(["dominate", "5x5", "--count", "--method", "search", "--svg", str(svg)])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "5, proved optimal; 47 optimal placements" in out  # A006075, A103315
    assert out.count("N") >= 5
    assert svg.read_text().count('class="knight"') == 5
    code = main(["independent", "8x8", "--count", "--symmetry", "--json"])
    row = json.loads(capsys.readouterr()[0])
    assert (code, row["size"], row["count"], row["symmetry"]) == (0, 32, 1, True)
    code = main(["dominate", "3x3", "--total"])
    assert code == 1  # no move reaches b2: proved none
    assert "no total placement" in capsys.readouterr()[0]


# ------------------------------------------- planted gaps: the checker, counts


@pytest.mark.parametrize(
    ("kind", "cells", "fault"),
    [
        # every cell of 3x3 holds a knight: dominated, but a1 attacks b3
        (
            "independent",
            ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"],
            "attack each other",
        ),
        ("independent-set", ["a1", "b3"], "attack each other"),
        # the 4x4 domination b2 c2 b3 c3, one knight short: a1 is uncovered
        ("dominating", ["c2", "b3", "c3"], "neither occupied nor attacked"),
        ("independent", ["c2", "b3"], "neither occupied nor attacked"),
        # b2's attackers (a4 c4 d3 d1) are not among the knights
        ("total", ["b2", "c2", "b3", "c3"], "is not attacked"),
    ],
    ids=[
        "independent-attack",
        "set-attack",
        "dominating-gap",
        "independent-gap",
        "total-own-cell",
    ],
)
def test_the_checker_refuses_each_kind_s_fault(
    kind: Kind, cells: list[str], fault: str
) -> None:
    """Each kind refuses its own fault, ``independent`` its attacking pair too
    (dominating as it is: only the independence rule can refuse it)."""
    board = Board.parse("3x3" if len(cells) == 9 else "4x4")
    if fault == "attack each other" and kind == "independent":
        check_cover(board, cells, kind="dominating")  # only independence fails
    with pytest.raises(TourCheckError, match=fault):
        check_cover(board, cells, kind=kind)


def test_the_independent_checker_refuses_attacks_that_brute_force_sees() -> None:
    """Every dominating placement of 3x3 with an attacking pair (brute force
    over all 512 subsets, attacks computed here from the vector) is refused as
    ``independent``; every one without is accepted."""
    board = Board.parse("3x3")
    cells = [(r, c) for r in range(3) for c in range(3)]
    moves = {
        (a * x, b * y) for x, y in ((1, 2), (2, 1)) for a in (1, -1) for b in (1, -1)
    }

    def attacks(p: tuple[int, int], q: tuple[int, int]) -> bool:
        return (q[0] - p[0], q[1] - p[1]) in moves

    refused = accepted = 0
    for mask in range(1, 1 << 9):
        chosen = [cells[i] for i in range(9) if mask >> i & 1]
        covered = set(chosen) | {q for p in chosen for q in cells if attacks(p, q)}
        if len(covered) < 9:
            continue
        names = board.cell_names(chosen)
        if any(attacks(p, q) for p, q in itertools.combinations(chosen, 2)):
            with pytest.raises(TourCheckError, match="attack each other"):
                check_cover(board, names, kind="independent")
            refused += 1
        else:
            check_cover(board, names, kind="independent")
            accepted += 1
    assert refused > 0
    assert accepted > 0


@pytest.mark.parametrize("workers", [2, 8])
def test_a_cpsat_count_on_several_workers_is_exact(workers: int) -> None:
    """Enumeration runs on one worker whatever ``workers`` says: with 8 the
    5x5 total count came out 117 (issue 35); the search engine says 480, and
    on 4x4 a brute force and A103315(4) say 9."""
    options = SolveOptions(time_limit=60, workers=workers, seed=0)
    c = dominate("5x5", kind="total", count=True, options=options)
    s = dominate("5x5", kind="total", count=True, method="search", options=OPTIONS)
    assert (c.size, c.count) == (s.size, s.count)
    d = dominate("4x4", count=True, options=options)
    brute = _brute(Board.parse("4x4"), (1, 2), "dominating")
    assert brute is not None
    assert (d.size, d.count) == (brute[0], len(brute[1])) == (4, A103315[3])


def _stop_enumeration_early(monkeypatch: pytest.MonkeyPatch) -> None:
    """CP-SAT's enumeration stops after its first solution, as at a limit."""
    from cpknight.solving import configure_cpsat

    def configure(solver: Any, run: Any, *, enumerate_all: bool = False) -> None:
        configure_cpsat(solver, run, enumerate_all=enumerate_all)
        if enumerate_all:
            solver.parameters.stop_after_first_solution = True

    # the engine reads the name in its own module
    monkeypatch.setattr("cpknight.covering.cpsat.configure_cpsat", configure)


def test_a_count_cut_short_is_never_reported_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A count stopped before the enumeration ends (here deterministically:
    CP-SAT told to stop at its first solution, as the limit stops it) is a
    count so far: ``count`` None, ``count_at_least`` what was seen."""
    _stop_enumeration_early(monkeypatch)
    c = dominate("5x5", kind="total", count=True, options=OPTIONS)
    assert c.optimal
    assert c.size == 7
    assert c.count is None
    assert c.count_at_least is not None
    assert 1 <= c.count_at_least < 480
    row = c.as_dict()
    assert row["count"] is None
    assert row["count_at_least"] == c.count_at_least


def test_a_count_on_an_expired_clock_is_partial() -> None:
    """The count's own solve on a clock already past its limit: partial."""
    from cpknight.covering.cpsat import _count
    from cpknight.covering.program import build_cover_program
    from cpknight.solving import Clock, Run

    program = build_cover_program("5x5", kind="total")
    run = Run(SolveOptions(time_limit=1.0), Clock(1.0, origin=-1e9))
    count, at_least, _ = _count(program, 7, run)
    assert count is None
    assert at_least is not None
