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

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cpknight.board import Board
from cpknight.errors import InvalidCellError, InvalidInputError
from cpknight.results import Tour
from cpknight.solving import cannot_write

__all__ = [
    "check_new_file",
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


def read_tour_file(path: str, board: Board) -> Any:
    """Read a tour file for :func:`check_tour`: a ``.npy`` array or cell lines.

    Cell lines are read by :meth:`Board.read_cells` into an ``(n, d)`` array;
    a file it cannot read is returned as the list of lines, for the checker to
    read (and to name the first bad line).

    Raises:
        InvalidInputError: the file cannot be read, or a ``.npy`` file does not
            hold an integer array.
    """
    import numpy as np

    if str(path).endswith(".npy"):
        try:
            array = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise InvalidInputError(f"cannot read tour file '{path}': {exc}") from None
        if not np.issubdtype(array.dtype, np.integer):
            raise InvalidInputError(
                f"tour file '{path}' holds {array.dtype} values; expected ints"
            )
        return array
    try:
        data = Path(path).read_bytes()
    except OSError:
        data = b""
    if data:
        try:
            return board.read_cells(data)
        except (InvalidCellError, UnicodeDecodeError):
            pass
    return read_cells_file(path)


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
