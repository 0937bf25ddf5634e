"""Mustamaija's own bots: the heuristic, and the searches built on it (PIMC, ISMCTS) with their open-hand twins.

Each is a factory of (spec parameters, seed) in :data:`BOTS`, which the
game hands to the bot registry (:mod:`mustamaija.players.registry`); the
modules are imported only when a bot is built.

>>> sorted(BOTS)
['heuristic', 'ismcts', 'open-hand', 'open-hand-pimc', 'pimc']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mustamaija.core.protocol import BotFactory

__all__ = ["BOTS"]


def _heuristic(params: Mapping[str, Any], seed: int) -> Any:
    from mustamaija.games.mustamaija.players.heuristic import HeuristicPlayer

    return HeuristicPlayer(seed=seed, **params)


def _pimc(params: Mapping[str, Any], seed: int) -> Any:
    from mustamaija.games.mustamaija.players.pimc import make_pimc

    return make_pimc(params, seed)


def _open_hand_pimc(params: Mapping[str, Any], seed: int) -> Any:
    from mustamaija.games.mustamaija.players.pimc import make_open_hand_pimc

    return make_open_hand_pimc(params, seed)


def _ismcts(params: Mapping[str, Any], seed: int) -> Any:
    from mustamaija.games.mustamaija.players.ismcts import make_ismcts

    return make_ismcts(params, seed)


def _open_hand(params: Mapping[str, Any], seed: int) -> Any:
    from mustamaija.games.mustamaija.players.ismcts import make_open_hand

    return make_open_hand(params, seed)


BOTS: Final[Mapping[str, tuple[BotFactory, str]]] = {
    "heuristic": (_heuristic, "rule-based play from the strategy knowledge of docs/rules.md"),
    "pimc": (_pimc, "Monte Carlo search: the heuristic's candidate actions played out by the heuristic on sampled "
                    "deals (iters, time, workers, solver)"),
    "open-hand-pimc": (_open_hand_pimc, "the same search on the true state: sees every card, an upper bound for "
                                        "experiments only"),
    "ismcts": (_ismcts, "information set MCTS on the view (iters, time, workers, c, rollout, depth, solver, reuse)"),
    "open-hand": (_open_hand, "the same search on the true state: sees every card, an upper bound for experiments only"),
}
"""Bot name -> (factory, one-line description)."""
