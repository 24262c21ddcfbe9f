"""The playground's answers that need no race: meta, map, model, pictures.

Each takes a checked :class:`~cpknight.web.jobs.Job` and returns a JSON
document (the one schema's ``distance_map`` and ``formulation``) or the text
of a file to download, built with the front doors (:mod:`cpknight.api`), the
pictures (:mod:`cpknight.draw`) and the tour files (:mod:`cpknight.io`).
Nothing here writes a file: exported models are made as text in memory.

Examples:
    >>> from cpknight.web.jobs import read_job
    >>> job = read_job({"question": "distance", "board": "3x3", "start": "a1"})
    >>> map_document(job)["distances"][0]
    [0, 3, 2]
"""

from __future__ import annotations

from typing import Any, Literal

from cpknight.board import Cell
from cpknight.errors import InvalidInputError
from cpknight.web.jobs import CAPS, QUESTIONS, Caps, Job, question_registry

__all__ = [
    "check_document",
    "export_model",
    "formulation_document",
    "map_document",
    "meta_document",
    "moves_document",
    "picture",
    "puzzle_document",
]

_EXPORTS = {"lp": ".lp", "mps": ".mps", "pbtxt": ".pbtxt"}


def meta_document(caps: Caps = CAPS) -> dict[str, Any]:
    """What the page offers: questions and their engines, boards, pieces, caps.

    Examples:
        >>> meta = meta_document()
        >>> meta["questions"]["tour"]["methods"][0]["name"]
        'cpsat'
    """
    from cpknight.constraints import SYMMETRIES
    from cpknight.named_boards import NAMED_BOARDS
    from cpknight.pieces import NAMED_PIECES

    questions = {}
    from cpknight.tours.completion import COMPLETION_METHODS

    for question in QUESTIONS:
        registry = question_registry(question)
        methods = [
            {"name": name, "summary": registry[name].summary}
            for name in registry.names("all")
            if question != "complete" or name in COMPLETION_METHODS
        ]
        questions[question] = {
            "methods": methods,
            "auto": bool(registry.auto),
            "cells": caps.cells[question],
        }
    return {
        "schema": 1,
        "questions": questions,
        "boards": {
            name: {
                "shape": list(named.shape),
                "description": named.description,
            }
            for name, named in NAMED_BOARDS.items()
        },
        "pieces": {name: list(piece.vector) for name, piece in NAMED_PIECES.items()},
        "symmetries": list(SYMMETRIES),
        "puzzles": ["guarini", "guy3x4"],
        "caps": caps.as_dict(),
    }


def map_document(job: Job) -> dict[str, Any]:
    """The distance map from the job's start: ``cpknight map --json``'s document."""
    from cpknight.api import distance_map

    if job.start is None:
        raise InvalidInputError("a distance map needs a start cell (the source)")
    dmap = distance_map(job.board, job.start, piece=job.piece)
    return {"schema": 1, **dmap.as_dict()}


def moves_document(job: Job) -> dict[str, Any]:
    """The move graph of the job's board and piece, for touring by hand.

    ``cells`` lists the open cells in node order; the moves of node ``i`` are
    the nodes ``indices[indptr[i]:indptr[i + 1]]`` (the CSR arrays of
    :class:`~cpknight.pieces.MoveGraph`: the page applies no move vector
    itself, so wraps, layers and other leapers are the library's).

    Examples:
        >>> from cpknight.web.jobs import read_job
        >>> doc = moves_document(read_job({"question": "tour", "board": "3x3"}))
        >>> doc["cells"][0], [doc["cells"][i] for i in doc["indices"][:2]]
        ([0, 0], [[2, 1], [1, 2]])
    """
    from cpknight.pieces import move_graph

    graph = move_graph(job.board, job.piece)
    return {
        "schema": 1,
        "board": job.board.label,
        "piece": list(job.piece.vector),
        "cells": graph.cells.tolist(),
        "indptr": graph.indptr.tolist(),
        "indices": graph.indices.tolist(),
    }


def check_document(job: Job, cells: Any) -> dict[str, Any]:
    """Whether ``cells`` is a tour of the job's board that honours the job.

    Closed or open as asked, and held to the job's side constraints
    (``magic``, ``constraints``) as ``cpknight check`` holds a file.

    ``cpknight check --json``'s document: ``tour``, ``step`` (the first bad
    cell, from 1) and ``reason``; a path played by hand is checked here, by
    the library's checker, before the page calls it a tour.

    Raises:
        InvalidInputError: cells that are not a list of coordinate lists.

    Examples:
        >>> from cpknight.web.jobs import read_job
        >>> job = read_job({"question": "tour", "board": "3x4", "closed": False})
        >>> names = "a1 c2 a3 b1 d2 b3 c1 d3 b2 d1 c3 a2".split()
        >>> path = [list(job.board.parse_cell(name)) for name in names]
        >>> check_document(job, path)["tour"]
        True
        >>> check_document(job, path[:-1])["reason"]
        'the tour has 11 cells; board 3x4 has 12 open cells'
    """
    from cpknight.checks import check_tour
    from cpknight.errors import TourCheckError

    if not isinstance(cells, list) or not all(
        isinstance(c, list) and all(type(x) is int for x in c) for c in cells
    ):
        raise InvalidInputError("expected the cells as lists of ints")
    document: dict[str, Any] = {"schema": 1, "closed": job.closed}
    try:
        check_tour(
            job.board,
            cells,
            piece=job.piece,
            closed=job.closed,
            constraints=job.constraints,
        )
    except TourCheckError as exc:
        step = None if exc.step is None else exc.step + 1
        return {**document, "tour": False, "step": step, "reason": str(exc)}
    return {**document, "tour": True, "step": None, "reason": None}


