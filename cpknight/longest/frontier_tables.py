"""The longest-path frontier program's static tables: what each added cell sees.

The cells are added in the order of :func:`cpknight.frontier.plan.plan_frontier`
(row by row along the long side). For each step this module says which
earlier cells (frontier slots) the new cell may join, which slots leave after
it, and, for uncrossed paths, how the crossing condition is kept local.

**Crossings, kept local.** A move is *decided* when its later cell is added.
A decided move matters to the cells still to come only while some move not yet
decided can cross it; for those moves alone the state keeps one bit, *used*.
Each such move holds a *register* (a bit of the state's crossing word) from
the step it is decided until the last step that decides a move crossing it;
then the register is cleared and given to a later move, so the word stays as
narrow as the moves in flight and equal states stay equal. When the new cell
takes a move, the move's ``cross`` mask (the registers of the earlier moves it
crosses) must not meet the used bits; two moves taken at the same step must not
cross each other either (they share a cell, so a single leaper's never do).

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.longest.common import LongestInstance
    >>> from cpknight.pieces import KNIGHT
    >>> inst = LongestInstance(board=Board.parse("5x5"), piece=KNIGHT,
    ...                        kind="uncrossed")
    >>> t = longest_tables(inst)
    >>> t.width, len(t.steps), t.registers
    (12, 25, 16)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cpknight.frontier.plan import plan_frontier
from cpknight.longest.common import LongestInstance
from cpknight.longest.geometry import crossing_pairs, move_edges

__all__ = ["LongestStep", "LongestTables", "longest_tables"]


@dataclass(frozen=True)
class LongestStep:
    """One cell added, with what the longest-path program needs of it.

    Attributes:
        node: the move-graph node added (it takes the last slot).
        width: the frontier's width with the new cell.
        back: the slots of its earlier neighbours, ascending, each once.
        leaving: the slots (of ``width``) that leave after this step.
        frontier: the node in each slot while the cell is added.
        cross: per back slot, the registers of earlier moves its move crosses.
        register: per back slot, the register bit its move takes (0: none, the
            move can no longer be crossed).
        clash: pairs of back slots (indices into ``back``) whose moves cross.
        keep: the registers still held after the step (the others cleared).
        relevant: after the step, ``(bit, slots)`` per register whose move
            can be crossed only by moves from the cells in ``slots`` (numbered
            after the leavers are gone): once all are full, the bit is cleared.
        dead: after the step, ``(slot, masks)`` per cell with a move still to
            come: one register mask per such move, the used moves it crosses;
            a cell with no move yet whose every move meets its mask can take
            none and is made full.
    """

    node: int
    width: int
    back: tuple[int, ...]
    leaving: tuple[int, ...]
    frontier: tuple[int, ...]
    cross: tuple[int, ...]
    register: tuple[int, ...]
    clash: frozenset[tuple[int, int]]
    keep: int
    relevant: tuple[tuple[int, tuple[int, ...]], ...] = ()
    dead: tuple[tuple[int, tuple[int, ...]], ...] = ()


@dataclass(frozen=True)
class LongestTables:
    """The steps of a longest-path frontier program.

    Attributes:
        kind: ``'uncrossed'`` or ``'induced'``.
        closed: cycles rather than paths.
        steps: one :class:`LongestStep` per cell.
        axes: the axis order of the cell order (the major axis first).
        registers: how many crossing registers the widest step holds.
        period: the cells of a row of the order (its major axis's slices).
    """

    kind: str
    closed: bool
    steps: tuple[LongestStep, ...]
    axes: tuple[int, ...]
    registers: int
    period: int = 1

    @property
    def width(self) -> int:
        """The widest frontier (slots)."""
        return max((s.width for s in self.steps), default=0)


def longest_tables(
    instance: LongestInstance, check: Callable[[], None] | None = None
) -> LongestTables:
    """The program's steps for ``instance`` (crossing registers if uncrossed).

    Args:
        instance: the question.
        check: called now and then (the run's clock).
    """
    graph = instance.graph
    plan = plan_frontier(graph, closed=False)
    pos = {node: i for i, node in enumerate(plan.order)}
    uncrossed = instance.kind == "uncrossed"
    edge_id: dict[tuple[int, int], int] = {}
    crosses: list[list[int]] = []
    last_cross: list[int] = []
    if uncrossed:
        edges = move_edges(graph)
        edge_id = {e: k for k, e in enumerate(edges)}
        crosses = [[] for _ in edges]
        for i, j in crossing_pairs(graph, edges, check):
            crosses[i].append(j)
            crosses[j].append(i)
        decided = [max(pos[u], pos[v]) for u, v in edges]
        last_cross = [max((decided[f] for f in c), default=-1) for c in crosses]
    edges_of: list[list[tuple[int, int]]] = [[] for _ in range(graph.n_nodes)]
    if uncrossed:
        for k, (u, v) in enumerate(edges):
            edges_of[u].append((k, v))
            edges_of[v].append((k, u))
    holder: dict[int, int] = {}  # edge -> register
    free: list[int] = []
    top = 0
    frontier: list[int] = []
    steps = []
    for i, step in enumerate(plan.steps):
        frontier.append(step.node)
        back = tuple(sorted(set(step.back)))
        cross: list[int] = []
        register: list[int] = []
        clash: set[tuple[int, int]] = set()
        keep = 0
        if uncrossed:
            mine = [edge_id[_pair(frontier[s], step.node)] for s in back]
            for e in mine:
                cross.append(sum(1 << holder[f] for f in crosses[e] if f in holder))
            clash = {
                (a, b)
                for a in range(len(mine))
                for b in range(a + 1, len(mine))
                if mine[b] in crosses[mine[a]]
            }
            for f in [f for f in holder if last_cross[f] <= i]:
                free.append(holder.pop(f))
            free.sort(reverse=True)
            keep = sum(1 << r for r in holder.values())  # not the new moves'
            for e in mine:
                if last_cross[e] > i:
                    if not free:
                        free.append(top)
                        top += 1
                    holder[e] = free.pop()
                    register.append(1 << holder[e])
                else:
                    register.append(0)
        else:
            cross = [0] * len(back)
            register = [0] * len(back)
        gone = set(step.leaving)
        after = [u for s, u in enumerate(frontier) if s not in gone]
        relevant: list[tuple[int, tuple[int, ...]]] = []
        dead: list[tuple[int, tuple[int, ...]]] = []
        if uncrossed:
            slot_after = {u: k for k, u in enumerate(after)}
            for f, r in sorted(holder.items(), key=lambda item: item[1]):
                slots: set[int] = set()
                always = False
                for g in crosses[f]:
                    a, b = edges[g]
                    early, late = sorted((pos[a], pos[b]))
                    if late <= i:
                        continue
                    if early > i:
                        always = True
                        break
                    slots.add(slot_after[plan.order[early]])
                if not always:
                    relevant.append((1 << r, tuple(sorted(slots))))
            for k, u in enumerate(after):
                masks = []
                for g, w in edges_of[u]:
                    if pos[w] > i:
                        masks.append(
                            sum(1 << holder[f] for f in crosses[g] if f in holder)
                        )
                if masks and all(masks):
                    dead.append((k, tuple(masks)))
        steps.append(
            LongestStep(
                node=step.node,
                width=step.width,
                back=back,
                leaving=step.leaving,
                frontier=tuple(frontier),
                cross=tuple(cross),
                register=tuple(register),
                clash=frozenset(clash),
                keep=keep,
                relevant=tuple(relevant),
                dead=tuple(dead),
            )
        )
        frontier = after
    return LongestTables(
        kind=instance.kind,
        closed=instance.closed,
        steps=tuple(steps),
        axes=plan.axes,
        registers=top,
        period=max(1, len(plan.order) // instance.board.shape[plan.axes[0]]),
    )


def _pair(u: int, v: int) -> tuple[int, int]:
    return (u, v) if u < v else (v, u)
