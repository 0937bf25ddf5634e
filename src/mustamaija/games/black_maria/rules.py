"""The Black Maria rule set: the docs/formats.md keys, validated, and the facts that follow from the player count.

>>> r = Rules.from_json({"target_score": 100, "allow_renege": True})
>>> r.target_score, r.hands, r.allow_renege
(100, None, True)
>>> from mustamaija.core.cards import card_name, cards_of
>>> pass_count(4), deal_size(5), [card_name(c) for c in cards_of(removed_cards(5))]
(3, 10, ['2S', '2C'])
>>> Rules.from_json({"target": 50})
Traceback (most recent call last):
...
mustamaija.core.errors.RulesError: unknown rule key 'target' (known keys: allow_renege, hands, target_score)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from mustamaija.core.cards import ALL_CARDS, parse_cards
from mustamaija.core.errors import RulesError
from mustamaija.core.rules import RuleSet

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Rules",
    "check_players",
    "deal_size",
    "in_play",
    "pass_count",
    "removed_cards",
]

MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 7

# B1: the cards taken out so that the deal comes out even. With 7 players the
# third card is 2♦, a reading of a source whose suit sign is lost: it keeps
# every heart in play, so the penalties always total 43.
_REMOVED: Final = {
    3: "2S",
    4: "",
    5: "2S 2C",
    6: "2S 2H 2D 2C",
    7: "2S 2C 2D",
}
_REMOVED_MASKS: Final = {n: sum(1 << c for c in parse_cards(text)) for n, text in _REMOVED.items()}
# B3: how many cards each seat passes to its left.
_PASS: Final = {3: 4, 4: 3, 5: 3, 6: 2, 7: 2}


def check_players(players: object) -> int:
    """Return ``players`` if Black Maria can be played by that many (B1: 3 to 7), else raise :class:`RulesError`."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise RulesError(f"bad player count {players!r}: expected an integer")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RulesError(f"B1: Black Maria is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    return players


def removed_cards(players: int) -> int:
    """Return the mask of the cards taken out of the pack for ``players`` players (B1)."""
    return _REMOVED_MASKS[check_players(players)]


def in_play(players: int) -> int:
    """Return the mask of the cards dealt for ``players`` players (B1)."""
    return ALL_CARDS & ~removed_cards(players)


def deal_size(players: int) -> int:
    """Return the number of cards each seat is dealt (B1, B2)."""
    return in_play(players).bit_count() // players


def pass_count(players: int) -> int:
    """Return the number of cards each seat passes to its left (B3)."""
    return _PASS[check_players(players)]


class Phase(IntEnum):
    """The phase of a hand.

    PASS: seats choose the cards they pass to the left, one after another (B3); PLAY: seats play
    to tricks (B4, B5); OVER: every trick has been played and the points are scored (B6, B7).
    """

    PASS = 0
    PLAY = 1
    OVER = 2


# Plain ints in the state: exact ints compare fastest, and the compiled build inlines literal constants.
PASS: Final = 0
PLAY: Final = 1
OVER: Final = 2
assert (PASS, PLAY, OVER) == (Phase.PASS, Phase.PLAY, Phase.OVER)
PHASES: Final = tuple(p.name.lower() for p in Phase)
"""The phase names of ``replay --json`` and the views, by phase number."""


@dataclass(frozen=True, slots=True)
class Rules(RuleSet):
    """A Black Maria rule set: the docs/formats.md keys; the defaults are the strict game to 50.

    ``target_score`` ends a series once a seat's total reaches it (null: no
    target); ``hands`` ends it after that many hands (null: no limit);
    ``allow_renege`` is the "table" mode of B7, where a seat may fail to
    follow suit and is charged 10 points a renege at the end of the hand.
    """

    target_score: int | None = 50
    """B8: a series ends once a seat's total reaches this many points (``None``: no target)."""
    hands: int | None = None
    """B8: a series ends after this many hands (``None``: no limit)."""
    allow_renege: bool = False
    """B7: the table mode, where a seat may fail to follow suit and pays 10 points a renege."""

    def __post_init__(self) -> None:
        for key in ("target_score", "hands"):
            value = getattr(self, key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise RulesError(f"bad value {value!r} for rule {key!r}: expected a positive integer or null")
        if not isinstance(self.allow_renege, bool):
            raise RulesError(f"bad value {self.allow_renege!r} for rule 'allow_renege': expected true or false")

    def describe(self) -> str:
        """Return a one-line human summary.

        >>> Rules(hands=4).describe()
        'to 50 points or 4 hands, reneging forbidden'
        """
        ends = []
        if self.target_score is not None:
            ends.append(f"{self.target_score} points")
        if self.hands is not None:
            ends.append(f"{self.hands} hand{'' if self.hands == 1 else 's'}")
        end = "to " + " or ".join(ends) if ends else "no agreed end"
        renege = "reneging allowed (10 points each)" if self.allow_renege else "reneging forbidden"
        return f"{end}, {renege}"

