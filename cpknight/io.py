"""Files: tours read and written (text lines or ``.npy``); new files kept safe.

A tour file is one cell per line (algebraic like ``a1`` or coordinates like
``0,0``; blank lines and lines starting with ``;`` ignored), or a ``.npy`` file
holding the ``(n, d)`` int array of the cells. Nothing the user has is
overwritten without ``force``.

Examples:
    >>> import pathlib, tempfile
    >>> from cpknight import find_tour
    >>> t = find_tour("5x5", closed=False, start="a1", method="warnsdorff")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = str(pathlib.Path(folder, "t.txt"))
    ...     write_tour_file(path, t, force=False)
    ...     read_tour_file(path, t.board).tolist() == t.array.tolist()
    True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from cpknight.board import FILES, Board, Cell
from cpknight.errors import InvalidCellError, InvalidInputError
from cpknight.results import Tour
from cpknight.solving import cannot_write

__all__ = [
    "check_new_file",
    "read_cells",
    "read_cells_file",
    "read_tour_file",
    "tour_file_text",
    "write_new_file",
    "write_tour_file",
]


def read_cells_file(path: str | Path) -> list[str]:
    """Read a tour file: one cell per line; blank and ``;`` lines skipped.

    Raises:
        InvalidInputError: the file cannot be read.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise InvalidInputError(f"cannot read tour file '{path}': {reason}") from None
    cells = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(";"):
            cells.append(line)
    return cells


def tour_file_text(tour: Tour) -> str:
    r"""A tour as ``cpknight check`` reads it: one cell name per line.

    Examples:
        >>> from cpknight import KNIGHT, Board
        >>> from cpknight.checks import make_tour
        >>> tour_file_text(make_tour(Board((1, 1)), KNIGHT, [(0, 0)], closed=False,
        ...                          method="hand"))
        'a1\n'
    """
    return "\n".join(tour.board.cell_names(tour.array)) + "\n"


def write_tour_file(path: str, tour: Tour, *, force: bool) -> None:
    """Write a tour: ``.npy`` as the ``(n, d)`` int array, else one cell a line.

    Raises:
        InvalidInputError: the file exists (and ``force`` is false) or cannot be
            written.
    """
    if not path.endswith(".npy"):
        write_new_file(path, tour_file_text(tour), force=force)
        return
    import numpy as np

    def save(file: Path) -> None:
        with file.open("wb") as handle:
            np.save(handle, np.asarray(tour.array, dtype=np.int64))

    _write(path, save, force=force)


def read_tour_file(path: str | BinaryIO, board: Board) -> Any:
    r"""Read a tour file for :func:`check_tour`: a ``.npy`` array or cell lines.

    Cell lines are read by :func:`read_cells` into an ``(n, d)`` array; a file
    it cannot read in bulk is read line by line and returned as the list of
    lines, for the checker to read (and to name the first bad line). Either way
    reading stops after one cell more than the board has open cells: a longer
    file is no tour, and its first fault lies in those lines (a repeat, or a
    cell that is off the board or blocked), so a huge file costs no more than
    a tour of the board.

    Args:
        path: the file, or an open binary stream (standard input).
        board: the board (its open cells bound how much is read).

    Raises:
        InvalidInputError: the file cannot be read, or a ``.npy`` file does not
            hold an integer array.

    Examples:
        >>> import io
        >>> lines = b"a1\nb3\n" + b"c5\n" * 10**6
        >>> len(read_tour_file(io.BytesIO(lines), Board.parse("3x4")))
        13
    """
    import numpy as np

    wanted = board.n_open + 1
    if isinstance(path, str) and path.endswith(".npy"):
        try:
            array = np.load(path, allow_pickle=False, mmap_mode="r")
        except OSError as exc:
            raise InvalidInputError(
                f"cannot read tour file '{path}': {exc.strerror or exc}"
            ) from None
        except ValueError:
            raise InvalidInputError(
                f"cannot read tour file '{path}': not a numpy .npy array file"
            ) from None
        if not np.issubdtype(array.dtype, np.integer):
            raise InvalidInputError(
                f"tour file '{path}' holds {array.dtype} values; expected ints"
            )
        return np.array(array[:wanted])
    name = path if isinstance(path, str) else "-"
    try:
        if isinstance(path, str):
            with Path(path).open("rb") as handle:
                head, lines = _read_head(handle, wanted)
        else:
            head, lines = _read_head(path, wanted)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise InvalidInputError(f"cannot read tour file '{name}': {reason}") from None
    if lines is None:
        try:
            return read_cells(board, head)[:wanted]
        except (InvalidCellError, UnicodeDecodeError):
            lines = _cell_lines(head.splitlines(keepends=True), wanted)
    return lines


_BULK_BYTES = 64
"""Bytes a line may take on average for a file to be read whole, in bulk."""


def _read_head(handle: BinaryIO, wanted: int) -> tuple[bytes, list[str] | None]:
    """Up to ``wanted`` cells' worth of a file: all its bytes, or its cell lines.

    A file no longer than ``wanted`` average lines comes back whole (for the
    bulk reader); a longer one is read line by line, stopping after ``wanted``
    cell lines.
    """
    budget = wanted * _BULK_BYTES + 4096
    head = handle.read(budget + 1)
    if len(head) <= budget:
        return head, None
    rest = iter(handle.readline, b"")
    return b"", _cell_lines(
        itertools.chain(head.splitlines(keepends=True), rest), wanted
    )


