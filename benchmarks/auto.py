"""What ``method="auto"`` picks for tours, against every engine on every class.

Target (issue 16): on every instance of every class (plain, holed, random
blocked, tori, cylinders, 3D, five leapers; open and closed; with and without
fixed ends; found and proved none) ``auto`` is within 2x of the best engine
(plus 0.05 s, the noise of a shared machine on instances that take
milliseconds), and never at the limit where another engine answers within it.
The baseline is each instance's best engine, measured in the same run, each
engine on its own clock with the same short limit.

Run: ``python benchmarks/auto.py`` (``--quick``: a shorter limit and one
instance a class). Exit code 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass

from cpknight import Board, SolveOptions
from cpknight.api import TOUR_METHODS, try_tour
from cpknight.board import Cell
from cpknight.results import Outcome
from cpknight.text.render import table_text

ENGINES = ("prune", "warnsdorff", "greedy", "cpsat", "race")
SLACK = 0.05  # seconds: below this, a factor of 2 is noise


@dataclass(frozen=True)
class Case:
    """One tour instance of a class."""

    kind: str
    board: Board
    closed: bool = True
    piece: str = "knight"
    start: str | None = None
    end: str | None = None
    quick: bool = False  # in the --quick run

    @property
    def label(self) -> str:
        text = f"{self.board.label} {'closed' if self.closed else 'open'}"
        if self.board.topology != "bounded" and self.board.topology not in text:
            text += f" {self.board.topology}"
        if self.piece != "knight":
            text += f" {self.piece}"
        if self.start:
            text += f" from {self.start}"
        if self.end:
            text += f" to {self.end}"
        return text


def blocked_board(rows: int, cols: int, count: int, seed: int) -> Board:
    """``count`` random blocked cells, as many of each colour (seeded)."""
    rng = random.Random(seed)
    cells: dict[int, list[Cell]] = {0: [], 1: []}
    for r in range(rows):
        for c in range(cols):
            cells[(r + c) % 2].append((r, c))
    chosen = rng.sample(cells[0], count // 2) + rng.sample(cells[1], count - count // 2)
    board = Board((rows, cols), chosen)
    return Board(board.shape, board.blocked, name=f"{rows}x{cols}-{count}blocked")


def cases() -> list[Case]:
    """The matrix: every class, open and closed, fixed ends, found and none."""
    b = Board.parse
    return [
        Case("plain", b("8x8"), quick=True),
        Case("plain", b("8x8"), closed=False, start="a1", end="b1"),
        Case("plain", b("6x6"), closed=False, start="a1"),
        Case("plain", b("3x10"), closed=False, start="a1", end="j3"),
        Case("plain", b("4x8"), closed=True),  # none: Schwenk
        Case("holed", b("holed8"), closed=False, quick=True),
        Case("holed", b("ring10"), closed=True),
        Case("holed", b("heart9"), closed=False, start="e1"),
        Case("holed", b("blocks12"), closed=True),
        Case("holed", b("frame9"), closed=True),
        Case("random blocked", blocked_board(12, 12, 8, 1), closed=True),
        Case("random blocked", blocked_board(12, 12, 8, 2), closed=False, start="a1"),
        Case("random blocked", blocked_board(40, 40, 30, 0), closed=True, quick=True),
        Case("torus", b("6x6", topology="torus"), quick=True),
        Case("torus", b("5x5", topology="torus"), closed=False, start="a1"),
        Case("torus", b("4x4", topology="torus")),
        Case("cylinder", b("4x6", topology="cylinder"), quick=True),  # none
        Case("cylinder", b("6x6", topology="cylinder")),
        Case("cylinder", b("5x8", topology="cylinder"), closed=False, start="a1"),
        Case("3D", b("4x4x4"), quick=True),
        Case("3D", b("3x4x4"), closed=False, start="0,0,0"),
        Case("3D", b("cube4"), piece="1,2,3"),
        Case("leapers", b("14x14"), piece="antelope", quick=True),
        Case("leapers", b("14x14"), piece="2,5"),
        Case("leapers", b("14x14"), piece="1,6"),
        Case("leapers", b("10x10"), piece="zebra"),
        Case("leapers", b("10x10"), piece="giraffe", closed=False, start="a1"),
    ]


def run_case(case: Case, limit: float) -> dict[str, Outcome]:
    """Auto, then every engine, each with its own clock, by the method asked."""
    options = SolveOptions(time_limit=limit, workers=1, seed=0)
    outcomes = {}
    for method in ("auto", *ENGINES):
        if method not in ("auto", *TOUR_METHODS):
            continue
        outcomes[method] = try_tour(
            case.board,
            piece=case.piece,
            closed=case.closed,
            start=case.start,
            end=case.end,
            method=method,
            options=options,
        )
    return outcomes


def answered(outcome: Outcome) -> bool:
    return outcome.status.value in ("found", "infeasible")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few instances, 2 s")
    parser.add_argument("--limit", type=float, default=None, help="seconds per run")
    parser.add_argument("--only", default="", help="instances whose label has this")
    args = parser.parse_args(argv)
    limit = args.limit or (2.0 if args.quick else 5.0)
    chosen = [
        c for c in cases() if (c.quick or not args.quick) and args.only in c.label
    ]
    rows = []
    met = True
    for case in chosen:
        cells = run_case(case, limit)
        auto = cells.pop("auto")
        done = [(o.seconds, name) for name, o in cells.items() if answered(o)]
        best_seconds, best_name = min(done) if done else (0.0, "-")
        best = cells[best_name] if done else None
        if best is None:
            verdict = "-" if not answered(auto) else "ok"
        elif not answered(auto):
            verdict = "MISSED (limit)"
        elif auto.seconds <= 2 * best_seconds + SLACK:
            verdict = "ok"
        else:
            verdict = f"MISSED ({auto.seconds:.2f} s)"
        met = met and verdict in ("ok", "-")
        row: list[object] = [case.kind, case.label, str(auto.status), auto.method_label]
        row.append(f"{auto.seconds:.2f}")
        for name in ENGINES:
            o = cells.get(name)
            row.append(
                "-"
                if o is None
                else f"{o.seconds:.2f}"
                if answered(o)
                else {"unknown": "limit"}.get(str(o.status), str(o.status))
            )
        row.append(best_name)
        row.append(verdict)
        rows.append(row)
        print(
            f"  {case.label}: auto {auto.method_label} {auto.seconds:.2f} s", flush=True
        )
    headers = ["class", "instance", "answer", "auto picked", "auto s", *ENGINES]
    headers += ["best", "verdict"]
    print(f"\neach engine {limit:g} s, workers=1 (seconds; 'limit': none in time)")
    print(table_text(headers, rows))
    print(f"\ntargets: {'all met' if met else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
