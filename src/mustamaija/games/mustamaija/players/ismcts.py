"""Information Set Monte Carlo Tree Search players: ``ismcts`` (views only) and ``open-hand`` (an upper bound).

The search player acts on a :class:`~mustamaija.games.mustamaija.view.View` only (M22).
It runs single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) over
the card-at-a-time steps of docs/architecture.md:

1. **Determinise.** Each iteration deals the cards the seat cannot see over
   the places it cannot see into, uniformly among the deals consistent with
   the view (as :func:`~mustamaija.games.mustamaija.sampling.sample_state` does; see
   :class:`Determiniser`).
2. **Select.** From the root, one tree is walked for all determinisations.
   A node is the step sequence from the root plus the *context* of the
   decision: the seat to act, the phase and, in a defence, the led card being
   answered (the same steps can lead to different contexts in different
   determinisations, for instance when a lead completes by itself because
   the leader holds no higher card of the suit). Each edge counts how often
   it was *available* as well as visited, and UCB uses the availability:
   ``w/n + c * sqrt(ln(avail) / n)``, among the steps legal in this
   determinisation.
3. **Expand** one untried legal step (the rollout policy's choice if it is
   untried, else a random one).
4. **Roll out** with a pluggable policy (:mod:`.ismcts_policy`), either to the
   end of the deal or for ``depth`` steps followed by a fitted evaluation.
5. **Back up** a value in [0, 1] for every seat (0 for the loser, 1 for the
   others; the evaluation gives each seat's estimated chance of not losing).
   Each edge adds the value of the seat that chose it, so every seat
   maximises its own value at its own nodes (max^n).

The most visited root step is played. A decision with one legal step is
returned at once. The tree below the chosen step is kept for the next step
of the same compound action (a lead is chosen card by card), since nothing
new is learnt in between. Two seats left with cards and an empty talon hand
over to the exact solver (:mod:`.ismcts_endgame`).

``workers=k`` runs ``k`` independent searches with different seeds in a
pool of spawned processes (kept for the next moves) and adds up their root
visit counts (root parallelism).

:class:`OpenHandPlayer` runs the same search on the true state, without
determinisation: perfect information, for experiments only. It says so with
``sees_all = True``, acts through ``act_open(state)``, and its ``act(view)``
raises.

>>> from mustamaija import State
>>> s = State.from_seed(players=3, seed=5)
>>> bot = ISMCTSPlayer(iters=200, seed=1)
>>> s.can_step(bot.act(s.view(s.to_act)))
True
>>> bot.stats["iterations"] >= 200
True
"""

from __future__ import annotations

import importlib
import math
import random
import time as _time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from mustamaija.core.cards import cards_of
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.players.ismcts_endgame import MAX_SOLVER_CARDS, EndgameSolver, endgame_step
from mustamaija.games.mustamaija.players.ismcts_policy import RolloutPolicy, fast_rollout, fast_step, outcome, random_step, rollout
from mustamaija.games.mustamaija.sampling import sample_state
from mustamaija.games.mustamaija.state import DEFEND, OVER, State
from mustamaija.games.mustamaija.view import View
from mustamaija.search.common import SEARCH_PARAMS, check_budget, process_pool, read_params, search_rate

__all__ = [
    "DEFAULT_C",
    "DEFAULT_DEPTH",
    "DEFAULT_ITERS",
    "DEFAULT_ROLLOUT",
    "Determiniser",
    "ISMCTSPlayer",
    "OpenHandPlayer",
    "SearchConfig",
    "best_step",
    "grow_tree",
    "iterations_per_second",
    "rollout_policy",
    "search_once",
    "state_context",
]

DEFAULT_ITERS: Final = 1000
DEFAULT_C: Final = 0.7
DEFAULT_DEPTH: Final = 3
"""Rollout turns (a lead and its defence) before the evaluation takes over (0: play every rollout to the end).

Short rollouts ending in the fitted evaluation beat full rollouts at equal time (docs/strength.md)."""
DEFAULT_ROLLOUT: Final = "fast"

_POLICIES: dict[str, RolloutPolicy] = {}

_LOG: Final = math.log
_SQRT: Final = math.sqrt


# -- rollout policies ------------------------------------------------------------------


