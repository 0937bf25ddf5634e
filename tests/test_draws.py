"""The fast draws give exactly the numbers of ``random.Random``'s own methods, in every case."""

from __future__ import annotations

import random

import pytest

from mustamaija.core import draws
from mustamaija.core.draws import below, shuffle


class _Odd(random.Random):
    """A subclass that draws its own way: the fast draws must go through its methods."""

    def getrandbits(self, k: int) -> int:
        return super().getrandbits(k) ^ 1 if k > 1 else super().getrandbits(k)


def test_the_short_cut_is_taken_on_this_interpreter() -> None:
    assert draws._FAST


@pytest.mark.parametrize("seed", range(20))
def test_below_draws_what_choice_and_randrange_draw(seed: int) -> None:
    a, b, c = random.Random(seed), random.Random(seed), random.Random(seed)
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 13, 31, 32, 33, 52, 53, 100, 1000, 2**31 - 1, 2**40 + 3]:
        index = below(a, n)
        assert index == b.randrange(n)
        assert range(n)[index] == c.choice(range(n))
    assert a.random() == b.random() == c.random()  # The generators are left in one state.


@pytest.mark.parametrize("length", [0, 1, 2, 3, 10, 52, 200])
def test_shuffle_shuffles_as_random_does(length: int) -> None:
    for seed in range(10):
        mine, theirs = list(range(length)), list(range(length))
        a, b = random.Random(seed), random.Random(seed)
        shuffle(a, mine)
        b.shuffle(theirs)
        assert mine == theirs
        assert a.getrandbits(32) == b.getrandbits(32)


def test_a_subclass_draws_through_its_own_methods() -> None:
    mine, theirs = list(range(30)), list(range(30))
    shuffle(_Odd(5), mine)
    _Odd(5).shuffle(theirs)
    assert mine == theirs
    a, b = _Odd(9), _Odd(9)
    assert [below(a, 52) for _ in range(50)] == [b.randrange(52) for _ in range(50)]


@pytest.mark.parametrize("n", [0, -1])
def test_nothing_below_zero_or_one(n: int) -> None:
    with pytest.raises(ValueError, match="no number below"):
        below(random.Random(1), n)


def test_the_generator_of_a_seed_is_random_random_of_it() -> None:
    assert draws._FAST_SEEDS
    rng = random.Random(5)
    seeds: list[int | str] = [0, 1, -1, 2**31, 2**32 - 1, 2**64 + 7, 2**200 + 3, "deal 7", ""]
    seeds += [rng.getrandbits(rng.randrange(1, 90)) for _ in range(200)]
    for seed in seeds:
        mine, theirs = draws.generator(seed), random.Random(seed)
        assert type(mine) is random.Random
        assert mine.getstate() == theirs.getstate()
        assert [mine.random() for _ in range(3)] == [theirs.random() for _ in range(3)]
        assert mine.gauss(0, 1) == theirs.gauss(0, 1)  # gauss_next is set as Random.__init__ sets it.
