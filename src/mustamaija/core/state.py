"""What every game's ``State`` shares: the step API around ``legal_mask`` and ``apply``, the log, copies.

A game's state class subclasses :class:`StepState`, declares its
``__slots__`` and :attr:`~StepState.NUM_STEPS`, and writes what is its own:
``legal_mask``, ``verify_step``, ``apply``, the compound-action checks, the
transitions and ``copy`` (one assignment per slot, written out: search copies
states more than anything). Each ``verify_x`` has a ``can_x`` twin that calls
it through :func:`passes`.

The classes are plain enough for mypyc to compile (docs/architecture.md): no
class is built or patched at run time.

>>> from mustamaija.core.registry import DEFAULT_GAME, get_game
>>> s = get_game(DEFAULT_GAME).deal(4, seed=3)
>>> t = s.step(s.legal_actions()[0])
>>> s.can_step(52), s.can_step(True), s == s.copy(), s == t, len(t.actions())
(False, False, True, False, 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from types import GetSetDescriptorType, MemberDescriptorType
from typing import Any, ClassVar, Self

from mustamaija.core.bits import popcount
from mustamaija.core.cards import cards_of
from mustamaija.core.draws import below
from mustamaija.core.errors import CardError, IllegalActionError
from mustamaija.core.history import History, Log, entry_action

__all__ = ["StepState", "passes", "state_fields"]

def passes(check: Callable[..., None], *args: Any) -> bool:
    """Return whether ``check(*args)`` (a ``verify_x`` method) accepts its arguments: each ``can_x`` is one call of it.

    So the three forms of a check (``verify_x`` raises, ``can_x`` tests, ``x``
    acts) cannot disagree.
    """
    try:
        check(*args)
    except (IllegalActionError, CardError):
        return False
    return True


def state_fields(cls: type) -> list[str]:
    """Return the names of the fields of a state class (its slots), in either build.

    A pure-Python class lists them in ``__slots__``; a class compiled by mypyc
    has no ``__slots__`` but one attribute descriptor per field, as a slot is.

    >>> from mustamaija.core.registry import DEFAULT_GAME, get_game
    >>> fields = state_fields(type(get_game(DEFAULT_GAME).deal(3, seed=1)))
    >>> "hands" in fields and "_legal" in fields and "copy" not in fields
    True
    """
    return sorted({name for klass in cls.__mro__ for name, value in vars(klass).items()
                   if isinstance(value, MemberDescriptorType | GetSetDescriptorType) and not name.startswith("__")})


class StepState:
    """The step API and the log of a game's state (mixed into a class with ``__slots__``)."""

    __slots__ = ()

    NUM_STEPS: ClassVar[int]
    """The size of the game's fixed step space."""
    RULES: ClassVar[Any]
    """The game's rule set class."""
    PHASE_NAMES: ClassVar[Sequence[str]]
    """The names of the phases, by number (``replay --json`` shows them)."""
    OVER_PHASE: ClassVar[int]
    """The phase of a deal that is over."""

    n: int
    """The number of seats."""
    dealer: int
    """The dealer's seat."""
    deck: tuple[int, ...] | None
    """The deck dealt from, top card first (``None`` for a state that was set up or sampled, not dealt)."""
    hands: list[int]
    """Every seat's hand, as a card mask."""
    phase: int
    """The phase: what the seat to act chooses (the game's ``Phase``)."""
    log: Log
    """The compound actions taken so far: ``None`` or ``(last entry, earlier log)`` (see :mod:`~mustamaija.core.history`)."""
    nlog: int
    """The number of compound actions in :attr:`log`."""
    _legal: int
    """The legal-step mask, cached; -1 when it must be computed again."""

    # -- the game's part -------------------------------------------------------------

    def legal_mask(self) -> int:
        """Return the legal steps as a mask: bit ``i`` is set when step ``i`` is legal (0 when over)."""
        raise NotImplementedError

    def apply(self, step: int) -> None:
        """Take one step in place; an illegal step raises and changes nothing."""
        raise NotImplementedError

    def _explain_step(self, step: int) -> None:
        """Raise the :class:`IllegalActionError` that says why ``step``, a number of the step space, is illegal now."""
        raise NotImplementedError

    def _over_error(self) -> IllegalActionError:
        """Return the error of an action tried once the deal is over (naming the rule that ended it)."""
        raise NotImplementedError


    def copy(self) -> Self:
        """Return an independent copy: the lists of hands new, everything else shared (it is immutable)."""
        raise NotImplementedError

    def _key(self) -> tuple[Any, ...]:
        """Return everything that makes the position and its history, for ``==``."""
        raise NotImplementedError

    # -- shared --------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Return the number of seats."""
        return self.n

    @property
    def phase_name(self) -> str:
        """Return the name of the phase."""
        return self.PHASE_NAMES[self.phase]

    @property
    def is_over(self) -> bool:
        """Return whether no more actions can be taken."""
        return self.phase == self.OVER_PHASE

    def legal_actions(self) -> list[int]:
        """Return the legal steps in rising order."""
        return cards_of(self.legal_mask())  # The same bit walk serves card masks and step masks.

    def verify_step(self, step: object) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless ``step`` is legal now."""
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < self.NUM_STEPS:
            raise IllegalActionError("steps", f"no step has the number {step!r}: steps are 0 to {self.NUM_STEPS - 1}")
        if self.legal_mask() >> step & 1:
            return
        if self.phase == self.OVER_PHASE:
            raise self._over_error()
        self._explain_step(step)

    def can_step(self, step: object) -> bool:
        """Return whether ``step`` is legal now."""
        return type(step) is int and 0 <= step < self.NUM_STEPS and bool(self.legal_mask() >> step & 1)

    def play_out_randomly(self, rng: random.Random) -> int:
        """Play uniformly random legal steps to the end of the deal, in place; return the number of steps.

        A whole random playout in one call: the same deal as
        ``while not s.is_over: s.apply(rng.choice(s.legal_actions()))`` with
        the same generator, since it draws the same numbers (``choice`` of
        ``range(count)`` picks the same index as ``choice`` of a list of that
        length), but with no list per step, and no legality check but one bit
        of the mask already computed. In the compiled build the whole loop
        runs in C but for the generator's calls, which skip ``choice``'s
        Python frames (:func:`mustamaija.core.draws.below`).

        >>> from mustamaija.core.registry import DEFAULT_GAME, get_game
        >>> a, b = get_game(DEFAULT_GAME).deal(4, seed=5), get_game(DEFAULT_GAME).deal(4, seed=5)
        >>> ra, rb = random.Random(9), random.Random(9)
        >>> while not b.is_over:
        ...     b.apply(rb.choice(b.legal_actions()))
        >>> a.play_out_randomly(ra) > 0, a == b, ra.random() == rb.random()
        (True, True, True)
        """
        over = self.OVER_PHASE
        steps = 0
        while self.phase != over:
            mask = self.legal_mask()
            skip = below(rng, popcount(mask))  # Compiled, a method call on a mask boxes it.
            while skip:
                mask &= mask - 1
                skip -= 1
            self.apply((mask & -mask).bit_length() - 1)
            steps += 1
        return steps

    def step(self, step: int) -> Self:
        """Return a copy with one step taken; this state is unchanged."""
        s = self.copy()
        s.apply(step)
        return s

    def actions(self) -> list[Any]:
        """Return the compound actions taken so far, in order (the record's action list)."""
        return list(self.history())

    def history(self) -> History:
        """Return the compound actions taken so far as a lazy sequence that shares this state's log.

        Two histories compare equal without building their actions when the
        states share the older part of their logs, as copies do.
        """
        return History(self.log, self.nlog, self.ACTION_KINDS)

    def last_action(self) -> Any:
        """Return the last compound action taken (the record's last action), or ``None`` before the first."""
        return None if self.log is None else entry_action(self.ACTION_KINDS, self.log[0])

    ACTION_KINDS: ClassVar[tuple[Callable[[int, Any], Any], ...]]
    """The game's compound action classes by the kind of their log entries: entry ``(k, seat, data)`` is ``ACTION_KINDS[k](seat, data)``."""
    ACTIONS: ClassVar[dict[type, tuple[Any, Any]]]
    """The game's compound actions: action class -> (check, transition), each a function of (state, action)."""

    def verify(self, action: Any) -> None:
        """Raise :class:`IllegalActionError` unless the compound action is legal now."""
        entry = self.ACTIONS.get(type(action))
        if entry is None:
            raise TypeError(f"not an action: {action!r}")
        entry[0](self, action)

    def play(self, action: Any) -> None:
        """Take a compound action in place, after checking it."""
        self.verify(action)
        self._legal = -1  # type: ignore[misc]  # The subclass declares the slot.
        self.ACTIONS[type(action)][1](self, action)

    def can_play(self, action: Any) -> bool:
        """Return whether the compound action is legal now."""
        try:
            self.verify(action)
        except (IllegalActionError, CardError):
            return False
        return True

    def _push(self, kind: int, seat: int, data: Any) -> None:
        # The subclass declares the slots; the mixin's own __slots__ is empty.
        self.log = ((kind, seat, data), self.log)  # type: ignore[misc]
        self.nlog += 1  # type: ignore[misc]

    def __eq__(self, other: object) -> bool:
        """Return whether two states are the same position with the same history."""
        return type(other) is type(self) and self._key() == other._key()

    # No __hash__: a class that defines __eq__ alone is unhashable, as a mutable state must be (and an explicit
    # ``__hash__ = None`` would be a field of the compiled class, which pickling then tries to set).
