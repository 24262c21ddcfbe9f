"""Swap puzzles by name or as two drawings; a placement drawn as text.

A puzzle file holds two drawings of one 2D board, the start and then the
goal, separated by a blank line; rows top rank first, one character a cell
(spaces between cells are allowed):

- a letter: a knight of that colour (``W``, ``B``; case counts, so ``S`` and
  ``s`` are two colours; give each knight its own letter for an *ordered*
  puzzle),
- ``.``: an empty cell,
- ``#``: a blocked cell (the same in both drawings).

Lines starting with ``;`` are comments. Guarini's puzzle is::

    B . B
    . . .
    W . W

    W . W
    . . .
    B . B

Named puzzles (:data:`PUZZLES`): ``guarini`` (Guarini di Forli, 1512: the two
white knights a1, c1 and the two black a3, c3 of a 3x3 board change places;
16 moves) and ``guy3xN`` (Richard Guy's ordered-pair swap on 3 x n: knights
A, B, C, ... on the top rank and a, b, c, ... below them on the first; each
capital changes places with its small letter; 32 moves for n = 4, none for
n <= 3; Guy, "Swapping knights", seqfan and math-fun lists, 15-17 October
2010).

Examples:
    >>> board, start, goal, name = named_puzzle("guarini")
    >>> print(placement_drawing(board, start))
    B . B
    . . .
    W . W
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from cpknight.board import Board, Cell, Topology
from cpknight.errors import InvalidBoardError, InvalidInputError
from cpknight.swaps.common import Placement, placement

if TYPE_CHECKING:
    from cpknight.swaps.common import Swap

__all__ = [
    "PUZZLES",
    "named_puzzle",
    "placement_drawing",
    "read_drawings",
    "read_puzzle",
    "swap_text",
]

Puzzle = tuple[Board, Placement, Placement, str | None]
"""A board, the start, the goal, and the puzzle's name."""

PUZZLES = {
    "guarini": "Guarini (1512): two white and two black knights on 3x3 change "
    "places (16 moves)",
    "guy3xN": "Guy (2010): n ordered pairs on 3 x n, each top knight changes "
    "places with the one below it (32 moves for n = 4)",
}
"""The named puzzles and what they are."""

_GUY = re.compile(r"guy3x(\d+)")

_GUARINI = """
B . B
. . .
W . W

W . W
. . .
B . B
"""


def named_puzzle(name: str, *, topology: Topology = "bounded") -> Puzzle:
    """A named puzzle: its board, start and goal.

    Raises:
        InvalidInputError: not a known name.

    Examples:
        >>> board, start, goal, _ = named_puzzle("guy3x4")
        >>> print(placement_drawing(board, start))
        A B C D
        . . . .
        a b c d
    """
    if name == "guarini":
        board, start, goal = read_drawings(_GUARINI, topology=topology, source=name)
        return board, start, goal, name
    match = _GUY.fullmatch(name)
    if match:
        n = int(match.group(1))
        if not 1 <= n <= 26:
            raise InvalidInputError(f"guy3xN takes n from 1 to 26: {name!r}")
        top = " ".join(chr(ord("A") + i) for i in range(n))
        bottom = top.lower()
        gap = " ".join("." * n)
        text = f"{top}\n{gap}\n{bottom}\n\n{bottom}\n{gap}\n{top}\n"
        board, start, goal = read_drawings(text, topology=topology, source=name)
        return board, start, goal, name
    raise InvalidInputError(
        f"expected a puzzle in guarini, guy3xN (guy3x4), or a file of two "
        f"drawings: {name!r}"
    )


def read_puzzle(spec: str, *, topology: Topology = "bounded") -> Puzzle:
    """A puzzle by name, or read from a file of two drawings.

    Raises:
        InvalidInputError: neither a name nor a readable file.
        InvalidBoardError: a bad drawing.
    """
    if spec == "guarini" or _GUY.fullmatch(spec):
        return named_puzzle(spec, topology=topology)
    path = Path(spec)
    if not path.is_file():
        named_puzzle(spec)  # raises: the names it knows
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read {spec!r}: {exc}") from None
    board, start, goal = read_drawings(text, topology=topology, source=spec)
    return board, start, goal, None


