# Two commands for a fresh machine with Python 3.11 and pip:
#   make demo   set up .venv, install cpknight, run its main job
#   make test   set up .venv with the test extras, run linters, type checker, tests
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test test-loaded lint typecheck unit slow bench clean docs

# pip's output goes to .venv/pip.log and is shown only when an install fails.
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
QUIET := > $(VENV)/pip.log 2>&1 || { cat $(VENV)/pip.log; exit 1; }

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip $(QUIET)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	@echo "installing cpknight into $(VENV) ..."
	@$(PIP) -e . $(QUIET)
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	@echo "installing cpknight with its test extras into $(VENV) ..."
	@$(PIP) -e '.[test]' $(QUIET)
	@touch $@

$(VENV)/.installed-docs: pyproject.toml | $(BIN)/python
	@echo "installing cpknight with its test and docs extras into $(VENV) ..."
	@$(PIP) -e '.[test,docs]' $(QUIET)
	@touch $@

demo: $(VENV)/.installed
	$(BIN)/cpknight warm
	$(BIN)/cpknight tour 8x8 --method cpsat
	$(BIN)/cpknight compare 6x6 --open --start a1

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

# The suite on every core (pytest-xdist; `-n 0` in PYTEST_ARGS for one process).
unit: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -n auto --dist worksteal $(PYTEST_ARGS)

# The type checker runs beside the suite: it is one process, and the suite
# leaves a core idle now and then (browsers, Dask clusters, subprocesses).
test: lint
	@$(MAKE) --no-print-directory -j2 typecheck unit

# `make test` on a loaded machine: benchmarks/load.py keeps LOAD busy processes a
# core going beside it (default 2), RUNS times in a row (default 1; the issue's
# bar is 2); the load stops with the last run, whatever its outcome.
LOAD ?= 2
RUNS ?= 1

test-loaded: $(VENV)/.installed-test
	@$(BIN)/python benchmarks/load.py --per-core $(LOAD) & load=$$!; \
	trap 'kill $$load 2>/dev/null; wait $$load 2>/dev/null' EXIT INT TERM; \
	for run in $$(seq $(RUNS)); do \
		echo "== make test under load, run $$run of $(RUNS)"; \
		$(MAKE) --no-print-directory test || exit 1; \
	done

slow: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -n auto --dist worksteal -m slow $(PYTEST_ARGS)

# Every benchmark script at its quick sizes, one at a time (the timings are
# ratios against baselines run alongside); fails if any script missed a target.
BENCHMARKS := bfs distance search tours collect huge limits study startup auto constraints count longest ends doors swaps tour_objectives covering

bench: $(VENV)/.installed
	@status=0; for name in $(BENCHMARKS); do \
		echo "== benchmarks/$$name.py --quick"; \
		$(BIN)/python benchmarks/$$name.py --quick || status=1; \
	done; exit $$status

# The documentation site (mkdocs.yml): warnings are errors; the notebooks are
# run as the site is built, so their pages show their outputs.
# tests/test_site.py then checks that site (CPKNIGHT_SITE_DIR; run alone, the
# test builds one apart) works with no network (no outside script, stylesheet
# or font; formulas drawn as MathML).
docs: $(VENV)/.installed-docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
	CPKNIGHT_SITE_DIR=site $(BIN)/python -m pytest -q tests/test_site.py

clean:
	rm -rf $(VENV) build *.egg-info site .cache
