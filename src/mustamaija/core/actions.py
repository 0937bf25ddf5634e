"""What the compound actions of every game share: a seat and a set of cards, and reading them from records.

>>> @dataclass(frozen=True, slots=True)
... class Discard(CardsAction, key="discard", verb="discards"):
...     "A seat discards cards."
>>> d = Discard(1, 0b1011)
>>> d, str(d), d.to_json()
(Discard(seat=1, cards=11), 'seat 1 discards 2S 3S 5S', {'seat': 1, 'discard': ['2S', '3S', '5S']})
>>> d.words()
'discard 2♠ 3♠ 5♠'
>>> read_action_head({"seat": 1, "discard": []}, 3, ("discard", "keep"))
(1, 'discard')
>>> read_action_head({"seat": 4, "discard": []}, 3, ("discard", "keep"))
Traceback (most recent call last):
...
mustamaija.core.errors.FormatError: seat 4 does not exist with 3 players
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from mustamaija.core.cards import card_name, card_symbol, cards_of, sort_hand
from mustamaija.core.errors import FormatError
from mustamaija.core.records import card_at

__all__ = ["CardsAction", "read_action_head", "read_card_list"]


@dataclass(frozen=True, slots=True)
class CardsAction:
    """A compound action made of a seat and a set of cards (a lead, a pass…); records list the cards in rising order."""

    seat: int
    """The seat that acts."""
    cards: int
    """The cards, as a mask."""

    KEY: ClassVar[str] = "cards"
    """The action's key in records (``"lead"``, ``"pass"``): the class keyword ``key``."""
    VERB: ClassVar[str] = "plays"
    """The verb of its text (``"leads"``, ``"passes"``): the class keyword ``verb``."""

    def __init_subclass__(cls, *, key: str | None = None, verb: str | None = None, **kwargs: Any) -> None:
        # Not the bare ``super()``: ``dataclass(slots=True)`` replaces this class, and the bare form would name the old one.
        super(CardsAction, cls).__init_subclass__(**kwargs)
        if key is not None:  # ``dataclass(slots=True)`` builds the class again, without the keywords.
            cls.KEY = key
        if verb is not None:
            cls.VERB = verb

    def to_json(self) -> dict[str, Any]:
        """Return the record form ``{"seat": s, KEY: [cards]}``, cards suit by suit in rising rank."""
        return {"seat": self.seat, self.KEY: [card_name(c) for c in cards_of(self.cards)]}

    def __str__(self) -> str:
        return f"seat {self.seat} {self.VERB} {' '.join(card_name(c) for c in cards_of(self.cards))}"

    def words(self) -> str:
        """Return the action as its seat's player would say it, cards in the people's order (``"lead 4♥ 9♥"``)."""
        return f"{self.KEY} {' '.join(card_symbol(c) for c in sort_hand(self.cards))}"


def read_card_list(value: object, key: str, what: str, verb: str) -> int:
    """Return the mask of a record's list of card strings (``key`` names it; a card twice is an error)."""
    if not isinstance(value, list):
        raise FormatError(f"'{key}' must be a list of cards, not {value!r}")
    mask = 0
    for text in value:
        c = card_at(text, what)
        if mask >> c & 1:
            raise FormatError(f"card {card_name(c)} is {verb} twice")
        mask |= 1 << c
    return mask


def read_action_head(obj: object, players: int | None, kinds: Sequence[str]) -> tuple[int, str]:
    """Return the seat and the kind of a record action, checking its shape (one of ``kinds`` exactly)."""
    if not isinstance(obj, Mapping):
        raise FormatError(f"an action must be a JSON object, not {type(obj).__name__}")
    seat = obj.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise FormatError(f"an action needs an integer 'seat', got {seat!r}")
    if players is not None and not 0 <= seat < players:
        raise FormatError(f"seat {seat} does not exist with {players} players")
    found = [k for k in kinds if k in obj]
    if len(found) != 1:
        names = ", ".join(f"'{k}'" for k in kinds[:-1]) + f" or '{kinds[-1]}'"
        raise FormatError(f"an action needs exactly one of {names}" + (f", not {' and '.join(found)}" if found else ""))
    return seat, found[0]
