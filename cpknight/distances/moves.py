"""Distance as an integer program over move counts, exact on every board.

With the piece's move vectors ``v_1 .. v_k`` as the columns of ``A`` and
``d = target - source``, find ``n`` in ``N^k`` with ``A n = d`` minimising
``sum(n)``: how many times each move is used, not in which order. Exact on the
unbounded plane; on a torus or cylinder one integer wrap count per wrapped axis
(``A n = d + L w``) makes it exact again. On a bounded board it is only a lower
bound (a1 to b2 is 2 on the plane, 4 on 8x8), so the optimal counts are ordered
into a walk that stays on open cells (a small memoised search over the
multiset); when no order exists, a no-good cut removes that count vector and the
model is solved again, until an orderable optimum is found. Unreachable targets
are refused first, by the components of the move graph (finite boards) or the
lattice the moves generate (the plane).

Examples:
    >>> from cpknight import knight_distance
    >>> d = knight_distance("8x8", "a1", "b2", method="ip")
    >>> d.distance, d.details["bound"], d.details["cuts"] >= 1
    (4, 2, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING as _TYPE_CHECKING

if _TYPE_CHECKING:
    import numpy.typing as npt

    from cpknight.distances.instance import DistanceInstance

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from cpknight.board import Board, Cell
from cpknight.checks import make_distance
from cpknight.distances.linear import (
    BACKENDS,
    LinearModel,
    Values,
    axis_names,
    check_backend,
    linear_text,
    load_backend,
    lp_name,
    move_label,
    refuse_long_path,
    solve_builder,
)
from cpknight.errors import EngineError, SolveLimitError
from cpknight.graph import component_labels, no_path_error
from cpknight.pieces import (
    KNIGHT,
    Leaper,
    MoveGraph,
    PieceLike,
    as_piece,
    move_graph,
    walk,
)
from cpknight.results import Distance
from cpknight.solving import Run, configure_cpsat, solve_cpsat
from cpknight.status import Effort

__all__ = [
    "MoveCountModel",
    "build_move_count_model",
    "lattice_combination",
    "order_moves",
    "solve_move_counts",
]


# ------------------------------------------------------------------ reasoning


def _labels(
    graph: MoveGraph, check: Callable[[str], None] | None = None
) -> npt.NDArray[np.int32]:
    # A query's graph comes from move_graph's own cache; keep the labels of the
    # last few graphs only (all pairs of one board hit the same entry). Labels
    # stopped by the clock are not kept.
    labels = _LABELS.get(id(graph))
    if labels is None or labels[0] is not graph:
        labels = (graph, component_labels(graph, check))
        _LABELS[id(graph)] = labels
        while len(_LABELS) > 4:
            del _LABELS[next(iter(_LABELS))]
    return labels[1]


_LABELS: dict[int, tuple[MoveGraph, npt.NDArray[np.int32]]] = {}


def lattice_combination(
    vectors: Sequence[Sequence[int]], offset: Sequence[int]
) -> list[int] | None:
    """Integers ``y`` with ``sum(y[j] * vectors[j]) == offset``, or ``None``.

    The integer combinations of the move vectors form a lattice; on the
    unbounded plane a leaper reaches exactly its points (every move can be
    undone, so a negative count is a count of the opposite move). Solved by
    bringing the vectors to echelon form with integer row operations.

    Args:
        vectors: the move vectors, one per row.
        offset: the vector to reach.

    Returns:
        One integer coefficient per vector, or ``None`` when ``offset`` is not
        in the lattice (the piece cannot get there at all).

    Examples:
        >>> knight = KNIGHT.moves(2).tolist()
        >>> y = lattice_combination(knight, (0, 1))
        >>> [sum(c * v[a] for c, v in zip(y, knight)) for a in range(2)]
        [0, 1]
        >>> lattice_combination([(1, 3), (3, 1), (1, -3)], (0, 1)) is None  # camel
        True
    """
    k = len(vectors)
    dim = len(offset)
    rows = [[int(x) for x in v] for v in vectors]
    trans = [[int(i == j) for j in range(k)] for i in range(k)]
    pivots: list[tuple[int, int]] = []
    r = 0
    for c in range(dim):
        if r >= k:
            break
        if not any(rows[i][c] for i in range(r, k)):
            continue
        while True:
            p = min(
                (i for i in range(r, k) if rows[i][c]), key=lambda i: abs(rows[i][c])
            )
            rows[r], rows[p] = rows[p], rows[r]
            trans[r], trans[p] = trans[p], trans[r]
            clean = True
            for i in range(r + 1, k):
                if rows[i][c]:
                    f = rows[i][c] // rows[r][c]
                    rows[i] = [a - f * b for a, b in zip(rows[i], rows[r], strict=True)]
                    trans[i] = [
                        a - f * b for a, b in zip(trans[i], trans[r], strict=True)
                    ]
                    clean = clean and not rows[i][c]
            if clean:
                break
        pivots.append((r, c))
        r += 1
    y = [0] * k
    for row, col in pivots:
        rest = int(offset[col]) - sum(y[i] * rows[i][col] for i in range(row))
        if rest % rows[row][col]:
            return None
        y[row] = rest // rows[row][col]
    for col in range(dim):
        if sum(y[i] * rows[i][col] for i in range(k)) != int(offset[col]):
            return None
    return [sum(y[i] * trans[i][j] for i in range(k)) for j in range(k)]


def _plane_upper(moves: Sequence[Sequence[int]], offset: Sequence[int]) -> int | None:
    """A feasible number of moves on the plane (an upper bound), or ``None``."""
    combo = lattice_combination(moves, offset)
    if combo is None:
        return None
    index = {tuple(int(x) for x in v): j for j, v in enumerate(moves)}
    counts = [0] * len(moves)
    for j, c in enumerate(combo):
        if c >= 0:
            counts[j] += c
        else:
            counts[index[tuple(-int(x) for x in moves[j])]] -= c
    for j, v in enumerate(moves):
        o = index[tuple(-int(x) for x in v)]
        if o > j:
            both = min(counts[j], counts[o])
            counts[j] -= both
            counts[o] -= both
    return sum(counts)


def order_moves(
    graph: MoveGraph,
    source: Sequence[int],
    counts: Sequence[int],
    *,
    check: Callable[[str], None] | None = None,
) -> tuple[Cell, ...] | None:
    """Order a multiset of moves into a walk that stays on open cells.

    Move ``j`` of the piece is used ``counts[j]`` times. The search tries the
    moves in the piece's order, depth first, and remembers the multisets left
    over that failed (the cell reached is fixed by the moves used, so the
    multiset alone is the state).

    Args:
        graph: the move graph (its table says which moves stay on open cells).
        source: the first cell.
        counts: how many times each move is used, in ``graph.moves`` order.
        check: ``run.check``, every :data:`ORDER_CHECK_EVERY` moves tried.

    Returns:
        The cells of the walk, ``source`` first, or ``None`` when no order of
        these moves stays on the board.

    Examples:
        >>> from cpknight.board import Board
        >>> g = move_graph(Board.parse("8x8"), KNIGHT)
        >>> g.moves.tolist()[1], g.moves.tolist()[4]
        ([2, -1], [-1, 2])
        >>> order_moves(g, (0, 0), [0, 1, 0, 0, 1, 0, 0, 0]) is None  # a1 to b2
        True
        >>> [g.board.cell_name(c) for c in order_moves(g, (1, 1), [0, 1, 0, 0, 1,
        ...                                                         0, 0, 0])]
        ['b2', 'a4', 'c3']
    """
    nodes = _order_nodes(
        graph.table, graph.node(source), [int(c) for c in counts], check
    )
    if nodes is None:
        return None
    return tuple(graph.cell(n) for n in nodes)


ORDER_CHECK_EVERY = 4096
"""Moves tried while ordering the counts between two looks at the clock."""


def _order_nodes(
    table: npt.NDArray[np.int32],
    start: int,
    counts: list[int],
    check: Callable[[str], None] | None = None,
) -> list[int] | None:
    k = len(counts)
    steps = 0
    total = sum(counts)
    remaining = list(counts)
    path = [start]
    tried = [0]
    dead: set[tuple[int, ...]] = set()
    while len(path) <= total:
        steps += 1
        if check is not None and steps % ORDER_CHECK_EVERY == 0:
            check("ordering the moves into a path")
        node = path[-1]
        j = tried[-1]
        moved = False
        while j < k:
            if remaining[j] > 0:
                nxt = int(table[node, j])
                if nxt >= 0:
                    remaining[j] -= 1
                    if tuple(remaining) not in dead:
                        tried[-1] = j + 1
                        path.append(nxt)
                        tried.append(0)
                        moved = True
                        break
                    remaining[j] += 1
            j += 1
        if moved:
            continue
        dead.add(tuple(remaining))
        path.pop()
        tried.pop()
        if not path:
            return None
        remaining[tried[-1] - 1] += 1
    return path


# ---------------------------------------------------------------- move counts


@dataclass(frozen=True)
class _CountSpec:
    """The data of a move-count model, worked out once per query."""

    board: Board
    piece: Leaper
    source: Cell
    target: Cell
    moves: tuple[tuple[int, ...], ...]
    offset: tuple[int, ...]
    wrapped: tuple[int, ...]
    upper: int
    wrap_bound: int
    graph: MoveGraph | None
    reachable: bool


def _count_spec(
    board: Board, piece: Leaper, source: Cell, target: Cell, run: Run | None = None
) -> _CountSpec:
    piece.check_dim(board.dim, board.label)
    moves = tuple(tuple(int(x) for x in v) for v in piece.moves(board.dim).tolist())
    offset = tuple(int(t) - int(s) for s, t in zip(source, target, strict=True))
    graph = None
    if board.unbounded:
        wrapped: tuple[int, ...] = ()
        found = _plane_upper(moves, offset)
        reachable = found is not None
        upper = found if found is not None else 4 * sum(abs(x) for x in offset) + 4
    else:
        check = None if run is None else run.check
        graph = move_graph(board, piece, check=check)
        wrapped = tuple(a for a, w in enumerate(board.wrap) if w)
        labels = _labels(graph, check)
        reachable = bool(labels[graph.node(source)] == labels[graph.node(target)])
        upper = graph.n_nodes - 1
    biggest = max((abs(x) for v in moves for x in v), default=0)
    wrap_bound = 0
    for axis in wrapped:
        side = board.shape[axis]
        wrap_bound = max(wrap_bound, -(-(upper * biggest + abs(offset[axis])) // side))
    return _CountSpec(
        board,
        piece,
        source,
        target,
        moves,
        offset,
        wrapped,
        upper,
        wrap_bound,
        graph,
        reachable,
    )


@dataclass(frozen=True, eq=False)
class MoveCountModel(LinearModel):
    """The move-count integer program of one query, built and not yet solved.

    ``minimise sum(n)  s.t.  A n = d + L w,  n >= 0 integer,  w integer``, with
    the no-good cuts found so far. Build with :func:`build_move_count_model`.

    Attributes:
        board: the board.
        piece: the leaper.
        source: the source cell.
        target: the target cell.
        moves: the move vectors, the columns of ``A`` (the piece's order).
        offset: ``d = target - source``.
        wrapped: the axes that wrap (one wrap count ``w`` each).
        upper: the bound on ``sum(n)`` (the open cells less one on a finite
            board; a feasible count on the plane).
        wrap_bound: the bound on ``|w|``.
        floor: a lower bound on ``sum(n)`` known from earlier solves.
        cuts: the count vectors cut off (they cannot be ordered on the board).
        backend: ``'cpsat'`` (the native model is a ``CpModel``) or a
            ``model_builder`` solver name (the native model is a
            ``model_builder.Model``).
        model: the native model.
        counts: the count variables ``n[...]``, one per move.
        wraps: the wrap variables ``w[...]``, one per wrapped axis.
    """

    board: Board
    piece: Leaper
    source: Cell
    target: Cell
    moves: tuple[tuple[int, ...], ...]
    offset: tuple[int, ...]
    wrapped: tuple[int, ...]
    upper: int
    wrap_bound: int
    floor: int
    cuts: tuple[tuple[int, ...], ...]
    backend: str
    model: Any
    counts: tuple[Any, ...]
    wraps: tuple[Any, ...]

    @property
    def count_names(self) -> list[str]:
        """The count variables' names, ``n[+2,+1]`` ... in move order.

        Examples:
            >>> build_move_count_model("5x5", "a1", "c2").count_names[:2]
            ['n[+2,+1]', 'n[+2,-1]']
        """
        return [f"n[{move_label(v)}]" for v in self.moves]

    @property
    def wrap_names(self) -> list[str]:
        """The wrap variables' names, ``w[row]`` ... one per wrapped axis.

        Examples:
            >>> cylinder = Board.parse("5x5", topology="cylinder")
            >>> build_move_count_model(cylinder, "a1", "c2").wrap_names
            ['w[col]']
        """
        axes = axis_names(self.board.dim)
        return [f"w[{axes[a]}]" for a in self.wrapped]

    def decode(self, values: Values) -> dict[str, int]:
        """The non-zero move counts by move: ``{'+2,-1': 1, '-1,+2': 1}``.

        Args:
            values: the solver's values of :attr:`counts`, in order.

        Examples:
            >>> m = build_move_count_model("8x8", "a1", "b2")
            >>> m.decode([0, 1, 0, 0, 1, 0, 0, 0])
            {'+2,-1': 1, '-1,+2': 1}
        """
        return {
            move_label(v): round(x)
            for v, x in zip(self.moves, values, strict=True)
            if round(x)
        }

    def formulation(self) -> str:
        """The model printed with this instance's own numbers.

        Examples:
            >>> m = build_move_count_model("8x8", "a1", "b2")
            >>> print(m.formulation().splitlines()[0])
            move-count IP: knight (1,2) on 8x8, a1 -> b2, d = target - source = (1,1)
        """
        board = self.board
        names = self.count_names
        d_text = ",".join(str(x) for x in self.offset)
        lines = [
            f"move-count IP: {self.piece.label} on {board.label}, "
            f"{board.cell_name(self.source)} -> {board.cell_name(self.target)}, "
            f"d = target - source = ({d_text})",
            f"variables  n[v] in {{0..{self.upper}}}: how many times move v is used "
            f"({len(names)} moves)",
        ]
        if board.unbounded:
            lines.append(
                f"           ({self.upper}: the moves of one integer combination "
                "reaching d, so an upper bound)"
            )
        if self.wrapped:
            lines.append(
                f"           w[axis] in {{-{self.wrap_bound}..{self.wrap_bound}}}: "
                "how many times the walk wraps around that axis"
            )
        lines.append("minimise   " + linear_text([(1, n) for n in names]))
        lines.append("subject to (A n = d" + (" + L w" if self.wrapped else "") + ")")
        lines += self._constraint_lines()
        lines.append("notes:")
        lines += self._note_lines()
        return "\n".join(lines)

    def _constraint_lines(self) -> list[str]:
        """The rows of ``A n = d`` (and the wraps), the total, the floor, the cuts."""
        board = self.board
        names = self.count_names
        axes = axis_names(board.dim)
        lines: list[str] = []
        width = max(len(a) for a in axes)
        for a in range(board.dim):
            terms = [(v[a], n) for v, n in zip(self.moves, names, strict=True)]
            if a in self.wrapped:
                side = board.shape[a]
                terms.append((-side, f"w[{axes[a]}]"))
            lines.append(
                f"  {axes[a].rjust(width)}: {linear_text(terms)} = {self.offset[a]}"
            )
        if not board.unbounded:
            lines.append(
                f"  {'total'.rjust(width)}: sum n <= {self.upper} "
                f"(a shortest path visits each of the {self.upper + 1} open cells "
                "at most once)"
            )
        if self.floor:
            lines.append(f"  {'floor'.rjust(width)}: sum n >= {self.floor}")
        for i, cut in enumerate(self.cuts, start=1):
            total = sum(cut)
            options = [f"{n} <= {c - 1}" for n, c in zip(names, cut, strict=True) if c]
            options.append(f"sum n >= {total + 1}")
            lines.append(f"  cut {i}: " + " or ".join(options))
        return lines

    def _note_lines(self) -> list[str]:
        """Whether the optimum is the distance or a bound, on this board."""
        board = self.board
        lines: list[str] = []
        if board.unbounded:
            lines.append("  on the unbounded plane every order of the moves is a walk:")
            lines.append("  the optimum is the distance")
        elif self.wrapped and len(self.wrapped) == board.dim and not board.blocked:
            lines.append(
                "  on a torus with no blocked cell every order of the moves is"
            )
            lines.append("  a walk: the optimum is the distance")
        else:
            lines.append("  on this board the optimum is a lower bound: the moves must")
            lines.append("  also be ordered so that every cell on the way is open; a")
            lines.append("  count vector with no such order is cut off (a no-good cut)")
            lines.append("  and the model solved again")
        return lines

    def _builder(self, *, lp_names: bool) -> Any:
        model, _, _ = _builder_counts(self, lp_names=lp_names)
        return model


def build_move_count_model(
    board: Board | str,
    source: Sequence[int] | str,
    target: Sequence[int] | str,
    *,
    piece: PieceLike = KNIGHT,
    cuts: Sequence[Sequence[int]] = (),
    backend: str = "cpsat",
) -> MoveCountModel:
    """Build the move-count integer program of one query (without solving it).

    Args:
        board: the board (``'plane'`` for the unbounded board).
        source: the source cell.
        target: the target cell.
        piece: the leaper.
        cuts: count vectors to cut off, in move order.
        backend: a name in :data:`BACKENDS`; decides the native model.

    Returns:
        The bundle: native model, handles, ``decode``, ``formulation``,
        ``export``.

    Raises:
        InvalidBoardError, InvalidCellError, InvalidPieceError: bad input.
        InvalidInputError: an unknown backend.

    Notes:
        One integer per move (8 for the knight in 2D, 48 for ``(1,2,3)`` in
        3D), one per wrapped axis, one equation per axis.

    Examples:
        >>> m = build_move_count_model("8x8", "a1", "b2")
        >>> len(m.counts), m.count_names[2]
        (8, 'n[+1,+2]')
        >>> build_move_count_model("6x6", "a1", "b2", backend="torus")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: expected a backend in cpsat, scip, sat: \
'torus'
    """
    check_backend(backend, BACKENDS)
    resolved = Board.parse(board) if isinstance(board, str) else board
    leaper = as_piece(piece)
    leaper.check_dim(resolved.dim, resolved.label)
    start = resolved.parse_cell(source)
    end = resolved.parse_cell(target)
    spec = _count_spec(resolved, leaper, start, end)
    return _build_counts(
        spec, tuple(tuple(int(x) for x in c) for c in cuts), 0, backend
    )


def _build_counts(
    spec: _CountSpec,
    cuts: tuple[tuple[int, ...], ...],
    floor: int,
    backend: str,
) -> MoveCountModel:
    shell = MoveCountModel(
        board=spec.board,
        piece=spec.piece,
        source=spec.source,
        target=spec.target,
        moves=spec.moves,
        offset=spec.offset,
        wrapped=spec.wrapped,
        upper=spec.upper,
        wrap_bound=spec.wrap_bound,
        floor=floor,
        cuts=cuts,
        backend=backend,
        model=None,
        counts=(),
        wraps=(),
    )
    if backend == "cpsat":
        model, counts, wraps = _cpsat_counts(shell)
    else:
        model, counts, wraps = _builder_counts(shell, lp_names=False)
    return replace(shell, model=model, counts=tuple(counts), wraps=tuple(wraps))


def _cpsat_counts(m: MoveCountModel) -> tuple[Any, list[Any], list[Any]]:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    xs = [model.new_int_var(0, m.upper, name) for name in m.count_names]
    ws = [model.new_int_var(-m.wrap_bound, m.wrap_bound, name) for name in m.wrap_names]
    wrap_of = dict(zip(m.wrapped, ws, strict=True))
    for a in range(m.board.dim):
        coefs = [v[a] for v in m.moves]
        expr = cp_model.LinearExpr.weighted_sum(xs, coefs)
        if a in wrap_of:
            expr = expr - m.board.shape[a] * wrap_of[a]
        model.add(expr == m.offset[a])
    total = cp_model.LinearExpr.sum(xs)
    model.add(total <= m.upper)
    if m.floor:
        model.add(total >= m.floor)
    for cut in m.cuts:
        _cpsat_cut(model, xs, cut)
    model.minimize(total)
    return model, xs, ws


def _cpsat_cut(model: Any, xs: Sequence[Any], cut: Sequence[int]) -> None:
    """Cut off the count vector ``cut``: some count below it, or a longer walk."""
    from ortools.sat.python import cp_model

    options = []
    for x, c in zip(xs, cut, strict=True):
        if c:
            lit = model.new_bool_var("")
            model.add(x <= c - 1).only_enforce_if(lit)
            options.append(lit)
    longer = model.new_bool_var("")
    model.add(cp_model.LinearExpr.sum(xs) >= sum(cut) + 1).only_enforce_if(longer)
    options.append(longer)
    model.add_bool_or(options)


def _builder_counts(
    m: MoveCountModel, *, lp_names: bool
) -> tuple[Any, list[Any], list[Any]]:
    from ortools.linear_solver.python import model_builder as mb

    def name(text: str) -> str:
        return lp_name(text) if lp_names else text

    model = mb.Model()  # type: ignore[no-untyped-call]
    model.name = "move_counts"
    xs = [model.new_int_var(0, m.upper, name(n)) for n in m.count_names]
    ws = [model.new_int_var(-m.wrap_bound, m.wrap_bound, name(n)) for n in m.wrap_names]
    wrap_of = dict(zip(m.wrapped, ws, strict=True))
    axes = axis_names(m.board.dim)
    for a in range(m.board.dim):
        coefs: list[float] = [v[a] for v in m.moves]
        expr = mb.LinearExpr.weighted_sum(xs, coefs)
        if a in wrap_of:
            expr = expr - m.board.shape[a] * wrap_of[a]
        model.add(expr == m.offset[a], name=axes[a])
    total = mb.LinearExpr.sum(xs)
    if not m.board.unbounded:
        model.add(total <= m.upper, name="total")
    if m.floor:
        model.add(total >= m.floor, name="floor")
    for i, cut in enumerate(m.cuts, start=1):
        picks: list[Any] = []
        for x, c, n in zip(xs, cut, m.count_names, strict=True):
            if c:
                # pick = 1 forces n <= c - 1 (big-M: n <= upper always holds)
                pick = model.new_bool_var(name(f"cut{i}[{n}]"))
                model.add(
                    x + (m.upper - c + 1) * pick <= m.upper, name=f"cut{i}_{len(picks)}"
                )
                picks.append(pick)
        longer = model.new_bool_var(name(f"cut{i}[longer]"))
        model.add(total >= (sum(cut) + 1) * longer, name=f"cut{i}_longer")
        picks.append(longer)
        model.add(mb.LinearExpr.sum(picks) >= 1, name=f"cut{i}")
    model.minimize(total)
    return model, xs, ws


def _solve_counts(m: MoveCountModel, run: Run) -> tuple[list[int], float] | None:
    """Solve a bundle: the optimal counts and the solver's seconds, or ``None``."""
    started = time.perf_counter()
    if m.backend == "cpsat":
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        configure_cpsat(solver, run)
        solver.parameters.cp_model_presolve = False
        status, _ = solve_cpsat(solver, m.model, run)
        seconds = time.perf_counter() - started
        if status == cp_model.OPTIMAL:
            return [int(solver.value(x)) for x in m.counts], seconds
        if status == cp_model.INFEASIBLE:
            return None
        raise SolveLimitError(
            "the time limit was reached before the move-count model was solved",
            effort=Effort(branches=solver.num_branches, conflicts=solver.num_conflicts),
        )
    values = solve_builder(m.model, m.counts, m.backend, run)
    seconds = time.perf_counter() - started
    if values is None:
        return None
    return [round(v) for v in values], seconds


def solve_move_counts(
    board: Board,
    piece: Leaper,
    source: Cell,
    target: Cell,
    *,
    run: Run,
    backend: str = "cpsat",
) -> Distance:
    """Move counts, ordered, with no-good cuts, by any backend.

    Solve the move-count model; order the optimal counts into a walk on open
    cells; if there is no such order, cut that count vector off and solve
    again. The first optimum is a lower bound (``details['bound']``); the
    distance returned is exact on every board.

    Args:
        board: the board (the plane included).
        piece: the leaper.
        source: the source cell.
        target: the target cell.
        run: the run context (time limit, workers, seed; its clock).
        backend: a name in :data:`BACKENDS`.

    Returns:
        The distance, a shortest path, and ``details``: ``bound`` (the first
        optimum), ``cuts``, ``counts`` (move -> how many), ``wraps`` (on tori),
        ``backend``, ``solves`` and ``solve_seconds``.

    Raises:
        NoPathError: the target is in another component of the move graph, or
            (on the plane) not in the lattice of the moves.
        SolveLimitError: the time limit was reached.

    Examples:
        >>> from cpknight.board import Board
        >>> b = Board.parse("5x5")
        >>> from cpknight.pieces import KNIGHT
        >>> from cpknight.solving import SolveOptions
        >>> run = SolveOptions().start()
        >>> d = solve_move_counts(b, KNIGHT, (0, 0), (4, 4), run=run, backend="scip")
        >>> d.distance, d.exact, len(d.path)
        (4, True, 5)
    """
    check_backend(backend, BACKENDS)
    load_backend(backend)
    spec = _count_spec(board, piece, source, target, run)
    if not spec.reachable:
        why = (
            "the offset is not an integer combination of the moves"
            if board.unbounded
            else "they lie in different components of the move graph"
        )
        raise no_path_error(board, piece, source, target, why=why)
    done = _solve_with_cuts(spec, backend, run)
    details: dict[str, Any] = {
        "bound": done.bound,
        "cuts": done.cuts,
        "counts": done.bundle.decode(done.counts),
        "backend": backend,
        "solves": done.solves,
        "solve_seconds": round(done.solve_seconds, 6),
    }
    if spec.wrapped:
        details["wraps"] = _wraps(board, spec, done.counts)
    path = done.path
    return make_distance(
        board,
        piece,
        source,
        target,
        path,
        method="ip",
        started=run.clock.started,
        details=details,
    )


@dataclass(frozen=True)
class _Cutting:
    """The end of the cut loop: the counts ordered into ``path``, and its effort."""

    path: list[Cell]
    counts: list[int]
    bundle: MoveCountModel
    bound: int
    cuts: int
    solves: int
    solve_seconds: float


def _solve_with_cuts(spec: _CountSpec, backend: str, run: Run) -> _Cutting:
    """Solve, order the counts into a walk, cut off counts with no order, again.

    Raises:
        SolveLimitError: the limit came first (after a cut: with the bound).
        EngineError: the model is infeasible for a reachable target (a bug).
    """
    cuts: list[tuple[int, ...]] = []
    bound: int | None = None
    floor = 0
    solve_seconds = 0.0
    solves = 0
    bundle = _build_counts(spec, (), 0, backend)
    while True:
        if cuts:
            bundle = _add_cut(bundle, spec, cuts, floor)
        try:
            solution = _solve_counts(bundle, run)
        except SolveLimitError as exc:
            if not cuts:
                raise
            raise SolveLimitError(
                f"the time limit was reached after {len(cuts)} cuts, before the "
                "move-count model was solved again",
                bound=floor,
                effort=Effort(cuts=len(cuts)),
            ) from exc
        solves += 1
        if solution is None:
            raise EngineError(
                "internal error: the move-count model is infeasible for a "
                "reachable target"
            )
        counts, seconds = solution
        solve_seconds += seconds
        total = sum(counts)
        bound = total if bound is None else bound
        floor = total
        path = _order_counts(spec, counts, run)
        if path is not None:
            return _Cutting(
                path, counts, bundle, bound, len(cuts), solves, solve_seconds
            )
        cuts.append(tuple(counts))
        run.check(
            f"cutting ({len(cuts)} cuts)", bound=floor, effort=Effort(cuts=len(cuts))
        )


def _wraps(board: Board, spec: _CountSpec, counts: Sequence[int]) -> dict[str, int]:
    """On a torus or cylinder: how many times the walk goes round each axis."""
    axes = axis_names(board.dim)
    moved = [
        sum(c * v[a] for c, v in zip(counts, spec.moves, strict=True))
        for a in range(board.dim)
    ]
    return {
        axes[a]: (moved[a] - spec.offset[a]) // board.shape[a] for a in spec.wrapped
    }


def _add_cut(
    bundle: MoveCountModel,
    spec: _CountSpec,
    cuts: list[tuple[int, ...]],
    floor: int,
) -> MoveCountModel:
    """The bundle with the last of ``cuts`` and the new ``floor``.

    CP-SAT's model takes the cut in place (the bundle's record of its cuts is
    updated to match); the ``model_builder`` backends build the model again.
    """
    if bundle.backend != "cpsat":
        return _build_counts(spec, tuple(cuts), floor, bundle.backend)
    from ortools.sat.python import cp_model

    _cpsat_cut(bundle.model, bundle.counts, cuts[-1])
    if floor > bundle.floor:
        bundle.model.add(cp_model.LinearExpr.sum(bundle.counts) >= floor)
    return replace(bundle, cuts=tuple(cuts), floor=floor)


def _order_counts(
    spec: _CountSpec, counts: Sequence[int], run: Run | None = None
) -> list[Cell] | None:
    """The counts ordered into a walk on open cells, or ``None`` (under the clock)."""
    if run is not None:
        refuse_long_path(sum(counts), spec.board.label, run)
    if spec.graph is None:
        steps = np.repeat(
            np.arange(len(counts), dtype=np.int64), np.asarray(counts, dtype=np.int64)
        )
        cells = walk(spec.board, spec.piece, spec.source, steps)
        return list(map(tuple, cells.tolist()))
    check = None if run is None else run.check
    found = order_moves(spec.graph, spec.source, counts, check=check)
    return None if found is None else list(found)


def solve(instance: DistanceInstance, run: Run) -> Distance:
    """The ``ip`` distance method: move counts by CP-SAT (:func:`solve_move_counts`).

    Examples:
        >>> from cpknight import knight_distance
        >>> knight_distance("8x8", "a1", "b2", method="ip").details["cuts"] >= 1
        True
    """
    return solve_move_counts(
        instance.board, instance.piece, instance.source, instance.target, run=run
    )
