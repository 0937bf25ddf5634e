"""Black Maria decks: the cards in play for a player count (B1), shuffled or arranged to deal chosen hands.

The shuffle is the library's own (:func:`mustamaija.core.cards.shuffled_pack`)
with the removed cards taken out, so a seed shuffles the same way in both games.

>>> import random
>>> from mustamaija.core.cards import card_name
>>> len(shuffled_deck(3, random.Random(1))), len(shuffled_deck(6, random.Random(1)))
(51, 48)
>>> deck = deck_for_hands(["AH 2C 3C".split(), "QS 3D 4D".split(), "5H 6H 7H".split()], dealer=2, players=3)
Traceback (most recent call last):
...
mustamaija.core.errors.CardError: B1: with 3 players the hands must hold 17 cards each, got sizes [3, 3, 3]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from mustamaija.core.cards import card_name, card_of, cards_of, shuffled_pack
from mustamaija.core.errors import CardError
from mustamaija.games.black_maria.rules import deal_size, in_play

__all__ = ["deck_for_hands", "shuffled_deck"]


def shuffled_deck(players: int, rng: random.Random) -> tuple[int, ...]:
    """Return the cards in play for ``players`` (B1), shuffled by ``rng``, top card first."""
    return shuffled_pack(rng, in_play(players))


def deck_for_hands(hands: Sequence[Iterable[int | str]], dealer: int = 0, players: int | None = None) -> tuple[int, ...]:
    """Return the deck (top first) whose deal (B2) gives ``hands[s]`` to seat ``s``.

    The hands must hold exactly the cards in play for their number of seats (B1).
    """
    rows = [[card_of(c) for c in h] for h in hands]
    n = players if players is not None else len(rows)
    size = deal_size(n)
    if len(rows) != n or any(len(r) != size for r in rows):
        raise CardError(f"B1: with {n} players the hands must hold {size} cards each, got sizes {[len(r) for r in rows]}")
    seen = 0
    for r in rows:
        for c in r:
            if seen >> c & 1:
                raise CardError(f"card {card_name(c)} is placed twice")
            seen |= 1 << c
    wrong = seen & ~in_play(n)
    if wrong:
        raise CardError(f"B1: {' '.join(card_name(c) for c in cards_of(wrong))} is not in play with {n} players")
    return tuple(rows[(dealer + 1 + i) % n][i // n] for i in range(size * n))
