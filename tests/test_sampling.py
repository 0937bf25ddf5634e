"""Determinization: sampled states are indistinguishable from the truth for the viewing seat."""

import itertools
import random

import pytest

from mustamaija.games.mustamaija import PRESETS, State, sample_state
from mustamaija.games.mustamaija.players.beliefs import InformedDeterminiser, shipped_model


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_sampled_state_has_the_same_view_and_plays_on(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(preset)
    checked = 0
    for players in range(2, rules.max_players + 1):
        for deal in range(6):
            s = State.from_seed(players, deal, rules)
            while not s.is_over:
                if rng.random() < 0.15:
                    for seat, informed in itertools.product([None, *range(players)], (False, True)):
                        v = s.view(seat)
                        # The uniform deal, and the search bots' deal by what players keep (players/beliefs.py).
                        guess = InformedDeterminiser(v, shipped_model()).draw(rng) if informed else sample_state(v, rng)
                        assert guess.view(seat) == v
                        if seat is not None:
                            assert guess.hands[seat] == s.hands[seat]
                        for other in range(players):
                            assert guess.hands[other] & v.known[other] == v.known[other]
                            assert guess.hands[other].bit_count() == s.hands[other].bit_count()
                        assert guess.legal_mask() == s.legal_mask() or seat != s.to_act
                        t = guess.copy()
                        for _ in range(10):
                            if t.is_over:
                                break
                            t.apply(rng.choice(t.legal_actions()))
                        checked += 1
                s.apply(rng.choice(s.legal_actions()))
    assert checked > 100


def test_sampling_is_uniform_over_an_unknown_card() -> None:
    # Seat 0 cannot know where a particular unseen card is: across samples it turns up
    # in each opponent's hand and in the talon, in proportion to their unknown places.
    s = State.from_seed(3, 11)
    v = s.view(0)
    target = next(c for c in range(52) if v.unseen >> c & 1)
    rng = random.Random(0)
    counts = {1: 0, 2: 0, "talon": 0}
    trials = 3000
    for _ in range(trials):
        g = sample_state(v, rng)
        where = next((seat for seat in (1, 2) if g.hands[seat] >> target & 1), "talon")
        counts[where] += 1
    unseen = v.unseen.bit_count()
    expected_hand = trials * 5 / unseen
    for seat in (1, 2):
        assert abs(counts[seat] - expected_hand) < 5 * (expected_hand ** 0.5)
