"""The end of a Black Maria hand: its points, the running totals (B8) and what next."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from mustamaija.tui.bm_session import BmGame

if TYPE_CHECKING:
    from mustamaija.tui.bm_app import BlackMariaApp

__all__ = ["HandOverScreen"]


class HandOverScreen(ModalScreen[str]):
    """The hand's points and the totals; Enter deals the next hand (or leaves once the game is over)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,n", "next", "next hand"),
        Binding("s", "save", "save record"),
        Binding("escape", "look", "look at the table"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, game: BmGame) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        g = self.game
        result = g.table.results[-1]
        table = Table(title=f"Hand {g.hand_no}", box=None, expand=False, title_style="bold")
        for name in ("player", "this hand", "total"):
            table.add_column(name, justify="left" if name == "player" else "right")
        for seat, total in g.table.match.standings():
            table.add_row(g.names[seat], str(result.points[seat]), str(total), style="bold" if seat == g.human else "")
        rules = g.config.rules
        if g.game_over:
            head = Text(f"Game over: {g.winners_text()}.", style="bold magenta")
        else:
            ends = []
            if rules.target_score is not None:
                ends.append(f"until someone reaches {rules.target_score}")
            if rules.hands is not None:
                ends.append(f"{rules.hands - g.table.match.played} hand(s) left")
            head = Text(f"Hand {g.hand_no} is over. The game goes on: " + " or ".join(ends) + ".", style="bold")
        with Vertical(classes="dialog"):
            yield Static(head)
            yield Static(table)
            yield Static(Text("The lowest total wins (B8).", style="dim"))
            yield Static("", id="hand-over-note")
            with Horizontal(classes="buttons"):
                if g.game_over:
                    yield Button("Leave (q)", id="quit", variant="primary")
                else:
                    yield Button("Next hand (Enter)", id="next", variant="success")
                yield Button("Save record (s)", id="save")
                yield Button("Look at the table (Esc)", id="look")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        getattr(self, f"action_{event.button.id}")()

    def action_next(self) -> None:
        """Deal the next hand (or leave, once the game is over)."""
        self.dismiss("quit" if self.game.game_over else "next")

    def action_quit(self) -> None:
        """Leave the game."""
        self.dismiss("quit")

    def action_look(self) -> None:
        """Close the dialog to look at the last trick and the log."""
        self.dismiss("look")

    def action_save(self) -> None:
        """Save the hand's record."""
        app = cast("BlackMariaApp", self.app)
        try:
            path = app.save_hand()
        except OSError as e:
            self.query_one("#hand-over-note", Static).update(Text(f"could not save: {e}", style="red"))
            return
        self.query_one("#hand-over-note", Static).update(Text(f"saved to {path}", style="green"))
