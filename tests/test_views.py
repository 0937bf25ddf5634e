"""Leak tests of the one visibility function, ``view_of`` (docs/rules.md, M22).

Three kinds of checks, on seeded random deals over every preset:

* nothing unknowable: a view equals the view of any other state that differs
  only in hidden information (two cards the viewer has not seen swapped
  between hands and the talon), and a partial card-at-a-time action is
  invisible to everybody but the actor;
* everything public is there: picked-up cards while held, the trump card and
  who drew it, spades turned and put back and their depth, declared marriage
  cards, hand and talon sizes, every action;
* hand-made deals that pin each of these facts down on known cards.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from mustamaija.core.cards import QS, SPADES, card_name, cards_of, parse_card
from mustamaija.games.mustamaija import OVER, PRESETS, Beat, Declare, Lead, Rules, State, deck_for_hands, view_of

ALL = (1 << 52) - 1
CARD_TOKEN = re.compile(r"(?<![0-9A-Z])([2-9TJQKA][SHDC])(?![0-9A-Z])")
COMBOS = [(name, n) for name, r in PRESETS.items() for n in range(2, r.max_players + 1)]


def bit(text: str) -> int:
    return 1 << parse_card(text)


def names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


# -- an independent account of what M22 makes public -------------------------------------------------


class Public:
    """What everybody at the table knows, rebuilt from the deck, the rules and the public actions only."""

    def __init__(self, s: State) -> None:
        assert s.deck is not None
        self.rules = s.rules
        self.n = s.n
        hs = s.rules.hand_size
        self.talon0 = s.deck[s.n * hs:]
        self.trump_card = -1
        self.block: list[int] = []
        self.positions: list[tuple[int, int]] = []  # (position from the top at turning, card)
        self.turned = False
        self.picked = 0
        self.declared = 0
        self.declarer = -1
        self.declared_suit = -1
        self.seen_actions = 0
        self._led = 0
        if s.rules.trump == "turned" and s.rules.trump_turn == "after_deal":
            self._turn()

    def _turn(self) -> None:
        """docs/formats.md, turning the trump, written out independently of the engine."""
        t = list(self.talon0)
        self.turned = True
        j = 0
        if not self.rules.spades_can_be_trump:
            while j < len(t) and t[j] // 13 == SPADES:
                j += 1
            if j == len(t):
                j = 0
        self.trump_card = t[j]
        self.block = t[:j]
        others = len(t) - j - 1
        half = others // 2
        self.positions = [(half + i, c) for i, c in enumerate(self.block)] + [(len(t) - 1, self.trump_card)]

    def update(self, s: State) -> None:
        actions = s.actions()
        for a in actions[self.seen_actions:]:
            if isinstance(a, Lead) and not self.turned and self.rules.trump == "turned":
                self._turn()
            elif isinstance(a, Beat):
                led = self._led
                self.picked |= led & ~a.beaten
            elif isinstance(a, Declare):
                assert self.declarer < 0, "V3: only the first declaration counts"
                self.declarer, self.declared_suit = a.seat, a.suit
                self.declared |= (1 << (a.suit * 13 + 10)) | (1 << (a.suit * 13 + 11))
            if isinstance(a, Lead):
                self._led = a.cards
        self.seen_actions = len(actions)

    @property
    def cards(self) -> int:
        """Cards that, while in some hand, everybody knows to be there."""
        m = self.picked | self.declared
        for _, c in self.positions:
            m |= 1 << c
        return m

    def talon_known(self, talon_size: int) -> tuple[tuple[int, int], ...]:
        drawn = len(self.talon0) - talon_size
        return tuple(sorted((p - drawn, c) for p, c in self.positions if p >= drawn))


def check_public_is_shown(s: State, pub: Public) -> None:
    """Everything M22 calls public is in every view."""
    pub.update(s)
    history = s.history()
    expected_tk = pub.talon_known(s.talon_size)
    for viewer in (None, *range(s.n)):
        v = view_of(s, viewer)
        assert v.hand == (s.hands[viewer] if viewer is not None else 0)
        assert v.hand_sizes == tuple(h.bit_count() for h in s.hands)
        assert v.talon_size == s.talon_size
        assert v.history == history, "every action (leads, beats, declarations) is public"
        assert v.led == s.led and v.discard == s.discard
        assert v.talon_known == expected_tk, "the trump card and the spades put back, at their depth (M7, M8)"
        assert v.trump_card == pub.trump_card
        assert v.revealed == sum(1 << c for c in pub.block)
        for t in range(s.n):
            must = s.hands[t] & pub.cards
            assert must & ~v.known[t] == 0, (
                f"view of {viewer} misses public cards {names(must & ~v.known[t])} in seat {t}'s hand"
            )
            assert v.known[t] & ~s.hands[t] == 0
        if s.rules.trump == "marriage" and pub.declared:
            assert v.trump == v.declared == pub.declared_suit and v.declarer == pub.declarer
        text = v.render()
        if pub.trump_card >= 0:
            assert f"(turned {card_name(pub.trump_card)})" in text
        for depth, c in expected_tk:
            assert f"{card_name(c)}@{depth}" in text
        for t in range(s.n):
            if t not in s.out:
                line = f"  {t}: {s.hands[t].bit_count()} cards, known "
                assert line in text
                for c in cards_of(v.known[t]):
                    assert card_name(c) in text


def check_nothing_hidden_is_shown(s: State, viewer: int | None) -> None:
    v = view_of(s, viewer)
    own = s.hands[viewer] if viewer is not None else 0
    assert v.unseen & own == 0 and v.unseen & s.discard == 0 and v.unseen & s.led == 0
    for t in range(s.n):
        assert v.unseen & v.known[t] == 0
        assert v.known[t] & ~s.hands[t] == 0, f"seat {t} is said to hold a card it does not hold"
    for _, c in v.talon_known:
        assert not v.unseen >> c & 1
    others = 0
    for t in range(s.n):
        if t != viewer:
            others |= s.hands[t]
    talon = sum(1 << c for c in s.talon_cards)
    assert v.unseen & ~(others | talon) == 0, "unseen cards lie in other hands or in the talon"
    if viewer is None or viewer != s.to_act:
        assert (v.sel, v.used, v.pairs, v.rem) == (0, 0, (), s.led)
    leaked = set(CARD_TOKEN.findall(v.render())) & set(names(v.unseen))
    assert not leaked, f"the view of {viewer} renders unseen cards {sorted(leaked)}"


# -- indistinguishability ---------------------------------------------------------------------


def places(s: State, cards: int) -> dict[int, tuple[str, int]]:
    """Where each card of ``cards`` is: ("hand", seat) or ("talon", index into ``s.talon``)."""
    out: dict[int, tuple[str, int]] = {}
    for t, h in enumerate(s.hands):
        for c in cards_of(h & cards):
            out[c] = ("hand", t)
    for i in range(s.tpos, len(s.talon)):
        c = s.talon[i]
        if cards >> c & 1:
            out[c] = ("talon", i)
    assert set(out) == set(cards_of(cards))
    return out


def swapped(s: State, a: int, b: int) -> State:
    """A copy of ``s`` with cards ``a`` and ``b`` exchanged between their places (hidden edit)."""
    w = s.copy()
    where = places(s, (1 << a) | (1 << b))
    talon = list(w.talon)
    for x, y in ((a, b), (b, a)):
        kind, i = where[x]
        if kind == "hand":
            w.hands[i] = (w.hands[i] & ~(1 << x)) | (1 << y)
        else:
            talon[i] = y
    w.talon = tuple(talon)
    return w


def check_indistinguishable(s: State, viewer: int | None, rng: random.Random, tries: int = 2, most: int = 6) -> int:
    """Swap unseen cards between places the view cannot tell apart; the view must not change.

    Every kind of swap (hand and talon, two hands, two talon positions) is
    drawn ``tries`` times, then at most ``most`` of them are checked.
    Return the number of swaps checked.
    """
    v = view_of(s, viewer)
    text = v.render()
    where = places(s, v.unseen)
    by_kind: dict[str, list[int]] = {}
    for c, (kind, i) in where.items():
        by_kind.setdefault(kind if kind == "talon" else f"hand{i}", []).append(c)
    groups = sorted(by_kind)
    pairs: list[tuple[int, int]] = []
    for i, g in enumerate(groups):
        for h in groups[i:]:
            if g == h and (g != "talon" or len(by_kind[g]) < 2):
                continue  # Two cards of one hand: a swap changes nothing.
            for _ in range(tries):
                a, b = rng.choice(by_kind[g]), rng.choice(by_kind[h])
                if a != b:
                    pairs.append((a, b))
    if len(pairs) > most:
        pairs = rng.sample(pairs, most)
    for a, b in pairs:
        w = swapped(s, a, b)
        assert w.hands != s.hands or w.talon != s.talon
        assert sorted([*cards_of(sum(w.hands)), *w.talon_cards]) == sorted([*cards_of(sum(s.hands)), *s.talon_cards])
        u = view_of(w, viewer)
        assert u == v, f"seat {viewer}'s view tells {card_name(a)} and {card_name(b)} apart"
        assert u.render() == text
    return len(pairs)


def check_swap_of_known_card_shows(s: State, viewer: int | None, rng: random.Random) -> bool:
    """The test's power: swapping a card the viewer knows in another hand with an unseen one changes the view."""
    v = view_of(s, viewer)
    if not v.unseen:
        return False
    for t in range(s.n):
        if t == viewer or not v.known[t]:
            continue
        k = rng.choice(cards_of(v.known[t]))
        outside = [c for c in cards_of(v.unseen) if not s.hands[t] >> c & 1]
        if not outside:
            continue
        w = swapped(s, k, rng.choice(outside))
        assert view_of(w, viewer) != v
        return True
    return False


