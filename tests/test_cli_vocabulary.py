"""One vocabulary on the command line: JSON schema, '-', --method, help.

The completion scripts are tested in ``test_completion.py``.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from cpknight.cli import build_parser, main

SCHEMA = json.loads(
    resources.files("cpknight.cli").joinpath("output.schema.json").read_text()
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


JSON_COMMANDS = [
    ["boards"],
    ["boards", "cross5"],
    ["map", "5x5", "a1"],
    ["distance", "8x8", "a1", "h8"],
    ["distance", "8x8", "a1", "h8", "--method", "all"],
    ["reach", "5x5", "a1"],
    ["tour", "5x6"],
    ["tour", "4x4"],
    ["count", "3x4", "--open"],
    ["count", "3x4", "--open", "--shards", "4"],
    ["count", "3x4", "--open", "--classes"],
    ["compare", "5x5", "--open", "--method", "cpsat,prune"],
    ["sweep", "3x4", "--open", "--method", "prune"],
    ["sweep", "3x4", "--pairs", "--method", "prune"],
    ["collect", "8x8", "a1", "h8"],
    ["longest", "4x4", "--uncrossed"],
    ["longest", "4x4", "--uncrossed", "--method", "all"],
    ["swap", "guarini"],
    ["swap", "guarini", "--method", "all"],
    ["formulation", "tour", "3x4", "--open"],
    ["formulation", "distance", "8x8", "a1", "b3"],
    ["formulation", "collect", "5x5", "a1", "e5"],
    ["formulation", "count", "3x4"],
    ["formulation", "longest", "4x4", "--uncrossed"],
    ["formulation", "swap", "guarini"],
    ["dominate", "4x4", "--count"],
    ["dominate", "3x3", "--total"],
    ["dominate", "5x5", "--independent", "--method", "all"],
    ["dominate", "6x6", "--count", "--method", "portfolio"],
    ["independent", "4x4", "--torus", "--symmetry", "--count"],
    ["formulation", "cover", "4x4", "--total"],
    ["study", "{suite}", "--method", "prune"],
    ["check", "3x4", "{tour}", "--open"],
    ["models"],
    ["models", "tour_closed"],
    ["course", "{course}"],
    ["course", "{course}", "--no-solutions"],
]


def _commands_with_json(parser: argparse.ArgumentParser, path: str = "") -> list[str]:
    """Every command that answers (the formulation subcommands one by one)."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _commands_with_json(sub, f"{path} {name}".strip())
    if path and not any(
        isinstance(a, argparse._SubParsersAction) for a in parser._actions
    ):
        found.append(path)
    return found


def test_every_command_is_in_the_json_list_and_has_json() -> None:
    commands = _commands_with_json(build_parser())
    named = {
        " ".join(argv[:2]) if argv[0] == "formulation" else argv[0]
        for argv in JSON_COMMANDS
    }
    # completion prints a script, serve serves a page, warm compiles (its JSON is
    # checked in test_warm.py: here it would compile for a minute): no question
    assert set(commands) - {"completion", "serve", "warm"} == named
    for _, parser in _parsers(build_parser()):
        if not parser._subparsers and not parser.prog.endswith(("completion", "serve")):
            options = {o for a in parser._actions for o in a.option_strings}
            assert "--json" in options, parser.prog


