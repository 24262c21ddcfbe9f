"""The playground's server: one page, its static files, and the JSON API.

Every answer speaks the one JSON schema the command line prints
(``cpknight/cli/output.schema.json``, ``"schema": 1``): a run is a comparison
(``question``, ``instance``, ``rows`` of outcome rows) with its state beside
it; a map is ``cpknight map --json``'s document, a board ``cpknight boards
--json``'s. Bad input is a 4xx with ``{"error": "one line"}``, never a
traceback; nothing is written to disk.

The API (all JSON; ``BODY`` is a job, see :func:`~cpknight.web.jobs.read_job`):

- ``GET /api/meta``: questions, engines, named boards, pieces, symmetries, caps.
- ``POST /api/board``: ``{"board": ...}`` or ``{"board_text": ...}`` -> the board.
- ``POST /api/runs`` BODY -> 202, the run (``id``, ``state``: ``running``).
- ``GET /api/runs/ID``: the run so far; ``GET /api/runs/ID/events``: server-sent
  events ``row`` (each engine's row as it finishes) and ``done`` (the run).
- ``POST /api/runs/ID/cancel``: stop the run (within a second).
- ``POST /api/solve`` BODY: start a run and answer when it is done.
- ``POST /api/complete`` BODY (``path``): can the tour so far be finished? A
  run of the question ``complete``, answered when it is done.
- ``POST /api/moves`` BODY: the move graph (cells, CSR arrays), for touring
  by hand; ``POST /api/check`` ``{job..., "cells": [...]}``: is it a tour?
- ``POST /api/puzzle`` BODY (a swap): the puzzle's board and knights.
- ``POST /api/map`` BODY (``start``): the distance map from the start.
- ``POST /api/formulation`` BODY: the model's text (``cpknight formulation``).
- ``POST /api/export?format=lp|mps|pbtxt`` BODY: the model file.
- ``POST /api/picture?format=svg|tour`` ``{job..., "cells": [...]}``: a checked
  tour drawn as SVG or written as a tour file.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    FileResponse,
    JSONResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cpknight.errors import CpknightError
from cpknight.web.jobs import CAPS, QUESTIONS, Caps, read_board, read_job
from cpknight.web.runs import BusyError, JobRace, RaceManager
from cpknight.web.views import (
    check_document,
    export_model,
    formulation_document,
    map_document,
    meta_document,
    moves_document,
    picture,
    puzzle_document,
)

__all__ = ["MAX_NESTING", "STATIC", "create_app", "nesting"]

STATIC = Path(__file__).resolve().parent / "static"
"""The page's files (package data): HTML, CSS and JavaScript, no build step."""

MAX_NESTING = 32
"""The deepest a request body's arrays and objects may nest (a job needs 4)."""


