"""Process pools that can be stopped at once: the tournament's ``--jobs`` workers and the web server's searches.

``ProcessPoolExecutor.shutdown`` waits for the work being done, which may be
minutes of search; an interrupted tournament or a stopping server must end its
workers now and leave no process behind. :class:`WorkerPool` starts spawned
workers that ignore Ctrl-C (a terminal's Ctrl-C reaches the whole process
group, and the owner stops its workers itself) and end with their owner;
:meth:`WorkerPool.stop` ends them: terminate, then kill, reaping every one.

>>> pool = WorkerPool(1)
>>> pool.executor.submit(pow, 2, 10).result()
1024
>>> workers = pool_processes(pool.executor)
>>> pool.stop()
>>> len(workers), [p for p in workers if p.is_alive()]
(1, [])

A pool made with ``starts=True`` also says when each call begins to run:
the executor hands its workers one call ahead of the one running, so a
submitted call's ``running()`` is true while it may still be waiting, and
only the worker knows when it starts. :meth:`WorkerPool.submit_reported`
tags a call, and :meth:`WorkerPool.started` returns the tags of the calls
begun since it was last asked.

>>> pool = WorkerPool(1, starts=True)
>>> pool.submit_reported(7, pow, 3, 3).result(), pool.started()
(27, [7])
>>> pool.stop()
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
from collections.abc import Callable, Collection
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing.process import BaseProcess
from multiprocessing.queues import SimpleQueue
from typing import Any, TypeVar

__all__ = ["WorkerPool", "pool_processes", "stop_workers"]

T = TypeVar("T")

_starts: SimpleQueue[int] | None = None
"""In a worker of a pool made with ``starts=True``: where it tells its owner which call it begins."""


def _start_worker(starts: SimpleQueue[int] | None = None) -> None:
    """Make a worker ignore Ctrl-C, and end when its owner ends, however that happens.

    Ctrl-C reaches the whole process group: the pool's owner stops its workers itself. An owner
    killed outright (``kill -9``, the OOM killer) cannot, and a worker would live on, blocked on
    a queue it holds both ends of; so a thread waits for the owner's end and then ends the worker.
    """
    global _starts
    _starts = starts
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    owner = multiprocessing.parent_process()
    if owner is not None:
        threading.Thread(target=_end_with, args=(owner.sentinel,), name="end-with-owner", daemon=True).start()


def _end_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(1)


def _reported(tag: int, func: Callable[..., T], *args: Any) -> T:
    """Tell the owner that the call tagged ``tag`` begins, then make it (in a worker)."""
    if _starts is not None:
        _starts.put(tag)
    return func(*args)


class WorkerPool:
    """A pool of spawned worker processes, which ignore Ctrl-C, and which :meth:`stop` ends at once.

    Spawned, not forked: the owner may have threads (the web server has), and a forked child
    would inherit their locks.
    """

    def __init__(self, workers: int, starts: bool = False) -> None:
        #: This process's children from before the pool existed: :meth:`stop` leaves them alone.
        self.spared: frozenset[BaseProcess] = frozenset(multiprocessing.active_children())
        context = multiprocessing.get_context("spawn")
        self._starts: SimpleQueue[int] | None = context.SimpleQueue() if starts else None
        #: The executor to submit work to.
        self.executor = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker,
                                            initargs=(self._starts,))

    def submit_reported(self, tag: int, func: Callable[..., T], *args: Any) -> Future[T]:
        """Submit ``func(*args)``, to be reported by :meth:`started` as ``tag`` once a worker begins it."""
        if self._starts is None:
            raise ValueError("this pool was made without starts=True: it reports no starts")
        return self.executor.submit(_reported, tag, func, *args)

    def started(self) -> list[int]:
        """Return the tags of the reported calls that workers began since the last call, without waiting."""
        tags: list[int] = []
        # Only this process reads, and a worker writes a tag whole before its call runs: a tag seen is a tag read.
        while self._starts is not None and not self._starts.empty():
            tags.append(self._starts.get())
        return tags

    def stop(self, grace: float = 5.0) -> None:
        """Drop the queued work and end the workers now (see :func:`stop_workers`)."""
        stop_workers(self.executor, grace, self.spared)
        if self._starts is not None:
            self._starts.close()  # The workers are gone: no tag is written or read any more.
            self._starts = None

    def shutdown(self) -> None:
        """Wait for the work submitted, then end the workers: the end of a pool whose work is all done."""
        self.executor.shutdown(wait=True)


def pool_processes(pool: ProcessPoolExecutor, spared: Collection[BaseProcess] | None = None) -> list[BaseProcess]:
    """Return a pool's worker processes, read before its shutdown drops them.

    The pool's own list is private (Python 3.14 adds ``terminate_workers``), and a worker started just
    as Ctrl-C arrived may be running without being in it yet (the pool records a process after starting
    it). Such a worker ignores Ctrl-C and would keep the owner from exiting, which waits for its
    children: so, given ``spared`` (this process's children from before the pool existed), every other
    child counts as the pool's too.
    """
    found: dict[int | None, BaseProcess] = dict(getattr(pool, "_processes", None) or {})
    if spared is not None:
        for child in multiprocessing.active_children():
            if child not in spared:
                found.setdefault(child.pid, child)
    return list(found.values())


def stop_workers(pool: ProcessPoolExecutor, grace: float = 5.0, spared: Collection[BaseProcess] | None = None) -> None:
    """Cancel a pool's queued work and end its worker processes now (terminate, then kill), reaping every one."""
    processes = pool_processes(pool, spared)
    results = getattr(pool, "_result_queue", None)  # Read before the shutdown, which drops it.
    manager = getattr(pool, "_executor_manager_thread", None)  # The same.
    pool.shutdown(wait=False, cancel_futures=True)
    _close_write_end(results)
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()
        _await_exit_code(process)
    if manager is not None and manager is not threading.current_thread():
        # The manager thread closes its wake-up pipe as it ends; at interpreter exit the pools' exit hook writes to
        # that pipe without a lock, and a manager still ending then makes the hook fail with EBADF (a traceback
        # after a Ctrl-C'd tournament). With every worker gone it ends at once.
        manager.join(grace)


def _close_write_end(results: object) -> None:
    """Close this process's write end of a pool's result pipe, so that the workers' ends are the last ones.

    A worker ended while it sends a result leaves part of a message in the pipe. The pool's manager
    thread then waits in ``recv`` for the rest, for ever while any write end is open, and the owner
    holds one (it never writes there); the interpreter joins that thread at exit, so the owner would
    never exit. With the owner's end closed, the workers' ends go with them and the ``recv`` ends in
    ``EOFError``, which the pool takes for the broken pool it is. Only the workers write results, and
    none is started once the pool is shut down, so nothing needs this end afterwards.
    """
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()


def _await_exit_code(process: BaseProcess, patience: float = 5.0) -> None:
    """Wait until ``process``'s exit code is recorded, even when another thread reaped it.

    The pool's manager thread joins the same workers after a shutdown. When it wins the race to
    ``waitpid``, this thread's ``join`` returns with no exit code, so the worker reads as alive
    until the manager thread stores it, a moment later.
    """
    deadline = time.monotonic() + patience
    while process.exitcode is None and time.monotonic() < deadline:
        time.sleep(0.005)
