"""The replay stepper: a record, forwards and backwards, with every hand shown."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from mustamaija.core.cards import card_symbol
from mustamaija.games.mustamaija.actions import Beat, Lead
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.state import DEFEND
from mustamaija.tui.describe import describe_action, rules_name
from mustamaija.tui.render import info_text, seats_table, table_text
from mustamaija.tui.widgets import LogPanel, Panel

__all__ = ["ReplayScreen"]


class ReplayScreen(Screen[None]):
    """Step through a record, forwards and backwards, with every hand shown."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "step(1)", "next"),
        Binding("left,backspace,p", "step(-1)", "back"),
        Binding("home", "jump(0)", "start"),
        Binding("end", "jump(-1)", "end"),
        Binding("q,escape", "app.quit", "quit"),
    ]

    def __init__(self, record: Record, title: str = "") -> None:
        super().__init__()
        self.record = record
        self.heading = title
        meta = record.extra.get("match")
        names = meta.get("names") if isinstance(meta, dict) else None
        if isinstance(names, list) and len(names) == record.players and all(isinstance(x, str) for x in names):
            self.names = [str(x) for x in names]
        else:
            self.names = [f"Seat {s}" for s in range(record.players)]
        self.states = list(record.states())
        self.lines: list[list[str]] = [[
            f"Deal of {record.players} players, {self.names[record.dealer]} dealt; rules {rules_name(record.rules)}."]]
        for i, action in enumerate(record.actions):
            self.lines.append(describe_action(self.states[i], self.states[i + 1], action, self.names, reveal=True))
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield Panel("Seats and hands", id="seats")
                yield Panel("Game", id="info")
            with Vertical(id="centre"):
                yield Panel("Table", id="table")
                yield LogPanel(id="log")
        yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        """Draw the deal."""
        self.title = "Mustamaija replay"
        self.redraw()

    def redraw(self) -> None:
        """Draw the state after action ``index``."""
        st = self.states[self.index]
        n = len(self.states) - 1
        self.sub_title = f"{self.heading} · action {self.index} of {n}".strip(" ·")
        losses = [0] * st.n
        self.query_one("#seats", Panel).show(seats_table(st, self.names, [""] * st.n, losses, reveal=True,
                                                        show_losses=False))
        extra = [("Turn", str(st.turns + 1))]
        if st.talon_size:
            extra.append(("Next", " ".join(card_symbol(c) for c in st.talon_cards[:8])
                          + (" …" if st.talon_size > 8 else "")))
        self.query_one("#info", Panel).show(info_text(st, extra))
        last = None
        if st.phase != DEFEND and self.index > 0:
            acts = self.record.actions[: self.index]
            for i in range(len(acts) - 1, -1, -1):
                a = acts[i]
                if isinstance(a, Lead):
                    nxt = acts[i + 1] if i + 1 < len(acts) else None
                    if isinstance(nxt, Beat):
                        last = (a.cards, dict(nxt.pairs), f"Last turn: {self.names[a.seat]} led to {self.names[nxt.seat]}")
                    break
        self.query_one("#table", Panel).show(table_text(st, self.names, last=last))
        lines = [line for chunk in self.lines[: self.index + 1] for line in chunk]
        self.query_one("#log", LogPanel).show_lines(lines, you="\0")
        if st.is_over:
            end = (f"{self.names[st.loser]} is the Mustamaija." if st.finished else "The deal was stopped (M21).")
        elif self.index == n:
            end = "The record ends here."
        else:
            end = "→ / space: next action · ← : back · Home / End · q: quit"
        self.query_one("#message", Static).update(Text(end, style="dim"))

    def action_step(self, delta: int) -> None:
        """Go one action forwards or backwards."""
        self.index = max(0, min(len(self.states) - 1, self.index + delta))
        self.redraw()

    def action_jump(self, where: int) -> None:
        """Go to the start or the end."""
        self.index = 0 if where == 0 else len(self.states) - 1
        self.redraw()
