"""The replay stepper of every game: a record, forwards and backwards, with every hand shown."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from mustamaija.core.protocol import Game
from mustamaija.tui.play_screen import draw_panels, table_panels
from mustamaija.tui.plugin import Scene, table_of
from mustamaija.tui.widgets import LogPanel

__all__ = ["ReplayScreen"]


class ReplayScreen(Screen[None]):
    """Step through a record, forwards and backwards, with every hand shown."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "step(1)", "next"), Binding("left,backspace,p", "step(-1)", "back"),
        Binding("home", "jump(0)", "start"), Binding("end", "jump(-1)", "end"), Binding("q,escape", "app.quit", "quit"),
    ]

    def __init__(self, record: Any, game: Game, title: str = "") -> None:
        super().__init__()
        self.record = record
        self.game = game
        self.plugin = table_of(game)
        self.heading = title
        meta = record.extra.get("match")
        names = meta.get("names") if isinstance(meta, dict) else None
        if isinstance(names, list) and len(names) == record.players and all(isinstance(x, str) for x in names):
            self.names = [str(x) for x in names]
        else:
            self.names = [f"Seat {s}" for s in range(record.players)]
        state = record.start()
        self.states = [state.copy()]
        controller = self.plugin.controller
        self.lines: list[list[str]] = [[f"{controller.words.deal.capitalize()} of {record.players} players, "
                                        f"{self.names[record.dealer]} dealt."]]
        for action in record.actions:
            before = state.copy()
            state.play(action)
            self.states.append(state.copy())
            self.lines.append(controller.narrate(before, state, action, self.names, None))
        if state.is_over:
            self.lines[-1].extend(controller.deal_end(state, self.names, None))
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield from table_panels(self.plugin.renderer, side=False)
        yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        """Draw the deal."""
        self.title = self.app.title = f"{self.game.title} replay"
        self.redraw()

    def redraw(self) -> None:
        """Draw the state after action ``index``."""
        st = self.states[self.index]
        r = self.plugin.renderer
        n = len(self.states) - 1
        self.sub_title = f"{self.heading} · action {self.index} of {n}".strip(" ·")
        scene = Scene(st, None, self.names, [""] * st.players, reveal=True)
        draw_panels(self, r, scene)
        lines = [line for chunk in self.lines[: self.index + 1] for line in chunk]
        self.query_one("#log", LogPanel).show_lines(lines, you="\0")
        if st.is_over:
            end = self.plugin.controller.deal_end(st, self.names, None)[-1]
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
