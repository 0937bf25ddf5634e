"""The match screen of every game: the table, the bots' pace, hints, undo, saving, and the end of each deal.

The panels are the game's renderer's; the hand is the game's choice of
cards; everything else (the bots in worker threads, the commands, the
dialogs) is the same for every game.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from mustamaija.core.errors import MustamaijaError
from mustamaija.players.random import RandomPlayer
from mustamaija.tui.commands import COMMAND_HELP, parse_command
from mustamaija.tui.dialogs import DealOverScreen, HintScreen, TextScreen
from mustamaija.tui.host import host
from mustamaija.tui.plugin import Hint, Renderer, Scene
from mustamaija.tui.session import BotJob, GameSession, bot_action, bot_actions
from mustamaija.tui.table import HandScreen
from mustamaija.tui.widgets import CommandLine, HandPanel, LogPanel, Panel

__all__ = ["GameScreen", "draw_panels", "help_text", "table_panels"]


def table_panels(renderer: Renderer, *, side: bool = True) -> ComposeResult:
    """Yield the panels above the hand: seats and game on the left, the table and the log, the side panel."""
    titles = renderer.titles
    with Horizontal(id="top"):
        with Vertical(id="left"):
            yield Panel(titles["seats"], id="seats", width=42)
            yield Panel(titles["info"], id="info", width=42)
        with Vertical(id="centre"):
            yield Panel(titles["table"], id="table")
            yield LogPanel(id="log", style_of=renderer.log_style)
        if side and "side" in titles:
            yield Panel(titles["side"], id="side")


def draw_panels(screen: Screen[Any], renderer: Renderer, scene: Scene) -> None:
    """Draw the renderer's seats, game and table panels (and its side panel, if the screen has one) for ``scene``."""
    screen.query_one("#seats", Panel).show(renderer.seats(scene))
    screen.query_one("#info", Panel).show(renderer.info(scene))
    title, table = renderer.table(scene)
    panel = screen.query_one("#table", Panel)
    panel.border_title = title
    panel.show(table)
    for side in screen.query("#side").results(Panel):
        side.show(renderer.side(scene))


def help_text(session: GameSession) -> str:
    """Return the help: the keys and commands of every table, then the game's own."""
    r = session.plugin.renderer
    views = ", ".join(f"`{word}`" for word in r.toggles)
    return f"""
Everything you type goes to the command line at the bottom: a move or a command, then Enter.
While the line is empty, the hand answers to these keys:

- **← →** — move along your hand
- **space** (or a click) — choose a card, or put it back
- **↑ ↓** — point at another card on the table (where that applies)
- **Enter** — make what is chosen (the cursor's card when nothing is); once the {session.controller.words.deal} is over, go on
- **?** this help · **+ -** slower, faster bots · **Esc** clear the line, or else your choice
- **F1** help · **F2** hint · **F3** undo · **F4** rules · **F5** save{" · **F6** " + views if views else ""}
- **Ctrl-C** — save the game and leave

## Commands

""" + COMMAND_HELP + f"""

## {session.game.title}
{r.help_markdown}"""


