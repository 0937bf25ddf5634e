"""Words for hints at the Mustamaija table: actions in a few words, and a rule of thumb for the suggested move.

The hint itself is the shared one (:func:`mustamaija.search.hints.hint`,
through :meth:`mustamaija.tui.plugin.Controller.hint`): the exact solver when
the view pins down every card, else the PIMC search on the view. This
module adds the rule of thumb (the strategy notes of docs/rules.md) that fits the
suggested move, from what the view shows.

>>> from mustamaija.games.mustamaija import State
>>> s = State.from_position([["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], attacker=0, trump_suit=3)
>>> lead = Lead(0, s.hands[0] & ~(1 << QS))
>>> action_words(lead), rule_of_thumb(s.view(0), Lead(0, 1 << QS))
('lead 5♥ 6♥ 3♣ A♣', 'Q♠ can never be beaten: she stays with the defender.')
"""

from __future__ import annotations

from mustamaija.core.cards import QS, SUIT_MASKS, cards_of
from mustamaija.games.mustamaija.actions import Action, Beat, Declare, Lead
from mustamaija.games.mustamaija.view import View

__all__ = ["action_words", "rule_of_thumb"]


def action_words(action: Action | None) -> str:
    """Describe an action in a few words, such as ``"lead 4♥ 9♥"`` (``"nothing"`` for none)."""
    return "nothing" if action is None else action.words()


def rule_of_thumb(view: View, action: Action) -> str:
    """Return a rule of thumb (the strategy notes of docs/rules.md) that fits the action, from what the view shows."""
    hand = view.hand
    if isinstance(action, Declare):
        return "declaring fixes trumps in a suit you hold: your K and Q become trumps."
    if isinstance(action, Lead):
        k = action.cards.bit_count()
        suit = cards_of(action.cards)[0] // 13
        if view.talon_size:
            if action.cards == hand & SUIT_MASKS[suit] and k > 1:
                return f"leading a whole suit lets you draw {min(k, view.talon_size)} fresh cards."
            if action.cards >> QS & 1:
                return "Q♠ can never be beaten: leading her early risks seeing her come back."
            return "early on, shed the cards you do not need and keep trumps for the endgame."
        if action.cards >> QS & 1:
            return "Q♠ can never be beaten: she stays with the defender."
        if action.cards == hand:
            return "these are your last cards: you are out the moment you lead them."
        return "in the endgame, lead low cards first, so they cannot be used against your higher ones."
    assert isinstance(action, Beat)
    if not view.led & ~action.beaten:
        return "beating everything gives you the lead."
    if not action.pairs:
        return "beating is never compulsory: keeping your beaters may be worth more than the cards you pick up."
    return ""
