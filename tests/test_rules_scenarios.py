"""One or more scenario tests for every rule id of docs/rules.md (M1-M22, V1-V5).

Every scenario is dealt from an explicit deck built with ``deck_for_hands``;
nothing here depends on a random seed. Seats are numbered clockwise and, unless
a test says otherwise, the dealer is the last seat so that seat 0 leads first.

Two tables recur:

* ``EIGHT``: eight players with hand size 6 (V1), so the talon holds only four
  cards and is empty after the first lead. It reaches the endgame (M11, M16-M18)
  in a few turns.
* ``CHAIN``: eight players with hand size 6 where every pair of seats goes out
  together (the attacker leads six cards of a suit, the defender beats all six),
  so a deal ends in four turns (M19, M20).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest

from mustamaija import QS, CardError, IllegalActionError, Rules, RulesError, State, card_name, parse_card, parse_cards
from mustamaija.core.cards import CLUBS, DIAMONDS, HEARTS, SPADES, mask_of
from mustamaija.games.mustamaija import DECLARE, DEFAULT_MAX_TURNS, STOP, Beat, Declare, Lead, Match, deck_for_hands, state_to_json

# -- helpers ------------------------------------------------------------------------------------

ALL_NAMES = [card_name(c) for c in range(52)]
R6 = Rules(hand_size=6)


def names(text: str) -> list[str]:
    """Canonical names of the cards of a text, in the text's order."""
    return [card_name(c) for c in parse_cards(text)]


def cset(text: str) -> set[str]:
    return set(names(text))


def mset(mask: int) -> set[str]:
    return {card_name(c) for c in range(52) if mask >> c & 1}


def hand(s: State, seat: int) -> set[str]:
    return set(s.hand(seat).names())


def talon(s: State) -> list[str]:
    return [card_name(c) for c in s.talon_cards]


def rest(*texts: str) -> list[str]:
    """The cards named in none of the texts, in rising card order: what deck_for_hands puts below the talon top."""
    used = set().union(*(cset(t) for t in texts))
    return [c for c in ALL_NAMES if c not in used]


def table(hands: Sequence[str], talon_top: str = "", *, rules: Rules | None = None, dealer: int | None = None) -> State:
    """Deal ``hands`` (one card text per seat; ``"*"`` fills a seat with the lowest unnamed cards) over ``talon_top``."""
    rules = rules or Rules()
    n = len(hands)
    named = set(names(talon_top))
    for h in hands:
        if h != "*":
            named |= cset(h)
    spare = iter(c for c in ALL_NAMES if c not in named)
    rows = [names(h) if h != "*" else [next(spare) for _ in range(rules.hand_size)] for h in hands]
    dealer = n - 1 if dealer is None else dealer
    deck = deck_for_hands(rows, talon=names(talon_top), dealer=dealer)
    return State.deal(n, deck, rules, dealer)


@contextmanager
def illegal(rule: str, text: str) -> Iterator[None]:
    """Expect an IllegalActionError for ``rule`` whose message starts with ``rule: text``."""
    with pytest.raises(IllegalActionError, match="^" + re.escape(f"{rule}: {text}")) as info:
        yield
    assert info.value.rule == rule


# The EIGHT table (hand size 6, eight players, dealer 7). The talon top AC is turned
# at the first lead (clubs are trumps) and goes to the bottom: the talon becomes KH AH QS AC.
EIGHT = [
    "2S 3S 4S 5S 6S 7S",  # 0: leads all six spades, draws the whole talon
    "8S 9S TS JS KS AS",  # 1: beats them all and goes out
    "2D 3D 4D 5D 6D 7D",  # 2
    "8D 9D TD JD QD KD",  # 3
    "2H 3H 4H 5H 6H 7H",  # 4
    "8H 9H TH JH 2C 3C",  # 5: beats 6H and 7H with trumps
    "4C 5C 6C 7C 8C QH",  # 6
    "9C TC JC QC KC AD",  # 7
]
EIGHT_TALON = "AC KH AH QS"


def eight_to_three() -> State:
    """Play EIGHT until seats 1-5 are out; seat 6 is then to attack seat 7, and seat 0 holds the talon."""
    s = table(EIGHT, EIGHT_TALON, rules=R6)
    s.lead("2S 3S 4S 5S 6S 7S", seat=0)
    s.beat("2S:8S 3S:9S 4S:TS 5S:JS 6S:KS 7S:AS", seat=1)
    s.lead("2D 3D 4D 5D 6D 7D", seat=2)
    s.beat("2D:8D 3D:9D 4D:TD 5D:JD 6D:QD 7D:KD", seat=3)
    s.lead("2H 3H 4H 5H 6H 7H", seat=4)
    s.beat("2H:8H 3H:9H 4H:TH 5H:JH 6H:2C 7H:3C", seat=5)
    return s


# The CHAIN table, by position relative to the first attacker (r = 0..7). The talon
# top AC is turned (clubs are trumps): the talon becomes AD QS AH AC, all drawn by r0.
CHAIN = [
    "2C 3C 4C 5C 6C 7C",
    "8C 9C TC JC QC KC",
    "2D 3D 4D 5D 6D 7D",
    "8D 9D TD JD QD KD",
    "2S 3S 4S 5S 6S 7S",
    "8S 9S TS JS KS AS",
    "2H 3H 4H 5H 6H 7H",
    "8H 9H TH JH QH KH",
]
CHAIN_TALON = "AC AD QS AH"


def chain_deck(dealer: int) -> tuple[int, ...]:
    hands = [CHAIN[(seat - dealer - 1) % 8] for seat in range(8)]
    return deck_for_hands([names(h) for h in hands], talon=names(CHAIN_TALON), dealer=dealer)


def play_chain(s: State, last_defender_keeps: bool = False) -> None:
    """Play a CHAIN deal to its end.

    By default r7 beats all six hearts and the first attacker r0 loses with AD QS AH AC.
    With ``last_defender_keeps`` r7 leaves 2H, and r0 then gives r7 Q♠ and three cards
    r7 cannot beat, going out with the last: r7 loses.
    """
    first = s.attacker

    def r(k: int) -> int:
        return (first + k) % 8

    s.lead("2C 3C 4C 5C 6C 7C", seat=r(0))
    s.beat("2C:8C 3C:9C 4C:TC 5C:JC 6C:QC 7C:KC", seat=r(1))
    s.lead("2D 3D 4D 5D 6D 7D", seat=r(2))
    s.beat("2D:8D 3D:9D 4D:TD 5D:JD 6D:QD 7D:KD", seat=r(3))
    s.lead("2S 3S 4S 5S 6S 7S", seat=r(4))
    s.beat("2S:8S 3S:9S 4S:TS 5S:JS 6S:KS 7S:AS", seat=r(5))
    s.lead("2H 3H 4H 5H 6H 7H", seat=r(6))
    if not last_defender_keeps:
        s.beat("2H:8H 3H:9H 4H:TH 5H:JH 6H:QH 7H:KH", seat=r(7))
        return
    s.beat("3H:8H 4H:9H 5H:TH 6H:JH 7H:QH", seat=r(7))
    for card in ("QS", "AD", "AH", "AC"):
        s.lead(card, seat=r(0))
        s.beat("take", seat=r(7))


# -- M1: one pack, rank order -------------------------------------------------------------------


def test_M1_a_deal_needs_one_full_52_card_pack() -> None:
    deck = list(deck_for_hands([names("2H 3H 4H 5H 6H"), names("7H 8H 9H TH JH")], dealer=1))
    assert len(deck) == 52 and len(set(deck)) == 52
    with pytest.raises(CardError, match="a deck must hold all 52 cards once each, got 51 cards"):
        State.deal(2, deck[:51])
    with pytest.raises(CardError, match="is given twice"):
        State.deal(2, [*deck[:51], deck[0]])
    s = State.deal(2, deck, dealer=1)
    assert sum(s.hand_sizes()) + s.talon_size == 52


def test_M1_rank_order_ace_high_down_to_two() -> None:
    # No trumps (V2 "none"), so only rank decides; every led heart against every heart in the other hand.
    low, high = "2H 3H 5H 7H 9H JH", "4H 6H 8H TH QH AH"
    s = table([low, high], "KH", rules=Rules(hand_size=6, trump="none"))
    s.lead(low, seat=0)
    order = "23456789TJQKA"
    for led in names(low):
        for beater in names(high):
            expected = order.index(beater[0]) > order.index(led[0])
            assert s.can_beat({led: beater}) is expected, (led, beater)
    with illegal("M13", "10♥ does not beat J♥ (no trumps)"):
        s.verify_beat({"JH": "TH"})
    # The whole defence: each led card beaten by the next higher card.
    s.beat("2H:4H 3H:6H 5H:8H 7H:TH 9H:QH JH:AH")
    assert mset(s.discard) == cset(low + " " + high)
    assert s.attacker == 1


