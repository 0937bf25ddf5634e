"""What happens at a Black Maria table, for front ends: the events of an action, and the hands of a seeded series.

The terminal table (:mod:`mustamaija.games.black_maria.tui`) tells the log
from :func:`events_of` (a pass and the exchange, a play, the trick and the
hand it completes) and deals a game's hands with :func:`series_deck`.

>>> from mustamaija.games.black_maria.players import HeuristicPlayer
>>> s = State.deal(4, series_deck(4, 0, 4)[0], dealer=series_deck(4, 0, 4)[1])
>>> p = HeuristicPlayer()
>>> kinds = []
>>> while not s.is_over:
...     done = s.nlog
...     s.apply(p.act(s.view(s.to_act)))
...     if s.nlog > done:
...         kinds += [e.kind for e in events_of(s)]
>>> kinds[:4], kinds.count("trick"), kinds[-1]
(['pass', 'pass', 'pass', 'pass'], 13, 'hand')
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from mustamaija.games.black_maria.actions import Pass, Play
from mustamaija.games.black_maria.deals import shuffled_deck
from mustamaija.games.black_maria.legality import penalty_of
from mustamaija.games.black_maria.rules import PASS
from mustamaija.games.black_maria.state import State

__all__ = ["Event", "events_of", "series_deck"]


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the table.

    ``kind`` is ``"pass"`` (``seat`` passed; the cards stay hidden),
    ``"exchange"`` (the passes were delivered), ``"play"`` (``seat`` played
    ``card``), ``"trick"`` (``seat`` won ``cards``, worth ``points``) or
    ``"hand"`` (the hand is over; ``points`` is its total).
    """

    kind: str
    seat: int = -1
    card: int = -1
    cards: tuple[int, ...] = ()
    points: int = 0


def series_deck(seed: int | str | None, hand: int, players: int) -> tuple[tuple[int, ...], int]:
    """Return the deck of hand ``hand`` (0 for the first) of a series seeded with ``seed``, and its first dealer.

    One generator seeded with ``seed`` draws the first dealer, then shuffles
    hand after hand; this gives any hand of the series at once.

    >>> series_deck(9, 1, 4) == series_deck(9, 1, 4) != series_deck(9, 0, 4)
    True
    """
    rng = random.Random(seed)
    dealer = rng.randrange(players)
    for _ in range(hand):
        shuffled_deck(players, rng)
    return shuffled_deck(players, rng), dealer


def events_of(state: State) -> list[Event]:
    """Return what the last compound action of ``state`` did: a pass (and the exchange), a play (and the trick, the hand)."""
    action = state.last_action()
    if isinstance(action, Pass):
        out = [Event("pass", action.seat)]
        if state.phase != PASS:
            out.append(Event("exchange"))
        return out
    assert isinstance(action, Play)
    out = [Event("play", action.seat, action.card)]
    if not state.trick:  # The play completed a trick.
        plays = [a for a in state.actions()[-state.n:] if isinstance(a, Play)]
        cards = tuple(a.card for a in plays)
        out.append(Event("trick", state.leader, cards=cards, points=penalty_of(sum(1 << c for c in cards))))
        if state.is_over:
            out.append(Event("hand", points=sum(state.points())))
    return out
