"""Mustamaija's search kit: what the generic searches (:mod:`mustamaija.search`) need to know of this game.

* **PIMC** (:mod:`mustamaija.search.pimc`): the candidate actions are the
  heuristic's (:func:`~mustamaija.games.mustamaija.players.heuristic.candidate_plans`:
  the leads it considers, the defences that beat the best 0, 1, 2... led
  cards), a plan is taken in one go (``_do_lead``, ``_do_beat``) and played
  out as the heuristic player plays, its rules a whole action at a time and
  two-seat endgames of up to 16 cards exactly (:func:`playout`), and then
  emitted card by card (:func:`~mustamaija.games.mustamaija.players.heuristic.plan_step`).
  Declarations (V4) follow the heuristic: a marriage is declared as soon as
  it is held; an action begun without a plan (a restored session) is
  finished as the heuristic would. The player's generator, seeded once,
  gives every search its seed.
* **ISMCTS** (:mod:`mustamaija.search.ismcts`): the rollout policies, the
  fitted evaluation, the decision contexts and the fast sampler of
  :mod:`.ismcts` and :mod:`.ismcts_policy`.
* **Both**: the unseen cards are dealt by :mod:`.beliefs`, the model of
  what players keep (trumps, most of all) learned from the heuristic's own
  play, and once the talon is empty by how well the heuristic explains the
  other seats' play since (:mod:`.inference`); ``beliefs=off`` deals them
  uniformly.
* **Both**: two seats left with cards and an empty talon go to the exact
  solver (:mod:`~mustamaija.games.mustamaija.endgame`); hints and ``mustamaija solve`` use the
  solver through :class:`~mustamaija.games.mustamaija.analysis.EndgameAnalysis`.

>>> from mustamaija import State
>>> kit = MustamaijaKit()
>>> s = State.from_seed(players=3, seed=5)
>>> plans, preferred = kit.candidates(s.view(s.to_act))
>>> kit.apply(s, plans[preferred]); kit.playout(s, random.Random(1))
>>> s.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from mustamaija.games.mustamaija.actions import DECLARE
from mustamaija.games.mustamaija.endgame import MAX_SOLVER_CARDS, EndgameSolver
from mustamaija.games.mustamaija.players.beliefs import InformedDeterminiser, shipped_model
from mustamaija.games.mustamaija.players.heuristic import (
    ENDGAME_CARDS,
    HeuristicPlayer,
    Plan,
    Weights,
    apply_plan,
    candidate_plans,
    heuristic_play_out,
    plan_step,
)
from mustamaija.games.mustamaija.players.inference import TALON_MISS, PlayEvidence, TalonEvidence
from mustamaija.games.mustamaija.players.ismcts import DEFAULT_DEPTH, ROLLOUTS, Determiniser, rollout_policy, state_context
from mustamaija.games.mustamaija.players.ismcts_policy import fast_rollout, fast_step, outcome, rollout
from mustamaija.games.mustamaija.state import State
from mustamaija.games.mustamaija.view import View
from mustamaija.search.kit import BasicKit

__all__ = ["DEFAULT_ITERS", "PLAYOUT_WEIGHTS", "MustamaijaKit", "playout"]

DEFAULT_ITERS: Final = 300
"""Playouts per PIMC decision when neither ``iters`` nor ``time`` is given (about a third of a second on one core)."""


PLAYOUT_WEIGHTS: Final = Weights()
"""The numbers of the playouts' rules: the heuristic player's own, so that a playout plays as that player does.

