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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from cpknight import __version__
from cpknight.api import (
    components,
    distance_map,
    find_tour,
    knight_distance,
    reachable,
    resolve,
)
from cpknight.board import NAMED_BOARDS, Board, Cell, Topology
from cpknight.errors import (
    CpknightError,
    EngineError,
    InvalidInputError,
    NoPathError,
    NoTourError,
    SolveLimitError,
    TourCheckError,
)
from cpknight.pieces import Leaper
from cpknight.render import GRID_LIMIT, grid_text, table_text
from cpknight.results import Distance, Tour, check_tour
from cpknight.solving import SolveOptions

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


# ------------------------------------------------------------- shared options


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


def _board_and_piece(args: argparse.Namespace) -> tuple[Board, Leaper]:
    topology: Topology = (
        "torus" if args.torus else "cylinder" if args.cylinder else "bounded"
    )
    return resolve(args.board, getattr(args, "piece", "knight"), topology=topology)


def _cell_json(cell: Sequence[int]) -> list[int]:
    return [int(x) for x in cell]


# ------------------------------------------------------------------- boards


def _add_boards(sub: SubParsers) -> None:
    parser = sub.add_parser(
        "boards",
        help="list the named boards with a drawing of each",
        description="List the named boards, or draw one.",
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help="draw only this board")
    parser.set_defaults(run=_run_boards)


def _run_boards(args: argparse.Namespace) -> int:
    names = list(NAMED_BOARDS)
    if args.name:
        board = Board.parse(args.name)
        _out(f"{board.label}: {board.size_label}, {board.n_open} open cells")
        _out(_diagram(board))
        return EXIT_OK
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
    return EXIT_OK


def _diagram(board: Board) -> str:
    mask = board.open_mask

    def label(cell: Cell) -> str:
        return "." if mask[cell] else "#"

    return grid_text(board, label)


# ---------------------------------------------------------------------- map


def _add_map(sub: SubParsers) -> None:
    parser = sub.add_parser(
        "map",
        help="the number of moves from a cell to every cell",
        description="Print the distance map from SOURCE: the number of moves to "
        "every cell (* the source, # blocked, - unreachable).",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_board_args(parser)
    parser.add_argument("source", metavar="SOURCE", help="a cell like a1 or 0,0")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--grid",
        action="store_true",
        help=f"print the grid even on boards of more than {GRID_LIMIT} cells",
    )
    parser.set_defaults(run=_run_map)


def _run_map(args: argparse.Namespace) -> int:
    board, piece = _board_and_piece(args)
    dmap = distance_map(board, args.source, piece=piece)
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
    if board.size > GRID_LIMIT and not args.grid:
        _out(f"(the grid has {board.size} cells; add --grid to print it)")
    else:
        _out(str(dmap))
    return EXIT_OK


# ----------------------------------------------------------------- distance


