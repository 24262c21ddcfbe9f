"""The symmetry rows of a full torus: ``x[a1] = 1`` and the ``heavy`` rows.

The claim (``cpknight/covering/program.py``): every placement that is not
empty has an image under the torus's symmetries (shifts, reflections, the
swap of two axes as long) with a piece on a1 and no rank, nor slice along an
axis as long as the ranks, holding more pieces than the first rank. It is
checked here on every placement of small tori, with the symmetries written
out in this file (not the package's), and the optimum of each puzzle is held
to a brute force.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cpknight.board import Board
from cpknight.covering.common import CoverInstance, Kind
from cpknight.covering.program import (
    MODEL_ROW_BYTES,
    MODEL_TERM_BYTES,
    model_bytes,
    program_of,
)
from cpknight.pieces import KNIGHT


def _instance(
    shape: tuple[int, ...], kind: Kind = "dominating", symmetry: bool = False
) -> CoverInstance:
    board = Board(shape, topology="torus")
    return CoverInstance(board=board, piece=KNIGHT, kind=kind, symmetry=symmetry)


def _torus_maps(shape: tuple[int, ...]) -> list[np.ndarray]:
    """Every shift, reflection (x -> -x) and swap of axes as long: each as the
    array sending cell i (row-major) to its image."""
    coords = np.array(list(itertools.product(*[range(s) for s in shape])))
    sizes = np.array(shape)
    maps = []
    for order in itertools.permutations(range(len(shape))):
        if any(shape[a] != shape[b] for a, b in enumerate(order)):
            continue
        for signs in itertools.product((1, -1), repeat=len(shape)):
            for shift in itertools.product(*[range(s) for s in shape]):
                image = (coords[:, list(order)] * signs + shift) % sizes
                maps.append(np.ravel_multi_index(tuple(image.T), shape))
    return maps


def _rows_matrix(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The program's symmetry rows as ``lo <= W x`` (all of them have ``lo``)."""
    program = program_of(_instance(shape))
    rows = program.rows[len(program.rows) - program.n_symmetry_rows :]
    weights = np.zeros((len(rows), program.n_cells), dtype=np.int64)
    lows = np.zeros(len(rows), dtype=np.int64)
    for k, row in enumerate(rows):
        assert row.lo is not None
        assert row.hi is None
        lows[k] = row.lo
        for v, c in row.terms:
            weights[k, v] += c
    return weights, lows


@pytest.mark.parametrize("shape", [(3, 3), (3, 4), (4, 4), (2, 5), (2, 2, 2)])
def test_every_placement_has_an_image_meeting_the_rows(shape: tuple[int, ...]) -> None:
    weights, lows = _rows_matrix(shape)
    cells = int(np.prod(shape))
    # every nonempty placement, as 0/1 rows
    codes = np.arange(1, 2**cells, dtype=np.int64)
    placements = (codes[:, None] >> np.arange(cells)) & 1
    met = np.zeros(len(codes), dtype=bool)
    for image in _torus_maps(shape):
        moved = np.zeros_like(placements)
        moved[:, image] = placements  # the piece on i goes to image[i]
        met |= ((moved @ weights.T) >= lows).all(axis=1)
    assert met.all()
    # and the rows cut: most placements fail them as they stand
    as_is = ((placements @ weights.T) >= lows).all(axis=1)
    assert as_is.mean() < 0.5


def test_the_rows_are_the_first_rank_against_every_other_slice() -> None:
    program = program_of(_instance((5, 5)))
    names = [row.name for row in program.rows[-program.n_symmetry_rows :]]
    assert names[0] == "shift[a1]"
    assert names[1:] == [f"heavy[0,{i}]" for i in range(1, 5)] + [
        f"heavy[1,{j}]" for j in range(5)
    ]
    text = program.row_text(program.rows[-program.n_symmetry_rows + 1])
    assert text.startswith("heavy[0,1]: x[a1] + x[b1]")
    assert "- x[a2]" in text
    # a longer axis gets no swap rows: 4x6 has the ranks' rows only
    wide = program_of(_instance((4, 6)))
    assert [r.name for r in wide.rows[-wide.n_symmetry_rows :]][1:] == [
        "heavy[0,1]",
        "heavy[0,2]",
        "heavy[0,3]",
    ]


