"""Step rates of the research adapters against the raw engine, for any game, with seeded random play on one core.

Each measure plays whole deals of ``game`` (a name or a game object; the
default game if none) of uniformly random legal steps for about ``seconds``
of CPU time (of this process, on one core) and counts the players' steps
(OpenSpiel's dealing chance actions are not counted, but their time is):

- ``engine``: ``state.legal_actions()`` and ``state.apply`` (what any driver needs at least);
- ``pettingzoo``: the wrapped AEC environment, ``env.last()`` (the encoded
  observation and mask) then ``env.step`` - what a learning loop pays;
- ``pettingzoo_mask_only``: the same loop with ``env.last(observe=False)``,
  which reads the mask and not the observation: the wrapper's own cost,
  without the game's view and encoding (which the first measure adds to it);
- ``pettingzoo_floor``: the same loop over a PettingZoo environment that does
  nothing (a constant observation and mask, deals of the game's length):
  what PettingZoo's protocol and the loop cost before any game is played,
  the least any PettingZoo environment written in Python could cost;
- ``pettingzoo_floor_fresh``: the same with a new observation at every step,
  made as cheaply as an encoder can (the vector's bytes joined from blocks of
  a card plane's size, one read-only ``np.frombuffer``): the least an
  environment costs that hands out observations a learner may keep;
- ``openspiel``: ``state.legal_actions()`` and ``state.apply_action`` on the OpenSpiel game.

The overhead of an adapter is its time per step over the engine's, minus one.

:func:`vector_rates` measures the vector environment of the single-agent
environment against ``gymnasium.vector.SyncVectorEnv`` over as many single
environments: the same seeds, opponents and random legal steps, so both play
exactly the same deals; only the learner's steps count.

>>> rates = adapter_rates(0.05, players=3)
>>> sorted(rates)  # doctest: +NORMALIZE_WHITESPACE
['engine_steps_per_s', 'openspiel_actions_per_s', 'openspiel_overhead', 'pettingzoo_floor_fresh_overhead',
 'pettingzoo_floor_fresh_steps_per_s', 'pettingzoo_floor_overhead', 'pettingzoo_floor_steps_per_s',
 'pettingzoo_mask_only_overhead', 'pettingzoo_mask_only_steps_per_s',
 'pettingzoo_overhead', 'pettingzoo_steps_per_s', 'sync_vector_steps_per_s', 'vector_envs', 'vector_speedup',
 'vector_steps_per_s']
>>> rates["engine_steps_per_s"] > rates["pettingzoo_steps_per_s"] > 0 and rates["vector_steps_per_s"] > 0
True
>>> rates["pettingzoo_floor_steps_per_s"] > rates["pettingzoo_floor_fresh_steps_per_s"] > rates["pettingzoo_steps_per_s"]
True
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable
from typing import Any, Final

import numpy as np

from mustamaija.core.bench import play_random_deal
from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME, get_game

__all__ = ["VECTOR_ENVS", "adapter_rates", "engine_rate", "openspiel_rate", "pettingzoo_floor_rate", "pettingzoo_rate",
           "vector_rates"]

VECTOR_ENVS: Final = 16
"""The deals :func:`vector_rates` steps together unless told otherwise."""

_clock = time.process_time
"""The clock of every measure: this process's CPU time, so that other work on the machine does not skew the ratios."""


def _rate(seconds: float, play_deal: Callable[[int], int]) -> float:
    """Return steps per CPU second of ``play_deal(i)`` (play deal ``i``, return its steps), called until time is up."""
    steps = 0
    start = _clock()
    for deal in itertools.count():
        steps += play_deal(deal)
        elapsed = _clock() - start
        if elapsed >= seconds:
            break
    return steps / elapsed


def engine_rate(seconds: float, players: int = 4, preset: str | None = None, seed: int = 0,
                game: str | Game = DEFAULT_GAME) -> float:
    """Return raw engine steps per second: list the legal steps, apply a random one."""
    spec = get_game(game)
    rng = random.Random(seed)
    rules = spec.make_rules(preset)
    return _rate(seconds, lambda _: play_random_deal(spec, players, rules, rng))