def test_M1_rank_order_holds_in_every_suit() -> None:
    for suit in "SHDC":
        led, higher, lower = f"T{suit}", f"J{suit}", f"9{suit}"
        if suit == "S":
            hands = [f"{led} 2H 3H 4H 5H", f"{higher} {lower} 2D 3D 4D"]
        else:
            hands = [f"{led} 2S 3S 4S 5S", f"{higher} {lower} 6S 7S 8S"]
        s = table(hands, rules=Rules(trump="none"))
        s.lead(led)
        assert s.can_beat({led: higher}) and not s.can_beat({led: lower}), suit


# -- M2: Maija ---------------------------------------------------------------------------------


def test_M2_queen_never_beats() -> None:
    s = table(["2S 3H 4H 5H 6H", "QS 9D TD JD KD"], "7C")
    s.lead("2S")
    assert not s.can_beat({"2S": "QS"})
    with illegal("M2", "Q♠ can never beat a card"):
        s.beat({"2S": "QS"})
    # The step API never offers Q♠ as a beater: the defender can only leave 2S.
    assert s.legal_actions() == [STOP]
    s.apply(STOP)
    assert hand(s, 1) == cset("QS 9D TD JD KD 2S")


def test_M2_queen_never_beats_even_when_spades_are_trumps() -> None:
    rules = Rules(trump="fixed", trump_suit="S", spades_can_be_trump=True)
    s = table(["2H 3H 4H 5H 6H", "QS 9D TD JD 2S"], rules=rules)
    assert s.trump_suit == SPADES
    s.lead("2H")
    assert s.can_beat({"2H": "2S"})  # any other trump beats a non-trump
    with illegal("M2", "Q♠ can never beat a card"):
        s.verify_beat({"2H": "QS"})


def test_M2_queen_led_can_never_be_beaten() -> None:
    s = table(["QS 3H 4H 5H 6H", "KS AS 9D TD JD"], "7C")
    s.lead("QS")
    for beater in ("KS", "AS"):
        with illegal("M2", "Q♠ led can never be beaten, not even by a trump"):
            s.verify_beat({"QS": beater})
    assert [b.pairs for b in s.legal_beats()] == [()]
    assert s.legal_actions() == [STOP]
    s.beat("take")
    assert "QS" in hand(s, 1) and s.attacker == 0  # two players: attacked again (M16)


def test_M2_queen_led_cannot_be_beaten_by_a_spade_trump() -> None:
    rules = Rules(trump="fixed", trump_suit="S", spades_can_be_trump=True)
    s = table(["QS 2S 4H 5H 6H", "KS AS 9D TD JD"], rules=rules)
    s.lead("QS 2S")
    assert s.can_beat({"2S": "KS"})
    with illegal("M2", "Q♠ led can never be beaten, not even by a trump"):
        s.verify_beat({"2S": "KS", "QS": "AS"})
    s.beat({"2S": "KS"})
    assert hand(s, 1) == cset("QS AS 9D TD JD")


def test_M2_queen_counts_as_a_spade_for_leading() -> None:
    s = table(["QS 2S 3H 5H 6H", "KS AS 9D TD JD"], "7C")
    assert s.can_lead("QS 2S")
    with illegal("M10", "a lead must be all one suit: QS and 3H differ (Q♠ counts as a spade, M2)"):
        s.verify_lead("QS 3H")
    s.lead("2S QS")
    assert mset(s.led) == {"2S", "QS"}


# -- M3: players, clockwise ----------------------------------------------------------------------


def test_M3_two_to_six_players_with_hand_size_five() -> None:
    deck = list(range(52))
    for n in (2, 3, 4, 5, 6):
        assert State.deal(n, deck).hand_sizes() == [5] * n
    for n in (1, 7):
        with pytest.raises(RulesError, match=f"V1: {n} players cannot play with hand size 5 \\(allowed: 2-6\\)"):
            State.deal(n, deck)


def test_M3_play_goes_clockwise() -> None:
    s = table(["2H 3S 4S 5S 6S", "9H 2D 7S 8S 9S", "9D 3D TS JS KS", "2C 3C 4C 5C 6C"], "8C")
    assert (s.attacker, s.defender) == (0, 1)
    s.lead("2H")
    s.beat({"2H": "9H"})
    assert (s.attacker, s.defender) == (1, 2)
    s.lead("2D")
    s.beat({"2D": "9D"})
    assert (s.attacker, s.defender) == (2, 3)
    s.lead("3D")
    s.beat({"3D": "2C"})  # clubs are trumps
    assert (s.attacker, s.defender) == (3, 0)  # and round again


# -- M4: the deal ---------------------------------------------------------------------------------


def test_M4_five_cards_dealt_one_at_a_time_from_the_dealers_left() -> None:
    deck = ALL_NAMES[::-1]  # top card first: AC, KC, ...
    s = State.deal(3, deck, dealer=1)
    assert s.hand(2).names() == sorted(deck[0:15:3], key=ALL_NAMES.index)
    assert hand(s, 2) == set(deck[0:15:3])
    assert hand(s, 0) == set(deck[1:15:3])
    assert hand(s, 1) == set(deck[2:15:3])
    # The rest is the face-down talon, top first (the trump is not turned before the first lead, M6).
    assert talon(s) == deck[15:]
    assert s.talon_size == 37
    assert s.attacker == 2  # the dealer's left leads first (M9)


def test_M4_deal_with_dealer_last_seat_wraps_to_seat_zero() -> None:
    deck = ALL_NAMES
    s = State.deal(4, deck, dealer=3)
    assert hand(s, 0) == set(deck[0:20:4]) and hand(s, 3) == set(deck[3:20:4])
    assert s.attacker == 0 and s.defender == 1


# -- M5 / M20: matches ---------------------------------------------------------------------------


def _match_deal(m: Match, *, last_defender_keeps: bool = False) -> State:
    s = m.next_deal(chain_deck(m.dealer))
    assert s.dealer == m.dealer and s.attacker == (m.dealer + 1) % 8
    play_chain(s, last_defender_keeps)
    assert s.finished
    return s


def test_M5_the_deal_passes_to_the_left() -> None:
    m = Match(players=8, rules=R6, deals=3, first_dealer=7)
    s = _match_deal(m)
    assert s.loser == 0
    result = m.finish_deal(s)
    assert (result.dealer, result.loser, result.turns) == (7, 0, 4)
    assert m.dealer == 0  # left of 7
    s = _match_deal(m, last_defender_keeps=True)
    assert s.loser == 0  # this time the dealer lost
    m.finish_deal(s)
    assert m.dealer == 1  # still to the left, not to the loser
    s = _match_deal(m)
    assert s.loser == 2
    m.finish_deal(s)
    assert m.dealer == 2 and m.over


def test_M5_option_the_loser_deals_next() -> None:
    m = Match(players=8, rules=R6.replace(next_dealer="loser"), deals=5, first_dealer=7)
    s = _match_deal(m, last_defender_keeps=True)
    assert s.loser == 7  # the dealer lost
    m.finish_deal(s)
    assert m.dealer == 7  # so the same seat deals again
    s = _match_deal(m)
    assert s.loser == 0
    m.finish_deal(s)
    assert m.dealer == 0


def test_M20_match_counts_losses_and_ends_after_the_agreed_deals() -> None:
    m = Match(players=8, rules=R6, deals=2, first_dealer=7)
    assert not m.over and m.played == 0 and m.losses == [0] * 8
    m.finish_deal(_match_deal(m))  # dealer 7, loser 0
    m.finish_deal(_match_deal(m, last_defender_keeps=True))  # dealer 0, loser 0
    assert m.played == 2 and m.over
    assert m.losses == [2, 0, 0, 0, 0, 0, 0, 0]
    assert [(r.dealer, r.loser) for r in m.results] == [(7, 0), (0, 0)]
    assert m.standings()[0] == (1, 0) and m.standings()[-1] == (0, 2)
    with pytest.raises(RulesError, match="M20: the match is over"):
        m.next_deal(chain_deck(m.dealer))


def test_M20_match_ends_when_a_player_reaches_the_agreed_losses() -> None:
    m = Match(players=8, rules=R6, max_losses=2, first_dealer=7)
    m.finish_deal(_match_deal(m))  # seat 0 loses
    assert not m.over
    m.finish_deal(_match_deal(m))  # dealer 0: seat 1 loses
    assert not m.over and m.losses[:2] == [1, 1]
    m.finish_deal(_match_deal(m, last_defender_keeps=True))  # dealer 1 loses
    assert m.losses[:3] == [1, 2, 0] and m.over and m.played == 3


