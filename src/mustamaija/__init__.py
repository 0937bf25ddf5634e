"""mustamaija: card games exactly by the rules, for players, students and researchers.

Every game is a plug-in behind one protocol (:mod:`mustamaija.core.protocol`),
found through the registry (:mod:`mustamaija.core.registry`). The package
root holds the card primitives and the errors, and, for convenience, the
engine names of the default game (``State``, ``Rules``, ``View``…), imported
from its package on first use:

>>> from mustamaija import State, Rules, CardSet
>>> s = State.from_seed(players=4, seed=7, rules=Rules.preset("standard"))
>>> s.players, s.phase_name
(4, 'lead')
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Final

from mustamaija.build import BUILD_ENV, prefer_sources

if os.environ.get(BUILD_ENV) == "pure":
    prefer_sources()  # Before any compiled module is imported.

from mustamaija.core.cards import QS, Card, CardSet, card_name, card_symbol, parse_card, parse_cards, parse_suit
from mustamaija.core.errors import CardError, FormatError, IllegalActionError, MustamaijaError, RecordError, RulesError
from mustamaija.core.registry import DEFAULT_GAME, get_game

__version__ = "0.1.0"

_DEFAULT_GAME_NAMES: Final = (
    "DECLARE", "NUM_STEPS", "PRESETS", "STOP", "Action", "Beat", "Declare", "Lead", "Rules", "State", "View", "view_of",
)
"""Names the root takes from the default game's package."""

__all__ = [
    "QS",
    "Card",
    "CardError",
    "CardSet",
    "FormatError",
    "IllegalActionError",
    "MustamaijaError",
    "RecordError",
    "RulesError",
    "__version__",
    "card_name",
    "card_symbol",
    "parse_card",
    "parse_cards",
    "parse_suit",
    *_DEFAULT_GAME_NAMES,
]


def __getattr__(name: str) -> Any:
    if name in _DEFAULT_GAME_NAMES:
        package = importlib.import_module(type(get_game(DEFAULT_GAME)).__module__.rpartition(".")[0])
        value = getattr(package, name)
        globals()[name] = value  # Later look-ups find it at once.
        return value
    raise AttributeError(f"module 'mustamaija' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_DEFAULT_GAME_NAMES))