def create_app(caps: Caps = CAPS, *, warm: bool = True) -> Starlette:
    """The playground as an ASGI app (Starlette), with its own run manager.

    Args:
        caps: board, time and concurrency caps.
        warm: start the worker fork server when the app starts, warming in
            the background (the first run then starts in milliseconds, not
            seconds; one asked for sooner waits for it, off the event loop).
    """
    runs = RaceManager(caps)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if warm:  # in the background: Ctrl-C stops the server at any moment
            runs.warm_soon()
        try:
            yield
        finally:
            await run_in_threadpool(runs.cancel_all)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def meta(request: Request) -> Response:
        return JSONResponse(meta_document(caps))

    async def board(request: Request) -> Response:
        body = await _body(request, caps)
        if not isinstance(body, dict) or set(body) - {
            "board",
            "board_text",
            "topology",
        }:
            raise CpknightError("expected {'board': ...} or {'board_text': ...}")
        from cpknight.text.reports import board_json

        read = read_board(
            body.get("board"), body.get("board_text"), body.get("topology")
        )
        if read.size > max(caps.cells.values()):
            raise CpknightError(
                f"the playground takes boards of at most {max(caps.cells.values())} "
                f"cells: {read.size_label} has {read.size}"
            )
        document = board_json(read)
        document["blocked"] = sorted(list(cell) for cell in read.blocked)
        document["start_hint"] = (
            None if read.start_hint is None else list(read.start_hint)
        )
        return JSONResponse({"schema": 1, "boards": [document]})

    async def start_run(request: Request) -> Response:
        body = await _body(request, caps)
        job = await run_in_threadpool(read_job, body, caps)  # a path builds a graph
        run = await run_in_threadpool(runs.start, job)  # waits for a cold server
        return JSONResponse(run.document(), status_code=202)

    async def solve(request: Request) -> Response:
        body = await _body(request, caps)
        job = await run_in_threadpool(read_job, body, caps)
        run = await run_in_threadpool(runs.start, job)  # waits for a cold server
        while not run.done.is_set():
            await asyncio.sleep(0.02)
        return JSONResponse(run.document())

    async def complete(request: Request) -> Response:
        body = await _body(request, caps)
        if not isinstance(body, dict) or body.get("question", "complete") != "complete":
            raise CpknightError(
                "expected a job with a 'path' (the question is complete)"
            )
        job = await run_in_threadpool(read_job, {**body, "question": "complete"}, caps)
        run = await run_in_threadpool(runs.start, job)
        while not run.done.is_set():
            await asyncio.sleep(0.02)
        return JSONResponse(run.document())

    async def moves(request: Request) -> Response:
        job = read_job(await _body(request, caps), caps)
        return JSONResponse(await run_in_threadpool(moves_document, job))

    async def check(request: Request) -> Response:
        body = await _body(request, caps)
        if not isinstance(body, dict):
            raise CpknightError("expected a JSON object as the request body")
        cells = body.pop("cells", None)
        job = read_job(body, caps)
        return JSONResponse(await run_in_threadpool(check_document, job, cells))

    async def puzzle(request: Request) -> Response:
        job = read_job(await _body(request, caps), caps)
        if job.question != "swap":
            raise CpknightError("expected a swap puzzle ('question': 'swap')")
        return JSONResponse(await run_in_threadpool(puzzle_document, job))

    def find(request: Request) -> JobRace:
        run = runs.get(request.path_params["run_id"])
        if run is None:
            raise HTTPException(404, f"no run {request.path_params['run_id']!r}")
        return run

    async def show_run(request: Request) -> Response:
        return JSONResponse(find(request).document())

    async def cancel_run(request: Request) -> Response:
        run = find(request)
        run.cancel()
        return JSONResponse(run.document())

    async def events(request: Request) -> Response:
        run = find(request)
        return StreamingResponse(
            _events(run, request),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache"},
        )

    async def distance_map(request: Request) -> Response:
        job = read_job(await _body(request, caps), caps)
        return JSONResponse(await run_in_threadpool(map_document, job))

    async def formulation(request: Request) -> Response:
        job = read_job(await _body(request, caps), caps)
        return JSONResponse(await run_in_threadpool(formulation_document, job, caps))

    async def export(request: Request) -> Response:
        kind = request.query_params.get("format", "")
        job = read_job(await _body(request, caps), caps)
        name, text = await run_in_threadpool(export_model, job, kind, caps)
        return _download(name, text, "text/plain")

    async def draw(request: Request) -> Response:
        kind = request.query_params.get("format", "svg")
        body = await _body(request, caps)
        if not isinstance(body, dict):
            raise CpknightError("expected a JSON object as the request body")
        cells = body.pop("cells", None)
        job = read_job(body, caps)
        name, text, media = await run_in_threadpool(picture, job, cells, kind)
        return _download(name, text, media)

    routes = [
        Route("/", page),
        Route("/api/meta", meta),
        Route("/api/board", board, methods=["POST"]),
        Route("/api/runs", start_run, methods=["POST"]),
        Route("/api/solve", solve, methods=["POST"]),
        Route("/api/complete", complete, methods=["POST"]),
        Route("/api/moves", moves, methods=["POST"]),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/puzzle", puzzle, methods=["POST"]),
        Route("/api/runs/{run_id}", show_run),
        Route("/api/runs/{run_id}/events", events),
        Route("/api/runs/{run_id}/cancel", cancel_run, methods=["POST"]),
        Route("/api/map", distance_map, methods=["POST"]),
        Route("/api/formulation", formulation, methods=["POST"]),
        Route("/api/export", export, methods=["POST"]),
        Route("/api/picture", draw, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            BusyError: _busy,
            CpknightError: _bad_input,
            HTTPException: _http_error,
            Exception: _internal,
        },
    )
    app.state.runs = runs
    return app


