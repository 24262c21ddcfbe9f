"""Tour files: cell lines written in bulk, the compact ``.moves`` format."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cpknight import (
    Board,
    InvalidCellError,
    InvalidInputError,
    Leaper,
    check_tour,
    find_tour,
)
from cpknight.checks import make_tour
from cpknight.cli import main
from cpknight.io import (
    MOVE_CODES,
    read_cells,
    read_moves,
    read_tour_file,
    tour_moves_blocks,
    tour_moves_text,
    write_tour_file,
)
from tests.fresh import fresh_output


@pytest.mark.parametrize(
    ("spec", "topology"),
    [("8x8", "bounded"), ("30x30", "bounded"), ("40x7", "torus"), ("5x6x4", "bounded")],
)
def test_cell_lines_are_the_names_one_a_line(spec: str, topology: str) -> None:
    # Bulk bytes against cell_name, one cell at a time (random cells, and the
    # negative coordinates of the plane, which take the slow path).
    board = Board.parse(spec, topology=topology)  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    cells = np.stack([rng.integers(0, s, 500) for s in board.shape], axis=1)
    expected = "".join(board.cell_name(c) + "\n" for c in cells.tolist())
    assert board.cell_lines(cells) == expected.encode("ascii")
    plane = Board.plane()
    assert plane.cell_lines([(-1, 2)] * 40) == b"-1,2\n" * 40


def _awkward_cells(shape: tuple[int, ...], count: int, *, seed: int) -> Any:
    """``2 * count`` cells: numbers of every width (0, 9, 10, 99, 100, ...), the
    last of each side, and as many drawn at random."""
    rng = np.random.default_rng(seed)
    widths = [10**k + d for k in range(9) for d in (-1, 0)]
    columns = []
    for side in shape:
        picks = [w for w in widths if 0 <= w < side] + [0, side - 1]
        columns.append(
            np.concatenate([rng.choice(picks, count), rng.integers(0, side, count)])
        )
    return np.stack(columns, axis=1)


@pytest.mark.parametrize(
    ("shape", "chunk"),
    [
        ((8, 8), 1),
        ((30, 26), 7),  # z, the last file: algebraic
        ((26, 27), 7),  # one file past z: coordinates
        ((12_000, 3), 64),  # algebraic ranks of 1 to 5 digits
        ((3, 4, 5), 5),
        ((4,), 3),
        ((1, 10**7), 16),  # up to 9,999,999: 7 digits, the widest slot
        ((2, 12_000_000), 16),  # 8 digits: named one by one
    ],
)
def test_cell_line_blocks_join_to_the_names(shape: tuple[int, ...], chunk: int) -> None:
    # Blocks of any size, numbers of every width (0, 9, 10, 99, 100, ...) and
    # the widest: byte for byte what cell_name writes one cell at a time.
    board = Board(shape)
    cells = _awkward_cells(shape, 200, seed=2)
    expected = "".join(board.cell_name(c) + "\n" for c in cells.tolist())
    blocks = list(board.cell_line_blocks(cells, chunk))
    assert len(blocks) == -(-len(cells) // chunk)
    assert b"".join(blocks) == expected.encode("ascii")
    assert board.cell_lines(cells[:0]) == b""


@pytest.mark.parametrize(
    ("spec", "topology", "piece", "closed"),
    [
        ("8x8", "bounded", "knight", True),
        ("5x5", "bounded", "knight", False),
        ("6x6", "torus", "knight", True),
        ("5x8", "cylinder", "knight", False),
        ("10x10", "bounded", "zebra", True),
        ("4x4x4", "bounded", "knight", True),
        ("14x14", "bounded", "antelope", True),
    ],
)
def test_moves_files_read_back_the_tour(
    spec: str, topology: str, piece: str, closed: bool, tmp_path: Path
) -> None:
    board = Board.parse(spec, topology=topology)  # type: ignore[arg-type]
    tour = find_tour(board, piece=piece, closed=closed, method="race")
    text = tour_moves_text(tour)
    assert read_moves(board, piece, text).tolist() == tour.array.tolist()
    path = tmp_path / "t.moves"
    path.write_bytes(text)
    cells = read_tour_file(str(path), board, piece)
    check_tour(board, cells, piece=piece, closed=closed)


def test_moves_file_is_about_a_byte_a_cell(tmp_path: Path) -> None:
    out = tmp_path / "t.moves"
    assert main(["tour", "60x60", "--out", str(out)]) == 0
    assert out.stat().st_size < 3600 * 1.05 + 200
    assert main(["check", "60x60", str(out)]) == 0


def test_bad_moves_files_are_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.moves"
    bad.write_text("; a comment\na1\n21x\n")
    assert main(["check", "8x8", str(bad)]) == 2
    assert "'x' is not a move of knight (1,2)" in capsys.readouterr().err
    bad.write_text("a1\n28\n")  # 8: the knight has moves 0-7 only
    assert main(["check", "8x8", str(bad)]) == 2
    bad.write_text("; nothing else\n")
    assert main(["check", "8x8", str(bad)]) == 2
    # A walk that leaves the board is read, and the checker says where.
    bad.write_text("a1\n77\n")
    assert main(["check", "8x8", str(bad)]) == 1


def test_moves_files_refuse_leapers_with_too_many_moves() -> None:
    # (1,2,3) in 4D: 4 * 3 * 2 placements, 8 signs: 192 moves.
    tour = make_tour(
        Board((1, 1, 1, 1)),
        Leaper((1, 2, 3)),
        [(0, 0, 0, 0)],
        closed=False,
        method="hand",
    )
    with pytest.raises(InvalidInputError, match="at most 62 moves"):
        tour_moves_text(tour)


@pytest.mark.parametrize(
    "shape", [(8, 8), (30, 26), (26, 27), (12_000, 3), (3, 4, 5), (4,), (1, 10**7)]
)
@pytest.mark.parametrize("chunk", [1, 64, 1 << 18])
def test_cell_lines_read_back_in_blocks(
    shape: tuple[int, ...], chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What cell_lines writes, read back in blocks of any size (a block is
    # whole lines of at least `chunk` bytes), with and without the last newline.
    import cpknight.io

    monkeypatch.setattr(cpknight.io, "READ_CHUNK", chunk)
    board = Board(shape)
    cells = _awkward_cells(shape, 100, seed=3)
    data = board.cell_lines(cells)
    assert read_cells(board, data).tolist() == cells.tolist()
    assert read_cells(board, data[:-1]).tolist() == cells.tolist()


@pytest.mark.parametrize(
    ("spec", "text"),
    [
        ("8x8", "a1\r\nb3\r\n"),
        ("8x8", "; a tour\na1\n\nb3\n"),
        ("8x8", " a1\nb3 \n"),
        ("8x8", "a01\nb3\n"),
        ("8x8", "0,0\n2,1\n"),
        ("30x30", "(0, 27)\n12,3\n"),
        ("30x30", "007,3\n12,3\n"),
        ("30x30", "123456789,3\n12,3\n"),
        ("3x4x5", "0,1,2\n2,3,4"),
        ("30x30", "1\n2,3\n4,5,6\n"),
        ("30x30", "1,2\n,3\n"),
    ],
)
def test_unusual_cell_lines_read_as_each_line_reads(spec: str, text: str) -> None:
    # The bulk reader takes the lines it can and leaves the rest to the
    # line-by-line reader: the answer (or the error) is each line read alone.
    board = Board.parse(spec)
    lines = [line.strip() for line in text.splitlines()]
    try:
        rows = [board.read_cell(x)[0] for x in lines if x and not x.startswith(";")]
        expected: object = rows if all(len(r) == board.dim for r in rows) else "error"
    except InvalidCellError:
        expected = "error"
    try:
        got: object = [tuple(r) for r in read_cells(board, text).tolist()]
    except InvalidCellError:
        got = "error"
    assert got == expected


@pytest.mark.parametrize(
    ("spec", "topology", "piece", "closed"),
    [
        ("12x12", "bounded", "knight", True),
        ("3x4x4", "bounded", "knight", False),
        ("6x6", "torus", "knight", True),
        ("10x10", "bounded", "zebra", True),
    ],
)
@pytest.mark.parametrize("chunk", [100, 200, 32_000])
def test_moves_blocks_spell_each_step(
    spec: str, topology: str, piece: str, closed: bool, chunk: int
) -> None:
    # The characters, worked out step by step in Python: the index of the
    # step's vector (modulo the sides where the board wraps) in the piece's
    # move order; 100 a line, whatever the pieces they are written in.
    board = Board.parse(spec, topology=topology)  # type: ignore[arg-type]
    tour = find_tour(board, piece=piece, closed=closed, method="race")
    vectors = Leaper.parse(piece).moves(board.dim).tolist()
    chars = []
    for a, b in itertools.pairwise(tour.array.tolist()):
        j = next(
            j
            for j, v in enumerate(vectors)
            if all(
                (y - x - d) % side == 0 if wraps else y - x == d
                for x, y, d, side, wraps in zip(
                    a, b, v, board.shape, board.wrap, strict=True
                )
            )
        )
        chars.append(MOVE_CODES[j])
    body = "".join(chars)
    lines = [body[i : i + 100] for i in range(0, len(body), 100)]
    blocks = list(tour_moves_blocks(tour, chunk=chunk))
    head = blocks[0].decode().splitlines()
    assert head[2] == board.cell_name(tour.array[0].tolist())
    assert b"".join(blocks[1:]).decode() == "".join(x + "\n" for x in lines)
    assert len(blocks) == 1 + -(-len(body) // chunk)


@pytest.mark.parametrize(
    "edit",
    [
        lambda text: text,
        lambda text: text.replace(b"\n", b"\r\n"),
        lambda text: text.replace(b"\n", b"\n\n"),
        lambda text: text.replace(b"\n", b"  \n"),
        lambda text: text + b"; the end\n",
        lambda text: text[: len(text) // 2] + b"\n; a note\n" + text[len(text) // 2 :],
        lambda text: text.rstrip(b"\n"),
    ],
)
def test_moves_files_read_alike_in_bulk_and_by_line(edit: Any) -> None:
    # Comments, blank lines, spaces and carriage returns: the bulk reader
    # leaves such files to the line reader; the cells are the same.
    tour = find_tour("12x12", method="race")
    text = edit(tour_moves_text(tour))
    assert read_moves(tour.board, "knight", text).tolist() == tour.array.tolist()


@pytest.mark.parametrize("suffix", [".txt", ".npy", ".moves"])
def test_tour_files_are_written_whole_or_not_at_all(
    suffix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Written in blocks into a temporary file renamed at the end: the bytes
    # of the one-piece writers; and when the clock runs out in the middle,
    # the file the user had is left as it was, with no temporary file about.
    import io as stdio

    import cpknight.io
    from cpknight.errors import SolveLimitError
    from cpknight.solving import SolveOptions

    monkeypatch.setattr(cpknight.io, "NPY_CHUNK", 7)
    tour = find_tour("12x12", method="race")
    path = tmp_path / f"tour{suffix}"
    write_tour_file(str(path), tour, force=False)
    if suffix == ".npy":
        saved = stdio.BytesIO()
        np.save(saved, tour.array)
        assert path.read_bytes() == saved.getvalue()
    elif suffix == ".moves":
        assert path.read_bytes() == tour_moves_text(tour)
    else:
        assert path.read_bytes() == tour.board.cell_lines(tour.array)
    with pytest.raises(InvalidInputError, match="exists; add --force"):
        write_tour_file(str(path), tour, force=False)
    path.write_bytes(b"the user's file")
    run = SolveOptions(time_limit=1.0).start()
    run.clock.exclude(-10.0)  # started ten seconds ago: the limit has passed
    with pytest.raises(SolveLimitError, match="reached while writing"):
        write_tour_file(str(path), tour, force=True, run=run)
    assert path.read_bytes() == b"the user's file"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    link = tmp_path / f"link{suffix}"
    link.symlink_to(path)
    write_tour_file(str(link), tour, force=True)
    assert link.is_symlink()
    assert path.read_bytes() != b"the user's file"
    assert read_tour_file(str(link), tour.board).tolist() == tour.array.tolist()


def test_unwritable_tour_files_are_bad_input(tmp_path: Path) -> None:
    tour = find_tour("5x5", closed=False, method="race")
    missing = tmp_path / "no-such-folder" / "t.txt"
    with pytest.raises(InvalidInputError, match=r"cannot write .*No such file"):
        write_tour_file(str(missing), tour, force=False)


def test_new_files_go_through_the_one_safe_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pictures and reports are written as tours are: refused without force,
    # else all or nothing through files.write_blocks (no half-written file).
    import cpknight.io
    from cpknight.io import write_new_file

    path = tmp_path / "out.svg"
    write_new_file(str(path), "<svg/>\n", force=False)
    assert path.read_text(encoding="utf-8") == "<svg/>\n"
    with pytest.raises(InvalidInputError, match="exists; add --force"):
        write_new_file(str(path), "other", force=False)
    written: list[tuple[str, list[bytes]]] = []
    monkeypatch.setattr(
        cpknight.io, "write_blocks", lambda p, blocks: written.append((p, blocks))
    )
    write_new_file(str(path), "é", force=True)
    assert written == [(str(path), ["é".encode()])]
    missing = tmp_path / "no-such-folder" / "out.svg"
    monkeypatch.undo()
    with pytest.raises(InvalidInputError, match=r"cannot write .*No such file"):
        write_new_file(str(missing), "x", force=False)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_huge_tour_files_load_no_solver_pictures_or_studies(tmp_path: Path) -> None:
    # The shipped tiles need no OR-Tools; writing and checking a tour file
    # draw nothing and run no study (behaviour; benchmarks/huge.py times it).
    out = tmp_path / "t.txt"
    script = (
        "import contextlib, io, sys\n"
        "from cpknight.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    codes = [main(['tour', '100x100', '--out', {str(out)!r}]),\n"
        f"             main(['check', '100x100', {str(out)!r}])]\n"
        "heavy = sorted(m for m in sys.modules if m.startswith(\n"
        "    ('ortools', 'cpknight.draw', 'cpknight.study', 'tqdm', 'dask')))\n"
        "print(codes, heavy)\n"
    )
    assert fresh_output(script) == "[0, 0] []"


@pytest.mark.parametrize(
    "edit",
    [
        lambda text: text,
        lambda text: text[:-1],  # no newline at the end
        lambda text: text.replace(b"\n", b"\r\n"),
        lambda text: b"; a tour\n" + text,
        lambda text: text + b"\n\n",
    ],
)
@pytest.mark.parametrize("chunk", [16, 1 << 18])
def test_tour_files_read_alike_mapped_and_in_memory(
    edit: Any, chunk: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A regular file is parsed straight from the page cache (mmap); the same
    # bytes from standard input are read into memory: the same cells.
    import io as stdio

    import cpknight.io

    monkeypatch.setattr(cpknight.io, "READ_CHUNK", chunk)
    tour = find_tour("30x30", method="race")
    text = edit(tour.board.cell_lines(tour.array))
    path = tmp_path / "t.txt"
    path.write_bytes(text)
    from_file = read_tour_file(str(path), tour.board)
    from_stream = read_tour_file(stdio.BytesIO(text), tour.board)
    assert np.asarray(from_file).tolist() == tour.array.tolist()
    assert np.asarray(from_stream).tolist() == tour.array.tolist()
