"""The PettingZoo AEC environment of any game: one agent per seat, one step per turn of play.

Agents are ``player_0`` ... ``player_{n-1}`` (agent ``player_i`` is seat
``i``). An action is a step of the game's fixed step space
(``Discrete(game.num_steps)``). The observation is the seat's view encoded
by ``game.encode`` as a float vector (a ``Box``), and the legal steps are
``info["action_mask"]`` (1 for every legal step, all 0 when the agent is not
to act): one of the two places PettingZoo's API gives an action mask, and
the one its ``api_test`` accepts without warnings. With
``observation="dict"`` the observation is instead the dict of
``observation`` and ``action_mask`` that PettingZoo's classic games use
(and tools such as Tianshou read). Rewards come once, at the end of the
deal: the game's ``returns``. A deal the game stops unfinished
(``game.truncated``) truncates every agent instead of terminating it.

>>> from mustamaija.core.registry import DEFAULT_GAME, get_game
>>> game = get_game(DEFAULT_GAME)
>>> env = raw_env(players=3, game=game)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs.shape == (game.obs_size,), int(info["action_mask"].sum()) > 0
(True, True)
>>> final = {}
>>> while env.agents:
...     obs, reward, terminated, truncated, info = env.last()
...     if terminated or truncated:
...         final[env.agent_selection] = reward
...     legal = info["action_mask"].nonzero()[0]
...     env.step(None if terminated or truncated else int(legal[0]))
>>> sorted(final) == env.possible_agents
True
>>> classic = raw_env(players=3, game=game, observation="dict")
>>> classic.reset(seed=7)
>>> sorted(classic.last()[0])
['action_mask', 'observation']
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]

from mustamaija.core.protocol import Game, GameState
from mustamaija.core.registry import DEFAULT_GAME, get_game

__all__ = ["AgentObs", "env", "mask_array", "raw_env"]

AgentObs = dict[str, npt.NDArray[Any]]

OBSERVATIONS = ("vector", "dict")
"""The observation kinds: the encoded view alone (mask in the info), or PettingZoo's classic dict of both."""


def mask_array(mask: int, size: int) -> npt.NDArray[np.int8]:
    """Return a step mask (bit ``i`` for step ``i``) as an ``int8`` array of 0 and 1."""
    return ((mask >> np.arange(size, dtype=np.uint64)) & 1).astype(np.int8)


class raw_env(AECEnv):  # type: ignore[misc,unused-ignore]
    """A deal of ``game`` (a name or a game object of the registry) for ``players`` seats.

    ``preset`` names the starting rule set (``None``: the game's first) and
    any other keyword (a rule key of ``game.rule_defaults``) overrides one of
    its rules. ``render_mode`` is ``None``, ``"ansi"`` (``render()`` returns
    the table as text) or ``"human"`` (prints it).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "is_parallelizable": False, "render_fps": 1}

    def __init__(self, players: int = 3, preset: str | None = None, game: str | Game = DEFAULT_GAME,
                 render_mode: str | None = None, observation: str = "vector", **rules: Any) -> None:
        super().__init__()
        if observation not in OBSERVATIONS:
            raise ValueError(f"bad observation {observation!r}: expected 'vector' or 'dict'")
        self.observation_kind = observation
        self.game_spec: Game = get_game(game)
        preset = preset or self.game_spec.presets[0]
        self.rules = self.game_spec.make_rules(preset, rules)
        self.game_spec.check_players(self.rules, players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"bad render_mode {render_mode!r}: expected None, 'human' or 'ansi'")
        self.metadata = {**self.metadata, "name": f"{self.game_spec.env_name}_v0"}  # type: ignore[misc]  # one name per game
        self.render_mode = render_mode
        self.players = players
        self.preset = preset
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        vector = spaces.Box(0.0, 1.0, (self.game_spec.obs_size,), np.float32)
        obs_space: spaces.Space[Any] = vector if observation == "vector" else spaces.Dict({
            "observation": vector,
            "action_mask": spaces.Box(0, 1, (self.game_spec.num_steps,), np.int8),
        })
        self._no_steps = np.zeros(self.game_spec.num_steps, dtype=np.int8)  # The mask of an agent not to act.
        self._no_steps.flags.writeable = False
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game_spec.num_steps) for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self._state: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Return the observation space of ``agent`` (the same for every seat)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Return the action space of ``agent``: the game's steps."""
        return self.action_spaces[agent]

    @property
    def game_state(self) -> GameState:
        """Return the engine state of the current deal."""
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def observe(self, agent: str) -> npt.NDArray[np.float32] | AgentObs:
        """Return ``agent``'s observation, built from its seat's view only."""
        seat = self._seat[agent]
        view = self.game_state.view(seat)
        vec = np.zeros(self.game_spec.obs_size, dtype=np.float32)
        self.game_spec.encode(view, vec)
        if self.observation_kind == "vector":
            return vec
        return {"observation": vec, "action_mask": mask_array(view.legal_mask(), self.game_spec.num_steps)}

    def _mask_infos(self) -> None:
        """Put each agent's legal steps in its info (all 0 for the agents not to act)."""
        state = self.game_state
        to_act = None if state.is_over else self.possible_agents[state.to_act]
        for agent in self.agents:
            legal = mask_array(state.legal_mask(), self.game_spec.num_steps) if agent == to_act else self._no_steps
            self.infos[agent] = {"action_mask": legal}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new deal; the deal is drawn from the environment's generator, reseeded by ``seed``."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        deal_seed = int(self._np_random.integers(0, 2**62))
        self._state = self.game_spec.deal(self.players, deal_seed, self.rules)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._state.to_act]
        self._mask_infos()

    def step(self, action: int | None) -> None:
        """Take one step for the agent to act; an illegal step raises ``ValueError`` naming the rule."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
        if action is None:
            raise ValueError(f"{agent} is to act: give a step, not None")
        state.apply(int(action))
        self._cumulative_rewards[agent] = 0.0
        if state.is_over:
            returns = self.game_spec.returns(state)
            finished = not self.game_spec.truncated(state)
            for a in self.agents:
                self.rewards[a] = returns[self._seat[a]]
                self.terminations[a] = finished
                self.truncations[a] = not finished
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[state.to_act]
        self._mask_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """Return (``"ansi"``) or print (``"human"``) the spectator's view of the table."""
        if self.render_mode is None:
            return None
        text: str = self.game_state.view(None).render()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Release nothing: the environment holds no outside resources."""


def env(**kwargs: Any) -> Any:
    """Return :class:`raw_env` wrapped in PettingZoo's order-enforcing and bounds-checking wrappers."""
    wrapped = raw_env(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped
