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

import json
import os
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from mustamaija.core.cards import card_name, cards_of, parse_card
from mustamaija.core.errors import CardError, FormatError, IllegalActionError, RecordError, RulesError
from mustamaija.games.black_maria.actions import Action, action_from_json
from mustamaija.games.black_maria.deals import shuffled_deck
from mustamaija.games.black_maria.rules import Rules, check_players, in_play
from mustamaija.games.black_maria.state import State

__all__ = ["GAME", "RECORD_FORMAT", "Record", "is_record", "play_indexed", "replay_json", "state_to_json"]

RECORD_FORMAT: Final = "black-maria-record/1"
GAME: Final = "black-maria"
_KNOWN: Final = ("format", "game", "rules", "players", "dealer", "deck", "actions")


def _int(obj: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"{key!r} must be an integer, not {value!r}")
    return value


@dataclass(frozen=True)
class Record:
    """One hand of Black Maria: rules, seats, dealer, the deck of the cards in play (top first) and the actions.

    ``extra`` keeps optional top-level keys (names, seeds, comments…) so that
    a record survives a load and dump; they never change how it replays.
    """

    players: int
    deck: tuple[int, ...]
    dealer: int = 0
    rules: Rules = field(default_factory=Rules)
    actions: tuple[Action, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    # -- building ---------------------------------------------------------------------

    @classmethod
    def from_seed(cls, players: int, seed: int | str, rules: Rules | None = None,
                  dealer: int | None = None) -> Record:
        """Return a record with no actions, shuffled as :meth:`State.from_seed` does for ``seed``."""
        check_players(players)
        rng = random.Random(seed)
        deck = shuffled_deck(players, rng)
        if dealer is None:
            dealer = rng.randrange(players)
        return cls(players, deck, dealer, rules or Rules())

    @classmethod
    def from_state(cls, state: State, **extra: Any) -> Record:
        """Return the record of a dealt state, with every action taken so far."""
        if state.deck is None:
            raise FormatError("this state was not dealt from a deck (it was sampled), so it has no record")
        return cls(state.n, state.deck, state.dealer, state.rules, tuple(state.actions()), dict(extra))

    # -- reading and writing ---------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: object) -> Record:
        """Build a record from its JSON object, checking its shape; actions are checked by :meth:`replay`."""
        if not isinstance(obj, Mapping):
            raise FormatError(f"a record must be a JSON object, not {type(obj).__name__}")
        fmt = obj.get("format", RECORD_FORMAT)
        if fmt != RECORD_FORMAT:
            raise FormatError(f"unknown format {fmt!r}: expected {RECORD_FORMAT!r}")
        game = obj.get("game", GAME)
        if game != GAME:
            raise FormatError(f"unknown game {game!r}: expected {GAME!r}")
        for key in ("players", "deck"):
            if key not in obj:
                raise FormatError(f"a record needs {key!r}")
        players = _int(obj, "players")
        try:
            check_players(players)
        except RulesError as e:
            raise FormatError(f"players: {e}") from None
        dealer = _int(obj, "dealer", 0)
        if not 0 <= dealer < players:
            raise FormatError(f"'dealer' must be a seat from 0 to {players - 1}, not {dealer}")
        try:
            rules = Rules.from_json(obj.get("rules"))
        except RulesError as e:
            raise FormatError(f"rules: {e}") from None
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
        want = in_play(players)
        if seen & ~want:
            out = " ".join(card_name(c) for c in cards_of(seen & ~want))
            raise FormatError(f"deck: B1: {out} is taken out of the pack with {players} players")
        if seen != want:
            raise FormatError(f"deck: B1: with {players} players the deck holds the {want.bit_count()} cards in play, "
                              f"got {len(deck)} cards")
        actions_obj = obj.get("actions", [])
        if not isinstance(actions_obj, list):
            raise FormatError(f"'actions' must be a list, not {actions_obj!r}")
        actions: list[Action] = []
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
        return {
            "format": RECORD_FORMAT,
            "game": GAME,
            "rules": self.rules.to_json(),
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

    # -- replaying ------------------------------------------------------------------------

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
            play_indexed(s, i, a)
            yield s.copy()

    def replay(self) -> State:
        """Return the state after the last action, checking every action against the rules."""
        s = self.start()
        for i, a in enumerate(self.actions):
            play_indexed(s, i, a)
        return s


def play_indexed(state: State, index: int, action: Action) -> None:
    """Take a record's action ``index`` in place, turning a rule error into a :class:`RecordError`."""
    try:
        state.play(action)
    except IllegalActionError as e:
        raise RecordError(index, action.seat, e.rule, e.detail) from None
    except CardError as e:
        raise RecordError(index, action.seat, "format", str(e)) from None


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def state_to_json(state: State) -> dict[str, Any]:
    """Return the ``replay --json`` object of a state (FORMATS.md), with a few added keys.

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
        "leader": None if over or state.phase == 0 else state.leader,
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
