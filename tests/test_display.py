"""Every value shows itself: ``print()`` the command line's text, HTML tables, SVG.

The text is checked against the command line's own renderers
(:mod:`cpknight.text.render`, :mod:`cpknight.text.reports`), every picture is parsed as
XML, and huge values stay small (the command line's grid limit).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from typing import Any

import pytest

from cpknight import (
    Board,
    Comparison,
    Distance,
    Status,
    Sweep,
    SweepCell,
    Tour,
    collect,
    compare_distances,
    compare_tours,
    count_tours,
    distance_map,
    find_tour,
    knight_distance,
    longest_path,
    move_graph,
    sweep,
    sweep_pairs,
    try_tour,
)
from cpknight.api import compare_longest
from cpknight.counting import ShardedCount
from cpknight.pieces import CAMEL, KNIGHT, Leaper
from cpknight.study import read_suite_text, run_study
from cpknight.text.render import (
    GRID_LIMIT,
    comparison_text,
    distance_table_text,
    frontier_text,
    longest_table_text,
    sweep_text,
    tour_text,
)

SVG = "{http://www.w3.org/2000/svg}"


def _svg(text: str | None) -> ET.Element:
    assert text is not None
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


def _html(text: str) -> ET.Element:
    # our HTML is well-formed XML once the inline SVG's namespace is allowed
    root = ET.fromstring(f"<div>{text}</div>")
    assert root.find(".//table") is not None
    return root


def _not_a_dump(value: Any) -> str:
    text = str(value)
    assert f"{type(value).__name__}(" not in text  # not the dataclass repr
    return text


@cache
def _sweep() -> Sweep:
    return sweep("3x4", closed=False, method="prune")


@cache
def _comparison() -> Comparison:
    return compare_tours("5x5", closed=False, methods="prune,warnsdorff,cpsat")


def test_print_sweep_is_its_grid() -> None:
    s = _sweep()
    text = _not_a_dump(s)
    assert sweep_text(s) in text
    assert text.startswith("open tours of 3x4 (knight (1,2)) from each start cell")
    table = _html(s._repr_html_())
    cells = [td.text for td in table.iter("td")]
    counts = s.counts()
    assert [cells[1], cells[3], cells[5]] == [str(counts[k]) for k in counts]
    assert table.find(f".//{SVG}svg") is not None  # the picture beside the table
    assert "found 6" in repr(s)


def test_print_comparison_is_the_cli_table() -> None:
    c = _comparison()
    text = _not_a_dump(c)
    heading = "open tour of 5x5 (knight (1,2)), no limit"
    assert text == comparison_text(c, heading)
    rows = _html(c._repr_html_()).findall(".//tbody/tr")
    assert [r[0].text for r in rows] == [o.method_label for o in c.rows]
    assert [r[1].text for r in rows] == ["found"] * 3


def test_print_distance_comparison_and_longest_comparison() -> None:
    c = compare_distances("8x8", "a1", "b2", methods="bfs,ip")
    assert str(c) == distance_table_text(c, "a1 -> b2 on 8x8, knight (1,2)")
    answers = [r[2].text for r in _html(c._repr_html_()).findall(".//tbody/tr")]
    assert answers == ["4", "4"]
    lc = compare_longest("4x4", kind="induced", methods="search", closed=False)
    heading = "longest induced path on 4x4 (knight (1,2)), no limit"
    assert str(lc) == longest_table_text(lc, heading)


def test_print_distance_says_moves_and_path_and_draws_the_path() -> None:
    d = knight_distance("8x8", "a1", "h8")
    text = _not_a_dump(d)
    assert text.splitlines()[0] == "a1 -> h8 on 8x8, knight (1,2): 6 moves (bfs)"
    assert text.splitlines()[-1] == "path: " + " ".join(d.names())
    root = _svg(d._repr_svg_())
    numbers = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "num"]
    assert numbers == [str(i) for i in range(len(d.path or ()))]
    assert repr(d) == "<Distance a1 -> h8 6 moves on 8x8 by bfs>"


def test_a_distance_without_a_path_draws_its_ends() -> None:
    # the closed formula on the open plane gives no path: its two ends drawn,
    # on a window of the plane without file letters (they would be wrong)
    d = knight_distance("plane", (0, 0), (5, 3), method="formula")
    assert isinstance(d, Distance)
    assert d.path is None
    assert "moves (formula" in str(d)
    root = _svg(d._repr_svg_())
    rings = {c.get("class") for c in root.iter(f"{SVG}circle")}
    assert {"start", "end"} <= rings
    assert root.find(f"{SVG}g[@class='coordinates']") is None
    assert not [t for t in root.iter(f"{SVG}text") if t.get("class") == "num"]


def test_print_count_is_its_numbers_and_frontier_rows() -> None:
    n = count_tours("3x4", closed=False, method="frontier", prefixes=True)
    text = _not_a_dump(n)
    assert text.startswith(f"{n.directed} directed, {n.undirected} undirected tours")
    assert n.frontier is not None
    assert frontier_text(n.frontier) in text
    assert str(n.frontier) == frontier_text(n.frontier)
    tables = _html(n._repr_html_()).findall(".//table")
    assert len(tables) == 3  # the count, the frontier's rows, the prefixes
    first = [td.text for td in tables[0].iter("td")]
    assert first[:2] == [str(n.directed), str(n.undirected)]
    live_rows = tables[1].findall(".//tbody/tr")
    assert len(live_rows) == len(n.frontier.rows)
    _html(n.frontier._repr_html_())


def test_sharded_count_prints_its_sum() -> None:
    n = count_tours("3x4", closed=False)
    sharded = ShardedCount(n, 4)
    assert str(sharded).startswith(str(n).splitlines()[0])
    assert str(sharded).endswith("4 shards")
    _html(sharded._repr_html_())


def test_outcome_prints_its_ending_then_its_answer() -> None:
    none = try_tour("4x4", method="prune")
    assert str(none).splitlines()[0].startswith("tour by prune: proved none in")
    assert str(none).splitlines()[1] == f"infeasible: {none.reason}"
    found = try_tour("5x5", closed=False, method="prune")
    assert found.tour is not None
    assert str(found).endswith(tour_text(found.tour))
    row = _html(found._repr_html_()).find(".//tbody/tr")
    assert row is not None
    assert [row[0].text, row[1].text, row[2].text] == ["prune", "found", "25"]
    assert _html(found._repr_html_()).find(f".//{SVG}svg") is not None  # the tour
    assert repr(found).startswith("<Outcome tour by prune: found in ")


def test_tour_route_longest_map_print_their_grids_and_draw() -> None:
    tour = find_tour("5x5", closed=False, method="prune")
    assert str(tour) == tour_text(tour)
    _svg(tour._repr_svg_())
    assert tour._repr_png_() is None  # small: the SVG is the picture
    route = collect("5x5", "a1", ["e5", "a5"], method="search")
    assert str(route).splitlines()[0].startswith("5 |")
    _svg(route._repr_svg_())
    path = longest_path("4x4", kind="induced", method="search")
    assert str(path).splitlines()[-1].split() == list("abcd")
    _svg(path._repr_svg_())
    dmap = distance_map("holed8", "a1")
    assert str(dmap).splitlines()[0].startswith("8 |")
    _svg(dmap._repr_svg_())


def test_board_leaper_and_move_graph_show_themselves() -> None:
    board = Board.parse("holed8")
    assert str(board) == board.to_ascii()
    _svg(board._repr_svg_())
    assert str(KNIGHT) == KNIGHT.label
    lands = [
        c
        for c in _svg(CAMEL._repr_svg_()).iter(f"{SVG}circle")
        if c.get("class") == "lands"
    ]
    assert len(lands) == len(CAMEL.moves(2)) == 8
    assert Leaper((1, 2, 3))._repr_svg_() is None  # moves in 3D only
    graph = move_graph("4x4")
    assert str(graph) == (
        "move graph of the knight (1,2) on 4x4: 16 cells, 24 edges, degree 2 to 4"
    )
    assert repr(graph) == "<MoveGraph knight (1,2) on 4x4: 16 nodes, 24 edges>"
    root = _svg(graph._repr_svg_())
    edges = [e for e in root.iter(f"{SVG}line") if e.get("class") == "edge"]
    assert len(edges) == graph.n_edges
    degrees = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "num"]
    assert degrees == [str(int(d)) for d in graph.degree]


def test_torus_graph_leaves_out_its_wrapping_edges() -> None:
    graph = move_graph(Board.parse("5x5", topology="torus"))
    root = _svg(graph._repr_svg_())
    drawn = sum(1 for e in root.iter(f"{SVG}line") if e.get("class") == "edge")
    title = root.find(f"{SVG}title")
    assert title is not None
    assert title.text is not None
    assert f"({graph.n_edges - drawn} wrapping edges not drawn)" in title.text
    assert 0 < drawn < graph.n_edges


def test_pair_sweep_and_study_show_tables() -> None:
    pairs = sweep_pairs("3x4", method="prune")
    text = _not_a_dump(pairs)
    assert text.startswith("open tours of 3x4 (knight (1,2)) between every pair")
    cells = [td.text for td in _html(pairs._repr_html_()).iter("td")]
    assert cells[1] == str(pairs.counts()["found"])
    study = run_study(read_suite_text("4x4\n5x5 --open"), methods="prune,warnsdorff")
    text = _not_a_dump(study)
    assert "2 instances x 2 engines" in text
    rows = _html(study._repr_html_()).findall(".//tbody/tr")
    assert [r[0].text for r in rows] == ["prune", "warnsdorff"]
    assert [r[1].text for r in rows] == [
        str(study.summary()[e]["solved"]) for e in ("prune", "warnsdorff")
    ]
    _svg(study._repr_svg_())
    assert repr(study) == "<Study 2 instances x 2 engines (prune, warnsdorff), 0 wrong>"


def test_huge_values_are_summarised() -> None:
    # A 1000x1000 tour (tiles, a third of a second): its text, repr and
    # picture stay small, as the command line's grid limit has it.
    tour = find_tour("1000x1000")
    assert isinstance(tour, Tour)
    text = str(tour)
    assert len(text) < 300
    assert "1,000,000 cells" in text
    assert len(repr(tour)) < 100
    assert tour._repr_svg_() is None
    png = tour._repr_png_()
    assert png is not None
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) < 200_000
    assert len(str(tour.board)) < 100
    dmap = distance_map("200x200", "a1")
    assert dmap.board.size > GRID_LIMIT
    assert len(str(dmap)) < 300
    board = Board.parse("101x101")
    cells = tuple(SweepCell(c, Status.UNKNOWN, 0.0) for c in board.open_cells())
    big = Sweep(board, KNIGHT, False, "prune", cells)
    assert len(str(big)) < 1000
    assert "found: 0" in str(big)


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(lambda: find_tour("3x4", closed=False, method="prune"), id="tour"),
        pytest.param(lambda: knight_distance("5x5", "a1", "e5"), id="distance"),
        pytest.param(lambda: move_graph("3x3"), id="move graph"),
        pytest.param(lambda: KNIGHT, id="leaper"),
    ],
)
def test_every_svg_is_one_xml_document(value: Any) -> None:
    _svg(value()._repr_svg_())


def test_print_comparison_heads_as_the_cli_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cpknight.cli import main

    argv = ["compare", "5x5", "--open", "--start", "a1", "--method", "prune,warnsdorff"]
    assert main(argv) == 0
    cli = capsys.readouterr().out.splitlines()
    c = compare_tours(
        "5x5", closed=False, start="a1", methods="prune,warnsdorff", time_limit=60
    )
    mine = str(c).splitlines()
    assert (
        mine[0]
        == cli[0]
        == ("open tour of 5x5 (knight (1,2)) from a1, a limit of 60 s each:")
    )
    assert [line.split()[0] for line in mine[1:5]] == [
        line.split()[0] for line in cli[1:5]
    ]
