"""The playground's JSON API through Starlette's test client.

Every question once, the refusals, the caps, cancel, concurrent runs and bad
input. Every found tour is checked again here with ``check_tour``; expected
numbers come from the same front doors called directly (an independent path
from the worker processes) or cite their source.
"""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cpknight.api import distance_map, knight_distance
from cpknight.checks import check_tour
from cpknight.web.app import create_app
from cpknight.web.jobs import Caps
from cpknight.web.server import child_pids

SCHEMA = json.loads(
    (
        Path(__file__).resolve().parent.parent / "cpknight/cli/output.schema.json"
    ).read_text(encoding="utf-8")
)
SMALL = Caps(runs=2, engines=3, time_limit=20.0)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(SMALL)) as test_client:
        yield test_client


def valid(document: dict[str, Any]) -> dict[str, Any]:
    """The document, once it validates against the CLI's JSON schema."""
    import jsonschema

    jsonschema.validate(document, SCHEMA)
    return document


def solve(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/solve", json=body)
    assert response.status_code == 200, response.text
    return valid(response.json())


def wait_done(client: TestClient, run_id: str, seconds: float = 15) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        document: dict[str, Any] = client.get(f"/api/runs/{run_id}").json()
        if document["state"] == "done":
            return document
        time.sleep(0.02)
    raise AssertionError(f"run {run_id} did not finish in {seconds} s")


# ------------------------------------------------------------------ questions


def test_meta_lists_every_question_and_its_engines(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert set(meta["questions"]) == {
        "tour",
        "distance",
        "route",
        "longest",
        "count",
        "swap",
        "dominate",
        "independent",
        "complete",
    }
    # only the engines that honour visit numbers complete a path
    assert [m["name"] for m in meta["questions"]["complete"]["methods"]] == [
        "cpsat",
        "backtrack",
        "warnsdorff",
        "prune",
    ]
    assert "prune" in [m["name"] for m in meta["questions"]["tour"]["methods"]]
    assert "holed8" in meta["boards"]
    assert meta["caps"]["runs"] == SMALL.runs


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'data-action="solve"' in page.text
    for name in ("app.js", "board.js", "hand.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
        assert f"/static/{name}" in page.text
    # nothing from the internet: no absolute URL in the page or its scripts
    assert "http" not in page.text.replace("http-equiv", "")
    for name in ("app.js", "board.js", "hand.js"):
        assert "https://" not in client.get(f"/static/{name}").text


def test_tour_race_on_a_holed_board_every_found_tour_checked(
    client: TestClient,
) -> None:
    board = {"shape": [6, 6], "blocked": [[2, 2], [2, 3]]}
    document = solve(
        client,
        question="tour",
        board=board,
        closed=False,
        start="a1",
        methods=["prune", "cpsat"],
        time_limit=10,
    )
    assert [row["engine"] for row in document["rows"]] == ["prune", "cpsat"]
    found = [row for row in document["rows"] if row["status"] == "found"]
    assert found
    for row in found:
        check_tour(
            _board(board),
            [tuple(c) for c in row["cells"]],
            closed=False,
            start=(0, 0),
        )


def _board(spec: dict[str, Any]) -> Any:
    from cpknight.board import Board

    return Board(spec["shape"], spec["blocked"])


def test_impossible_tour_says_why_and_names_the_cells(client: TestClient) -> None:
    # 4x4 has no closed tour (Schwenk 1991); the forced cycle a1-c2-d4-b3 shows it.
    row = solve(client, question="tour", board="4x4", methods="prune")["rows"][0]
    assert row["status"] == "infeasible"
    assert row["highlight"]
    assert all(len(c) == 2 for c in row["highlight"])
    names = {"abcd"[c] + str(r + 1) for r, c in row["highlight"]}
    assert all(name in row["reason"] for name in names)


def test_colour_argument_highlights_the_larger_class(client: TestClient) -> None:
    # 5x5 closed: 13 and 12 cells of each colour, a closed tour alternates.
    row = solve(client, question="tour", board="5x5", methods="prune")["rows"][0]
    assert row["status"] == "infeasible"
    assert "bipartite" in row["reason"]
    assert len(row["highlight"]) == 13
    assert all((r + c) % 2 == 0 for r, c in row["highlight"])


def test_side_constraints_are_honoured(client: TestClient) -> None:
    row = solve(
        client,
        question="tour",
        board="6x6",
        methods="cpsat",
        constraints={"via": ["c3@5"], "require": ["a1-b3"]},
    )["rows"][0]
    assert row["status"] == "found"
    cells = [tuple(c) for c in row["cells"]]
    check_tour("6x6", cells, closed=True)
    assert cells[4] == (2, 2)
    at = cells.index((0, 0))
    assert (2, 1) in (cells[at - 1], cells[(at + 1) % len(cells)])


def test_distance_matches_bfs_called_directly(client: TestClient) -> None:
    document = solve(
        client,
        question="distance",
        board="8x8",
        start="a1",
        target="b2",
        methods=["bfs", "ip"],
    )
    rows = {row["method"]: row for row in document["rows"]}
    # a1 to b2 is 4 moves on 8x8 (and 2 on the open plane: the IP's bound)
    assert rows["bfs"]["distance"] == int(knight_distance("8x8", "a1", "b2")) == 4
    assert rows["ip"]["status"] in ("found", "optimal")
    heat = client.post(
        "/api/map", json={"question": "distance", "board": "holed8", "start": "a1"}
    )
    mapped = valid(heat.json())
    direct = distance_map("holed8", "a1")
    assert mapped["distances"] == direct.as_dict()["distances"]


def test_route_longest_and_count(client: TestClient) -> None:
    route = solve(client, question="route", board="5x5", start="a1", food=["e5", "a5"])[
        "rows"
    ][0]
    assert route["status"] in ("optimal", "feasible")
    assert route["cells"][0] == [0, 0]
    assert {(4, 4), (4, 0)} <= {tuple(c) for c in route["cells"]}
    # A003192 (longest uncrossed knight path on n x n): 1, 0, 2, 5, 10, 17 ...
    longest = solve(
        client,
        question="longest",
        board="4x4",
        kind="uncrossed",
        methods=["cpsat", "search"],
    )
    moves = {row["method"]: row["moves"] for row in longest["rows"]}
    for question, row, extra in (
        ("route", route, {"start": "a1", "food": ["e5", "a5"]}),
        ("longest", longest["rows"][0], {"kind": "uncrossed"}),
    ):
        body = {"question": question, "cells": row["cells"], **extra}
        board = "5x5" if question == "route" else "4x4"
        svg = client.post("/api/picture?format=svg", json={**body, "board": board})
        assert svg.status_code == 200, svg.text
        assert svg.text.lstrip().startswith("<")
    assert moves["cpsat"] == moves["search"] == 5  # A003192(4) = 5
    # 3x4 has 16 directed open tours (8 undirected), as cpknight count prints
    count = solve(client, question="count", board="3x4", closed=False)["rows"][0]
    assert (count["directed"], count["undirected"]) == (16, 8)


def test_model_text_and_exports(client: TestClient) -> None:
    body = {"question": "tour", "board": "3x4", "closed": False}
    text = valid(client.post("/api/formulation", json=body).json())["formulation"]
    assert text.startswith("Open knight (1,2) tour of 3x4")
    proto = client.post("/api/export?format=pbtxt", json=body)
    assert proto.status_code == 200
    assert 'name: "arc[' in proto.text
    assert "attachment" in proto.headers["content-disposition"]
    distance = {"question": "distance", "board": "8x8", "start": "a1", "target": "b2"}
    assert "n[p1,p2]" in client.post("/api/export?format=lp", json=distance).text
    assert "ROWS" in client.post("/api/export?format=mps", json=distance).text
    refused = client.post("/api/export?format=lp", json=body)
    assert refused.status_code == 400


def test_pictures_of_a_checked_tour(client: TestClient) -> None:
    row = solve(client, question="tour", board="6x6", methods="prune")["rows"][0]
    body = {"question": "tour", "board": "6x6", "cells": row["cells"]}
    svg = client.post("/api/picture?format=svg", json=body)
    assert svg.status_code == 200
    assert svg.text.lstrip().startswith("<")
    tour = client.post("/api/picture?format=tour", json=body)
    assert len(tour.text.split()) == 36
    bad = dict(body, cells=row["cells"][:-1])
    assert client.post("/api/picture?format=svg", json=bad).status_code == 400


def test_board_documents(client: TestClient) -> None:
    named = valid(client.post("/api/board", json={"board": "holed8"}).json())
    assert named["boards"][0]["open"] == 48
    assert len(named["boards"][0]["blocked"]) == 16
    drawn = client.post("/api/board", json={"board_text": ". #\n. ."}).json()
    assert drawn["boards"][0]["blocked"] == [[1, 1]]


# ------------------------------------------------------------------ streaming


def test_rows_stream_as_server_sent_events(client: TestClient) -> None:
    body = {"question": "tour", "board": "5x5", "closed": False, "start": "a1"}
    run = client.post("/api/runs", json={**body, "methods": ["prune", "warnsdorff"]})
    assert run.status_code == 202
    events: list[str] = []
    with client.stream("GET", f"/api/runs/{run.json()['id']}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("event: "):
                events.append(line[7:])
    assert events.count("row") == 2
    assert events[-1] == "done"


# ------------------------------------------------------------------ cancel, caps


def test_cancel_stops_a_run_within_a_second(client: TestClient) -> None:
    # plain backtracking on 8x8 runs for ages: only cancel stops it here
    run = client.post(
        "/api/runs",
        json={
            "question": "tour",
            "board": "8x8",
            "methods": "backtrack",
            "time_limit": 20,
        },
    ).json()
    time.sleep(0.5)
    began = time.monotonic()
    client.post(f"/api/runs/{run['id']}/cancel")
    document = wait_done(client, run["id"], seconds=5)
    assert time.monotonic() - began < 1.0
    row = document["rows"][0]
    assert row["status"] == "unknown"
    assert row["reason"].startswith("cancelled")
    assert row["effort"]["attempts"] > 0  # the engine's own row: it stopped itself
    assert document["cancelled"] is True


def test_concurrent_runs_are_capped(client: TestClient) -> None:
    slow = {
        "question": "tour",
        "board": "8x8",
        "methods": "backtrack",
        "time_limit": 20,
    }
    ids = [client.post("/api/runs", json=slow).json()["id"] for _ in range(SMALL.runs)]
    try:
        busy = client.post("/api/runs", json=slow)
        assert busy.status_code == 429
        assert "at most 2 at once" in busy.json()["error"]
    finally:
        for run_id in ids:
            client.post(f"/api/runs/{run_id}/cancel")
        for run_id in ids:
            wait_done(client, run_id)
    again = client.post("/api/solve", json={"question": "tour", "board": "3x4"})
    assert again.status_code == 200


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"question": "tour", "board": "300x300"}, "at most 40000 cells"),
        ({"question": "count", "board": "12x12"}, "at most 100 cells for a count"),
        ({"question": "tour", "board": "8x8", "time_limit": 999}, "at most 20 s"),
        ({"question": "tour", "board": "8x8", "time_limit": -1}, "more than 0"),
        ({"question": "tour", "board": "8x8", "methods": "all"}, "at most 3 engines"),
        ({"question": "tour", "board": "/etc/passwd"}, "expected a board size"),
        ({"question": "tour", "board": "8x8", "start": "z9"}, "z9"),
        ({"question": "tour", "board": "8x8", "methods": "magic"}, "'magic'"),
        ({"question": "tour", "board": "8x8", "colour": 1}, "unknown key"),
        ({"question": "sing", "board": "8x8"}, "expected a question"),
        ({"question": "tour", "board": {"shape": [8, -8]}}, "board shape"),
        ({"question": "tour", "board": "8x8", "piece": "dragon"}, "dragon"),
        ({"question": "tour", "board": "8x8", "end": "h8"}, "closed tour has no end"),
        ({"question": "distance", "board": "8x8"}, "needs a start"),
        ({"question": "route", "board": "8x8", "start": "a1"}, "food"),
        (
            {"question": "tour", "board": "8x8", "constraints": {"via": ["q9@1"]}},
            "q9",
        ),
        ([1, 2, 3], "JSON object"),
        ({"question": "swap"}, "needs 'puzzle'"),
        ({"question": "swap", "puzzle": "/etc/passwd"}, "expected a puzzle"),
        ({"question": "swap", "puzzle": "guy3x20"}, "at most 36 cells for a swap"),
        ({"question": "swap", "puzzle": "guarini", "board": "8x8"}, "drop 'board'"),
        ({"question": "swap", "puzzle": "W .\n. .\n"}, "two drawings"),
        ({"question": "swap", "puzzle": "guarini", "methods": "dfs"}, "'dfs'"),
        ({"question": "tour", "board": "8x8", "min": "moves"}, "expected min"),
        ({"question": "dominate", "board": "8x8", "kind": "odd"}, "domination kind"),
        ({"question": "dominate", "board": "13x13"}, "at most 144 cells"),
        ({"question": "independent", "board": "8x8", "kind": "total"}, "no kind"),
        ({"question": "independent", "board": "8x8", "methods": "bfs"}, "'bfs'"),
        ({"question": "tour", "board": "8x8", "magic": "diagonals"}, "magic"),
        ({"question": "tour", "board": "20x20", "min": "turns"}, "at most 144 cells"),
        (
            {
                "question": "tour",
                "board": {"shape": [8, 8], "blocked": [[0, 0]]},
                "magic": True,
            },
            "no blocked cells",
        ),
    ],
)
def test_bad_input_is_one_line_and_a_4xx(
    client: TestClient, body: Any, words: str
) -> None:
    response = client.post("/api/runs", json=body)
    assert response.status_code == 400, response.text
    message = response.json()["error"]
    assert words in message
    assert "\n" not in message
    assert "Traceback" not in message


