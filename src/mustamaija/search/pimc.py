"""Perfect Information Monte Carlo over whole actions, for every game: the ``pimc`` bots and their open-hand twin.

Perfect Information Monte Carlo (the rollout algorithm of Bertsekas and
Tsitsiklis, on determinised deals): at the start of its action the player

1. asks the game's search kit (:class:`~mustamaija.core.protocol.SearchKit`)
   for the whole actions worth playing (``kit.candidates``: *plans*) and the
   one its own rules prefer;
2. deals the cards it cannot see among the deals consistent with its view
   (``kit.sampler``: by default :meth:`~mustamaija.core.protocol.Game.sample`,
   uniformly; a kit may weight them by its game's model of how players play,
   :attr:`~mustamaija.core.protocol.SearchKit.beliefs`);
3. plays every candidate out on the same sampled deals (common random
   numbers): the plan is taken (``kit.apply``), then the deal is played on
   by the kit's playout policy for every seat until the seat's
   :meth:`~mustamaija.core.protocol.Game.returns` is known
   (``kit.playout_return``: by default, to the end), and the candidate
   scores that return;
4. spends the budget in one of two ways: with ``samples=n``, every candidate
   on each of ``n`` deals (flat); with ``iters`` (or ``time``), by
   **sequential halving**: the candidates share the iterations of a round,
   the better half goes on to the next, so most playouts separate the best few.

The best mean wins; ties go to the preferred plan, then to the earlier one.
The plan is then emitted a step at a time (``kit.plan_step``) and kept for
the rest of the action (``kit.plan_key``), since nothing new is learnt in
between. An *iteration* is one playout of one candidate on one sampled deal.
A decision the kit settles by rule (``kit.fixed_step``) is not searched, and
a game with an exact endgame solver gets it first (``kit.endgame``).

Random numbers follow the kit's seeding rule (``kit.decision_seed``): the
player's own generator, seeded once, or a seed made from the view, so that a
decision does not depend on the decisions before it. ``workers=k`` plays
every round's playouts in ``k`` spawned processes (root parallelism: each
process samples its own deals) and adds up the results.
:class:`OpenHandPIMCPlayer` runs the same search on the true state: an upper
bound for experiments only; one deal is known, so one playout of each
candidate is its whole search.

>>> from mustamaija.core.registry import games
>>> for game in games():
...     s = game.deal(game.min_players + 1, seed=3)
...     bot = PIMCPlayer(game, samples=3, seed=1)
...     while not s.is_over:
...         s.apply(bot.act(s.view(s.to_act)))
...     print(game.outcome_text(s) != "in progress")
True
True
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mustamaija.core.protocol import Game, SearchKit
from mustamaija.search.common import PIMC_PARAMS, OpenHand, SearchPlayer, check_budget, derive_seed, process_pool, read_params
from mustamaija.search.lazyrandom import LazyRandom

__all__ = ["OpenHandPIMCPlayer", "PIMCPlayer", "PlanSearch", "make_pimc", "rollouts", "search_plans", "sequential_halving"]

Run = Callable[[list[int], int, float | None], tuple[list[float], int]]
"""``run(arms, samples, seconds)``: play ``samples`` shared samples of each arm; return their totals and the samples used."""


def rollouts(kit: SearchKit, target: Any, plans: Sequence[Any], seat: int, samples: int, seed: int | str,
             seconds: float | None = None, truth: bool = False) -> tuple[list[float], list[float], int]:
    """Play each of ``plans`` out on ``samples`` sampled deals (the same deals for all); return (totals, squares, deals).

    ``target`` is the seat's view (sampled by ``kit.sampler``) or, with
    ``truth``, the true state (copied as it is). ``totals`` and ``squares``
    add up the seat's returns and their squares. With ``seconds``, fewer
    deals are played if the time runs out, but at least one. This is the
    unit of work a process runs in root parallelism.
    """
    rng = random.Random(seed)
    draw: Callable[[], Any]
    if truth:
        draw = target.copy
    else:
        sample = kit.sampler(target)

        def draw() -> Any:
            return sample(rng)

    deadline = _time.perf_counter() + seconds if seconds is not None else math.inf
    apply, playout_return, seeds = kit.apply, kit.playout_return, kit.playout_seeds
    totals = [0.0] * len(plans)
    squares = [0.0] * len(plans)
    done = 0
    while done < samples:
        if done and _time.perf_counter() >= deadline:
            break
        deal = draw()
        sub = rng.getrandbits(32) if seeds else None
        for j, plan in enumerate(plans):
            st = deal.copy()
            apply(st, plan)
            v = playout_return(st, LazyRandom(sub) if sub is not None else None, seat)
            totals[j] += v
            squares[j] += v * v
        done += 1
    return totals, squares, done


def _rank(n: list[int], w: list[float], preferred: int) -> Callable[[int], tuple[float, bool, int]]:
    """Return the sort key of arms: the mean, then the preferred arm, then the earlier arm."""

    def key(a: int) -> tuple[float, bool, int]:
        return (w[a] / n[a] if n[a] else -math.inf, a == preferred, -a)

    return key


def sequential_halving(run: Run, k: int, preferred: int, iters: int | None,
                       seconds: float | None) -> tuple[int, dict[int, tuple[int, float]]]:
    """Pick the best of ``k`` arms by sequential halving; return (arm, {arm: (samples, total)}).

    ``run(arms, samples, seconds)`` plays ``samples`` shared samples of every
    arm in ``arms`` (fewer if ``seconds`` runs out) and returns their totals
    and the samples used. The budget, ``iters`` arm-samples or ``seconds``,
    is split evenly over ceil(log2 k) rounds; each round keeps the better half.
    Ties go to ``preferred``, then to the lower arm.

    >>> means = [0.2, 0.9, 0.5]
    >>> arm, stats = sequential_halving(lambda arms, n, s: ([means[a] * n for a in arms], n), 3, 0, 60, None)
    >>> arm, stats[1][0] > stats[0][0]
    (1, True)
    """
    alive = list(range(k))
    n = [0] * k
    w = [0.0] * k
    key = _rank(n, w, preferred)
    rounds = max(1, math.ceil(math.log2(k)))
    budget = iters
    start = _time.perf_counter()
    while True:
        samples = max(1, budget // (rounds * len(alive))) if budget is not None else 1 << 30
        share = None
        if seconds is not None:
            share = max(0.0, (seconds - (_time.perf_counter() - start)) / rounds)
        totals, used = run(alive, samples, share)
        for a, t in zip(alive, totals, strict=True):
            n[a] += used
            w[a] += t
        if budget is not None:
            budget = max(0, budget - used * len(alive))
        rounds -= 1
        alive.sort(key=key, reverse=True)
        if rounds <= 0 or len(alive) <= 1:
            break
        alive = alive[: max(1, (len(alive) + 1) // 2)]
    best = max(alive, key=key)
    return best, {a: (n[a], w[a]) for a in range(k)}


@dataclass
class PlanSearch:
    """What one search over plans found: the chosen arm and, per arm, (playouts, total return, total squared return)."""

    best: int
    stats: dict[int, tuple[int, float, float]]

    @property
    def iterations(self) -> int:
        """Return the playouts played in all."""
        return sum(n for n, _, _ in self.stats.values())


def search_plans(kit: SearchKit, target: Any, plans: Sequence[Any], preferred: int, seat: int,
                 seed: int | str, *, iters: int | None = None, seconds: float | None = None, samples: int | None = None,
                 workers: int = 1, truth: bool = False) -> PlanSearch:
    """Search ``plans`` for ``seat`` from ``target`` (a view, or the true state with ``truth``); see the module docstring.

    With ``samples``, every plan is played on each of that many deals drawn
    with ``random.Random(seed)`` (fewer if ``seconds`` runs out); else
    sequential halving spends ``iters`` playouts or ``seconds``, round ``r``
    drawing with seed ``seed + 1000 r``. Worker ``i`` of ``workers`` adds ``i``
    to the seed of a round.
    """
    k = len(plans)
    squares: dict[int, float] = dict.fromkeys(range(k), 0.0)

    def play(arms: list[int], count: int, secs: float | None, round_seed: int | str) -> tuple[list[float], int]:
        chosen = [plans[a] for a in arms]
        if workers == 1 or truth:
            totals, sq, used = rollouts(kit, target, chosen, seat, count, round_seed, secs, truth)
        else:
            per = max(1, -(-count // workers)) if count < 1 << 30 else count
            pool = process_pool(workers)
            futures = [pool.submit(rollouts, kit, target, chosen, seat, per, derive_seed(round_seed, i), secs)
                       for i in range(workers)]
            totals, sq, used = [0.0] * len(arms), [0.0] * len(arms), 0
            for f in futures:
                t, q, u = f.result()
                used += u
                totals = [a + b for a, b in zip(totals, t, strict=True)]
                sq = [a + b for a, b in zip(sq, q, strict=True)]
        for a, total in zip(arms, sq, strict=True):
            squares[a] += total
        return totals, used

    if samples is not None:
        totals, used = play(list(range(k)), samples, seconds, seed)
        n = [used] * k
        best = max(range(k), key=_rank(n, totals, preferred))
        stats = {a: (used, totals[a]) for a in range(k)}
    else:
        rounds = [0]

        def run(arms: list[int], count: int, secs: float | None) -> tuple[list[float], int]:
            rounds[0] += 1
            return play(arms, count, secs, derive_seed(seed, 1000 * rounds[0]))

        best, stats = sequential_halving(run, k, preferred, iters, seconds)
    return PlanSearch(best, {a: (stats[a][0], stats[a][1], squares[a]) for a in range(k)})


class PIMCPlayer(SearchPlayer):
    """The PIMC search player of a game: a view in, one step out (see the module docstring).

    Budget per decision: ``samples`` deals (flat), or ``iters`` playouts or
    ``time`` seconds (sequential halving; both: the first reached); none of
    them: the kit's ``default_budget``. The other keyword arguments
    (``workers``, ``seed``, ``solver``, ``solver_cards``, ``beliefs``) are those of
    :class:`~mustamaija.search.common.SearchPlayer`.
    """

    name = "pimc"

    def __init__(self, game: str | Game, samples: int | None = None, **budget: Any) -> None:
        super().__init__(game, **budget)
        check_budget(self.iters, self.time, self.workers, samples)
        if self.iters is None and self.time is None and samples is None:
            self.iters = self.kit.default_budget.get("iters")
            samples = self.kit.default_budget.get("samples")
        self.samples = samples
        self._plan: tuple[object, Any] | None = None

    def act(self, view: Any) -> int:
        """Return the chosen step for ``view.seat``, who must be to act."""
        return self._act(view, view, False)

    def _act(self, view: Any, target: Any, truth: bool) -> int:
        legal = view.legal_mask()
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do: it is seat {view.to_act}'s turn")
        if not legal & (legal - 1):
            self.stats = {"iterations": 0, "seconds": 0.0, "forced": True}
            return int(legal.bit_length() - 1)
        kit = self.kit
        if self.endgame is not None:
            step = self.endgame(view)
            if step is not None:
                self._plan = None
                self.stats = {"iterations": 0, "seconds": 0.0, "solver": True}
                return step
        key = kit.plan_key(view)
        if key is not None and self._plan is not None and self._plan[0] == key:
            return kit.plan_step(self._plan[1], view)
        fixed = kit.fixed_step(view, self.seed)
        if fixed is not None:
            return fixed
        plans, preferred = kit.candidates(view)
        plan = plans[0] if len(plans) == 1 else self._search(view, target, truth, plans, preferred)
        self._plan = (key, plan) if key is not None else None
        return kit.plan_step(plan, view)

    def _search(self, view: Any, target: Any, truth: bool, plans: list[Any], preferred: int) -> Any:
        seat = view.seat
        assert seat is not None
        seed = self.kit.decision_seed(self.seed, self.rng, view)
        start = _time.process_time()
        wall = _time.perf_counter()
        if truth:  # One true deal: one playout of every candidate is the whole search.
            found = search_plans(self.kit, target, plans, preferred, seat, seed, samples=1, truth=True)
        else:
            found = search_plans(self.kit, target, plans, preferred, seat, seed, iters=self.iters,
                                 seconds=self.time, samples=self.samples, workers=self.workers)
        self.stats = {
            "iterations": found.iterations,
            "seconds": _time.perf_counter() - wall,
            "cpu_seconds": _time.process_time() - start,
            "candidates": len(plans),
            "root": {a: (n, w) for a, (n, w, _) in found.stats.items()},
        }
        return plans[found.best]

    def close(self) -> None:
        """Forget the kept plan (the process pool is shared and closed at exit)."""
        self._plan = None


class OpenHandPIMCPlayer(OpenHand, PIMCPlayer):
    """The same search on the true state (no sampling): an upper bound for experiments only; ``act`` raises."""

    name = "open-hand-pimc"

    def act_open(self, state: Any) -> int:
        """Return the chosen step for the seat to act in the true ``state``."""
        if state.is_over:
            raise ValueError("the deal is over: nobody is to act")
        return self._act(state.view(state.to_act), state.copy(), True)


def make_pimc(game: str | Game, params: Mapping[str, Any], seed: int, *, open_hand: bool = False) -> PIMCPlayer:
    """Build a :class:`PIMCPlayer` of ``game`` (or its open-hand twin) from bot-spec parameters (:data:`PIMC_PARAMS`)."""
    cls = OpenHandPIMCPlayer if open_hand else PIMCPlayer
    return cls(game, seed=seed, **read_params(params, PIMC_PARAMS, cls.name))
