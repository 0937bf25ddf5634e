"""Mustamaija's random playout in one call against the state's own transitions.

``playout.play_out_randomly`` holds the state's fields in local variables and
works out each step in place, so it is a second writing of the rules' steps.
The generic loop (``StepState.play_out_randomly``: ``legal_mask`` and
``apply`` at every step) is the reference: over thousands of seeded deals of
every preset and player count, from the deal and from positions part-way
through a lead or a defence, both must end in equal states (hands, log,
loser, every field the state compares) after the same number of steps, with
the generator in the same place. The test runs against whichever build is
installed; CI runs the suite against both.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from mustamaija.core.state import StepState
from mustamaija.games.mustamaija.playout import play_out_randomly
from mustamaija.games.mustamaija.rules import DEFEND, LEAD, PRESETS, Rules
from mustamaija.games.mustamaija.state import State


class _OwnDraws(random.Random):
    """A generator of another class: its draws go through ``randrange``, not ``getrandbits`` directly."""


def _both(s: State, rng: random.Random) -> tuple[int, str]:
    """Play ``s`` out both ways from where it stands; assert they agree; return the steps and how the deal ended."""
    fast, slow = s.copy(), s.copy()
    rng_fast, rng_slow = type(rng)(), type(rng)()
    rng_fast.setstate(rng.getstate())
    rng_slow.setstate(rng.getstate())
    steps = play_out_randomly(fast, rng_fast)
    assert StepState.play_out_randomly(slow, rng_slow) == steps
    assert fast == slow and fast.is_over
    assert fast.hands == slow.hands and fast.out == slow.out and fast.loser == slow.loser
    assert rng_fast.getstate() == rng_slow.getstate()
    return steps, "stopped" if fast.stopped else "declared" if fast.declarer >= 0 else "lost"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_playout_plays_the_reference_steps_from_the_deal_and_part_way(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(f"playout:{preset}")
    ends: Counter[str] = Counter()
    starts: Counter[int] = Counter()
    for deal in range(400):
        players = 2 + deal % (rules.max_players - 1)
        s = State.from_seed(players, deal, rules)
        ends[_both(s, rng)[1]] += 1
        for _ in range(rng.randrange(60)):  # Part-way: a random point of the deal, often inside an action.
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
        if not s.is_over:
            starts[s.phase if not s.in_progress else s.phase + 10] += 1
            _both(s, rng)
    # The positions cover every kind of start: a lead to begin and one under way, a defence to begin and one under way.
    assert all(starts[k] for k in (LEAD, DEFEND, LEAD + 10, DEFEND + 10)), starts
    assert ends["lost"] + ends["declared"] > 300, ends
    if Rules.preset(preset).trump == "marriage":
        assert ends["declared"] > 20, ends


_MIXES = [
    Rules(attack_limit="always", hand_size=3),
    Rules(max_lead=2, hand_size=3),
    Rules(spades_can_be_trump=True, trump_turn="after_deal", hand_size=6),
    Rules(trump="fixed", trump_suit="S", spades_can_be_trump=True, attack_limit="always", max_lead=3),
    Rules(trump="none"),
    Rules(trump="marriage", hand_size=6, max_lead=4),
]


@pytest.mark.parametrize("rules", _MIXES, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.to_json(only_changes=True).items()))
def test_rules_beyond_the_presets_play_alike(rules: Rules) -> None:
    """Lead limits all deal (M11, M17), caps on a lead, spades as trumps (M7), fixed, no and marriage trumps (V2, V3)."""
    rng = random.Random(str(rules))
    for deal in range(150):
        s = State.from_seed(2 + deal % (rules.max_players - 1), deal, rules)
        for _ in range(rng.randrange(30)):
            if not s.is_over:
                s.apply(rng.choice(s.legal_actions()))
        if not s.is_over:
            _both(s, rng)


def test_deals_stopped_by_the_turn_limit_stop_alike() -> None:
    rules = Rules(max_turns=40)  # M21 cuts most random deals short.
    rng = random.Random(21)
    ends = Counter(_both(State.from_seed(2 + deal % 3, deal, rules), rng)[1] for deal in range(200))
    assert ends["stopped"] > 100 and ends["lost"] > 0, ends


@pytest.mark.parametrize("preset", ["standard", "kurki-suonio-marriage"])
def test_a_generator_of_another_class_draws_through_randrange_alike(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = _OwnDraws(5)
    for deal in range(100):
        _both(State.from_seed(2 + deal % 5, deal, rules), rng)


def test_a_finished_deal_takes_no_step() -> None:
    s = State.from_seed(3, 1)
    play_out_randomly(s, random.Random(1))
    before, rng = s.copy(), random.Random(2)
    assert play_out_randomly(s, rng) == 0 and s == before and rng.random() == random.Random(2).random()
