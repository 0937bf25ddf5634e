"""Decks: shuffled from an explicit generator, or arranged so that a deal gives chosen hands.

>>> from mustamaija.core.cards import card_name
>>> deck = deck_for_hands([["AH", "2C"], ["QS", "3D"]], talon=["7C"], dealer=1)
>>> [card_name(c) for c in deck[:5]]
['AH', 'QS', '2C', '3D', '7C']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from mustamaija.core.cards import card_name, card_of, shuffled_pack
from mustamaija.core.errors import CardError

__all__ = ["deck_for_hands", "shuffled_deck"]


def shuffled_deck(rng: random.Random) -> tuple[int, ...]:
    """Return a shuffled 52-card deck, top card first, drawn from an explicit generator."""
    return shuffled_pack(rng)


def deck_for_hands(hands: Sequence[Iterable[int | str]], talon: Iterable[int | str] = (),
                   dealer: int = 0) -> tuple[int, ...]:
    """Return a deck whose deal gives ``hands[s]`` to seat ``s``, then ``talon`` on top of the talon.

    Every hand must have the same size (the hand size of the rules you deal
    with). The cards not named follow at the bottom of the talon in rising
    order. Remember that turning the trump rearranges the talon (M6-M8).
    """
    rows = [[card_of(c) for c in h] for h in hands]
    players = len(rows)
    size = len(rows[0]) if rows else 0
    if any(len(r) != size for r in rows):
        raise CardError(f"every hand must have the same size, got sizes {[len(r) for r in rows]}")
    top = [card_of(c) for c in talon]
    deck: list[int] = []
    for i in range(size * players):
        seat = (dealer + 1 + i) % players
        deck.append(rows[seat][i // players])
    deck.extend(top)
    seen: set[int] = set()
    for c in deck:
        if c in seen:
            raise CardError(f"card {card_name(c)} is placed twice")
        seen.add(c)
    deck.extend(c for c in range(52) if c not in seen)
    return tuple(deck)