The rollout weights (:data:`~mustamaija.games.mustamaija.players.heuristic.ROLLOUT_WEIGHTS`), which
break circulations sooner, made the playouts misjudge the heuristic players a search meets
(docs/strength.md, "Playouts that play as the player does")."""


def playout(state: State, rng: random.Random | None = None, endgame: EndgameSolver | None = None) -> list[float]:
    """Play ``state`` out in place, every seat following the heuristic; return each seat's value (1: did not lose).

    With ``endgame`` small two-seat endgames are played exactly, as in
    :meth:`MustamaijaKit.playout`; without it, by the rules alone.

    A part-done action (a lead being chosen, a defence under way) is finished
    by the heuristic's step rule first. A deal stopped by the turn limit (M21)
    scores 1 for everybody, as in :func:`~mustamaija.games.mustamaija.players.ismcts_policy.outcome`.
    """
    heuristic_play_out(state, rng, endgame, PLAYOUT_WEIGHTS)
    return outcome(state)


class MustamaijaKit(BasicKit):
    """Mustamaija's knowledge for the generic searches (see the module docstring)."""

    default_budget: Mapping[str, int] = {"iters": DEFAULT_ITERS}
    playout_seeds = True
    rollouts: Sequence[str] = ROLLOUTS
    default_depth = DEFAULT_DEPTH

    def __init__(self, game: Any = None) -> None:
        if game is None:
            from mustamaija.games.mustamaija.game import GAME

            game = GAME
        super().__init__(game)
        self.beliefs = True
        self.recent = 0
        """The log entries read back while the talon lasts (:class:`.inference.TalonEvidence`, about
        :data:`~.inference.RECENT`); 0, the default: none, since it measured no gain (docs/strength.md)."""
        self.talon_miss = TALON_MISS
        """The factor of a deal's weight for each of those actions the heuristic would not have taken."""
        self._heuristics: dict[int | None, HeuristicPlayer] = {}
        self._endgame = EndgameSolver(max_cards=ENDGAME_CARDS)

    def _heuristic(self, seed: int | None) -> HeuristicPlayer:
        player = self._heuristics.get(seed)
        if player is None:
            player = self._heuristics[seed] = HeuristicPlayer(seed=seed)
        return player

    def sampler(self, view: View) -> Callable[[random.Random], State]:
        """Return a dealer of the unseen cards: by what players keep (:mod:`.beliefs`), or uniformly without ``beliefs``.

        With ``beliefs``, once the talon is empty the deals are also weighed by the other seats' play since
        (:class:`~mustamaija.games.mustamaija.players.inference.PlayEvidence`), and with :attr:`recent`, while
        it lasts by their last actions (:class:`~mustamaija.games.mustamaija.players.inference.TalonEvidence`). Uniformly is
        :meth:`Determiniser.draw`: :func:`~mustamaija.games.mustamaija.sampling.sample_state`, faster.
        """
        if not self.beliefs:
            return Determiniser(view).draw
        draw = InformedDeterminiser(view, shipped_model()).draw
        evidence = PlayEvidence.of(view) or (TalonEvidence.of(view, self.recent, self.talon_miss) if self.recent else None)
        return evidence.dealer(draw) if evidence is not None else draw

    def fixed_step(self, view: View, seed: int | None) -> int | None:
        """Return the heuristic's step for an action begun without a plan, or its declaration (V4); else ``None``."""
        if view.in_progress:
            return self._heuristic(seed).act(view)
        if view.rules.trump != "marriage" or view.declarer != -1:
            return None
        step = self._heuristic(seed).act(view)
        return step if step >= DECLARE else None

    def candidates(self, view: View) -> tuple[list[Plan], int]:
        """Return the heuristic's candidate leads or defences and the index of its own choice."""
        plans, mine = candidate_plans(view)
        return plans, plans.index(mine)

    def plan_key(self, view: View) -> tuple[Any, ...]:
        """Return what stays the same while one action is chosen card by card."""
        return view.seat, view.turns, view.phase, view.led, view.hand, len(view.history)

    def plan_step(self, plan: Plan, view: View) -> int:
        """Return the next card of the lead, or the beater (or ``STOP``) for the led card asked about."""
        return plan_step(plan, view)

    def apply(self, state: State, plan: Plan) -> None:
        """Take the whole lead or defence."""
        apply_plan(state, plan)

    def playout(self, state: State, rng: random.Random | None) -> None:
        """Play the deal out as the heuristic player does: its rules a whole action at a time, small endgames exactly."""
        heuristic_play_out(state, rng, self._endgame, PLAYOUT_WEIGHTS)

    def playout_return(self, state: State, rng: random.Random | None, seat: int) -> float:
        """Play on as :meth:`playout` does until ``seat`` is safe or the deal ends, and return ``seat``'s return.

        A safe seat's return is 0, as for every seat but the loser (and all of a deal stopped by M21): the rest
        of the deal cannot change it (:func:`~mustamaija.games.mustamaija.players.heuristic.heuristic_play_out`'s
        ``until_safe``), so it is not played. The searches' choices are the same as with whole playouts.
        """
        if heuristic_play_out(state, rng, self._endgame, PLAYOUT_WEIGHTS, seat):
            return 0.0
        return self.game.returns(state)[seat]

    def endgame(self, max_cards: int | None) -> Callable[[View], int | None]:
        """Return the exact solver's step for two-seat, talon-empty positions (:mod:`~mustamaija.games.mustamaija.endgame`)."""
        return EndgameSolver(max_cards=max_cards if max_cards is not None else MAX_SOLVER_CARDS).step

    def policy(self, name: str) -> Callable[[State, random.Random], int]:
        """Return the rollout policy ``name`` (:func:`~mustamaija.games.mustamaija.players.ismcts.rollout_policy`)."""
        return rollout_policy(name)

    def rollout(self, name: str, depth: int) -> Callable[[State, random.Random], list[float]]:
        """Return the rollout: ``depth`` turns of the policy (0: to the end), then the fitted evaluation."""
        policy = rollout_policy(name)
        if policy is fast_step:  # The same policy a whole action at a time: same play, less overhead.

            def fast(state: State, rng: random.Random) -> list[float]:
                return fast_rollout(state, rng, depth)

            return fast

        def stepwise(state: State, rng: random.Random) -> list[float]:
            return rollout(state, rng, policy, depth)

        return stepwise

    def values(self, state: State) -> list[float]:
        """Return 0 for the loser and 1 for the others (and for all of a deal stopped by M21)."""
        return outcome(state)

    def context(self, state: State) -> int:
        """Return the seat to act, the phase and the led card to answer (:func:`~.ismcts.state_context`)."""
        return state_context(state)

    def solver(self) -> Any:
        """Return the talon-empty solver as hints and ``mustamaija solve`` use it."""
        from mustamaija.games.mustamaija.analysis import EndgameAnalysis

        return EndgameAnalysis()
