"""Subcommands about distances: map, distance, reach."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from cpknight.api import distance_map, reach_split
from cpknight.board import Board
from cpknight.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_NONE,
    EXIT_OK,
    SubParsers,
    add_board_args,
    add_cell_args,
    add_command,
    add_drawing,
    add_force,
    add_grid,
    add_json,
    add_method,
    add_pictures,
    add_progress,
    add_solve_args,
    add_time_limit,
    animation_of,
    board_and_piece,
    cell_json,
    drawing_of,
    grid_fits,
    grid_or_hint,
    new_files,
    out,
    print_json,
    show_progress,
    solve_options_of,
    write_files,
    write_picture,
)
from cpknight.errors import InvalidInputError, SolveLimitError
from cpknight.pieces import Leaper
from cpknight.status import Status
from cpknight.text.render import distance_table_text
from cpknight.text.reports import distance_report, map_report, reach_report

if TYPE_CHECKING:
    from cpknight.results import Comparison

# ---------------------------------------------------------------------- map


def add_map(sub: SubParsers) -> None:
    """Register ``cpknight map``."""
    parser = add_command(
        sub,
        "map",
        _run_map,
        examples="""
cpknight map 8x8 a1
cpknight map 8x8 d4 --piece camel --json
cpknight map 100x100 a1 --svg map.svg""",
        description="Print the distance map from SOURCE: the number of moves to "
        "every cell (* the source, # blocked, - unreachable).",
    )
    add_board_args(parser)
    add_cell_args(parser)
    add_time_limit(parser, "the search included")
    add_json(parser)
    add_grid(parser)
    parser.add_argument("--svg", metavar="FILE", help="draw the map as an SVG heat map")
    add_force(parser, "the file given to --svg")
    add_drawing(parser)


def _run_map(args: argparse.Namespace) -> int:
    board, piece = board_and_piece(args)
    outputs = new_files(args, "svg")
    drawing = drawing_of(args, board)
    dmap = distance_map(board, args.source, piece=piece, time_limit=args.time_limit)
    if args.svg or args.png:
        from cpknight.draw import distance_map_svg

        write_picture(args, lambda: distance_map_svg(dmap, **drawing))
    if args.json:
        # print_json(dmap.as_dict()), byte for byte, written from the array
        # without a Python object per cell (a million cells: 30 ms, not 1.5 s).
        import sys

        from cpknight.api.distances import distance_map_json
        from cpknight.cli.common import JSON_SCHEMA

        for block in distance_map_json(dmap, schema=JSON_SCHEMA):
            sys.stdout.write(block)
        sys.stdout.write("\n")
        return EXIT_OK
    out(map_report(dmap, grid_or_hint(args, board, lambda: str(dmap)), outputs))
    return EXIT_OK


# ----------------------------------------------------------------- distance


def add_distance(sub: SubParsers) -> None:
    """Register ``cpknight distance``."""
    parser = add_command(
        sub,
        "distance",
        _run_distance,
        examples="""