def test_M20_match_needs_a_limit_and_scores_only_finished_deals() -> None:
    with pytest.raises(RulesError, match="M20: a match needs an agreed number of deals or of losses"):
        Match(players=3)
    m = Match(players=8, rules=R6, deals=4, first_dealer=7)
    s = m.next_deal(chain_deck(7))
    with pytest.raises(RulesError, match="M20: the current deal is not finished yet"):
        m.next_deal(chain_deck(7))
    with pytest.raises(RulesError, match="M20: only a deal that is over can be scored"):
        m.finish_deal(s)


def test_M20_a_deal_stopped_by_M21_costs_nobody_a_loss() -> None:
    m = Match(players=8, rules=Rules(hand_size=6, max_turns=1, next_dealer="loser"), deals=3, first_dealer=7)
    s = m.next_deal(chain_deck(7))
    s.lead("2C 3C 4C 5C 6C 7C", seat=0)
    s.beat("take", seat=1)
    assert s.is_over and s.stopped and not s.finished
    result = m.finish_deal(s)
    assert result.loser is None and result.turns == 1
    assert m.losses == [0] * 8 and m.played == 1
    assert m.dealer == 0  # passes to the left even under next_dealer "loser"


# -- M6: when the trump is turned -------------------------------------------------------------------

M6_HANDS = ["2C 3C 9D TD JD", "2H 5C 6C 7C 8C"]
M6_TALON = "2S 9H 3D 4D"


def _m6_expected_talon() -> list[str]:
    # 2S is turned and put back, 9H stands as trump; k = 40 other cards, 20 of them above the spade.
    others = ["3D", "4D", *rest(*M6_HANDS, M6_TALON)]
    assert len(others) == 40
    return [*others[:20], "2S", *others[20:], "9H"]


def test_M6_trump_turned_after_the_first_lead_before_the_attacker_draws() -> None:
    s = table(M6_HANDS, M6_TALON)
    raw = talon(s)
    assert raw[:4] == names(M6_TALON) and len(raw) == 42
    assert s.trump_suit is None and s.trump_card == -1
    assert s.view(0).trump == -1 and s.view(0).talon_known == ()
    s.lead("2C 3C")
    assert s.trump_suit == HEARTS and card_name(s.trump_card) == "9H"
    # The attacker drew from the talon as it was after turning: 3D 4D, not 2S 9H.
    assert hand(s, 0) == cset("9D TD JD 3D 4D")
    assert talon(s) == _m6_expected_talon()[2:]
    # The defender may use the new trump suit at once.
    assert s.can_beat({"2C": "2H"})
    s.beat({"2C": "2H", "3C": "5C"})
    assert s.attacker == 1


def test_M6_option_trump_turned_right_after_the_deal() -> None:
    s = table(M6_HANDS, M6_TALON, rules=Rules(trump_turn="after_deal"))
    assert s.phase_name == "lead" and s.actions() == []
    assert s.trump_suit == HEARTS and card_name(s.trump_card) == "9H"
    assert talon(s) == _m6_expected_talon()
    v = s.view(0)
    assert v.trump == HEARTS and (41, parse_card("9H")) in v.talon_known
    s.lead("2C 3C")
    assert hand(s, 0) == cset("9D TD JD 3D 4D")
    assert s.trump_suit == HEARTS  # not turned a second time
    assert talon(s) == _m6_expected_talon()[2:]


def test_M6_only_the_first_lead_turns_a_card() -> None:
    s = table(M6_HANDS, M6_TALON)
    s.lead("2C")
    s.beat("take")
    after_first = talon(s)
    s.lead("3C")  # two players: attacked again
    assert s.trump_suit == HEARTS and talon(s) == after_first[1:]


# -- M7: spades may not be trumps -------------------------------------------------------------------


def test_M7_turned_spades_go_back_as_one_block_floor_k_over_2_from_the_top() -> None:
    # Seven players with hand size 6 leave a ten-card talon.
    rules = Rules(hand_size=6, trump_turn="after_deal")
    s = table(["*"] * 7, "2S 3S 4S 5H 6H 7H 8H 9H TH JH", rules=rules)
    assert s.trump_suit == HEARTS and card_name(s.trump_card) == "5H"
    # k = 6 other cards, 3 above the block; the spades keep the order they were turned in.
    assert talon(s) == names("6H 7H 8H 2S 3S 4S 9H TH JH 5H")
    assert mset(s.revealed) == cset("2S 3S 4S")
    assert s.view(None).talon_known == tuple((d, parse_card(c)) for d, c in ((3, "2S"), (4, "3S"), (5, "4S"), (9, "5H")))


@pytest.mark.parametrize(
    ("talon_top", "after"),
    [
        ("2S 3D 4D 5D 6D 7D 8D 9D TD JD", "4D 5D 6D 7D 2S 8D 9D TD JD 3D"),  # k = 8: 4 above
        ("2S 3S 4S 5S 6S 7S 8S 9S TS 2D", "2S 3S 4S 5S 6S 7S 8S 9S TS 2D"),  # k = 0: the block on top
        ("2S 3S 4S 5S 6S 7S 2D 3D 4D 5D", "3D 2S 3S 4S 5S 6S 7S 4D 5D 2D"),  # k = 3: 1 above
        ("2D 3D 4D 5D 6D 7D 8D 9D TD JD", "3D 4D 5D 6D 7D 8D 9D TD JD 2D"),  # no spade: the top card goes under
    ],
)
def test_M7_spade_block_placement(talon_top: str, after: str) -> None:
    s = table(["*"] * 7, talon_top, rules=Rules(hand_size=6, trump_turn="after_deal"))
    assert talon(s) == names(after)
    assert s.trump_suit == DIAMONDS and card_name(s.trump_card) == names(after)[-1]


def test_M7_standard_table_spade_block_in_the_middle_of_a_42_card_talon() -> None:
    hands = ["2H 3H 4H 5H 6H", "7H 8H 9H TH JH"]
    s = table(hands, "5S 2S 2D", rules=Rules(trump_turn="after_deal"))
    others = rest(*hands, "5S 2S 2D")
    assert len(others) == 39
    assert talon(s) == [*others[:19], "5S", "2S", *others[19:], "2D"]


def test_M7_only_spades_in_the_talon_the_top_card_is_trump() -> None:
    # Eight players with hand size 6: the four-card talon holds only spades.
    s = table(["*"] * 8, "4S 2S 9S 3S", rules=R6)
    assert s.trump_suit is None
    s.lead(next(iter(s.hand(0).names())), seat=0)
    assert s.trump_suit == SPADES and card_name(s.trump_card) == "4S"
    assert s.revealed == 0  # nothing was put back
    assert talon(s)[-1] == "4S"


def test_M7_option_spades_can_be_trump_keeps_a_turned_spade() -> None:
    hands = ["2H 3H 4H 5H 6H", "7H 8H 9H TH 2S"]
    s = table(hands, "3S 9D", rules=Rules(spades_can_be_trump=True, trump_turn="after_deal"))
    assert s.trump_suit == SPADES and card_name(s.trump_card) == "3S"
    assert talon(s) == ["9D", *rest(*hands, "3S 9D"), "3S"]
    assert s.revealed == 0
    s.lead("2H")
    assert s.can_beat({"2H": "2S"})  # spades are trumps
    # The same deck without the option turns 9D instead.
    s2 = table(hands, "3S 9D", rules=Rules(trump_turn="after_deal"))
    assert s2.trump_suit == DIAMONDS and mset(s2.revealed) == {"3S"}


# -- M8: the trump card lies face up at the bottom and is drawn last -----------------------------------


def test_M8_trump_card_lies_face_up_at_the_bottom_and_is_drawn_last() -> None:
    s = table(EIGHT, EIGHT_TALON, rules=R6)
    s.lead("2S 3S 4S", seat=0)
    assert talon(s) == ["AC"] and hand(s, 0) == cset("5S 6S 7S KH AH QS")
    v = s.view(2)
    assert v.trump_card == parse_card("AC") and v.talon_known == ((0, parse_card("AC")),)
    s.beat("2S:8S 3S:9S 4S:TS", seat=1)
    # Seat 1 drew the last talon card, the trump card, and everybody knows it.
    assert "AC" in hand(s, 1) and talon(s) == []
    for seat in (None, 0, 2, 7):
        assert mset(s.view(seat).known[1]) == {"AC"}
    out = state_to_json(s)
    assert out["trump_card"] == "AC" and out["trump_suit"] == "C" and out["talon"] == []


# -- M9: attacker and defender ---------------------------------------------------------------------


