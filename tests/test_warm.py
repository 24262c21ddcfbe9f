"""Compiling ahead (``cpknight warm``) and ``auto`` while a kernel is not built.

The check that a kernel is built reads numba's own cache files without
importing numba: it is held here to what numba writes (a tiny module compiled
in a subprocess into an empty ``NUMBA_CACHE_DIR``), and to the real kernels
once :func:`~cpknight.api.warm.warm_kernels` compiled them (slow). ``auto``'s
pick is tested with the check faked, and the answer does not depend on it:
the plain and compiled kernels count the cited numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cpknight.cli.common as cli_common
from cpknight.api.counting import count_kernel_note, count_tours
from cpknight.counting import kernels
from cpknight.counting.kernels import (
    DENSE,
    MEET,
    NUMPY,
    choose_count_kernel,
    compile_seconds,
    kernel_note,
)
from cpknight.frontier.plan import plan_frontier
from cpknight.longest import frontier_kernels
from cpknight.longest.frontier_kernels import (
    COLD_WIDTH,
    DICT,
    NUMBA,
    choose_longest_kernel,
)
from cpknight.pieces import move_graph
from cpknight.runtime import compiled
from cpknight.runtime.compiled import CompiledLoops

ROOT = Path(__file__).resolve().parent.parent

TINY = """\
from numba import njit


@njit(cache=True)
def add(x):
    return x + one(x)


@njit(cache=True, inline="always")
def one(x):
    return 1


def twice(x):
    return 2 * x


