"""Research environments: PettingZoo (AEC) and Gymnasium, for every game of the registry.

These need the optional ``rl`` extra (``pip install 'mustamaija[rl]'``).
Every game (:mod:`mustamaija.core.registry`, outside games included) gets:

* a PettingZoo environment named ``<env_name>_v0`` (:attr:`Game.env_name
  <mustamaija.core.protocol.Game.env_name>`), made by :func:`make_env`;
* a module ``mustamaija.envs.<env_name>_v0`` in the style of
  ``pettingzoo.classic``, with ``env()`` and ``raw_env()``, built on first
  import (``from mustamaija.envs import <env_name>_v0``);
* a single-agent Gymnasium environment registered as
  ``<package>/<Title>-v0`` (the title without spaces) when this package is
  imported, or by :func:`register_gymnasium` for a game registered later;
* its vector environment (many deals stepped in one call,
  :class:`mustamaija.envs.vector.VectorSingleAgentEnv`), the vector entry
  point of that id (``gymnasium.make_vec(id, num_envs=8)``), also made by
  :func:`make_vector_env` from the environment name.

>>> from mustamaija.core.registry import DEFAULT_GAME, get_game
>>> game = get_game(DEFAULT_GAME)
>>> env_name(game) in env_names(), gym_id(game) == f"{NAMESPACE}/{game.title.replace(' ', '')}-v0"
(True, True)
>>> module = importlib.import_module(f"mustamaija.envs.{env_name(game)}")
>>> module.GAME is game, module.env(players=3).unwrapped.metadata["name"] == env_name(game)
(True, True)

See docs/research.md for the observation layout and every argument.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import re
import sys
import types
from collections.abc import Sequence
from typing import Any, Final

from mustamaija.core.protocol import Game
from mustamaija.core.registry import game_names, games, get_game, register_game

__all__ = ["ENV_NAMES", "GYM_IDS", "Game", "env_name", "env_names", "game_names", "game_of", "get_game", "gym_id", "make_env",
           "make_vector_env", "register_game", "register_gymnasium"]

VERSION: Final = "_v0"
"""The version suffix of every environment name."""

NAMESPACE: Final = __name__.partition(".")[0]
"""The Gymnasium namespace of the environments: the package's name."""


def env_name(game: Game) -> str:
    """Return the name of a game's PettingZoo environment (and of its ``pettingzoo.classic``-style module)."""
    return game.env_name + VERSION


def gym_id(game: Game) -> str:
    """Return the Gymnasium id of a game's single-agent environment: its title in one word, after the namespace."""
    word = "".join(part[:1].upper() + part[1:] for part in re.split(r"\W+", game.title) if part)
    return f"{NAMESPACE}/{word}-v0"


def env_names() -> list[str]:
    """Return the environment names :func:`make_env` knows: one per game of the registry."""
    return [env_name(game) for game in games()]


def game_of(name: str) -> Game | None:
    """Return the game whose environment is ``name`` (``None`` if there is none)."""
    return next((game for game in games() if env_name(game) == name), None)


def make_env(name: str, **kwargs: Any) -> Any:
    """Return the PettingZoo AEC environment ``name`` (wrapped in PettingZoo's order and bounds checks).

    >>> from mustamaija.core.registry import DEFAULT_GAME, get_game
    >>> env = make_env(env_name(get_game(DEFAULT_GAME)), players=2)
    >>> env.reset(seed=3); env.agents
    ['player_0', 'player_1']
    """
    game = game_of(name)
    if game is None:
        raise KeyError(f"unknown environment {name!r} (known environments: {', '.join(env_names())})")
    from mustamaija.envs.aec import env

    return env(game=game, **kwargs)


