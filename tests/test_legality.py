"""The one legality mechanism agrees with itself: compound listings, compound checks, steps and step checks.

Every check here compares two ways the engine answers the same question
(for example "which leads are legal?" answered by the lazy listing and by
``can_lead`` on every subset), on many states reached by seeded random play
over every preset and player count.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from mustamaija.core.cards import QS, SUIT_MASKS, card_name, cards_of
from mustamaija.core.errors import IllegalActionError
from mustamaija.games.mustamaija import DECLARE, NUM_STEPS, PRESETS, STOP, Rules, State, deck_for_hands
from mustamaija.games.mustamaija.actions import Action, Beat, Declare, Lead
from mustamaija.games.mustamaija.legality import beats
from mustamaija.games.mustamaija.record import state_to_json
from support import refusal

Move = tuple[Action, ...]

# -- states to test on --------------------------------------------------------------------


def _compound_choice(s: State, rng: random.Random) -> Action:
    if s.phase_name == "lead" and not s.legal_declares() and rng.random() < 0.4:
        # A long lead: the whole of the longest suit, as far as the limit allows (strategy of the sources).
        hand = s.hands[s.attacker]
        longest = max(SUIT_MASKS, key=lambda m: (hand & m).bit_count())
        return Lead(s.attacker, sum(1 << c for c in cards_of(hand & longest)[: s.limit]))
    options: list[Action] = [*s.legal_declares(), *itertools.islice(s.legal_leads(), 3000),
                             *itertools.islice(s.legal_beats(), 3000)]
    return rng.choice(options)


@cache
def sample_states() -> tuple[State, ...]:
    """States at the start of an action, from random play (steps and whole actions mixed) over every preset."""
    rng = random.Random(20240601)
    names = sorted(PRESETS)
    out: list[State] = []
    for g in range(150):
        preset = names[g % len(names)]
        rules = Rules.preset(preset)
        players = 2 + (g // len(names)) % (rules.max_players - 1)
        s = State.from_seed(players, 5000 + g, rules)
        compound = g % 2 == 0
        while not s.is_over:
            if not s.in_progress and rng.random() < 0.25:
                out.append(s.copy())
            if compound and not s.in_progress:
                s.play(_compound_choice(s, rng))
            else:
                s.apply(rng.choice(s.legal_actions()))
    return tuple(out)


@cache
def sample_step_states() -> tuple[State, ...]:
    """States anywhere, including part way through a card-at-a-time action."""
    rng = random.Random(77)
    out: list[State] = []
    for i, s0 in enumerate(sample_states()[::3]):
        s = s0.copy()
        out.append(s.copy())
        for _ in range(rng.randrange(1, 4)):
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
            out.append(s.copy())
        if i % 10 == 0 and s.is_over:
            out.append(s.copy())
    return tuple(out)


def test_the_samples_cover_the_interesting_cases() -> None:
    states = sample_states()
    assert len(states) > 800
    presets = Counter(next(n for n, r in PRESETS.items() if r == s.rules) for s in states)
    assert set(presets) == set(PRESETS)
    assert {s.n for s in states} >= set(range(2, 9))
    leads = [s for s in states if s.phase_name == "lead"]
    defends = [s for s in states if s.phase_name == "defend"]
    assert len(leads) > 300 and len(defends) > 300
    assert sum(1 for s in leads if s.talon_size == 0) > 50
    # The lead limit bites: some suit in hand is longer than the limit.
    assert sum(1 for s in leads if any((s.hands[s.attacker] & m).bit_count() > s.limit for m in SUIT_MASKS)) > 20
    assert sum(1 for s in defends if s.led.bit_count() >= 3) > 20
    assert any(s.led >> QS & 1 for s in defends)
    assert sum(1 for s in states if s.legal_declares()) >= 3
    assert any(s.trump_suit is None for s in defends)
    steps = sample_step_states()
    assert sum(1 for s in steps if s.in_progress) > 100
    assert any(s.is_over for s in steps)


# -- (a) leads ---------------------------------------------------------------------------------


def _subsets(mask: int) -> Iterator[int]:
    cards = cards_of(mask)
    for k in range(len(cards) + 1):
        for combo in itertools.combinations(cards, k):
            yield sum(1 << c for c in combo)


def test_legal_leads_are_exactly_the_subsets_can_lead_accepts() -> None:
    checked = 0
    for s in sample_states():
        if s.phase_name != "lead":
            assert list(s.legal_leads()) == []
            continue
        hand = s.hands[s.attacker]
        if hand.bit_count() > 12:
            continue
        listed = [a.cards for a in s.legal_leads()]
        assert all(isinstance(a, Lead) and a.seat == s.attacker for a in s.legal_leads())
        assert len(listed) == len(set(listed))
        brute = {m for m in _subsets(hand) if s.can_lead(m)}
        assert set(listed) == brute
        # The same through the other spellings of a lead.
        for m in listed[:5]:
            names = [card_name(c) for c in cards_of(m)]
            assert s.can_lead(names) and s.can_lead(" ".join(reversed(names)), seat=s.attacker)
        other = (s.attacker + 1) % s.n
        assert not any(s.can_lead(m, seat=other) for m in listed[:3])
        # Cards outside the hand are never leadable.
        outside = ((1 << 52) - 1) & ~hand
        if outside:
            assert not s.can_lead(1 << cards_of(outside)[0])
        checked += 1
    assert checked > 300


def test_lead_listing_follows_m10_m11() -> None:
    for s in sample_states():
        if s.phase_name != "lead":
            continue
        limit = s.limit
        if s.talon_size == 0 or s.rules.attack_limit == "always":
            assert limit <= s.hands[s.defender].bit_count()
        if s.rules.max_lead is not None:
            assert limit <= s.rules.max_lead
        hand = s.hands[s.attacker]
        expected = sum(
            sum(math.comb((hand & m).bit_count(), k) for k in range(1, min(limit, (hand & m).bit_count()) + 1))
            for m in SUIT_MASKS
        )
        assert sum(1 for _ in s.legal_leads()) == expected


# -- (b) defences --------------------------------------------------------------------------


def _matchings(led: list[int], hand: list[int]) -> Iterator[dict[int, int]]:
    for choice in itertools.product([None, *hand], repeat=len(led)):
        used = [c for c in choice if c is not None]
        if len(used) == len(set(used)):
            yield {t: b for t, b in zip(led, choice, strict=True) if b is not None}


def test_legal_beats_are_exactly_the_matchings_can_beat_accepts() -> None:
    checked = 0
    for s in sample_states():
        if s.phase_name != "defend":
            assert list(s.legal_beats()) == []
            continue
        led, hand = cards_of(s.led), cards_of(s.hands[s.defender])
        if (len(hand) + 1) ** len(led) > 20000:
            continue
        listed = [a.pairs for a in s.legal_beats()]
        assert len(listed) == len(set(listed))
        assert listed[0] == ()  # Picking up everything comes first.
        brute = {tuple(sorted(m.items())) for m in _matchings(led, hand) if s.can_beat(m)}
        assert set(listed) == brute
        # Every pair of a legal defence beats by M2/M13, and Q♠ is never in one.
        trump = -1 if s.trump_suit is None else s.trump_suit
        for pairs in listed:
            for t, b in pairs:
                assert beats(b, t, trump)
                assert QS not in (t, b)
                assert (b // 13 == t // 13 and b % 13 > t % 13) or b // 13 == trump != t // 13
        assert all(isinstance(a, Beat) and a.seat == s.defender for a in s.legal_beats())
        checked += 1
    assert checked > 300


# -- (c) the step decomposition --------------------------------------------------------------


def _new_actions(t: State, base: int) -> Move:
    return tuple(t.actions()[base:])


def step_moves(state: State) -> list[tuple[Move, State]]:
    """Every sequence of legal steps that completes one lead or defence (with any declaration before it)."""
    base = state.nlog
    out: list[tuple[Move, State]] = []

    def rec(s: State) -> None:
        for step in s.legal_actions():
            t = s.step(step)
            new = _new_actions(t, base)
            if any(not isinstance(a, Declare) for a in new):
                assert not t.in_progress
                out.append((new, t))
            else:
                assert len(new) <= 1
                rec(t)

    rec(state)
    return out


def compound_moves(state: State) -> list[tuple[Move, State]]:
    """Every legal lead or defence from the compound listings, each optionally after a legal declaration."""
    out: list[tuple[Move, State]] = []
    for first in (None, *state.legal_declares()):
        u = state.copy()
        if first is not None:
            u.play(first)
        for a in (*u.legal_leads(), *u.legal_beats()):
            t = u.copy()
            t.play(a)
            out.append(((a,) if first is None else (first, a), t))
    return out


def snapshot(s: State) -> tuple[Any, ...]:
    return (repr(state_to_json(s)), tuple(s.hands), s.talon_cards, s.trump, s.declarer, s.limit, s.turns,
            tuple(s.actions()), s.public, s.discard, s.sel, s.rem, s.used, s.pairs)


def _size(s: State, cap: int) -> int:
    return sum(1 for _ in itertools.islice(itertools.chain(s.legal_leads(), s.legal_beats()), cap + 1))


def test_steps_reach_exactly_the_compound_actions_once_each() -> None:
    checked = declared = 0
    for s in sample_states():
        if _size(s, 1500) > 1500:
            continue
        by_steps = step_moves(s)
        by_compound = compound_moves(s)
        counts = Counter(move for move, _ in by_steps)
        assert all(n == 1 for n in counts.values()), [m for m, n in counts.items() if n > 1]
        assert set(counts) == {move for move, _ in by_compound}
        assert len(by_steps) == len(by_compound)
        # Both roads lead to the same state.
        after = {move: snapshot(t) for move, t in by_compound}
        for move, t in by_steps:
            assert snapshot(t) == after[move]
        declared += any(len(m) == 2 for m in counts)
        checked += 1
    assert checked > 700
    assert declared >= 3


def test_a_lead_takes_its_cards_in_rising_order() -> None:
    # Five hearts and no limit: 31 leads, each by the one rising sequence of its cards (STOP only when
    # a higher heart is left to add).
    hands = [["2C", "3C", "4C", "5C", "6C"], ["2H", "5H", "9H", "JH", "AH"], ["QS", "3D", "4D", "5D", "6D"]]
    s = State.deal(3, deck_for_hands(hands, dealer=0), Rules.preset("wikipedia").replace(attack_limit="after_talon"))
    moves = step_moves(s)
    assert len(moves) == 31
    lengths = Counter(len(m[0][0].to_json()["lead"]) for m in moves)
    assert lengths == {1: 5, 2: 10, 3: 10, 4: 5, 5: 1}
    # Leading AH alone ends at once: no higher heart is left.
    assert s.step(s.legal_actions()[-1]).phase_name == "defend"
    # With the French cap of 5 and a 3-card defender under "always", the limit is 3.
    s = State.deal(3, deck_for_hands([h[:3] for h in hands], dealer=0),
                   Rules.preset("kurki-suonio").replace(attack_limit="always"))
    assert s.limit == 3
    assert len(step_moves(s)) == len(list(s.legal_leads())) == 7


# -- (d) step checks --------------------------------------------------------------------------


def test_verify_step_raises_for_exactly_the_illegal_steps() -> None:
    checked = 0
    for s in sample_step_states():
        mask = s.legal_mask()
        assert mask >> NUM_STEPS == 0
        assert not mask >> DECLARE & 1  # Spades are never declared.
        assert s.legal_actions() == [i for i in range(NUM_STEPS) if mask >> i & 1]
        if s.is_over:
            assert mask == 0
        before = snapshot(s)
        for step in range(NUM_STEPS):
            legal = bool(mask >> step & 1)
            assert s.can_step(step) == legal
            if legal:
                s.verify_step(step)
                continue
            error = refusal(s.verify_step, step)
            assert error is not None, f"verify_step({step}) accepts an illegal step"
            rule = error.rule
            assert rule and isinstance(rule, str)
            assert str(error).startswith(f"{rule}: ")
            assert rule in {"M2", "M9", "M10", "M11", "M13", "M19", "M21", "V2", "V3", "V4", "steps", "max_lead"}
            # apply() refuses it and leaves the state as it was (checked on a few steps per state).
            if step % 11 == checked % 11 or step == STOP:
                t = s.copy()
                assert refusal(t.apply, step), f"apply({step}) takes an illegal step"
                assert snapshot(t) == before
        for bad in (-1, NUM_STEPS, 100):
            assert not s.can_step(bad)
            with pytest.raises(IllegalActionError) as info:
                s.verify_step(bad)
            assert info.value.rule == "steps"
        checked += 1
    assert checked > 300


def test_step_rules_name_the_broken_rule() -> None:
    hands = [["2C", "3C", "4C", "5C", "6C"], ["2H", "5H", "9H", "JH", "QS"], ["KS", "3H", "4D", "5D", "6D"]]
    s = State.deal(3, deck_for_hands(hands, dealer=0), Rules.preset("kurki-suonio").replace(hand_size=5))

    def rule_of(state: State, step: int) -> str:
        with pytest.raises(IllegalActionError) as info:
            state.verify_step(step)
        return info.value.rule

    card = {card_name(c): c for c in range(52)}
    assert rule_of(s, STOP) == "steps"  # Nothing chosen yet.
    assert rule_of(s, card["AH"]) == "M10"  # Not held.
    assert rule_of(s, DECLARE + 1) == "V2"  # No marriages under these rules.
    t = s.step(card["5H"])
    assert t.in_progress and t.sel == 1 << card["5H"]
    assert rule_of(t, card["2H"]) == "steps"  # Leads are chosen in rising order.
    assert rule_of(t, card["QS"]) == "M10"  # Another suit (Q♠ counts as a spade).
    t.apply(card["JH"])  # No higher heart is left, so the lead ends by itself.
    assert t.phase_name == "defend" and t.led == (1 << card["5H"]) | (1 << card["JH"])
    assert t.actions() == [Lead(1, (1 << card["5H"]) | (1 << card["JH"]))]
    # The defender (3H 4D 5D 6D KS; diamonds are trumps) answers 5H first.
    assert rule_of(t, card["3H"]) == "M13"  # Does not beat 5H.
    assert rule_of(t, card["KS"]) == "M13"
    t.apply(card["4D"])  # Trump beats 5H.
    assert rule_of(t, card["4D"]) == "M13"  # Already used.
    t.apply(card["5D"])  # And JH.
    assert t.phase_name == "lead" and t.attacker == 2
    assert t.last_action() == Beat(2, ((card["5H"], card["4D"]), (card["JH"], card["5D"])))


# -- (e) perft ----------------------------------------------------------------------------------

PERFT_DEALS = {
    # (preset, players, seed): counts of compound-action sequences of depth 1, 2, 3, 4, 5.
    ("standard", 3, 1): (7, 9, 77, 526, 5584),
    ("wikipedia", 2, 2): (7, 46, 337, 1587, 12362),
    ("salmi", 4, 4): (16, 55, 627, 3251, 34593),  # The first attacker may declare diamonds at once.
}


def perft(s: State, depth: int, moves: Any) -> int:
    if depth == 0 or s.is_over:
        return 1
    return sum(perft(t, depth - 1, moves) for _, t in moves(s))


def perft_distinct(s: State, depth: int) -> int:
    """Count distinct move sequences reached by steps, merging step sequences that give the same move."""
    if depth == 0 or s.is_over:
        return 1
    seen: dict[Move, State] = {}
    for move, t in step_moves(s):
        seen.setdefault(move, t)
    return sum(perft_distinct(t, depth - 1) for t in seen.values())


@pytest.mark.parametrize(("preset", "players", "seed"), sorted(PERFT_DEALS))
def test_perft(preset: str, players: int, seed: int) -> None:
    s = State.from_seed(players, seed, Rules.preset(preset))
    expected = PERFT_DEALS[(preset, players, seed)]
    for depth in range(1, 6):
        by_compound = perft(s, depth, compound_moves)
        assert by_compound == expected[depth - 1], (depth, by_compound)
        if depth <= 4:
            assert perft(s, depth, step_moves) == by_compound
            assert perft_distinct(s, depth) == by_compound
    if preset == "salmi":
        assert s.legal_declares() == [Declare(s.attacker, 2)]
