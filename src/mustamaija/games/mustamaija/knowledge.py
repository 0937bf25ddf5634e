"""What a seat knows of a Mustamaija deal beyond its public fields: the core of the visibility function (M22).

:func:`knowledge` is the one computation of it: :func:`~mustamaija.games.mustamaija.view.view_of`
builds a seat's view from it, and the observation encoder
(:func:`~mustamaija.games.mustamaija.observation.observation_for`) reads it
without building a view. It is a module of its own so that the compiled build
compiles it (docs/architecture.md#builds): the research adapters ask for it at
every step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mustamaija.core.cards import ALL_CARDS
from mustamaija.games.mustamaija.rules import DEFEND, LEAD

if TYPE_CHECKING:
    from mustamaija.games.mustamaija.state import State

__all__ = ["Knowledge", "knowledge"]

Knowledge = tuple[int, list[int], int, int, int, int, int, tuple[tuple[int, int], ...]]
"""What :func:`knowledge` returns: ``(hand, known, unseen, talon_known, sel, rem, used, pairs)``."""


def knowledge(state: State, seat: int | None) -> Knowledge:
    """Return what ``seat`` knows of ``state`` beyond its public fields; ``None``: a spectator (M22).

    The one computation of a seat's knowledge: :func:`view_of` builds its
    view from it, and the observation encoder
    (:func:`~mustamaija.games.mustamaija.observation.observation_for`) reads
    it without building a view. It returns ``(hand, known, unseen,
    talon_known, sel, rem, used, pairs)``: the seat's hand; the cards known
    to be in each seat's hand (a new list); the cards whose place it does
    not know; the talon cards whose place is public (a mask); and its own
    action under way (``sel``, ``rem``, ``used``, ``pairs``: empty, with the
    whole table undecided, unless the seat is the one acting). The seat is
    not checked.

    >>> from mustamaija import State
    >>> s = State.from_seed(players=3, seed=1)
    >>> hand, known, unseen, talon_known, *action = knowledge(s, 0)
    >>> hand == s.hands[0], known, unseen == ((1 << 52) - 1) & ~hand, talon_known, action
    (True, [0, 0, 0], True, 0, [0, 0, 0, ()])
    """
    hands = state.hands
    public = state.public
    own = hands[seat] if seat is not None else 0
    known = list(map(public.__and__, hands))
    # Every card is in one place: a hand, the table, the discard or the talon. So the hands' union is
    # their sum, and the talon is what is in none of the others: its known cards (the turned trump
    # card, spades put back) are these.
    held = sum(hands)
    discard = state.discard
    led = state.led
    talon_known = state.tknown & ~(held | discard | led)
    unseen = ALL_CARDS & ~(own | discard | led | talon_known | held & public)
    # Counting: when every unseen card must lie in one place, it is known to be there. With no unknown
    # card in the talon, the unseen cards are the cards held and not public, so their places are the seats
    # that hold some (never the viewer).
    if unseen and len(state.talon) - state.tpos == talon_known.bit_count():
        places = [s for s in range(state.n) if hands[s] & unseen]
        if len(places) == 1:
            known[places[0]] |= unseen
            unseen = 0
    # An action chosen step by step shows only in its actor's view.
    phase = state.phase
    if seat is not None and seat == (state.attacker if phase == LEAD else state.defender if phase == DEFEND else -1):
        return own, known, unseen, talon_known, state.sel, state.rem, state.used, state.pairs
    return own, known, unseen, talon_known, 0, led, 0, ()
