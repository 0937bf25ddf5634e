"""The typed moves of the Mustamaija table (the commands every table knows are :mod:`mustamaija.tui.commands`).

================================  ================================================
typed                             meaning
================================  ================================================
``9H 4H`` (or ``lead 9h, 4♥``)    lead these cards (when leading)
``9H:JH 4H:-``                    defend: beat 9H with JH, leave 4H (picked up)
``JH``                            defend against one led card (or a clear match)
``take`` (``pick``, ``-``)        pick up every led card
``declare H`` (``marriage H``)    declare the marriage in hearts (V3, V4); ``m``: the only one you hold
================================  ================================================

>>> parse_command("9h, 4♥")
Command(kind='cards', cards=(20, 15), pairs=(), arg='')
>>> parse_command("9H:JH 4H:-").pairs
((20, 22), (15, None))
>>> parse_command("TAKE").kind, parse_command("declare d").arg, parse_command("m").kind
('take', 'D', 'marriage')
>>> parse_command("9H:ZZ")
Traceback (most recent call last):
...
mustamaija.core.errors.CardError: bad card 'ZZ': rank must be one of 2 3 4 5 6 7 8 9 T J Q K A (or 10)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mustamaija.core.cards import SUITS, parse_card, parse_suit
from mustamaija.core.errors import CardError

__all__ = ["MOVES_HELP", "Command", "parse_command"]

_WORDS: Final = {
    "take": "take", "pick": "take", "pickup": "take", "pick-up": "take", "-": "take", "t": "take",
    "declare": "declare", "marriage": "declare", "d": "declare", "m": "declare",
    "lead": "lead", "beat": "beat", "play": "play",
}

MOVES_HELP: Final = """\
- `9H 4H` — lead these cards (all of one suit)
- `9H:JH 4H:-` — defend: beat 9H with JH, pick up 4H
- `JH` — defend a single led card with JH
- `take` — pick up every led card
- `declare H` — declare the marriage K+Q of hearts (marriage rules); `m` — the only marriage you hold"""
"""Every move, as Markdown for the help screen."""


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed line: ``kind`` and its cards, defence pairs (beater ``None``: leave it) or argument."""

    kind: str
    cards: tuple[int, ...] = ()
    pairs: tuple[tuple[int, int | None], ...] = ()
    arg: str = ""


def _pair(part: str) -> tuple[int, int | None]:
    sep = ":" if ":" in part else "/"
    led, _, beater = part.partition(sep)
    if not led.strip():
        raise CardError(f"bad pair {part!r}: write led:beater, such as 9H:JH, or 9H:- to leave it")
    b = beater.strip()
    return parse_card(led), (None if b in ("", "-", "take") else parse_card(b))


def parse_command(text: str) -> Command:
    """Parse one typed move; a bad card raises :class:`CardError` naming the string."""
    line = text.strip()
    if not line:
        return Command("empty")
    head, _, rest = line.partition(" ")
    word = _WORDS.get(head.lower())
    rest = rest.strip()
    if word == "take" and not rest:
        return Command("take")
    if word == "declare":
        if not rest:
            return Command("marriage")  # The only marriage the hand holds; the screen says if there are two.
        return Command("declare", arg=SUITS[parse_suit(rest)])
    if word in ("lead", "beat", "play"):
        line = rest
    parts = line.replace(",", " ").split()
    if not parts:
        raise CardError(f"{head}: which cards? such as '{head} 9H 4H'")
    if any(":" in p or "/" in p for p in parts):
        return Command("pairs", pairs=tuple(_pair(p) for p in parts))
    return Command("cards", cards=tuple(parse_card(p) for p in parts))
