"""Step rates of the research adapters against the raw engine, for any game, with seeded random play on one core.

Each measure plays whole deals of ``game`` (a name or a game object; the
default game if none) of uniformly random legal steps for about ``seconds``
of CPU time (of this process, on one core) and counts the players' steps
(OpenSpiel's dealing chance actions are not counted, but their time is):

- ``engine``: ``state.legal_actions()`` and ``state.apply`` (what any driver needs at least);
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

import itertools
import random
import time
from collections.abc import Callable

from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME, get_game

__all__ = ["adapter_rates", "engine_rate", "openspiel_rate", "pettingzoo_rate"]

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

    def play_deal(_: int) -> int:
        s = spec.deal(players, rng.randrange(1 << 30), rules)
        steps = 0
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
        return steps

    return _rate(seconds, play_deal)


def pettingzoo_rate(seconds: float, players: int = 4, preset: str | None = None, seed: int = 0,
                    game: str | Game = DEFAULT_GAME) -> float:
    """Return PettingZoo AEC steps per second: ``env.last()`` with its observation and the info's mask, then ``env.step``."""
    from mustamaija.envs.aec import env as make

    rng = random.Random(seed)
    env = make(players=players, preset=preset, game=game)

    def play_deal(deal: int) -> int:
        env.reset(seed=seed + deal)
        steps = 0
        for _ in env.agent_iter():
            _, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(info["action_mask"].nonzero()[0].tolist()))
            steps += 1
        return steps

    return _rate(seconds, play_deal)


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


def adapter_rates(seconds: float = 3.0, players: int = 4, preset: str | None = None, seed: int = 0,
                  game: str | Game = DEFAULT_GAME) -> dict[str, float]:
    """Return the step rates of the engine, PettingZoo and OpenSpiel (``seconds`` each) and each adapter's overhead."""
    engine = engine_rate(seconds, players, preset, seed, game)
    pz = pettingzoo_rate(seconds, players, preset, seed, game)
    osp = openspiel_rate(seconds, players, preset, seed, game)
    return {
        "engine_steps_per_s": engine,
        "pettingzoo_steps_per_s": pz,
        "pettingzoo_overhead": engine / pz - 1.0,
        "openspiel_actions_per_s": osp,
        "openspiel_overhead": engine / osp - 1.0,
    }
