"""Matches (M20): deals in series, the deal passing on (M5), and each player's loss count.

>>> import random
>>> from mustamaija.games.mustamaija import Rules, deck_for_hands, shuffled_deck
>>> m = Match(players=3, deals=2, first_dealer=0)
>>> s = m.next_deal(shuffled_deck(random.Random(1)))
>>> s.dealer
0
>>> while not s.is_over:
...     s.apply(s.legal_actions()[0])
>>> m.finish_deal(s)
DealResult(dealer=0, loser=1, turns=27)
>>> m.played, sum(m.losses), m.dealer, m.over
(1, 1, 1, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from mustamaija.core.errors import RulesError
from mustamaija.core.match import Series
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.state import State

__all__ = ["DealResult", "Match"]


@dataclass(frozen=True, slots=True)
class DealResult:
    """How one deal of a match ended: its dealer, its loser (``None`` if M21 stopped it) and its turns."""

    dealer: int
    loser: int | None
    turns: int


@dataclass
class Match(Series):
    """A series of deals between the same seats (M20).

    The match ends after ``deals`` deals or as soon as a player has
    ``max_losses`` losses, whichever comes first (at least one must be
    given). After each deal the deal passes to the left, or to the loser
    when the rules say ``next_dealer: "loser"`` (M5). A deal stopped
    unfinished by the endless-deal guard (M21) counts as played, costs
    nobody a loss, and the deal passes to the left.
    """

    RULE: ClassVar[str] = "M20"

    rules: Rules = field(default_factory=Rules)
    deals: int | None = None
    """M20: the match ends after this many deals (``None``: no limit)."""
    max_losses: int | None = None
    """M20: the match ends as soon as a seat has this many losses (``None``: no limit)."""

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        for name in ("deals", "max_losses"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise RulesError(f"M20: {name} must be a positive integer, not {value!r}")
        if self.deals is None and self.max_losses is None:
            raise RulesError("M20: a match needs an agreed number of deals or of losses")
        self._start()

    @property
    def losses(self) -> list[int]:
        """Return each seat's losses so far (the series' totals)."""
        return self.totals

    @property
    def over(self) -> bool:
        """Return whether the agreed number of deals or losses has been reached."""
        if self.deals is not None and self.played >= self.deals:
            return True
        return self.max_losses is not None and max(self.totals) >= self.max_losses

    def _state_class(self) -> type[State]:
        return State

    def _score(self, state: State) -> tuple[DealResult, list[int], int]:
        loser = state.loser if state.loser >= 0 else None
        added = [int(seat == loser) for seat in range(self.players)]
        after = loser if loser is not None and self.rules.next_dealer == "loser" else (self.dealer + 1) % self.players
        return DealResult(self.dealer, loser, state.turns), added, after