# -- random walks -------------------------------------------------------------------------------------


def walk(name: str, players: int, seed: int) -> Iterator[tuple[State, State | None, int | None]]:
    """Yield (state, state before the last step, last step) along a seeded random deal, from the deal on."""
    s = State.from_seed(players, seed, PRESETS[name])
    rng = random.Random(seed + 17)
    yield s, None, None
    while not s.is_over:
        before = s.copy()
        step = rng.choice(s.legal_actions())
        s.apply(step)
        yield s, before, step


@pytest.mark.parametrize(("name", "players"), COMBOS, ids=[f"{n}-{p}" for n, p in COMBOS])
def test_views_leak_nothing_and_show_everything_public(name: str, players: int) -> None:
    swaps = powered = partial = 0
    for k in range(5):
        seed = 9000 + 101 * k + players
        rng = random.Random(seed)
        pub: Public | None = None
        for s, before, step in walk(name, players, seed):
            if pub is None:
                pub = Public(s)
            if before is not None and s.nlog == before.nlog:
                # A step inside a lead or a defence: nobody but the actor sees it.
                actor = before.to_act
                assert s.to_act == actor and s.in_progress
                partial += 1
                for viewer in (None, *range(players)):
                    if viewer != actor:
                        assert view_of(s, viewer) == view_of(before, viewer), f"seat {viewer} sees step {step} of seat {actor}"
                continue
            check_public_is_shown(s, pub)
            if rng.random() < 0.15 or s.is_over:
                for viewer in (None, *range(players)):
                    check_nothing_hidden_is_shown(s, viewer)
                    swaps += check_indistinguishable(s, viewer, rng)
                    powered += check_swap_of_known_card_shows(s, viewer, rng)
        assert pub is not None and s.phase == OVER
    assert swaps > 100 and powered > 5 and partial > 0