cpknight distance plane 0,0 100,37
cpknight distance 8x8 a1 h8 --method all --json
cpknight distance 8x8 a1 h8 --svg path.svg --png path.png --scale 2""",
        description="The fewest moves from SOURCE to TARGET and one shortest path.\n"
        "--svg draws the path, each cell numbered with the moves from SOURCE\n"
        "(on the unbounded plane, a window around it).",
    )
    add_board_args(parser)
    add_cell_args(parser, target=True)
    add_method(
        parser,
        default="auto",
        several=True,
        help="the method; auto is bfs, on the unbounded board the knight's "
        "formula, or ip for other leapers",
    )
    add_solve_args(parser)
    add_json(parser)
    add_progress(parser)
    add_pictures(parser, "path")


def _run_distance(args: argparse.Namespace) -> int:
    from cpknight.api import compare_distances

    board, piece = board_and_piece(args)
    source = board.parse_cell(args.source)
    target = board.parse_cell(args.target)
    outputs = new_files(args, "svg", "animate")
    drawing = drawing_of(args, board)
    methods = (
        _default_distance_method(board, piece) if args.method == "auto" else args.method
    )
    if args.animate and methods == "formula":  # before any work
        raise InvalidInputError(
            "--animate walks a path, and the formula gives the number of moves "
            "only: add --method ip (or bfs, on a finite board)"
        )
    comparison = compare_distances(
        board,
        source,
        target,
        piece=piece,
        methods=methods,
        options=solve_options_of(args),
        progress=show_progress(args) and args.method not in ("auto", "bfs"),
    )
    names = f"{board.cell_name(source)} -> {board.cell_name(target)}"
    if comparison.interrupted:  # Ctrl-C: the methods finished, then exit 130
        if args.json:
            print_json(comparison.as_dict())
        else:
            out(distance_table_text(comparison, f"{names} on {board.label}"))
        return EXIT_INTERRUPTED
    code = _distance_code(comparison)
    if code == EXIT_OK and (args.svg or args.png or args.animate):
        _draw_distance(args, comparison, drawing)
    if args.json:
        print_json(comparison.as_dict())
    elif code == EXIT_NONE:
        out(next(o.reason or "" for o in comparison.rows if o.reason))
    else:
        heading = f"{names} on {board.label}, {piece.label}"
        out(distance_report(comparison, heading, outputs))
    return code


def _draw_distance(
    args: argparse.Namespace, comparison: Comparison, drawing: dict[str, Any]
) -> None:
    """Draw the first answer with a path (or, if none has one, the first answer)."""
    from cpknight.draw.values import distance_animation_svg, distance_svg

    found = [row.value for row in comparison.rows if row.status.solved and row.value]
    distance = next((d for d in found if d.path is not None), found[0])
    write_files(
        args,
        svg=lambda: distance_svg(distance, **drawing),
        animate=lambda: distance_animation_svg(distance, **animation_of(drawing)),
    )


def _distance_code(comparison: Comparison) -> int:
    """0 when a method found the distance, 1 when one proved it unreachable.

    Raises:
        InvalidInputError: the one method asked for refused the instance.
        SolveLimitError: no method answered within the limit.
    """
    single = comparison.rows[0] if len(comparison.rows) == 1 else None
    if single is not None and single.status is Status.REFUSED:
        raise InvalidInputError(single.reason or "refused")
    if single is not None and single.status is Status.UNKNOWN:
        raise SolveLimitError(single.reason or "the time limit was reached")
    statuses = set(comparison.statuses())
    if not statuses & {"found", "infeasible"}:
        raise SolveLimitError(
            "no method answered: "
            + "; ".join(f"{o.method}: {o.reason}" for o in comparison.rows)
        )
    return EXIT_OK if "found" in statuses else EXIT_NONE


def _default_distance_method(board: Board, piece: Leaper) -> str:
    """BFS on a finite board; on the plane a method that takes it (BFS cannot)."""
    from cpknight.api.distances import choose_distance_method

    return choose_distance_method(board, piece)


def add_reach(sub: SubParsers) -> None:
    """Register ``cpknight reach``."""
    parser = add_command(
        sub,
        "reach",
        _run_reach,
        examples="""
cpknight reach 8x8 a1 --piece 1,1
cpknight reach 4x4x4 0,0,0 --piece 1,2,3
cpknight reach board.txt a1 --json""",
        description="Show which cells can be reached from SOURCE (+ reachable, "
        "- unreachable, * the source, # blocked) and the components of the board.",
    )
    add_board_args(parser)
    add_cell_args(parser)
    add_time_limit(parser, "building the move graph included")
    add_json(parser)
    add_grid(parser)


def _run_reach(args: argparse.Namespace) -> int:
    board, piece = board_and_piece(args)
    source = board.parse_cell(args.source)
    cells, others, sizes = reach_split(
        board, source, piece=piece, time_limit=args.time_limit
    )
    if args.json:
        print_json(
            {
                "board": board.label,
                "piece": list(piece.vector),
                "source": cell_json(source),
                "reachable": cells,
                "unreachable": others,
                "components": sizes,
            }
        )
        return EXIT_OK
    grid = grid_fits(args, board)
    out(reach_report(board, piece, source, cells, sizes, grid=grid))
    return EXIT_OK
