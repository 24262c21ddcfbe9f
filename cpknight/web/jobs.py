"""What the playground may be asked: one request body read into a checked job.

Every request is plain JSON; :func:`read_job` checks all of it (the keys, the
board, the piece, the cells, the methods, the time limit) against the caps in
:data:`CAPS` before anything runs, and raises :class:`InvalidInputError` with
one line that echoes the bad value. A board comes as a size and blocked cells,
a size spec (``'8x8'``), a named board, or the text of a board file: never a
path (the server reads no file a request names).

Examples:
    >>> job = read_job({"question": "tour", "board": "5x5", "closed": False,
    ...                 "start": "a1", "methods": "prune,cpsat", "time_limit": 5})
    >>> job.board.label, job.methods, job.start, job.time_limit
    ('5x5', ('prune', 'cpsat'), (0, 0), 5.0)
    >>> read_job({"question": "tour", "board": "300x300"})
    Traceback (most recent call last):
    ...
    cpknight.errors.InvalidInputError: the playground takes boards of at most \
40000 cells for a tour: 300x300 has 90000
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cpknight.board import Board, Cell, Topology
from cpknight.constraints import TourConstraints, tour_constraints
from cpknight.engines import Registry
from cpknight.errors import InvalidInputError

if TYPE_CHECKING:
    from cpknight.swaps.drawings import Puzzle
from cpknight.named_boards import NAMED_BOARDS
from cpknight.pieces import Leaper, as_piece

__all__ = [
    "CAPS",
    "QUESTIONS",
    "Caps",
    "Job",
    "job_puzzle",
    "question_registry",
    "read_board",
    "read_job",
    "read_piece",
]

QUESTIONS = (
    "tour",
    "distance",
    "route",
    "longest",
    "count",
    "swap",
    "dominate",
    "independent",
    "complete",
)
"""The questions the playground asks (``route``: the front door ``collect``;
``complete``: can the tour so far, ``path``, still be finished)."""


@dataclass(frozen=True)
class Caps:
    """What one server allows: board sizes per question, time, engines, runs.

    Attributes:
        cells: the most cells (open or blocked) a board may have, per question
            (``objective``: a tour with fewest turns or crossings, or magic).
        time_limit: the longest time limit one engine may be given, in seconds.
        default_time_limit: the limit when a request gives none.
        engines: the most engines one run may race.
        runs: the most runs at once on one server.
        food: the most cells a route may have to visit.
        formulation_cells: the most cells of a board whose model is printed.
        body_bytes: the largest request body.
        body_seconds: how long a request's body may take to arrive (one
            whose Content-Length promises more than it sends is a 400).
    """

    cells: Mapping[str, int] = field(
        default_factory=lambda: {
            "tour": 40_000,
            "distance": 40_000,
            "route": 2_500,
            "longest": 144,
            "count": 100,
            "swap": 36,
            "dominate": 144,
            "independent": 144,
            "complete": 40_000,
            "objective": 144,
        }
    )
    time_limit: float = 60.0
    default_time_limit: float = 10.0
    engines: int = 4
    runs: int = 3
    food: int = 24
    formulation_cells: int = 2_500
    body_bytes: int = 1 << 20
    body_seconds: float = 5.0

    def as_dict(self) -> dict[str, Any]:
        """The caps as plain data (``GET /api/meta`` shows them)."""
        return {
            "cells": dict(self.cells),
            "time_limit": self.time_limit,
            "default_time_limit": self.default_time_limit,
            "engines": self.engines,
            "runs": self.runs,
            "food": self.food,
            "formulation_cells": self.formulation_cells,
            "body_bytes": self.body_bytes,
            "body_seconds": self.body_seconds,
        }


CAPS = Caps()
"""The caps of ``cpknight serve``."""


@dataclass(frozen=True)
class Job:
    """One checked question: the instance, the engines and their time limit.

    Plain values only (a :class:`Board`, a :class:`Leaper`, cells as tuples):
    a job crosses to the worker process that solves it.
    """

    question: str
    board: Board
    piece: Leaper
    methods: tuple[str, ...]
    time_limit: float
    closed: bool = True
    start: Cell | None = None
    end: Cell | None = None
    target: Cell | None = None
    food: tuple[Cell, ...] = ()
    simple: bool = False
    kind: str = "uncrossed"
    constraints: TourConstraints | None = None
    puzzle: str | None = None
    path: tuple[Cell, ...] = ()

    def instance(self) -> dict[str, Any]:
        """The instance as plain data, as a comparison's JSON shows it."""
        from cpknight.api.tours import instance_row

        row = instance_row(
            self.board,
            self.piece,
            closed=self.closed,
            start=self.start,
            end=self.end,
            time_limit=self.time_limit,
            constraints=self.constraints,
        )
        if self.question == "distance" and self.target is not None:
            row["target"] = list(self.target)
        if self.question == "route":
            row["food"] = [list(cell) for cell in self.food]
            row["simple"] = self.simple
        if self.question in ("longest", "dominate", "independent"):
            row["kind"] = self.kind
        if self.question == "swap":
            row["puzzle"] = self.puzzle if self.puzzle in _PUZZLE_NAMES else None
        if self.question == "complete":
            row["path"] = [list(cell) for cell in self.path]
        return row