async def _events(run: JobRace, request: Request) -> AsyncIterator[str]:
    """The run as server-sent events: each row as it comes, then the whole run."""
    sent = 0
    version = -1
    while True:
        if run.version != version:
            version = run.version
            document = run.document()
            rows = document["rows"]
            for row in rows[sent:]:
                yield f"event: row\ndata: {json.dumps(row)}\n\n"
            sent = len(rows)
            if document["state"] == "done":
                yield f"event: done\ndata: {json.dumps(document)}\n\n"
                return
        if await request.is_disconnected():
            return
        await asyncio.sleep(0.05)


async def _body(request: Request, caps: Caps) -> Any:
    """The request's JSON body, refused past ``caps.body_bytes``, late or malformed.

    The body must arrive within ``caps.body_seconds`` (a request whose
    Content-Length promises more than it sends is answered, not waited on),
    and nest at most :data:`MAX_NESTING` arrays and objects deep.
    """
    try:
        data = await asyncio.wait_for(_read(request, caps), caps.body_seconds)
    except TimeoutError:
        raise HTTPException(
            400,
            f"the request body did not arrive within {caps.body_seconds:g} s "
            "(shorter than its Content-Length?)",
        ) from None
    except ClientDisconnect:
        raise HTTPException(400, "the request body was cut short") from None
    try:
        value = json.loads(data or b"{}")
    except RecursionError:
        value = None
        deep = True
    except (ValueError, UnicodeDecodeError) as exc:
        raise HTTPException(400, f"the request body is not JSON: {exc}") from None
    else:
        deep = nesting(value) > MAX_NESTING
    if deep:
        raise HTTPException(
            400, f"the request body nests more than {MAX_NESTING} levels deep"
        )
    return value


async def _read(request: Request, caps: Caps) -> bytes:
    """The body's bytes, refused (413) as soon as they pass ``caps.body_bytes``."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > caps.body_bytes:
        raise HTTPException(413, f"the request body is over {caps.body_bytes} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > caps.body_bytes:
            raise HTTPException(
                413, f"the request body is over {caps.body_bytes} bytes"
            )
        chunks.append(chunk)
    return b"".join(chunks)


def nesting(value: Any) -> int:
    """How deep arrays and objects nest in a JSON value (a scalar is 0).

    Walked without recursion, so that no depth can overflow the stack.

    Examples:
        >>> nesting(3), nesting([]), nesting({"a": [[1], 2]})
        (0, 1, 3)
    """
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth + 1)
            stack.extend((inner, depth + 1) for inner in item)
    return deepest


def _download(name: str, text: str, media: str) -> Response:
    return Response(
        text,
        media_type=media,
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def _error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)


async def _bad_input(request: Request, exc: Exception) -> Response:
    return _error(400, str(exc))


async def _busy(request: Request, exc: Exception) -> Response:
    return _error(429, str(exc))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _error(exc.status_code, str(exc.detail))


async def _internal(request: Request, exc: Exception) -> Response:
    return _error(
        500, f"internal error: {type(exc).__name__}: {exc} (please report this)"
    )


assert set(CAPS.cells) == {*QUESTIONS, "objective"}  # every question has a size cap
