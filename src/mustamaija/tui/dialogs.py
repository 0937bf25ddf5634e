"""Dialogs of every table: a Markdown text (rules, help, solution), a hint, and the end of a deal."""

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

from mustamaija.core.errors import MustamaijaError
from mustamaija.tui.host import host
from mustamaija.tui.plugin import Hint
from mustamaija.tui.session import GameSession

__all__ = ["DealOverScreen", "HintScreen", "TextScreen"]


class TextScreen(ModalScreen[None]):
    """A scrollable Markdown text: the rules, the help, a solution."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,enter", "close", "close")]

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

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "take", "choose it"), Binding("escape,q", "close", "close")]

    def __init__(self, hint: Hint) -> None:
        super().__init__()
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            source = {"solver": "the exact solver", "search": "the search bot",
                      "rule": "the bots' rule"}.get(self.hint.source, self.hint.source)
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
    """The end of a deal: how it ended, its scores and the totals, and what next."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,n", "next", "next"), Binding("s", "save", "save record"),
        Binding("escape", "look", "look at the table"), Binding("q", "quit", "quit"),
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        s = self.session
        c = s.controller
        result = s.results[-1] if s.results else None
        table = Table(title=f"{c.words.deal.capitalize()} {s.played}", box=None, expand=False, title_style="bold")
        for name in ("player", f"this {c.words.deal}", c.words.score):
            table.add_column(name, justify="left" if name == "player" else "right")
        for seat, total in s.standings():
            this = "-" if result is None or result.scores is None else str(result.scores[seat])
            table.add_row(s.names[seat], this, str(total), style="bold" if seat == s.human else "")
        of = f" of {s.deals}" if s.deals is not None else ""
        if s.over:
            news = Text(f"{c.words.match.capitalize()} over: {s.winners_text()}.", style="bold magenta")
        else:
            ends = []
            if s.limit is not None:
                ends.append(f"until someone reaches {s.limit}")
            if s.deals is not None:
                ends.append(f"{s.deals - s.played} {c.words.deal}(s) left")
            news = Text(f"{c.words.deal.capitalize()} {s.played}{of} played. The {c.words.match} goes on: "
                        + " or ".join(ends) + ".")
        with Vertical(classes="dialog"):
            yield Static(s.plugin.renderer.deal_over(s))
            yield Static(news)
            yield Static(table)
            if c.words.win_rule:
                yield Static(Text(c.words.win_rule, style="dim"))
            yield Static("", id="deal-over-note")
            with Horizontal(classes="buttons"):
                if s.over:
                    yield Button("Leave (q)", id="quit", variant="primary")
                else:
                    yield Button(f"Next {c.words.deal} (Enter)", id="next", variant="success")
                yield Button("Save record (s)", id="save")
                yield Button("Look at the table (Esc)", id="look")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        getattr(self, f"action_{event.button.id}")()

    def action_next(self) -> None:
        """Deal the next deal (or leave, once the match is over)."""
        self.dismiss("quit" if self.session.over else "next")

    def action_quit(self) -> None:
        """Leave the game."""
        self.dismiss("quit")

    def action_look(self) -> None:
        """Close the dialog to look at the final table."""
        self.dismiss("look")

    def action_save(self) -> None:
        """Save the deal's record."""
        note = self.query_one("#deal-over-note", Static)
        try:
            path = host(self).save_deal()
        except (OSError, MustamaijaError) as e:
            note.update(Text(f"could not save: {e}", style="red"))
            return
        note.update(Text(f"saved to {path}", style="green"))