def test_M9_first_attacker_is_the_dealers_left_and_defender_the_next_seat() -> None:
    deck = list(range(52))
    for dealer in range(4):
        s = State.deal(4, deck, dealer=dealer)
        assert s.attacker == (dealer + 1) % 4 and s.defender == (dealer + 2) % 4
        assert s.to_act == s.attacker and s.phase_name == "lead"


def test_M9_only_the_attacker_leads_and_only_the_defender_beats() -> None:
    s = table(["2H 3H 4H 5H 6H", "7H 8H 9H TH JH", "2D 3D 4D 5D 6D"], "2C")
    with illegal("M9", "seat 2 cannot lead now: seat 0 is to lead"):
        s.lead("2D", seat=2)
    with illegal("M9", "it is not time to defend: seat 0 is to lead"):
        s.beat("take")
    s.lead("2H", seat=0)
    assert s.to_act == 1 and s.phase_name == "defend"
    with illegal("M9", "seat 2 cannot defend now: seat 1 is to defend"):
        s.beat("take", seat=2)
    with illegal("M9", "it is not time to lead: seat 1 is to defend"):
        s.lead("3H")


# -- M10: the lead ----------------------------------------------------------------------------------


def test_M10_lead_is_one_or_more_cards_of_one_suit() -> None:
    s = table(["2H 3H 4H 5D 6D", "7H 8H 9H TH JH"], "2C")
    with illegal("M10", "a lead must be all one suit: 2H and 5D differ"):
        s.lead("2H 5D")
    with illegal("M10", "seat 0 does not hold AS"):
        s.lead("AS")
    with illegal("M10", "a lead needs at least one card"):
        s.lead([])
    leads = {frozenset(mset(a.cards)) for a in s.legal_leads()}
    # Every non-empty subset of the hearts and of the diamonds: 7 + 3.
    assert len(leads) == 10 and frozenset({"2H", "3H", "4H"}) in leads
    action = s.lead("4H 2H 3H")
    assert action == Lead(0, mask_of(parse_cards("2H 3H 4H")))
    assert mset(s.led) == cset("2H 3H 4H")


def test_M10_no_cards_added_to_a_lead_afterwards_not_even_ones_just_drawn() -> None:
    s = table(["2H 3H 4H 5D 6D", "7H 8H 9H TH JH"], "2C 4D")
    s.lead("2H 3H")
    assert "4D" in hand(s, 0)  # just drawn
    with illegal("M9", "seat 0 cannot lead now: seat 1 is to defend"):
        s.lead("4D", seat=0)
    with illegal("M9", "it is not time to lead: seat 1 is to defend"):
        s.lead("4D")
    assert mset(s.led) == cset("2H 3H")
    assert s.last_action().to_json() == {"seat": 0, "lead": ["2H", "3H"]}


def test_M10_step_api_builds_a_lead_of_one_suit() -> None:
    s = table(["2H 3H 4H 5D 6D", "7H 8H 9H TH JH"], "2C")
    s.apply(parse_card("3H"))
    assert s.in_progress and s.phase_name == "lead"
    assert s.legal_actions() == [parse_card("4H"), STOP]
    with illegal("M10", "a lead must be all one suit: 5D is not a H"):
        s.apply(parse_card("5D"))
    with illegal("steps", "seat 0 is part way through a card-at-a-time action"):
        s.lead("2H")
    s.apply(STOP)
    assert s.phase_name == "defend" and mset(s.led) == {"3H"}


# -- M11: the lead size limit --------------------------------------------------------------------------

# Three players, dealer 2. Seat 1 picks up 2H and later leads six hearts at seat 2, who holds five.
M11_HANDS = ["2H 8S 9S TS JS", "3H 4H 5H 6H 7H", "2C 3C 4C 5C 6C"]
M11_TALON = "AD KD QD JD TD 9D 8D"


def _m11_to_seat_1s_attack(rules: Rules) -> State:
    s = table(M11_HANDS, M11_TALON, rules=rules)
    s.lead("2H", seat=0)
    s.beat("take", seat=1)
    s.lead("2C", seat=2)
    s.beat("take", seat=0)
    assert (s.attacker, s.defender) == (1, 2)
    assert s.hand_sizes() == [6, 6, 5] and s.talon_size > 0
    return s


def test_M11_no_limit_while_the_talon_has_cards_by_default() -> None:
    s = _m11_to_seat_1s_attack(Rules())
    assert s.can_lead("2H 3H 4H 5H 6H 7H")
    s.lead("2H 3H 4H 5H 6H 7H")
    assert len(hand(s, 2)) == 5 and s.led.bit_count() == 6
    s.beat("take")
    assert len(hand(s, 2)) == 11  # the defender was forced to pick up more than a hand


def test_M11_option_always_limits_the_lead_to_the_defenders_cards() -> None:
    s = _m11_to_seat_1s_attack(Rules(attack_limit="always"))
    text = "a lead of 6 cards exceeds the defender's 5 cards in hand (the limit applies all deal (attack_limit: always))"
    with illegal("M11", text):
        s.lead("2H 3H 4H 5H 6H 7H")
    assert s.can_lead("3H 4H 5H 6H 7H")
    assert max(a.cards.bit_count() for a in s.legal_leads()) == 5
    assert s.view(1).limit == 5


def test_M11_option_always_limit_is_the_defenders_hand_at_the_lead_even_above_hand_size() -> None:
    # Two players: seat 1 picks up, so at seat 0's next lead the limit is seat 1's six cards.
    s = table(["2H 3H 4H 5H 6H", "7D 8D 9D TD JD"], "2C 7H 8H 9H TH JH", rules=Rules(attack_limit="always"))
    s.lead("2H")
    s.beat("take")
    assert s.hand_sizes() == [5, 6] and s.view(0).limit == 6
    assert s.can_lead("3H 4H 5H 6H 7H")  # all five hearts: the limit (6) does not bite


def test_M11_limit_applies_once_the_talon_is_empty() -> None:
    s = eight_to_three()
    assert s.talon_size == 0 and (s.attacker, s.defender) == (6, 7)
    assert s.view(6).limit == 6
    s.lead("4C 5C 6C 7C 8C", seat=6)
    s.beat("5C:9C 6C:TC 7C:JC 8C:QC", seat=7)  # leaves 4C
    assert (s.attacker, s.defender) == (0, 6) and hand(s, 6) == {"QH"}
    assert hand(s, 0) == cset("KH AH QS AC")
    assert s.view(0).limit == 1
    with illegal("M11", "a lead of 2 cards exceeds the defender's 1 cards in hand (the talon is empty)"):
        s.lead("KH AH")
    assert not s.can_lead("AH KH") and s.can_lead("AH")
    assert {a.cards.bit_count() for a in s.legal_leads()} == {1}
    # Step by step, the lead ends by itself at the limit.
    s.apply(parse_card("KH"))
    assert s.phase_name == "defend" and mset(s.led) == {"KH"}


def test_M11_limit_follows_the_defenders_current_hand() -> None:
    s = eight_to_three()
    s.lead("4C 5C 6C 7C 8C", seat=6)
    s.beat("5C:9C 6C:TC 7C:JC 8C:QC", seat=7)
    s.lead("QS", seat=0)
    s.beat("take", seat=6)  # seat 6: QH QS
    assert (s.attacker, s.defender) == (7, 0)
    assert hand(s, 0) == cset("KH AH AC") and s.view(7).limit == 3
    s.lead("4C KC", seat=7)
    s.beat({"KC": "AC"}, seat=0)
    assert hand(s, 0) == cset("KH AH 4C")
    assert (s.attacker, s.defender) == (6, 7) and s.view(6).limit == 1  # seat 7 holds only AD


def test_M11_max_lead_caps_every_lead() -> None:
    s = table(["2H 3H 4H 5H 6H", "7D 8D 9D TD JD"], "2C", rules=Rules(max_lead=2))
    with illegal("max_lead", "a lead of 3 cards exceeds the rule set's cap of 2"):
        s.lead("2H 3H 4H")
    assert s.can_lead("2H 3H") and s.view(0).limit == 2
    # Step by step the lead completes on its second card.
    s.apply(parse_card("2H"))
    s.apply(parse_card("5H"))
    assert s.phase_name == "defend" and mset(s.led) == cset("2H 5H")


def test_M11_max_lead_and_the_empty_talon_limit_take_the_smaller() -> None:
    s = table(EIGHT, EIGHT_TALON, rules=R6.replace(max_lead=4))
    with illegal("max_lead", "a lead of 6 cards exceeds the rule set's cap of 4"):
        s.lead("2S 3S 4S 5S 6S 7S")
    s.lead("2S 3S 4S 5S")  # draws the whole talon
    s.beat("2S:8S 3S:9S 4S:TS 5S:JS")
    assert s.talon_size == 0 and (s.attacker, s.defender) == (1, 2)
    assert s.hand_sizes()[1:3] == [2, 6]
    assert s.view(1).limit == 4


