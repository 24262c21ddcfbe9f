"""The longest uncrossed / induced paths: engines against brute force and OEIS."""

from __future__ import annotations

import random

import pytest

from cpknight.api.longest import compare_longest, longest_path, try_longest
from cpknight.board import Board
from cpknight.errors import (
    EngineError,
    InvalidInputError,
    NoPathError,
    TourCheckError,
)
from cpknight.longest.common import (
    LongestInstance,
    _meet_elsewhere,
    check_longest,
    make_longest,
)
from cpknight.longest.cpsat import build_longest_model
from cpknight.longest.geometry import crossing_cliques, crossing_pairs, move_edges
from cpknight.pieces import KNIGHT, Leaper, move_graph
from cpknight.solving import SolveOptions
from cpknight.status import Status

OPTIONS = SolveOptions(time_limit=60, workers=1, seed=0)


def brute_force(board: Board, kind: str, closed: bool, piece: Leaper = KNIGHT) -> int:
    """The longest length by plain enumeration of every legal path (-1: none).

    Every prefix of an uncrossed (induced) path is one, so extending only
    legal paths enumerates them all; no bound, no symmetry, no model.
    """
    graph = move_graph(board, piece)
    n = graph.n_nodes
    adj = [set(graph.neighbors(v).tolist()) for v in range(n)]
    pts = [tuple(graph.cell(v)) for v in range(n)]
    best = -1 if closed else 0

    def legal(path: list[int], v: int, closing: bool = False) -> bool:
        head = path[-1]
        if kind == "uncrossed":
            a, b = pts[head], pts[v]
            return not any(
                _meet_elsewhere(pts[path[i]], pts[path[i + 1]], a, b)
                for i in range(len(path) - 1)
            )
        skip = {head, path[0]} if closing else {head}
        return not any(u in adj[v] for u in path if u not in skip)

    def grow(path: list[int]) -> None:
        nonlocal best
        head = path[-1]
        if closed:
            closes = len(path) >= 3 and path[0] in adj[head]
            if closes and legal(path, path[0], closing=True):
                best = max(best, len(path))
        else:
            best = max(best, len(path) - 1)
        for v in adj[head]:
            if v in path or (closed and v < path[0]):
                continue
            if kind == "induced" and closed and path[0] in adj[v] and len(path) > 1:
                # v touches the start: only as the last cell of the cycle.
                if legal(path, v, closing=True):
                    best = max(best, len(path) + 1)
                continue
            if legal(path, v):
                grow([*path, v])

    for s in range(n):
        grow([s])
    return best


def _engines(
    board: Board, kind: str, closed: bool, piece: Leaper = KNIGHT
) -> dict[str, int | str]:
    out: dict[str, int | str] = {}
    for method in ("cpsat", "search"):
        o = try_longest(
            board,
            kind=kind,
            closed=closed,
            piece=piece,
            method=method,
            options=OPTIONS,
        )
        out[method] = o.value.moves if o.value is not None else str(o.status)
        if o.value is not None:
            assert o.status is Status.OPTIMAL
    return out


CASES = [
    (f"{n}x{n}", kind, closed)
    for n in range(1, 6)
    for kind in ("uncrossed", "induced")
    for closed in (False, True)
] + [
    (f"{r}x{c}", kind, closed)
    for r, c in ((3, 4), (3, 5), (2, 6), (4, 5))
    for kind in ("uncrossed", "induced")
    for closed in (False, True)
]


@pytest.mark.parametrize(("spec", "kind", "closed"), CASES)
def test_engines_equal_brute_force(spec: str, kind: str, closed: bool) -> None:
    board = Board.parse(spec)
    want = brute_force(board, kind, closed)
    got = _engines(board, kind, closed)
    expected = want if want >= 0 else "infeasible"
    assert got == {"cpsat": expected, "search": expected}


