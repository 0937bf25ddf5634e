"""Research environments: PettingZoo (AEC) and Gymnasium, for every game the adapters know.

These need the optional ``rl`` extra (``pip install 'mustamaija[rl]'``).
Make an environment by name with :func:`make_env`, or use the PettingZoo
style module :mod:`mustamaija.envs.mustamaija_v0`::

    from mustamaija.envs import make_env
    env = make_env("mustamaija_v0", players=4, preset="wikipedia")

The single-agent Gymnasium wrapper is registered as ``mustamaija/Mustamaija-v0``
when this package is imported::

    import gymnasium, mustamaija.envs
    env = gymnasium.make("mustamaija/Mustamaija-v0", players=3, opponents="heuristic")

See docs/research.md for the observation layout and every argument.
"""

from __future__ import annotations

from typing import Any

from mustamaija.core.protocol import Game
from mustamaija.core.registry import game_names, get_game, register_game

__all__ = ["ENV_NAMES", "Game", "game_names", "get_game", "make_env", "register_game", "register_gymnasium"]

ENV_NAMES = ("mustamaija_v0", "black_maria_v0")
"""The PettingZoo environments :func:`make_env` knows."""

GYM_IDS = {"mustamaija_v0": "mustamaija/Mustamaija-v0", "black_maria_v0": "mustamaija/BlackMaria-v0"}
"""The Gymnasium ids registered by :func:`register_gymnasium`, by environment name."""


def make_env(name: str, **kwargs: Any) -> Any:
    """Return the PettingZoo AEC environment ``name`` (wrapped in PettingZoo's order and bounds checks).

    >>> env = make_env("mustamaija_v0", players=2, preset="salmi")
    >>> env.reset(seed=3); env.agents
    ['player_0', 'player_1']
    """
    if name not in ENV_NAMES:
        raise KeyError(f"unknown environment {name!r} (known environments: {', '.join(ENV_NAMES)})")
    from mustamaija.envs.aec import env

    return env(game=name.rsplit("_v", 1)[0], **kwargs)


def register_gymnasium() -> None:
    """Register the single-agent environments with Gymnasium (idempotent; a no-op without Gymnasium)."""
    try:
        import gymnasium
    except ModuleNotFoundError:
        return
    for name, gym_id in GYM_IDS.items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(id=gym_id, entry_point="mustamaija.envs.gym_env:SingleAgentEnv",
                               kwargs={"game": name.rsplit("_v", 1)[0]})


register_gymnasium()
