"""The action log: a persistent linked list that states share, and a lazy sequence view of it.

A state's log is ``None`` or a pair ``(last_action, earlier_log)``, so a copy
of a state shares its whole history and appending costs one tuple. A
:class:`History` shows such a log as an immutable sequence, built only when
somebody reads it.

>>> from mustamaija.games.mustamaija.actions import Declare
>>> log = (Declare(1, 2), (Declare(0, 1), None))
>>> h = History(log, 2)
>>> len(h), h[0], h == (Declare(0, 1), Declare(1, 2))
(2, Declare(seat=0, suit=1), True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

__all__ = ["History", "Log"]

Action = Any
"""A game's compound action (frozen)."""

Log = tuple[Action, Any] | None
"""``None`` or ``(last action, earlier log)``."""


class History(Sequence[Action]):
    """The actions of a log, oldest first, as a lazily built immutable sequence."""

    __slots__ = ("_items", "_len", "_node")

    def __init__(self, node: Log, length: int) -> None:
        self._node = node
        self._len = length
        self._items: tuple[Action, ...] | None = None

    @property
    def node(self) -> Log:
        """Return the underlying log, for states built from this history."""
        return self._node

    def items(self) -> tuple[Action, ...]:
        """Return the actions as a tuple, oldest first."""
        if self._items is None:
            out = []
            node = self._node
            while node is not None:
                out.append(node[0])
                node = node[1]
            out.reverse()
            self._items = tuple(out)
        return self._items

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        return self.items()[index]

    def __iter__(self) -> Iterator[Action]:
        return iter(self.items())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._node is other._node or (self._len == other._len and self.items() == other.items())
        if isinstance(other, (tuple, list)):
            return self.items() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.items())

    def __repr__(self) -> str:
        return f"History({list(self.items())!r})"
