"""Players: programs that choose steps from a seat's view, never from the true state."""

from .base import Player
from .random import RandomPlayer

__all__ = ["Player", "RandomPlayer"]
