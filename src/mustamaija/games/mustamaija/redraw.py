"""Taking back the last turns while the talon lasts: a full state as it may have been, its draws dealt back.

Every lead is followed by the attacker's draw and every defence by the
defender's (M12, M15), so a deal dealt from a seat's view fixes the hands
of now, not the hands each past action was chosen from: which of a hand's
unseen cards came in the draws since is not shown. :class:`Redraw` takes the
last turns back on such a deal, putting back into the talon, for every draw,
as many of the drawer's cards as it drew. Those are drawn at random among
the cards of that hand whose place was not public then; a talon card whose
place is public (the trump card, a spade put back, M7) goes back with the
draw that the count of cards drawn says took it. In a uniform deal each unseen card of a hand is
as likely as another to have come in a given draw, so a deal and its draws
are together a uniform draw of the history: weighing both by how well they
explain the play weighs the deal rightly
(:class:`~mustamaija.games.mustamaija.players.inference.TalonEvidence`).

Everything here is worked out from the public log once (:meth:`Redraw.of`):
the cards each action drew, and the cards each seat was publicly known to
hold. Playing the turns taken back again with the state's own rules draws
the cards put back and gives the deal of now.

>>> import random
>>> from mustamaija import State
>>> from mustamaija.players.registry import make_bot
>>> s = State.from_seed(players=4, seed=3)
>>> bots = [make_bot("heuristic", k) for k in range(4)]
>>> for _ in range(12):
...     s.apply(bots[s.to_act].act(s.view(s.to_act)))
>>> back = Redraw.of(s.view(s.to_act), 6)
>>> then = back.rewind(s, random.Random(1))
>>> then.talon_size > s.talon_size, then.nlog == s.nlog - back.count
(True, True)
>>> from mustamaija.games.mustamaija.players.heuristic import apply_plan
>>> for plan in back.plans():
...     apply_plan(then, plan)
>>> then.hands == s.hands and then.talon_cards == s.talon_cards
True
"""

from __future__ import annotations

import random
from typing import Any

from mustamaija.core.bits import popcount
from mustamaija.core.cards import cards_of, mask_of
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import BEAT_ENTRY, DECLARE_ENTRY, LEAD_ENTRY
from mustamaija.games.mustamaija.state import State
from mustamaija.games.mustamaija.takeback import Entry, beat_masks, declared_marriage, entries, plans_of, start_turn
from mustamaija.games.mustamaija.view import View

__all__ = ["Redraw"]

DECK = 52


