"""The Black Maria table: the passing, the trick, the scores, the log and your hand, worked from the command line.

As on the Mustamaija table, the command line keeps the keyboard for the
whole game, so typed cards (``2S QH KD``) are never taken for shortcuts;
while it is empty, the arrows, space, Enter, ``?``, ``+`` and ``-`` act on
the hand and the game instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static

from mustamaija.core.cards import card_symbol, cards_of
from mustamaija.core.errors import MustamaijaError
from mustamaija.games.black_maria.players.heuristic import HeuristicPlayer, pass_choice
from mustamaija.players.random import RandomPlayer
from mustamaija.tui.bm_dialogs import HandOverScreen
from mustamaija.tui.bm_render import game_text, pass_text, scores_table, trick_text
from mustamaija.tui.bm_session import BmGame, BotTurn, bm_sort, cards_words
from mustamaija.tui.dialogs import TextScreen
from mustamaija.tui.render import hand_text
from mustamaija.tui.widgets import CommandLine, HandPanel, LogPanel, Panel

if TYPE_CHECKING:
    from mustamaija.tui.bm_app import BlackMariaApp

__all__ = ["BM_HELP", "BmScreen"]

_COMMANDS = ("hint", "last", "save", "help", "quit", "pace", "faster", "slower", "legal", "?")


class BmScreen(Screen[None]):
    """A game of Black Maria against bots."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "←→ card", show=False),
        Binding("right", "move(1)", show=False),
        Binding("space", "choose", "choose"),
        Binding("enter", "play", "play"),
        Binding("escape", "escape", "clear", show=False),
        Binding("f1", "help", "help"),
        Binding("f2", "hint", "hint"),
        Binding("f5", "save", "save"),
        Binding("f6", "last", "last trick"),
        Binding("f8", "pace(0.25)", "slower", show=False),
        Binding("f9", "pace(-0.25)", "faster", show=False),
    ]

    EMPTY_LINE_KEYS: ClassVar[dict[str, str]] = {
        "left": "move(-1)", "right": "move(1)", "space": "choose", "enter": "play", "question_mark": "help",
        "plus": "pace(0.25)", "minus": "pace(-0.25)",
    }
    """Keys that act while the command line is empty (none of them can start a card or a command)."""

    def __init__(self, game: BmGame) -> None:
        super().__init__()
        self.game = game
        self.cursor = 0
        self.chosen = 0
        self.show_last = False
        self.last_message = ""
        self._timer: Any = None
        self._thinking = False
        self._over_shown: tuple[int, int] | None = None
        self._turn_key: tuple[int, int] | None = None

    @property
    def host(self) -> BlackMariaApp:
        """Return the application."""
        return cast("BlackMariaApp", self.app)

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield Panel("Scores", id="seats", width=42)
                yield Panel("Game", id="info", width=42)
            with Vertical(id="centre"):
                yield Panel("Trick", id="table")
                yield LogPanel(id="log")
        yield HandPanel("Your hand", id="hand")
        yield Static("", id="preview")
        yield Static("", id="message")
        yield CommandLine(placeholder="type cards (2S QH KD to pass, QS to play) or a command (hint, last, save, "
                                      "help); ← → space Enter choose from the hand", id="command",
                          select_on_focus=False)
        yield Footer()

    def on_mount(self) -> None:
        """Draw the table and let the bots start."""
        self.title = "Black Maria"
        self.query_one("#command", CommandLine).focus()
        self.redraw()

    def on_screen_resume(self) -> None:
        """Take the keyboard back after a dialog."""
        self.query_one("#command", CommandLine).focus()

    def on_resize(self, event: events.Resize) -> None:
        """Fit short terminals: below 32 rows the log and the game panel hide."""
        self.set_class(event.size.height < 32, "short")

    # -- drawing ----------------------------------------------------------------------------------------

    def order(self) -> list[int]:
        """Return the person's hand as shown: by suit, low to high."""
        return bm_sort(self.game.view().hand)

    def redraw(self) -> None:
        """Redraw every panel, then let a bot act if one is to."""
        g = self.game
        v = g.view()
        pace = self.host.pace
        self.sub_title = f"hand {g.hand_no} · {g.n} players · seed {g.config.seed} · pace {pace:g} s (+/-)"
        self.query_one("#seats", Panel).show(scores_table(v, g.names, g.labels, g.table.totals))
        self.query_one("#info", Panel).show(game_text(v, g.hand_no, g.config.rules.describe(), g.config.seed, pace))
        table = self.query_one("#table", Panel)
        if v.phase == 0:
            table.border_title = "Passing"
            table.show(pass_text(v, g.names))
        else:
            table.border_title = "Last trick" if self.show_last else "Trick"
            table.show(trick_text(v, g.names, g.last, show_last=self.show_last))
        self.query_one("#log", LogPanel).show_lines(g.log)
        self.draw_hand()
        if not self.last_message or not g.human_to_act:
            self.query_one("#message", Static).update(Text(g.status(), style="dim"), layout=False)
        self._schedule()

    def draw_hand(self) -> None:
        """Draw the hand: chosen cards raised, legal cards bright, received cards marked ``new``."""
        g = self.game
        v = g.view()
        order = self.order()
        hand = self.query_one("#hand", HandPanel)
        hand.cards = len(order)
        self.cursor = min(max(self.cursor, 0), max(len(order) - 1, 0))
        mine = g.human_to_act
        if mine and v.phase == 1:
            legal = v.legal_mask()
            key = (g.generation, v.played.bit_count())
            if key != self._turn_key:  # A new turn: put the cursor on a card that can be played.
                self._turn_key = key
                if order and not legal >> order[self.cursor] & 1:
                    self.cursor = next(i for i, c in enumerate(order) if legal >> c & 1)
        else:
            legal = v.hand if v.phase == 0 else -1
        marks = {c: "new" for c in cards_of(v.received & v.hand)}
        hand.border_title = self._hand_title(v.phase, v.pass_count)
        hand.show(hand_text(order, cursor=self.cursor if mine or v.phase == 0 else -1, chosen=self.chosen,
                            playable=legal, marks=marks, focused=mine or v.phase == 0,
                            width=hand.content_size.width or 100))
        self.query_one("#preview", Static).update(Text(self._preview(order, legal), style="bold"), layout=False)

    def _hand_title(self, phase: int, k: int) -> str:
        g = self.game
        if phase == 0:
            return f"Your hand · choose {k} cards to pass to {g.names[(g.human + 1) % g.n]}"
        v = g.view()
        if v.received:
            return f"Your hand · new: received from {g.names[(g.human - 1) % g.n]}"
        return "Your hand"

    def _preview(self, order: list[int], legal: int) -> str:
        g = self.game
        v = g.view()
        if g.hand_over:
            return "Enter: " + ("leave" if g.game_over else "deal the next hand")
        if v.phase == 0:
            if v.passed:
                return f"You passed {cards_words(v.passed)}; waiting for the others."
            k = v.pass_count
            n = self.chosen.bit_count()
            if n == k:
                return f"Enter: pass {cards_words(self.chosen)} to {g.names[(g.human + 1) % g.n]}"
            return f"Chosen {n} of {k}: {cards_words(self.chosen)}  ·  space chooses, or type them (2S QH KD)"
        if not g.human_to_act or not order:
            return ""
        card = order[self.cursor]
        if legal >> card & 1:
            return f"Enter: play {card_symbol(card)}  ·  legal: {cards_words(legal & v.hand)}"
        return f"{card_symbol(card)} cannot be played now  ·  legal: {cards_words(legal & v.hand)}"

    def say(self, text: str, *, error: bool = False) -> None:
        """Show a message under the hand: errors in red with a cross."""
        msg = Text("✗ " + text, style="bold red") if error else Text(text, style="green" if text.startswith("✓") else "")
        self.query_one("#message", Static).update(msg, layout=False)
        self.last_message = text

    # -- the bots -----------------------------------------------------------------------------------------

    def _schedule(self) -> None:
        g = self.game
        if g.hand_over:
            key = (g.hand_no, g.generation)
            if self._over_shown != key:
                self._over_shown = key
                self.app.push_screen(HandOverScreen(g), self._after_hand)
            return
        if g.bot_to_act and not self._thinking and self._timer is None:
            # A pass is made face down, so there is nothing to watch: only plays wait for the pace.
            pace = self.host.pace if g.state.phase == 1 else 0.05
            self._timer = self.set_timer(max(pace, 0.001), self._think)

    def _think(self) -> None:
        self._timer = None
        g = self.game
        if not g.bot_to_act or self._thinking:
            return
        self._thinking = True
        self._run_bot(g.bot_job())

    @work(thread=True, group="bot", exit_on_error=False)
    def _run_bot(self, turn: BotTurn) -> None:
        try:
            turn.run()
        except Exception:  # Never lose the game to a bot: a random legal choice stands in.
            g = self.game
            turn = BotTurn(turn.seat, RandomPlayer(seed=g.config.seed), g.state.copy(), turn.generation).run()
        self.app.call_from_thread(self._bot_done, turn)

    def _bot_done(self, turn: BotTurn) -> None:
        self._thinking = False
        self.game.apply_bot(turn)
        self.redraw()

    def _after_hand(self, choice: str | None) -> None:
        if choice == "next":
            self.action_next()
        elif choice == "quit":
            self.host.finish()

    # -- keys and commands ------------------------------------------------------------------------------------

    def action_move(self, delta: int) -> None:
        """Move the cursor along the hand."""
        n = len(self.order())
        if n:
            self.cursor = (self.cursor + delta) % n
        self.draw_hand()

    def action_choose(self) -> None:
        """Choose the card under the cursor for the pass, or put it back."""
        g = self.game
        v = g.view()
        order = self.order()
        if v.phase != 0 or v.passed:
            self.say("space chooses cards to pass; to play, Enter plays the card under the cursor", error=True)
            return
        card = order[self.cursor]
        if self.chosen >> card & 1:
            self.chosen &= ~(1 << card)
        elif self.chosen.bit_count() >= v.pass_count:
            self.say(f"B3: you pass exactly {v.pass_count} cards; put one back first (space on a raised card)",
                     error=True)
            return
        else:
            self.chosen |= 1 << card
        self.say("")
        self.draw_hand()

    def action_play(self) -> None:
        """Enter: pass the chosen cards, play the card under the cursor, or deal the next hand."""
        g = self.game
        if g.hand_over:
            if g.game_over:
                self.host.finish()
            else:
                self.action_next()
            return
        v = g.view()
        if v.phase == 0:
            if v.passed:
                self.say("you have passed; the others are still choosing", error=True)
                return
            if self.chosen.bit_count() != v.pass_count:
                self.say(f"B3: choose {v.pass_count} cards to pass (space), or type them; "
                         f"{self.chosen.bit_count()} chosen", error=True)
                return
            self._act(cards_of(self.chosen))
            return
        order = self.order()
        if order:
            self._act(order[self.cursor])

    def _act(self, choice: int | list[int]) -> bool:
        try:
            self.game.act(choice)
        except MustamaijaError as e:
            self.say(str(e), error=True)
            return False
        self._after_act()
        return True

    def _after_act(self) -> None:
        self.chosen = 0
        self.show_last = False
        self.say("")
        self.redraw()

    def action_escape(self) -> None:
        """Clear the command line, or else the chosen cards and the last trick."""
        box = self.query_one("#command", CommandLine)
        if box.value:
            box.value = ""
            return
        self.chosen = 0
        self.show_last = False
        self.redraw()

    def action_next(self) -> None:
        """Deal the next hand."""
        try:
            self.game.next_hand()
        except MustamaijaError as e:
            self.say(str(e), error=True)
            return
        self.chosen = 0
        self.cursor = 0
        self.show_last = False
        self.say(f"Hand {self.game.hand_no}: choose your pass.")
        self.redraw()

    def action_last(self) -> None:
        """Show the last trick in full, or go back to the current one."""
        if self.game.last is None:
            self.say("no trick has been played yet", error=True)
            return
        self.show_last = not self.show_last
        self.redraw()

    def action_hint(self) -> None:
        """Choose what the heuristic bot would pass or play (Enter then makes it)."""
        g = self.game
        if not g.human_to_act:
            self.say("a hint is for your turn", error=True)
            return
        v = g.view()
        if v.phase == 0:
            self.chosen = pass_choice(v.hand, v.pass_count)
            self.say(f"hint: pass {cards_words(self.chosen)} (high spades and hearts first); Enter passes them")
        else:
            card = HeuristicPlayer().act(v)
            self.cursor = self.order().index(card)
            self.say(f"hint: play {card_symbol(card)}; Enter plays it")
        self.draw_hand()

    def action_help(self) -> None:
        """Show the keys and commands."""
        self.app.push_screen(TextScreen("Help", BM_HELP))

    def action_save(self, path: str | None = None) -> None:
        """Save the hand in play as a record."""
        try:
            where = self.host.save_hand(path)
        except (OSError, MustamaijaError) as e:
            self.say(f"could not save: {e}", error=True)
            return
        self.say(f"✓ saved to {where}; resume with: mustamaija play --game black-maria --load {where}")

    def action_pace(self, delta: float) -> None:
        """Change how long each bot card stays on screen."""
        self._set_pace(self.host.pace + delta)

    def _set_pace(self, value: float) -> None:
        self.host.pace = round(min(5.0, max(0.0, value)), 2)
        self.say(f"pace: {self.host.pace:g} s a bot card")
        self.redraw()

    def command(self, text: str) -> bool:
        """Handle a typed line: cards to pass or play, or a command; return whether it succeeded."""
        word, _, arg = text.strip().partition(" ")
        low = word.lower()
        if low not in _COMMANDS:
            if not self.game.human_to_act and not self.game.hand_over:
                self.say(f"wait for your turn: {self.game.status()}", error=True)
                return False
            try:
                self.game.submit(text)
            except MustamaijaError as e:
                self.say(str(e), error=True)
                return False
            self._after_act()
            return True
        if low in ("legal", "?"):
            v = self.game.view()
            legal = v.hand if v.phase == 0 else v.legal_mask()
            self.say(f"legal: {cards_words(legal)}" if legal else "nothing to play now")
        elif low == "save":
            self.action_save(arg.strip() or None)
        elif low == "quit":
            self.host.action_save_quit()
        elif low == "pace":
            try:
                self._set_pace(float(arg))
            except ValueError:
                self.say(f"pace takes seconds, such as pace 0.5, not {arg!r}", error=True)
                return False
        elif low in ("faster", "slower"):
            self.action_pace(-0.25 if low == "faster" else 0.25)
        else:
            getattr(self, f"action_{low}")()
        return True

    @on(HandPanel.CardClicked)
    def _clicked(self, event: HandPanel.CardClicked) -> None:
        if 0 <= event.index < len(self.order()):
            self.cursor = event.index
            if self.game.view().phase == 0:
                self.action_choose()
            else:
                self.draw_hand()

    @on(Input.Submitted, "#command")
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value
        if not text.strip():
            event.input.value = ""
            self.action_play()
        elif self.command(text):
            event.input.value = ""