@pytest.mark.parametrize(
    ("kind", "symmetry", "heavy"),
    [
        ("dominating", False, True),
        ("independent", False, True),
        ("independent-set", False, True),
        ("total", False, False),  # it splits into colours; the rows would join them
        ("dominating", True, False),  # the lex-leader rows instead
    ],
)
def test_which_programs_get_the_rows(kind: Kind, symmetry: bool, heavy: bool) -> None:
    program = program_of(_instance((6, 6), kind, symmetry))
    names = [row.name for row in program.rows]
    assert "shift[a1]" in names
    assert any(name.startswith("heavy[") for name in names) == heavy


def test_a_bounded_board_and_a_holed_torus_get_none() -> None:
    for board in (Board((6, 6)), Board((6, 6), [(0, 0)], topology="torus")):
        instance = CoverInstance(board=board, piece=KNIGHT, kind="dominating")
        names = [row.name for row in program_of(instance).rows]
        assert not any(name.startswith(("heavy[", "shift[")) for name in names)


@pytest.mark.parametrize(
    ("shape", "kind"),
    [((5, 5), "dominating"), ((4, 6), "independent"), ((3, 3, 3), "dominating")],
)
def test_the_memory_estimate_covers_the_rows(
    shape: tuple[int, ...], kind: Kind
) -> None:
    instance = _instance(shape, kind)
    program = program_of(instance)
    terms = sum(len(row.terms) for row in program.rows)
    cost = terms * MODEL_TERM_BYTES + len(program.rows) * MODEL_ROW_BYTES
    assert model_bytes(instance) >= cost


def _neighbours(shape: tuple[int, ...], leaper: tuple[int, int]) -> list[set[int]]:
    """Each cell's cells one leap away on the torus (written here: every
    signed permutation of the leaper's vector, wrapped)."""
    vector = (*leaper, *[0] * (len(shape) - 2))
    leaps = {
        tuple(s * x for s, x in zip(signs, order, strict=True))
        for order in itertools.permutations(vector)
        for signs in itertools.product((1, -1), repeat=len(shape))
    }
    cells = list(itertools.product(*[range(s) for s in shape]))
    index = {cell: i for i, cell in enumerate(cells)}
    near = []
    for cell in cells:
        ends = {
            index[tuple((c + d) % s for c, d, s in zip(cell, leap, shape, strict=True))]
            for leap in leaps
        }
        near.append(ends - {index[cell]})
    return near


def _brute_force(shape: tuple[int, ...], kind: str, leaper: tuple[int, int]) -> int:
    """The optimum over every placement (no rows of the package's)."""
    near = _neighbours(shape, leaper)
    n = len(near)
    sizes = range(n, 0, -1) if kind == "independent-set" else range(1, n + 1)
    for size in sizes:
        for chosen in itertools.combinations(range(n), size):
            pick = set(chosen)
            free = all(not (near[v] & pick) for v in pick)
            covers = all(v in pick or near[v] & pick for v in range(n))
            if kind == "independent-set" and free:
                return size
            if covers and (kind == "dominating" or free):
                return size
    raise AssertionError("no placement at all")


@pytest.mark.parametrize("method", ["cpsat", "scip", "highs"])
@pytest.mark.parametrize(
    ("shape", "kind", "leaper"),
    [
        ((4, 4), "dominating", (1, 2)),
        ((3, 5), "independent", (1, 2)),
        ((4, 4), "independent-set", (1, 2)),
        ((4, 4), "dominating", (2, 3)),
        ((2, 2, 3), "dominating", (1, 2)),
        ((4, 4), "dominating", (1, 1)),  # a graph in two pieces (the colours)
    ],
)
def test_every_engine_keeps_the_optimum(
    shape: tuple[int, ...], kind: str, leaper: tuple[int, int], method: str
) -> None:
    from cpknight.api.covering import dominate, independent

    board = Board(shape, topology="torus")
    if kind == "independent-set":
        size = independent(board, piece=leaper, method=method).size
    else:
        size = dominate(board, kind=kind, piece=leaper, method=method).size
    assert size == _brute_force(shape, kind, leaper)
