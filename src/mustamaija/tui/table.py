"""The table screen the game and the puzzles share: the hand chosen by keyboard or mouse, and the command line."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input, Static

from mustamaija.core.cards import SUIT_SYMBOLS
from mustamaija.core.errors import MustamaijaError
from mustamaija.games.mustamaija.actions import Action
from mustamaija.games.mustamaija.state import DEFEND, LEAD, State
from mustamaija.tui.describe import cards_text, explain_error
from mustamaija.tui.render import hand_text
from mustamaija.tui.selection import Selection, playable
from mustamaija.tui.widgets import CommandLine, HandPanel

__all__ = ["TableScreen"]

class TableScreen(Screen[None]):
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

    def __init__(self) -> None:
        super().__init__()
        self.selection = Selection()

    # -- what a subclass provides ----------------------------------------------------------------

    def table_state(self) -> State:
        """Return the state shown."""
        raise NotImplementedError

    def my_seat(self) -> int:
        """Return the person's seat."""
        return 0

    def my_turn(self) -> bool:
        """Return whether the person is to act."""
        return False

    def act(self, action: Action) -> None:
        """Carry out the person's action (checked by the subclass)."""
        raise NotImplementedError

    def command(self, text: str) -> bool:
        """Handle a typed line; return whether it succeeded."""
        raise NotImplementedError

    def redraw(self) -> None:
        """Redraw every panel."""
        raise NotImplementedError

    # -- shared ---------------------------------------------------------------------------------------

    def say(self, text: str, *, error: bool = False) -> None:
        """Show a message under the hand: errors in red with a cross, news in green."""
        msg = Text("✗ " + text, style="bold red") if error else Text(text, style="green" if text.startswith("✓") else "")
        self.query_one("#message", Static).update(msg, layout=False)
        self.last_message = text

    last_message = ""

    def draw_hand(self) -> None:
        """Draw the hand and the preview of what Enter does."""
        st = self.table_state()
        seat = self.my_seat()
        hand = self.query_one("#hand", HandPanel)
        if self.my_turn():
            self.selection.sync(st, seat)
            sel = self.selection
            can = playable(st, seat, sel.chosen, sel.pairs)
            marks = {b: "→" + cards_text(1 << t) for t, b in sel.pairs.items()}
            hand.cards = len(sel.order)
            hand.show(hand_text(sel.order, cursor=sel.cursor, chosen=sel.chosen, playable=can, marks=marks,
                                focused=True, width=hand.content_size.width or 100))
            preview = sel.preview(st, seat)
            if st.phase == LEAD and not st.in_progress:
                decl = [d.suit for d in st.legal_declares()]
                if decl:
                    preview += "  ·  m: declare the marriage in " + " or ".join(SUIT_SYMBOLS[s] for s in decl)
            self.query_one("#preview", Static).update(Text(preview, style="bold"), layout=False)
        else:
            self.selection.sync(st, seat)
            hand.cards = len(self.selection.order)
            hand.show(hand_text(self.selection.order, cursor=-1, playable=-1, focused=False,
                                width=hand.content_size.width or 100))
            self.query_one("#preview", Static).update("", layout=False)

    def focus_command(self) -> None:
        """Give the keyboard to the command line (it keeps it: the hand is worked through it)."""
        self.query_one("#command", CommandLine).focus()

    def on_screen_resume(self) -> None:
        """Take the keyboard back after a dialog."""
        self.focus_command()

    def action_move(self, delta: int) -> None:
        """Move the cursor along the hand."""
        self.selection.move(delta)
        self.draw_hand()

    def action_target(self, delta: int) -> None:
        """Point at another led card (when defending)."""
        st = self.table_state()
        if st.phase == DEFEND and self.my_turn():
            self.selection.cycle_target(st, delta)
            self.redraw()

    def action_choose(self) -> None:
        """Choose or put back the card under the cursor."""
        if not self.my_turn():
            self.say("wait for your turn", error=True)
            return
        try:
            note = self.selection.toggle(self.table_state(), self.my_seat())
        except MustamaijaError as e:
            self.say(explain_error(str(e)), error=True)
            return
        self.say(note)
        self.redraw()

    def action_play(self) -> None:
        """Play what is chosen: the lead, or the defence."""
        if not self.my_turn():
            self.say("wait for your turn", error=True)
            return
        self.act(self.selection.action(self.table_state(), self.my_seat()))

    def action_escape(self) -> None:
        """Clear the command line, or else the cards chosen."""
        box = self.query_one("#command", CommandLine)
        if box.value:
            box.value = ""
            return
        self.selection.chosen = 0
        self.selection.pairs = {}
        self.redraw()

    @on(HandPanel.CardClicked)
    def _clicked(self, event: HandPanel.CardClicked) -> None:
        if self.selection.goto(event.index):
            self.action_choose()

    @on(Input.Submitted, "#command")
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value
        if not text.strip():
            event.input.value = ""
            self.action_play()
        elif self.command(text):
            event.input.value = ""
