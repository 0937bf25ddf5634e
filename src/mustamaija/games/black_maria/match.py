"""A game of Black Maria (B8): hands in series, the deal passing to the left, ended by hands or score.

>>> import random
>>> from mustamaija.games.black_maria import shuffled_deck
>>> m = Match(players=3, rules=Rules(hands=2), first_dealer=0)
>>> s = m.next_hand(shuffled_deck(3, random.Random(1)))
>>> s.dealer
0
>>> while not s.is_over:
...     s.apply(s.legal_actions()[0])
>>> m.finish_hand(s)
HandResult(dealer=0, points=(34, 6, 3))
>>> m.played, m.totals, m.dealer, m.over
(1, [34, 6, 3], 1, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mustamaija.core.errors import RulesError
from mustamaija.games.black_maria.rules import Rules, check_players
from mustamaija.games.black_maria.state import State

__all__ = ["HandResult", "Match"]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one hand of a game ended: its dealer and each seat's penalty points, reneges included."""

    dealer: int
    points: tuple[int, ...]


@dataclass
class Match:
    """A series of hands between the same seats (B8).

    The game ends after ``rules.hands`` hands, or once a seat's total reaches
    ``rules.target_score`` (reading "passes an agreed score" as reaching it),
    whichever comes first; at least one must be set. After each hand the deal
    passes to the left. The lowest total wins; :meth:`winners` lists every
    seat that shares it.
    """

    players: int
    rules: Rules = field(default_factory=Rules)
    first_dealer: int = 0
    dealer: int = field(init=False)
    totals: list[int] = field(init=False)
    results: list[HandResult] = field(init=False, default_factory=list)
    _current: State | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        check_players(self.players)
        if self.rules.hands is None and self.rules.target_score is None:
            raise RulesError("B8: a game needs an agreed number of hands or a target score")
        if isinstance(self.first_dealer, bool) or not isinstance(self.first_dealer, int) or not (
            0 <= self.first_dealer < self.players
        ):
            raise RulesError(f"bad first dealer {self.first_dealer!r}: expected a seat from 0 to {self.players - 1}")
        self.dealer = self.first_dealer
        self.totals = [0] * self.players

    @property
    def played(self) -> int:
        """Return the number of hands scored so far."""
        return len(self.results)

    @property
    def over(self) -> bool:
        """Return whether the agreed number of hands or the target score has been reached."""
        if self.rules.hands is not None and self.played >= self.rules.hands:
            return True
        return self.rules.target_score is not None and max(self.totals) >= self.rules.target_score

    def next_hand(self, deck: Sequence[int]) -> State:
        """Deal the next hand from ``deck`` (the cards in play, top first) with the current dealer."""
        if self.over:
            raise RulesError("B8: the game is over")
        if self._current is not None:
            raise RulesError("B8: the current hand is not finished yet")
        self._current = State.deal(self.players, deck, self.rules, self.dealer)
        return self._current

    def finish_hand(self, state: State) -> HandResult:
        """Score a hand that is over (B6, B7) and pass the deal to the left (B8)."""
        if not state.is_over:
            raise RulesError("B8: only a hand that is over can be scored")
        if state.n != self.players or state.dealer != self.dealer:
            raise RulesError("B8: this hand does not belong to the game's current deal")
        result = HandResult(self.dealer, tuple(state.points()))
        self.results.append(result)
        for s, p in enumerate(result.points):
            self.totals[s] += p
        self.dealer = (self.dealer + 1) % self.players
        self._current = None
        return result

    def winners(self) -> list[int]:
        """Return the seats with the lowest total (B8: the lowest total wins)."""
        low = min(self.totals)
        return [s for s, t in enumerate(self.totals) if t == low]

    def standings(self) -> list[tuple[int, int]]:
        """Return (seat, total) pairs, lowest total first."""
        return sorted(enumerate(self.totals), key=lambda p: (p[1], p[0]))
