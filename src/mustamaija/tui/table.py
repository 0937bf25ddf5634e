"""The screen every table shares: the person's hand, chosen by keyboard or mouse, and the command line.

The choice of cards is the game's :class:`~mustamaija.tui.plugin.HandChoice`;
this screen only turns keys into its calls and draws the hand it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input, Static

from mustamaija.core.errors import MustamaijaError
from mustamaija.tui.plugin import HandChoice
from mustamaija.tui.render import hand_text
from mustamaija.tui.widgets import CommandLine, HandPanel

__all__ = ["HandScreen"]


class HandScreen(Screen[None]):
    """A table with the person's hand: choosing cards by keyboard or mouse, and a command line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "←→ card", show=False),
        Binding("right", "move(1)", show=False),
        Binding("up", "target(-1)", show=False),
        Binding("down", "target(1)", show=False),
        Binding("space", "choose", "choose"),
        Binding("enter", "play", "play"),
        Binding("escape", "escape", "clear", show=False),
    ]

    EMPTY_LINE_KEYS: ClassVar[dict[str, str]] = {
        "left": "move(-1)", "right": "move(1)", "space": "choose", "enter": "play",
    }
    """Keys that act on the hand while the command line is empty (none of them can start a typed move)."""

    last_message = ""

    def __init__(self, choice: HandChoice, seat: int = 0, names: Sequence[str] = ()) -> None:
        super().__init__()
        self.choice = choice
        self.seat = seat
        """The person's seat."""
        self.names = list(names)
        """The seats' names."""

    # -- what a subclass provides: the state (below: drawing, acting and typed lines); the rest has defaults --

    def table_state(self) -> Any:
        """Return the state shown."""
        raise NotImplementedError

    def explain(self, message: str) -> str:
        """Return an error message with its rule explained."""
        return message

    def hand_title(self) -> str:
        """Return the hand panel's title."""
        return "Your hand"

    def preview_text(self) -> str:
        """Return what Enter does now."""
        return self.choice.preview(self.table_state(), self.seat, self.names)

    # -- shared ---------------------------------------------------------------------------------------

    def say(self, text: str, *, error: bool = False) -> None:
        """Show a message under the hand: errors in red with a cross, news in green."""
        msg = Text("✗ " + text, style="bold red") if error else Text(text, style="green" if text.startswith("✓") else "")
        self.query_one("#message", Static).update(msg, layout=False)
        self.last_message = text

    def fail(self, error: Exception) -> bool:
        """Show an error with its rule explained; return False."""
        self.say(self.explain(str(error)), error=True)
        return False

    def redraw(self) -> None:
        """Redraw every panel (a subclass draws its own, then the hand with :meth:`draw_hand`)."""
        raise NotImplementedError

    def draw_hand(self) -> None:
        """Draw the hand (chosen cards raised, the cursor's card framed, unplayable cards dimmed) and the preview."""
        st = self.table_state()
        seat = self.seat
        c = self.choice
        c.sync(st, seat)
        hand = self.query_one("#hand", HandPanel)
        hand.cards = len(c.order)
        hand.border_title = self.hand_title()
        focused = c.focused(st, seat)
        hand.show(hand_text(c.order, cursor=c.cursor if focused else -1, chosen=c.chosen, playable=c.bright(st, seat),
                            marks=c.marks(st, seat), focused=focused, width=hand.content_size.width or 100))
        self.query_one("#preview", Static).update(Text(self.preview_text(), style="bold"), layout=False)

    def focus_command(self) -> None:
        """Give the keyboard to the command line (it keeps it: the hand is worked through it)."""
        self.query_one("#command", CommandLine).focus()

    def on_screen_resume(self) -> None:
        """Take the keyboard back after a dialog."""
        self.focus_command()

    def action_move(self, delta: int) -> None:
        """Move the cursor along the hand."""
        self.choice.move(delta)
        self.draw_hand()

    def action_target(self, delta: int) -> None:
        """Point at another card on the table (when defending)."""
        if self.choice.aim(self.table_state(), self.seat, delta):
            self.redraw()

    def action_choose(self) -> None:
        """Choose or put back the card under the cursor."""
        self._choose(lambda: self.choice.toggle(self.table_state(), self.seat))

    def _choose(self, change: Callable[[], str]) -> None:
        """Make a change to the choice; say what it did, or the rule it breaks."""
        try:
            note = change()
        except MustamaijaError as e:
            self.fail(e)
            return
        self.say(note)
        self.redraw()

    def action_play(self) -> None:
        """Make what is chosen (Enter)."""
        try:
            action = self.choice.action(self.table_state(), self.seat)
        except MustamaijaError as e:
            self.fail(e)
            return
        self.act(action)

    def act(self, action: Any) -> None:
        """Carry out the person's action (checked by the subclass)."""
        raise NotImplementedError

    def action_escape(self) -> None:
        """Clear the command line, or else the cards chosen."""
        box = self.query_one("#command", CommandLine)
        if box.value:
            box.value = ""
            return
        self.choice.clear()
        self.redraw()

    @on(HandPanel.CardClicked)
    def _clicked(self, event: HandPanel.CardClicked) -> None:
        self._choose(lambda: self.choice.click(self.table_state(), self.seat, event.index))

    def command(self, text: str) -> bool:
        """Handle a typed line; return whether it succeeded."""
        raise NotImplementedError

    @on(Input.Submitted, "#command")
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value
        if not text.strip():
            event.input.value = ""
            self.action_play()
        elif self.command(text):
            event.input.value = ""
