"""Bad input that used to escape: each answered with one line on stderr and exit 2."""

from __future__ import annotations

import pytest

from cpknight.cli import main
from cpknight.errors import InvalidInputError
from cpknight.solving import MAX_SEED, MAX_WORKERS, SolveOptions


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line(err: str, *words: str) -> None:
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    assert err == err.lower() or "error" in err
    for word in words:
        assert word in err, (word, err)


# ------------------------------------------------------------ solve options


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"seed": 2**31}, id="seed-2^31"),
        pytest.param({"seed": 2**40}, id="seed-2^40"),
        pytest.param({"seed": -1}, id="seed-negative"),
        pytest.param({"workers": MAX_WORKERS + 1}, id="workers-too-many"),
        pytest.param({"workers": 100_000}, id="workers-100000"),
        pytest.param({"workers": -1}, id="workers-negative"),
    ],
)
def test_solve_options_reject_out_of_range(kwargs: dict[str, int]) -> None:
    with pytest.raises(InvalidInputError, match=str(next(iter(kwargs.values())))):
        SolveOptions(**kwargs)  # type: ignore[arg-type]


def test_solve_options_accept_the_ends_of_the_ranges() -> None:
    assert SolveOptions(seed=MAX_SEED, workers=MAX_WORKERS).seed == MAX_SEED
    assert SolveOptions(seed=0, workers=0).workers == 0


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["tour", "6x6", "--method", "cpsat", "--seed", "2147483648"]),
        pytest.param(["count", "3x4", "--open", "--seed", "2147483648"]),
        pytest.param(["tour", "6x6", "--method", "cpsat", "--workers", "10001"]),
        pytest.param(
            ["distance", "8x8", "a1", "b2", "--method", "ip", "--workers", "100000"]
        ),
        pytest.param(["collect", "6x6", "a1", "f6", "--seed", "-3"]),
    ],
    ids=[
        "tour-seed",
        "count-seed",
        "tour-workers",
        "distance-ip-workers",
        "collect-seed",
    ],
)
def test_cli_option_ranges_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert_one_line(err, argv[-1])
