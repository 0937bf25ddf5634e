"""``popcount`` and ``popcount64``: the same count as ``int.bit_count`` in both builds, by the build's quickest means."""

from __future__ import annotations

import random

from mustamaija.build import which
from mustamaija.core.bits import popcount, popcount64


def test_popcount_is_bit_count_for_every_size_of_mask() -> None:
    rng = random.Random(7)
    values = [0, 1, -1, (1 << 52) - 1, (1 << 62) - 1, 1 << 62, (1 << 63) - 1, 1 << 63, 1 << 64, -(1 << 70) - 3]
    values += [rng.getrandbits(rng.randrange(1, 90)) for _ in range(20_000)]
    values += [-rng.getrandbits(rng.randrange(1, 90)) for _ in range(2_000)]
    for x in values:
        assert popcount(x) == x.bit_count(), x


def test_each_build_counts_its_own_way() -> None:
    # Interpreted, the method itself (one C call); compiled, the module's own arithmetic.
    assert (popcount is int.bit_count) is (which() != "compiled")


def test_popcount64_is_bit_count_for_every_mask_a_machine_word_holds() -> None:
    rng = random.Random(8)
    values = [0, 1, (1 << 52) - 1, (1 << 61) | 1, (1 << 62) - 1]
    values += [rng.getrandbits(rng.randrange(1, 63)) for _ in range(20_000)]
    for x in values:
        assert popcount64(x) == x.bit_count(), x
    assert (popcount64 is int.bit_count) is (which() != "compiled")
