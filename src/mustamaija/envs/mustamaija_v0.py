"""Mustamaija as a PettingZoo environment module, in the style of ``pettingzoo.classic``.

>>> from mustamaija.envs import mustamaija_v0
>>> env = mustamaija_v0.env(players=4, hand_size=6, trump="marriage")
>>> env.reset(seed=1); len(env.agents)
4
"""

from __future__ import annotations

from typing import Any

from mustamaija.envs import aec

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> Any:
    """Return the wrapped AEC environment; see :class:`mustamaija.envs.aec.raw_env` for the arguments."""
    return aec.env(game="mustamaija", **kwargs)


def raw_env(**kwargs: Any) -> aec.raw_env:
    """Return the unwrapped AEC environment."""
    return aec.raw_env(game="mustamaija", **kwargs)
