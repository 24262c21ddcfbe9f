"""Studies: pair sweeps against brute force, sharded counts against the whole count
and OEIS, engine studies (summary, cross-check, profile, files)."""

from __future__ import annotations

import csv
import io
import math
from typing import Any

import pytest

from cpknight.api import count_tours, find_tour, iter_tours
from cpknight.board import Board
from cpknight.errors import InvalidInputError
from cpknight.pieces import KNIGHT, as_piece
from cpknight.runner import RunOptions
from cpknight.solving import SolveOptions
from cpknight.status import Status
from cpknight.study import (
    Study,
    count_tours_sharded,
    read_suite_text,
    run_study,
    sweep_pairs,
)
from cpknight.study.suite import assemble_study
from tests.conftest import brute_neighbours, brute_tours

# ---------------------------------------------------------------- pair sweeps


@pytest.mark.parametrize(
    ("spec", "piece"),
    [("3x4", "knight"), ("3x7", "knight"), ("3x3", "1,1"), ("4x5", "knight")],
)
def test_pairs_match_the_ends_of_every_tour(spec: str, piece: str) -> None:
    """The pairs joined by a tour are exactly the ends of the tours a plain
    recursive search lists (tests/conftest.py, no cpknight code), and of the
    tours the library's backtracking lists."""
    board = Board.parse(spec)
    vector = as_piece(piece).vector
    ends = {
        frozenset((t[0], t[-1]))
        for t in brute_tours(brute_neighbours(board, vector), closed=False)
    }
    assert ends == {
        frozenset((t.start, t.end))
        for t in iter_tours(spec, piece=piece, closed=False, method="prune")
    }
    table = sweep_pairs(spec, piece=piece, method="prune")
    joined = {frozenset((p.start, p.end)) for p in table if p.status == "found"}
    assert joined == ends
    n = len(table.cells)
    assert len(table.pairs) == n * (n - 1) // 2
    assert table.counts()["unknown"] == 0


def test_pairs_on_8x8_need_only_the_opposite_colours() -> None:
    """8x8: 64 cells, 32 of each colour; an open tour of 64 cells ends on the
    other colour, so the 2 * C(32, 2) = 992 same-colour pairs are ruled out by
    the colour certificate and the 32 * 32 = 1024 others need a solve."""
    from cpknight.pieces import move_graph
    from cpknight.tours.certificates import tour_certificate

    graph = move_graph(Board.parse("8x8"), KNIGHT)
    cells = list(Board.parse("8x8").open_cells())
    ruled_out = sum(
        tour_certificate(graph, closed=False, start=a, end=b) is not None
        for i, a in enumerate(cells)
        for b in cells[i + 1 :]
    )
    assert ruled_out == 992


def test_pairs_by_cpsat_agree_with_search_and_draw() -> None:
    import xml.etree.ElementTree as ET

    from cpknight.draw.pairs import pairs_svg

    options = SolveOptions(time_limit=20, workers=1, seed=0)
    search = sweep_pairs("3x5", method="prune")
    cpsat = sweep_pairs("3x5", method="cpsat", options=options)
    assert [(p.start, p.end, p.status) for p in cpsat] == [
        (p.start, p.end, p.status) for p in search
    ]
    root = ET.fromstring(pairs_svg(cpsat))
    squares = root.findall(".//{http://www.w3.org/2000/svg}rect[@class='found']")
    assert len(squares) == 2 * cpsat.counts()["found"]
    assert cpsat.as_dict()["counts"] == cpsat.counts()


def test_pairs_refuse_closed_and_bad_methods() -> None:
    with pytest.raises(InvalidInputError, match="expected a tour method"):
        sweep_pairs("3x4", method="nope")


# -------------------------------------------------------------- sharded counts


@pytest.mark.parametrize(
    ("spec", "kwargs", "directed"),
    [
        ("3x4", {"closed": False}, 16),  # 8 undirected open tours (Jelliss)
        ("5x5", {"closed": False, "start": "a1"}, 304),  # Jelliss: 304 from a corner
        ("5x5", {"closed": False}, 1728),  # OEIS A165134
        ("3x8", {"closed": False, "end": "h3"}, None),  # against the whole count
        ("3x10", {"closed": True}, None),  # against the whole count
    ],
    ids=["3x4-open", "5x5-open-a1-jelliss", "5x5-open-A165134", "3x8-end", "3x10"],
)
@pytest.mark.parametrize("shards", [1, 5, 40])
def test_sharded_counts_sum_to_the_whole_count(
    spec: str, kwargs: dict[str, Any], directed: int | None, shards: int
) -> None:
    whole = count_tours(spec, **kwargs)
    split = count_tours_sharded(spec, shards=shards, **kwargs)
    assert split.count.status is Status.FOUND
    assert (split.count.directed, split.count.undirected) == (
        whole.directed,
        whole.undirected,
    )
    if directed is not None:
        assert whole.directed == directed
    assert split.shards >= min(shards, 2)


