"""Front doors for the knight-swap puzzles: the fewest moves that swap the knights."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cpknight.api.common import (
    BoardLike,
    attempt_or_refuse,
    each_engine,
    method_names,
    resolve,
    solve_options,
)
from cpknight.board import CellLike, Topology
from cpknight.engines import attempt, solve_with
from cpknight.errors import InvalidInputError
from cpknight.pieces import KNIGHT, PieceLike
from cpknight.results import Comparison, Outcome
from cpknight.solving import Run, SolveOptions
from cpknight.swaps import ENGINES as SWAP_METHODS
from cpknight.swaps.common import (
    MAX_SWAP_STATES,
    Placement,
    Swap,
    SwapInstance,
    placement,
)
from cpknight.swaps.drawings import read_drawings, read_puzzle

__all__ = ["compare_swaps", "solve_swap", "swap_instance", "try_swap"]

PuzzleLike = str | Mapping[str, Sequence[CellLike]] | Placement
"""A puzzle's name (``'guarini'``, ``'guy3x4'``), a file or text of two
drawings, or a start placement (each colour's cells; the goal given apart)."""


def swap_instance(
    puzzle_or_start: PuzzleLike,
    goal: Mapping[str, Sequence[CellLike]] | Placement | None = None,
    *,
    board: BoardLike | None = None,
    piece: PieceLike = KNIGHT,
    topology: Topology | None = None,
) -> SwapInstance:
    """The validated swap question of a puzzle, or of a start and a goal.

    Args:
        puzzle_or_start: a puzzle's name, a file of two drawings, the text of
            two drawings (start, a blank line, goal), or the start placement
            (each colour's cells, by name or coordinates).
        goal: the goal placement (with a start placement only).
        board: the board (with a start placement only; a puzzle brings its
            own).
        piece: the leaper.
        topology: ``'torus'`` or ``'cylinder'`` to wrap the puzzle's board.

    Raises:
        InvalidInputError: a bad puzzle, board or placement; a goal given with
            a puzzle, or missing with a start.

    Examples:
        >>> swap_instance("guarini").states
        756
        >>> swap_instance({"W": ["a1"]}, {"W": ["b3"]}, board="3x3").counts
        (1,)
    """
    if isinstance(puzzle_or_start, str):
        if goal is not None or board is not None:
            raise InvalidInputError(
                "a puzzle brings its own board and goal: give goal= and board= "
                "only with a start placement"
            )
        if "\n" in puzzle_or_start:
            drawn = read_drawings(puzzle_or_start, topology=topology or "bounded")
            spec, name = (drawn[0], drawn[1], drawn[2]), None
        else:
            b, s, g, name = read_puzzle(puzzle_or_start, topology=topology or "bounded")
            spec = (b, s, g)
        resolved, leaper = resolve(spec[0], piece)
        start, end = spec[1], spec[2]
    else:
        if goal is None or board is None:
            raise InvalidInputError(
                "a start placement needs goal= and board= (or give a puzzle)"
            )
        resolved, leaper = resolve(board, piece, topology=topology)
        resolved.require_finite("a swap")
        start, end = placement(puzzle_or_start, resolved), placement(goal, resolved)
        name = None
        counts = [(c, len(x)) for c, x in start]
        if counts != [(c, len(x)) for c, x in end]:
            raise InvalidInputError(
                "the goal must have the start's knights, colour by colour"
            )
    return SwapInstance(board=resolved, piece=leaper, start=start, goal=end, name=name)


def solve_swap(
    puzzle_or_start: PuzzleLike,
    goal: Mapping[str, Sequence[CellLike]] | Placement | None = None,
    *,
    board: BoardLike | None = None,
    piece: PieceLike = KNIGHT,
    topology: Topology | None = None,
    method: str = "auto",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
) -> Swap:
    """The fewest moves that take the knights from the start to the goal.

    Args:
        puzzle_or_start: a puzzle (``'guarini'``, ``'guy3x4'``, a file or
            text of two drawings) or a start placement.
        goal: the goal placement, with a start placement.
        board: the board, with a start placement.
        piece: the leaper.
        topology: wrap the board (``'torus'``, ``'cylinder'``).
        method: ``'bfs'`` (breadth-first search over placements), ``'cpsat'``
            (the planning model, horizon grown until feasible) or ``'auto'``
            (bfs unless the placements are too many to hold, then cpsat).
        options: time limit, workers, seed.
        time_limit: seconds, model building included.

    Returns:
        A checked :class:`~cpknight.swaps.common.Swap`, proved fewest.

    Raises:
        NoPathError: proved impossible.
        SolveLimitError: the limit came first (with the bound proved).
        InvalidInputError: bad input; ``bfs`` on more placements than memory
            holds (refused first).

    Examples:
        >>> s = solve_swap("guarini")  # Guarini 1512: 16 moves
        >>> s.moves, str(s.status)
        (16, 'optimal')
        >>> solve_swap({"W": ["a1"]}, {"W": ["b3"]}, board="3x3").names()
        ['a1-b3']
    """
    instance = swap_instance(
        puzzle_or_start, goal, board=board, piece=piece, topology=topology
    )
    engine = SWAP_METHODS.engine(_pick(instance, method))
    run = solve_options(options, time_limit).start()
    found: Swap = solve_with(engine, instance, run)
    return found


def try_swap(
    puzzle_or_start: PuzzleLike,
    goal: Mapping[str, Sequence[CellLike]] | Placement | None = None,
    *,
    board: BoardLike | None = None,
    piece: PieceLike = KNIGHT,
    topology: Topology | None = None,
    method: str = "auto",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
) -> Outcome:
    """Like :func:`solve_swap`, every ending an outcome (what the CLI runs).

    Examples:
        >>> o = try_swap("guy3x3")  # Guy: impossible for n <= 3
        >>> str(o.status), o.value is None
        ('infeasible', True)
    """
    instance = swap_instance(
        puzzle_or_start, goal, board=board, piece=piece, topology=topology
    )
    engine = SWAP_METHODS.engine(_pick(instance, method))
    run = solve_options(options, time_limit).start()
    return attempt(engine, instance, run)


def compare_swaps(
    puzzle_or_start: PuzzleLike,
    goal: Mapping[str, Sequence[CellLike]] | Placement | None = None,
    *,
    board: BoardLike | None = None,
    piece: PieceLike = KNIGHT,
    topology: Topology | None = None,
    methods: str | Sequence[str] = "all",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
) -> Comparison:
    """Every engine on one swap, one outcome each (a refusal is a row).

    Examples:
        >>> c = compare_swaps("guarini", methods="bfs,cpsat")
        >>> [o.value.moves for o in c.rows]
        [16, 16]
    """
    instance = swap_instance(
        puzzle_or_start, goal, board=board, piece=piece, topology=topology
    )
    names = [_pick(instance, m) for m in method_names(SWAP_METHODS, methods)]
    options = solve_options(options, time_limit)

    def one(name: str, run: Run) -> Outcome:
        return attempt_or_refuse(SWAP_METHODS[name], instance, run)

    rows = each_engine("swap", list(dict.fromkeys(names)), options, one)
    return Comparison(
        "swap",
        {
            "board": instance.board.label,
            "piece": list(instance.piece.vector),
            "puzzle": instance.name,
            "time_limit": options.time_limit,
        },
        tuple(rows),
    )


def _pick(instance: SwapInstance, method: str) -> str:
    if method != "auto":
        return method
    return "bfs" if instance.states <= MAX_SWAP_STATES else "cpsat"
