"""Tours up to symmetry (cpknight.counting.symmetry) against a brute force.

The brute force shares no code with cpknight: every tour enumerated by
``brute_tours`` (conftest) as a set of moves, the symmetries made here from
coordinates (the eight turns and mirrors of the square, those of a rectangle,
the shifts of a torus, the axis flips and swaps of a box), each kept when it
maps the open cells and the moves onto themselves. Then each symmetry's
fixed tours are counted one tour at a time, and the classes are the distinct
smallest images. The library's orbit search and Burnside's sum must agree.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
from collections import Counter
from collections.abc import Callable

import pytest

from cpknight.board import Board
from cpknight.counting.symmetry import fixed_tours, tour_classes
from cpknight.graph.symmetry import symmetry_group
from cpknight.pieces import KNIGHT, move_graph
from tests.conftest import Cell, brute_neighbours, brute_tours

COMPILED = importlib.util.find_spec("numba") is not None
"""The compiled twin of the orbit search is checked too (``cpknight[fast]``)."""

Tour = frozenset[frozenset[Cell]]
Map = Callable[[Cell], Cell]


def _tours(board: Board, closed: bool) -> set[Tour]:
    nbrs = brute_neighbours(board, (1, 2))
    start = min(nbrs) if closed else None
    return {
        frozenset(
            frozenset(pair)
            for pair in itertools.pairwise(path + path[:1] if closed else path)
        )
        for path in brute_tours(nbrs, closed=closed, start=start)
    }


def _maps(board: Board) -> list[Map]:
    """Every map of coordinates that keeps the open cells and the moves."""
    shape, dim = board.shape, len(board.shape)
    nbrs = brute_neighbours(board, (1, 2))
    cells = set(nbrs)
    found: dict[tuple[Cell, ...], Map] = {}
    shifts = [
        range(s) if w else range(1) for s, w in zip(shape, board.wrap, strict=True)
    ]
    for order in itertools.permutations(range(dim)):
        if [shape[a] for a in order] != list(shape):
            continue
        if [board.wrap[a] for a in order] != list(board.wrap):
            continue
        for flips in itertools.product((False, True), repeat=dim):
            for shift in itertools.product(*shifts):

                def g(
                    c: Cell,
                    o: tuple[int, ...] = order,
                    f: tuple[bool, ...] = flips,
                    t: tuple[int, ...] = shift,
                ) -> Cell:
                    out = []
                    for axis in range(dim):
                        x = c[o[axis]]
                        x = shape[axis] - 1 - x if f[axis] else x
                        out.append((x + t[axis]) % shape[axis])
                    return tuple(out)

                if {g(c) for c in cells} != cells:
                    continue
                if any({g(b) for b in nbrs[a]} != nbrs[g(a)] for a in cells):
                    continue
                found.setdefault(tuple(g(c) for c in sorted(cells)), g)
    return list(found.values())


def _image(tour: Tour, g: Map) -> Tour:
    return frozenset(frozenset(g(c) for c in move) for move in tour)


def _key(tour: Tour) -> tuple[tuple[Cell, ...], ...]:
    return tuple(sorted(tuple(sorted(move)) for move in tour))


CASES = [
    ("3x4", "bounded", False),
    ("4x5", "bounded", False),
    ("3x3", "torus", True),
    ("3x3", "torus", False),
    ("3x5", "cylinder", True),
    ("5x5-hole", "bounded", False),
    ("2x3x4-corners", "bounded", True),
    # larger (the brute force takes half a minute or more): -m slow
    pytest.param("4x4", "torus", True, marks=pytest.mark.slow),
    pytest.param("5x5", "bounded", False, marks=pytest.mark.slow),
    pytest.param("3x4", "torus", True, marks=pytest.mark.slow),
    pytest.param("2x3x4", "bounded", True, marks=pytest.mark.slow),
]
IDS = ["-".join(map(str, getattr(c, "values", c))) for c in CASES]


def _board(spec: str, topology: str) -> Board:
    if spec == "5x5-hole":  # the centre blocked: the square's symmetries kept
        return Board((5, 5), blocked=[(2, 2)])
    if spec == "2x3x4-corners":  # 2x3x4 less the 4 corners of its long edges
        return Board((2, 3, 4), blocked=[(0, 0, 0), (0, 0, 3), (1, 2, 0), (1, 2, 3)])
    shape = tuple(int(s) for s in spec.split("x"))
    wrap = (False, True) if topology == "cylinder" else None
    if wrap is not None:
        return Board(shape, wrap=wrap)
    return Board(shape, topology=topology)  # type: ignore[arg-type]


@pytest.mark.parametrize(("spec", "topology", "closed"), CASES, ids=IDS)
def test_fixed_tours_and_classes_equal_brute_force(
    spec: str, topology: str, closed: bool
) -> None:
    board = _board(spec, topology)
    tours = _tours(board, closed)
    maps = _maps(board)
    graph = move_graph(board, KNIGHT)
    group = symmetry_group(board)
    assert len(group) == len(maps)
    expected_fixed = Counter(sum(1 for t in tours if _image(t, g) == t) for g in maps)
    got_fixed = Counter(fixed_tours(graph, p, closed=closed) for p in group)
    assert got_fixed == expected_fixed
    assert fixed_tours(graph, group[0], closed=closed) == len(tours)  # identity
    classes = {min(_key(_image(t, g)) for g in maps) for t in tours}
    found = tour_classes(graph, len(tours), closed=closed)
    assert found.divides
    assert (found.group, found.classes) == (len(maps), len(classes))
    if COMPILED:  # the search's numba twin, held to the same brute force
        twin = Counter(
            fixed_tours(graph, p, closed=closed, compiled=True) for p in group
        )
        assert twin == expected_fixed
        assert tour_classes(graph, len(tours), closed=closed, compiled=True) == found


def test_the_4x4_torus_has_1344_tours_in_classes() -> None:
    # The figure: the 4x4 torus's knight graph is the 4-cube's
    # (A066037(4): 1,344 Hamiltonian cycles), found here by the orbit search
    # under the identity, and Burnside's sum divides by its 128 symmetries.
    board = Board((4, 4), topology="torus")
    graph = move_graph(board, KNIGHT)
    group = symmetry_group(board)
    assert fixed_tours(graph, group[0], closed=True) == 1344
    assert tour_classes(graph, 1344, closed=True).divides


def test_6x6_closed_has_jelliss_classes() -> None:
    # G. P. Jelliss, "Closed knight's tours of the 6 by 6 board"
    # (mayhematics.com/t/6a.htm): 1,245 geometrically distinct tours, 5 with
    # quaternary symmetry and 17 with binary (5 x 2 + 17 x 4 + 1,223 x 8 =
    # 9,862, A001230(6)). So each quarter turn fixes the 10 quaternary tours
    # and the half turn those and the 68 binary ones; no mirror fixes any.
    found = tour_classes(move_graph("6x6"), 9862, closed=True)
    assert (found.group, found.classes) == (8, 1245)
    assert sorted(found.fixed) == [0, 0, 0, 0, 10, 10, 78]


@pytest.mark.skipif(not COMPILED, reason="numba is not installed")
def test_the_compiled_search_goes_on_where_it_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One step between two calls of the clock: the search stops and goes on
    # from its stack thousands of times and must still find Jelliss's 78
    # tours that the half turn fixes (and 10 under a quarter turn).
    import cpknight.counting.symmetry as symmetry

    monkeypatch.setattr(symmetry, "COMPILED_CHECK", 1)
    ticks: list[int] = []
    found = tour_classes(
        move_graph("6x6"),
        9862,
        closed=True,
        compiled=True,
        tick=lambda: ticks.append(1),
    )
    assert sorted(found.fixed) == [0, 0, 0, 0, 10, 10, 78]
    assert len(ticks) > 1000


@pytest.mark.skipif(not COMPILED, reason="numba is not installed")
def test_the_compiled_search_stops_when_the_clock_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import cpknight.counting.symmetry as symmetry

    class Stop(Exception):
        pass

    def tick() -> None:
        raise Stop

    monkeypatch.setattr(symmetry, "COMPILED_CHECK", 100)
    with pytest.raises(Stop):
        tour_classes(move_graph("6x6"), 9862, closed=True, compiled=True, tick=tick)


def test_the_compiled_search_runs_only_where_it_can_load_in_time() -> None:
    from cpknight.counting.symmetry import LOAD_SECONDS, compiled_fits

    assert compiled_fits(None) is COMPILED  # no limit: wherever numba is
    assert not compiled_fits(0.5)  # a short limit: the search in Python
    assert not compiled_fits(LOAD_SECONDS)


def test_a_count_off_by_one_fails_the_check() -> None:
    graph = move_graph("6x6")
    assert not tour_classes(graph, 9861, closed=True).divides
    assert tour_classes(graph, 9862 + 8, closed=True).divides  # a multiple passes


def test_a_map_that_is_not_a_symmetry_is_refused() -> None:
    graph = move_graph("3x4")
    swap = list(range(12))
    swap[0], swap[1] = 1, 0  # a1 and b1 swapped: a1's moves are not b1's
    with pytest.raises(ValueError, match="non-move"):
        fixed_tours(graph, swap, closed=True)


# ------------------------------------------------------------- front doors


def test_the_front_door_and_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cpknight.api import tours_up_to_symmetry
    from cpknight.cli import EXIT_BAD_INPUT, EXIT_OK, main
    from cpknight.errors import EngineError

    # the 3x5 cylinder's closed tours and their classes by the brute force
    board = Board((3, 5), wrap=(False, True))
    tours = _tours(board, True)
    maps = _maps(board)
    want = len({min(_key(_image(t, g)) for g in maps) for t in tours})
    assert tours_up_to_symmetry(board, len(tours)).classes == want
    with pytest.raises(EngineError, match="fail the symmetry check"):
        tours_up_to_symmetry(board, len(tours) + 1)
    assert main(["count", "3x5", "--cylinder", "--classes", "--json"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert data["undirected"] == len(tours)
    assert data["classes"] == {
        "classes": want,
        "symmetries": len(maps),
        "fixed": sum(sum(1 for t in tours if _image(t, g) == t) for g in maps)
        - len(tours),
    }
    assert main(["count", "6x6", "--classes"]) == EXIT_OK
    assert "up to the board's 8 symmetries: 1245 tours" in capsys.readouterr().out
    for extra in (["--start", "a1"], ["--require", "a1-b3"], ["--prefixes"]):
        assert main(["count", "4x5", "--open", "--classes", *extra]) == EXIT_BAD_INPUT
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert "--classes" in err


def test_the_time_limit_stops_the_symmetry_search() -> None:
    from cpknight.api import tours_up_to_symmetry
    from cpknight.errors import SolveLimitError

    # 7x7 open: the half turn's 220,016 fixed tours take the search about a
    # minute and a half; a limit of 0.5 s stops it within its clock's checks
    with pytest.raises(SolveLimitError):
        tours_up_to_symmetry("7x7", 82787609160, closed=False, time_limit=0.5)
