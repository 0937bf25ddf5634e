"""The pure Mustamaija core: rules, actions, legality, state and views (RULES.md Part 1)."""

from .actions import DECLARE, NUM_STEPS, STOP, Action, Beat, Declare, Lead, action_from_json, parse_step, step_name
from .deals import deck_for_hands, shuffled_deck
from .rules import DEFAULT_MAX_TURNS, PRESET_SOURCES, PRESETS, Rules
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
    "Declare",
    "Lead",
    "Rules",
    "State",
    "View",
    "action_from_json",
    "deck_for_hands",
    "parse_step",
    "shuffled_deck",
    "step_name",
    "view_of",
]
