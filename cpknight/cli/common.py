"""What every subcommand shares: exit codes, option groups, output and files."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from cpknight.api import (
    resolve,
)
from cpknight.board import Board, Cell, Topology
from cpknight.cli.parser import (
    EXIT_BAD_INPUT,
    EXIT_CODES,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_NONE,
    EXIT_OK,
    Parser,
    command_help,
)
from cpknight.errors import InvalidInputError
from cpknight.io import (
    check_new_file,
    write_new_file,
)
from cpknight.pieces import Leaper
from cpknight.solving import (
    CPSAT_SUFFIXES,
    PROCESS_AGE_CAP,
    Run,
    SolveOptions,
    check_export_path,
    process_origin,
    start_next_clock_at,
)
from cpknight.status import Status
from cpknight.text.render import GRID_LIMIT, outcome_line
from cpknight.text.reports import grid_hint

if TYPE_CHECKING:
    from cpknight.results import Comparison, Outcome

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_CODES",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_LIMIT",
    "EXIT_NONE",
    "EXIT_OK",
    "Parser",
]

TIME_LIMIT = 60.0
"""The one default of ``--time-limit`` (seconds per solve): no command runs
without a limit unless told ``--time-limit none``."""

JOBS = 1
"""The one default of ``--jobs``: run in this process (0: one per core)."""

JSON_SCHEMA = 1
"""The ``"schema"`` key of every JSON document the command line prints; it
grows when a document changes incompatibly (see ``cli/output.schema.json``)."""

Handler = Callable[[argparse.Namespace], int]
"""A subcommand's handler: the parsed arguments in, the exit code out."""
SubParsers = Any  # argparse's _SubParsersAction is private


class _Streams:
    """Where the report goes, and who has read standard input (one command)."""

    report: TextIO | None = None
    stdin_reader: str | None = None


def reset_streams() -> None:
    """Start a command: the report on standard output, standard input unread."""
    _Streams.report = None
    _Streams.stdin_reader = None


def out(text: str = "") -> None:
    """Print a line of the report (on stderr when a file has standard output)."""
    print(text, file=_Streams.report or sys.stdout)


def read_stdin(what: str) -> str:
    """Standard input's text, for ``what`` (``BOARD``); it can be read once.

    Raises:
        InvalidInputError: another option already reads standard input.
    """
    claim_stdin(what)
    return sys.stdin.read()


def claim_stdin(what: str) -> None:
    """Say that ``what`` reads standard input; only one option may.

    Raises:
        InvalidInputError: another option already reads standard input.
    """
    if _Streams.stdin_reader is not None:
        raise InvalidInputError(
            f"{_Streams.stdin_reader} and {what} both read standard input ('-'); "
            "give one of them a file"
        )
    _Streams.stdin_reader = what


def note(text: str) -> None:
    """One line on standard error that does not change the answer."""
    print(f"cpknight: note: {text}", file=sys.stderr)


def print_json(obj: dict[str, Any]) -> None:
    """Print one JSON document, its ``"schema"`` version first."""
    import json  # not every command prints JSON: imported when one does

    print(json.dumps({"schema": JSON_SCHEMA, **obj}))


def comparison_code(comparison: Comparison) -> int:
    """The exit code of a table of engines (the rows are printed all the same).

    0 when an engine answered, 1 when one proved there is none, 3 when none
    did, 130 after Ctrl-C.

    Raises:
        InvalidInputError: every engine refused the instance (bad input).
    """
    if all(row.status is Status.REFUSED for row in comparison.rows):
        reasons = dict.fromkeys(row.reason or "refused" for row in comparison.rows)
        raise InvalidInputError("; ".join(reasons))
    statuses = {row.status for row in comparison.rows}
    if comparison.interrupted:
        return EXIT_INTERRUPTED
    if any(status.solved for status in statuses):
        return EXIT_OK
    return EXIT_NONE if Status.INFEASIBLE in statuses else EXIT_LIMIT