@pytest.mark.slow
def test_sharded_count_of_6x6_on_a_pool() -> None:
    # 6x6 closed: 9862 undirected tours (OEIS A001230), 19724 directed.
    split = count_tours_sharded("6x6", shards=6, run=RunOptions(jobs=2))
    assert (split.count.directed, split.count.undirected) == (19724, 9862)


def test_sharded_count_of_a_board_with_none() -> None:
    assert count_tours_sharded("4x4").count.directed == 0  # Schwenk: m = 4
    none = count_tours_sharded("5x5", closed=False, start="b1")  # colours: 13 + 12
    assert (none.count.directed, none.shards) == (0, 1)


def test_sharded_count_refuses_bad_shards() -> None:
    with pytest.raises(InvalidInputError, match="shards must be a positive int"):
        count_tours_sharded("3x4", shards=0)


# --------------------------------------------------------------------- studies

SUITE = """
# a comment line
5x5 --open --start a1   # found by every engine
4x4                      # Schwenk: no closed tour on 4 x n
3x4 --open
5x5                      # odd: colour classes of 13 and 12
6x6 --torus --open
"""


def _study() -> Study:
    return run_study(
        read_suite_text(SUITE),
        methods="prune,cpsat,warnsdorff",
        options=SolveOptions(time_limit=10, workers=1, seed=0),
    )


def test_a_study_summarises_checks_and_profiles() -> None:
    study = _study()
    assert [i.text for i in study.instances][:2] == ["5x5 --open --start a1", "4x4"]
    summary = study.summary()
    for engine in ("prune", "cpsat"):
        assert summary[engine]["solved"] == 3
        assert summary[engine]["proved none"] == 2
        assert summary[engine]["wrong"] == 0
    assert study.wrong() == []
    profile = study.profile()
    for steps in profile.values():
        taus = [t for t, _ in steps]
        rhos = [r for _, r in steps]
        assert taus == sorted(taus)
        assert rhos == sorted(rhos)
        assert rhos[-1] <= 1
    # Each instance someone answered has a fastest engine: the ratios of 1.
    best = sum(
        next((r for t, r in steps if t == 1.0), 0.0) for steps in profile.values()
    )
    assert best >= 1.0 - 1e-9
    rows = list(csv.DictReader(io.StringIO(study.csv_text())))
    assert len(rows) == 5 * 3
    assert rows[0]["instance"] == "5x5 --open --start a1"
    assert study.as_dict()["summary"] == summary


def test_wrong_answers_are_found_and_counted() -> None:
    """A proof of none contradicted by a checked tour, and a tour that fails the
    checker, are both wrong; a true tour and an honest limit are not."""
    suite = read_suite_text("5x5 --open --start a1\n4x4")
    tour = find_tour("5x5", closed=False, start="a1", method="prune")
    good = {"status": "found", "cells": [list(c) for c in tour.cells]}
    swapped = {"status": "found", "cells": [list(c) for c in tour.cells[::-1]]}
    rows: list[dict[str, Any]] = [
        good,  # a: right
        {"status": "infeasible", "reason": "a bug"},  # b: contradicted by a's tour
        swapped,  # c: a tour, but not from a1
        {"status": "infeasible"},  # a on 4x4: right (Schwenk)
        {"status": "unknown"},  # b: the limit, not wrong
        {"status": "found", "cells": [[0, 0], [1, 2]]},  # c: not a tour
    ]
    study = assemble_study(suite, ["a", "b", "c"], 1.0, rows)
    assert [r["wrong"] is not None for r in study.flat()] == [
        False,
        True,
        True,
        False,
        False,
        True,
    ]
    summary = study.summary()
    assert [summary[e]["wrong"] for e in "abc"] == [0, 1, 2]
    assert summary["a"]["solved"] == 1
    assert summary["a"]["proved none"] == 1
    assert summary["b"]["limit"] == 1
    assert all(math.isinf(t) for t in study.answer_times()[0][1:])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("8x8 --diagonal", "suite line 1 '8x8 --diagonal': unrecognized arguments"),
        ("8x8 --start z9", "suite line 1 '8x8 --start z9': cell 'z9'"),
        ("8x8 --end h8", "a closed tour has no separate end cell"),
        ("# only a comment", "holds no instances"),
        ("8x8\n8x8", "lists '8x8' twice"),
        ("plane", "suite line 1 'plane'"),
    ],
)
def test_bad_suites_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        read_suite_text(text)


def test_run_study_reads_suite_lines_and_the_old_keyword_warns() -> None:
    study = run_study(["3x4 --open", "4x4"], methods="prune")
    assert [i.text for i in study.instances] == ["3x4 --open", "4x4"]
    with pytest.warns(DeprecationWarning, match="methods="):
        old = run_study(["3x4 --open"], engines="prune")
    assert [row["status"] for row in old.flat()] == ["found"]
    with pytest.raises(InvalidInputError, match="suite lines"):
        run_study([5])  # type: ignore[list-item]
