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

import codecs
import functools
import itertools
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

if TYPE_CHECKING:
    import mmap

    import numpy.typing as npt

    from cpknight.results import Tour
    from cpknight.solving import Run

from cpknight.board import FILES, Board, Cell
from cpknight.errors import InvalidCellError, InvalidInputError
from cpknight.pieces import Leaper, PieceLike
from cpknight.runtime.files import reuse_block_memory, write_blocks
from cpknight.solving import FALLBACK_GRACE

__all__ = [
    "check_new_file",
    "read_cells",
    "read_cells_file",
    "read_given_drawing",
    "read_given_file",
    "read_given_text",
    "read_moves",
    "read_partial_tour",
    "read_tour_file",
    "tour_file_text",
    "tour_moves_blocks",
    "tour_moves_text",
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


def read_given_file(path: str | Path, board: Board) -> list[tuple[Cell, int]]:
    """Read a board drawing with some visit numbers (``--given``).

    The format is the one tours print in; see
    :func:`cpknight.constraints.read_given`.

    Raises:
        InvalidInputError: the file cannot be read or does not fit the board.
    """
    return read_given_drawing(read_given_text(path), board, str(path))


def read_given_drawing(text: str, board: Board, source: str) -> list[tuple[Cell, int]]:
    """The visit numbers of a drawing's text, its faults naming ``source``.

    Raises:
        InvalidInputError: the drawing does not fit the board.
    """
    from cpknight.constraints import read_given

    try:
        return read_given(text, board)
    except InvalidInputError as exc:
        raise InvalidInputError(f"given file '{source}': {exc}") from None


def read_given_text(path: str | Path) -> str:
    """The text of a ``--given`` file (a drawing, or a partial tour).

    Raises:
        InvalidInputError: the file cannot be read as UTF-8 text.
    """
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise InvalidInputError(f"cannot read given file '{path}': {reason}") from None


_CELL_LINE = re.compile(r"[a-z]\d+|\(?\s*-?\d+(\s*,\s*-?\d+)+\s*\)?", re.IGNORECASE)
"""A line that is one cell: algebraic (``a1``) or coordinates (``0,0``)."""


def read_partial_tour(text: str, board: Board, source: str) -> list[Cell] | None:
    r"""The cells of a tour file's text (one a line), or ``None`` for a drawing.

    ``--given`` reads either a board drawing with visit numbers or a tour
    file, the cells visited so far one a line (as ``--out`` writes them,
    read by :func:`read_cells`): a text whose first line (past blank lines and
    lines starting with ``;``) is one cell is a tour file. The cells are read,
    not checked against the board (the completion checks them, naming the
    first bad one).

    Raises:
        InvalidInputError: a line of a tour file that is not one cell.

    Examples:
        >>> read_partial_tour("; so far\na1\nb3\n", Board.parse("8x8"), "p.txt")
        [(0, 0), (2, 1)]
        >>> read_partial_tour("3 | 1 . .\n2 | . . .\n1 | . . 2", Board((3, 3)), "x")
        >>> read_partial_tour("a1\nb3 c5\n", Board.parse("8x8"), "p.txt")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: given file 'p.txt': expected a cell ...
    """
    text = text.removeprefix("\ufeff")
    first = next(
        (
            line.strip()
            for line in text.splitlines()
            if line.strip() and not line.strip().startswith(";")
        ),
        "",
    )
    if not _CELL_LINE.fullmatch(first):
        return None
    try:
        cells = read_cells(board, text)
    except InvalidCellError as exc:
        raise InvalidInputError(f"given file '{source}': {exc}") from None
    return [tuple(cell) for cell in cells.tolist()]


def tour_file_text(tour: Tour) -> str:
    r"""A tour as ``cpknight check`` reads it: one cell name per line.

    Examples:
        >>> from cpknight import KNIGHT, Board
        >>> from cpknight.checks import make_tour
        >>> tour_file_text(make_tour(Board((1, 1)), KNIGHT, [(0, 0)], closed=False,
        ...                          method="hand"))
        'a1\n'
    """
    return tour.board.cell_lines(tour.array).decode("ascii")


MOVE_CODES = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The characters of a ``.moves`` file: move ``j`` of the piece's move order."""

MOVES_PER_LINE = 100
"""Characters a line in a ``.moves`` file."""


def _move_chars(
    cells: npt.NDArray[np.int64], vectors: npt.NDArray[np.int64]
) -> npt.NDArray[np.uint8]:
    """Each step's character, looked up by its offset (bounded boards); 0: none.

    The offset on each axis, clipped to one past the piece's reach, indexes a
    table of the characters of the moves: a few passes, one a column.
    """
    reach = int(np.abs(vectors).max()) + 1
    span = 2 * reach + 1
    keys = np.zeros(len(cells) - 1, dtype=np.int64)
    for axis in range(cells.shape[1]):
        column = cells[:, axis]
        keys *= span
        keys += np.clip(column[1:] - column[:-1], -reach, reach) + reach
    weights = span ** np.arange(cells.shape[1] - 1, -1, -1, dtype=np.int64)
    table = np.zeros(span ** cells.shape[1], dtype=np.uint8)
    table[(vectors + reach) @ weights] = _ALPHABET[: len(vectors)]
    chars: npt.NDArray[np.uint8] = table[keys]
    return chars


def _codes_by_move(
    steps: npt.NDArray[np.int64], vectors: npt.NDArray[np.int64], board: Board
) -> npt.NDArray[np.int64]:
    """Each step's move index, one pass a move (wrapped axes taken modulo)."""
    codes = np.full(len(steps), -1, dtype=np.int64)
    for j, vector in enumerate(vectors.tolist()):
        hit = codes < 0
        for axis, value in enumerate(vector):
            diff = steps[:, axis]
            if board.wrap[axis]:
                hit &= (diff - value) % board.shape[axis] == 0
            else:
                hit &= diff == value
        codes[hit] = j
    return codes


_ALPHABET = np.frombuffer(MOVE_CODES.encode("ascii"), dtype=np.uint8)

MOVES_CHUNK = 320 * MOVES_PER_LINE
"""Moves written at a time by :func:`tour_moves_blocks`: whole lines."""


def tour_moves_text(tour: Tour) -> bytes:
    r"""A tour in the compact ``.moves`` format: its first cell, then its moves.

    One character per move: ``MOVE_CODES[j]`` for move ``j`` of the piece's
    move order (``Leaper.moves``), :data:`MOVES_PER_LINE` a line, after two
    comment lines saying so and the first cell. A million-cell knight's tour
    takes about 1 MB (one cell a line takes 7.8 MB); the closing move of a
    closed tour is not written (the checker looks for it). The bytes of
    :func:`tour_moves_blocks`, joined.

    Raises:
        InvalidInputError: the piece has more moves than :data:`MOVE_CODES`
            has characters (3D leapers with three distinct components: use
            ``.npy``).

    Examples:
        >>> from cpknight import find_tour
        >>> t = find_tour("5x5", closed=False, start="a1", method="warnsdorff")
        >>> text = tour_moves_text(t)
        >>> text.splitlines()[2], len(text.splitlines()[3])
        (b'a1', 24)
        >>> read_moves(t.board, t.piece, text).tolist() == t.array.tolist()
        True
    """
    return b"".join(tour_moves_blocks(tour))


def tour_moves_blocks(tour: Tour, chunk: int = MOVES_CHUNK) -> Iterator[bytes]:
    r""":func:`tour_moves_text` in pieces: the head, then ``chunk`` moves at a time.

    ``chunk`` is a multiple of :data:`MOVES_PER_LINE`: every piece but the
    last is whole lines.

    Raises:
        InvalidInputError: as :func:`tour_moves_text` (before the first piece).

    Examples:
        >>> from cpknight import find_tour
        >>> t = find_tour("5x5", closed=False, start="a1", method="warnsdorff")
        >>> [len(piece) for piece in tour_moves_blocks(t, chunk=100)][1:]
        [25]
    """
    board, piece = tour.board, tour.piece
    vectors = piece.moves(board.dim)
    if len(vectors) > len(MOVE_CODES):
        raise InvalidInputError(
            f"a .moves file holds leapers of at most {len(MOVE_CODES)} moves; "
            f"{piece.label} has {len(vectors)} in {board.dim}D: write .npy instead"
        )
    if chunk % MOVES_PER_LINE or chunk <= 0:
        raise ValueError(f"chunk must be whole lines of {MOVES_PER_LINE}: {chunk}")
    cells = tour.array
    reuse_block_memory()
    yield (
        f"; cpknight moves: {piece.label} on board {board.label}\n"
        f"; the first cell, then move j of the piece's order as {MOVE_CODES[:10]}...\n"
        f"{board.cell_name(cells[0].tolist())}\n"
    ).encode("ascii")
    for begin in range(0, len(cells) - 1, chunk):
        part = cells[begin : begin + chunk + 1]  # the moves out of these cells
        if any(board.wrap):
            codes = _codes_by_move(part[1:] - part[:-1], vectors, board)
            if (codes < 0).any():
                raise InvalidInputError("the tour has a step that is not one move")
            body = _ALPHABET[codes]
        else:
            body = _move_chars(part, vectors)
            if not body.all():  # a checked tour moves by the piece's moves only
                raise InvalidInputError("the tour has a step that is not one move")
        full, rest = divmod(len(body), MOVES_PER_LINE)
        lines = np.empty((full, MOVES_PER_LINE + 1), dtype=np.uint8)
        lines[:, :-1] = body[: full * MOVES_PER_LINE].reshape(full, MOVES_PER_LINE)
        lines[:, -1] = ord("\n")
        text = lines.tobytes()
        if rest:
            text += body[full * MOVES_PER_LINE :].tobytes() + b"\n"
        yield text


def read_moves(board: Board, piece: PieceLike, data: bytes) -> npt.NDArray[np.int64]:
    r"""Read a ``.moves`` file's text (:func:`tour_moves_text`) into cells.

    Raises:
        InvalidInputError: no first cell, or a character that is not a move.
        InvalidCellError: the first cell cannot be read.

    Examples:
        >>> read_moves(Board((3, 4)), "knight", b"; moves\na1\n22\n").tolist()
        [[0, 0], [1, 2], [2, 4]]
    """
    import numpy as np

    from cpknight.pieces import as_piece, walk

    leaper = as_piece(piece)
    leaper.check_dim(board.dim, board.label)
    n_moves = len(leaper.moves(board.dim))
    fast = _read_moves_fast(board, leaper, data, MOVE_CODES[:n_moves].encode("ascii"))
    if fast is not None:
        return fast
    lines = [
        line.strip()
        for line in data.decode("ascii", errors="replace").splitlines()
        if line.strip() and not line.strip().startswith(";")
    ]
    if not lines:
        raise InvalidInputError("a .moves file starts with its first cell: none found")
    start, _ = board.read_cell(lines[0])
    if len(start) != board.dim:
        raise InvalidInputError(
            f"the first cell '{lines[0]}' has {len(start)} coordinates; "
            f"board {board.label} has {board.dim}"
        )
    body = np.frombuffer("".join(lines[1:]).encode("ascii"), dtype=np.uint8)
    lookup = np.full(256, -1, dtype=np.int64)
    lookup[np.frombuffer(MOVE_CODES[:n_moves].encode("ascii"), dtype=np.uint8)] = (
        np.arange(n_moves)
    )
    codes = lookup[body]
    if (codes < 0).any():
        bad = chr(int(body[int(np.argmax(codes < 0))]))
        raise InvalidInputError(
            f"{bad!r} is not a move of {leaper.label} (expected one of "
            f"{MOVE_CODES[:n_moves]!r})"
        )
    return walk(board, leaper, start, codes)


def _read_moves_fast(
    board: Board, leaper: Leaper, data: bytes, codes: bytes
) -> npt.NDArray[np.int64] | None:
    """A ``.moves`` text of move characters and newlines only, read in bulk.

    None for anything else (comments or blank lines in the body, spaces,
    characters that are not moves, a bad first cell): the line reader then
    reads it and says what is wrong.
    """
    from cpknight.pieces import walk

    head = 0
    while data.startswith(b";", head) or data.startswith(b"\n", head):
        head = data.find(b"\n", head) + 1
        if head == 0:
            return None
    end = data.find(b"\n", head)
    if end < 0:
        return None
    first = data[head:end].decode("ascii", errors="replace").strip()
    body = data[end + 1 :]
    if not first or body.translate(None, codes + b"\n"):
        return None
    start, _ = board.read_cell(first)
    if len(start) != board.dim:
        return None
    lookup = np.zeros(256, dtype=np.int64)
    lookup[np.frombuffer(codes, dtype=np.uint8)] = np.arange(len(codes))
    moves = lookup[np.frombuffer(body.translate(None, b"\n"), dtype=np.uint8)]
    return walk(board, leaper, start, moves)


def write_tour_file(
    path: str, tour: Tour, *, force: bool, run: Run | None = None
) -> None:
    """Write a tour: ``.npy`` array, compact ``.moves``, else one cell a line.

    ``.npy`` holds the ``(n, d)`` int array, ``.moves`` the first cell and one
    character per move (:func:`tour_moves_text`). The bytes are made and
    written a block at a time into a temporary file beside ``path``, renamed
    to ``path`` once complete: an error, Ctrl-C or the time limit leaves no
    half-written file and ``path`` as it was.

    Args:
        path: the file; its ending picks the format.
        tour: the tour.
        force: replace a file that exists.
        run: the command's run, whose clock is checked before each block
            (allowing :data:`~cpknight.solving.FALLBACK_GRACE` seconds past
            the limit: the promise is the limit plus a second).

    Raises:
        InvalidInputError: the file exists (and ``force`` is false) or cannot be
            written.
        SolveLimitError: the time limit passed while writing.
    """
    check_new_file(path, force=force)
    blocks: Iterator[bytes | memoryview]
    if path.endswith(".moves"):
        blocks = tour_moves_blocks(tour)
    elif path.endswith(".npy"):
        blocks = _npy_blocks(np.ascontiguousarray(tour.array, dtype=np.int64))
    else:
        blocks = tour.board.cell_line_blocks(tour.array)
    check = None
    if run is not None:
        check = functools.partial(run.check, grace=FALLBACK_GRACE)
    write_blocks(path, blocks, check=check)


NPY_CHUNK = 1 << 20
"""Cells a block of a ``.npy`` file."""


def _npy_blocks(array: npt.NDArray[np.int64]) -> Iterator[bytes | memoryview]:
    """The bytes of ``np.save(array)``: its header, then its rows a block at a time.

    Examples:
        >>> import io
        >>> saved = io.BytesIO()
        >>> np.save(saved, np.arange(6).reshape(3, 2))
        >>> b"".join(_npy_blocks(np.arange(6).reshape(3, 2))) == saved.getvalue()
        True
    """
    import io

    head = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        head, np.lib.format.header_data_from_array_1_0(array)
    )
    yield head.getvalue()
    for begin in range(0, len(array), NPY_CHUNK):
        yield array[begin : begin + NPY_CHUNK].data.cast("B")


