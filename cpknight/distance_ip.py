"""Distances declaratively: move counts with cuts, arc flow, and a closed form.

Three answers to "how few moves from ``source`` to ``target``", each one
cross-checked against the reference BFS (:mod:`cpknight.distance_bfs`):

``ip`` (move counts)
    With the piece's move vectors ``v_1 .. v_k`` as the columns of ``A`` and
    ``d = target - source``, find ``n`` in ``N^k`` with ``A n = d`` minimising
    ``sum(n)``: how many times each move is used, not in which order. Exact on
    the unbounded plane; on a torus or cylinder one integer wrap count per
    wrapped axis (``A n = d + L w``) makes it exact again. On a bounded board it
    is only a lower bound (a1 to b2 is 2 on the plane, 4 on 8x8), so the optimal
    counts are ordered into a walk that stays on open cells (a small memoised
    search over the multiset); when no order exists, a no-good cut removes that
    count vector and the model is solved again, until an orderable optimum is
    found. Unreachable targets are refused first, by the components of the move
    graph (finite boards) or the lattice the moves generate (the plane).
``flow`` (arc flow)
    One unit of flow from ``source`` to ``target`` over the arcs of the move
    graph, minimising the arcs used. Exact on any finite board; the constraint
    matrix is a network matrix (totally unimodular), so even the LP relaxation
    has an integral optimal vertex: the method solves just the LP (GLOP), and
    checks that its optimum is integral.
``formula`` (closed form)
    The knight's distance on the plane (OEIS A065775), and on bounded rectangles
    with both sides at least 5, where it is the same except for a corner and its
    diagonal neighbour (4 moves, not 2).

Each integer program is built first, as a frozen bundle (:class:`MoveCountModel`,
:class:`FlowModel`) holding the native model, the variable handles, ``decode``,
``formulation()`` (the model printed with the instance's numbers) and
``export(path)`` (LP or MPS through OR-Tools' ``model_builder``), and solved
after. Backends: ``cpsat`` (CP-SAT called directly: the fast path of ``ip``), ``scip``
(SCIP through ``model_builder``), ``sat`` (CP-SAT through ``model_builder``), and
for the flow also ``glop`` (the LP relaxation: the fast path of ``flow``). No
backend prints.

Examples:
    >>> from cpknight import knight_distance
    >>> d = knight_distance("8x8", "a1", "b2", method="ip")
    >>> d.distance, d.details["bound"], d.details["cuts"] >= 1
    (4, 2, True)
    >>> int(knight_distance("8x8", "a1", "b2", method="flow"))
    4
    >>> int(knight_distance("plane", "0,0", "100,57", method="formula"))
    53
"""

from __future__ import annotations

from typing import TYPE_CHECKING as _TYPE_CHECKING

if _TYPE_CHECKING:
    from cpknight.engines import DistanceInstance
    from cpknight.solving import Run

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cpknight.board import Board, Cell
from cpknight.distance_bfs import component_labels, no_path_error
from cpknight.errors import (
    EngineError,
    InvalidBoardError,
    InvalidInputError,
    InvalidPieceError,
    SolveLimitError,
)
from cpknight.pieces import (
    KNIGHT,
    Leaper,
    MoveGraph,
    PieceLike,
    as_piece,
    move_graph,
    walk,
)
from cpknight.results import Distance, make_distance
from cpknight.solving import (
    Deadline,
    SolveOptions,
    configure_cpsat,
    write_model_text,
)
from cpknight.status import Effort

__all__ = [
    "BACKENDS",
    "FLOW_BACKENDS",
    "FlowModel",
    "MoveCountModel",
    "build_flow_model",
    "build_move_count_model",
    "formula_distance",
    "knight_formula",
    "lattice_combination",
    "move_label",
    "order_moves",
    "solve_flow",
    "solve_formula",
    "solve_move_counts",
]

BACKENDS: tuple[str, ...] = ("cpsat", "scip", "sat")
"""Backends of the integer programs: CP-SAT directly, SCIP or CP-SAT through
``model_builder``."""

FLOW_BACKENDS: tuple[str, ...] = (*BACKENDS, "glop")
"""The flow model also takes ``glop``: its LP relaxation, integral (TU matrix)."""

Values = Sequence[float]
"""Solver values of a bundle's variables, in the order of its handles."""


# ----------------------------------------------------------------------- names


