"""benchmarks/guy_swap.py: Guy's ordered knight swap on 3 x n, searched by ranks.

The 32 moves for n = 4 and "none" for n = 3 are Guy's (R. K. Guy, "Swapping
knights", seqfan and math-fun lists, 15-17 October 2010). Every other expected
number is computed here by :func:`set_levels`, a plain breadth-first search
over Python sets of placements that shares no code with the script (only
cpknight's drawing of the puzzle, the definition being tested against).
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

from cpknight.swaps.drawings import named_puzzle
from tests.conftest import load_script

Placement = tuple[tuple[int, ...], ...]


guy_swap = load_script("guy_swap")


def start_and_goal(n: int) -> tuple[Placement, Placement]:
    """The start and goal as (rank, file) per knight, in cpknight's letter order."""
    _, start, goal, _ = named_puzzle(f"guy3x{n}")
    where = dict(goal)
    return (
        tuple(cell for _, (cell,) in start),
        tuple(where[letter][0] for letter, _ in start),
    )


def set_levels(n: int, root: Placement, depth: int | None = None) -> list[int]:
    """Placements at each distance from ``root`` (to ``depth``, or all of them)."""
    jumps = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]
    seen = {root}
    frontier = [root]
    counts = [1]
    while frontier and (depth is None or len(counts) <= depth):
        following = []
        for placed in frontier:
            taken = set(placed)
            for k, (r, c) in enumerate(placed):
                for dr, dc in jumps:
                    cell = (r + dr, c + dc)
                    if 0 <= cell[0] < 3 and 0 <= cell[1] < n and cell not in taken:
                        after = (*placed[:k], cell, *placed[k + 1 :])
                        if after not in seen:
                            seen.add(after)
                            following.append(after)
        frontier = following
        counts.append(len(frontier))
    return counts


def solve(n: int, directory: Path, mirror: bool = True) -> Any:
    return guy_swap.Search(n, directory, mirror=mirror).run()


def test_rank_and_unrank_are_inverse() -> None:
    guy = guy_swap.Guy(5)
    rng = random.Random(2010)
    for _ in range(2000):
        placed = rng.sample(range(15), 10)
        r = guy.rank(placed)
        assert 0 <= r < guy.states == 10_897_286_400  # 15! / 5!
        assert guy.unrank(r).tolist() == placed
    for r in [0, guy.states - 1, *(rng.randrange(guy.states) for _ in range(2000))]:
        assert guy.rank(guy.unrank(r)) == r


@pytest.mark.parametrize("n", [2, 3])
def test_rank_is_a_bijection_on_small_boards(n: int) -> None:
    guy = guy_swap.Guy(n)
    ranks = sorted(guy.rank(p) for p in itertools.permutations(range(3 * n), 2 * n))
    assert ranks == list(range(guy.states))


@pytest.mark.parametrize("mirror", [True, False])
def test_four_files_take_32_moves(tmp_path: Path, mirror: bool) -> None:
    outcome = solve(4, tmp_path, mirror)
    assert outcome.distance == 32  # Guy 2010
    assert len(outcome.moves) == 32
    assert guy_swap.replay(4, outcome.moves) is None
    start, goal = start_and_goal(4)
    # Both sides' finished levels are a plain BFS's (to depth 12 to stay quick).
    for name, root in (("start", start), ("goal", goal)):
        counts = outcome.levels.get(name, outcome.levels["start"])
        assert counts[:13] == set_levels(4, root, 12)


def test_three_files_have_no_solution(tmp_path: Path) -> None:
    outcome = solve(3, tmp_path)
    assert outcome.distance is None  # Guy 2010
    assert outcome.moves == []
    start, _ = start_and_goal(3)
    everything = set_levels(3, start)
    assert outcome.levels["start"] == everything
    assert outcome.component == sum(everything)


def test_replay_rejects_bad_moves(tmp_path: Path) -> None:
    moves = solve(4, tmp_path).moves
    assert guy_swap.replay(4, moves[:-1]) == "the moves do not end on the goal"
    assert "not a knight's move" in guy_swap.replay(4, ["a1-a2", *moves])
    assert "taken" in guy_swap.replay(4, ["a1-b3", *moves])


SearchBase: Any = guy_swap.Search


class Interrupted(SearchBase):  # type: ignore[misc]
    """A search stopped at its ``after``-th check, snapshotting early and often."""

    after = 0

    def check(self) -> None:
        self.after -= 1
        if self.after == 0:
            raise guy_swap.Stop("test stop", 130)
        super().check()

    def side_bytes(self) -> int:
        return 8 * 5000  # a snapshot once 5,000 ranks are on file since the last


@pytest.mark.parametrize(
    ("after", "kept"),
    # Stopped in level 1; in level 7 (level files kept); in level 15 (snapshots).
    [(7, ".ranks.part"), (2000, ".ranks"), (4400, ".codes")],
)
def test_a_stopped_search_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, after: int, kept: str
) -> None:
    monkeypatch.setattr(guy_swap, "WORDS_PER_CALL", 1 << 12)  # stops mid-level
    search = Interrupted(4, tmp_path, mirror=False)
    search.after = after
    with pytest.raises(guy_swap.Stop):
        search.run()
    left = sorted(p.name for p in tmp_path.iterdir())
    assert "meta.json" in left
    assert any(name.endswith(".part") for name in left)  # stopped mid-level
    assert any(name.endswith(kept) for name in left)
    outcome = solve(4, tmp_path, mirror=False)
    assert outcome.distance == 32  # Guy 2010
    assert guy_swap.replay(4, outcome.moves) is None
    start, goal = start_and_goal(4)
    assert outcome.levels["start"][:13] == set_levels(4, start, 12)
    assert outcome.levels["goal"][:13] == set_levels(4, goal, 12)
