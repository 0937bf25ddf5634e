"""Ratings over many deals: each identity's standing in a game, one deal at a time, and the leaderboard order.

Each finished deal is one Glicko-2 rating period for the seats rated in it
(as lichess rates each game as it ends): every rated seat's results against
the others (:mod:`~mustamaija.ratings.outcomes`) count at once, against the
ratings all of them had before the deal. Between deals a deviation grows
with the time since that identity's last rated deal, at lichess's 0.21436
rating periods a day, up to a newcomer's 350; with no clock (records rated
offline, which hold no times) it does not grow. A deviation never falls
below 45 (lichess's floor), so that a rating played thousands of times still
moves. A standing whose deviation is over 110 is *provisional*, as on
lichess.

A seat without an identity (a name not signed in) gets no results, and gives
none to the others; two seats of one identity (one bot level in two seats)
get no result against each other. Wins, losses and draws count pairwise
results, not deals: a three-seat deal of a single-loser game gives its loser
two losses.

>>> from mustamaija.ratings.outcomes import outcomes_from_scores
>>> seats = ["bot:hard", "player:ann", "bot:easy"]
>>> new = rate_deal({}, seats, outcomes_from_scores("loss", [0.0, 0.0, 1.0]))
>>> [(who, round(s.rating.rating), s.games, s.wins, s.losses) for who, s in sorted(new.items())]
[('bot:easy', 1253, 1, 0, 2), ('bot:hard', 1662, 1, 1, 0), ('player:ann', 1662, 1, 1, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from mustamaija.ratings.glicko2 import INITIAL, Rating, rate
from mustamaija.ratings.outcomes import Outcome

__all__ = ["MAX_RD", "MIN_RD", "PERIODS_PER_DAY", "PROVISIONAL_RD", "Ledger", "Standing", "ranked", "rate_deal"]

MAX_RD: Final = INITIAL.rd
"""The largest deviation: a newcomer's (350)."""
MIN_RD: Final = 45.0
"""The smallest deviation (lichess's), so that a rating played for long still moves."""
PROVISIONAL_RD: Final = 110.0
"""A rating whose deviation is above this is provisional (lichess's threshold)."""
PERIODS_PER_DAY: Final = 0.21436
"""How many rating periods a day of absence adds to a deviation (lichess's rate)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """An identity's rating in one game, the deals that made it, its pairwise results and when it last moved."""

    rating: Rating = INITIAL
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    updated: float | None = None
    """Epoch seconds of the last rated deal, or ``None`` (never rated, or rated offline)."""

    @property
    def provisional(self) -> bool:
        """Return whether the rating is still uncertain (deviation over :data:`PROVISIONAL_RD`)."""
        return self.rating.rd > PROVISIONAL_RD


def _periods(standing: Standing, now: float | None) -> float:
    if now is None or standing.updated is None:
        return 0.0
    return max(0.0, now - standing.updated) / 86400.0 * PERIODS_PER_DAY


def rate_deal(standings: Mapping[str, Standing], seats: Sequence[str | None], outcomes: Iterable[Outcome],
              now: float | None = None) -> dict[str, Standing]:
    """Return the new standings of the identities a deal rates (the others are left out).

    ``standings`` holds the identities' standings before the deal (a missing one is a newcomer's);
    ``seats`` the identity of each seat, ``None`` for a seat that is not rated; ``outcomes`` the deal's
    pairwise results; ``now`` the time of the deal (epoch seconds), or ``None`` offline.
    """
    before = {who: standings.get(who, Standing()) for who in seats if who is not None}
    results: dict[str, list[tuple[Rating, float]]] = {}
    for o in outcomes:
        a, b = seats[o.a], seats[o.b]
        if a is None or b is None or a == b:
            continue
        results.setdefault(a, []).append((before[b].rating, o.score))
        results.setdefault(b, []).append((before[a].rating, 1.0 - o.score))
    out = {}
    for who, games in results.items():
        old = before[who]
        new = rate(old.rating, games, periods=_periods(old, now), max_rd=MAX_RD)
        if new.rd < MIN_RD:
            new = replace(new, rd=MIN_RD)
        out[who] = Standing(new, old.games + 1,
                            old.wins + sum(s == 1.0 for _, s in games),
                            old.losses + sum(s == 0.0 for _, s in games),
                            old.draws + sum(s == 0.5 for _, s in games),
                            now)
    return out


def ranked(standings: Iterable[tuple[str, Standing]]) -> list[tuple[int, str, Standing]]:
    """Return the leaderboard order, ranks from 1: established ratings first, highest first, then provisional ones.

    A provisional rating is not yet a place on the board (one lucky deal can put a newcomer above everyone),
    so it follows every established one; ties keep the order given.

    >>> board = ranked([("a", Standing(Rating(1700, 200))), ("b", Standing(Rating(1600, 60))), ("c", Standing(Rating(1650, 50)))])
    >>> [(rank, who) for rank, who, _ in board]
    [(1, 'c'), (2, 'b'), (3, 'a')]
    """
    rows = sorted(standings, key=lambda item: (item[1].provisional, -item[1].rating.rating))
    return [(i + 1, who, s) for i, (who, s) in enumerate(rows)]


class Ledger:
    """Standings of many identities in many games, in memory: what rating a series of deals gives (offline).

    >>> from mustamaija.ratings.outcomes import Outcome
    >>> ledger = Ledger()
    >>> ledger.add("g", ["bot:hard", "bot:easy"], [Outcome(0, 1, 1.0)])
    >>> ledger.add("g", ["bot:hard", None], [Outcome(0, 1, 1.0)])
    >>> [(rank, who, s.games) for rank, who, s in ledger.board("g")]
    [(1, 'bot:hard', 1), (2, 'bot:easy', 1)]
    >>> ledger.deals["g"], ledger.unrated["g"]
    (1, 1)
    """

    def __init__(self) -> None:
        self.standings: dict[str, dict[str, Standing]] = {}
        self.deals: dict[str, int] = {}
        """Deals that rated someone, by game."""
        self.unrated: dict[str, int] = {}
        """Deals that rated nobody (no result, or fewer than two identities with one), by game."""

    def add(self, game: str, seats: Sequence[str | None], outcomes: Iterable[Outcome], now: float | None = None) -> None:
        """Rate one deal of ``game``: the seats' identities (``None``: not rated) and its pairwise results."""
        book = self.standings.setdefault(game, {})
        new = rate_deal(book, seats, outcomes, now)
        counter = self.deals if new else self.unrated
        counter[game] = counter.get(game, 0) + 1
        book.update(new)

    def games(self) -> list[str]:
        """Return the games some deal of was seen, in the order first seen."""
        return list(dict.fromkeys([*self.standings, *self.unrated]))

    def board(self, game: str) -> list[tuple[int, str, Standing]]:
        """Return the leaderboard of ``game`` (:func:`ranked`)."""
        return ranked(self.standings.get(game, {}).items())
