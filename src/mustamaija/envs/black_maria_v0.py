"""Black Maria as a PettingZoo environment module, in the style of ``pettingzoo.classic``; one hand is one episode.

>>> from mustamaija.envs import black_maria_v0
>>> env = black_maria_v0.env(players=5, allow_renege=True)
>>> env.reset(seed=1); len(env.agents)
5
"""

from __future__ import annotations

from typing import Any

from mustamaija.envs import aec

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> Any:
    """Return the wrapped AEC environment; see :class:`mustamaija.envs.aec.raw_env` for the arguments."""
    return aec.env(game="black_maria", **kwargs)


def raw_env(**kwargs: Any) -> aec.raw_env:
    """Return the unwrapped AEC environment."""
    return aec.raw_env(game="black_maria", **kwargs)
