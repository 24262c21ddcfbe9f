"""What the tour engines share about side constraints: node maps and cheap proofs.

:func:`symmetry_nodes` gives a symmetry as a permutation of the move graph's
nodes; :func:`symmetry_certificate` is the cheap proof that no closed tour is
mapped onto itself by a symmetry, when the symmetry's fixed cells, or the two
colours of a bipartite move graph, rule out every way a symmetry can act on a
cycle. :func:`via_nodes` gives the visit numbers as node arrays.

A symmetry of order 2 maps a cycle of n cells onto itself either as a half turn
of the cycle (n even, no cell fixed: each cell goes n/2 places on) or as a
reflection of it: through two cells (n even, two fixed cells), through a cell
and the opposite move (n odd, one fixed cell) or through two moves (n even, no
fixed cell, each of those moves joins a cell to its image). A quarter turn
(order 4) can only turn the cycle a quarter of its length: no fixed cell. On a
bipartite move graph the colours alternate along the cycle, so a cell and the
cell k places on have the same colour exactly when k is even.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> symmetry_certificate(move_graph("5x5"), "rot90")
    'rot90 fixes c3, but a quarter turn of a cycle onto itself moves every cell'
    >>> symmetry_certificate(move_graph("6x6"), "rot180") is None
    True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from cpknight.board import Cell
from cpknight.constraints import TourConstraints, symmetry_map
from cpknight.graph import bfs_levels
from cpknight.pieces import MoveGraph
from cpknight.tours.certificates import two_colouring

__all__ = [
    "magic_certificate",
    "steps_certificate",
    "symmetry_certificate",
    "symmetry_nodes",
    "symmetry_turn",
    "via_nodes",
]

IntArray = npt.NDArray[np.int64]


def symmetry_nodes(graph: MoveGraph, name: str) -> IntArray:
    """The node each node is mapped to by the symmetry ``name``.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> symmetry_nodes(move_graph("2x3"), "rot180").tolist()
        [5, 4, 3, 2, 1, 0]
    """
    image = symmetry_map(graph.board, name)
    cells = [tuple(c) for c in graph.cells.tolist()]
    return np.array([graph.node(image(c)) for c in cells], dtype=np.int64)


def via_nodes(graph: MoveGraph, constraints: TourConstraints) -> list[tuple[int, int]]:
    """The visit numbers as ``(node, index)`` pairs, the index from 0."""
    return [(graph.node(cell), k - 1) for cell, k in constraints.via]


def steps_certificate(
    graph: MoveGraph,
    constraints: TourConstraints,
    *,
    closed: bool,
    start: Cell | None = None,
    end: Cell | None = None,
) -> str | None:
    """Why two known visit numbers clash, when a colour or a distance says so.

    Two cells ``k`` steps apart on the tour are joined by a path of ``k``
    moves (for a closed tour, also of ``n - k`` the other way round): so they
    are at least their move distance apart, and on a bipartite move graph they
    have the same colour exactly when ``k`` is even.

    Examples:
        >>> from cpknight.constraints import tour_constraints
        >>> from cpknight.pieces import move_graph
        >>> side = tour_constraints("8x8", via=["d4@10"])
        >>> steps_certificate(move_graph("8x8"), side, closed=False, start=(0, 0))
        'a1 (step 1) and d4 (step 10) have the same colour, but 9 moves change it'
    """
    n = graph.n_nodes
    known = [(cell, k) for cell, k in constraints.via]
    if start is not None:
        known.insert(0, (start, 1))
    if end is not None and not closed:
        known.append((end, n))
    if len(known) < 2:
        return None
    colour = two_colouring(graph)
    name = graph.board.cell_name
    for i, (a, ka) in enumerate(known):
        levels = None
        for b, kb in known[i + 1 :]:
            if a == b:
                continue
            gap = abs(kb - ka)
            shown = f"{name(a)} (step {ka}) and {name(b)} (step {kb})"
            if colour is not None and (
                (colour[graph.node(a)] == colour[graph.node(b)]) != (gap % 2 == 0)
            ):
                same = "the same colour" if gap % 2 else "different colours"
                verb = "change it" if gap % 2 else "keep it"
                return f"{shown} have {same}, but {gap} moves {verb}"
            if levels is None:
                levels = bfs_levels(graph, graph.node(a))
            d = int(levels[graph.node(b)])
            apart = min(gap, n - gap) if closed else gap
            if d > apart:
                return f"{shown} are {d} moves apart, more than {apart}"
    return None


def magic_certificate(graph: MoveGraph, axes: tuple[int, ...] = (0, 1)) -> str | None:
    """Why no tour can be semi-magic, when the sums cannot be whole numbers.

    ``axes``: the lines asked to share a sum (0: the ranks, 1: the files).

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> magic_certificate(move_graph("4x5"))
        'the visit numbers 1..20 sum to 210, which 4 ranks cannot share equally'
        >>> magic_certificate(move_graph("8x8")) is None
        True
    """
    rows, cols = graph.board.shape
    n = graph.n_nodes
    total = n * (n + 1) // 2
    for axis, count, what in ((0, rows, "ranks"), (1, cols, "files")):
        if axis in axes and total % count:
            return (
                f"the visit numbers 1..{n} sum to {total}, which {count} {what} "
                "cannot share equally"
            )
    return None


def symmetry_certificate(graph: MoveGraph, name: str) -> str | None:
    """A one-line proof that no closed tour is mapped onto itself, or ``None``.

    See the module notes for the argument. ``None`` means it does not apply:
    a symmetric tour may still be impossible (CP-SAT decides).
    """
    perm = symmetry_nodes(graph, name)
    n = graph.n_nodes
    nodes = np.arange(n)
    fixed = nodes[perm == nodes].tolist()
    cell = graph.board.cell_name
    shown = ", ".join(cell(graph.cells[v]) for v in fixed[:3])
    shown += ", ..." if len(fixed) > 3 else ""
    return _fixed_cells_reason(name, n, fixed, shown) or _colours_reason(
        graph, name, perm, fixed, shown
    )


def symmetry_turn(graph: MoveGraph, name: str) -> int | None:
    """How many places on a symmetric closed tour takes each cell to its image.

    When the symmetry can only turn the cycle (see the module notes), every
    cell's image is the same number of places on along the tour, one way or
    the other: a quarter of it for ``rot90`` with no fixed cell, half of it
    for a symmetry of order 2 that fixes no cell when no move joins a cell to
    its image. ``None`` when the symmetry might reflect the cycle instead (or
    no tour is mapped onto itself at all).

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> symmetry_turn(move_graph("8x10"), "rot180")
        40
        >>> symmetry_turn(move_graph("8x8"), "rot90")
        16
        >>> symmetry_turn(move_graph("5x5"), "rot90") is None
        True
    """
    perm = symmetry_nodes(graph, name)
    n = graph.n_nodes
    if bool((perm == np.arange(n)).any()):
        return None
    if name == "rot90":
        return n // 4 if n % 4 == 0 else None
    return None if _joins_an_image(graph, perm) else n // 2


def _joins_an_image(graph: MoveGraph, perm: IntArray) -> bool:
    """Whether some move joins a cell to its image under ``perm``."""
    return any(int(perm[v]) in graph.neighbors(v).tolist() for v in range(len(perm)))


def _fixed_cells_reason(name: str, n: int, fixed: list[int], shown: str) -> str | None:
    """The fixed cells' argument: a symmetry of a cycle fixes 0, 1 or 2 of them."""
    if name == "rot90":
        if fixed:
            return (
                f"{name} fixes {shown}, but a quarter turn of a cycle onto itself "
                "moves every cell"
            )
        if n % 4:
            return f"{name} has orbits of 4 cells, but the board has {n} open cells"
    elif len(fixed) > 2:
        return (
            f"{name} fixes {len(fixed)} cells ({shown}), but a symmetry of order 2 "
            "of a cycle fixes at most 2"
        )
    elif len(fixed) % 2 != n % 2:
        return (
            f"{name} fixes {len(fixed)} cell{'s' if len(fixed) != 1 else ''} and "
            f"the board has {n} open cells, but a symmetry of order 2 of a cycle "
            f"of {n} cells fixes {'0 or 2' if n % 2 == 0 else '1'} of them"
        )
    return None


