"""Information Set Monte Carlo Tree Search for every game: ``ismcts`` (views only) and ``open-hand`` (an upper bound).

The search player acts on a view only. It runs single-observer ISMCTS
(Cowling, Powley and Whitehouse, 2012) over the steps of the game protocol
(``legal_mask``, ``apply``, ``copy``, ``to_act``, ``is_over``); what only
the game knows comes from its search kit (:class:`~mustamaija.core.protocol.SearchKit`):

1. **Determinise.** Each iteration deals the cards the seat cannot see
   (``kit.sampler``, by default :meth:`~mustamaija.core.protocol.Game.sample`).
2. **Select.** From the root, one tree is walked for all determinisations.
   A node is the step sequence from the root plus the *context* of the
   decision (``kit.context``: at least the seat to act; the same steps can
   lead to different decisions in different determinisations). Each edge
   counts how often it was *available* as well as visited, and UCB uses the
   availability: ``w/n + c * sqrt(ln(avail) / n)``, among the steps legal in
   this determinisation.
3. **Expand** one untried legal step (the rollout policy's choice if it is
   untried, else a random one).
4. **Roll out** with the kit's rollout (``kit.rollout(name, depth)``: its
   policy to the end of the deal, or for ``depth`` turns and an evaluation).
5. **Back up** a value in [0, 1] for every seat (``kit.values`` of a
   finished deal: its returns, scaled). Each edge adds the value of the seat
   that chose it, so every seat maximises its own value at its own nodes (max^n).

The most visited root step is played. A decision with one legal step is
returned at once. The tree below the chosen step is kept for the next step
of the same compound action, since nothing new is learnt in between. A game
with an exact endgame solver gets the position first (``kit.endgame``).

``workers=k`` runs ``k`` independent searches with different seeds in a
pool of spawned processes (kept for the next moves) and adds up their root
visit counts (root parallelism). :class:`OpenHandPlayer` runs the same search
on the true state, without determinisation: perfect information, for
experiments only (``sees_all = True``, ``act_open(state)``; ``act(view)`` raises).

>>> from mustamaija.core.registry import games
>>> for game in games():
...     s = game.deal(game.min_players + 1, seed=5)
...     bot = ISMCTSPlayer(game, iters=60, seed=1)
...     print(s.can_step(bot.act(s.view(s.to_act))), bot.stats["iterations"])
True 60
True 60
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from mustamaija.core.protocol import Game, SearchKit
from mustamaija.search.common import SEARCH_PARAMS, OpenHand, SearchPlayer, derive_seed, process_pool, read_params

__all__ = [
    "DEFAULT_C",
    "DEFAULT_ITERS",
    "PARAMS",
    "Edge",
    "ISMCTSPlayer",
    "OpenHandPlayer",
    "SearchConfig",
    "best_step",
    "grow_tree",
    "make_ismcts",
    "search_once",
]

DEFAULT_ITERS: Final = 1000
"""Iterations per decision when neither ``iters`` nor ``time`` is given."""
DEFAULT_C: Final = 0.7
"""The UCB exploration constant (values are in [0, 1])."""

_LOG: Final = math.log
_SQRT: Final = math.sqrt


class Edge:
    """A step from a node: visits, total value for the seat that takes it, availability, and the nodes below by context."""

    __slots__ = ("avail", "kids", "n", "w")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.kids: dict[Any, dict[int, Edge]] = {}


@dataclass(frozen=True)
class SearchConfig:
    """The parameters of one search: exploration ``c``, rollout policy name (``None``: the kit's first) and ``depth``."""

    c: float = DEFAULT_C
    rollout: str | None = None
    depth: int | None = None

    def rollout_name(self, kit: SearchKit) -> str:
        """Return the rollout policy's name: the given one, or the kit's default."""
        return self.rollout if self.rollout is not None else kit.rollouts[0]

    def rollout_depth(self, kit: SearchKit) -> int:
        """Return the rollout truncation: the given one, or the kit's default."""
        return self.depth if self.depth is not None else kit.default_depth


@dataclass
class _Result:
    """Root statistics of a search: step -> (visits, total value for the root seat)."""

    root: dict[int, tuple[int, float]] = field(default_factory=dict)
    iterations: int = 0
    seconds: float = 0.0


def grow_tree(
    kit: SearchKit,
    draw: Callable[[], Any],
    root: dict[int, Edge],
    config: SearchConfig,
    rng: random.Random,
    iters: int | None,
    seconds: float | None = None,
) -> tuple[int, float]:
    """Run ISMCTS iterations into the caller's tree ``root`` until the budget is spent; return (iterations, seconds).

    ``root`` maps a step to its :class:`Edge`, so a caller such as
    :func:`mustamaija.search.hints.hint` can read whole actions and their
    statistics off the tree. ``draw()`` returns a fresh determinised state.
    """
    name = config.rollout_name(kit)
    policy = kit.policy(name)
    roll = kit.rollout(name, config.rollout_depth(kit))
    finished = kit.values
    context = kit.context
    c = config.c
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
        path: list[tuple[Edge, int]] = []
        while True:
            if st.is_over:
                values = finished(st)
                break
            m = st.legal_mask()
            actor = st.to_act
            best: Edge | None = None
            chosen = -1
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
                    best, best_v, chosen = e, v, s
            if untried:
                s = policy(st, rng)
                if not untried >> s & 1:
                    k = rng.randrange(untried.bit_count())
                    for _ in range(k):
                        untried &= untried - 1
                    s = (untried & -untried).bit_length() - 1
                e = Edge()
                e.avail = 1
                node[s] = e
                st.apply(s)
                path.append((e, actor))
                values = roll(st, rng)
                break
            assert best is not None
            st.apply(chosen)
            path.append((best, actor))
            ctx = context(st)
            nxt = best.kids.get(ctx)
            if nxt is None:
                nxt = best.kids[ctx] = {}
            node = nxt
        for e, seat in path:
            e.n += 1
            e.w += values[seat]
    return done, _time.perf_counter() - start


def best_step(stats: Mapping[int, tuple[int, float]]) -> int:
    """Return the step the search plays from root statistics: the most visited; ties go to the higher mean, then the lower step."""
    return max(sorted(stats), key=lambda s: (stats[s][0], stats[s][1] / max(stats[s][0], 1)))


def _drawer(kit: SearchKit, target: Any, truth: bool, rng: random.Random) -> Callable[[], Any]:
    if truth:
        return target.copy  # type: ignore[no-any-return]
    sample = kit.sampler(target)

    def draw() -> Any:
        return sample(rng)

    return draw


def search_once(kit: SearchKit, target: Any, config: SearchConfig, seed: int | str, iters: int | None,
                seconds: float | None, truth: bool = False) -> _Result:
    """Run one independent search on a view (ISMCTS) or, with ``truth``, the true state; the unit of root parallelism."""
    rng = random.Random(seed)
    root: dict[int, Edge] = {}
    n, secs = grow_tree(kit, _drawer(kit, target, truth, rng), root, config, rng, iters, seconds)
    return _Result({s: (e.n, e.w) for s, e in root.items()}, n, secs)


def _parallel(kit: SearchKit, target: Any, config: SearchConfig, seeds: list[int | str], iters: int | None,
              seconds: float | None, truth: bool) -> _Result:
    pool = process_pool(len(seeds))
    futures = [pool.submit(search_once, kit, target, config, seed, iters, seconds, truth) for seed in seeds]
    total = _Result()
    for f in futures:
        r = f.result()
        total.iterations += r.iterations
        total.seconds = max(total.seconds, r.seconds)
        for s, (n, w) in r.root.items():
            n0, w0 = total.root.get(s, (0, 0.0))
            total.root[s] = (n0 + n, w0 + w)
    return total


class ISMCTSPlayer(SearchPlayer):
    """The ISMCTS search player of a game: a view in, one step out (see the module docstring).

    Budget: ``iters`` iterations, or ``time`` seconds, per decision (both: the
    first reached; neither: :data:`DEFAULT_ITERS`). ``c`` is the UCB
    exploration constant, ``rollout`` the rollout policy (one of the kit's
    ``rollouts``) and ``depth`` the rollout truncation (0: full rollouts;
    ``None``: the kit's defaults); ``reuse`` keeps the tree between the steps
    of one compound action. The other keyword arguments (``workers``,
    ``seed``, ``solver``, ``solver_cards``, ``beliefs``) are those of
    :class:`~mustamaija.search.common.SearchPlayer`.
    """

    name = "ismcts"

    def __init__(self, game: str | Game, c: float = DEFAULT_C, rollout: str | None = None, depth: int | None = None,
                 reuse: bool = True, **budget: Any) -> None:
        super().__init__(game, **budget)
        self.kit.policy(rollout if rollout is not None else self.kit.rollouts[0])  # Fail early on a bad name.
        if self.iters is None and self.time is None:
            self.iters = DEFAULT_ITERS
        self.config = SearchConfig(c=c, rollout=rollout, depth=depth)
        self.reuse = reuse
        # Tree kept for the next step of the same compound action: (key of the view after the step, subtree).
        self._kept: tuple[object, dict[int, Edge]] | None = None

    def act(self, view: Any) -> int:
        """Return the chosen step for ``view.seat``, who must be to act."""
        legal = view.legal_mask()
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do: it is seat {view.to_act}'s turn")
        seat = view.seat

        def after(step: int) -> tuple[Any, object] | None:
            st = self.game.sample(view, random.Random(0))  # Only the seat's own cards decide how its action goes on.
            st.apply(step)
            if st.is_over or st.to_act != seat or not st.in_progress:
                return None  # The action is complete: what comes next depends on hidden cards.
            return self.kit.context(st), st.view(seat)

        return self._decide(view, view, False, legal, view, after)

    def _solved(self, view: Any, legal: int) -> int | None:
        if legal & (legal - 1) and self.endgame is not None:
            step = self.endgame(view)
            if step is not None:
                self._kept = None
                self.stats = {"iterations": 0, "seconds": 0.0, "solver": True}
                return step
        return None

    def _decide(self, view: Any, target: Any, truth: bool, legal: int, key: object,
                after: Callable[[int], tuple[Any, object] | None]) -> int:
        solved = self._solved(view, legal)
        if solved is not None:
            return solved
        if not legal & (legal - 1):
            self._kept = None
            self.stats = {"iterations": 0, "seconds": 0.0, "forced": True}
            return int(legal.bit_length() - 1)
        seed = self.kit.decision_seed(self.seed, self.rng, view)
        if self.workers > 1:
            self._kept = None
            seeds = [derive_seed(seed, i) for i in range(self.workers)]
            res = _parallel(self.kit, target, self.config, seeds, self.iters, self.time, truth)
            step = best_step(res.root)
            self.stats = {"iterations": res.iterations, "seconds": res.seconds, "root": res.root}
            return step
        rng = random.Random(seed)
        root: dict[int, Edge] = {}
        if self.reuse and self._kept is not None and self._kept[0] == key:
            root = self._kept[1]
        self._kept = None
        reused = sum(e.n for e in root.values())
        n, secs = grow_tree(self.kit, _drawer(self.kit, target, truth, rng), root, self.config, rng, self.iters, self.time)
        stats = {s: (e.n, e.w) for s, e in root.items() if legal >> s & 1}
        step = best_step(stats)
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


class OpenHandPlayer(OpenHand, ISMCTSPlayer):
    """The same search on the true state (perfect information): an upper bound for experiments only.

    It may never sit where only views are allowed: ``act`` raises. A
    tournament runner calls :meth:`act_open` for players with ``sees_all``.
    """

    name = "open-hand"

    def act_open(self, state: Any) -> int:
        """Return the chosen step for the seat to act in the true ``state``."""
        legal = state.legal_mask()
        if not legal:
            raise ValueError("the deal is over: nobody is to act")
        seat = state.to_act

        def after(step: int) -> tuple[Any, object] | None:
            st = state.copy()
            st.apply(step)
            if st.is_over or st.to_act != seat or not st.in_progress:
                return None
            return self.kit.context(st), st

        return self._decide(state.view(seat), state.copy(), True, legal, state.copy(), after)


PARAMS: Final = {
    **SEARCH_PARAMS,
    "c": (float, DEFAULT_C),
    "rollout": (str, None),
    "depth": (int, None),
    "reuse": (bool, True),
}
"""The registry parameters of ``ismcts`` and ``open-hand``: their types and defaults (``None``: the game's)."""


def make_ismcts(game: str | Game, params: Mapping[str, Any], seed: int, *, open_hand: bool = False) -> ISMCTSPlayer:
    """Build an :class:`ISMCTSPlayer` of ``game`` (or its open-hand twin) from bot-spec parameters (:data:`PARAMS`)."""
    cls = OpenHandPlayer if open_hand else ISMCTSPlayer
    return cls(game, seed=seed, **read_params(params, PARAMS, cls.name))
