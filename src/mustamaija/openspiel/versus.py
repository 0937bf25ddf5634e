"""Our search player against OpenSpiel's Python ISMCTS bot, at equal thinking time per move, in any game.

OpenSpiel's ``ISMCTSBot`` (random rollouts, UCT) runs on the OpenSpiel game
with our resampler; :class:`TimedISMCTSBot` only replaces its fixed number
of simulations by a time budget, so both sides think ``seconds`` per step.
Every deal is played once per seat rotation (duplicate deals), and each
side's tournament figure (``game.scores``: a loss counts 1 in a game scored
by a loser, penalty points in a game scored by points) is reported::

    python -m mustamaija.openspiel.versus --deals 20 --seconds 0.1 --players 2 [--game NAME]

>>> result = play_versus(deals=1, seconds=0.002, players=2, seed=3)
>>> result["games"], sorted(result["losses"])
(2, ['ismcts', 'openspiel-ismcts'])
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,unused-ignore]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped,unused-ignore]

from mustamaija.core.registry import DEFAULT_GAME, get_game
from mustamaija.openspiel.game import OpenSpielState, resampler
from mustamaija.players.registry import make_bot
from mustamaija.tournament.runner import bot_seed, deal_seed

__all__ = ["TimedISMCTSBot", "play_versus"]


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc,unused-ignore]
    """OpenSpiel's ISMCTS bot with a time budget per move instead of a number of simulations."""

    def __init__(self, game: pyspiel.Game, seconds: float, seed: int, uct_c: float = 2.0) -> None:
        rs = np.random.RandomState(seed % 2**32)
        super().__init__(game, mcts.RandomRolloutEvaluator(1, rs), uct_c, max_simulations=1, random_state=rs)
        self.set_resampler(resampler(rs))
        self.seconds = seconds
        self.simulations = 0
        self.searches = 0

    def run_search(self, state: pyspiel.State) -> list[tuple[int, float]]:
        """Run simulations from sampled worlds until the time is up, as the parent does for a fixed count."""
        deadline = time.perf_counter() + self.seconds
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        self.searches += 1
        while True:
            self.run_simulation(self.sample_root_state(state))
            self.simulations += 1
            # The first simulation only expands the root: the final policy needs a visit below it.
            if time.perf_counter() >= deadline and self._root_node.total_visits > 0:
                break
        policy: list[tuple[int, float]] = self.get_final_policy(state, self._root_node)
        return policy


def play_versus(deals: int = 20, seconds: float = 0.1, players: int = 2, seed: int = 0, preset: str | None = None,
                ours: str = "ismcts", game: str = DEFAULT_GAME) -> dict[str, Any]:
    """Play ``deals`` duplicate deals, each with every seat rotation: ``ours`` in seat ``r`` and OpenSpiel's bot elsewhere.

    ``ours`` is a bot spec of ``game``; ``time=seconds`` is added to it.
    Returns the game, the games played, the ``losses`` of each side (the sum
    of its seats' tournament figures: lost games, or penalty points;
    ``ismcts`` counts ours however it is configured), the ``loss_rates``
    (each side's mean figure per seat and game), the games stopped unfinished
    (which count for nobody) and OpenSpiel's mean simulations per search.
    """
    spec = get_game(game)
    preset = preset or spec.presets[0]
    loaded = pyspiel.load_game(spec.env_name, {"players": players, "preset": preset})
    losses = {"ismcts": 0.0, "openspiel-ismcts": 0.0}
    games = stopped = 0
    sims = searches = 0
    for i in range(deals):
        for r in range(players):
            state: OpenSpielState = loaded.new_initial_state()
            rng = np.random.RandomState(deal_seed(seed, i) % 2**32)
            while state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            our = make_bot(f"{ours}:time={seconds}", bot_seed(seed, i, r, 0), spec)
            theirs = TimedISMCTSBot(loaded, seconds, bot_seed(seed, i, r, 1))
            while not state.is_terminal():
                p = state.current_player()
                step = our.act(state.view(p)) if p == r else int(theirs.step(state))
                state.apply_action(step)
            sims += theirs.simulations
            searches += theirs.searches
            games += 1
            scores = spec.scores(state.engine.state)
            if scores is None:
                stopped += 1
                continue
            losses["ismcts"] += scores[r]
            losses["openspiel-ismcts"] += sum(scores) - scores[r]
    finished = games - stopped
    return {"game": spec.name, "players": players, "preset": preset, "seconds": seconds, "games": games, "losses": losses,
            "loss_rates": {"ismcts": losses["ismcts"] / finished if finished else 0.0,
                           "openspiel-ismcts": losses["openspiel-ismcts"] / (finished * (players - 1)) if finished else 0.0},
            "stopped": stopped, "openspiel_simulations_per_search": sims / searches if searches else 0.0}


def main(argv: list[str] | None = None) -> None:
    """Run a match from the command line and print the result as JSON."""
    p = argparse.ArgumentParser(description="Our ISMCTS against OpenSpiel's ISMCTS at equal time per move.")
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--seconds", type=float, default=0.1, help="thinking time per step for both sides")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--preset", default=None, help="the rule preset (default: the game's first)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--game", default=DEFAULT_GAME, help="the game to play (default: the default game)")
    args = p.parse_args(argv)
    print(json.dumps(play_versus(args.deals, args.seconds, args.players, args.seed, args.preset, game=args.game)))


if __name__ == "__main__":
    main()
