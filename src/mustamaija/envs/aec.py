"""The PettingZoo AEC environment of any game: one agent per seat, one step per turn of play.

Agents are ``player_0`` ... ``player_{n-1}`` (agent ``player_i`` is seat
``i``). An action is a step of the game's fixed step space
(``Discrete(game.num_steps)``). The observation is the seat's view encoded
by ``game.encode`` as a float vector (a ``Box``), which the game computes
without building the view (``game.observation_for``), and the legal steps are
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

from collections.abc import Callable
from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]
from pettingzoo.utils.wrappers.order_enforcing import (  # type: ignore[import-untyped,unused-ignore]
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from mustamaija.core.observation import bit_bytes
from mustamaija.core.protocol import Game, GameState
from mustamaija.core.registry import DEFAULT_GAME, get_game

__all__ = ["AgentObs", "env", "frozen_mask", "mask_array", "raw_env"]

AgentObs = dict[str, npt.NDArray[Any]]

OBSERVATIONS = ("vector", "dict")
"""The observation kinds: the encoded view alone (mask in the info), or PettingZoo's classic dict of both."""

def mask_array(mask: int, size: int) -> npt.NDArray[np.int8]:
    """Return a step mask (bit ``i`` for step ``i``) as a new, writable ``int8`` array of 0 and 1.

    >>> mask_array(0b1101, 6).tolist()
    [1, 0, 1, 1, 0, 0]
    """
    return np.frombuffer(bytearray(bit_bytes(mask, size)), np.int8, size)


def frozen_mask(mask: int, size: int) -> npt.NDArray[np.int8]:
    """Return a step mask as :func:`mask_array` does, but read-only (numpy's view of immutable bytes: no copy).

    The environment hands the same mask to several readers (the info and the
    classic dict observation), so none of them may write into it.

    >>> m = frozen_mask(0b101, 3)
    >>> m.tolist(), m.flags.writeable
    ([1, 0, 1], False)
    """
    return np.frombuffer(bit_bytes(mask, size), np.int8, size)


_MASKS_KEPT: Final = 4096
"""The read-only masks kept for each size of step space: about a megabyte. A third to a half of the legal
masks of random play have been seen among the last few thousand (a defence's few beaters and ``STOP``, a
lead's next cards, a trick's cards of the suit led)."""


