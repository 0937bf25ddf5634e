"""Tournaments between bots: duplicate deals with seat rotation, loss rates (Black Maria: points) with intervals."""

from mustamaija.tournament.blackmaria import BlackMariaResult, BlackMariaSettings, HandResult, run_black_maria_tournament
from mustamaija.tournament.runner import GameResult, TournamentResult, TournamentSettings, bot_seed, deal_seed, play_game, run_tournament
from mustamaija.tournament.stats import MeanInterval, PairedDifference, mean_interval, paired_difference, wilson_interval

__all__ = [
    "BlackMariaResult",
    "BlackMariaSettings",
    "GameResult",
    "HandResult",
    "MeanInterval",
    "PairedDifference",
    "TournamentResult",
    "TournamentSettings",
    "bot_seed",
    "deal_seed",
    "mean_interval",
    "paired_difference",
    "play_game",
    "run_black_maria_tournament",
    "run_tournament",
    "wilson_interval",
]