def test_indistinguishable_mid_action_for_the_others() -> None:
    """During a step-by-step action, the actor's own view changes and swaps of hidden cards stay invisible."""
    rng = random.Random(5)
    seen = 0
    for seed in range(30):
        for s, before, _ in walk("standard", 3, seed):
            if before is None or not s.in_progress:
                continue
            actor = s.to_act
            mine = view_of(s, actor)
            assert mine.sel == s.sel and mine.pairs == s.pairs and mine.used == s.used
            assert mine != view_of(before, actor)
            for viewer in (None, *range(3)):
                check_nothing_hidden_is_shown(s, viewer)
                check_indistinguishable(s, viewer, rng, tries=1)
            seen += 1
    assert seen > 50


# -- hand-made deals ----------------------------------------------------------------------------------------


def test_trump_card_and_spades_put_back_are_public_with_their_depth() -> None:
    # Seat 1 leads first (dealer 0). The talon starts 2S 3S 7H: 7H turns up after two spades.
    hands = [["AH", "KH", "JH", "TH", "9H"], ["2C", "3C", "4C", "5C", "6C"], ["2D", "3D", "4D", "5D", "QS"]]
    deck = deck_for_hands(hands, talon=["2S", "3S", "7H"], dealer=0)
    s = State.deal(3, deck, Rules(), dealer=0)
    for viewer in (None, 0, 1, 2):
        v = view_of(s, viewer)
        assert v.trump == -1 and v.trump_card == -1 and v.talon_known == ()  # M6: turned after the first lead
    s.lead("2C 3C 4C 5C 6C")
    # 37 cards: 7H is the trump card (bottom); 34 others, 17 of them above the block 2S 3S.
    assert s.trump_card == parse_card("7H") and s.talon_size == 37 - 5
    for viewer in (None, 0, 1, 2):
        v = view_of(s, viewer)
        assert v.trump == 1 and v.trump_card == parse_card("7H")
        assert v.revealed == bit("2S") | bit("3S")
        # Seat 1 drew 5 cards from the top after turning: the block is now at depth 12.
        assert v.talon_known == ((12, parse_card("2S")), (13, parse_card("3S")), (31, parse_card("7H")))
        text = v.render()
        assert "trump H (turned 7H)" in text and "talon known: 2S@12 3S@13 7H@31" in text
        check_nothing_hidden_is_shown(s, viewer)
    # Play on until 2S is drawn: whoever draws it is known to hold it while it is held.
    rng = random.Random(1)
    while parse_card("2S") in s.talon_cards:
        s.apply(rng.choice(s.legal_actions()))
    holder = next(t for t in range(3) if s.hands[t] >> parse_card("2S") & 1)
    for viewer in (None, 0, 1, 2):
        assert view_of(s, viewer).known[holder] >> parse_card("2S") & 1
    while not s.is_over and s.talon_size:
        s.apply(rng.choice(s.legal_actions()))
    drew = [t for t in range(3) if s.hands[t] >> parse_card("7H") & 1]
    for t in drew:  # M22: who drew the trump card is public.
        for viewer in (None, 0, 1, 2):
            assert view_of(s, viewer).known[t] >> parse_card("7H") & 1


