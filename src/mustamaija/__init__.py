"""mustamaija: the Finnish card game Mustamaija, exactly by the rules, for players, students and researchers.

>>> from mustamaija import State, Rules, CardSet
>>> s = State.from_seed(players=4, seed=7, rules=Rules.preset("standard"))
>>> s.players, s.phase_name
(4, 'lead')
"""

from mustamaija.core.cards import QS, Card, CardSet, card_name, card_symbol, parse_card, parse_cards, parse_suit
from mustamaija.core.errors import CardError, FormatError, IllegalActionError, MustamaijaError, RecordError, RulesError
from mustamaija.games.mustamaija import (
    DECLARE,
    NUM_STEPS,
    PRESETS,
    STOP,
    Action,
    Beat,
    Declare,
    Lead,
    Rules,
    State,
    View,
    view_of,
)

__version__ = "0.1.0"

__all__ = [
    "DECLARE",
    "NUM_STEPS",
    "PRESETS",
    "QS",
    "STOP",
    "Action",
    "Beat",
    "Card",
    "CardError",
    "CardSet",
    "Declare",
    "FormatError",
    "IllegalActionError",
    "Lead",
    "MustamaijaError",
    "RecordError",
    "Rules",
    "RulesError",
    "State",
    "View",
    "__version__",
    "card_name",
    "card_symbol",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "view_of",
]
