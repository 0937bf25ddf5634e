"""A whole random playout of a deal in one call, on the state's own fields.

:meth:`State.play_out_randomly <mustamaija.core.state.StepState.play_out_randomly>`
plays uniformly random legal steps to the end of the deal: at each step it
draws ``below(rng, popcount(legal_mask()))`` and applies the legal step of
that rank. This is the same loop written out for Mustamaija, so that it
costs a fraction of a step of the generic one:

* the state's fields live in local variables for the whole playout, and are
  stored back once at the end;
* each step's legal steps are worked out in place from the hand, the lead
  chosen so far or the led card to answer (M10, M11, M13), and the chosen
  step is taken without checking it again, since it was drawn from them;
* a completed action is logged as :meth:`State.apply
  <mustamaija.games.mustamaija.state.State.apply>` logs it (one entry, no
  action object), and the turn passes on as the state's transitions pass it
  (M12, M16, M18, M19, M21);
* the draws are ``below``'s, from ``getrandbits`` directly where
  :func:`mustamaija.core.draws.bit_source` allows it.

It takes the steps the generic loop takes and draws the same numbers, so
the two end in equal states with the generator in the same place; the
state's transitions stay the reference (``tests/test_playout.py`` plays
seeded deals of every preset both ways, and from positions part-way through
an action).

>>> import random
>>> from mustamaija.games.mustamaija.state import State
>>> a, b = State.from_seed(4, 11), State.from_seed(4, 11)
>>> ra, rb = random.Random(2), random.Random(2)
>>> steps = play_out_randomly(a, ra)
>>> while not b.is_over:
...     b.apply(rb.choice(b.legal_actions()))
>>> steps > 0, a == b, ra.random() == rb.random()
(True, True, True)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from mustamaija.core.bits import popcount
from mustamaija.core.draws import bit_source
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import BEAT_ENTRY, DECLARE_ENTRY, LEAD_ENTRY
from mustamaija.games.mustamaija.rules import DEFEND, LEAD, OVER

if TYPE_CHECKING:
    from mustamaija.games.mustamaija.state import State

__all__ = ["play_out_randomly"]

_ABOVE: Final = tuple(L.above_in_suit(card) for card in range(52))
"""The cards of each card's suit ranked above it (interpreted, a table read is quicker than the arithmetic)."""


def _rank(mask: int, r: int) -> int:
    """Return the ``r``-th lowest card of ``mask`` (from 0)."""
    while r:
        mask &= mask - 1
        r -= 1
    return (mask & -mask).bit_length() - 1


