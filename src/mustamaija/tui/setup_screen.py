"""The setup form of a new match, for every game: the game, players, rules, bots, match settings, seed and mode.

The rule fields are read from the game's rule set (its keys, their types and
their allowed values), the presets from ``game.presets``, the bot menus from
:func:`~mustamaija.players.levels.bot_choices`, the match settings from the
game's table: nothing here is written for one game.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Sequence
from typing import Any, ClassVar, Final

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static, Switch

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import games, get_game
from mustamaija.players.levels import bot_choices
from mustamaija.tui.host import host
from mustamaija.tui.session import BOT_NAMES, GameSession, MatchConfig

__all__ = ["SetupScreen", "rule_choices", "table_games", "value_label"]

CUSTOM = "custom"


def table_games() -> list[Game]:
    """Return the games that have a terminal table."""
    return [g for g in games() if g.renderer("tui")]


def rule_choices(rules: Any) -> dict[str, tuple[Any, ...] | None]:
    """Return each rule key with its allowed values (from a ``Literal`` type), ``None`` for a free value.

    >>> from mustamaija.core.registry import DEFAULT_GAME, get_game
    >>> rules = get_game(DEFAULT_GAME).make_rules()
    >>> choices = rule_choices(rules)
    >>> set(choices) == set(rules.to_json())
    True
    """
    try:
        hints = typing.get_type_hints(type(rules))
    except Exception:  # Not every game's rules need to be a typed dataclass.
        hints = {}
    out: dict[str, tuple[Any, ...] | None] = {}
    for key in rules.to_json():
        hint = hints.get(key)
        out[key] = typing.get_args(hint) if typing.get_origin(hint) is typing.Literal else None
    return out


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _text(value: Any) -> str:
    return "" if value is None else str(value)


_SUIT_WORDS: Final = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs"}


def value_label(key: str, value: Any) -> str:
    """Return a rule value as people read it: a suit with its sign, words for a snake_case value.

    >>> value_label("trump_suit", "D"), value_label("trump_turn", "after_first_lead"), value_label("hand_size", 5)
    ('♦ diamonds', 'after first lead', '5')
    """
    if key.endswith("suit") and value in _SUIT_WORDS:
        return _SUIT_WORDS[value]
    return str(value).replace("_", " ")


class SetupScreen(Screen[None]):
    """Choose the game, the players, the rules, the bots, the match's length, the seed and the mode."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+s", "start", "start"), Binding("escape", "app.quit", "quit")]

    def __init__(self, defaults: MatchConfig) -> None:
        super().__init__()
        self.defaults = defaults
        self.game = get_game(defaults.game)
        self.choices = rule_choices(defaults.rules)

    def compose(self) -> ComposeResult:
        d = self.defaults
        g = self.game
        yield Header()
        with VerticalScroll(id="setup"), Vertical(id="form"):
            yield Static(Text(f"♠ ♥  {g.title}  ♦ ♣", style="bold"), id="setup-title")
            with Horizontal(id="columns"):
                with Vertical(classes="column"):
                    yield from self._rules_column(d)
                with Vertical(classes="column"):
                    yield from self._match_column(d)
            yield Static("", id="setup-error")
        # Outside the scrolling form: Start stays on screen however small the terminal.
        with Horizontal(classes="buttons", id="setup-buttons"):
            yield Button("Start (Ctrl-S)", id="start", variant="success")
            yield Button("Quit", id="quit-setup")
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        """Fit small terminals: one column below 100 columns, no title line below 30 rows."""
        self.set_class(event.size.width < 100, "narrow")
        self.set_class(event.size.height < 30, "short")

    def _rules_column(self, d: MatchConfig) -> ComposeResult:
        g = self.game
        yield Static("Game and rules", classes="section")
        yield from self._row("Game", Select([(x.title, x.name) for x in table_games()], value=g.name,
                                            allow_blank=False, id="game"))
        yield from self._row("Players", Select([(str(n), n) for n in range(g.min_players, g.max_players + 1)],
                                               value=d.players, allow_blank=False, id="players"))
        yield from self._row("Preset", Select([(n, n) for n in [*g.presets, CUSTOM]], value=self._preset_of(d.rules),
                                              allow_blank=False, id="preset"))
        values = d.rules.to_json()
        for key, allowed in self.choices.items():
            yield from self._row(_label(key), self._rule_widget(key, values[key], allowed))

    def _match_column(self, d: MatchConfig) -> ComposeResult:
        choices = bot_choices(self.game)
        yield Static("Bots (clockwise from your left)", classes="section")
        for i in range(1, self.game.max_players):
            value = d.bots[i - 1] if i - 1 < len(d.bots) else "medium"
            if value not in [c[1] for c in choices]:
                choices = [*choices, (value, value)]
            with Horizontal(classes="row", id=f"botrow{i}"):
                yield Label(BOT_NAMES[(i - 1) % len(BOT_NAMES)])
                yield Select(choices, value=value, allow_blank=False, id=f"bot{i}")
        yield Static(f"The {self._controller().words.match}", classes="section")
        labels = self._controller().option_labels
        for key, setting in d.options.items():
            yield from self._row(labels.get(key, _label(key)), Input(_text(setting), placeholder="no limit",
                                                                     id=f"option-{key}"))
        yield from self._row("Seed", Input(str(d.seed), id="seed"))
        yield from self._row("Rated: no undo, hints", Switch(d.rated, id="rated"))

    def _controller(self) -> Any:
        from mustamaija.tui.plugin import table_of

        return table_of(self.game).controller

    @staticmethod
    def _rule_widget(key: str, value: Any, allowed: Sequence[Any] | None) -> Any:
        if isinstance(value, bool):
            return Switch(value, id=f"rule-{key}")
        if allowed:
            return Select([(value_label(key, a), a) for a in allowed], value=value, allow_blank=False, id=f"rule-{key}")
        return Input(_text(value), placeholder="none", id=f"rule-{key}")

    @staticmethod
    def _row(label: str, widget: Any) -> ComposeResult:
        with Horizontal(classes="row"):
            yield Label(label)
            yield widget

    def on_mount(self) -> None:
        """Show the bot rows the player count needs."""
        self.title = self.app.title = self.game.title
        self.sub_title = f"new {self._controller().words.match}"
        self._show_bots()
        self.query_one("#players", Select).focus()

    def _show_bots(self) -> None:
        players = self.query_one("#players", Select).value
        n = players if isinstance(players, int) else self.defaults.players
        for i in range(1, self.game.max_players):
            self.query_one(f"#botrow{i}").display = i < n

    @on(Select.Changed, "#game")
    def _game(self, event: Select.Changed) -> None:
        name = event.value
        if not isinstance(name, str) or name == self.game.name:
            return
        game = get_game(name)
        players = min(max(self.defaults.players, game.min_players), game.max_players)
        self.app.switch_screen(SetupScreen(MatchConfig(game.name, players=players, seed=self.defaults.seed,
                                                       rated=self.defaults.rated)))

    @on(Select.Changed, "#players")
    def _players(self) -> None:
        self._show_bots()

    @on(Select.Changed, "#preset")
    def _preset(self, event: Select.Changed) -> None:
        name = event.value
        if not isinstance(name, str) or name not in self.game.presets:
            return
        for key, value in self.game.make_rules(name).to_json().items():
            widget = self.query_one(f"#rule-{key}")
            if isinstance(widget, Input):
                widget.value = _text(value)
            else:
                widget.value = value  # type: ignore[attr-defined]

    @on(Select.Changed, ".row Select")
    @on(Switch.Changed)
    @on(Input.Changed)
    def _option(self, event: Any) -> None:
        if not str(getattr(event.control, "id", "")).startswith("rule-"):
            return
        try:
            name = self._preset_of(self._rules())
        except (MustamaijaError, ValueError):
            return
        preset: Select[Any] = self.query_one("#preset", Select)
        if preset.value != name:
            preset.value = name

    def _preset_of(self, rules: Any) -> str:
        return next((p for p in self.game.presets if self.game.make_rules(p) == rules), CUSTOM)

    def _rules(self) -> Any:
        overrides: dict[str, Any] = {}
        for key in self.choices:
            widget = self.query_one(f"#rule-{key}")
            if isinstance(widget, Input):
                text = widget.value.strip()
                try:
                    overrides[key] = json.loads(text) if text else None
                except json.JSONDecodeError:
                    overrides[key] = text
            else:
                overrides[key] = widget.value  # type: ignore[attr-defined]
        return self.game.make_rules(None, overrides)

    def config(self) -> MatchConfig:
        """Return the match the form describes (raising on bad input)."""
        def number(widget_id: str, what: str) -> int | None:
            text = self.query_one(f"#{widget_id}", Input).value.strip()
            if not text:
                return None
            try:
                return int(text)
            except ValueError:
                raise MustamaijaError(f"{what}: {text!r} is not a whole number") from None

        rules = self._rules()
        players = self.query_one("#players", Select).value
        assert isinstance(players, int)
        bots = tuple(str(self.query_one(f"#bot{i}", Select).value) for i in range(1, players))
        labels = self._controller().option_labels
        options = {k: number(f"option-{k}", labels.get(k, _label(k)).lower()) for k in self.defaults.options}
        seed = number("seed", "seed")
        config = MatchConfig(self.game.name, players=players, rules=rules, bots=bots, seed=seed or 0,
                             rated=self.query_one("#rated", Switch).value, options=options)
        config.validate()
        return config

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        """Start the match."""
        app = host(self)
        try:
            config = self.config()
        except NoMatches:  # A key pressed while the form is still being built (right after a change of game).
            return
        try:
            session = GameSession(config, save_dir=app.save_dir)
        except MustamaijaError as e:
            self.query_one("#setup-error", Static).update(Text("✗ " + self._controller().explain(str(e))))
            return
        app.start_game(session)

    @on(Button.Pressed, "#quit-setup")
    def _quit(self) -> None:
        self.app.exit(0)
