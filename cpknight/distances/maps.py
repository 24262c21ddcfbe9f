"""A distance map's JSON text, written from its array: no Python object per cell.

``json.dumps(dmap.as_dict())`` makes a list of a million Python ints (or
``None``) for a 1000x1000 map, and json then walks them: over a second.
:func:`distance_map_json` writes the same text, byte for byte, from the
board-shaped array, a block of cells at a time: each cell a slot of a few
bytes (its digits or ``null``, then the separator that follows it, ``, ``
or ``], [``...), the slots' used bytes kept by one boolean mask.

Examples:
    >>> import json
    >>> from cpknight.api import distance_map
    >>> m = distance_map("3x3", "a1")
    >>> "".join(distance_map_json(m)) == json.dumps(m.as_dict())
    True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    from cpknight.results import DistanceMap

__all__ = ["BLOCK_CELLS", "TABLE_VALUES", "distance_map_json", "nested_json"]

BLOCK_CELLS = 1 << 16
"""Cells written per block (its slots take about 24 bytes a cell: under 2 MB)."""

_NULL = np.frombuffer(b"null", dtype=np.uint8)


def distance_map_json(dmap: DistanceMap, **first: Any) -> Iterator[str]:
    """The text of ``json.dumps({**first, **dmap.as_dict()})``, in blocks.

    Args:
        dmap: the distance map.
        first: keys to put before the map's own (the CLI's ``schema``).

    Examples:
        >>> from cpknight.api import distance_map
        >>> "".join(distance_map_json(distance_map("2x3", "a1"), schema=1))
        '{"schema": 1, "board": "2x3", "piece": [1, 2], "source": [0, 0], \
"distances": [[0, null, null], [null, null, 1]]}'
    """
    head = {
        **first,
        "board": dmap.board.label,
        "piece": list(dmap.piece.vector),
        "source": list(dmap.source),
    }
    import json  # the map's JSON only: not the text map's start-up

    yield json.dumps(head)[:-1] + ', "distances": '
    yield from nested_json(dmap.array)
    yield "}"


def nested_json(array: npt.NDArray[np.integer[Any]]) -> Iterator[str]:
    """``json.dumps`` of an int array's nested lists, negatives as ``null``.

    Examples:
        >>> "".join(nested_json(np.array([[[1, -1]], [[23, 4]]])))
        '[[[1, null]], [[23, 4]]]'
        >>> "".join(nested_json(np.array([5])))
        '[5]'
    """
    shape = array.shape
    ndim = len(shape)
    flat = np.ascontiguousarray(array).reshape(-1)
    size = flat.size
    top = max(int(flat.max()), 0) if size else 0
    tokens = _Tokens(top)
    marks, marks_length = _separators(ndim)
    slots = None
    if tokens.table is not None:
        # Every (token, separator) pair once: a cell is one row of this table.
        slots = np.concatenate(
            [np.repeat(tokens.table, ndim + 1, axis=0), np.tile(marks, (top + 2, 1))],
            axis=1,
        )
        keep = _keep(
            np.repeat(tokens.length, ndim + 1),
            np.tile(marks_length, top + 2),
            tokens.width,
            marks.shape[1],
        )
    yield "[" * ndim
    for begin in range(0, size, BLOCK_CELLS):
        end = min(size, begin + BLOCK_CELLS)
        values = flat[begin:end]
        closing = _closing(begin, end, shape)
        if slots is not None:
            rows = np.maximum(values, -1).astype(np.intp)
            rows += 1
            rows *= ndim + 1
            rows += closing
            part = slots.take(rows, axis=0)[keep.take(rows, axis=0)]
        else:
            token, length = tokens.compute(values.astype(np.int64))
            block = np.concatenate([token, marks[closing]], axis=1)
            mark_length = marks_length[closing]
            part = block[_keep(length, mark_length, tokens.width, marks.shape[1])]
        yield part.tobytes().decode("ascii")
    yield "]" * ndim


def _keep(
    token_length: npt.NDArray[np.int64],
    mark_length: npt.NDArray[np.int64],
    token_width: int,
    mark_width: int,
) -> npt.NDArray[np.bool_]:
    """Which bytes of each slot (a token field, then a separator field) are text."""
    return np.concatenate(
        [
            np.arange(token_width) < token_length[:, None],
            np.arange(mark_width) < mark_length[:, None],
        ],
        axis=1,
    )


class _Tokens:
    """Each value's JSON token (its digits, or ``null`` when negative) as bytes.

    Values up to :data:`TABLE_VALUES` are read from a table made once, the
    rest computed digit by digit.
    """

    def __init__(self, top: int) -> None:
        self.digits = len(str(top))
        self.width = max(self.digits, 4)
        self.table: npt.NDArray[np.uint8] | None = None
        if top < TABLE_VALUES:
            # Row 0 is null, row v + 1 the digits of v.
            table, length = self.compute(np.arange(-1, top + 1, dtype=np.int64))
            self.table, self.length = table, length

    def of(
        self, values: npt.NDArray[np.integer[Any]]
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
        """The tokens of ``values`` (rows of bytes) and their lengths."""
        if self.table is None:
            return self.compute(values.astype(np.int64))
        rows = np.maximum(values, -1).astype(np.intp) + 1
        return self.table.take(rows, axis=0), self.length.take(rows)

    def compute(
        self, values: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
        """Tokens digit by digit, most significant first."""
        missing = values < 0
        value = np.where(missing, 0, values)
        length = np.ones(value.size, dtype=np.int64)
        for power in range(1, self.digits):
            length += value >= 10**power
        token = np.zeros((value.size, self.width), dtype=np.uint8)
        for place in range(self.digits):
            shift = length - 1 - place  # the power of ten this place shows
            digit = (value // 10 ** np.maximum(shift, 0)) % 10
            token[:, place] = np.where(shift >= 0, digit + ord("0"), 0)
        token[missing, :4] = _NULL
        length[missing] = 4
        return token, length


TABLE_VALUES = 1 << 16
"""Values below this are written from a table of tokens."""


def _separators(ndim: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """What follows a cell after which ``z`` axes close, and its length.

    Row ``z``: ``]`` z times, ``, ``, ``[`` z times; nothing after the last
    cell, the only one after which every axis closes.
    """
    marks = np.zeros((ndim + 1, 2 * ndim), dtype=np.uint8)
    lengths = np.zeros(ndim + 1, dtype=np.int64)  # z = ndim: the last cell
    for z in range(ndim):
        text = ("]" * z + ", " + "[" * z).encode("ascii")
        marks[z, : len(text)] = np.frombuffer(text, dtype=np.uint8)
        lengths[z] = len(text)
    return marks, lengths


def _closing(begin: int, end: int, shape: tuple[int, ...]) -> npt.NDArray[np.intp]:
    """How many axes close after each cell ``begin ... end - 1`` (row-major).

    The last ``k`` axes close after cell ``i`` when ``i + 1`` is a multiple of
    the product of their sides: a slice of every such cell, per ``k``.
    """
    closing = np.zeros(end - begin, dtype=np.intp)
    span = 1
    for side in reversed(shape):
        span *= side
        first = (span - 1 - begin) % span  # the first cell of the block it closes
        closing[first::span] += 1
    return closing
