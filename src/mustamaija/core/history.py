"""The action log: a persistent linked list that states share, and a lazy sequence view of it.

A state's log is ``None`` or a pair ``(last entry, earlier log)``, so a copy
of a state shares its whole history and appending costs one tuple. An entry
is a plain tuple ``(kind, seat, data)``, cheap to make on the hot path of
play; the compound action it stands for, ``kinds[kind](seat, data)`` for the
game's action classes ``kinds``, is made only when somebody reads it. A
:class:`History` shows such a log as an immutable sequence of actions, built
only when read.

>>> from mustamaija.games.mustamaija.actions import Declare, Lead
>>> kinds = (Lead, Declare)
>>> log = ((1, 1, 2), ((1, 0, 1), None))
>>> h = History(log, 2, kinds)
>>> len(h), h[0], h == (Declare(0, 1), Declare(1, 2)), entry_action(kinds, log[0])
(2, Declare(seat=0, suit=1), True, Declare(seat=1, suit=2))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

__all__ = ["Entry", "History", "Log", "entry_action"]

Action = Any
"""A game's compound action (frozen)."""

Entry = tuple[int, int, Any]
"""A log entry: ``(kind, seat, data)``, the action ``kinds[kind](seat, data)``."""

Log = tuple[Entry, Any] | None
"""``None`` or ``(last entry, earlier log)``."""


def entry_action(kinds: Sequence[Callable[[int, Any], Action]], entry: Entry) -> Action:
    """Return the compound action of a log entry, given the game's action classes by kind."""
    return kinds[entry[0]](entry[1], entry[2])


def _same_actions(a: Log, b: Log, kinds: Sequence[Callable[[int, Any], Action]]) -> bool:
    """Return whether two logs of the same length hold the same actions.

    Copies of a state share the older part of their log, so the walk from the
    newest entries usually stops at a shared node after a few steps, and no
    action is built unless two entries differ as tuples.
    """
    while a is not b and a is not None and b is not None:
        if a[0] != b[0] and entry_action(kinds, a[0]) != entry_action(kinds, b[0]):
            return False
        a, b = a[1], b[1]
    return a is b


class History(Sequence[Action]):
    """The actions of a log, oldest first, as a lazily built immutable sequence."""

    __slots__ = ("_items", "_kinds", "_len", "_node")

    def __init__(self, node: Log, length: int, kinds: Sequence[Callable[[int, Any], Action]]) -> None:
        self._node = node
        self._len = length
        self._kinds = kinds
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
            kinds = self._kinds
            while node is not None:
                out.append(entry_action(kinds, node[0]))
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
            if self._len != other._len:
                return False
            if self._kinds is other._kinds:
                return _same_actions(self._node, other._node, self._kinds)
            return self.items() == other.items()
        if isinstance(other, (tuple, list)):
            return self.items() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.items())

    def __repr__(self) -> str:
        return f"History({list(self.items())!r})"
