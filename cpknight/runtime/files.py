"""Low-level file writing: the one safe file writer, number bytes, the memory trick.

A low layer (right above :mod:`cpknight.errors`): :func:`write_blocks` writes
all or nothing, looking at the clock through a callback so that it needs no
solve options; :func:`number_slots` spells numbers as bytes a block at a time
(the cell lines of huge tours); :func:`reuse_block_memory` makes loops over
large blocks (writing and checking huge tours) fast.

Examples:
    >>> cannot_write("out.svg", PermissionError(13, "Permission denied"))
    "cannot write 'out.svg': Permission denied"
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from cpknight.errors import InvalidInputError

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "LINE_CHUNK",
    "cannot_write",
    "line_blocks",
    "number_slots",
    "reuse_block_memory",
    "write_blocks",
]


def reuse_block_memory(nbytes: int = 1 << 22) -> None:
    """Let temporaries of up to ``nbytes`` be reused, not mapped afresh each time.

    glibc's ``malloc`` serves each request of 128 KiB or more with a fresh
    ``mmap`` (pages zeroed and faulted in one by one, then unmapped) until it
    frees such a block, when it raises that threshold to the block's size.
    Making and dropping one block of ``nbytes`` before a loop over blocks does
    that, and the loop's per-block arrays then come from the heap (checking a
    read 2000x2000 tour takes a third of the time). Elsewhere it costs one
    allocation.

    Examples:
        >>> reuse_block_memory()
    """
    np.empty(nbytes, dtype=np.uint8)


def number_slots(
    numbers: npt.NDArray[np.int64], separator: bytes, width: int = 8
) -> npt.NDArray[Any]:
    r"""Numbers as slots of ``width`` bytes (8 or 4): digits, ``separator``, zeros.

    ``separator`` is one byte; the numbers are from 0 to 9,999,999 (to 999 in
    4-byte slots). The slots are bytes laid out in order, whatever the
    machine's byte order: copy them, never read them as numbers.

    Examples:
        >>> slots = number_slots(np.array([0, 11]), b",").view(np.uint8)
        >>> slots.reshape(-1, 8).tobytes()
        b'0,\x00\x00\x00\x00\x00\x0011,\x00\x00\x00\x00\x00'
        >>> number_slots(np.array([7, 999]), b"\n", 4).tobytes()
        b'7\n\x00\x00999\n'
    """
    most = len(str(int(numbers.max(initial=0))))
    digits = np.ones(len(numbers), dtype=np.int64)
    for power in range(1, most):
        digits += numbers >= 10**power
    out = np.zeros((len(numbers), width), dtype=np.uint8)
    for j in range(min(most + 1, width)):
        place = digits - 1 - j  # the power of ten of byte j; -1: the separator
        digit = numbers // 10 ** np.maximum(place, 0) % 10 + ord("0")
        out[:, j] = np.where(place >= 0, digit, np.where(place == -1, separator[0], 0))
    return out.view(np.uint64 if width == 8 else np.uint32).ravel()


LINE_CHUNK = 1 << 15
"""Cells a block of :func:`line_blocks`: a block stays in the processor's cache."""