# -- M12: the attacker draws right after leading ----------------------------------------------------------

M12_HANDS = ["2H 3H 9C TC JC", "4H 5H 6H 7H 8H"]
M12_TALON = "7D 4S 5S 6S 7S 8S 9S"


def test_M12_attacker_draws_right_after_leading_up_to_the_hand_size() -> None:
    s = table(M12_HANDS, M12_TALON)
    s.lead("2H 3H")
    # Before any defence: the attacker already holds five again, from the talon top (7D was turned).
    assert s.phase_name == "defend" and s.to_act == 1
    assert hand(s, 0) == cset("9C TC JC 4S 5S")
    assert s.talon_size == 40 and talon(s)[:2] == ["6S", "7S"] and talon(s)[-1] == "7D"


def test_M12_attacker_holding_more_than_the_hand_size_does_not_draw() -> None:
    s = _m11_to_seat_1s_attack(Rules())
    before = talon(s)
    s.lead("2H", seat=1)  # six cards down to five: not below the hand size
    assert len(hand(s, 1)) == 5 and talon(s) == before
    s.beat("take", seat=2)
    assert len(hand(s, 2)) == 6
    # Seat 0 (six cards) attacks seat 1 now and leads one: no draw either.
    assert (s.attacker, s.defender) == (0, 1)
    s.lead("8S", seat=0)
    assert len(hand(s, 0)) == 5 and talon(s) == before


def test_M12_attacker_below_the_hand_size_draws_only_the_missing_cards() -> None:
    s = _m11_to_seat_1s_attack(Rules())
    before = talon(s)
    s.lead("2H 3H", seat=1)  # six cards down to four
    assert len(hand(s, 1)) == 5 and talon(s) == before[1:]
    assert before[0] in hand(s, 1)


def test_M12_attacker_draws_until_the_talon_is_empty() -> None:
    s = table(EIGHT, EIGHT_TALON, rules=R6)
    s.lead("2S 3S 4S 5S 6S 7S")
    assert hand(s, 0) == cset("KH AH QS AC") and s.talon_size == 0
    assert s.out == ()  # four cards in hand: not out


# -- M13: beating ------------------------------------------------------------------------------------

M13_HANDS = ["9H TH 8C 4S 5S", "JH 5H 3C 9C AD"]


def test_M13_beat_with_a_higher_card_of_the_suit_or_any_trump() -> None:
    s = table(M13_HANDS, "2C")
    s.lead("9H TH")
    assert s.trump_suit == CLUBS
    assert s.can_beat({"9H": "JH"}) and s.can_beat({"TH": "JH"})
    assert s.can_beat({"9H": "3C"}) and s.can_beat({"TH": "9C"})  # any trump beats a non-trump
    with illegal("M13", "5♥ does not beat 9♥ (trumps: C)"):
        s.verify_beat({"9H": "5H"})
    with illegal("M13", "A♦ does not beat 9♥ (trumps: C)"):
        s.verify_beat({"9H": "AD"})
    with illegal("M13", "JH is used twice: one beating card beats exactly one led card"):
        s.verify_beat("9H:JH TH:JH")
    with illegal("M13", "AH was not led"):
        s.verify_beat({"AH": "JH"})
    with illegal("M13", "seat 1 does not hold KH"):
        s.verify_beat({"TH": "KH"})
    action = s.beat({"9H": "3C", "TH": "JH"})
    assert action == Beat.of(1, {parse_card("9H"): parse_card("3C"), parse_card("TH"): parse_card("JH")})
    assert s.attacker == 1


def test_M13_a_trump_is_beaten_only_by_a_higher_trump() -> None:
    s = table(M13_HANDS, "2C")
    s.lead("8C")
    assert s.can_beat({"8C": "9C"})
    with illegal("M13", "3♣ does not beat 8♣ (trumps: C)"):
        s.verify_beat({"8C": "3C"})
    with illegal("M13", "J♥ does not beat 8♣ (trumps: C)"):
        s.verify_beat({"8C": "JH"})
    assert {b.pairs for b in s.legal_beats()} == {(), ((parse_card("8C"), parse_card("9C")),)}


def test_M13_beating_is_never_compulsory() -> None:
    s = table(M13_HANDS, "2C")
    s.lead("9H TH")
    assert s.can_beat("take") and s.can_beat({"9H": "JH"})
    s.beat({"9H": "JH"})  # TH could be beaten by a trump, but is left
    assert hand(s, 1) >= {"TH"} and "9C" in hand(s, 1)
    assert (s.attacker, s.defender) == (0, 1)


def test_M13_beating_is_one_action_with_no_drawing_in_the_middle() -> None:
    s = table(M13_HANDS, "2C")
    s.lead("9H TH")
    size = s.talon_size
    s.apply(parse_card("JH"))  # beat 9H with JH, step by step
    assert s.phase_name == "defend" and s.in_progress
    assert len(hand(s, 1)) == 5 and s.talon_size == size  # nothing drawn yet
    assert s.view(1).pairs == ((parse_card("9H"), parse_card("JH")),)
    assert s.view(0).pairs == ()  # the others see the defence only once it is complete
    s.apply(parse_card("3C"))  # beat TH with 3C: the defence is complete
    assert s.phase_name == "lead" and s.attacker == 1
    assert len(hand(s, 1)) == 5 and s.talon_size == size - 2
    assert s.last_action().to_json() == {"seat": 1, "beat": {"9H": "JH", "TH": "3C"}}


# -- M14: where the cards go -------------------------------------------------------------------------


def test_M14_beaten_pairs_go_to_the_discard_unbeaten_cards_to_the_defender() -> None:
    s = table(M13_HANDS, "2C 6D 7D")
    s.lead("9H TH")
    s.beat({"9H": "JH"})
    assert mset(s.discard) == cset("9H JH")
    assert hand(s, 1) == cset("5H 3C 9C AD TH")
    out = state_to_json(s)
    assert out["discard"] == ["9H", "JH"]
    assert out["hands"][1] == ["5H", "TH", "AD", "3C", "9C"]


# -- M15: the defender draws -------------------------------------------------------------------------


def test_M15_defender_draws_up_to_the_hand_size_after_the_defence() -> None:
    s = table(M12_HANDS, M12_TALON)
    s.lead("2H 3H")  # seat 0 draws 4S 5S
    s.beat({"2H": "4H", "3H": "5H"})
    assert hand(s, 1) == cset("6H 7H 8H 6S 7S") and talon(s)[0] == "8S"


def test_M15_defender_draws_the_difference_after_beating_some_and_picking_up_some() -> None:
    s = table(M12_HANDS, M12_TALON)
    s.lead("2H 3H")
    s.beat({"3H": "5H"})  # 5 - 1 + 1 = 5 cards: nothing to draw
    assert hand(s, 1) == cset("4H 6H 7H 8H 2H") and talon(s)[0] == "6S"


def test_M15_defender_holding_more_than_the_hand_size_does_not_draw() -> None:
    s = table(M12_HANDS, M12_TALON)
    s.lead("2H 3H")
    s.beat("take")
    assert len(hand(s, 1)) == 7 and talon(s)[0] == "6S"


# -- M16: the next attacker -----------------------------------------------------------------------------

M16_HANDS = ["2H 7S 8S 9S TS", "9H 2D 3D KS AS", "9D 3S 4S 5S 6S", "2C 3C 4C 5C 6C"]


def test_M16_defender_who_beats_everything_attacks_next() -> None:
    s = table(M16_HANDS, "8H")
    s.lead("2H")
    s.beat({"2H": "9H"})
    assert (s.attacker, s.defender) == (1, 2)


def test_M16_defender_who_picks_up_anything_loses_the_turn_to_attack() -> None:
    s = table(M16_HANDS, "8H")
    s.lead("2H")
    s.beat({"2H": "9H"})
    s.lead("2D 3D")
    s.beat({"2D": "9D"})  # 3D picked up
    assert (s.attacker, s.defender) == (3, 0)
    s.lead("2C")
    s.beat("take")
    assert (s.attacker, s.defender) == (1, 2)


def test_M16_two_players_picking_up_means_the_same_attacker_again() -> None:
    s = table(["2H 3H 4D 5D 6D", "7H 8H 9H AD JH"], "2C")
    s.lead("2H 3H")
    s.beat({"2H": "7H"})
    assert (s.attacker, s.defender) == (0, 1)
    s.lead("4D")
    s.beat({"4D": "AD"})
    assert (s.attacker, s.defender) == (1, 0)


