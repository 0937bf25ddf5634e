"""What every game's match shares: deals in series between the same seats, the deal passing on, totals.

A game's match subclasses :class:`Series` and says what is its own: the rule
id the errors cite, how a finished deal is scored and who deals next, and
when the series is over.

"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from mustamaija.core.errors import RulesError

__all__ = ["Series"]


@dataclass
class Series:
    """The bookkeeping of a series of deals: the dealer, the results, the per-seat totals, the deal under way.

    Subclasses are dataclasses too; they give ``rules`` its default, may add fields, and set :attr:`RULE`.
    """

    RULE: ClassVar[str]
    """The rule id the series' errors cite (M20, B8)."""
    NOUN: ClassVar[str] = "deal"
    """What one deal is called in messages ("deal", "hand")."""
    players: int
    """The number of seats."""
    rules: Any = None
    """The game's rule set."""
    first_dealer: int = 0
    """The dealer of the first deal."""
    dealer: int = field(init=False)
    """The dealer of the deal under way, or of the next one."""
    totals: list[int] = field(init=False)
    """Each seat's total so far: losses or penalty points (lower is better)."""
    results: list[Any] = field(init=False, default_factory=list)
    """How each deal scored so far ended, in order."""
    _current: Any = field(init=False, default=None, repr=False)

    def _start(self) -> None:
        if isinstance(self.first_dealer, bool) or not isinstance(self.first_dealer, int) or not (
            0 <= self.first_dealer < self.players
        ):
            raise RulesError(f"bad first dealer {self.first_dealer!r}: expected a seat from 0 to {self.players - 1}")
        self.dealer = self.first_dealer
        self.totals = [0] * self.players

    @property
    def played(self) -> int:
        """Return the number of deals scored so far."""
        return len(self.results)

    @property
    def over(self) -> bool:
        """Return whether the series has reached its agreed end."""
        raise NotImplementedError

    def _state_class(self) -> Any:
        raise NotImplementedError

    def next_deal(self, deck: Sequence[int]) -> Any:
        """Deal the next deal from ``deck`` (top first) with the current dealer."""
        if self.over:
            raise RulesError(f"{self.RULE}: the {'match' if self.NOUN == 'deal' else 'game'} is over")
        if self._current is not None:
            raise RulesError(f"{self.RULE}: the current {self.NOUN} is not finished yet")
        self._current = self._state_class().deal(self.players, deck, self.rules, self.dealer)
        return self._current

    def _score(self, state: Any) -> tuple[Any, list[int], int]:
        """Return the deal's result record, what it adds to each seat's total, and the next dealer."""
        raise NotImplementedError

    def finish_deal(self, state: Any) -> Any:
        """Score a deal that is over and pass the deal on."""
        if not state.is_over:
            raise RulesError(f"{self.RULE}: only a {self.NOUN} that is over can be scored")
        if state.n != self.players or state.dealer != self.dealer:
            raise RulesError(f"{self.RULE}: this {self.NOUN} does not belong to the current deal")
        result, added, self.dealer = self._score(state)
        self.results.append(result)
        for seat, points in enumerate(added):
            self.totals[seat] += points
        self._current = None
        return result

    def standings(self) -> list[tuple[int, int]]:
        """Return (seat, total) pairs, lowest total first."""
        return sorted(enumerate(self.totals), key=lambda p: (p[1], p[0]))
