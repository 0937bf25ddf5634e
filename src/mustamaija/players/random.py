"""The random player: a uniformly random legal step, from the view alone.

>>> from mustamaija import State
>>> s = State.from_seed(players=2, seed=3)
>>> p = RandomPlayer(seed=1)
>>> s.can_step(p.act(s.view(s.to_act)))
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mustamaija.core.draws import below
from mustamaija.core.protocol import GameView as View


class RandomPlayer:
    """Chooses uniformly among the legal steps of its view, with its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(seed)

    def act(self, view: View) -> int:
        """Return a uniformly random legal step."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do: it is seat {view.to_act}'s turn")
        return self.choose(legal)

    def choose(self, legal: Sequence[int]) -> int:
        """Return one of ``legal`` (not empty), uniformly: what :meth:`act` plays given its view's legal steps."""
        return legal[below(self.rng, len(legal))]  # What rng.choice(legal) draws, with fewer calls.
