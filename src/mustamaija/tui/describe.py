"""Words for cards in the terminal game, for every game: card lists with suit signs, hands sorted for people.

>>> from mustamaija.core.cards import mask_of
>>> cards_text(mask_of([20, 15]))
'4♥ 9♥'
>>> suit_word(2)
'diamonds'
"""

from __future__ import annotations

from typing import Final

from mustamaija.core.cards import card_symbol, cards_of

__all__ = ["SUIT_WORDS", "cards_text", "sort_hand", "suit_word"]

SUIT_WORDS: Final = ("spades", "hearts", "diamonds", "clubs")


def suit_word(suit: int) -> str:
    """Return a suit's word."""
    return SUIT_WORDS[suit]


def cards_text(mask: int) -> str:
    """Render a card mask with suit signs, in index order (``-`` for none)."""
    return " ".join(card_symbol(c) for c in cards_of(mask)) or "-"


def sort_hand(mask: int, trump: int = -1) -> list[int]:
    """Return a hand sorted for people: by suit (♠ ♥ ♣ ♦, black and red alternating), trumps last, low to high.

    >>> from mustamaija.core.cards import mask_of
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
