"""Values as tables: the rows and columns of every ``to_dataframe()``.

A sweep, a comparison, a study, a pair sweep, a count's prefixes, the
frontier program's live states and a distance map are tables; their
``to_dataframe()`` methods build a pandas DataFrame here, one row per cell,
engine, run, pair, prefix or step. pandas is imported on first use (it comes
with OR-Tools; :mod:`cpknight.runtime.optional` says how to install it otherwise).

Every effort column is one of :data:`EFFORT_COLUMNS`, present when some row
counted it (``<NA>`` in the rows that did not).

Examples:
    >>> from cpknight import sweep
    >>> df = sweep("3x4", closed=False, method="prune").to_dataframe()
    >>> list(df.columns)[:4], len(df)
    (['cell', 'coords', 'status', 'seconds'], 12)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from cpknight.runtime.optional import data_frame, require

if TYPE_CHECKING:
    from cpknight.counts import FrontierStats, TourCount
    from cpknight.results import DistanceMap, Outcome, Sweep
    from cpknight.status import Effort
    from cpknight.study import PairSweep, Study

__all__ = [
    "EFFORT_COLUMNS",
    "count_frame",
    "distance_map_frame",
    "frontier_frame",
    "outcomes_frame",
    "pairs_frame",
    "study_frame",
    "sweep_frame",
]

EFFORT_COLUMNS = (
    "attempts",
    "backtracks",
    "branches",
    "conflicts",
    "solutions",
    "cuts",
)
"""The effort fields, in this order, as columns."""


def _frame(
    rows: Sequence[dict[str, Any]],
    columns: Sequence[str],
    efforts: Iterable[dict[str, int]] = (),
) -> Any:
    """The rows under ``columns``, with the effort columns some row counted."""
    counted = [dict(e) for e in efforts]
    extra = [k for k in EFFORT_COLUMNS if any(k in e for e in counted)]
    table = [
        [row.get(c) for c in columns] + [e.get(k) for k in extra]
        for row, e in zip(rows, counted or [{}] * len(rows), strict=True)
    ]
    df = data_frame(table, [*columns, *extra])
    for name in extra:
        df[name] = df[name].astype("Int64")
    return df


def _effort(effort: Effort) -> dict[str, int]:
    return effort.as_dict()


def sweep_frame(sweep: Sweep) -> Any:
    """A row per start cell: cell, coords, status, seconds, reason, efforts."""
    board = sweep.board
    rows = [
        {
            "cell": board.cell_name(c.cell),
            "coords": tuple(c.cell),
            "status": str(c.status),
            "seconds": float(c.seconds),
            "reason": c.reason,
        }
        for c in sweep.cells
    ]
    columns = ["cell", "coords", "status", "seconds", "reason"]
    return _frame(rows, columns, (_effort(c.effort) for c in sweep.cells))


_ANSWER_KEYS = (
    "distance",
    "exact",
    "length",
    "closed",
    "moves",
    "kind",
    "simple",
    "directed",
    "undirected",
    "winner",
)
"""The scalar keys of an answer's ``as_dict()`` a comparison row keeps."""


def outcomes_frame(outcomes: Sequence[Outcome]) -> Any:
    """A row per outcome: method, status, seconds, bound, reason, answer, efforts.

    The answer's columns are its scalars (``distance``, ``moves``, ``length`` ...).
    """
    rows = []
    answer_keys: list[str] = []
    for o in outcomes:
        row = o.as_dict()
        for key in _ANSWER_KEYS:
            if key in row and key not in answer_keys:
                answer_keys.append(key)
        row["method"] = o.method_label
        rows.append(row)
    columns = ["method", "status", "seconds", "bound", "reason", *answer_keys]
    df = _frame(rows, columns, (_effort(o.effort) for o in outcomes))
    df["bound"] = df["bound"].astype("Int64")
    return df


def study_frame(study: Study) -> Any:
    """A row per instance and engine: the columns of ``study --csv``."""
    flat = study.flat()
    rows = [
        {
            "instance": r["instance"],
            "engine": r["engine"],
            "status": r["status"],
            "method": r.get("method"),
            "seconds": float(r.get("seconds", 0.0)),
            "wrong": r["wrong"],
            "reason": r.get("reason"),
        }
        for r in flat
    ]
    columns = ["instance", "engine", "status", "method", "seconds", "wrong", "reason"]
    return _frame(rows, columns, (dict(r.get("effort", {})) for r in flat))


def pairs_frame(pairs: PairSweep) -> Any:
    """A row per pair: start, end, status, method, seconds, reason, efforts."""
    board = pairs.board
    rows = [
        {
            "start": board.cell_name(p.start),
            "end": board.cell_name(p.end),
            "status": str(p.status),
            "method": p.method,
            "seconds": float(p.seconds),
            "reason": p.reason,
        }
        for p in pairs.pairs
    ]
    columns = ["start", "end", "status", "method", "seconds", "reason"]
    return _frame(rows, columns, (_effort(p.effort) for p in pairs.pairs))


def frontier_frame(stats: FrontierStats) -> Any:
    """A row per step run: ``step`` (from 1), ``width``, ``live`` states after it."""
    rows = [
        {
            "step": k + 1,
            "width": int(stats.widths[k]) if k < len(stats.widths) else None,
            "live": int(live),
        }
        for k, live in enumerate(stats.live)
    ]
    df = _frame(rows, ["step", "width", "live"])
    df["width"] = df["width"].astype("Int64")
    return df


def count_frame(count: TourCount) -> Any:
    """A row per prefix (rows, directed, undirected), or one for the whole count.

    Prefixes come with ``count_tours(..., prefixes=True)``; without them
    ``rows`` is ``<NA>``.
    """
    stats = count.frontier
    rows: list[dict[str, Any]]
    if stats is not None and stats.prefixes:
        rows = [
            {"rows": int(k), "directed": 2 * int(c), "undirected": int(c)}
            for k, c in stats.prefixes
        ]
    else:
        rows = [
            {
                "rows": None,
                "directed": int(count.directed),
                "undirected": int(count.undirected),
            }
        ]
    df = _frame(rows, ["rows", "directed", "undirected"])
    df["rows"] = df["rows"].astype("Int64")
    return df


def distance_map_frame(dmap: DistanceMap) -> Any:
    """A row per open cell: cell, coords, distance (``<NA>``: unreachable).

    Built column by column with numpy (a million cells in a few seconds).
    """
    import numpy as np

    pandas = require("pandas", "to_dataframe()")
    board = dmap.board
    cells = np.argwhere(board.open_mask)
    values = np.asarray(dmap.array)[board.open_mask].astype(np.int64)
    distance = pandas.array(values, dtype="Int64")
    distance[values < 0] = pandas.NA
    return pandas.DataFrame(
        {
            "cell": board.cell_names(cells),
            "coords": list(map(tuple, cells.tolist())),
            "distance": distance,
        }
    )
