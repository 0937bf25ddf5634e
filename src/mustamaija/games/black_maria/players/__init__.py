"""Black Maria's own bots: the heuristic, and the generic searches (PIMC, ISMCTS) over it (a view goes in, one step comes out).

The uniformly random player serves every game (:mod:`mustamaija.players.random`).

>>> sorted(BOTS)
['heuristic', 'ismcts', 'pimc']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mustamaija.core.protocol import BotFactory
from mustamaija.games.black_maria.players.heuristic import HeuristicPlayer, heuristic_step
from mustamaija.games.black_maria.players.pimc import PimcPlayer

__all__ = ["BOTS", "HeuristicPlayer", "PimcPlayer", "heuristic_step"]


def _heuristic(params: Mapping[str, Any], seed: int) -> HeuristicPlayer:
    if params:
        raise ValueError(f"the Black Maria heuristic takes no parameters, got {', '.join(params)}")
    return HeuristicPlayer(seed)


def _pimc(params: Mapping[str, Any], seed: int) -> PimcPlayer:
    from mustamaija.search.common import PIMC_PARAMS, read_params

    # Checked and typed like every search bot's: "beliefs=off" must not reach the player as a true string.
    return PimcPlayer(seed=seed, **read_params(params, PIMC_PARAMS, "pimc"))


def _ismcts(params: Mapping[str, Any], seed: int) -> Any:
    from mustamaija.search.ismcts import make_ismcts

    return make_ismcts("black-maria", params, seed)


BOTS: Final[Mapping[str, tuple[BotFactory, str]]] = {
    "heuristic": (_heuristic, "the strategy notes of docs/black-maria.md: pass and play by rules of thumb"),
    "pimc": (_pimc, "Perfect Information Monte Carlo over sampled deals, finished by the heuristic (samples=N)"),
    "ismcts": (_ismcts, "information set MCTS on the view with heuristic rollouts (iters, time, workers, c, rollout, "
                        "depth, reuse)"),
}
"""Bot name -> (factory, one-line description)."""