def rollout_policy(name: str) -> RolloutPolicy:
    """Return the rollout policy called ``name``: ``fast``, ``random``, or ``heuristic``.

    ``heuristic`` is :func:`mustamaija.games.mustamaija.players.heuristic.heuristic_step` when
    that module exists, else ``fast``; ``auto`` is the same as ``heuristic``.
    """
    if name == "fast":
        return fast_step
    if name == "random":
        return random_step
    if name in ("heuristic", "auto"):
        if "heuristic" not in _POLICIES:
            try:
                module = importlib.import_module("..players.heuristic", __package__)
            except ImportError:
                module = None
            step = getattr(module, "heuristic_step", None)
            _POLICIES["heuristic"] = _guarded(step) if callable(step) else fast_step
        return _POLICIES["heuristic"]
    raise ValueError(f"unknown rollout policy {name!r}: expected fast, random, heuristic or auto")


def _guarded(policy: Callable[[State, random.Random], int]) -> RolloutPolicy:
    """Wrap a policy from elsewhere: where its step is illegal (say, in a lead the tree began), use :func:`fast_step`."""

    def step(state: State, rng: random.Random) -> int:
        s = policy(state, rng)
        if s.__class__ is int and s >= 0 and state.legal_mask() >> s & 1:
            return s
        return fast_step(state, rng)

    step.__name__ = getattr(policy, "__name__", "policy") + "_guarded"
    return step


# -- determinisation -------------------------------------------------------------------


class Determiniser:
    """Deals the unseen cards of a view over the unknown places, uniformly: a fast :func:`sample_state`.

    The history and every public fact are copied from one state built by
    :func:`sample_state`; each :meth:`draw` only re-deals the unseen cards, in
    the same order as :func:`sample_state` (hands seat by seat, then the
    talon's unknown places top first), so for the same generator state both
    give the same deal.

    >>> from mustamaija import State
    >>> v = State.from_seed(players=4, seed=2).view(1)
    >>> d = Determiniser(v)
    >>> d.draw(random.Random(7)) == sample_state(v, random.Random(7))
    True
    """

    __slots__ = ("_base", "_fill", "_hands", "_pool", "_talon", "_unknown")

    def __init__(self, view: View) -> None:
        self._base = sample_state(view, random.Random(0))
        self._pool = cards_of(view.unseen)
        hands = list(view.known)
        if view.seat is not None:
            hands[view.seat] = view.hand
        self._hands = hands
        self._fill = [(s, view.hand_sizes[s] - hands[s].bit_count()) for s in range(view.players)]
        talon = [-1] * view.talon_size
        for depth, c in view.talon_known:
            talon[depth] = c
        self._talon = talon
        self._unknown = [i for i, c in enumerate(talon) if c < 0]

    def draw(self, rng: random.Random) -> State:
        """Return a new state with the unseen cards dealt at random."""
        pool = self._pool[:]
        rng.shuffle(pool)
        hands = self._hands[:]
        k = 0
        for s, need in self._fill:
            if need:
                h = hands[s]
                for c in pool[k:k + need]:
                    h |= 1 << c
                hands[s] = h
                k += need
        st = self._base.copy()
        st.hands = hands
        if self._unknown:
            talon = self._talon[:]
            for i in self._unknown:
                talon[i] = pool[k]
                k += 1
            st.talon = tuple(talon)
        st._legal = -1
        return st


# -- the tree --------------------------------------------------------------------------


class _Edge:
    """A step from a node: visits, total value for the seat that takes it, availability, and the nodes below."""

    __slots__ = ("avail", "kids", "n", "w")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.kids: dict[int, dict[int, _Edge]] = {}


def _context(phase: int, to_act: int, rem: int, avail: int, trump: int) -> int:
    """Return the code of a decision's context: the seat to act, the phase, and the led card to answer."""
    if phase == DEFEND:
        return (to_act * 3 + 1) << 6 | (L.current_led(rem, avail, trump) + 1)
    return (to_act * 3 + phase) << 6


def _state_context(st: State) -> int:
    p = st.phase
    if p == OVER:
        return -1
    if p == DEFEND:
        d = st.defender
        return _context(p, d, st.rem, st.hands[d] & ~st.used, st.trump)
    return _context(p, st.attacker, 0, 0, 0)


def _view_context(v: View) -> int:
    if v.phase == DEFEND:
        return _context(v.phase, v.to_act, v.rem, v.hand & ~v.used, v.trump)
    return _context(v.phase, v.to_act, 0, 0, 0)


