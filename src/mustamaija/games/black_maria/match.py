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

from dataclasses import dataclass, field
from typing import ClassVar

from mustamaija.core.errors import RulesError
from mustamaija.core.match import Series
from mustamaija.games.black_maria.rules import Rules, check_players
from mustamaija.games.black_maria.state import State

__all__ = ["HandResult", "Match"]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one hand of a game ended: its dealer and each seat's penalty points, reneges included."""

    dealer: int
    points: tuple[int, ...]


@dataclass
class Match(Series):
    """A series of hands between the same seats (B8).

    The game ends after ``rules.hands`` hands, or once a seat's total reaches
    ``rules.target_score`` (reading "passes an agreed score" as reaching it),
    whichever comes first; at least one must be set. After each hand the deal
    passes to the left. The lowest total wins; :meth:`winners` lists every
    seat that shares it.
    """

    RULE: ClassVar[str] = "B8"
    NOUN: ClassVar[str] = "hand"

    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        check_players(self.players)
        if self.rules.hands is None and self.rules.target_score is None:
            raise RulesError("B8: a game needs an agreed number of hands or a target score")
        self._start()

    @property
    def over(self) -> bool:
        """Return whether the agreed number of hands or the target score has been reached."""
        if self.rules.hands is not None and self.played >= self.rules.hands:
            return True
        return self.rules.target_score is not None and max(self.totals) >= self.rules.target_score

    def _state_class(self) -> type[State]:
        return State

    def _score(self, state: State) -> tuple[HandResult, list[int], int]:
        points = tuple(state.points())  # B6, B7
        return HandResult(self.dealer, points), list(points), (self.dealer + 1) % self.players

    next_hand = Series.next_deal
    finish_hand = Series.finish_deal

    def winners(self) -> list[int]:
        """Return the seats with the lowest total (B8: the lowest total wins)."""
        low = min(self.totals)
        return [s for s, t in enumerate(self.totals) if t == low]
