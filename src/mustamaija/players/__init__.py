"""Players: programs that choose steps from a seat's view, never from the true state."""

from mustamaija.games.mustamaija.players.heuristic import HeuristicPlayer, heuristic_step
from mustamaija.players.base import Player
from mustamaija.players.random import RandomPlayer
from mustamaija.players.registry import BotSpec, bot_names, make_bot, parse_bot_spec, register_bot

__all__ = [
    "BotSpec",
    "HeuristicPlayer",
    "Player",
    "RandomPlayer",
    "bot_names",
    "heuristic_step",
    "make_bot",
    "parse_bot_spec",
    "register_bot",
]
