"""Random draws that match ``random.Random``'s number for number, at a fraction of the cost.

``Random.choice``, ``shuffle`` and ``randrange`` reach the generator through
``Random._randbelow``, a method written in Python. In the compiled build
those calls, not the rules, are most of a random playout's time and much of
a deal's. :func:`below` and :func:`shuffle` make the same draws straight from
``getrandbits`` (a call into C), so seeded games stay what they were:

>>> import random
>>> a, b = random.Random(7), random.Random(7)
>>> [below(a, n) for n in (1, 2, 3, 52, 1000)] == [b.randrange(n) for n in (1, 2, 3, 52, 1000)]
True
>>> x, y = list(range(10)), list(range(10))
>>> shuffle(random.Random(3), x); random.Random(3).shuffle(y); x == y
True

:func:`generator` makes ``random.Random(seed)`` for an int seed by calling
the C seeding directly, without the two Python frames (``__init__`` and
``seed``) that ``random.Random(seed)`` goes through first; each deal from a
seed makes one:

>>> generator(2026).getstate() == random.Random(2026).getstate(), type(generator("a")) is random.Random
(True, True)

The short cut is taken only for the exact ``random.Random`` class (a
subclass may draw its own way) and only if this interpreter's ``Random``
draws as it assumes, which is checked once at import; otherwise the draws
go through ``randrange`` as before. Both ways give the same numbers.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

__all__ = ["below", "bit_source", "generator", "shuffle"]


_RANDOM: Final = random.Random
"""The generator class the short cut serves (a constant: no module attribute lookup per draw)."""
_GETRANDBITS: Final = random.Random.getrandbits
"""The generator's C method, unbound: called with the generator, it costs no bound method per draw."""


def _below_fast(rng: random.Random, n: int) -> int:
    # What Random._randbelow_with_getrandbits does (CPython 3.2 to 3.13): rejection sampling on n.bit_length() bits.
    k = n.bit_length()
    r = _GETRANDBITS(rng, k)
    while r >= n:
        r = _GETRANDBITS(rng, k)
    return r


def _agrees() -> bool:
    """Return whether :func:`_below_fast` draws what ``randrange`` draws on this interpreter (checked once)."""
    for seed in range(4):
        a, b = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 5, 7, 13, 52, 64, 100, 1 << 40):
            if _below_fast(a, n) != b.randrange(n):
                return False
        if a.random() != b.random():
            return False
    return True


_FAST: Final = _agrees()
"""Whether the short cut is exact here."""

_SEEDED: Final[Any] = random.Random.__mro__[1]
"""The C generator ``random.Random`` derives from, whose ``seed`` is the C seeding."""


def _generator_fast(seed: int) -> random.Random:
    rng: Any = _SEEDED.__new__(_RANDOM)  # Not seeded yet: a subclass's constructor leaves that to __init__.
    _SEEDED.seed(rng, seed)  # The C seeding random.Random.seed ends in for an int.
    rng.gauss_next = None  # What random.Random.__init__ sets, beside seeding.
    result: random.Random = rng
    return result


def _seeds_agree() -> bool:
    """Return whether :func:`_generator_fast` makes the generator ``random.Random(seed)`` makes here (checked once)."""
    try:
        return all(_generator_fast(seed).getstate() == random.Random(seed).getstate()
                   for seed in (0, 1, 7, -3, 1 << 31, (1 << 40) + 5, (1 << 100) + 1))
    except Exception:  # An interpreter whose constructor takes no seed: keep to random.Random.
        return False


_FAST_SEEDS: Final = _seeds_agree()
"""Whether an int seed may seed the generator once."""


def generator(seed: int | str) -> random.Random:
    """Return ``random.Random(seed)``: the same generator, seeded in C directly when ``seed`` is an int."""
    if _FAST_SEEDS and type(seed) is int:
        return _generator_fast(seed)
    return random.Random(seed)


def below(rng: random.Random, n: int) -> int:
    """Return ``rng.randrange(n)`` for ``n`` > 0: the index ``rng.choice`` picks in a sequence of length ``n``."""
    if n <= 0:
        raise ValueError(f"no number below {n} to draw")
    if _FAST and type(rng) is _RANDOM:
        return _below_fast(rng, n)
    return rng.randrange(n)


def bit_source(rng: random.Random) -> Callable[[int], int] | None:
    """Return ``rng.getrandbits`` when :func:`below`'s draw from it is exact for ``rng``, else ``None``.

    A loop that draws many times can then make :func:`below`'s draw itself: ``k = n.bit_length()``, then
    ``getrandbits(k)`` until the number is below ``n``.

    >>> bit_source(random.Random(1)) is not None, bit_source(random.SystemRandom()) is None
    (True, True)
    """
    return rng.getrandbits if _FAST and type(rng) is _RANDOM else None


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does."""
    getrandbits = bit_source(rng)
    if getrandbits is None:
        rng.shuffle(items)
        return
    # The draw of _below_fast, written out: calling it per card measured twice a compiled shuffle's time.
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
