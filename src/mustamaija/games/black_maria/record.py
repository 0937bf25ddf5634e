"""Black Maria records (``black-maria-record/1``): load, dump, build from a seed, replay with precise errors.

>>> rec = Record.from_seed(players=4, seed=5)
>>> rec.dealer, len(rec.deck), rec.actions
(3, 52, ())
>>> Record.loads(rec.dumps()) == rec
True
>>> replay_json(rec)["phase"], replay_json(rec)["to_act"]
('pass', 0)
>>> Record.loads('{"format": "black-maria-record/1", "players": 3, "deck": ["AS"]}')
Traceback (most recent call last):
...
mustamaija.core.errors.FormatError: deck: B1: with 3 players the deck holds the 51 cards in play, got 1 cards
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from mustamaija.core.cards import card_name, cards_of
from mustamaija.core.errors import FormatError
from mustamaija.core.records import DealRecord
from mustamaija.games.black_maria.actions import Action, action_from_json
from mustamaija.games.black_maria.deals import shuffled_deck
from mustamaija.games.black_maria.rules import PASS, Rules, check_players, in_play
from mustamaija.games.black_maria.state import State

__all__ = ["GAME", "RECORD_FORMAT", "Record", "is_record", "replay_json", "state_to_json"]

RECORD_FORMAT: Final = "black-maria-record/1"
GAME: Final = "black-maria"


@dataclass(frozen=True)
class Record(DealRecord, format=RECORD_FORMAT, game=GAME, state=State, read_action=action_from_json):
    """One hand of Black Maria: rules, seats, dealer, the deck of the cards in play (top first) and the actions."""

    rules: Rules = field(default_factory=Rules)
    actions: tuple[Action, ...] = ()

    NO_DECK: ClassVar[str] = "this state was not dealt from a deck (it was sampled), so it has no record"

    @classmethod
    def check_players(cls, rules: Rules, players: int) -> None:
        """Check the player count (B1)."""
        check_players(players)

    @classmethod
    def check_deck(cls, players: int, deck: tuple[int, ...], cards: int) -> None:
        """Require exactly the cards in play with this many players (B1)."""
        want = in_play(players)
        if cards & ~want:
            out = " ".join(card_name(c) for c in cards_of(cards & ~want))
            raise FormatError(f"deck: B1: {out} is taken out of the pack with {players} players")
        if cards != want:
            raise FormatError(f"deck: B1: with {players} players the deck holds the {want.bit_count()} cards in play, "
                              f"got {len(deck)} cards")

    @classmethod
    def shuffled_deck(cls, players: int, rng: random.Random) -> tuple[int, ...]:
        """Shuffle the cards in play."""
        return shuffled_deck(players, rng)

def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def state_to_json(state: State) -> dict[str, Any]:
    """Return the ``replay --json`` object of a state (docs/formats.md), with a few added keys.

    Added keys: ``dealer``, ``leader`` (who led the current trick, null when
    over), ``trick`` (its cards in the order played), ``hearts_broken``,
    ``passed`` (each seat's pass, null until it has passed), ``reneges`` per
    seat, and ``won`` (the penalty cards each seat has taken).
    """
    over = state.is_over
    return {
        "finished": over,
        "phase": state.phase_name,
        "to_act": None if over else state.to_act,
        "tricks": list(state.tricks),
        "points": state.points(),
        "hands": [_names(h) for h in state.hands],
        "dealer": state.dealer,
        "leader": None if over or state.phase == PASS else state.leader,
        "trick": [card_name(c) for c in state.trick],
        "hearts_broken": state.broken,
        "passed": [_names(state.passed[s]) if (s - state.dealer - 1) % state.n < state.npassed else None
                   for s in range(state.n)],
        "reneges": list(state.reneges),
        "won": [_names(w & _PENALTY_MASK) for w in state.won],
    }


_PENALTY_MASK: Final = sum(1 << c for c in range(52) if c // 13 == 1 or c in (10, 11, 12))


def is_record(obj: object) -> bool:
    """Return whether a parsed JSON value claims to be a Black Maria record (by its ``format`` or ``game`` key).

    This is the dispatch test for tools that read records of both games.

    >>> is_record({"format": "black-maria-record/1"}), is_record({"game": "mustamaija"}), is_record([])
    (True, False, False)
    """
    return isinstance(obj, Mapping) and (obj.get("format") == RECORD_FORMAT or obj.get("game") == GAME)


def replay_json(record: Record | Mapping[str, Any] | str | bytes) -> dict[str, Any]:
    """Replay a record (a :class:`Record`, its JSON object or JSON text) and return the ``replay --json`` object."""
    if isinstance(record, (str, bytes)):
        record = Record.loads(record)
    elif not isinstance(record, Record):
        record = Record.from_json(record)
    return state_to_json(record.replay())
