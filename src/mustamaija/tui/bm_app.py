"""The Textual application of ``mustamaija play --game black-maria``: the table, saving, and Ctrl-C.

The styles are the Mustamaija game's, so the two games look alike.
"""

from __future__ import annotations

import os
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from mustamaija.core.errors import MustamaijaError
from mustamaija.tui.app import CSS
from mustamaija.tui.bm_dialogs import HandOverScreen
from mustamaija.tui.bm_screen import BmScreen
from mustamaija.tui.bm_session import BM_AUTOSAVE, BmGame

__all__ = ["BlackMariaApp", "BmScreen", "HandOverScreen"]


class BlackMariaApp(App[int]):
    """A game of Black Maria against bots in the terminal."""

    CSS = CSS
    TITLE = "Black Maria"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "save_quit", "save and quit", show=False, priority=True),
        Binding("ctrl+q", "save_quit", "quit", show=False, priority=True),
    ]

    def __init__(self, game: BmGame, *, pace: float = 0.8, autosave: str = BM_AUTOSAVE,
                 save_dir: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.pace = pace
        self.autosave = autosave
        self.save_dir = save_dir
        self.exit_note = ""

    def on_mount(self) -> None:
        """Open the table."""
        self.push_screen(BmScreen(self.game))

    def save_hand(self, path: str | None = None) -> str:
        """Save the hand in play (or just finished) as a record; return where."""
        g = self.game
        if path is None:
            name = f"black-maria-{g.config.seed}-hand{g.hand_no}.json"
            path = os.path.join(self.save_dir, name) if self.save_dir else name
        return g.save(path)

    def action_save_quit(self) -> None:
        """Ctrl-C: save the hand in progress, then leave."""
        g = self.game
        if not g.game_over:
            try:
                g.save(self.autosave)
                self.exit_note = (f"Game saved to {self.autosave}. Resume with: "
                                  f"mustamaija play --game black-maria --load {self.autosave}")
            except (OSError, MustamaijaError) as e:
                self.exit_note = f"Could not save the game: {e}"
        self.exit(0)

    def finish(self) -> None:
        """Leave at the end of the game, printing the totals."""
        g = self.game
        totals = ", ".join(f"{g.names[s]} {t}" for s, t in g.table.match.standings())
        self.exit_note = f"Game over after {g.table.match.played} hand(s): {g.winners_text()}. Totals: {totals}."
        self.exit(0)
