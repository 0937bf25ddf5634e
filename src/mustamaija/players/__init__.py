"""Players of every game: programs that choose steps from a seat's view, never from the true state.

The random player and the bot registry serve every game; each game's own
bots (heuristics, searches) live in its package and reach the registry
through :meth:`~mustamaija.core.protocol.Game.bots`.
"""

from mustamaija.players.base import Player
from mustamaija.players.random import RandomPlayer
from mustamaija.players.registry import BotSpec, bot_names, make_bot, parse_bot_spec, register_bot

__all__ = ["BotSpec", "Player", "RandomPlayer", "bot_names", "make_bot", "parse_bot_spec", "register_bot"]
