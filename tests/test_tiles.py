"""The tiles engine: structured tiles joined into tours of large boards.

Expected existence comes from two theorems, restated independently of the engine
in tests/conftest.py: Schwenk (1991) for closed tours (``schwenk_closed``),
Conrad et al. (1994) for open tours (``conrad_open``). Every tour
is re-checked with ``check_tour`` (the engine already ran it through
``make_tour``; the re-check also fixes the closed/open kind and the start).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from cpknight.api import TOUR_METHODS, choose_tour_method, find_tour
from cpknight.board import Board
from cpknight.checks import check_tour
from cpknight.cli import main
from cpknight.errors import InvalidInputError, NoTourError, SolveLimitError
from cpknight.io import read_tour_file
from cpknight.pieces import KNIGHT
from cpknight.solving import SolveOptions
from cpknight.tiling import build as tile_build
from cpknight.tiling import tile_tour
from cpknight.tiling.build import structure_moves
from cpknight.tours import existence
from cpknight.tours.instance import TourInstance
from tests.conftest import conrad_open, schwenk_closed


def test_theorems_match_the_engine_predicates() -> None:
    for m in range(1, 20):
        for n in range(1, 20):
            assert existence.closed_tour_exists(m, n) == schwenk_closed(m, n), (m, n)
            assert existence.open_tour_exists(m, n) == conrad_open(m, n), (m, n)


SMALL = [(m, n) for m in range(5, 17) for n in range(5, 17) if m <= n]


@pytest.mark.parametrize(("m", "n"), SMALL, ids=[f"{m}x{n}" for m, n in SMALL])
def test_every_small_board_schwenk_closed_else_open(m: int, n: int) -> None:
    board = Board((m, n))
    closed = schwenk_closed(m, n)  # otherwise odd x odd: open only (Conrad et al.)
    tour = tile_tour(board, closed=closed)
    check_tour(board, tour.array, closed=closed)
    assert tour.closed == closed
    assert tour.method == "tiles"


@pytest.mark.parametrize(
    ("m", "n", "closed"),
    [
        (100, 100, True),
        (101, 101, False),
        (60, 90, True),
        (13, 200, True),
        (201, 7, False),
        (5, 64, True),
        (12, 13, True),
    ],
)
def test_larger_boards(m: int, n: int, closed: bool) -> None:
    board = Board((m, n))
    tour = tile_tour(board, closed=closed)
    check_tour(board, tour.array, closed=closed)
    assert len(tour) == m * n


@pytest.mark.parametrize(
    ("m", "n", "closed"),
    [
        (3, 40, True),  # Schwenk: 3 x n closed for even n >= 10
        (40, 3, True),
        (3, 41, False),  # Conrad et al.: 3 x n open for n >= 7
        (4, 41, False),  # Conrad et al.: 4 x n open for n >= 5
        (41, 4, False),
        (3, 1000, True),
        (4, 1000, False),
    ],
)
def test_strips_three_and_four_high(m: int, n: int, closed: bool) -> None:
    board = Board((m, n))
    tour = tile_tour(board, closed=closed)
    check_tour(board, tour.array, closed=closed)


def test_closed_tour_rotated_to_the_start() -> None:
    board = Board((40, 50))
    tour = tile_tour(board, closed=True, start=(17, 23))
    check_tour(board, tour.array, closed=True, start=(17, 23))


@pytest.mark.parametrize("start", [(0, 0), (50, 50), (100, 0), (3, 97), (64, 12)])
def test_open_tour_of_odd_board_from_an_even_cell(start: tuple[int, int]) -> None:
    board = Board((101, 101))
    tour = tile_tour(board, closed=False, start=start)
    check_tour(board, tour.array, start=start, closed=False)


def test_open_tour_of_even_board_from_any_cell() -> None:
    board = Board((30, 31))
    tour = tile_tour(board, closed=False, start=(3, 4))
    check_tour(board, tour.array, start=(3, 4), closed=False)


def test_open_tour_on_odd_board_cannot_start_on_the_minority_colour() -> None:
    # 101 x 101 has 5101 cells with even row + col and 5100 with odd; a path
    # alternates colours, so it starts and ends on the even ones.
    with pytest.raises(NoTourError, match="even row"):
        tile_tour(Board((101, 101)), closed=False, start=(0, 1))


@pytest.mark.parametrize(
    ("m", "n", "closed", "why"),
    [
        (5, 5, True, "both sides are odd"),  # Schwenk (a)
        (101, 101, True, "both sides are odd"),  # Schwenk (a)
        (4, 100, True, "a 4 x n board never has one"),  # Schwenk (b)
        (3, 8, True, "3 x 8"),  # Schwenk (c)
        (4, 4, False, "Conrad"),  # Conrad et al.
        (3, 6, False, "Conrad"),  # Conrad et al.
        (2, 50, False, "Conrad"),  # Conrad et al.
    ],
)
def test_no_tour_where_the_theorems_say_none(
    m: int, n: int, closed: bool, why: str
) -> None:
    with pytest.raises(NoTourError, match=why):
        tile_tour(Board((m, n)), closed=closed)


def test_catalogue_tiles_contain_their_structure_moves() -> None:
    catalogue = json.loads(tile_build.CATALOGUE_PATH.read_text(encoding="utf-8"))
    sides = tile_build.TILE_SIDES
    assert len(catalogue) == len(sides) ** 2
    for key, order in catalogue.items():
        h, w = (int(x) for x in key.split()[0].split("x"))
        closed = not key.endswith("open")
        assert closed == (h * w % 2 == 0), key
        cells = np.array(order) // w, np.array(order) % w
        check_tour(Board((h, w)), np.stack(cells, axis=1), closed=closed)
        where = {cell: i for i, cell in enumerate(order)}
        for a, b in structure_moves(h, w):
            gap = abs(where[a[0] * w + a[1]] - where[b[0] * w + b[1]])
            assert gap == 1 or (closed and gap == h * w - 1), (key, a, b)


def test_a_tile_built_now_matches_the_model() -> None:
    built = tile_build.build_catalogue((7,))
    order = built["7x7 open"]
    check_tour(Board((7, 7)), [divmod(u, 7) for u in order], closed=False)


def test_registered_and_chosen_by_auto() -> None:
    assert TOUR_METHODS["tiles"].target == "cpknight.tiling:solve"
    assert TOUR_METHODS["tiles"].reads == "board"
    assert find_tour("200x300", method="auto").method == "tiles"
    large = TourInstance(Board((20, 20)), KNIGHT)
    assert choose_tour_method(large).method == "tiles"
    small = TourInstance(Board((8, 8)), KNIGHT)
    assert choose_tour_method(small).method != "tiles"


def test_time_limit_is_honoured() -> None:
    # Assembling 3000 x 3000 takes over a second (benchmarks/huge.py); the
    # engine must stop at its checks between phases rather than finish late.
    options = SolveOptions(time_limit=0.05)
    with pytest.raises(SolveLimitError, match=r"time limit of .* was reached"):
        find_tour("3000x3000", method="tiles", options=options)


def test_refuses_other_boards_and_pieces() -> None:
    with pytest.raises(InvalidInputError, match="plain bounded"):
        find_tour(Board((20, 20), topology="torus"), method="tiles")
    with pytest.raises(InvalidInputError, match="knight"):
        find_tour("20x20", piece="zebra", method="tiles")
    # the camel never leaves its colour: the certificate answers first
    with pytest.raises(NoTourError, match="2 components"):
        find_tour("20x20", piece="camel", method="tiles")
    # An end on a board too narrow for the chain of tiles and too large for
    # CP-SAT whole.
    with pytest.raises(InvalidInputError, match="end cell"):
        find_tour("11x200", closed=False, end=(0, 0), method="tiles")


@pytest.mark.parametrize(
    "shape", [(1, 1), (8, 8), (10, 10), (30, 27), (3, 4, 5), (26, 40), (1000, 27)]
)
def test_bulk_cell_names_match_cell_name(shape: tuple[int, ...]) -> None:
    board = Board(shape)
    cells = np.argwhere(np.ones(shape, dtype=bool))
    assert board.cell_names(cells) == [board.cell_name(c) for c in cells.tolist()]


@pytest.mark.parametrize("suffix", [".txt", ".npy"])
def test_cli_round_trip(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"tour{suffix}"
    assert main(["tour", "60x60", "--out", str(out)]) == 0
    assert main(["check", "60x60", str(out)]) == 0
    array = read_tour_file(str(out), Board((60, 60)))
    assert isinstance(array, np.ndarray)
    assert array.shape == (3600, 2)
    assert main(["tour", "61x61", "--open", "--out", str(out), "--force"]) == 0
    assert main(["check", "61x61", str(out), "--open"]) == 0
    assert main(["check", "61x61", str(out)]) == 1  # odd: no circuit


def test_cli_check_reads_algebraic_and_reports_bad_lines(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    assert main(["tour", "12x12", "--method", "tiles", "--out", str(good)]) == 0
    assert good.read_text().splitlines()[0][0].isalpha()
    assert main(["check", "12x12", str(good)]) == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("a1\nb3\nzz\n")
    assert isinstance(read_tour_file(str(bad), Board((12, 12))), list)
    assert main(["check", "12x12", str(bad)]) == 1


def test_model_script(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).parent.parent / "models" / "tour_tile.py"
    spec = importlib.util.spec_from_file_location("tour_tile_model", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["6", "8"]) == 0
    out = capsys.readouterr().out
    # 2 (4mn - 6(m + n) + 8) = 232 arcs: twice the edges (OEIS A035008)
    assert "6x8 tile: 232 Booleans, 1 circuit, 4 required" in out
    assert "closed tour of 6x16 (96 cells); verified by cpknight.is_tour: True" in out


SWEEP = [(m, n) for m in range(3, 61) for n in range(max(m, 17), 61)]
SWEEP += [(m, n) for m in range(5, 17) for n in range(m, 17)]


@pytest.mark.slow
def test_every_board_up_to_60() -> None:
    failures = []
    for m, n in SWEEP:
        if not conrad_open(m, n):
            continue
        closed = schwenk_closed(m, n)
        try:
            tour = tile_tour(Board((m, n)), closed=closed)
            check_tour(Board((m, n)), tour.array, closed=closed)
        except Exception as exc:  # pragma: no cover - listed on failure
            failures.append((m, n, repr(exc)))
    assert failures == []
