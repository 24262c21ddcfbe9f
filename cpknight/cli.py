"""The command line: argparse subcommands -> the front doors -> text or JSON.

Each subcommand is registered by one ``_add_*`` function (listed in
:data:`COMMANDS`) that builds its parser and names its ``run`` function. All
errors cpknight raises on purpose become one line on standard error and an exit
code; nothing here computes an answer.

Exit codes: 0 answered; 1 proved there is none (no tour, unreachable, not a
tour); 2 bad input; 3 limit reached without an answer; 70 an engine's answer
failed verification (a bug); 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, Protocol

from cpknight import __version__
from cpknight.api import (
    distance_map,
    reach_split,
    resolve,
    try_tour,
)
from cpknight.board import NAMED_BOARDS, Board, Cell, Topology
from cpknight.checks import check_tour
from cpknight.errors import (
    CpknightError,
    EngineError,
    InvalidInputError,
    NoPathError,
    NoTourError,
    SolveLimitError,
    TourCheckError,
)
from cpknight.io import (
    check_new_file,
    read_tour_file,
    write_new_file,
    write_tour_file,
)
from cpknight.pieces import Leaper
from cpknight.render import (
    GRID_LIMIT,
    comparison_text,
    counts_text,
    distance_table_text,
    effort_text,
    grid_text,
    outcome_line,
    sweep_text,
)
from cpknight.results import Outcome, TourCount
from cpknight.solving import SolveOptions
from cpknight.status import Effort, Status

__all__ = ["COMMANDS", "EXIT_BAD_INPUT", "EXIT_LIMIT", "EXIT_NONE", "EXIT_OK", "main"]

EXIT_OK = 0
EXIT_NONE = 1
EXIT_BAD_INPUT = 2
EXIT_LIMIT = 3
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130

EXIT_CODES = """\
exit codes:
  0  answered
  1  proved there is none (no tour, target unreachable, not a tour)
  2  bad input (board, cell, piece, option or file)
  3  limit reached without an answer
  70 internal error (an answer failed verification: a bug, please report)
"""

Run = Callable[[argparse.Namespace], int]
SubParsers = Any  # argparse's _SubParsersAction is private


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def _out(text: str = "") -> None:
    print(text)


def _json(obj: Any) -> None:
    print(json.dumps(obj))


def _outcome(args: argparse.Namespace, code: int, data: Any, text: str) -> int:
    """Print ``data`` as JSON with ``--json``, else ``text``; return ``code``."""
    if args.json:
        _json(data)
    else:
        _out(text)
    return code


# ------------------------------------------------------------- shared options


def _command(
    sub: SubParsers,
    name: str,
    run: Run,
    *,
    help: str,
    description: str,
    epilog: str | None = EXIT_CODES,
) -> argparse.ArgumentParser:
    """Add the parser of one subcommand that runs ``run``, exit codes underneath."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name,
        help=help,
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(run=run)
    return parser