BM_HELP = """
Black Maria (RULES.md B1–B8): avoid the penalty cards. Every heart costs 1, A♠ 7, K♠ 10 and Q♠, Black Maria, 13.
Follow suit when you can; hearts may not be led until a heart has been played to another suit's trick (unless you
hold only hearts). The lowest total wins.

Everything you type goes to the command line at the bottom, then Enter. While the line is empty:

- **← →** — move along your hand
- **space** (or a click) — choose a card to pass, or put it back
- **Enter** — pass the chosen cards; play the card under the cursor; after a hand, deal the next one
- **?** this help · **+ -** slower, faster bots · **Esc** clear the line, or else your choice
- **F1** help · **F2** hint · **F5** save · **F6** the last trick
- **Ctrl-C** — save the hand and leave

## Commands

- `2S QH KD` — pass these cards (as many as the pass needs)
- `QS`, `10h`, `q♠` — play this card
- `legal` — the cards you may play
- `hint` — choose what the heuristic bot would pass or play
- `last` — show the last trick (again: back to the current one)
- `save [FILE]` — save the hand as a record
- `pace 0.5`, `faster`, `slower` — the bots' pace
- `quit` — save and leave

In your hand, cards you cannot play now are dimmed, chosen cards are raised and the cards you received are marked
`new`. The trick panel shows each seat's card in the order played, who led and who is winning.
"""