def make_vector_env(name: str, num_envs: int = 1, **kwargs: Any) -> Any:
    """Return the vector environment of environment ``name``: ``num_envs`` deals of its single-agent environment.

    The keywords are :class:`mustamaija.envs.vector.VectorSingleAgentEnv`'s
    (those of the single-agent environment, ``copy`` and ``autoreset_mode``);
    ``gymnasium.make_vec`` with the game's Gymnasium id makes the same.

    >>> from mustamaija.core.registry import DEFAULT_GAME, get_game
    >>> vec = make_vector_env(env_name(get_game(DEFAULT_GAME)), num_envs=4, players=3)
    >>> vec.num_envs, vec.reset(seed=0)[0].shape[0]
    (4, 4)
    """
    game = game_of(name)
    if game is None:
        raise KeyError(f"unknown environment {name!r} (known environments: {', '.join(env_names())})")
    from mustamaija.envs.vector import VectorSingleAgentEnv

    return VectorSingleAgentEnv(num_envs=num_envs, game=game, **kwargs)


def _fill(module: types.ModuleType, game: Game) -> None:
    """Make ``module`` the ``pettingzoo.classic``-style module of ``game``: ``env``, ``raw_env`` and ``GAME``."""
    from mustamaija.envs import aec

    def env(**kwargs: Any) -> Any:
        return aec.env(game=game, **kwargs)

    def raw_env(**kwargs: Any) -> aec.raw_env:
        return aec.raw_env(game=game, **kwargs)

    env.__doc__ = f"Return the wrapped AEC environment of {game.title}; see :class:`mustamaija.envs.aec.raw_env`."
    raw_env.__doc__ = f"Return the unwrapped AEC environment of {game.title}."
    for function in (env, raw_env):
        function.__module__ = module.__name__
        function.__qualname__ = function.__name__
    module.__doc__ = f"{game.title} as a PettingZoo environment module, in the style of ``pettingzoo.classic``."
    for attribute, value in (("__all__", ["GAME", "env", "raw_env"]), ("GAME", game), ("env", env), ("raw_env", raw_env)):
        setattr(module, attribute, value)


class _EnvModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``mustamaija.envs.<env_name>_v0`` for every game of the registry, though no file holds it."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """Return a spec for a game's environment module of this package, ``None`` for anything else."""
        package, _, name = fullname.rpartition(".")
        if package != __name__ or not name.endswith(VERSION) or game_of(name) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        """Let the import system create a plain module."""
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        """Fill the module with its game's ``env`` and ``raw_env``."""
        game = game_of(module.__name__.rpartition(".")[2])
        if game is None:  # The game went away between finding and loading: nothing to build.
            raise ImportError(f"no game has the environment {module.__name__!r}", name=module.__name__)
        _fill(module, game)


if not any(isinstance(finder, _EnvModules) for finder in sys.meta_path):
    sys.meta_path.append(_EnvModules())


def __getattr__(name: str) -> Any:
    """Return ``ENV_NAMES``, ``GYM_IDS`` or a game's environment module, all read from the registry when asked."""
    if name == "ENV_NAMES":
        return tuple(env_names())
    if name == "GYM_IDS":
        return {env_name(game): gym_id(game) for game in games()}
    if name.endswith(VERSION) and game_of(name) is not None:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def register_gymnasium() -> None:
    """Register every game's single-agent environment with Gymnasium (idempotent; a no-op without Gymnasium).

    Each id has both entry points: ``gymnasium.make`` gives the single
    environment, ``gymnasium.make_vec`` the vector one (its default; pass
    ``vectorization_mode="sync"`` or ``"async"`` for Gymnasium's vectors of
    single environments).
    """
    try:
        import gymnasium
    except ModuleNotFoundError:
        return
    for game in games():
        if gym_id(game) not in gymnasium.registry:
            gymnasium.register(id=gym_id(game), entry_point=f"{__name__}.gym_env:SingleAgentEnv",
                               vector_entry_point=f"{__name__}.vector:VectorSingleAgentEnv", kwargs={"game": game.name})


register_gymnasium()
