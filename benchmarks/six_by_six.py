"""The fewest turns and the fewest crossings of a closed 6x6 tour, proved twice.

Route one: ``cpknight tour 6x6 --min turns`` and ``--min crossings`` (the
CP-SAT circuit model with the objective; ``optimal`` is its proof). Route two,
sharing no code with cpknight: every closed tour of 6x6 enumerated by a
plain search from a1 (a free cell left with fewer than two ways in and out
cuts the branch), each tour's turns and crossings counted from its
coordinates. The enumeration must find the 9,862 closed tours of OEIS
A001230(6) before its minima are trusted.

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
    """Every closed tour from a1, each undirected one in both directions."""
    nbrs = neighbours()
    start: Cell = (0, 0)
    free = {cell for cell in nbrs if cell != start}
    path = [start]
    found: list[list[Cell]] = []

    def ways(cell: Cell, here: Cell) -> int:
        # A free cell is entered and left: it needs two cells it can use,
        # free ones, the knight's cell and the start (to close the tour).
        return sum(1 for x in nbrs[cell] if x in free or x in (here, start))

    def extend(here: Cell) -> None:
        if not free:
            if start in nbrs[here]:
                found.append(list(path))
            return
        for nxt in nbrs[here]:
            if nxt not in free:
                continue
            free.discard(nxt)
            path.append(nxt)
            if all(ways(x, nxt) >= 2 for x in nbrs[nxt] if x in free):
                extend(nxt)
            path.pop()
            free.add(nxt)

    extend(start)
    return found


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
