"""Monte Carlo search over whole actions with heuristic playouts: ``pimc`` (views only) and ``open-hand-pimc``.

Perfect Information Monte Carlo (the rollout algorithm of Bertsekas and
Tsitsiklis, on determinised deals): at the start of its action the player

1. lists the whole actions worth playing
   (:func:`~mustamaija.games.mustamaija.players.heuristic.candidate_plans`: the leads the
   heuristic considers, the defences that beat the best 0, 1, 2... led cards);
2. deals the cards it cannot see uniformly among the deals consistent with
   its view (:class:`~mustamaija.games.mustamaija.players.ismcts.Determiniser`, as ISMCTS does:
   picked-up cards, revealed spades, the trump card's holder, hand sizes);
3. plays every candidate out on the same sampled deals (common random
   numbers), every seat following the heuristic a whole action at a time, and
   scores 1 when the seat does not lose;
4. spends the budget by **sequential halving**: the candidates share the
   iterations of a round, the better half goes on to the next, so that most
   playouts separate the best few.

The best mean wins; ties go to the heuristic's own choice. The plan is then
emitted a step at a time (the card-at-a-time decomposition), and kept for
the rest of the action, since nothing new is learnt in between. An
*iteration* is one playout of one candidate on one sampled deal.

Two seats left with cards and an empty talon hand over to the exact solver
(:mod:`.ismcts_endgame`), as in :mod:`.ismcts`. Declarations (V4) follow the
heuristic: a marriage is declared as soon as it is held.

``workers=k`` plays every round's playouts in ``k`` spawned processes
(root parallelism: each process samples its own deals) and adds up the
results. :class:`OpenHandPIMCPlayer` runs the same search on the true state:
an upper bound for experiments only. Its one deal is known and the playouts
are deterministic, so one playout of each candidate is its whole search
(the budget is not used).

>>> from mustamaija import State
>>> s = State.from_seed(players=3, seed=5)
>>> bot = PIMCPlayer(iters=60, seed=1)
>>> s.can_step(bot.act(s.view(s.to_act)))
True
>>> 0 < bot.stats["iterations"] <= 60
True
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable, Mapping
from typing import Any, Final

from mustamaija.games.mustamaija.actions import DECLARE
from mustamaija.games.mustamaija.players.heuristic import HeuristicPlayer, Plan, candidate_plans, heuristic_plan, heuristic_step, plan_step
from mustamaija.games.mustamaija.players.ismcts import Determiniser
from mustamaija.games.mustamaija.players.ismcts_endgame import MAX_SOLVER_CARDS, EndgameSolver, endgame_step
from mustamaija.games.mustamaija.players.ismcts_policy import outcome
from mustamaija.games.mustamaija.state import OVER, State
from mustamaija.games.mustamaija.view import View
from mustamaija.search.common import SEARCH_PARAMS, check_budget, process_pool, read_params, search_rate

__all__ = [
    "DEFAULT_ITERS",
    "OpenHandPIMCPlayer",
    "PIMCPlayer",
    "playout",
    "playouts_per_second",
    "rollouts",
    "sequential_halving",
]

DEFAULT_ITERS: Final = 300
"""Playouts per decision when neither ``iters`` nor ``time`` is given (about a third of a second on one core)."""


def playout(state: State, rng: random.Random | None = None) -> list[float]:
    """Play ``state`` out in place, every seat following the heuristic; return each seat's value (1: did not lose).

    A part-done action (a lead being chosen, a defence under way) is finished
    by the heuristic's step rule first. A deal stopped by the turn limit (M21)
    scores 1 for everybody, as in :func:`~mustamaija.games.mustamaija.players.ismcts_policy.outcome`.
    """
    while state.in_progress and state.phase != OVER:
        state.apply(heuristic_step(state, rng))
    while state.phase != OVER:
        _apply(state, heuristic_plan(state, rng))
    return outcome(state)


def _apply(state: State, plan: Plan) -> None:
    if isinstance(plan, int):
        state._do_lead(plan)
    else:
        state._do_beat(state.defender, plan)


def rollouts(target: View | State, plans: list[Plan], seat: int, samples: int, seed: int,
             seconds: float | None = None) -> tuple[list[float], int]:
    """Play each of ``plans`` out on ``samples`` sampled deals (the same deals for all); return (totals, deals used).

    ``target`` is a view (sampled by :class:`Determiniser`) or a true state
    (used as it is, for the open-hand player). With ``seconds``, fewer deals
    are played if the time runs out, but at least one. This is the unit of
    work a process runs in root parallelism.
    """
    rng = random.Random(seed)
    draw: Callable[[], State]
    if isinstance(target, State):
        draw = target.copy
    else:
        det = Determiniser(target)

        def draw() -> State:
            return det.draw(rng)

    deadline = _time.perf_counter() + seconds if seconds is not None else math.inf
    totals = [0.0] * len(plans)
    done = 0
    while done < samples:
        if done and _time.perf_counter() >= deadline:
            break
        deal = draw()
        sub = rng.getrandbits(32)
        for j, plan in enumerate(plans):
            st = deal.copy()
            _apply(st, plan)
            totals[j] += playout(st, random.Random(sub))[seat]
        done += 1
    return totals, done


def sequential_halving(
    run: Callable[[list[int], int, float | None], tuple[list[float], int]],
    k: int,
    preferred: int,
    iters: int | None,
    seconds: float | None,
) -> tuple[int, dict[int, tuple[int, float]]]:
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
    rounds = max(1, math.ceil(math.log2(k)))
    budget = iters
    start = _time.perf_counter()

    def key(a: int) -> tuple[float, bool, int]:
        return (w[a] / n[a] if n[a] else -1.0, a == preferred, -a)

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


class _PIMCBase:
    """What the two players share: the budget, the seeded generator, the solver hand-over and the kept plan."""

    name = "pimc"

    def __init__(
        self,
        iters: int | None = None,
        time: float | None = None,
        workers: int = 1,
        seed: int = 0,
        solver: bool = True,
        solver_cards: int = MAX_SOLVER_CARDS,
    ) -> None:
        check_budget(iters, time, workers)
        self.iters = iters if iters is not None or time is not None else DEFAULT_ITERS
        self.time = time
        self.workers = workers
        self.rng = random.Random(seed)
        self.endgame = EndgameSolver(max_cards=solver_cards) if solver else None
        self.fallback = HeuristicPlayer(seed=seed)
        self.stats: dict[str, Any] = {}
        self._plan: tuple[object, Plan] | None = None

    def _act(self, view: View, target: View | State) -> int:
        legal = view.legal_mask()
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do: it is seat {view.to_act}'s turn")
        if not legal & (legal - 1):
            self.stats = {"iterations": 0, "seconds": 0.0, "forced": True}
            return legal.bit_length() - 1
        if self.endgame is not None:
            step = endgame_step(view, self.endgame)
            if step is not None:
                self._plan = None
                self.stats = {"iterations": 0, "seconds": 0.0, "solver": True}
                return step
        key = (view.seat, view.turns, view.phase, view.led, view.hand, len(view.history))
        if self._plan is not None and self._plan[0] == key:
            return plan_step(self._plan[1], view)
        if view.in_progress:
            # The action was begun without a plan (a restored session): finish it as the heuristic would.
            return self.fallback.act(view)
        declare = self._declaration(view)
        if declare is not None:
            return declare
        plans, mine = candidate_plans(view)
        plan = plans[0] if len(plans) == 1 else self._search(target, plans, plans.index(mine), view.seat)
        self._plan = (key, plan)
        return plan_step(plan, view)

    def _declaration(self, view: View) -> int | None:
        """Return the heuristic's declaration step if it would declare now (V4), else ``None``."""
        if view.rules.trump != "marriage" or view.declarer != -1:
            return None
        step = self.fallback.act(view)
        return step if step >= DECLARE else None

    def _search(self, target: View | State, plans: list[Plan], preferred: int, seat: int | None) -> Plan:
        assert seat is not None
        base = self.rng.getrandbits(62)
        counter = [0]

        def run(arms: list[int], samples: int, seconds: float | None) -> tuple[list[float], int]:
            chosen = [plans[a] for a in arms]
            counter[0] += 1
            seed = base + 1000 * counter[0]
            if self.workers == 1:
                return rollouts(target, chosen, seat, samples, seed, seconds)
            per = max(1, -(-samples // self.workers)) if samples < 1 << 30 else samples
            pool = process_pool(self.workers)
            futures = [pool.submit(rollouts, target, chosen, seat, per, seed + i, seconds)
                       for i in range(self.workers)]
            totals = [0.0] * len(arms)
            used = 0
            for f in futures:
                t, u = f.result()
                used += u
                totals = [a + b for a, b in zip(totals, t, strict=True)]
            return totals, used

        start = _time.process_time()
        wall = _time.perf_counter()
        if isinstance(target, State):
            # One true deal and deterministic playouts: one playout of every candidate is the whole search.
            totals, _ = rollouts(target, plans, seat, 1, base)
            stats = {a: (1, t) for a, t in enumerate(totals)}
            best = max(range(len(plans)), key=lambda a: (totals[a], a == preferred, -a))
        else:
            best, stats = sequential_halving(run, len(plans), preferred, self.iters, self.time)
        self.stats = {
            "iterations": sum(n for n, _ in stats.values()),
            "seconds": _time.perf_counter() - wall,
            "cpu_seconds": _time.process_time() - start,
            "candidates": len(plans),
            "root": {a: stats[a] for a in stats},
        }
        return plans[best]

    def close(self) -> None:
        """Forget the kept plan (the process pool is shared and closed at exit)."""
        self._plan = None


class PIMCPlayer(_PIMCBase):
    """The Monte Carlo search player: a view in, one step out (see the module docstring).

    Budget: ``iters`` playouts, or ``time`` seconds, per decision (both: the
    first reached; neither: :data:`DEFAULT_ITERS`). ``workers`` > 1 adds root
    parallelism; ``solver`` hands two-seat talon-empty endgames to the exact
    solver (up to ``solver_cards`` cards).
    """

    name = "pimc"
    sees_all = False

    def act(self, view: View) -> int:
        """Return the chosen step for ``view.seat``, who must be to act."""
        return self._act(view, view)


class OpenHandPIMCPlayer(_PIMCBase):
    """The same search on the true state (no sampling): an upper bound for experiments only; :meth:`act` raises."""

    name = "open-hand-pimc"
    sees_all = True

    def act(self, view: View) -> int:
        """Refuse: this player needs the true state (use :meth:`act_open`)."""
        raise TypeError("the open-hand player sees every card: call act_open(state), never act(view)")

    def act_open(self, state: State) -> int:
        """Return the chosen step for the seat to act in the true ``state``."""
        if state.phase == OVER:
            raise ValueError("the deal is over: nobody is to act")
        return self._act(state.view(state.to_act), state.copy())


def playouts_per_second(players: int = 4, preset: str = "standard", iters: int = 600, deals: int = 5) -> float:
    """Return the search's playouts per second of CPU time at the first decision of ``deals`` seeded deals.

    CPU time of this process is used, so the figure is for one core even on a busy machine.

    >>> playouts_per_second(players=3, iters=30, deals=1) > 0
    True
    """
    return search_rate(lambda seed: PIMCPlayer(iters=iters, seed=seed), players, preset, deals)


PARAMS: Final = SEARCH_PARAMS
"""The registry parameters of ``pimc`` and ``open-hand-pimc``: their types and defaults."""


def make_pimc(params: Mapping[str, Any], seed: int) -> PIMCPlayer:
    """Build a :class:`PIMCPlayer` from registry parameters (see :data:`PARAMS`)."""
    return PIMCPlayer(seed=seed, **read_params(params, PARAMS, "pimc"))


def make_open_hand_pimc(params: Mapping[str, Any], seed: int) -> OpenHandPIMCPlayer:
    """Build an :class:`OpenHandPIMCPlayer` from the same parameters."""
    return OpenHandPIMCPlayer(seed=seed, **read_params(params, PARAMS, "open-hand-pimc"))
