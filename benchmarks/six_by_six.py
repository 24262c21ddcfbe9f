"""The fewest turns and the fewest crossings of a closed 6x6 tour, proved twice.

Route one: ``cpknight tour 6x6 --min turns`` and ``--min crossings`` (the
CP-SAT circuit model with the objective; ``optimal`` is its proof). Route two,
sharing no code with cpknight: every closed tour of 6x6 enumerated by a
plain search from a1 (a free cell left with fewer than two ways in and out
cuts the branch; compiled by numba, the ``fast`` extra), each tour's turns and
crossings counted from its coordinates in Python. The enumeration must find
the 9,862 closed tours of OEIS A001230(6) before its minima are trusted.

A turn is a cell where the move in and the move out differ (a closed tour:
every cell, the first too). A crossing is a pair of the tour's moves whose
segments meet in a point that is not a common end; two knight moves never
overlap along a line (the integer points of a move's line are a move apart),
so that is a proper crossing, decided by orientations.

Run: ``python benchmarks/six_by_six.py`` (about a minute or two).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

N = 6
MOVES = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
Cell = tuple[int, int]
LIMIT = ("--time-limit", "600", "--json")


def neighbours() -> dict[Cell, list[Cell]]:
    """The knight's moves of the 6x6 board, from the coordinates."""
    return {
        (r, c): [
            (r + dr, c + dc) for dr, dc in MOVES if 0 <= r + dr < N and 0 <= c + dc < N
        ]
        for r in range(N)
        for c in range(N)
    }


def closed_tours() -> list[list[Cell]]:
    """Every closed tour from a1, each undirected one in both directions.

    A depth-first search over bit masks, compiled by numba (the ``fast``
    extra): the plain search in Python takes over ten minutes here.
    """
    import numpy as np
    import numpy.typing as npt
    from numba import njit

    cells = [(r, c) for r in range(N) for c in range(N)]
    index = {cell: i for i, cell in enumerate(cells)}
    nbrs = neighbours()
    table = np.full((N * N, 8), -1, dtype=np.int64)
    for cell, others in nbrs.items():
        for k, other in enumerate(others):
            table[index[cell], k] = index[other]

    @njit(cache=False)
    def search(table: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
        n = table.shape[0]
        path = np.zeros(n, dtype=np.int64)
        choice = np.full(n, -1, dtype=np.int64)
        free = (np.int64(1) << n) - 2  # every cell but a1 (cell 0)
        depth = 0
        found = 0
        while depth >= 0:
            here = path[depth]
            choice[depth] += 1
            k = choice[depth]
            if k >= 8 or table[here, k] < 0:
                choice[depth] = -1
                depth -= 1
                if depth >= 0:
                    free |= np.int64(1) << path[depth + 1]
                continue
            nxt = table[here, k]
            if not (free >> nxt) & 1:
                continue
            free &= ~(np.int64(1) << nxt)
            if free == 0:
                closes = False
                for j in range(8):
                    if table[nxt, j] == 0:
                        closes = True
                if closes:
                    path[depth + 1] = nxt
                    if found < out.shape[0]:
                        out[found, :] = path
                    found += 1
                free |= np.int64(1) << nxt
                continue
            ok = True  # every free neighbour keeps two ways: free, nxt or a1
            for j in range(8):
                x = table[nxt, j]
                if x < 0 or not (free >> x) & 1:
                    continue
                ways = 0
                for m in range(8):
                    y = table[x, m]
                    if y >= 0 and (y == nxt or y == 0 or (free >> y) & 1):
                        ways += 1
                if ways < 2:
                    ok = False
            if not ok:
                free |= np.int64(1) << nxt
                continue
            depth += 1
            path[depth] = nxt
            choice[depth] = -1
        return found

    out = np.zeros((40000, N * N), dtype=np.int64)
    found = search(table, out)
    assert found <= out.shape[0]
    return [[cells[int(i)] for i in row] for row in out[:found]]


def turns(tour: list[Cell]) -> int:
    """Cells where the direction changes, the tour closed."""
    n = len(tour)
    count = 0
    for i in range(n):
        (a, b), (c, d), (e, f) = tour[i - 1], tour[i], tour[(i + 1) % n]
        if (c - a, d - b) != (e - c, f - d):
            count += 1
    return count


def _side(p: Cell, q: Cell, r: Cell) -> int:
    value = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (value > 0) - (value < 0)


def crossings(tour: list[Cell]) -> int:
    """Pairs of moves whose segments cross (the tour closed)."""
    n = len(tour)
    segments = [(tour[i], tour[(i + 1) % n]) for i in range(n)]
    count = 0
    for i in range(n):
        p1, p2 = segments[i]
        for j in range(i + 1, n):
            q1, q2 = segments[j]
            if {p1, p2} & {q1, q2}:
                continue  # consecutive moves meet at their common end only
            if (
                _side(p1, p2, q1) * _side(p1, p2, q2) < 0
                and _side(q1, q2, p1) * _side(q1, q2, p2) < 0
            ):
                count += 1
    return count


def cpknight_minimum(objective: str) -> tuple[str, int, float]:
    """``cpknight tour 6x6 --min OBJECTIVE``: its status, value and seconds.

    Given ten minutes; a value not proved optimal in them reads as a
    disagreement.
    """
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "cpknight", "tour", "6x6", "--min", objective, *LIMIT],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - began
    answer = json.loads(done.stdout)
    return answer["status"], int(answer[objective]), seconds


def main() -> int:
    """Both routes; exit 1 when they disagree."""
    began = time.perf_counter()
    tours = closed_tours()
    enumerated = time.perf_counter() - began
    assert len(tours) % 2 == 0
    print(f"closed 6x6 tours: {len(tours) // 2:,} undirected in {enumerated:.1f} s")
    if len(tours) // 2 != 9862:  # OEIS A001230(6)
        print("the enumeration misses A001230(6) = 9,862: not trusted")
        return 1
    status = 0
    for name, measure in (("turns", turns), ("crossings", crossings)):
        values = [measure(tour) for tour in tours]
        best = min(values)
        ties = values.count(best) // 2
        solver, value, seconds = cpknight_minimum(name)
        agree = solver == "optimal" and value == best
        print(
            f"fewest {name}: {best} by enumeration ({ties:,} tours reach it); "
            f"cpknight: {solver} {value} in {seconds:.1f} s: "
            + ("agree" if agree else "DISAGREE")
        )
        status |= not agree
    return status


if __name__ == "__main__":
    sys.exit(main())
