"""Rollout policies and the position evaluation used by the ISMCTS players.

A rollout policy is any ``policy(state, rng) -> step`` on a full
:class:`~mustamaija.games.mustamaija.state.State`; it only ever runs on the search's own
determinised copies, never on the true state of a game. Two are built in:

* :func:`fast_step`, a cheap rule of thumb after the sources' strategy notes:
  lead the longest plain suit while the talon lasts, lead cards the defender
  cannot beat once it is empty, beat with the cheapest card that does it and
  keep trumps for later unless the card is worth it;
* :func:`random_step`, a uniformly random legal step.

:func:`evaluate` turns a position into one value in [0, 1] per seat, an
estimate of the chance of *not* losing; truncated rollouts end with it. It is
a conditional logit over the seats still holding cards (each seat's chance of
losing is a softmax of a linear score of its hand), fitted to the outcomes of
deals played by :func:`fast_step` against itself.

>>> import random
>>> from mustamaija.games.mustamaija import State
>>> s = State.from_seed(players=4, seed=3)
>>> v = evaluate(s)
>>> len(v), round(sum(1 - x for x in v), 6)
(4, 1.0)
>>> s.can_step(fast_step(s, random.Random(0)))
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Final

from mustamaija.core.cards import QS, SUIT_MASKS
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import DECLARE, STOP
from mustamaija.games.mustamaija.state import LEAD, OVER, State

__all__ = [
    "EVAL_WEIGHTS",
    "RolloutPolicy",
    "evaluate",
    "fast_rollout",
    "fast_step",
    "features",
    "outcome",
    "random_step",
    "rollout",
]

RolloutPolicy = Callable[[State, random.Random], int]
"""A rollout policy: a legal step for the seat to act in a full state."""

_QS_BIT: Final = 1 << QS
_CARDS: Final = (1 << 52) - 1
_STOP_BIT: Final = 1 << STOP
_BEATERS: Final = L.BEATERS
_HIGH: Final = sum(((1 << 13) - (1 << 9)) << (13 * s) for s in range(4))  # J Q K A of every suit
_LOW: Final = sum(((1 << 5) - 1) << (13 * s) for s in range(4))  # 2 to 6 of every suit
_TOP_TWO: Final = sum(((1 << 13) - (1 << 11)) << (13 * s) for s in range(4))  # K A of every suit
EPSILON: Final = 0.1
"""How often :func:`fast_step` takes a uniformly random legal step instead (rollout diversity)."""


def _random_bit(mask: int, rng: random.Random) -> int:
    k = rng.randrange(mask.bit_count())
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def _lowest_card(hand: int, trump: int) -> int:
    """Return the lowest card by rank that is neither Q♠ nor (while there are others) a trump; Q♠ if nothing else."""
    plain = hand & ~_QS_BIT
    if trump >= 0 and plain & ~SUIT_MASKS[trump]:
        plain &= ~SUIT_MASKS[trump]
    if not plain:
        return QS
    best, best_rank = -1, 99
    for s in range(4):
        cs = plain & SUIT_MASKS[s]
        if cs:
            c = (cs & -cs).bit_length() - 1
            if c % 13 < best_rank:
                best, best_rank = c, c % 13
    return best


def random_step(state: State, rng: random.Random) -> int:
    """Return a uniformly random legal step."""
    return _random_bit(state.legal_mask(), rng)


def fast_step(state: State, rng: random.Random) -> int:
    """Return a cheap, reasonable legal step (see the module docstring)."""
    m = state.legal_mask()
    if not m & (m - 1):
        return m.bit_length() - 1
    if rng.random() < EPSILON:
        return _random_bit(m, rng)
    decl = m >> DECLARE
    if decl:
        return DECLARE + (decl & -decl).bit_length() - 1
    trump = state.trump
    row = _BEATERS[trump]
    talon = len(state.talon) - state.tpos
    if state.phase == LEAD:
        hand = state.hands[state.attacker]
        dh = state.hands[state.defender]
        sel = state.sel
        if sel:
            nxt = m & _CARDS
            if talon:
                if not nxt:
                    return STOP
                c = (nxt & -nxt).bit_length() - 1
                return STOP if c // 13 == trump or c == QS else c
            while nxt:  # The talon is empty: add only what the defender cannot beat.
                low = nxt & -nxt
                c = low.bit_length() - 1
                if not row[c] & dh:
                    return c
                nxt ^= low
            return STOP
        if talon:
            best, best_score = -1, -100
            for s in range(4):
                cs = hand & SUIT_MASKS[s]
                if not cs:
                    continue
                plain = cs & ~_QS_BIT
                score = plain.bit_count() * 2 - (plain & _HIGH).bit_count()
                if s == trump:
                    score -= 8
                if score > best_score and plain:
                    best, best_score = s, score
            if best < 0:
                return QS
            plain = hand & SUIT_MASKS[best] & ~_QS_BIT
            return (plain & -plain).bit_length() - 1
        # Talon empty: lead the lowest card the defender cannot beat, in the suit with most such cards.
        best, best_n = -1, 0
        for s in range(4):
            cs = hand & SUIT_MASKS[s]
            k = 0
            low = -1
            while cs:
                b = cs & -cs
                c = b.bit_length() - 1
                if not row[c] & dh:
                    k += 1
                    if low < 0:
                        low = c
                cs ^= b
            if k > best_n:
                best, best_n = low, k
        return best if best >= 0 else _lowest_card(hand, trump)
    # Defending: beat the current led card with the cheapest beater, or leave it.
    beaters = m & _CARDS
    if not beaters:
        return STOP
    cur = L.current_led(state.rem, state.hands[state.defender] & ~state.used, trump)
    same = beaters & SUIT_MASKS[cur // 13]
    if same and cur // 13 != trump:
        return (same & -same).bit_length() - 1
    c = (beaters & -beaters).bit_length() - 1
    if trump >= 0 and cur // 13 != trump:
        t = beaters & SUIT_MASKS[trump]
        c = (t & -t).bit_length() - 1
        if talon > 8 and c % 13 >= 9 and cur % 13 < 9:
            return STOP  # Keep a high trump rather than spend it on a small card early on.
    elif talon > 8 and c % 13 >= 11 and cur % 13 < 8:
        return STOP
    return c


# -- evaluation -----------------------------------------------------------------------

N_FEATURES: Final = 14

EVAL_WEIGHTS: Final[tuple[tuple[float, ...], tuple[float, ...]]] = (
    # Talon not empty.
    (0.016, -0.165, -0.31, -0.077, -0.01, 0.02, -0.028, 0.041, 0.03, 0.067, -0.109, 0.001, -0.088, 0.144),
    # Talon empty.
    (0.082, -0.212, -0.487, -0.063, -0.587, 0.239, 0.046, 0.0, 0.435, 0.074, -0.305, 0.368, -0.286, 0.0),
)
"""The score weights of the features of :func:`features`, for a running and for an empty talon.