def test_picked_up_cards_stay_known_while_held() -> None:
    hands = [["AH", "KH", "JH", "TH", "9H"], ["2H", "3H", "4C", "5C", "6C"], ["2D", "3D", "4D", "5D", "QS"]]
    deck = deck_for_hands(hands, talon=["7D"], dealer=0)
    s = State.deal(3, deck, Rules(trump_turn="after_deal"), dealer=0)
    assert s.trump == 2  # 7D turned at once
    s.lead("4C 5C")  # seat 1 attacks seat 2, who holds no clubs
    s.beat({"4C": "2D"})  # seat 2 beats 4C with a trump and picks up 5C
    for viewer in (None, 0, 1, 2):
        v = view_of(s, viewer)
        assert v.known[2] & bit("5C"), f"seat {viewer} forgets that seat 2 picked up 5C"
        assert not v.unseen & (bit("4C") | bit("2D") | bit("5C"))
    # Seat 0 now attacks seat 1 (seat 2 picked up, so it loses its turn to attack).
    assert s.attacker == 0 and s.defender == 1
    s.lead("9H")
    s.beat({})  # seat 1 picks up 9H
    for viewer in (None, 0, 1, 2):
        v = view_of(s, viewer)
        assert v.known[1] & bit("9H") and v.known[2] & bit("5C")
    # Seat 2 leads: when it leads 5C the card is on the table, no longer "known in hand".
    assert s.attacker == 2
    s.lead("5C")
    for viewer in (None, 0, 1, 2):
        v = view_of(s, viewer)
        assert not v.known[2] & bit("5C") and v.led == bit("5C")


def test_declared_marriage_cards_are_public_while_held() -> None:
    hands = [["2C", "3C", "4C", "5C", "6C", "7C"], ["KH", "QH", "2S", "3S", "4S", "5S"],
             ["2D", "3D", "4D", "5D", "QS", "6D"]]
    deck = deck_for_hands(hands, dealer=0)
    s = State.deal(3, deck, PRESETS["salmi"], dealer=0)
    assert s.to_act == 1 and s.trump == -1
    assert [d.suit for d in s.legal_declares()] == [1]
    before = {viewer: view_of(s, viewer) for viewer in (None, 0, 2)}
    for viewer, v in before.items():
        assert not v.known[1] & (bit("KH") | bit("QH")), f"seat {viewer} knows the marriage before it is declared"
    s.declare("H")
    for viewer in (None, 0, 1, 2):
        v = view_of(s, viewer)
        assert v.trump == 1 and v.declarer == 1 and v.declared == 1
        assert v.known[1] & (bit("KH") | bit("QH")) == bit("KH") | bit("QH")
        assert "trump H (marriage of seat 1)" in v.render()
    assert s.legal_declares() == []
    s.lead("KH")
    for viewer in (None, 0, 1, 2):
        v = view_of(s, viewer)
        assert v.known[1] & bit("QH") and not v.known[1] & bit("KH")


def test_counting_deduction_only_when_forced() -> None:
    """Once every unseen card must be in one hand, the view may say so, and only then."""
    rng = random.Random(3)
    deduced = 0
    for seed in range(60):
        for s, _, _ in walk("kurki-suonio", 3, seed):
            if s.talon_size or s.in_progress:
                continue
            for viewer in (None, 0, 1, 2):
                v = view_of(s, viewer)
                slots = [t for t in range(3) if t != viewer and s.hands[t] & ~v.known[t]]
                if v.unseen:
                    assert len(slots) >= 2, "a single possible place must have been deduced"
                else:
                    deduced += 1
                check_indistinguishable(s, viewer, rng, tries=1)
    assert deduced > 0


def test_loser_hand_is_known_to_the_others_by_counting_at_the_end() -> None:
    s = State.from_seed(3, 4)
    rng = random.Random(4)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    for viewer in (None, *(t for t in range(3) if t != s.loser)):
        v = view_of(s, viewer)
        assert v.known[s.loser] == s.hands[s.loser] and v.known[s.loser] >> QS & 1
        assert v.unseen == 0