def read_tour_file(
    path: str | BinaryIO, board: Board, piece: PieceLike = "knight"
) -> Any:
    r"""Read a tour file for :func:`check_tour`: ``.npy``, ``.moves`` or cell lines.

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
        piece: the piece whose moves a ``.moves`` file spells.

    Raises:
        InvalidInputError: the file cannot be read, or a ``.npy`` file does not
            hold an integer array.

    Examples:
        >>> import io
        >>> lines = b"a1\nb3\n" + b"c5\n" * 10**6
        >>> len(read_tour_file(io.BytesIO(lines), Board.parse("3x4")))
        13
    """
    wanted = board.n_open + 1
    if isinstance(path, str) and path.endswith(".npy"):
        return _read_npy(path)[:wanted]  # mapped, read-only: checked where it lies
    name = path if isinstance(path, str) else "-"
    if isinstance(path, str) and not path.endswith(".moves"):
        mapped = _read_cells_mapped(path, board, wanted)
        if mapped is not None:
            return mapped[:wanted]
    try:
        if isinstance(path, str):
            with Path(path).open("rb") as handle:
                head, lines = _read_head(handle, wanted, name)
        else:
            head, lines = _read_head(path, wanted, name)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise InvalidInputError(f"cannot read tour file '{name}': {reason}") from None
    if name.endswith(".moves"):
        if lines is not None:
            raise InvalidInputError(
                f"tour file '{name}' is longer than any tour of {board.label}"
            )
        try:
            return read_moves(board, piece, head)
        except (InvalidInputError, InvalidCellError) as exc:
            raise InvalidInputError(f"tour file '{name}': {exc}") from None
    if lines is None:
        try:
            return read_cells(board, head)[:wanted]
        except (InvalidCellError, UnicodeDecodeError):
            lines = _cell_lines(head.splitlines(keepends=True), wanted)
    return lines


