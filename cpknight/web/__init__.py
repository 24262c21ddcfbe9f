"""The playground: ``cpknight serve``, a local page and its JSON API.

One page (plain HTML, CSS and JavaScript under ``static/``, package data, no
build step, nothing from the internet) and a JSON API on the front doors,
served by Starlette and uvicorn (the optional extra ``cpknight[web]``):

- :mod:`~cpknight.web.jobs`: a request read into a checked job, under caps;
- :mod:`~cpknight.web.worker`: one engine on one job, in a worker process;
- :mod:`~cpknight.web.runs`: the runs of a server, live rows, cancel;
- :mod:`~cpknight.web.views`: meta, maps, models and pictures;
- :mod:`~cpknight.web.app`: the routes; :mod:`~cpknight.web.server`: serving.

Only :mod:`~cpknight.web.app` and :mod:`~cpknight.web.server` import the
framework, so the plain install can read jobs and run workers without it.
"""
