"""Actions: the compound actions of records and people, and the card-at-a-time step space.

>>> from mustamaija.core.cards import parse_cards, mask_of
>>> Pass(1, mask_of(parse_cards("QS AH 2C"))).to_json()
{'seat': 1, 'pass': ['QS', 'AH', '2C']}
>>> action_from_json({"seat": 2, "play": "10h"})
Play(seat=2, card=21)
>>> str(Play(2, 21))
'seat 2 plays TH'

Steps are the fixed integer action space of search and learning: step
``c`` (0-51) is a card. While passing, a step adds a card to the pass,
chosen in rising card order, and the pass is complete once it holds as
many cards as B3 asks; while playing, a step plays a card to the trick.

>>> NUM_STEPS, step_name(10)
(52, 'QS')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from mustamaija.core.cards import card_name, cards_of, parse_card
from mustamaija.core.errors import CardError, FormatError

__all__ = ["NUM_STEPS", "Action", "Pass", "Play", "action_from_json", "step_name"]

NUM_STEPS: Final = 52


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


@dataclass(frozen=True, slots=True)
class Pass:
    """The seat passes the cards of ``cards`` (a mask) face down to its left (B3)."""

    seat: int
    cards: int

    def to_json(self) -> dict[str, Any]:
        """Return the record form ``{"seat": s, "pass": [cards]}``, cards suit by suit in rising rank."""
        return {"seat": self.seat, "pass": _names(self.cards)}

    def __str__(self) -> str:
        return f"seat {self.seat} passes {' '.join(_names(self.cards))}"


@dataclass(frozen=True, slots=True)
class Play:
    """The seat plays ``card`` to the trick (B4)."""

    seat: int
    card: int

    def to_json(self) -> dict[str, Any]:
        """Return the record form ``{"seat": s, "play": card}``."""
        return {"seat": self.seat, "play": card_name(self.card)}

    def __str__(self) -> str:
        return f"seat {self.seat} plays {card_name(self.card)}"


Action = Pass | Play
"""A compound action, as in records."""


def _card(text: object, what: str) -> int:
    if not isinstance(text, str):
        raise FormatError(f"{what} must be a card string such as '9H', not {text!r}")
    try:
        return parse_card(text)
    except CardError as e:
        raise FormatError(f"{what}: {e}") from None


def action_from_json(obj: object, players: int | None = None) -> Action:
    """Parse one record action; a malformed one raises :class:`FormatError` naming the fault.

    Only the shape is checked here; legality is the state's business. Keys
    other than ``seat`` and the action key are ignored, so records may carry comments.

    >>> action_from_json({"seat": 0, "pass": ["QS", "QS"]})
    Traceback (most recent call last):
    ...
    mustamaija.core.errors.FormatError: card QS is passed twice
    """
    if not isinstance(obj, Mapping):
        raise FormatError(f"an action must be a JSON object, not {type(obj).__name__}")
    seat = obj.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise FormatError(f"an action needs an integer 'seat', got {seat!r}")
    if players is not None and not 0 <= seat < players:
        raise FormatError(f"seat {seat} does not exist with {players} players")
    kinds = [k for k in ("pass", "play") if k in obj]
    if len(kinds) != 1:
        raise FormatError("an action needs exactly one of 'pass' or 'play'" + (", not both" if kinds else ""))
    if kinds[0] == "play":
        return Play(seat, _card(obj["play"], "the played card"))
    value = obj["pass"]
    if not isinstance(value, list):
        raise FormatError(f"'pass' must be a list of cards, not {value!r}")
    mask = 0
    for text in value:
        c = _card(text, "a passed card")
        if mask >> c & 1:
            raise FormatError(f"card {card_name(c)} is passed twice")
        mask |= 1 << c
    return Pass(seat, mask)


def step_name(step: int) -> str:
    """Render a step: the name of its card."""
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < NUM_STEPS:
        raise ValueError(f"no step has the number {step!r}: steps are 0 to 51")
    return card_name(step)