def test_M16_players_with_no_cards_are_skipped() -> None:
    s = table(EIGHT, EIGHT_TALON, rules=R6)
    s.lead("2S 3S 4S 5S 6S 7S")
    s.beat("2S:8S 3S:9S 4S:TS 5S:JS 6S:KS 7S:AS")
    assert s.out == (1,)
    assert (s.attacker, s.defender) == (2, 3)  # seat 1 beat everything but is out: skipped
    s = eight_to_three()
    s.lead("4C 5C 6C 7C 8C", seat=6)
    s.beat("5C:9C 6C:TC 7C:JC 8C:QC", seat=7)
    # Seat 7 picked up, so seat 0 attacks, and its defender skips the out seats 1-5.
    assert (s.attacker, s.defender) == (0, 6)
    s.lead("QS")
    s.beat("take")
    assert (s.attacker, s.defender) == (7, 0)


def test_M16_next_attacker_skips_out_players_after_a_pick_up() -> None:
    # CHAIN, with the last defender keeping 2H: seat 0 then attacks seat 7 past six out seats.
    s = State.deal(8, chain_deck(7), R6, 7)
    first = [("2C 3C 4C 5C 6C 7C", "2C:8C 3C:9C 4C:TC 5C:JC 6C:QC 7C:KC"),
             ("2D 3D 4D 5D 6D 7D", "2D:8D 3D:9D 4D:TD 5D:JD 6D:QD 7D:KD"),
             ("2S 3S 4S 5S 6S 7S", "2S:8S 3S:9S 4S:TS 5S:JS 6S:KS 7S:AS")]
    for lead, beat in first:
        s.lead(lead)
        s.beat(beat)
    s.lead("2H 3H 4H 5H 6H 7H", seat=6)
    s.beat("3H:8H 4H:9H 5H:TH 6H:JH 7H:QH", seat=7)
    assert s.out == (1, 2, 3, 4, 5, 6)
    assert (s.attacker, s.defender) == (0, 7)
    s.lead("QS")
    s.beat("take")
    assert (s.attacker, s.defender) == (0, 7)  # two left: attacked again by the same attacker


# -- M17: the empty talon ---------------------------------------------------------------------------


def test_M17_nobody_draws_once_the_talon_is_empty() -> None:
    s = eight_to_three()
    assert s.talon_size == 0
    s.lead("4C 5C 6C 7C 8C", seat=6)
    assert hand(s, 6) == {"QH"}  # the attacker does not refill
    s.beat("5C:9C 6C:TC 7C:JC 8C:QC", seat=7)
    assert hand(s, 7) == cset("KC AD 4C")  # nor the defender
    assert s.hand_sizes() == [4, 0, 0, 0, 0, 0, 1, 3]
    with illegal("M11", "a lead of 2 cards exceeds the defender's 1 cards in hand (the talon is empty)"):
        s.lead("KH AH")


# -- M18: going out -----------------------------------------------------------------------------------


def test_M18_defender_who_beats_with_its_last_cards_goes_out() -> None:
    s = table(EIGHT, EIGHT_TALON, rules=R6)
    s.lead("2S 3S 4S 5S 6S 7S")
    assert s.talon_size == 0 and s.out == ()
    s.beat("2S:8S 3S:9S 4S:TS 5S:JS 6S:KS 7S:AS")
    assert s.out == (1,) and hand(s, 1) == set()
    assert state_to_json(s)["out"] == [1]


def test_M18_attacker_who_leads_its_last_cards_is_out_at_once_and_the_defence_still_happens() -> None:
    s = table(EIGHT, EIGHT_TALON, rules=R6)
    s.lead("2S 3S 4S 5S 6S 7S")
    s.beat("2S:8S 3S:9S 4S:TS 5S:JS 6S:KS 7S:AS")
    s.lead("2D 3D 4D 5D 6D 7D", seat=2)
    assert s.out == (1, 2) and hand(s, 2) == set()
    assert s.phase_name == "defend" and s.to_act == 3
    assert state_to_json(s)["out"] == [1, 2] and s.view(5).out == (1, 2)
    s.beat("2D:8D 3D:9D 4D:TD 5D:JD 6D:QD 7D:KD")
    assert s.out == (1, 2, 3) and (s.attacker, s.defender) == (4, 5)


def test_M18_attacker_out_at_once_even_if_the_defender_picks_everything_up() -> None:
    s = eight_to_three()
    s.lead("4C 5C 6C 7C 8C", seat=6)
    s.beat("5C:9C 6C:TC 7C:JC 8C:QC", seat=7)  # seat 7: KC AD 4C
    s.lead("AH", seat=0)
    s.beat("take", seat=6)  # seat 6: QH AH
    assert (s.attacker, s.defender) == (7, 0)
    s.lead("AD", seat=7)
    s.beat("take", seat=0)  # seat 0: KH QS AC AD
    assert (s.attacker, s.defender) == (6, 7) and hand(s, 7) == cset("KC 4C")
    s.lead("QH AH", seat=6)  # its last cards
    assert s.out == (1, 2, 3, 4, 5, 6) and hand(s, 6) == set()
    assert s.phase_name == "defend" and s.to_act == 7
    assert s.can_beat({"QH": "KC", "AH": "4C"})
    s.beat("take", seat=7)
    assert hand(s, 7) == cset("KC 4C QH AH") and s.out == (1, 2, 3, 4, 5, 6)
    # Seat 7 picked up: the turn passes to its left, seat 0, who attacks seat 7 past six out seats.
    assert (s.attacker, s.defender) == (0, 7)


def test_M18_no_one_goes_out_while_the_talon_has_cards() -> None:
    s = table(["2H 3H 4H 5H 6H", "7H 8H 9H TH JH"], "2C")
    s.lead("2H 3H 4H 5H 6H")
    assert len(hand(s, 0)) == 5 and s.out == ()
    s.beat("2H:7H 3H:8H 4H:9H 5H:TH 6H:JH")
    assert len(hand(s, 1)) == 5 and s.out == () and s.attacker == 1


# -- M19: the end of a deal ------------------------------------------------------------------------------


def test_M19_deal_ends_when_one_player_holds_cards_and_that_player_holds_the_queen() -> None:
    s = State.deal(8, chain_deck(7), R6, 7)
    play_chain(s)
    assert s.is_over and s.finished and not s.stopped
    assert s.loser == 0 and hand(s, 0) == cset("AD QS AH AC")
    assert s.out == (1, 2, 3, 4, 5, 6, 7)
    out = state_to_json(s)
    assert out["phase"] == "over" and out["finished"] is True and out["loser"] == 0
    assert out["attacker"] is None and out["defender"] is None and out["to_act"] is None
    assert s.legal_actions() == [] and list(s.legal_leads()) == []
    with illegal("M19", "the deal is over: seat 0 lost"):
        s.lead("AD", seat=0)
    with illegal("M19", "the deal is over: seat 0 lost"):
        s.apply(parse_card("AD"))


def test_M19_queen_is_given_away_and_the_last_holder_loses() -> None:
    s = State.deal(8, chain_deck(7), R6, 7)
    play_chain(s, last_defender_keeps=True)
    assert s.loser == 7 and QS in s.hand(7)
    assert hand(s, 7) == cset("2H KH QS AD AH AC")
    assert s.out == (1, 2, 3, 4, 5, 6, 0)  # seat 0 went out leading AC
    assert s.view(3).loser == 7 and "seat 7 lost" in s.view(None).render()


# -- M21: the endless-deal guard -----------------------------------------------------------------------


def test_M21_deal_is_stopped_unfinished_after_max_turns() -> None:
    assert Rules().max_turns == DEFAULT_MAX_TURNS
    s = table(["2H 3H 4H 5H 6H", "7D 8D 9D TD JD"], "2C", rules=Rules(max_turns=2))
    s.lead("2H")
    s.beat("take")
    assert s.phase_name == "lead" and s.turns == 1
    s.lead("3H")
    s.beat("take")
    assert s.turns == 2
    assert s.is_over and s.stopped and not s.finished and s.loser == -1
    out = state_to_json(s)
    assert out["phase"] == "over" and out["finished"] is False and out["stopped"] is True
    assert out["loser"] is None and out["to_act"] is None and out["turns"] == 2
    assert s.legal_actions() == []
    with illegal("M21", "the deal was stopped unfinished after 2 turns"):
        s.lead("4H")
    with illegal("M21", "the deal was stopped unfinished after 2 turns"):
        s.beat("take")
    with illegal("M21", "the deal was stopped unfinished after 2 turns"):
        s.apply(parse_card("4H"))
    assert s.view(0).stopped and "stopped unfinished (M21)" in s.view(0).render()


