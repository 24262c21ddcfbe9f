"""Counts are exact whatever the number of CP-SAT workers.

With several workers CP-SAT's enumeration can report one solution twice (6x6
gave 19,726 directed closed tours with ``--workers 2``, against 9,862 undirected
in OEIS A001230); counting therefore always enumerates on one worker. Every
count here is compared with the tests' own brute-force enumeration.
"""

from __future__ import annotations

import functools

import pytest

from cpknight import Board, count_tours
from cpknight.cli import main
from cpknight.solving import SolveOptions
from tests.conftest import brute_neighbours, brute_tours

CASES = [
    # (board, piece, closed, start); 5x5 open from a1 showed 305 with 2 workers
    pytest.param("5x5", (1, 2), False, (0, 0), id="5x5-open-from-a1"),
    pytest.param("3x4", (1, 2), False, None, id="3x4-open"),
    pytest.param("4x4", (1, 0), True, None, id="4x4-wazir-closed"),
    pytest.param("4x4", (1, 0), False, (0, 0), id="4x4-wazir-open-from-a1"),
]


@functools.cache
def _oracle(
    board: str, piece: tuple[int, int], closed: bool, start: tuple[int, int] | None
) -> int:
    """Directed tours by brute force (a circuit once per direction)."""
    nbrs = brute_neighbours(Board.parse(board), piece)
    found = sum(1 for _ in brute_tours(nbrs, closed=closed, start=start))
    if closed and start is None:
        return found // len(nbrs)  # brute force lists a circuit from every cell
    return found


@pytest.mark.parametrize("workers", [1, 2, 3, 0])
@pytest.mark.parametrize(("board", "piece", "closed", "start"), CASES)
def test_count_equals_brute_force_for_every_worker_count(
    board: str,
    piece: tuple[int, int],
    closed: bool,
    start: tuple[int, int] | None,
    workers: int,
) -> None:
    count = count_tours(
        board,
        piece=piece,
        closed=closed,
        start=start,
        options=SolveOptions(time_limit=60, workers=workers, seed=0),
    )
    assert str(count.status) == "found"
    assert count.directed == _oracle(board, piece, closed, start)


def test_count_with_workers_says_it_counts_on_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["count", "5x5", "--open", "--start", "a1", "--workers", "2"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "304 directed" in out  # Jelliss: 304 open tours from a corner of 5x5
    assert "--workers 2 ignored" in err
