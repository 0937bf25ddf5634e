"""Determinisation: deal the cards a seat cannot see, consistently with everything its view shows.

Unlike Mustamaija, play reveals something about hidden hands: a seat that
fails to follow suit is void in the led suit (unless reneging is allowed,
B7), and a seat that leads a heart before hearts are broken holds only
hearts (B5). The view records these as ``voids``; :func:`sample_state` deals
the unseen cards over the unknown places so that no seat gets a card of a
suit it is known to lack, the viewer keeps its hand and the left neighbour
keeps the viewer's passed cards still unplayed. The draw is uniform when no
void is known; with voids it places the most constrained cards first, each
uniformly among its possible places weighted by their free room, which is
close to uniform. The sampled state's view for the same seat equals the
given view.

>>> import random
>>> from mustamaija.games.black_maria import State
>>> s = State.from_seed(players=4, seed=2)
>>> for _ in range(20):
...     s.apply(s.legal_actions()[0])
>>> v = s.view(1)
>>> guess = sample_state(v, random.Random(0))
>>> guess.view(1) == v, guess.hands[1] == s.hands[1]
(True, True)
"""

from __future__ import annotations

import random

from mustamaija.core.bits import popcount
from mustamaija.core.cards import cards_of
from mustamaija.core.history import Log
from mustamaija.games.black_maria.actions import PASS_ENTRY, PLAY_ENTRY
from mustamaija.games.black_maria.state import PASS, State
from mustamaija.games.black_maria.view import View

__all__ = ["sample_state"]


def _assign(cards: list[int], allowed: list[int], room: list[int], rng: random.Random) -> list[int] | None:
    """Place each card on a place whose suit mask allows it, filling ``room``; None on a dead end."""
    order = sorted(cards, key=lambda c: (sum(1 for a in allowed if a >> (c // 13) & 1), rng.random()))
    room = room[:]
    placed = [0] * len(room)
    for c in order:
        bit = 1 << (c // 13)
        weights = [room[p] if allowed[p] & bit else 0 for p in range(len(room))]
        total = sum(weights)
        if total == 0:
            return None
        r = rng.randrange(total)
        p = 0
        while r >= weights[p]:
            r -= weights[p]
            p += 1
        placed[p] |= 1 << c
        room[p] -= 1
    return placed


def _match(cards: list[int], allowed: list[int], room: list[int], rng: random.Random) -> list[int]:
    """Place the cards by bipartite matching (a complete search), for when the greedy draw keeps failing."""
    slots = [p for p in range(len(room)) for _ in range(room[p])]
    rng.shuffle(slots)
    owner: list[int] = [-1] * len(slots)

    def augment(ci: int, seen: list[bool]) -> bool:
        bit = 1 << (cards[ci] // 13)
        for j, p in enumerate(slots):
            if allowed[p] & bit and not seen[j]:
                seen[j] = True
                if owner[j] < 0 or augment(owner[j], seen):
                    owner[j] = ci
                    return True
        return False

    for ci in range(len(cards)):
        if not augment(ci, [False] * len(slots)):
            raise ValueError("inconsistent view: the unseen cards cannot be placed without breaking a known void")
    placed = [0] * len(room)
    for j, ci in enumerate(owner):
        placed[slots[j]] |= 1 << cards[ci]
    return placed


def sample_state(view: View, rng: random.Random) -> State:
    """Return a full state the view cannot tell apart from the truth, drawn as described above."""
    if view.seat is None:
        raise ValueError("a spectator's view cannot be determinised: it has no seat")
    n, me, k = view.players, view.seat, view.pass_count
    order = [(view.dealer + 1 + i) % n for i in range(n)]
    passers = set(order[:view.npassed])
    # Places: each other seat's unknown hand cards, then (while passing) each other seat's face-down pass.
    allowed, room = [], []
    for s in range(n):
        allowed.append(0 if s == me else 0b1111 & ~view.voids[s])
        room.append(0 if s == me else view.hand_sizes[s] - popcount(view.known[s]))
    if view.phase == PASS:
        for s in range(n):
            allowed.append(0b1111)
            room.append(k if s in passers and s != me else 0)
    pool = cards_of(view.unseen)
    if sum(room) != len(pool):
        raise ValueError(f"inconsistent view: {len(pool)} unseen cards for {sum(room)} unknown places")
    placed = None
    for _ in range(30):
        placed = _assign(pool, allowed, room, rng)
        if placed is not None:
            break
    if placed is None:
        placed = _match(pool, allowed, room, rng)
    hands = [view.known[s] | placed[s] for s in range(n)]
    passed = [0] * n
    passed[me] = view.passed
    if view.phase == PASS:
        for s in range(n):
            if s != me:
                passed[s] = placed[n + s]
    else:
        passed[(me - 1) % n] = view.received
        by_seat = [0] * n
        for p in view.plays:
            by_seat[p.seat] |= 1 << p.card
        for s in range(n):
            if s != me and s != (me - 1) % n:
                holdings = cards_of(hands[(s + 1) % n] | by_seat[(s + 1) % n])
                passed[s] = sum(1 << c for c in rng.sample(holdings, k))
    entries = [(PASS_ENTRY, s, passed[s]) for s in order[:view.npassed]]
    entries += [(PLAY_ENTRY, p.seat, p.card) for p in view.plays]
    log: Log = None
    for entry in entries:
        log = (entry, log)

    st = State()
    st.rules = view.rules
    st.renege_ok = view.rules.allow_renege
    st.n = n
    st.k = k
    st.dealer = view.dealer
    st.deck = None
    st.hands = hands
    st.phase = view.phase
    st.actor = view.to_act
    st.sel = view.sel
    st.passed = tuple(passed)
    st.npassed = view.npassed
    st.leader = view.leader
    st.trick = view.trick
    st.led = view.led
    st.broken = view.broken
    st.played = view.played
    st.tricks = view.tricks
    st.won = view.won
    st.reneges = view.reneges
    st.voids = view.voids
    st.log = log
    st.nlog = len(entries)
    st._legal = -1
    return st
