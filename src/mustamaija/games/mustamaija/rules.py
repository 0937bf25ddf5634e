"""The Mustamaija rule set: every key of the docs/formats.md table, validated, and named presets.

>>> r = Rules.from_json({"hand_size": 3, "trump": "fixed"})
>>> r.hand_size, r.trump, r.trump_suit, r.max_players
(3, 'fixed', 'D', 8)
>>> Rules.preset("french").max_lead
5
>>> Rules.from_json({"hand_sise": 3})
Traceback (most recent call last):
...
mustamaija.core.errors.RulesError: unknown rule key 'hand_sise' (known keys: attack_limit, hand_size, ...)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Final, Literal, get_args

from mustamaija.core.cards import SPADES, SUITS, parse_suit
from mustamaija.core.errors import CardError, RulesError
from mustamaija.core.rules import RuleSet

__all__ = ["DEFAULT_MAX_TURNS", "PRESETS", "PRESET_SOURCES", "Rules"]

DEFAULT_MAX_TURNS: Final = 1000
"""M21: turns (a lead and its defence) after which a deal is stopped as unfinished.

The longest of more than 100,000 random deals over every preset and player
count took 314 turns (docs/rules.md), so the guard stops only play that loops.
"""

HandSize = Literal[3, 5, 6]
"""V1: cards dealt to each player."""
TrumpMode = Literal["turned", "fixed", "marriage", "none"]
"""M6, V2, V3: how the trump suit is chosen: turned from the talon, fixed, declared by a marriage, or none."""
TrumpTurn = Literal["after_first_lead", "after_deal"]
"""M6: when the trump card is turned."""
AttackLimit = Literal["after_talon", "always"]
"""M11: when a lead is limited to the cards the defender holds."""
NextDealer = Literal["left", "loser"]
"""M5: who deals the next deal of a match."""
SuitLetter = Literal["S", "H", "D", "C"]
"""A suit as a rule value (V2's fixed trump suit)."""

_CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    "hand_size": get_args(HandSize),
    "trump": get_args(TrumpMode),
    "trump_turn": get_args(TrumpTurn),
    "attack_limit": get_args(AttackLimit),
    "next_dealer": get_args(NextDealer),
}


class Phase(IntEnum):
    """The phase of a deal, which says who acts and what they choose."""

    LEAD = 0
    """The attacker chooses cards to lead (M9-M11)."""
    DEFEND = 1
    """The defender beats led cards or takes them (M13)."""
    OVER = 2
    """The deal is over: a loser is known (M19) or it was stopped (M21)."""


# The state holds the phase as a plain int: the interpreter compares exact ints fastest, on the hot path of play,
# and the compiled build inlines literal constants.
LEAD: Final = 0
DEFEND: Final = 1
OVER: Final = 2
assert (LEAD, DEFEND, OVER) == (Phase.LEAD, Phase.DEFEND, Phase.OVER)
PHASES: Final = tuple(p.name.lower() for p in Phase)
"""The phase names of ``replay --json`` and the views, by phase number."""


FORMAT_RULE_KEYS: Final = (
    "hand_size", "trump", "trump_suit", "trump_turn", "spades_can_be_trump", "attack_limit", "max_lead", "max_turns",
)
"""The rule keys of docs/formats.md, written into every record and position."""