@dataclass(frozen=True)
class SearchConfig:
    """The parameters of one search: exploration ``c``, rollout policy name and truncation ``depth``."""

    c: float = DEFAULT_C
    rollout: str = DEFAULT_ROLLOUT
    depth: int = DEFAULT_DEPTH


@dataclass
class _Result:
    """Root statistics of a search: step -> (visits, total value for the root seat)."""

    root: dict[int, tuple[int, float]] = field(default_factory=dict)
    iterations: int = 0
    seconds: float = 0.0


def _search(
    draw: Callable[[], State],
    root: dict[int, _Edge],
    config: SearchConfig,
    rng: random.Random,
    iters: int | None,
    seconds: float | None,
) -> tuple[int, float]:
    """Run ISMCTS iterations from ``root`` until the budget is spent; return (iterations, seconds)."""
    policy = rollout_policy(config.rollout)
    compound = policy is fast_step  # The same policy a whole action at a time: same play, less overhead.
    c = config.c
    depth = config.depth
    start = _time.perf_counter()
    deadline = start + seconds if seconds is not None else math.inf
    limit = iters if iters is not None else (1 << 62)
    done = 0
    log, sqrt = _LOG, _SQRT
    while done < limit:
        if done & 7 == 0 and done and _time.perf_counter() >= deadline:
            break
        done += 1
        st = draw()
        node = root
        path: list[tuple[_Edge, int]] = []
        while True:
            if st.phase == OVER:
                values = outcome(st)
                break
            m = st.legal_mask()
            actor = st.attacker if st.phase == 0 else st.defender
            best: _Edge | None = None
            best_step = -1
            best_v = -1.0
            untried = 0
            mm = m
            while mm:
                low = mm & -mm
                mm ^= low
                s = low.bit_length() - 1
                e = node.get(s)
                if e is None:
                    untried |= low
                    continue
                e.avail += 1
                if untried:
                    continue
                v = e.w / e.n + c * sqrt(log(e.avail) / e.n)
                if v > best_v:
                    best, best_v, best_step = e, v, s
            if untried:
                s = policy(st, rng)
                if not untried >> s & 1:
                    k = rng.randrange(untried.bit_count())
                    for _ in range(k):
                        untried &= untried - 1
                    s = (untried & -untried).bit_length() - 1
                e = _Edge()
                e.avail = 1
                node[s] = e
                st.apply(s)
                path.append((e, actor))
                values = fast_rollout(st, rng, depth) if compound else rollout(st, rng, policy, depth)
                break
            assert best is not None
            st.apply(best_step)
            path.append((best, actor))
            ctx = _state_context(st)
            nxt = best.kids.get(ctx)
            if nxt is None:
                nxt = best.kids[ctx] = {}
            node = nxt
        for e, seat in path:
            e.n += 1
            e.w += values[seat]
    return done, _time.perf_counter() - start


def grow_tree(
    draw: Callable[[], State],
    root: dict[int, Any],
    config: SearchConfig,
    rng: random.Random,
    iters: int | None,
    seconds: float | None = None,
) -> tuple[int, float]:
    """Run ISMCTS iterations into the caller's tree ``root``; return (iterations, seconds).

    ``root`` maps a step to its edge (``n`` visits, ``w`` total value for the
    seat that chose it, ``kids``: the next nodes by :func:`state_context`), so a
    caller such as :func:`mustamaija.games.mustamaija.analysis.hint` can read whole actions and
    their statistics off the tree. ``draw`` returns a fresh determinised state.
    """
    return _search(draw, root, config, rng, iters, seconds)


def state_context(state: State) -> int:
    """Return the context key of the decision in ``state`` (the key of a node's children)."""
    return _state_context(state)


def best_step(stats: Mapping[int, tuple[int, float]]) -> int:
    """Return the step the search plays from root statistics: the most visited; ties go to the higher mean value."""
    return _best_step(stats)


def _best_step(stats: Mapping[int, tuple[int, float]]) -> int:
    """Return the most visited step; ties go to the higher mean value, then the lower step."""
    return max(sorted(stats), key=lambda s: (stats[s][0], stats[s][1] / max(stats[s][0], 1)))


