"""The one legality mechanism of Black Maria: step masks and compound checks over plain masks.

:class:`~mustamaija.games.black_maria.state.State` and
:class:`~mustamaija.games.black_maria.view.View` both take their legal steps from
:func:`pass_mask` and :func:`play_mask`, and compound actions are checked by
:func:`check_pass` and :func:`check_play`, so "what is legal?" and "why
not?" cannot disagree. Errors name the B rule, what was tested and the
legal cards.

>>> from mustamaija.core.cards import mask_of, parse_cards, cards_of, card_name
>>> hand = mask_of(parse_cards("3H 9H 7S"))
>>> [card_name(c) for c in cards_of(play_mask(hand, led=-1, broken=False, renege=False))]
['7S']
>>> check_play(1, hand, parse_cards("9H")[0], led=-1, broken=False, renege=False)
Traceback (most recent call last):
...
mustamaija.core.errors.IllegalActionError: B5: hearts are not broken, so seat 1 may not lead 9H while holding another suit (legal: 7S)
"""

from __future__ import annotations

from typing import Final

from mustamaija.core.bits import popcount
from mustamaija.core.cards import HEARTS, SUIT_MASKS, SUITS, card_name, cards_of
from mustamaija.core.errors import IllegalActionError

__all__ = [
    "PENALTY",
    "check_pass",
    "check_play",
    "pass_mask",
    "penalty_of",
    "play_mask",
    "trick_winner",
]

HEARTS_MASK: Final = SUIT_MASKS[HEARTS]
_SUIT_WORDS: Final = ("spade", "heart", "diamond", "club")

PENALTY: Final = tuple(1 if c // 13 == HEARTS else {12: 7, 11: 10, 10: 13}.get(c, 0) for c in range(52))
"""B6: the penalty of each card: a heart 1, A♠ 7, K♠ 10, Q♠ 13, any other card 0."""


def penalty_of(cards: int) -> int:
    """Return the penalty points of a mask of cards (B6).

    >>> from mustamaija.core.cards import mask_of, parse_cards
    >>> penalty_of(mask_of(parse_cards("QS KS AS 2H AH 2C")))
    32
    """
    total = popcount(cards & HEARTS_MASK)
    if cards & 0x1C00:  # Q♠ K♠ A♠ are cards 10, 11, 12.
        total += 13 * (cards >> 10 & 1) + 10 * (cards >> 11 & 1) + 7 * (cards >> 12 & 1)
    return total


def _names(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask)) or "none"


def pass_mask(hand: int, sel: int, count: int) -> int:
    """Return the cards that may be added to a pass being chosen (B3, rising card order).

    ``sel`` holds the cards chosen so far; a card may be added when it is
    above all of them and enough cards remain above it to complete the pass,
    so each set of ``count`` cards has exactly one order of steps.

    >>> from mustamaija.core.cards import mask_of, parse_cards
    >>> [card_name(c) for c in cards_of(pass_mask(mask_of(parse_cards("2S 3S 4S 5S")), 0, 3))]
    ['2S', '3S']
    """
    need = count - popcount(sel)
    if need <= 0:
        return 0
    free = hand & ~sel
    if sel:
        free &= ~((1 << sel.bit_length()) - 1)
    for _ in range(need - 1):  # The highest need-1 cards must stay available to finish the pass.
        if not free:
            break
        free &= ~(1 << (free.bit_length() - 1))
    return free


def play_mask(hand: int, led: int, broken: bool, renege: bool) -> int:
    """Return the cards ``hand`` may play now (B4, B5, B7); ``led`` is the led suit, -1 when leading."""
    if led < 0:
        if broken:
            return hand
        rest = hand & ~HEARTS_MASK
        return rest if rest else hand  # B5: a leader holding only hearts may lead one.
    if renege:
        return hand
    follow = hand & SUIT_MASKS[led]
    return follow if follow else hand


def check_pass(seat: int, hand: int, cards: int, count: int, players: int) -> None:
    """Raise :class:`IllegalActionError` unless ``seat`` may pass ``cards`` from ``hand`` (B3)."""
    n = popcount(cards)
    if n != count:
        raise IllegalActionError(
            "B3", f"with {players} players each seat passes {count} cards, but seat {seat} passes {n}"
        )
    missing = cards & ~hand
    if missing:
        raise IllegalActionError("B3", f"seat {seat} does not hold {_names(missing)} (hand: {_names(hand)})")


def check_play(seat: int, hand: int, card: int, led: int, broken: bool, renege: bool) -> None:
    """Raise :class:`IllegalActionError` unless ``seat`` may play ``card`` from ``hand`` (B4, B5)."""
    if not hand >> card & 1:
        raise IllegalActionError("B4", f"seat {seat} does not hold {card_name(card)} (hand: {_names(hand)})")
    legal = play_mask(hand, led, broken, renege)
    if legal >> card & 1:
        return
    if led < 0:
        raise IllegalActionError(
            "B5",
            f"hearts are not broken, so seat {seat} may not lead {card_name(card)} while holding another suit "
            f"(legal: {_names(legal)})",
        )
    raise IllegalActionError(
        "B4",
        f"seat {seat} must follow suit: {SUITS[led]} was led and {card_name(card)} is not a {_SUIT_WORDS[led]} "
        f"(legal: {_names(legal)})",
    )


def trick_winner(cards: tuple[int, ...], leader: int, players: int) -> int:
    """Return the seat that wins a complete trick: the highest card of the suit led (B4).

    ``cards`` are in the order played, the first by ``leader``.

    >>> from mustamaija.core.cards import parse_cards
    >>> trick_winner(tuple(parse_cards("5D AS 9D 2D")), leader=3, players=4)
    1
    """
    led = cards[0] // 13
    best = 0
    for i in range(1, len(cards)):
        c = cards[i]
        if c // 13 == led and c > cards[best]:
            best = i
    return (leader + best) % players
