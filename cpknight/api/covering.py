"""Front doors for the covering puzzles: domination and independence of knights.

Examples:
    >>> dominate("8x8").size  # OEIS A006075(8) = 12
    12
    >>> independent("8x8", method="search").size  # OEIS A030978(8) = 32
    32
"""

from __future__ import annotations

from collections.abc import Sequence

from cpknight.api.common import (
    BoardLike,
    attempt_or_refuse,
    each_engine,
    method_names,
    resolve,
    solve_options,
)
from cpknight.board import Topology
from cpknight.covering import ENGINES as COVER_METHODS
from cpknight.covering.common import Cover, CoverInstance, covering_kind
from cpknight.engines import attempt, solve_with
from cpknight.errors import InvalidInputError
from cpknight.pieces import KNIGHT, PieceLike
from cpknight.results import Comparison, Outcome
from cpknight.solving import Run, SolveOptions

__all__ = [
    "COVER_METHODS",
    "compare_covers",
    "cover_instance",
    "dominate",
    "independent",
    "try_cover",
]

DOMINATION_KINDS = ("dominating", "total", "independent")
"""The kinds :func:`dominate` takes (each minimises the knights)."""


def dominate(
    board: BoardLike,
    *,
    kind: str = "dominating",
    count: bool = False,
    symmetry: bool = False,
    piece: PieceLike = KNIGHT,
    topology: Topology | None = None,
    method: str = "cpsat",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
) -> Cover:
    """The fewest knights that dominate a board (every cell occupied or attacked).

    Args:
        board: a finite board, any shape, topology and dimension.
        kind: ``'dominating'`` (every cell occupied or attacked; OEIS
            A006075), ``'total'`` (every cell attacked, the knights' own too;
            A261752) or ``'independent'`` (dominating, no two knights
            attacking; A342576).
        count: also count the optimal placements (A103315 on n x n).
        symmetry: break the board's reflections and rotations; with ``count``
            the count is of placements up to symmetry (A006076 on n x n).
        piece: the leaper.
        topology: ``'torus'`` or ``'cylinder'`` to wrap a board given as a
            spec (the torus: A279407).
        method: ``'cpsat'``, ``'scip'``, ``'highs'`` or ``'search'``.
        options: time limit, workers, seed.
        time_limit: seconds, model building included (replaces the one in
            ``options``).

    Returns:
        A checked :class:`~cpknight.covering.common.Cover`: ``optimal``, or
        ``feasible`` (best found at the limit, with a proved lower ``bound``).

    Raises:
        NoPathError: proved that there is none (total domination with a cell
            no move reaches).
        SolveLimitError: nothing found by the limit.
        InvalidInputError: bad input.

    Examples:
        >>> c = dominate("4x4", count=True)
        >>> c.size, c.count  # OEIS A006075(4) = 4, A103315(4) = 9
        (4, 9)
        >>> dominate("5x5", kind="total").size  # OEIS A261752(5) = 7
        7
        >>> dominate("4x4", topology="torus", method="search").size  # A279407(4)
        4
    """
    if kind not in DOMINATION_KINDS:
        raise InvalidInputError(
            f"expected a kind in {', '.join(DOMINATION_KINDS)}: {kind!r}"
        )
    instance = cover_instance(
        board, kind=kind, count=count, symmetry=symmetry, piece=piece, topology=topology
    )
    return _solve(instance, method, options, time_limit)


def independent(
    board: BoardLike,
    *,
    count: bool = False,
    symmetry: bool = False,
    piece: PieceLike = KNIGHT,
    topology: Topology | None = None,
    method: str = "cpsat",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
) -> Cover:
    """The most knights on a board with no two attacking each other.

    The independence number of the move graph (OEIS A030978 on n x n: n^2/2
    for even n > 2, (n^2 + 1)/2 for odd n > 1). The arguments are those of
    :func:`dominate`.

    Examples:
        >>> c = independent("6x6", count=True, method="search")
        >>> c.size, c.count  # A030978(6) = 18: the two colours
        (18, 2)
    """
    instance = cover_instance(
        board,
        kind="independent-set",
        count=count,
        symmetry=symmetry,
        piece=piece,
        topology=topology,
    )
    return _solve(instance, method, options, time_limit)


def try_cover(
    board: BoardLike,
    *,
    kind: str = "dominating",
    count: bool = False,
    symmetry: bool = False,
    piece: PieceLike = KNIGHT,
    topology: Topology | None = None,
    method: str = "cpsat",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
) -> Outcome:
    """Like :func:`dominate` (or :func:`independent`), every ending an outcome.

    ``kind`` is any of :data:`~cpknight.covering.common.KINDS`.

    Examples:
        >>> o = try_cover("3x3", kind="total", method="search")
        >>> str(o.status), o.value is None
        ('infeasible', True)
    """
    instance = cover_instance(
        board, kind=kind, count=count, symmetry=symmetry, piece=piece, topology=topology
    )
    engine = COVER_METHODS.engine(method)
    run = solve_options(options, time_limit).start()
    return attempt(engine, instance, run)


def compare_covers(
    board: BoardLike,
    *,
    kind: str = "dominating",
    count: bool = False,
    symmetry: bool = False,
    piece: PieceLike = KNIGHT,
    topology: Topology | None = None,
    methods: str | Sequence[str] = "all",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
) -> Comparison:
    """Every engine on one covering question, one outcome each (own clocks).

    Examples:
        >>> c = compare_covers("5x5", kind="independent", methods="cpsat,search")
        >>> [o.value.size for o in c.rows]  # OEIS A342576(5) = 5
        [5, 5]
    """
    instance = cover_instance(
        board, kind=kind, count=count, symmetry=symmetry, piece=piece, topology=topology
    )
    names = method_names(COVER_METHODS, methods)
    opts = solve_options(options, time_limit)

    def one(name: str, run: Run) -> Outcome:
        return attempt_or_refuse(COVER_METHODS[name], instance, run)

    rows = each_engine("cover", names, opts, one)
    return Comparison(
        "cover",
        {
            "board": instance.board.label,
            "piece": list(instance.piece.vector),
            "kind": instance.kind,
            "count": count,
            "symmetry": symmetry,
            "time_limit": opts.time_limit,
        },
        tuple(rows),
    )


def cover_instance(
    board: BoardLike,
    *,
    kind: str,
    count: bool = False,
    symmetry: bool = False,
    piece: PieceLike = KNIGHT,
    topology: Topology | None = None,
) -> CoverInstance:
    """The checked instance of a covering question.

    Raises:
        InvalidInputError: an unknown kind, an infinite board, or one with no
            open cell.

    Examples:
        >>> cover_instance("holed8", kind="total").board.n_open
        48
    """
    resolved, leaper = resolve(board, piece, topology=topology)
    resolved.require_finite("a covering")
    if resolved.n_open == 0:
        raise InvalidInputError(f"board {resolved.label} has no open cell")
    return CoverInstance(
        board=resolved,
        piece=leaper,
        kind=covering_kind(kind),
        count=count,
        symmetry=symmetry,
    )


def _solve(
    instance: CoverInstance,
    method: str,
    options: SolveOptions | None,
    time_limit: float | None,
) -> Cover:
    engine = COVER_METHODS.engine(method)
    run = solve_options(options, time_limit).start()
    found: Cover = solve_with(engine, instance, run)
    return found
