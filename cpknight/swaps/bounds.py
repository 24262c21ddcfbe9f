"""Lower bounds on a swap: each knight's distance, matched, and the board's parity.

Both engines read these. The **assignment bound** relaxes the puzzle to
knights that do not block one another (a token-swapping relaxation): each
colour's knights are matched to its goal cells at the least total move-graph
distance (the Hungarian method), and every move moves one knight one step, so
no solution is shorter than the sum over colours. A knight that cannot reach
any goal cell of its colour (another component) proves the puzzle
impossible. The **parity**: on a bipartite move graph (the knight's on a
bounded board) each move changes by one the number of knights on one side,
so the number of moves has the parity of that number's change.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import KNIGHT
    >>> from cpknight.swaps.common import SwapInstance, placement
    >>> b = Board.parse("3x3")
    >>> inst = SwapInstance(
    ...     board=b, piece=KNIGHT,
    ...     start=placement({"W": ["a1", "c1"], "B": ["a3", "c3"]}, b),
    ...     goal=placement({"W": ["a3", "c3"], "B": ["a1", "c1"]}, b))
    >>> assignment_bound(inst), parity(inst)
    (8, 0)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from cpknight.errors import NoPathError
from cpknight.graph import two_colours
from cpknight.swaps.common import SwapInstance

__all__ = [
    "assignment_bound",
    "colour_bounds",
    "distances_from",
    "lower_bound",
    "min_cost_matching",
    "parity",
]

INF = 1 << 40
"""A distance between cells of different components."""


def distances_from(instance: SwapInstance, node: int) -> list[int]:
    """Breadth-first distances on the move graph from ``node`` (``INF``: none)."""
    graph = instance.graph
    indptr, indices = graph.indptr.tolist(), graph.indices.tolist()
    dist = [INF] * graph.n_nodes
    dist[node] = 0
    queue = deque([node])
    while queue:
        u = queue.popleft()
        for v in indices[indptr[u] : indptr[u + 1]]:
            if dist[v] == INF:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


def min_cost_matching(cost: Sequence[Sequence[int]]) -> int:
    """The least total cost of a perfect matching of rows to columns (Hungarian).

    Examples:
        >>> min_cost_matching([[4, 1, 3], [2, 0, 5], [3, 2, 2]])
        5
    """
    n = len(cost)
    if n == 0:
        return 0
    # Potentials u (rows), v (columns); p[j]: the row matched to column j.
    u = [0] * (n + 1)
    v = [0] * (n + 1)
    p = [0] * (n + 1)
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [INF * n] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], INF * n, 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    return sum(cost[p[j] - 1][j - 1] for j in range(1, n + 1))


def assignment_bound(instance: SwapInstance) -> int:
    """The fewest moves if knights never blocked one another (matched distances).

    Raises:
        NoPathError: a knight cannot reach any goal cell of its colour, or the
            colours cannot all be matched (proved impossible).
    """
    return sum(colour_bounds(instance))


def colour_bounds(instance: SwapInstance) -> list[int]:
    """Each colour's fewest moves if its knights never blocked (matched distances).

    Raises:
        NoPathError: a colour's knights cannot all reach its goal cells.
    """
    bounds = []
    start, goal = instance.nodes(instance.start), instance.nodes(instance.goal)
    for colour, froms, tos in zip(instance.colours, start, goal, strict=True):
        rows = [distances_from(instance, a) for a in froms]
        cost = [[row[b] for b in tos] for row in rows]
        best = min_cost_matching(cost)
        if best >= INF:
            raise NoPathError(
                f"no swap: the {colour} knights cannot all reach their goal cells "
                f"(the {instance.piece.label}'s move graph on "
                f"{instance.board.label} splits them)",
                bound=None,
            )
        bounds.append(best)
    return bounds


def parity(instance: SwapInstance) -> int | None:
    """The parity every solution's move count has (``None``: either may do)."""
    side = two_colours(instance.graph)
    if side is None:
        return None
    start = sum(side[n] for group in instance.nodes(instance.start) for n in group)
    goal = sum(side[n] for group in instance.nodes(instance.goal) for n in group)
    return (goal - start) % 2


def lower_bound(instance: SwapInstance) -> int:
    """The assignment bound, raised to the parity the moves must have.

    Raises:
        NoPathError: proved impossible (see :func:`assignment_bound`).
    """
    bound = assignment_bound(instance)
    want = parity(instance)
    if want is not None and bound % 2 != want:
        bound += 1
    return bound
