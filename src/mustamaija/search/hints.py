"""Hints for every game: what the seat to act should play now, and why, from its view only.

Call :func:`hint` with a game and a seat's view; it returns a
:class:`HintResult` whose candidates are whole actions, best first, each with
its estimate (or proof) and the playouts behind it. ``to_json()`` gives the
object the web app sends; :func:`describe_candidates` words it for a terminal.

>>> from mustamaija.core.registry import games
>>> for game in games():
...     s = game.deal(game.min_players + 1, seed=3)
...     h = hint(game, s.view(s.to_act), method="pimc", iters=200, seed=0)
...     while h.method == "rule":  # A decision the game's bots take by rule: take it and go on.
...         for step in h.steps:
...             s.apply(step)
...         h = hint(game, s.view(s.to_act), method="pimc", iters=200, seed=0)
...     print(h.method, h.exact, h.best is h.candidates[0], s.can_play(h.action), 0 < h.best.samples <= h.worlds <= 200)
pimc False True True True
pimc False True True True

The methods (``method=``):

* ``"pimc"``: the generic PIMC search (:mod:`mustamaija.search.pimc`) with
  the game's search kit: its candidate actions, each played out by the
  game's playout policy for every seat in worlds dealt from the view, the
  budget (``iters`` playouts, default :data:`DEFAULT_PIMC_ITERS`, or
  ``seconds``) spent by sequential halving. Each candidate gets the mean of
  the seat's :meth:`~mustamaija.core.protocol.Game.returns` (``value``),
  its standard error and its playouts; in a game where one seat loses
  (``result_kind == "loss"``) also the chance of losing (``loss_rate``).
  The search's choice comes first.
* ``"sampled"``: the same candidates, every one played in each of ``iters``
  worlds (default :data:`DEFAULT_SAMPLES`): equal playouts for all.
* ``"ismcts"``: the generic ISMCTS search (:mod:`mustamaija.search.ismcts`);
  whole actions and their statistics are read off its tree.
* ``"solver"``: the game's exact solver (``kit.solver()``), which proves
  each candidate safe or not; an error where the game has none or the
  position is not one it settles.
* ``"auto"`` (the default): the exact solver where the game has one and it
  settles the position quickly, else ``"pimc"``.

A decision the game's bots take by rule rather than by search (the kit's
``fixed_step``, such as passing cards or declaring) gets that rule's action
(method ``"rule"``, with its ``steps``), except with ``"ismcts"``.

Nothing here reads a card the seat cannot see: only the view is given. With
a fixed ``seed`` and no ``seconds`` limit, the same view gives the same
hint whatever the hidden cards are.

:func:`judge_actions` plays given actions out in the worlds a ``sampled``
hint deals, world by world, for callers that must weigh an action the
search did not list (a game review judges the action a seat actually took).
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from mustamaija.core.cards import card_symbol, parse_card
from mustamaija.core.errors import CardError, MustamaijaError
from mustamaija.core.protocol import Game, SearchKit
from mustamaija.core.registry import get_game
from mustamaija.search.ismcts import Edge, SearchConfig, best_step, grow_tree
from mustamaija.search.lazyrandom import LazyRandom
from mustamaija.search.pimc import search_plans

__all__ = [
    "DEFAULT_PIMC_ITERS",
    "DEFAULT_SAMPLES",
    "DEFAULT_SEARCH_ITERS",
    "METHODS",
    "TABLE_PLAYOUTS",
    "Candidate",
    "HintResult",
    "describe_candidates",
    "hint",
    "judge_actions",
    "table_hint",
    "view_for",
]

METHODS: Final = ("auto", "solver", "pimc", "sampled", "ismcts")
DEFAULT_PIMC_ITERS: Final = 1000
"""Playouts of a ``pimc`` hint without a time limit (about a second on one core)."""
DEFAULT_SAMPLES: Final = 60
"""Worlds of a ``sampled`` hint without a budget (every candidate is played in each)."""
DEFAULT_SEARCH_ITERS: Final = 4000
"""Iterations of an ``ismcts`` hint without a time limit."""
TABLE_PLAYOUTS: Final = 4000
"""Playouts of a table's hint (:func:`table_hint`): the budget of the strongest fair bot measured, ``pimc:iters=4000``
(docs/strength.md), about 0.1–0.7 s of a core. A budget of playouts, not of time, so that a hint is as strong on a
busy machine as on an idle one, and the same position gets the same hint on any machine."""


@dataclass(frozen=True)
class Candidate:
    """One candidate action and its verdict.

    ``actions`` are the compound actions it takes now (usually one), ``words``
    says them; ``also`` lists equivalent actions. ``safe`` is an exact
    solver's proof; ``value`` is the mean of the seat's returns over
    ``samples`` playouts with its standard error ``stderr`` (from ISMCTS,
    whose tree keeps no squares, the binomial bound), and ``loss_rate`` the
    chance of losing in a game where one seat loses;
    ``visits`` is the search's count and ``step`` the first step of the
    action (``step_text`` its name) where the search decides step by step.
    """

    actions: tuple[Any, ...] = ()
    words: str = ""
    safe: bool | None = None
    value: float | None = None
    loss_rate: float | None = None
    stderr: float | None = None
    samples: int = 0
    visits: int | None = None
    step: int | None = None
    step_text: str = ""
    also: tuple[tuple[Any, ...], ...] = ()

    @property
    def action(self) -> Any:
        """Return the first action to take (``None`` if the candidate has none)."""
        return self.actions[0] if self.actions else None

    def to_json(self) -> dict[str, Any]:
        """Return the candidate as a JSON object (only the keys that apply)."""
        out: dict[str, Any] = {"actions": [a.to_json() for a in self.actions], "words": self.words}
        if self.step is not None:
            out["step"] = self.step_text
        if self.safe is not None:
            out["safe"] = self.safe
        if self.value is not None:
            out["value"] = round(self.value, 4)
            out["stderr"] = round(self.stderr or 0.0, 4)
            out["samples"] = self.samples
        if self.loss_rate is not None:
            out["loss_rate"] = round(self.loss_rate, 4)
        if self.visits is not None:
            out["visits"] = self.visits
        if self.also:
            out["also"] = [[a.to_json() for a in group] for group in self.also]
        return out


@dataclass
class HintResult:
    """The hint: the game and seat, how the candidates were judged, the candidates best first, and an explanation."""

    game: str
    seat: int
    phase: str
    method: str
    exact: bool
    candidates: list[Candidate]
    text: str
    worlds: int = 0
    seconds: float = 0.0
    steps: tuple[int, ...] = ()
    """The steps of the best candidate's first action, in the order the game takes them (empty if unknown)."""
    result_kind: str = "loss"
    """How the game scores a deal (:attr:`~mustamaija.core.protocol.Game.result_kind`): how to read ``value``."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> Candidate | None:
        """Return the recommended candidate."""
        return self.candidates[0] if self.candidates else None

    @property
    def action(self) -> Any:
        """Return the first action to take now."""
        best = self.best
        return best.action if best is not None else None

    def to_json(self) -> dict[str, Any]:
        """Return the hint as a JSON object."""
        best = self.best
        out: dict[str, Any] = {
            "game": self.game,
            "seat": self.seat,
            "phase": self.phase,
            "method": self.method,
            "exact": self.exact,
            "best": best.to_json() if best is not None else None,
            "candidates": [c.to_json() for c in self.candidates],
            "text": self.text,
        }
        if not self.exact:
            out["worlds"] = self.worlds
        out["seconds"] = round(self.seconds, 3)
        out.update(self.extra)
        return out


# -- the entry points -----------------------------------------------------------------------------


def view_for(game: str | Game, target: Any, seat: int | None = None) -> Any:
    """Return the view of ``seat`` (default: the seat to act) of a record's final position or of a state.

    Raise :class:`~mustamaija.core.errors.MustamaijaError` if the deal is
    over or the seat is not one of the deal's.
    """
    g = get_game(game)
    state = target.replay() if hasattr(target, "replay") else target
    if state.is_over:
        raise MustamaijaError(f"the deal is over ({g.outcome_text(state)}): there is nothing to play")
    if seat is None:
        seat = state.to_act
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise MustamaijaError(f"no seat {seat!r} with {state.players} players")
    return state.view(seat)  # From here on only the view is used.


def table_hint(game: str | Game, view: Any, *, cap: float | None, you: bool = True) -> HintResult:
    """Return the hint the tables give (the web app's and the terminal's): :data:`TABLE_PLAYOUTS` playouts, seed 0.

    ``cap`` (seconds of wall-clock time, ``None`` for none) is a safety net for an overloaded machine, not the
    budget: a hint that reaches it stops with fewer playouts. With ``you`` the words are for the seat's player.
    """
    return hint(game, view, iters=TABLE_PLAYOUTS, seconds=cap, seed=0, you=you)


def hint(game: str | Game, view: Any, *, method: str = "auto", iters: int | None = None,
         seconds: float | None = None, seed: int = 0, you: bool = False) -> HintResult:
    """Return what ``view.seat`` (who must be to act) should play now, and why (see the module docstring).

    ``iters`` is the budget (playouts, sampled worlds or ISMCTS iterations,
    by method); ``seconds`` caps the time (the result may then depend on the
    machine's speed); ``seed`` seeds the search. With ``you`` the words are
    for the seat's player: "you", and moves as a player says them ("lead 8♥ J♥");
    without, for an onlooker: "seat 1", and the moves' record words.
    """
    start = _time.perf_counter()
    g = get_game(game)
    if method not in METHODS:
        raise MustamaijaError(f"unknown hint method {method!r}: expected {', '.join(METHODS)}")
    if iters is not None and iters < 1:
        raise MustamaijaError(f"the budget must be at least 1, got {iters}")
    if view.seat is None:
        raise MustamaijaError("a hint is for a seat: a spectator has no cards to play")
    if view.is_over:
        raise MustamaijaError("the deal is over: there is nothing to play")
    if view.to_act != view.seat:
        raise MustamaijaError(f"seat {view.seat} is not to act: seat {view.to_act} is")
    base = g.sample(view, random.Random(0))  # Only the seat's own cards decide how its own action goes.
    if base.in_progress:
        raise MustamaijaError("the seat is part way through an action chosen step by step: a hint starts between actions")
    kit = g.search_kit()
    job = _Job(g, kit, view, base, seed, you)
    result: HintResult | None = None
    if method in ("auto", "solver"):
        solver = kit.solver()
        if solver is not None:
            result = solver.hint(g, view, method == "solver", you=you)
        elif method == "solver":
            raise MustamaijaError(f"{g.title} has no exact solver: ask for pimc, sampled or ismcts")
    if result is None:
        if method == "ismcts":
            result = job.ismcts(iters, seconds)
        elif kit.fixed_step(view, seed) is not None:
            result = job.rule()
        else:
            result = job.pimc(iters, seconds, flat=method == "sampled")
    if not result.steps and result.action is not None:
        result.steps = tuple(_steps_of(g, base, result.action))
    result.seconds = _time.perf_counter() - start
    return result


def judge_actions(game: str | Game, view: Any, groups: Sequence[Sequence[Any]], *, worlds: int, seed: int = 0,
                  seconds: float | None = None) -> list[list[float]]:
    """Play each group of compound actions out in the same worlds dealt from ``view``; return the seat's returns per world.

    A group is what ``view.seat`` (who must be to act) takes now: one
    compound action, or several in a row (a declaration, then a lead). In
    each of ``worlds`` worlds (the cards the seat cannot see dealt at
    random), every group is taken and the deal is played to its end by the
    game's playout policy for every seat, with the same playout seed for every
    group: common random numbers, so the differences between groups are not
    blurred by the luck of the deal. ``out[j][i]`` is the seat's
    :meth:`~mustamaija.core.protocol.Game.returns` for group ``j`` in world
    ``i``. The worlds and playout seeds are drawn exactly as a ``sampled``
    hint with the same ``seed`` draws them, so a group that is one of its
    candidates gets that candidate's mean. With ``seconds``, fewer worlds are
    played if the time runs out (at least one). Only the view is used; an
    action the seat cannot take raises
    :class:`~mustamaija.core.errors.IllegalActionError`.

    >>> from mustamaija.core.registry import games
    >>> for game in games():
    ...     s = game.deal(game.min_players + 1, seed=3)
    ...     h = hint(game, s.view(s.to_act), method="sampled", iters=5, seed=1)
    ...     while h.method == "rule":  # A decision taken by rule has no estimate: take it and go on.
    ...         for step in h.steps:
    ...             s.apply(step)
    ...         h = hint(game, s.view(s.to_act), method="sampled", iters=5, seed=1)
    ...     (values,) = judge_actions(game, s.view(s.to_act), [h.best.actions], worlds=5, seed=1)
    ...     print(len(values), sum(values) / 5 == h.best.value)
    5 True
    5 True
    """
    g = get_game(game)
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
        raise MustamaijaError(f"the number of worlds must be at least 1, got {worlds!r}")
    seat = view.seat
    if seat is None or view.is_over or view.to_act != seat:
        raise MustamaijaError("actions are judged for the seat to act, from its own view")
    kit = g.search_kit()
    rng = random.Random(seed)
    sample = kit.sampler(view)
    deadline = _time.perf_counter() + seconds if seconds is not None else math.inf
    out: list[list[float]] = [[] for _ in groups]
    for i in range(worlds):
        if i and _time.perf_counter() >= deadline:
            break
        deal = sample(rng)
        sub = rng.getrandbits(32) if kit.playout_seeds else None  # As pimc.rollouts draws, so the worlds agree.
        for values, group in zip(out, groups, strict=True):
            st = deal.copy()
            for action in group:
                st.play(action)
            values.append(kit.playout_return(st, LazyRandom(sub) if sub is not None else None, seat))
    return out


def _steps_of(game: Game, base: Any, action: Any) -> list[int]:
    """Return the steps of ``action`` in ``base``, found by the game if it can say, else empty."""
    steps = getattr(game, "action_steps", None)
    if steps is None:
        return []
    try:
        return list(steps(base.copy(), action))
    except MustamaijaError:
        return []


# -- the work ----------------------------------------------------------------------------------------


class _Job:
    """One hint: the game, its kit, the view, a state the view allows (for the seat's own actions) and the seed."""

    def __init__(self, game: Game, kit: SearchKit, view: Any, base: Any, seed: int, you: bool = False) -> None:
        self.game = game
        self.kit = kit
        self.view = view
        self.base = base
        self.seed = seed
        self.seat: int = view.seat
        self.you = you
        self.who = "you" if you else f"seat {view.seat}"
        """Who the seat is in the words: the reader, or the seat by number."""
        self.whose = "your" if you else f"seat {view.seat}'s"
        self.n0 = len(base.actions())
        lo, hi = game.utility_range(base.players, getattr(base, "rules", None))
        self.lo = lo
        self.span = hi - lo if hi > lo else 1.0


    def dealt(self) -> str:
        """Return how the worlds deal the cards the seat cannot see, in words."""
        if self.kit.beliefs:
            return "dealt at random by how likely each is to be in each hand, from how players play"
        return "dealt at random"

    def step_words(self, step: int) -> str:
        """Return a step's name; for the player, a card's name with its suit sign."""
        name = self.game.step_name(step)
        if self.you:
            try:
                return card_symbol(parse_card(name))
            except CardError:
                pass  # A step that is not a card ("take", "declare H") keeps its name.
        return name

    def words(self, actions: Iterable[Any]) -> str:
        say = self.game.action_words if self.you else self.game.describe_action
        return "; then ".join(say(a) for a in actions) or "nothing"

    def result(self, method: str, cands: list[Candidate], text: str, worlds: int = 0, **extra: Any) -> HintResult:
        return HintResult(self.game.name, self.seat, self.base.phase_name, method, False, cands, text, worlds=worlds,
                          result_kind=self.game.result_kind, extra=extra)

    def _plan_actions(self, plan: Any) -> tuple[Any, ...]:
        t = self.base.copy()
        self.kit.apply(t, plan)
        return tuple(t.actions()[self.n0:])

    def outcome(self, c: Candidate, short: bool = False) -> str:
        """Say a candidate's estimate: the chance of losing, or the points taken, or the mean reward."""
        kind = self.game.result_kind
        if c.loss_rate is not None:
            rate = f"about {100 * c.loss_rate:.0f}% of the time (± {100 * (c.stderr or 0) / self.span:.0f})"
            return rate if short else f"{self.who} lost {rate}"
        value = c.value or 0.0
        if kind == "points":
            what = f"{-value:.1f} points on average (± {c.stderr or 0:.1f})"
            return what if short else f"{self.who} took {what}"
        return f"a mean reward of {value:.2f} (± {c.stderr or 0:.2f})"

    def _rated(self, actions: tuple[Any, ...], n: int, mean: float, stderr: float, **more: Any) -> Candidate:
        loss = (self.lo + self.span - mean) / self.span if self.game.result_kind == "loss" else None
        return Candidate(actions, self.words(actions), value=mean, loss_rate=loss, stderr=stderr, samples=n, **more)

    # -- by rule -----------------------------------------------------------------------------------

    def rule(self) -> HintResult:
        """Take the seat's action by the kit's rule, step by step, on a copy of the state the view allows."""
        t = self.base.copy()
        steps = []
        while not t.is_over and t.to_act == self.seat and len(t.actions()) == self.n0:
            step = self.kit.fixed_step(t.view(self.seat), self.seed)
            if step is None:
                break
            steps.append(step)
            t.apply(step)
        acts = tuple(t.actions()[self.n0:])
        cands = [Candidate(acts, self.words(acts))] if acts else []
        text = (f"The search bot does not weigh this decision: the bots of this game take it by rule. "
                f"{self.who.capitalize()} would {self.words(acts)}.")
        result = self.result("rule", cands, text)
        result.steps = tuple(steps) if acts else ()
        return result

    # -- PIMC --------------------------------------------------------------------------------------

    def pimc(self, iters: int | None, seconds: float | None, flat: bool) -> HintResult:
        plans, preferred = self.kit.candidates(self.view)
        if flat:
            found = search_plans(self.kit, self.view, plans, preferred, self.seat, self.seed,
                                 samples=iters or DEFAULT_SAMPLES, seconds=seconds)
        else:
            budget = iters if iters is not None else (None if seconds is not None else DEFAULT_PIMC_ITERS)
            found = search_plans(self.kit, self.view, plans, preferred, self.seat, self.seed,
                                 iters=budget, seconds=seconds)
        cands = []
        for a, plan in enumerate(plans):
            n, w, q = found.stats[a]
            mean = w / n
            var = (q - w * w / n) / (n - 1) if n > 1 else 0.0
            cands.append(self._rated(self._plan_actions(plan), n, mean, math.sqrt(max(var, 0.0) / n) if n > 1 else 0.0,
                                     visits=n))
        chosen = cands[found.best]
        cands.sort(key=lambda c: (c is not chosen, -c.samples, -(c.value or 0.0)))
        done = found.iterations
        it = "you" if self.you else "it"
        moves = "its only candidate" if len(plans) == 1 else f"each of {len(plans)} candidates"
        if flat:
            text = (f"Estimate: {found.stats[0][0]} worlds were dealt from {self.whose} view (the cards {it} cannot see "
                    f"{self.dealt()}) and {moves} was played out in every world by the game's playout policy for every "
                    f"seat, so it uses nothing hidden. Best: {chosen.words}: {self.outcome(chosen)}")
        else:
            text = (f"Search: the PIMC search ran {done} playouts from {self.whose} view: {moves} played out by the "
                    f"game's playout policy for every seat, in worlds with the cards {self.who} cannot see "
                    f"{self.dealt()}, so it uses nothing hidden. Its choice: {chosen.words}. In its {chosen.samples} playouts "
                    f"{self.outcome(chosen)}")
        runner = cands[1] if len(cands) > 1 else None
        if runner is not None:
            text += f"; next, {runner.words}: {self.outcome(runner, short=True)} over {runner.samples} playouts"
        text += "." if flat or len(plans) == 1 else (
            ". The moves that look worse are dropped after fewer playouts (sequential halving), so the counts show "
            "where the search looked hardest; the figures are estimates.")
        worlds = found.stats[0][0] if flat else done  # Flat: every candidate in every world.
        return self.result("sampled" if flat else "pimc", cands, text, worlds=worlds, iterations=done)

    # -- ISMCTS ------------------------------------------------------------------------------------

    def ismcts(self, iters: int | None, seconds: float | None) -> HintResult:
        rng = random.Random(self.seed)
        sample = self.kit.sampler(self.view)
        root: dict[int, Edge] = {}
        config = SearchConfig()
        budget = iters if iters is not None else (None if seconds is not None else DEFAULT_SEARCH_ITERS)
        done, _ = grow_tree(self.kit, lambda: sample(rng), root, config, rng, budget, seconds)
        greedy = self._greedy(root, config)
        cands = []
        for acts, n, w, first in self._tree_actions(root, self.base, -1):
            p = w / n  # The seat's value in [0, 1]; as a return, lo + span * p.
            stderr = math.sqrt(max(p * (1 - p), 0.0) / (n - 1)) * self.span if n > 1 else self.span
            cands.append(self._rated(acts, n, self.lo + self.span * p, stderr, visits=n, step=first,
                                     step_text=self.step_words(first)))
        cands.sort(key=lambda c: (c.actions != greedy, -(c.visits or 0), -(c.value or 0.0)))
        if not cands or cands[0].actions != greedy:
            top = max(root, key=lambda k: root[k].n) if root else None
            cands.insert(0, Candidate(greedy, self.words(greedy), step=top,
                                      step_text=self.step_words(top) if top is not None else ""))
        best = cands[0]
        it = "you" if self.you else "it"
        text = (f"Search: the ISMCTS search ran {done} playouts from {self.whose} view, each in a world with the "
                f"cards {it} cannot see {self.dealt()}, so it uses nothing hidden. Its choice: {best.words}")
        if best.value is not None:
            text += f". In the {best.visits} playouts through that move {self.outcome(best)}"
        if best.step is not None and (best.visits or 0) < max(c.visits or 0 for c in cands):
            text += (f". It decides step by step: {best.step_text} is its most searched first step "
                     f"({root[best.step].n} playouts in all), and this is its most searched way on from there")
        runner = next((c for c in cands[1:] if c.value is not None), None)
        if runner is not None:
            text += f"; next, {runner.words}: {self.outcome(runner, short=True)} over {runner.visits} playouts"
        text += (". The search spends its playouts on the moves that look best, so the counts show its confidence; "
                 "the figures are estimates.")
        return self.result("ismcts", cands, text, worlds=done, iterations=done)

    def _completes(self, t: Any) -> bool:
        """Return whether the seat's action is complete in ``t`` (or the turn has passed)."""
        return bool(t.is_over or t.to_act != self.seat or (len(t.actions()) > self.n0 and not t.in_progress))

    def _tree_actions(self, node: dict[int, Edge], st: Any, first: int) -> Iterator[tuple[tuple[Any, ...], int, float, int]]:
        """Yield every whole action the tree has tried from ``st``: the visits and value of its last step, its first step."""
        legal = st.legal_mask()
        for step in sorted(node):
            edge = node[step]
            if not legal >> step & 1 or not edge.n:
                continue
            t = st.copy()
            t.apply(step)
            root_step = step if first < 0 else first
            if self._completes(t):
                yield tuple(t.actions()[self.n0:]), edge.n, edge.w, root_step
            else:
                yield from self._tree_actions(edge.kids.get(self.kit.context(t), {}), t, root_step)

    def _greedy(self, node: dict[int, Edge], config: SearchConfig) -> tuple[Any, ...]:
        """Return the action the search plays: the most visited step at every decision (its rule, ties alike)."""
        t = self.base.copy()
        rng = random.Random(0)
        policy = self.kit.policy(config.rollout_name(self.kit))
        while not self._completes(t):
            legal = t.legal_mask()
            stats = {s: (e.n, e.w) for s, e in node.items() if legal >> s & 1 and e.n}
            if stats:
                step = best_step(stats)
                edge = node[step]
                t.apply(step)
                node = edge.kids.get(self.kit.context(t), {})
            else:  # Never searched this deep: finish the action as the search's rollout policy would.
                step = policy(t, rng)
                t.apply(step if legal >> step & 1 else (legal & -legal).bit_length() - 1)
                node = {}
        return tuple(t.actions()[self.n0:])


def describe_candidates(result: HintResult, limit: int = 12) -> Iterator[str]:
    """Yield lines listing the candidates for people."""
    for c in result.candidates[:limit]:
        if c.safe is not None:
            extra = f" (and {len(c.also)} equivalent)" if c.also else ""
            yield f"  {c.words:40} {'safe' if c.safe else 'not safe'}{extra}"
        elif c.value is not None:
            if c.loss_rate is not None:
                rate = f"loss rate {c.loss_rate:.2f}"
            else:
                rate = f"points {-c.value:.2f}" if result.result_kind == "points" else f"value {c.value:.2f}"
            yield f"  {c.words:40} {c.samples:6d} playouts  {rate} ± {c.stderr or 0.0:.2f}"
        else:
            yield f"  {c.words}"
    if len(result.candidates) > limit:
        yield f"  … and {len(result.candidates) - limit} more"
