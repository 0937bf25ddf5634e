"""The puzzle list and the puzzle screen: play a Mustamaija endgame out against the exact solver.

The screen is the terminal's shared hand screen (:class:`~mustamaija.tui.table.HandScreen`)
with the Mustamaija table's panels, choice of cards and typed moves.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from mustamaija.core.errors import MustamaijaError
from mustamaija.games.mustamaija.actions import Action
from mustamaija.games.mustamaija.puzzles import NAMES, Puzzle, PuzzleGame, load_puzzles, refutation_text
from mustamaija.games.mustamaija.state import DEFEND, State
from mustamaija.games.mustamaija.tui.commands import parse_command
from mustamaija.games.mustamaija.tui.controller import move_of
from mustamaija.games.mustamaija.tui.describe import explain_error
from mustamaija.games.mustamaija.tui.layout import MustamaijaRenderer
from mustamaija.games.mustamaija.tui.render import info_text, seats_table, table_text
from mustamaija.games.mustamaija.tui.selection import Selection
from mustamaija.tui.dialogs import TextScreen
from mustamaija.tui.play_screen import table_panels
from mustamaija.tui.table import HandScreen
from mustamaija.tui.widgets import CommandLine, HandPanel, LogPanel, Panel

__all__ = ["PUZZLE_HELP", "PuzzleMenu", "PuzzleScreen"]


def _level_mark(level: str) -> str:
    return {"easy": "●○○", "medium": "●●○", "hard": "●●●"}.get(level, level)


class PuzzleMenu(Screen[None]):
    """The list of puzzles, easiest first, with the ones solved ticked."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,escape", "app.quit", "quit")]

    def __init__(self, puzzles: Sequence[Puzzle]) -> None:
        super().__init__()
        self.puzzles = list(puzzles)
        self.solved: set[str] = set()

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(Text("Endgame puzzles: you lead; make sure you are not the Mustamaija, whatever the others do. "
                          "Enter opens one.", style="bold"), id="message")
        yield OptionList(*self._options(), id="puzzles")
        yield Footer()

    def _options(self) -> list[Option]:
        out = []
        for p in self.puzzles:
            tick = "✓" if p.id in self.solved else " "
            out.append(Option(f"{tick} {p.id}  {_level_mark(p.level)} {p.level:<6}  {len(p.hands)} players  {p.title}",
                              id=p.id))
        return out

    def on_mount(self) -> None:
        """Focus the list."""
        self.title = self.app.title = "Mustamaija puzzles"
        self.query_one("#puzzles", OptionList).focus()

    def on_screen_resume(self) -> None:
        """Refresh the ticks when coming back from a puzzle."""
        menu = self.query_one("#puzzles", OptionList)
        highlighted = menu.highlighted
        menu.clear_options()
        menu.add_options(self._options())
        menu.highlighted = highlighted

    @on(OptionList.OptionSelected)
    def _open(self, event: OptionList.OptionSelected) -> None:
        index = event.option_index
        self.app.push_screen(PuzzleScreen(self, index))