def _colours_reason(
    graph: MoveGraph,
    name: str,
    perm: IntArray,
    fixed: list[int],
    shown: str,
) -> str | None:
    """The colours' argument: how a symmetry acts on an even cycle's two colours."""
    n = graph.n_nodes
    colour = two_colouring(graph)
    if colour is None or n % 2:
        return None
    swaps = bool((colour[perm] != colour).all())
    keeps = bool((colour[perm] == colour).all())
    if not (swaps or keeps):
        return None
    linked = _joins_an_image(graph, perm)
    does = "swaps" if swaps else "keeps"
    if name == "rot90":
        turn = n // 4
        if swaps != bool(turn % 2):
            return (
                f"{name} {does} the two colours of the moves, but it would turn a "
                f"cycle of {n} cells by {turn} places, which "
                f"{'keeps' if swaps else 'swaps'} them"
            )
        return None
    half = n // 2
    # The ways an order-2 symmetry can act on an even cycle, given the colours.
    rotation = not fixed and swaps == bool(half % 2)
    through_cells = len(fixed) == 2 and keeps
    through_moves = not fixed and swaps and linked
    if rotation or through_cells or through_moves:
        return None
    if fixed:
        return (
            f"{name} fixes {shown} and {does} the two colours of the moves, but a "
            "reflection of a cycle through two of its cells keeps them"
        )
    why = "no move joins a cell to its image" if swaps else "it keeps them"
    return (
        f"{name} fixes no cell and {does} the two colours of the moves: a cycle of "
        f"{n} cells it maps onto itself would be turned half-way ({half} places, "
        f"which {'swaps' if half % 2 else 'keeps'} the colours) or reflected "
        f"through two moves that join a cell to its image (which swaps them), "
        f"and {why}"
    )
