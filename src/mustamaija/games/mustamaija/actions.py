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

from mustamaija.core.cards import SUITS, card_name, cards_of, parse_card, parse_suit
from mustamaija.core.errors import CardError, FormatError

__all__ = [
    "DECLARE",
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


def _names(mask: int) -> list[str]:
    # Cards of one lead share a suit, so index order is rank order.
    return [card_name(c) for c in cards_of(mask)]


@dataclass(frozen=True, slots=True)
class Lead:
    """The attacker leads the cards of ``cards`` (a mask), all of one suit (M10)."""

    seat: int
    cards: int

    def to_json(self) -> dict[str, Any]:
        """Return the record form ``{"seat": s, "lead": [cards]}``, cards in rising rank."""
        return {"seat": self.seat, "lead": _names(self.cards)}

    def __str__(self) -> str:
        return f"seat {self.seat} leads {' '.join(_names(self.cards))}"


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
        m = 0
        for led, _ in self.pairs:
            m |= 1 << led
        return m

    @property
    def beaters(self) -> int:
        """Return the mask of the beating cards."""
        m = 0
        for _, b in self.pairs:
            m |= 1 << b
        return m

    def to_json(self) -> dict[str, Any]:
        """Return the record form ``{"seat": s, "beat": {led: beater}}``."""
        return {"seat": self.seat, "beat": {card_name(a): card_name(b) for a, b in self.pairs}}

    def __str__(self) -> str:
        if not self.pairs:
            return f"seat {self.seat} beats nothing"
        return f"seat {self.seat} beats " + ", ".join(f"{card_name(a)} with {card_name(b)}" for a, b in self.pairs)


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


Action = Lead | Beat | Declare
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

    Only the shape is checked here; whether the action is legal is the state's business.
    Keys other than ``seat`` and the one action key are ignored, so records may carry comments.
    """
    if not isinstance(obj, Mapping):
        raise FormatError(f"an action must be a JSON object, not {type(obj).__name__}")
    seat = obj.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise FormatError(f"an action needs an integer 'seat', got {seat!r}")
    if players is not None and not 0 <= seat < players:
        raise FormatError(f"seat {seat} does not exist with {players} players")
    kinds = [k for k in ("lead", "beat", "declare") if k in obj]
    if len(kinds) != 1:
        raise FormatError("an action needs exactly one of 'lead', 'beat' or 'declare'"
                          + (f", not {' and '.join(kinds)}" if kinds else ""))
    kind = kinds[0]
    value = obj[kind]
    if kind == "lead":
        if not isinstance(value, list):
            raise FormatError(f"'lead' must be a list of cards, not {value!r}")
        mask = 0
        for text in value:
            c = _card(text, "a led card")
            if mask >> c & 1:
                raise FormatError(f"card {card_name(c)} is led twice")
            mask |= 1 << c
        return Lead(seat, mask)
    if kind == "beat":
        if not isinstance(value, Mapping):
            raise FormatError(f"'beat' must be an object of led card to beating card, not {value!r}")
        pairs: dict[int, int] = {}
        for led_text, beater_text in value.items():
            led = _card(led_text, "a beaten card")
            if led in pairs:
                raise FormatError(f"led card {card_name(led)} is beaten twice")
            pairs[led] = _card(beater_text, f"the card beating {card_name(led)}")
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
