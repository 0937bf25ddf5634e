"""One legality mechanism: "is it legal?", "why not?" and "what is legal?" agree, for states and views alike."""

from __future__ import annotations

import random

import pytest

from mustamaija.core.errors import IllegalActionError
from mustamaija.games.black_maria import Rules, State
from support import refusal, scaled

RULES_NAMED = {"B3", "B4", "B5", "steps"}


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("renege", [False, True])
def test_masks_checks_and_errors_agree(players: int, renege: bool) -> None:
    rng = random.Random(players)
    for seed in range(scaled(60, least=5)):
        s = State.from_seed(players, seed, Rules(allow_renege=renege))
        while not s.is_over:
            mask = s.legal_mask()
            assert mask and s.view(s.to_act).legal_mask() == mask
            for other in range(players):
                if other != s.to_act:
                    assert s.view(other).legal_mask() == 0
            for card in range(52):
                legal = bool(mask >> card & 1)
                assert s.can_step(card) == legal
                if not legal:
                    error = refusal(s.verify_step, card)
                    assert error is not None, f"step {card} is illegal and verify_step accepts it"
                    assert error.rule in RULES_NAMED and str(error).startswith(error.rule + ": ")
                if s.phase == 1:
                    assert s.can_play_card(card) == legal  # The compound check says the same.
            if s.phase == 0 and not s.in_progress:
                hand = s.hands[s.to_act]
                cards = [c for c in range(52) if hand >> c & 1]
                assert s.can_pass_cards(rng.sample(cards, s.pass_count))
                assert not s.can_pass_cards(cards[:s.pass_count + 1])
            s.apply(rng.choice(s.legal_actions()))
        with pytest.raises(IllegalActionError, match="B4: the hand is over"):
            s.verify_step(0)


def test_bad_step_numbers_are_named() -> None:
    s = State.from_seed(4, seed=1)
    for bad in (-1, 52, True, "QS"):
        with pytest.raises(IllegalActionError, match="steps: no step has the number"):
            s.verify_step(bad)  # type: ignore[arg-type]
        assert not s.can_step(bad)  # type: ignore[arg-type]
