"""Black Maria's search kit: what the generic searches (:mod:`mustamaija.search`) need to know of this game.

* **PIMC**: every legal card is a candidate; each is played in every
  sampled deal (flat: ``samples`` deals, 20 by default) and the hand is
  finished by the heuristic for every seat (:func:`~mustamaija.games.black_maria.players.heuristic.heuristic_step`),
  which takes no random numbers. The pass (B3) is searched too, as a whole
  action: the candidates are every set of ``pass_count`` cards among the
  ``pass_count + 3`` the heuristic most wants to pass
  (:func:`~mustamaija.games.black_maria.players.heuristic.pass_order`), its
  own pass first and preferred, each played out to the end of the hand on
  the same sampled deals; the chosen pass is then given a card at a time.
  Every decision draws its deals from a generator seeded with the player's
  seed, its seat and the number of cards played, so a decision does not
  depend on how many decisions the player made before.
* **ISMCTS**: rollouts by the heuristic (``heuristic``) or at random
  (``random``), to the end of the hand, valued by the penalty points.

Black Maria has no exact solver.

>>> from mustamaija.games.black_maria import State
>>> from mustamaija.games.black_maria.players.heuristic import pass_choice
>>> kit = BlackMariaKit()
>>> s = State.from_seed(players=4, seed=3)
>>> v = s.view(s.to_act)
>>> plans, preferred = kit.candidates(v)  # Passing: sets of three cards, the heuristic's first.
>>> len(plans), plans[preferred] == pass_choice(v.hand, 3), {p.bit_count() for p in plans}
(20, True, {3})
>>> kit.playout(s, None); sum(s.points())
43
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from mustamaija.games.black_maria.players.heuristic import HeuristicPlayer, heuristic_step, pass_order
from mustamaija.games.black_maria.state import OVER, PASS, State
from mustamaija.games.black_maria.view import View
from mustamaija.search.kit import BasicKit, Guarded

__all__ = ["BlackMariaKit"]


def _heuristic_policy(state: State, rng: random.Random) -> int:
    return heuristic_step(state)


PASS_SPARES: Final = 3
"""The cards beyond a pass's size that its search draws its candidates from, in the heuristic's order:
with three to pass, the 20 sets of three of the six cards it most wants to pass."""

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
        """Return the heuristic's step in a pass begun without a search (taken over mid-pass); else ``None``: search."""
        return HeuristicPlayer(seed).act(view) if view.phase == PASS and view.sel else None

    def candidates(self, view: View) -> tuple[list[Any], int]:
        """Return every legal card while playing; while passing, sets of cards (masks), the heuristic's pass preferred."""
        if view.phase != PASS:
            return super().candidates(view)
        count = view.pass_count
        order = pass_order(view.hand, count)[:count + PASS_SPARES]
        plans = [sum(1 << c for c in chosen) for chosen in itertools.combinations(order, count)]
        return plans, 0  # The first set is the heuristic's pass: its top cards.

    def plan_key(self, view: View) -> Any:
        """Return what identifies a pass being given (the seat and its hand); ``None`` while playing (a plan is a card)."""
        return (view.seat, view.hand) if view.phase == PASS else None

    def plan_step(self, plan: Any, view: View) -> int:
        """Return the next card of a pass (they go in rising order) or the card to play."""
        if view.phase != PASS:
            return int(plan)
        rest: int = plan & ~view.sel
        return (rest & -rest).bit_length() - 1

    def apply(self, state: State, plan: Any) -> None:
        """Give the whole of a pass, or play a card."""
        if state.phase != PASS:
            state.apply(plan)
            return
        rest = plan & ~state.sel
        while rest:
            low = rest & -rest
            state.apply(low.bit_length() - 1)
            rest ^= low

    def playout(self, state: State, rng: random.Random | None) -> None:
        """Finish the hand with the heuristic for every seat."""
        while state.phase != OVER:
            state.apply(heuristic_step(state))

    def policy(self, name: str) -> Callable[[State, random.Random], int]:
        """Return the rollout policy ``heuristic`` or ``random``."""
        return HEURISTIC_POLICY if name == "heuristic" else super().policy(name)