def _read_npy(path: str) -> Any:
    """The integer array of a ``.npy`` file, memory-mapped (read-only).

    Raises:
        InvalidInputError: the file cannot be read, is no ``.npy`` file, or
            does not hold integers.
    """
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
    return array


_BULK_BYTES = 64
"""Bytes a line may take on average for a file to be read whole, in bulk."""


def _read_head(
    handle: BinaryIO, wanted: int, name: str
) -> tuple[bytes, list[str] | None]:
    """Up to ``wanted`` cells' worth of a file: all its bytes, or its cell lines.

    A file no longer than ``wanted`` average lines comes back whole (for the
    bulk reader); a longer one is read line by line, stopping after ``wanted``
    cell lines.

    Raises:
        InvalidInputError: the file's first bytes are not text (a NUL byte, or
            not UTF-8): it cannot be a tour file at all.
    """
    budget = wanted * _BULK_BYTES + 4096
    head = handle.read(budget + 1)
    if _looks_binary(head[:65536]):
        raise InvalidInputError(
            f"cannot read tour file '{name}': binary data, not lines of cells"
        )
    if len(head) <= budget:
        return head, None
    rest = iter(handle.readline, b"")
    return b"", _cell_lines(
        itertools.chain(head.splitlines(keepends=True), rest), wanted
    )