def move_label(vector: Sequence[int]) -> str:
    """A move vector as text with its signs: ``'+1,+2'``, ``'-2,+1'``, ``'0,+1,-2'``.

    Examples:
        >>> move_label((1, -2)), move_label((0, 2, -1))
        ('+1,-2', '0,+2,-1')
    """
    return ",".join(f"{int(x):+d}" if x else "0" for x in vector)


def _axis_names(dim: int) -> tuple[str, ...]:
    if dim == 2:
        return ("row", "col")
    if dim == 3:
        return ("layer", "row", "col")
    return tuple(f"axis{a}" for a in range(dim))


def _lp_name(name: str) -> str:
    """A name the LP format keeps as it is (no ``+``, ``-`` or ``>``)."""
    return name.replace("->", ",").replace("+", "p").replace("-", "m")


def _term(coef: int, name: str, first: bool) -> str:
    sign = "-" if coef < 0 else ("" if first else "+")
    size = abs(coef)
    body = name if size == 1 else f"{size} {name}"
    return f"{sign}{body}" if first else f"{sign} {body}"


def _linear(terms: Sequence[tuple[int, str]]) -> str:
    parts = [(c, n) for c, n in terms if c]
    if not parts:
        return "0"
    return " ".join(_term(c, n, i == 0) for i, (c, n) in enumerate(parts))


def _write_model(model: Any, path: str | Path) -> Path:
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".lp":
        text = model.export_to_lp_string()
    elif suffix == ".mps":
        text = model.export_to_mps_string()
    else:
        raise InvalidInputError(
            f"expected an export file ending in .lp or .mps: '{target}'"
        )
    write_model_text(target, text)
    return target


def _check_backend(backend: str, allowed: Sequence[str]) -> None:
    if backend not in allowed:
        raise InvalidInputError(
            f"expected a backend in {', '.join(allowed)}: {backend!r}"
        )


def _load_backend(backend: str) -> None:
    """Import the solver's module now, so that timings leave the import out."""
    if backend == "cpsat":
        from ortools.sat.python import cp_model  # noqa: F401
    else:
        from ortools.linear_solver.python import model_builder  # noqa: F401


# ------------------------------------------------------------------ reasoning


@lru_cache(maxsize=4)
def _labels(graph: MoveGraph) -> npt.NDArray[np.int32]:
    # A query's graph comes from move_graph's own cache; keep the labels of the
    # last few graphs only (all pairs of one board hit the same entry).
    return component_labels(graph)


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
    graph: MoveGraph, source: Sequence[int], counts: Sequence[int]
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
    nodes = _order_nodes(graph.table, graph.node(source), [int(c) for c in counts])
    if nodes is None:
        return None
    return tuple(graph.cell(n) for n in nodes)


def _order_nodes(
    table: npt.NDArray[np.int32], start: int, counts: list[int]
) -> list[int] | None:
    k = len(counts)
    total = sum(counts)
    remaining = list(counts)
    path = [start]
    tried = [0]
    dead: set[tuple[int, ...]] = set()
    while len(path) <= total:
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


def _count_spec(board: Board, piece: Leaper, source: Cell, target: Cell) -> _CountSpec:
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
        graph = move_graph(board, piece)
        wrapped = tuple(a for a, w in enumerate(board.wrap) if w)
        labels = _labels(graph)
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


class _LinearModel:
    """What the move-count and arc-flow models share: LP/MPS export.

    A subclass is a bundle with a ``backend`` and its native ``model``, and
    builds the same model as a ``model_builder.Model`` in ``_builder``.
    """

    backend: str
    model: Any

    def _builder(self, *, lp_names: bool) -> Any:
        raise NotImplementedError

    def builder_model(self, *, lp_names: bool = False) -> Any:
        """The same model as an OR-Tools ``model_builder.Model`` (for LP/MPS).

        Args:
            lp_names: spell ``+`` as ``p``, ``-`` as ``m`` and ``->`` as ``,``
                in names (the LP format has no room for them): ``n[p1,p2]``.

        Examples:
            >>> build_move_count_model("8x8", "a1", "b2").builder_model().num_variables
            8
            >>> build_flow_model("3x3", "a1", "c2").builder_model().num_constraints
            9
        """
        if self.backend != "cpsat" and not lp_names:
            return self.model
        return self._builder(lp_names=lp_names)

    def export(self, path: str | Path) -> Path:
        """Write the model to ``path``: LP (``.lp``) or MPS (``.mps``).

        Raises:
            InvalidInputError: another suffix, or the file cannot be written.

        Examples:
            >>> import tempfile, pathlib
            >>> m = build_move_count_model("8x8", "a1", "b2")
            >>> f = build_flow_model("3x3", "a1", "c2")
            >>> with tempfile.TemporaryDirectory() as tmp:
            ...     lp = m.export(pathlib.Path(tmp) / "a1b2.lp").read_text()
            ...     mps = f.export(pathlib.Path(tmp) / "flow.mps").read_text()
            >>> "n[p1,p2]" in lp, "arc[a1->c2]" in mps
            (True, True)
        """
        lp = Path(path).suffix.lower() == ".lp"
        return _write_model(self.builder_model(lp_names=lp), path)