def search_once(
    target: View | State,
    config: SearchConfig,
    seed: int,
    iters: int | None,
    seconds: float | None,
) -> _Result:
    """Run one independent search on a view (ISMCTS) or a true state (open hand); the unit of root parallelism."""
    rng = random.Random(seed)
    draw: Callable[[], State]
    if isinstance(target, State):
        truth = target
        draw = truth.copy
    else:
        det = Determiniser(target)

        def draw() -> State:
            return det.draw(rng)

    root: dict[int, _Edge] = {}
    n, secs = _search(draw, root, config, rng, iters, seconds)
    return _Result({s: (e.n, e.w) for s, e in root.items()}, n, secs)


# -- the process pool ------------------------------------------------------------------------


def _parallel(target: View | State, config: SearchConfig, seeds: list[int], iters: int | None,
              seconds: float | None) -> _Result:
    pool = process_pool(len(seeds))
    futures = [pool.submit(search_once, target, config, seed, iters, seconds) for seed in seeds]
    total = _Result()
    for f in futures:
        r = f.result()
        total.iterations += r.iterations
        total.seconds = max(total.seconds, r.seconds)
        for s, (n, w) in r.root.items():
            n0, w0 = total.root.get(s, (0, 0.0))
            total.root[s] = (n0 + n, w0 + w)
    return total


# -- the players -----------------------------------------------------------------------------


class _SearchPlayer:
    """What the two players share: the budget, the configuration, the seeded generator and the statistics."""

    name = "search"

    def __init__(
        self,
        iters: int | None = None,
        time: float | None = None,
        workers: int = 1,
        c: float = DEFAULT_C,
        rollout: str = DEFAULT_ROLLOUT,
        depth: int = DEFAULT_DEPTH,
        seed: int = 0,
        solver: bool = True,
        reuse: bool = True,
        solver_cards: int = MAX_SOLVER_CARDS,
    ) -> None:
        check_budget(iters, time, workers)
        rollout_policy(rollout)  # Fail early on a bad name.
        self.iters = iters if iters is not None or time is not None else DEFAULT_ITERS
        self.time = time
        self.workers = workers
        self.config = SearchConfig(c=c, rollout=rollout, depth=depth)
        self.rng = random.Random(seed)
        self.endgame = EndgameSolver(max_cards=solver_cards) if solver else None
        self.reuse = reuse
        self.stats: dict[str, Any] = {}
        # Tree kept for the next step of the same compound action: (key of the view after the step, subtree).
        self._kept: tuple[object, dict[int, _Edge]] | None = None

    def _decide(self, target: View | State, legal: int, key: object, after: Callable[[int], tuple[int, object] | None]) -> int:
        if not legal & (legal - 1):
            self._kept = None
            self.stats = {"iterations": 0, "seconds": 0.0, "forced": True}
            return legal.bit_length() - 1
        seed = self.rng.getrandbits(62)
        if self.workers > 1:
            self._kept = None
            seeds = [seed + i for i in range(self.workers)]
            res = _parallel(target, self.config, seeds, self.iters, self.time)
            step = _best_step(res.root)
            self.stats = {"iterations": res.iterations, "seconds": res.seconds, "root": res.root}
            return step
        rng = random.Random(seed)
        root: dict[int, _Edge] = {}
        if self.reuse and self._kept is not None and self._kept[0] == key:
            root = self._kept[1]
        self._kept = None
        draw: Callable[[], State]
        if isinstance(target, State):
            draw = target.copy
        else:
            det = Determiniser(target)

            def draw() -> State:
                return det.draw(rng)

        reused = sum(e.n for e in root.values())
        n, secs = _search(draw, root, self.config, rng, self.iters, self.time)
        stats = {s: (e.n, e.w) for s, e in root.items() if legal >> s & 1}
        step = _best_step(stats)
        self.stats = {"iterations": n, "seconds": secs, "root": stats, "reused": reused}
        if self.reuse:
            nxt = after(step)
            if nxt is not None:
                ctx, nxt_key = nxt
                self._kept = (nxt_key, root[step].kids.get(ctx, {}))
        return step

    def close(self) -> None:
        """Forget the kept tree (the process pool is shared and closed at exit)."""
        self._kept = None


