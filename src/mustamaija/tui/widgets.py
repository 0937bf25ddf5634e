"""The Textual widgets of the table: panels that show Rich renderables, and the clickable hand."""

from __future__ import annotations

import io
import textwrap
from collections.abc import Callable

from rich.console import Console, RenderableType
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Input, RichLog, Static

from mustamaija.tui.render import hand_layout

__all__ = ["CommandLine", "HandPanel", "LogPanel", "Panel", "to_text"]


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
    """The person's hand: a click on a card chooses it (the keyboard stays with the command line)."""

    can_focus = False
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

    def __init__(self, *, id: str | None = None, style_of: Callable[[str], str] | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, auto_scroll=True, min_width=20)
        self.border_title = "Log"
        self.lines_written: list[str] = []
        self.style_of = style_of
        """The game's style for a line that stands out (such as who lost), or ``None``."""

    _wrap_width = 0

    def show_lines(self, lines: list[str], *, you: str = "You") -> None:
        """Write the lines not written yet; start again when the log was rewritten (undo, a new deal)."""
        if lines[: len(self.lines_written)] != self.lines_written:
            self.clear()
            self.lines_written = []
        self._you = you
        for line in lines[len(self.lines_written):]:
            self._put(line)
            self.lines_written.append(line)

    def _put(self, line: str) -> None:
        style = "bold" if line.lstrip().startswith(self._you) else ""
        if self.style_of is not None:
            style = self.style_of(line) or style
        width = self.scrollable_content_region.width - 3  # Room for the scroll bar when it comes.
        self._wrap_width = width
        if width < 16:
            self.write(Text(line, style=style))
            return
        # Wrap here, with a hanging indent, so that a long entry still reads as one entry.
        lead = " " * (len(line) - len(line.lstrip(" ")) + 2)
        for part in textwrap.wrap(line, width, subsequent_indent=lead) or [""]:
            self.write(Text(part, style=style))

    _you = "You"

    def on_resize(self, event: events.Resize) -> None:
        """Wrap the whole log again for the new width."""
        super().on_resize(event)
        if self.scrollable_content_region.width - 3 != self._wrap_width and self.lines_written:
            lines = self.lines_written
            self.clear()
            self.lines_written = []
            self.show_lines(lines, you=self._you)


class CommandLine(Input):
    """The command line, which keeps the keyboard for the whole game.

    Every printable key is typed into the line, so a move typed at any
    speed arrives whole (``2S 6H``). While the line is empty, the keys that
    cannot start a move or a command (the arrows, space, Enter and the
    screen's own ``EMPTY_LINE_KEYS``) act on the hand instead: their action
    runs on the screen at once, in the order the keys came.
    """

    async def _on_key(self, event: events.Key) -> None:
        if not self.value:
            keys: dict[str, str] = getattr(self.screen, "EMPTY_LINE_KEYS", {})
            action = keys.get(event.key)
            if action is not None:
                event.stop()
                event.prevent_default()
                await self.app.run_action(action, self.screen)
                return
        await super()._on_key(event)
