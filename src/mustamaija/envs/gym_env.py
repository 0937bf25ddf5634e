"""The single-agent Gymnasium environment of any game: one learning seat, bots of your choice in the others.

The observation is the learner's view encoded as in the PettingZoo
environment, the action a step, and the reward comes at the end of the deal
(the learner's share of the game's ``returns``; 0 and ``truncated`` for a
deal the game stops unfinished). :meth:`SingleAgentEnv.action_masks`
returns the legal steps, so ``MaskablePPO`` from sb3-contrib can train on
it directly.

Every ``info`` holds the same keys with values of the same types at every
step, so that ``gymnasium.make_vec`` can stack them: ``seat`` (the learner's
seat), ``loser`` (the seat that lost a deal of a game scored by a loser, -1
otherwise and until the end), ``illegal`` (whether the learner's step was
illegal) and ``returns`` (every seat's reward, all 0 until the end).

:class:`mustamaija.envs.vector.VectorSingleAgentEnv` steps many of these
environments in one call through the same private methods (``_start``,
``_act``, ``_encode_into``, ``_legal_mask``), so that its deals are these
deals, step for step, whatever the game.

>>> env = SingleAgentEnv(players=3, opponents="heuristic", seat=0)
>>> obs, info = env.reset(seed=5)
>>> obs.shape == (env.game_spec.obs_size,), int(env.action_masks().sum()) > 0
(True, True)
>>> done = False
>>> while not done:
...     step = int(env.action_masks().nonzero()[0][0])
...     obs, reward, terminated, truncated, info = env.step(step)
...     done = terminated or truncated
>>> bool(reward == info["returns"][0]), info["loser"] in (-1, 0, 1, 2), info["illegal"]
(True, True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from mustamaija.core.protocol import Game, GameState
from mustamaija.core.registry import DEFAULT_GAME, get_game
from mustamaija.envs.aec import mask_array
from mustamaija.players.random import RandomPlayer
from mustamaija.players.registry import make_bot

__all__ = ["SingleAgentEnv"]

ILLEGAL_CHOICES: Final = ("lose", "raise")


class SingleAgentEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat learns against bots; every rule option is a keyword argument, as in the AEC environment.

    ``seat`` is the learner's seat, or ``None`` for a random seat each deal.
    ``opponents`` is one bot spec for every other seat, or a list of one spec
    per other seat, among the game's bots (``"random"`` for every game; the
    others are listed by :func:`mustamaija.players.registry.bot_names`).
    ``illegal_action`` says what an illegal step does: ``"lose"`` ends the
    deal with reward -1 and ``info["illegal"]`` true (the default, so that
    unmasked agents can explore), ``"raise"`` raises ``ValueError``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 - Gymnasium declares it an instance attribute

    def __init__(self, players: int = 3, opponents: str | Sequence[str] = "random", seat: int | None = None,
                 preset: str | None = None, game: str | Game = DEFAULT_GAME, illegal_action: str = "lose",
                 render_mode: str | None = None, **rules: Any) -> None:
        self.game_spec: Game = get_game(game)
        self.rules = self.game_spec.make_rules(preset or self.game_spec.presets[0], rules)
        self.game_spec.check_players(self.rules, players)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"bad seat {seat!r}: expected None or a seat from 0 to {players - 1}")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"give one opponent spec, or {players - 1} (one per other seat), not {len(specs)}")
        for spec in specs:
            make_bot(spec, 0, self.game_spec)  # A bad spec fails now, not in the middle of training.
        if illegal_action not in ILLEGAL_CHOICES:
            raise ValueError(f"bad illegal_action {illegal_action!r}: expected 'lose' or 'raise'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"bad render_mode {render_mode!r}: expected None or 'ansi'")
        self.render_mode = render_mode
        self.players = players
        self.opponents = specs
        self.fixed_seat = seat
        self.illegal_action = illegal_action
        self.observation_space = spaces.Box(0.0, 1.0, (self.game_spec.obs_size,), np.float32)
        self.action_space = spaces.Discrete(self.game_spec.num_steps)
        self.seat = seat if seat is not None else 0
        self._state: GameState | None = None
        self._bots: list[Any] = []
        self._ended = False

    @property
    def game_state(self) -> GameState:
        """Return the engine state of the current deal."""
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def _encode_into(self, out: npt.NDArray[np.float32]) -> None:
        """Write the learner's encoded view into ``out`` (a row of the vector env's batch)."""
        out[:] = self.game_spec.observation_for(self.game_state, self.seat)

    def _obs(self) -> npt.NDArray[np.float32]:
        # A writable copy: the game's observation is read-only, and Gymnasium's callers may write into theirs.
        return self.game_spec.observation_for(self.game_state, self.seat).copy()

    def _legal_mask(self) -> int:
        """Return the learner's legal steps as a bit mask: 0 once the deal is over (or ended by an illegal step).

        The state's mask is the learner's view's whenever the learner is to
        act (the protocol's promise), so no view is built for it.
        """
        state = self.game_state
        if self._ended or state.is_over or state.to_act != self.seat:
            return 0
        return state.legal_mask()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Return the learner's legal steps as booleans (all false once the deal is over)."""
        return mask_array(self._legal_mask(), self.game_spec.num_steps).view(np.bool_)

    def _play_bots(self) -> None:
        """Let the bots play until the learner is to act or the deal is over; each bot sees what a tournament shows it."""
        state = self.game_state
        learner = self.seat
        while not state.is_over:
            seat = state.to_act
            if seat == learner:
                return
            bot = self._bots[seat]
            if bot.__class__ is RandomPlayer:
                # The uniformly random player reads nothing but the legal steps of its view, which are the
                # state's for the seat to act: its own choice among them, without building the view.
                state.apply(bot.choose(state.legal_actions()))
            elif getattr(bot, "sees_all", False):
                # An open-hand bot (an upper bound for experiments) gets the true state, as in tournaments.
                state.apply(bot.act_open(state.copy()))
            else:
                state.apply(bot.act(state.view(seat)))

    def _loser(self) -> int:
        """Return the seat that lost a finished deal of a game scored by a loser, else -1."""
        state = self.game_state
        scores = self.game_spec.scores(state) if state.is_over else None
        if scores is None or self.game_spec.result_kind != "loss":
            return -1
        return max(range(len(scores)), key=scores.__getitem__)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        """Return the info of a step: the same keys, each always of the same type (see the module's doc)."""
        returns = np.asarray(self.game_spec.returns(self.game_state), dtype=np.float64)
        return {"seat": self.seat, "loser": self._loser(), "illegal": illegal, "returns": returns}

    def _deal(self) -> None:
        """Deal from the environment's generator: the learner's seat (unless fixed), the deal, then each bot's seed.

        The draws come in this order, so a seed fixes the whole deal and every bot's choices.
        """
        self._ended = False
        rng = self.np_random
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(self.players))
        self._state = self.game_spec.deal(self.players, int(rng.integers(0, 2**62)), self.rules)
        others = iter(self.opponents)
        self._bots = [None if s == self.seat else make_bot(next(others), int(rng.integers(0, 2**62)), self.game_spec)
                      for s in range(self.players)]
        self._play_bots()

    def _start(self, seed: int | None) -> None:
        """Reseed the generator when given a seed (Gymnasium's way), then deal: :meth:`reset` without its return."""
        super().reset(seed=seed)
        self._deal()

    def _act(self, step: int) -> tuple[float, bool, bool, bool]:
        """Take the learner's step and the bots' until the learner's turn: ``(reward, terminated, truncated, illegal)``."""
        state = self.game_state
        if state.is_over or self._ended:
            raise RuntimeError("the deal is over: call reset()")
        if not (0 <= step < self.game_spec.num_steps and state.legal_mask() >> step & 1):
            if self.illegal_action == "raise":
                state.apply(step)  # Raises IllegalActionError, naming the rule.
            self._ended = True
            return -1.0, True, False, True
        state.apply(step)
        self._play_bots()
        state = self.game_state  # Forget what the check above told the type checker about is_over.
        if not state.is_over:
            return 0.0, False, False, False
        stopped = self.game_spec.truncated(state)
        return float(self.game_spec.returns(state)[self.seat]), not stopped, stopped, False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new deal, seat the bots (seeded from the environment's generator) and play up to the learner."""
        self._start(seed)
        return self._obs(), self._info()

    def step(self, action: np.int64 | int) -> tuple[npt.NDArray[np.float32], SupportsFloat, bool, bool, dict[str, Any]]:
        """Take the learner's step, let the bots play until it is the learner's turn again or the deal is over."""
        reward, terminated, truncated, illegal = self._act(int(action))
        return self._obs(), reward, terminated, truncated, self._info(illegal)

    def render(self) -> str | None:
        """Return the learner's view as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        text: str = self.game_state.view(self.seat).render()
        return text