_KEYS = {
    "question",
    "board",
    "board_text",
    "topology",
    "piece",
    "methods",
    "time_limit",
    "closed",
    "start",
    "end",
    "target",
    "food",
    "simple",
    "kind",
    "constraints",
    "puzzle",
    "min",
    "magic",
    "path",
}
_DOMINATION = {
    "plain": "dominating",
    "dominating": "dominating",
    "total": "total",
    "independent": "independent",
}
"""The page's domination kinds and the covering package's names for them."""
_PUZZLE_NAMES = ("guarini", "guy3x4")
"""The named swap puzzles the page offers (``guy3xN`` for n <= 12 is read too)."""
_GUY = re.compile(r"guy3x(\d{1,2})")
_CONSTRAINT_KEYS = {"via", "require", "forbid", "symmetric"}
_SIZE = re.compile(r"^\s*\d+(\s*x\s*\d+)+\s*$", re.IGNORECASE)
_BOARD_KEYS = {"shape", "blocked", "topology", "name"}


def read_job(body: Any, caps: Caps = CAPS) -> Job:
    """Read and check a request body: a question the playground may run.

    Args:
        body: the decoded JSON object.
        caps: the server's caps.

    Returns:
        A checked :class:`Job`.

    Raises:
        InvalidInputError: anything unknown, malformed or over a cap (one
            line). Board, cell and piece errors are its subclasses.

    Examples:
        >>> read_job({"question": "count", "board": "3x4", "closed": False}).methods
        ('auto',)
        >>> read_job({"question": "tour", "board": "8x8", "colour": "red"})
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: unknown key in the request: 'colour'
    """
    if not isinstance(body, dict):
        raise InvalidInputError("expected a JSON object as the request body")
    for key in body:
        if key not in _KEYS:
            raise InvalidInputError(f"unknown key in the request: {key!r}")
    question = body.get("question", "tour")
    if question not in QUESTIONS:
        raise InvalidInputError(
            f"expected a question in {', '.join(QUESTIONS)}: {question!r}"
        )
    if question == "swap":
        puzzle, board = _puzzle(body)
    else:
        puzzle = None
        board = read_board(
            body.get("board"), body.get("board_text"), body.get("topology")
        )
    limit = caps.cells[question]
    if board.size > limit:
        raise InvalidInputError(
            f"the playground takes boards of at most {limit} cells for a "
            f"{question}: {board.size_label} has {board.size}"
        )
    piece = read_piece(body.get("piece", "knight"))
    piece.check_dim(board.dim, board.label)
    closed = _flag(body, "closed", question != "longest")
    start = _cell(board, body.get("start"), "start")
    end = _cell(board, body.get("end"), "end")
    if end is not None and closed and question in ("tour", "count", "complete"):
        raise InvalidInputError(
            "a closed tour has no end cell: drop the end or ask open"
        )
    job = Job(
        question=question,
        board=board,
        piece=piece,
        methods=_methods(question, body.get("methods", "auto"), caps),
        time_limit=_time_limit(body.get("time_limit"), caps),
        closed=closed,
        start=start,
        end=end,
        puzzle=puzzle,
    )
    return _question_part(job, body, caps)