@pytest.mark.parametrize("seed", range(5))
def test_random_shapes_equal_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = rng.choice([(4, 4), (4, 5), (5, 4)])
    blocked = [(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.2]
    board = Board((rows, cols), blocked)
    for kind in ("uncrossed", "induced"):
        for closed in (False, True):
            want = brute_force(board, kind, closed)
            expected = want if want >= 0 else "infeasible"
            got = _engines(board, kind, closed)
            assert got == {"cpsat": expected, "search": expected}, (kind, closed)


@pytest.mark.parametrize(
    ("piece", "spec"), [(Leaper((1, 3)), "5x5"), (Leaper((0, 1)), "3x4")]
)
def test_other_leapers_equal_brute_force(piece: Leaper, spec: str) -> None:
    board = Board.parse(spec)
    for kind in ("uncrossed", "induced"):
        for closed in (False, True):
            want = brute_force(board, kind, closed, piece)
            expected = want if want >= 0 else "infeasible"
            assert _engines(board, kind, closed, piece) == {
                "cpsat": expected,
                "search": expected,
            }


# OEIS A003192: longest uncrossed knight path on n x n (moves).
@pytest.mark.parametrize(
    ("n", "moves"),
    [(3, 2), (4, 5), (5, 10), (6, 17)],
    ids=[f"A003192-n{n}" for n in (3, 4, 5, 6)],
)
def test_uncrossed_paths_match_oeis(n: int, moves: int) -> None:
    p = longest_path(
        f"{n}x{n}", kind="uncrossed", method="search", options=OPTIONS, closed=False
    )
    assert (p.moves, p.status) == (moves, Status.OPTIMAL)


# OEIS A165143: longest induced knight cycle on n x n (offset 3).
@pytest.mark.parametrize(
    ("n", "moves", "method"),
    [
        (3, 8, "cpsat"),
        (4, 10, "cpsat"),
        (5, 16, "cpsat"),
        (6, 20, "cpsat"),
        (6, 20, "search"),
    ],
    ids=[
        "A165143-n3",
        "A165143-n4",
        "A165143-n5",
        "A165143-n6-cpsat",
        "A165143-n6-search",
    ],
)
def test_induced_cycles_match_oeis(n: int, moves: int, method: str) -> None:
    p = longest_path(
        f"{n}x{n}", kind="induced", closed=True, method=method, options=OPTIONS
    )
    assert (p.moves, p.status) == (moves, Status.OPTIMAL)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("n", "kind", "moves"),
    [(7, "uncrossed", 24), (7, "induced", 22), (8, "induced", 32)],
    ids=["A003192-n7", "A165143-n7", "A165143-n8"],
)
def test_published_optima_slow(n: int, kind: str, moves: int) -> None:
    closed = kind == "induced"
    p = longest_path(
        f"{n}x{n}",
        kind=kind,
        closed=closed,
        options=SolveOptions(time_limit=600, workers=1, seed=0),
    )
    assert (p.moves, p.status) == (moves, Status.OPTIMAL)


def test_pairwise_and_clique_forms_agree() -> None:
    for form in ("cliques", "pairwise"):
        p = longest_path(
            "5x5",
            kind="uncrossed",
            closed=True,
            method="cpsat",
            crossings=form,
            options=OPTIONS,
        )
        assert p.moves == brute_force(Board.parse("5x5"), "uncrossed", True)


def test_cliques_cover_every_crossing_pair() -> None:
    graph = move_graph("6x6")
    edges = move_edges(graph)
    pairs = crossing_pairs(graph, edges)
    cliques = crossing_cliques(len(edges), pairs)
    covered = {(a, b) for c in cliques for a in c for b in c if a < b}
    assert set(pairs) <= covered
    crossing = set(pairs)
    assert all((a, b) in crossing for c in cliques for a in c for b in c if a < b)
    assert len(cliques) < len(pairs)


def test_crossings_agree_with_the_checker_geometry() -> None:
    graph = move_graph("5x5")
    edges = move_edges(graph)
    pairs = set(crossing_pairs(graph, edges))
    pts = [graph.cell(v) for v in range(graph.n_nodes)]
    for i in range(len(edges)):
        for j in range(i + 1, len(edges)):
            (a, b), (c, d) = edges[i], edges[j]
            assert ((i, j) in pairs) == _meet_elsewhere(pts[a], pts[b], pts[c], pts[d])


def test_checker_catches_each_fault() -> None:
    b = Board.parse("5x5")
    with pytest.raises(TourCheckError, match="cross"):
        check_longest(b, ["a1", "b3", "c1", "a2"], kind="uncrossed", closed=False)
    with pytest.raises(TourCheckError, match="one move"):
        check_longest(b, ["a1", "b3", "d4", "e2", "c1"], kind="induced", closed=False)
    with pytest.raises(TourCheckError, match="twice"):
        check_longest(b, ["a1", "c2", "a1"], kind="induced", closed=False)
    with pytest.raises(TourCheckError):
        check_longest(b, ["a1", "a2"], kind="induced", closed=False)
    with pytest.raises(TourCheckError, match="at least 3"):
        check_longest(b, ["a1", "c2"], kind="induced", closed=True)


