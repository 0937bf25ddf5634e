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
import time as _time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final

from mustamaija.games.mustamaija.players.ismcts_endgame import MAX_SOLVER_CARDS
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.state import State
from mustamaija.games.mustamaija.view import View

__all__ = ["SEARCH_PARAMS", "check_budget", "flag", "number", "process_pool", "read_params", "search_rate"]

ParamSpec = Mapping[str, tuple[type, Any]]
"""Parameter name -> (type: int, float, bool or str; default, ``None`` for "not given")."""


SEARCH_PARAMS: Final[dict[str, tuple[type, Any]]] = {
    "iters": (int, None),
    "time": (float, None),
    "workers": (int, 1),
    "solver": (bool, True),
    "solver_cards": (int, MAX_SOLVER_CARDS),
}
"""The registry parameters every search bot takes: the budget, root parallelism and the solver hand-over."""


def check_budget(iters: int | None, time: float | None, workers: int) -> None:
    """Raise a ValueError naming the first budget parameter that makes no sense."""
    if iters is not None and iters < 1:
        raise ValueError(f"iters must be at least 1, got {iters}")
    if time is not None and time <= 0:
        raise ValueError(f"time must be positive, got {time}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")


def search_rate(make: Callable[[int], Any], players: int, preset: str, deals: int) -> float:
    """Return a search bot's iterations per second of CPU time at the first decision of ``deals`` seeded deals.

    ``make(seed)`` builds the bot, whose ``stats["iterations"]`` counts the work of its last decision.
    CPU time of this process is used, so the figure is for one core even on a busy machine.
    """
    rules = Rules.preset(preset)
    total = 0
    spent = 0.0
    for seed in range(deals):
        s = State.from_seed(players, seed, rules)
        bot = make(seed)
        view: View = s.view(s.to_act)
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