TWICE = njit(cache=True)(twice)
"""
"""A module of numba loops: one decorated, one inlined (never cached on its
own), one handed to ``njit`` (cached under its own name)."""


def _env(cache: Path, *paths: Path) -> dict[str, str]:
    path = os.pathsep.join([*map(str, paths), str(ROOT)])
    return {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": path}


# ---------------------------------------------------------------- the check


def test_the_check_reads_what_numba_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("numba")
    source = tmp_path / "src" / "tiny_loops.py"
    source.parent.mkdir()
    source.write_text(TINY, encoding="utf-8")
    cache = tmp_path / "cache"
    monkeypatch.syspath_prepend(str(source.parent))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    loops = CompiledLoops("tiny_loops", 2.0)
    assert [f.name for f in loops.functions()] == ["add", "twice"]
    assert (loops.built(), loops.missing(), loops.waiting()) == (
        False,
        ("add", "twice"),
        2.0,
    )
    run = "import tiny_loops as t; print(t.add(1), t.TWICE(2))"
    env = _env(cache, source.parent)
    done = subprocess.run(
        [sys.executable, "-c", run], env=env, capture_output=True, text=True
    )
    assert done.stdout.split() == ["2", "4"], done.stderr
    assert compiled.cache_dir(source).parent == cache
    assert (loops.built(), loops.missing(), loops.waiting()) == (True, (), 0.0)
    # An edit of the source makes numba's cache stale: the check says so.
    source.write_text(TINY + "\n# edited\n", encoding="utf-8")
    assert loops.missing() == ("add", "twice")
    # Another numba (its index names its version): not numba's cache either.
    source.write_text(TINY, encoding="utf-8")
    assert loops.built()
    monkeypatch.setattr(compiled, "numba_version", lambda: "0.0.1")
    assert not loops.built()


def test_the_check_does_not_import_numba(tmp_path: Path) -> None:
    code = (
        "import sys; from cpknight.counting.kernels import compile_seconds; "
        "from cpknight.longest.frontier_kernels import compile_seconds as c; "
        "compile_seconds('meet'); c('numba'); print('numba' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "False"


def test_the_kernels_name_their_compiled_loops() -> None:
    from cpknight.counting.frontier import MEET_SHARE

    assert MEET.share == MEET_SHARE
    every: list[kernels.CountKernel | frontier_kernels.LongestKernel] = [
        *kernels.KERNELS.values(),
        *frontier_kernels.KERNELS.values(),
    ]
    for kernel in every:
        assert bool(kernel.loops) == kernel.numba, kernel.name
        for loops in kernel.loops:
            assert loops.functions(), loops.module  # numba loops, cached


# ------------------------------------------------------------- auto's pick


def _fake(
    monkeypatch: pytest.MonkeyPatch, *, built: bool, module: object = kernels
) -> None:
    """numba installed, and the compiled kernels built or not (40 s to go)."""
    monkeypatch.setattr(module, "installed", lambda name: True)
    registry = kernels.KERNELS if module is kernels else frontier_kernels.KERNELS
    seconds = 0.0 if built else 40.0

    def waiting(name: str) -> float:
        return seconds if registry[name].loops else 0.0

    monkeypatch.setattr(module, "compile_seconds", waiting)


@pytest.mark.parametrize("built", [True, False], ids=["built", "not-built"])
def test_auto_counts_a_small_count_plain_while_not_built(
    monkeypatch: pytest.MonkeyPatch, built: bool
) -> None:
    _fake(monkeypatch, built=built)
    plan = plan_frontier(move_graph("6x6"), closed=False)  # the count
    chosen = choose_count_kernel(plan, prefixes=False)
    note = kernel_note(plan, prefixes=False)
    if built:
        assert (chosen, note) == (MEET.name, None)
    else:
        assert chosen == NUMPY.name
        assert note is not None
        assert "not built yet" in note
        assert "cpknight warm" in note


def test_auto_compiles_for_a_count_the_plain_kernel_takes_long_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _fake(monkeypatch, built=False)
    plan = plan_frontier(move_graph("7x7"), closed=False)  # numpy: hours
    assert choose_count_kernel(plan, prefixes=False) == MEET.name
    note = kernel_note(plan, prefixes=False)
    assert note is not None
    assert note.startswith("compiling the meet kernel first")


def test_auto_compiles_when_the_plain_kernel_would_not_fit_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _fake(monkeypatch, built=False)
    monkeypatch.setattr(kernels, "budget_mb", lambda: 500.0)
    plan = plan_frontier(move_graph("6x6"), closed=False)  # numpy: 1.4 GB
    assert choose_count_kernel(plan, prefixes=False) == MEET.name


@pytest.mark.parametrize("built", [True, False], ids=["built", "not-built"])
def test_an_explicit_kernel_stays_and_says_it_compiles(
    monkeypatch: pytest.MonkeyPatch, built: bool
) -> None:
    _fake(monkeypatch, built=built)
    plan = plan_frontier(move_graph("6x6"), closed=False)
    assert choose_count_kernel(plan, DENSE.name, prefixes=False) == DENSE.name
    assert choose_count_kernel(plan, prefixes=False, spill=True) == MEET.name
    note = kernel_note(plan, DENSE.name, prefixes=False)
    assert (note is None) == built
    if note is not None:
        assert note.startswith("compiling the dense kernel first (once per install")


def test_the_count_door_says_it_before_the_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _fake(monkeypatch, built=False)
    note = count_kernel_note("6x6", closed=False)
    assert note is not None
    assert "counting with the numpy kernel" in note
    assert count_kernel_note("6x6", closed=False, method="cpsat") is None
    assert count_kernel_note("3x4", closed=False) is None  # the dict kernel
    assert count_kernel_note("6x6", closed=False, kernel="gpu") is None  # refused
    _fake(monkeypatch, built=True)
    assert count_kernel_note("6x6", closed=False) is None


@pytest.mark.parametrize("built", [True, False], ids=["built", "not-built"])
def test_the_longest_path_program_waits_for_no_compiler_on_small_boards(
    monkeypatch: pytest.MonkeyPatch, built: bool
) -> None:
    _fake(monkeypatch, built=built, module=frontier_kernels)
    small = choose_longest_kernel("auto", COLD_WIDTH)
    assert small == (NUMBA.name if built else DICT.name)
    assert choose_longest_kernel("auto", COLD_WIDTH + 2) == NUMBA.name
    assert choose_longest_kernel(NUMBA.name, 8) == NUMBA.name
    note = frontier_kernels.kernel_note("auto", COLD_WIDTH)
    assert (note is None) == built
    wide = frontier_kernels.kernel_note("auto", COLD_WIDTH + 2)
    assert (wide is None) == built
    if wide is not None:
        assert wide.startswith("compiling the numba kernel first")


def test_the_compiling_left_is_the_missing_loops_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A count in memory leaves the loops for disk: a few seconds, not a note."""
    monkeypatch.setattr(kernels, "installed", lambda name: True)
    names = [f.name for f in kernels.DENSE_LOOPS.functions()]
    small = ("buckets_of", "finish")  # what a count met in memory leaves
    assert set(small) <= set(names)
    monkeypatch.setattr(CompiledLoops, "missing", lambda self: small)
    assert 0 < kernels.DENSE_LOOPS.waiting() < compiled.COMPILE_FLOOR
    assert compile_seconds(DENSE.name) == 0.0
    monkeypatch.setattr(CompiledLoops, "missing", lambda self: tuple(names))
    assert compile_seconds(DENSE.name) == kernels.DENSE_LOOPS.seconds


