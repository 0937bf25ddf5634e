"""A reproducible benchmark of the endgame solver: seeded random positions of several sizes.

Each position is talon-empty with Q♠ in play (in a random hand), the other
cards drawn at random from the pack, and the trump suit drawn from none,
hearts, diamonds and clubs. Every position is solved in full, as
``mustamaija solve`` does: the value, every safe first lead and the
principal line. Times are CPU seconds of this process (``time.process_time``),
so that other work on the machine disturbs them little; wall-clock seconds
are reported too.

Run it with ``python -m mustamaija.games.mustamaija.solver_bench`` (``--help`` for the
options), or call :func:`bench_solver`.

>>> rows = bench_solver(sizes=[(3, 3)], count=3, seed=1)
>>> rows[0]["size"], rows[0]["count"]
('3+3', 3)
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any, Final

from mustamaija.core.cards import QS
from mustamaija.core.errors import MustamaijaError
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.solver import solve
from mustamaija.games.mustamaija.state import State

__all__ = ["DEFAULT_SIZES", "bench_solver", "parse_sizes", "random_position"]

DEFAULT_SIZES: Final = ((4, 4), (6, 6), (8, 8), (10, 10), (12, 12), (3, 3, 3), (4, 4, 4), (3, 3, 3, 3))


def random_position(rng: random.Random, sizes: Sequence[int], rules: Rules | None = None) -> State:
    """Return a random talon-empty position with these hand sizes, seat 0 to lead, Q♠ in some hand."""
    cards = [c for c in range(52) if c != QS]
    rng.shuffle(cards)
    pool = [QS, *cards[: sum(sizes) - 1]]
    rng.shuffle(pool)
    trump = rng.choice([None, 1, 2, 3])
    hands, k = [], 0
    for n in sizes:
        hands.append(pool[k:k + n])
        k += n
    return State.from_position(hands, attacker=0, trump_suit=trump, rules=rules)


def bench_solver(sizes: Sequence[Sequence[int]] = DEFAULT_SIZES, count: int = 20, seed: int = 0,
                 rules: Rules | None = None) -> list[dict[str, Any]]:
    """Solve ``count`` seeded random positions of each size; return one row of figures per size.

    Each row holds the size (such as ``"8+8"``), the count, the median,
    mean and maximum CPU seconds, the median wall-clock seconds, the median
    and maximum searched positions (nodes) and how many positions were safe
    for the attacker.
    """
    rows = []
    for size in sizes:
        rng = random.Random(f"{seed}:{'+'.join(map(str, size))}")
        cpu, wall, nodes, safe = [], [], [], 0
        for _ in range(count):
            state = random_position(rng, list(size), rules)
            w0, c0 = time.perf_counter(), time.process_time()
            result = solve(state)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
            nodes.append(result.nodes)
            safe += result.attacker_safe
        rows.append({
            "size": "+".join(map(str, size)),
            "count": count,
            "median_s": statistics.median(cpu),
            "mean_s": statistics.mean(cpu),
            "max_s": max(cpu),
            "median_wall_s": statistics.median(wall),
            "median_nodes": statistics.median(nodes),
            "max_nodes": max(nodes),
            "safe": safe,
        })
    return rows


def parse_sizes(text: str, flag: str = "--sizes") -> list[tuple[int, ...]]:
    """Return the hand sizes of text such as ``8+8,3+3+3``; a bad text raises ``MustamaijaError`` naming ``flag``.

    >>> parse_sizes("8+8, 3+3+3")
    [(8, 8), (3, 3, 3)]
    >>> parse_sizes("8+x", flag="--solver-sizes")
    Traceback (most recent call last):
    ...
    mustamaija.core.errors.MustamaijaError: bad --solver-sizes '8+x': expected sizes such as 8+8,3+3+3
    """
    try:
        return [tuple(int(x) for x in size.split("+")) for size in text.split(",") if size.strip()]
    except ValueError:
        raise MustamaijaError(f"bad {flag} {text!r}: expected sizes such as 8+8,3+3+3") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark from the command line and print a table (or JSON lines)."""
    p = argparse.ArgumentParser(prog="python -m mustamaija.games.mustamaija.solver_bench", description=__doc__.split("\n")[0])
    p.add_argument("--sizes", default=",".join("+".join(map(str, s)) for s in DEFAULT_SIZES),
                   help="comma-separated hand sizes such as 8+8,12+12,4+4+4")
    p.add_argument("--count", type=int, default=20, help="positions per size (default 20)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object per size")
    args = p.parse_args(argv)
    try:
        sizes = parse_sizes(args.sizes)
    except MustamaijaError as e:
        p.error(str(e))
    if not args.json:
        print(f"{'size':>9} {'count':>5} {'median s':>9} {'mean s':>9} {'max s':>9} {'med nodes':>10} {'max nodes':>10} {'safe':>5}")
    for size in sizes:
        row = bench_solver([size], args.count, args.seed)[0]
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{row['size']:>9} {row['count']:>5} {row['median_s']:>9.4f} {row['mean_s']:>9.4f} {row['max_s']:>9.4f} "
                  f"{row['median_nodes']:>10.0f} {row['max_nodes']:>10} {row['safe']:>5}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
