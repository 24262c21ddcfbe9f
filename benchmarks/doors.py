"""What a front door costs over its kernel: ``knight_distance(..., method='formula')``.

Target (issue 22): a door costs little over its kernel. All 4,096 ordered pairs
of 8x8, one query at a time: ``knight_distance(board, s, t, method='formula')``
(board parsed, cells as tuples) and ``knight_distance('8x8', 'a1', 'b2', ...)``
(a spec and names) within 25x the closed form under them
(``formula_distance`` on a parsed board, measured in the same run). Before
issue 22 the door took about 26 us a query over a 0.36 us kernel (75x): it
watched the clock and Ctrl-C, imported the engine and spelled the board's label
on every call. python-chess's ``square_knight_distance`` (its few lines inline
when python-chess is not installed) is shown for scale.

Run: ``python benchmarks/doors.py`` (``--quick`` for fewer sweeps).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from distance import fastest, python_chess_distance, square_pairs

from cpknight import Board, knight_distance
from cpknight.distances.formula import formula_distance
from cpknight.text.render import table_text

BOARD = Board.parse("8x8")
TARGET = 25.0
"""The most a door may cost, in kernels."""


def sweeps() -> list[tuple[str, Callable[[], object], int]]:
    """The sweeps over all 4,096 pairs: label, function, queries."""
    chess_name, chess_distance = python_chess_distance()
    chess_name += " (scale)"
    squares, cells, names = square_pairs()
    for (a, b), (s, t) in zip(squares, cells, strict=True):
        want = formula_distance(BOARD, s, t)[0]
        assert chess_distance(a, b) == want
        assert knight_distance(BOARD, s, t, method="formula").distance == want
    n = len(cells)
    return [
        (
            "formula_distance(board, s, t) (the kernel)",
            lambda: [formula_distance(BOARD, s, t) for s, t in cells],
            n,
        ),
        (
            "knight_distance(board, s, t, method='formula')",
            lambda: [knight_distance(BOARD, s, t, method="formula") for s, t in cells],
            n,
        ),
        (
            "knight_distance('8x8', 'a1', 'b2', method='formula')",
            lambda: [knight_distance("8x8", s, t, method="formula") for s, t in names],
            n,
        ),
        (chess_name, lambda: [chess_distance(a, b) for a, b in squares], n),
    ]


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 sweeps, not 9")
    args = parser.parse_args(argv)
    times = 3 if args.quick else 9
    runs = sweeps()
    best = fastest([(func, count) for _, func, count in runs], times)
    kernel = best[0]
    rows: list[list[object]] = []
    met = True
    for k, (label, _, _) in enumerate(runs):
        ratio = best[k] / kernel
        if k in (1, 2):
            ok = ratio <= TARGET
            met = met and ok
            target = f"<= {TARGET:g}x kernel" + ("" if ok else " MISSED")
        else:
            target = "-"
        rows.append([label, f"{best[k]:.2f}", f"{ratio:.1f}", target])
    print(f"a door over its kernel, 8x8, 4096 pairs (fastest of {times} sweeps)")
    print(table_text(["case", "us/query", "x kernel", "target"], rows))
    print(f"targets: {'all met' if met else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
