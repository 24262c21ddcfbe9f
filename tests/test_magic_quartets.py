"""The quartets' first phase of a magic tour (8 x 10 and its kind).

``cpknight/tours/cpsat/quartets.py`` asks a magic tour of a board with sides
8k and 4k + 2 for the structure of the published 8 x 10 tour. Held here:
the published tour has it (the structure does not over-constrain); every
block splits into four quartets (by brute force over the block's moves); a
tour found with it is a magic tour by loops written here; a "none" of the
first phase is never the engine's answer; its building stops at the clock.
"""

from __future__ import annotations

import itertools

import pytest
from ortools.sat.python import cp_model

from cpknight import find_tour, tour_constraints, try_tour
from cpknight.board import Board
from cpknight.cli import main
from cpknight.errors import SolveLimitError
from cpknight.pieces import move_graph
from cpknight.solving import SolveOptions
from cpknight.status import Status
from cpknight.tours.cpsat import build_tour_model
from cpknight.tours.cpsat.quartets import add_quartet_structure, quartet_blocks
from tests.test_record_certificates import MAGIC_8X10, SHADOW_8X10


def _leap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


def _cells(names: list[str]) -> list[tuple[int, int]]:
    """(rank, file) cells from names like ``a7``."""
    return [(int(name[1:]) - 1, ord(name[0]) - ord("a")) for name in names]


def _feasible_with_quartets(seq: list[tuple[int, int]]) -> bool:
    graph = move_graph("8x10")
    bundle = build_tour_model(
        graph, closed=True, constraints=tour_constraints("8x10", magic=True)
    )
    add_quartet_structure(graph, bundle.model, list(bundle.positions))
    for k, cell in enumerate(seq):
        bundle.model.add(bundle.positions[graph.node(cell)] == k)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 60
    status = solver.solve(bundle.model)
    assert status != cp_model.UNKNOWN
    return status in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_the_published_8x10_tour_has_the_quartets() -> None:
    assert _feasible_with_quartets(_cells(MAGIC_8X10))


def test_a_magic_tour_without_the_quartets_is_kept_out() -> None:
    # The structure is not implied by the sums: this tour is magic (by the
    # loops here) and its first four cells span two blocks.
    cells = _cells(SHADOW_8X10)
    _magic_by_loops(cells, 8, 10)
    assert _leap(cells[-1], cells[0])
    blocks = quartet_blocks((8, 10))
    assert len({blocks[cell] for cell in cells[:4]}) == 2
    assert not _feasible_with_quartets(cells)


def _paths_of_four(block: list[tuple[int, int]]) -> list[frozenset[tuple[int, int]]]:
    """The sets of four cells of ``block`` a knight walks in four cells."""
    found = set()
    for path in itertools.permutations(block, 4):
        if all(_leap(a, b) for a, b in itertools.pairwise(path)):
            found.add(frozenset(path))
    return list(found)


@pytest.mark.parametrize("shape", [(8, 10), (10, 8), (8, 14), (16, 6)])
def test_every_block_splits_into_four_quartets(shape: tuple[int, int]) -> None:
    blocks: dict[object, list[tuple[int, int]]] = {}
    for cell, block in quartet_blocks(shape).items():
        blocks.setdefault(block, []).append(cell)
    assert sum(map(len, blocks.values())) == shape[0] * shape[1]
    for cells in blocks.values():
        assert len(cells) == 16
        split = _split(frozenset(cells), _paths_of_four(cells))
        assert split is not None, cells
        assert len(split) == 4
        assert frozenset().union(*split) == frozenset(cells)


def _split(
    left: frozenset[tuple[int, int]], paths: list[frozenset[tuple[int, int]]]
) -> list[frozenset[tuple[int, int]]] | None:
    """Paths of four that cover ``left`` once each, or None (an exact cover).

    The least cell left is in one of the paths, so trying each path through
    it (and nothing else) misses no split.
    """
    if not left:
        return []
    least = min(left)
    for path in paths:
        if least in path and path <= left:
            rest = _split(left - path, paths)
            if rest is not None:
                return [path, *rest]
    return None


def _magic_by_loops(cells: list[tuple[int, int]], ranks: int, files: int) -> None:
    n = ranks * files
    assert len(cells) == len(set(cells)) == n
    assert all(0 <= r < ranks and 0 <= f < files for r, f in cells)
    assert all(_leap(a, b) for a, b in itertools.pairwise(cells))
    number = {cell: k for k, cell in enumerate(cells, start=1)}
    total = n * (n + 1) // 2
    for r in range(ranks):
        assert sum(number[r, f] for f in range(files)) == total // ranks
    for f in range(files):
        assert sum(number[r, f] for r in range(ranks)) == total // files


@pytest.mark.parametrize(
    ("board", "closed"),
    [("8x10", True), pytest.param("10x8", False, marks=pytest.mark.slow)],
)
def test_a_magic_tour_of_8_by_10_is_found(board: str, closed: bool) -> None:
    tour = find_tour(
        board,
        closed=closed,
        options=SolveOptions(time_limit=300, workers=1, seed=0),
        constraints=tour_constraints(board, magic=True),
    )
    cells = [(int(r), int(f)) for r, f in tour.cells]
    ranks, files = Board.parse(board).shape
    _magic_by_loops(cells, ranks, files)
    if closed:
        assert _leap(cells[-1], cells[0])


def test_a_none_of_the_first_phase_is_not_the_answer() -> None:
    # On 8 x 6 the quartets are infeasible (CP-SAT says so in seconds); the
    # plain model goes on and, in this little time, decides nothing.
    outcome = try_tour(
        "8x6",
        closed=True,
        options=SolveOptions(time_limit=8, workers=1, seed=0),
        constraints=tour_constraints("8x6", magic=True),
    )
    assert outcome.status in (Status.UNKNOWN, Status.FEASIBLE), outcome.status


def test_the_quartets_stop_at_the_clock() -> None:
    graph = move_graph("8x10")
    model = cp_model.CpModel()
    pos = [model.new_int_var(0, 79, f"p{v}") for v in range(80)]
    calls: list[int] = []

    def check() -> None:
        calls.append(1)
        if len(calls) >= 3:
            raise SolveLimitError("stopped by the test")

    with pytest.raises(SolveLimitError):
        add_quartet_structure(graph, model, pos, check)
    assert len(calls) == 3  # not one call per cell's row of Booleans


def test_the_formulation_names_the_quartets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["formulation", "tour", "8x10", "--magic"]) == 0
    out, _ = capsys.readouterr()
    assert "405 over each rank, 324 over each file" in out
    assert "the quartets of the published 8 x 10 tour" in out
