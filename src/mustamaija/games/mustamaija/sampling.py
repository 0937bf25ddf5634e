"""Determinization: deal the cards a seat cannot see, consistently with everything it knows.

Mustamaija has no follow-suit duty and beating is never compulsory, so play
reveals nothing about a hand beyond the cards M22 makes public. Every
arrangement of the unseen cards over the unknown places (the unknown part of
each hand, the unknown talon positions) is therefore consistent with the view,
and :func:`sample_state` draws one uniformly. The sampled state's view for
the same seat equals the given view, which the tests check. Play does make
some arrangements likelier than others (players keep trumps); the search
bots deal by such a model with :func:`inclusion_table` and :func:`take`
(:mod:`mustamaija.games.mustamaija.players.beliefs`).

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

__all__ = ["inclusion_table", "sample_state", "take"]


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


def inclusion_table(weights: list[float], need: int) -> list[list[float]]:
    """Return ``p[i][r]``: the chance that item ``i`` is taken when ``r`` of items ``i..`` are still to be taken.

    A conditional Bernoulli sample: independent items of odds ``weights``
    (positive), conditioned on taking ``need`` of them. With ``e[i][r]`` the
    elementary symmetric sum of order ``r`` of ``weights[i:]``, item ``i`` is
    taken with chance ``w_i e[i+1][r-1] / e[i][r]``; walking the items in order
    (:func:`take`) gives each subset of ``need`` items a chance in proportion
    to the product of its odds. Players' hands are dealt this way by a model of
    what they keep (:mod:`mustamaija.games.mustamaija.players.beliefs`).

    >>> [[round(x, 3) for x in row] for row in inclusion_table([1.0, 3.0], 1)]
    [[0.0, 0.25], [0.0, 1.0]]
    """
    n = len(weights)
    rows: list[list[float]] = [[] for _ in range(n)]
    e = [0.0] * (need + 1)  # e[r] for the items after i, updated in place: r falling, so e[r - 1] is still theirs.
    e[0] = 1.0
    for i in range(n - 1, -1, -1):
        w = weights[i]
        row = [0.0] * (need + 1)
        # Past the n - i items from i on, e[r] stays 0.0 and the chance 0.0: those orders are skipped.
        for r in range(min(n - i, need), 0, -1):
            taken = w * e[r - 1]
            total = e[r] + taken
            e[r] = total
            if total > 0.0:
                row[r] = taken / total
        rows[i] = row
    return rows


def take(table: list[list[float]], pool: list[int], need: int, rng: random.Random) -> tuple[int, list[int]]:
    """Draw ``need`` cards of ``pool`` by ``table`` (:func:`inclusion_table` of their odds); return them as a mask, and the rest.

    >>> take(inclusion_table([1.0, 1.0, 1.0], 3), [4, 5, 6], 3, random.Random(0))
    (112, [])
    """
    mask = 0
    rest: list[int] = []
    r = need
    for i, c in enumerate(pool):
        if r > 0 and rng.random() < table[i][r]:
            mask |= 1 << c
            r -= 1
        else:
            rest.append(c)
    return mask, rest