Fitted by maximum likelihood (a conditional logit: the loser is drawn among
the seats holding cards with probabilities softmax(score)) on positions of
3,000 deals of the heuristic player against itself, 2 to 6 players, mostly
the standard rules. On held-out deals the log-likelihood per position is
-1.238 against -1.280 for a uniform guess while the talon lasts, and -1.059
against -1.179 once it is empty: the talon phase is hard to read from the
hands alone, which is why rollouts go on for some turns before it is used.
"""


def features(state: State, seat: int) -> list[float]:
    """Return the features of one seat's position used by :func:`evaluate`.

    In order: cards held (in hands), holds Q♠, trumps, high plain cards (J
    and up), is the attacker, is the defender, plain spades (when spades are
    not trumps), cards held times the talon fraction left, suits held, low
    plain cards (2-6), the trump ace and king, the seat to the right holds
    Q♠, the seat to the left holds Q♠, holds Q♠ times the talon fraction left.
    """
    hands = state.hands
    hand = hands[seat]
    trump = state.trump
    tm = SUIT_MASKS[trump] if trump >= 0 else 0
    talon = len(state.talon) - state.tpos
    start = 52 - state.n * state.hs
    frac = talon / start if start > 0 else 0.0
    k = hand.bit_count()
    n = state.n
    right = (seat - 1) % n
    while right != seat and not hands[right]:
        right = (right - 1) % n
    left = (seat + 1) % n
    while left != seat and not hands[left]:
        left = (left + 1) % n
    qs = 1.0 if hand & _QS_BIT else 0.0
    suits = 0
    for m in SUIT_MASKS:
        if hand & m:
            suits += 1
    return [
        k / state.hs,
        qs,
        float((hand & tm).bit_count()),
        float((hand & ~tm & _HIGH & ~_QS_BIT).bit_count()),
        1.0 if seat == state.attacker else 0.0,
        1.0 if seat == state.defender else 0.0,
        float((hand & SUIT_MASKS[0] & ~_QS_BIT).bit_count()) if trump != 0 else 0.0,
        k / state.hs * frac,
        float(suits),
        float((hand & ~tm & _LOW).bit_count()),
        float((hand & tm & _TOP_TWO).bit_count()),
        1.0 if right != seat and hands[right] & _QS_BIT else 0.0,
        1.0 if left != seat and hands[left] & _QS_BIT else 0.0,
        qs * frac,
    ]


def outcome(state: State) -> list[float]:
    """Return each seat's value of a finished deal: 0 for the loser, 1 for the others (and for all of a stopped deal)."""
    out = [1.0] * state.n
    if state.loser >= 0:
        out[state.loser] = 0.0
    return out


