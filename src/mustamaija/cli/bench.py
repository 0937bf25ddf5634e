"""``mustamaija bench``: time random play of complete deals, and (on request) the bots, the search and the solver.

Sections (``--section``, comma-separated, or ``--all``):

* ``engine`` (the default): random play of complete deals through the public API;
* ``bots``: the heuristic player's time per decision (view built by the caller) and
  its rollout policy's time per step;
* ``search``: ISMCTS iterations per second of CPU time at the first decision of
  seeded 4-player deals;
* ``solver``: the exact solver on seeded random talon-empty positions of several sizes;
* ``adapters``: PettingZoo steps/s and OpenSpiel actions/s against the raw engine, and the
  overhead each adds (needs the ``rl`` extra).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any

from mustamaija.games.mustamaija.rules import PRESETS, Rules
from mustamaija.games.mustamaija.state import State
from mustamaija.players.random import RandomPlayer


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("bench", help="measure decisions/s and games/s of random play")
    p.add_argument("--players", default="2,4,6", help="comma-separated player counts (default 2,4,6)")
    p.add_argument("--seconds", type=float, default=3.0, help="time to spend on each player count (default 3)")
    p.add_argument("--preset", choices=list(PRESETS), default="standard")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--section", default="engine",
                   help="comma-separated sections: engine, bots, search, solver, adapters (default engine)")
    p.add_argument("--all", action="store_true", help="run every section")
    p.add_argument("--solver-count", type=int, default=20, help="positions per size in the solver section (default 20)")
    p.add_argument("--solver-sizes", default="8+8,10+10,12+12,3+3+3",
                   help="hand sizes of the solver section's positions (default 8+8,10+10,12+12,3+3+3)")
    p.set_defaults(run=run)


SECTIONS = ("engine", "bots", "search", "solver", "adapters")


def measure_engine(players: int, seconds: float, rules: Rules, seed: int) -> dict[str, float]:
    """Play random deals for about ``seconds`` of CPU time; a decision is one uniformly chosen legal step.

    The legal steps are listed afresh at every decision, as a player would need them. CPU time of
    this process is used, so the figure is for one core even on a busy machine.
    """
    rng = random.Random(seed)
    decisions = games = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        s = State.from_seed(players, rng.randrange(1 << 30), rules)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            decisions += 1
        games += 1
        now = time.process_time()
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
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        s = State.from_seed(players, rng.randrange(1 << 30), rules)
        while not s.is_over:
            seat = s.to_act
            s.apply(bots[seat].act(s.view(seat)))
            decisions += 1
    return decisions / (time.process_time() - start)


def measure_bots(players: int, deals: int, rules: Rules, seed: int) -> dict[str, float]:
    """Return the heuristic's mean µs per decision and its rollout policy's µs per step over heuristic self-play.

    CPU time of this process is used, so a busy machine disturbs the figures little.
    """
    from mustamaija.games.mustamaija.players.heuristic import HeuristicPlayer, heuristic_step

    rng = random.Random(seed)
    player_time = rollout_time = 0.0
    steps = 0
    clock = time.process_time
    for i in range(deals):
        s = State.from_seed(players, seed + i, rules)
        bots = [HeuristicPlayer(seed=seed + k) for k in range(players)]
        while not s.is_over:
            view = s.view(s.to_act)
            t0 = clock()
            step = bots[s.to_act].act(view)
            t1 = clock()
            heuristic_step(s, rng)
            rollout_time += clock() - t1
            player_time += t1 - t0
            steps += 1
            s.apply(step)
    return {"heuristic_us_per_decision": 1e6 * player_time / steps, "heuristic_step_us": 1e6 * rollout_time / steps,
            "decisions": steps}


def measure_search(rules_name: str, seed: int) -> dict[str, float]:
    """Return search speeds per CPU second at the opening of deals: ISMCTS iterations (default and full rollouts), pimc playouts."""
    from mustamaija.games.mustamaija.players.ismcts import iterations_per_second
    from mustamaija.games.mustamaija.players.pimc import playouts_per_second

    return {
        "ismcts_iterations_per_s": iterations_per_second(players=4, preset=rules_name, iters=3000, deals=5),
        "ismcts_full_rollout_iterations_per_s": iterations_per_second(players=4, preset=rules_name, iters=1000, deals=5,
                                                                      depth=0),
        "pimc_playouts_per_s": playouts_per_second(players=4, preset=rules_name, iters=600, deals=5),
        "pimc_playouts_per_s_2p": playouts_per_second(players=2, preset=rules_name, iters=600, deals=5),
    }


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the figures."""
    counts = [int(x) for x in args.players.split(",") if x.strip()]
    rules = Rules.preset(args.preset)
    sections = list(SECTIONS) if args.all else [x.strip() for x in args.section.split(",") if x.strip()]
    unknown = [x for x in sections if x not in SECTIONS]
    if unknown:
        print(f"mustamaija bench: unknown section {unknown[0]!r}: expected one of {', '.join(SECTIONS)}", file=sys.stderr)
        return 2
    result: dict[str, Any] = {
        "preset": args.preset,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "players": {},
    }
    if "engine" in sections:
        _engine(args, counts, rules, result)
    if "bots" in sections:
        result["bots"] = measure_bots(4, 20, rules, args.seed)
        if not args.json:
            b = result["bots"]
            print(f"heuristic player: {b['heuristic_us_per_decision']:.0f} µs/decision; its rollout policy "
                  f"heuristic_step: {b['heuristic_step_us']:.0f} µs/step (4 players, CPU time)", flush=True)
    if "search" in sections:
        result["search"] = measure_search(args.preset, args.seed)
        if not args.json:
            m = result["search"]
            print(f"ISMCTS: {m['ismcts_iterations_per_s']:,.0f} iterations/s at the opening of a 4-player deal "
                  f"({m['ismcts_full_rollout_iterations_per_s']:,.0f} with rollouts to the end); target 3,000", flush=True)
            print(f"pimc: {m['pimc_playouts_per_s']:,.0f} heuristic playouts/s at the opening of a 4-player deal, "
                  f"{m['pimc_playouts_per_s_2p']:,.0f} with 2 players", flush=True)
    if "solver" in sections:
        from mustamaija.games.mustamaija.solver_bench import bench_solver

        try:
            sizes = [tuple(int(x) for x in size.split("+")) for size in args.solver_sizes.split(",") if size.strip()]
        except ValueError:
            print(f"mustamaija bench: bad --solver-sizes {args.solver_sizes!r}: expected sizes such as 8+8,3+3+3",
                  file=sys.stderr)
            return 2
        result["solver"] = rows = []
        for size in sizes:
            row = bench_solver([size], args.solver_count, args.seed)[0]
            rows.append(row)
            if not args.json:
                print(f"solver {row['size']:>7}: median {row['median_s']:.4f} s, mean {row['mean_s']:.4f} s, "
                      f"max {row['max_s']:.4f} s over {row['count']} random positions (CPU)", flush=True)
        if not args.json:
            print("targets: 8+8 median at most 0.1 s, 12+12 median at most 1 s")
    if "adapters" in sections:
        try:
            from mustamaija.envs.bench import adapter_rates
        except ImportError as e:
            print(f"mustamaija bench: the adapters section needs the rl extra (pip install 'mustamaija[rl]'): {e}",
                  file=sys.stderr)
            return 2
        result["adapters"] = a = adapter_rates(seconds=args.seconds, players=4, preset=args.preset, seed=args.seed)
        if not args.json:
            print(f"adapters, 4 players: engine {a['engine_steps_per_s']:,.0f} steps/s; PettingZoo "
                  f"{a['pettingzoo_steps_per_s']:,.0f} steps/s ({a['pettingzoo_overhead']:.1f}x overhead); OpenSpiel "
                  f"{a['openspiel_actions_per_s']:,.0f} actions/s ({a['openspiel_overhead']:.1f}x overhead)", flush=True)
    if args.json:
        print(json.dumps(result))
    return 0


def _engine(args: argparse.Namespace, counts: list[int], rules: Rules, result: dict[str, Any]) -> None:
    for n in counts:
        row = measure_engine(n, args.seconds, rules, args.seed)
        row["view_decisions_per_s"] = measure_views(n, args.seconds / 3, rules, args.seed)
        result["players"][str(n)] = row
        if not args.json:
            print(f"{n} players: {row['decisions_per_s']:>10,.0f} decisions/s  {row['games_per_s']:>8,.1f} games/s  "
                  f"{row['decisions_per_game']:6.1f} decisions/deal  "
                  f"({row['view_decisions_per_s']:,.0f} decisions/s when bots act on views)", flush=True)
    if not args.json:
        print(f"one core, Python {result['python']}, preset {args.preset}; target 50,000 decisions/s at 4 players")
