"""What a seat knows of a Black Maria hand beyond its public fields: the core of the visibility function.

:func:`knowledge` is the one computation of it: :func:`~mustamaija.games.black_maria.view.view_of`
builds a seat's view from it, and the observation encoder
(:func:`~mustamaija.games.black_maria.observation.observation_for`) reads it
without building a view. It is a module of its own so that the compiled build
compiles it (docs/architecture.md#builds): the research adapters ask for it at
every step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mustamaija.games.black_maria.rules import MAX_PLAYERS, MIN_PLAYERS, OVER, in_play

if TYPE_CHECKING:
    from mustamaija.games.black_maria.state import State

__all__ = ["Knowledge", "knowledge"]

Knowledge = tuple[int, int, int, list[int], int, int, tuple[int, ...]]
"""What :func:`knowledge` returns: ``(hand, passed, received, known, unseen, sel, reneges)``."""

_IN_PLAY: Final = {n: in_play(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
"""The cards dealt, by player count (B1)."""


def knowledge(state: State, seat: int | None) -> Knowledge:
    """Return what ``seat`` knows of ``state`` beyond its public fields; ``None``: a spectator.

    The one computation of a seat's knowledge: :func:`view_of` builds its
    view from it, and the observation encoder
    (:func:`~mustamaija.games.black_maria.observation.observation_for`)
    reads it without building a view. It returns ``(hand, passed, received,
    known, unseen, sel, reneges)``: the seat's hand, its pass, the cards it
    received (B3: once every seat has passed), the cards known to be in
    each seat's hand (a new list), the cards in play whose place it does not
    know, its pass being chosen step by step (0 unless it is acting) and
    the reneges it may know of (B7: its own until the hand is over). The
    seat is not checked.

    >>> from mustamaija.games.black_maria import State
    >>> s = State.from_seed(players=4, seed=1)
    >>> hand, passed, received, known, unseen, sel, reneges = knowledge(s, 1)
    >>> known[1] == hand == s.hands[1], unseen.bit_count(), reneges
    (True, 39, (0, 0, 0, 0))
    """
    n = state.n
    hands = state.hands
    exchanged = state.npassed == n
    played = state.played
    known = [0] * n
    if seat is None:
        own = passed = received = 0
    else:
        own = hands[seat]
        passed = state.passed[seat]
        received = state.passed[(seat - 1) % n] if exchanged else 0
        known[seat] = own
        if exchanged:
            known[(seat + 1) % n] = passed & ~played  # B3: the cards it passed, until they are played.
    unseen = _IN_PLAY[n] & ~(own | played | passed)  # Its hand, the cards played, its pass: all it can place.
    if seat is not None and exchanged and unseen:
        # Counting: when only one other seat holds cards the viewer cannot place, they are all there. Every
        # card in play is in one place, so the seats holding such cards are those holding unseen ones.
        open_seats = [s for s in range(n) if hands[s] & unseen]
        if len(open_seats) == 1:
            known[open_seats[0]] |= unseen
            unseen = 0
    reneges = state.reneges
    if state.phase != OVER:  # B7: charged at the end, so another seat's reneges show only then.
        mine = [0] * n
        if seat is not None:
            mine[seat] = reneges[seat]
        reneges = tuple(mine)
    sel = state.sel if seat is not None and seat == state.actor else 0
    return own, passed, received, known, unseen, sel, reneges
