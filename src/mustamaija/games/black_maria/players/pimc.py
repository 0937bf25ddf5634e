"""The search player: Perfect Information Monte Carlo (PIMC) over determinisations of its view.

For each decision it deals the hidden cards ``samples`` times consistently
with its view (:func:`~mustamaija.games.black_maria.sampling.sample_state`), plays
every legal card in each deal and finishes the hand with the heuristic
policy for every seat, and picks the card with the fewest penalty points on
average; every card is scored on the same deals, so the comparison is
paired. Passing uses the heuristic's choice (searching the passes would
need the whole hand played out for each set of cards).

It sees only views: the same view and seed give the same decision whatever
the hidden cards are.

>>> from mustamaija.games.black_maria import State
>>> s = State.from_seed(players=4, seed=3)
>>> p = PimcPlayer(seed=1, samples=4)
>>> while not s.is_over:
...     s.apply(p.act(s.view(s.to_act)))
>>> sum(s.points())
43
"""

from __future__ import annotations

import random

from mustamaija.games.black_maria.legality import penalty_of
from mustamaija.games.black_maria.players.heuristic import HeuristicPlayer, heuristic_step
from mustamaija.games.black_maria.sampling import sample_state
from mustamaija.games.black_maria.state import PASS
from mustamaija.games.black_maria.view import View

__all__ = ["PimcPlayer"]


class PimcPlayer:
    """Chooses the card with the fewest average penalty points over sampled deals and heuristic play-outs."""

    name = "pimc"

    def __init__(self, seed: int | None = None, samples: int = 20) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ValueError(f"samples must be a positive integer, not {samples!r}")
        self.seed = seed
        self.samples = samples
        self._heuristic = HeuristicPlayer()

    def act(self, view: View) -> int:
        """Return the card with the best average outcome (the heuristic's step while passing)."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do: it is seat {view.to_act}'s turn")
        if view.phase == PASS:
            return self._heuristic.act(view)
        if len(legal) == 1:
            return legal[0]
        me = view.seat
        assert me is not None
        # A generator per decision, seeded from the seed and the public step number, keeps decisions
        # reproducible and independent of how many earlier decisions this object made.
        rng = random.Random(f"{self.seed}:{me}:{len(view.plays)}")
        totals = dict.fromkeys(legal, 0)
        for _ in range(self.samples):
            world = sample_state(view, rng)
            for card in legal:
                s = world.copy()
                s.apply(card)
                while s.phase != 2:
                    s.apply(heuristic_step(s))
                totals[card] += penalty_of(s.won[me])
        return min(legal, key=lambda c: (totals[c], c))