@dataclass(frozen=True, eq=False)
class MoveCountModel(_LinearModel):
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
        axes = _axis_names(self.board.dim)
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
        axes = _axis_names(board.dim)
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
        lines.append("minimise   " + _linear([(1, n) for n in names]))
        lines.append("subject to (A n = d" + (" + L w" if self.wrapped else "") + ")")
        width = max(len(a) for a in axes)
        for a in range(board.dim):
            terms = [(v[a], n) for v, n in zip(self.moves, names, strict=True)]
            if a in self.wrapped:
                side = board.shape[a]
                terms.append((-side, f"w[{axes[a]}]"))
            lines.append(
                f"  {axes[a].rjust(width)}: {_linear(terms)} = {self.offset[a]}"
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
        lines.append("notes:")
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
        return "\n".join(lines)

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
    _check_backend(backend, BACKENDS)
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
        return _lp_name(text) if lp_names else text

    model = mb.Model()  # type: ignore[no-untyped-call]
    model.name = "move_counts"
    xs = [model.new_int_var(0, m.upper, name(n)) for n in m.count_names]
    ws = [model.new_int_var(-m.wrap_bound, m.wrap_bound, name(n)) for n in m.wrap_names]
    wrap_of = dict(zip(m.wrapped, ws, strict=True))
    axes = _axis_names(m.board.dim)
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


def _solve_counts(
    m: MoveCountModel, options: SolveOptions, deadline: Deadline
) -> tuple[list[int], float] | None:
    """Solve a bundle: the optimal counts and the solver's seconds, or ``None``."""
    started = time.perf_counter()
    if m.backend == "cpsat":
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        configure_cpsat(solver, options, deadline)
        solver.parameters.cp_model_presolve = False
        status = solver.solve(m.model)
        seconds = time.perf_counter() - started
        if status == cp_model.OPTIMAL:
            return [int(solver.value(x)) for x in m.counts], seconds
        if status == cp_model.INFEASIBLE:
            return None
        raise SolveLimitError(
            "the time limit was reached before the move-count model was solved",
            details={"seconds": seconds},
        )
    values = _solve_builder(m.model, m.counts, m.backend, options, deadline)
    seconds = time.perf_counter() - started
    if values is None:
        return None
    return [round(v) for v in values], seconds


def _solve_builder(
    model: Any,
    handles: Sequence[Any],
    backend: str,
    options: SolveOptions,
    deadline: Deadline,
) -> list[float] | None:
    from ortools.linear_solver.python import model_builder as mb

    solver = mb.Solver(backend)
    solver.enable_output(False)
    remaining = deadline.remaining()
    if remaining is not None:
        solver.set_time_limit_in_seconds(max(remaining, 1e-3))
    if backend == "sat":
        solver.set_solver_specific_parameters(
            f"num_workers:{max(options.workers, 1)} random_seed:{options.seed}"
        )
    status = solver.solve(model)
    if status == mb.SolveStatus.OPTIMAL:
        return [float(solver.value(h)) for h in handles]
    if status == mb.SolveStatus.INFEASIBLE:
        return None
    raise SolveLimitError(
        f"the {backend} backend stopped without an optimum ({status.name.lower()})"
    )


def solve_move_counts(
    board: Board,
    piece: Leaper,
    source: Cell,
    target: Cell,
    *,
    options: SolveOptions,
    backend: str = "cpsat",
) -> Distance:
    """The ``ip`` distance method: move counts, ordered, with no-good cuts.

    Solve the move-count model; order the optimal counts into a walk on open
    cells; if there is no such order, cut that count vector off and solve
    again. The first optimum is a lower bound (``details['bound']``); the
    distance returned is exact on every board.

    Args:
        board: the board (the plane included).
        piece: the leaper.
        source: the source cell.
        target: the target cell.
        options: time limit, workers, seed (for CP-SAT).
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
        >>> d = solve_move_counts(b, KNIGHT, (0, 0), (4, 4), options=SolveOptions())
        >>> d.distance, d.exact, len(d.path)
        (4, True, 5)
    """
    _check_backend(backend, BACKENDS)
    _load_backend(backend)
    started = time.perf_counter()
    deadline = options.deadline()
    spec = _count_spec(board, piece, source, target)
    if not spec.reachable:
        why = (
            "the offset is not an integer combination of the moves"
            if board.unbounded
            else "they lie in different components of the move graph"
        )
        raise no_path_error(board, piece, source, target, why=why)
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
            solution = _solve_counts(bundle, options, deadline)
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
        path = _order_counts(spec, counts)
        if path is not None:
            break
        cuts.append(tuple(counts))
        if deadline.expired():
            raise SolveLimitError(
                f"the time limit was reached after {len(cuts)} cuts",
                bound=floor,
                effort=Effort(cuts=len(cuts)),
            )
    details: dict[str, Any] = {
        "bound": bound,
        "cuts": len(cuts),
        "counts": bundle.decode(counts),
        "backend": backend,
        "solves": solves,
        "solve_seconds": round(solve_seconds, 6),
    }
    if spec.wrapped:
        axes = _axis_names(board.dim)
        moved = [
            sum(c * v[a] for c, v in zip(counts, spec.moves, strict=True))
            for a in range(board.dim)
        ]
        details["wraps"] = {
            axes[a]: (moved[a] - spec.offset[a]) // board.shape[a] for a in spec.wrapped
        }
    return make_distance(
        board,
        piece,
        source,
        target,
        path,
        method="ip",
        started=started,
        details=details,
    )


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


def _order_counts(spec: _CountSpec, counts: Sequence[int]) -> list[Cell] | None:
    if spec.graph is None:
        sequence = [j for j, c in enumerate(counts) for _ in range(c)]
        cells = walk(spec.board, spec.piece, spec.source, sequence)
        return [tuple(int(x) for x in row) for row in cells.tolist()]
    found = order_moves(spec.graph, spec.source, counts)
    return None if found is None else list(found)


# ------------------------------------------------------------------ arc flow


@dataclass(frozen=True, eq=False)
class FlowModel(_LinearModel):
    """The arc-flow integer program of one query, built and not yet solved.

    ``minimise sum(f)  s.t.  sum_out f - sum_in f = [v = s] - [v = t]`` at every
    node ``v``, ``f`` in ``{0, 1}`` on every arc. Build with
    :func:`build_flow_model`.

    Attributes:
        graph: the move graph.
        source: the source cell.
        target: the target cell.
        tails: the tail node of each arc.
        heads: the head node of each arc.
        backend: ``'cpsat'`` or a ``model_builder`` solver name.
        model: the native model.
        arcs: the arc variables, one per arc, ``arc[a1->b3]``.
    """

    graph: MoveGraph
    source: Cell
    target: Cell
    tails: npt.NDArray[np.int64]
    heads: npt.NDArray[np.int32]
    backend: str
    model: Any
    arcs: tuple[Any, ...]

    @property
    def board(self) -> Board:
        """The board.

        Examples:
            >>> build_flow_model("3x3", "a1", "c2").board.label
            '3x3'
        """
        return self.graph.board

    def arc_names(self) -> list[str]:
        """The arc variables' names, ``arc[a1->b3]``, in arc order.

        Examples:
            >>> build_flow_model("3x3", "a1", "c2").arc_names()[:2]
            ['arc[a1->b3]', 'arc[a1->c2]']
        """
        names = self.graph.cell_names()
        return [
            f"arc[{names[t]}->{names[h]}]"
            for t, h in zip(self.tails.tolist(), self.heads.tolist(), strict=True)
        ]

    def decode(self, values: Values) -> tuple[Cell, ...]:
        """The path carried by an optimal flow, source first.

        Raises:
            EngineError: the values are not a unit flow from source to target.

        Examples:
            >>> f = build_flow_model("3x3", "a1", "c2")
            >>> f.decode([0, 1] + [0] * 14)
            ((0, 0), (1, 2))
        """
        nxt: dict[int, int] = {}
        for t, h, x in zip(
            self.tails.tolist(), self.heads.tolist(), values, strict=True
        ):
            if x > 0.5:
                nxt[t] = h
        node = self.graph.node(self.source)
        end = self.graph.node(self.target)
        nodes = [node]
        while node != end:
            if node not in nxt or len(nodes) > len(nxt) + 1:
                raise EngineError("internal error: the flow is not a path")
            node = nxt[node]
            nodes.append(node)
        return tuple(self.graph.cell(n) for n in nodes)

    def formulation(self) -> str:
        """The model printed with this instance's own numbers (rows abridged).

        Examples:
            >>> f = build_flow_model("3x3", "a1", "c2")
            >>> print(f.formulation().splitlines()[1])
            variables  arc[u->v] in {0,1}: whether the path uses the move u -> v \
(16 arcs)
        """
        g = self.graph
        board = g.board
        names = g.cell_names()
        labels = self.arc_names()
        s, t = g.node(self.source), g.node(self.target)
        out: dict[int, list[str]] = {}
        into: dict[int, list[str]] = {}
        for label, a, b in zip(
            labels, self.tails.tolist(), self.heads.tolist(), strict=True
        ):
            out.setdefault(a, []).append(label)
            into.setdefault(b, []).append(label)
        lines = [
            f"arc-flow IP: {g.piece.label} on {board.label}, {names[s]} -> {names[t]}",
            f"variables  arc[u->v] in {{0,1}}: whether the path uses the move u -> v "
            f"({len(labels)} arcs)",
            "minimise   the number of arcs used: " + _abridged(labels, " + "),
            f"subject to flow conservation, one row per open cell ({g.n_nodes} rows):",
            "           out(v) - in(v) = 1 at the source, -1 at the target, "
            "0 elsewhere",
        ]
        shown = [s, t, *[v for v in range(g.n_nodes) if v not in (s, t)][:1]]
        for v in shown:
            rhs = 1 if v == s else -1 if v == t else 0
            terms = [(1, x) for x in out.get(v, [])] + [
                (-1, x) for x in into.get(v, [])
            ]
            lines.append(f"  {names[v]}: {_abridged_linear(terms)} = {rhs}")
        if g.n_nodes > len(shown):
            lines.append(f"  ... and {g.n_nodes - len(shown)} more rows like the last")
        lines += [
            "notes:",
            "  the constraint matrix is the node-arc incidence matrix of the move",
            "  graph, a network matrix: totally unimodular, so every vertex of the",
            "  LP relaxation is integral and the LP alone gives the distance",
            "  (method 'flow' solves just the LP, with GLOP, and checks it)",
        ]
        return "\n".join(lines)

    def _builder(self, *, lp_names: bool) -> Any:
        model, _ = _builder_flow(self, lp_names=lp_names)
        return model


def _abridged(items: Sequence[str], sep: str, keep: int = 3) -> str:
    if len(items) <= keep + 1:
        return sep.join(items)
    return sep.join(items[:keep]) + f"{sep}... ({len(items) - keep} more)"


def _abridged_linear(terms: Sequence[tuple[int, str]], keep: int = 6) -> str:
    if len(terms) <= keep + 1:
        return _linear(terms)
    return _linear(terms[:keep]) + f" ... ({len(terms) - keep} more terms)"


def build_flow_model(
    board: Board | str,
    source: Sequence[int] | str,
    target: Sequence[int] | str,
    *,
    piece: PieceLike = KNIGHT,
    backend: str = "cpsat",
) -> FlowModel:
    """Build the arc-flow integer program of one query (without solving it).

    Args:
        board: a finite board.
        source: the source cell.
        target: the target cell.
        piece: the leaper.
        backend: a name in :data:`FLOW_BACKENDS`; decides the native model.

    Returns:
        The bundle: native model, arc handles, ``decode``, ``formulation``,
        ``export``.

    Raises:
        InvalidBoardError: the board is the unbounded plane.
        InvalidInputError: an unknown backend.

    Notes:
        One variable per arc of the move graph (336 for the knight on 8x8) and
        one equation per open cell.

    Examples:
        >>> f = build_flow_model("8x8", "a1", "b2")
        >>> len(f.arcs), f.arc_names()[0]
        (336, 'arc[a1->b3]')
    """
    _check_backend(backend, FLOW_BACKENDS)
    resolved = Board.parse(board) if isinstance(board, str) else board
    resolved.require_finite("method 'flow'")
    graph = move_graph(resolved, piece)
    start = resolved.parse_cell(source)
    end = resolved.parse_cell(target)
    return _build_flow(graph, start, end, backend, names=True, deadline=None)


_CHUNK = 8192
"""Arcs or rows added to a model between two looks at the deadline."""


def _check_deadline(deadline: Deadline | None, what: str) -> None:
    if deadline is not None and deadline.expired():
        raise SolveLimitError(
            f"the time limit of {deadline.seconds:g} s was reached while {what}",
            details={"seconds": deadline.elapsed()},
        )


def _build_flow(
    graph: MoveGraph,
    start: Cell,
    end: Cell,
    backend: str,
    *,
    names: bool,
    deadline: Deadline | None,
) -> FlowModel:
    """The flow bundle; ``names=False`` leaves the variables unnamed (faster)."""
    tails, heads = graph.arcs()
    shell = FlowModel(graph, start, end, tails, heads, backend, None, ())
    if backend == "cpsat":
        model, arcs = _cpsat_flow(shell, names=names, deadline=deadline)
    else:
        model, arcs = _builder_flow(
            shell, lp_names=False, names=names, deadline=deadline
        )
    return FlowModel(graph, start, end, tails, heads, backend, model, tuple(arcs))


@dataclass(frozen=True)
class _Incidence:
    """The node-arc incidence matrix by rows, CSR-style, as lists.

    Row ``v`` (node ``v``'s flow conservation) has the arcs
    ``arcs[ptr[v]:ptr[v + 1]]`` with the coefficients at the same places: +1
    for the arcs out of ``v``, then -1 for the arcs into it.
    """

    ptr: list[int]
    arcs: list[int]
    coefs: list[int]
    rhs: list[int]


def _incidence(f: FlowModel) -> _Incidence:
    n = f.graph.n_nodes
    m = int(f.tails.shape[0])
    # Entries 0..m-1 are the +1s (row: tail), m..2m-1 the -1s (row: head); a
    # stable sort by row keeps each row's out-arcs first, in arc order.
    rows = np.concatenate([f.tails, f.heads.astype(np.int64)])
    order = np.argsort(rows, kind="stable")
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=ptr[1:])
    rhs = np.zeros(n, dtype=np.int64)
    s, t = f.graph.node(f.source), f.graph.node(f.target)
    if s != t:
        rhs[s], rhs[t] = 1, -1
    return _Incidence(
        ptr=ptr.tolist(),
        arcs=(order % max(m, 1)).tolist(),
        coefs=np.where(order < m, 1, -1).tolist(),
        rhs=rhs.tolist(),
    )