def _cell_lines(lines: Iterable[bytes], wanted: int) -> list[str]:
    """The first ``wanted`` cell lines (blank and ``;`` lines skipped)."""
    cells: list[str] = []
    pending = b""
    for chunk in lines:
        if not chunk.endswith(b"\n") and chunk:
            pending += chunk  # a line split across the first read
            continue
        raw, pending = pending + chunk, b""
        line = raw.decode("utf-8", errors="replace").strip()
        if line and not line.startswith(";"):
            cells.append(line)
            if len(cells) >= wanted:
                break
    tail = pending.decode("utf-8", errors="replace").strip()
    if tail and not tail.startswith(";") and len(cells) < wanted:
        cells.append(tail)
    return cells


def check_new_file(path: str, *, force: bool) -> None:
    """Refuse, before any work, to replace a file the user has (without ``force``)."""
    if Path(path).exists() and not force:
        raise InvalidInputError(f"file '{path}' exists; add --force to overwrite it")


def _write(path: str, write: Callable[[Path], object], *, force: bool) -> None:
    """The one way a file is written: refuse to replace it, say why it failed."""
    check_new_file(path, force=force)
    try:
        write(Path(path))
    except OSError as exc:
        raise InvalidInputError(cannot_write(path, exc)) from None


def write_new_file(path: str, text: str, *, force: bool) -> None:
    """Write ``text`` to ``path``, refusing to replace a file without ``force``.

    Raises:
        InvalidInputError: the file exists (and ``force`` is false) or cannot be
            written.
    """
    _write(path, lambda file: file.write_text(text, encoding="utf-8"), force=force)


def read_cells(
    board: Board, lines: str | bytes | Iterable[str]
) -> npt.NDArray[np.int64]:
    r"""Read cells, one per line, into an ``(n, d)`` int array.

    Lines in the spelling :meth:`Board.cell_names` writes (``r,c`` or, on 2D boards
    of up to 26 files, algebraic; digits, commas, one lower-case letter, no
    blank lines) are parsed in bulk in numpy. Anything else is read line by
    line as :meth:`Board.parse_cell` reads a cell, skipping blank lines and lines
    starting with ``;``. Cells are not checked against the board.

    Args:
        board: the board (its dimension and files decide the spelling).
        lines: the text (``str`` or ``bytes``) or its lines.

    Returns:
        The cells, one row each.

    Raises:
        InvalidCellError: a line is not a cell or has the wrong number of
            coordinates.
        UnicodeDecodeError: ``bytes`` that are not UTF-8.

    Examples:
        >>> read_cells(Board.parse("8x8"), "a1\nb3\n").tolist()
        [[0, 0], [2, 1]]
        >>> read_cells(Board.parse("30x30"), ["; a tour", "(0, 27)", "", "12,3"])
        array([[ 0, 27],
               [12,  3]])
        >>> read_cells(Board.parse("8x8"), "a1\nzz\n")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidCellError: expected a cell like 'a1' or '0,0': 'zz'
    """
    if isinstance(lines, bytes):
        data = lines
    elif isinstance(lines, str):
        data = lines.encode("utf-8")
    else:
        data = "\n".join(lines).encode("utf-8")
    fast = _cells_from_bytes(board, data)
    if fast is not None:
        return fast
    rows: list[Cell] = []
    for raw in data.decode("utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        cell, shown = board.read_cell(line)
        if len(cell) != board.dim:
            raise InvalidCellError(
                f"cell '{shown}' has {len(cell)} coordinate"
                f"{'s' if len(cell) != 1 else ''}; board {board.label} has "
                f"{board.dim}"
            )
        rows.append(cell)
    return np.array(rows, dtype=np.int64).reshape(-1, board.dim)


def _cells_from_bytes(board: Board, data: bytes) -> npt.NDArray[np.int64] | None:
    """Plain ``r,c`` lines, or algebraic ones, parsed in numpy; else None."""
    buf = np.frombuffer(data, dtype=np.uint8)
    if not buf.size or board.unbounded:
        return None
    if buf[-1] != ord("\n"):
        buf = np.append(buf, np.uint8(ord("\n")))
    digit = (buf >= ord("0")) & (buf <= ord("9"))
    seps = np.flatnonzero(~digit)
    algebraic = board.dim == 2 and board.shape[1] <= len(FILES)
    pattern = [ord("a"), ord("\n")] if algebraic else [ord(",")] * (board.dim - 1)
    if not algebraic:
        pattern.append(ord("\n"))
    kinds = buf[seps]
    if algebraic:
        kinds = np.where((kinds >= ord("a")) & (kinds <= ord("z")), ord("a"), kinds)
    if len(seps) % len(pattern):
        return None
    table = kinds.reshape(-1, len(pattern))
    if not all(np.all(table[:, j] == want) for j, want in enumerate(pattern)):
        return None
    runs = np.diff(seps, prepend=-1) - 1  # digits before each separator
    fields = runs[1::2] if algebraic else runs
    if (algebraic and runs[0::2].any()) or fields.min() < 1 or fields.max() > 9:
        return None
    # Horner's rule a digit column at a time: at most 9 passes over the fields.
    ends = seps[1::2] if algebraic else seps
    first = ends - fields
    numbers = np.zeros(len(ends), dtype=np.int64)
    for k in range(int(fields.max())):
        more = fields > k
        digits = buf[np.where(more, first + k, 0)].astype(np.int64) - ord("0")
        numbers = np.where(more, numbers * 10 + digits, numbers)
    if algebraic:
        cols = buf[seps[0::2]].astype(np.int64) - ord("a")
        return np.stack([numbers - 1, cols], axis=1)
    return numbers.reshape(-1, board.dim)