def evaluate(state: State, weights: tuple[tuple[float, ...], tuple[float, ...]] = EVAL_WEIGHTS) -> list[float]:
    """Return each seat's estimated chance of not losing from here, in [0, 1]; they add up to ``n - 1``."""
    if state.phase == OVER:
        return outcome(state)
    w = weights[0] if len(state.talon) > state.tpos else weights[1]
    hands = state.hands
    scores: list[float | None] = []
    for s in range(state.n):
        if not hands[s]:
            scores.append(None)
            continue
        f = features(state, s)
        scores.append(sum(a * b for a, b in zip(w, f, strict=True)))
    top = max(x for x in scores if x is not None)
    ex = [0.0 if x is None else math.exp(x - top) for x in scores]
    total = sum(ex)
    return [1.0 - e / total for e in ex]


def rollout(state: State, rng: random.Random, policy: RolloutPolicy, depth: int = 0) -> list[float]:
    """Play ``state`` on in place with ``policy``: to the end, or for ``depth`` more turns (0: no limit) and evaluate.

    A turn is a lead and its defence; a rollout that starts part-way through
    an action finishes it first.
    """
    apply = state.apply
    if depth <= 0:
        while state.phase != OVER:
            apply(policy(state, rng))
        return outcome(state)
    stop = state.turns + depth
    while state.phase != OVER:
        if state.turns >= stop and not state.in_progress:
            return evaluate(state)
        apply(policy(state, rng))
    return outcome(state)


# -- the fast policy, a whole action at a time ----------------------------------------------


