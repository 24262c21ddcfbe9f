"""Richard Guy's ordered knight swap on 3 x n: the fewest moves, by a record search.

The puzzle is cpknight's ``guy3xN`` (:func:`cpknight.swaps.drawings.named_puzzle`,
whose start and goal are used here unchanged): knights A, B, C, ... on the top
rank of a 3 x n board, a, b, c, ... below them on the first, the middle rank
empty; a move is one knight's jump onto an empty cell; each capital must
change places with its small letter. Guy found 32 moves for n = 4 and none
for n <= 3 (R. K. Guy, "Swapping knights", seqfan and math-fun lists, 15-17
October 2010); n = 5 has (3n)!/n! = 15!/5! = 10,897,286,400 placements.

The search is a bidirectional breadth-first search over a compact encoding:

- A placement (knight k on cell c_k, cells numbered rank * n + file) is ranked
  to an integer in [0, (3n)!/n!) as a partial permutation: knight k's digit is
  c_k's position among the cells not taken by knights 0..k-1, read in mixed
  radix 3n, 3n - 1, ..., n + 1 (knight 0 the most significant).
- Each side keeps one 2-bit code per placement in a numpy uint64 array (32
  codes a word; 2.7 GB for n = 5): 3 = not reached, else the depth mod 3. That
  is the visited set and the levels at once: the level to expand is the codes
  equal to depth mod 3, and the path is read back from the meeting state by
  stepping to any neighbour coded depth - 1 (mod 3), which has depth exactly
  depth - 1 since neighbours' depths differ by at most one.
- The side with the smaller frontier grows one level (numba, one thread);
  every new placement is looked up on the other side, and the first one found
  there ends the search. Proof that it is then the fewest: when side s grows
  to depth h + 1 with the other side at depth e, no placement was reached by
  both before; a new X whose other-side depth is f < e would have a parent Y
  (depth h on side s) of other-side depth <= f + 1 <= e, already reached by
  both: so f = e, every meeting of this level totals h + 1 + e, and a shorter
  path would have met at an earlier level.

Halving by symmetry (the default; ``--two-sided`` runs both sides): the flip
F(r, c) = (2 - r, c) of every knight, labels kept, maps knight moves to knight
moves and the start to the goal (the capitals' rank 3 goes to rank 1, where
the goal has them, and the small letters' rank 1 to rank 3). So dist(goal, X)
= dist(start, F X): the goal side's level d is F of the start side's, and one
array grown from the start is both sides; a new X meets when F X has been
reached. Parity: colour (r + c) mod 2; a move changes one knight's colour, so
P(X) = the knights' colours summed mod 2 is P(start) + dist(start, X) mod 2;
F keeps every colour, so dist(start, X) and dist(start, F X) have one parity:
every total is even (so is the answer), and at the first level h that meets
(other side's depth h - 1 or h by the argument above) it is 2h, whichever
meeting is found first. (The parity does not halve the arrays: ranks mix both
P, and a rank of one parity class would cost more than it saves.)

Checkpoints (``--dir``, resumable with the same command after Ctrl-C, a crash
or ``--time-limit``): ``meta.json`` names each side's finished levels, a
snapshot of its code array, and the levels since as files of ranks (uint64);
a level is finished when ``meta.json`` says so (written last, atomically).

Run::

    python benchmarks/guy_swap.py 5 --dir /work/runs/guy3x5     # resumable
    python benchmarks/guy_swap.py 4 --dir /tmp/guy3x4 --two-sided
    python benchmarks/guy_swap.py 3 --dir /tmp/guy3x3           # no solution

Progress goes to stderr, a line per level; stdout gets the summary and the
moves, one per line (``a3-b1``: from-cell, to-cell, as cpknight names them),
replayed by code of this script's own before they are printed. Exit codes: 0
found, 1 proved none, 3 time limit, 130 interrupted (resume with the same
command), 2 refused (memory, disk, or a checkpoint of another run).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import re
import resource
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from cpknight.board import Board
from cpknight.swaps.drawings import named_puzzle

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]

UNSEEN = 3
"""The 2-bit code of a placement not reached (the depths are coded mod 3)."""
_EVEN_BITS = np.uint64(0x5555555555555555)
_THREE = np.uint64(3)
_ONE = np.uint64(1)
# De Bruijn multiply: the index of a word's lowest set bit, without a loop.
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_LOW_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _LOW_BIT_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _i

WORDS_PER_CALL = 1 << 20
"""Words (32 placements each) a compiled call scans at most between checks of
Ctrl-C and the time limit (a few milliseconds when the level is sparse)."""
STATES_PER_CALL = 200_000
"""Placements a compiled call expands at most between checks (about 0.2 s)."""
BUFFER = 1 << 20
"""The new ranks a call collects before they are appended to the level file."""


# ----------------------------------------------------------------- compiled


@njit(cache=True)
def _unrank(r: int, weights: Ints, cells: int, popcount: Any, out: Ints) -> None:
    """The cells of the placement of rank ``r``, knight by knight, into ``out``."""
    free = (1 << cells) - 1
    for k in range(len(weights)):
        digit = r // weights[k]
        r -= digit * weights[k]
        m = free
        for _ in range(digit):
            m &= m - 1
        cell = popcount[(m & -m) - 1]  # the index of the lowest free cell left
        out[k] = cell
        free &= ~(1 << cell)


@njit(cache=True)
def _rank(placed: Ints, weights: Ints, popcount: Any) -> int:
    """The rank of the placement whose knight k stands on ``placed[k]``."""
    taken = 0
    r = 0
    for k in range(len(weights)):
        cell = placed[k]
        r += (cell - popcount[taken & ((1 << cell) - 1)]) * weights[k]
        taken |= 1 << cell
    return r


@njit(cache=True)
def _code(words: Words, r: int) -> Any:
    """The 2-bit code of rank ``r``."""
    return (words[r >> 5] >> np.uint64((r & 31) << 1)) & _THREE


@njit(cache=True)
def _neighbours(
    r: int,
    weights: Ints,
    adjacent: Ints,
    degree: Ints,
    cells: int,
    popcount: Any,
    placed: Ints,
    out: Ints,
    movers: Ints,
    targets: Ints,
) -> int:
    """The ranks of the placements one move from rank ``r``, into ``out``.

    ``placed`` gets r's cells; ``movers[i]`` and ``targets[i]`` the knight and
    the cell of move i. Moving knight k from x to y changes its own digit and,
    for every later knight j, its digit by [x < c_j] - [y < c_j] (one fewer
    taken cell below c_j if x was below it, one more if y is): no unranking.
    """
    knights = len(weights)
    _unrank(r, weights, cells, popcount, placed)
    occupied = 0
    for k in range(knights):
        occupied |= 1 << placed[k]
    count = 0
    before = 0  # the cells of knights 0..k-1
    for k in range(knights):
        x = placed[k]
        digit = x - popcount[before & ((1 << x) - 1)]
        for a in range(degree[x]):
            y = adjacent[x, a]
            if (occupied >> y) & 1:
                continue
            delta = (y - popcount[before & ((1 << y) - 1)] - digit) * weights[k]
            for j in range(k + 1, knights):
                c = placed[j]
                if x < c:
                    delta += weights[j]
                if y < c:
                    delta -= weights[j]
            out[count] = r + delta
            movers[count] = k
            targets[count] = y
            count += 1
        before |= 1 << x
    return count


@njit(cache=True)
def _expand(
    words: Words,
    other: Words,
    mirror: bool,
    low: int,
    high: int,
    current: int,
    following: int,
    record: bool,
    found: Ints,
    weights: Ints,
    adjacent: Ints,
    degree: Ints,
    flip: Ints,
    cells: int,
    popcount: Any,
    stats: Ints,
) -> None:
    """Grow the placements coded ``current`` in words [low, high) by one move.

    New placements get the code ``following``; with ``record`` their ranks go
    to ``found``. Each is looked up on the other side (``other``, or its flip in
    ``words`` itself when ``mirror``). Stops at a word's end once
    STATES_PER_CALL placements are expanded or ``found`` is nearly full, or at
    once on a meeting. ``stats``: [0] the next word, [1] expanded, [2] new,
    [3] the meeting's rank or -1, [4] its code on the other side.
    """
    knights = len(weights)
    pattern = np.uint64(0)
    for i in range(32):
        pattern |= np.uint64(current) << np.uint64(2 * i)
    set_bits = np.uint64(UNSEEN ^ following)
    placed = np.empty(knights, dtype=np.int64)
    mirrored = np.empty(knights, dtype=np.int64)
    ranks = np.empty(4 * knights, dtype=np.int64)
    movers = np.empty(4 * knights, dtype=np.int64)
    targets = np.empty(4 * knights, dtype=np.int64)
    expanded = 0
    new = 0
    stats[3] = -1
    limit = len(found) - 32 * 4 * knights
    i = low
    while i < high:
        x = words[i] ^ pattern
        m = ~(x | (x >> _ONE)) & _EVEN_BITS  # a bit at each slot coded `current`
        while m != 0:
            lowest = m & (~m + _ONE)
            m ^= lowest
            slot = _LOW_BIT_INDEX[(lowest * _DE_BRUIJN) >> np.uint64(58)] >> 1
            r = i * 32 + slot
            expanded += 1
            count = _neighbours(
                r,
                weights,
                adjacent,
                degree,
                cells,
                popcount,
                placed,
                ranks,
                movers,
                targets,
            )
            for a in range(count):
                s = ranks[a]
                if _code(words, s) != _THREE:
                    continue
                words[s >> 5] ^= set_bits << np.uint64((s & 31) << 1)
                if record:
                    found[new] = s
                new += 1
                if mirror:
                    for k in range(knights):
                        mirrored[k] = flip[placed[k]]
                    mirrored[movers[a]] = flip[targets[a]]
                    seen = _code(words, _rank(mirrored, weights, popcount))
                else:
                    seen = _code(other, s)
                if seen != _THREE:
                    stats[0] = i
                    stats[1] += expanded
                    stats[2] += new
                    stats[3] = s
                    stats[4] = np.int64(seen)
                    return
        i += 1
        if expanded >= STATES_PER_CALL or (record and stats[2] + new > limit):
            break
    stats[0] = i
    stats[1] += expanded
    stats[2] += new


@njit(cache=True)
def _mark(words: Words, ranks: Any, code: int) -> None:
    """Code the placements ``ranks`` (not reached yet) with ``code``."""
    set_bits = np.uint64(UNSEEN ^ code)
    for i in range(len(ranks)):
        s = np.int64(ranks[i])
        words[s >> 5] ^= set_bits << np.uint64((s & 31) << 1)


@njit(cache=True)
def _parent(
    words: Words,
    r: int,
    code: int,
    weights: Ints,
    adjacent: Ints,
    degree: Ints,
    cells: int,
    popcount: Any,
) -> int:
    """A neighbour of rank ``r`` coded ``code``, or -1."""
    knights = len(weights)
    placed = np.empty(knights, dtype=np.int64)
    ranks = np.empty(4 * knights, dtype=np.int64)
    movers = np.empty(4 * knights, dtype=np.int64)
    targets = np.empty(4 * knights, dtype=np.int64)
    count = _neighbours(
        r, weights, adjacent, degree, cells, popcount, placed, ranks, movers, targets
    )
    for a in range(count):
        if _code(words, ranks[a]) == np.uint64(code):
            return int(ranks[a])
    return -1


# ------------------------------------------------------------------ puzzle


@dataclass
class Guy:
    """Guy's 3 x n puzzle as cpknight lays it out, and its encoding's tables."""

    n: int
    board: Board = field(init=False)
    letters: list[str] = field(init=False)
    start: Ints = field(init=False)
    goal: Ints = field(init=False)
    weights: Ints = field(init=False)
    adjacent: Ints = field(init=False)
    degree: Ints = field(init=False)
    flip: Ints = field(init=False)
    popcount: npt.NDArray[np.uint8] = field(init=False)

    def __post_init__(self) -> None:
        n = self.n
        board, start, goal, _ = named_puzzle(f"guy3x{n}")
        self.board = board
        self.letters = [colour for colour, _ in start]  # A.., then a..: sorted
        where = dict(goal)
        self.start = np.array([r * n + c for _, ((r, c),) in start], dtype=np.int64)
        self.goal = np.array(
            [r * n + c for letter in self.letters for r, c in where[letter]],
            dtype=np.int64,
        )
        cells, knights = 3 * n, 2 * n
        self.weights = np.array(
            [math.prod(range(cells - knights + 1, cells - k)) for k in range(knights)],
            dtype=np.int64,
        )
        self.adjacent = np.full((cells, 4), -1, dtype=np.int64)
        self.degree = np.zeros(cells, dtype=np.int64)
        for cell in range(cells):
            r, c = divmod(cell, n)
            for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1)):
                for sign in (1, -1):
                    rr, cc = r + sign * dr, c + sign * dc
                    if 0 <= rr < 3 and 0 <= cc < n:
                        self.adjacent[cell, self.degree[cell]] = rr * n + cc
                        self.degree[cell] += 1
        self.flip = np.array(
            [(2 - cell // n) * n + cell % n for cell in range(cells)], dtype=np.int64
        )
        self.popcount = np.array(
            [bin(m).count("1") for m in range(1 << cells)], dtype=np.uint8
        )

    @property
    def states(self) -> int:
        """The placements: (3n)! / n!."""
        return math.factorial(3 * self.n) // math.factorial(self.n)

    @property
    def words(self) -> int:
        """The uint64 words of one side's codes (32 placements a word)."""
        return (self.states + 31) // 32

    def rank(self, placed: npt.ArrayLike) -> int:
        """The rank of a placement (knight k on cell ``placed[k]``)."""
        cells = np.asarray(placed, dtype=np.int64)
        return int(_rank(cells, self.weights, self.popcount))

    def unrank(self, r: int) -> Ints:
        """The cells of the placement of rank ``r``."""
        out = np.empty(2 * self.n, dtype=np.int64)
        _unrank(r, self.weights, 3 * self.n, self.popcount, out)
        return out

    def mirror(self, r: int) -> int:
        """The rank of the flipped placement F (every knight's rank r -> 2 - r)."""
        return self.rank(self.flip[self.unrank(r)])

    def parent(self, words: Words, r: int, code: int) -> int:
        """A neighbour of ``r`` coded ``code`` in ``words``, or -1."""
        return int(
            _parent(
                words,
                r,
                code,
                self.weights,
                self.adjacent,
                self.degree,
                3 * self.n,
                self.popcount,
            )
        )

    def name(self, cell: int) -> str:
        """A cell's algebraic name, as cpknight writes it (``a1`` bottom left)."""
        return self.board.cell_name(divmod(int(cell), self.n))

    def drawing(self, placed: Ints) -> str:
        """The placement as three lines of letters, the top rank first."""
        grid = [["."] * self.n for _ in range(3)]
        for letter, cell in zip(self.letters, placed.tolist(), strict=True):
            grid[2 - cell // self.n][cell % self.n] = letter
        return "\n".join(" ".join(row) for row in grid)


def fresh_codes(guy: Guy, root: int) -> Words:
    """A side's codes with only ``root`` reached (depth 0)."""
    words = np.full(guy.words, np.uint64(0xFFFFFFFFFFFFFFFF), dtype=np.uint64)
    _mark(words, np.array([root], dtype=np.int64), 0)
    return words


# ---------------------------------------------------------------- the search


class Stop(Exception):
    """Ctrl-C, SIGTERM or the time limit between two chunks of a level."""

    def __init__(self, why: str, code: int) -> None:
        super().__init__(why)
        self.code = code


@dataclass
class Side:
    """One side's finished levels and their files."""

    name: str
    counts: list[int]
    snapshot: dict[str, Any] | None = None
    deltas: list[dict[str, Any]] = field(default_factory=list)

    @property
    def depth(self) -> int:
        """The deepest finished level."""
        return len(self.counts) - 1


@dataclass
class Outcome:
    """What a search proved."""

    n: int
    distance: int | None
    moves: list[str]
    levels: dict[str, list[int]]
    meeting: str | None
    partial: dict[str, int]
    exhausted: str | None
    component: int | None
    seconds: float


def rss_mb() -> float:
    """This process's resident memory now, in MB."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return float("nan")


def peak_mb() -> float:
    """This process's peak resident memory (ru_maxrss), in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


def available_mb() -> float:
    """MemAvailable from /proc/meminfo, in MB (infinite if unknown)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 2**10
    except OSError:
        pass
    return math.inf


def disk_used(directory: Path) -> int:
    """Bytes of the files in ``directory``."""
    return sum(p.stat().st_size for p in directory.iterdir() if p.is_file())


def needs(n: int, sides: int) -> tuple[int, int]:
    """The bytes of memory and disk a search of 3 x n with ``sides`` arrays takes."""
    states = math.factorial(3 * n) // math.factorial(n)
    arrays = (states + 31) // 32 * 8 * sides
    memory = arrays + BUFFER * 8 + 300 * 2**20 + (1 << 3 * n)  # + popcount table
    # A side: a snapshot and the next one beside it while it is written, and
    # the level files since the snapshot (at most one array's worth).
    disk = 3 * arrays + 2**20
    return memory, disk


class Search:
    """A resumable bidirectional search of Guy's 3 x n in ``directory``."""

    def __init__(
        self,
        n: int,
        directory: Path,
        *,
        mirror: bool = True,
        time_limit: float | None = None,
        log: Any = None,
    ) -> None:
        self.guy = Guy(n)
        self.directory = directory
        self.new = 0
        self.expanded = 0
        self.mirror = mirror
        self.time_limit = time_limit
        self.log = log
        self.stop_reason: str | None = None
        self.started = time.monotonic()
        self.seconds_before = 0.0
        if mirror:
            root = self.guy.rank(self.guy.start)
            if self.guy.mirror(root) != self.guy.rank(self.guy.goal):
                raise ValueError("the goal is not the start flipped: use two sides")
        self.sides = [Side("start", [1])]
        if not mirror:
            self.sides.append(Side("goal", [1]))
        self.codes: list[Words] = []
        self.result: dict[str, Any] | None = None

    # -- bookkeeping

    def say(self, text: str) -> None:
        """A progress line to the log (stderr by default)."""
        if self.log is not None:
            print(text, file=self.log, flush=True)

    def side_bytes(self) -> int:
        """Bytes of one side's code array."""
        return self.guy.words * 8

    def estimates(self) -> tuple[int, int]:
        """The bytes of memory and disk the search may take at its peak."""
        return needs(self.guy.n, len(self.sides))

    def meta_path(self) -> Path:
        """The checkpoint's index."""
        return self.directory / "meta.json"

    def write_meta(self) -> None:
        """Write meta.json atomically: what it names is finished."""
        meta = {
            "format": 1,
            "n": self.guy.n,
            "mirror": self.mirror,
            "seconds": self.seconds_before + time.monotonic() - self.started,
            "sides": [
                {
                    "name": s.name,
                    "counts": s.counts,
                    "snapshot": s.snapshot,
                    "deltas": s.deltas,
                }
                for s in self.sides
            ],
            "result": self.result,
        }
        part = self.directory / "meta.json.part"
        with part.open("w") as f:
            json.dump(meta, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, self.meta_path())

    def load_meta(self) -> bool:
        """Read meta.json if there is one; False if this is a new run."""
        path = self.meta_path()
        if not path.exists():
            return False
        meta = json.loads(path.read_text())
        if meta["n"] != self.guy.n or meta["mirror"] != self.mirror:
            kind = "mirror" if meta["mirror"] else "two-sided"
            raise Stop(
                f"{self.directory} holds a {kind} run of n = {meta['n']}: use "
                "another --dir (or the same options)",
                2,
            )
        self.seconds_before = float(meta["seconds"])
        self.sides = [
            Side(s["name"], s["counts"], s["snapshot"], s["deltas"])
            for s in meta["sides"]
        ]
        self.result = meta["result"]
        return True

    def tidy(self) -> None:
        """Remove this program's files that meta.json does not name."""
        named = {"meta.json"}
        for s in self.sides:
            if s.snapshot:
                named.add(s.snapshot["file"])
            named.update(d["file"] for d in s.deltas)
        pattern = re.compile(r"side\d_(snap|level)\d+\.(codes|ranks)(\.part)?")
        for p in self.directory.iterdir():
            if p.name not in named and (
                pattern.fullmatch(p.name) or p.name == "meta.json.part"
            ):
                p.unlink()

    def check(self) -> None:
        """Raise Stop on Ctrl-C, SIGTERM or the time limit."""
        if self.stop_reason is not None:
            raise Stop(self.stop_reason, 130)
        limit = self.time_limit
        if limit is not None and time.monotonic() - self.started > limit:
            raise Stop(f"time limit of {self.time_limit:g} s reached", 3)

    def restore(self) -> None:
        """The code arrays as meta.json leaves them (snapshot + level files)."""
        roots = [self.guy.rank(self.guy.start), self.guy.rank(self.guy.goal)]
        for index, side in enumerate(self.sides):
            if side.snapshot is None:
                words = fresh_codes(self.guy, roots[index])
            else:
                path = self.directory / side.snapshot["file"]
                words = np.fromfile(path, dtype=np.uint64)
                if len(words) != self.guy.words:
                    raise Stop(f"{path} is damaged: remove --dir to start again", 2)
            for delta in side.deltas:
                with (self.directory / delta["file"]).open("rb") as f:
                    while True:
                        ranks = np.fromfile(f, dtype=np.int64, count=1 << 24)
                        if not len(ranks):
                            break
                        _mark(words, ranks, delta["level"] % 3)
                        self.check()
            self.codes.append(words)

    # -- the levels

    def grow(self, index: int) -> tuple[int, int, int]:
        """Side ``index`` one level deeper: (new states, meeting rank, its code).

        The new level's ranks are appended to a level file while it is small
        beside the array; past that, the level ends in a snapshot instead.
        """
        side = self.sides[index]
        words = self.codes[index]
        other = words if self.mirror else self.codes[1 - index]
        depth = side.depth + 1
        since = sum(d["count"] for d in side.deltas) * 8
        budget = max(0, self.side_bytes() - since)  # bytes of ranks before a snap
        part = self.directory / f"side{index}_level{depth:03d}.ranks.part"
        found = np.empty(BUFFER, dtype=np.int64)
        stats = np.zeros(5, dtype=np.int64)
        record = budget > 0
        guy = self.guy
        position = 0
        with part.open("wb") as out:
            while position < guy.words:
                self.check()
                stats[2] = 0
                _expand(
                    words,
                    other,
                    self.mirror,
                    position,
                    min(position + WORDS_PER_CALL, guy.words),
                    side.depth % 3,
                    depth % 3,
                    record,
                    found,
                    guy.weights,
                    guy.adjacent,
                    guy.degree,
                    guy.flip,
                    3 * guy.n,
                    guy.popcount,
                    stats,
                )
                position = int(stats[0])
                self.new += int(stats[2])
                if record:
                    found[: stats[2]].tofile(out)
                    if self.new * 8 > budget:
                        record = False  # a snapshot ends this level
                if stats[3] >= 0:
                    return self.new, int(stats[3]), int(stats[4])
        self.expanded = int(stats[1])
        if record:
            name = part.name.removesuffix(".part")
            os.replace(part, self.directory / name)
            side.deltas.append({"level": depth, "file": name, "count": self.new})
        else:
            part.unlink()
            name = f"side{index}_snap{depth:03d}.codes"
            snap = self.directory / (name + ".part")
            words.tofile(snap)
            os.replace(snap, self.directory / name)
            side.snapshot = {"level": depth, "file": name}
            side.deltas = []
        side.counts.append(self.new)
        return self.new, -1, -1

    def run(self) -> Outcome:
        """Search to the end (or raise Stop); the outcome, checkpointed."""
        self.directory.mkdir(parents=True, exist_ok=True)
        resumed = self.load_meta()
        if self.result is not None:
            return self.outcome()
        memory, disk = self.estimates()
        free_disk = shutil.disk_usage(self.directory).free + disk_used(self.directory)
        self.say(
            f"guy3x{self.guy.n}: {self.guy.states:,} placements, "
            f"{len(self.sides)} code array(s) of {self.side_bytes() / 2**30:.2f} GiB; "
            f"memory {memory / 2**30:.2f} GiB of {available_mb() / 2**10:.1f} "
            f"available, disk up to {disk / 2**30:.2f} GiB of "
            f"{free_disk / 2**30:.1f} free"
        )
        if memory / 2**20 > available_mb():
            raise Stop(
                f"refused: needs {memory / 2**30:.1f} GiB of memory, "
                f"{available_mb() / 2**10:.1f} GiB available",
                2,
            )
        if disk > free_disk:
            raise Stop(
                f"refused: needs {disk / 2**30:.1f} GiB of disk in "
                f"{self.directory}, {free_disk / 2**30:.1f} GiB free",
                2,
            )
        self.tidy()
        self.restore()
        if resumed:
            depths = ", ".join(f"{s.name} {s.depth}" for s in self.sides)
            self.say(
                f"resumed at depths {depths} ({time.monotonic() - self.started:.1f} s)"
            )
        else:
            self.write_meta()
        while True:
            index = min(
                range(len(self.sides)),
                key=lambda i: (self.sides[i].counts[-1], self.sides[i].depth, i),
            )
            side = self.sides[index]
            if side.counts[-1] == 0:
                self.result = {
                    "distance": None,
                    "exhausted": side.name,
                    "component": sum(side.counts),
                }
                break
            began = time.monotonic()
            self.new = 0
            self.expanded = 0
            new, meeting, seen = self.grow(index)
            seconds = time.monotonic() - began
            if meeting >= 0:
                self.say(
                    f"{side.name} depth {side.depth + 1}: met after {new:,} new "
                    f"states ({seconds:.1f} s)"
                )
                self.result = self.meet(index, meeting, seen)
                self.result["partial"] = {side.name: new}
                break
            rate = side.counts[-2] / seconds if seconds > 0 else math.inf
            self.say(
                f"{side.name} depth {side.depth}: {new:,} states, {seconds:.1f} s "
                f"({rate:,.0f} expanded/s), rss {rss_mb():,.0f} MB, "
                f"disk {disk_used(self.directory) / 2**30:.2f} GiB"
            )
            self.write_meta()
            self.tidy()
        self.write_meta()
        self.tidy()
        return self.outcome()

    def chain(self, words: Words, r: int, depth: int) -> list[int]:
        """Ranks from ``r`` (at ``depth``) back to the side's root."""
        ranks = [r]
        for d in range(depth, 0, -1):
            r = self.guy.parent(words, r, (d - 1) % 3)
            if r < 0:
                raise RuntimeError(f"no parent at depth {d - 1}: a bug")
            ranks.append(r)
        return ranks

    def meet(self, index: int, meeting: int, seen: int) -> dict[str, Any]:
        """The path through the meeting placement, as moves and a record."""
        guy = self.guy
        depth = self.sides[index].depth + 1
        if self.mirror:
            # F(meeting)'s depth: `depth` or depth - 1 (see the docstring).
            other_depth = depth if seen == depth % 3 else depth - 1
            if seen != other_depth % 3:
                raise RuntimeError("meeting at an impossible depth: a bug")
            to_start = self.chain(self.codes[0], meeting, depth)
            to_goal = [
                guy.mirror(r)
                for r in self.chain(self.codes[0], guy.mirror(meeting), other_depth)
            ]
        else:
            other_depth = self.sides[1 - index].depth
            if seen != other_depth % 3:
                raise RuntimeError("meeting at an impossible depth: a bug")
            own = self.chain(self.codes[index], meeting, depth)
            theirs = self.chain(self.codes[1 - index], meeting, other_depth)
            to_start, to_goal = (own, theirs) if index == 0 else (theirs, own)
        path = to_start[::-1] + to_goal[1:]
        moves = []
        for a, b in itertools.pairwise(path):
            before, after = guy.unrank(a), guy.unrank(b)
            (k,) = np.flatnonzero(before != after)
            moves.append(f"{guy.name(before[k])}-{guy.name(after[k])}")
        return {
            "distance": len(moves),
            "moves": moves,
            "meeting": guy.drawing(guy.unrank(meeting)),
            "meeting_rank": meeting,
        }

    def outcome(self) -> Outcome:
        """The result recorded in meta.json, as an Outcome."""
        assert self.result is not None
        levels = {s.name: s.counts for s in self.sides}
        if self.mirror:
            levels["goal (= start flipped)"] = self.sides[0].counts
        return Outcome(
            n=self.guy.n,
            distance=self.result["distance"],
            moves=self.result.get("moves", []),
            levels=levels,
            meeting=self.result.get("meeting"),
            partial=self.result.get("partial", {}),
            exhausted=self.result.get("exhausted"),
            component=self.result.get("component"),
            seconds=self.seconds_before + time.monotonic() - self.started,
        )


# ------------------------------------------------------------------ replay


def replay(n: int, moves: list[str]) -> str | None:
    """Check moves on Guy's 3 x n from scratch; None if right, else what is wrong.

    Shares nothing with the search: the start and goal are cpknight's drawings
    as letters, the moves are read from their algebraic names.
    """
    _, start, goal, _ = named_puzzle(f"guy3x{n}")
    board = {cell: letter for letter, (cell,) in start}
    for number, move in enumerate(moves, start=1):
        match = re.fullmatch(r"([a-z])(\d+)-([a-z])(\d+)", move)
        if not match:
            return f"move {number} {move!r}: not 'a1-b3'"
        files, ranks = match.group(1, 3), match.group(2, 4)
        (c0, c1) = (ord(f) - ord("a") for f in files)
        (r0, r1) = (int(r) - 1 for r in ranks)
        if sorted((abs(r1 - r0), abs(c1 - c0))) != [1, 2]:
            return f"move {number} {move}: not a knight's move"
        if not (0 <= r1 < 3 and 0 <= c1 < n):
            return f"move {number} {move}: off the board"
        if (r0, c0) not in board:
            return f"move {number} {move}: no knight on {move[:2]}"
        if (r1, c1) in board:
            return f"move {number} {move}: the target is taken"
        board[(r1, c1)] = board.pop((r0, c0))
    wanted = {cell: letter for letter, (cell,) in goal}
    if board != wanted:
        return "the moves do not end on the goal"
    return None


# --------------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> int:
    """Run the search from the command line; the exit code."""
    parser = argparse.ArgumentParser(
        description="The fewest moves of Guy's ordered knight swap on 3 x n "
        "(bidirectional BFS over ranked placements; resumable)."
    )
    parser.add_argument("n", type=int, nargs="?", default=5, help="files (default 5)")
    parser.add_argument(
        "--dir", type=Path, help="checkpoint directory (default /work/runs/guy3xN)"
    )
    parser.add_argument(
        "--two-sided",
        action="store_true",
        help="grow a goal side of its own instead of the start side's flip",
    )
    parser.add_argument("--time-limit", type=float, help="stop after S seconds")
    args = parser.parse_args(argv)
    if not 1 <= args.n <= 26:
        parser.error("n must be from 1 to 26")
    directory = args.dir or Path(f"/work/runs/guy3x{args.n}")
    memory, _ = needs(args.n, 1 if not args.two_sided else 2)
    if memory / 2**20 > available_mb() or args.n > 7:
        print(
            f"refused: 3 x {args.n} needs {memory / 2**30:,.1f} GiB of memory, "
            f"{available_mb() / 2**10:.1f} GiB available",
            file=sys.stderr,
        )
        return 2
    try:
        search = Search(
            args.n,
            directory,
            mirror=not args.two_sided,
            time_limit=args.time_limit,
            log=sys.stderr,
        )
    except (ValueError, OverflowError, MemoryError) as exc:
        print(f"refused: {exc}", file=sys.stderr)
        return 2

    def interrupt(signum: int, frame: FrameType | None) -> None:
        del frame
        search.stop_reason = f"stopped by {signal.Signals(signum).name}"

    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)
    try:
        outcome = search.run()
    except Stop as stop:
        print(stop, file=sys.stderr)
        if stop.code != 2:
            done = ", ".join(f"{s.name} depth {s.depth}" for s in search.sides)
            print(
                f"kept the finished levels ({done}) in {directory}; run the same "
                "command to resume",
                file=sys.stderr,
            )
        return stop.code
    print(f"Guy's ordered knight swap on 3 x {args.n} ({directory})")
    if outcome.distance is None:
        print(
            f"no solution: the {outcome.exhausted} side's component is exhausted "
            f"({outcome.component:,} placements) "
            "without reaching the other side"
        )
    else:
        wrong = replay(args.n, outcome.moves)
        if wrong is not None or len(outcome.moves) != outcome.distance:
            print(f"replay FAILED: {wrong}", file=sys.stderr)
            return 70
        print(f"fewest moves: {outcome.distance} (replayed and checked)")
        print("meeting placement:")
        print(outcome.meeting)
    print(f"seconds: {outcome.seconds:.1f} (all sessions)")
    print(f"peak memory: {peak_mb():,.0f} MB (this session's ru_maxrss)")
    print(f"disk: {disk_used(directory) / 2**30:.2f} GiB in {directory}")
    for name, counts in outcome.levels.items():
        print(f"levels of the {name} side: {counts}")
    for name, count in outcome.partial.items():
        print(f"  then {count:,} states of the {name} side's next level to the meeting")
    if outcome.moves:
        print("moves:")
        print("\n".join(outcome.moves))
    return 0 if outcome.distance is not None else 1


if __name__ == "__main__":
    sys.exit(main())
