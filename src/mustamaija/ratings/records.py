"""Who sat where in a record: the identity each seat of a stored deal is rated under.

Records say it with optional keys (docs/formats.md) that never change the
replay: ``bots``, the bot spec in each seat (``null`` for a person; written
by tournaments and by the web app), and ``players``, the signed-in name in
each seat (``null`` for a bot or a name not signed in; written by the web
app). A seat that neither names is not rated, unless the caller asks for
the seats' free ``names`` to stand for players (a record of friends at one
terminal, say).

>>> from mustamaija.core.registry import DEFAULT_GAME, get_game
>>> game = get_game(DEFAULT_GAME)
>>> rec = game.record_of(game.deal(3, seed=1), bots=[None, "hard", None], signed_in=["Ann", None, None],
...                      names=["Ann", "bot 1 · hard", "Bo"])
>>> record_seats(game, rec), record_seats(game, rec, names=True)
(['player:ann', 'bot:hard', None], ['player:ann', 'bot:hard', 'player:bo'])
"""

from __future__ import annotations

from typing import Any

from mustamaija.core.protocol import Game
from mustamaija.ratings.names import bot_identity, player_identity

__all__ = ["record_seats"]


def _per_seat(record: Any, key: str) -> list[Any]:
    value = record.extra.get(key)
    return list(value) if isinstance(value, list) and len(value) == record.players else [None] * record.players


def record_seats(game: Game, record: Any, names: bool = False) -> list[str | None]:
    """Return each seat's identity in a record of ``game`` (``None``: not rated); with ``names``, free names count."""
    bots, players, free = _per_seat(record, "bots"), _per_seat(record, "signed_in"), _per_seat(record, "names")
    out: list[str | None] = []
    for bot, player, name in zip(bots, players, free, strict=True):
        if isinstance(bot, str) and bot.strip():
            out.append(bot_identity(bot, game))
        elif isinstance(player, str) and player.strip():
            out.append(player_identity(player))
        elif names and isinstance(name, str) and name.strip():
            out.append(player_identity(name))
        else:
            out.append(None)
    return out