def _lead_mask(state: State, rng: random.Random) -> int:
    """Return the lead :func:`fast_step` would build card by card (its random steps aside)."""
    hand = state.hands[state.attacker]
    limit = state.limit
    if rng.random() < EPSILON:
        cards = hand
        k = rng.randrange(cards.bit_count())
        for _ in range(k):
            cards &= cards - 1
        first = (cards & -cards).bit_length() - 1
        lead = 1 << first
        more = hand & SUIT_MASKS[first // 13] & ~((2 << first) - 1)
        while more and lead.bit_count() < limit and rng.random() < 0.5:
            low = more & -more
            lead |= low
            more ^= low
        return lead
    trump = state.trump
    row = _BEATERS[trump]
    talon = len(state.talon) - state.tpos
    dh = state.hands[state.defender]
    if talon:
        best, best_score = -1, -100
        for s in range(4):
            plain = hand & SUIT_MASKS[s] & ~_QS_BIT
            if not plain:
                continue
            score = plain.bit_count() * 2 - (plain & _HIGH).bit_count()
            if s == trump:
                score -= 8
            if score > best_score:
                best, best_score = s, score
        if best < 0:
            return _QS_BIT
        plain = hand & SUIT_MASKS[best] & ~_QS_BIT
        low = plain & -plain
        if best == trump:
            return low
        lead = low
        c = low.bit_length() - 1
        more = hand & SUIT_MASKS[best] & ~((2 << c) - 1)
        while more and lead.bit_count() < limit:
            low = more & -more
            if low == _QS_BIT:
                break
            lead |= low
            more ^= low
        return lead
    # Talon empty: the cards of one suit the defender cannot beat, lowest first, in the suit with most of them.
    best_lead, best_n = 0, 0
    for s in range(4):
        cs = hand & SUIT_MASKS[s]
        lead = 0
        while cs:
            b = cs & -cs
            if not row[b.bit_length() - 1] & dh:
                lead |= b
            cs ^= b
        k = lead.bit_count()
        if k > best_n:
            best_lead, best_n = lead, k
    if best_lead:
        while best_lead.bit_count() > limit:
            best_lead &= ~(1 << (best_lead.bit_length() - 1))
        return best_lead
    return 1 << _lowest_card(hand, trump)


def _defence_pairs(state: State, rng: random.Random) -> tuple[tuple[int, int], ...]:
    """Return the defence :func:`fast_step` would build led card by led card (random steps included)."""
    trump = state.trump
    row = _BEATERS[trump]
    hand = state.hands[state.defender]
    talon = len(state.talon) - state.tpos
    rem = state.rem
    avail = hand & ~state.used
    pairs = state.pairs
    current = L.current_led
    while True:
        cur = current(rem, avail, trump)
        if cur < 0:
            return pairs
        rem &= ~(1 << cur)
        beaters = avail & row[cur]
        if rng.random() < EPSILON:
            k = rng.randrange(beaters.bit_count() + 1)
            if k == beaters.bit_count():
                continue
            for _ in range(k):
                beaters &= beaters - 1
            b = (beaters & -beaters).bit_length() - 1
        else:
            same = beaters & SUIT_MASKS[cur // 13]
            if same and cur // 13 != trump:
                b = (same & -same).bit_length() - 1
            elif trump >= 0 and cur // 13 != trump:
                t = beaters & SUIT_MASKS[trump]
                b = (t & -t).bit_length() - 1
                if talon > 8 and b % 13 >= 9 and cur % 13 < 9:
                    continue
            else:
                b = (beaters & -beaters).bit_length() - 1
                if talon > 8 and b % 13 >= 11 and cur % 13 < 8:
                    continue
        pairs = (*pairs, (cur, b))
        avail &= ~(1 << b)


def fast_rollout(state: State, rng: random.Random, depth: int = 0) -> list[float]:
    """Play ``state`` on in place as :func:`fast_step` would, but a whole action at a time (much faster).

    Like :func:`rollout`: to the end, or for ``depth`` more turns and then :func:`evaluate`.
    """
    while state.in_progress:
        state.apply(fast_step(state, rng))
    stop = state.turns + depth if depth > 0 else 1 << 30
    marriage = state.rules.trump == "marriage"
    while True:
        phase = state.phase
        if phase == OVER:
            return outcome(state)
        if state.turns >= stop:
            return evaluate(state)
        if marriage and state.declarer == -1:
            seat = state.attacker if phase == LEAD else state.defender
            decl = L.declarable_suits(state.rules, state.hands[seat], state.declarer)
            if decl and rng.random() >= EPSILON:
                state._do_declare((decl & -decl).bit_length() - 1)
        if phase == LEAD:
            state._do_lead(_lead_mask(state, rng))
        else:
            state._do_beat(state.defender, _defence_pairs(state, rng))
