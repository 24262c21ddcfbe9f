"""The covering puzzles against the published tables: CP-SAT beside SCIP, HiGHS
and the branch and bound, with and without symmetry breaking, in one run.

Run: ``python benchmarks/covering.py`` (domination n = 1..16, the other tables
as far as they go quickly); ``--quick`` (``make bench``): domination up to
8x8 and the other tables up to 6x6; ``--domination-only`` skips the others;
``--upto N`` sets the largest domination board; ``--limit S`` the seconds per
solve (default 60).

Each row is one board, one engine and one formulation: the optimum found,
whether it is proved, the seconds (model building and the LP relaxation
included), the process's CPU seconds (about what it takes alone on a free
core: the machine is shared), and the published value it must equal:

- A006075 domination, A261752 total domination, A342576 independent
  domination and A279407 domination of the n x n torus, as
  ``cover_records.TABLES`` holds them (read 2026-11-30);
- A030978 independence (non-attacking knights): n^2/2 or (n^2 + 1)/2.

Ratios in the same run: ``x plain`` (a row with symmetry breaking over the
same engine without it; below 1 the symmetry rows helped) and ``x cpsat``
(an engine over CP-SAT without symmetry). Exit code 1 if a value disagrees
with its table (a row at the limit is reported, not a failure).

``--records`` runs the record rows instead: the largest published terms of
each table (domination n = 12..16; total domination 11..13, 16, 20, 21, 24,
where cpknight solves the two colours apart and the plain scripts the whole;
independent domination 11..12; torus domination 9..12), each by four plain
scripts written here (the textbook set-cover model, nothing else: CP-SAT with
one worker and with two, SCIP through ``model_builder``, and SCIP 10 through
PySCIPOpt) and by cpknight's ``portfolio`` (CP-SAT and SCIP side by side; for
total domination also ``scip in parts``, cpknight's SCIP alone on the colours
apart) and ``pyscipopt`` engine, one after another in the same run. ``x best
plain``: each cpknight row's seconds over the fastest plain script's (a plain
script at the limit counts as the limit). ``--engines scip,parts`` runs only
those rows (keys: cpsat1, cpsat2, scip, scipopt, pyscipopt, pyscipopt-light,
portfolio, portfolio-sym, parts, parts-unbalanced: the parts without their
balance rows, as before they had them; torus, torus-light, torus-cpsat,
torus-cpsat-light: cpknight's SCIP and CP-SAT on the torus with and without
its heavy rows, and pyscipopt-light the same for SCIP 10).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import NamedTuple

from cover_records import TABLES

from cpknight import SolveOptions
from cpknight.api import try_cover
from cpknight.covering import parts, program
from cpknight.status import Status
from cpknight.text.render import table_text

A006075 = TABLES["A006075"].values
A261752 = TABLES["A261752"].values
A342576 = TABLES["A342576"].values
A279407 = TABLES["A279407"].values


def a030978(n: int) -> int:
    """OEIS A030978: 4 on 2x2, else n^2/2 rounded up."""
    return 4 if n == 2 else (n * n + 1) // 2


class Result(NamedTuple):
    """One solve: the size found, how it ended, the time, the LP bound."""

    size: int | None
    status: str
    seconds: float
    cpu: float
    lp: float | None


def run_one(
    n: int, kind: str, topology: str, method: str, symmetry: bool, limit: float
) -> Result:
    options = SolveOptions(time_limit=limit, workers=1, seed=0)
    cpu = time.process_time()
    o = try_cover(
        f"{n}x{n}",
        kind=kind,
        topology="torus" if topology == "torus" else None,
        method=method,
        symmetry=symmetry,
        options=options,
    )
    value = o.value
    return Result(
        size=None if value is None else value.size,
        status=str(o.status),
        seconds=o.seconds,
        cpu=time.process_time() - cpu,
        lp=None if value is None else value.lp_bound,
    )


def table(
    name: str,
    kind: str,
    topology: str,
    sizes: list[int],
    expected: dict[int, int],
    methods: list[tuple[str, bool]],
    limit: float,
) -> bool:
    """One table: every board through every (engine, symmetry); True if all agree."""
    ok = True
    rows: list[list[object]] = []
    for n in sizes:
        plain: dict[str, float] = {}
        for method, symmetry in methods:
            r = run_one(n, kind, topology, method, symmetry, limit)
            seconds = r.seconds
            if not symmetry:
                plain[method] = seconds
            base = plain.get(method) if symmetry else plain.get("cpsat")
            ratio = "" if not base else f"{seconds / base:.2f}"
            size = r.size
            agrees = size == expected[n] or r.status != str(Status.OPTIMAL)
            if not agrees:
                ok = False
            rows.append(
                [
                    n,
                    method + (" +sym" if symmetry else ""),
                    "" if size is None else size,
                    expected[n],
                    r.status + ("" if agrees else " WRONG"),
                    "" if r.lp is None else f"{r.lp:.2f}",
                    f"{seconds:.2f}",
                    f"{r.cpu:.2f}",
                    ratio,
                ]
            )
            print(
                f"  {name} n={n} {rows[-1][1]}: {rows[-1][4]} {seconds:.2f} s",
                file=sys.stderr,
                flush=True,
            )
    heading = [
        "n",
        "engine",
        "size",
        "OEIS",
        "status",
        "LP",
        "seconds",
        "cpu s",
        "x plain / x cpsat",
    ]
    print(f"\n{name}\n" + table_text(heading, rows), flush=True)
    return ok


def neighbourhoods(n: int, kind: str, torus: bool) -> list[list[int]]:
    """For each cell of n x n, the cells whose knight covers it (plain code)."""
    jumps = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
    rows: list[list[int]] = []
    for r in range(n):
        for c in range(n):
            cover = set() if kind == "total" else {r * n + c}
            for dr, dc in jumps:
                rr, cc = r + dr, c + dc
                if torus:
                    cover.add((rr % n) * n + cc % n)
                elif 0 <= rr < n and 0 <= cc < n:
                    cover.add(rr * n + cc)
            rows.append(sorted(cover))
    return rows


def plain_cpsat(
    n: int, kind: str, torus: bool, limit: float, workers: int
) -> tuple[int | None, bool, float]:
    """The textbook CP-SAT model, default parameters: (size, proved, seconds)."""
    from ortools.sat.python import cp_model

    began = time.perf_counter()
    model = cp_model.CpModel()
    xs = [model.new_bool_var(f"x{v}") for v in range(n * n)]
    for v, cover in enumerate(neighbourhoods(n, kind, torus)):
        model.add(sum(xs[u] for u in cover) >= 1)
        if kind == "independent":  # no knight attacks another
            for u in cover:
                if u > v:
                    model.add_bool_or([~xs[v], ~xs[u]])
    model.minimize(sum(xs))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = max(
        1e-3, limit - (time.perf_counter() - began)
    )
    status = solver.solve(model)
    seconds = time.perf_counter() - began
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, False, seconds
    return round(solver.objective_value), status == cp_model.OPTIMAL, seconds


def plain_scipopt(
    n: int, kind: str, torus: bool, limit: float
) -> tuple[int | None, bool, float]:
    """The textbook model straight into SCIP 10 (PySCIPOpt): (size, proved, s).

    The baseline of cpknight's ``pyscipopt`` engine: the same SCIP, with its
    symmetry detection, and no program of cpknight's (no ``x[a1] = 1``).
    """
    import pyscipopt

    began = time.perf_counter()
    model = pyscipopt.Model()
    model.hideOutput()
    xs = [model.addVar(vtype="B", name=f"x{v}") for v in range(n * n)]
    for v, cover in enumerate(neighbourhoods(n, kind, torus)):
        model.addCons(pyscipopt.quicksum(xs[u] for u in cover) >= 1)
        if kind == "independent":
            for u in cover:
                if u > v:
                    model.addCons(xs[u] + xs[v] <= 1)
    model.setObjective(pyscipopt.quicksum(xs), "minimize")
    model.setParam("limits/time", max(1e-3, limit - (time.perf_counter() - began)))
    model.optimize()
    seconds = time.perf_counter() - began
    if model.getNSols() == 0:
        return None, False, seconds
    proved = model.getStatus() == "optimal"
    return round(model.getObjVal()), proved, seconds


def plain_scip(
    n: int, kind: str, torus: bool, limit: float
) -> tuple[int | None, bool, float]:
    """The textbook model by SCIP (``model_builder``): (size, proved, seconds)."""
    from ortools.linear_solver.python import model_builder as mb

    began = time.perf_counter()
    model = mb.Model()  # type: ignore[no-untyped-call]
    xs = [model.new_bool_var(f"x{v}") for v in range(n * n)]
    for v, cover in enumerate(neighbourhoods(n, kind, torus)):
        model.add(mb.LinearExpr.sum([xs[u] for u in cover]) >= 1)
        if kind == "independent":
            for u in cover:
                if u > v:
                    model.add(xs[u] + xs[v] <= 1)
    model.minimize(mb.LinearExpr.sum(xs))
    solver = mb.Solver("scip")
    solver.set_time_limit_in_seconds(max(1e-3, limit - (time.perf_counter() - began)))
    status = solver.solve(model)
    seconds = time.perf_counter() - began
    if status not in (mb.SolveStatus.OPTIMAL, mb.SolveStatus.FEASIBLE):
        return None, False, seconds
    return round(solver.objective_value), status == mb.SolveStatus.OPTIMAL, seconds


RECORD_ROWS: list[tuple[str, str, bool, int, int]] = [
    *[("A006075", "dominating", False, n, A006075[n]) for n in range(12, 17)],
    *[("A261752", "total", False, n, A261752[n]) for n in (11, 12, 13, 16, 20, 21, 24)],
    *[("A342576", "independent", False, n, A342576[n]) for n in range(11, 13)],
    *[("A279407", "dominating", True, n, A279407[n]) for n in range(9, 13)],
]
"""(sequence, kind, torus, n, published value): the largest terms of each table."""


ROW_KEYS = {
    "cpsat1": "plain cpsat 1w",
    "cpsat2": "plain cpsat 2w",
    "scip": "plain scip",
    "scipopt": "plain scip 10",
    "pyscipopt": "cpknight pyscipopt",
    "pyscipopt-light": "cpknight pyscipopt, no heavy rows",
    "portfolio": "portfolio",
    "portfolio-sym": "portfolio +sym",
    "parts": "scip in parts",
    "parts-unbalanced": "scip in parts, no balance rows",
    "torus": "cpknight scip",
    "torus-light": "cpknight scip, no heavy rows",
    "torus-cpsat": "cpknight cpsat",
    "torus-cpsat-light": "cpknight cpsat, no heavy rows",
}
"""``--engines`` keys: the rows of each record board (``parts``: total only;
``torus*`` and ``pyscipopt-light``: the torus only, cpknight's SCIP or CP-SAT
with and without the ``heavy`` rows of :mod:`cpknight.covering.program`;
``scipopt``: the textbook model in SCIP 10 through PySCIPOpt, and
``pyscipopt`` cpknight's engine on it)."""


def records(limit: float, only: str | None, engines: set[str] | None = None) -> bool:
    """The record rows: three plain scripts and the portfolio, side by side."""
    ok = True
    rows: list[list[object]] = []
    wanted = set(ROW_KEYS) if engines is None else engines
    for name, kind, torus, n, expected in RECORD_ROWS:
        if only and only != name:
            continue
        runs: list[tuple[str, tuple[int | None, bool, float]]] = []
        if "cpsat1" in wanted:
            runs.append(("plain cpsat 1w", plain_cpsat(n, kind, torus, limit, 1)))
        if "cpsat2" in wanted:
            runs.append(("plain cpsat 2w", plain_cpsat(n, kind, torus, limit, 2)))
        if "scip" in wanted:
            runs.append(("plain scip", plain_scip(n, kind, torus, limit)))
        if "scipopt" in wanted:
            runs.append(("plain scip 10", plain_scipopt(n, kind, torus, limit)))
        ours = [
            (key, method, symmetry)
            for key, method, symmetry in (
                ("pyscipopt", "pyscipopt", False),
                ("pyscipopt-light", "pyscipopt", False),
                ("portfolio", "portfolio", False),
                ("portfolio-sym", "portfolio", True),
                ("parts", "scip", False),
                ("parts-unbalanced", "scip", False),
                ("torus", "scip", False),
                ("torus-light", "scip", False),
                ("torus-cpsat", "cpsat", False),
                ("torus-cpsat-light", "cpsat", False),
            )
            if key in wanted
            and (not key.startswith("parts") or kind == "total")
            and (not key.startswith("torus") or torus)
            and (key != "pyscipopt-light" or torus)
        ]
        for key, method, symmetry in ours:
            parts.BALANCE = key != "parts-unbalanced"
            program.HEAVIEST = not key.endswith("-light")
            r = run_one(
                n, kind, "torus" if torus else "bounded", method, symmetry, limit
            )
            parts.BALANCE = program.HEAVIEST = True
            label = ROW_KEYS[key]
            runs.append((label, (r.size, r.status == str(Status.OPTIMAL), r.seconds)))
        plain = [run for run in runs if run[0].startswith("plain")] or [
            ("none", (None, False, limit))
        ]
        best_plain = min(
            (s if proved else max(s, limit)) for _, (_, proved, s) in plain
        )
        for label, (size, proved, seconds) in runs:
            wrong = proved and size != expected
            ok &= not wrong
            ratio = (
                ""
                if label.startswith("plain") or plain[0][0] == "none"
                else f"{seconds / best_plain:.2f}"
            )
            rows.append(
                [
                    name,
                    f"{n}x{n}",
                    label,
                    "" if size is None else size,
                    expected,
                    ("optimal" if proved else "not proved")
                    + (" WRONG" if wrong else ""),
                    f"{seconds:.2f}",
                    ratio,
                ]
            )
            print(
                f"  {name} {n}: {label} {rows[-1][5]} {seconds:.2f} s",
                file=sys.stderr,
                flush=True,
            )
    heading = [
        "table",
        "board",
        "engine",
        "size",
        "OEIS",
        "status",
        "seconds",
        "x best plain",
    ]
    print("\nrecord rows\n" + table_text(heading, rows), flush=True)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the make bench sizes")
    parser.add_argument("--upto", type=int, default=None, help="largest domination n")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    parser.add_argument(
        "--domination-only", action="store_true", help="only the A006075 table"
    )
    parser.add_argument(
        "--from", dest="first", type=int, default=1, help="smallest domination n"
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="the MIP solvers without symmetry rows (CP-SAT keeps both)",
    )
    parser.add_argument(
        "--records",
        action="store_true",
        help="the record rows: plain scripts against the portfolio",
    )
    parser.add_argument(
        "--only", default=None, help="with --records: one table, like A006075"
    )
    parser.add_argument(
        "--engines",
        default=None,
        help="with --records: the rows to run, of " + ",".join(ROW_KEYS),
    )
    args = parser.parse_args()
    if args.records:
        engines = None if args.engines is None else set(args.engines.split(","))
        if engines is not None and engines - set(ROW_KEYS):
            parser.error(f"--engines takes {', '.join(ROW_KEYS)}")
        return 0 if records(args.limit, args.only, engines) else 1
    upto = args.upto or (8 if args.quick else 16)
    small = 6 if args.quick else 10
    others = not args.domination_only
    every = [
        ("cpsat", False),
        ("cpsat", True),
        ("scip", False),
        ("scip", True),
        ("highs", False),
        ("highs", True),
        ("search", False),
    ]
    ok = table(
        "domination (A006075)",
        "dominating",
        "bounded",
        list(range(args.first, upto + 1)),
        A006075,
        [m for m in every if m[0] != "search" and not (args.plain and m[1])]
        + ([("cpsat", True)] if args.plain else [])
        + ([("search", False)] if upto <= 10 else []),
        args.limit,
    )
    if not others:
        return 0 if ok else 1
    three = [("cpsat", False), ("cpsat", True), ("scip", False), ("search", False)]
    ok &= table(
        "total domination (A261752)",
        "total",
        "bounded",
        list(range(4, small + 1)),
        A261752,
        three,
        args.limit,
    )
    ok &= table(
        "independent domination (A342576)",
        "independent",
        "bounded",
        list(range(1, small + 1)),
        A342576,
        three,
        args.limit,
    )
    ok &= table(
        "torus domination (A279407)",
        "dominating",
        "torus",
        list(range(1, small + 1)),
        A279407,
        three,
        args.limit,
    )
    ok &= table(
        "independence (A030978)",
        "independent-set",
        "bounded",
        list(range(1, small + 3)),
        {n: a030978(n) for n in range(1, 20)},
        three,
        args.limit,
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