@pytest.mark.parametrize("magic", [True, "ranks", "files", "both"])
@pytest.mark.parametrize("endpoint", ["/api/runs", "/api/solve", "/api/formulation"])
def test_magic_past_the_objective_cap_is_refused(
    client: TestClient, endpoint: str, magic: Any
) -> None:
    # 16x16 has magic tours (Jelliss), and 256 cells: past the 144 the
    # playground takes for a tour with an objective; nothing may start.
    body = {"question": "tour", "board": "16x16", "magic": magic}
    response = client.post(endpoint, json=body)
    assert response.status_code == 400, response.text
    message = response.json()["error"]
    assert f"at most {SMALL.cells['objective']} cells" in message
    assert "16x16 has 256" in message
    assert "\n" not in message


@pytest.mark.parametrize("limit", [0, 0.0, -0.0, -1, -0.5, float("-inf")])
@pytest.mark.parametrize("endpoint", ["/api/runs", "/api/solve", "/api/map"])
def test_a_time_limit_of_zero_or_less_is_refused(
    client: TestClient, endpoint: str, limit: float
) -> None:
    body = {"question": "distance", "board": "8x8", "start": "a1", "target": "h8"}
    response = client.post(endpoint, content=json.dumps({**body, "time_limit": limit}))
    assert response.status_code == 400, response.text
    message = response.json()["error"]
    assert "the time limit must be more than 0" in message
    assert "\n" not in message


