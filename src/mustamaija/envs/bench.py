"""Step rates of the research adapters against the raw engine, with seeded random play on one core.

Each measure plays whole deals of uniformly random legal steps for about
``seconds`` of CPU time (of this process, on one core) and counts the players' steps (OpenSpiel's 53 dealing chance
actions per deal are not counted, but their time is):

- ``engine``: ``State.legal_actions()`` and ``State.apply`` (what any driver needs at least);
- ``pettingzoo``: the wrapped AEC environment, ``env.last()`` (the encoded
  observation and mask) then ``env.step`` - what a learning loop pays;
- ``openspiel``: ``state.legal_actions()`` and ``state.apply_action`` on the OpenSpiel game.

The overhead of an adapter is its time per step over the engine's, minus one.

>>> rates = adapter_rates(0.05, players=3)
>>> sorted(rates)
['engine_steps_per_s', 'openspiel_actions_per_s', 'openspiel_overhead', 'pettingzoo_overhead', 'pettingzoo_steps_per_s']
>>> rates["engine_steps_per_s"] > rates["pettingzoo_steps_per_s"] > 0
True
"""

from __future__ import annotations

import random
import time

from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.state import State

__all__ = ["adapter_rates", "engine_rate", "openspiel_rate", "pettingzoo_rate"]

_clock = time.process_time
"""The clock of every measure: this process's CPU time, so that other work on the machine does not skew the ratios."""


def engine_rate(seconds: float, players: int = 4, preset: str = "standard", seed: int = 0) -> float:
    """Return raw engine steps per second: list the legal steps, apply a random one."""
    rng = random.Random(seed)
    rules = Rules.preset(preset)
    steps = 0
    start = _clock()
    while True:
        s = State.from_seed(players, rng.randrange(1 << 30), rules)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
        elapsed = _clock() - start
        if elapsed >= seconds:
            return steps / elapsed


def pettingzoo_rate(seconds: float, players: int = 4, preset: str = "standard", seed: int = 0) -> float:
    """Return PettingZoo AEC steps per second: ``env.last()`` with its observation and mask, then ``env.step``."""
    from mustamaija.envs.mustamaija_v0 import env as make

    rng = random.Random(seed)
    env = make(players=players, preset=preset)
    steps = 0
    start = _clock()
    deal = 0
    while True:
        env.reset(seed=seed + deal)
        deal += 1
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            steps += 1
        elapsed = _clock() - start
        if elapsed >= seconds:
            return steps / elapsed


def openspiel_rate(seconds: float, players: int = 4, preset: str = "standard", seed: int = 0) -> float:
    """Return OpenSpiel player actions per second: ``legal_actions`` then ``apply_action``, dealing included in the time."""
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    from mustamaija.openspiel import game as _registers_the_games  # noqa: F401

    rng = random.Random(seed)
    game = pyspiel.load_game("mustamaija", {"players": players, "preset": preset})
    steps = 0
    start = _clock()
    while True:
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        elapsed = _clock() - start
        if elapsed >= seconds:
            return steps / elapsed


def adapter_rates(seconds: float = 3.0, players: int = 4, preset: str = "standard", seed: int = 0) -> dict[str, float]:
    """Return the step rates of the engine, PettingZoo and OpenSpiel (``seconds`` each) and each adapter's overhead."""
    engine = engine_rate(seconds, players, preset, seed)
    pz = pettingzoo_rate(seconds, players, preset, seed)
    osp = openspiel_rate(seconds, players, preset, seed)
    return {
        "engine_steps_per_s": engine,
        "pettingzoo_steps_per_s": pz,
        "pettingzoo_overhead": engine / pz - 1.0,
        "openspiel_actions_per_s": osp,
        "openspiel_overhead": engine / osp - 1.0,
    }
