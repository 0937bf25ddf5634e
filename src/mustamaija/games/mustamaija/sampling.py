"""Determinization: deal the cards a seat cannot see, consistently with everything it knows.

Mustamaija has no follow-suit duty and beating is never compulsory, so play
reveals nothing about a hand beyond the cards M22 makes public. Every
arrangement of the unseen cards over the unknown places (the unknown part of
each hand, the unknown talon positions) is therefore consistent with the view,
and :func:`sample_state` draws one uniformly. The sampled state's view for
the same seat equals the given view, which the tests check.

>>> import random
>>> from mustamaija import State
>>> s = State.from_seed(players=4, seed=2)
>>> v = s.view(1)
>>> guess = sample_state(v, random.Random(0))
>>> guess.view(1) == v, guess.hands[1] == s.hands[1]
(True, True)
"""

from __future__ import annotations

import random

from mustamaija.core.bits import popcount
from mustamaija.core.cards import cards_of
from mustamaija.core.draws import shuffle
from mustamaija.games.mustamaija.state import State
from mustamaija.games.mustamaija.view import View

__all__ = ["sample_state"]


def sample_state(view: View, rng: random.Random) -> State:
    """Return a full state drawn uniformly among those the view cannot tell apart from the truth."""
    n = view.players
    pool = cards_of(view.unseen)
    shuffle(rng, pool)
    hands = list(view.known)
    if view.seat is not None:
        hands[view.seat] = view.hand
    k = 0
    for s in range(n):
        need = view.hand_sizes[s] - popcount(hands[s])
        for c in pool[k:k + need]:
            hands[s] |= 1 << c
        k += need
    talon = [-1] * view.talon_size
    for depth, c in view.talon_known:
        talon[depth] = c
    for i in range(len(talon)):
        if talon[i] < 0:
            talon[i] = pool[k]
            k += 1
    if k != len(pool):
        raise ValueError(f"inconsistent view: {len(pool)} unseen cards for {k} unknown places")

    st = State._blank(view.rules, n, view.dealer)
    st.hands = hands
    st.talon = tuple(talon)
    st.trump = view.trump
    st.trump_card = view.trump_card
    st.turn_pending = view.rules.trump == "turned" and view.trump_card < 0 and view.talon_size > 0 and not view.history
    st.revealed = view.revealed
    st.tknown = view.revealed | (1 << view.trump_card if view.trump_card >= 0 else 0)
    public = view.discard | view.led
    for m in view.known:
        public |= m
    st.public = public
    st.discard = view.discard
    st.phase = view.phase
    st.attacker = view.attacker
    st.defender = view.defender
    st.led = view.led
    st.sel = view.sel
    st.rem = view.rem
    st.used = view.used
    st.pairs = view.pairs
    st.limit = view.limit
    st.out = view.out
    for s in view.out:
        st.outmask |= 1 << s
    st.turns = view.turns
    st.declarer = view.declarer
    st.declared = view.declared
    st.log = view.history.node
    st.nlog = len(view.history)
    st.loser = view.loser
    st.stopped = view.stopped
    return st