def test_deeply_nested_bodies_are_one_line_400s(client: TestClient) -> None:
    # 100,000 '[' was a 500 (a RecursionError in the JSON reader).
    for text in (
        "[" * 100_000,
        "[" * 100_000 + "]" * 100_000,
        '{"question": "tour", "board": ' + "[" * 900 + "]" * 900 + "}",
        '{"question": "tour", "board": "8x8", "start": '
        + '{"a": ' * 50
        + "1"
        + "}" * 51,
    ):
        for endpoint in ("/api/runs", "/api/board", "/api/picture", "/api/map"):
            response = client.post(endpoint, content=text.encode())
            assert response.status_code == 400, (endpoint, response.text[:200])
            message = response.json()["error"]
            assert "nests more than 32 levels" in message or "not JSON" in message
            assert "\n" not in message
    assert client.get("/api/meta").status_code == 200  # the server is fine


def test_a_body_shorter_than_its_length_is_answered_not_waited_on() -> None:
    # A real server on a real socket: the request promises 100 bytes and
    # sends 11, and keeps the connection open. It gets a 400 once the read
    # timeout (here 1 s) passes; before, it waited for ever.
    import socket
    import threading

    import uvicorn

    caps = Caps(runs=1, engines=1, time_limit=5.0, body_seconds=1.0)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    config = uvicorn.Config(
        create_app(caps, warm=False), log_level="warning", lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]})
    thread.start()
    try:
        end = time.monotonic() + 60
        while not server.started:  # an event with a generous ceiling
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.02)
        for declared, sent in ((100, b'{"question"'), (SMALL.body_bytes, b"")):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                began = time.monotonic()
                sock.sendall(
                    b"POST /api/runs HTTP/1.1\r\nHost: test\r\n"
                    b"Content-Type: application/json\r\n"
                    b"Content-Length: %d\r\n\r\n%s" % (declared, sent)
                )
                answer = b""
                while b"}" not in answer:
                    chunk = sock.recv(4096)  # the 30 s socket timeout is the ceiling
                    if not chunk:
                        break
                    answer += chunk
                waited = time.monotonic() - began
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 400"), answer
            message = json.loads(body)["error"]
            assert "did not arrive within 1 s" in message
            assert waited >= 1.0  # it did wait for the body, then answered
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(  # a length past the cap: refused before any wait
                b"POST /api/runs HTTP/1.1\r\nHost: test\r\n"
                b"Content-Length: %d\r\n\r\n" % (caps.body_bytes + 1)
            )
            assert sock.recv(4096).startswith(b"HTTP/1.1 413")
    finally:
        server.should_exit = True
        thread.join(30)
    assert not thread.is_alive()