def read_drawings(
    text: str, *, topology: Topology = "bounded", source: str = "puzzle"
) -> tuple[Board, Placement, Placement]:
    """The board, start and goal of two drawings (see the module's text).

    Raises:
        InvalidBoardError: not two drawings, a bad character, ragged rows, or
            drawings of different boards.
        InvalidInputError: start and goal with different knights.

    Examples:
        >>> board, start, goal = read_drawings("W.#|...||..#|.W.".replace("|", chr(10)))
        >>> board.label, start, goal
        ('2x3 (1 blocked)', (('W', ((1, 0),)),), (('W', ((0, 1),)),))
    """
    drawings: list[list[tuple[int, str]]] = [[]]
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith(";"):
            continue
        if not line:
            if drawings[-1]:
                drawings.append([])
            continue
        drawings[-1].append((number, line.replace(" ", "").replace("\t", "")))
    if not drawings[-1]:
        drawings.pop()
    if len(drawings) != 2:
        raise InvalidBoardError(
            f"{source}: expected two drawings (start, then goal) separated by a "
            f"blank line, found {len(drawings)}"
        )
    for drawing in drawings:
        for number, row in drawing:
            bad = sorted(c for c in set(row) if not (c in ".#" or c.isalpha()))
            if bad:
                raise InvalidBoardError(
                    f"{source} line {number}: expected a letter (a knight), '.' "
                    f"(empty) or '#' (blocked), found {bad[0]!r}"
                )
    shapes = [[re.sub(r"[^#]", ".", row) for _, row in d] for d in drawings]
    if shapes[0] != shapes[1]:
        raise InvalidBoardError(
            f"{source}: the start and goal drawings must show the same board "
            "(rows, cells and '#' alike)"
        )
    board = Board.from_ascii("\n".join(shapes[0]), topology=topology, source=source)
    start, goal = (_knights(board, d) for d in drawings)
    _same_knights(board, start, goal, source)
    return board, start, goal


def _knights(board: Board, drawing: list[tuple[int, str]]) -> Placement:
    """The placement a drawing shows."""
    rows = len(drawing)
    knights: dict[str, list[Cell]] = {}
    for i, (_, row) in enumerate(drawing):
        for col, char in enumerate(row):
            if char.isalpha():
                knights.setdefault(char, []).append((rows - 1 - i, col))
    return placement(
        {colour: [list(c) for c in cells] for colour, cells in knights.items()}, board
    )


def _same_knights(board: Board, start: Placement, goal: Placement, source: str) -> None:
    """Refuse a goal with other colours, or other numbers of a colour."""
    have = {colour: len(cells) for colour, cells in start}
    want = {colour: len(cells) for colour, cells in goal}
    if have != want:
        raise InvalidInputError(
            f"{source}: the goal must have the start's knights: start "
            f"{_counts(have)}, goal {_counts(want)}"
        )
    if not have:
        raise InvalidInputError(f"{source}: no knights drawn")


def _counts(counts: dict[str, int]) -> str:
    return " ".join(f"{n}{c}" for c, n in sorted(counts.items())) or "none"


def placement_drawing(board: Board, where: Placement | dict[Cell, str]) -> str:
    """The placement as the puzzle files draw it: top rank first.

    Examples:
        >>> b = Board.parse("2x3")
        >>> print(placement_drawing(b, {(0, 0): "W", (1, 2): "B"}))
        . . B
        W . .
    """
    if board.dim != 2:
        raise InvalidBoardError(f"a swap is drawn on a 2D board: {board.label!r}")
    at = (
        where
        if isinstance(where, dict)
        else {cell: colour for colour, cells in where for cell in cells}
    )
    rows, cols = board.shape
    lines = []
    for r in range(rows - 1, -1, -1):
        line = []
        for c in range(cols):
            if not board.is_open((r, c)):
                line.append("#")
            else:
                line.append(at.get((r, c), "."))
        lines.append(" ".join(line))
    return "\n".join(lines)


def swap_text(swap: Swap) -> str:
    """The answer as text: its line, the start and goal drawings, the moves."""
    proved = "proved fewest" if swap.optimal else f"at least {swap.bound}"
    head = f"{swap.name}: " if swap.name else ""
    lines = [
        f"{head}swap of {swap.moves} moves on {swap.board.label} "
        f"({swap.piece.label}), {proved}, by {swap.method}"
    ]
    if swap.board.dim == 2:
        start = placement_drawing(swap.board, swap.start).splitlines()
        goal = placement_drawing(swap.board, swap.goal).splitlines()
        width = max(len(x) for x in start)
        lines.append(f"{'start':<{width}}    goal")
        lines += [f"{a:<{width}}    {b}" for a, b in zip(start, goal, strict=True)]
    lines.append("moves: " + " ".join(swap.names()))
    return "\n".join(lines)
