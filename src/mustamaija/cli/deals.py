"""Reading a deal for the commands that take one: a record, a position, or a position's one-line text, of any game.

``mustamaija hint`` and ``mustamaija play --position`` take a file or, for
a position, its one-line text form (docs/formats.md). A record names its
game by its format; a position document is offered to every game's
positions (``game.positions()``); a text, which names no game, is read by
the game given (the default game unless told). What comes back replays as
a record does: ``start()``, ``replay()`` and ``actions``.

>>> from mustamaija.core.registry import DEFAULT_GAME, get_game
>>> game, deal = load_deal("5_sQh56-hK.d2__c_l0")
>>> game.name == DEFAULT_GAME, deal.replay().to_act
(True, 0)
>>> load_deal("nope.json")
Traceback (most recent call last):
...
mustamaija.core.errors.FormatError: cannot read the file: No such file or directory
"""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any, Final

from mustamaija.core.errors import FormatError
from mustamaija.core.protocol import Game
from mustamaija.core.records import read_json
from mustamaija.core.registry import DEFAULT_GAME, game_for_position, game_for_record, get_game

__all__ = ["is_position_text", "load_deal"]

_TEXT_CHARS: Final = frozenset(string.ascii_letters + string.digits + "-._~")
"""The characters of a position's one-line text (those a link's query carries as they are)."""


def is_position_text(text: str | bytes) -> bool:
    """Return whether ``text`` can be a position's one-line text: one word of ``A-Z a-z 0-9 - . _ ~`` with a ``_``.

    >>> is_position_text("5_sQ-hK__c_l0"), is_position_text('{"hands": []}'), is_position_text("game.json")
    (True, False, False)
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    text = text.strip()
    return "_" in text and all(ch in _TEXT_CHARS for ch in text)


def load_deal(source: str, *, seed: int | str | None = None, game: str | Game | None = None,
              text: bool = True) -> tuple[Game, Any]:
    """Return the game and the deal of a record file, a position file, or (with ``text``) a position's one-line text.

    ``seed`` deals what a position leaves to chance (a talon of unknown
    order); ``game`` reads a text form (default: the default game). Errors
    are :class:`FormatError`, naming the problem.
    """
    path = Path(source)
    try:
        data: bytes | None = path.read_bytes()
    except OSError as e:
        if not text or not is_position_text(source) or source.endswith(".json"):
            raise FormatError(f"cannot read the file: {e.strerror or e}") from None
        data = None
    if data is None:
        try:
            return _text_deal(source, seed, game)
        except FormatError as e:
            if source.count("_") >= 4:  # Meant as a text: its fault is what matters.
                raise
            raise FormatError(f"no such file, and not a position's one-line text either: {e}") from None
    if text and is_position_text(data):
        return _text_deal(data.decode("utf-8").strip(), seed, game)
    obj = read_json(data)  # Bad JSON: a FormatError naming the parser's reason.
    owner = game_for_position(obj)
    if owner is not None:
        positions = owner.positions()
        assert positions is not None
        return owner, positions.load(obj, seed)
    found = game_for_record(obj)
    return found, found.load_record(obj)


def _text_deal(text: str, seed: int | str | None, game: str | Game | None) -> tuple[Game, Any]:
    g = get_game(game or DEFAULT_GAME)
    positions = g.positions()
    if positions is None:
        raise FormatError(f"{g.title} has no positions: give a record file")
    return g, positions.load(text, seed)
