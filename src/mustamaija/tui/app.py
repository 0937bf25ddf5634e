"""The Textual application of every game: the setup form, the table, the deal's end, replays, puzzles.

The screens draw what the UI-free modules hold (:mod:`.session` and the
game's controller) with its renderer's panels. Bots think in worker
threads, on private copies of the state, and their moves are applied one
compound action at a time, ``pace`` seconds apart.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.registry import game_for_record
from mustamaija.tui.dialogs import DealOverScreen, HintScreen, TextScreen
from mustamaija.tui.play_screen import GameScreen
from mustamaija.tui.replay_screen import ReplayScreen
from mustamaija.tui.session import GameSession, MatchConfig, autosave_name
from mustamaija.tui.setup_screen import SetupScreen

__all__ = [
    "CSS",
    "DealOverScreen",
    "GameScreen",
    "HintScreen",
    "ReplayScreen",
    "SetupScreen",
    "TableApp",
    "TextScreen",
]

CSS = """
Screen { layout: vertical; }
#top { height: 1fr; }
#left { width: 44; }
#seats { height: auto; border: round $primary; padding: 0 1; }
#info { height: auto; border: round $primary; padding: 0 1; }
#centre { width: 1fr; }
#table { height: 11; border: round $accent; padding: 0 1; }
#log { height: 1fr; border: round $primary; padding: 0 1; }
#side { width: 38; border: round $primary; padding: 0 1; }
#hand { height: auto; min-height: 7; max-height: 14; border: round $success; padding: 0 1; }
#hand:focus { border: heavy $success; }
#preview { height: 1; padding: 0 1; color: $text-muted; }
#message { height: 2; padding: 0 1; }
#command { margin: 0 0; }
.dialog { width: 84; height: auto; max-height: 90%; border: thick $accent; background: $surface; padding: 1 2; }
ModalScreen { align: center middle; }
.dialog Markdown { height: auto; max-height: 30; }
#hint-table { height: auto; padding: 0 2; }
.buttons { height: auto; margin-top: 1; }
.buttons Button { margin-right: 2; }
#setup { padding: 0 2; height: 1fr; }
#setup-buttons { height: auto; padding: 0 2; margin: 0; }
.narrow #columns { layout: vertical; }
.narrow .row Label { width: 18; }
.narrow .row Select, .narrow .row Input { width: 1fr; max-width: 44; }
.short #setup-title { display: none; }
#setup-title { text-align: center; text-style: bold; padding: 1 0; width: 100%; }
.row { height: 3; }
.row Label { width: 24; padding: 1 1 0 0; text-align: right; }
.row Select { width: 30; }
.row Input { width: 30; }
.row Switch { width: 10; }
.column { width: 1fr; height: auto; padding: 0 1; }
#columns { height: auto; }
.section { text-style: bold; padding: 1 0 0 0; color: $accent; }
#setup-error { color: $error; height: auto; padding: 1 0 0 0; }
#puzzles { height: 1fr; border: round $primary; }
#hands { height: auto; border: round $primary; padding: 0 1; }
.narrow #left { width: 36; }
.narrow #side { width: 1fr; }
.short #info { display: none; }
.short #table { height: 1fr; }
.short #message { height: 1; }
.short #hand { min-height: 5; }
"""


class TableApp(App[int]):
    """``mustamaija play`` (setup or a match of any game), ``mustamaija replay`` (a stepper) and the puzzles."""

    CSS = CSS
    TITLE = "Card table"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "save_quit", "save and quit", show=False, priority=True),
        Binding("ctrl+q", "save_quit", "quit", show=False, priority=True),
    ]

    def __init__(self, *, session: GameSession | None = None, setup: MatchConfig | None = None,
                 record: Any = None, record_title: str = "", screens: Sequence[Screen[Any]] = (),
                 pace: float = 0.8, autosave: str | None = None, save_dir: str | None = None,
                 hint_seconds: float = 1.0) -> None:
        super().__init__()
        self.session = session
        self.setup = setup
        self.record = record
        self.record_title = record_title
        self.screens = list(screens)
        self.pace = pace
        self.autosave = autosave
        self.save_dir = save_dir
        self.hint_seconds = hint_seconds
        self.exit_note = ""

    def on_mount(self) -> None:
        """Open the first screen."""
        if self.record is not None:
            game = game_for_record(self.record.to_json())
            self.push_screen(ReplayScreen(self.record, game, self.record_title))
        elif self.screens:
            for screen in self.screens:
                self.push_screen(screen)
        elif self.session is not None:
            self.push_screen(GameScreen(self.session))
        else:
            self.push_screen(SetupScreen(self.setup or MatchConfig(seed=random.SystemRandom().randrange(10**6))))

    def start_game(self, session: GameSession) -> None:
        """Leave the setup for the table."""
        self.session = session
        self.switch_screen(GameScreen(session))

    def save_deal(self, path: str | None = None) -> str:
        """Save the current deal as a record; return where."""
        s = self.session
        if s is None:
            raise MustamaijaError("no game to save")
        if path is None:
            path = os.path.join(self.save_dir, s.file_name()) if self.save_dir else s.file_name()
        return s.save(path)

    def action_save_quit(self) -> None:
        """Ctrl-C: save the game in progress, then leave."""
        s = self.session
        if s is not None and not s.match_over:
            path = self.autosave or autosave_name(s.game)
            try:
                s.save(path)
                self.exit_note = f"Game saved to {path}. Resume with: mustamaija play --load {path}"
            except (OSError, MustamaijaError) as e:
                self.exit_note = f"Could not save the game: {e}"
        self.exit(0)

    def finish(self) -> None:
        """Leave at the end of the match, printing the standings."""
        if self.session is not None:
            self.exit_note = self.session.summary()
        self.exit(0)
