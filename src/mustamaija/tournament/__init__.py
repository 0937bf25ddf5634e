"""Tournaments between bots: duplicate deals with seat rotation, loss rates with intervals, paired comparisons."""

from .runner import GameResult, TournamentResult, TournamentSettings, bot_seed, deal_seed, play_game, run_tournament
from .stats import PairedDifference, paired_difference, wilson_interval

__all__ = [
    "GameResult",
    "PairedDifference",
    "TournamentResult",
    "TournamentSettings",
    "bot_seed",
    "deal_seed",
    "paired_difference",
    "play_game",
    "run_tournament",
    "wilson_interval",
]
