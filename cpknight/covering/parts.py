"""A covering program that falls apart: its independent parts, solved one by one.

Two cell variables are *joined* when some row holds both; a program whose
variables fall into groups that no row joins is several programs, and its
optimum is the sum of theirs. The knight's move graph is bipartite (a move
changes the colour of the square), so total domination always falls apart:
a white cell is attacked only by knights on black cells, and a black cell only
by knights on white ones, so "every white cell attacked" is a set cover over
the black cells alone and "every black cell attacked" one over the white
cells. Each is half the size, and the branch and bound of the whole searches
the product of the two trees where the halves search their sum: 24 x 24
(A261752(24) = 98) takes SCIP 194 s in halves and more than 300 s whole.
Domination never splits (a cell's own variable is in its row), nor does a
program with symmetry rows (they join every cell); a board in two pieces
splits under every puzzle.

A part that a symmetry of the board maps onto an earlier one is not solved:
its placement is the image of the earlier part's, with the same optimum and
bound. On an even square board the colour-changing reflections map one half
of total domination onto the other, so only one half is solved. The symmetries
looked at are the point symmetries (:func:`cell_permutations`) and, on a board
that wraps, the shift by one cell along each wrapping axis.

The answer of the whole is checked by the checker like every other
(:func:`~cpknight.covering.common.make_cover`).

Examples:
    >>> from cpknight.covering.program import build_cover_program
    >>> parts = split(build_cover_program("8x8", kind="total"))
    >>> [p.program.n_cells for p in parts], parts[1].image is not None
    ([32, 32], True)
    >>> len(split(build_cover_program("8x8", kind="dominating")))
    1
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from cpknight.covering.common import CLOCK_ROWS
from cpknight.errors import SolveLimitError
from cpknight.graph.symmetry import cell_permutations
from cpknight.solving import Run
from cpknight.status import Effort

if TYPE_CHECKING:  # the program prints its parts: it imports this module
    from cpknight.covering.program import CoverProgram, Row

__all__ = ["Part", "Solved", "solve_in_parts", "split"]

Permutation = tuple[int, ...]

BALANCE = True
"""Give each part solved its balance rows (:func:`_balanced`); the benchmark
turns it off for its baseline."""


@dataclass(frozen=True)
class Part:
    """One independent part of a program.

    Attributes:
        program: the part's own program; its variable ``i`` is the whole
            program's variable ``variables[i]`` (its cells first).
        variables: the whole program's variables, in the part's order.
        image: ``(k, p)`` when the board's symmetry ``p`` maps part ``k``
            (an earlier one) onto this one; such a part is not solved.
    """

    program: CoverProgram
    variables: tuple[int, ...]
    image: tuple[int, Permutation] | None = None


@dataclass(frozen=True)
class Solved:
    """What one solve of a program gives: its cells chosen, proved or not.

    Attributes:
        nodes: the chosen cell variables (the program's own numbering).
        optimal: proved optimal.
        bound: the proved bound (the size itself when optimal).
        effort: what the solver counted.
    """

    nodes: list[int]
    optimal: bool
    bound: int
    effort: Effort


SolveOne = Callable[["CoverProgram", Run, float | None], Solved]
"""Solve one program under the run's clock, in at most the given seconds."""


def split(program: CoverProgram, run: Run | None = None) -> list[Part]:
    """The program's independent parts (one part: it does not split).

    A program with a row of no terms (a cell no move reaches) is left whole,
    for the engine to report. With a ``run``, its clock is looked at every
    :data:`~cpknight.covering.common.CLOCK_ROWS` rows (a board of 800 x 800
    takes seconds to split).

    Raises:
        SolveLimitError: the run's limit passed (or Ctrl-C) while splitting.
    """

    def check(k: int) -> None:
        if run is not None and k % CLOCK_ROWS == 0:
            run.check("splitting the program into its independent parts")

    size = len(program.names)
    parent = list(range(size))

    def root(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for k, row in enumerate(program.rows):
        check(k)
        if not row.terms:
            return [Part(program, tuple(range(size)))]
        first = root(row.terms[0][0])
        for v, _ in row.terms[1:]:
            other = root(v)
            if other != first:
                parent[other] = first
    roots = [root(v) for v in range(size)]
    groups: dict[int, list[int]] = {}
    for v in range(size):  # the cells first: a part's cells lead its variables
        groups.setdefault(roots[v], []).append(v)
    n = program.n_cells
    if len(groups) == 1 or any(variables[0] >= n for variables in groups.values()):
        return [Part(program, tuple(range(size)))]  # (a group of no cell: none)
    rows: dict[int, list[Row]] = {r: [] for r in groups}
    symmetry = dict.fromkeys(groups, 0)
    plain = len(program.rows) - program.n_symmetry_rows
    local = [0] * size
    for variables in groups.values():
        for i, v in enumerate(variables):
            local[v] = i
    for k, row in enumerate(program.rows):  # one pass: each row to its part
        check(k)
        mine = roots[row.terms[0][0]]
        rows[mine].append(
            replace(row, terms=tuple((local[v], c) for v, c in row.terms))
        )
        symmetry[mine] += k >= plain
    parts = [
        Part(
            replace(
                program,
                names=tuple(program.names[v] for v in variables),
                rows=tuple(rows[r]),
                n_symmetry_rows=symmetry[r],
                n_symmetries=program.n_symmetries if symmetry[r] else 0,
                part_cells=sum(v < n for v in variables),
            ),
            tuple(variables),
        )
        for r, variables in groups.items()
    ]
    return _mirrored(program, parts, check)


def _mirrored(
    program: CoverProgram, parts: list[Part], check: Callable[[int], None]
) -> list[Part]:
    """Mark each part that a symmetry of the board maps an earlier part onto.

    A part not marked yet is solved; each symmetry sends its first cell into
    one part, which is its image if the symmetry sends every cell there. One
    look a part and a symmetry: linear in the cells, however many parts.
    """
    candidates = _symmetries(program)
    part_of = [0] * len(program.names)
    for j, part in enumerate(parts):
        for v in part.variables:
            part_of[v] = j
    images: dict[int, tuple[int, Permutation]] = {}
    for j, part in enumerate(parts):
        check(0)
        if j in images:
            continue
        cells = part.variables[: part.program.n_cells]
        for perm in candidates:
            target = part_of[perm[cells[0]]]
            if target <= j or target in images:
                continue
            if parts[target].program.n_cells == len(cells) and all(
                part_of[perm[v]] == target for v in cells
            ):
                images[target] = (j, perm)
    marked: list[Part] = []
    for j, part in enumerate(parts):
        if j in images:
            part = replace(part, image=images[j])
        elif BALANCE and not part.program.n_symmetry_rows:
            part = _balanced(part, candidates)
        marked.append(part)
    return marked


def _balanced(part: Part, candidates: Sequence[Permutation]) -> Part:
    """The part with its balance rows: a few of its mirror images cut off.

    For a symmetry ``g`` of order 2 that maps the part onto itself, let
    ``low`` be the part's cells ``v`` with ``v < g(v)`` (in the board's order:
    the top half for a flip of the ranks, the cells above the diagonal for
    the transposition) and ``high`` their images. The row ``sum(x[low]) <=
    sum(x[high])`` keeps one of each placement and its image. Rows are taken
    one after another, each ``g`` mapping every earlier row's ``(low, high)``
    onto an earlier row's (the reflections first: those that fix the most
    cells). Then every placement has an image that meets them all: apply
    each row's ``g`` in turn where that row fails; it turns that row round
    and only permutes the rows before it. A symmetry of the part maps its
    rows onto its rows, so the image is a placement of the same size.

    On an odd square board's colour these are three of its eight symmetries'
    reflections, and the solver looks at about one image in eight of each
    placement instead of all eight (21 x 21's first colour: SCIP took 46-52 s
    with them against 100-104 s without, two seeds each).
    """
    cells = part.variables[: part.program.n_cells]
    inside = frozenset(cells)
    involutions = [
        perm
        for perm in candidates
        if all(perm[v] in inside and perm[perm[v]] == v for v in cells)
    ]
    involutions.sort(key=lambda perm: -sum(perm[v] == v for v in cells))
    pairs: list[tuple[frozenset[int], frozenset[int]]] = []
    for perm in involutions:
        low = frozenset(v for v in cells if v < perm[v])
        high = frozenset(perm[v] for v in low)
        if not low or (low, high) in pairs:
            continue
        keeps = all(
            (frozenset(perm[v] for v in a), frozenset(perm[v] for v in b)) in pairs
            for a, b in pairs
        )
        if keeps:
            pairs.append((low, high))
    if not pairs or not part.program.rows:
        return part
    local = {v: i for i, v in enumerate(part.variables)}
    rows = [
        replace(  # a Row, made like the part's own
            part.program.rows[0],
            name=f"balance[{k}]",
            terms=tuple((local[v], 1) for v in sorted(low))
            + tuple((local[v], -1) for v in sorted(high)),
            lo=None,
            hi=0,
        )
        for k, (low, high) in enumerate(pairs, 1)
    ]
    program = replace(
        part.program,
        rows=part.program.rows + tuple(rows),
        n_symmetry_rows=len(rows),
    )
    return replace(part, program=program)


def _symmetries(program: CoverProgram) -> list[Permutation]:
    """The point symmetries, and a shift by one cell along each wrapping axis."""
    board = program.instance.board
    found = list(cell_permutations(board))
    mask = board.open_mask
    node_of = np.full(board.shape, -1, dtype=np.int64)
    node_of[mask] = np.arange(int(mask.sum()))
    cells = np.argwhere(mask)
    for axis, wraps in enumerate(board.wrap or ()):
        if not wraps:
            continue
        image = cells.copy()
        image[:, axis] = (image[:, axis] + 1) % board.shape[axis]
        if mask[tuple(image.T)].all():
            found.append(tuple(int(t) for t in node_of[tuple(image.T)].tolist()))
    return found


def solve_in_parts(
    program: CoverProgram, run: Run, solve_one: SolveOne, *, side_by_side: int = 1
) -> Solved:
    """Solve the program part by part (or whole, when it does not split).

    One after another, each part solved gets a share of the time left in
    proportion to its cells. With ``side_by_side`` above 1 (a MIP engine
    given several workers: SCIP and HiGHS solve on one core each), that many
    parts solve at once, each in a thread of its own on a clock of its own
    (:meth:`~cpknight.solving.Run.twin`). A part mapped from an earlier one
    costs nothing. Nodes, bounds and effort add up; the whole is optimal when
    every part is.

    Raises:
        NoPathError: a part has no placement, so the whole has none.
        SolveLimitError: a part found no placement in its share or by the
            limit; its bound is the parts' bounds added up.
    """
    parts = split(program, run) if not program.instance.count else []
    if len(parts) <= 1:
        return solve_one(program, run, None)
    answers: list[Solved | None] = [None] * len(parts)
    todo = [j for j, part in enumerate(parts) if part.image is None]
    if side_by_side > 1 and len(todo) > 1:
        _side_by_side(parts, todo, run, solve_one, side_by_side, answers)
    else:
        left = sum(parts[j].program.n_cells for j in todo)
        for j in todo:
            cells = parts[j].program.n_cells
            remaining = run.remaining()
            share = None if remaining is None else remaining * cells / max(left, 1)
            left -= cells
            try:
                answers[j] = solve_one(parts[j].program, run, share)
            except SolveLimitError as exc:
                exc.bound = _partial_bound(parts, answers, {j: exc.bound}, program)
                raise
    for j, part in enumerate(parts):
        if part.image is not None:
            k, perm = part.image
            source, answer = parts[k], answers[k]
            assert answer is not None  # solved before, in order
            images = [perm[source.variables[v]] for v in answer.nodes]
            local = {v: i for i, v in enumerate(part.variables)}
            answers[j] = replace(
                answer, nodes=[local[v] for v in images], effort=Effort()
            )
    done = [a for a in answers if a is not None]
    nodes = [
        part.variables[v] for part, a in zip(parts, done, strict=True) for v in a.nodes
    ]
    return Solved(
        nodes=sorted(nodes),
        optimal=all(a.optimal for a in done),
        bound=sum(a.bound for a in done),
        effort=_added([a.effort for a in done]),
    )


def _side_by_side(
    parts: Sequence[Part],
    todo: list[int],
    run: Run,
    solve_one: SolveOne,
    workers: int,
    answers: list[Solved | None],
) -> None:
    """Solve the parts ``todo`` ``workers`` at a time, each on a twin clock.

    Ctrl-C (the caller's clock interrupted) reaches every part's clock; the
    first part that fails (no placement, or none by the limit) stops the
    others. Fills ``answers``.

    Raises:
        NoPathError: a part has no placement.
        SolveLimitError: a part found none by the limit (the bound added up).
    """
    from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

    runs = {j: run.twin() for j in todo}
    rounds = -(-len(todo) // workers)  # parts queue when there are more
    remaining = run.remaining()
    share = None if remaining is None else remaining / rounds
    failures: dict[int, BaseException] = {}
    with ThreadPoolExecutor(workers, thread_name_prefix="cpknight-part") as pool:
        futures: dict[Future[Solved], int] = {
            pool.submit(solve_one, parts[j].program, runs[j], share): j for j in todo
        }
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=0.05, return_when=FIRST_COMPLETED)
            if run.clock.interrupted:  # Ctrl-C: every part hands back what it has
                for twin in runs.values():
                    twin.clock.interrupt()
            for future in finished:
                j = futures[future]
                error = future.exception()
                if error is None:
                    answers[j] = future.result()
                    continue
                failures[j] = error
                for k, twin in runs.items():  # the whole has no answer now
                    if k != j:
                        twin.clock.cancel()
    if not failures:
        return
    first = min(failures)
    real = [j for j in sorted(failures) if not runs[j].clock.cancelled]
    raised = failures[real[0] if real else first]
    if isinstance(raised, SolveLimitError):
        bounds = {
            j: e.bound for j, e in failures.items() if isinstance(e, SolveLimitError)
        }
        raised.bound = _partial_bound(parts, answers, bounds, parts[0].program)
    raise raised


def _partial_bound(
    parts: Sequence[Part],
    answers: Sequence[Solved | None],
    stopped: dict[int, int | None],
    program: CoverProgram,
) -> int | None:
    """The whole's bound when parts ran out: the parts' bounds added up.

    ``stopped``: the bound each part that ran out proved (``None``: none). A
    part not solved adds nothing to a lower bound and all its cells to an
    upper one; a part mapped from another adds that part's bound.
    """
    total = 0
    for j, part in enumerate(parts):
        k = j if part.image is None else part.image[0]
        answer = answers[k]
        if answer is not None:
            total += answer.bound
        elif (proved := stopped.get(k)) is not None:
            total += proved
        elif program.maximise:
            total += part.program.n_cells
    return total


def _added(efforts: Sequence[Effort]) -> Effort:
    """Efforts added field by field (a field no part counted stays ``None``)."""
    fields = ("attempts", "backtracks", "branches", "conflicts", "solutions", "cuts")
    totals: dict[str, int | None] = {}
    for name in fields:
        values = [getattr(e, name) for e in efforts if getattr(e, name) is not None]
        totals[name] = sum(values) if values else None
    return Effort(**totals)
