"""The Textual widgets of the table: panels that show Rich renderables, and the clickable hand."""

from __future__ import annotations

import io

from rich.console import Console, RenderableType
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import RichLog, Static

from .render import hand_layout

__all__ = ["HandPanel", "LogPanel", "Panel", "to_text"]


def to_text(renderable: RenderableType, width: int) -> Text:
    """Render a Rich renderable (a table, a group) once into styled text of the given width.

    Panels show plain styled text: Textual then never has to measure and
    re-render tables, which keeps every update cheap.
    """
    if isinstance(renderable, Text):
        return renderable
    console = Console(width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor",
                      legacy_windows=False)
    out = Text()
    lines = console.render_lines(renderable, console.options.update_width(width), pad=False)
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        for seg in line:
            if not seg.control:
                out.append(seg.text, seg.style)
    out.rstrip()
    return out


class Panel(Static):
    """A bordered panel with a title; ``show`` replaces its content and keeps the plain text for tests."""

    def __init__(self, title: str, *, id: str | None = None, classes: str | None = None, width: int = 36) -> None:
        super().__init__("", id=id, classes=classes)
        self.border_title = title
        self.text = ""
        self.fallback_width = width
        self._shown: Text | None = None
        self._source: RenderableType | None = None

    def show(self, renderable: RenderableType) -> None:
        """Show a renderable; remember its plain text (for tests); skip the work when nothing changed."""
        width = self.content_size.width or self.fallback_width
        self._source = renderable
        text = to_text(renderable, width)
        if self._shown is not None and text == self._shown:
            return
        lines_changed = self._shown is None or self._shown.plain.count("\n") != text.plain.count("\n")
        self._shown = text
        self.text = text.plain
        self.update(text, layout=lines_changed)

    def on_resize(self, event: events.Resize) -> None:
        """Render tables again for the new width."""
        if self._source is not None and not isinstance(self._source, Text):
            self._shown = None
            self.show(self._source)


class HandPanel(Panel):
    """The person's hand: focusable, and a click on a card chooses it."""

    can_focus = True
    cards = 0
    """How many cards are shown (set by the screen), to map clicks to cards."""

    class CardClicked(Message):
        """A card of the hand was clicked: its index in the sorted hand."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def on_click(self, event: events.Click) -> None:
        """Turn a click into the index of the card under it."""
        x = event.x - self.gutter.left
        y = event.y - self.gutter.top
        cell, per_row, lines = hand_layout(self.cards, self.content_size.width or self.fallback_width)
        if x >= 0 and y >= 0 and x // cell < per_row:
            self.post_message(self.CardClicked(y // lines * per_row + x // cell))


class LogPanel(RichLog):
    """The deal log (scrolled by the mouse; it never takes the keyboard from the hand)."""

    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, auto_scroll=True, min_width=20)
        self.border_title = "Log"
        self.lines_written: list[str] = []

    def show_lines(self, lines: list[str], *, you: str = "You") -> None:
        """Write the lines not written yet; start again when the log was rewritten (undo, a new deal)."""
        if lines[: len(self.lines_written)] != self.lines_written:
            self.clear()
            self.lines_written = []
        for line in lines[len(self.lines_written):]:
            style = "bold" if line.lstrip().startswith(you) else ""
            if "the Mustamaija, left holding" in line:
                style = "bold magenta"
            self.write(Text(line, style=style))
            self.lines_written.append(line)
