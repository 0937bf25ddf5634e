"""Player names that can be claimed, and the identities that ratings are kept under.

A claimed name is 2 to 24 characters: Latin letters with their accents (ä,
ö, å, é, ß…), the digits 0-9, and ``_``, ``-``, ``.`` and single spaces
inside. Other scripts are left out on purpose: a Cyrillic "а" looks like a
Latin "a", and a name must not pass for another. Names are unique without
regard to case or Unicode form (:func:`name_key`): "Ann", "ANN" and "ann"
are one name. Names that begin like the server's own seat labels ("player 2",
"bot 1 · hard", "spectator 3", "seat 0") are kept for those labels.

Every rated seat has an **identity**: ``player:<name key>`` for a signed-in
name, ``bot:<level or spec>`` for a bot (``bot:hard``, ``bot:pimc:iters=300``;
a level in lower case, as the lobby names it; a spec that a level stands for is
that level).

>>> check_name("  Äiti  "), name_key("ÄITI"), player_identity("Ann")
('Äiti', 'äiti', 'player:ann')
>>> check_name("Аnn")  # The first letter is Cyrillic.
Traceback (most recent call last):
...
mustamaija.ratings.names.PlayerNameError: a name may hold Latin letters, digits, '_', '-', '.' and single spaces, not 'А'
>>> check_name("player 7")
Traceback (most recent call last):
...
mustamaija.ratings.names.PlayerNameError: names beginning with 'player' are kept for the server's own seat labels
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final, Literal

from mustamaija.core.protocol import Game

__all__ = [
    "BOT",
    "MAX_NAME",
    "MIN_NAME",
    "PLAYER",
    "PlayerNameError",
    "bot_identity",
    "check_name",
    "identity_kind",
    "identity_name",
    "name_key",
    "player_identity",
]

MIN_NAME: Final = 2
MAX_NAME: Final = 24
PLAYER: Final = "player:"
"""The prefix of a signed-in name's identity."""
BOT: Final = "bot:"
"""The prefix of a bot level's (or spec's) identity."""
_RESERVED: Final = ("player", "bot", "spectator", "seat")
_PUNCTUATION: Final = frozenset("_-.")


class PlayerNameError(ValueError):
    """A name that cannot be claimed; the message says why."""


def name_key(name: str) -> str:
    """Return the form under which a name is unique: Unicode-normalised (NFKC), spaces collapsed, case folded."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def _allowed(ch: str) -> bool:
    if ch in _PUNCTUATION or ch == " " or "0" <= ch <= "9":
        return True
    return unicodedata.category(ch).startswith("L") and unicodedata.name(ch, "").startswith("LATIN ")


def check_name(text: object) -> str:
    """Return ``text`` as a name that may be claimed (NFC, outer spaces dropped), or raise :class:`PlayerNameError`."""
    if not isinstance(text, str):
        raise PlayerNameError(f"a name is a string, not {type(text).__name__}")
    name = unicodedata.normalize("NFC", text.strip())
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise PlayerNameError(f"a name is {MIN_NAME} to {MAX_NAME} characters long, not {len(name)}")
    for ch in name:
        if not _allowed(ch):
            raise PlayerNameError(f"a name may hold Latin letters, digits, '_', '-', '.' and single spaces, not {ch!r}")
    if "  " in name:
        raise PlayerNameError("a name may not hold two spaces in a row")
    if not (name[0].isalnum() and name[-1].isalnum()):
        raise PlayerNameError("a name begins and ends with a letter or a digit")
    first = re.split(r"[\s\d_.-]", name_key(name), maxsplit=1)[0]
    if first in _RESERVED:
        raise PlayerNameError(f"names beginning with {first!r} are kept for the server's own seat labels")
    return name


def player_identity(name: str) -> str:
    """Return the identity a signed-in name is rated under."""
    return PLAYER + name_key(name)


def bot_identity(spec: str, game: Game) -> str:
    """Return the identity a bot is rated under in ``game``: its level, or its spec as written.

    A level is named in lower case, and so is the spec a level stands for (a tournament's ``random`` is
    the lobby's ``easy``): one bot, one rating.

    >>> from mustamaija.core.registry import get_game, DEFAULT_GAME
    >>> game = get_game(DEFAULT_GAME)
    >>> bot_identity(" Hard ", game), bot_identity(game.levels["easy"], game), bot_identity("pimc:iters=300", game)
    ('bot:hard', 'bot:easy', 'bot:pimc:iters=300')
    """
    text = spec.strip()
    if text.lower() in game.levels:
        return BOT + text.lower()
    level = next((name for name, level_spec in game.levels.items() if level_spec == text), None)
    return BOT + (level or text)


def identity_kind(identity: str) -> Literal["human", "bot"]:
    """Return whether an identity is a signed-in person's or a bot's."""
    return "bot" if identity.startswith(BOT) else "human"


def identity_name(identity: str) -> str:
    """Return the identity without its prefix: the name key, or the bot's level or spec.

    >>> identity_name("bot:hard"), identity_name("player:ann")
    ('hard', 'ann')
    """
    return identity.partition(":")[2]