def _looks_binary(block: bytes) -> bool:
    """Whether a file's first bytes hold a NUL byte or are not UTF-8 text."""
    if b"\0" in block:
        return True
    try:
        codecs.getincrementaldecoder("utf-8")().decode(block, final=False)
    except UnicodeDecodeError:
        return True
    return False


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


def write_new_file(path: str, text: str, *, force: bool) -> None:
    """Write ``text`` to ``path``, refusing to replace a file without ``force``.

    Written all or nothing by :func:`~cpknight.runtime.files.write_blocks`, as
    tours are.

    Raises:
        InvalidInputError: the file exists (and ``force`` is false) or cannot be
            written.
    """
    check_new_file(path, force=force)
    write_blocks(path, [text.encode("utf-8")])


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


READ_CHUNK = 1 << 18
"""Bytes of cell lines parsed at a time by :func:`_cells_from_bytes`."""

_DIGIT_MASKS = np.array(
    [0]
    + [
        0x0F0F0F0F0F0F0F0F & ~((1 << (8 * (8 - width))) - 1) & (2**64 - 1)
        for width in range(1, 9)
    ],
    dtype=np.uint64,
)
"""By a field's width in digits: the bits of its digits in the 8 bytes ending it."""


def _eight_digits(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """The numbers that 8-byte words spell in ASCII digits (low byte first).

    Each word holds up to eight digit values (``byte & 0x0F``), the most
    significant in the lowest byte, zeros before a shorter number: three
    multiply-and-shift rounds combine pairs of digits, then pairs of pairs
    (the SWAR method of simdjson and Lemire, "Faster integer parsing").

    Examples:
        >>> words = np.frombuffer(b"00001999" b"12345678", dtype="<u8")
        >>> _eight_digits(words & np.uint64(0x0F0F0F0F0F0F0F0F)).tolist()
        [1999, 12345678]
    """
    words = ((words * np.uint64(10 * 256 + 1)) >> np.uint64(8)) & np.uint64(
        0x00FF00FF00FF00FF
    )
    words = ((words * np.uint64(100 * 65536 + 1)) >> np.uint64(16)) & np.uint64(
        0x0000FFFF0000FFFF
    )
    numbers: npt.NDArray[np.uint64] = (
        words * np.uint64(10000 * 2**32 + 1)
    ) >> np.uint64(32)
    return numbers


def _cells_from_bytes(
    board: Board, data: bytes | mmap.mmap
) -> npt.NDArray[np.int64] | None:
    """Cell lines as :meth:`Board.cell_lines` writes them, parsed in numpy; else None.

    Plain ``r,c`` lines (any dimension), or algebraic ones on 2D boards of up to
    26 files, each number 1 to 8 digits, every line ending in a newline (but
    perhaps the last): anything else (blank lines, comments, spaces, signs,
    carriage returns) is None, for the line-by-line reader. The bytes (or a
    file mapped in memory) are read in blocks of about :data:`READ_CHUNK`
    bytes of whole lines.
    """
    if not len(data) or board.unbounded:
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    newlines = sum(
        int(np.count_nonzero(buf[i : i + READ_CHUNK] == ord("\n")))
        for i in range(0, len(buf), READ_CHUNK)
    )
    unended = bool(buf[-1] != ord("\n"))
    del buf  # no view of a mapped file outlives this function
    algebraic = board.dim == 2 and board.shape[1] <= len(FILES)
    out = np.empty((newlines + unended, board.dim), dtype=np.int64)
    row = begin = 0
    reuse_block_memory()
    while begin < len(data):
        stop = data.find(b"\n", min(begin + READ_CHUNK, len(data) - 1)) + 1 or len(data)
        # Eight bytes before the block: every number's 8-byte word lies in it.
        chunk = (
            data[begin - 8 : stop] if begin >= 8 else b"\n" * (8 - begin) + data[:stop]
        )
        if stop == len(data) and unended:
            chunk += b"\n"
        cells = _parse_block(chunk, board.dim, algebraic=algebraic)
        if cells is None:
            return None
        out[row : row + len(cells)] = cells
        row += len(cells)
        begin = stop
    return out


def _read_cells_mapped(
    path: str, board: Board, wanted: int
) -> npt.NDArray[np.int64] | None:
    """The cell lines of a regular file, parsed from the file mapped in memory.

    No copy of the file is made (a 35 MB file: about 0.05 s less). None for a
    file that is not a regular file, is empty or longer than the bulk reader
    takes, cannot be opened, or is not in :meth:`Board.cell_lines`' spelling:
    the reader then reads it as before (and says what is wrong).
    """
    import mmap
    import stat

    try:
        with Path(path).open("rb") as handle:
            info = os.fstat(handle.fileno())
            budget = wanted * _BULK_BYTES + 4096
            if not stat.S_ISREG(info.st_mode) or not 0 < info.st_size <= budget:
                return None
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
                return _cells_from_bytes(board, mapped)
    except (OSError, ValueError):
        return None


def _parse_block(
    chunk: bytes, dim: int, *, algebraic: bool
) -> npt.NDArray[np.int64] | None:
    """Whole cell lines after 8 bytes of context, parsed; None if not canonical."""
    buf = np.frombuffer(chunk, dtype=np.uint8)
    # Every byte that is not a digit separates fields: one pattern a line.
    seps = np.flatnonzero((buf[8:] - np.uint8(ord("0"))) >= 10) + 8
    per_line = 2 if algebraic else dim
    if len(seps) % per_line:
        return None
    kinds = buf[seps].reshape(-1, per_line)
    runs = np.diff(seps, prepend=7) - 1  # digits before each separator
    if algebraic:
        letters, ends = kinds[:, 0], kinds[:, 1]
        if (
            not (ends == ord("\n")).all()
            or ((letters - np.uint8(ord("a"))) >= len(FILES)).any()
            or runs[0::2].any()
        ):
            return None
        runs, seps = runs[1::2], seps[1::2]
    elif not (kinds[:, -1] == ord("\n")).all() or (
        dim > 1 and not (kinds[:, :-1] == ord(",")).all()
    ):
        return None
    if not len(runs) or runs.min() < 1 or runs.max() > 8:
        return None
    # The 8 bytes that end at each separator, one unaligned word a field.
    words = np.ndarray((len(buf) - 7,), dtype="<u8", buffer=chunk, strides=(1,))
    numbers = _eight_digits(words[seps - 8] & _DIGIT_MASKS[runs]).astype(np.int64)
    if algebraic:
        files = letters.astype(np.int64) - ord("a")
        return np.stack([numbers - 1, files], axis=1)
    return numbers.reshape(-1, dim)