def play_out_randomly(s: State, rng: random.Random) -> int:
    """Play ``s`` to its end with uniformly random legal steps, in place; return the number of steps."""
    phase = s.phase
    if phase == OVER:
        return 0
    bits = bit_source(rng)
    facts = s.facts
    rules = facts.rules
    marriage = facts.marriage
    hand_size = facts.hand_size
    max_turns = facts.max_turns
    n = s.n
    hands = s.hands
    talon = s.talon
    end = len(talon)
    tpos = s.tpos
    tknown = s.tknown
    public = s.public
    discard = s.discard
    trump = s.trump
    attacker = s.attacker
    defender = s.defender
    led = s.led
    sel = s.sel
    rem = s.rem
    used = s.used
    pairs = s.pairs
    beaten = 0
    for pair in pairs:
        beaten |= 1 << pair[0]
    limit = s.limit
    out = s.out
    outmask = s.outmask
    turns = s.turns
    declarer = s.declarer
    declared = s.declared
    log = s.log
    nlog = s.nlog
    loser = s.loser
    stopped = s.stopped
    beats = L.BEATERS[trump]
    steps = 0
    answered = False  # Whether the last step answered a led card, and the defence may be complete without a step.
    while True:
        lead = phase == LEAD
        seat = attacker if lead else defender
        hand = hands[seat]
        cur = -1
        stop = 1
        if lead:
            if not sel:
                cands = hand
                stop = 0
            elif popcount(sel) < limit:
                cands = hand & _ABOVE[sel.bit_length() - 1]  # M10: a lead is chosen in rising order.
            else:
                cands = 0
        else:
            # M13: the led cards are answered in rising order; one that nothing left can beat is left without a step.
            cands = hand & ~used
            left = rem
            while left:
                low = left & -left
                c = low.bit_length() - 1
                if beats[c] & cands:
                    cur = c
                    break
                left ^= low
            cands = cands & beats[cur] if cur >= 0 else 0
        if answered and cur < 0:
            card = -1  # The last step completed the defence.
        else:
            decl = 0
            if marriage and declarer == -1 and not (sel if lead else rem != led):
                decl = L.declarable_suits(rules, hand, declarer)  # V3, V4: only before an action's first card.
            count = popcount(cands)
            total = count + stop + popcount(decl)
            if bits is None:
                r = rng.randrange(total)
            else:  # below()'s draw, written out: a call per step fewer.
                k = total.bit_length()
                r = bits(k)
                while r >= total:
                    r = bits(k)
            steps += 1
            if r >= count + stop:  # A declaration (V3): the action itself is still to come.
                suit = _rank(decl, r - count - stop)
                log = ((DECLARE_ENTRY, seat, suit), log)
                nlog += 1
                trump = declared = suit
                declarer = seat
                public |= L.MARRIAGES[suit]
                beats = L.BEATERS[trump]
                continue
            card = -1
            if r < count:
                while r:
                    cands &= cands - 1
                    r -= 1
                card = (cands & -cands).bit_length() - 1
        if lead:
            if card >= 0:
                sel |= 1 << card
                if popcount(sel) < limit and hand & _ABOVE[card]:
                    continue
            # The lead is complete (M10, M11): log it.
            log = ((LEAD_ENTRY, seat, sel), log)
            nlog += 1
            hand &= ~sel
            if s.turn_pending:  # M6: the first lead turns the trump card.
                s._turn_trump()  # Before the first lead's draw: the state's talon is still this one.
                talon = s.talon
                end = len(talon)
                tpos = s.tpos
                tknown = s.tknown
                trump = s.trump
                beats = L.BEATERS[trump]
        else:
            if cur >= 0:
                rem &= ~(1 << cur)
                if card >= 0:
                    pairs = pairs + ((cur, card),)  # noqa: RUF005  # As the state does.
                    used |= 1 << card
                    beaten |= 1 << cur
                answered = True
                continue
            answered = False
            # The defence is complete (M13, M14): log it, take up what was not beaten.
            log = ((BEAT_ENTRY, seat, pairs), log)
            nlog += 1
            taken = led & ~beaten
            public |= taken
            discard |= beaten | used
            hand = (hand & ~used) | taken
        # Either action ends with a draw (M12), and a seat left with nothing once the talon is gone is out (M18).
        if tpos < end and hand_size > popcount(hand):
            top = min(end, tpos + hand_size - popcount(hand))
            drawn = 0
            for i in range(tpos, top):
                drawn |= 1 << talon[i]
            tpos = top
            hand |= drawn
            public |= drawn & tknown
        hands[seat] = hand
        if not hand and tpos >= end and not outmask >> seat & 1:
            outmask |= 1 << seat
            out = out + (seat,)  # noqa: RUF005
        if lead:  # The defender answers the lead, even if the attacker is out (M18).
            phase = DEFEND
            led = rem = sel
            sel = used = beaten = 0
            pairs = ()
            continue
        turns += 1
        led = rem = used = beaten = 0
        pairs = ()
        # The next turn (M16): from the defender if it beat everything, else from the seat after it.
        holders = 0
        last = -1
        for i in range(n):
            if hands[i]:
                holders += 1
                last = i
        if holders <= 1:  # M19: the one seat left holding cards loses.
            phase = OVER
            loser = last
            attacker = defender = -1
            break
        if turns >= max_turns:  # M21: stopped, no loser.
            phase = OVER
            stopped = True
            attacker = defender = -1
            break
        a = seat if not taken else (seat + 1) % n
        while not hands[a]:
            a = (a + 1) % n
        d = (a + 1) % n
        while not hands[d]:
            d = (d + 1) % n
        attacker = a
        defender = d
        phase = LEAD
        limit = L.lead_limit(facts, popcount(hands[d]), end - tpos)  # M11, M17: once a turn, so the rule's own function.
    s.tpos = tpos
    s.public = public
    s.discard = discard
    s.trump = trump
    s.phase = phase
    s.attacker = attacker
    s.defender = defender
    s.led = led
    s.sel = sel
    s.rem = rem
    s.used = used
    s.pairs = pairs
    s.limit = limit
    s.out = out
    s.outmask = outmask
    s.turns = turns
    s.declarer = declarer
    s.declared = declared
    s.log = log
    s.nlog = nlog
    s.loser = loser
    s.stopped = stopped
    s._legal = -1
    return steps
