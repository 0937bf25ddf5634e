"""Invariants of Black Maria over thousands of seeded random hands, at every player count and in reneging mode.

After every step: every card in play is in exactly one place (a hand, a pass
not yet delivered, the current trick or a won trick); a completed trick has
exactly one winner, the highest card of the suit led; follow suit is never
broken unless reneging is allowed, and then every renege is counted; at the
end the penalties total 43 minus the hearts removed by B1 (2H, with six
players) plus 10 a renege.
"""

from __future__ import annotations

import random

import pytest

from mustamaija.core.cards import HEARTS, SUIT_MASKS
from mustamaija.games.black_maria import Pass, Play, Rules, State, deal_size, in_play, removed_cards
from mustamaija.games.black_maria.legality import penalty_of
from support import scaled

HANDS = scaled(600, least=60)  # Per player count and mode: 6,000 hands in all at scale 1 (tests/support.py).


def check_conservation(s: State) -> None:
    places = [*s.hands, *s.won, *(s.passed[p] for p in range(s.n) if s.phase == 0)]
    places.append(sum(1 << c for c in s.trick))
    total = 0
    for mask in places:
        assert total & mask == 0, "a card is in two places"
        total |= mask
    assert total == in_play(s.n)


def play_and_check(players: int, seed: int, rules: Rules) -> State:
    rng = random.Random(seed)
    s = State.from_seed(players, seed, rules)
    reneges = [0] * players
    trick: list[tuple[int, int]] = []
    broken = False
    while not s.is_over:
        seat = s.to_act
        hand = s.hands[seat]
        legal = s.legal_actions()
        assert legal and all(hand >> c & 1 for c in legal)
        step = rng.choice(legal)
        before = s.nlog
        s.apply(step)
        check_conservation(s)
        if s.nlog == before:
            continue
        action = s.last_action()
        if isinstance(action, Pass):
            continue
        assert isinstance(action, Play) and action.seat == seat
        card = action.card
        if not trick:
            assert broken or card // 13 != HEARTS or not hand & ~SUIT_MASKS[HEARTS], "B5: hearts led unbroken"
        else:
            led = trick[0][1] // 13
            if card // 13 != led and hand & SUIT_MASKS[led]:
                assert rules.allow_renege, "B4: follow suit broken"
                reneges[seat] += 1
            if card // 13 == HEARTS and led != HEARTS:
                broken = True
        assert s.broken == broken
        trick.append((seat, card))
        if len(trick) == players:
            led = trick[0][1] // 13
            winner = max((c, p) for p, c in trick if c // 13 == led)[1]
            winners = [p for p, c in trick if c // 13 == led and c == max(c2 for _, c2 in trick if c2 // 13 == led)]
            assert winners == [winner]
            assert s.leader == winner and (s.is_over or s.to_act == winner)
            trick = []
    assert sum(s.tricks) == deal_size(players)
    assert list(s.reneges) == reneges
    expected = 43 - (removed_cards(players) & SUIT_MASKS[HEARTS]).bit_count()  # 42 with six players (2H out).
    assert sum(s.trick_points()) == expected == penalty_of(in_play(players))
    assert sum(s.points()) == expected + 10 * sum(reneges)
    return s


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("renege", [False, True])
def test_random_hands_keep_every_invariant(players: int, renege: bool) -> None:
    rules = Rules(allow_renege=renege)
    total_reneges = 0
    for seed in range(HANDS):
        total_reneges += sum(play_and_check(players, seed, rules).reneges)
    assert (total_reneges > 0) == renege
