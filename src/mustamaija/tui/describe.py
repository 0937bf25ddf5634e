"""Words for cards in the terminal game, for every game: card lists with suit signs, hands sorted for people.

>>> from mustamaija.core.cards import mask_of
>>> cards_text(mask_of([20, 15]))
'4♥ 9♥'
>>> suit_word(2)
'diamonds'
"""

from __future__ import annotations

from typing import Final

from mustamaija.core.cards import cards_text, sort_hand

__all__ = ["SUIT_WORDS", "cards_text", "sort_hand", "suit_word"]

SUIT_WORDS: Final = ("spades", "hearts", "diamonds", "clubs")


def suit_word(suit: int) -> str:
    """Return a suit's word."""
    return SUIT_WORDS[suit]
