"""Mustamaija's own sections of ``mustamaija bench``: its bots, its searches and its endgame solver.

``mustamaija bench`` finds them through :meth:`MustamaijaGame.bench_sections
<mustamaija.games.mustamaija.game.MustamaijaGame.bench_sections>`:

* ``bots``: the heuristic player's time per decision (view built by the caller)
  and its rollout policy's time per step;
* ``search``: ISMCTS iterations and PIMC playouts per second of CPU time at
  the first decision of seeded deals;
* ``solver``: the exact solver on seeded random talon-empty positions of
  several sizes (:mod:`~mustamaija.games.mustamaija.solver_bench`), with the
  options ``--solver-count`` and ``--solver-sizes``.

>>> [section.name for section in SECTIONS]
['bots', 'search', 'solver']
>>> report = bench_solver_section(BenchSettings(1.0, 0, "standard", Rules(), {"count": 1, "sizes": "3+3"}))
>>> [row["size"] for row in report.figures], report.lines[-1].startswith("targets")
(['3+3'], True)
"""

from __future__ import annotations

import random
import time
from typing import Final

from mustamaija.core.bench import BenchOption, BenchReport, BenchSection, BenchSettings
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.state import State

__all__ = ["SECTIONS", "bench_bots", "bench_search", "bench_solver_section", "measure_bots", "measure_search"]

DEFAULT_SOLVER_SIZES: Final = "8+8,10+10,12+12,3+3+3"
"""The hand sizes the solver section measures unless ``--solver-sizes`` says otherwise."""


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


def bench_bots(settings: BenchSettings) -> BenchReport:
    """The ``bots`` section: :func:`measure_bots` over 20 four-player deals."""
    b = measure_bots(4, 20, settings.rules, settings.seed)
    return BenchReport(b, (f"heuristic player: {b['heuristic_us_per_decision']:.0f} µs/decision; its rollout policy "
                           f"heuristic_step: {b['heuristic_step_us']:.0f} µs/step (4 players, CPU time)",))


def bench_search(settings: BenchSettings) -> BenchReport:
    """The ``search`` section: :func:`measure_search` with the settings' preset."""
    m = measure_search(settings.preset, settings.seed)
    return BenchReport(m, (
        f"ISMCTS: {m['ismcts_iterations_per_s']:,.0f} iterations/s at the opening of a 4-player deal "
        f"({m['ismcts_full_rollout_iterations_per_s']:,.0f} with rollouts to the end); target 3,000",
        f"pimc: {m['pimc_playouts_per_s']:,.0f} heuristic playouts/s at the opening of a 4-player deal, "
        f"{m['pimc_playouts_per_s_2p']:,.0f} with 2 players (each played until the searching seat's return is known)",
    ))


def bench_solver_section(settings: BenchSettings) -> BenchReport:
    """The ``solver`` section: :func:`~mustamaija.games.mustamaija.solver_bench.bench_solver`, one size at a time."""
    from mustamaija.games.mustamaija.solver_bench import bench_solver, parse_sizes

    sizes = parse_sizes(str(settings.option("sizes", DEFAULT_SOLVER_SIZES)), flag="--solver-sizes")
    count = int(settings.option("count", 20))
    rows = [bench_solver([size], count, settings.seed)[0] for size in sizes]
    lines = [f"solver {row['size']:>7}: median {row['median_s']:.4f} s, mean {row['mean_s']:.4f} s, "
             f"max {row['max_s']:.4f} s over {row['count']} random positions (CPU)" for row in rows]
    lines.append("targets: 12+12 median at most 0.05 s; 3+3+3 median at most 0.3 s, max 1 s; "
                 "4+4+4 median at most 3 s (--solver-sizes 4+4+4)")
    return BenchReport(rows, tuple(lines))


SECTIONS: Final = (
    BenchSection("bots", "the heuristic player's µs per decision and its rollout policy's µs per step", bench_bots),
    BenchSection("search", "ISMCTS iterations/s and PIMC playouts/s at the opening of seeded deals", bench_search),
    BenchSection("solver", "the exact solver on seeded random talon-empty positions", bench_solver_section, (
        BenchOption("count", int, 20, "positions per size in the solver section"),
        BenchOption("sizes", str, DEFAULT_SOLVER_SIZES, "hand sizes of the solver section's positions"),
    )),
)
"""The sections :meth:`~mustamaija.games.mustamaija.game.MustamaijaGame.bench_sections` returns."""
