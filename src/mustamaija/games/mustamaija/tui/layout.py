"""The Mustamaija table's renderer: a beating game's layout, with the seats, the game, the table and the memory.

>>> from mustamaija.games.mustamaija import State
>>> from mustamaija.tui.plugin import Scene
>>> scene = Scene(State.from_seed(3, 4), 0, ["You", "Aino", "Eero"], ["you", "bot 1 · easy", "bot 2 · hard"], [0, 1, 0])
>>> MustamaijaRenderer().table(scene)[0]
'Table · no trumps yet · talon 37'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from rich.console import RenderableType
from rich.text import Text

from mustamaija.core.cards import SUIT_SYMBOLS, card_symbol
from mustamaija.games.mustamaija.actions import Beat, Lead
from mustamaija.games.mustamaija.state import DEFEND, State
from mustamaija.games.mustamaija.tui.commands import MOVES_HELP
from mustamaija.games.mustamaija.tui.describe import rules_name
from mustamaija.games.mustamaija.tui.render import info_text, memory_panel, seats_table, table_text
from mustamaija.games.mustamaija.tui.selection import Selection
from mustamaija.tui.describe import cards_text
from mustamaija.tui.plugin import Renderer, Scene

if TYPE_CHECKING:
    from mustamaija.tui.session import GameSession

__all__ = ["MustamaijaRenderer", "last_turn"]

HELP: Final = """
While the line is empty: **space** (or a click) chooses a card for your lead; when defending it pairs the card with
the led card marked ▼ (**↑ ↓** mark another). **Enter** leads the chosen cards (or the cursor's card), or makes the
defence shown (no beater chosen: pick up all). **F6** (or `memory`, `v`) shows or hides the memory panel, **F7**
(or `m`) declares your marriage.

## Moves

""" + MOVES_HELP + """

Cards are rank then suit: `9H`, `10d`, `QS` or `Q♠`. A chosen card is raised; the card under the cursor has a
heavy frame; cards you cannot play now are dimmed. In the memory panel, `·` marks a card gone, a reversed rank one
you hold, and a lowercase initial one known to be in that player's hand.
"""


def last_turn(actions: Sequence[object]) -> tuple[Lead, Beat | None] | None:
    """Return the last lead and the defence that answered it (``None`` while it is being defended)."""
    for i in range(len(actions) - 1, -1, -1):
        a = actions[i]
        if isinstance(a, Lead):
            nxt = actions[i + 1] if i + 1 < len(actions) else None
            return a, nxt if isinstance(nxt, Beat) else None
    return None


class MustamaijaRenderer(Renderer):
    """The panels of the Mustamaija table (a beating game): led cards with their beaters, and the memory."""

    titles: Mapping[str, str] = {"seats": "Seats (clockwise)", "info": "Game", "table": "Table", "side": "Memory"}
    placeholder = ("type a move (9H 4H · 9H:JH 4H:- · take) or a command (hint, undo, rules, save, help); "
                   "← → space Enter choose from the hand")
    toggles: Mapping[str, str] = {"memory": "side", "v": "side"}
    keys: Sequence[tuple[str, str, str]] = (("f7", "m", "marriage"),)
    help_markdown = HELP
    screenshots: Mapping[str, Callable[[GameSession], bool]] = {
        "table.svg": lambda s: s.state.turns >= 6 and s.state.phase == DEFEND,
    }

    def seats(self, scene: Scene) -> RenderableType:
        """Return every seat clockwise: its bot, its cards (every hand, in a replay), its role now, its losses."""
        st = scene.state
        totals = list(scene.totals) if scene.totals is not None else [0] * st.n
        return seats_table(st, scene.names, scene.labels, totals, me=scene.seat, reveal=scene.reveal,
                           show_losses=scene.totals is not None)

    def info(self, scene: Scene) -> RenderableType:
        """Return the trumps, the talon, the discard, the deal, the turn and the rules (in a replay: the next cards)."""
        st = scene.state
        extra = [*scene.info, ("Turn", str(st.turns if st.is_over else st.turns + 1)), ("Rules", rules_name(st.rules))]
        if scene.reveal and st.talon_size:
            extra.append(("Next", " ".join(card_symbol(c) for c in st.talon_cards[:8]) + (" …" if st.talon_size > 8 else "")))
        return info_text(st, extra)

    def table(self, scene: Scene) -> tuple[str, RenderableType]:
        """Return the led cards with their beaters (the defence being chosen), or the last turn, dimmed."""
        st = scene.state
        sel = scene.choice if isinstance(scene.choice, Selection) and st.phase == DEFEND else None
        last = None
        turn = last_turn(st.actions())
        if st.phase != DEFEND and turn is not None and turn[1] is not None:
            lead, beat = turn
            assert beat is not None
            last = (lead.cards, dict(beat.pairs), f"Last turn: {scene.names[lead.seat]} led to {scene.names[beat.seat]}")
        # The talon is in the title too: a short terminal hides the game panel that also shows it.
        title = "Table · " + (f"trumps {SUIT_SYMBOLS[st.trump]}" if st.trump >= 0 else "no trumps yet") \
            + f" · talon {st.talon_size}"
        return title, table_text(st, scene.names, pairs=sel.pairs if sel else None, target=sel.target if sel else -1,
                                 last=last)

    def side(self, scene: Scene) -> RenderableType:
        """Return the person's memory (M22): the card grid and every seat's known cards."""
        return memory_panel(scene.state.view(scene.seat), scene.names)

    def deal_over(self, session: GameSession) -> RenderableType:
        """Return who is the Mustamaija, or that the deal was stopped (M21)."""
        st: State = session.state
        if not st.finished:
            return Text(f"The deal was stopped unfinished after {st.turns} turns (M21).", style="bold")
        who = "You are" if st.loser == session.human else f"{session.names[st.loser]} is"
        head = Text(f"{who} the Mustamaija!", style="bold magenta")
        head.append(f"\nleft holding {cards_text(st.hands[st.loser])} after {st.turns} turns", style="")
        return head

    def log_style(self, line: str) -> str:
        """Return magenta for the line naming the Mustamaija."""
        return "bold magenta" if "the Mustamaija, left holding" in line else ""