@pytest.mark.parametrize("argv", JSON_COMMANDS, ids=" ".join)
def test_every_json_document_fits_the_schema(
    argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    suite = tmp_path / "suite.txt"
    suite.write_text("5x5 --open\n3x4 --open\n")
    tour = tmp_path / "tour.txt"
    tour.write_text("a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3".replace(" ", "\n"))
    course = tmp_path / "course"
    argv = [a.format(suite=suite, tour=tour, course=course) for a in argv]
    code, out, _ = run(capsys, *argv, "--json")
    assert code in (0, 1)
    assert out.count("\n") == 1  # one document, one line
    document = json.loads(out)
    assert document["schema"] == 1
    jsonschema.validate(document, SCHEMA)


def _drop(*keys: str | int) -> Callable[[dict[str, Any]], None]:
    """Delete the key at the end of ``keys`` (a path into the document)."""

    def change(document: dict[str, Any]) -> None:
        inner: Any = document
        for key in keys[:-1]:
            inner = inner[key]
        del inner[keys[-1]]

    return change


def _set(value: object, *keys: str | int) -> Callable[[dict[str, Any]], None]:
    """Set the key at the end of ``keys`` (a path into the document) to ``value``."""

    def change(document: dict[str, Any]) -> None:
        inner: Any = document
        for key in keys[:-1]:
            inner = inner[key]
        inner[keys[-1]] = value

    return change


BROKEN_DOCUMENTS = {
    "no schema key": (["tour", "5x6"], _drop("schema")),
    "schema 2": (["tour", "5x6"], _set(2, "schema")),
    "no status": (["tour", "5x6"], _drop("status")),
    "an unknown status": (["tour", "5x6"], _set("solved", "status")),
    "cells by name": (["tour", "5x6"], _set(["a1", "b3"], "cells")),
    "a row without status": (
        ["compare", "5x5", "--open", "--method", "prune"],
        _drop("rows", 0, "status"),
    ),
    "no instance board": (
        ["compare", "5x5", "--open", "--method", "prune"],
        _drop("instance", "board"),
    ),
    "sweep counts without unknown": (
        ["sweep", "3x4", "--open", "--method", "prune"],
        _drop("counts", "unknown"),
    ),
    "map without distances": (["map", "5x5", "a1"], _drop("distances")),
    "a board on no known topology": (
        ["boards", "cross5"],
        _set("sphere", "boards", 0, "topology"),
    ),
    "swap steps by name": (["swap", "guarini"], _set([["a1", "c2"]], "steps")),
    "swap placement by name": (
        ["swap", "guarini"],
        _set({"W": ["a1"]}, "start_knights"),
    ),
    "formulation of no question": (
        ["formulation", "tour", "3x4", "--open"],
        _set("meal", "question"),
    ),
}


@pytest.mark.parametrize("broken", BROKEN_DOCUMENTS)
def test_the_schema_refuses_a_broken_document(
    broken: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The schema constrains: a real document, then one key taken away or
    # given a wrong value, no longer fits.
    argv, change = BROKEN_DOCUMENTS[broken]
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0
    document = json.loads(out)
    jsonschema.validate(document, SCHEMA)
    change(document)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, SCHEMA)


def test_the_schema_refuses_a_bare_document() -> None:
    for document in ({}, {"schema": 1}, {"schema": 1, "answer": 42}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(document, SCHEMA)


def test_study_json_file_fits_the_schema(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    suite = tmp_path / "suite.txt"
    suite.write_text("5x5 --open\n")
    saved = tmp_path / "study.json"
    code, out, _ = run(
        capsys, "study", str(suite), "--method", "prune", "--json-file", str(saved)
    )
    assert code == 0
    assert f"wrote {saved}" in out
    jsonschema.validate(json.loads(saved.read_text()), SCHEMA)


def _parsers(
    parser: argparse.ArgumentParser,
) -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(parser.prog, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found += _parsers(sub)
    return found


@pytest.mark.parametrize(
    "parser", [p for _, p in _parsers(build_parser())], ids=lambda p: p.prog
)
def test_every_help_shows_two_or_three_examples(
    parser: argparse.ArgumentParser,
) -> None:
    help_text = parser.format_help()
    assert "examples:\n" in help_text
    block = help_text.split("examples:\n")[1].split("\n\n")[0]
    examples = [line for line in block.splitlines() if line.startswith("  cpknight")]
    assert 2 <= len(examples) <= 3, block


def test_cpknight_alone_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert (code, err) == (0, "")
    assert out.startswith("usage: cpknight")
    assert "examples:" in out


# --------------------------------------------------------------- --method


def test_one_engine_commands_refuse_a_list(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["tour", "5x6", "--method", "cpsat,prune"],
        ["sweep", "3x4", "--method", "all"],
    ):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert "runs one engine" in err


def test_old_spellings_warn_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "compare", "5x5", "--open", "--methods", "prune", "--json"
    )
    assert code == 0
    assert [row["method"] for row in json.loads(out)["rows"]] == ["prune"]
    assert err == "cpknight: warning: --methods is deprecated; use --method\n"


def test_study_engines_warns_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    suite = tmp_path / "suite.txt"
    suite.write_text("3x4 --open\n")
    code, out, err = run(capsys, "study", str(suite), "--engines", "prune", "--json")
    assert code == 0
    assert json.loads(out)["engines"] == ["prune"]
    assert err == "cpknight: warning: --engines is deprecated; use --method\n"


def test_closed_and_open_are_one_pair(capsys: pytest.CaptureFixture[str]) -> None:
    # --closed may be said where it is the default; with --open it is refused.
    code, out, err = run(capsys, "sweep", "3x4", "--closed", "--method", "prune")
    assert (code, err) == (0, "")
    assert out.startswith("closed tours of 3x4")
    with pytest.raises(SystemExit) as refused:
        main(["sweep", "3x4", "--closed", "--open"])
    assert refused.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    # longest: a path unless --closed; --open says the default
    code, out, _ = run(capsys, "longest", "3x3", "--uncrossed", "--open", "--json")
    assert code == 0
    assert json.loads(out)["closed"] is False


def test_time_limit_none_and_bad(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "compare", "5x6", "--method", "prune", "--time-limit", "none"
    )
    assert code == 0
    assert ", no limit" in out.splitlines()[0]
    for bad in ("0", "-1"):
        code, _, err = run(capsys, "tour", "5x6", "--time-limit", bad)
        assert code == 2
        assert err.count("\n") == 1
    with pytest.raises(SystemExit) as info:
        main(["tour", "5x6", "--time-limit", "soon"])
    assert info.value.code == 2
    assert "expected seconds or 'none'" in capsys.readouterr().err


# --------------------------------------------------------------------- '-'


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    class Stdin(io.StringIO):
        buffer = io.BytesIO(text.encode())

    monkeypatch.setattr(sys, "stdin", Stdin(text))


def test_board_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, ". . . .\n. . . .\n. . . .\n")
    code, out, _ = run(capsys, "tour", "-", "--open", "--method", "cpsat", "--json")
    assert code == 0
    assert len(json.loads(out)["cells"]) == 12


def test_given_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, " 1  .  .\n .  .  .\n .  .  .\n .  .  .\n")
    code, out, _ = run(
        capsys, "tour", "4x3", "--open", "--given", "-", "--method", "cpsat"
    )
    assert code == 0
    assert "via a4@1" in out


def test_standard_input_is_read_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, ". . .\n. . .\n. . .\n. . .\n")
    code, _, err = run(capsys, "check", "-", "-")
    assert code == 2
    assert err == (
        "cpknight: error: BOARD and FILE both read standard input ('-'); give one "
        "of them a file\n"
    )


def test_pictures_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tour", "5x6", "--svg", "-")
    assert code == 0
    assert out.startswith("<svg") or out.startswith("<?xml")
    assert "closed tour of 5x6" in err  # the report moves to stderr
    code, _, err = run(capsys, "map", "5x5", "a1", "--svg", "-", "--json")
    assert code == 2
    assert "both print to standard output" in err


def test_export_to_standard_output_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "formulation", "tour", "3x4", "--export", "-")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert "the file's suffix chooses the format" in err


def test_boards_draws_a_board_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, ". # .\n. . .\n")
    code, out, _ = run(capsys, "boards", "-", "--json")
    assert code == 0
    assert json.loads(out)["boards"][0]["open"] == 5


def test_check_is_closed_unless_open(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tour = tmp_path / "tour.txt"
    tour.write_text("a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3".replace(" ", "\n"))
    assert run(capsys, "check", "3x4", str(tour))[0] == 1
    assert run(capsys, "check", "3x4", str(tour), "--open")[0] == 0
    code, out, err = run(capsys, "check", "3x4", str(tour), "--closed")
    assert (code, err) == (1, "")
    assert out.startswith("not a closed tour: the tour is not closed: d3 -> a1")