class _Masks(dict[int, npt.NDArray[np.int8]]):
    """Read-only step masks by mask, made on a miss (:func:`frozen_mask`): read-only, so one array serves every info."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __missing__(self, mask: int) -> npt.NDArray[np.int8]:
        if len(self) >= _MASKS_KEPT:
            self.clear()
        array = self[mask] = frozen_mask(mask, self.size)
        return array


_MASKS: Final[dict[int, _Masks]] = {}
"""The masks kept, by size of step space: every environment of a game shares them."""


class raw_env(AECEnv):  # type: ignore[misc,unused-ignore]
    """A deal of ``game`` (a name or a game object of the registry) for ``players`` seats.

    ``preset`` names the starting rule set (``None``: the game's first) and
    any other keyword (a rule key of ``game.rule_defaults``) overrides one of
    its rules. ``render_mode`` is ``None``, ``"ansi"`` (``render()`` returns
    the table as text) or ``"human"`` (prints it).

    Observations and masks are read-only arrays. An observation is encoded
    when it is asked for (:meth:`observe`, ``last()``), never in
    :meth:`step`, and kept for its seat until the deal moves on, so asking
    again for the same position (``last()`` then ``observe()``, the dead
    agents' turns at the end) costs nothing. Being read-only, a kept
    observation cannot be changed by whoever received it; copy it
    (``np.array(obs)``) to write into it.
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
        self._num_steps = self.game_spec.num_steps
        self._mask_of = _MASKS.setdefault(self._num_steps, _Masks(self._num_steps)).__getitem__
        self._no_steps = self._mask_of(0)  # The mask of an agent not to act.
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game_spec.num_steps) for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self._state: GameState | None = None
        # The observation cache: per seat, the position number it was encoded at and the read-only vector.
        self._position = 0
        self._seen: list[tuple[int, npt.NDArray[np.float32]] | None] = [None] * players
        self._observe: Callable[[Any, int], npt.NDArray[np.float32]] = self.game_spec.observation_for

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

    def _vector(self, seat: int) -> npt.NDArray[np.float32]:
        """Return ``seat``'s encoded view of the current position: read-only, encoded once per position and seat."""
        seen = self._seen[seat]
        if seen is not None and seen[0] == self._position:
            return seen[1]
        vec = self._observe(self.game_state, seat)  # The seat's view encoded, without the view: new and read-only.
        self._seen[seat] = (self._position, vec)
        return vec

    def observe(self, agent: str) -> npt.NDArray[np.float32] | AgentObs:
        """Return ``agent``'s observation, built from its seat's view only (read-only arrays)."""
        vec = self._vector(self._seat[agent])
        if self.observation_kind == "vector":
            return vec
        state = self.game_state
        to_act = not state.is_over and agent == self.possible_agents[state.to_act]
        mask = self._mask_of(state.legal_mask()) if to_act else self._no_steps
        return {"observation": vec, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Return the observation (if ``observe``), cumulative reward, termination, truncation and info of the agent to act."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new deal; the deal is drawn from the environment's generator, reseeded by ``seed``."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        deal_seed = int(self._np_random.integers(0, 2**62))
        self._state = state = self.game_spec.deal(self.players, deal_seed, self.rules)
        self._position += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {"action_mask": self._no_steps} for a in self.agents}
        self.agent_selection = self.possible_agents[state.to_act]
        self.infos[self.agent_selection] = {"action_mask": self._mask_of(state.legal_mask())}

    def step(self, action: int | None) -> None:
        """Take one step for the agent to act; an illegal step raises ``ValueError`` naming the rule.

        Only what the step changes is rewritten: the infos of the agent that
        acted and of the next one (each a new dict, so an info received
        before is never changed), and the rewards once, at the end. Rewards
        are 0 until then, so there is nothing to accumulate before.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: give a step, not None")
        state = self._state
        assert state is not None  # There are agents: reset() dealt.
        state.apply(action if action.__class__ is int else int(action))  # Raises IllegalActionError before changing anything.
        self._position += 1  # A new position: the observations kept are out of date.
        infos = self.infos
        if state.is_over:
            returns = self.game_spec.returns(state)
            finished = not self.game_spec.truncated(state)
            for a in self.agents:
                self.rewards[a] = returns[self._seat[a]]
                self.terminations[a] = finished
                self.truncations[a] = not finished
                infos[a] = {"action_mask": self._no_steps}
            self._cumulative_rewards[agent] = 0.0
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            following = self.possible_agents[state.to_act]
            if following != agent:
                infos[agent] = {"action_mask": self._no_steps}
            infos[following] = {"action_mask": self._mask_of(state.legal_mask())}
            self.agent_selection = following
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


_BEFORE_RESET: Final = ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "num_agents")
"""The attributes PettingZoo's order-enforcing wrapper refuses to read before ``reset()``."""


class _Bounds(wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc,unused-ignore]
    """PettingZoo's bounds check, with a quick path for a plain ``int`` step in range (what loops send).

    Anything else (``None``, numpy integers, bad values) goes through
    PettingZoo's own check and its message.
    """

    def __init__(self, env: raw_env) -> None:
        super().__init__(env)
        self._raw = env
        self._num_steps = env.game_spec.num_steps

    def step(self, action: Any) -> None:
        """Step the environment below once ``action`` is known to be in the action space."""
        if action.__class__ is int and 0 <= action < self._num_steps:
            self._raw.step(action)
        else:
            super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Return the raw environment's ``last()`` (nothing in it to check)."""
        result: tuple[Any, float, bool, bool, dict[str, Any]] = self._raw.last(observe)
        return result


def _forward(name: str) -> property:
    """Return a property reading ``name`` from the raw environment, refused before reset as PettingZoo's wrapper does.

    PettingZoo's wrappers reach the environment's attributes through
    ``__getattr__``, two levels deep, several times a step; a property on
    the class is found first and reads the raw environment at once.
    """

    def read(self: _Order) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    return property(read, doc=f"The raw environment's ``{name}`` (an error before ``reset()``).")


class _AgentIterator(AECOrderEnforcingIterator):  # type: ignore[misc,unused-ignore]
    """PettingZoo's order-enforcing agent iterator, reading the raw environment at once (one call a step)."""

    def __init__(self, env: _Order, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._raw = env._raw

    def __next__(self) -> str:
        """Return the agent to act, as PettingZoo's iterator does (asserting that the loop stepped since)."""
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        order = self.env
        assert order._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        order._has_updated = False
        agent: str = raw.agent_selection
        return agent


class _AgentIterable(AECOrderEnforcingIterable):  # type: ignore[misc,unused-ignore]
    """What :meth:`_Order.agent_iter` returns: an iterable of :class:`_AgentIterator`."""

    def __iter__(self) -> _AgentIterator:
        """Return a new iterator over the agents to act."""
        return _AgentIterator(self.env, self.max_iter)


class _Order(wrappers.OrderEnforcingWrapper):  # type: ignore[misc,unused-ignore]
    """PettingZoo's order enforcing, reading the attributes of every step straight from the raw environment.

    The checks are PettingZoo's: nothing is read, observed or stepped before
    ``reset()``, and a step with no agent left warns. A plain ``int`` step in
    range goes straight to the raw environment (the bounds wrapper would
    find nothing to check); anything else goes through the bounds wrapper.
    """

    def __init__(self, env: _Bounds) -> None:
        super().__init__(env)
        self._raw: raw_env = env.unwrapped
        self._num_steps = self._raw.game_spec.num_steps

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """Return PettingZoo's order-enforcing iterable of the agents to act (an error before ``reset()``)."""
        if not self._has_reset:
            return super().agent_iter(max_iter)  # Raises PettingZoo's error.
        return _AgentIterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Return ``last()`` of the raw environment, once reset."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self._raw.last(observe)

    def step(self, action: Any) -> None:
        """Step the environment below, with PettingZoo's checks of order and bounds."""
        raw = self._raw
        if self._has_reset and raw.agents:
            self._has_updated = True
            if action.__class__ is int and 0 <= action < self._num_steps:
                raw.step(action)
            else:
                self.env.step(action)
        else:
            super().step(action)

    def __str__(self) -> str:
        """Return the environment's name, as PettingZoo's own wrapper does."""
        return str(self.env)


for _name in _BEFORE_RESET:
    setattr(_Order, _name, _forward(_name))


def env(**kwargs: Any) -> Any:
    """Return :class:`raw_env` wrapped in PettingZoo's order-enforcing and bounds-checking wrappers.

    The wrappers are subclasses of PettingZoo's that keep every check but
    skip its attribute forwarding and the layers between them on the paths
    a learning loop takes each step (``agent_iter``, ``last``, ``step``).
    """
    return _Order(_Bounds(raw_env(**kwargs)))