def test_a_bad_answer_is_an_engine_error() -> None:
    instance = LongestInstance(board=Board.parse("5x5"), piece=KNIGHT, kind="induced")
    cells = [(0, 0), (2, 1), (3, 3), (1, 4), (0, 2)]  # b3 and c1: a chord
    nodes = [instance.graph.node(c) for c in cells]
    with pytest.raises(EngineError, match="not consecutive"):
        make_longest(
            instance, nodes, status="optimal", bound=4, method="hand", started=0.0
        )


def test_a_known_answer_is_feasible_in_the_model() -> None:
    # The 8-cycle around the centre of 3x3 injected into the induced model.
    m = build_longest_model("3x3", kind="induced", closed=True)
    cycle = ["a1", "b3", "c1", "a2", "c3", "b1", "a3", "c2"]
    board = Board.parse("3x3")
    graph = m.instance.graph
    nodes = [graph.node(board.parse_cell(c)) for c in cycle]
    steps = set(zip(nodes, nodes[1:] + nodes[:1], strict=True))
    for t, h, x in zip(m.tails, m.heads, m.literals, strict=True):
        on = (t, h) in steps if t != h else t not in nodes
        m.model.add(x == int(on))
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(m.model) == cp_model.OPTIMAL
    assert round(solver.objective_value) == 8


@pytest.mark.parametrize("spec", ["8x8", "4x4x4"])
def test_uncrossed_refuses_boards_without_segments(spec: str) -> None:
    board = Board.parse(spec, topology="torus") if spec == "8x8" else spec
    with pytest.raises(InvalidInputError, match="bounded 2D board"):
        longest_path(board, kind="uncrossed", closed=False)


def test_induced_works_on_a_torus_and_in_3d() -> None:
    for topology in ("torus", "cylinder"):
        wrapped = Board.parse("4x4", topology=topology)
        for closed in (False, True):
            want = brute_force(wrapped, "induced", closed)
            got = _engines(wrapped, "induced", closed)
            assert got == {"cpsat": want, "search": want}, (topology, closed)
            p = longest_path(
                wrapped,
                kind="induced",
                closed=closed,
                method="cpsat",
                cuts=True,
                options=OPTIONS,
            )
            assert p.moves == want
    cube = Board.parse("2x3x3")
    piece = Leaper((1, 2))
    want = brute_force(cube, "induced", False, piece)
    assert _engines(cube, "induced", False, piece) == {"cpsat": want, "search": want}


def test_limit_gives_best_found_with_bound() -> None:
    o = try_longest(
        "8x8",
        kind="uncrossed",
        method="search",
        options=SolveOptions(time_limit=0.3),
        closed=False,
    )
    assert o.status in (Status.FEASIBLE, Status.UNKNOWN)
    if o.value is not None:
        assert o.bound is not None
        assert o.bound > o.value.moves


def test_no_cycle_is_proved_none() -> None:
    with pytest.raises(NoPathError):
        longest_path("3x3", kind="uncrossed", closed=True, method="cpsat")


def test_compare_runs_both_crossing_forms() -> None:
    c = compare_longest("4x4", kind="uncrossed", options=OPTIONS, closed=False)
    methods = ["cpsat", "cpsat-pairwise", "search", "frontier"]
    assert [o.method for o in c.rows] == methods
    assert {o.value.moves for o in c.rows} == {5}


@pytest.mark.parametrize(
    ("spec", "kind", "closed"),
    [
        ("4x4", "uncrossed", False),
        ("5x5", "uncrossed", True),
        ("3x5", "induced", False),
        ("5x5", "induced", True),
        ("cross5", "induced", False),
    ],
)
def test_cuts_keep_the_optimum(spec: str, kind: str, closed: bool) -> None:
    # Reflection and colour-balance cuts only remove symmetric copies.
    board = Board.parse(spec)
    p = longest_path(
        board, kind=kind, closed=closed, method="cpsat", cuts=True, options=OPTIONS
    )
    assert p.status is Status.OPTIMAL
    assert p.moves == brute_force(board, kind, closed)
    text = build_longest_model(board, kind=kind, closed=closed, cuts=True).sizes()
    assert text["colour balance"] == 1


@pytest.mark.parametrize(
    ("kind", "method"),
    [("uncrossed", "cpsat"), ("uncrossed", "search"), ("induced", "search")],
)
def test_huge_board_stops_at_the_limit(kind: str, method: str) -> None:
    # 14,400 cells: the crossings, the model or the search's bound alone take
    # longer than the limit; the clock is looked at while they are made.
    o = try_longest(
        "120x120",
        kind=kind,
        closed=True,
        method=method,
        options=SolveOptions(time_limit=0.3),
    )
    assert o.status is Status.UNKNOWN
    assert o.reason is not None
    assert "time limit" in o.reason
