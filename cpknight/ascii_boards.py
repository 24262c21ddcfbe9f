r"""Boards drawn as text: ``.`` open, ``#`` blocked, top rank first.

What :meth:`cpknight.board.Board.from_ascii` reads, apart from the board it
builds: the drawing's shape and blocked cells, or one error naming the line.
A board as cpknight prints one reads back too (rank numbers and ``|``, the
file letters, layer titles, a UTF-8 byte-order mark).

Examples:
    >>> read_drawing("5 | . # .\n4 | . . .\n    a b c", "board")
    ((2, 3), [(1, 1)])
"""

from __future__ import annotations

import re

from cpknight.errors import InvalidBoardError

__all__ = ["read_drawing"]

_RANK_LABEL_RE = re.compile(r"^[0-9]+\s*\|\s*")
_FILE_LETTERS_RE = re.compile(r"[a-z](?: +[a-z])*|layer [0-9]+:")


def read_drawing(
    text: str, source: str
) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """The shape and the blocked cells of a drawing (2D, or 3D layers).

    Args:
        text: the drawing: rows of ``.`` and ``#`` (spaces between cells
            allowed), 3D layers separated by blank lines, ``;`` comments.
        source: where the text came from, for error messages.

    Raises:
        InvalidBoardError: an unknown character, ragged rows or layers, or
            nothing drawn.
    """
    layers: list[list[str]] = [[]]
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = raw.strip()
        if line.startswith(";") or _FILE_LETTERS_RE.fullmatch(line):
            continue  # a comment, or a printed board's file letters or layer title
        if not line:
            if layers[-1]:
                layers.append([])
            continue
        line = _RANK_LABEL_RE.sub("", line, count=1)  # "5 | . . ." as printed
        row = line.replace(" ", "").replace("\t", "")
        bad = set(row) - {".", "#"}
        if bad:
            char = sorted(bad)[0]
            raise InvalidBoardError(
                f"{source} line {number}: expected '.' (open) or '#' (blocked), "
                f"found {char!r}"
            )
        layers[-1].append(row)
    if not layers[-1]:
        layers.pop()
    if not layers:
        raise InvalidBoardError(f"{source}: no board drawn")
    rows, cols = len(layers[0]), len(layers[0][0])
    for layer in layers:
        if len(layer) != rows:
            raise InvalidBoardError(
                f"{source}: every layer needs {rows} rows; one has {len(layer)}"
            )
        for row in layer:
            if len(row) != cols:
                raise InvalidBoardError(
                    f"{source}: every row needs {cols} cells; one has {len(row)}"
                )
    blocked: list[tuple[int, ...]] = []
    for k, layer in enumerate(layers):
        for i, row in enumerate(layer):
            r = rows - 1 - i
            for c, char in enumerate(row):
                if char == "#":
                    blocked.append((k, r, c) if len(layers) > 1 else (r, c))
    shape = (len(layers), rows, cols) if len(layers) > 1 else (rows, cols)
    return shape, blocked
