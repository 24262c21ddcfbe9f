"""How long would ``snake_dfs.py`` take? Knuth's estimate of its search tree.

Knuth ("Estimating the efficiency of backtrack programs", Math. Comp. 29,
1975): walk from the root of a search tree to a leaf, taking each time one
child at random; if the nodes met have ``d0, d1, ...`` children, then
``1 + d0 + d0 d1 + d0 d1 d2 + ...`` is an unbiased estimate of the number of
nodes in the tree. The mean over many walks estimates it; their spread says
how well.

The tree here is ``snake_dfs.py``'s with the best held at ``--bar`` (its run
with ``--above BAR`` when nothing longer exists): the same moves, the same
two bounds (by colour and by the 4 x 4 tiles), the same cut. So the estimate
is the node count of a run that proves "none longer than BAR", and with the
nodes a second that the script reaches on the same machine, measured in the
same run on a board it finishes, it gives the hours.

Usage::

    python benchmarks/snake_estimate.py 10x10 --closed --bar 48   # check
    python benchmarks/snake_estimate.py 11x11 --closed --bar 58

Prints, per start cell, the estimated nodes and their standard error, then
the total and the hours at the measured speed.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
import numpy.typing as npt
import snake_dfs
from numba import njit


# not cached: numba's cache would not see a change to snake_dfs's bounds
@njit(cache=False)
def walks(
    start: int,
    allowed: npt.NDArray[np.bool_],
    closed: bool,
    adj: npt.NDArray[np.int32],
    deg: npt.NDArray[np.int32],
    colour: npt.NDArray[np.int8],
    bar: int,
    tile_of: npt.NDArray[np.int32],
    bit_of: npt.NDArray[np.int32],
    offset: npt.NDArray[np.int64],
    table: npt.NDArray[np.int8],
    count: int,
    seed: int,
) -> npt.NDArray[np.float64]:
    """``count`` random walks down the search from ``start``: each one's estimate."""
    np.random.seed(seed)
    n = deg.shape[0]
    used = np.zeros(n, np.bool_)
    near = np.zeros(n, np.int32)
    by_start = np.zeros(n, np.int32)
    mark = np.zeros(n, np.int64)
    by_head = np.zeros(n, np.int64)
    seen = np.empty(n, np.int32)
    masks = np.zeros(offset.shape[0], np.int64)
    path = np.empty(n, np.int32)
    kids = np.empty(8, np.int32)
    out = np.empty(count, np.float64)
    stamp = 0
    for walk in range(count):
        for v in range(n):
            used[v] = not allowed[v]
            near[v] = 0
            by_start[v] = 0
        used[start] = True
        for i in range(deg[start]):
            near[adj[start, i]] += 1
            by_start[adj[start, i]] = 1 if closed else 0
        path[0] = start
        depth = 0
        weight = 1.0
        total = 0.0
        while True:
            total += weight
            head = path[depth]
            stamp += 1
            if closed:
                if depth >= 1:
                    room = snake_dfs.cycle_room(
                        head, adj, deg, colour, used, near, by_start, mark, stamp,
                        seen, by_head, tile_of, bit_of, offset, table, masks,
                    )  # fmt: skip
                    if room < 0 or (depth + 1 + room) & ~1 <= bar:
                        break
            else:
                room = snake_dfs.path_room(
                    head, adj, deg, colour, used, near, mark, stamp, seen, by_head,
                    tile_of, bit_of, offset, table, masks,
                )  # fmt: skip
                if depth + room <= bar:
                    break
            found = 0
            for i in range(deg[head]):
                v = adj[head, i]
                if not used[v] and near[v] == 1:
                    kids[found] = v
                    found += 1
            if found == 0:
                break
            weight *= found
            v = kids[np.random.randint(found)]
            used[v] = True
            for i in range(deg[v]):
                near[adj[v, i]] += 1
            depth += 1
            path[depth] = v
        out[walk] = total
    return out


def estimate(
    rows: int, cols: int, start: int, closed: bool, bar: int, count: int, seed: int
) -> tuple[float, float]:
    """The estimated nodes of the search from ``start`` and its standard error."""
    adj, deg = snake_dfs.tables(rows, cols)
    allowed = np.ones(rows * cols, np.bool_)
    if closed:
        allowed[:] = False
        allowed[snake_dfs.cycle_cells(rows, cols)[start]] = True
    got = walks(
        start,
        allowed,
        closed,
        adj,
        deg,
        snake_dfs.colours(rows, cols),
        bar,
        *snake_dfs.tile_tables(rows, cols),
        count,
        seed,
    )
    return float(got.mean()), float(got.std() / math.sqrt(count))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("board", help="RANKSxFILES, like 11x11")
    parser.add_argument("--closed", action="store_true", help="induced cycles")
    parser.add_argument(
        "--bar", type=int, required=True, help="the best held (moves): the cut"
    )
    parser.add_argument(
        "--walks", type=int, default=200_000, help="walks per start cell"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--speed-board",
        default="9x9",
        help="a board searched whole to measure nodes a second (default 9x9)",
    )
    args = parser.parse_args(argv)
    try:
        rows, cols = snake_dfs.parse_size(args.board)
        speed_rows, speed_cols = snake_dfs.parse_size(args.speed_board)
    except ValueError as error:
        print(f"snake_estimate.py: {error}", file=sys.stderr)
        return 2
    if args.walks < 2:
        print("snake_estimate.py: --walks must be at least 2", file=sys.stderr)
        return 2
    starts = (
        sorted(snake_dfs.cycle_cells(rows, cols))
        if args.closed
        else snake_dfs.start_cells(rows, cols)
    )
    total = 0.0
    variance = 0.0
    began = time.perf_counter()
    for start in starts:
        mean, spread = estimate(
            rows, cols, start, args.closed, args.bar, args.walks, args.seed
        )
        total += mean
        variance += spread**2
        print(
            f"  {snake_dfs.name(start, cols)}: {mean:.3g} nodes"
            f" (standard error {spread:.2g})",
            flush=True,
        )
    print(
        f"{args.board}: about {total:.3g} nodes (standard error"
        f" {math.sqrt(variance):.2g}), {args.walks:,} walks a start cell,"
        f" {time.perf_counter() - began:.1f} s"
    )
    # the speed: a whole search, from the first start on, in this run
    nodes = 0
    seconds = 0.0
    best = -1
    for start in (
        snake_dfs.cycle_cells(speed_rows, speed_cols)
        if args.closed
        else snake_dfs.start_cells(speed_rows, speed_cols)
    ):
        row = snake_dfs.run_start(speed_rows, speed_cols, start, best, args.closed)
        nodes += int(str(row["nodes"]))
        seconds += float(str(row["seconds"]))
        best = max(best, int(str(row["moves"] or -1)))
    rate = nodes / max(seconds, 1e-9)
    print(
        f"speed: {rate:,.0f} nodes a second ({args.speed_board}, {nodes:,} nodes"
        f" in {seconds:.1f} s); so about {total / rate / 3600:.3g} hours on one core"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
