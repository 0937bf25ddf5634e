"""Black Maria's search kit: what the generic searches (:mod:`mustamaija.search`) need to know of this game.

* **PIMC**: every legal card is a candidate; each is played in every
  sampled deal (flat: ``samples`` deals, 20 by default) and the hand is
  finished by the heuristic for every seat (:func:`~mustamaija.games.black_maria.players.heuristic.heuristic_step`),
  which takes no random numbers. Passing follows the heuristic (searching
  the passes would need the whole hand played out for each set of cards).
  Every decision draws its deals from a generator seeded with the player's
  seed, its seat and the number of cards played, so a decision does not
  depend on how many decisions the player made before.
* **ISMCTS**: rollouts by the heuristic (``heuristic``) or at random
  (``random``), to the end of the hand, valued by the penalty points.

Black Maria has no exact solver.

>>> from mustamaija.games.black_maria import State
>>> kit = BlackMariaKit()
>>> s = State.from_seed(players=4, seed=3)
>>> kit.fixed_step(s.view(s.to_act), 0) is not None  # Passing: the heuristic's card.
True
>>> kit.playout(s, None); sum(s.points())
43
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from mustamaija.games.black_maria.players.heuristic import HeuristicPlayer, heuristic_step
from mustamaija.games.black_maria.state import OVER, PASS, State
from mustamaija.games.black_maria.view import View
from mustamaija.search.kit import BasicKit, Guarded

__all__ = ["BlackMariaKit"]


def _heuristic_policy(state: State, rng: random.Random) -> int:
    return heuristic_step(state)


HEURISTIC_POLICY: Final = Guarded(_heuristic_policy)
"""The ``heuristic`` rollout policy: the heuristic's step (it uses no random numbers), a random one where a pass
the tree began leaves the heuristic's card illegal (passes are chosen in rising order)."""


class BlackMariaKit(BasicKit):
    """Black Maria's knowledge for the generic searches (see the module docstring)."""

    default_budget: Mapping[str, int] = {"samples": 20}
    playout_seeds = False
    rollouts: Sequence[str] = ("heuristic", "random")
    default_depth = 0

    def __init__(self, game: Any = None) -> None:
        if game is None:
            from mustamaija.games.black_maria.game import GAME

            game = GAME
        super().__init__(game)

    def decision_seed(self, seed: int | None, rng: random.Random, view: View) -> str:
        """Return ``"seed:seat:cards played"``: reproducible, and independent of the player's earlier decisions."""
        return f"{seed}:{view.seat}:{len(view.plays)}"

    def fixed_step(self, view: View, seed: int | None) -> int | None:
        """Return the heuristic's pass step while passing (B3); ``None`` (search) while playing."""
        return HeuristicPlayer(seed).act(view) if view.phase == PASS else None

    def playout(self, state: State, rng: random.Random | None) -> None:
        """Finish the hand with the heuristic for every seat."""
        while state.phase != OVER:
            state.apply(heuristic_step(state))

    def policy(self, name: str) -> Callable[[State, random.Random], int]:
        """Return the rollout policy ``heuristic`` or ``random``."""
        return HEURISTIC_POLICY if name == "heuristic" else super().policy(name)
