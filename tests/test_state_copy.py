"""Every game's ``State.copy``: written out one slot at a time (for speed), so it must not miss a slot.

For seeded random deals of every registered game, a copy holds every field
of its original (the hands as a new list, the rest shared), and playing on
the copy leaves the original as it was.
"""

from __future__ import annotations

import copy
import random

import pytest

from mustamaija.core.registry import game_names, get_game
from mustamaija.core.state import state_fields


@pytest.mark.parametrize("name", game_names())
def test_copy_copies_every_field(name: str) -> None:
    game = get_game(name)
    rng = random.Random(name)
    for deal in range(20):
        s = game.deal(rng.choice([3, 4]), seed=deal)
        fields = state_fields(type(s))
        assert "hands" in fields and "log" in fields
        while not s.is_over:
            s.legal_mask()  # Fills the cache, which is copied too.
            for c in (s.copy(), copy.copy(s)):
                assert type(c) is type(s)
                for field in fields:
                    assert getattr(c, field) == getattr(s, field), field
                assert c.hands is not s.hands
            before = s.copy()
            moved = s.copy()
            moved.apply(rng.choice(moved.legal_actions()))
            assert s == before and moved != s
            s.apply(rng.choice(s.legal_actions()))
