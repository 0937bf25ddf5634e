"""Scenario tests of Black Maria, one or more per rule of docs/black-maria.md (B1-B8), on hand-built decks."""

from __future__ import annotations

import random

import pytest

from mustamaija.core.cards import card_name, cards_of, mask_of, parse_card, parse_cards
from mustamaija.core.errors import CardError, IllegalActionError, RulesError
from mustamaija.games.black_maria import Rules, State, deck_for_hands, in_play, pass_count, removed_cards, shuffled_deck
from mustamaija.games.black_maria.match import Match

SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
HEARTS = SPADES.replace("S", "H")
DIAMONDS = SPADES.replace("S", "D")
CLUBS = SPADES.replace("S", "C")


def m(text: str) -> int:
    return mask_of(parse_cards(text))


def names(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask))


def suits_state(rules: Rules | None = None) -> State:
    """Four seats, one whole suit each (S H D C), dealer 3; every seat passes its three lowest cards.

    After the exchange: seat 0 holds 5S-AS and 2C 3C 4C, seat 1 5H-AH and 2S 3S 4S,
    seat 2 5D-AD and 2H 3H 4H, seat 3 5C-AC and 2D 3D 4D; seat 0 leads.
    """
    s = State.deal(4, deck_for_hands([SPADES.split(), HEARTS.split(), DIAMONDS.split(), CLUBS.split()], dealer=3),
                   rules, dealer=3)
    for seat, suit in zip((0, 1, 2, 3), "SHDC", strict=True):
        s.pass_cards(f"2{suit} 3{suit} 4{suit}", seat=seat)
    return s


def finish(s: State) -> State:
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    return s


# -- B1: players and removed cards ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "removed", "size"), [
    (3, "2S", 17), (4, "", 13), (5, "2S 2C", 10), (6, "2S 2H 2D 2C", 8), (7, "2S 2D 2C", 7),
])
def test_b1_cards_removed_so_the_deal_comes_out_even(players: int, removed: str, size: int) -> None:
    assert removed_cards(players) == m(removed)
    deck = shuffled_deck(players, random.Random(players))
    assert mask_of(deck) == in_play(players) and len(deck) == players * size
    s = State.deal(players, deck)
    assert [h.bit_count() for h in s.hands] == [size] * players
    assert not any(h & m(removed) for h in s.hands)


def test_b1_seven_players_keep_every_heart() -> None:
    assert not removed_cards(7) & m(HEARTS)


def test_b1_player_counts_and_decks_are_checked() -> None:
    for bad in (2, 8):
        with pytest.raises(RulesError, match="B1: Black Maria is for 3 to 7 players"):
            State.from_seed(bad, seed=1)
    full = [c for c in range(52)]
    with pytest.raises(CardError, match="B1: a deck for 3 players must hold the 51 cards in play"):
        State.deal(3, full)
    hands = [list(range(0, 13)), list(range(13, 26)), list(range(26, 39)), list(range(39, 52))]
    with pytest.raises(CardError, match="B1: with 5 players the hands must hold 10 cards each"):
        deck_for_hands(hands, players=5)


# -- B2: the deal ----------------------------------------------------------------------------------


def test_b2_cards_dealt_one_at_a_time_from_the_dealers_left() -> None:
    deck = tuple(cards_of(in_play(5)))
    s = State.deal(5, deck, dealer=2)
    for i, c in enumerate(deck):
        assert s.hands[(2 + 1 + i) % 5] >> c & 1
    assert s.hands[3] & m("3S 8S") == m("3S 8S")  # Cards 0 and 5 of the deck.