def puzzle_document(job: Job) -> dict[str, Any]:
    """A swap puzzle's board and its knights at the start and at the goal.

    The page draws the puzzle as soon as it is picked, before any solve.

    Examples:
        >>> from cpknight.web.jobs import read_job
        >>> doc = puzzle_document(read_job({"question": "swap", "puzzle": "guarini"}))
        >>> doc["board_shape"], doc["start_knights"]["W"]
        ([3, 3], [[0, 0], [0, 2]])
    """
    from cpknight.web.jobs import job_puzzle

    if job.puzzle is None:
        raise InvalidInputError("a swap needs a puzzle")
    board, start, goal, _ = job_puzzle(job.puzzle, job.board.topology)
    return {
        "schema": 1,
        "board_shape": list(board.shape),
        "board_blocked": sorted(list(c) for c in board.blocked),
        "colours": [colour for colour, _ in start],
        "start_knights": {c: [list(x) for x in cells] for c, cells in start},
        "goal_knights": {c: [list(x) for x in cells] for c, cells in goal},
    }


def _model(job: Job, caps: Caps, *, text_only: bool) -> Any:
    """The model of the job's question, built under its time limit (not solved)."""
    from cpknight.api.formulation import (
        collect_model,
        cover_model,
        distance_model,
        longest_model,
        swap_model,
        tour_model,
    )

    if job.board.size > caps.formulation_cells:
        raise InvalidInputError(
            f"the playground prints models of boards of at most "
            f"{caps.formulation_cells} cells: {job.board.size_label} has "
            f"{job.board.size} (use 'cpknight formulation' for more)"
        )
    limit = job.time_limit
    if job.question == "tour":
        return tour_model(
            job.board,
            closed=job.closed,
            start=job.start,
            end=job.end,
            piece=job.piece,
            constraints=job.constraints,
            arcs_only=text_only,
            time_limit=limit,
        )
    if job.question == "distance":
        if job.start is None or job.target is None:
            raise InvalidInputError("the distance model needs a source and a target")
        method: Literal["ip", "flow"] = "flow" if "flow" in job.methods else "ip"
        return distance_model(
            job.board,
            job.start,
            job.target,
            method=method,
            piece=job.piece,
            time_limit=limit,
        )
    if job.question == "route":
        if job.start is None:
            raise InvalidInputError("the route model needs a start cell")
        return collect_model(
            job.board,
            start=job.start,
            food=list(job.food),
            end=job.end,
            piece=job.piece,
            simple=job.simple,
            time_limit=limit,
        )
    if job.question == "longest":
        return longest_model(
            job.board,
            kind=job.kind,
            closed=job.closed,
            piece=job.piece,
            time_limit=limit,
        )
    if job.question in ("dominate", "independent"):
        return cover_model(job.board, kind=job.kind, piece=job.piece, time_limit=limit)
    if job.question == "swap" and job.puzzle is not None:
        return swap_model(
            job.puzzle,
            piece=job.piece,
            topology=job.board.topology,
            time_limit=limit,
        )
    raise InvalidInputError("the count has a program, not a model to export")


def formulation_document(job: Job, caps: Caps = CAPS) -> dict[str, Any]:
    """The model printed with the instance's numbers (``cpknight formulation``).

    Examples:
        >>> from cpknight.web.jobs import read_job
        >>> job = read_job({"question": "tour", "board": "3x4", "closed": False})
        >>> formulation_document(job)["formulation"][:29]
        'Open knight (1,2) tour of 3x4'
    """
    if job.question == "count":
        from cpknight.api.formulation import count_program

        if job.board.size > caps.formulation_cells:
            raise InvalidInputError(
                f"the playground prints programs of boards of at most "
                f"{caps.formulation_cells} cells"
            )
        text = count_program(
            job.board, closed=job.closed, start=job.start, end=job.end, piece=job.piece
        )
        return {"schema": 1, "question": "count", "formulation": text}
    model = _model(job, caps, text_only=True)
    question = "collect" if job.question == "route" else job.question
    return {"schema": 1, "question": question, "formulation": model.formulation()}


