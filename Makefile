# Two commands for a fresh machine with Python 3.11 and pip:
#   make demo   set up .venv, install cpknight, run its main job
#   make test   set up .venv with the test extras, run linters, type checker, tests
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test lint typecheck unit slow bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

demo: $(VENV)/.installed
	$(BIN)/cpknight tour 8x8 --method cpsat
	$(BIN)/cpknight compare 6x6 --open --start a1

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

unit: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q

test: lint typecheck unit

slow: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -m slow

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/bfs.py
	$(BIN)/python benchmarks/distance.py

clean:
	rm -rf $(VENV) build *.egg-info
