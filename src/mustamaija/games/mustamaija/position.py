"""Endgame positions (``mustamaija-position/1``): load, dump and validate, with messages that name the fault.

A position is a talon-empty endgame with every hand known, the solver's
input (docs/formats.md): the rule set, the trump suit (a letter, or null for no
trumps), the hands seat by seat and the attacker about to lead. Seats with an
empty hand are out.

>>> p = Position.loads('{"format": "mustamaija-position/1", "rules": {}, "trump_suit": "C",'
...                    ' "hands": [["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], "attacker": 0}')
>>> p.trump_suit, p.attacker, [CardSet(h).names() for h in p.hands]
(3, 0, [['QS', '5H', '6H', '3C', 'AC'], ['KH', '2D']])
>>> s = p.to_state()
>>> s.phase_name, s.to_act, s.limit
('lead', 0, 2)
>>> Position.from_json({"hands": [["AC"], ["2D"]], "attacker": 0})
Traceback (most recent call last):
...
mustamaija.core.errors.FormatError: Q♠ (QS) is in no hand: she never leaves play (M2, M19), so some seat must hold her
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from mustamaija.core.cards import QS, SPADES, SUITS, CardSet, card_name, parse_suit
from mustamaija.core.errors import CardError, FormatError, RulesError
from mustamaija.core.records import JsonDocument, card_at, read_int
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.state import LEAD, State

__all__ = ["POSITION_FORMAT", "Position"]

POSITION_FORMAT: Final = "mustamaija-position/1"
_KNOWN: Final = ("format", "rules", "trump_suit", "hands", "attacker")


def _trump_of(value: object, rules: Rules) -> int | None:
    """Return the trump suit index of the ``trump_suit`` value (``None``: no trumps), checked against the rules."""
    if value is None:
        if rules.trump == "fixed":
            raise FormatError(
                f"'trump_suit' is null, but under 'trump': 'fixed' the rules make {rules.trump_suit} trumps"
            )
        return None
    if not isinstance(value, str):
        raise FormatError(f"'trump_suit' must be a suit letter (S, H, D or C) or null, not {value!r}")
    try:
        suit = parse_suit(value)
    except CardError:
        raise FormatError(f"bad 'trump_suit' {value!r}: expected one of S, H, D, C or null") from None
    if len(value.strip()) != 1:
        raise FormatError(f"bad 'trump_suit' {value!r}: expected one of S, H, D, C or null")
    if rules.trump == "none":
        raise FormatError(f"'trump_suit' is {SUITS[suit]}, but the rules say there are no trumps ('trump': 'none')")
    if rules.trump == "fixed" and suit != parse_suit(rules.trump_suit):
        raise FormatError(
            f"'trump_suit' is {SUITS[suit]}, but under 'trump': 'fixed' the rules make {rules.trump_suit} trumps"
        )
    if suit == SPADES and rules.trump == "marriage":
        raise FormatError("'trump_suit' is S, but a marriage can never make spades trumps (V3)")
    # Under 'turned' rules spades can be trumps even when spades_can_be_trump is false: M7 keeps the last
    # spade turned when only spades are left in the talon.
    return suit


@dataclass(frozen=True)
class Position(JsonDocument):
    """A talon-empty endgame: rules, trump suit (index or ``None``), hands as card masks, and the attacker to lead.

    Build one with :meth:`from_json` (or :meth:`load`/:meth:`loads`), which
    validate, or :meth:`from_state`. ``extra`` keeps optional keys, which
    survive a load and dump.
    """

    hands: tuple[int, ...]
    attacker: int
    trump_suit: int | None = None
    rules: Rules = field(default_factory=Rules)
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        self.validate()

    # -- checking -----------------------------------------------------------------

    def validate(self) -> None:
        """Raise :class:`FormatError` naming the fault unless this is a playable endgame position."""
        n = len(self.hands)
        if n < 2:
            raise FormatError(f"'hands' must list at least 2 seats, got {n}")
        if n > self.rules.max_players:
            raise FormatError(
                f"'hands' lists {n} seats, but these rules allow at most {self.rules.max_players} players "
                f"(hand size {self.rules.hand_size}, V1)"
            )
        seen = 0
        for seat, h in enumerate(self.hands):
            if isinstance(h, bool) or not isinstance(h, int) or not 0 <= h < 1 << 52:
                raise FormatError(f"hand of seat {seat} must be a card mask, not {h!r}")
            if h & seen:
                c = (h & seen & -(h & seen)).bit_length() - 1
                raise FormatError(f"card {card_name(c)} is in more than one hand")
            seen |= h
        if not seen >> QS & 1:
            raise FormatError("Q♠ (QS) is in no hand: she never leaves play (M2, M19), so some seat must hold her")
        holders = sum(1 for h in self.hands if h)
        if holders < 2:
            raise FormatError(
                f"only {holders} seat{'s' if holders != 1 else ''} hold{'s' if holders == 1 else ''} cards: "
                "the deal is already over (M19); a position needs at least 2 seats with cards"
            )
        a = self.attacker
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < n:
            raise FormatError(f"'attacker' must be a seat from 0 to {n - 1}, not {a!r}")
        if not self.hands[a]:
            raise FormatError(f"the attacker, seat {a}, holds no cards: a seat with an empty hand is out (M18)")
        if self.trump_suit is not None:
            _trump_of(SUITS[self.trump_suit], self.rules)
        elif self.rules.trump == "fixed":
            _trump_of(None, self.rules)

    # -- reading and writing ---------------------------------------------------------

    @classmethod
    def from_json(cls, obj: object) -> Position:
        """Build a position from its JSON object, checking every key; errors name the fault."""
        if not isinstance(obj, Mapping):
            raise FormatError(f"a position must be a JSON object, not {type(obj).__name__}")
        fmt = obj.get("format", POSITION_FORMAT)
        if fmt != POSITION_FORMAT:
            raise FormatError(f"unknown format {fmt!r}: expected {POSITION_FORMAT!r}")
        try:
            rules = Rules.from_json(obj.get("rules"))
        except RulesError as e:
            raise FormatError(f"rules: {e}") from None
        if "hands" not in obj:
            raise FormatError("a position needs 'hands': one list of cards per seat")
        if "attacker" not in obj:
            raise FormatError("a position needs 'attacker': the seat about to lead")
        hands_obj = obj["hands"]
        if not isinstance(hands_obj, list):
            raise FormatError(f"'hands' must be a list of card lists, one per seat, not {hands_obj!r}")
        if len(hands_obj) < 2:
            raise FormatError(f"'hands' must list at least 2 seats, got {len(hands_obj)}")
        if len(hands_obj) > rules.max_players:
            raise FormatError(
                f"'hands' lists {len(hands_obj)} seats, but these rules allow at most {rules.max_players} players "
                f"(hand size {rules.hand_size}, V1)"
            )
        hands = []
        where: dict[int, int] = {}
        for seat, hand_obj in enumerate(hands_obj):
            if not isinstance(hand_obj, list):
                raise FormatError(f"hands[{seat}] must be a list of card strings, not {hand_obj!r}")
            m = 0
            for i, text in enumerate(hand_obj):
                c = card_at(text, f"hands[{seat}][{i}]")
                if c in where:
                    other = where[c]
                    place = "twice in that hand" if other == seat else f"in the hands of seats {other} and {seat}"
                    raise FormatError(f"card {card_name(c)} appears {place}")
                where[c] = seat
                m |= 1 << c
            hands.append(m)
        attacker = read_int(obj["attacker"], "'attacker'")
        trump = _trump_of(obj["trump_suit"], rules) if "trump_suit" in obj else rules.fixed_trump
        extra = {k: v for k, v in obj.items() if k not in _KNOWN}
        return cls(tuple(hands), attacker, trump, rules, extra)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object (docs/formats.md keys first, then the extra keys); hands list cards suit by suit, rising."""
        return {
            "format": POSITION_FORMAT,
            "rules": self.rules.format_json(),
            "trump_suit": None if self.trump_suit is None else SUITS[self.trump_suit],
            "hands": [CardSet(h).names() for h in self.hands],
            "attacker": self.attacker,
            **{k: v for k, v in self.extra.items() if k not in _KNOWN},
        }

    def dumps(self, indent: int | None = None) -> str:
        """Return the position as JSON text."""
        return json.dumps(self.to_json(), indent=indent, ensure_ascii=False) + ("\n" if indent is None else "")

    def dump(self, path: str | os.PathLike[str]) -> None:
        """Write the position to a file."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.dumps(indent=2) + "\n")

    # -- states ----------------------------------------------------------------------

    def to_state(self) -> State:
        """Return the engine's state of this position (``State.from_position``), the attacker to lead."""
        return State.from_position([CardSet(h) for h in self.hands], self.attacker, self.trump_suit, self.rules)

    @classmethod
    def from_state(cls, state: State) -> Position:
        """Return the position of a state whose talon is empty and whose attacker is about to lead.

        Raises :class:`FormatError` saying why otherwise. Under marriage
        rules, trumps not yet declared give a null trump suit.
        """
        if state.is_over:
            why = "stopped unfinished (M21)" if state.stopped else f"over: seat {state.loser} lost"
            raise FormatError(f"the deal is {why}, so there is no position to solve")
        if state.talon_size:
            raise FormatError(f"the talon still holds {state.talon_size} cards: a position needs an empty talon")
        if state.phase != LEAD:
            raise FormatError(f"seat {state.defender} is to defend: a position needs the attacker about to lead")
        if state.in_progress:
            raise FormatError(f"seat {state.attacker} is part way through a lead: a position starts between actions")
        trump = state.trump_suit
        return cls(tuple(state.hands), state.attacker, trump, state.rules)