class Redraw:
    """The public facts of the last :attr:`count` log entries, to take them back on full states (:meth:`rewind`)."""

    def __init__(self, span: list[Entry], drawn: list[int], forced: list[int], shown: list[int], led: list[int],
                 base_log: Any, base_nlog: int, base_public: int) -> None:
        self.span = span
        """The entries taken back, oldest first; the first is a lead."""
        self.count = len(span)
        self.drawn = drawn
        """For each entry of the span, how many cards its actor drew right after it."""
        self.forced = forced
        """For each entry, the cards of public place among those drawn (the trump card, a spade put back)."""
        self.shown = shown
        """For each entry, the cards its actor was publicly known to hold right after its draw, besides those of
        public place it drew: the draw brought none of them (picked-up cards, a declared marriage)."""
        self.led = led
        """For each defence of the span, the cards led to it (0 for a lead)."""
        self.base_log = base_log
        self.base_nlog = base_nlog
        self.base_public = base_public
        """The cards whose place was public at the span's start, besides those out of play and in the talon."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by the constructor's arguments, as in the pure build (a compiled class has no ``__dict__``)."""
        return Redraw, (self.span, self.drawn, self.forced, self.shown, self.led, self.base_log, self.base_nlog,
                        self.base_public)

    @classmethod
    def of(cls, view: View, count: int) -> Redraw | None:
        """Return the takeback of about the last ``count`` entries of ``view``'s log, or ``None`` when it cannot be made.

        The span starts at the lead of a turn (the latest at or before
        ``count`` entries back), and never before the second turn: the deal's
        first lead may turn the trump (M6). ``None``: no such lead, a declaration (V4) in the
        span, a log that does not add up to the view, or two spades put back
        drawn in different draws, whose order the view does not show.
        """
        log = entries(view.history.node, len(view.history))
        n = len(log)
        start = n - count
        while start > 0 and log[start][0] != LEAD_ENTRY:
            start -= 1
        first = next((i for i, entry in enumerate(log) if entry[0] == LEAD_ENTRY), n)
        if start <= first:  # Back to the deal: from the second turn on.
            start = first + 1
            while start < n and log[start][0] != LEAD_ENTRY:
                start += 1
        if start >= n or any(kind == DECLARE_ENTRY for kind, _, _ in log[start:]):
            return None
        places, block, block_cards = _talon_places(view)
        players = view.players
        hs = view.rules.hand_size
        sizes = [hs] * players
        known = [0] * players
        drawn_so_far = 0
        talon = DECK - players * hs
        led = 0
        picked = 0
        public = 0
        drawn: list[int] = []
        forced: list[int] = []
        shown: list[int] = []
        leds: list[int] = []
        for i, (kind, seat, data) in enumerate(log):
            if i == start:
                public = picked | declared_marriage(view.declarer, view.declared)
            if kind == LEAD_ENTRY:
                led = data
                sizes[seat] -= popcount(data)
                known[seat] &= ~data
                leds.append(0)
            elif kind == BEAT_ENTRY:
                beaten, beaters = beat_masks(data)
                taken = led & ~beaten
                sizes[seat] += popcount(taken) - len(data)
                known[seat] = (known[seat] & ~beaters) | taken
                picked |= taken
                leds.append(led)
            else:  # A declaration, before the span: its king and queen are public while held.
                known[seat] |= L.MARRIAGES[data]
                leds.append(0)
                drawn.append(0)
                forced.append(0)
                shown.append(0)
                continue
            need = hs - sizes[seat]
            k = min(need, talon) if need > 0 else 0
            got = 0
            for p in range(drawn_so_far, drawn_so_far + k):
                got |= places.get(p, 0)
            covered = sum(1 for p in block if drawn_so_far <= p < drawn_so_far + k)
            if covered:
                if covered < len(block):
                    return None  # Spades put back, drawn in different draws: which went where is not shown.
                got |= block_cards
            sizes[seat] += k
            talon -= k
            drawn_so_far += k
            known[seat] |= got
            drawn.append(k)
            forced.append(got)
            shown.append(known[seat] & ~got)
        if sizes != list(view.hand_sizes) or talon != view.talon_size:
            return None  # A rule set this count does not know.
        node: Any = view.history.node
        for _ in range(n - start):
            node = node[1]
        return cls(log[start:], drawn[start:], forced[start:], shown[start:], leds[start:], node, start, public)

    def plans(self) -> list[Any]:
        """Return the span's actions as plans (:func:`~.players.heuristic.apply_plan`), oldest first."""
        return plans_of(self.span)

    def rewind(self, state: State, rng: random.Random) -> State:
        """Return a copy of ``state`` (a full state with this log, at the start of an action) before the span.

        The draws are dealt back from the hands at random (module
        docstring), oldest draw on top of the talon. The copy is at the start
        of the span's first turn: hands, talon, cards out of play, public
        places, turn count, seats out and log as they were, if the draws
        were those.
        """
        hands = list(state.hands)
        discard = state.discard
        back: list[int] = []
        beats = 0
        for i in range(self.count - 1, -1, -1):
            kind, seat, data = self.span[i]
            k = self.drawn[i]
            if k:
                got = self.forced[i]
                more = k - popcount(got)
                if more:
                    pool = hands[seat] & ~self.shown[i] & ~got
                    got |= _pick(pool, more, rng)
                hands[seat] &= ~got
                back.append(got)
            if kind == LEAD_ENTRY:
                hands[seat] |= data
            else:
                beaten, beaters = beat_masks(data)
                taken = self.led[i] & ~beaten
                hands[seat] = (hands[seat] & ~taken) | beaters
                discard &= ~(beaten | beaters)
                beats += 1
        talon: list[int] = []
        for got in reversed(back):
            talon.extend(cards_of(got))
        talon.extend(state.talon[state.tpos:])
        s = state.copy()
        s.talon = tuple(talon)
        s.tpos = 0
        s.discard = discard
        s.public = discard | self.base_public | (state.tknown & ~mask_of(talon))
        s.turns = state.turns - beats
        d = self.span[1][1] if self.count > 1 else state.defender
        start_turn(s, state, hands, self.span[0][1], d, len(talon), self.base_log, self.base_nlog)
        return s


def _talon_places(view: View) -> tuple[dict[int, int], list[int], int]:
    """Return the cards of public place in the talon as dealt: by position from the top, then a block of places.

    The trump card lies at the bottom, the spades put back as a block in the
    middle (M7, docs/formats.md). The view shows where those still in the
    talon lie; the others have been drawn, and when two or more of them
    have, it does not show which lay where: their places and cards are
    returned apart, a block that one draw took whole.
    """
    length = DECK - view.players * view.rules.hand_size
    places: dict[int, int] = {}
    if view.trump_card >= 0:
        places[length - 1] = 1 << view.trump_card
    block = popcount(view.revealed)
    if block:
        top = length - view.talon_size  # The position of the talon's top card now.
        half = (length - 1 - block) // 2
        left = view.revealed
        for depth, c in view.talon_known:
            if view.revealed >> c & 1:
                places[top + depth] = 1 << c
                left &= ~(1 << c)
        free = [p for p in range(half, half + block) if p not in places]
        if len(free) == 1:
            places[free[0]] = left
        elif free:
            return places, free, left
    return places, [], 0


def _pick(pool: int, k: int, rng: random.Random) -> int:
    """Return ``k`` cards of ``pool`` drawn uniformly (all of them if it holds no more)."""
    cards = cards_of(pool)
    if k >= len(cards):
        return pool
    got = 0
    for c in rng.sample(cards, k):
        got |= 1 << c
    return got