class ISMCTSPlayer(_SearchPlayer):
    """The ISMCTS search player: a view in, one step out (see the module docstring).

    Budget: ``iters`` iterations, or ``time`` seconds, per decision (both: the
    first reached; neither: :data:`DEFAULT_ITERS`). ``workers`` > 1 adds root
    parallelism. ``c`` is the UCB exploration constant, ``rollout`` the
    rollout policy (:func:`rollout_policy`) and ``depth`` the rollout
    truncation (0: full rollouts). ``solver`` hands two-seat talon-empty
    endgames to the exact solver; ``reuse`` keeps the tree between the steps
    of one compound action.
    """

    name = "ismcts"
    sees_all = False

    def act(self, view: View) -> int:
        """Return the chosen step for ``view.seat``, who must be to act."""
        legal = view.legal_mask()
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do: it is seat {view.to_act}'s turn")
        if legal & (legal - 1) and self.endgame is not None:
            step = endgame_step(view, self.endgame)
            if step is not None:
                self._kept = None
                self.stats = {"iterations": 0, "seconds": 0.0, "solver": True}
                return step

        def after(step: int) -> tuple[int, object] | None:
            st = sample_state(view, random.Random(0))
            st.apply(step)
            if st.phase == OVER or st.to_act != view.seat or not st.in_progress:
                return None  # The action is complete: what comes next depends on hidden cards.
            nxt = st.view(view.seat)
            return _view_context(nxt), nxt

        return self._decide(view, legal, view, after)


class OpenHandPlayer(_SearchPlayer):
    """The same search on the true state (perfect information): an upper bound for experiments only.

    It may never sit where only views are allowed: :meth:`act` raises. A
    tournament runner calls :meth:`act_open` for players with ``sees_all``.
    """

    name = "open-hand"
    sees_all = True

    def act(self, view: View) -> int:
        """Refuse: this player needs the true state (use :meth:`act_open`)."""
        raise TypeError("the open-hand player sees every card: call act_open(state), never act(view)")

    def act_open(self, state: State) -> int:
        """Return the chosen step for the seat to act in the true ``state``."""
        legal = state.legal_mask()
        if not legal:
            raise ValueError("the deal is over: nobody is to act")
        seat = state.to_act
        if legal & (legal - 1) and self.endgame is not None:
            step = endgame_step(state.view(seat), self.endgame)
            if step is not None:
                self._kept = None
                self.stats = {"iterations": 0, "seconds": 0.0, "solver": True}
                return step

        def after(step: int) -> tuple[int, object] | None:
            st = state.copy()
            st.apply(step)
            if st.phase == OVER or st.to_act != seat or not st.in_progress:
                return None
            return _state_context(st), st

        return self._decide(state.copy(), legal, state.copy(), after)


# -- measuring ---------------------------------------------------------------------------------


def iterations_per_second(players: int = 4, preset: str = "standard", iters: int = 2000, deals: int = 3,
                          **params: Any) -> float:
    """Return ISMCTS iterations per second of CPU time at the first decision of ``deals`` seeded deals.

    ``params`` go to :class:`ISMCTSPlayer` (``rollout``, ``depth``, ``c``...).
    CPU time of this process is used, so the figure is for one core even on
    a busy machine.

    >>> iterations_per_second(players=3, iters=50, deals=1, rollout="fast") > 0
    True
    """
    return search_rate(lambda seed: ISMCTSPlayer(iters=iters, seed=seed, reuse=False, **params), players, preset, deals)


# -- the bot registry --------------------------------------------------------------------------


PARAMS: Final = {
    **SEARCH_PARAMS,
    "c": (float, DEFAULT_C),
    "rollout": (str, DEFAULT_ROLLOUT),
    "depth": (int, DEFAULT_DEPTH),
    "reuse": (bool, True),
}
"""The registry parameters of ``ismcts`` and ``open-hand``: their types and defaults."""


def make_ismcts(params: Mapping[str, Any], seed: int) -> ISMCTSPlayer:
    """Build an :class:`ISMCTSPlayer` from registry parameters (see :data:`PARAMS`)."""
    return ISMCTSPlayer(seed=seed, **read_params(params, PARAMS, "ismcts"))


def make_open_hand(params: Mapping[str, Any], seed: int) -> OpenHandPlayer:
    """Build an :class:`OpenHandPlayer` from the same parameters."""
    return OpenHandPlayer(seed=seed, **read_params(params, PARAMS, "open-hand"))
