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
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cpknight.errors import InvalidInputError

__all__ = ["cannot_write", "number_slots", "reuse_block_memory", "write_blocks"]


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
    numbers: npt.NDArray[np.int64], separator: bytes
) -> npt.NDArray[np.uint64]:
    r"""Numbers as 8-byte slots: their digits, ``separator``, zero bytes.

    ``separator`` is one byte; the numbers are from 0 to 9,999,999.

    Examples:
        >>> slots = number_slots(np.array([0, 11]), b",").view(np.uint8)
        >>> slots.reshape(-1, 8).tobytes()
        b'0,\x00\x00\x00\x00\x00\x0011,\x00\x00\x00\x00\x00'
    """
    width = len(str(int(numbers.max(initial=0))))
    digits = np.ones(len(numbers), dtype=np.int64)
    for power in range(1, width):
        digits += numbers >= 10**power
    out = np.zeros((len(numbers), 8), dtype=np.uint8)
    for j in range(min(width + 1, 8)):
        place = digits - 1 - j  # the power of ten of byte j; -1: the separator
        digit = numbers // 10 ** np.maximum(place, 0) % 10 + ord("0")
        out[:, j] = np.where(place >= 0, digit, np.where(place == -1, separator[0], 0))
    return out.view(np.uint64).ravel()


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