def _add_board_args(parser: argparse.ArgumentParser, *, piece: bool = True) -> None:
    parser.add_argument(
        "board",
        metavar="BOARD",
        help="a size like 8x8 or 4x4x4, a named board (see 'cpknight boards'), "
        "'plane', or a file of '.' and '#' (top rank first)",
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


def _add_cell_args(parser: argparse.ArgumentParser, *, target: bool = False) -> None:
    parser.add_argument("source", metavar="SOURCE", help="a cell like a1 or 0,0")
    if target:
        parser.add_argument("target", metavar="TARGET", help="a cell like h8 or 7,7")


def _add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")


def _add_grid(parser: argparse.ArgumentParser, what: str = "the grid") -> None:
    parser.add_argument(
        "--grid",
        action="store_true",
        help=f"print {what} even on boards of more than {GRID_LIMIT} cells",
    )


def _add_force(parser: argparse.ArgumentParser, files: str) -> None:
    parser.add_argument("--force", action="store_true", help=f"overwrite {files}")


def _add_export(parser: argparse.ArgumentParser, kind: str) -> None:
    """``--export FILE`` and its ``--force``, for the formulation commands."""
    parser.add_argument("--export", metavar="FILE", help=f"write the model as {kind}")
    _add_force(parser, "the file given to --export")


def _add_progress(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress",
        action="store_true",
        help="show progress on stderr (default: only when stderr is a terminal)",
    )


def _progress_bar(args: argparse.Namespace, line: str, total: int | None = None) -> Any:
    """A tqdm progress line on stderr, or None when progress is not shown.

    Progress is shown when stderr is a terminal, or with ``--progress``; only
    then is tqdm imported.
    """
    if not (args.progress or sys.stderr.isatty()):
        return None
    from tqdm import tqdm

    return tqdm(total=total, bar_format=line, file=sys.stderr)


def _board_and_piece(args: argparse.Namespace) -> tuple[Board, Leaper]:
    topology: Topology = (
        "torus" if args.torus else "cylinder" if args.cylinder else "bounded"
    )
    return resolve(args.board, getattr(args, "piece", "knight"), topology=topology)


def _cell_json(cell: Sequence[int]) -> list[int]:
    return [int(x) for x in cell]


# ------------------------------------------------------------------- boards


def _add_boards(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "boards",
        _run_boards,
        help="list the named boards with a drawing of each",
        description="List the named boards, or draw one.",
        epilog=None,
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help="draw only this board")
    parser.add_argument(
        "--svg", metavar="FILE", help="also draw the board (or every board) as SVG"
    )
    _add_force(parser, "the file given to --svg")


def _run_boards(args: argparse.Namespace) -> int:
    outputs = _new_files(args, "svg")
    if args.name:
        board = Board.parse(args.name)
        _out(f"{board.label}: {board.size_label}, {board.n_open} open cells")
        _out(_diagram(board))
        if args.svg:
            from cpknight.draw import board_svg

            write_new_file(args.svg, board_svg(board), force=args.force)
        _wrote(outputs)
        return EXIT_OK
    names = list(NAMED_BOARDS)
    for i, name in enumerate(names):
        named = NAMED_BOARDS[name]
        board = named.build()
        if i:
            _out()
        _out(
            f"{name}: {named.description} "
            f"({board.size_label}, {board.n_open} open cells)"
        )
        _out(_diagram(board))
    if args.svg:
        from cpknight.draw import boards_svg

        boards = [NAMED_BOARDS[name].build() for name in names]
        write_new_file(args.svg, boards_svg(boards), force=args.force)
    _wrote(outputs)
    return EXIT_OK


def _diagram(board: Board) -> str:
    mask = board.open_mask

    def label(cell: Cell) -> str:
        return "." if mask[cell] else "#"

    return grid_text(board, label)


# ---------------------------------------------------------------------- map


def _add_map(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "map",
        _run_map,
        help="the number of moves from a cell to every cell",
        description="Print the distance map from SOURCE: the number of moves to "
        "every cell (* the source, # blocked, - unreachable).",
    )
    _add_board_args(parser)
    _add_cell_args(parser)
    _add_json(parser)
    _add_grid(parser)
    parser.add_argument("--svg", metavar="FILE", help="draw the map as an SVG heat map")
    _add_force(parser, "the file given to --svg")


def _run_map(args: argparse.Namespace) -> int:
    board, piece = _board_and_piece(args)
    outputs = _new_files(args, "svg")
    dmap = distance_map(board, args.source, piece=piece)
    if args.svg:
        from cpknight.draw import distance_map_svg

        write_new_file(args.svg, distance_map_svg(dmap), force=args.force)
    if args.json:
        _json(
            {
                "board": board.label,
                "piece": list(piece.vector),
                "source": _cell_json(dmap.source),
                "distances": dmap.to_lists(),
            }
        )
        return EXIT_OK
    unreachable = board.n_open - dmap.n_reachable
    _out(
        f"{piece.label} on {board.label} from {board.cell_name(dmap.source)}: "
        f"{dmap.n_reachable} of {board.n_open} cells reachable, "
        f"at most {dmap.max_distance} moves"
        + (f", {unreachable} unreachable (-)" if unreachable else "")
    )
    if _grid_fits(args, board):
        _out(str(dmap))
    _wrote(outputs)
    return EXIT_OK


def _grid_fits(args: argparse.Namespace, board: Board, hint: str = "") -> bool:
    """Whether to print the grid; if not, say why (boards over the grid limit)."""
    if board.size <= GRID_LIMIT or args.grid:
        return True
    _out(f"(the grid has {board.size} cells; add --grid to print it{hint})")
    return False


# ----------------------------------------------------------------- distance


def _add_distance(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "distance",
        _run_distance,
        help="the fewest moves from one cell to another, with a shortest path",
        description="The fewest moves from SOURCE to TARGET and one shortest path.",
    )
    _add_board_args(parser)
    _add_cell_args(parser, target=True)
    parser.add_argument(
        "--method",
        default="bfs",
        metavar="M",
        help="bfs (default), a comma-separated list, or 'all'",
    )
    _add_solve_args(parser)
    _add_json(parser)


def _run_distance(args: argparse.Namespace) -> int:
    from cpknight.api import compare_distances

    board, piece = _board_and_piece(args)
    source = board.parse_cell(args.source)
    target = board.parse_cell(args.target)
    comparison = compare_distances(
        board,
        source,
        target,
        piece=piece,
        methods=args.method,
        options=_solve_options(args),
    )
    statuses = set(comparison.statuses())
    single = comparison.rows[0] if len(comparison.rows) == 1 else None
    if single is not None and single.status is Status.REFUSED:
        raise InvalidInputError(single.reason or "refused")
    if single is not None and single.status is Status.UNKNOWN:
        raise SolveLimitError(single.reason or "the time limit was reached")
    if not statuses & {"found", "infeasible"}:
        raise SolveLimitError(
            "no method answered: "
            + "; ".join(f"{o.method}: {o.reason}" for o in comparison.rows)
        )
    code = EXIT_OK if "found" in statuses else EXIT_NONE
    if args.json:
        _json(comparison.as_dict())
        return code
    if code == EXIT_NONE:
        _out(next(o.reason or "" for o in comparison.rows if o.reason))
        return code
    names = f"{board.cell_name(source)} -> {board.cell_name(target)}"
    heading = f"{names} on {board.label}, {piece.label}"
    if single is None:
        _out(distance_table_text(comparison, heading))
        return code
    d = single.value
    kind = "" if d.exact else " (a lower bound)"
    _out(f"{heading}: {d.distance} moves{kind}")
    if "bound" in d.details:
        _out(f"move counts: {counts_text(d.details)}")
    if d.path is not None:
        _out("path: " + " ".join(d.names()))
    return code


def _add_reach(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "reach",
        _run_reach,
        help="which cells a piece can reach from a cell",
        description="Show which cells can be reached from SOURCE (+ reachable, "
        "- unreachable, * the source, # blocked) and the components of the board.",
    )
    _add_board_args(parser)
    _add_cell_args(parser)
    _add_json(parser)
    _add_grid(parser)


def _run_reach(args: argparse.Namespace) -> int:
    board, piece = _board_and_piece(args)
    source = board.parse_cell(args.source)
    cells, others, sizes = reach_split(board, source, piece=piece)
    if args.json:
        _json(
            {
                "board": board.label,
                "piece": list(piece.vector),
                "source": _cell_json(source),
                "reachable": cells,
                "unreachable": others,
                "components": sizes,
            }
        )
        return EXIT_OK
    shown = ", ".join(str(size) for size in sizes[:10])
    more = f", ... ({len(sizes)} in all)" if len(sizes) > 10 else ""
    _out(
        f"{piece.label} on {board.label} from {board.cell_name(source)}: "
        f"{len(cells)} of {board.n_open} cells reachable; "
        f"{len(sizes)} component{'s' if len(sizes) != 1 else ''} ({shown}{more})"
    )
    if not _grid_fits(args, board):
        return EXIT_OK
    mask = board.open_mask
    reached = set(cells)

    def label(cell: Cell) -> str:
        if not mask[cell]:
            return "#"
        if cell == source:
            return "*"
        return "+" if cell in reached else "-"

    _out(grid_text(board, label))
    return EXIT_OK


# -------------------------------------------------------------------- check


def _add_check(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "check",
        _run_check,
        help="verify a tour given as a file of cells, one per line",
        description="Verify that FILE (one cell per line, algebraic like a1 or "
        "coordinates like 0,0; blank lines and lines starting with ';' ignored) "
        "is a tour of BOARD. Exit code 0 if it is, 1 if it is not.",
    )
    _add_board_args(parser)
    parser.add_argument(
        "file", metavar="FILE", help="the tour: one cell per line, or a .npy array"
    )
    parser.add_argument(
        "--closed", action="store_true", help="also require the closing move"
    )
    _add_json(parser)


def _run_check(args: argparse.Namespace) -> int:
    board, piece = _board_and_piece(args)
    board.require_finite("a tour")
    cells = read_tour_file(args.file, board)
    kind = "closed tour" if args.closed else "tour"
    try:
        check_tour(board, cells, piece=piece, closed=args.closed)
    except TourCheckError as exc:
        return _outcome(
            args,
            EXIT_NONE,
            {"tour": False, "step": exc.step, "reason": str(exc)},
            f"not a {kind}: {exc}",
        )
    return _outcome(
        args,
        EXIT_OK,
        {"tour": True, "step": None, "reason": None},
        f"ok: a {kind} of {len(cells)} cells on {board.label} ({piece.label})",
    )


# --------------------------------------------------------------------- tour


def _add_solve_args(
    parser: argparse.ArgumentParser, *, time_limit: float | None = None
) -> None:
    parser.add_argument(
        "--time-limit",
        type=float,
        default=time_limit,
        metavar="S",
        help="give up after S seconds, model building included (default: "
        + ("none)" if time_limit is None else f"{time_limit:g})"),
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="CP-SAT search workers; 0 uses every core (default 1)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="N", help="random seed (default 0)"
    )


def _solve_options(args: argparse.Namespace) -> SolveOptions:
    log = getattr(args, "log", False)
    return SolveOptions(
        time_limit=args.time_limit,
        workers=args.workers,
        seed=args.seed,
        log=log,
        log_callback=_log_line if log else None,
    )


def _log_line(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _add_tour_args(parser: argparse.ArgumentParser) -> None:
    """The instance options shared by ``tour``, ``count``, ``compare`` and others."""
    _add_board_args(parser)
    parser.add_argument(
        "--open",
        action="store_true",
        help="an open tour (a path); the default is closed (a circuit)",
    )
    parser.add_argument("--start", metavar="CELL", help="the first cell")
    parser.add_argument("--end", metavar="CELL", help="the last cell (open tours)")


def _tour_ends(
    args: argparse.Namespace, board: Board
) -> tuple[Cell | None, Cell | None]:
    """The cells given to ``--start`` and ``--end`` (``None`` where not given)."""

    def cell(text: str | None) -> Cell | None:
        return None if text is None else board.parse_cell(text)

    return cell(args.start), cell(args.end)


def _ends_text(board: Board, start: Cell | None, end: Cell | None) -> str:
    """`` from a1 to h8``: a tour's fixed ends, for a heading."""
    return "".join(
        f" {word} {board.cell_name(cell)}"
        for word, cell in (("from", start), ("to", end))
        if cell is not None
    )


def _add_tour(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "tour",
        _run_tour,
        help="find a tour: every open cell once, closed (default) or open",
        description="Find a tour of BOARD: every open cell exactly once, closed "
        "(the last cell one move from the first) unless --open. Prints the board "
        "with the visit number in each cell, the path, the outcome and the time.",
    )
    _add_tour_args(parser)
    parser.add_argument(
        "--method",
        default="auto",
        metavar="M",
        help="the engine (see 'cpknight compare --help'); default auto, which "
        "picks one for the instance and says which",
    )
    _add_solve_args(parser)
    _add_json(parser)
    parser.add_argument(
        "--out",
        metavar="FILE",
        help="write the tour, one cell per line (FILE.npy: a numpy (n, d) array)",
    )
    parser.add_argument(
        "--svg", metavar="FILE", help="draw the tour as SVG (path, numbers, ends)"
    )
    parser.add_argument(
        "--animate",
        metavar="FILE",
        help="write an animated SVG of the knight walking the tour (no script)",
    )
    parser.add_argument(
        "--html",
        metavar="FILE",
        help="write a one-file HTML page with play, pause and step buttons",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=4.0,
        metavar="N",
        help="moves per second for --animate and --html (default 4)",
    )
    _add_force(parser, "files given to --out, --svg, --animate, --html")
    _add_grid(parser, "the grid and path")
    parser.add_argument(
        "--log", action="store_true", help="stream the solver's search log to stderr"
    )


def _run_tour(args: argparse.Namespace) -> int:
    board, piece = _board_and_piece(args)
    options = _solve_options(args)
    closed = not args.open
    outputs = _new_files(args, "out", "svg", "animate", "html")
    if args.animate or args.html:
        from cpknight.draw import check_animation

        check_animation(board.n_open, args.speed)
    kind = "closed" if closed else "open"
    outcome = try_tour(
        board,
        piece=piece,
        closed=closed,
        start=args.start,
        end=args.end,
        method=args.method,
        options=options,
    )
    tour = outcome.tour
    if tour is None:
        code = EXIT_NONE if outcome.status is Status.INFEASIBLE else EXIT_LIMIT
        text = outcome_line(outcome)
        if code == EXIT_NONE:
            text = f"no {kind} tour of {board.label} ({piece.label}): {outcome.reason}"
        return _outcome(args, code, outcome.as_dict(), text)
    if args.out:
        write_tour_file(args.out, tour, force=args.force)
    if args.svg or args.animate or args.html:
        from cpknight.draw import tour_animation_svg, tour_html, tour_svg

        _write_files(
            args,
            svg=lambda: tour_svg(tour),
            animate=lambda: tour_animation_svg(tour, speed=args.speed),
            html=lambda: tour_html(tour, speed=args.speed),
        )
    if args.json:
        _json(outcome.as_dict())
        return EXIT_OK
    picked = " (picked by auto)" if args.method == "auto" else ""
    _out(
        f"{kind} tour of {board.label} ({piece.label}), {len(tour)} cells, "
        f"found by {tour.method}{picked} in {tour.seconds:.3f} s"
    )
    if _grid_fits(args, board, ", or --out FILE to save the tour"):
        _out(str(tour))
        _out("path: " + " ".join(tour.names()))
    _wrote(outputs)
    return EXIT_OK


def _new_files(args: argparse.Namespace, *options: str) -> list[str]:
    """The files given to these options (``'svg'``: ``--svg``), checked up front.

    Checking before the work starts means a refused file costs no solving.
    """
    paths = [path for path in (getattr(args, name) for name in options) if path]
    for path in paths:
        check_new_file(path, force=args.force)
    return paths


def _write_files(args: argparse.Namespace, **texts: Callable[[], str]) -> None:
    """Write the text of each option given a file (``svg=...``: ``--svg``)."""
    for option, text in texts.items():
        path = getattr(args, option)
        if path:
            write_new_file(path, text(), force=args.force)


def _wrote(paths: Sequence[str]) -> None:
    for path in paths:
        _out(f"wrote {path}")


# -------------------------------------------------------------------- count


def _add_count(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "count",
        _run_count,
        help="count the tours of a board (CP-SAT enumeration)",
        description="Count the tours of BOARD, closed (default) or open, in both "
        "conventions: directed (each tour in its two directions) and undirected. "
        "A count stopped by --time-limit or Ctrl-C is reported as partial.",
    )
    _add_tour_args(parser)
    _add_solve_args(parser)
    _add_json(parser)
    _add_progress(parser)


def _run_count(args: argparse.Namespace) -> int:
    from cpknight.api import count_tours

    board, piece = _board_and_piece(args)
    closed = not args.open
    bar = _progress_bar(args, "counting: {n} directed tours so far ({elapsed})")

    def progress(partial: TourCount) -> None:
        bar.update(partial.directed - bar.n)

    try:
        result = count_tours(
            board,
            piece=piece,
            closed=closed,
            start=args.start,
            end=args.end,
            options=_solve_options(args),
            progress=None if bar is None else progress,
        )
        if bar is not None:
            progress(result)
    finally:
        if bar is not None:
            bar.close()
    code = EXIT_OK
    if result.interrupted:
        code = EXIT_INTERRUPTED
    elif result.status is not Status.FOUND:
        code = EXIT_LIMIT
    kind = "closed" if closed else "open"
    where = _ends_text(board, *_tour_ends(args, board))
    least = "" if result.status is Status.FOUND else "at least "
    why = {EXIT_OK: "complete", EXIT_LIMIT: "partial: time limit reached"}.get(
        code, "partial: interrupted"
    )
    return _outcome(
        args,
        code,
        Outcome(
            "count",
            "cpsat",
            result.status,
            result.seconds,
            Effort(solutions=result.undirected),
            value=result,
            reason=None if code == EXIT_OK else why,
        ).as_dict(),
        f"{kind} tours of {board.label} ({piece.label}){where}: "
        f"{least}{result.directed} directed, {least}{result.undirected} undirected "
        f"({why}, {result.seconds:.3f} s)",
    )


# ------------------------------------------------------- formulation: tours


def _add_formulation_tour(kinds: SubParsers) -> None:
    parser = _command(
        kinds,
        "tour",
        _run_formulation_tour,
        help="the CP-SAT circuit model of a tour",
        description="Print the CP-SAT circuit model of a tour of BOARD with its "
        "own numbers and variable names, or export it as a text proto.",
    )
    _add_tour_args(parser)
    _add_export(parser, "a CP-SAT text proto")


def _run_formulation_tour(args: argparse.Namespace) -> int:
    from cpknight.pieces import move_graph
    from cpknight.tours.cpsat import build_tour_model

    board, piece = _board_and_piece(args)
    board.require_finite("a tour")
    _new_files(args, "export")
    start, end = _tour_ends(args, board)
    model = build_tour_model(
        move_graph(board, piece), closed=not args.open, start=start, end=end
    )
    return _print_or_export(args, model, f" ({model.n_arcs} Booleans, one circuit)")


class _Model(Protocol):
    """What the formulation commands need of a built model."""

    def formulation(self) -> str: ...

    def export(self, path: str) -> object: ...


def _print_or_export(args: argparse.Namespace, model: _Model, note: str = "") -> int:
    """Print the model's formulation, or write it to the ``--export`` file."""
    if args.export:
        model.export(args.export)
        _out(f"wrote {args.export}{note}")
    else:
        _out(model.formulation())
    return EXIT_OK


def _add_formulation_distance(kinds: SubParsers) -> None:
    parser = _command(
        kinds,
        "distance",
        _run_formulation_distance,
        help="the integer program of a distance (move counts or arc flow)",
        description="Print the integer program of the distance from SOURCE to "
        "TARGET with the instance's own numbers and variable names (ip: move "
        "counts, n[+1,+2] ...; flow: one unit of flow over the move arcs), or "
        "export it as LP or MPS (--export FILE.lp|FILE.mps).",
    )
    _add_board_args(parser)
    _add_cell_args(parser, target=True)
    parser.add_argument(
        "--method",
        default="ip",
        choices=["ip", "flow"],
        help="ip (move counts, default) or flow (arc flow)",
    )
    _add_export(parser, "FILE.lp or FILE.mps")


def _run_formulation_distance(args: argparse.Namespace) -> int:
    from cpknight.distances.flow import build_flow_model
    from cpknight.distances.moves import build_move_count_model

    board, piece = _board_and_piece(args)
    if args.export and Path(args.export).suffix.lower() not in (".lp", ".mps"):
        raise InvalidInputError(
            f"expected an export file ending in .lp or .mps: '{args.export}'"
        )
    _new_files(args, "export")
    model: _Model
    if args.method == "flow":
        model = build_flow_model(board, args.source, args.target, piece=piece)
    else:
        model = build_move_count_model(board, args.source, args.target, piece=piece)
    return _print_or_export(args, model)


# ------------------------------------------------------------------ collect


def _add_collect_args(parser: argparse.ArgumentParser) -> None:
    """The instance options shared by ``collect`` and ``formulation collect``."""
    _add_board_args(parser)
    parser.add_argument("start", metavar="START", help="the first cell, like a1")
    parser.add_argument(
        "food", metavar="FOOD", nargs="+", help="the cells to visit, like h8 a8"
    )
    parser.add_argument(
        "--end", metavar="CELL", help="the last cell (the start: a closed route)"
    )
    parser.add_argument(
        "--simple",
        action="store_true",
        help="never use a cell twice (default: a walk, cells may repeat)",
    )


def _add_collect(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "collect",
        _run_collect,
        help="the shortest route from a cell through required cells (the food)",
        description="The snake's meal: the fewest moves from START that visit\n"
        "every FOOD cell (and end on --end). Prints the route, its length and\n"
        "whether it is proved optimal; on the grid, the move at which each cell\n"
        "is first reached (0 the start, * food).",
        epilog=EXIT_CODES.replace(
            "0  answered", "0  answered (a proved-optimal or best-found route)"
        ),
    )
    _add_collect_args(parser)
    parser.add_argument(
        "--method",
        default="cpsat",
        choices=["cpsat", "search", "greedy"],
        help="cpsat (circuit model, default), search (Held-Karp for walks, "
        "IDA* for simple routes) or greedy (nearest food next)",
    )
    _add_solve_args(parser)
    _add_json(parser)
    _add_grid(parser)
    parser.add_argument("--svg", metavar="FILE", help="draw the route as SVG")
    parser.add_argument(
        "--animate", metavar="FILE", help="write an animated SVG of the route"
    )
    _add_force(parser, "files given to --svg/--animate")


def _run_collect(args: argparse.Namespace) -> int:
    from cpknight.api import collect

    board, piece = _board_and_piece(args)
    options = _solve_options(args)
    outputs = _new_files(args, "svg", "animate")
    began = time.perf_counter()
    try:
        route = collect(
            board,
            args.start,
            args.food,
            end=args.end,
            piece=piece,
            simple=args.simple,
            method=args.method,
            options=options,
        )
    except (NoPathError, SolveLimitError) as exc:
        outcome = Outcome(
            "route",
            exc.method or args.method,
            exc.status,
            time.perf_counter() - began,
            exc.effort,
            bound=exc.bound,
            reason=str(exc),
        )
        code = EXIT_NONE if exc.status is Status.INFEASIBLE else EXIT_LIMIT
        return _outcome(args, code, outcome.as_dict(), outcome_line(outcome))
    if args.svg or args.animate:
        from cpknight.draw import route_animation_svg, route_svg

        _write_files(
            args,
            svg=lambda: route_svg(route),
            animate=lambda: route_animation_svg(route),
        )
    if args.json:
        row = Outcome(
            "route",
            route.method,
            route.status,
            route.seconds,
            route.effort,
            value=route,
            bound=route.bound,
        )
        _json(row.as_dict())
        return EXIT_OK
    kind = "simple route" if route.simple else "route"
    if route.optimal:
        verdict = f"{route.moves} moves, proved optimal"
    else:
        verdict = f"{route.moves} moves, not proved optimal (at least {route.bound})"
    _out(
        f"{kind} on {board.label} ({piece.label}) from "
        f"{board.cell_name(route.start)} through {len(route.food)} food: "
        f"{verdict}; by {route.method} in {route.seconds:.3f} s"
    )
    if _grid_fits(args, board):
        _out(str(route))
    _out("route: " + " ".join(route.names()))
    _wrote(outputs)
    return EXIT_OK


def _add_formulation_collect(kinds: SubParsers) -> None:
    parser = _command(
        kinds,
        "collect",
        _run_formulation_collect,
        help="the CP-SAT circuit model of a shortest route through the food",
        description="Print the CP-SAT model of the snake's meal (walk: a circuit "
        "over the start and the food weighted by BFS distances; --simple: a "
        "circuit over every cell with self-loops for cells left out) with the "
        "instance's own numbers, or export it as a text proto.",
    )
    _add_collect_args(parser)
    _add_export(parser, "a CP-SAT text proto")


def _run_formulation_collect(args: argparse.Namespace) -> int:
    from cpknight.routes.cpsat import build_collect_model

    board, piece = _board_and_piece(args)
    _new_files(args, "export")
    model = build_collect_model(
        board, args.start, args.food, end=args.end, piece=piece, simple=args.simple
    )
    return _print_or_export(args, model, f" ({len(model.arcs)} Booleans, one circuit)")


# -------------------------------------------------------------- formulation

FORMULATIONS: list[Callable[[SubParsers], None]] = [
    _add_formulation_tour,
    _add_formulation_distance,
    _add_formulation_collect,
]
"""Registrations of ``cpknight formulation KIND`` (``tour``, ``distance``, ...)."""


def _add_formulation(sub: SubParsers) -> None:
    parser = sub.add_parser(
        "formulation",
        help="print or export a model with this instance's numbers",
        description="Print a model's formulation with the instance's own numbers, "
        "or export it (--export FILE).",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    kinds = parser.add_subparsers(
        dest="kind", metavar="KIND", required=True, parser_class=_Parser
    )
    for register in FORMULATIONS:
        register(kinds)


# ------------------------------------------------------------ compare, sweep


def _add_compare(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "compare",
        _run_compare,
        help="run every tour engine on the same instance, side by side",
        description="Run each tour engine on the same instance with the same time\n"
        "limit and print one table: outcome (found, proved none, unknown),\n"
        "seconds, effort (search: attempts and backtracks; CP-SAT: branches\n"
        "and conflicts) and whether the tour passed the checker.\n\n"
        "engines:\n"
        "  cpsat       CP-SAT circuit model\n"
        "  backtrack   depth-first search, fixed move order\n"
        "  warnsdorff  the same, fewest onward moves first\n"
        "  prune       warnsdorff with critical-cell cuts and restarts\n"
        "  greedy      warnsdorff without backtracking (failing proves nothing)\n"
        "  tiles       huge plain boards from CP-SAT-built tiles",
    )
    _add_tour_args(parser)
    parser.add_argument(
        "--methods",
        default="all",
        metavar="LIST",
        help="comma-separated engines, or 'all' (default)",
    )
    _add_solve_args(parser, time_limit=10.0)
    _add_json(parser)


def _run_compare(args: argparse.Namespace) -> int:
    from cpknight.api import compare_tours

    board, piece = _board_and_piece(args)
    options = _solve_options(args)
    closed = not args.open
    start, end = _tour_ends(args, board)
    comparison = compare_tours(
        board,
        piece=piece,
        closed=closed,
        start=start,
        end=end,
        methods=args.methods,
        options=options,
    )
    if len(comparison.rows) == 1 and comparison.rows[0].status is Status.REFUSED:
        raise InvalidInputError(comparison.rows[0].reason or "refused")
    statuses = set(comparison.statuses())
    code = EXIT_OK if "found" in statuses else EXIT_NONE
    if not statuses & {"found", "infeasible"}:
        code = EXIT_LIMIT
    if args.json:
        _json(comparison.as_dict())
        return code
    limit = "no limit"
    if options.time_limit is not None:
        limit = f"a limit of {options.time_limit:g} s each"
    kind = "closed" if closed else "open"
    where = _ends_text(board, start, end)
    heading = f"{kind} tour of {board.label} ({piece.label}){where}, {limit}"
    _out(comparison_text(comparison, heading))
    return code


def _add_sweep(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "sweep",
        _run_sweep,
        help="for every start cell: does a tour from it exist?",
        description="Ask for a tour from every open cell of BOARD in turn (open\n"
        "tours unless --closed) and draw the answers as a grid: o a tour\n"
        "starts here, x proved none, ? limit reached (--time-limit is per\n"
        "cell). --json adds the time, effort and reason of every cell.",
    )
    _add_board_args(parser)
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument(
        "--open", action="store_true", help="open tours (paths), the default"
    )
    kind.add_argument("--closed", action="store_true", help="closed tours")
    parser.add_argument(
        "--method",
        default="auto",
        metavar="M",
        help="the engine (see 'cpknight compare --help'); default auto",
    )
    _add_solve_args(parser, time_limit=10.0)
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="worker processes, one cell each at a time (default 1)",
    )
    _add_progress(parser)
    _add_json(parser)
    parser.add_argument(
        "--svg", metavar="FILE", help="draw the sweep as SVG (status, effort)"
    )
    _add_force(parser, "the file given to --svg")


def _run_sweep(args: argparse.Namespace) -> int:
    from cpknight.api import sweep

    board, piece = _board_and_piece(args)
    options = _solve_options(args)
    outputs = _new_files(args, "svg")
    bar = _progress_bar(
        args, "swept {n} of {total} cells |{bar}| {elapsed}<{remaining}", board.n_open
    )

    def progress(done: int, total: int) -> None:
        bar.update(done - bar.n)

    try:
        result = sweep(
            board,
            piece=piece,
            closed=args.closed,
            method=args.method,
            options=options,
            jobs=args.jobs,
            progress=None if bar is None else progress,
        )
    finally:
        if bar is not None:
            bar.close()
    counts = result.counts()
    if args.svg:
        from cpknight.draw import sweep_svg

        write_new_file(args.svg, sweep_svg(result), force=args.force)
    if args.json:
        _json(result.as_dict())
    else:
        kind = "closed" if result.closed else "open"
        limit = ""
        if options.time_limit is not None:
            limit = f", limit {options.time_limit:g} s per cell"
        _out(
            f"{kind} tours of {board.label} ({piece.label}) from each start cell, "
            f"by {result.method}{limit}:"
        )
        if board.size > GRID_LIMIT:
            _out(f"(the grid has {board.size} cells; use --json for every cell)")
            _out(", ".join(f"{k}: {v}" for k, v in counts.items()))
        else:
            _out(sweep_text(result))
        proved = [c for c in result.cells if c.status == "infeasible"]
        if proved:
            more = len(proved) - 1
            others = f" (and {more} more cells; --json gives each reason)"
            _out(
                f"why not {board.cell_name(proved[0].cell)}: {proved[0].reason}"
                + (others if more else "")
            )
        total = sum(c.seconds for c in result.cells)
        slow = max(result.cells, key=lambda c: c.seconds, default=None)
        if slow is not None:
            _out(
                f"{total:.3f} s in all; slowest {board.cell_name(slow.cell)} "
                f"({slow.seconds:.3f} s, {effort_text(slow.effort.as_dict())})"
            )
        _wrote(outputs)
    return EXIT_LIMIT if counts.get("unknown") else EXIT_OK


# --------------------------------------------------------------------- main

COMMANDS: list[Callable[[SubParsers], None]] = [
    _add_boards,
    _add_map,
    _add_distance,
    _add_reach,
    _add_check,
    _add_tour,
    _add_count,
    _add_compare,
    _add_sweep,
    _add_collect,
    _add_formulation,
]
"""Every subcommand's registration, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The ``cpknight`` argument parser with every subcommand."""
    parser = _Parser(
        prog="cpknight",
        description="Knight tours, distances and reachability on any board, "
        "solved declaratively (CP-SAT, integer programs) and by search.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"cpknight {__version__}"
    )
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=_Parser
    )
    for register in COMMANDS:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Run = args.run
    try:
        return run(args)
    except EngineError as exc:
        # An engine's answer failed verification: our bug, said plainly.
        print(f"cpknight: {exc} (please report this)", file=sys.stderr)
        return EXIT_INTERNAL
    except (NoTourError, NoPathError) as exc:
        print(f"cpknight: {exc}", file=sys.stderr)
        return EXIT_NONE
    except SolveLimitError as exc:
        print(f"cpknight: {exc}", file=sys.stderr)
        return EXIT_LIMIT
    except CpknightError as exc:
        print(f"cpknight: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("cpknight: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. '| head'); nothing more to say.
        sys.stderr.close()
        return EXIT_OK


def main_exit() -> None:
    """The console script: run :func:`main` and exit with its code."""
    sys.exit(main())
