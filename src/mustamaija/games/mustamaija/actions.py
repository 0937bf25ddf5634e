"""Actions: the compound actions of records and people, and the card-at-a-time step space.

Compound actions are frozen values, one per record action:

>>> from mustamaija.core.cards import parse_cards, mask_of
>>> a = Lead(1, mask_of(parse_cards("9H 4H")))
>>> a.to_json()
{'seat': 1, 'lead': ['4H', '9H']}
>>> action_from_json({"seat": 2, "beat": {"9H": "JH"}})
Beat(seat=2, pairs=((20, 22),))
>>> str(action_from_json({"seat": 2, "beat": {"9H": "JH", "4H": "8H"}}))
'seat 2 beats 4H with 8H, 9H with JH'

Steps are the fixed integer action space used by search and reinforcement
learning (see docs/architecture.md):

====================  ===========================================================
step                  meaning
====================  ===========================================================
``0``-``51``          a card: add it to the lead, or beat the current led card with it
``52`` (``STOP``)     end the lead; in a defence, leave the current led card unbeaten
``53``-``56``         declare a marriage in suit ``S H D C`` (``53`` is never legal)
====================  ===========================================================

>>> NUM_STEPS, step_name(STOP), step_name(DECLARE + 1), parse_step("jh")
(57, 'stop', 'declare H', 22)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from mustamaija.core.actions import CardsAction, read_action_head, read_card_list
from mustamaija.core.cards import SUIT_SYMBOLS, SUITS, card_name, card_symbol, mask_of, parse_card, parse_suit
from mustamaija.core.errors import CardError, FormatError
from mustamaija.core.records import card_at

__all__ = [
    "BEAT_ENTRY",
    "DECLARE",
    "DECLARE_ENTRY",
    "LEAD_ENTRY",
    "NUM_STEPS",
    "STOP",
    "Action",
    "Beat",
    "Declare",
    "Lead",
    "action_from_json",
    "parse_step",
    "step_name",
]

STOP: Final = 52
DECLARE: Final = 53
NUM_STEPS: Final = 57

LEAD_ENTRY: Final = 0
BEAT_ENTRY: Final = 1
DECLARE_ENTRY: Final = 2
"""The kinds of a state's log entries (core/history.py): ``(LEAD_ENTRY, seat, cards)`` is ``Lead(seat, cards)``."""


@dataclass(frozen=True, slots=True)
class Lead(CardsAction, key="lead", verb="leads"):
    """The attacker leads the cards of ``cards`` (a mask), all of one suit (M10)."""


@dataclass(frozen=True, slots=True)
class Beat:
    """The defender's whole defence: ``pairs`` of (led card, beating card), sorted by led card.

    Led cards that are in no pair are picked up (M13, M14).
    """

    seat: int
    pairs: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, seat: int, mapping: Mapping[int, int]) -> Beat:
        """Build a defence from a mapping of led card to beating card."""
        return cls(seat, tuple(sorted(mapping.items())))

    @property
    def beaten(self) -> int:
        """Return the mask of the led cards that are beaten."""
        return mask_of(led for led, _ in self.pairs)

    @property
    def beaters(self) -> int:
        """Return the mask of the beating cards."""
        return mask_of(b for _, b in self.pairs)

    def to_json(self) -> dict[str, Any]:
        """Return the record form ``{"seat": s, "beat": {led: beater}}``."""
        return {"seat": self.seat, "beat": {card_name(a): card_name(b) for a, b in self.pairs}}

    def __str__(self) -> str:
        if not self.pairs:
            return f"seat {self.seat} beats nothing"
        return f"seat {self.seat} beats " + ", ".join(f"{card_name(a)} with {card_name(b)}" for a, b in self.pairs)

    def words(self) -> str:
        """Return the defence as its player would say it (``"beat 9♥ with J♥"``, ``"pick up everything"``)."""
        if not self.pairs:
            return "pick up everything"
        return "beat " + ", ".join(f"{card_symbol(a)} with {card_symbol(b)}" for a, b in self.pairs)


@dataclass(frozen=True, slots=True)
class Declare:
    """The seat declares the marriage (king and queen) of ``suit``, which becomes trumps (V3, V4)."""

    seat: int
    suit: int

    def to_json(self) -> dict[str, Any]:
        """Return the record form ``{"seat": s, "declare": suit}``."""
        return {"seat": self.seat, "declare": SUITS[self.suit]}

    def __str__(self) -> str:
        return f"seat {self.seat} declares the marriage in {SUITS[self.suit]}"

    def words(self) -> str:
        """Return the declaration as its player would say it (``"declare the marriage in ♥"``)."""
        return f"declare the marriage in {SUIT_SYMBOLS[self.suit]}"


Action = Lead | Beat | Declare
"""A compound action, as in records."""


def action_from_json(obj: object, players: int | None = None) -> Action:
    """Parse one record action; a malformed one raises :class:`FormatError` naming the fault.

    Only the shape is checked here; whether the action is legal is the state's business.
    Keys other than ``seat`` and the one action key are ignored, so records may carry comments.
    """
    seat, kind = read_action_head(obj, players, ("lead", "beat", "declare"))
    assert isinstance(obj, Mapping)
    value = obj[kind]
    if kind == "lead":
        return Lead(seat, read_card_list(value, "lead", "a led card", "led"))
    if kind == "beat":
        if not isinstance(value, Mapping):
            raise FormatError(f"'beat' must be an object of led card to beating card, not {value!r}")
        pairs: dict[int, int] = {}
        for led_text, beater_text in value.items():
            led = card_at(led_text, "a beaten card")
            if led in pairs:
                raise FormatError(f"led card {card_name(led)} is beaten twice")
            pairs[led] = card_at(beater_text, f"the card beating {card_name(led)}")
        return Beat.of(seat, pairs)
    if not isinstance(value, str):
        raise FormatError(f"'declare' must be a suit letter, not {value!r}")
    try:
        return Declare(seat, parse_suit(value))
    except CardError as e:
        raise FormatError(str(e)) from None


def step_name(step: int) -> str:
    """Render a step: a card name, ``"stop"`` or ``"declare H"``."""
    if 0 <= step < 52:
        return card_name(step)
    if step == STOP:
        return "stop"
    if DECLARE <= step < NUM_STEPS:
        return f"declare {SUITS[step - DECLARE]}"
    raise ValueError(f"no step has the number {step}")


def parse_step(text: str) -> int:
    """Parse a step rendered by :func:`step_name` (or a plain card) into its number."""
    s = text.strip().lower()
    if s == "stop":
        return STOP
    if s.startswith("declare "):
        try:
            return DECLARE + parse_suit(s[8:])
        except CardError as e:
            raise FormatError(f"bad step {text!r}: {e}") from None
    try:
        return parse_card(s)
    except CardError as e:
        raise FormatError(f"bad step {text!r}: expected a card, 'stop' or 'declare S'") from e
