"""Completing a partial tour: ``complete_tour``, its certificates and ``--given``.

Every answer is held to a brute force written here from the rules alone (the
moves of a leaper worked out from the coordinates, wrap and holes, not read
from the move graph): on small boards, holed boards and tori, random partial
paths (random walks from a random start), closed and open, with and without a
fixed end. A completion must be a tour (``check_tour``) that begins with the
path, and exist by brute force; a proof of none, from a certificate or an
engine, must find none by brute force. The engines (``prune``,
``backtrack``, ``cpsat`` and ``auto``) are compared on the same paths.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cpknight.api import complete_tour
from cpknight.board import Board, Cell
from cpknight.checks import check_tour
from cpknight.errors import InvalidInputError
from cpknight.pieces import move_graph
from cpknight.tours.completion import completion_certificate

# ------------------------------------------------------------ brute force


def moves_of(board: Board, cell: Cell, vector: tuple[int, int]) -> list[Cell]:
    """The open cells one leap from ``cell``, from the coordinates alone."""
    a, b = vector
    rows, cols = board.shape
    torus = board.topology == "torus"
    found: list[Cell] = []
    for dr, dc in {
        (sa * x, sb * y)
        for x, y in ((a, b), (b, a))
        for sa in (1, -1)
        for sb in (1, -1)
    }:
        r, c = cell[0] + dr, cell[1] + dc
        if torus:
            r, c = r % rows, c % cols
        elif not (0 <= r < rows and 0 <= c < cols):
            continue
        if (r, c) not in board.blocked and (r, c) != cell and (r, c) not in found:
            found.append((r, c))
    return found


def can_finish(
    board: Board,
    path: list[Cell],
    *,
    closed: bool,
    end: Cell | None,
    vector: tuple[int, int] = (1, 2),
) -> bool:
    """Whether some tour begins with ``path``: depth-first over every way on.

    States (the cells visited, the last one) found to lead nowhere are
    remembered, so that none is searched twice: exact, and quick enough on
    twenty cells.
    """
    cells: list[Cell] = [
        (r, c)
        for r in range(board.shape[0])
        for c in range(board.shape[1])
        if (r, c) not in board.blocked
    ]
    bit = {cell: 1 << i for i, cell in enumerate(cells)}
    nbrs: dict[Cell, list[Cell]] = {c: moves_of(board, c, vector) for c in cells}
    full = (1 << len(cells)) - 1
    first = path[0]
    dead: set[tuple[int, Cell]] = set()

    def done(last: Cell) -> bool:
        if end is not None and last != end:
            return False
        return not closed or (len(cells) >= 3 and first in nbrs[last])

    def go(seen: int, last: Cell) -> bool:
        if seen == full:
            return done(last)
        if (seen, last) in dead:
            return False
        for nxt in nbrs[last]:
            if not seen & bit[nxt] and go(seen | bit[nxt], nxt):
                return True
        dead.add((seen, last))
        return False

    return go(sum(bit[c] for c in path), path[-1])


def random_path(
    board: Board, rng: random.Random, vector: tuple[int, int]
) -> list[Cell]:
    """A random walk without repeats, from a random start, of random length."""
    cells: list[Cell] = [
        (r, c)
        for r in range(board.shape[0])
        for c in range(board.shape[1])
        if (r, c) not in board.blocked
    ]
    path: list[Cell] = [rng.choice(cells)]
    length = rng.choice([1, 2, 4, rng.randint(1, len(cells))])  # short ones too
    while len(path) < length:
        ways = [c for c in moves_of(board, path[-1], vector) if c not in path]
        if not ways:
            break
        path.append(rng.choice(ways))
    return path


BOARDS = [
    pytest.param(Board((4, 4)), id="4x4"),
    pytest.param(Board((3, 5)), id="3x5"),
    pytest.param(Board((3, 6)), id="3x6"),
    pytest.param(Board((4, 5)), id="4x5"),
    pytest.param(Board((4, 5), [(1, 2)]), id="4x5-hole"),
    pytest.param(Board((4, 5), [(0, 0), (3, 4)]), id="4x5-two-holes"),
    pytest.param(Board((4, 4), topology="torus"), id="4x4-torus"),
    pytest.param(Board((3, 5), topology="torus"), id="3x5-torus"),
    pytest.param(Board((4, 5), [(0, 4), (1, 1)], topology="torus"), id="4x5-torus"),
]


def cases(
    board: Board, seed: int, count: int
) -> Iterator[tuple[list[Cell], bool, Cell | None]]:
    """Random paths, each asked closed, open, and open with a fixed end."""
    rng = random.Random(seed)
    cells: list[Cell] = [
        (r, c)
        for r in range(board.shape[0])
        for c in range(board.shape[1])
        if (r, c) not in board.blocked
    ]
    for _ in range(count):
        path = random_path(board, rng, (1, 2))
        yield path, True, None
        yield path, False, None
        yield path, False, rng.choice(cells)


@pytest.mark.parametrize("board", BOARDS)
def test_every_answer_agrees_with_brute_force(board: Board) -> None:
    graph = move_graph(board)
    answered = {"found": 0, "infeasible": 0}
    proofs: set[str] = set()
    for path, closed, end in cases(
        board, seed=board.size * 7 + len(board.blocked), count=6
    ):
        truth = can_finish(board, path, closed=closed, end=end)
        proof = completion_certificate(graph, path, closed=closed, end=end)
        if proof is not None:
            proofs.add(proof.name)
            assert not truth, (path, closed, end, proof)
            assert proof.cells
            assert all(board.is_open(c) for c in proof.cells)
        for method in ("prune", "backtrack", "cpsat", "auto"):
            outcome = complete_tour(
                board, path, closed=closed, end=end, method=method, time_limit=20
            )
            status = str(outcome.status)
            assert status in ("found", "infeasible"), (method, outcome.reason)
            assert (status == "found") == truth, (method, path, closed, end)
            answered[status] += 1
            if status == "found":
                assert outcome.tour is not None
                cells = list(outcome.tour.cells)
                check_tour(board, cells, closed=closed, end=end)
                assert cells[: len(path)] == path
            else:
                assert outcome.reason
    # the cases reach both answers, and the certificates settle some
    assert answered["infeasible"], answered


# ------------------------------------------------------ each certificate once

WAZIR = (0, 1)


@pytest.mark.parametrize(
    ("board", "piece", "path", "closed", "end", "name", "outlined"),
    [
        pytest.param(
            "6x6",
            "knight",
            "b4 d3 c5 a6",
            False,
            None,
            "dead-end",
            "a6",
            id="dead-end: a6's moves b4 and c5 are visited",
        ),
        pytest.param(
            "6x6",
            "knight",
            "f1 d2 c4 e3 c2",
            True,
            None,
            "no-close",
            "f1",
            id="no-close: f1's moves d2 and e3 are visited",
        ),
        pytest.param(
            "6x6",
            "knight",
            "d5 c3 e4 c5",
            False,
            None,
            "isolated",
            "f6",
            id="isolated: f6's moves d5 and e4 are visited",
        ),
        pytest.param(
            "6x6",
            "knight",
            "c2 e3 f5",
            False,
            None,
            "degree",
            "a1 f1",
            id="degree: a1 and f1 each have one way in, a path one last cell",
        ),
        pytest.param(
            "8x8",
            "knight",
            "d2 b3 d4",
            True,
            None,
            "degree",
            "a1 d2",
            id="degree: a1 must end a closed tour, but is no move from d2",
        ),
        pytest.param(
            "8x8",
            "knight",
            "d2 b3 d4",
            False,
            "h8",
            "degree",
            "a1 h8",
            id="degree: a1 must end the tour, but the end is h8",
        ),
        pytest.param(
            "6x6",
            "knight",
            "d2 c4 e3",
            False,
            None,
            "cut",
            "e3 f1",
            id="cut: without the knight's cell e3, f1 is apart",
        ),
        pytest.param(
            "6x6",
            "knight",
            "c5 d3 c1 e2 c3 a2",
            False,
            None,
            "cut",
            "b4 a6",
            id="cut: without b4 the free cells fall into three parts",
        ),
        pytest.param(
            "6x6",
            "knight",
            "f1 e3 c4 a3 b1 c3 e4 f6",
            True,
            None,
            "cut",
            "d4",
            id="cut: past d4 lie cells none of which is a move from f1",
        ),
        pytest.param(
            "4x4",
            WAZIR,
            "b1 b2 b3 b4 a4",
            False,
            None,
            "cut",
            "c1 d4",
            id="cut: a wazir's wall down the b-file leaves c and d apart",
        ),
        pytest.param(
            "5x5",
            "knight",
            "b1",
            False,
            None,
            "colour",
            "a1",
            id="colour: 25 cells from b1 need 13 of b1's colour, which has 12",
        ),
        pytest.param(
            "6x6",
            "knight",
            "a1",
            False,
            "c1",
            "colour",
            "a1 c1",
            id="colour: 36 cells from a1 end off its colour, and c1 is on it",
        ),
        pytest.param(
            "8x8",
            "knight",
            "d2 b3 d4",
            False,
            None,
            "colour",
            "d4 a1",
            id="colour: a1 must be last (one way in) but has d4's colour",
        ),
        pytest.param(
            "3x4",
            "knight",
            "a1 c2 a3 b1 d2 b3 c1 d3 b2 d1 c3 a2",
            True,
            None,
            "complete",
            "a2 a1",
            id="complete: an open tour of 3x4 does not close",
        ),
        pytest.param(
            "5x5",
            "knight",
            "a1 b3 c5",
            False,
            "b3",
            "complete",
            "b3",
            id="complete: the fixed end is visited already",
        ),
    ],
)
def test_each_certificate_names_its_cells(
    board: str,
    piece: object,
    path: str,
    closed: bool,
    end: str | None,
    name: str,
    outlined: str,
) -> None:
    resolved = Board.parse(board)
    graph = move_graph(resolved, piece)  # type: ignore[arg-type]
    cells = path.split()
    proof = completion_certificate(
        graph,
        cells,
        closed=closed,
        end=None if end is None else resolved.parse_cell(end),
    )
    assert proof is not None
    assert proof.name == name, proof.reason
    shown = {resolved.cell_name(c) for c in proof.cells}
    assert set(outlined.split()) <= shown, (proof.cells, proof.reason)
    # the door says the same, and no engine is asked
    outcome = complete_tour(resolved, cells, piece=piece, closed=closed, end=end)  # type: ignore[arg-type]
    assert str(outcome.status) == "infeasible"
    assert outcome.reason == proof.reason
    assert outcome.effort.as_dict() == {}


def test_an_engine_proof_is_worded_for_the_path() -> None:
    # 8x8 from d2-b3-d4, open: a1 must be last (one way in), the colours
    # forbid it; CP-SAT alone (no certificates) proves none
    from cpknight.errors import NoTourError
    from cpknight.solving import SolveOptions
    from cpknight.tours.completion import completion_instance, solve_completion

    graph = move_graph(Board.parse("8x8"))
    nodes = [graph.node(Board.parse("8x8").parse_cell(c)) for c in ("d2", "b3", "d4")]
    instance = completion_instance(graph, nodes, closed=False)
    with pytest.raises(NoTourError, match=r"^CP-SAT proved that no open tour goes on"):
        solve_completion(instance, nodes, "cpsat", SolveOptions(time_limit=20).start())


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("path", "message"),
    [
        pytest.param([], "the path is empty", id="empty"),
        pytest.param(["a1", "i9"], "path cell 2, i9, is not on board 8x8", id="off"),
        pytest.param(
            ["a1", "b3", "a1"], "path cell 3, a1, is visited twice", id="twice"
        ),
        pytest.param(["a1", "b2"], "path cell 2, b2, is not one knight", id="no-move"),
        pytest.param(["d4", "e6"], "path cell 2, e6, is blocked", id="blocked"),
        pytest.param(["a1", "zz"], "path cell 2: expected a cell", id="not-a-cell"),
        pytest.param("a1", "expected the path as a sequence", id="a-string"),
    ],
)
def test_a_bad_path_is_one_line(path: object, message: str) -> None:
    board = Board((8, 8), [(5, 4)])
    with pytest.raises(InvalidInputError, match=message) as caught:
        complete_tour(board, path)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)


def test_bad_options_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="expected a method in auto"):
        complete_tour("5x5", ["a1"], method="greedy")
    with pytest.raises(InvalidInputError, match="closed tour has no separate end"):
        complete_tour("5x5", ["a1"], end="e5")


def test_the_time_limit_is_honoured() -> None:
    # plain backtracking from a1 on 8x8 runs for ages: the limit stops it
    began = time.perf_counter()
    outcome = complete_tour("8x8", ["a1", "b3"], method="backtrack", time_limit=1)
    assert str(outcome.status) == "unknown"
    assert time.perf_counter() - began < 2.0


def test_a_completion_on_a_3d_board_and_other_leapers() -> None:
    outcome = complete_tour("3x4x4", ["0,0,0", "1,0,2"], closed=False, time_limit=20)
    assert outcome.tour is not None
    check_tour(Board.parse("3x4x4"), list(outcome.tour.cells), closed=False)
    outcome = complete_tour("6x6", ["a1", "a2"], piece="wazir", closed=False)
    assert outcome.tour is not None
    check_tour("6x6", list(outcome.tour.cells), piece="wazir", closed=False)
    # the camel keeps to its colour: the other colour's cells are never reached
    outcome = complete_tour("8x8", ["a1", "b4"], piece="camel", closed=False)
    assert str(outcome.status) == "infeasible"
    assert (outcome.reason or "").startswith("the free cells fall apart: b1, d1")


# --------------------------------------------------------------- command line


def cpknight(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cpknight", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_command_line_finishes_a_partial_tour_file(tmp_path: Path) -> None:
    so_far = tmp_path / "so-far.txt"
    so_far.write_text("; the first three moves\na1\nb3\nc5\n")
    out = tmp_path / "tour.txt"
    done = cpknight("tour", "5x5", "--open", "--given", str(so_far), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "cells 1 to 3 are the given partial tour" in done.stdout
    cells = out.read_text().split()
    assert cells[:3] == ["a1", "b3", "c5"]
    check_tour("5x5", cells, closed=False)
    # a closed tour cannot finish d2-b3-d4: exit 1, the reason on one line
    trap = tmp_path / "trap.txt"
    trap.write_text("d2\nb3\nd4\n")
    none = cpknight("tour", "8x8", "--given", str(trap))
    assert none.returncode == 1
    assert none.stdout.strip().startswith("the partial tour of 3 cells cannot be")
    assert "cell a1 has one free neighbour left" in none.stdout
    # from standard input, and a bad path is one line, exit 2
    piped = cpknight("tour", "8x8", "--open", "--given", "-", stdin="a1\nb3\nd5\n")
    assert piped.returncode == 2
    assert piped.stderr.strip().splitlines() == [
        "cpknight: error: path cell 3, d5, is not one knight (1,2) move from b3"
    ]


def test_the_help_says_how_to_ask_and_drawings_still_work(tmp_path: Path) -> None:
    helped = cpknight("tour", "--help")
    assert "whether a partial tour can still be finished" in " ".join(
        helped.stdout.split()
    )
    drawing = tmp_path / "drawing.txt"
    drawing.write_text("3 | . . . 12\n2 | . . . .\n1 | 1 . . .\n")
    done = cpknight("tour", "3x4", "--open", "--given", str(drawing))
    assert done.returncode == 0, done.stderr
    assert "via a1@1 d3@12" in done.stdout
    refused = cpknight("tour", "5x5", "--given", "-", "--via", "c3@5", stdin="a1\n")
    assert refused.returncode == 2
    assert "drop --via" in refused.stderr