def print_outcome(args: argparse.Namespace, code: int, data: Any, text: str) -> int:
    """Print ``data`` as JSON with ``--json``, else ``text``; return ``code``."""
    if args.json:
        print_json(data)
    else:
        out(text)
    return code


def report(
    args: argparse.Namespace,
    outcome: Outcome,
    text: Callable[[Any], str],
    *,
    pictures: Callable[[Any], None] | None = None,
    none: str | None = None,
    partial: str | None = None,
    missing: str | None = None,
    data: dict[str, Any] | None = None,
) -> int:
    """Print one answer the one way: no value, exit code, pictures, JSON or text.

    Without a value: exit 1 when proved none (with ``none``, or the outcome's
    line), 3 at the limit, 130 after Ctrl-C (with a note); ``missing`` is
    the line printed then (default: the outcome's status and reason). With
    one: ``pictures(value)`` writes the files, then the outcome's JSON (or
    ``data``) or ``text(value)`` is printed (on stderr when a file has
    standard output). A value the limit left without an answer (``unknown``:
    a count's figures so far) exits 3, or 130 after Ctrl-C. ``partial`` is
    the note of a best-so-far value kept after Ctrl-C (exit 130); without it
    a value found before Ctrl-C answers in full (exit 0).
    """
    value = outcome.value

    def document() -> dict[str, Any]:  # built for JSON only: a huge tour's is slow
        return outcome.as_dict() if data is None else data

    if value is None:
        code = EXIT_NONE if outcome.status is Status.INFEASIBLE else EXIT_LIMIT
        line = outcome_line(outcome) if missing is None else missing
        if outcome.interrupted:
            code = EXIT_INTERRUPTED
            note("interrupted (Ctrl-C) before an answer was found")
        elif code == EXIT_NONE and none is not None:
            line = none
        return print_outcome(args, code, document() if args.json else None, line)
    if pictures is not None:
        pictures(value)
    if args.json:
        print_json(document())
    else:
        out(text(value))
    if outcome.status is Status.UNKNOWN:  # figures, no answer
        return EXIT_INTERRUPTED if outcome.interrupted else EXIT_LIMIT
    if outcome.interrupted and partial is not None:
        note(partial)
        return EXIT_INTERRUPTED
    return EXIT_OK


# ------------------------------------------------------------- shared options


def add_command(
    sub: SubParsers,
    name: str,
    handler: Handler,
    *,
    description: str,
    help: str | None = None,
    examples: str = "",
    epilog: str | None = EXIT_CODES,
) -> argparse.ArgumentParser:
    """Add the parser of one subcommand that runs ``run``.

    ``examples`` (two or three command lines, one a line) and the exit codes
    are printed under its ``--help``. ``help``, the one line its parent's
    ``--help`` lists, is the command table's for a top-level command
    (:data:`cpknight.cli.parser.COMMANDS`).
    """
    lines = "".join(f"  {line}\n" for line in examples.strip().splitlines())
    parser: argparse.ArgumentParser = sub.add_parser(
        name,
        help=command_help(name) if help is None else help,
        description=description,
        epilog=f"examples:\n{lines}" + (f"\n{epilog}" if epilog else ""),
    )
    parser.set_defaults(handler=handler)
    add_memory(parser)
    return parser


def add_memory(parser: argparse.ArgumentParser) -> None:
    """``--memory MB``: the budget every big build is estimated against first."""
    from cpknight.runtime.memory import default_memory_text

    parser.add_argument(
        "--memory",
        type=memory_value,
        default=None,
        metavar="MB",
        help="the memory budget: what is estimated past it is refused before "
        f"it is built (default {default_memory_text()})",
    )


