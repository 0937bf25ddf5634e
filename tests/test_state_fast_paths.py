"""Every game's ``State.copy`` (written out one slot at a time, for speed) and its random playout in one call.

For seeded random deals of every registered game, a copy holds every field
of its original (the hands as a new list, the rest shared), and playing on
the copy leaves the original as it was; and ``play_out_randomly`` plays the
same deals as random legal steps taken one by one with the same generator.
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


@pytest.mark.parametrize("name", game_names())
def test_a_random_playout_in_one_call_plays_the_same_deals_as_step_by_step(name: str) -> None:
    game = get_game(name)
    for deal in range(300):
        n = [game.min_players, game.max_players, 4][deal % 3]
        rules = game.make_rules(game.presets[deal % len(game.presets)])
        try:
            game.check_players(rules, n)
        except ValueError:
            continue
        fast, slow = game.deal(n, seed=deal, rules=rules), game.deal(n, seed=deal, rules=rules)
        rng_fast, rng_slow = random.Random(deal), random.Random(deal)
        if deal % 2:  # From a position part-way through the deal as well.
            for _ in range(7):
                if not fast.is_over:
                    step = rng_fast.choice(fast.legal_actions())
                    fast.apply(step)
                    slow.apply(rng_slow.choice(slow.legal_actions()))
        steps = 0
        while not slow.is_over:
            slow.apply(rng_slow.choice(slow.legal_actions()))
            steps += 1
        assert fast.play_out_randomly(rng_fast) == steps
        assert fast == slow and fast.is_over
        assert rng_fast.getstate() == rng_slow.getstate()


@pytest.mark.parametrize("name", game_names())
def test_states_survive_pickle_and_deepcopy_midway(name: str) -> None:
    """What OpenSpiel's serialisation and the process pools do to a state: every field comes back, and play goes on alike."""
    import pickle

    game = get_game(name)
    rng = random.Random(f"pickle:{name}")
    for deal in range(5):
        s = game.deal(4, seed=deal)
        for _ in range(rng.randrange(40)):
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
        for back in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
            assert type(back) is type(s) and back == s
            for field in state_fields(type(s)):
                if field != "facts":  # A new object with equal rules (``back == s`` compared them); the play-outs compare the rest.
                    assert getattr(back, field) == getattr(s, field), field
            ahead = s.copy()
            back.play_out_randomly(random.Random(deal))
            ahead.play_out_randomly(random.Random(deal))
            assert back == ahead