class PuzzleScreen(HandScreen):
    """One puzzle: play it out against the solver; a losing move is shown its refutation."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "help"), Binding("f2", "retry", "try again"), Binding("f3", "solution", "solution"),
        Binding("f4", "next_puzzle", "next puzzle"),
    ]

    EMPTY_LINE_KEYS: ClassVar[dict[str, str]] = {**HandScreen.EMPTY_LINE_KEYS, "question_mark": "help"}

    def __init__(self, menu: PuzzleMenu, index: int) -> None:
        selection = Selection()
        game = PuzzleGame(menu.puzzles[index])
        super().__init__(selection, 0, NAMES[: game.state.n])
        self.selection = selection
        self.menu = menu
        self.index = index
        self.game = game

    def compose(self) -> ComposeResult:
        yield Header()
        yield from table_panels(_RENDERER, side=False)
        yield HandPanel("Your hand", id="hand")
        yield Static("", id="preview")
        yield Static("", id="message")
        yield CommandLine(placeholder="type your lead (9H 4H) or defence (9H:JH, take), or: retry (r), solution (s), "
                                      "next (n); ← → space Enter choose from the hand", id="command",
                          select_on_focus=False)
        yield Footer()

    def on_mount(self) -> None:
        """Draw the position."""
        self.title = self.app.title = "Mustamaija puzzles"
        self.focus_command()
        self.say(self.game.puzzle.note)
        self.redraw()

    def table_state(self) -> State:
        return self.game.state

    def explain(self, message: str) -> str:
        return explain_error(message.replace("seat 0 does not hold", "you do not hold"))

    def act(self, action: Action) -> None:
        try:
            verdict = self.game.play(action)
        except MustamaijaError as e:
            self.fail(e)
            return
        if verdict.ok:
            self.say(verdict.message)
            if self.game.status == "solved":
                self.menu.solved.add(self.game.puzzle.id)
        else:
            self.say(verdict.message.removeprefix("✗ ") + " (in the log; r: try again, s: solution)", error=True)
            self.game.log.append("Refutation:")
            self.game.log.extend("  " + line for line in refutation_text(verdict.refutation))
        self.selection = Selection()
        self.choice = self.selection
        self.redraw()

    def command(self, text: str) -> bool:
        word = text.strip().lower()
        if word in ("retry", "r", "again"):
            self.action_retry()
            return True
        if word in ("solution", "solve", "s"):
            self.action_solution()
            return True
        if word in ("next", "n"):
            self.action_next_puzzle()
            return True
        if word in ("help", "?"):
            self.action_help()
            return True
        st = self.game.state
        try:
            action = move_of(parse_command(text), st, 0)
            st.verify(action)
        except MustamaijaError as e:
            return self.fail(e)
        self.act(action)
        return True

    def redraw(self) -> None:
        g = self.game
        st = g.state
        self.selection.sync(st, 0)
        p = g.puzzle
        names = list(NAMES[: st.n])
        self.sub_title = f"puzzle {p.id} · {p.level} · {st.n} players · {p.title}"
        self.query_one("#seats", Panel).show(seats_table(st, names, ["", *["solver"] * (st.n - 1)], [0] * st.n, me=0,
                                                        reveal=True, show_losses=False))
        status = {"solving": "to solve", "solved": "solved ✓", "failed": "failed ✗"}[g.status]
        extra = [("Puzzle", f"{p.id}, {p.level} {_level_mark(p.level)}"), ("Status", status)]
        self.query_one("#info", Panel).show(info_text(st, extra))
        mine = self.game.your_turn and st.phase == DEFEND
        pairs = self.selection.pairs if mine else None
        target = self.selection.target if mine else -1
        self.query_one("#table", Panel).show(table_text(st, names, pairs=pairs, target=target))
        self.query_one("#log", LogPanel).show_lines(g.log)
        self.draw_hand()

    def action_retry(self) -> None:
        """Start the puzzle again."""
        self.game.reset()
        self.selection = Selection()
        self.choice = self.selection
        self.say(self.game.puzzle.note)
        self.redraw()

    def action_solution(self) -> None:
        """Show the safe first leads and the solver's line."""
        self.app.push_screen(TextScreen("Solution", self.game.solution_text().replace("\n", "\n\n")))

    def action_next_puzzle(self) -> None:
        """Open the next puzzle."""
        if self.index + 1 < len(self.menu.puzzles):
            self.app.switch_screen(PuzzleScreen(self.menu, self.index + 1))
        else:
            self.action_back()

    def action_back(self) -> None:
        """Back to the list."""
        self.app.pop_screen()

    def action_escape(self) -> None:
        """Leave the command line, or clear the choice, or (with nothing chosen) go back to the list."""
        box = self.query_one("#command", CommandLine)
        if not box.value and not self.selection.chosen and not self.selection.pairs:
            self.action_back()
            return
        super().action_escape()

    def action_help(self) -> None:
        """Show the keys."""
        self.app.push_screen(TextScreen("Help", PUZZLE_HELP))


PUZZLE_HELP = """
Every card is known and the talon is empty; two or three players are left. You lead: find a lead that makes sure
you are **not** the Mustamaija (the one left holding Q♠), whatever the others do, then play it out. The exact
solver judges every move and plays the other seats; with three players the two others count as one side. A move
that lets them force your loss is shown its refutation.

| key | what it does |
|---|---|
| ← → space Enter | choose cards and play, as at the table (or type `9H 4H`, `9H:JH`, `take`) |
| ↑ ↓ | defending: mark another led card (Enter with no beater chosen picks up everything) |
| `r` Enter, F2 | try again |
| `s` Enter, F3 | show the solution |
| `n` Enter, F4 | next puzzle |
| ? or F1 | this help |
| Esc | clear the line, then your choice; again: back to the list |
"""


class _PuzzlePanels(MustamaijaRenderer):
    """The Mustamaija panels under the puzzle's titles."""

    titles: Mapping[str, str] = {"seats": "Position", "info": "Puzzle", "table": "Table"}


_RENDERER: Final = _PuzzlePanels()


async def screenshot(out: str) -> None:
    """Save ``puzzle.svg``: a three-player puzzle after a wrong first lead, the refutation in the log."""
    from mustamaija.tui.app import TableApp

    puzzles = load_puzzles()
    index = next(i for i, p in enumerate(puzzles) if len(p.hands) == 3)
    p = puzzles[index]
    menu = PuzzleMenu(puzzles)
    app = TableApp(screens=[menu, PuzzleScreen(menu, index)])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        wrong = next(lead for lead in p.start().legal_leads() if lead.cards not in p.solution)
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        screen.act(wrong)
        await pilot.pause(0.2)
        app.save_screenshot("puzzle.svg", out)


if __name__ == "__main__":  # python -m mustamaija.games.mustamaija.puzzles.screen docs/screenshots
    asyncio.run(screenshot(sys.argv[1] if len(sys.argv) > 1 else os.path.join("docs", "screenshots")))
