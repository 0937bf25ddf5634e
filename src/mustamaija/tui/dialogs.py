"""Dialogs: a Markdown text (rules, help, solution), a hint, and the end of a deal."""

from __future__ import annotations

from typing import ClassVar

from rich import box
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Markdown, Static

from mustamaija.tui.describe import cards_text
from mustamaija.tui.hints import Hint
from mustamaija.tui.host import host
from mustamaija.tui.session import GameSession

__all__ = ["DealOverScreen", "HintScreen", "TextScreen"]


class TextScreen(ModalScreen[None]):
    """A scrollable Markdown text: the rules, the help, a hint."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter", "close", "close"),
    ]

    def __init__(self, title: str, markdown: str) -> None:
        super().__init__()
        self.heading = title
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):
            yield Static(Text(self.heading, style="bold"))
            yield Markdown(self.markdown)
            yield Static(Text("Esc or Enter: close", style="dim"))

    def action_close(self) -> None:
        """Close the dialog."""
        self.dismiss(None)


class HintScreen(ModalScreen[bool]):
    """A hint: Enter chooses the suggested move in the hand, Esc closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "take", "choose it"),
        Binding("escape,q", "close", "close"),
    ]

    def __init__(self, hint: Hint) -> None:
        super().__init__()
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            source = {"solver": "the exact solver", "search": "the search bot"}.get(self.hint.source, self.hint.source)
            yield Static(Text(f"Hint · from {source}", style="bold"))
            yield Markdown(self.hint.text)
            if self.hint.rows:
                table = Table(box=box.SIMPLE_HEAD, expand=False, header_style="bold", pad_edge=False)
                for i, name in enumerate(self.hint.header):
                    table.add_column(name, justify="left" if i == 0 else "right")
                for i, row in enumerate(self.hint.rows):
                    table.add_row(*row, style="bold" if i == 0 else "")
                yield Static(table, id="hint-table")
            if self.hint.note:
                yield Static(Text.assemble(("Rule of thumb: ", "italic"), self.hint.note[0].upper() + self.hint.note[1:]))
            keys = "Enter: choose it in your hand · Esc: close" if self.hint.action is not None else "Esc: close"
            yield Static(Text(keys, style="dim"))

    def action_take(self) -> None:
        """Choose the suggested move."""
        self.dismiss(self.hint.action is not None)

    def action_close(self) -> None:
        """Close without choosing."""
        self.dismiss(False)


class DealOverScreen(ModalScreen[str]):
    """The end of a deal: who is the Mustamaija, the scores, and what next."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,n", "next", "next deal"),
        Binding("s", "save", "save record"),
        Binding("escape", "look", "look at the table"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        s = self.session
        st = s.state
        if st.finished:
            who = "You are" if st.loser == s.human else f"{s.names[st.loser]} is"
            head = Text(f"{who} the Mustamaija!", style="bold magenta")
            head.append(f"\nleft holding {cards_text(st.hands[st.loser])} after {st.turns} turns", style="")
        else:
            head = Text(f"The deal was stopped unfinished after {st.turns} turns (M21).", style="bold")
        table = Table(title="Losses", box=None, expand=False, title_style="bold")
        table.add_column("player")
        table.add_column("losses", justify="right")
        for seat, losses in s.match.standings():
            table.add_row(s.names[seat], str(losses))
        played = s.match.played
        total = f" of {s.config.deals}" if s.config.deals is not None else ""
        over = s.match.over
        with Vertical(classes="dialog"):
            yield Static(head)
            yield Static(Text(f"\nDeal {played}{total} played." + (" The match is over." if over else "")))
            yield Static(table)
            yield Static("", id="deal-over-note")
            with Horizontal(classes="buttons"):
                if over:
                    yield Button("Leave (q)", id="quit", variant="primary")
                else:
                    yield Button("Next deal (Enter)", id="next", variant="success")
                yield Button("Save record (s)", id="save")
                yield Button("Look at the table (Esc)", id="look")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        getattr(self, f"action_{event.button.id}")()

    def action_next(self) -> None:
        """Deal the next deal (or leave, once the match is over)."""
        self.dismiss("quit" if self.session.match.over else "next")

    def action_quit(self) -> None:
        """Leave the game."""
        self.dismiss("quit")

    def action_look(self) -> None:
        """Close the dialog to look at the final table."""
        self.dismiss("look")

    def action_save(self) -> None:
        """Save the deal's record."""
        app = host(self)
        path = app.save_deal()
        self.query_one("#deal-over-note", Static).update(Text(f"saved to {path}", style="green"))