def pettingzoo_rate(seconds: float, players: int = 4, preset: str | None = None, seed: int = 0,
                    game: str | Game = DEFAULT_GAME, observe: bool = True) -> float:
    """Return PettingZoo AEC steps per second: ``env.last()`` with its observation and the info's mask, then ``env.step``.

    With ``observe=False`` the loop calls ``env.last(observe=False)``: the
    same steps without building any observation.
    """
    from mustamaija.envs.aec import env as make

    return _aec_rate(seconds, make(players=players, preset=preset, game=game), seed, observe)


def _aec_rate(seconds: float, env: Any, seed: int, observe: bool = True) -> float:
    """Return steps per second of the learning loop over PettingZoo environment ``env``: random legal steps from the mask."""
    rng = random.Random(seed)

    def play_deal(deal: int) -> int:
        env.reset(seed=seed + deal)
        steps = 0
        for _ in env.agent_iter():
            _, _, terminated, truncated, info = env.last(observe)
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(info["action_mask"].nonzero()[0].tolist()))
            steps += 1
        return steps

    return _rate(seconds, play_deal)


def pettingzoo_floor_rate(seconds: float, players: int = 4, preset: str | None = None, seed: int = 0,
                          game: str | Game = DEFAULT_GAME, steps_per_deal: int = 100, fresh: bool = False) -> float:
    """Return steps per second of :func:`pettingzoo_rate`'s loop over a PettingZoo environment that does nothing.

    The environment hands out one constant read-only observation and mask of
    the game's sizes (a mask of four legal steps), and ends a deal after
    ``steps_per_deal`` steps; its ``agent_iter`` is PettingZoo's own. What
    remains is PettingZoo's protocol (three calls a step) and the loop's
    choice from the mask: a floor under any PettingZoo environment written
    in Python. With ``fresh`` every ``last()`` makes a new read-only
    observation instead, as cheaply as an encoder can: its bytes joined from
    blocks of a 52-card plane's size, then one ``np.frombuffer`` (a learner
    keeps observations, so an environment cannot hand out one buffer and
    change it in place).
    """
    from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]

    spec = get_game(game)
    spec.check_players(spec.make_rules(preset), players)
    agents = [f"player_{i}" for i in range(players)]
    observation = np.zeros(spec.obs_size, np.float32)
    observation.flags.writeable = False
    mask = np.zeros(spec.num_steps, np.int8)
    mask[: min(4, spec.num_steps)] = 1
    mask.flags.writeable = False
    info = {"action_mask": mask}
    size = 4 * spec.obs_size  # float32
    blocks = [bytes(4 * 52)] * (size // (4 * 52)) + [bytes(size % (4 * 52))]

    class Idle(AECEnv):  # type: ignore[misc,unused-ignore]
        metadata: dict[str, Any] = {"render_modes": [], "is_parallelizable": False}  # noqa: RUF012

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = agents
            self.steps = 0

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            self.agents = agents[:]
            self.agent_selection = agents[0]
            self.steps = 0

        def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
            if fresh:
                return np.frombuffer(b"".join(blocks), np.float32), 0.0, False, False, info
            return observation, 0.0, False, False, info

        def step(self, action: int | None) -> None:
            self.steps += 1
            self.agent_selection = agents[self.steps % players]
            if self.steps >= steps_per_deal:
                self.agents = []

    return _aec_rate(seconds, Idle(), seed)


def openspiel_rate(seconds: float, players: int = 4, preset: str | None = None, seed: int = 0,
                   game: str | Game = DEFAULT_GAME) -> float:
    """Return OpenSpiel player actions per second: ``legal_actions`` then ``apply_action``, dealing included in the time."""
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    from mustamaija.openspiel import game as _registers_the_games  # noqa: F401

    spec = get_game(game)
    rng = random.Random(seed)
    loaded = pyspiel.load_game(spec.env_name, {"players": players, "preset": preset or spec.presets[0]})

    def play_deal(_: int) -> int:
        state = loaded.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        steps = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return _rate(seconds, play_deal)


def _vector_rate(seconds: float, vec: Any, masks: Callable[[], Any], seed: int) -> float:
    """Return the learner's steps per second of ``vec``: random legal steps chosen from ``masks()``, one batch a call.

    A row of no legal step is a deal that ended and is dealt again by this
    step (its action is ignored): it is not counted.
    """
    rng = np.random.default_rng(seed)
    vec.reset(seed=seed)
    steps = 0
    start = _clock()
    while True:
        legal = masks()
        steps += int(legal.any(axis=1).sum())
        vec.step(np.where(legal, rng.random(legal.shape), -1.0).argmax(axis=1))
        elapsed = _clock() - start
        if elapsed >= seconds:
            return steps / elapsed


def vector_rates(seconds: float, num_envs: int = VECTOR_ENVS, players: int = 4, preset: str | None = None, seed: int = 0,
                 game: str | Game = DEFAULT_GAME, opponents: str = "random") -> dict[str, float]:
    """Return the learner's steps per second of the vector environment and of ``SyncVectorEnv`` (``seconds`` each), and their ratio.

    Both step ``num_envs`` deals against ``opponents``, seeded alike, with
    the same random legal steps (read from ``action_masks()``, which
    ``SyncVectorEnv`` gets through ``call``), so they play the same deals.
    """
    import gymnasium

    from mustamaija.envs.gym_env import SingleAgentEnv
    from mustamaija.envs.vector import VectorSingleAgentEnv

    def single() -> SingleAgentEnv:
        return SingleAgentEnv(players=players, opponents=opponents, preset=preset, game=game)

    sync = gymnasium.vector.SyncVectorEnv([single] * num_envs)
    sync_rate = _vector_rate(seconds, sync, lambda: np.stack(sync.call("action_masks")), seed)
    vec = VectorSingleAgentEnv(num_envs, players=players, opponents=opponents, preset=preset, game=game)
    vec_rate = _vector_rate(seconds, vec, vec.action_masks, seed)
    return {"vector_envs": float(num_envs), "vector_steps_per_s": vec_rate, "sync_vector_steps_per_s": sync_rate,
            "vector_speedup": vec_rate / sync_rate}


def adapter_rates(seconds: float = 3.0, players: int = 4, preset: str | None = None, seed: int = 0,
                  game: str | Game = DEFAULT_GAME, num_envs: int = VECTOR_ENVS) -> dict[str, float]:
    """Return the step rates of the engine, PettingZoo (with and without observations, and its floor), OpenSpiel and the vector env.

    Each measure takes ``seconds`` of CPU time; the overheads compare each
    adapter with the engine, the speedup the vector environment of
    ``num_envs`` deals with ``SyncVectorEnv``.
    """
    engine = engine_rate(seconds, players, preset, seed, game)
    pz = pettingzoo_rate(seconds, players, preset, seed, game)
    bare = pettingzoo_rate(seconds, players, preset, seed, game, observe=False)
    floor = pettingzoo_floor_rate(seconds, players, preset, seed, game)
    fresh = pettingzoo_floor_rate(seconds, players, preset, seed, game, fresh=True)
    osp = openspiel_rate(seconds, players, preset, seed, game)
    return {
        "engine_steps_per_s": engine,
        "pettingzoo_steps_per_s": pz,
        "pettingzoo_overhead": engine / pz - 1.0,
        "pettingzoo_mask_only_steps_per_s": bare,
        "pettingzoo_mask_only_overhead": engine / bare - 1.0,
        "pettingzoo_floor_steps_per_s": floor,
        "pettingzoo_floor_overhead": engine / floor - 1.0,
        "pettingzoo_floor_fresh_steps_per_s": fresh,
        "pettingzoo_floor_fresh_overhead": engine / fresh - 1.0,
        "openspiel_actions_per_s": osp,
        "openspiel_overhead": engine / osp - 1.0,
        **vector_rates(seconds, num_envs, players, preset, seed, game),
    }
