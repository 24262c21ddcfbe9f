"""What ``method='auto'`` counts with, and why.

The rule follows ``benchmarks/count.py``: the frontier program's cost does not
depend on how many tours there are, CP-SAT enumeration's grows with each one,
so a plain count is the frontier program's wherever its frontier is at most
:data:`~cpknight.frontier.plan.MAX_WIDTH` cells wide; enumeration is left the
instances a cheap certificate proves have none (7x7 closed: odd), which it
answers at once, and the side constraints, which only it honours. A count
the frontier program cannot hold (too wide, or its estimates past the memory
budget or the time limit) is refused, never enumerated in its place: the user
asks for a partial enumeration with ``method='cpsat'``. A frontier kernel
named (``kernel=``) is honoured: the count is the frontier program's.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.counting.instance import CountInstance
    >>> from cpknight.pieces import KNIGHT
    >>> choose_count_method(CountInstance(Board.parse("6x12"), KNIGHT))
    ('frontier', 'the frontier is 14 cells wide, at most 14')
"""

from __future__ import annotations

from cpknight.counting.instance import CountInstance
from cpknight.counting.kernels import NUMPY, estimated_seconds
from cpknight.errors import InvalidInputError
from cpknight.formulation import check_circuit_size
from cpknight.frontier.plan import (
    MAX_WIDTH,
    estimated_states,
    frontier_width,
    narrowest_width,
)
from cpknight.graph import arc_bound
from cpknight.tours.certificates import tour_certificate

__all__ = ["FRONTIER_WIDTH", "SUBSET_CELLS", "choose_count_method"]

SUBSET_CELLS = 30
"""Up to this many cells ``auto`` counts over subsets where that is sooner
than the frontier program and its layers fit the memory budget (about 17 GB
at 30 cells, 2 GB at 27)."""

FRONTIER_BIAS = {"wrapped": 25.0, "3-D": 0.05}
"""The frontier's time over its guess (made on plain boards), as measured on
2 cores: the 3x6 torus took 22.8 s closed and 166 s open where the guess
says 0.84 s and 3.4 s (27 and 49 times); the 2x3x4 box 1.7 s and 3.6 s
where it says 28 s and 157 s (0.06 and 0.02 times)."""

FRONTIER_WIDTH = 14
"""Up to this frontier width the frontier program needs no second thought (the
knight on boards up to 6 cells across); wider, it is the dense kernel, met in
the middle where it can, and the count's estimates decide whether it runs."""


def choose_count_method(instance: CountInstance) -> tuple[str, str]:
    """The counting engine ``method='auto'`` uses, and the reason.

    Returns:
        ``('frontier', why)``, ``('subsets', why)`` (a board of at most
        :data:`SUBSET_CELLS` cells that the DP over subsets counts sooner,
        numba installed and its layers within the memory budget) or
        ``('cpsat', why)``.

    Raises:
        InvalidInputError: a frontier wider than the program takes (the
            message says ``--method cpsat`` enumerates, a partial count);
            a frontier kernel asked for a count only enumeration can make.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> choose_count_method(CountInstance(Board.parse("10x10"), KNIGHT))[0]
        'frontier'
        >>> choose_count_method(CountInstance(Board.parse("5x5"), KNIGHT))  # odd
        ('cpsat', 'a certificate proves there is none')
        >>> choose_count_method(CountInstance(Board.parse("40x40"), KNIGHT))
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: the frontier of 40x40 (knight (1,2)) \
is at least 40 cells wide; the frontier program takes at most 30, and \
enumeration would count a part of the tours (--method cpsat for that)
    """
    named = instance.kernel != "auto"
    if instance.constraints:
        if named:
            raise InvalidInputError(
                f"--kernel {instance.kernel} is the frontier program's, which "
                "counts plain tours: side constraints are counted by CP-SAT "
                "enumeration (drop --kernel)"
            )
        return "cpsat", "side constraints: the frontier program counts plain tours"
    if instance.prefixes:
        return "frontier", "prefix counts are the frontier program's"
    board, piece = instance.board, instance.piece
    side = narrowest_width(board, piece)
    if side > MAX_WIDTH:  # from the shape alone: the graph only if it is small
        check_circuit_size(
            arc_bound(board, piece) + board.n_open,
            f"the counting model of {board.label} ({piece.label})",
        )
        if _proved_none(instance):
            return "cpsat", "a certificate proves there is none"
        _refuse_wide(instance, f"at least {side}")
    width = frontier_width(instance.graph)
    if not named and _proved_none(instance):
        return "cpsat", "a certificate proves there is none"
    if width > MAX_WIDTH:
        _refuse_wide(instance, str(width))
    on_disk = instance.checkpoint is not None or instance.spread is not None
    if not named and not on_disk and board.n_open <= SUBSET_CELLS:
        why = _subsets_sooner(instance, width)
        if why is not None:
            return "subsets", why
    if width > FRONTIER_WIDTH:
        where = "on disk" if instance.checkpoint is not None else "in memory"
        return (
            "frontier",
            f"the frontier is {width} cells wide: the dense kernel {where}, or "
            "met in the middle, if its estimates fit",
        )
    return "frontier", f"the frontier is {width} cells wide, at most {FRONTIER_WIDTH}"


def _subsets_sooner(instance: CountInstance, width: int) -> str | None:
    """Why the DP over subsets counts sooner than the frontier program, or None.

    Its estimate (loading and compiling its loops included) against the
    frontier's guess of its states at this width (made on plain boards), at
    the numpy kernel's rate, times :data:`FRONTIER_BIAS` of the board's kind.
    """
    from cpknight.counting.subsets import subsets_seconds

    mine = subsets_seconds(instance)
    if mine is None:
        return None
    board = instance.board
    n = board.n_open
    states = estimated_states(width, closed=instance.closed)
    theirs = estimated_seconds(states, n, NUMPY.name, disk=False)
    if any(board.wrap):
        theirs *= FRONTIER_BIAS["wrapped"]
    elif board.dim > 2:
        theirs *= FRONTIER_BIAS["3-D"]
    if mine >= theirs:
        return None
    return (
        f"the frontier is {width} cells wide and the board has {n} cells: "
        f"the DP over its subsets, about {mine:.1f} s against {theirs:.1f} s"
    )


def _proved_none(instance: CountInstance) -> bool:
    """Whether a cheap certificate proves the instance has no tour."""
    found = tour_certificate(
        instance.graph,
        closed=instance.closed,
        start=instance.start,
        end=instance.end,
    )
    return found is not None


def _refuse_wide(instance: CountInstance, width: str) -> None:
    """Refuse a count whose frontier the program cannot take (one line)."""
    board, piece = instance.board, instance.piece
    raise InvalidInputError(
        f"the frontier of {board.label} ({piece.label}) is {width} cells wide; "
        f"the frontier program takes at most {MAX_WIDTH}, and enumeration "
        "would count a part of the tours (--method cpsat for that)"
    )