@pytest.mark.parametrize(
    ("board", "closed", "undirected"),
    [
        pytest.param("6x6", True, 9862, id="A001230-6x6-closed"),
        pytest.param("5x5", False, 864, id="A165134-5x5-open-1728-directed"),
    ],
)
def test_the_answer_does_not_depend_on_the_pick(
    monkeypatch: pytest.MonkeyPatch, board: str, closed: bool, undirected: int
) -> None:
    pytest.importorskip("numba")
    # auto gives these boards the compiled kernel when built (its thresholds
    # lowered), the numpy kernel while not
    monkeypatch.setattr(kernels, "DENSE_FROM", 0)
    monkeypatch.setattr(kernels, "DENSE_WORK", 0.0)
    monkeypatch.setattr(kernels, "DICT_WIDTH", 0)
    ran = {}
    for built in (False, True):
        _fake(monkeypatch, built=built)
        count = count_tours(board, closed=closed, method="frontier")
        assert count.frontier is not None
        ran[built] = count.frontier.kernel
        assert count.undirected == undirected
    assert ran[False] == NUMPY.name
    assert ran[True] in (DENSE.name, MEET.name)


# -------------------------------------------------------------- the command


def _warm_args(monkeypatch: pytest.MonkeyPatch, *words: str) -> argparse.Namespace:
    """``cpknight warm`` parsed, whether or not the command table has it yet."""
    from cpknight.cli.parser import Parser
    from cpknight.cli.warm import add_warm

    monkeypatch.setattr(cli_common, "command_help", lambda name: "compile ahead")
    parser = Parser(prog="cpknight")
    add_warm(parser.add_subparsers())
    return parser.parse_args(["warm", *words])


def test_warm_without_numba_says_so_and_succeeds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import cpknight.api.warm as warm

    monkeypatch.setattr(warm, "numba_version", lambda: None)
    args = _warm_args(monkeypatch)
    assert args.handler(args) == 0
    out, err = capsys.readouterr()
    assert out.strip().startswith("numba is not installed: nothing to compile")
    assert len(out.strip().splitlines()) == 1
    assert err == ""
    args = _warm_args(monkeypatch, "--json")
    assert args.handler(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["numba"], data["kernels"]) == (None, [])


def test_warm_passes_over_what_is_cached(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("numba")
    monkeypatch.setattr(CompiledLoops, "missing", lambda self: ())
    args = _warm_args(monkeypatch, "--json")
    began = time.perf_counter()
    assert args.handler(args) == 0
    assert time.perf_counter() - began < 5  # nothing compiled, numba not run
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert err == ""
    assert {(k["kernel"], k["cached"]) for k in data["kernels"]} == {
        (DENSE.name, True),
        (MEET.name, True),
        (NUMBA.name, True),
        ("orbit", True),
        ("subsets", True),
        ("snakes", True),
    }
    args = _warm_args(monkeypatch)
    assert args.handler(args) == 0
    assert capsys.readouterr().out.startswith("every compiled kernel is built")


WARM_SCHEMA: dict[str, object] = {
    "description": "warm: the compiled kernels, compiled now or cached before "
    "(numba null: not installed, nothing compiled).",
    "type": "object",
    "required": ["numba", "caches", "seconds", "kernels"],
    "properties": {
        "numba": {"type": ["string", "null"]},
        "caches": {"type": "array", "items": {"type": "string"}},
        "seconds": {"type": "number"},
        "kernels": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["question", "kernel", "modules", "cached", "seconds"],
                "properties": {
                    "question": {"enum": ["count", "longest", "classes"]},
                    "kernel": {"type": "string"},
                    "modules": {"type": "array", "items": {"type": "string"}},
                    "cached": {"type": "boolean"},
                    "seconds": {"type": "number"},
                },
            },
        },
    },
}
"""The ``warm`` document: ``$defs/warm`` of ``cli/output.schema.json`` once
added there (with a ``{"$ref": "#/$defs/warm"}`` in its ``anyOf``)."""