def export_model(job: Job, kind: str, caps: Caps = CAPS) -> tuple[str, str]:
    """The model as a file's text: LP or MPS (integer programs), a CP-SAT proto.

    Returns:
        The file's suggested name and its text.

    Raises:
        InvalidInputError: an unknown format, or one this model is not written in.

    Examples:
        >>> from cpknight.web.jobs import read_job
        >>> job = read_job({"question": "distance", "board": "8x8", "start": "a1",
        ...                 "target": "b2"})
        >>> name, text = export_model(job, "lp")
        >>> name, "n[p1,p2]" in text
        ('distance-8x8.lp', True)
    """
    suffix = _EXPORTS.get(kind)
    if suffix is None:
        raise InvalidInputError(f"expected a format in lp, mps, pbtxt: {kind!r}")
    model = _model(job, caps, text_only=False)
    name = f"{job.question}-{job.board.label}{suffix}"
    if hasattr(model, "builder_model"):  # an integer program: LP or MPS
        if kind == "pbtxt":
            raise InvalidInputError("an integer program is exported as lp or mps")
        builder = model.builder_model(lp_names=kind == "lp")
        if isinstance(builder, tuple):  # the covering program: (model, variables)
            builder = builder[0]
        text = (
            builder.export_to_lp_string()
            if kind == "lp"
            else builder.export_to_mps_string()
        )
        return name, str(text)
    if kind != "pbtxt":
        raise InvalidInputError("a CP-SAT model is exported as pbtxt (a text proto)")
    return name, str(model.model.proto) + "\n"


def picture(job: Job, cells: Any, kind: str) -> tuple[str, str, str]:
    """An answer (its cells checked first) as SVG or a tour file; a map as SVG.

    Tours, routes and longest paths are checked by their own checkers before
    they are drawn; a tour may also be written as a tour file.

    Returns:
        The file's suggested name, its text and its media type.

    Raises:
        InvalidInputError: cells that are not a list, a failed check (the
            message says why), or an unknown format.
    """
    if job.question == "distance":
        from cpknight.api import distance_map
        from cpknight.draw import distance_map_svg

        if job.start is None:
            raise InvalidInputError("a distance map needs a start cell")
        dmap = distance_map(job.board, job.start, piece=job.piece)
        return f"map-{job.board.label}.svg", distance_map_svg(dmap), "image/svg+xml"
    if not isinstance(cells, list) or not all(
        isinstance(c, list) and all(type(x) is int for x in c) for c in cells
    ):
        raise InvalidInputError("expected the answer's cells as lists of ints")
    if job.question in ("route", "longest"):
        if kind != "svg":
            raise InvalidInputError(f"a {job.question} is drawn as svg: {kind!r}")
        return _path_picture(job, [tuple(c) for c in cells])
    if job.question != "tour":
        raise InvalidInputError("pictures are drawn of answers with cells here")
    from cpknight.checks import check_tour, make_tour

    check_tour(
        job.board,
        cells,
        piece=job.piece,
        closed=job.closed,
        start=job.start,
        end=job.end,
    )
    tour = make_tour(
        job.board,
        job.piece,
        cells,
        closed=job.closed,
        method="playground",
        start=job.start,
        end=job.end,
    )
    if kind == "svg":
        from cpknight.draw import tour_svg

        return f"tour-{job.board.label}.svg", tour_svg(tour), "image/svg+xml"
    if kind == "tour":
        from cpknight.io import tour_file_text

        return f"tour-{job.board.label}.txt", tour_file_text(tour), "text/plain"
    raise InvalidInputError(f"expected a format in svg, tour: {kind!r}")


def _path_picture(job: Job, cells: list[Cell]) -> tuple[str, str, str]:
    """A route or a longest path, checked by its own checker, then drawn."""
    from cpknight.status import Status

    if job.question == "route":
        from cpknight.checks import check_route
        from cpknight.draw import route_svg
        from cpknight.results import Route

        if job.start is None:
            raise InvalidInputError("a route needs a start cell")
        check_route(
            job.board,
            cells,
            start=job.start,
            food=list(job.food),
            end=job.end,
            piece=job.piece,
            simple=job.simple,
        )
        route = Route(
            board=job.board,
            piece=job.piece,
            start=job.start,
            food=job.food,
            end=job.end,
            simple=job.simple,
            cells=tuple(cells),
            status=Status.FEASIBLE,
            moves=len(cells) - 1,
            bound=0,
            method="playground",
        )
        return f"route-{job.board.label}.svg", route_svg(route), "image/svg+xml"
    from cpknight.draw.longest import longest_svg
    from cpknight.longest.common import LongestPath, check_longest

    check_longest(job.board, cells, kind=job.kind, closed=job.closed, piece=job.piece)
    moves = len(cells) if job.closed else len(cells) - 1
    path = LongestPath(
        board=job.board,
        piece=job.piece,
        kind="induced" if job.kind == "induced" else "uncrossed",
        closed=job.closed,
        cells=tuple(cells),
        status=Status.FEASIBLE,
        moves=moves,
        bound=moves,
        method="playground",
    )
    return f"longest-{job.board.label}.svg", longest_svg(path), "image/svg+xml"
