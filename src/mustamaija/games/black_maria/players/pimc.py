"""The search player: Perfect Information Monte Carlo (PIMC) over determinisations of its view.

It is the generic PIMC player (:mod:`mustamaija.search.pimc`) with Black
Maria's search kit (:class:`~mustamaija.games.black_maria.players.kit.BlackMariaKit`):
for each decision it deals the hidden cards ``samples`` times consistently
with its view (:func:`~mustamaija.games.black_maria.sampling.sample_state`),
plays every legal card in each deal and finishes the hand with the
heuristic policy for every seat, and picks the card with the fewest penalty
points on average; every card is scored on the same deals, so the
comparison is paired. The pass is searched the same way, among sets of
the cards the heuristic most wants to pass (see the kit).

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

from typing import Any

from mustamaija.search.pimc import PIMCPlayer

__all__ = ["PimcPlayer"]


class PimcPlayer(PIMCPlayer):
    """Chooses the card with the fewest average penalty points over sampled deals and heuristic play-outs.

    ``samples`` deals a decision (20 by default); ``iters`` or ``time``
    spend the budget by sequential halving instead (see :class:`mustamaija.search.pimc.PIMCPlayer`).
    """

    def __init__(self, seed: int | None = None, samples: int | None = None, **budget: Any) -> None:
        super().__init__("black-maria", seed=seed, samples=samples, **budget)