def test_warm_json_fits_its_schema(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    import cpknight.api.warm as warm

    documents = []
    for version in (None, "0.68.1"):
        monkeypatch.setattr(warm, "numba_version", lambda v=version: v)
        monkeypatch.setattr(CompiledLoops, "missing", lambda self: ())
        args = _warm_args(monkeypatch, "--json")
        assert args.handler(args) == 0
        documents.append(json.loads(capsys.readouterr().out))
    schema = json.loads(
        (ROOT / "cpknight" / "cli" / "output.schema.json").read_text(encoding="utf-8")
    )
    for document in documents:
        assert document["schema"] == 1
        jsonschema.validate(document, WARM_SCHEMA)
        if "warm" in schema["$defs"]:
            jsonschema.validate(document, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"numba": None, "kernels": []}, WARM_SCHEMA)


def test_warm_ctrl_c_is_one_line_and_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import cpknight.api.warm as warm

    def interrupted(**kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(warm, "warm_kernels", interrupted)
    args = _warm_args(monkeypatch)
    assert args.handler(args) == 130
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("cpknight: interrupted (Ctrl-C)")


RUN_WARM = """\
import sys
import cpknight.cli.common as common
from cpknight.cli.parser import Parser
from cpknight.cli.warm import add_warm

common.command_help = lambda name: "compile ahead"
parser = Parser(prog="cpknight")
add_warm(parser.add_subparsers())
args = parser.parse_args(["warm", *sys.argv[1:]])
sys.exit(args.handler(args))
"""
"""``cpknight warm`` in a process of its own, registered or not."""


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # not ignored, as under '&'


@pytest.mark.slow
def test_warm_stops_on_ctrl_c_while_compiling(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    process = subprocess.Popen(
        [sys.executable, "-c", RUN_WARM],
        env=_env(tmp_path / "cache"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,
    )
    try:
        assert process.stderr is not None
        first = process.stderr.readline()  # the first kernel's line: compiling
        assert first.startswith("cpknight: compiling the dense counting kernel")
        time.sleep(2)
        process.send_signal(signal.SIGINT)
        began = time.perf_counter()
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert out == ""
    assert err.strip().splitlines() == [
        "cpknight: interrupted (Ctrl-C): the kernels compiled before it stay "
        "cached; 'cpknight warm' compiles the rest"
    ]
    assert time.perf_counter() - began < 60  # at the next step of the compiler


@pytest.mark.slow
def test_warm_compiles_every_kernel_into_an_empty_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cold install: nothing built; warm builds all; a count compiles nothing."""
    pytest.importorskip("numba")
    cache = tmp_path / "cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    every: list[kernels.CountKernel | frontier_kernels.LongestKernel] = [
        *kernels.compiled_kernels(),
        *frontier_kernels.compiled_kernels(),
    ]
    modules = {loops.module: loops for k in every for loops in k.loops}
    assert not any(loops.built() for loops in modules.values())
    assert compile_seconds(MEET.name) > 0
    done = subprocess.run(
        [sys.executable, "-c", RUN_WARM, "--json"],
        env=_env(cache),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [k["cached"] for k in data["kernels"]] == [False] * len(every)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == len(every)
    assert all("(once per install, about" in line for line in lines)
    assert all(loops.built() for loops in modules.values())
    assert compile_seconds(MEET.name) == 0.0
    files = sorted(p.name for p in cache.rglob("*"))
    # The count after warm: the compiled kernel, cached, no note,
    # nothing more compiled; and the count is OEIS A165134's.
    count = (
        "from cpknight.api.counting import count_tours; "
        "c = count_tours('6x6', closed=False); "
        "print(c.directed, c.frontier.kernel)"
    )
    done = subprocess.run(
        [sys.executable, "-c", count], env=_env(cache), capture_output=True, text=True
    )
    assert done.stdout.split() == ["6637920", MEET.name], done.stderr
    assert sorted(p.name for p in cache.rglob("*")) == files
    again = subprocess.run(
        [sys.executable, "-c", RUN_WARM, "--json"],
        env=_env(cache),
        capture_output=True,
        text=True,
    )
    assert all(k["cached"] for k in json.loads(again.stdout)["kernels"])
    assert again.stderr == ""