def _flow_names(f: FlowModel, names: bool, lp_names: bool) -> list[str | None]:
    if not names:
        return [None] * int(f.tails.shape[0])
    labels = f.arc_names()
    return [_lp_name(n) for n in labels] if lp_names else list(labels)


def _cpsat_flow(
    f: FlowModel, *, names: bool = True, deadline: Deadline | None = None
) -> tuple[Any, list[Any]]:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    labels = _flow_names(f, names, lp_names=False)
    arcs: list[Any] = []
    for first in range(0, len(labels), _CHUNK):
        _check_deadline(deadline, "building the flow model")
        arcs.extend(model.new_bool_var(n or "") for n in labels[first : first + _CHUNK])
    inc = _incidence(f)
    weighted_sum = cp_model.LinearExpr.weighted_sum
    for v in range(f.graph.n_nodes):
        if v % _CHUNK == 0:
            _check_deadline(deadline, "building the flow model")
        a, b = inc.ptr[v], inc.ptr[v + 1]
        terms = [arcs[i] for i in inc.arcs[a:b]]
        model.add(weighted_sum(terms, inc.coefs[a:b]) == inc.rhs[v])
    model.minimize(cp_model.LinearExpr.sum(arcs))
    return model, arcs


def _builder_flow(
    f: FlowModel,
    *,
    lp_names: bool,
    names: bool = True,
    deadline: Deadline | None = None,
) -> tuple[Any, list[Any]]:
    from ortools.linear_solver.python import model_builder as mb

    model = mb.Model()  # type: ignore[no-untyped-call]
    model.name = "arc_flow"
    labels = _flow_names(f, names, lp_names)
    arcs: list[Any] = []
    for first in range(0, len(labels), _CHUNK):
        _check_deadline(deadline, "building the flow model")
        chunk = labels[first : first + _CHUNK]
        if f.backend == "glop":
            arcs.extend(model.new_num_var(0, 1, n) for n in chunk)
        else:
            arcs.extend(model.new_bool_var(n) for n in chunk)
    inc = _incidence(f)
    coefs: list[float] = [float(c) for c in inc.coefs]
    cells = f.graph.cell_names() if names else []
    weighted_sum = mb.LinearExpr.weighted_sum
    for v in range(f.graph.n_nodes):
        if v % _CHUNK == 0:
            _check_deadline(deadline, "building the flow model")
        a, b = inc.ptr[v], inc.ptr[v + 1]
        terms = [arcs[i] for i in inc.arcs[a:b]]
        row = weighted_sum(terms, coefs[a:b]) == inc.rhs[v]
        model.add(row, name=f"flow[{cells[v]}]" if names else None)
    model.minimize(mb.LinearExpr.sum(arcs))
    return model, arcs


