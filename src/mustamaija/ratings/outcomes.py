"""The pairwise rule: how one finished deal of any game becomes wins, losses and draws between its seats.

Glicko-2 rates two-player results, and a deal of these games has three to
eight seats and no winner named by the rules. The rule below turns a deal
into results between pairs of seats, generic over games: it reads only the
game protocol's :attr:`~mustamaija.core.protocol.Game.result_kind` and
:meth:`~mustamaija.core.protocol.Game.scores` (lower is better), never the
game's name.

* **A game of one loser** (``result_kind`` ``"loss"``: the seat left holding
  cards loses the deal, every other seat scores 0). Every other seat beat the
  loser; two seats that did not lose get **no result** against each other.
  The deal does not rank them: going out first is not a win over the seat
  that went out second (the rules name a loser, not an order), so a result
  between them would be invented. A three-seat deal therefore gives the loser
  two losses and each other seat one win.
* **A game scored in points** (``result_kind`` ``"points"``: every seat takes
  penalty points). Each pair is decided by their points in that deal: fewer
  points win, **equal points are a draw**. Here every pair is ranked by the
  deal: a seat with 3 points did better than one with 13, whoever took the
  rest.
* **A deal with no result** gives no results at all: one stopped unfinished
  (``game.truncated``: a single-loser game's turn limit), or not over
  (abandoned when its table was left).

>>> outcomes_from_scores("loss", [0.0, 1.0, 0.0])
(Outcome(a=0, b=1, score=1.0), Outcome(a=1, b=2, score=0.0))
>>> outcomes_from_scores("points", [13.0, 0.0, 13.0])
(Outcome(a=0, b=1, score=0.0), Outcome(a=0, b=2, score=0.5), Outcome(a=1, b=2, score=1.0))
>>> outcomes_from_scores("loss", None)
()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mustamaija.core.protocol import Game, ResultKind

__all__ = ["Outcome", "deal_outcomes", "outcomes_from_scores"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """One result between two seats of a deal: seat ``a``'s score against seat ``b`` (1 win, 0.5 draw, 0 loss)."""

    a: int
    b: int
    score: float

    def for_seat(self, seat: int) -> float:
        """Return the score of ``seat`` (``a`` or ``b``) in this result.

        >>> Outcome(0, 2, 1.0).for_seat(2)
        0.0
        """
        if seat == self.a:
            return self.score
        if seat == self.b:
            return 1.0 - self.score
        raise ValueError(f"seat {seat} is not in the result between seats {self.a} and {self.b}")


def outcomes_from_scores(kind: ResultKind, scores: Sequence[float] | None) -> tuple[Outcome, ...]:
    """Return the pairwise results of a deal from its scores (lower better), by the rule of the module.

    ``None`` scores (a deal stopped unfinished) give no results.
    """
    if scores is None:
        return ()
    if kind not in ("loss", "points"):
        raise ValueError(f"no pairwise rule for results of kind {kind!r}")
    out = []
    for a in range(len(scores)):
        for b in range(a + 1, len(scores)):
            if scores[a] == scores[b]:
                if kind == "points":  # Equal points: the deal ranks them level.
                    out.append(Outcome(a, b, 0.5))
                continue  # Neither lost: the deal does not rank them.
            out.append(Outcome(a, b, 1.0 if scores[a] < scores[b] else 0.0))
    return tuple(out)


def deal_outcomes(game: Game, state: Any) -> tuple[Outcome, ...]:
    """Return the pairwise results of a deal of ``game`` (none while it is not over, or if it was stopped).

    >>> from mustamaija.core.registry import games
    >>> for game in games():
    ...     state = game.deal(3, seed=1)
    ...     assert deal_outcomes(game, state) == ()
    ...     while not state.is_over:
    ...         state.apply(state.legal_actions()[0])
    ...     assert deal_outcomes(game, state) == outcomes_from_scores(game.result_kind, game.scores(state))
    """
    if not state.is_over or game.truncated(state):
        return ()
    return outcomes_from_scores(game.result_kind, game.scores(state))
