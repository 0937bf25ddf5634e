"""A UI-free table: a game of Black Maria between people and bots, for terminal and web front ends.

The table owns the :class:`~mustamaija.games.black_maria.match.Match`, deals each
hand from its own generator, lets the bots act until a person is to act,
and reports what happened as :class:`Event` values. Front ends show
``table.view(seat)`` only, so a person sees no more than a player at the
table could.

>>> from mustamaija.games.black_maria.players import HeuristicPlayer
>>> from mustamaija.core.cards import cards_of
>>> t = Table([None, HeuristicPlayer(), HeuristicPlayer()], Rules(hands=1), seed=4, first_dealer=2)
>>> t.deal().phase_name, t.waiting_for()
('pass', 0)
>>> events = t.act(0, cards_of(t.view(0).hand)[:4])
>>> [e.kind for e in events][:4]
['pass', 'pass', 'pass', 'exchange']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mustamaija.core.errors import RulesError
from mustamaija.core.protocol import Player
from mustamaija.games.black_maria.actions import Pass, Play
from mustamaija.games.black_maria.deals import shuffled_deck
from mustamaija.games.black_maria.legality import penalty_of
from mustamaija.games.black_maria.match import HandResult, Match
from mustamaija.games.black_maria.rules import Rules
from mustamaija.games.black_maria.state import State
from mustamaija.games.black_maria.view import View

__all__ = ["Event", "Table"]


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


class Table:
    """A game between seats played by people (``None``) and bots, hand after hand (B8)."""

    def __init__(self, seats: Sequence[Player | None], rules: Rules | None = None, seed: int | str | None = None,
                 first_dealer: int | None = None) -> None:
        self.seats = list(seats)
        self.n = len(self.seats)
        self.rng = random.Random(seed)
        self.rules = rules or Rules()
        dealer = self.rng.randrange(self.n) if first_dealer is None else first_dealer
        self.match = Match(self.n, self.rules, dealer)
        self.state: State | None = None
        self.results: list[HandResult] = []

    # -- the flow ------------------------------------------------------------------

    def deal(self) -> State:
        """Deal the next hand with the current dealer (B8); then call :meth:`run_bots`."""
        self.state = self.match.next_hand(shuffled_deck(self.n, self.rng))
        return self.state

    def _current(self) -> State:
        if self.state is None:
            raise RulesError("no hand is being played: call deal() first")
        return self.state

    def waiting_for(self) -> int | None:
        """Return the person's seat to act, or None when a bot is to act or the hand is over."""
        s = self._current()
        if s.is_over or self.seats[s.actor] is not None:
            return None
        return s.actor

    def run_bots(self) -> list[Event]:
        """Let bots act until a person is to act or the hand is over; return what happened."""
        s = self._current()
        events: list[Event] = []
        while not s.is_over:
            bot = self.seats[s.actor]
            if bot is None:
                break
            before = s.nlog
            s.apply(bot.act(s.view(s.actor)))
            if s.nlog != before:
                events += self._events(s)
        return events

    def act(self, seat: int, choice: int | str | Iterable[int] | Iterable[str]) -> list[Event]:
        """Take a person's whole action (a pass of several cards or one card), then let the bots act.

        An illegal choice raises :class:`~mustamaija.core.errors.IllegalActionError` naming the rule and changes nothing.
        """
        s = self._current()
        if s.phase == 0:
            s.pass_cards(choice if not isinstance(choice, int) else [choice], seat=seat)
        else:
            if not isinstance(choice, (int, str)):
                raise RulesError("a play is one card")
            s.play_card(choice, seat=seat)
        return self._events(s) + self.run_bots()

    def finish(self) -> HandResult:
        """Score the finished hand and pass the deal on."""
        result = self.match.finish_hand(self._current())
        self.results.append(result)
        self.state = None
        return result

    # -- what front ends show --------------------------------------------------------

    def view(self, seat: int | None) -> View:
        """Return what ``seat`` (or a spectator, ``None``) may see of the current hand."""
        return self._current().view(seat)

    @property
    def totals(self) -> list[int]:
        """Return each seat's total penalty points over the finished hands."""
        return list(self.match.totals)

    @property
    def over(self) -> bool:
        """Return whether the game is over (B8)."""
        return self.match.over

    def _events(self, s: State) -> list[Event]:
        action = s.actions()[-1]
        if isinstance(action, Pass):
            out = [Event("pass", action.seat)]
            if s.phase != 0:
                out.append(Event("exchange"))
            return out
        assert isinstance(action, Play)
        out = [Event("play", action.seat, action.card)]
        if not s.trick:  # The play completed a trick.
            plays = [a for a in s.actions()[-s.n:] if isinstance(a, Play)]
            cards = tuple(a.card for a in plays)
            out.append(Event("trick", s.leader, cards=cards, points=penalty_of(sum(1 << c for c in cards))))
            if s.is_over:
                out.append(Event("hand", points=sum(s.points())))
        return out

