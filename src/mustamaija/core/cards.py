"""Cards, suits, ranks and card sets shared by every game in the library.

A card is a plain ``int`` from 0 to 51, ``suit * 13 + rank``, so that a set of
cards is a 52-bit integer mask and set operations are single machine
operations.  Suits are numbered ``S H D C`` (0-3) and ranks ``2`` to ``A``
(0-12), so a suit's cards are 13 consecutive bits in rising rank.

>>> parse_card("q♠") == QS
True
>>> card_name(QS), card_symbol(QS)
('QS', 'Q♠')
>>> hand = CardSet.parse("9H 4H AS")
>>> len(hand), str(hand), hand.unicode()
(3, 'AS 4H 9H', 'A♠ 4♥ 9♥')
>>> str(hand.of_suit(HEARTS))
'4H 9H'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Final

from mustamaija.core.draws import shuffle
from mustamaija.core.errors import CardError

__all__ = [
    "ALL_CARDS",
    "CLUBS",
    "DIAMONDS",
    "HEARTS",
    "QS",
    "RANKS",
    "SPADES",
    "SUITS",
    "SUIT_MASKS",
    "SUIT_SYMBOLS",
    "Card",
    "CardSet",
    "CardsLike",
    "card",
    "card_name",
    "card_of",
    "card_symbol",
    "cards_mask",
    "cards_of",
    "cards_text",
    "mask_of",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "rank_of",
    "shuffled_pack",
    "sort_hand",
    "suit_name",
    "suit_of",
]

Card = int
"""A card: ``suit * 13 + rank`` with suit 0-3 (``S H D C``) and rank 0-12 (``2``-``A``)."""

SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3

SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
RANKS: Final = "23456789TJQKA"

_RANK_INDEX: Final = {r: i for i, r in enumerate(RANKS)}
_SUIT_INDEX: Final = {
    **{s: i for i, s in enumerate(SUITS)},
    **{s: i for i, s in enumerate(SUIT_SYMBOLS)},
    # Emoji-presentation variants some keyboards produce.
    "♤": 0, "♡": 1, "♢": 2, "♧": 3,
}

SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in range(4))
ALL_CARDS: Final = (1 << 52) - 1

_NAMES: Final = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))
_SYMBOLS: Final = tuple(
    ("10" if RANKS[c % 13] == "T" else RANKS[c % 13]) + SUIT_SYMBOLS[c // 13] for c in range(52)
)


def card(rank: int, suit: int) -> Card:
    """Return the card of a rank index (0 = ``2`` … 12 = ``A``) and a suit index.

    >>> card_name(card(10, SPADES))
    'QS'
    """
    if not 0 <= rank < 13 or not 0 <= suit < 4:
        raise CardError(f"no card has rank index {rank} and suit index {suit}")
    return suit * 13 + rank


def suit_of(c: Card) -> int:
    """Return the suit index (0-3, ``S H D C``) of a card."""
    return c // 13


def rank_of(c: Card) -> int:
    """Return the rank index (0 = ``2`` … 12 = ``A``) of a card."""
    return c % 13


QS: Final = card(10, SPADES)
"""The queen of spades, Maija."""


def parse_card(text: object) -> Card:
    """Parse a card such as ``"QS"``, ``"10h"`` or ``"Q♠"``.

    >>> card_name(parse_card(" 10♥ "))
    'TH'
    >>> parse_card("1S")
    Traceback (most recent call last):
    ...
    mustamaija.core.errors.CardError: bad card '1S': rank must be one of 2 3 4 5 6 7 8 9 T J Q K A (or 10)
    """
    if not isinstance(text, str):
        raise CardError(f"bad card {text!r}: expected a string such as 'QS'")
    s = text.strip().upper()
    if len(s) < 2:
        raise CardError(f"bad card {text!r}: expected rank then suit, such as 'QS' or '10H'")
    rank_text, suit_text = s[:-1], s[-1]
    if rank_text == "10":
        rank_text = "T"
    rank = _RANK_INDEX.get(rank_text) if len(rank_text) == 1 else None
    if rank is None:
        raise CardError(f"bad card {text!r}: rank must be one of 2 3 4 5 6 7 8 9 T J Q K A (or 10)")
    suit = _SUIT_INDEX.get(suit_text)
    if suit is None:
        raise CardError(f"bad card {text!r}: suit must be one of S H D C or ♠ ♥ ♦ ♣")
    return suit * 13 + rank


def parse_suit(text: object) -> int:
    """Parse a suit letter or sign (``"H"``, ``"♥"``, case-insensitive) into its index.

    >>> parse_suit("d")
    2
    """
    if not isinstance(text, str):
        raise CardError(f"bad suit {text!r}: expected one of S H D C")
    s = _SUIT_INDEX.get(text.strip().upper())
    if s is None:
        raise CardError(f"bad suit {text!r}: expected one of S H D C (or ♠ ♥ ♦ ♣)")
    return s


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces or commas, or an iterable of card strings.

    >>> [card_name(c) for c in parse_cards("9H, 4h  Q♠")]
    ['9H', '4H', 'QS']
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(p) for p in parts]


def card_name(c: Card) -> str:
    """Render a card in the canonical two-character form, such as ``"QS"`` or ``"TH"``."""
    return _NAMES[c]


def card_symbol(c: Card) -> str:
    """Render a card with its suit sign, such as ``"Q♠"`` or ``"10♥"``."""
    return _SYMBOLS[c]


def cards_text(mask: int) -> str:
    """Render a card mask with suit signs, in index order (``-`` for none).

    >>> cards_text(mask_of([20, 15]))
    '4♥ 9♥'
    """
    return " ".join(card_symbol(c) for c in cards_of(mask)) or "-"


def sort_hand(mask: int, trump: int = -1) -> list[int]:
    """Return a hand sorted for people: by suit (♠ ♥ ♣ ♦, black and red alternating), trumps last, low to high.

    >>> [card_symbol(c) for c in sort_hand(mask_of([0, 13, 26, 39, 10]), trump=0)]
    ['2♥', '2♣', '2♦', '2♠', 'Q♠']
    >>> [card_symbol(c) for c in sort_hand(mask_of([0, 13, 26, 39]))]
    ['2♠', '2♥', '2♣', '2♦']
    """
    order = [0, 1, 3, 2]  # ♠ ♥ ♣ ♦
    if trump >= 0:
        order.remove(trump)
        order.append(trump)
    rank = {s: i for i, s in enumerate(order)}
    return sorted(cards_of(mask), key=lambda c: (rank[c // 13], c % 13))


def suit_name(s: int) -> str:
    """Render a suit index as its letter."""
    return SUITS[s]


def mask_of(cards: Iterable[Card]) -> int:
    """Return the bitmask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """Return the cards of a bitmask in rising index order (suit by suit, rising rank)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class CardSet:
    """An immutable set of cards stored as a 52-bit mask.

    >>> a = CardSet.parse("AS KS 2C")
    >>> b = CardSet.parse("KS 3D")
    >>> str(a | b), str(a & b), str(a - b)
    ('KS AS 3D 2C', 'KS', 'AS 2C')
    >>> parse_card("KS") in a, CardSet.parse("2C") <= a
    (True, True)
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card] | int = 0) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= ALL_CARDS:
                raise CardError(f"bad card mask {cards:#x}: must lie within 52 bits")
            m = cards
        else:
            m = 0
            for c in cards:
                if not isinstance(c, int) or not 0 <= c < 52:
                    raise CardError(f"bad card {c!r}: expected an int from 0 to 51")
                m |= 1 << c
        object.__setattr__(self, "mask", m)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """Parse cards separated by spaces or commas; a repeated card is an error."""
        cards = parse_cards(text)
        m = mask_of(cards)
        if m.bit_count() != len(cards):
            dup = next(c for c in cards if cards.count(c) > 1)
            raise CardError(f"card {card_name(dup)} is given twice")
        return cls(m)

    @classmethod
    def full(cls) -> CardSet:
        """Return the whole 52-card pack."""
        return cls(ALL_CARDS)

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, c: object) -> bool:
        return isinstance(c, int) and 0 <= c < 52 and bool(self.mask >> c & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def of_suit(self, suit: int) -> CardSet:
        """Return the cards of one suit."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    def names(self) -> list[str]:
        """Return the canonical names, suit by suit in rising rank."""
        return [_NAMES[c] for c in cards_of(self.mask)]

    def unicode(self) -> str:
        """Render with suit signs, such as ``"4♥ 9♥"``."""
        return " ".join(_SYMBOLS[c] for c in cards_of(self.mask))

    def __str__(self) -> str:
        return " ".join(self.names())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


CardsLike = str | Iterable[int] | Iterable[str] | CardSet
"""Cards as a string (``"9H 4H"``), card ints, card strings or a :class:`CardSet`."""


def cards_mask(cards: CardsLike | int) -> int:
    """Return the mask of cards given in any of the usual forms, checking each card once.

    Accepts a mask, a :class:`CardSet`, a string such as ``"9H 4H"`` or an
    iterable of card ints or names; a repeated or unknown card is a :class:`CardError`.

    >>> cards_mask("9H 4h") == cards_mask([parse_card("4H"), "9H"]) == mask_of(parse_cards("4H 9H"))
    True
    >>> cards_mask(["QS", "Q♠"])
    Traceback (most recent call last):
    ...
    mustamaija.core.errors.CardError: card QS is given twice
    """
    if isinstance(cards, CardSet):
        return cards.mask
    if isinstance(cards, int):
        if isinstance(cards, bool) or not 0 <= cards <= ALL_CARDS:
            raise CardError(f"bad card mask {cards!r}: must lie within 52 bits")
        return cards
    items = parse_cards(cards) if isinstance(cards, str) else [
        c if isinstance(c, int) and not isinstance(c, bool) else parse_card(c)
        for c in cards
    ]
    m = 0
    for c in items:
        if not 0 <= c < 52:
            raise CardError(f"bad card {c!r}: expected an int from 0 to 51")
        if m >> c & 1:
            raise CardError(f"card {_NAMES[c]} is given twice")
        m |= 1 << c
    return m


def shuffled_pack(rng: random.Random, keep: int = ALL_CARDS) -> tuple[Card, ...]:
    """Return the 52 cards shuffled by ``rng``, top card first: every game's shuffle, so a seed deals alike.

    With ``keep`` (a card mask), only its cards, in the same order: a game
    that plays with fewer cards shuffles the whole pack and takes the others
    out, so a seed shuffles alike in every game.

    >>> import random
    >>> pack = shuffled_pack(random.Random(4))
    >>> shuffled_pack(random.Random(4), 0b1111) == tuple(c for c in pack if c < 4)
    True
    """
    deck = list(range(52))
    shuffle(rng, deck)
    if keep == ALL_CARDS:
        return tuple(deck)
    return tuple([c for c in deck if keep >> c & 1])


def card_of(card: Card | str) -> Card:
    """Return a card given as an int or as its name."""
    return card if isinstance(card, int) else parse_card(card)