def solve_flow(
    board: Board,
    piece: Leaper,
    source: Cell,
    target: Cell,
    *,
    options: SolveOptions,
    backend: str = "glop",
) -> Distance:
    """The ``flow`` distance method: a unit flow over the move graph's arcs.

    By default only the LP relaxation is solved (GLOP's simplex returns a
    vertex, integral because the matrix is totally unimodular), and the
    optimum is checked to be integral; the integer backends give the same
    distance, slower.

    Args:
        board: a finite board.
        piece: the leaper.
        source: the source cell.
        target: the target cell.
        options: time limit, workers, seed.
        backend: a name in :data:`FLOW_BACKENDS`.

    Returns:
        The distance and the path the flow carries; ``details``: ``arcs``,
        ``backend``, ``solve_seconds``.

    Raises:
        InvalidBoardError: the board is the unbounded plane.
        NoPathError: the flow model is infeasible (the target is unreachable).
        SolveLimitError: the time limit was reached.

    Examples:
        >>> from cpknight.board import Board
        >>> b = Board.parse("3x3")
        >>> solve_flow(b, KNIGHT, (0, 0), (1, 2), options=SolveOptions()).distance
        1
        >>> solve_flow(b, KNIGHT, (0, 0), (1, 1), options=SolveOptions())
        Traceback (most recent call last):
        ...
        cpknight.errors.NoPathError: b2 cannot be reached from a1 by the knight \
(1,2) on board 3x3 (the flow model is infeasible)
    """
    _check_backend(backend, FLOW_BACKENDS)
    _load_backend(backend)
    started = time.perf_counter()
    deadline = options.deadline()
    board.require_finite("method 'flow'")
    graph = move_graph(board, piece)
    bundle = _build_flow(graph, source, target, backend, names=False, deadline=deadline)
    _check_deadline(deadline, "building the flow model")
    solve_started = time.perf_counter()
    values: list[float] | None
    if backend == "cpsat":
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        configure_cpsat(solver, options, deadline)
        # The LP relaxation is integral; presolve only costs time here.
        solver.parameters.cp_model_presolve = False
        status = solver.solve(bundle.model)
        if status == cp_model.OPTIMAL:
            values = [float(solver.value(x)) for x in bundle.arcs]
        elif status == cp_model.INFEASIBLE:
            values = None
        else:
            raise SolveLimitError(
                "the time limit was reached before the flow model was solved"
            )
    else:
        values = _solve_builder(bundle.model, bundle.arcs, backend, options, deadline)
    solve_seconds = time.perf_counter() - solve_started
    if values is None:
        raise no_path_error(
            board, piece, source, target, why="the flow model is infeasible"
        )
    if backend == "glop" and any(abs(v - round(v)) > 1e-6 for v in values):
        raise EngineError("internal error: the flow LP has a fractional optimum")
    path = bundle.decode(values)
    details = {
        "arcs": len(bundle.arcs),
        "backend": backend,
        "solve_seconds": round(solve_seconds, 6),
    }
    return make_distance(
        board,
        piece,
        source,
        target,
        path,
        method="flow",
        started=started,
        details=details,
    )


