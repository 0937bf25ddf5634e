"""The setup form of a new match: players, rules, bots, length, seed and mode."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static, Switch

from mustamaija.core.cards import SUIT_SYMBOLS
from mustamaija.core.errors import MustamaijaError
from mustamaija.games.mustamaija.rules import PRESETS, Rules
from mustamaija.players.levels import bot_choices
from mustamaija.tui.describe import explain_error, rules_name
from mustamaija.tui.host import host
from mustamaija.tui.session import BOT_NAMES, GameSession, MatchConfig

__all__ = ["SetupScreen"]


class SetupScreen(Screen[None]):
    """Choose the players, rules, bots, match length, seed and mode."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "start"),
        Binding("escape", "app.quit", "quit"),
    ]

    def __init__(self, defaults: MatchConfig) -> None:
        super().__init__()
        self.defaults = defaults

    def compose(self) -> ComposeResult:
        d = self.defaults
        r = d.rules
        preset = rules_name(r)
        choices = bot_choices()
        yield Header()
        with VerticalScroll(id="setup"), Vertical(id="form"):
            yield Static(Text("♠ ♥  Mustamaija  ♦ ♣", style="bold"), id="setup-title")
            yield from self._form(d, r, preset, choices)
            yield Static("", id="setup-error")
            with Horizontal(classes="buttons"):
                yield Button("Start (Ctrl-S)", id="start", variant="success")
                yield Button("Quit", id="quit-setup")
        yield Footer()

    def _form(self, d: MatchConfig, r: Rules, preset: str, choices: list[tuple[str, str]]) -> ComposeResult:
        with Horizontal(id="columns"):
            with Vertical(classes="column"):
                yield Static("Rules", classes="section")
                yield from self._row("Players", Select([(str(n), n) for n in range(2, 9)], value=d.players,
                                                       allow_blank=False, id="players"))
                yield from self._row("Preset", Select([(n, n) for n in [*PRESETS, "custom"]], value=preset,
                                                      allow_blank=False, id="preset"))
                yield from self._row("Hand size (V1)", Select([(str(n), n) for n in (3, 5, 6)], value=r.hand_size,
                                                              allow_blank=False, id="hand_size"))
                yield from self._row("Trumps (V2)", Select([(t, t) for t in ("turned", "fixed", "marriage", "none")],
                                                           value=r.trump, allow_blank=False, id="trump"))
                yield from self._row("Fixed trump suit", Select([(f"{SUIT_SYMBOLS[i]} {s}", s) for i, s in enumerate("SHDC")],
                                                                value=r.trump_suit, allow_blank=False, id="trump_suit"))
                yield from self._row("Trump turned (M6)", Select([(t, t) for t in ("after_first_lead", "after_deal")],
                                                                 value=r.trump_turn, allow_blank=False, id="trump_turn"))
                yield from self._row("Spades trumps (M7)", Switch(r.spades_can_be_trump, id="spades_can_be_trump"))
                yield from self._row("Lead limit (M11)", Select([(t, t) for t in ("after_talon", "always")],
                                                                value=r.attack_limit, allow_blank=False, id="attack_limit"))
                yield from self._row("Most cards a lead", Input("" if r.max_lead is None else str(r.max_lead),
                                                                placeholder="no cap", id="max_lead"))
            with Vertical(classes="column"):
                yield Static("Bots (clockwise from your left)", classes="section")
                for i in range(1, 8):
                    value = d.bots[i - 1] if i - 1 < len(d.bots) else "medium"
                    if value not in [c[1] for c in choices]:
                        choices = [*choices, (value, value)]
                    with Horizontal(classes="row", id=f"botrow{i}"):
                        yield Label(BOT_NAMES[i - 1])
                        yield Select(choices, value=value, allow_blank=False, id=f"bot{i}")
                yield Static("Match", classes="section")
                yield from self._row("Deals", Input("" if d.deals is None else str(d.deals), placeholder="no limit",
                                                    id="deals"))
                yield from self._row("Stop at losses", Input("" if d.max_losses is None else str(d.max_losses),
                                                             placeholder="no limit", id="max_losses"))
                yield from self._row("Seed", Input(str(d.seed), id="seed"))
                yield from self._row("Rated: no undo, hints", Switch(d.rated, id="rated"))

    @staticmethod
    def _row(label: str, widget: Any) -> ComposeResult:
        with Horizontal(classes="row"):
            yield Label(label)
            yield widget

    def on_mount(self) -> None:
        """Show the bot rows the player count needs."""
        self.title = "Mustamaija"
        self.sub_title = "new match"
        self._show_bots()
        self.query_one("#players", Select).focus()

    def _show_bots(self) -> None:
        players = self.query_one("#players", Select).value
        n = players if isinstance(players, int) else 4
        for i in range(1, 8):
            self.query_one(f"#botrow{i}").display = i < n

    @on(Select.Changed, "#players")
    def _players(self) -> None:
        self._show_bots()

    @on(Select.Changed, "#preset")
    def _preset(self, event: Select.Changed) -> None:
        name = event.value
        if not isinstance(name, str) or name not in PRESETS:
            return
        r = PRESETS[name]
        for key in ("hand_size", "trump", "trump_suit", "trump_turn", "attack_limit"):
            sel: Select[Any] = self.query_one(f"#{key}", Select)
            sel.value = getattr(r, key)
        self.query_one("#spades_can_be_trump", Switch).value = r.spades_can_be_trump
        self.query_one("#max_lead", Input).value = "" if r.max_lead is None else str(r.max_lead)

    @on(Select.Changed, "#hand_size, #trump, #trump_suit, #trump_turn, #attack_limit")
    @on(Switch.Changed, "#spades_can_be_trump")
    @on(Input.Changed, "#max_lead")
    def _option(self) -> None:
        try:
            rules = self._rules()
        except (MustamaijaError, ValueError):
            return
        name = rules_name(rules)
        preset: Select[Any] = self.query_one("#preset", Select)
        if preset.value != name:
            preset.value = name

    def _rules(self) -> Rules:
        def value(key: str) -> Any:
            return self.query_one(f"#{key}", Select).value

        text = self.query_one("#max_lead", Input).value.strip()
        return Rules(hand_size=value("hand_size"), trump=value("trump"), trump_suit=value("trump_suit"),
                     trump_turn=value("trump_turn"), spades_can_be_trump=self.query_one("#spades_can_be_trump",
                                                                                        Switch).value,
                     attack_limit=value("attack_limit"), max_lead=int(text) if text else None)

    def config(self) -> MatchConfig:
        """Return the match the form describes (raising on bad input)."""
        def number(key: str) -> int | None:
            text = self.query_one(f"#{key}", Input).value.strip()
            if not text:
                return None
            try:
                return int(text)
            except ValueError:
                raise MustamaijaError(f"{key.replace('_', ' ')}: {text!r} is not a whole number") from None

        try:
            rules = self._rules()
        except ValueError as e:
            raise MustamaijaError(f"most cards a lead: {e}") from None
        players = self.query_one("#players", Select).value
        assert isinstance(players, int)
        bots = tuple(str(self.query_one(f"#bot{i}", Select).value) for i in range(1, players))
        seed = number("seed")
        config = MatchConfig(players=players, rules=rules, bots=bots, deals=number("deals"),
                             max_losses=number("max_losses"), seed=seed if seed is not None else 0,
                             rated=self.query_one("#rated", Switch).value)
        config.validate()
        return config

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        """Start the match."""
        app = host(self)
        try:
            session = GameSession(self.config(), save_dir=app.save_dir)
        except MustamaijaError as e:
            self.query_one("#setup-error", Static).update(Text("✗ " + explain_error(str(e))))
            return
        app.start_game(session)

    @on(Button.Pressed, "#quit-setup")
    def _quit(self) -> None:
        self.app.exit(0)