def test_M21_a_deal_that_ends_on_the_last_allowed_turn_is_finished_not_stopped() -> None:
    s = State.deal(8, chain_deck(7), Rules(hand_size=6, max_turns=4), 7)
    play_chain(s)
    assert s.turns == 4 and s.finished and not s.stopped and s.loser == 0


# -- M22: what the views show ------------------------------------------------------------------------


def test_M22_picked_up_cards_are_known_to_everybody_other_cards_never() -> None:
    hands = ["2H 3H 4D 5D 6D", "4H 8H 9H TH JH", "2C 3C 4C 5C 6C"]
    s = table(hands, "7S 7D 8D 9D")
    s.lead("2H 3H")  # 7S is turned and put back, 7D is trumps; seat 0 draws 8D 9D face down
    assert s.trump_suit == DIAMONDS and hand(s, 0) == cset("4D 5D 6D 8D 9D")
    s.beat({"3H": "4H"})  # picks up 2H
    for seat in (None, 0, 1, 2):
        v = s.view(seat)
        assert mset(v.known[1]) == {"2H"}
        assert mset(v.known[0]) == set() and mset(v.known[2]) == set()
        assert v.hand_sizes == (5, 5, 5)
    # Each seat sees its own hand, and the others' hidden cards stay unseen.
    v2 = s.view(2)
    assert mset(v2.hand) == hand(s, 2)
    assert mset(v2.unseen) >= hand(s, 0) | (hand(s, 1) - {"2H"})
    assert not mset(v2.unseen) & (hand(s, 2) | {"2H", "3H", "4H", "7S", "7D"})
    assert mset(s.view(None).hand) == set()
    assert mset(s.view(None).unseen) >= hand(s, 2)


def test_M22_views_never_show_an_opponents_private_cards() -> None:
    s = table(EIGHT, EIGHT_TALON, rules=R6)
    s.lead("2S 3S 4S 5S 6S 7S")
    s.beat("2S:8S 3S:9S 4S:TS 5S:JS 6S:KS 7S:AS")
    s.lead("2D 3D", seat=2)
    s.beat({"2D": "8D"}, seat=3)  # picks up 3D
    public = cset("AC 3D")  # the trump card drawn by seat 0, and the picked-up card
    for viewer in [None, *range(8)]:
        v = s.view(viewer)
        for seat in range(8):
            if seat == viewer:
                assert mset(v.hand) == hand(s, seat)
            shown = mset(v.known[seat])
            assert shown <= hand(s, seat) & public, (viewer, seat, shown)
        assert mset(v.known[0]) == {"AC"} and mset(v.known[3]) == {"3D"}
        if viewer is not None:
            # Every card of another hand that is not public stays unseen.
            for seat in range(8):
                if seat != viewer:
                    assert hand(s, seat) - public <= mset(v.unseen)


def test_M22_revealed_spades_are_public_with_their_depth_in_the_talon() -> None:
    hands = ["2H 3H 9C TC JC", "4H 5H 6H 7H 8H"]
    s = table(hands, "2S 3S 9H")
    s.lead("2H 3H")
    # Block 2S 3S went 19 cards deep (k = 39); two cards were drawn since.
    v = s.view(1)
    assert v.talon_known == ((17, parse_card("2S")), (18, parse_card("3S")), (39, parse_card("9H")))
    assert mset(v.revealed) == cset("2S 3S") and v.talon_size == 40
    assert not v.unseen & mask_of(parse_cards("2S 3S 9H"))
    assert "talon known: 2S@17 3S@18 9H@39" in s.view(None).render()


def test_M22_who_draws_a_revealed_spade_or_the_trump_card_is_public() -> None:
    # Eight players with hand size 6: the talon 2S 7H 8H 9H becomes 8H 2S 9H 7H (k = 2, one above).
    s = table(["2C 3C 4C 5C 6C 7C", *["*"] * 7], "2S 7H 8H 9H", rules=R6)
    assert hand(s, 2) == cset("9S TS JS QS KS AS")
    s.lead("2C 3C")
    assert hand(s, 0) == cset("4C 5C 6C 7C 8H 2S") and talon(s) == ["9H", "7H"]
    for seat in (None, 1, 5):
        assert mset(s.view(seat).known[0]) == {"2S"}  # 8H was drawn face down; 2S had been seen
    s.beat("take", seat=1)
    assert (s.attacker, s.defender) == (2, 3)
    s.lead("9S TS", seat=2)
    assert talon(s) == [] and hand(s, 2) == cset("JS QS KS AS 9H 7H")
    assert mset(s.view(4).known[2]) == {"7H"}  # the trump card; 9H stays private
    assert mset(s.view(4).known[1]) == cset("2C 3C")


def test_M22_declared_marriage_cards_are_public() -> None:
    rules = Rules(trump="marriage")
    s = table(["KH QH 2C 3C 4S", "2D 3D 4D 5D 6D", "7D 8D 9D TD JD"], rules=rules)
    s.declare("H")
    for seat in (None, 1, 2):
        assert mset(s.view(seat).known[0]) == cset("KH QH")
    assert s.view(1).declarer == 0 and s.view(1).declared == HEARTS and s.view(1).trump == HEARTS


# -- V1: hand sizes ------------------------------------------------------------------------------------


def test_V1_hand_size_three_deals_three_and_refills_to_three() -> None:
    rules = Rules(hand_size=3)
    s = table(["2H 3H 4H", "5H 6H 7H", "2D 3D 4D"], "8C 9C TC", rules=rules)
    assert s.hand_sizes() == [3, 3, 3] and s.talon_size == 43
    s.lead("2H 3H")
    assert hand(s, 0) == cset("4H 9C TC")  # 8C was turned: clubs are trumps
    s.beat({"2H": "5H"})
    assert len(hand(s, 1)) == 3 and "3H" in hand(s, 1)  # 3 - 1 + 1: nothing drawn
    assert (s.attacker, s.defender) == (2, 0)


def test_V1_hand_size_six_deals_six_and_refills_to_six() -> None:
    s = table(["2H 3H 4H 5H 6H 7H", "8H 9H TH JH QH KH"], "8C 9C TC", rules=R6)
    assert s.hand_sizes() == [6, 6] and s.talon_size == 40
    s.lead("2H 3H")
    assert hand(s, 0) == cset("4H 5H 6H 7H 9C TC")
    s.beat({"2H": "8H", "3H": "9H"})
    assert len(hand(s, 1)) == 6


def test_V1_player_counts_follow_the_hand_size() -> None:
    deck = list(range(52))
    for size, most in ((3, 8), (5, 6), (6, 8)):
        rules = Rules(hand_size=size)
        s = State.deal(most, deck, rules)
        assert s.hand_sizes() == [size] * most and s.talon_size == 52 - size * most
        with pytest.raises(RulesError, match=f"V1: {most + 1} players cannot play with hand size {size}"):
            State.deal(most + 1, deck, rules)
        with pytest.raises(RulesError, match="V1: 1 players cannot play"):
            State.deal(1, deck, rules)


# -- V2: how trumps are fixed -------------------------------------------------------------------------


def test_V2_fixed_trump_suit_is_trumps_from_the_start_and_nothing_is_turned() -> None:
    hands = ["2C 3C 4H 5H 6H", "2D 7C 8C 9C TC"]
    s = table(hands, "3S 4S", rules=Rules(trump="fixed", trump_suit="D"))
    raw = talon(s)
    assert s.trump_suit == DIAMONDS and s.trump_card == -1 and s.view(1).trump == DIAMONDS
    s.lead("2C")
    assert talon(s) == raw[1:] and s.trump_card == -1 and s.revealed == 0
    assert s.can_beat({"2C": "2D"})
    assert state_to_json(s)["trump_card"] is None and state_to_json(s)["trump_suit"] == "D"


def test_V2_no_trumps_means_only_a_higher_card_of_the_suit_beats() -> None:
    hands = ["2C 3C 4H 5H 6H", "2D 7C 8C 9C TC"]
    s = table(hands, "3S 4S", rules=Rules(trump="none"))
    raw = talon(s)
    s.lead("2C")
    assert s.trump_suit is None and talon(s) == raw[1:]
    with illegal("M13", "2♦ does not beat 2♣ (no trumps)"):
        s.verify_beat({"2C": "2D"})
    assert s.can_beat({"2C": "7C"})
    with illegal("V2", "marriages are not played under these rules (trump: none)"):
        s.declare("H")


def test_V2_marriage_starts_without_trumps_and_turns_nothing() -> None:
    hands = ["2C 3C 4H 5H 6H", "2D 7C 8C 9C TC"]
    s = table(hands, "3S 4S", rules=Rules(trump="marriage"))
    raw = talon(s)
    s.lead("2C")
    assert s.trump_suit is None and s.trump_card == -1 and talon(s) == raw[1:]
    assert not s.can_beat({"2C": "2D"})


