"""Tournaments between bots of any game: duplicate deals with seat rotation, loss rates or points with intervals."""

from mustamaija.tournament.results import LossRow, PointsRow, Row, TournamentResult
from mustamaija.tournament.runner import GameResult, TournamentSettings, bot_seed, deal_seed, play_game, run_tournament
from mustamaija.tournament.stats import MeanInterval, PairedDifference, mean_interval, paired_difference, wilson_interval

__all__ = [
    "GameResult",
    "LossRow",
    "MeanInterval",
    "PairedDifference",
    "PointsRow",
    "Row",
    "TournamentResult",
    "TournamentSettings",
    "bot_seed",
    "deal_seed",
    "mean_interval",
    "paired_difference",
    "play_game",
    "run_tournament",
    "wilson_interval",
]
