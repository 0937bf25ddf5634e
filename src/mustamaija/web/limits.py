"""A token bucket: the rate limit of a connection or of a client address.

>>> b = TokenBucket(burst=2, rate=1.0, now=0.0)
>>> b.take(now=0.0), b.take(now=0.0), b.take(now=0.0), b.take(now=1.0)
(True, True, False, True)
"""

from __future__ import annotations

import time

__all__ = ["TokenBucket"]


class TokenBucket:
    """Allow ``burst`` events at once, then ``rate`` a second."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, burst: int, rate: float, now: float | None = None) -> None:
        self.burst = burst
        self.rate = rate
        self.tokens = float(burst)
        self.stamp = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> bool:
        """Spend one token if there is one; return whether the event is allowed."""
        t = time.monotonic() if now is None else now
        self.tokens = min(float(self.burst), self.tokens + (t - self.stamp) * self.rate)
        self.stamp = t
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
