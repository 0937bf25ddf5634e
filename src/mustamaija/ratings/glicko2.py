"""Glickman's Glicko-2 rating system: one rating period of one player, as pure arithmetic (no I/O, no clock).

This is the algorithm of Mark Glickman's "Example of the Glicko-2 system"
(2013 revision, with the Illinois iteration for the volatility), written
here rather than taken from a library. The Glicko-2 package of the Python
package index (``glicko2`` 2.1.0) was looked at first: it is a port of 2009
code that keeps each player as a mutable object with the system constant
as a class attribute, has no type hints and, worse, computes the
volatility's function ``f`` with the player's rating ``mu`` where the paper
has the deviation ``phi``. The paper's worked example hides that slip (its
player is rated 1500, so ``mu`` is 0, and the volatility then moves only in
the sixth digit), but the root it finds is not the paper's. The other
packages of that name are young one-author projects. Eighty lines of
arithmetic with the paper's example as a test cost less than such a
dependency.

A player is a :class:`Rating`: a rating (1500 for a newcomer), a rating
deviation RD (350: nothing is known yet) and a volatility (0.06). A rating
period's results are ``(opponent, score)`` pairs, the score 1 for a win, 0.5
for a draw and 0 for a loss, all against the opponents' ratings as they were
at the start of the period. The system constant ``tau`` (:data:`TAU`, 0.5)
bounds how fast the volatility may change: Glickman advises 0.3 to 1.2,
smaller where upsets are rare; a card game with dealt hands has many
upsets, so it takes the middle of the range.

The paper's example: a player rated 1500 (RD 200) beats a player rated 1400
(RD 30) and loses to players rated 1550 (RD 100) and 1700 (RD 300).

>>> after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)])
>>> round(after.rating, 2), round(after.rd, 2), round(after.volatility, 6)
(1464.05, 151.52, 0.059996)

The paper, rounding every figure as it goes, prints 1464.06, 151.52 and 0.05999.

A period without games leaves the rating and widens the deviation:

>>> idle = rate(Rating(1500, 200, 0.06), [])
>>> idle.rating, round(idle.rd, 2)
(1500.0, 200.27)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

__all__ = ["INITIAL", "SCALE", "TAU", "Rating", "expected_score", "rate"]

SCALE: Final = 173.7178
"""The factor between the Glicko scale (ratings near 1500) and Glicko-2's internal one (``mu``, ``phi``): 400 / ln 10."""
TAU: Final = 0.5
"""The system constant: how far the volatility may move in one period (Glickman advises 0.3 to 1.2)."""
EPSILON: Final = 1e-6
"""The convergence tolerance of the volatility's iteration (the paper's)."""
_MAX_ITERATIONS: Final = 200
"""A bound on the volatility's iterations: the Illinois method converges in a handful; this only guards the loop."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's Glicko-2 rating on the Glicko scale: rating, rating deviation (RD) and volatility."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06

    def __post_init__(self) -> None:
        for key in ("rating", "rd", "volatility"):  # Numbers from a database or JSON may be ints: keep floats.
            object.__setattr__(self, key, float(getattr(self, key)))
        if not (math.isfinite(self.rating) and math.isfinite(self.rd) and math.isfinite(self.volatility)):
            raise ValueError(f"a rating's numbers must be finite: {self}")
        if self.rd <= 0 or self.volatility <= 0:
            raise ValueError(f"a rating's deviation and volatility must be positive: {self}")


INITIAL: Final = Rating()
"""A newcomer's rating: 1500, RD 350, volatility 0.06 (the paper's suggestion)."""


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """Return the score ``player`` is expected to take from ``opponent`` (0 to 1), the opponent's RD counted.

    >>> round(expected_score(Rating(1500, 200), Rating(1400, 30)), 3)
    0.639
    """
    return _e((player.rating - 1500.0) / SCALE, (opponent.rating - 1500.0) / SCALE, _g(opponent.rd / SCALE))


def rate(player: Rating, results: Iterable[tuple[Rating, float]], *, tau: float = TAU, periods: float = 1.0,
         max_rd: float | None = None) -> Rating:
    """Return ``player``'s rating after a rating period with ``results``: (opponent's rating, score) pairs.

    ``periods`` is how many rating periods the deviation grows by before the results count (step 6 of
    the paper: ``phi* = sqrt(phi^2 + periods * sigma'^2)``): 1 is the paper's system; a server that rates
    every game as it ends gives the time since the player's last game instead, as lichess does. ``max_rd``
    caps that grown deviation (a newcomer's 350: nobody is less known than a newcomer).

    >>> rate(INITIAL, [(INITIAL, 1.5)])
    Traceback (most recent call last):
    ...
    ValueError: a score is 0, 0.5 or 1 (a loss, a draw, a win), not 1.5
    """
    if not tau > 0 or not periods >= 0:
        raise ValueError(f"tau must be positive and periods at least 0, not tau={tau}, periods={periods}")
    mu, phi, sigma = (player.rating - 1500.0) / SCALE, player.rd / SCALE, player.volatility
    cap = math.inf if max_rd is None else max_rd / SCALE
    games = []
    for opponent, score in results:
        if score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a score is 0, 0.5 or 1 (a loss, a draw, a win), not {score}")
        g_j = _g(opponent.rd / SCALE)
        games.append((g_j, _e(mu, (opponent.rating - 1500.0) / SCALE, g_j), float(score)))
    if not games:  # Only step 6: the deviation grows, nothing else moves.
        return Rating(player.rating, min(math.sqrt(phi * phi + periods * sigma * sigma), cap) * SCALE, sigma)
    v = 1.0 / sum(g_j * g_j * e * (1.0 - e) for g_j, e, _ in games)  # Step 3: the variance from the results alone.
    gains = sum(g_j * (s - e) for g_j, e, s in games)
    delta = v * gains  # Step 4: the improvement the results suggest.
    sigma_new = _volatility(phi, sigma, v, delta, tau)  # Step 5.
    phi_star = min(math.sqrt(phi * phi + periods * sigma_new * sigma_new), cap)  # Step 6.
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # Step 7.
    mu_new = mu + phi_new * phi_new * gains
    return Rating(SCALE * mu_new + 1500.0, SCALE * phi_new, sigma_new)  # Step 8.


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Return the new volatility: the root of the paper's ``f`` found by the Illinois method (step 5)."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0 and k < _MAX_ITERATIONS:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= EPSILON:
            break
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = c, f_c
    return math.exp(big_a / 2.0)
