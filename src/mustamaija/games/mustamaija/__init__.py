"""The pure Mustamaija core: rules, actions, legality, state, views and matches (docs/rules.md)."""

from mustamaija.games.mustamaija.actions import (
    DECLARE,
    NUM_STEPS,
    STOP,
    Action,
    Beat,
    Declare,
    Lead,
    action_from_json,
    parse_step,
    step_name,
)
from mustamaija.games.mustamaija.deals import deck_for_hands, shuffled_deck
from mustamaija.games.mustamaija.match import DealResult, Match
from mustamaija.games.mustamaija.position import POSITION2_FORMAT, POSITION_FORMAT, Position, PositionRecord
from mustamaija.games.mustamaija.record import RECORD_FORMAT, Record, state_to_json
from mustamaija.games.mustamaija.rules import DEFAULT_MAX_TURNS, PRESET_SOURCES, PRESETS, Rules
from mustamaija.games.mustamaija.sampling import sample_state
from mustamaija.games.mustamaija.state import DEFEND, LEAD, OVER, State
from mustamaija.games.mustamaija.view import View, view_of

__all__ = [
    "DECLARE",
    "DEFAULT_MAX_TURNS",
    "DEFEND",
    "LEAD",
    "NUM_STEPS",
    "OVER",
    "POSITION2_FORMAT",
    "POSITION_FORMAT",
    "PRESETS",
    "PRESET_SOURCES",
    "RECORD_FORMAT",
    "STOP",
    "Action",
    "Beat",
    "DealResult",
    "Declare",
    "Lead",
    "Match",
    "Position",
    "PositionRecord",
    "Record",
    "Rules",
    "State",
    "View",
    "action_from_json",
    "deck_for_hands",
    "parse_step",
    "sample_state",
    "shuffled_deck",
    "state_to_json",
    "step_name",
    "view_of",
]
