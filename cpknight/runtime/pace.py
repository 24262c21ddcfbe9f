"""How much work a compiled call gets between two checks of the clock.

A compiled loop cannot be interrupted, so a program hands it work in
slices and checks the clock (and Ctrl-C) between them. A fixed slice is too
big on a loaded machine and too small on a quiet one: :class:`Pace` halves
the slice after one that took longer than ``seconds`` and doubles it after
one that took under a quarter of that, between ``least`` and ``most``. (The
dense counting kernel's fixed chunks took 1.8 s each on the closed 2x4x4
box with both cores busy, and it passed a 10 s limit by 1.5 s.)

Examples:
    >>> pace = Pace(1024, seconds=0.25)
    >>> pace.took(1.0); pace.size
    512
    >>> pace.took(0.01); pace.size
    1024
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Pace"]


@dataclass
class Pace:
    """A slice of work, halved or doubled by how long the last one took.

    Attributes:
        most: the largest slice (and the first).
        seconds: what one slice may take.
        least: the smallest slice.
        size: the slice now.
    """

    most: int
    seconds: float = 0.25
    least: int = 256
    size: int = field(init=False)

    def __post_init__(self) -> None:
        self.size = self.most

    def took(self, seconds: float) -> None:
        """The last slice took ``seconds``: halve or double the next ones."""
        if seconds > self.seconds:
            self.size = max(self.least, self.size // 2)
        elif seconds < self.seconds / 4:
            self.size = min(self.most, self.size * 2)
