"""The typed commands every table knows; a line that is not one of them is a move, read by the game.

================================  ================================================
typed                             meaning
================================  ================================================
``hint`` (``h``)                  what to play, and why (from your view only)
``undo`` (``u``)                  take back your last move (practice matches)
``rules`` (``r``)                 the rule set in force
``save [FILE]`` (``s``)           save the deal as a record
``help`` (``?``)                  the keys and commands
``pace 0.5``, ``faster``          how long each bot move stays on screen
``next`` (``n``), ``quit`` (``q``)  the next deal; save and leave
================================  ================================================

>>> parse_command("h"), parse_command("save my deal.json"), parse_command("PACE 0.5"), parse_command("9H 4H")
(('hint', ''), ('save', 'my deal.json'), ('pace', '0.5'), None)
>>> parse_command("pace 99")
Traceback (most recent call last):
...
mustamaija.core.errors.CardError: bad pace '99': give 0 to 10 seconds
"""

from __future__ import annotations

from typing import Final

from mustamaija.core.errors import CardError

__all__ = ["COMMAND_HELP", "parse_command"]

_WORDS: Final = {
    "hint": "hint", "h": "hint",
    "undo": "undo", "u": "undo",
    "rules": "rules", "r": "rules",
    "help": "help", "keys": "help", "?": "help",
    "save": "save", "s": "save",
    "quit": "quit", "exit": "quit", "q": "quit",
    "next": "next", "n": "next",
    "pace": "pace", "faster": "faster", "slower": "slower",
}

COMMAND_HELP: Final = """\
- `hint` or `h` — ask what to play, and why (from your view only)
- `undo` or `u` — take back your last move (practice matches only)
- `rules` or `r` — show the rule set in force
- `save [FILE]` or `s` — save this deal as a record (docs/formats.md)
- `pace SECONDS`, `faster`, `slower` — how long each bot move stays on screen (also + and -)
- `next` — deal the next deal once this one is over
- `help` or `?` — the keys and commands
- `quit` — save the game in progress and leave"""
"""Every command, as Markdown for the help screen."""


def parse_command(text: str) -> tuple[str, str] | None:
    """Return (command, argument) for a typed command, ``None`` for anything else (a move, or a game's word)."""
    head, _, rest = text.strip().partition(" ")
    word = _WORDS.get(head.lower())
    rest = rest.strip()
    if word is None or (rest and word not in ("save", "pace")):
        return None
    if word == "pace":
        try:
            value = float(rest)
        except ValueError:
            raise CardError(f"bad pace {rest!r}: give seconds, such as 'pace 0.5'") from None
        if not 0 <= value <= 10:
            raise CardError(f"bad pace {rest!r}: give 0 to 10 seconds")
        return word, str(value)
    return word, rest
