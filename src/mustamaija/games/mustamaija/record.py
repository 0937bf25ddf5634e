"""Game records (``mustamaija-record/1``): load, dump, build from a seed, and replay with precise errors.

The reading, writing and replaying are :class:`~mustamaija.core.records.DealRecord`'s;
this module says what is Mustamaija's: the whole 52-card deck, the rule keys
written, and the ``replay --json`` summary (docs/formats.md).

>>> rec = Record.from_seed(players=3, seed=5)
>>> rec.dealer, len(rec.deck), rec.actions
(1, 52, ())
>>> Record.loads(rec.dumps()) == rec
True
>>> Record.loads('{"format": "mustamaija-record/1", "players": 3, "deck": ["QS"]}')
Traceback (most recent call last):
...
mustamaija.core.errors.FormatError: 'deck' must list all 52 cards once each, got 1 cards
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from mustamaija.core.cards import card_name
from mustamaija.core.errors import FormatError
from mustamaija.core.records import DealRecord
from mustamaija.games.mustamaija.actions import Action, action_from_json
from mustamaija.games.mustamaija.deals import shuffled_deck
from mustamaija.games.mustamaija.rules import OVER, Rules
from mustamaija.games.mustamaija.state import State

__all__ = ["RECORD_FORMAT", "Record", "state_to_json"]

RECORD_FORMAT: Final = "mustamaija-record/1"


@dataclass(frozen=True)
class Record(DealRecord, format=RECORD_FORMAT, game="mustamaija", state=State, read_action=action_from_json):
    """One Mustamaija deal: rules, seats, dealer, the whole deck (top first) and the compound actions."""

    rules: Rules = field(default_factory=Rules)
    actions: tuple[Action, ...] = ()

    NO_DECK: ClassVar[str] = "this state was set up from a position, not dealt from a deck, so it has no record"

    @classmethod
    def rules_to_json(cls, rules: Rules) -> dict[str, Any]:
        """Return the format's rule keys, then the project's own keys where they differ from the default."""
        return rules.format_json()

    @classmethod
    def check_players(cls, rules: Rules, players: int) -> None:
        """Check the player count against the rules (V1)."""
        rules.check_players(players)

    @classmethod
    def check_deck(cls, players: int, deck: tuple[int, ...], cards: int) -> None:
        """Require the whole pack."""
        if len(deck) != 52:
            raise FormatError(f"'deck' must list all 52 cards once each, got {len(deck)} cards")

    @classmethod
    def shuffled_deck(cls, players: int, rng: random.Random) -> tuple[int, ...]:
        """Shuffle the whole pack."""
        return shuffled_deck(rng)

def state_to_json(state: State) -> dict[str, Any]:
    """Return the ``replay --json`` object of a state (docs/formats.md), with a few added keys.

    Added keys: ``turns`` (turns played), ``stopped`` (true when M21 stopped
    the deal unfinished) and ``discard`` (the cards out of play).
    """
    over = state.phase == OVER
    return {
        "finished": state.finished,
        "loser": state.loser if state.loser >= 0 else None,
        "out": list(state.out),
        "hands": [state.hand(s).names() for s in range(state.n)],
        "talon": [card_name(c) for c in state.talon_cards],
        "trump_suit": "SHDC"[state.trump] if state.trump >= 0 else None,
        "trump_card": card_name(state.trump_card) if state.trump_card >= 0 else None,
        "attacker": None if over else state.attacker,
        "defender": None if over else state.defender,
        "to_act": None if over else state.to_act,
        "phase": state.phase_name,
        "turns": state.turns,
        "stopped": state.stopped,
        "discard": [card_name(c) for c in range(52) if state.discard >> c & 1],
    }
