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

A client that cannot wait (a page that shows progress) uses :meth:`SharedWork.start` and asks again: the
answer is then made in the background, and a failure is told to the next asker, once. An answer that may
have been made and kept elsewhere (a database that outlives the process) is looked up by ``found``, after
the answers kept here and before making it, and is then kept here too.
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
        self._background: set[asyncio.Task[None]] = set()  # Held, or the loop could drop a running task.
        self._failed: dict[K, BaseException] = {}  # A background failure, for the next asker.

    def start(self, key: K, make: Callable[[], Awaitable[V]], found: Callable[[], V | None] | None = None) -> V | None:
        """Return the answer for ``key`` if it is made; else have it made in the background and return ``None``.

        A failure of a background making is raised to the next caller (once), so that polling ends. Too many
        answers in the making already: ``rate_limited``, as for :meth:`get`. ``found`` looks the answer up
        where it may have been kept elsewhere (not while it is being made here).

        >>> async def poll() -> list[int | None]:
        ...     work: SharedWork[str, int] = SharedWork(keep=2, most=1, busy="busy")
        ...     async def make() -> int:
        ...         await asyncio.sleep(0)
        ...         return 7
        ...     first = work.start("k", make)
        ...     while work.making("k"):
        ...         await asyncio.sleep(0)
        ...     return [first, work.start("k", make)]
        >>> asyncio.run(poll())
        [None, 7]
        """
        done = self._kept(key)
        if done is None and key not in self._making:
            done = self._found(key, found)
        if done is not None:
            return done
        failed = self._failed.pop(key, None)
        if failed is not None:
            raise failed
        if key in self._making:
            return None
        future = self._begin()
        self._making[key] = future  # At once, so that the next caller sees it in the making.
        task = asyncio.get_running_loop().create_task(self._make_in_background(key, future, make))
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return None

    def _kept(self, key: K) -> V | None:
        """Return the kept answer for ``key`` (now the most recently asked), or None."""
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
        return done

    def _found(self, key: K, found: Callable[[], V | None] | None) -> V | None:
        """Return the answer ``found()`` looks up elsewhere, kept here from now on, or None."""
        done = found() if found is not None else None
        if done is not None:
            self._keep(key, done)
        return done

    def _keep(self, key: K, answer: V) -> None:
        """Keep ``answer`` as the most recently asked, forgetting the least recently asked beyond :attr:`keep`."""
        self._done[key] = answer
        while len(self._done) > self.keep:
            self._done.popitem(last=False)

    def making(self, key: K) -> bool:
        """Return whether the answer for ``key`` is being made now."""
        return key in self._making

    async def _make_in_background(self, key: K, future: asyncio.Future[V], make: Callable[[], Awaitable[V]]) -> None:
        try:
            await self._make(key, future, make, True)
        except Exception as e:  # Noted as the answer leaves the making, with no await between: no asker misses it.
            self._failed[key] = e
            while len(self._failed) > self.keep:
                del self._failed[next(iter(self._failed))]

    async def get(self, key: K, make: Callable[[], Awaitable[V]], keep: bool = True,
                  found: Callable[[], V | None] | None = None) -> V:
        """Return the answer for ``key``: kept, being made (then wait for it), ``found()`` elsewhere, or made now by ``make()``.

        ``keep=False`` does not keep the answer (a key too large to hold, say). An error of ``make`` reaches
        every asker waiting for it and is not kept.
        """
        done = self._kept(key)
        if done is not None:
            return done
        making = self._making.get(key)
        if making is not None:
            return await asyncio.shield(making)
        done = self._found(key, found)
        if done is not None:
            return done
        return await self._make(key, self._begin(), make, keep)

    def _begin(self) -> asyncio.Future[V]:
        """Return the future of a new answer, or refuse it as ``rate_limited`` when too many are being made."""
        if len(self._making) >= self.most:
            raise ApiError("rate_limited", self.busy)
        return asyncio.get_running_loop().create_future()

    async def _make(self, key: K, future: asyncio.Future[V], make: Callable[[], Awaitable[V]], keep: bool) -> V:
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
        self._failed.pop(key, None)
        if keep:
            self._keep(key, result)
        return result