def test_b2_first_dealer_is_drawn_by_the_seed() -> None:
    dealers = {State.from_seed(4, seed=i).dealer for i in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert State.from_seed(4, seed=9).hands == State.from_seed(4, seed=9).hands
    with pytest.raises(RulesError, match="bad dealer 4"):
        State.deal(4, shuffled_deck(4, random.Random(1)), dealer=4)


# -- B3: passing -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "count"), [(3, 4), (4, 3), (5, 3), (6, 2), (7, 2)])
def test_b3_pass_counts(players: int, count: int) -> None:
    assert pass_count(players) == count
    s = State.from_seed(players, seed=players)
    assert s.phase_name == "pass" and s.to_act == (s.dealer + 1) % players
    hand = s.hands[s.to_act]
    with pytest.raises(IllegalActionError, match=f"B3: with {players} players each seat passes {count} cards"):
        s.pass_cards(cards_of(hand)[:count - 1])
    s.pass_cards(cards_of(hand)[:count])
    assert s.hands[(s.dealer + 1) % players].bit_count() == hand.bit_count() - count


def test_b3_passes_are_simultaneous_and_go_left() -> None:
    s = State.deal(4, deck_for_hands([SPADES.split(), HEARTS.split(), DIAMONDS.split(), CLUBS.split()], dealer=3),
                   dealer=3)
    with pytest.raises(IllegalActionError, match=r"B3: seat 1 cannot pass now: .* seat 0 is to pass"):
        s.pass_cards("2H 3H 4H", seat=1)
    with pytest.raises(IllegalActionError, match="B3: seat 0 does not hold 2H"):
        s.pass_cards("2H 3S 4S")
    with pytest.raises(IllegalActionError, match="B3: it is not time to play"):
        s.play_card("AS")
    s.pass_cards("2S 3S 4S")
    # Seat 1 chooses before receiving: its hand and view show nothing of seat 0's cards.
    assert s.hands[1] == m(HEARTS)
    v1 = s.view(1)
    assert v1.received == 0 and v1.hand == m(HEARTS) and v1.npassed == 1
    assert s.view(0).passed == m("2S 3S 4S")
    s.pass_cards("2H 3H 4H")
    s.pass_cards("2D 3D 4D")
    assert s.hands[1] == m(HEARTS) - m("2H 3H 4H")
    s.pass_cards("2C 3C 4C")
    assert s.phase_name == "play"
    assert s.hands[1] == m(HEARTS) - m("2H 3H 4H") + m("2S 3S 4S")
    assert s.hands[0] == m(SPADES) - m("2S 3S 4S") + m("2C 3C 4C")
    v1 = s.view(1)
    assert v1.passed == m("2H 3H 4H") and v1.received == m("2S 3S 4S")
    assert v1.known[2] == m("2H 3H 4H")  # Seat 1 knows where its passed cards went.


def test_b3_card_at_a_time_passes_go_in_rising_order() -> None:
    s = State.deal(4, deck_for_hands([SPADES.split(), HEARTS.split(), DIAMONDS.split(), CLUBS.split()], dealer=3),
                   dealer=3)
    # The first card needs two higher cards left to finish the pass: AS and KS cannot start it.
    assert s.legal_mask() == m(SPADES) - m("AS KS")
    s.apply(parse_card("9S"))
    assert s.in_progress and s.legal_mask() == m("TS JS QS KS")
    with pytest.raises(IllegalActionError, match="steps: a pass is chosen in rising card order"):
        s.apply(parse_card("5S"))
    with pytest.raises(IllegalActionError, match="steps: seat 0 is part way through"):
        s.pass_cards("2S 3S 4S")
    s.apply(parse_card("QS"))
    s.apply(parse_card("AS"))
    assert s.last_action().to_json() == {"seat": 0, "pass": ["9S", "QS", "AS"]}
    assert s.to_act == 1 and not s.in_progress


# -- B4: tricks ----------------------------------------------------------------------------------------


def test_b4_dealers_left_leads_and_suit_must_be_followed() -> None:
    s = suits_state()
    assert s.phase_name == "play" and s.to_act == 0
    s.play_card("2C")
    s.play_card("AH")  # Seat 1 has no clubs: any card.
    s.play_card("2H")
    with pytest.raises(IllegalActionError, match=r"B4: seat 3 must follow suit: C was led and 2D is not a club "
                                                 r"\(legal: 5C 6C 7C 8C 9C TC JC QC KC AC\)"):
        s.play_card("2D")
    with pytest.raises(IllegalActionError, match="B4: seat 0 cannot play now"):
        s.play_card("5S", seat=0)
    with pytest.raises(IllegalActionError, match="B4: seat 3 does not hold 2C"):
        s.play_card("2C")
    s.play_card("5C")
    # The highest card of the suit led wins, not the highest card: 5C beats AH.
    assert s.tricks == (0, 0, 0, 1) and s.to_act == 3 and s.leader == 3
    assert s.trick_points() == [0, 0, 0, 2]


def test_b4_no_play_after_the_hand() -> None:
    s = finish(suits_state())
    assert s.is_over and sum(s.tricks) == 13 and s.legal_mask() == 0
    with pytest.raises(IllegalActionError, match="B4: the hand is over"):
        s.apply(0)


# -- B5: hearts breaking ----------------------------------------------------------------------------


def test_b5_hearts_not_led_until_broken() -> None:
    s = suits_state()
    for card in ("2C", "2S", "5D", "5C"):  # Seat 1 discards a spade on clubs: hearts stay unbroken.
        s.play_card(card)
    for card in ("2D", "6S", "3S", "6D"):  # Seat 2 wins the diamond and is to lead, holding hearts.
        s.play_card(card)
    assert not s.broken and s.to_act == 2
    with pytest.raises(IllegalActionError, match=r"B5: hearts are not broken, so seat 2 may not lead 2H while "
                                                 r"holding another suit \(legal: 7D 8D 9D TD JD QD KD AD\)"):
        s.play_card("2H")
    for card in ("7D", "3D", "7S", "5H"):  # Seat 1 throws a heart on a diamond trick: hearts are broken.
        s.play_card(card)
    assert s.broken and s.to_act == 2
    assert s.can_play_card("2H")


def test_b5_leader_with_only_hearts_may_lead_one_without_breaking() -> None:
    hands = [
        ["2C", "3C", "4C", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"],
        SPADES.split(),
        DIAMONDS.split(),
        ["2H", "3H", "AH", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
    ]
    s = State.deal(4, deck_for_hands(hands, dealer=3), dealer=3)
    s.pass_cards("2C 3C 4C")
    s.pass_cards("2S 3S 4S")
    s.pass_cards("2D 3D 4D")
    s.pass_cards("2H 3H AH")
    assert s.hands[0] == m(HEARTS)
    assert s.legal_mask() == m(HEARTS)
    s.play_card("2H")
    assert not s.broken
    assert s.view(2).voids[0] == 0b1101  # Leading a heart unbroken shows seat 0 holds only hearts.
    s.play_card("2C")
    s.play_card("2S")
    s.play_card("2D")
    assert not s.broken and s.to_act == 0


# -- B6: scoring ----------------------------------------------------------------------------------------


def test_b6_penalty_points() -> None:
    s = suits_state()
    for card in ("2C", "AH", "2H", "6C"):  # Seat 3 wins two hearts.
        s.play_card(card)
    assert s.trick_points() == [0, 0, 0, 2]
    for card in ("2D", "QS", "KH", "5D"):  # Seat 0, void in diamonds, throws Black Maria; 5D wins.
        s.play_card(card)
    assert s.leader == 2 and s.trick_points() == [0, 0, 14, 2]
    finish(s)
    assert sum(s.points()) == 43 and sum(s.trick_points()) == 43


def test_b6_spade_honours() -> None:
    from mustamaija.games.black_maria.legality import penalty_of

    assert penalty_of(m("AS")) == 7 and penalty_of(m("KS")) == 10 and penalty_of(m("QS")) == 13
    assert penalty_of(m(HEARTS)) == 13 and penalty_of(m("JS 2S AD AC")) == 0


# -- B7: reneging -----------------------------------------------------------------------------------


def test_b7_strict_mode_forbids_reneging() -> None:
    s = suits_state()
    s.play_card("2C")
    s.play_card("AH")
    s.play_card("2H")
    with pytest.raises(IllegalActionError, match="B4: seat 3 must follow suit"):
        s.play_card("2D")
    finish(s)
    assert s.reneges == (0, 0, 0, 0)


def test_b7_table_mode_charges_ten_points_a_renege_at_the_end() -> None:
    s = suits_state(Rules(allow_renege=True))
    s.play_card("2C")
    s.play_card("AH")
    s.play_card("2H")
    s.play_card("2D")  # Seat 3 holds clubs but reneges.
    assert s.reneges == (0, 0, 0, 1)
    assert s.tricks[0] == 1  # 2C was the only club: seat 0 wins its own trick.
    # Detected at the end: nobody else sees it during the hand; the reneger knows.
    assert s.view(0).reneges == (0, 0, 0, 0) and s.view(3).reneges == (0, 0, 0, 1)
    assert s.view(0).voids[3] == 0  # A renege reveals no void when reneging is allowed.
    finish(s)
    assert s.view(0).reneges == s.reneges
    assert s.points()[3] == s.trick_points()[3] + 10 * s.reneges[3]
    assert sum(s.points()) == 43 + 10 * sum(s.reneges)


# -- B8: a game of hands ----------------------------------------------------------------------------


def test_b8_deal_passes_left_and_game_ends_by_hands() -> None:
    rng = random.Random(3)
    match = Match(3, Rules(hands=4, target_score=None), first_dealer=2)
    dealers = []
    while not match.over:
        s = match.next_hand(shuffled_deck(3, rng))
        dealers.append(s.dealer)
        match.finish_hand(finish(s))
    assert dealers == [2, 0, 1, 2] and match.played == 4
    assert sum(match.totals) == 4 * 43
    low = min(match.totals)
    assert match.winners() == [s for s, t in enumerate(match.totals) if t == low]


def test_b8_game_ends_when_a_seat_reaches_the_target() -> None:
    rng = random.Random(4)
    match = Match(4, Rules(target_score=30), first_dealer=0)
    while not match.over:
        match.finish_hand(finish(match.next_hand(shuffled_deck(4, rng))))
    assert max(match.totals) >= 30
    before = [sum(r.points[s] for r in match.results[:-1]) for s in range(4)]
    assert max(before) < 30
    with pytest.raises(RulesError, match="B8: the game is over"):
        match.next_hand(shuffled_deck(4, rng))


def test_b8_game_needs_an_end_and_hands_are_scored_in_order() -> None:
    with pytest.raises(RulesError, match="B8: a game needs an agreed number of hands or a target score"):
        Match(4, Rules(target_score=None))
    match = Match(4, Rules(hands=2))
    s = match.next_hand(shuffled_deck(4, random.Random(1)))
    with pytest.raises(RulesError, match="B8: only a hand that is over"):
        match.finish_hand(s)
    with pytest.raises(RulesError, match="B8: the current hand is not finished yet"):
        match.next_hand(shuffled_deck(4, random.Random(2)))


def test_rules_keys_are_validated() -> None:
    assert Rules.from_json({}) == Rules() and Rules().to_json() == {"target_score": 50, "hands": None,
                                                                    "allow_renege": False}
    with pytest.raises(RulesError, match="bad value 0 for rule 'hands'"):
        Rules(hands=0)
    with pytest.raises(RulesError, match="bad value 'yes' for rule 'allow_renege'"):
        Rules.from_json({"allow_renege": "yes"})
