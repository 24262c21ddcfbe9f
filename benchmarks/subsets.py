"""Counting tours over subsets against the frontier program, in the same run.

The DP over subsets (``method='subsets'``) costs ``n 2^n`` whatever the
board's shape; the frontier program's cost grows with its frontier, which on
a torus carries the wrapped rows and on a 3-D box two layers. Each row counts
one board both ways, one after the other in this process (the compiled loops
of both loaded first, as ``cpknight warm`` leaves them), checks that the two
counts agree, and reports the frontier's seconds over the DP's. The frontier
gets at most ``--cap`` times the DP's time (at least ``--floor`` seconds): a
count still running then is a ratio of at least the cap.

Targets: the DP at least 10 times faster on the tori of 18 cells and more
(where ``auto`` now picks it); on the 3-D box 2x3x4, whose frontier is narrow
enough, the frontier stays the faster (``auto`` keeps it there): reported,
no target.

Run: ``python benchmarks/subsets.py`` (a few minutes; ``--quick``: the small
rows only). The machine may be shared: the ratios are the figures to trust.
"""

from __future__ import annotations

import argparse
import sys

from cpknight import SolveOptions, count_tours
from cpknight.board import Board
from cpknight.results import TourCount
from cpknight.status import Status
from cpknight.text.render import table_text

ROWS: list[tuple[Board, bool, float | None]] = [
    (Board((4, 4), topology="torus"), False, None),
    (Board((3, 6), topology="torus"), True, 10.0),
    (Board((3, 6), topology="torus"), False, 10.0),
    (Board((4, 5), topology="torus"), True, 10.0),
    (Board((4, 5), topology="torus"), False, 10.0),
    (Board((2, 3, 4)), True, None),
    (Board((2, 3, 4)), False, None),
]
"""(board, closed, target ratio or None)."""

QUICK = 3
"""``--quick`` runs the first rows only."""


def _count(board: Board, closed: bool, method: str, limit: float | None) -> TourCount:
    options = SolveOptions(time_limit=limit)
    return count_tours(board, closed=closed, method=method, options=options)


def main(argv: list[str] | None = None) -> int:
    """Run the rows; print the table; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the small rows only")
    parser.add_argument("--cap", type=float, default=20.0, help="the frontier's cap")
    parser.add_argument("--floor", type=float, default=30.0, help="its least time")
    args = parser.parse_args(argv)
    warm = Board((3, 4), topology="torus")
    for method in ("subsets", "frontier"):  # load the compiled loops first
        _count(warm, False, method, None)
    rows, missed = [], 0
    for board, closed, target in ROWS[: QUICK if args.quick else None]:
        mine = _count(board, closed, "subsets", None)
        cap = max(args.cap * mine.seconds, args.floor)
        theirs = _count(board, closed, "frontier", cap)
        done = theirs.status is Status.FOUND
        if done and theirs.directed != mine.directed:
            print(f"{board.label}: the counts differ", file=sys.stderr)
            return 2
        ratio = theirs.seconds / mine.seconds
        shown = f"{ratio:.1f}" if done else f">= {ratio:.1f}"
        verdict = "-"
        if target is not None:
            verdict = "met" if ratio >= target else "MISSED"
            missed += ratio < target
        kind = "closed" if closed else "open"
        rows.append(
            [
                f"{board.label} {kind}",
                f"{mine.undirected:,}",
                f"{mine.seconds:.2f} s",
                f"{theirs.seconds:.2f} s" + ("" if done else " (stopped)"),
                shown,
                "-" if target is None else f">= {target:g}",
                verdict,
            ]
        )
    headers = ["count", "undirected", "subsets", "frontier", "ratio", "target", ""]
    print(table_text(headers, rows))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
