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

from collections.abc import Sequence
from dataclasses import dataclass, field

from mustamaija.core.errors import RulesError
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
class Match:
    """A series of deals between the same seats (M20).

    The match ends after ``deals`` deals or as soon as a player has
    ``max_losses`` losses, whichever comes first (at least one must be
    given). After each deal the deal passes to the left, or to the loser
    when the rules say ``next_dealer: "loser"`` (M5). A deal stopped
    unfinished by the endless-deal guard (M21) counts as played, costs
    nobody a loss, and the deal passes to the left.
    """

    players: int
    rules: Rules = field(default_factory=Rules)
    deals: int | None = None
    max_losses: int | None = None
    first_dealer: int = 0
    dealer: int = field(init=False)
    losses: list[int] = field(init=False)
    results: list[DealResult] = field(init=False, default_factory=list)
    _current: State | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        for name in ("deals", "max_losses"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise RulesError(f"M20: {name} must be a positive integer, not {value!r}")
        if self.deals is None and self.max_losses is None:
            raise RulesError("M20: a match needs an agreed number of deals or of losses")
        if not 0 <= self.first_dealer < self.players:
            raise RulesError(f"bad first dealer {self.first_dealer!r}: expected a seat from 0 to {self.players - 1}")
        self.dealer = self.first_dealer
        self.losses = [0] * self.players

    @property
    def played(self) -> int:
        """Return the number of deals finished or stopped so far."""
        return len(self.results)

    @property
    def over(self) -> bool:
        """Return whether the agreed number of deals or losses has been reached."""
        if self.deals is not None and self.played >= self.deals:
            return True
        return self.max_losses is not None and max(self.losses) >= self.max_losses

    def next_deal(self, deck: Sequence[int]) -> State:
        """Deal the next deal from ``deck`` (top first) with the current dealer."""
        if self.over:
            raise RulesError("M20: the match is over")
        if self._current is not None:
            raise RulesError("M20: the current deal is not finished yet")
        self._current = State.deal(self.players, deck, self.rules, self.dealer)
        return self._current

    def finish_deal(self, state: State) -> DealResult:
        """Score a deal that is over and pass the deal on (M5, M20)."""
        if not state.is_over:
            raise RulesError("M20: only a deal that is over can be scored")
        if state.n != self.players or state.dealer != self.dealer:
            raise RulesError("M20: this deal does not belong to the match's current deal")
        loser = state.loser if state.loser >= 0 else None
        result = DealResult(self.dealer, loser, state.turns)
        self.results.append(result)
        if loser is not None:
            self.losses[loser] += 1
        if loser is not None and self.rules.next_dealer == "loser":
            self.dealer = loser
        else:
            self.dealer = (self.dealer + 1) % self.players
        self._current = None
        return result

    def standings(self) -> list[tuple[int, int]]:
        """Return (seat, losses) pairs, fewest losses first."""
        return sorted(enumerate(self.losses), key=lambda p: (p[1], p[0]))
