"""The playground's new doors through Starlette's test client: can it finish?

``POST /api/complete`` (and a run of the question ``complete``) both ways,
each kind of bad path a one-line 400, cancel; the move graph, the check of a
tour played by hand and a swap puzzle drawn before it is solved. Every
completion is checked again here with ``check_tour``; the move graph is held
to :func:`~cpknight.pieces.move_graph` called directly.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cpknight.checks import check_tour
from cpknight.web.app import create_app
from tests.test_web_api import SMALL, valid, wait_done


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(SMALL)) as test_client:
        yield test_client


# ------------------------------------------------------- can it still finish?


def _warnsdorff(board: Any, start: tuple[int, int], moves: int) -> list[list[int]]:
    """``moves`` Warnsdorff moves from ``start`` (fewest onward moves first)."""
    from cpknight.pieces import move_graph

    graph = move_graph(board)
    path = [graph.node(start)]
    for _ in range(moves):
        free = [int(w) for w in graph.neighbors(path[-1]) if int(w) not in path]
        onward = {
            w: sum(int(x) not in path and x != w for x in graph.neighbors(w))
            for w in free
        }
        path.append(min(free, key=lambda w: (onward[w], w)))
    return [list(graph.cell(v)) for v in path]


def test_complete_answers_a_completion_checked(client: TestClient) -> None:
    from cpknight.board import Board

    path = _warnsdorff(Board.parse("8x8"), (0, 0), 10)
    response = client.post(
        "/api/complete",
        json={"board": "8x8", "closed": True, "path": path, "time_limit": 10},
    )
    assert response.status_code == 200, response.text
    document = valid(response.json())
    assert document["question"] == "complete"
    assert document["instance"]["path"] == path
    row = document["rows"][0]
    assert row["status"] == "found"
    assert row["cells"][:11] == path
    check_tour("8x8", [tuple(c) for c in row["cells"]], closed=True)


def test_complete_answers_a_proof_with_its_cells(client: TestClient) -> None:
    # d2-b3-d4: a1 keeps one free neighbour, c2, so it must end the tour; a
    # closed tour cannot end there (a1 is no move from d2)
    response = client.post(
        "/api/complete",
        json={"board": "8x8", "path": [[1, 3], [2, 1], [3, 3]], "time_limit": 5},
    )
    row = valid(response.json())["rows"][0]
    assert row["status"] == "infeasible"
    assert row["reason"].startswith("cell a1 has one free neighbour left")
    assert row["highlight"] == [[0, 0], [1, 3]]
    # open, the colours forbid it: a1 must be last, and is d4's colour
    response = client.post(
        "/api/complete",
        json={"board": "8x8", "closed": False, "path": [[1, 3], [2, 1], [3, 3]]},
    )
    row = response.json()["rows"][0]
    assert row["status"] == "infeasible"
    assert row["reason"].startswith("colour: a path of 62 cells")
    assert [0, 0] in row["highlight"]


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ([[0, 0], [8, 8]], "path cell 2, 8,8, is not on board 8x8"),
        ([[0, 0], [1, 1]], "path cell 2, b2, is not one knight (1,2) move from a1"),
        ([[0, 0], [2, 1], [0, 0]], "path cell 3, a1, is visited twice"),
        ([[0, 0], [1, 2], [3, 3]], "path cell 3, d4, is blocked"),
        ([[0, 0], [0]], "path cell 2, 0, is not on board"),
        ([], "the path is empty"),
        ("a1 b3", "expected 'path' as a list of cells"),
        (None, "expected 'path' as a list of cells"),
    ],
)
def test_complete_refuses_a_bad_path_in_one_line(
    client: TestClient, path: Any, words: str
) -> None:
    board = {"shape": [8, 8], "blocked": [[3, 3]]}
    for endpoint in ("/api/complete", "/api/runs"):
        body = {"question": "complete", "board": board, "path": path}
        response = client.post(endpoint, json=body)
        assert response.status_code == 400, response.text
        message = response.json()["error"]
        assert words in message
        assert "\n" not in message


def test_complete_refuses_what_it_does_not_take(client: TestClient) -> None:
    path = [[0, 0]]
    for endpoint, body, words in (
        ("/api/complete", {"path": path, "methods": "greedy"}, "expected methods"),
        ("/api/complete", {"path": path, "end": [7, 7]}, "closed tour has no end"),
        ("/api/complete", {"path": path, "question": "tour"}, "question is complete"),
        ("/api/runs", {"path": path, "question": "tour"}, "only 'complete'"),
    ):
        response = client.post(endpoint, json={"board": "8x8", **body})
        assert response.status_code == 400, response.text
        assert words in response.json()["error"]


def test_a_completion_is_cancelled_within_a_second(client: TestClient) -> None:
    run = client.post(
        "/api/runs",
        json={
            "question": "complete",
            "board": "8x8",
            "path": [[0, 0], [2, 1]],
            "methods": "backtrack",
            "time_limit": 20,
        },
    ).json()
    time.sleep(0.5)
    began = time.monotonic()
    client.post(f"/api/runs/{run['id']}/cancel")
    document = wait_done(client, run["id"], seconds=5)
    assert time.monotonic() - began < 1.0
    assert document["rows"][0]["reason"].startswith("cancelled")


def test_moves_check_and_puzzle(client: TestClient) -> None:
    from cpknight.board import Board
    from cpknight.pieces import move_graph

    torus = {"shape": [5, 6], "blocked": [[2, 2]], "topology": "torus"}
    doc = client.post("/api/moves", json={"board": torus, "piece": "zebra"}).json()
    graph = move_graph(Board((5, 6), [(2, 2)], topology="torus"), "zebra")
    assert doc["cells"] == graph.cells.tolist()
    assert doc["indptr"] == graph.indptr.tolist()
    assert doc["indices"] == graph.indices.tolist()
    # a tour played by hand, checked by the library's checker
    names = ["a1", "c2", "a3", "b1", "d2", "b3", "c1", "d3", "b2", "d1", "c3", "a2"]
    cells = [list(Board.parse("3x4").parse_cell(n)) for n in names]
    body = {"board": "3x4", "closed": False, "cells": cells}
    assert client.post("/api/check", json=body).json()["tour"] is True
    body = {**body, "closed": True}
    answer = client.post("/api/check", json=body).json()
    assert answer["tour"] is False
    assert "a2" in answer["reason"]
    bad = client.post("/api/check", json={"board": "3x4", "cells": "a1"})
    assert bad.status_code == 400
    # and held to the job's side constraints, as `cpknight check --magic` does
    from tests.test_record_certificates import MAGIC_8X10

    board = Board.parse("8x10")
    cells = [list(board.parse_cell(n)) for n in MAGIC_8X10]
    body = {"board": "8x10", "cells": cells, "magic": True}
    assert client.post("/api/check", json=body).json()["tour"] is True
    body = {**body, "cells": cells[1:] + cells[:1]}  # numbered from its second cell
    answer = client.post("/api/check", json=body).json()
    assert answer["tour"] is False
    assert answer["reason"].startswith("the tour is not magic")
    body = {**body, "magic": False, "constraints": {"forbid": ["a1-b3"]}}
    answer = client.post("/api/check", json=body).json()
    assert answer["reason"] == "the tour uses the forbidden move a1-b3"
    # a swap puzzle drawn before it is solved
    doc = client.post("/api/puzzle", json={"question": "swap", "puzzle": "guarini"})
    assert doc.json()["start_knights"] == {"W": [[0, 0], [0, 2]], "B": [[2, 0], [2, 2]]}
    assert doc.json()["goal_knights"] == {"W": [[2, 0], [2, 2]], "B": [[0, 0], [0, 2]]}