def test_malformed_json_unknown_run_and_oversized_body(client: TestClient) -> None:
    bad = client.post("/api/runs", content=b"{not json", headers={"content-type": "x"})
    assert bad.status_code == 400
    assert "not JSON" in bad.json()["error"]
    assert client.get("/api/runs/nosuchrun").status_code == 404
    huge = client.post("/api/runs", content=b" " * (SMALL.body_bytes + 1))
    assert huge.status_code == 413


def test_serve_without_the_extra_is_one_line_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import builtins

    from cpknight.cli import main

    real_import = builtins.__import__

    def no_uvicorn(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "uvicorn":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvicorn)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "cpknight[web]" in err


def test_three_dimensional_and_wrapped_boards(client: TestClient) -> None:
    # the (1,2,3) leaper on the 4x4x4 cube: the inner cell 1,1,1 has no move
    # (every move steps 3 along some axis), so the reason names it
    cube = solve(
        client, question="tour", board="cube4", piece=[1, 2, 3], methods="prune"
    )["rows"][0]
    assert cube["status"] == "infeasible"
    assert [1, 1, 1] in cube["highlight"]
    assert "1,1,1" in cube["reason"]
    knight = solve(
        client, question="tour", board={"shape": [4, 4, 4]}, methods="cpsat"
    )["rows"][0]
    assert knight["status"] == "found"
    check_tour("4x4x4", [tuple(c) for c in knight["cells"]])
    torus = {"shape": [4, 4], "topology": "torus"}
    row = solve(client, question="tour", board=torus, methods="cpsat")["rows"][0]
    from cpknight.board import Board

    assert row["status"] == "found"
    check_tour(Board((4, 4), topology="torus"), [tuple(c) for c in row["cells"]])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_stops_the_server_and_cancels_its_runs() -> None:
    import re
    import signal
    import subprocess
    import sys
    import urllib.request

    server = subprocess.Popen(
        [sys.executable, "-m", "cpknight", "serve"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert server.stdout is not None
    try:
        match = re.search(r"http://127\.0\.0\.1:\d+/", server.stdout.readline())
        assert match
        slow = {"question": "tour", "board": "8x8", "methods": "backtrack"}
        request = urllib.request.Request(
            match.group(0) + "api/runs",
            data=json.dumps({**slow, "time_limit": 30}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 202
        time.sleep(0.3)
        workers = [w for f in child_pids(server.pid) for w in child_pids(f)]
        assert workers  # the run's worker, forked by the fork server
        began = time.monotonic()
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=10) == 130  # interrupted, as every command
        assert time.monotonic() - began < 5
        time.sleep(0.2)
        assert not [w for w in workers if Path(f"/proc/{w}").exists()]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        server.stdout.close()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_while_the_workers_warm_stops_cleanly() -> None:
    # Ctrl-C at a terminal reaches the whole process group: the fork server
    # still importing its modules died with a traceback, and the server's
    # start-up with it (two tracebacks, exit 3). Sent as a terminal does, the
    # moment the address is shown (the fork server then exists and is still
    # importing: an event, not a guess at a delay).
    import contextlib
    import os
    import signal
    import subprocess
    import sys

    server = subprocess.Popen(
        [sys.executable, "-m", "cpknight", "serve"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert server.stdout is not None
    assert server.stderr is not None
    try:
        assert b"playground on http://" in server.stdout.readline()
        # The fork server was spawned before the address was shown, but its
        # command line can read empty for a moment yet: vfork lets the parent
        # go on before the child's exec has set its arguments up (seen in CI
        # on a loaded machine). Wait for it, with a generous ceiling.
        deadline = time.monotonic() + 30
        while not [
            pid
            for pid in child_pids(server.pid)
            if b"forkserver" in Path(f"/proc/{pid}/cmdline").read_bytes()
        ]:
            assert time.monotonic() < deadline, "no fork server"
            time.sleep(0.005)
        began = time.monotonic()
        os.killpg(server.pid, signal.SIGINT)
        assert server.wait(timeout=30) == 130
        assert time.monotonic() - began < 5
        with contextlib.suppress(ProcessLookupError):  # the fork server, if alive
            os.killpg(server.pid, signal.SIGKILL)
        err = server.stderr.read().decode()
        assert err == "", err  # no traceback, from the server or its children
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        server.stdout.close()
        server.stderr.close()


def test_ctrl_c_before_the_loop_starts_is_quiet() -> None:
    # A Ctrl-C after the address is shown but before the event loop has
    # started the server's coroutine (seen in CI on a loaded machine) left it
    # never awaited: exit 130 as it should, but a RuntimeWarning on stderr.
    # The interrupt is made to come at exactly that point: the runner raises
    # it before touching the coroutine, as a signal there does.
    import subprocess
    import sys

    script = (
        "import asyncio, sys\n"
        "def interrupted(self, coro, **kwargs):\n"
        "    raise KeyboardInterrupt\n"
        "asyncio.Runner.run = interrupted\n"
        "from cpknight.cli import main\n"
        "sys.exit(main(['serve']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "playground on http://" in done.stdout
    assert done.returncode == 130, done.stderr
    assert done.stderr == "", done.stderr


# ------------------------------------------------- issue 25: swaps, objectives


def test_swap_guarini_both_engines_checked_apart(client: TestClient) -> None:
    from cpknight.swaps.common import check_swap
    from cpknight.swaps.drawings import named_puzzle

    document = solve(client, question="swap", puzzle="guarini", methods="bfs,cpsat")
    board, start, goal, _ = named_puzzle("guarini")
    for row in document["rows"]:
        assert row["status"] == "optimal", row
        assert row["moves"] == len(row["steps"]) == 16  # Guarini (1512): 16 moves
        assert row["board_shape"] == [3, 3]
        steps = [(tuple(a), tuple(b)) for a, b in row["steps"]]
        check_swap(board, start, goal, steps)


def test_swap_from_two_drawings_and_its_model(client: TestClient) -> None:
    from cpknight.api import solve_swap
    from cpknight.swaps.common import check_swap
    from cpknight.swaps.drawings import read_drawings

    text = "W . .\n. . .\n\n. . .\n. . W\n"
    document = solve(client, question="swap", puzzle=text, methods="bfs")
    row = document["rows"][0]
    board, start, goal = read_drawings(text)
    check_swap(board, start, goal, [(tuple(a), tuple(b)) for a, b in row["steps"]])
    assert row["moves"] == solve_swap(text, method="cpsat").moves
    model = client.post("/api/formulation", json={"question": "swap", "puzzle": text})
    assert model.status_code == 200, model.text
    assert "horizon" in model.json()["formulation"]


def _turns(cells: list[tuple[int, int]], closed: bool) -> int:
    """Cells where the knight changes direction (next != 2 * here - previous)."""
    n = len(cells)
    inner = range(n) if closed else range(1, n - 1)
    count = 0
    for i in inner:
        (pr, pc), (r, c), (nr, nc) = cells[i - 1], cells[i], cells[(i + 1) % n]
        count += (nr, nc) != (2 * r - pr, 2 * c - pc)
    return count


def _crosses(a: Any, b: Any, c: Any, d: Any) -> bool:
    def orient(p: Any, q: Any, r: Any) -> int:
        v = int((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))
        return (v > 0) - (v < 0)

    if len({a, b, c, d}) < 4:
        return False
    return (
        orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0
    )


def test_tour_with_fewest_turns_and_crossings_recounted(client: TestClient) -> None:
    from cpknight.api import find_tour
    from cpknight.results import ScoredTour

    turns = solve(client, question="tour", board="6x6", min="turns", methods="cpsat")
    row = turns["rows"][0]
    cells = [tuple(c) for c in row["cells"]]
    check_tour(_board({"shape": [6, 6], "blocked": []}), cells, closed=True)
    assert row["status"] == "optimal"
    assert row["turns"] == _turns(cells, True)
    # the same minimum by the front door called directly (README: 6x6 has 32)
    direct = find_tour("6x6", minimise="turns", time_limit=30)
    assert isinstance(direct, ScoredTour)
    assert row["turns"] == direct.value
    crossed = solve(
        client,
        question="tour",
        board="5x5",
        closed=False,
        min="crossings",
        methods="cpsat",
    )
    row = crossed["rows"][0]
    cells = [tuple(c) for c in row["cells"]]
    check_tour(_board({"shape": [5, 5], "blocked": []}), cells, closed=False)
    moves = [(cells[i], cells[i + 1]) for i in range(len(cells) - 1)]
    recount = sum(
        _crosses(*moves[i], *moves[j])
        for i in range(len(moves))
        for j in range(i + 1, len(moves))
    )
    assert row["crossings"] == recount


def test_magic_tour_sums_recomputed(client: TestClient) -> None:
    document = solve(
        client,
        question="tour",
        board="4x8",
        closed=False,
        magic="files",
        methods="cpsat",
    )
    row = document["rows"][0]
    assert row["status"] in ("found", "optimal"), row
    cells = [tuple(c) for c in row["cells"]]
    check_tour(_board({"shape": [4, 8], "blocked": []}), cells, closed=False)
    sums: dict[int, int] = {}
    for k, (_, c) in enumerate(cells, start=1):
        sums[c] = sums.get(c, 0) + k
    assert len(set(sums.values())) == 1  # every file: 4 visits summing to 66


@pytest.mark.parametrize(
    ("body", "size"),
    [
        ({"question": "dominate", "board": "8x8"}, 12),  # OEIS A006075(8)
        ({"question": "dominate", "board": "5x5", "kind": "total"}, 7),  # A261752(5)
        (
            {"question": "dominate", "board": "5x5", "kind": "independent"},
            5,  # OEIS A342576(5)
        ),
        ({"question": "independent", "board": "6x6"}, 18),  # OEIS A030978(6)
    ],
)
def test_covering_questions_checked_apart(
    client: TestClient, body: dict[str, Any], size: int
) -> None:
    from cpknight.covering.common import check_cover
    from cpknight.pieces import move_graph

    # SCIP 10 (the scip extra, in the test extras) answers through the page too
    document = solve(client, methods="cpsat,search,pyscipopt", time_limit=20, **body)
    assert [row["method"] for row in document["rows"]] == [
        "cpsat",
        "search",
        "pyscipopt",
    ]
    board = _board({"shape": [int(x) for x in body["board"].split("x")], "blocked": []})
    kind = {"plain": "dominating", "total": "total", "independent": "independent"}
    which = (
        kind[body.get("kind", "plain")]
        if body["question"] == "dominate"
        else "independent-set"
    )
    for row in document["rows"]:
        assert row["status"] == "optimal", row
        assert row["size"] == len(row["cells"]) == size
        check_cover(board, [tuple(c) for c in row["cells"]], kind=which)
        graph = move_graph(board)
        knights = {tuple(c) for c in row["cells"]}
        attacked = {
            graph.cell(v)
            for c in knights
            for v in graph.neighbors(graph.node(c)).tolist()
        }
        assert {tuple(c) for c in row["dominated"]} == attacked - knights


def test_new_questions_print_and_export_their_models(client: TestClient) -> None:
    swap = {"question": "swap", "puzzle": "guarini"}
    proto = client.post("/api/export?format=pbtxt", json=swap)
    assert proto.status_code == 200, proto.text
    assert "variables" in proto.text
    cover = {"question": "dominate", "board": "5x5"}
    text = client.post("/api/formulation", json=cover).json()["formulation"]
    assert "each cell occupied or attacked" in text
    for kind, word in (("lp", "Minimize"), ("mps", "ROWS")):
        exported = client.post(f"/api/export?format={kind}", json=cover)
        assert exported.status_code == 200, exported.text
        assert word.lower() in exported.text.lower()
    refused = client.post("/api/export?format=pbtxt", json=cover)
    assert refused.status_code == 400
    assert "lp or mps" in refused.json()["error"]
    tour = {"question": "tour", "board": "6x6", "min": "turns"}
    text = client.post("/api/formulation", json=tour).json()["formulation"]
    assert "minimise turns" in text
