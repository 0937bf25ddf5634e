"""Rich renderables for the table: cards, the hand, the cards on the table, the seats, the memory panel.

Cards show their suit sign, so the screen stays readable without colour;
with colour, hearts and diamonds are red. A chosen card is raised, the
cursor's card has a heavy frame and cards that cannot be played now are
dimmed.

>>> from mustamaija.core.cards import parse_card
>>> card_label(parse_card("TH")).plain, card_label(parse_card("QS")).plain
('10♥', 'Q♠')
>>> print(hand_text([parse_card("9H"), parse_card("QS")], cursor=0, chosen=1 << parse_card("QS"),
...                 playable=-1).plain)
      ╭───╮
┏━━━┓ │ Q♠│
┃ 9♥┃ ╰───╯
┗━━━┛
  ^
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from mustamaija.core.cards import RANKS, SUIT_SYMBOLS, card_symbol, cards_of
from mustamaija.games.mustamaija.state import DEFEND, State
from mustamaija.games.mustamaija.view import View
from mustamaija.tui.describe import SUIT_WORDS, cards_text, sort_hand, trump_text

__all__ = [
    "card_label",
    "card_style",
    "cards_label",
    "hand_layout",
    "hand_text",
    "info_text",
    "memory_panel",
    "seats_table",
    "table_text",
]

RED: Final = "bold red"
BLACK: Final = "bold"
CARD_W: Final = 6  # A card box is 5 wide, with a gap.
COMPACT_W: Final = 5  # A card in the compact form of a long hand.
_LIGHT: Final = ("╭───╮", "│", "╰───╯")
_HEAVY: Final = ("┏━━━┓", "┃", "┗━━━┛")


def card_style(c: int) -> str:
    """Return the style of a card: red for hearts and diamonds."""
    return RED if c // 13 in (1, 2) else BLACK


def card_label(c: int, style: str = "") -> Text:
    """Return a card as ``10♥`` in its colour."""
    return Text(card_symbol(c), style=(card_style(c) + " " + style).strip())


def cards_label(mask: int | Sequence[int], sep: str = " ") -> Text:
    """Return cards as coloured labels; a mask is shown in index order."""
    cards = cards_of(mask) if isinstance(mask, int) else list(mask)
    if not cards:
        return Text("-", style="dim")
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_label(c))
    return out


def _box(c: int | None, *, heavy: bool = False, dim: bool = False, style: str = "") -> list[Text]:
    """Return the three lines of a card box (``c=None``: an empty slot)."""
    if c is None:
        return [Text(" " * 5), Text(" " * 5), Text(" " * 5)]
    top, side, bottom = _HEAVY if heavy else _LIGHT
    frame = "dim" if dim else ("bold" if heavy else "")
    frame = (frame + " " + style).strip()
    label = card_symbol(c).rjust(3)
    mid = Text(side, style=frame)
    mid.append(label, style="dim" if dim else card_style(c))
    mid.append(side, style=frame)
    return [Text(top, style=frame), mid, Text(bottom, style=frame)]


def hand_layout(count: int, width: int) -> tuple[int, int, int]:
    """Return how a hand of ``count`` cards fits ``width`` columns: (cell width, cards a row, lines a row).

    Card boxes when they fit on one row; else a compact form, three lines a
    row (chosen marks, the cards, cursor and pair marks), in as many rows as
    needed.
    """
    if count * CARD_W <= width + 1:
        return CARD_W, max(1, count), 5
    return COMPACT_W, max(1, (width + 1) // COMPACT_W), 3


def hand_text(order: Sequence[int], *, cursor: int = -1, chosen: int = 0, playable: int = -1,
              marks: Mapping[int, str] | None = None, focused: bool = True, width: int = 200) -> Text:
    """Return the hand: chosen cards raised, the cursor framed, unplayable cards dimmed.

    The line below names each card's mark (``^`` under the cursor, and for a
    defence the led card a card is paired with). A hand too wide for
    ``width`` is drawn in a compact form (``▼`` over chosen cards, the
    cursor's card reversed).
    """
    marks = marks or {}
    if not order:
        return Text("(no cards)", style="dim")
    cell, per_row, _ = hand_layout(len(order), width)
    out = Text()
    for start in range(0, len(order), per_row):
        chunk = list(enumerate(order))[start:start + per_row]
        block = _box_rows(chunk, cursor, chosen, playable, marks, focused) if cell == CARD_W else \
            _compact_rows(chunk, cursor, chosen, playable, marks, focused)
        for row in block:
            if out.plain:
                out.append("\n")
            row.rstrip()
            out.append_text(row)
    return out


def _box_rows(chunk: list[tuple[int, int]], cursor: int, chosen: int, playable: int, marks: Mapping[int, str],
              focused: bool) -> list[Text]:
    rows = [Text() for _ in range(5)]
    for j, (i, c) in enumerate(chunk):
        raised = bool(chosen >> c & 1)
        lines = _box(c, heavy=i == cursor and focused, dim=not (playable >> c & 1))
        blank = Text(" " * 5)
        column = [lines[0], lines[1], lines[2], blank] if raised else [blank, lines[0], lines[1], lines[2]]
        mark = marks.get(c, "^" if i == cursor and focused else "")
        column.append(Text(mark.center(5)[:5], style="bold yellow" if mark else ""))
        for r in range(5):
            if j:
                rows[r].append(" ")
            rows[r].append_text(column[r])
    return rows


def _compact_rows(chunk: list[tuple[int, int]], cursor: int, chosen: int, playable: int, marks: Mapping[int, str],
                  focused: bool) -> list[Text]:
    rows = [Text() for _ in range(3)]
    for i, c in chunk:
        here = i == cursor and focused
        rows[0].append(("▼" if chosen >> c & 1 else "").center(COMPACT_W), style="bold yellow")
        style = card_style(c) if playable >> c & 1 else "dim"
        if here:
            style += " reverse"
        rows[1].append(" ")
        rows[1].append(card_symbol(c).rjust(3), style=style)
        rows[1].append(" ")
        mark = marks.get(c, "^" if here else "")
        rows[2].append(mark.center(COMPACT_W)[:COMPACT_W], style="bold yellow" if mark else "")
    return rows


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
        tops.append(_box(c, dim=dim, heavy=c == target))
        b = pairs.get(c)
        bottoms.append(_box(b, dim=dim) if b is not None else [Text(" " * 5), Text("  ·  ", style="dim"),
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
    t.add_column("", width=1)
    t.add_column("seat", no_wrap=True)
    t.add_column("cards", no_wrap=not reveal)
    t.add_column("now", no_wrap=True)
    if show_losses:
        t.add_column("lost", justify="right", width=4)
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
            cards = Text("▮" * min(n, 6) + ("+" if n > 6 else ""), style="blue")
            cards.append(f" {n}")
        t.add_row(mark, who, cards, role, *([str(losses[s])] if show_losses else []))
    return t


def info_text(state: State, extra: Sequence[tuple[str, str]] = ()) -> Text:
    """Return the trump, talon and discard counts (and extra lines such as the deal number)."""
    out = Text()
    rows: list[tuple[str, Text]] = []
    trump = Text(trump_text(state), style=card_style(state.trump * 13) if state.trump >= 0 else "")
    rows.append(("Trump", trump))
    talon = Text(f"{state.talon_size} card{'s' if state.talon_size != 1 else ''}")
    if state.talon_size and state.trump_card >= 0:
        talon.append(", last: ")
        talon.append_text(card_label(state.trump_card))
    rows.append(("Talon", talon))
    rows.append(("Discard", Text(f"{state.discard.bit_count()} cards")))
    for key, line in extra:
        rows.append((key, Text(line)))
    for i, (key, shown) in enumerate(rows):
        if i:
            out.append("\n")
        out.append(f"{key:<8}", style="bold dim")
        out.append_text(shown)
    return out


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


def suit_name(suit: int) -> str:
    """Return a suit's word."""
    return SUIT_WORDS[suit]


def cards_plain(mask: int) -> str:
    """Return cards with suit signs, as plain text."""
    return cards_text(mask)