class GameScreen(HandScreen):
    """A match against bots, of any game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(f"f{i + 1}", action, action) for i, action in enumerate(("help", "hint", "undo", "rules", "save"))),
        Binding("f6", "switch_view", "view"), Binding("f7", "game_key('f7')", show=False),
        Binding("f8", "pace(0.25)", "slower", show=False), Binding("f9", "pace(-0.25)", "faster", show=False),
    ]

    EMPTY_LINE_KEYS: ClassVar[dict[str, str]] = {
        **HandScreen.EMPTY_LINE_KEYS, "question_mark": "help", "plus": "pace(0.25)", "minus": "pace(-0.25)",
    }

    def __init__(self, session: GameSession) -> None:
        super().__init__(session.controller.choice(), session.human, session.names)
        self.session = session
        self.renderer = session.plugin.renderer
        self.alternate = False
        self.view = "table"
        """What F6 shows (:meth:`views`): ``table``, ``side``, ``alternate`` or ``log``."""
        self._timer: Any = None
        self._thinking = False
        self._over_shown: tuple[int, int] | None = None
        self._hinting = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield from table_panels(self.renderer)
        yield HandPanel("Your hand", id="hand")
        yield Static("", id="preview")
        yield Static("", id="message")
        yield CommandLine(placeholder=self.renderer.placeholder, id="command", select_on_focus=False)
        yield Footer()

    def on_mount(self) -> None:
        """Draw the table and let the bots start."""
        self.title = self.app.title = self.session.game.title
        self.focus_command()
        self.redraw()

    def on_resize(self, event: events.Resize) -> None:
        """Fit small terminals: below 110 columns the side panel takes the table's place on F6, below 32 rows the log."""
        self.set_class(event.size.width < 110, "narrow")
        self.set_class(event.size.height < 32, "short")
        if self.view not in self.views():
            self.view = "table"
        self.show_view()

    def _current_trick(self) -> None:
        """Leave the game's other view (the last trick) once play moves on."""
        self.alternate = False
        if self.view == "alternate":
            self.view = "table"

    def views(self) -> list[str]:
        """Return what F6 goes through: the table, the game's other view or side panel, and the log if it has no room."""
        views = ["table"]
        kind = next(iter(self.renderer.toggles.values()), "")
        if kind == "alternate" or (kind == "side" and "side" in self.renderer.titles):
            views.append(kind)
        if self.has_class("short"):
            views.append("log")
        return views

    def show_view(self) -> None:
        """Show the panels of the current view: never squeeze the table beside a side panel in a narrow terminal."""
        view, narrow, short = self.view, self.has_class("narrow"), self.has_class("short")
        for side in self.query("#side"):
            # Wide, the side panel stands beside the table and F6 hides it; narrow, F6 puts it in the table's place.
            side.display = view == "side" if narrow else view != "side"
        self.query_one("#centre").display = not (narrow and view == "side")
        self.query_one("#table").display = view != "log"
        self.query_one("#log").display = view == "log" or not short
        alternate = view == "alternate"
        if alternate != self.alternate:
            self.alternate = alternate
            self.redraw()

    # -- HandScreen ------------------------------------------------------------------------------------

    def table_state(self) -> Any:
        return self.session.state

    def explain(self, message: str) -> str:
        return self.session.controller.explain(message)

    def hand_title(self) -> str:
        return self.renderer.hand_title(self.scene())

    def preview_text(self) -> str:
        s = self.session
        if s.result is not None:
            return "Enter: " + ("leave" if s.match_over else f"deal the next {s.controller.words.deal}")
        return super().preview_text()

    def act(self, action: Any) -> None:
        try:
            self.session.act(action)
        except MustamaijaError as e:
            self.fail(e)
            return
        self._moved()

    def _moved(self) -> None:
        self._current_trick()
        self.say("")
        self.redraw()

    def command(self, text: str) -> bool:
        try:
            cmd = parse_command(text)
        except MustamaijaError as e:
            return self.fail(e)
        if cmd is not None:
            return self._run(*cmd)
        word, _, arg = text.strip().lower().partition(" ")
        if word in self.renderer.toggles and not arg:
            self.action_switch_view(self.renderer.toggles[word])
            return True
        note = self.session.controller.command(self.session, word, arg.strip())
        if note is not None:
            self.say(note)
            return True
        try:
            self.session.submit(text)
        except MustamaijaError as e:
            return self.fail(e)
        self._moved()
        return True

    def _run(self, word: str, arg: str) -> bool:
        if word == "save":
            self.action_save(arg or None)
        elif word == "pace":
            self._set_pace(float(arg))
        elif word in ("faster", "slower"):
            self.action_pace(-0.25 if word == "faster" else 0.25)
        elif word == "quit":
            host(self).action_save_quit()
        else:
            getattr(self, f"action_{word}")()
        return True

    # -- drawing ------------------------------------------------------------------------------------------

    def scene(self) -> Scene:
        """Return what the panels are drawn from: the person's seat at the deal in play."""
        s = self.session
        total = f"/{s.deals}" if s.deals is not None else ""
        info = [(s.controller.words.deal.capitalize(), f"{s.deal_no + 1}{total}, {s.names[s.state.dealer]} dealt")]
        return Scene(s.state, s.human, s.names, s.labels, s.totals, alternate=self.alternate,
                     choice=self.choice if s.human_to_act else None, info=info)

    def redraw(self) -> None:
        s = self.session
        r = self.renderer
        self.choice.sync(s.state, s.human)
        scene = self.scene()
        mode = "rated" if s.config.rated else "practice"
        total = f"/{s.deals}" if s.deals is not None else ""
        self.sub_title = (f"{s.controller.words.deal} {s.deal_no + 1}{total} · {s.n} players · {mode} · "
                          f"seed {s.config.seed} · pace {host(self).pace:g} s (+/-)")
        draw_panels(self, r, scene)
        self.query_one("#log", LogPanel).show_lines(s.log)
        self.draw_hand()
        if not self.last_message or not s.human_to_act:
            self.query_one("#message", Static).update(Text(s.status(), style="dim"), layout=False)
        self._schedule()

    # -- bots -----------------------------------------------------------------------------------------------

    def _schedule(self) -> None:
        s = self.session
        if s.result is not None:
            key = (s.deal_no, s.generation)
            if self._over_shown != key:
                self._over_shown = key
                self.app.push_screen(DealOverScreen(s), self._after_deal)
            return
        if s.bot_to_act and not self._thinking and self._timer is None:
            # A move made face down (such as a pass) has nothing to watch: it does not wait for the pace.
            pace = host(self).pace if s.controller.paced(s.state) else 0.05
            self._timer = self.set_timer(max(pace, 0.001), self._think)

    def _think(self) -> None:
        self._timer = None
        s = self.session
        if not s.bot_to_act or self._thinking:
            return
        self._thinking = True
        self.query_one("#message", Static).update(Text(f"{s.names[s.state.to_act]} is thinking…", style="italic"),
                                                  layout=False)
        chain = host(self).pace <= 0 and s.controller.paced(s.state)  # No pace: the bots play on to your turn.
        self._run_bot(s.bot_job(), chain)

    @work(thread=True, group="bot", exit_on_error=False)
    def _run_bot(self, job: BotJob, chain: bool) -> None:
        try:
            results = bot_actions(job, chain=chain)
        except Exception as e:  # Never lose the game to a bot: a random move stands in.
            stand_in = BotJob(job.seat, RandomPlayer(seed=job.seed), job.state, job.generation, job.seed)
            action, _ = bot_action(stand_in)
            results = [(action, f"the bot failed ({type(e).__name__}: {e}); a random legal move was played")]
        self.app.call_from_thread(self._bot_done, job, results)

    def _bot_done(self, job: BotJob, results: list[tuple[Any, str]]) -> None:
        self._thinking = False
        self.session.apply_bots(job, results)
        self.last_message = ""
        self.redraw()

    def _after_deal(self, choice: str | None) -> None:
        if choice == "next":
            self.action_next()
        elif choice == "quit":
            host(self).finish()

    # -- commands -------------------------------------------------------------------------------------------

    def action_play(self) -> None:
        """Make what is chosen; once the deal is over, Enter deals the next one (or leaves after the last)."""
        s = self.session
        if s.result is not None:
            if s.match_over:
                host(self).finish()
            else:
                self.action_next()
            return
        super().action_play()

    def action_next(self) -> None:
        """Deal the next deal."""
        try:
            self.session.next_deal()
        except MustamaijaError as e:
            self.say(str(e), error=True)
            return
        self.choice = self.session.controller.choice()
        self._current_trick()
        self.say(f"{self.session.controller.words.deal.capitalize()} {self.session.deal_no + 1}: good luck!")
        self.redraw()

    def action_switch_view(self, kind: str = "") -> None:
        """Switch the view (F6): the table, the game's other view or side panel, the log; or to ``kind`` and back."""
        views = self.views()
        if kind:
            self.view = "table" if self.view == kind or kind not in views else kind
        else:
            self.view = views[(views.index(self.view) + 1) % len(views)] if self.view in views else "table"
        self.show_view()

    def action_game_key(self, key: str) -> None:
        """Make the typed line a game's key stands for (such as F7: declare a marriage)."""
        line = next((line for k, line, _ in self.renderer.keys if k == key), None)
        if line is not None:
            self.command(line)

    def action_undo(self) -> None:
        """Take back your last move (practice games only)."""
        try:
            note = self.session.undo()
        except MustamaijaError as e:
            self.say(str(e), error=True)
            return
        self.choice = self.session.controller.choice()
        self.say("✓ " + note)
        self.redraw()

    def action_rules(self) -> None:
        """Show the rule set in force."""
        self.app.push_screen(TextScreen("Rules", self.session.controller.rules_markdown(self.session.state.rules)))

    def action_help(self) -> None:
        """Show the keys and commands."""
        self.app.push_screen(TextScreen("Help", help_text(self.session)))

    def action_save(self, path: str | None = None) -> None:
        """Save this deal as a record."""
        try:
            where = host(self).save_deal(path)
        except (OSError, MustamaijaError) as e:
            self.say(f"could not save: {e}", error=True)
            return
        self.say(f"✓ saved to {where}; resume with: mustamaija play --load {where}")

    def action_pace(self, delta: float) -> None:
        """Change how long each bot move stays on screen."""
        self._set_pace(host(self).pace + delta)

    def _set_pace(self, value: float) -> None:
        app = host(self)
        app.pace = round(min(5.0, max(0.0, value)), 2)
        self.say(f"pace: {app.pace:g} s a bot move")
        self.redraw()

    def action_hint(self) -> None:
        """Ask what to play, judged from your view only."""
        s = self.session
        try:
            s.check_hint()
        except MustamaijaError as e:
            self.say(str(e), error=True)
            return
        if self._hinting:
            return
        self._hinting = True
        self.say("thinking about a hint…")
        self._run_hint(s.state.copy(), host(self).hint_seconds, s.generation, len(s.state.actions()))

    @work(thread=True, group="hint", exit_on_error=False)
    def _run_hint(self, state: Any, seconds: float, generation: int, done: int) -> None:
        s = self.session
        try:
            hint = s.controller.hint(state, s.human, seconds)
        except Exception as e:
            hint = Hint(None, f"hint is unavailable: {e}", "none")
        self.app.call_from_thread(self._hint_done, hint, generation, done)

    def _hint_done(self, hint: Hint, generation: int, done: int) -> None:
        self._hinting = False
        s = self.session
        if generation != s.generation or done != len(s.state.actions()):
            return
        words = s.controller.action_words(hint.action) if hint.action is not None else ""
        self.say(f"hint: {words}" if words else "hint: see the dialog")

        def chosen(take: bool | None) -> None:
            if take and hint.action is not None:
                self._preselect(hint.action, words)

        self.app.push_screen(HintScreen(hint), chosen)

    def _preselect(self, action: Any, words: str) -> None:
        s = self.session
        if not self.choice.preselect(s.state, s.human, action):
            self.act(action)
            return
        self.say(f"chosen: {words}; press Enter to play it")
        self.redraw()