def _question_part(job: Job, body: dict[str, Any], caps: Caps) -> Job:
    """The keys one question reads beyond the board: target, food, kind, sides."""
    from dataclasses import replace

    board = job.board
    if job.question == "distance":
        if job.start is None:
            raise InvalidInputError("a distance needs a start cell (the source)")
        return replace(job, target=_cell(board, body.get("target"), "target"))
    if job.question == "route":
        if job.start is None:
            raise InvalidInputError("a route needs a start cell")
        food = body.get("food") or []
        if not isinstance(food, list) or not food:
            raise InvalidInputError("a route needs a list of cells to visit ('food')")
        if len(food) > caps.food:
            raise InvalidInputError(
                f"a route may visit at most {caps.food} cells: {len(food)} given"
            )
        cells = tuple(dict.fromkeys(_cell(board, c, "food") for c in food))
        return replace(
            job,
            food=tuple(c for c in cells if c is not None),
            simple=_flag(body, "simple", False),
        )
    if job.question == "longest":
        kind = body.get("kind", "uncrossed")
        if kind not in ("uncrossed", "induced"):
            raise InvalidInputError(
                f"expected a longest kind in uncrossed, induced: {kind!r}"
            )
        return replace(job, kind=kind)
    if job.question == "dominate":
        kind = body.get("kind", "plain")
        if kind not in _DOMINATION:
            raise InvalidInputError(
                f"expected a domination kind in plain, total, independent: {kind!r}"
            )
        return replace(job, kind=_DOMINATION[kind])
    if job.question == "independent":
        if body.get("kind") not in (None, "independent-set"):
            raise InvalidInputError(
                f"the most non-attacking knights take no kind: {body['kind']!r}"
            )
        return replace(job, kind="independent-set")
    if job.question == "complete":
        return replace(job, path=_path(job, body.get("path")))
    if body.get("path") is not None:
        raise InvalidInputError("only 'complete' takes a path: ask question 'complete'")
    if job.question == "tour" and (
        body.get("constraints") or body.get("min") or body.get("magic")
    ):
        side = _constraints(job, body.get("constraints") or {}, body, caps)
        return replace(job, constraints=side)
    return job


def _path(job: Job, spec: Any) -> tuple[Cell, ...]:
    """The tour so far of a ``complete`` job: checked cells, one move apart.

    Raises:
        InvalidInputError: not a list of cells, or a cell off the board,
            blocked, twice, or not one move from the one before (one line,
            from :func:`~cpknight.tours.completion.check_partial_path`).
    """
    from cpknight.pieces import move_graph
    from cpknight.tours.completion import COMPLETION_METHODS, check_partial_path

    if not isinstance(spec, list) or not all(
        isinstance(c, list) and c and all(type(x) is int for x in c) for c in spec
    ):
        raise InvalidInputError(
            "expected 'path' as a list of cells like [[0, 0], [2, 1]]"
        )
    for method in job.methods:
        if method not in COMPLETION_METHODS:
            raise InvalidInputError(
                f"expected methods in {', '.join(COMPLETION_METHODS)} to complete "
                f"a tour: {method!r}"
            )
    graph = move_graph(job.board, job.piece)
    return tuple(graph.cell(v) for v in check_partial_path(graph, spec))


def _puzzle(body: dict[str, Any]) -> tuple[str, Board]:
    """A swap puzzle from a request: a name or the text of two drawings.

    A name is ``guarini`` or ``guy3xN``; anything else must be the two
    drawings as text (with a line break): a path is never read.
    """
    for key in ("board", "board_text", "start", "end"):
        if body.get(key) is not None:
            raise InvalidInputError(
                f"a swap puzzle brings its own board and placements: drop {key!r}"
            )
    spec = body.get("puzzle")
    topology = _topology(body.get("topology"))
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidInputError(
            "a swap needs 'puzzle': guarini, guy3x4, or two drawings as text"
        )
    if len(spec) > 10_000:
        raise InvalidInputError("expected the two drawings in at most 10000 characters")
    name = spec.strip().lower()
    if "\n" not in spec:
        if name != "guarini" and not _GUY.fullmatch(name):
            raise InvalidInputError(
                f"expected a puzzle in guarini, guy3xN (guy3x4), or two drawings "
                f"as text: {spec!r}"
            )
        return name, job_puzzle(name, topology)[0]
    return spec, job_puzzle(spec, topology)[0]


def job_puzzle(spec: str, topology: Topology) -> Puzzle:
    """The puzzle a job names (``guarini``, ``guy3xN``) or draws (two drawings).

    The job has checked ``spec`` already (:func:`read_job`), and reads the
    puzzle's board with this; the page draws the whole puzzle with it.

    Examples:
        >>> board, start, goal, _ = job_puzzle("guarini", "bounded")
        >>> board.shape, start[0]
        ((3, 3), ('B', ((2, 0), (2, 2))))
    """
    from cpknight.swaps.drawings import named_puzzle, read_drawings

    if "\n" not in spec:
        return named_puzzle(spec, topology=topology)
    board, start, goal = read_drawings(
        spec, topology=topology, source="the puzzle text"
    )
    return board, start, goal, None


