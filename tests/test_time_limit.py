"""The wall-clock limit of searches without a budget of their own (the solver): it stops them even when its
first signal is lost, and leaves nothing armed behind."""

from __future__ import annotations

import gc
import signal
import time

import pytest

from mustamaija.search.time_limit import OutOfTime, time_limit


def test_a_lost_signal_is_sent_again_until_the_block_stops() -> None:
    swallowed = 0
    started = time.monotonic()
    with pytest.raises(OutOfTime), time_limit(0.05):
        while True:
            try:
                time.sleep(0.005)
            except OutOfTime:
                if swallowed == 0:  # Code that swallows the first one, as a finalizer would.
                    swallowed += 1
                    continue
                raise
    assert swallowed == 1 and time.monotonic() - started < 2.0


def test_the_collector_and_the_handler_are_restored() -> None:
    before = signal.getsignal(signal.SIGALRM)
    assert gc.isenabled()
    with time_limit(1.0):
        assert not gc.isenabled()  # A finalizer run by the collector would lose the signal's exception.
    assert gc.isenabled() and signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    time.sleep(0.1)  # Nothing fires afterwards.
