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
import multiprocessing
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

__all__ = ["flag", "number", "process_pool", "read_params"]

ParamSpec = Mapping[str, tuple[type, Any]]
"""Parameter name -> (type: int, float, bool or str; default, ``None`` for "not given")."""


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