def test_V2_turned_is_the_default() -> None:
    with illegal("V2", "marriages are not played under these rules (trump: turned)"):
        table(["KH QH 2C 3C 4C", "2D 3D 4D 5D 6D"]).declare("H")
    assert Rules().trump == "turned"


# -- V3 / V4: marriage trumps ---------------------------------------------------------------------------

MARRIAGE = Rules(trump="marriage")


def test_V3_only_a_non_spade_king_and_queen_may_be_declared() -> None:
    s = table(["KS QS KH 2C 3C", "QH 3D 4D 5D 6D", "7D 8D 9D TD JD"], rules=MARRIAGE)
    with illegal("V3", "a marriage in spades cannot be declared: spades are never trumps by marriage"):
        s.declare("S")
    with illegal("V3", "seat 0 does not hold both KH and QH"):
        s.declare("H")
    with illegal("V3", "seat 0 does not hold both KD and QD"):
        s.verify_declare("D")
    assert s.legal_declares() == []
    assert DECLARE not in s.legal_actions()  # step 53 (spades) is never legal
    assert s.trump_suit is None


def test_V3_only_the_first_declaration_counts() -> None:
    s = table(["KH QH 2C 3C 4S", "KD QD 5C KC 5S", "7D 8D 9D TD JD"], rules=MARRIAGE)
    assert s.legal_declares() == [Declare(0, HEARTS)]
    s.declare("H")
    assert s.trump_suit == HEARTS and s.to_act == 0 and s.phase_name == "lead"
    s.lead("2C")
    assert s.to_act == 1
    with illegal("V3", "trumps are already fixed by seat 0's marriage in H: only the first declaration counts"):
        s.declare("D")
    assert s.legal_declares() == [] and DECLARE + DIAMONDS not in s.legal_actions()
    s.beat({"2C": "5C"})
    assert s.trump_suit == HEARTS and s.declarer == 0


def test_V3_declared_suit_is_trumps_at_once_for_the_beat_that_follows() -> None:
    s = table(["2C 3C 4C 5S 6S", "KH QH 3H 7D 8D", "9D TD JD QD KD"], rules=MARRIAGE)
    s.lead("2C 3C")
    assert not s.can_beat({"2C": "3H"})
    with illegal("M13", "3♥ does not beat 2♣ (no trumps)"):
        s.verify_beat({"2C": "3H"})
    s.declare("H", seat=1)
    assert s.phase_name == "defend" and s.to_act == 1 and s.trump_suit == HEARTS
    s.beat({"2C": "3H", "3C": "QH"})
    assert s.attacker == 1 and hand(s, 1) >= cset("KH")
    assert [type(a).__name__ for a in s.actions()] == ["Lead", "Declare", "Beat"]
    assert s.actions()[1].to_json() == {"seat": 1, "declare": "H"}


def test_V3_declaring_through_the_step_api() -> None:
    s = table(["2C 3C 4C 5S 6S", "KH QH 3H 7D 8D", "9D TD JD QD KD"], rules=MARRIAGE)
    s.lead("2C")
    # Nothing in hand beats 2C yet: the defender may only leave it or declare.
    assert s.legal_actions() == [STOP, DECLARE + HEARTS]
    s.apply(DECLARE + HEARTS)
    assert s.trump_suit == HEARTS and s.phase_name == "defend"
    assert s.legal_actions() == sorted([*(parse_card(c) for c in ("3H", "QH", "KH")), STOP])
    s.apply(parse_card("3H"))
    assert s.phase_name == "lead" and s.attacker == 1 and mset(s.discard) == cset("2C 3H")


def test_V3_a_king_or_queen_picked_up_may_complete_a_marriage() -> None:
    s = table(["KH 2C 3C 4C 5C", "QH 2D 3D 4D 5D"], "9S", rules=MARRIAGE)
    s.lead("KH")
    assert s.legal_declares() == []
    s.beat("take")
    assert hand(s, 1) >= cset("KH QH") and (s.attacker, s.defender) == (0, 1)
    s.lead("2C")
    assert s.legal_declares() == [Declare(1, HEARTS)]
    s.declare("H")
    s.beat({"2C": "KH"})
    assert s.attacker == 1 and mset(s.discard) == cset("2C KH")


def test_V4_declaration_only_as_the_first_part_of_ones_own_action() -> None:
    s = table(["KH QH 2C 3C 4S", "KD QD 5C KC 5S", "7D 8D 9D TD JD"], rules=MARRIAGE)
    with illegal("V4", "seat 1 cannot declare now: a marriage is declared only as the first part of one's own action"):
        s.declare("D", seat=1)
    assert not s.can_declare("D", seat=1)
    # Once the attacker has chosen a first card step by step, it is too late to declare.
    s.apply(parse_card("2C"))
    assert s.in_progress and not any(step >= DECLARE for step in s.legal_actions())
    with illegal("V4", "a marriage is declared only before the first card of one's action"):
        s.apply(DECLARE + HEARTS)
    with illegal("V4", "a marriage is declared only before the first card of one's action"):
        s.declare("H")
    s.apply(parse_card("3C"))  # the lead 2C 3C is complete: seat 1 is to defend
    # The attacker's action is over: it cannot declare during the defence.
    with illegal("V4", "seat 0 cannot declare now"):
        s.declare("H", seat=0)
    assert s.can_declare("D") and s.legal_declares() == [Declare(1, DIAMONDS)]


def test_V4_declared_cards_stay_in_hand_and_become_public() -> None:
    s = table(["2C 3C 4C 5S 6S", "KH QH 3H 7D 8D", "9D TD JD QD KD"], rules=MARRIAGE)
    assert all(mset(s.view(v).known[1]) == set() for v in (0, 2))
    s.lead("2C")
    s.declare("H")
    assert hand(s, 1) == cset("KH QH 3H 7D 8D")
    for viewer in (None, 0, 1, 2):
        v = s.view(viewer)
        assert mset(v.known[1]) == cset("KH QH")
        assert "(marriage of seat 1)" in v.render()
    s.beat({"2C": "3H"})
    assert mset(s.view(0).known[1]) == cset("KH QH")  # still public while held


# -- V5: any combination of the options -----------------------------------------------------------------


def test_V5_every_combination_of_the_options_is_a_legal_rule_set() -> None:
    deck = list(range(52))  # rising order: the talon starts with the cards after the deal
    combos = itertools.product((3, 5, 6), ("turned", "fixed", "marriage", "none"), ("after_first_lead", "after_deal"),
                               (False, True), ("after_talon", "always"), ("left", "loser"))
    count = 0
    for size, trump, turn, spades, limit, dealer_rule in combos:
        rules = Rules(hand_size=size, trump=trump, trump_turn=turn, spades_can_be_trump=spades,
                      attack_limit=limit, next_dealer=dealer_rule)
        assert Rules.from_json(rules.to_json()) == rules
        for n in (2, rules.max_players):
            s = State.deal(n, deck, rules, n - 1)
            assert s.hand_sizes() == [size] * n and s.talon_size == 52 - size * n
            a = s.attacker
            first = next(iter(s.legal_leads()))
            s.play(first)
            assert len(s.hand(a)) == size  # refilled (M12, V1)
            top = deck[n * size:]
            turned = top[0] if spades else next(c for c in top if c // 13 != SPADES)
            expected = {"turned": turned // 13, "fixed": DIAMONDS, "marriage": None, "none": None}[trump]
            assert s.trump_suit == expected, rules
            count += 1
    assert count == 3 * 4 * 2 * 2 * 2 * 2 * 2


def test_V5_a_rule_set_must_fit_the_pack_and_spades_need_the_option() -> None:
    with pytest.raises(RulesError, match="V1: 7 players cannot play with hand size 5"):
        Rules(hand_size=5).check_players(7)
    with pytest.raises(RulesError, match="M7: spades may not be trumps"):
        Rules(trump="fixed", trump_suit="S")
    rules = Rules(trump="fixed", trump_suit="S", spades_can_be_trump=True, hand_size=6, attack_limit="always",
                  trump_turn="after_deal", max_lead=5, next_dealer="loser")
    s = State.deal(8, list(range(52)), rules, 7)
    assert s.trump_suit == SPADES and s.talon_size == 4 and s.view(0).limit == 5
    with pytest.raises(RulesError, match="unknown rule key 'hand_sise'"):
        Rules.from_json({"hand_sise": 3})
    with pytest.raises(RulesError, match="bad value 4 for rule 'hand_size'"):
        Rules.from_json({"hand_size": 4})
