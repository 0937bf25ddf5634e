"""What a build does with seeded work, digested: run once per build, the digests must be equal (test_builds.py).

For every registered game, the digest covers, each part as one SHA-256:

- ``records``: thousands of seeded deals of random play at every player
  count and preset, every record written out;
- ``masks``: the legal-step mask of every position of them;
- ``errors``: the message of an illegal step tried at every position;
- ``observations``: the observation of the seat to act, at every position;
- ``bots``: deals played by the heuristic and by a small search, records written out;
- ``endgames``: the endgame policy's choice wherever it decides one, and the
  solver's solution where the game has one.

Usage: ``python tests/build_digest.py [DEALS]`` prints the build and the digests as JSON.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from mustamaija.build import which
from mustamaija.core.errors import IllegalActionError, MustamaijaError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import game_names, get_game
from mustamaija.players.play import play_out
from mustamaija.players.registry import make_bot

DEALS = 2000
"""Random deals per game."""
BOT_DEALS = 40
"""Deals per game played by each bot."""
BOTS = ("heuristic", "pimc:iters=8:workers=1:solver=off")


def _seat_counts(game: Game, rules: Any) -> list[int]:
    counts = []
    for n in range(2, 9):
        try:
            game.check_players(rules, n)
        except ValueError:
            continue
        counts.append(n)
    return counts


def _random_deals(game: Game, deals: int, parts: dict[str, Any]) -> None:
    rng = random.Random(f"{game.name} random")
    tables = [(preset, n) for preset in game.presets for n in _seat_counts(game, game.make_rules(preset))]
    for deal in range(deals):
        preset, n = tables[deal % len(tables)]
        s = game.deal(n, seed=deal, rules=game.make_rules(preset))
        while not s.is_over:
            mask = s.legal_mask()
            parts["masks"].update(mask.to_bytes(16, "little"))
            parts["observations"].update(game.observation_for(s, s.to_act).tobytes())
            illegal = [step for step in range(game.num_steps) if not mask >> step & 1]
            if illegal:
                try:
                    s.verify_step(rng.choice(illegal))
                except IllegalActionError as e:
                    parts["errors"].update(str(e).encode())
            s.apply(rng.choice(s.legal_actions()))
        parts["records"].update(game.record_of(s).dumps().encode())


def _bot_deals(game: Game, deals: int, parts: dict[str, Any]) -> None:
    kit = game.search_kit()
    endgame = kit.endgame(None)
    solver = kit.solver()
    for bot in BOTS:
        for deal in range(deals):
            n = _seat_counts(game, game.make_rules(None))[deal % 2]
            s = game.deal(n, seed=deal, rules=game.make_rules(None))
            start = s.copy()
            players = [make_bot(bot, seed=1000 * deal + seat, game=game) for seat in range(n)]
            play_out(s, players)
            parts["bots"].update(game.record_of(s).dumps().encode())
            if endgame is None or bot != BOTS[0]:
                continue
            for step in _steps_of(game, start, s):
                choice = endgame(start.view(start.to_act))
                if choice is not None:
                    parts["endgames"].update(f"{choice};".encode())
                    if solver is not None and n == 2:
                        try:
                            solution = solver.solve(start.copy()).to_json()
                            solution.pop("time_s", None)  # The one thing a build may change.
                            solved = json.dumps(solution, sort_keys=True)
                        except MustamaijaError as e:  # Not a position it solves: the message must match too.
                            solved = str(e)
                        parts["endgames"].update(solved.encode())
                    break
                start.apply(step)


def _steps_of(game: Game, start: Any, end: Any) -> list[int]:
    """Return the steps that lead from ``start`` to ``end`` (a deal played out), replayed from its record's actions."""
    steps: list[int] = []
    s = start.copy()
    for action in end.actions():
        for step in game.action_steps(s, action):
            steps.append(step)
            s.apply(step)
    return steps


def digests(deals: int = DEALS) -> dict[str, dict[str, str]]:
    """Return each game's digests (part -> hex SHA-256) of ``deals`` random deals and the bots' deals."""
    out: dict[str, dict[str, str]] = {}
    for name in game_names():
        game = get_game(name)
        parts = {part: hashlib.sha256() for part in ("records", "masks", "errors", "observations", "bots", "endgames")}
        _random_deals(game, deals, parts)
        _bot_deals(game, BOT_DEALS, parts)
        out[name] = {part: h.hexdigest() for part, h in parts.items()}
    return out


if __name__ == "__main__":
    print(json.dumps({"build": which(), "digests": digests(int(sys.argv[1]) if len(sys.argv) > 1 else DEALS)}))
