"""Black Maria (docs/black-maria.md, B1-B8): the Hearts-family trick-taking game, on the library's card primitives.

The package mirrors the Mustamaija core: a frozen :class:`Rules`, compound
actions (:class:`Pass`, :class:`Play`) and a card-at-a-time step space, one
legality mechanism, a mutable :class:`State` with cheap copies, one
visibility function :func:`view_of`, a series of hands (:class:`Match`),
records (``black-maria-record/1``) and determinisation for search players.

>>> from mustamaija.games.black_maria import State
>>> s = State.from_seed(players=5, seed=3)
>>> s.phase_name, s.pass_count, len(s.hand(s.to_act))
('pass', 3, 10)
"""

from mustamaija.games.black_maria.actions import NUM_STEPS, Action, Pass, Play, action_from_json, step_name
from mustamaija.games.black_maria.deals import deck_for_hands, shuffled_deck
from mustamaija.games.black_maria.rules import Rules, deal_size, in_play, pass_count, removed_cards
from mustamaija.games.black_maria.state import OVER, PASS, PLAY, RENEGE_PENALTY, State
from mustamaija.games.black_maria.view import View, view_of

__all__ = [
    "NUM_STEPS",
    "OVER",
    "PASS",
    "PLAY",
    "RENEGE_PENALTY",
    "Action",
    "Pass",
    "Play",
    "Rules",
    "State",
    "View",
    "action_from_json",
    "deal_size",
    "deck_for_hands",
    "in_play",
    "pass_count",
    "removed_cards",
    "shuffled_deck",
    "step_name",
    "view_of",
]
