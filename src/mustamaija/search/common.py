"""What the search players share: reading their registry parameters, and one process pool for root parallelism.

>>> read_params({"iters": "25", "solver": "off"}, {"iters": (int, None), "solver": (bool, True)}, "pimc")
{'iters': 25, 'solver': False}
>>> read_params({"depth": 3}, {"iters": (int, None)}, "pimc")
Traceback (most recent call last):
...
ValueError: unknown parameter(s) depth for pimc: known are iters
"""

from __future__ import annotations

import atexit
import math
import multiprocessing
import random
import time as _time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final

from mustamaija.core.protocol import Game, SearchKit
from mustamaija.core.registry import DEFAULT_GAME, get_game

__all__ = ["PIMC_PARAMS", "SEARCH_PARAMS", "OpenHand", "SearchPlayer", "check_budget", "derive_seed", "flag", "number",
           "process_pool", "read_params", "search_rate"]

ParamSpec = Mapping[str, tuple[type, Any]]
"""Parameter name -> (type: int, float, bool or str; default, ``None`` for "not given")."""


SEARCH_PARAMS: Final[dict[str, tuple[type, Any]]] = {
    "iters": (int, None),
    "time": (float, None),
    "workers": (int, 1),
    "solver": (bool, True),
    "solver_cards": (int, None),
    "beliefs": (bool, True),
}
"""The registry parameters every search bot takes: the budget, root parallelism and the solver hand-over.

``solver`` and ``solver_cards`` (the largest endgame solved; ``None``: the
game's own limit) matter only for games whose search kit has an exact
endgame (:meth:`~mustamaija.core.protocol.SearchKit.endgame`). ``beliefs=off``
deals the cards a seat cannot see uniformly even where the game's kit has a
model of where they are likely to be (:attr:`~mustamaija.core.protocol.SearchKit.beliefs`)."""

PIMC_PARAMS: Final[dict[str, tuple[type, Any]]] = {**SEARCH_PARAMS, "samples": (int, None)}
"""The registry parameters of the PIMC bots: the common ones and ``samples`` (every candidate on that many deals)."""


def check_budget(iters: int | None, time: float | None, workers: int, samples: int | None = None) -> None:
    """Raise a ValueError naming the first budget parameter that makes no sense."""
    if iters is not None and iters < 1:
        raise ValueError(f"iters must be at least 1, got {iters}")
    if time is not None and time <= 0:
        raise ValueError(f"time must be positive, got {time}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int) or samples < 1):
        raise ValueError(f"samples must be a positive integer, not {samples!r}")
    if samples is not None and iters is not None:
        raise ValueError("give samples (every candidate on every sampled deal) or iters (sequential halving), not both")


def derive_seed(seed: int | str, k: int) -> int | str:
    """Return the ``k``-th seed derived from a search's seed (a number, or the text of a per-decision seed).

    >>> derive_seed(7, 1000), derive_seed("3:1:12", 2)
    (1007, '3:1:12:2')
    """
    return seed + k if isinstance(seed, int) else f"{seed}:{k}"


def search_rate(make: Callable[[int], Any], players: int, preset: str | None, deals: int,
                game: str | Game = DEFAULT_GAME) -> float:
    """Return a search bot's iterations per second of CPU time at the first decision of ``deals`` seeded deals.

    ``make(seed)`` builds the bot, whose ``stats["iterations"]`` counts the work of its last decision.
    CPU time of this process is used, so the figure is for one core even on a busy machine.
    """
    g = get_game(game)
    rules = g.make_rules(preset)
    total = 0
    spent = 0.0
    for seed in range(deals):
        s = g.deal(players, seed, rules)
        bot = make(seed)
        view = s.view(s.to_act)
        start = _time.process_time()
        bot.act(view)
        spent += _time.process_time() - start
        total += bot.stats["iterations"]
    return total / spent if spent > 0 else math.inf


def flag(value: object) -> bool:
    """Return a true/false parameter read from a bool or from ``1/0``, ``true/false``, ``yes/no``, ``on/off``."""
    if isinstance(value, bool):
        return value
    text = str(value).lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"expected true or false, got {value!r}")


def number(value: object, kind: type[int] | type[float], name: str) -> Any:
    """Return a numeric parameter as ``kind``, or raise a ValueError that names it."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"parameter {name} must be a number, got {value!r}")
    try:
        return kind(value)
    except ValueError:
        raise ValueError(f"parameter {name} must be {'an integer' if kind is int else 'a number'}, got {value!r}") from None


def read_params(params: Mapping[str, Any], spec: ParamSpec, bot: str) -> dict[str, Any]:
    """Return the keyword arguments for a bot's constructor from its registry parameters, checked against ``spec``."""
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)} for {bot}: known are {', '.join(spec)}")
    out: dict[str, Any] = {}
    for name, (kind, default) in spec.items():
        value = params.get(name, default)
        if value is None:
            out[name] = None
        elif kind is bool:
            out[name] = flag(value)
        elif kind is str:
            out[name] = str(value)
        else:
            out[name] = number(value, kind, name)
    return out


_POOLS: dict[int, ProcessPoolExecutor] = {}


def process_pool(workers: int) -> ProcessPoolExecutor:
    """Return a pool of ``workers`` spawned processes, shared by every search player of this process and kept between moves."""
    pool = _POOLS.get(workers)
    if pool is None:
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
        _POOLS[workers] = pool
    return pool


@atexit.register
def _close_pools() -> None:
    for pool in _POOLS.values():
        pool.shutdown(wait=True, cancel_futures=True)
    _POOLS.clear()


class SearchPlayer:
    """What the search players share: the game and its search kit, the budget, the seeded generator, the solver hand-over.

    ``iters`` and ``time`` bound a decision's work (``None``: the player's
    default); ``workers`` > 1 adds root parallelism; ``seed`` seeds the
    player's generator (what a decision does with it is the kit's seeding
    rule); ``solver`` hands endgames to the game's exact solver, if its kit
    has one (up to ``solver_cards`` cards; ``None``: the game's limit);
    ``beliefs=False`` clears the kit's :attr:`~mustamaija.core.protocol.SearchKit.beliefs`.
    """

    name = "search"
    sees_all = False

    def __init__(self, game: str | Game, iters: int | None = None, time: float | None = None, workers: int = 1,
                 seed: int | None = 0, solver: bool = True, solver_cards: int | None = None,
                 beliefs: bool = True) -> None:
        check_budget(iters, time, workers)
        self.game = get_game(game)
        self.kit: SearchKit = self.game.search_kit()
        self.kit.beliefs = self.kit.beliefs and beliefs  # Only a kit with a model of play can deal by it.
        self.iters = iters
        self.time = time
        self.workers = workers
        self.seed = seed
        self.rng = random.Random(seed)
        self.endgame = self.kit.endgame(solver_cards) if solver else None
        self.stats: dict[str, Any] = {}

    def close(self) -> None:
        """Forget what is kept between the steps of an action (the process pool is shared and closed at exit)."""


class OpenHand:
    """The open-hand twin of a search player: it sees every card, so it refuses views and acts on the true state.

    An upper bound for experiments only, never a fair player: game drivers
    call ``act_open(state)`` for players with ``sees_all``.
    """

    sees_all = True

    def act(self, view: Any) -> int:
        """Refuse: this player needs the true state (use ``act_open``)."""
        raise TypeError("the open-hand player sees every card: call act_open(state), never act(view)")
