"""The pure Mustamaija core: rules, actions, legality, state, views and matches (RULES.md Part 1)."""

from .actions import DECLARE, NUM_STEPS, STOP, Action, Beat, Declare, Lead, action_from_json, parse_step, step_name
from .deals import deck_for_hands, shuffled_deck
from .match import DealResult, Match
from .rules import DEFAULT_MAX_TURNS, PRESET_SOURCES, PRESETS, Rules
from .sampling import sample_state
from .state import DEFEND, LEAD, OVER, State
from .view import View, view_of

__all__ = [
    "DECLARE",
    "DEFAULT_MAX_TURNS",
    "DEFEND",
    "LEAD",
    "NUM_STEPS",
    "OVER",
    "PRESETS",
    "PRESET_SOURCES",
    "STOP",
    "Action",
    "Beat",
    "DealResult",
    "Declare",
    "Lead",
    "Match",
    "Rules",
    "State",
    "View",
    "action_from_json",
    "deck_for_hands",
    "parse_step",
    "sample_state",
    "shuffled_deck",
    "step_name",
    "view_of",
]