def add_board_args(parser: argparse.ArgumentParser, *, piece: bool = True) -> None:
    parser.add_argument(
        "board",
        metavar="BOARD",
        help="a size like 8x8 or 4x4x4, a named board (see 'cpknight boards'), "
        "'plane', or a file of '.' and '#' (top rank first; '-' reads it from "
        "standard input)",
    )
    if piece:
        parser.add_argument(
            "--piece",
            default="knight",
            metavar="P",
            help="a leaper like 1,3 or a name (knight, camel, zebra, giraffe, ...); "
            "default knight",
        )
    wrap = parser.add_mutually_exclusive_group()
    wrap.add_argument("--torus", action="store_true", help="every axis wraps around")
    wrap.add_argument(
        "--cylinder", action="store_true", help="the last axis (the files) wraps"
    )


def add_cell_args(parser: argparse.ArgumentParser, *, target: bool = False) -> None:
    parser.add_argument("source", metavar="SOURCE", help="a cell like a1 or 0,0")
    if target:
        parser.add_argument("target", metavar="TARGET", help="a cell like h8 or 7,7")


def add_json(parser: argparse.ArgumentParser) -> None:
    """``--json``: print one JSON document (with its ``"schema"`` version)."""
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON document instead of the text",
    )


class Deprecated(argparse.Action):
    """A hidden old spelling: one deprecation line on stderr, then as ``instead``."""

    def __init__(self, *args: Any, instead: str, **kwargs: Any) -> None:
        self.instead = instead
        kwargs.setdefault("help", argparse.SUPPRESS)
        super().__init__(*args, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        print(
            f"cpknight: warning: {option_string} is deprecated; {self.instead}",
            file=sys.stderr,
        )
        setattr(namespace, self.dest, values)


def add_method(
    parser: argparse.ArgumentParser,
    *,
    default: str,
    help: str,
    several: bool = False,
    choices: Sequence[str] | None = None,
) -> None:
    """``--method``: the engine; with ``several``, a comma list or ``all`` too.

    Where only one engine can run, a list or ``all`` is refused in one line.
    """

    def method(text: str) -> str:
        names = [name.strip() for name in text.split(",")]
        if not several and (len(names) > 1 or text == "all"):
            raise argparse.ArgumentTypeError(
                f"this command runs one engine, not {text!r} ('cpknight compare' "
                "runs several)"
            )
        if choices is not None:
            unknown = [n for n in names if n not in (*choices, "all")]
            if unknown:
                raise argparse.ArgumentTypeError(
                    f"unknown method {unknown[0]!r} (choose from {', '.join(choices)})"
                )
        return text

    one = "a name" if not several else "a name, a comma list or 'all'"
    parser.add_argument(
        "--method",
        type=method,
        default=default,
        metavar="M",
        help=f"{help} ({one}; default {default})",
    )


def add_grid(parser: argparse.ArgumentParser, what: str = "the grid") -> None:
    parser.add_argument(
        "--grid",
        action="store_true",
        help=f"print {what} even on boards of more than {GRID_LIMIT} cells",
    )


def add_force(parser: argparse.ArgumentParser, files: str) -> None:
    parser.add_argument("--force", action="store_true", help=f"overwrite {files}")


def add_pictures(parser: argparse.ArgumentParser, what: str) -> None:
    """``--svg``, ``--animate`` and their ``--force``, for a path-shaped answer."""
    parser.add_argument("--svg", metavar="FILE", help=f"draw the {what} as SVG")
    parser.add_argument(
        "--animate", metavar="FILE", help=f"write an animated SVG of the {what}"
    )
    add_force(parser, "files given to --svg/--animate")
    add_drawing(parser)


def add_drawing(parser: argparse.ArgumentParser, *, board: bool = True) -> None:
    """How ``--svg`` draws: ``--png``, and (``board``) the python-chess options.

    ``--png FILE`` writes the picture as PNG too (a ``--svg`` file ending in
    ``.png`` is PNG as well); both need the ``png`` extra (resvg-py).
    ``--scale K`` sizes the PNG: K PNG pixels per picture pixel (default:
    :func:`cpknight.draw.export.auto_scale`). ``--flip``, ``--theme``,
    ``--no-coordinates``, ``--highlight``, ``--arrow`` and ``--crop`` are the
    keyword arguments of the drawing functions
    (:class:`cpknight.draw.DrawOptions`).
    """
    group = parser.add_argument_group("drawing (--svg, --png)")
    group.add_argument(
        "--png",
        metavar="FILE",
        help="also write the picture as PNG (needs pip install 'cpknight[png]'); "
        "a --svg FILE ending in .png is PNG too",
    )
    group.add_argument(
        "--scale",
        type=scale_value,
        default=None,
        metavar="K",
        help="the PNG's size: K pixels per picture pixel, like 2 for a slide "
        "(default 1, or more on boards whose cells are under 40 pixels, up to 4)",
    )
    if not board:
        return
    group.add_argument(
        "--flip", action="store_true", help="rank 1 at the top, files right to left"
    )
    group.add_argument(
        "--theme",
        metavar="NAME",
        help="the colours: classic (default), blue or print; all colour-blind-safe",
    )
    group.add_argument(
        "--no-coordinates",
        dest="coordinates",
        action="store_false",
        help="leave out the file letters and rank numbers",
    )
    group.add_argument(
        "--highlight",
        metavar="CELLS",
        action="append",
        default=[],
        help="fill these cells (comma list, like e4,d5; repeatable)",
    )
    group.add_argument(
        "--arrow",
        metavar="FROM:TO",
        action="append",
        default=[],
        help="draw an arrow, like a1:b3 (comma list; repeatable)",
    )
    group.add_argument(
        "--crop",
        metavar="A1:H8",
        help="draw only the window between two corner cells (2D boards)",
    )


def scale_value(text: str) -> float:
    """A ``--scale``: a finite number above 0 (PNG pixels per picture pixel)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (value > 0 and value != float("inf")):
        raise argparse.ArgumentTypeError(
            f"expected a number above 0 (PNG pixels per picture pixel), not {text!r}"
        )
    return value


def drawing_of(args: argparse.Namespace, board: Board) -> dict[str, Any]:
    """The drawing options given, checked against ``board`` before any solving.

    Returns the keyword arguments of the ``cpknight.draw`` functions, or an
    empty dict when none was given.
    """
    if not hasattr(args, "flip"):
        return {}

    def cells(items: list[str]) -> list[str]:
        return [c.strip() for item in items for c in item.split(",") if c.strip()]

    arrows = []
    for item in cells(args.arrow):
        ends = item.split(":")
        if len(ends) != 2:
            raise InvalidInputError(f"expected an arrow like a1:b3: {item!r}")
        arrows.append((ends[0], ends[1]))
    given: dict[str, Any] = {
        "flipped": args.flip,
        "theme": args.theme,
        "coordinates": args.coordinates,
        "highlight": cells(args.highlight),
        "arrows": arrows,
        "crop": args.crop,
    }
    defaults = {"flipped": False, "coordinates": True, "theme": None, "crop": None}
    given = {k: v for k, v in given.items() if v != defaults.get(k, [])}
    if given:  # nothing to check (nor to import) when no option is given
        from cpknight.draw.options import draw_options

        draw_options(board, **given)  # every cell on the board, the crop in order
    return given


def animation_of(drawing: dict[str, Any]) -> dict[str, Any]:
    """The drawing options an animation takes too: ``flipped`` and ``theme``."""
    return {k: v for k, v in drawing.items() if k in ("flipped", "theme")}


def write_picture(args: argparse.Namespace, text: Callable[[], str]) -> None:
    """Write the picture to ``--svg`` (PNG if it ends in ``.png``) and ``--png``."""
    svg = text()
    for path in (args.svg, getattr(args, "png", None)):
        if not path:
            continue
        if path == getattr(args, "png", None) or path.lower().endswith(".png"):
            from cpknight.draw.export import svg_to_png
            from cpknight.runtime.files import write_blocks

            check_new_file(path, force=args.force)
            write_blocks(path, [svg_to_png(svg, scale=getattr(args, "scale", None))])
        else:
            write_output(path, svg, force=args.force)


def add_export(
    parser: argparse.ArgumentParser,
    kind: str,
    suffixes: tuple[str, ...] = CPSAT_SUFFIXES,
    written: str = "a CP-SAT text proto",
) -> None:
    """``--export FILE`` and its ``--force``, for the formulation commands.

    ``suffixes`` are the file endings the model can be written to; another is
    refused with the other files, before the model is built.
    """
    parser.add_argument("--export", metavar="FILE", help=f"write the model as {kind}")
    parser.set_defaults(export_kind=(suffixes, written))
    add_force(parser, "the file given to --export")


def add_progress(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress",
        action="store_true",
        help="show progress on stderr (default: only when stderr is a terminal)",
    )


def progress_bar(args: argparse.Namespace, line: str, total: int | None = None) -> Any:
    """A tqdm progress line on stderr, or None when progress is not shown.

    Progress is shown when stderr is a terminal, or with ``--progress``; only
    then is tqdm imported.
    """
    if not (args.progress or sys.stderr.isatty()):
        return None
    from tqdm import tqdm

    return tqdm(total=total, bar_format=line, file=sys.stderr)


def show_progress(args: argparse.Namespace) -> bool:
    """Whether a long solve draws its bar on stderr: ``--progress``, or a terminal.

    The bar (the front door's ``progress=True``, ``tqdm.auto``) goes to
    standard error and is cleared when done: standard output, and ``--json``,
    never see it.
    """
    return bool(getattr(args, "progress", False)) or sys.stderr.isatty()


def board_and_piece(args: argparse.Namespace) -> tuple[Board, Leaper]:
    """The board (``-``: a drawing on standard input) and the piece."""
    topology: Topology = (
        "torus" if args.torus else "cylinder" if args.cylinder else "bounded"
    )
    board: Board | str = args.board
    if args.board == "-":
        text = read_stdin("BOARD")
        board = Board.from_ascii(text, topology=topology, source="standard input")
    return resolve(board, getattr(args, "piece", "knight"), topology=topology)


def cell_json(cell: Sequence[int]) -> list[int]:
    return [int(x) for x in cell]


def grid_fits(args: argparse.Namespace, board: Board) -> bool:
    """Whether to print the grid: boards up to the grid limit, or ``--grid``."""
    return board.size <= GRID_LIMIT or args.grid


def grid_or_hint(
    args: argparse.Namespace, board: Board, grid: Callable[[], str], hint: str = ""
) -> str:
    """The grid's text, or the line that says why it is not printed."""
    if grid_fits(args, board):
        return grid()
    return grid_hint(board, hint)


# --------------------------------------------------------------------- tour


def memory_value(text: str) -> float:
    """A ``--memory``: a positive number of MB."""
    from cpknight.runtime.memory import check_memory_mb

    try:
        return check_memory_mb(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def time_limit_value(text: str) -> float | None:
    """A ``--time-limit``: seconds, or ``none`` for no limit.

    Zero or negative seconds are refused by :class:`SolveOptions` (exit 2),
    with the message the Python front doors give.
    """
    if text.strip().lower() == "none":
        return None
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected seconds or 'none', not {text!r}"
        ) from None


def add_time_limit(
    parser: argparse.ArgumentParser, what: str = "model building included"
) -> None:
    """``--time-limit S``: seconds per solve, :data:`TIME_LIMIT` unless given."""
    parser.add_argument(
        "--time-limit",
        type=time_limit_value,
        default=TIME_LIMIT,
        metavar="S",
        help=f"give up after S seconds, {what}; 'none' for no limit "
        f"(default {TIME_LIMIT:g})",
    )


def add_solve_args(
    parser: argparse.ArgumentParser, *, per: str = "", workers: str = "CP-SAT search"
) -> None:
    """``--time-limit``, ``--workers`` and ``--seed``: how to solve."""
    add_time_limit(parser, f"model building included{per}")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help=f"{workers} workers; 0 uses every core (default 1)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="N", help="random seed (default 0)"
    )


IMPORTED = time.perf_counter()
"""When the command line's modules were loaded: the process's start where the
system does not say (see :func:`cpknight.solving.process_origin`)."""

_FROM_PROCESS_START = [False]


def count_from_process_start() -> None:
    """The command's clock starts when the process started (``main``, argv read).

    The README promises an answer within the limit plus a second, start-up
    included: from now on, the options a handler reads (:func:`solve_options_of`,
    :func:`build_run`) give the next clock started the process's start as its
    origin. ``main(argv)`` called from Python (the tests) leaves clocks as
    the front doors start them.
    """
    _FROM_PROCESS_START[0] = True


def _pin_clock() -> None:
    if not _FROM_PROCESS_START[0]:
        return
    origin = process_origin()
    if origin is None and time.perf_counter() - IMPORTED <= PROCESS_AGE_CAP:
        origin = IMPORTED
    start_next_clock_at(origin)


def share_clock(run: Run) -> None:
    """The next clock started counts from where ``run``'s did.

    A handler that starts a clock of its own before its front door starts the
    solve's (``tour`` checks writing ``--out`` against the command's clock)
    would otherwise leave the solve a fresh limit, start-up not counted.
    """
    if _FROM_PROCESS_START[0] and run.clock.origin is not None:
        start_next_clock_at(run.clock.origin)


def solve_options_of(args: argparse.Namespace) -> SolveOptions:
    """The options of ``--time-limit``, ``--workers``, ``--seed`` (and ``--log``).

    On the command line the clock these options start next counts from the
    process's start (see :func:`count_from_process_start`).
    """
    log = getattr(args, "log", False)
    _pin_clock()
    return SolveOptions(
        time_limit=args.time_limit,
        workers=args.workers,
        seed=args.seed,
        log=log,
        log_callback=_log_line if log else None,
    )


def _log_line(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def add_closed_open(
    parser: argparse.ArgumentParser, *, closed: bool = True, what: str = "tour"
) -> None:
    """``--closed`` / ``--open``: one pair of flags, the same on every command.

    Tours are closed unless ``--open`` (``args.open``); a longest path is a
    path unless ``--closed`` (``closed=False`` gives ``args.closed``), as in
    the published tables. Either flag may be given where it is the default.
    """
    group = parser.add_mutually_exclusive_group()
    if closed:
        group.add_argument(
            "--open",
            dest="open",
            action="store_true",
            help=f"an open {what} (a path); the default is closed (a circuit)",
        )
        group.add_argument(
            "--closed",
            dest="open",
            action="store_false",
            help=f"a closed {what} (a circuit): the default",
        )
    else:
        group.add_argument(
            "--closed",
            dest="closed",
            action="store_true",
            help=f"a closed {what} (a cycle); the default is a path",
        )
        group.add_argument(
            "--open",
            dest="closed",
            action="store_false",
            help=f"an open {what} (a path): the default",
        )


def add_tour_args(parser: argparse.ArgumentParser) -> None:
    """The instance options shared by ``tour``, ``count``, ``compare`` and others."""
    add_board_args(parser)
    add_closed_open(parser)
    parser.add_argument("--start", metavar="CELL", help="the first cell")
    parser.add_argument("--end", metavar="CELL", help="the last cell (open tours)")


def tour_ends(
    args: argparse.Namespace, board: Board
) -> tuple[Cell | None, Cell | None]:
    """The cells given to ``--start`` and ``--end`` (``None`` where not given)."""

    def cell(text: str | None) -> Cell | None:
        return None if text is None else board.parse_cell(text)

    return cell(args.start), cell(args.end)


def ends_text(board: Board, start: Cell | None, end: Cell | None) -> str:
    """`` from a1 to h8``: a tour's fixed ends, for a heading."""
    return "".join(
        f" {word} {board.cell_name(cell)}"
        for word, cell in (("from", start), ("to", end))
        if cell is not None
    )


def new_files(args: argparse.Namespace, *options: str) -> list[str]:
    """The files given to these options (``'svg'``: ``--svg``), checked up front.

    Checking before the work starts means a refused file costs no solving: a
    file that exists (without ``--force``), or one path given to two options.
    ``-`` (standard output) is not a file and is left out of the list.
    """
    if "svg" in options and getattr(args, "png", None):
        options = (*options, "png")
    png = bool(getattr(args, "png", None)) or str(
        getattr(args, "svg", None) or ""
    ).lower().endswith(".png")
    if png and "svg" in options:
        from cpknight.draw.export import require_png

        require_png()  # before any work: the png extra is there
    elif getattr(args, "scale", None) is not None:
        raise InvalidInputError(
            "--scale sizes a PNG picture: give --png FILE (or a --svg FILE "
            "ending in .png)"
        )
    given = [(name, getattr(args, name)) for name in options if getattr(args, name)]
    if "export" in options and args.export:
        if args.export == "-":
            raise InvalidInputError(
                "--export - cannot print: the file's suffix chooses the format; "
                "give a file name"
            )
        check_export_path(args.export, *args.export_kind)
    to_stdout = [name for name, path in given if path == "-"]
    if to_stdout and getattr(args, "json", False):
        raise InvalidInputError(
            f"--json and --{to_stdout[0].replace('_', '-')} - both print to "
            "standard output"
        )
    if to_stdout:
        _Streams.report = sys.stderr  # the file has standard output
    seen: dict[str, str] = {}
    for name, path in given:
        key = path if path == "-" else os.path.realpath(path)
        if key in seen:
            raise InvalidInputError(
                f"--{seen[key].replace('_', '-')} and --{name.replace('_', '-')} "
                f"both write '{path}'; give each its own "
                "file"
            )
        seen[key] = name
    paths = [path for _, path in given if path != "-"]
    for path in paths:
        check_new_file(path, force=args.force)
    return paths


def write_output(path: str, text: str, *, force: bool) -> None:
    """Write ``text`` to the file ``path``, or to standard output when ``-``."""
    if path == "-":
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        write_new_file(path, text, force=force)


def write_files(args: argparse.Namespace, **texts: Callable[[], str]) -> None:
    """Write the text of each option given a file (``svg=...``: ``--svg``).

    ``svg`` goes through :func:`write_picture` (``--png``, a ``.png`` file).
    """
    for option, text in texts.items():
        if option == "svg" and (args.svg or getattr(args, "png", None)):
            write_picture(args, text)
            continue
        path = getattr(args, option)
        if path:
            write_output(path, text(), force=args.force)


class PrintableModel(Protocol):
    """What the formulation commands need of a built model."""

    def formulation(self) -> str: ...

    def export(self, path: str, *, run: Run | None = None) -> object: ...


def add_build_time_limit(parser: argparse.ArgumentParser) -> None:
    """``--time-limit S`` for the formulation commands: building is bounded."""
    add_time_limit(parser, "building the model")


def build_run(args: argparse.Namespace) -> Run:
    """The run whose clock bounds building the model (exit 3 past the limit)."""
    _pin_clock()
    return SolveOptions(time_limit=args.time_limit).start()


def print_or_export(
    args: argparse.Namespace,
    model: PrintableModel,
    note: str = "",
    run: Run | None = None,
) -> int:
    """Print the model's formulation, or write it to the ``--export`` file.

    The export is bounded by ``run``'s time limit (nothing written when it
    comes first).
    """
    text = None if args.export else model.formulation()
    if args.export:
        model.export(args.export, run=run)
    if args.json:
        print_json(
            {"question": args.formulation, "formulation": text, "export": args.export}
        )
    elif args.export:
        out(f"wrote {args.export}{note}")
    else:
        out(text or "")
    return EXIT_OK
