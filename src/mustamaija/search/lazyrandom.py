"""A ``random.Random(seed)`` that is seeded only when it is first drawn from.

PIMC gives every playout a generator of its own seed, so that the playouts of
all candidates on one sampled deal meet the same chances. Seeding a Mersenne
Twister costs about 26,000 machine instructions, a twentieth of a fast
compiled playout, and a game's playout policy may never draw (one that draws
only to break an endless deal, say). :class:`LazyRandom` keeps the seed, and on
its first draw seeds itself and becomes a plain :class:`random.Random`, so
every draw is the one ``random.Random(seed)`` gives.

>>> a, b = LazyRandom(7), random.Random(7)
>>> [a.random(), a.randrange(10), a.choice("abc")] == [b.random(), b.randrange(10), b.choice("abc")]
True
>>> type(a) is random.Random
True
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["LazyRandom"]


class LazyRandom(random.Random):
    """``random.Random(seed)``, seeded at its first draw (see the module's docstring)."""

    def __init__(self, seed: int) -> None:  # Not random.Random.__init__, which seeds at once.
        self._lazy_seed = seed
        self.gauss_next = None  # gauss reads it before it draws.

    def _wake(self) -> None:
        # A method bound before the first draw (``choices`` keeps ``self.random``) still comes here afterwards.
        if "_lazy_seed" in self.__dict__:
            seed = self.__dict__.pop("_lazy_seed")
            self.__class__ = random.Random  # type: ignore[assignment]  # From now on the C methods, with no detour.
            random.Random.__init__(self, seed)

    def random(self) -> float:
        LazyRandom._wake(self)  # Not self._wake: after the first draw self is a random.Random.
        return random.Random.random(self)

    def getrandbits(self, k: int, /) -> int:
        LazyRandom._wake(self)
        return random.Random.getrandbits(self, k)

    def randbytes(self, n: int) -> bytes:
        LazyRandom._wake(self)
        return random.Random.randbytes(self, n)

    def getstate(self) -> tuple[Any, ...]:
        LazyRandom._wake(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        LazyRandom._wake(self)
        random.Random.setstate(self, state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        LazyRandom._wake(self)
        random.Random.seed(self, a, version)
