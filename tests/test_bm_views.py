"""Leak tests of the Black Maria visibility function, and determinisation consistent with a view.

* Nothing unknowable: a seat's view equals the view of any state that differs
  only in cards the seat cannot know (two unseen cards swapped between other
  hands, or between another seat's face-down pass and a hand), and a pass
  being chosen step by step is invisible to everybody but the chooser.
* Everything knowable is there: own passed and received cards, where one's
  passed cards are, voids shown by play, and reneges at the end.
* ``sample_state`` gives a state whose view for the seat equals the view,
  that respects every known void, and that plays on legally.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from mustamaija.core.cards import SUIT_MASKS, cards_of
from mustamaija.games.black_maria import Rules, State, deal_size, in_play, view_of
from mustamaija.games.black_maria.legality import penalty_of
from mustamaija.games.black_maria.sampling import sample_state


def states(players: int, seeds: range, rules: Rules | None = None) -> Iterator[State]:
    """Yield states at random moments of random hands (pass phase included)."""
    for seed in seeds:
        rng = random.Random(seed)
        s = State.from_seed(players, seed, rules)
        stop = rng.randrange(0, s.n * s.k + in_hand(s) - 1)
        for _ in range(stop):
            s.apply(rng.choice(s.legal_actions()))
        yield s


def in_hand(s: State) -> int:
    return sum(h.bit_count() for h in s.hands)


def swapped(s: State, viewer: int, rng: random.Random) -> State | None:
    """Return a copy with two cards the viewer cannot place swapped between other places, or None."""
    unseen = s.view(viewer).unseen
    places = [("hand", p) for p in range(s.n) if p != viewer]
    if s.phase == 0:
        places += [("pass", p) for p in range(s.n) if p != viewer and s.passed[p]]
    rng.shuffle(places)
    for i, a in enumerate(places):
        for b in places[i + 1:]:
            ma = _get(s, a) & unseen
            mb = _get(s, b) & unseen
            for x in cards_of(ma):
                for y in cards_of(mb):
                    # Keep known voids true: a seat void in a suit must not receive a card of it.
                    if a[0] == "hand" and s.voids[a[1]] >> (y // 13) & 1:
                        continue
                    if b[0] == "hand" and s.voids[b[1]] >> (x // 13) & 1:
                        continue
                    t = s.copy()
                    _set(t, a, _get(t, a) ^ (1 << x) ^ (1 << y))
                    _set(t, b, _get(t, b) ^ (1 << x) ^ (1 << y))
                    t._legal = -1
                    return t
    return None


def _get(s: State, place: tuple[str, int]) -> int:
    return s.hands[place[1]] if place[0] == "hand" else s.passed[place[1]]


def _set(s: State, place: tuple[str, int], mask: int) -> None:
    if place[0] == "hand":
        s.hands[place[1]] = mask
    else:
        passed = list(s.passed)
        passed[place[1]] = mask
        s.passed = tuple(passed)


@pytest.mark.parametrize("players", [3, 4, 5, 7])
@pytest.mark.parametrize("renege", [False, True])
def test_views_do_not_depend_on_hidden_cards(players: int, renege: bool) -> None:
    rng = random.Random(players)
    checked = 0
    for s in states(players, range(150), Rules(allow_renege=renege)):
        for viewer in range(s.n):
            t = swapped(s, viewer, rng)
            if t is None:
                continue
            if not s.is_over:  # Another seat's reneges are hidden until the end of the hand (B7).
                t.reneges = tuple(r if p == viewer else r + 1 for p, r in enumerate(t.reneges))
            assert view_of(t, viewer) == view_of(s, viewer)
            assert json.dumps(view_of(t, viewer).to_json()) == json.dumps(view_of(s, viewer).to_json())
            assert view_of(t, None) == view_of(s, None)
            checked += 1
    assert checked > 300


def test_a_pass_being_chosen_is_private() -> None:
    s = State.from_seed(4, seed=11)
    before = [s.view(p) for p in range(4)]
    s.apply(s.legal_actions()[0])
    assert s.in_progress
    actor = s.to_act
    for p in range(4):
        if p != actor:
            assert s.view(p) == before[p]
    assert s.view(actor).sel != 0


def test_views_show_what_the_seat_knows() -> None:
    s = State.from_seed(5, seed=3)
    passed = {}
    while s.phase == 0:
        seat = s.to_act
        cards = cards_of(s.hands[seat])[:3]
        s.pass_cards(cards)
        passed[seat] = sum(1 << c for c in cards)
        if s.phase == 0:
            nxt = s.to_act
            assert s.view(nxt).received == 0  # Nothing received shows before every seat has passed.
    for seat in range(5):
        v = s.view(seat)
        assert v.passed == passed[seat] and v.received == passed[(seat - 1) % 5]
        assert v.known[(seat + 1) % 5] == passed[seat]
        assert v.hand & v.received == v.received
        assert view_of(s, None).known == (0,) * 5
    # Failing to follow reveals a void (strict mode).
    while not s.is_over:
        led = s.led
        seat = s.to_act
        s.apply(s.legal_actions()[-1])
        card = s.last_action().card  # type: ignore[union-attr]
        if led >= 0 and card // 13 != led:
            assert all(s.view(p).voids[seat] >> led & 1 for p in range(5))


@pytest.mark.parametrize("players", [3, 4, 6, 7])
@pytest.mark.parametrize("renege", [False, True])
def test_sampled_states_match_the_view(players: int, renege: bool) -> None:
    rng = random.Random(5)
    for s in states(players, range(80), Rules(allow_renege=renege)):
        if s.is_over:
            continue
        viewer = rng.randrange(players)
        v = s.view(viewer)
        g = sample_state(v, rng)
        assert g.view(viewer) == v
        assert g.hands[viewer] == s.hands[viewer]
        for p in range(players):
            for suit in range(4):
                if v.voids[p] >> suit & 1:
                    assert not g.hands[p] & SUIT_MASKS[suit]
        while not g.is_over:  # The sample plays on legally to the end.
            g.apply(rng.choice(g.legal_actions()))
        assert sum(g.tricks) == deal_size(players)
        assert sum(g.trick_points()) == penalty_of(in_play(players))


def test_sampling_never_breaks_voids_even_when_tight() -> None:
    rng = random.Random(8)
    tight = 0
    for s in states(4, range(300), Rules()):
        if s.phase != 1:
            continue
        for viewer in range(4):
            v = s.view(viewer)
            if sum(bin(x).count("1") for x in v.voids) < 3:
                continue
            tight += 1
            for _ in range(5):
                g = sample_state(v, rng)
                assert g.view(viewer) == v
                for p in range(4):
                    assert all(not (v.voids[p] >> suit & 1 and g.hands[p] & SUIT_MASKS[suit]) for suit in range(4))
    assert tight > 50
