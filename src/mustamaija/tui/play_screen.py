"""The match screen: the table, the bots' pace, hints, undo, saving, and the end of each deal."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, Static

from mustamaija.core.cards import SUIT_SYMBOLS, SUITS
from mustamaija.core.errors import MustamaijaError
from mustamaija.games.mustamaija.actions import Action, Beat, Declare, Lead
from mustamaija.games.mustamaija.state import DEFEND, State
from mustamaija.players.random import RandomPlayer
from mustamaija.tui.commands import COMMAND_HELP, parse_command
from mustamaija.tui.describe import explain_error, rules_markdown, rules_name
from mustamaija.tui.dialogs import DealOverScreen, HintScreen, TextScreen
from mustamaija.tui.hints import Hint, action_words, suggest
from mustamaija.tui.host import host
from mustamaija.tui.render import info_text, memory_panel, seats_table, table_text
from mustamaija.tui.selection import Selection
from mustamaija.tui.session import BotJob, GameSession, bot_action, bot_actions
from mustamaija.tui.table import TableScreen
from mustamaija.tui.widgets import CommandLine, HandPanel, LogPanel, Panel

__all__ = ["HELP_TEXT", "GameScreen"]


class GameScreen(TableScreen):
    """A match against bots."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "help"),
        Binding("f2", "hint", "hint"),
        Binding("f3", "undo", "undo"),
        Binding("f4", "rules", "rules"),
        Binding("f5", "save", "save"),
        Binding("f6", "memory", "memory"),
        Binding("f7", "marriage", "marriage", show=False),
        Binding("f8", "pace(0.25)", "slower", show=False),
        Binding("f9", "pace(-0.25)", "faster", show=False),
    ]

    EMPTY_LINE_KEYS: ClassVar[dict[str, str]] = {
        **TableScreen.EMPTY_LINE_KEYS, "question_mark": "help", "plus": "pace(0.25)", "minus": "pace(-0.25)",
    }

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session
        self._timer: Any = None
        self._thinking = False
        self._over_shown: tuple[int, int] | None = None
        self._hinting = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield Panel("Seats (clockwise)", id="seats")
                yield Panel("Game", id="info")
            with Vertical(id="centre"):
                yield Panel("Table", id="table")
                yield LogPanel(id="log")
            yield Panel("Memory", id="memory")
        yield HandPanel("Your hand", id="hand")
        yield Static("", id="preview")
        yield Static("", id="message")
        yield CommandLine(placeholder="type a move (9H 4H · 9H:JH 4H:- · take) or a command (hint, undo, rules, "
                                      "save, help); ← → space Enter choose from the hand", id="command",
                          select_on_focus=False)
        yield Footer()

    def on_mount(self) -> None:
        """Draw the table and let the bots start."""
        self.title = "Mustamaija"
        self.focus_command()
        self.redraw()

    def on_resize(self, event: events.Resize) -> None:
        """Fit small terminals: below 110 columns the memory panel hides (v shows it), below 32 rows the log."""
        narrow = event.size.width < 110
        if narrow != self.has_class("narrow"):
            self.query_one("#memory").display = not narrow
        self.set_class(narrow, "narrow")
        self.set_class(event.size.height < 32, "short")

    def action_memory(self) -> None:
        """Show or hide the memory panel."""
        panel = self.query_one("#memory")
        panel.display = not panel.display

    # -- TableScreen ------------------------------------------------------------------------------------

    def table_state(self) -> State:
        return self.session.state

    def my_seat(self) -> int:
        return self.session.human

    def my_turn(self) -> bool:
        return self.session.human_to_act

    def act(self, action: Action) -> None:
        try:
            if isinstance(action, Lead):
                self.session.lead(action.cards)
            elif isinstance(action, Beat):
                self.session.beat(dict(action.pairs))
            else:
                self.session.declare(action.suit)
        except MustamaijaError as e:
            self.say(explain_error(str(e)), error=True)
            return
        self.say("")
        self.redraw()

    def command(self, text: str) -> bool:
        try:
            cmd = parse_command(text)
        except MustamaijaError as e:
            self.say(explain_error(str(e)), error=True)
            return False
        kind = cmd.kind
        if kind in ("cards", "pairs", "take", "declare"):
            try:
                self.session.submit(cmd)
            except MustamaijaError as e:
                self.say(explain_error(str(e)), error=True)
                return False
            self.say("")
            self.redraw()
            return True
        if kind == "empty":
            return True
        if kind == "marriage":
            return self.action_marriage()
        if kind == "save":
            self.action_save(cmd.arg or None)
        elif kind == "pace":
            self._set_pace(float(cmd.arg))
        elif kind in ("faster", "slower"):
            self.action_pace(-0.25 if kind == "faster" else 0.25)
        elif kind == "quit":
            app = host(self)
            app.action_save_quit()
        else:
            getattr(self, f"action_{kind}")()
        return True

    # -- drawing ------------------------------------------------------------------------------------------

    def redraw(self) -> None:
        s = self.session
        st = s.state
        self.selection.sync(st, s.human)
        pace = host(self).pace
        mode = "rated" if s.config.rated else "practice"
        total = f"/{s.config.deals}" if s.config.deals is not None else ""
        self.sub_title = f"deal {s.deal_no + 1}{total} · {mode} · seed {s.config.seed} · pace {pace:g} s (+/-)"
        self.query_one("#seats", Panel).show(seats_table(st, s.names, s.labels, s.match.losses, me=s.human))
        extra = [("Deal", f"{s.deal_no + 1}{total}, {s.names[st.dealer]} dealt"), ("Turn", str(st.turns if st.is_over else st.turns + 1)),
                 ("Rules", rules_name(s.rules))]
        self.query_one("#info", Panel).show(info_text(st, extra))
        pairs = self.selection.pairs if self.my_turn() and st.phase == DEFEND else None
        target = self.selection.target if self.my_turn() and st.phase == DEFEND else -1
        last = None
        turn = s.last_turn()
        if st.phase != DEFEND and turn is not None:
            lead, beat = turn
            if beat is not None:
                last = (lead.cards, dict(beat.pairs), f"Last turn: {s.names[lead.seat]} led to {s.names[beat.seat]}")
        table = self.query_one("#table", Panel)
        table.border_title = "Table · " + (f"trumps {SUIT_SYMBOLS[st.trump]}" if st.trump >= 0 else "no trumps yet")
        table.show(table_text(st, s.names, pairs=pairs, target=target, last=last))
        self.query_one("#memory", Panel).show(memory_panel(st.view(s.human), s.names))
        self.query_one("#log", LogPanel).show_lines(s.log)
        self.draw_hand()
        if not self.last_message or not self.my_turn():
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
            pace = host(self).pace
            self._timer = self.set_timer(max(pace, 0.001), self._think)

    def _think(self) -> None:
        self._timer = None
        s = self.session
        if not s.bot_to_act or self._thinking:
            return
        self._thinking = True
        self.query_one("#message", Static).update(Text(f"{s.names[s.state.to_act]} is thinking…", style="italic"),
                                                  layout=False)
        pace = host(self).pace
        self._run_bot(s.bot_job(), pace <= 0)  # No pace: the bots play on until it is your turn.

    @work(thread=True, group="bot", exit_on_error=False)
    def _run_bot(self, job: BotJob, chain: bool) -> None:
        try:
            results = bot_actions(job, chain=chain)
        except Exception as e:  # Never lose the game to a bot: a random move stands in.
            stand_in = BotJob(job.seat, RandomPlayer(seed=job.seed), job.state, job.generation, job.seed)
            action, _ = bot_action(stand_in)
            results = [(action, f"the bot failed ({type(e).__name__}: {e}); a random legal move was played")]
        self.app.call_from_thread(self._bot_done, job, results)

    def _bot_done(self, job: BotJob, results: list[tuple[Action, str]]) -> None:
        self._thinking = False
        self.session.apply_bots(job, results)
        self.last_message = ""
        self.redraw()

    def _after_deal(self, choice: str | None) -> None:
        app = host(self)
        if choice == "next":
            self.action_next()
        elif choice == "quit":
            app.finish()

    # -- commands -------------------------------------------------------------------------------------------

    def action_play(self) -> None:
        """Play what is chosen; once the deal is over, Enter deals the next one (or leaves after the last)."""
        s = self.session
        if s.result is not None:
            if s.match_over:
                app = host(self)
                app.finish()
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
        self.selection = Selection()
        self.say(f"Deal {self.session.deal_no + 1}: good luck!")
        self.redraw()

    def action_marriage(self) -> bool:
        """Declare a marriage (when only one is possible); return whether one was declared."""
        st = self.session.state
        decl = st.legal_declares() if self.my_turn() else []
        if len(decl) != 1:
            suits = " or ".join(SUITS[d.suit] for d in decl)
            self.say("V3: no marriage to declare now (you need the K and Q of a suit other than spades, before trumps "
                     "are fixed)" if not decl else f"two marriages are possible: type declare {suits}", error=True)
            return False
        self.act(Declare(self.session.human, decl[0].suit))
        return True

    def action_undo(self) -> None:
        """Take back your last move (practice games only)."""
        try:
            note = self.session.undo()
        except MustamaijaError as e:
            self.say(str(e), error=True)
            return
        self.selection = Selection()
        self.say("✓ " + note)
        self.redraw()

    def action_rules(self) -> None:
        """Show the rule set in force."""
        self.app.push_screen(TextScreen("Rules", rules_markdown(self.session.rules)))

    def action_help(self) -> None:
        """Show the keys and commands."""
        self.app.push_screen(TextScreen("Help", HELP_TEXT))

    def action_save(self, path: str | None = None) -> None:
        """Save this deal as a record."""
        app = host(self)
        try:
            where = app.save_deal(path)
        except (OSError, MustamaijaError) as e:
            self.say(f"could not save: {e}", error=True)
            return
        self.say(f"✓ saved to {where}; resume with: mustamaija play --load {where}")

    def action_pace(self, delta: float) -> None:
        """Change how long each bot move stays on screen."""
        app = host(self)
        self._set_pace(app.pace + delta)

    def _set_pace(self, value: float) -> None:
        app = host(self)
        app.pace = round(min(5.0, max(0.0, value)), 2)
        self.say(f"pace: {app.pace:g} s a bot move")
        self.redraw()

    def action_hint(self) -> None:
        """Ask the solver or the search bot what to play."""
        s = self.session
        if s.config.rated:
            self.say("hints are not available in rated matches", error=True)
            return
        if not s.human_to_act:
            self.say("a hint is for your turn", error=True)
            return
        if self._hinting:
            return
        self._hinting = True
        self.say("thinking about a hint…")
        seconds = host(self).hint_seconds
        self._run_hint(s.state.copy(), s.human, seconds, s.generation, s.state.nlog)

    @work(thread=True, group="hint", exit_on_error=False)
    def _run_hint(self, state: State, seat: int, seconds: float, generation: int, nlog: int) -> None:
        try:
            hint = suggest(state, seat, seconds=seconds)
        except Exception as e:
            hint = Hint(None, f"hint is unavailable: {e}", "none")
        self.app.call_from_thread(self._hint_done, hint, generation, nlog)

    def _hint_done(self, hint: Hint, generation: int, nlog: int) -> None:
        self._hinting = False
        s = self.session
        if generation != s.generation or nlog != s.state.nlog:
            return
        self.say(f"hint: {action_words(hint.action)}" if hint.action is not None else "hint: see the dialog")

        def chosen(take: bool | None) -> None:
            if take and hint.action is not None:
                self._preselect(hint.action)

        self.app.push_screen(HintScreen(hint), chosen)

    def _preselect(self, action: Action) -> None:
        st = self.session.state
        self.selection.sync(st, self.session.human)
        if isinstance(action, Lead):
            self.selection.chosen = action.cards
        elif isinstance(action, Beat):
            self.selection.pairs = dict(action.pairs)
            self.selection.target = -1
        else:
            self.act(action)
            return
        self.say(f"chosen: {action_words(action)}; press Enter to play it")
        self.redraw()


HELP_TEXT = """
Everything you type goes to the command line at the bottom: a move or a command, then Enter.
While the line is empty, the hand answers to these keys:

- **← →** — move along your hand
- **space** (or a click) — choose a card for your lead; when defending, pair it with the led card marked ▼
- **↑ ↓** — when defending, mark another led card
- **Enter** — lead the chosen cards (or the cursor's card), or make the defence shown (no beater chosen: pick up all)
- **?** this help · **+ -** slower, faster bots · **Esc** clear the line, or else your choice
- **F1** help · **F2** hint · **F3** undo · **F4** rules · **F5** save · **F6** memory panel · **F7** marriage
- **Ctrl-C** — save the game and leave

## Commands

""" + "\n".join(f"- `{ex}` — {what}" for ex, what in COMMAND_HELP) + """

Cards are rank then suit: `9H`, `10d`, `QS` or `Q♠`. A chosen card is raised; the card under the cursor has a
heavy frame; cards you cannot play now are dimmed. In the memory panel, `·` marks a card gone, a reversed rank one
you hold, and a lowercase initial one known to be in that player's hand.
"""
