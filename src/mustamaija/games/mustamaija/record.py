"""Game records (``mustamaija-record/1``): load, dump, build from a seed, and replay with precise errors.

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

import json
import os
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from mustamaija.core.cards import card_name, parse_card
from mustamaija.core.errors import CardError, FormatError, IllegalActionError, RecordError, RulesError
from mustamaija.games.mustamaija.actions import Action, action_from_json
from mustamaija.games.mustamaija.deals import shuffled_deck
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.state import State

__all__ = ["RECORD_FORMAT", "Record", "state_to_json"]

RECORD_FORMAT: Final = "mustamaija-record/1"
_KNOWN: Final = ("format", "game", "rules", "players", "dealer", "deck", "actions")
# Rule keys of FORMATS.md; the project's own keys are written only when they differ from the default,
# so that other programs reading our records meet only the keys they know.
_FORMAT_RULE_KEYS: Final = (
    "hand_size", "trump", "trump_suit", "trump_turn", "spades_can_be_trump", "attack_limit", "max_lead", "max_turns",
)


def _int(obj: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"{key!r} must be an integer, not {value!r}")
    return value


@dataclass(frozen=True)
class Record:
    """One Mustamaija deal: rules, seats, dealer, the whole deck (top first) and the compound actions.

    ``extra`` keeps optional top-level keys (names, times, comments…) so that
    a record survives a load and dump; they never change how it replays.
    """

    players: int
    deck: tuple[int, ...]
    dealer: int = 0
    rules: Rules = field(default_factory=Rules)
    actions: tuple[Action, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    # -- building --------------------------------------------------------------

    @classmethod
    def from_seed(cls, players: int, seed: int | str, rules: Rules | None = None,
                  dealer: int | None = None) -> Record:
        """Return a record with no actions yet, shuffled as :meth:`State.from_seed` does for ``seed``."""
        rng = random.Random(seed)
        deck = shuffled_deck(rng)
        if dealer is None:
            dealer = rng.randrange(players)
        rules = rules or Rules()
        State.deal(players, deck, rules, dealer)  # Validates the combination.
        return cls(players, deck, dealer, rules)

    @classmethod
    def from_state(cls, state: State, **extra: Any) -> Record:
        """Return the record of a state dealt from a deck, with every action taken so far."""
        if state.deck is None:
            raise FormatError("this state was set up from a position, not dealt from a deck, so it has no record")
        return cls(state.n, state.deck, state.dealer, state.rules, tuple(state.actions()), dict(extra))

    def with_actions(self, actions: tuple[Action, ...]) -> Record:
        """Return a copy with another action list."""
        return Record(self.players, self.deck, self.dealer, self.rules, actions, self.extra)

    # -- reading and writing ---------------------------------------------------------

    @classmethod
    def from_json(cls, obj: object) -> Record:
        """Build a record from its JSON object, checking its shape; actions are checked by :meth:`replay`."""
        if not isinstance(obj, Mapping):
            raise FormatError(f"a record must be a JSON object, not {type(obj).__name__}")
        fmt = obj.get("format", RECORD_FORMAT)
        if fmt != RECORD_FORMAT:
            raise FormatError(f"unknown format {fmt!r}: expected {RECORD_FORMAT!r}")
        game = obj.get("game", "mustamaija")
        if game != "mustamaija":
            raise FormatError(f"unknown game {game!r}: expected 'mustamaija'")
        for key in ("players", "deck"):
            if key not in obj:
                raise FormatError(f"a record needs {key!r}")
        players = _int(obj, "players")
        dealer = _int(obj, "dealer", 0)
        try:
            rules = Rules.from_json(obj.get("rules"))  # Missing or null: the defaults; [] or 0 is an error.
        except RulesError as e:
            raise FormatError(f"rules: {e}") from None
        try:
            rules.check_players(players)
        except RulesError as e:
            raise FormatError(f"players: {e}") from None
        if not 0 <= dealer < players:
            raise FormatError(f"'dealer' must be a seat from 0 to {players - 1}, not {dealer}")
        deck_obj = obj["deck"]
        if not isinstance(deck_obj, list):
            raise FormatError(f"'deck' must be a list of card strings, not {deck_obj!r}")
        deck: list[int] = []
        seen = 0
        for text in deck_obj:
            if not isinstance(text, str):
                raise FormatError(f"deck: {text!r} is not a card string")
            try:
                c = parse_card(text)
            except CardError as e:
                raise FormatError(f"deck: {e}") from None
            if seen >> c & 1:
                raise FormatError(f"deck: card {card_name(c)} appears twice")
            seen |= 1 << c
            deck.append(c)
        if len(deck) != 52:
            raise FormatError(f"'deck' must list all 52 cards once each, got {len(deck)} cards")
        actions_obj = obj.get("actions", [])
        if not isinstance(actions_obj, list):
            raise FormatError(f"'actions' must be a list, not {actions_obj!r}")
        actions = []
        for i, a in enumerate(actions_obj):
            seat = a.get("seat") if isinstance(a, Mapping) else None
            try:
                actions.append(action_from_json(a, players))
            except FormatError as e:
                # Replay stops at the first faulty action: report an illegal earlier one first.
                cls(players, tuple(deck), dealer, rules, tuple(actions)).replay()
                raise RecordError(i, seat, "format", str(e)) from None
        extra = {k: v for k, v in obj.items() if k not in _KNOWN}
        return cls(players, tuple(deck), dealer, rules, tuple(actions), extra)

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """Parse a record from JSON text."""
        try:
            obj = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise FormatError(f"not valid JSON: {e}") from None
        return cls.from_json(obj)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Record:
        """Read a record from a file."""
        with open(path, "rb") as f:
            return cls.loads(f.read())

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object (FORMATS.md key order, then the extra keys)."""
        rules = self.rules.to_json()
        out_rules = {k: rules[k] for k in _FORMAT_RULE_KEYS}
        out_rules.update({k: v for k, v in self.rules.to_json(only_changes=True).items() if k not in out_rules})
        return {
            "format": RECORD_FORMAT,
            "game": "mustamaija",
            "rules": out_rules,
            "players": self.players,
            "dealer": self.dealer,
            "deck": [card_name(c) for c in self.deck],
            "actions": [a.to_json() for a in self.actions],
            **{k: v for k, v in self.extra.items() if k not in _KNOWN},
        }

    def dumps(self, indent: int | None = None) -> str:
        """Return the record as JSON text; with ``indent=None`` one action a line."""
        if indent is not None:
            return json.dumps(self.to_json(), indent=indent, ensure_ascii=False)
        obj = self.to_json()
        head = {k: v for k, v in obj.items() if k != "actions"}
        body = ",\n    ".join(json.dumps(a, ensure_ascii=False) for a in obj["actions"])
        text = json.dumps(head, ensure_ascii=False)[:-1]
        return text + ',\n  "actions": [' + ("\n    " + body + "\n  " if body else "") + "]}\n"

    def dump(self, path: str | os.PathLike[str]) -> None:
        """Write the record to a file."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.dumps())

    # -- replaying --------------------------------------------------------------

    def start(self) -> State:
        """Return the state right after the deal."""
        return State.deal(self.players, self.deck, self.rules, self.dealer)

    def states(self) -> Iterator[State]:
        """Yield the state after the deal and after every action (each a fresh copy).

        An illegal action raises :class:`RecordError` naming its index, seat and rule.
        """
        s = self.start()
        yield s.copy()
        for i, a in enumerate(self.actions):
            _play(s, i, a)
            yield s.copy()

    def replay(self) -> State:
        """Return the state after the last action, checking every action against the rules."""
        s = self.start()
        for i, a in enumerate(self.actions):
            _play(s, i, a)
        return s


def _play(state: State, index: int, action: Action) -> None:
    try:
        state.play(action)
    except IllegalActionError as e:
        raise RecordError(index, action.seat, e.rule, e.detail) from None
    except CardError as e:
        raise RecordError(index, action.seat, "format", str(e)) from None


def state_to_json(state: State) -> dict[str, Any]:
    """Return the ``replay --json`` object of a state (FORMATS.md), with a few added keys.

    Added keys: ``turns`` (turns played), ``stopped`` (true when M21 stopped
    the deal unfinished) and ``discard`` (the cards out of play).
    """
    over = state.phase == 2
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
