"""``mustamaija bench``: time random play of complete deals through the public API."""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from typing import Any

from ..game.rules import PRESETS, Rules
from ..game.state import State
from ..players.random import RandomPlayer


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("bench", help="measure decisions/s and games/s of random play")
    p.add_argument("--players", default="2,4,6", help="comma-separated player counts (default 2,4,6)")
    p.add_argument("--seconds", type=float, default=3.0, help="time to spend on each player count (default 3)")
    p.add_argument("--preset", choices=list(PRESETS), default="standard")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def measure_engine(players: int, seconds: float, rules: Rules, seed: int) -> dict[str, float]:
    """Play random deals for about ``seconds``; a decision is one uniformly chosen legal step.

    The legal steps are listed afresh at every decision, as a player would need them.
    """
    rng = random.Random(seed)
    decisions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        s = State.from_seed(players, rng.randrange(1 << 30), rules)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            decisions += 1
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {
        "decisions_per_s": decisions / elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_game": decisions / games,
        "games": games,
    }


def measure_views(players: int, seconds: float, rules: Rules, seed: int) -> float:
    """Return decisions/s when random players act on freshly built views, as real bots do."""
    rng = random.Random(seed)
    bots = [RandomPlayer(seed=seed + i) for i in range(players)]
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        s = State.from_seed(players, rng.randrange(1 << 30), rules)
        while not s.is_over:
            seat = s.to_act
            s.apply(bots[seat].act(s.view(seat)))
            decisions += 1
    return decisions / (time.perf_counter() - start)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the figures."""
    counts = [int(x) for x in args.players.split(",") if x.strip()]
    rules = Rules.preset(args.preset)
    result: dict[str, Any] = {
        "preset": args.preset,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "players": {},
    }
    for n in counts:
        row = measure_engine(n, args.seconds, rules, args.seed)
        row["view_decisions_per_s"] = measure_views(n, args.seconds / 3, rules, args.seed)
        result["players"][str(n)] = row
        if not args.json:
            print(f"{n} players: {row['decisions_per_s']:>10,.0f} decisions/s  {row['games_per_s']:>8,.1f} games/s  "
                  f"{row['decisions_per_game']:6.1f} decisions/deal  "
                  f"({row['view_decisions_per_s']:,.0f} decisions/s when bots act on views)", flush=True)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"one core, Python {result['python']}, preset {args.preset}; target 50,000 decisions/s at 4 players")
    return 0
