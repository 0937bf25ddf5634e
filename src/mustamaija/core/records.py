"""Game records of every game (docs/formats.md): one deal's rules, seats, dealer, deck and compound actions.

A game's record class subclasses :class:`DealRecord` and fills in a few
class-level hooks (its format, its state class, how its actions and rules
are read and written, which decks are valid). Reading, writing, the one
action a line layout and replaying with indexed errors are written once here.

>>> from mustamaija.core.registry import DEFAULT_GAME, get_game
>>> Record = get_game(DEFAULT_GAME).RECORD
>>> rec = Record.from_seed(players=3, seed=2)
>>> Record.loads(rec.dumps()) == rec, rec.replay().phase_name, rec.replay().to_act
(True, 'lead', 2)
>>> Record.loads("[1, 2")
Traceback (most recent call last):
...
mustamaija.core.errors.FormatError: not valid JSON: Expecting ',' delimiter: line 1 column 6 (char 5)
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Self, TypeVar

from mustamaija.core.cards import card_name, parse_card
from mustamaija.core.errors import CardError, FormatError, IllegalActionError, RecordError, RulesError

__all__ = ["DealRecord", "JsonDocument", "Replayable", "card_at", "parse_cards_list", "play_indexed", "read_actions", "read_int",
           "read_json"]

A = TypeVar("A")
"""An action of a game, as its records read it."""

_KNOWN: Final = ("format", "game", "rules", "players", "dealer", "deck", "actions")
"""The keys of a record; any other top-level key is kept in ``extra``."""


def read_int(value: object, what: str) -> int:
    """Return ``value`` if it is an integer (not a bool); else raise :class:`FormatError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"{what} must be an integer, not {value!r}")
    return value


def read_json(text: str | bytes) -> object:
    """Parse JSON text, raising :class:`FormatError` with the parser's reason."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise FormatError(f"not valid JSON: {e}") from None


def read_actions(obj: Mapping[str, Any], parse: Callable[[object], A],
                 replay: Callable[[tuple[A, ...]], object]) -> tuple[A, ...]:
    """Return a document's ``actions``, each read by ``parse``.

    A malformed action raises :class:`RecordError` with its index, once ``replay`` has been given the
    actions before it: replaying stops at the first faulty action, so an illegal earlier one is reported
    first.
    """
    listed = obj.get("actions", [])
    if not isinstance(listed, list):
        raise FormatError(f"'actions' must be a list, not {listed!r}")
    actions: list[A] = []
    for i, a in enumerate(listed):
        try:
            actions.append(parse(a))
        except FormatError as e:
            replay(tuple(actions))
            raise RecordError(i, a.get("seat") if isinstance(a, Mapping) else None, "format", str(e)) from None
    return tuple(actions)


def card_at(text: object, where: str) -> int:
    """Return the card of a document's card string; else raise :class:`FormatError` saying ``where`` it is."""
    if not isinstance(text, str):
        raise FormatError(f"{where}: {text!r} is not a card string such as 'QS'")
    try:
        return parse_card(text)
    except CardError as e:
        raise FormatError(f"{where}: {e}") from None


def parse_cards_list(obj: object, what: str) -> tuple[tuple[int, ...], int]:
    """Return the cards of a JSON list of card strings, and their mask; a card listed twice is an error."""
    if not isinstance(obj, list):
        raise FormatError(f"'{what}' must be a list of card strings, not {obj!r}")
    cards: list[int] = []
    seen = 0
    for text in obj:
        c = card_at(text, what)
        if seen >> c & 1:
            raise FormatError(f"{what}: card {card_name(c)} appears twice")
        seen |= 1 << c
        cards.append(c)
    return tuple(cards), seen


class JsonDocument:
    """Reading a document from JSON text or a file, given the class's ``from_json``."""

    @classmethod
    def from_json(cls, obj: object) -> Self:
        """Build the document from its JSON object."""
        raise NotImplementedError

    @classmethod
    def loads(cls, text: str | bytes) -> Self:
        """Parse the document from JSON text."""
        return cls.from_json(read_json(text))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Self:
        """Read the document from a file."""
        with open(path, "rb") as f:
            return cls.loads(f.read())


def play_indexed(state: Any, index: int, action: Any) -> None:
    """Take a record's action ``index`` in place, turning a rule error into a :class:`RecordError`."""
    try:
        state.play(action)
    except IllegalActionError as e:
        raise RecordError(index, action.seat, e.rule, e.detail) from None
    except CardError as e:
        raise RecordError(index, action.seat, "format", str(e)) from None


class Replayable:
    """What a document of a deal gets from its ``start()``, ``actions`` and ``to_json()``: its states, its replay, its text.

    Records replay from their deal, positions' records from their position:
    both check every action against the rules, and an illegal one raises
    :class:`RecordError` naming its index, seat and rule.
    """

    actions: Sequence[Any]

    def to_json(self) -> dict[str, Any]:
        """Return the document's JSON object, with its ``actions`` key."""
        raise NotImplementedError

    def dumps(self, indent: int | None = None) -> str:
        """Return the document as JSON text; with ``indent=None`` one action a line, as records are written."""
        obj = self.to_json()
        if indent is not None:
            return json.dumps(obj, indent=indent, ensure_ascii=False)
        head = {k: v for k, v in obj.items() if k != "actions"}
        body = ",\n    ".join(json.dumps(a, ensure_ascii=False) for a in obj["actions"])
        text = json.dumps(head, ensure_ascii=False)[:-1]
        return text + ',\n  "actions": [' + ("\n    " + body + "\n  " if body else "") + "]}\n"

    def dump(self, path: str | os.PathLike[str]) -> None:
        """Write the document to a file."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.dumps())

    def start(self) -> Any:
        """Return the state before the first action."""
        raise NotImplementedError

    def states(self) -> Iterator[Any]:
        """Yield the state before the first action and after every action (each a fresh copy)."""
        s = self.start()
        yield s.copy()
        for i, a in enumerate(self.actions):
            play_indexed(s, i, a)
            yield s.copy()

    def replay(self) -> Any:
        """Return the state after the last action, checking every action against the rules."""
        s = self.start()
        for i, a in enumerate(self.actions):
            play_indexed(s, i, a)
        return s


@dataclass(frozen=True)
class DealRecord(Replayable, JsonDocument):
    """One deal: rules, seats, dealer, the deck (top first) and the compound actions.

    ``extra`` keeps optional top-level keys (names, times, comments…) so that
    a record survives a load and dump; they never change how it replays.
    """

    players: int
    """The number of seats."""
    deck: tuple[int, ...]
    """The cards dealt, top first."""
    dealer: int = 0
    """The dealer's seat."""
    rules: Any = None
    """The game's rule set."""
    actions: tuple[Any, ...] = ()
    """The compound actions, oldest first."""
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """Top-level keys of other programs, kept as they were."""

    FORMAT: ClassVar[str]
    """The record's ``format`` key."""
    GAME: ClassVar[str]
    """The record's ``game`` key."""
    NO_DECK: ClassVar[str] = "this state was not dealt from a deck, so it has no record"
    """Why a state without a deck has no record."""
    STATE: ClassVar[Any]
    """The game's state class: ``STATE.deal(players, deck, rules, dealer)``."""
    RULES: ClassVar[Any]
    """The game's rule set class (a :class:`~mustamaija.core.rules.RuleSet`)."""
    READ_ACTION: ClassVar[Any]
    """``action_from_json(obj, players)``: the game's reader of record actions."""

    def __init_subclass__(cls, *, format: str, game: str, state: Any, read_action: Any, **kwargs: Any) -> None:
        # A game's record class declares its format, its game, its state class (which names the rules class)
        # and its reader of record actions as class keywords.
        super().__init_subclass__(**kwargs)
        cls.FORMAT, cls.GAME, cls.STATE, cls.RULES = format, game, state, state.RULES
        cls.READ_ACTION = staticmethod(read_action)

    # -- the game's hooks ------------------------------------------------------------

    @classmethod
    def state_class(cls) -> Any:
        """Return the game's state class."""
        return cls.STATE

    @classmethod
    def default_rules(cls) -> Any:
        """Return the default rule set."""
        return cls.RULES()

    @classmethod
    def rules_from_json(cls, obj: Any) -> Any:
        """Return the rule set of a record's ``rules`` value (missing or null: the defaults)."""
        return cls.RULES.from_json(obj)

    @classmethod
    def rules_to_json(cls, rules: Any) -> dict[str, Any]:
        """Return the ``rules`` object written into records."""
        return dict(rules.to_json())

    @classmethod
    def check_players(cls, rules: Any, players: int) -> None:
        """Raise :class:`RulesError` unless ``players`` can play ``rules``."""
        raise NotImplementedError

    @classmethod
    def check_deck(cls, players: int, deck: tuple[int, ...], cards: int) -> None:
        """Raise :class:`FormatError` unless ``deck`` (its mask: ``cards``) is a deck of the game."""
        raise NotImplementedError

    @classmethod
    def shuffled_deck(cls, players: int, rng: random.Random) -> tuple[int, ...]:
        """Return the deck a seeded shuffle deals."""
        raise NotImplementedError

    @classmethod
    def action_from_json(cls, obj: object, players: int | None = None) -> Any:
        """Return the compound action of a record's JSON action (the game's ``READ_ACTION``)."""
        return cls.READ_ACTION(obj, players)

    # -- building --------------------------------------------------------------------

    @classmethod
    def from_seed(cls, players: int, seed: int | str, rules: Any = None, dealer: int | None = None) -> Self:
        """Return a record with no actions yet, shuffled as the state's ``from_seed`` does for ``seed``."""
        rules = rules or cls.default_rules()
        cls.check_players(rules, players)
        rng = random.Random(seed)
        deck = cls.shuffled_deck(players, rng)
        if dealer is None:
            dealer = rng.randrange(players)
        cls.state_class().deal(players, deck, rules, dealer)  # Validates the combination.
        return cls(players, deck, dealer, rules)

    @classmethod
    def from_state(cls, state: Any, **extra: Any) -> Self:
        """Return the record of a state dealt from a deck, with every action taken so far."""
        if state.deck is None:
            raise FormatError(cls.NO_DECK)
        return cls(state.n, state.deck, state.dealer, state.rules, tuple(state.actions()), dict(extra))

    def with_actions(self, actions: Sequence[Any]) -> Self:
        """Return a copy with another action list."""
        return type(self)(self.players, self.deck, self.dealer, self.rules, tuple(actions), self.extra)

    # -- reading and writing -----------------------------------------------------------

    @classmethod
    def from_json(cls, obj: object) -> Self:
        """Build a record from its JSON object, checking its shape; actions are checked by :meth:`replay`."""
        if not isinstance(obj, Mapping):
            raise FormatError(f"a record must be a JSON object, not {type(obj).__name__}")
        fmt = obj.get("format", cls.FORMAT)
        if fmt != cls.FORMAT:
            raise FormatError(f"unknown format {fmt!r}: expected {cls.FORMAT!r}")
        game = obj.get("game", cls.GAME)
        if game != cls.GAME:
            raise FormatError(f"unknown game {game!r}: expected {cls.GAME!r}")
        for key in ("players", "deck"):
            if key not in obj:
                raise FormatError(f"a record needs {key!r}")
        players = read_int(obj.get("players"), "'players'")
        dealer = read_int(obj.get("dealer", 0), "'dealer'")
        try:
            rules = cls.rules_from_json(obj.get("rules"))  # Missing or null: the defaults; [] or 0 is an error.
        except RulesError as e:
            raise FormatError(f"rules: {e}") from None
        try:
            cls.check_players(rules, players)
        except RulesError as e:
            raise FormatError(f"players: {e}") from None
        if not 0 <= dealer < players:
            raise FormatError(f"'dealer' must be a seat from 0 to {players - 1}, not {dealer}")
        deck, seen = parse_cards_list(obj["deck"], "deck")
        cls.check_deck(players, deck, seen)
        actions = read_actions(obj, lambda a: cls.action_from_json(a, players),
                               lambda before: cls(players, deck, dealer, rules, before).replay())
        extra = {k: v for k, v in obj.items() if k not in _KNOWN}
        return cls(players, deck, dealer, rules, actions, extra)

    def seat_names(self) -> list[str]:
        """Return how an account of the deal names each seat: its player's name from ``names``, else ``seat N``.

        >>> from mustamaija.games.mustamaija.record import Record
        >>> Record.from_seed(players=3, seed=1).seat_names()
        ['seat 0', 'seat 1', 'seat 2']
        >>> Record.from_json({**Record.from_seed(players=2, seed=1).to_json(), "names": ["Ann", " "]}).seat_names()
        ['Ann', 'seat 1']
        """
        names = self.extra.get("names")
        if not isinstance(names, list) or len(names) != self.players:
            names = [None] * self.players
        return [" ".join(n.split())[:40] if isinstance(n, str) and n.strip() else f"seat {s}"
                for s, n in enumerate(names)]

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object (docs/formats.md key order, then the extra keys)."""
        return {
            "format": self.FORMAT,
            "game": self.GAME,
            "rules": self.rules_to_json(self.rules),
            "players": self.players,
            "dealer": self.dealer,
            "deck": [card_name(c) for c in self.deck],
            "actions": [a.to_json() for a in self.actions],
            **{k: v for k, v in self.extra.items() if k not in _KNOWN},
        }

    # -- replaying -----------------------------------------------------------------------

    def start(self) -> Any:
        """Return the state right after the deal."""
        return self.state_class().deal(self.players, self.deck, self.rules, self.dealer)