def read_board(spec: Any, text: Any = None, topology: Any = None) -> Board:
    """A board from a request: a size and blocked cells, a spec, a name or a drawing.

    Args:
        spec: ``{"shape": [8, 8], "blocked": [[3, 3]], "topology": "torus"}``,
            a size such as ``'8x8'`` or a named board such as ``'holed8'``;
            ``None`` when ``text`` is given.
        text: the text of a board file (``.`` open, ``#`` blocked).
        topology: ``'bounded'``, ``'torus'`` or ``'cylinder'`` (the key
            inside ``spec`` wins).

    Raises:
        InvalidBoardError: a malformed board.
        InvalidInputError: neither or both of ``spec`` and ``text``, or a
            string that is not a size or a name (a path is never read).

    Examples:
        >>> read_board({"shape": [4, 4], "blocked": [[0, 0]]}).n_open
        15
        >>> read_board(None, chr(10).join([". #", ". ."])).blocked
        frozenset({(1, 1)})
        >>> read_board("/etc/passwd")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: expected a board size like '8x8' or a \
name in classic8, holed8, heart9, ring10, cross5, ring9, blocks12, frame9, cube4: \
'/etc/passwd'
    """
    if (spec is None) == (text is None):
        raise InvalidInputError("expected a board: one of 'board' or 'board_text'")
    if isinstance(spec, dict):
        for key in spec:
            if key not in _BOARD_KEYS:
                raise InvalidInputError(f"unknown key in the board: {key!r}")
        topology = spec.get("topology", topology)
    shape_of = _topology(topology)
    if text is not None:
        if not isinstance(text, str) or len(text) > CAPS.body_bytes:
            raise InvalidInputError("expected the board file's text as a string")
        return Board.from_ascii(text, topology=shape_of, source="the board text")
    if isinstance(spec, str):
        key = spec.strip().lower()
        if _SIZE.match(key) or key in NAMED_BOARDS:
            return Board.parse(key, topology=shape_of)
        raise InvalidInputError(
            f"expected a board size like '8x8' or a name in "
            f"{', '.join(NAMED_BOARDS)}: {spec!r}"
        )
    if not isinstance(spec, dict):
        raise InvalidInputError(f"expected a board object, size or name: {spec!r}")
    shape = spec.get("shape")
    if (
        not isinstance(shape, list)
        or not 1 <= len(shape) <= 3
        or not all(type(x) is int and x >= 1 for x in shape)
    ):
        raise InvalidInputError(
            f"expected a board shape of one to three positive ints: {shape!r}"
        )
    if math.prod(shape) > max(CAPS.cells.values()):
        raise InvalidInputError(
            f"the playground takes boards of at most {max(CAPS.cells.values())} "
            f"cells: {'x'.join(map(str, shape))}"
        )
    blocked = spec.get("blocked", [])
    if not isinstance(blocked, list) or not all(
        isinstance(c, list) and all(type(x) is int for x in c) for c in blocked
    ):
        raise InvalidInputError("expected the blocked cells as lists of ints")
    name = spec.get("name")
    base = NAMED_BOARDS.get(name) if isinstance(name, str) else None
    board = Board(shape, blocked, topology=shape_of)
    if base is not None and board.shape == base.shape and board.blocked == base.blocked:
        return Board.parse(base.name, topology=shape_of)  # keeps its name and start
    return board


def read_piece(spec: Any) -> Leaper:
    """A leaper from a name (``'camel'``), a text (``'1,3'``) or a list of ints.

    Examples:
        >>> read_piece([1, 3]).label, read_piece("zebra").label
        ('camel (1,3)', 'zebra (2,3)')
    """
    if isinstance(spec, list):
        if not spec or len(spec) > 3 or not all(type(x) is int for x in spec):
            raise InvalidInputError(f"expected a piece like [1, 2]: {spec!r}")
        return as_piece(tuple(spec))
    if not isinstance(spec, str) or len(spec) > 40:
        raise InvalidInputError(f"expected a piece name or 'a,b': {spec!r}")
    return as_piece(spec)


def _topology(value: Any) -> Topology:
    if value is None:
        return "bounded"
    if value not in ("bounded", "torus", "cylinder"):
        raise InvalidInputError(
            f"expected a topology in bounded, torus, cylinder: {value!r}"
        )
    topology: Topology = value
    return topology


def _flag(body: dict[str, Any], key: str, default: bool) -> bool:
    value = body.get(key, default)
    if not isinstance(value, bool):
        raise InvalidInputError(f"expected true or false for {key!r}: {value!r}")
    return value


