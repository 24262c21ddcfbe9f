"""``cpknight completion SHELL``: commands, options, and the values of known sets.

The value lists are taken here from the package's own tables, as the scripts
take them; where the shell is installed, the script is parsed by it, and bash
and fish are asked what they complete.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cpknight import distances, tours
from cpknight.cli import build_parser, main
from cpknight.cli.completion import SHELLS, completion_script, values_of
from cpknight.constraints import SYMMETRIES
from cpknight.draw.palette import THEMES
from cpknight.named_boards import NAMED_BOARDS
from cpknight.pieces import NAMED_PIECES


def commands(parser: argparse.ArgumentParser, path: str = "") -> list[str]:
    """Every (sub)command's words: ``tour``, ``formulation tour`` ..."""
    found = [path] if path else []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += commands(sub, f"{path} {name}".strip())
    return found


def arguments(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.Action]]:
    """Every argument of every command, with its command's words."""
    found = []
    for command in ["", *commands(parser)]:
        sub = parser
        for word in command.split():
            sub = next(
                a for a in sub._actions if isinstance(a, argparse._SubParsersAction)
            ).choices[word]
        found += [(command, action) for action in sub._actions]
    return found


@pytest.fixture(scope="module")
def scripts() -> dict[str, str]:
    return {shell: completion_script(build_parser(), shell) for shell in SHELLS}


@pytest.mark.parametrize("shell", SHELLS)
def test_completion_scripts(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["completion", shell])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert "cpknight" in out
    # tcsh lists the long options after a '--' of their own
    assert ("time-limit" if shell == "tcsh" else "--time-limit") in out
    assert "formulation" in out


@pytest.mark.parametrize("shell", SHELLS)
def test_every_command_and_every_known_set_is_in_the_script(
    shell: str, scripts: dict[str, str]
) -> None:
    script = scripts[shell]
    for command in commands(build_parser()):
        assert re.search(rf"\b{command.split()[-1]}\b", script), command
    # each set as one list of words, as the script offers it (help texts name
    # some of these words, never the whole list in this order)
    for table in (NAMED_BOARDS, tours.ENGINES, NAMED_PIECES, SYMMETRIES, THEMES):
        words = " ".join(table)
        assert words in script, (shell, words)


def test_each_command_offers_its_own_methods() -> None:
    parser = build_parser()
    methods = {
        command: values_of(command, action)
        for command, action in arguments(parser)
        if action.dest == "method" and action.help != argparse.SUPPRESS
    }
    assert methods, "no --method found"
    missing = [command for command, values in methods.items() if values is None]
    assert not missing, f"--method without its engines: {missing}"
    offered = {c: set(v.words) for c, v in methods.items() if v is not None}
    assert offered["tour"] == {*tours.ENGINES, "auto"}  # one engine: no 'all'
    assert offered["compare"] >= {*tours.ENGINES, "all"}
    assert offered["distance"] == {*distances.ENGINES, "auto", "all"}
    # formulation distance models two of the distance methods only
    assert offered["formulation distance"] < set(distances.ENGINES)


REQUIRED = {
    "tour": ["tour", "8x8"],
    "compare": ["compare", "8x8"],
    "sweep": ["sweep", "8x8"],
    "study": ["study"],
    "count": ["count", "8x8"],
    "distance": ["distance", "8x8", "a1", "h8"],
    "formulation distance": ["formulation", "distance", "8x8", "a1", "h8"],
    "collect": ["collect", "8x8", "a1", "h8"],
    "longest": ["longest", "8x8", "--uncrossed"],
    "swap": ["swap", "guarini"],
    "dominate": ["dominate", "8x8"],
    "independent": ["independent", "8x8"],
}
"""The words each command with a ``--method`` needs before it."""


def test_every_method_offered_is_one_the_command_line_reads() -> None:
    parser = build_parser()
    for command, action in arguments(parser):
        if action.dest != "method" or action.help == argparse.SUPPRESS:
            continue
        values = values_of(command, action)
        assert values is not None
        for name in values.words:
            args = parser.parse_args([*REQUIRED[command], "--method", name])
            assert args.method == name


def test_the_values_need_no_quoting_in_any_shell() -> None:
    for command, action in arguments(build_parser()):
        values = values_of(command, action)
        for word in values.words if values else ():
            assert re.fullmatch(r"[\w.+-]+", word), (command, action.dest, word)


def test_file_arguments_complete_files() -> None:
    found = {
        (command, action.dest): values_of(command, action)
        for command, action in arguments(build_parser())
    }
    for key in [("tour", "out"), ("tour", "svg"), ("check", "file"), ("tour", "board")]:
        values = found[key]
        assert values is not None, key
        assert values.files, key
    assert found[("distance", "source")] is None  # a cell: free text


