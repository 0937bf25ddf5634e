"""Measure Black Maria bots: average penalty points per hand with 95% intervals, seat rotation, duplicate deals.

Deal ``i`` of a comparison with seed ``S`` is dealt from the seed ``"S:i"``.
Each deal is played once per seat: in rotation ``r`` bot A sits in seat
``r`` and bot B in every other seat, with the same cards, so both meet every
hand from every seat. Per deal, A's score is its mean over the rotations and
B's the mean over all its seats; the table gives the mean per hand with a
normal 95% interval over deals, and the paired difference A - B (negative:
A takes fewer points). Run it as::

    python -m mustamaija.games.black_maria.arena heuristic random --players 4 --deals 500

>>> c = compare("heuristic", "random", players=3, deals=4, seed=1)
>>> c.hands, round(c.a_mean + 2 * c.b_mean, 6)
(12, 43.0)
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from mustamaija.core.protocol import Player
from mustamaija.games.black_maria.play import play_state
from mustamaija.games.black_maria.rules import Rules
from mustamaija.games.black_maria.state import State
from mustamaija.players.random import RandomPlayer
from mustamaija.players.registry import make_bot as _make_bot
from mustamaija.tournament.stats import Z95, paired_difference


def _bm_bot(spec: str, seed: int | None = None) -> Player:
    return _make_bot(spec, seed or 0, game="black-maria")  # type: ignore[no-any-return]

__all__ = ["Comparison", "bench", "compare", "main", "mean_interval", "play_rotation"]


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare`: means per hand with 95% intervals over deals, and the paired difference."""

    a: str
    b: str
    players: int
    deals: int
    hands: int
    a_mean: float
    a_half: float
    b_mean: float
    b_half: float
    diff: float
    diff_low: float
    diff_high: float
    seconds: float

    def table(self) -> str:
        """Return the result as a Markdown table."""
        return "\n".join([
            "| bot | seats | avg penalty per hand | 95% interval |",
            "|---|---|---|---|",
            f"| {self.a} | 1 | {self.a_mean:.2f} | ± {self.a_half:.2f} |",
            f"| {self.b} | {self.players - 1} | {self.b_mean:.2f} | ± {self.b_half:.2f} |",
            f"| {self.a} − {self.b} (paired) | | {self.diff:+.2f} | [{self.diff_low:+.2f}, {self.diff_high:+.2f}] |",
        ])


def mean_interval(xs: Sequence[float]) -> tuple[float, float]:
    """Return the mean and the half-width of its normal 95% interval (infinite with fewer than two values).

    >>> mean_interval([10.0, 12.0, 14.0])
    (12.0, 2.263...)
    """
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


def play_rotation(lineup: Sequence[str], seed: int | str, rotation: int, rules: Rules | None = None,
                  bot_seed: int = 0) -> tuple[int, ...]:
    """Play the hand dealt from ``seed`` with the lineup rotated by ``rotation``; return points per lineup position.

    Lineup position ``p`` sits in seat ``(p + rotation) % players``; the bot in seat ``s`` is made from its spec
    with the seed ``bot_seed * 64 + rotation * 8 + s``. This is the unit a tournament repeats over deals and rotations.

    >>> play_rotation(["heuristic", "random", "random"], seed="1:0", rotation=1)
    (1, 35, 7)
    """
    n = len(lineup)
    by_seat = [lineup[(s - rotation) % n] for s in range(n)]
    bots = [_bm_bot(spec, seed=bot_seed * 64 + rotation * 8 + s) for s, spec in enumerate(by_seat)]
    points = play_state(State.from_seed(n, seed, rules), bots).points()
    return tuple(points[(p + rotation) % n] for p in range(n))


def _deal(args: tuple[str, str, int, int, str, Rules]) -> tuple[float, float]:
    a, b, players, index, seed, rules = args
    lineup = [a] + [b] * (players - 1)
    a_total = b_total = 0.0
    for r in range(players):
        points = play_rotation(lineup, f"{seed}:{index}", r, rules, bot_seed=index)
        a_total += points[0]
        b_total += sum(points[1:])
    return a_total / players, b_total / (players * (players - 1))


def compare(a: str, b: str, players: int = 4, deals: int = 100, seed: int | str = 1,
            rules: Rules | None = None, jobs: int = 1) -> Comparison:
    """Play ``deals`` duplicate deals of bot spec ``a`` against ``players - 1`` copies of ``b``; see the module."""
    rules = rules or Rules()
    start = time.perf_counter()
    tasks = [(a, b, players, i, str(seed), rules) for i in range(deals)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_deal, tasks, chunksize=max(1, deals // (8 * jobs))))
    else:
        results = [_deal(t) for t in tasks]
    a_scores = [x for x, _ in results]
    b_scores = [y for _, y in results]
    a_mean, a_half = mean_interval(a_scores)
    b_mean, b_half = mean_interval(b_scores)
    d = paired_difference(a_scores, b_scores)
    return Comparison(a, b, players, deals, deals * players, a_mean, a_half, b_mean, b_half,
                      d.mean, d.ci_low, d.ci_high, time.perf_counter() - start)


def bench(players: int = 4, hands: int = 1000, seed: int = 1) -> float:
    """Return hands per CPU second of random self-play (views built at every step, as in real play).

    Processor time, not wall time, so that other work on the machine does not change the figure much.
    """
    start = time.process_time()
    for i in range(hands):
        bots = [RandomPlayer(seed=i * 8 + s) for s in range(players)]
        play_state(State.from_seed(players, f"{seed}:{i}"), bots)
    return hands / (time.process_time() - start)


def main(argv: Sequence[str] | None = None) -> int:
    """Run a comparison (or ``--bench``) from the command line and print a Markdown table."""
    p = argparse.ArgumentParser(prog="python -m mustamaija.games.black_maria.arena", description=__doc__.split("\n\n")[0])
    p.add_argument("a", nargs="?", default="heuristic", help="bot spec in one seat (default heuristic)")
    p.add_argument("b", nargs="?", default="random", help="bot spec in the other seats (default random)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", default="1")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--renege", action="store_true", help="allow reneging (B7)")
    p.add_argument("--bench", type=int, metavar="HANDS", help="measure random self-play speed instead")
    args = p.parse_args(argv)
    if args.bench:
        print(f"{bench(args.players, args.bench):.0f} hands per CPU second (random self-play, {args.players} players)")
        return 0
    c = compare(args.a, args.b, args.players, args.deals, args.seed, Rules(allow_renege=args.renege), args.jobs)
    print(f"{c.players} players, {c.deals} deals x {c.players} rotations = {c.hands} hands, seed {args.seed}, "
          f"{c.seconds:.0f} s")
    print(c.table())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
