"""One progress shape for every long call, and a tqdm bar that draws it.

Every front door that can run for long (``sweep``, ``count_tours``,
``compare_tours``, ``longest_path``, ``collect``, the distance integer
programs, ``run_study`` ...) takes ``progress=``: ``True`` draws a
``tqdm.auto`` bar (a widget in Jupyter, a line on standard error elsewhere);
a callable is called with a :class:`Progress` now and then; ``False`` or
``None`` shows nothing.

Examples:
    >>> seen = []
    >>> with progress_bar(seen.append, desc="demo", unit="cells", total=3) as tick:
    ...     tick(Progress(2, 3, "cells"))
    >>> seen[0].done, seen[0].fraction
    (2, 0.6666666666666666)
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

__all__ = [
    "Progress",
    "ProgressCallback",
    "ProgressLike",
    "TaskProgress",
    "as_callback",
    "progress_bar",
]


@dataclass(frozen=True)
class Progress:
    """How far a long call has come: the one shape every progress callback gets.

    Attributes:
        done: the units done so far (cells, tasks, engines, tours; seconds for
            a single solve, which has no other measure).
        total: the units in all, or ``None`` when not known (tours counted
            by enumeration, a solve without a time limit).
        unit: what is counted: ``'cells'``, ``'pairs'``, ``'runs'``,
            ``'shards'``, ``'engines'``, ``'tours'`` or ``'s'``.
        what: a few words on what is being done (the engine running, the
            live states of a count, what a solve is doing).
        value: the partial answer where there is one (a count so far), or
            ``None``.

    Examples:
        >>> Progress(3, 12, "cells").fraction
        0.25
        >>> Progress(5, None, "tours").fraction is None
        True
    """

    done: float
    total: float | None
    unit: str = "tasks"
    what: str = ""
    value: Any = None

    @property
    def fraction(self) -> float | None:
        """``done / total``, or ``None`` without a total."""
        if not self.total:
            return None
        return min(1.0, self.done / self.total)

    if not TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any:
            # ``count_tours(progress=...)`` used to call back with the partial
            # TourCount itself: its attributes still answer, for one release.
            value = self.__dict__.get("value")
            if value is None or name.startswith("__"):
                raise AttributeError(name)
            warnings.warn(
                f"a progress callback now gets a Progress; read "
                f"progress.value.{name} instead of progress.{name}",
                DeprecationWarning,
                stacklevel=2,
            )
            return getattr(value, name)


ProgressCallback = Callable[[Progress], None]
"""What a progress callback is: called with a :class:`Progress`."""

ProgressLike = bool | ProgressCallback | None
"""What ``progress=`` takes: ``True`` (a bar), a callback, or ``False``/``None``."""

TaskProgress = Callable[[int, int], None]
"""The old ``progress(done, total)`` of ``sweep``, ``run_study`` and
``sweep_pairs``: still taken, with a :class:`DeprecationWarning`."""


def _positional(callback: Callable[..., Any]) -> int:
    """How many positional arguments ``callback`` requires (-1 if not known)."""
    import inspect

    try:
        parameters = inspect.signature(callback).parameters.values()
    except (TypeError, ValueError):
        return -1
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in parameters if p.kind in kinds and p.default is p.empty)


def as_callback(progress: ProgressLike | Callable[..., Any]) -> ProgressCallback | None:
    """A :class:`Progress` callback from a callable, old shapes adapted.

    ``progress(done, total)`` (the shape ``sweep``, ``run_study`` and
    ``sweep_pairs`` took before) still works, with a :class:`DeprecationWarning`.
    ``True`` is not a callback (use :func:`progress_bar`): it gives ``None``.

    Examples:
        >>> import warnings
        >>> seen = []
        >>> with warnings.catch_warnings(record=True):
        ...     warnings.simplefilter("always")
        ...     as_callback(lambda done, total: seen.append((done, total)))(
        ...         Progress(1, 4, "cells"))
        >>> seen
        [(1, 4)]
    """
    if progress is None or isinstance(progress, bool):
        return None
    if _positional(progress) == 2:
        warnings.warn(
            "progress(done, total) is deprecated: a progress callback takes one "
            "Progress (progress.done, progress.total)",
            DeprecationWarning,
            stacklevel=3,
        )
        old: Callable[..., Any] = progress

        def adapted(p: Progress) -> None:
            old(int(p.done), None if p.total is None else int(p.total))

        return adapted
    return progress


@contextmanager
def progress_bar(
    progress: ProgressLike | Callable[..., Any],
    *,
    desc: str,
    unit: str = "tasks",
    total: float | None = None,
) -> Iterator[ProgressCallback | None]:
    """The callback of ``progress=``: a tqdm bar for ``True``, closed on leaving.

    Args:
        progress: ``True`` for a ``tqdm.auto`` bar, a callable (see
            :func:`as_callback`), or ``False``/``None`` for nothing.
        desc: the bar's label (``'sweep 8x8'``).
        unit: what the bar counts (``'cells'``; ``'s'`` for a single solve).
        total: the units in all, if known before the first call.

    Yields:
        The callback to hand the work (``None`` when nothing is shown).
    """
    if progress is not True:
        yield as_callback(progress)
        return
    from tqdm.auto import tqdm

    seconds = unit == "s"  # a single solve: seconds spent of the time limit
    form = (
        "{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:g} s{postfix}"
        if seconds and total
        else "{desc}: {n:.0f} s{postfix}"
        if seconds
        else None
    )
    bar = tqdm(
        total=total,
        desc=desc,
        unit=unit,
        leave=False,
        dynamic_ncols=True,
        bar_format=form,
    )

    def tick(p: Progress) -> None:
        if p.total != bar.total:
            bar.total = p.total
        # tqdm drops the total once n passes it, and the seconds bar's format
        # needs it: a solve heard after its limit shows the limit
        bar.n = min(p.done, p.total) if p.total else p.done
        if p.what:
            bar.set_postfix_str(p.what, refresh=False)
        bar.refresh()

    try:
        yield tick
    finally:
        bar.close()