def _cell(board: Board, spec: Any, what: str) -> Cell | None:
    if spec is None or spec == "":
        return None
    if isinstance(spec, list) and all(type(x) is int for x in spec):
        return board.parse_cell(tuple(spec))
    if isinstance(spec, str) and len(spec) <= 40:
        return board.parse_cell(spec)
    raise InvalidInputError(f"expected a {what} cell like 'a1' or [0, 0]: {spec!r}")


def question_registry(question: str) -> Registry[Any, Any]:
    """The engines of a question in :data:`QUESTIONS`, as the API lists them.

    Examples:
        >>> list(question_registry("distance"))[0]
        'bfs'
    """
    from cpknight.api import (
        COUNT_METHODS,
        COVER_METHODS,
        DISTANCE_METHODS,
        LONGEST_METHODS,
        ROUTE_METHODS,
        SWAP_METHODS,
        TOUR_METHODS,
    )

    registries: dict[str, Registry[Any, Any]] = {
        "dominate": COVER_METHODS,
        "independent": COVER_METHODS,
        "swap": SWAP_METHODS,
        "tour": TOUR_METHODS,
        "distance": DISTANCE_METHODS,
        "route": ROUTE_METHODS,
        "longest": LONGEST_METHODS,
        "count": COUNT_METHODS,
        "complete": TOUR_METHODS,  # those that honour visit numbers
    }
    return registries[question]


def _methods(question: str, spec: Any, caps: Caps) -> tuple[str, ...]:
    registry = question_registry(question)
    if isinstance(spec, list) and all(isinstance(m, str) for m in spec):
        spec = ",".join(spec)
    if not isinstance(spec, str):
        raise InvalidInputError(f"expected methods as a name or a list: {spec!r}")
    if spec.strip() == "auto" and not registry.auto:
        # no auto here: the command line's default engine (collect: CP-SAT;
        # distance: breadth-first search)
        spec = {
            "route": "cpsat",
            "distance": "bfs",
            "dominate": "cpsat",
            "independent": "cpsat",
        }.get(question, spec)
    names = tuple(registry.names(spec))
    if len(names) > caps.engines:
        raise InvalidInputError(
            f"a run races at most {caps.engines} engines: {len(names)} given"
        )
    return names


def _time_limit(value: Any, caps: Caps) -> float:
    if value is None:
        return caps.default_time_limit
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(f"expected the time limit in seconds: {value!r}")
    if not 0 < value <= caps.time_limit or not math.isfinite(value):
        raise InvalidInputError(
            f"the time limit must be more than 0 and at most {caps.time_limit:g} s "
            f"here: {value}"
        )
    return float(value)


def _objective(job: Job, body: dict[str, Any], caps: Caps) -> dict[str, Any]:
    """The tour's objective keys: ``min`` (turns, crossings) and ``magic``."""
    minimise = body.get("min")
    if minimise in (None, "", "none"):
        minimise = None
    elif minimise not in ("turns", "crossings"):
        raise InvalidInputError(f"expected min in none, turns, crossings: {minimise!r}")
    magic = body.get("magic", False)
    if magic not in (False, True, "ranks", "files", "both"):
        raise InvalidInputError(
            f"expected magic to be true, false, 'ranks' or 'files': {magic!r}"
        )
    if (minimise or magic) and job.board.size > caps.cells["objective"]:
        raise InvalidInputError(
            f"the playground takes boards of at most {caps.cells['objective']} "
            f"cells for a tour with an objective or magic: {job.board.size_label} "
            f"has {job.board.size}"
        )
    return {"minimise": minimise, "magic": magic}


def _constraints(
    job: Job, spec: Any, body: dict[str, Any], caps: Caps
) -> TourConstraints:
    objective = _objective(job, body, caps)
    if not isinstance(spec, dict):
        raise InvalidInputError("expected the side constraints as an object")
    for key in spec:
        if key not in _CONSTRAINT_KEYS:
            raise InvalidInputError(f"unknown side constraint: {key!r}")
    lists: dict[str, Sequence[str]] = {}
    for key in ("via", "require", "forbid"):
        value = spec.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InvalidInputError(f"expected {key!r} as a list of strings")
        if len(value) > 64:
            raise InvalidInputError(f"at most 64 {key!r} constraints: {len(value)}")
        lists[key] = value
    symmetric = spec.get("symmetric")
    if symmetric is not None and not isinstance(symmetric, str):
        raise InvalidInputError(f"expected a symmetry name: {symmetric!r}")
    side = tour_constraints(
        job.board,
        job.piece,
        via=lists["via"],
        require=lists["require"],
        forbid=lists["forbid"],
        symmetric=symmetric or None,
        **objective,
    )
    if side.symmetric and not job.closed:
        raise InvalidInputError("a symmetric tour must be closed")
    return side
