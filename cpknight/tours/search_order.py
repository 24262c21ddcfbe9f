"""The order a backtracking search tries cells in: Roth's tie-breaks and degree.

Warnsdorff's rule moves to the neighbour with the fewest onward moves; ties go
to the cell farthest from the centre (Roth's rule), or, at a restart, to a
random ranking (:func:`tie_order`). Start cells of an open tour are taken by
degree, ties in the same order (:func:`by_degree`). Internal to
:mod:`cpknight.tours.search`.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import move_graph
    >>> g = move_graph(Board.parse("3x3"))
    >>> int(roth_order(g, 0)[0]), int(roth_rank(g, 0)[4])  # a1 first, b2 last
    (0, 8)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cpknight.pieces import MoveGraph

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["by_degree", "rank_of", "roth_order", "roth_rank", "tie_order"]


def tie_order(
    graph: MoveGraph, ordered: bool, seed: int, restart_no: int
) -> npt.NDArray[np.int64]:
    """The cells' tie-break order: Roth's rule, reseeded at each restart.

    Plain backtracking (not ``ordered``) takes the cells by node.
    """
    if not ordered:
        return np.arange(graph.n_nodes, dtype=np.int64)
    if restart_no:
        seed = seed * 1_000_003 + restart_no
    return roth_order(graph, seed)


def roth_rank(graph: MoveGraph, seed: int) -> npt.NDArray[np.int64]:
    """A tie-break rank per node: 0 for the cell farthest from the centre.

    Equal distances go by node order. With a non-zero seed: a random ranking.
    """
    return rank_of(roth_order(graph, seed))


def roth_order(graph: MoveGraph, seed: int) -> npt.NDArray[np.int64]:
    """The nodes by :func:`roth_rank`, rank 0 first."""
    n = graph.n_nodes
    if seed:
        return np.random.default_rng(abs(seed)).permutation(n).astype(np.int64)
    far = np.zeros(n, dtype=np.int64)
    for axis, size in enumerate(graph.board.shape):  # one axis at a time: no
        x = 2 * graph.cells[:, axis].astype(np.int64) - (size - 1)  # n x d copies
        far += x * x
    return np.argsort(-far, kind="stable").astype(np.int64)


def rank_of(order: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Each node's place in ``order``."""
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64)
    return rank


def by_degree(
    order: npt.NDArray[np.int64], degree: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The nodes of ``order`` by degree, ties kept in ``order``'s order.

    The same as ``np.lexsort((rank, degree))``, in linear time: degrees are
    small, and a stable sort of 16-bit keys is a radix sort.

    Examples:
        >>> by_degree(np.array([2, 0, 1]), np.array([3, 2, 3])).tolist()
        [1, 2, 0]
    """
    keys = degree[order]
    if keys.size and keys.max() < 1 << 15:
        keys = keys.astype(np.int16)
    return order[np.argsort(keys, kind="stable")]
