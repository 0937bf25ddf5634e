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

from mustamaija.core.actions import CardsAction, read_action_head, read_card_list
from mustamaija.core.cards import card_name, card_symbol
from mustamaija.core.records import card_at

__all__ = ["NUM_STEPS", "PASS_ENTRY", "PLAY_ENTRY", "Action", "Pass", "Play", "action_from_json", "step_name"]

NUM_STEPS: Final = 52

PASS_ENTRY: Final = 0
PLAY_ENTRY: Final = 1
"""The kinds of a state's log entries (core/history.py): ``(PLAY_ENTRY, seat, card)`` is ``Play(seat, card)``."""


@dataclass(frozen=True, slots=True)
class Pass(CardsAction, key="pass", verb="passes"):
    """The seat passes the cards of ``cards`` (a mask) face down to its left (B3)."""


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

    def words(self) -> str:
        """Return the play as its player would say it (``"play Q♠"``)."""
        return f"play {card_symbol(self.card)}"


Action = Pass | Play
"""A compound action, as in records."""


def action_from_json(obj: object, players: int | None = None) -> Action:
    """Parse one record action; a malformed one raises :class:`FormatError` naming the fault.

    Only the shape is checked here; legality is the state's business. Keys
    other than ``seat`` and the action key are ignored, so records may carry comments.

    >>> action_from_json({"seat": 0, "pass": ["QS", "QS"]})
    Traceback (most recent call last):
    ...
    mustamaija.core.errors.FormatError: card QS is passed twice
    """
    seat, kind = read_action_head(obj, players, ("pass", "play"))
    assert isinstance(obj, Mapping)
    if kind == "play":
        return Play(seat, card_at(obj["play"], "the played card"))
    return Pass(seat, read_card_list(obj["pass"], "pass", "a passed card", "passed"))


def step_name(step: int) -> str:
    """Render a step: the name of its card."""
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < NUM_STEPS:
        raise ValueError(f"no step has the number {step!r}: steps are 0 to 51")
    return card_name(step)
