"""Rich renderables of the Mustamaija table: the cards on the table, the seats, the game panel and the memory panel.

Everything here draws a :class:`~mustamaija.games.mustamaija.state.State` as
one seat may see it: hand sizes, the cards on the table, the trumps, the
talon's size and the memory of M22 (a view). Only a replay or a puzzle, where
every hand is known, passes ``reveal``.

>>> from mustamaija.games.mustamaija import State
>>> s = State.from_seed(3, 4)
>>> print(table_text(s, ["You", "Aino", "Eero"]).plain)
The table is empty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from mustamaija.core.cards import RANKS, SUIT_SYMBOLS, cards_of
from mustamaija.games.mustamaija.state import DEFEND, State
from mustamaija.games.mustamaija.tui.describe import trump_text
from mustamaija.games.mustamaija.view import View
from mustamaija.tui.describe import sort_hand
from mustamaija.tui.render import card_box, card_label, card_style, cards_label, key_lines

__all__ = ["info_text", "memory_panel", "seats_table", "table_text"]


def table_text(state: State, names: Sequence[str], *, pairs: Mapping[int, int] | None = None, target: int = -1,
               last: tuple[int, Mapping[int, int], str] | None = None) -> Text:
    """Return the cards on the table: each led card with its beater below it, or the last turn, dimmed.

    ``pairs`` are the defence being chosen (or made), ``target`` the led card
    the next beater goes to, ``last`` the last turn as (led, pairs, caption)
    to show while nothing is on the table.
    """
    if state.phase == DEFEND:
        led = cards_of(state.led)
        pairs = dict(pairs or {})
        caption = Text(f"{names[state.attacker]} led to {names[state.defender]}:", style="bold")
        dim = False
    elif last is not None:
        led = cards_of(last[0])
        pairs = dict(last[1])
        caption = Text(last[2], style="dim")
        dim = True
    else:
        return Text("The table is empty.", style="dim")
    marker = Text()
    tops: list[list[Text]] = []
    bottoms: list[list[Text]] = []
    for i, c in enumerate(led):
        if i:
            marker.append(" ")
        marker.append(("  ▼  " if c == target else " " * 5), style="bold yellow")
        tops.append(card_box(c, dim=dim, heavy=c == target))
        b = pairs.get(c)
        bottoms.append(card_box(b, dim=dim) if b is not None else [Text(" " * 5), Text("  ·  ", style="dim"),
                                                                  Text(" " * 5)])
    out = Text()
    out.append_text(caption)
    out.append("\n")
    out.append_text(marker)
    for group in (tops, bottoms):
        for r in range(3):
            out.append("\n")
            for i, box in enumerate(group):
                if i:
                    out.append(" ")
                out.append_text(box[r])
    if state.phase == DEFEND or last is not None:
        beaten = sum(1 << t for t in pairs)
        open_ = (state.led if state.phase == DEFEND else last[0] if last else 0) & ~beaten
        if state.phase != DEFEND and open_:
            out.append("\npicked up: ", style="dim")
            out.append_text(cards_label(open_))
    return out


def seats_table(state: State, names: Sequence[str], labels: Sequence[str], losses: Sequence[int], *,
                me: int | None = None, reveal: bool = False, show_losses: bool = True) -> Table:
    """Return every seat clockwise: name, bot, hand size, role now (attacks, defends, out) and losses.

    With ``reveal`` every hand is shown (replays, after the deal).
    """
    t = Table(box=None, show_header=True, header_style="bold dim", pad_edge=False, expand=True, padding=(0, 1, 0, 0))
    # In a narrow terminal the names give way first (an ellipsis), the counts and roles never.
    t.add_column("", width=1)
    t.add_column("seat", no_wrap=True, overflow="ellipsis", ratio=1)
    t.add_column("cards", no_wrap=not reveal, min_width=3 if not reveal else None, overflow="crop")
    t.add_column("now", no_wrap=True, min_width=7)
    if show_losses:
        t.add_column("lost", justify="right", min_width=4)
    for s in range(state.n):
        n = state.hands[s].bit_count()
        if state.is_over and s == state.loser:
            role = Text("Mustamaija", style="bold magenta")
        elif s in state.out:
            role = Text("out", style="green")
        elif state.is_over:
            role = Text("")
        elif s == state.attacker:
            role = Text("attacks", style="bold red")
        elif s == state.defender:
            role = Text("defends", style="bold cyan")
        elif not state.hands[s]:
            role = Text("-", style="dim")
        else:
            role = Text("")
        mark = Text("▶", style="bold yellow") if s == state.to_act else Text(" ")
        who = Text(names[s], style="bold" if s == me else "")
        if labels[s] and s != me:
            who.append(f"\n {labels[s]}", style="dim")
        if reveal:
            cards = cards_label(sort_hand(state.hands[s], state.trump)) if n else Text("-", style="dim")
        else:
            cards = Text(f"{n:>2} ")  # The count first: in a narrow terminal the backs are cut, not the count.
            cards.append("▮" * min(n, 6) + ("+" if n > 6 else ""), style="blue")
        t.add_row(mark, who, cards, role, *([str(losses[s])] if show_losses else []))
    return t


def info_text(state: State, extra: Sequence[tuple[str, str]] = ()) -> Text:
    """Return the trump, talon and discard counts (and extra lines such as the deal number)."""
    trump = Text(trump_text(state), style=card_style(state.trump * 13) if state.trump >= 0 else "")
    talon = Text(f"{state.talon_size} card{'s' if state.talon_size != 1 else ''}")
    if state.talon_size and state.trump_card >= 0:
        talon.append(", last: ")
        talon.append_text(card_label(state.trump_card))
    rows: list[tuple[str, Text | str]] = [("Trump", trump), ("Talon", talon),
                                          ("Discard", f"{state.discard.bit_count()} cards"), *extra]
    return key_lines(rows)


def memory_panel(view: View, names: Sequence[str]) -> RenderableType:
    """Return what the viewer remembers (M22): a card grid (gone, yours, known with a seat) and each seat's known cards.

    In the grid a card is ``·`` once gone (discarded), its rank reversed if
    you hold it, the lowercase initial of the seat known to hold it, ``t``
    when its place in the talon is known, and its rank, dimmed, while its
    place is unknown.
    """
    me = view.seat
    initials = {s: names[s][0].lower() for s in range(view.players) if s != me}
    talon_known = 0
    for _, c in view.talon_known:
        talon_known |= 1 << c
    grid = Text()
    grid.append("   " + " ".join(r if r != "T" else "T" for r in reversed(RANKS)) + "\n", style="bold dim")
    for suit in range(4):
        grid.append(f" {SUIT_SYMBOLS[suit]} ", style=card_style(suit * 13))
        for r in range(12, -1, -1):
            c = suit * 13 + r
            bit = 1 << c
            rank = RANKS[r]
            if view.discard & bit:
                cell, style = "·", "dim"
            elif view.hand & bit:
                cell, style = rank, "reverse " + card_style(c)
            elif view.led & bit:
                cell, style = rank, "bold underline " + card_style(c)
            elif talon_known & bit:
                cell, style = "t", "italic"
            else:
                owner = next((s for s in range(view.players) if s != me and view.known[s] & bit), None)
                if owner is not None:
                    cell, style = initials[owner], "bold yellow"
                else:
                    cell, style = rank, "dim"
            grid.append(cell, style=style)
            if r:
                grid.append(" ")
        grid.append("\n")
    legend = Text("· gone  ", style="dim")
    legend.append("A", style="reverse")
    legend.append(" yours  ", style="dim")
    legend.append("t", style="italic")
    legend.append(" talon  ", style="dim")
    legend.append("\n" + "  ".join(f"{i} {names[s]}" for s, i in initials.items()), style="yellow")
    known = Table(box=None, show_header=False, pad_edge=False, expand=True)
    known.add_column(no_wrap=True)
    known.add_column()
    for s in range(view.players):
        if s == me:
            continue
        known.add_row(Text(names[s], style="bold"), cards_label(view.known[s]))
    gone = view.discard.bit_count()
    unseen = view.unseen.bit_count()
    summary = Text(f"{gone} gone, {unseen} unseen (in the talon or in hands)", style="dim")
    if view.revealed:
        summary.append("\nSpades put back into the talon: ", style="dim")
        summary.append_text(cards_label(view.revealed))
    return Group(grid, legend, Text(""), Text("Known to be held:", style="bold dim"), known, Text(""), summary)