# ------------------------------------------------------------------ shells


@pytest.mark.parametrize(
    ("shell", "check"),
    [
        ("bash", ["bash", "-n"]),
        ("zsh", ["zsh", "-n"]),
        ("tcsh", ["tcsh", "-n"]),
        ("fish", ["fish", "--no-execute"]),
    ],
)
def test_the_shell_reads_its_script(
    shell: str, check: list[str], scripts: dict[str, str], tmp_path: Path
) -> None:
    if shutil.which(check[0]) is None:
        pytest.skip(f"{shell} is not installed")
    path = tmp_path / f"cpknight.{shell}"
    path.write_text(scripts[shell])
    done = subprocess.run([*check, str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def bash_completes(script: str, words: list[str], tmp_path: Path) -> list[str]:
    """What the bash script offers for the last of ``words`` (being typed)."""
    function = re.search(r"complete -o bashdefault -F (\w+) cpknight", script)
    assert function is not None
    path = tmp_path / "cpknight.bash"
    path.write_text(script)
    words_text = " ".join(f"'{word}'" for word in words)
    program = (
        f"source {path}\n"
        f"COMP_WORDS=({words_text}); COMP_CWORD={len(words) - 1}\n"
        f"{function.group(1)} 2>/dev/null\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=True,
    )
    return done.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_the_values(scripts: dict[str, str], tmp_path: Path) -> None:
    bash = scripts["bash"]
    tour = bash_completes(bash, ["cpknight", "tour", "--method", ""], tmp_path)
    assert set(tour) == {*tours.ENGINES, "auto"}
    assert "warnsdorff" in tour
    distance = bash_completes(bash, ["cpknight", "distance", "--method", ""], tmp_path)
    assert set(distance) == {*distances.ENGINES, "auto", "all"}
    formulation = bash_completes(
        bash,
        ["cpknight", "formulation", "distance", "8x8", "a1", "h8", "--method", ""],
        tmp_path,
    )
    assert set(formulation) < set(distances.ENGINES)
    boards = bash_completes(bash, ["cpknight", "tour", "h"], tmp_path)
    assert set(boards) == {name for name in NAMED_BOARDS if name.startswith("h")}
    pieces = bash_completes(bash, ["cpknight", "map", "--piece", "c"], tmp_path)
    assert set(pieces) == {name for name in NAMED_PIECES if name.startswith("c")}


def fish_completes(script: str, line: str, tmp_path: Path) -> dict[str, str]:
    """What the fish script offers at the end of ``line``, with descriptions."""
    path = tmp_path / "cpknight.fish"
    path.write_text(script)
    done = subprocess.run(
        ["fish", "--no-config", "-c", f"source {path}; complete -C '{line}'"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=True,
    )
    return dict([*row.split("\t"), ""][:2] for row in done.stdout.splitlines())


def test_the_fish_script(scripts: dict[str, str], tmp_path: Path) -> None:
    fish = scripts["fish"]
    lines = fish.splitlines()
    parser = build_parser()
    subcommands = [c for c in commands(parser) if " " not in c]
    for command in subcommands:
        assert any(f" -a {command} " in line for line in lines), command
    at_tour = "_shtab_cpknight_using tour'"
    tour_method = next(
        line for line in lines if at_tour in line and "-l method" in line
    )
    assert " ".join(tours.ENGINES) in tour_method
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed: the script's content only")
    assert set(fish_completes(fish, "cpknight ", tmp_path)) == set(subcommands)
    tour = fish_completes(fish, "cpknight tour 8x8 --method ", tmp_path)
    assert set(tour) == {*tours.ENGINES, "auto"}
    formulation = fish_completes(
        fish, "cpknight formulation distance 8x8 a1 h8 --method ", tmp_path
    )
    assert set(formulation) < set(distances.ENGINES)
    # the board's names at the board, after an option's value too; not at a cell
    boards = fish_completes(fish, "cpknight tour --piece camel h", tmp_path)
    assert set(boards) == {name for name in NAMED_BOARDS if name.startswith("h")}
    assert not fish_completes(fish, "cpknight distance 8x8 h", tmp_path)
    symmetries = fish_completes(fish, "cpknight tour 8x8 --symmetric ", tmp_path)
    assert set(symmetries) == set(SYMMETRIES)
    # help texts keep their quotes
    version = fish_completes(fish, "cpknight --vers", tmp_path)
    assert version == {"--version": "show program's version number and exit"}
