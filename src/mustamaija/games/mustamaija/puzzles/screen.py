"""The puzzle list and the puzzle screen: play a Mustamaija endgame out against the exact solver.

The screen is the terminal's shared hand screen (:class:`~mustamaija.tui.table.HandScreen`)
with the Mustamaija table's panels, choice of cards and typed moves. The list
and the screen show your streak of puzzles solved at the first try and the
marks of the puzzles tried (:mod:`.progress`); at the end of an attempt,
solved or failed, the log shows the solution: the safe first leads and the
solver's line.
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
from mustamaija.games.mustamaija.puzzles.progress import Progress
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


_TICKS: Final = {"solved": "✓", "failed": "✗", "later": "↻", "": " "}
"""The mark of a puzzle in the list: solved at the first try, failed at it, solved at a later try, not tried."""


class PuzzleMenu(Screen[None]):
    """The list of puzzles, easiest first, with their marks, and the streak of puzzles solved at the first try.

    ``progress`` is where the marks and the streak are kept (``mustamaija puzzle`` gives the one of the
    user's data directory); without one they last as long as the screen.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,escape", "app.quit", "quit"),
                                             Binding("n", "next_untried", "next not tried")]

    def __init__(self, puzzles: Sequence[Puzzle], progress: Progress | None = None) -> None:
        super().__init__()
        self.puzzles = list(puzzles)
        self.progress = progress if progress is not None else Progress()

    @property
    def solved(self) -> set[str]:
        """Return the ids of the puzzles solved, at the first try or later."""
        return {p.id for p in self.puzzles if self.progress.mark(p.key) in ("solved", "later")}

    def streak_text(self) -> str:
        """Return the streak, the best and the counts, for the header."""
        return self.progress.summary([p.key for p in self.puzzles])

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="message")
        yield OptionList(*self._options(), id="puzzles")
        yield Footer()

    def _intro(self) -> Text:
        text = Text("Endgame puzzles: you lead; make sure you are not the Mustamaija, whatever the others do. "
                    "Enter opens one; n opens the next one not tried yet.\n", style="bold")
        text.append(f"Streak of puzzles solved at the first try: {self.progress.streak} (best {self.progress.best}). "
                    "✓ solved at the first try, ✗ failed, ↻ solved at a later try.", style="")
        if self.progress.error:
            text.append(f"\n{self.progress.error}", style="red")
        return text

    def _options(self) -> list[Option]:
        out = []
        for p in self.puzzles:
            tick = _TICKS[self.progress.mark(p.key)]
            source = "from play" if p.source == "play" else "made"
            out.append(Option(f"{tick} {p.id:>3}  {_level_mark(p.level)} {p.level:<6}  {len(p.hands)} players  "
                              f"{source:<9}  {p.title}", id=p.id))
        return out

    def on_mount(self) -> None:
        """Focus the list and show the streak."""
        self.title = self.app.title = "Mustamaija puzzles"
        self.sub_title = self.streak_text()
        self.query_one("#message", Static).update(self._intro())
        self.query_one("#puzzles", OptionList).focus()

    def on_screen_resume(self) -> None:
        """Refresh the marks and the streak when coming back from a puzzle."""
        self.title = self.app.title = "Mustamaija puzzles"
        self.sub_title = self.streak_text()
        self.query_one("#message", Static).update(self._intro())
        menu = self.query_one("#puzzles", OptionList)
        highlighted = menu.highlighted
        menu.clear_options()
        menu.add_options(self._options())
        menu.highlighted = highlighted

    def next_untried(self, after: int = -1) -> int | None:
        """Return the index of the next puzzle not tried yet after ``after`` (round the end), or None."""
        n = len(self.puzzles)
        for k in range(1, n + 1):
            i = (after + k) % n
            if not self.progress.mark(self.puzzles[i].key):
                return i
        return None

    def action_next_untried(self) -> None:
        """Open the first puzzle not tried yet from the highlighted one on."""
        menu = self.query_one("#puzzles", OptionList)
        index = self.next_untried(menu.highlighted - 1 if menu.highlighted is not None else -1)
        if index is not None:
            self.app.push_screen(PuzzleScreen(self, index))

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
            if self.game.status == "solved":
                self.say(f"{verdict.message} {self._finish(True)}")
            else:
                self.say(verdict.message)
        else:
            self.game.log.append("Refutation:")
            self.game.log.extend("  " + line for line in refutation_text(verdict.refutation))
            streak = self._finish(False)
            self.say(verdict.message.removeprefix("✗ ") + f" (in the log, then the solution). {streak} "
                     "r: try again, n: next", error=True)
        self.selection = Selection()
        self.choice = self.selection
        self.redraw()

    def _finish(self, solved: bool) -> str:
        """Count the attempt (its first try counts for the streak), put the solution in the log; return the streak's news."""
        g = self.game
        progress = self.menu.progress
        first = progress.finish(g.puzzle.key, solved)
        g.log.append(g.safe_leads_text())
        g.log.append("Solver's line:")
        g.log.extend("  " + line for line in refutation_text(g.solution_line()))
        if not first:
            news = f"Not your first try at this puzzle: the streak stays at {progress.streak}."
        elif solved:
            news = f"Streak {progress.streak} (best {progress.best})."
        else:
            news = f"The streak is back to 0 (best {progress.best})."
        return news + (f" ({progress.error})" if progress.error else "")

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
        self.sub_title = f"puzzle {p.id} · {p.level} · {p.title} · streak {self.menu.progress.streak}"
        self.query_one("#seats", Panel).show(seats_table(st, names, ["", *["solver"] * (st.n - 1)], [0] * st.n, me=0,
                                                        reveal=True, show_losses=False))
        status = {"solving": "to solve", "solved": "solved ✓", "failed": "failed ✗"}[g.status]
        progress = self.menu.progress
        extra = [("Puzzle", f"{p.id}, {p.level} {_level_mark(p.level)}"), ("Status", status),
                 ("Streak", f"{progress.streak} (best {progress.best})")]
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
        """Show the safe first leads and the solver's line (asked for at the first try, it ends the attempt's streak)."""
        g = self.game
        text = g.solution_text().replace("\n", "\n\n")
        if g.status == "solving" and not self.menu.progress.mark(g.puzzle.key):
            self.menu.progress.finish(g.puzzle.key, solved=False)
            text += "\n\nAsked for at the first try, the solution counts as a miss: the streak is back to 0."
            self.redraw()
        self.app.push_screen(TextScreen("Solution", text))

    def action_next_puzzle(self) -> None:
        """Open the next puzzle not tried yet (else the next one in the list)."""
        index = self.menu.next_untried(self.index)
        if index is None and self.index + 1 < len(self.menu.puzzles):
            index = self.index + 1
        if index is None or index == self.index:
            self.action_back()
        else:
            self.app.switch_screen(PuzzleScreen(self.menu, index))

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
that lets them force your loss is shown its refutation. At the end, solved or failed, the log shows the solution:
the safe first leads and the solver's line.

Your **streak** counts the puzzles solved at the first try in a row: the first attempt at a puzzle decides, a wrong
move or the solution asked for ends the streak, and later attempts change the puzzle's mark (✓ solved at the first
try, ✗ failed, ↻ solved later) but not the streak. It is kept in your data directory.

| key | what it does |
|---|---|
| ← → space Enter | choose cards and play, as at the table (or type `9H 4H`, `9H:JH`, `take`) |
| ↑ ↓ | defending: mark another led card (Enter with no beater chosen picks up everything) |
| `r` Enter, F2 | try again |
| `s` Enter, F3 | show the solution |
| `n` Enter, F4 | next puzzle not tried yet |
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
