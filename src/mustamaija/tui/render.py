"""Rich renderables shared by every game's table: cards, rows of card boxes and the person's hand.

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

from rich.text import Text

from mustamaija.core.cards import card_symbol, cards_of

__all__ = ["card_box", "card_label", "card_style", "cards_label", "hand_layout", "hand_text", "key_lines"]

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


def card_box(c: int | None, *, heavy: bool = False, dim: bool = False, style: str = "") -> list[Text]:
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
        lines = card_box(c, heavy=i == cursor and focused, dim=not (playable >> c & 1))
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


def key_lines(rows: Sequence[tuple[str, Text | str]], width: int = 8) -> Text:
    """Return labelled lines (``Trump   ♦ diamonds``), the labels bold and dim, for a game panel."""
    out = Text()
    for i, (key, shown) in enumerate(rows):
        if i:
            out.append("\n")
        out.append(f"{key:<{width}}", style="bold dim")
        out.append_text(shown if isinstance(shown, Text) else Text(shown))
    return out
