"""Cards and card sets: the docs/formats.md card syntax, canonical output, errors, and set algebra."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mustamaija.core.cards import (
    ALL_CARDS,
    CLUBS,
    DIAMONDS,
    HEARTS,
    QS,
    SPADES,
    CardSet,
    card,
    card_name,
    card_symbol,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
    parse_suit,
    rank_of,
    suit_of,
)
from mustamaija.core.errors import CardError, MustamaijaError

PROPS = settings(max_examples=200, deadline=None, derandomize=True)

RANK_TEXT = "23456789TJQKA"
SUIT_TEXT = "SHDC"
SIGNS = "♠♥♦♣"

cards = st.integers(min_value=0, max_value=51)
masks = st.integers(min_value=0, max_value=ALL_CARDS)


# -- parsing and formatting ----------------------------------------------------


def test_card_numbering_is_suit_times_13_plus_rank() -> None:
    assert parse_card("2S") == 0
    assert parse_card("AS") == 12
    assert parse_card("2H") == 13
    assert parse_card("AC") == 51
    assert QS == parse_card("QS") == card(10, SPADES)
    assert (suit_of(QS), rank_of(QS)) == (SPADES, 10)
    assert [suit_of(parse_card(x)) for x in ("5S", "5H", "5D", "5C")] == [SPADES, HEARTS, DIAMONDS, CLUBS]


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QS", "QS"),
        ("qs", "QS"),
        ("Qs", "QS"),
        ("qS", "QS"),
        ("Q♠", "QS"),
        ("q♠", "QS"),
        ("10H", "TH"),
        ("10h", "TH"),
        ("10♥", "TH"),
        ("TH", "TH"),
        ("th", "TH"),
        ("T♥", "TH"),
        ("2♦", "2D"),
        ("a♣", "AC"),
        ("jd", "JD"),
        ("kc", "KC"),
        (" 9h ", "9H"),
    ],
)
def test_accepted_spellings_parse_to_the_canonical_card(text: str, canonical: str) -> None:
    assert card_name(parse_card(text)) == canonical


def test_every_card_has_a_two_character_canonical_name() -> None:
    names = [card_name(c) for c in range(52)]
    assert len(set(names)) == 52
    for c, name in enumerate(names):
        assert len(name) == 2
        assert name == RANK_TEXT[rank_of(c)] + SUIT_TEXT[suit_of(c)]
        assert name == name.upper()
    assert card_name(parse_card("10S")) == "TS"
    assert card_symbol(parse_card("TH")) == "10♥"
    assert card_symbol(QS) == "Q♠"


@PROPS
@given(cards, st.sampled_from(["upper", "lower", "sign", "ten"]))
def test_every_representation_round_trips(c: int, style: str) -> None:
    rank, suit = RANK_TEXT[rank_of(c)], SUIT_TEXT[suit_of(c)]
    if style == "upper":
        text = rank + suit
    elif style == "lower":
        text = (rank + suit).lower()
    elif style == "sign":
        text = rank + SIGNS[suit_of(c)]
    else:
        text = ("10" if rank == "T" else rank) + suit.lower()
    assert parse_card(text) == c
    assert parse_card(card_name(c)) == c
    assert parse_card(card_symbol(c)) == c
    assert card_name(parse_card(text)) == rank + suit


@PROPS
@given(st.lists(cards, unique=True, max_size=52), st.sampled_from([" ", ", ", ","]))
def test_parse_cards_round_trips_lists(cs: list[int], sep: str) -> None:
    text = sep.join(card_name(c) for c in cs)
    assert parse_cards(text) == cs
    assert parse_cards([card_symbol(c) for c in cs]) == cs
    assert CardSet.parse(text).mask == mask_of(cs)


def test_suits_parse_in_every_spelling() -> None:
    for i, (letter, sign) in enumerate(zip(SUIT_TEXT, SIGNS, strict=True)):
        assert parse_suit(letter) == i
        assert parse_suit(letter.lower()) == i
        assert parse_suit(sign) == i


@pytest.mark.parametrize(
    "bad",
    ["1S", "11H", "QX", "Q", "", "   ", "QSS", "ZZ", "0C", "1♠", "Q♤♤", "10", "S", "QS QH", "T10"],
)
def test_bad_card_strings_raise_card_error_naming_the_string(bad: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)
    assert str(info.value).startswith(f"bad card {bad!r}")
    assert isinstance(info.value, MustamaijaError)
    assert isinstance(info.value, ValueError)


def test_bad_card_messages_say_what_is_wrong() -> None:
    with pytest.raises(CardError, match=r"bad card '1S': rank must be one of 2 3 4 5 6 7 8 9 T J Q K A \(or 10\)"):
        parse_card("1S")
    with pytest.raises(CardError, match=r"bad card 'QX': suit must be one of S H D C or ♠ ♥ ♦ ♣"):
        parse_card("QX")
    with pytest.raises(CardError, match=r"bad card 'Q': expected rank then suit"):
        parse_card("Q")
    with pytest.raises(CardError, match=r"bad card 12: expected a string"):
        parse_card(12)  # type: ignore[arg-type]


def test_parse_cards_names_the_bad_entry() -> None:
    with pytest.raises(CardError, match="'XX'"):
        parse_cards("9H 4H XX")
    with pytest.raises(CardError, match="'1D'"):
        parse_cards(["9H", "1D"])


def test_bad_suits_raise_naming_the_text() -> None:
    for bad in ("X", "", "SH", "1"):
        with pytest.raises(CardError) as info:
            parse_suit(bad)
        assert repr(bad) in str(info.value)


def test_card_from_indices_checks_its_range() -> None:
    with pytest.raises(CardError, match="rank index 13 and suit index 0"):
        card(13, 0)
    with pytest.raises(CardError, match="rank index 0 and suit index 4"):
        card(0, 4)


# -- card sets ---------------------------------------------------------------


def test_cardset_basics() -> None:
    hand = CardSet.parse("9H 4H AS")
    assert len(hand) == 3
    assert str(hand) == "AS 4H 9H"
    assert hand.names() == ["AS", "4H", "9H"]
    assert hand.unicode() == "A♠ 4♥ 9♥"
    assert str(hand.of_suit(HEARTS)) == "4H 9H"
    assert parse_card("AS") in hand
    assert parse_card("AH") not in hand
    assert "AS" not in hand  # Membership is by card number, not by text.
    assert 60 not in hand
    assert not CardSet()
    assert len(CardSet.full()) == 52
    assert eval(repr(hand), {"CardSet": CardSet}) == hand


def test_cardset_rejects_duplicates_and_bad_input() -> None:
    with pytest.raises(CardError, match="card 9H is given twice"):
        CardSet.parse("9H 4H 9h")
    with pytest.raises(CardError, match="card 9H is given twice"):
        CardSet.parse("9H 9♥")
    with pytest.raises(CardError, match="bad card 52"):
        CardSet([1, 52])
    with pytest.raises(CardError, match="bad card mask"):
        CardSet(1 << 52)
    with pytest.raises(CardError, match="bad card mask"):
        CardSet(-1)
    with pytest.raises(AttributeError):
        CardSet().mask = 3  # type: ignore[misc]


@PROPS
@given(masks, masks)
def test_cardset_operations_agree_with_python_sets(ma: int, mb: int) -> None:
    a, b = CardSet(ma), CardSet(mb)
    sa, sb = set(cards_of(ma)), set(cards_of(mb))
    assert set(a) == sa
    assert list(a) == sorted(sa)
    assert len(a) == len(sa)
    assert bool(a) == bool(sa)
    assert set(a | b) == sa | sb
    assert set(a & b) == sa & sb
    assert set(a - b) == sa - sb
    assert (a <= b) == (sa <= sb)
    assert (a == b) == (sa == sb)
    assert (hash(a) == hash(b)) or sa != sb
    for c in range(52):
        assert (c in a) == (c in sa)
    for s in range(4):
        assert set(a.of_suit(s)) == {c for c in sa if suit_of(c) == s}
    assert CardSet(sorted(sa)) == a
    assert CardSet.parse(str(a)) == a
    assert CardSet.parse(a.unicode()) == a
    assert mask_of(a) == ma


@PROPS
@given(st.lists(cards, max_size=20))
def test_cardset_from_iterable_is_the_set_of_its_cards(cs: list[int]) -> None:
    assert set(CardSet(cs)) == set(cs)
    assert cards_of(mask_of(cs)) == sorted(set(cs))
