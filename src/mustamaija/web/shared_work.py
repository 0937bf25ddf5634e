"""Costly answers made once: kept for the next asker, shared with those who ask while it is being made, and bounded.

A review of a deal or a puzzle move's verdict costs solver or search time;
clients may ask for the same one many times, or all at once. A
:class:`SharedWork` keeps the last ``keep`` answers, lets a second asker
wait for the answer being made instead of making it again, and refuses new
work as ``rate_limited`` while ``most`` answers are being made, so that no
client can queue unbounded work on the server.

>>> import asyncio
>>> work: SharedWork[str, int] = SharedWork(keep=2, most=1, busy="busy")
>>> made = []
>>> async def make() -> int:
...     made.append(1)
...     return 42
>>> asyncio.run(work.get("a", make)), asyncio.run(work.get("a", make)), len(made)
(42, 42, 1)
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

from mustamaija.web.errors import ApiError

__all__ = ["SharedWork"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class SharedWork(Generic[K, V]):
    """The answers to costly questions, by key: the last ``keep`` kept, at most ``most`` being made at once."""

    def __init__(self, keep: int, most: int, busy: str) -> None:
        self.keep = keep
        """How many answers are kept (the least recently asked go first)."""
        self.most = most
        """How many answers may be in the making at once; beyond, ``rate_limited`` with the ``busy`` message."""
        self.busy = busy
        self._done: OrderedDict[K, V] = OrderedDict()
        self._making: dict[K, asyncio.Future[V]] = {}

    async def get(self, key: K, make: Callable[[], Awaitable[V]], keep: bool = True) -> V:
        """Return the answer for ``key``: kept, being made (then wait for it), or made now by ``make()``.

        ``keep=False`` does not keep the answer (a key too large to hold, say). An error of ``make`` reaches
        every asker waiting for it and is not kept.
        """
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        making = self._making.get(key)
        if making is not None:
            return await asyncio.shield(making)
        if len(self._making) >= self.most:
            raise ApiError("rate_limited", self.busy)
        future: asyncio.Future[V] = asyncio.get_running_loop().create_future()
        self._making[key] = future
        try:
            result = await make()
            future.set_result(result)
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # Retrieved: those waiting get it; nobody else must be warned of it.
            raise
        finally:
            del self._making[key]
        if keep:
            self._done[key] = result
            while len(self._done) > self.keep:
                self._done.popitem(last=False)
        return result
