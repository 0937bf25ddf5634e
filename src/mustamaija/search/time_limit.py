"""A wall-clock limit for a search that has no budget of its own, such as the exact solver on a hard position.

:func:`time_limit` runs a block under a timer signal: after ``seconds`` the
block is interrupted with :class:`OutOfTime`. It uses ``SIGALRM``, so it works
in the main thread of a Unix process (a command, or a search worker process).

Two things can lose the timer's exception, and both are guarded against. The
garbage collector may call a finalizer just as the timer fires, and an
exception raised there is only reported as unraisable, so the collector is off
while the timer runs. Should code that swallows exceptions still lose it, the
timer fires again every :data:`REPEAT` seconds until the block ends.

>>> import time
>>> try:
...     with time_limit(0.05):
...         while True:
...             time.sleep(0.01)
... except OutOfTime:
...     print("stopped")
stopped
>>> with time_limit(5):
...     sum(range(10))
45
"""

from __future__ import annotations

import contextlib
import gc
import signal
from collections.abc import Iterator
from types import FrameType
from typing import Final

__all__ = ["REPEAT", "OutOfTime", "time_limit"]

REPEAT: Final = 0.05
"""Seconds between the timer's signals once the limit is reached."""


class OutOfTime(Exception):
    """The block of a :func:`time_limit` ran out of time."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block with :class:`OutOfTime` after ``seconds`` of wall-clock time (main thread only)."""
    armed = [True]

    def _out_of_time(_signum: int, _frame: FrameType | None) -> None:
        if armed[0]:  # Not once the block is over, while the timer is being stopped.
            raise OutOfTime

    previous = signal.signal(signal.SIGALRM, _out_of_time)
    collecting = gc.isenabled()
    gc.disable()
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds, REPEAT)
        yield
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if collecting:
            gc.enable()