@dataclass(frozen=True, slots=True)
class Rules(RuleSet):
    """A Mustamaija rule set; the defaults are the standard game (McLeod's reading).

    The fields are exactly the docs/formats.md rule keys plus ``next_dealer`` (M5:
    ``"left"`` passes the deal to the left, ``"loser"`` lets the loser deal).
    Build one with :meth:`from_json` or :meth:`preset` to get validation.
    """

    hand_size: HandSize = 5
    """V1: cards dealt to each player (3, 5 or 6)."""
    trump: TrumpMode = "turned"
    """M6, V2, V3: ``turned`` from the talon, ``fixed`` (:attr:`trump_suit`), ``marriage`` or ``none``."""
    trump_suit: SuitLetter = "D"
    """V2: the trump suit when :attr:`trump` is ``fixed``."""
    trump_turn: TrumpTurn = "after_first_lead"
    """M6: the trump card is turned after the first lead, or at once after the deal."""
    spades_can_be_trump: bool = False
    """M7: whether a turned spade may be trumps (else it is put back and another card turned)."""
    attack_limit: AttackLimit = "after_talon"
    """M11: a lead may hold no more cards than the defender holds only once the talon is empty, or always."""
    max_lead: int | None = None
    """M11: the most cards any lead may hold (``None``: no limit but the defender's hand)."""
    max_turns: int = DEFAULT_MAX_TURNS
    """M21: turns after which the deal is stopped unfinished."""
    next_dealer: NextDealer = "left"
    """M5: the next deal of a match is dealt by the seat to the left, or by the loser."""

    def __post_init__(self) -> None:
        self._validate()

    def _validate(self) -> None:
        for key, allowed in _CHOICES.items():
            value = getattr(self, key)
            # 5.0 == 5 but is no hand size: the type must match too (a float would break the deal).
            if isinstance(value, bool) or value not in allowed or not isinstance(value, type(allowed[0])):
                shown = ", ".join(repr(a) if isinstance(a, str) else str(a) for a in allowed)
                raise RulesError(f"bad value {value!r} for rule {key!r}: expected one of {shown}")
        try:
            suit = parse_suit(self.trump_suit) if isinstance(self.trump_suit, str) else None
        except CardError:
            suit = None
        if suit is None or len(self.trump_suit) != 1 or self.trump_suit not in SUITS:
            raise RulesError(f"bad value {self.trump_suit!r} for rule 'trump_suit': expected one of 'S', 'H', 'D', 'C'")
        if not isinstance(self.spades_can_be_trump, bool):
            raise RulesError(f"bad value {self.spades_can_be_trump!r} for rule 'spades_can_be_trump': expected true or false")
        if self.max_lead is not None and (
            isinstance(self.max_lead, bool) or not isinstance(self.max_lead, int) or self.max_lead < 1
        ):
            raise RulesError(f"bad value {self.max_lead!r} for rule 'max_lead': expected a positive integer or null")
        if isinstance(self.max_turns, bool) or not isinstance(self.max_turns, int) or self.max_turns < 1:
            raise RulesError(f"bad value {self.max_turns!r} for rule 'max_turns': expected a positive integer")
        if self.trump == "fixed" and suit == SPADES and not self.spades_can_be_trump:
            raise RulesError(
                "M7: spades may not be trumps: 'trump_suit' 'S' needs 'spades_can_be_trump': true"
            )

    # -- construction --------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> Rules:
        """Return a named preset: one of :data:`PRESETS`."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown preset {name!r} (known presets: {', '.join(PRESETS)})") from None

    def format_json(self) -> dict[str, Any]:
        """Return the ``rules`` object of records and positions: the format's keys, then changed project keys.

        The project's own keys are written only when they differ from the default, so that other
        programs reading our files meet only the keys docs/formats.md lists.

        >>> list(Rules.preset("wikipedia").format_json())[:3]
        ['hand_size', 'trump', 'trump_suit']
        """
        rules = self.to_json()
        out = {k: rules[k] for k in FORMAT_RULE_KEYS}
        out.update({k: v for k, v in self.to_json(only_changes=True).items() if k not in out})
        return out

    # -- derived facts -----------------------------------------------------------

    @property
    def min_players(self) -> int:
        """Return the fewest players (V1): always 2."""
        return 2

    @property
    def max_players(self) -> int:
        """Return the most players (V1): 6 with hand size 5, 8 with hand size 3 or 6."""
        return 6 if self.hand_size == 5 else 8

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesError` unless the player count fits these rules (V1, V5)."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"bad player count {players!r}: expected an integer")
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"V1: {players} players cannot play with hand size {self.hand_size} "
                f"(allowed: {self.min_players}-{self.max_players})"
            )

    @property
    def fixed_trump(self) -> int | None:
        """Return the trump suit index fixed by the rules before any card is seen, if any."""
        return parse_suit(self.trump_suit) if self.trump == "fixed" else None

    def describe(self) -> str:
        """Return a one-line human summary.

        >>> Rules.preset("salmi").describe()
        'hand 6, trumps by marriage, lead limit once the talon is empty'
        """
        parts = [f"hand {self.hand_size}"]
        if self.trump == "turned":
            when = "after the first lead" if self.trump_turn == "after_first_lead" else "after the deal"
            parts.append(f"trump turned {when}" + (", spades may be trumps" if self.spades_can_be_trump else ""))
        elif self.trump == "fixed":
            parts.append(f"{self.trump_suit} always trumps")
        elif self.trump == "marriage":
            parts.append("trumps by marriage")
        else:
            parts.append("no trumps")
        parts.append("lead limit always" if self.attack_limit == "always" else "lead limit once the talon is empty")
        if self.max_lead is not None:
            parts.append(f"at most {self.max_lead} cards a lead")
        if self.next_dealer == "loser":
            parts.append("loser deals next")
        if self.max_turns != DEFAULT_MAX_TURNS:
            parts.append(f"stopped after {self.max_turns} turns")
        return ", ".join(parts)


PRESETS: Final[dict[str, Rules]] = {
    "standard": Rules(),
    "wikipedia": Rules(trump_turn="after_deal", attack_limit="always"),
    "french": Rules(trump_turn="after_deal", attack_limit="always", max_lead=5),
    "kurki-suonio": Rules(hand_size=3, trump="fixed", trump_suit="D"),
    "kurki-suonio-marriage": Rules(hand_size=3, trump="marriage"),
    "salmi": Rules(hand_size=6, trump="marriage"),
}
"""The named rule sets; see :data:`PRESET_SOURCES` for where each comes from."""

PRESET_SOURCES: Final[dict[str, str]] = {
    "standard": "J. McLeod's Mustamaija page (after R. Holm and P. Ranta): trump turned after the first lead, "
    "spades never trumps, lead limit only once the talon is empty",
    "wikipedia": "the Wikipedia article 'Musta Maija': trump turned right after the deal, lead limit all game",
    "french": "a French rules sheet: as 'wikipedia', and at most 5 cards a lead",
    "kurki-suonio": "I. Kurki-Suonio, Korttipelit & Pasianssit (1982): 3 cards, diamonds always trumps",
    "kurki-suonio-marriage": "I. Kurki-Suonio, second option: 3 cards, trumps fixed by the first marriage",
    "salmi": "O. Salmi's 6-card game: 6 cards, trumps fixed by the first marriage",
}
