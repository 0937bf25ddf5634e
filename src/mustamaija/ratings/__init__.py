"""Glicko-2 ratings of signed-in names and bot levels, from finished deals of any game (docs/web.md, "Ratings").

Pure: no I/O and no clock (a caller passes the time). :mod:`.glicko2` is the
rating system, :mod:`.outcomes` the pairwise rule that turns a deal into
results, :mod:`.standings` ratings over many deals and the leaderboard order,
:mod:`.names` the names that can be claimed and the identities ratings are
kept under, and :mod:`.records` the identities of a stored record's seats.
The web app stores standings (``mustamaija.web.store``); ``mustamaija
ratings`` computes them from record files.
"""

from __future__ import annotations

from mustamaija.ratings.glicko2 import INITIAL, Rating, rate
from mustamaija.ratings.names import PlayerNameError, bot_identity, check_name, identity_kind, name_key, player_identity
from mustamaija.ratings.outcomes import Outcome, deal_outcomes, outcomes_from_scores
from mustamaija.ratings.records import record_seats
from mustamaija.ratings.standings import PROVISIONAL_RD, Ledger, Standing, ranked, rate_deal

__all__ = [
    "INITIAL",
    "PROVISIONAL_RD",
    "Ledger",
    "Outcome",
    "PlayerNameError",
    "Rating",
    "Standing",
    "bot_identity",
    "check_name",
    "deal_outcomes",
    "identity_kind",
    "name_key",
    "outcomes_from_scores",
    "player_identity",
    "ranked",
    "rate",
    "rate_deal",
    "record_seats",
]