# ---------------------------------------------------------------- closed form


def knight_formula(offset: Sequence[int]) -> int:
    """The knight's distance on the unbounded plane for an offset ``(dr, dc)``.

    With ``X >= Y`` the absolute offsets, ``p = X - Y`` and ``q = p - Y``: 3 for
    ``(1, 0)``, 4 for ``(2, 2)``, else ``p - 2 * floor(q / r)`` with ``r = 3``
    when ``q < 0`` and ``r = 4`` otherwise.

    Raises:
        InvalidBoardError: the offset does not have two components.

    References:
        OEIS A065775 (least number of knight moves from (0,0) to (i,j) on the
        infinite board). The formula in this form: "Knight's move distance
        function", math-fun mailing list,
        https://lists.xmission.com/hyperkitty/list/mathfun@mailman.xmission.com/message/P7BHLZ42HRQK5BZAJPZJLVZWCZXLX3ED

    Examples:
        >>> [knight_formula(d) for d in [(0, 0), (0, 1), (1, 1), (2, 2), (99, 99)]]
        [0, 3, 2, 4, 66]
    """
    if len(offset) != 2:
        raise InvalidBoardError(
            f"the knight formula takes a 2D offset: {tuple(offset)!r}"
        )
    x, y = abs(int(offset[0])), abs(int(offset[1]))
    if x < y:
        x, y = y, x
    if (x, y) == (1, 0):
        return 3
    if (x, y) == (2, 2):
        return 4
    p = x - y
    q = p - y
    r = 3 if q < 0 else 4
    return p - 2 * (q // r)


def formula_distance(board: Board, source: Cell, target: Cell) -> tuple[int, str]:
    """The knight's distance by the closed form, and which case gave it.

    On the plane it is :func:`knight_formula`. On a bounded rectangle with both
    sides at least 5 and no blocked cell it is the same, except that a corner
    and its diagonal neighbour are 4 moves apart, not 2.

    Returns:
        ``(distance, case)`` with case ``'plane'``, ``'rectangle'`` or
        ``'corner'``.

    Raises:
        InvalidBoardError: any other board (the formula does not apply).

    References:
        For the rectangle: the same math-fun post ("if [0, 0] lay at a corner
        the definition would require another special case: 4 if [X, Y] = [1, 1]");
        checked against BFS for all pairs on every board from 5x5 to 12x12 in
        the tests.

    Examples:
        >>> b = Board.parse("8x8")
        >>> formula_distance(b, (0, 0), (1, 1)), formula_distance(b, (2, 2), (3, 3))
        ((4, 'corner'), (2, 'rectangle'))
    """
    if board.dim != 2:
        raise InvalidBoardError(
            f"method 'formula' answers on 2D boards only: board {board.label}"
        )
    offset = (target[0] - source[0], target[1] - source[1])
    if board.unbounded:
        return knight_formula(offset), "plane"
    if board.topology != "bounded" or board.blocked or min(board.shape) < 5:
        raise InvalidBoardError(
            "method 'formula' needs the plane or a bounded rectangle with both "
            f"sides at least 5 and no blocked cell: board {board.label}"
        )
    rows, cols = board.shape

    def corner(cell: Cell) -> bool:
        return cell[0] in (0, rows - 1) and cell[1] in (0, cols - 1)

    if abs(offset[0]) == abs(offset[1]) == 1 and (corner(source) or corner(target)):
        return 4, "corner"
    return knight_formula(offset), "rectangle"


def solve_formula(
    board: Board,
    piece: Leaper,
    source: Cell,
    target: Cell,
    *,
    options: SolveOptions,
) -> Distance:
    """The ``formula`` distance method: the knight's closed form (no path).

    Raises:
        InvalidPieceError: the piece is not the knight.
        InvalidBoardError: a board the formula does not cover.

    Examples:
        >>> d = solve_formula(Board.plane(), KNIGHT, (0, 0), (100, 57),
        ...                   options=SolveOptions())
        >>> d.distance, d.path, d.details
        (53, None, {'case': 'plane'})
    """
    started = time.perf_counter()
    if piece != KNIGHT:
        raise InvalidPieceError(
            f"method 'formula' knows the knight (1,2) only: {piece.label}"
        )
    distance, case = formula_distance(board, source, target)
    return Distance(
        board=board,
        piece=piece,
        source=source,
        target=target,
        distance=distance,
        path=None,
        method="formula",
        exact=True,
        seconds=time.perf_counter() - started,
        details={"case": case},
    )


def solve_move_counts_instance(instance: DistanceInstance, run: Run) -> Distance:
    """The ``ip`` method in the engine contract's call shape."""
    return solve_move_counts(
        instance.board,
        instance.piece,
        instance.source,
        instance.target,
        options=run.options,
    )


def solve_flow_instance(instance: DistanceInstance, run: Run) -> Distance:
    """The ``flow`` method in the engine contract's call shape."""
    return solve_flow(
        instance.board,
        instance.piece,
        instance.source,
        instance.target,
        options=run.options,
    )


def solve_formula_instance(instance: DistanceInstance, run: Run) -> Distance:
    """The ``formula`` method in the engine contract's call shape."""
    return solve_formula(
        instance.board,
        instance.piece,
        instance.source,
        instance.target,
        options=run.options,
    )