def _add_distance(sub: SubParsers) -> None:
    parser = sub.add_parser(
        "distance",
        help="the fewest moves from one cell to another, with a shortest path",
        description="The fewest moves from SOURCE to TARGET and one shortest path.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_board_args(parser)
    parser.add_argument("source", metavar="SOURCE", help="a cell like a1 or 0,0")
    parser.add_argument("target", metavar="TARGET", help="a cell like h8 or 7,7")
    parser.add_argument(
        "--method",
        default="bfs",
        metavar="M",
        help="bfs (default), a comma-separated list, or 'all'",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=_run_distance)


def _distance_methods(text: str) -> list[str]:
    from cpknight.api import DISTANCE_METHODS

    if text.strip() == "all":
        return list(DISTANCE_METHODS)
    methods = [m.strip() for m in text.split(",") if m.strip()]
    for method in methods:
        if method not in DISTANCE_METHODS:
            raise InvalidInputError(
                f"expected a distance method in {', '.join(DISTANCE_METHODS)} "
                f"or 'all': {method!r}"
            )
    if not methods:
        raise InvalidInputError(f"expected at least one distance method: {text!r}")
    return methods


def _run_distance(args: argparse.Namespace) -> int:
    board, piece = _board_and_piece(args)
    methods = _distance_methods(args.method)
    source = board.parse_cell(args.source)
    target = board.parse_cell(args.target)
    results: list[Distance] = []
    unreachable: NoPathError | None = None
    for method in methods:
        try:
            results.append(
                knight_distance(board, source, target, piece=piece, method=method)
            )
        except NoPathError as exc:
            unreachable = exc
    if args.json:
        rows = [_distance_json(r) for r in results]
        if unreachable is not None and not results:
            rows = [
                {"method": m, "distance": None, "exact": True, "path": None}
                for m in methods
            ]
        _json(
            {
                "source": _cell_json(source),
                "target": _cell_json(target),
                "results": rows,
            }
        )
        return EXIT_NONE if unreachable is not None and not results else EXIT_OK
    if unreachable is not None and not results:
        _out(str(unreachable))
        return EXIT_NONE
    head = results[0]
    names = f"{board.cell_name(source)} -> {board.cell_name(target)}"
    if len(results) == 1:
        kind = "" if head.exact else " (a lower bound)"
        _out(f"{names} on {board.label}, {piece.label}: {head.distance} moves{kind}")
        if head.path is not None:
            _out("path: " + " ".join(head.names()))
        return EXIT_OK
    _out(f"{names} on {board.label}, {piece.label}:")
    _out(
        table_text(
            ["method", "moves", "kind", "seconds"],
            [
                [r.method, r.distance, "exact" if r.exact else "bound", r.seconds]
                for r in results
            ],
        )
    )
    exact = next((r for r in results if r.exact and r.path), None)
    if exact is not None:
        _out("path: " + " ".join(exact.names()))
    return EXIT_OK


def _distance_json(result: Distance) -> dict[str, Any]:
    row: dict[str, Any] = {
        "method": result.method,
        "distance": result.distance,
        "exact": result.exact,
        "path": None if result.path is None else [_cell_json(c) for c in result.path],
        "seconds": round(result.seconds, 6),
    }
    row.update(result.details)
    return row


# -------------------------------------------------------------------- reach


def _add_reach(sub: SubParsers) -> None:
    parser = sub.add_parser(
        "reach",
        help="which cells a piece can reach from a cell",
        description="Show which cells can be reached from SOURCE (+ reachable, "
        "- unreachable, * the source, # blocked) and the components of the board.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_board_args(parser)
    parser.add_argument("source", metavar="SOURCE", help="a cell like a1 or 0,0")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--grid",
        action="store_true",
        help=f"print the grid even on boards of more than {GRID_LIMIT} cells",
    )
    parser.set_defaults(run=_run_reach)


def _run_reach(args: argparse.Namespace) -> int:
    board, piece = _board_and_piece(args)
    source = board.parse_cell(args.source)
    cells = reachable(board, source, piece=piece)
    parts = components(board, piece=piece)
    if args.json:
        mask = board.open_mask
        _json(
            {
                "board": board.label,
                "piece": list(piece.vector),
                "source": _cell_json(source),
                "reachable": [_cell_json(c) for c in sorted(cells)],
                "unreachable": [
                    _cell_json(c)
                    for c in board.open_cells()
                    if mask[c] and c not in cells
                ],
                "components": [len(p) for p in parts],
            }
        )
        return EXIT_OK
    sizes = ", ".join(str(len(p)) for p in parts[:10])
    more = f", ... ({len(parts)} in all)" if len(parts) > 10 else ""
    _out(
        f"{piece.label} on {board.label} from {board.cell_name(source)}: "
        f"{len(cells)} of {board.n_open} cells reachable; "
        f"{len(parts)} component{'s' if len(parts) != 1 else ''} ({sizes}{more})"
    )
    if board.size > GRID_LIMIT and not args.grid:
        _out(f"(the grid has {board.size} cells; add --grid to print it)")
        return EXIT_OK
    mask = board.open_mask

    def label(cell: Cell) -> str:
        if not mask[cell]:
            return "#"
        if cell == source:
            return "*"
        return "+" if cell in cells else "-"

    _out(grid_text(board, label))
    return EXIT_OK


# -------------------------------------------------------------------- check


def _add_check(sub: SubParsers) -> None:
    parser = sub.add_parser(
        "check",
        help="verify a tour given as a file of cells, one per line",
        description="Verify that FILE (one cell per line, algebraic like a1 or "
        "coordinates like 0,0; blank lines and lines starting with ';' ignored) "
        "is a tour of BOARD. Exit code 0 if it is, 1 if it is not.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_board_args(parser)
    parser.add_argument("file", metavar="FILE", help="the tour, one cell per line")
    parser.add_argument(
        "--closed", action="store_true", help="also require the closing move"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=_run_check)


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


def _run_check(args: argparse.Namespace) -> int:
    board, piece = _board_and_piece(args)
    board.require_finite("a tour")
    cells = read_cells_file(args.file)
    kind = "closed tour" if args.closed else "tour"
    try:
        check_tour(board, cells, piece=piece, closed=args.closed)
    except TourCheckError as exc:
        if args.json:
            _json({"tour": False, "step": exc.step, "reason": str(exc)})
        else:
            _out(f"not a {kind}: {exc}")
        return EXIT_NONE
    if args.json:
        _json({"tour": True, "step": None, "reason": None})
    else:
        _out(f"ok: a {kind} of {len(cells)} cells on {board.label} ({piece.label})")
    return EXIT_OK


# --------------------------------------------------------------------- tour


def _add_solve_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="S",
        help="give up after S seconds, model building included (default: none)",
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
    """The instance options shared by ``tour``, ``compare`` and ``sweep``."""
    _add_board_args(parser)
    parser.add_argument(
        "--open",
        action="store_true",
        help="an open tour (a path); the default is closed (a circuit)",
    )
    parser.add_argument("--start", metavar="CELL", help="the first cell")
    parser.add_argument("--end", metavar="CELL", help="the last cell (open tours)")


def _add_tour(sub: SubParsers) -> None:
    parser = sub.add_parser(
        "tour",
        help="find a tour: every open cell once, closed (default) or open",
        description="Find a tour of BOARD: every open cell exactly once, closed "
        "(the last cell one move from the first) unless --open. Prints the board "
        "with the visit number in each cell, the path, the outcome and the time.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--out", metavar="FILE", help="write the tour, one cell per line"
    )
    parser.add_argument(
        "--force", action="store_true", help="overwrite files given to --out"
    )
    parser.add_argument(
        "--grid",
        action="store_true",
        help=f"print the grid and path even on boards of more than {GRID_LIMIT} cells",
    )
    parser.add_argument(
        "--log", action="store_true", help="stream the solver's search log to stderr"
    )
    parser.set_defaults(run=_run_tour)


def _run_tour(args: argparse.Namespace) -> int:
    board, piece = _board_and_piece(args)
    options = _solve_options(args)
    closed = not args.open
    if args.out:
        _check_new_file(args.out, force=args.force)
    kind = "closed" if closed else "open"
    try:
        tour = find_tour(
            board,
            piece=piece,
            closed=closed,
            start=args.start,
            end=args.end,
            method=args.method,
            options=options,
        )
    except NoTourError as exc:
        if args.json:
            _json(_tour_json(None, closed, args.method, "infeasible", exc.reason))
        else:
            _out(f"no {kind} tour of {board.label} ({piece.label}): {exc.reason}")
        return EXIT_NONE
    except SolveLimitError as exc:
        if args.json:
            _json(_tour_json(None, closed, args.method, "unknown", str(exc)))
        else:
            _out(f"unknown: {exc}")
        return EXIT_LIMIT
    if args.out:
        write_new_file(args.out, tour_file_text(tour), force=args.force)
    if args.json:
        _json(_tour_json(tour, closed, tour.method, "found", None))
        return EXIT_OK
    picked = " (picked by auto)" if args.method == "auto" else ""
    _out(
        f"{kind} tour of {board.label} ({piece.label}), {len(tour)} cells, "
        f"found by {tour.method}{picked} in {tour.seconds:.3f} s"
    )
    if board.size > GRID_LIMIT and not args.grid:
        _out(
            f"(the grid has {board.size} cells; add --grid to print it, "
            "or --out FILE to save the tour)"
        )
    else:
        _out(str(tour))
        _out("path: " + " ".join(tour.names()))
    if args.out:
        _out(f"wrote {args.out}")
    return EXIT_OK


def _tour_json(
    tour: Tour | None, closed: bool, method: str, status: str, reason: str | None
) -> dict[str, Any]:
    return {
        "status": status,
        "closed": closed,
        "method": method,
        "cells": None if tour is None else tour.array.tolist(),
        "seconds": None if tour is None else round(tour.seconds, 6),
        "effort": None if tour is None else tour.effort.as_dict(),
        "reason": reason,
    }


def tour_file_text(tour: Tour) -> str:
    """A tour as ``cpknight check`` reads it: one cell name per line."""
    return "\n".join(tour.names()) + "\n"


def _check_new_file(path: str, *, force: bool) -> None:
    if Path(path).exists() and not force:
        raise InvalidInputError(f"file '{path}' exists; add --force to overwrite it")


def write_new_file(path: str, text: str, *, force: bool) -> None:
    """Write ``text`` to ``path``, refusing to replace a file without ``force``.

    Raises:
        InvalidInputError: the file exists (and ``force`` is false) or cannot be
            written.
    """
    _check_new_file(path, force=force)
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(
            f"cannot write '{path}': {exc.strerror or type(exc).__name__}"
        ) from None


# -------------------------------------------------------------- formulation

FORMULATIONS: list[Callable[[SubParsers], None]] = []
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


# --------------------------------------------------------------------- main

COMMANDS: list[Callable[[SubParsers], None]] = [
    _add_boards,
    _add_map,
    _add_distance,
    _add_reach,
    _add_check,
    _add_tour,
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