def line_blocks(
    cells: npt.NDArray[np.int64],
    files: str | None,
    name: Callable[[list[int]], str],
    chunk: int = LINE_CHUNK,
) -> Iterator[bytes]:
    r"""Cells named one a line, as bytes in blocks of ``chunk`` cells.

    The writer of :meth:`cpknight.board.Board.cell_line_blocks`. Each name is
    assembled in numpy from slots, one a field (a coordinate's digits and the
    separator after it, looked up in a table of the numbers up to the
    largest; a file letter), padded with zero bytes that one
    ``bytes.translate`` drops: 4-byte slots where every field fits (no
    coordinate over 999), 8-byte ones otherwise. Cells with negative or huge
    (over 9,999,999) coordinates, or files past the last letter, are named one
    by one by ``name``.

    Args:
        cells: an ``(n, d)`` int array.
        files: the file letters of an algebraic board (``a1``: a letter for
            the second coordinate, the first counted from 1); None for
            coordinates (``0,27``).
        name: a cell's name, for the cells the slots cannot spell.
        chunk: cells a block.

    Examples:
        >>> cells = np.array([[0, 0], [2, 1]])
        >>> b"".join(line_blocks(cells, "abcdefgh", str))
        b'a1\nb3\n'
        >>> list(line_blocks(cells, None, str, 1))
        [b'0,0\n', b'2,1\n']
    """
    n = len(cells)
    fields = [cells[:, 0] + 1] if files else list(cells.T)
    if n == 0:
        return
    if (
        min(int(f.min()) for f in fields) < 0
        or max(int(f.max()) for f in fields) >= 10**7
        or (files and int(cells[:, 1].max()) >= len(files))
        or (files and int(cells[:, 1].min()) < 0)
    ):
        for begin in range(0, n, chunk):
            names = [name(c) for c in cells[begin : begin + chunk].tolist()]
            yield "".join(line + "\n" for line in names).encode("ascii")
        return
    # Each slot: (its cells' values, a table of slots by value or None
    # for slots made from the values themselves, the separator).
    separators = [b","] * (len(fields) - 1) + [b"\n"]
    top = max(int(f.max()) for f in fields) + 1
    width = 4 if top <= 1000 else 8
    kind = np.uint32 if width == 4 else np.uint64
    numbers = np.arange(top, dtype=np.int64)
    tabled = top <= n  # a table of the numbers up to the largest, looked up
    parts = [
        (values, number_slots(numbers, sep, width) if tabled else None, sep)
        for values, sep in zip(fields, separators, strict=True)
    ]
    if files:
        letters = np.zeros((len(files), width), dtype=np.uint8)
        letters[:, 0] = np.frombuffer(files.encode("ascii"), dtype=np.uint8)
        parts.insert(0, (cells[:, 1], letters.view(kind).ravel(), b""))
    reuse_block_memory()
    slots = np.empty((min(chunk, n), len(parts)), dtype=kind)
    for begin in range(0, n, chunk):
        stop = min(begin + chunk, n)
        block = slots[: stop - begin]
        for k, (values, table, sep) in enumerate(parts):
            if table is not None:
                np.take(table, values[begin:stop], out=block[:, k])
            else:  # few cells with large numbers: no table
                block[:, k] = number_slots(values[begin:stop], sep, width)
        yield block.tobytes().translate(None, b"\0")


def write_blocks(
    path: str | Path,
    blocks: Iterable[bytes | memoryview],
    *,
    check: Callable[[str], None] | None = None,
) -> None:
    """Write ``blocks`` to ``path``, all or nothing: the one safe file writer.

    The blocks go to a temporary file beside ``path`` (through a link, beside
    the file it names), renamed to it once complete: an error, or ``check``
    raising (it is called with what is being done before each block and after
    the last: the clock of a run), leaves no half-written file and ``path`` as
    it was. A device or a pipe is written in place.

    Raises:
        InvalidInputError: the file cannot be written; the message echoes
            ``path`` as given.

    Examples:
        >>> write_blocks("no-such-folder/out.txt", [b"text"])
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: cannot write 'no-such-folder/out.txt': \
No such file or directory
    """
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_file():  # a device or a pipe: no rename
        try:
            with target.open("wb") as out:
                for block in blocks:
                    out.write(block)
        except OSError as exc:
            raise InvalidInputError(cannot_write(path, exc)) from None
        return
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    done = False
    try:
        with part.open("xb") as out:
            for block in blocks:
                if check is not None:
                    check(f"writing '{path}'")
                out.write(block)
        if check is not None:
            check(f"writing '{path}'")
        os.replace(part, target)
        done = True
    except OSError as exc:
        raise InvalidInputError(cannot_write(path, exc)) from None
    finally:
        if not done:
            part.unlink(missing_ok=True)


def cannot_write(path: str | Path, exc: OSError) -> str:
    """The one message for a file that could not be written.

    Examples:
        >>> cannot_write("out.svg", PermissionError(13, "Permission denied"))
        "cannot write 'out.svg': Permission denied"
    """
    return f"cannot write '{path}': {exc.strerror or type(exc).__name__}"
