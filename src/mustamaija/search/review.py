"""Game review for every game: each decision of a deal record judged from its seat's view, as lichess's analysis does.

:func:`review` replays a record and, at every compound action (every
decision of every seat, or of the ``seats`` asked for), judges the action
played against the alternatives. Each decision is judged only from the
acting seat's view at that moment (``state.view(seat)``), exactly as a hint
is (:func:`mustamaija.search.hints.hint`): the review never uses a card the
seat could not know, so the same view gives the same judgement whatever the
hidden cards were. A decision is judged in two stages:

1. **The search** finds the best action, as the hint would: the game's exact
   solver where the hint uses it (the position settled and small enough),
   else PIMC with ``iters`` playouts; a decision the game's bots take by
   rule (a pass, a declaration) gets the rule's action.
2. **The judgement.** Where the solver decided, its proof is the verdict:
   each action is safe (the seat can make sure of not losing, whatever the
   others do) or not. Elsewhere the played action and the best one are
   played out in the same ``worlds`` worlds dealt from the view (common
   random numbers, :func:`~mustamaija.search.hints.judge_actions`), fresh
   worlds that the search did not choose its move on. So the played action
   is always judged, whether or not the search listed it, and the drop
   comes with its standard error.

Figures are in the game's *measure*, lower is better: the **loss chance** in
a game where one seat loses (``result_kind == "loss"``; a proven verdict is
0 for safe and 1 for not safe, against best play), the **expected points**
in a points game (penalty points, ``result_kind == "points"``). The *drop*
is the played action's figure less the best's, never below 0.

**Marks.** A drop within noise is not charged: the mark uses the *counted
drop*, the drop less one standard error of the paired difference (never
below 0; a proven drop has no error). The thresholds (:data:`THRESHOLDS`):

==============  =====================  =======================
mark            loss chance (counted)  expected points (counted)
==============  =====================  =======================
``best``        below 0.02             below 1 point
``inaccuracy``  below 0.08             below 3 points
``mistake``     below 0.20             below 6 points
``blunder``     0.20 or more           6 points or more
==============  =====================  =======================

A solver-judged decision is ``best`` when the played action is safe or no
action is, and ``blunder`` (proven) when it is not safe while a safe one
existed. A decision with only one legal action is ``forced``: it is
estimated for the chart but has no mark of quality and is not counted.

**Accuracy** (lichess's formula for a move's accuracy from the drop in
winning chances): a decision scores
``103.1668 exp(-0.04354 d) - 3.1669``, clipped to 0-100, where ``d`` is the
counted drop in percent of the scale (:data:`ACCURACY_SCALE`: 1 for a loss
chance, 30 penalty points for expected points, so a 6-point drop scores as a
0.20 loss chance does, 40); a seat's accuracy is the mean over its
non-forced decisions. Every seat also gets its figure after each of its
decisions (the played action's estimate), a series a chart can draw.

**Budget.** The search spends ``iters`` playouts and the judgement ``worlds``
worlds (two playouts each where the played action is not the best), so a
decision costs at most about ``iters + 2 worlds`` playouts, counted, not
timed: the same record, budget and seed give the same review on every
machine. ``seconds`` also caps each decision's time (half for each stage;
the budget still bounds the work); the review then depends on the machine's
speed.

>>> from mustamaija.core.registry import games
>>> for game in games():
...     s = game.deal(game.min_players + 1, seed=3)
...     while len(s.actions()) < 6:
...         s.apply(s.legal_actions()[0])
...     r = review(game, game.record_of(s), iters=20, worlds=8)
...     print(len(r.decisions), {d.mark for d in r.decisions} <= set(MARKS), Review.from_json(r.to_json()) == r)
6 True True
6 True True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Game
from mustamaija.core.records import play_indexed
from mustamaija.core.registry import get_game
from mustamaija.search.hints import Candidate, HintResult, hint, judge_actions

__all__ = [
    "ACCURACY_SCALE",
    "DEFAULT_ITERS",
    "DEFAULT_WORLDS",
    "MARKS",
    "MEASURES",
    "THRESHOLDS",
    "DecisionReview",
    "Review",
    "SeatReview",
    "accuracy",
    "assemble",
    "decision_points",
    "describe_review",
    "mark_of",
    "review",
    "review_decision",
    "sparkline",
]

DEFAULT_ITERS: Final = 1500
"""Playouts of the search that finds the best action at a decision: the budget of the ``expert`` level, the strongest
fair bot at up to 1 s of CPU a decision (docs/strength.md), as a review should judge with the strongest bot. A
whole deal then reviews in about 6–12 s of a core (docs/play.md, "Game review")."""
DEFAULT_WORLDS: Final = DEFAULT_ITERS // 2
"""Worlds in which the played and the best actions are played out side by side (by default, half of ``iters``)."""
MARKS: Final = ("best", "inaccuracy", "mistake", "blunder", "forced")
THRESHOLDS: Final[Mapping[str, tuple[float, float, float]]] = {"loss": (0.02, 0.08, 0.20), "points": (1.0, 3.0, 6.0)}
"""Per result kind, the counted drops from which a decision is an inaccuracy, a mistake and a blunder."""
ACCURACY_SCALE: Final[Mapping[str, float]] = {"loss": 1.0, "points": 30.0}
"""Per result kind, the drop that counts as a whole lost deal in the accuracy formula."""
MEASURES: Final[Mapping[str, str]] = {"loss": "loss chance", "points": "expected points"}
"""Per result kind, what a decision's figures are."""
_BARS: Final = "▁▂▃▄▅▆▇█"
_MAX_WALK: Final = 5000
"""Steps tried at most while looking for a second legal action (a decision with more is certainly not forced)."""


# -- the results ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DecisionReview:
    """One decision of the record judged from the acting seat's view (see the module docstring).

    ``index`` is the action's place in the record; ``played`` and ``best``
    are record actions as JSON (``best``: the actions the best candidate
    takes now, usually one), ``played_words`` and ``best_words`` say them.
    ``method`` is how the best was found: ``"solver"`` (proven, ``exact``),
    ``"pimc"``, ``"rule"`` (the bots' rule) or ``"forced"`` (one legal
    action). ``played_value`` and ``best_value`` are the figures in the
    review's measure (lower is better), ``drop`` the difference (at least 0)
    and ``stderr`` its standard error over ``worlds`` worlds; ``safe`` is the
    solver's verdict on the played action. ``playouts`` counts the work of
    both stages and ``candidates`` the actions the search weighed.
    """

    index: int
    seat: int
    phase: str
    method: str
    exact: bool
    played: Mapping[str, Any]
    played_words: str
    best: tuple[Mapping[str, Any], ...]
    best_words: str
    played_value: float
    best_value: float
    drop: float
    stderr: float
    mark: str
    worlds: int = 0
    playouts: int = 0
    candidates: int = 1
    safe: bool | None = None

    @property
    def counted_drop(self) -> float:
        """Return the drop the mark charges: the drop less one standard error, never below 0."""
        return max(0.0, round(self.drop - self.stderr, 4))

    @property
    def forced(self) -> bool:
        """Return whether the seat had only one legal action."""
        return self.mark == "forced"

    def to_json(self) -> dict[str, Any]:
        """Return the decision as a JSON object."""
        out: dict[str, Any] = {
            "index": self.index, "seat": self.seat, "phase": self.phase, "method": self.method, "exact": self.exact,
            "played": dict(self.played), "played_words": self.played_words,
            "best": [dict(a) for a in self.best], "best_words": self.best_words,
            "played_value": self.played_value, "best_value": self.best_value, "drop": self.drop,
            "stderr": self.stderr, "counted_drop": self.counted_drop, "mark": self.mark, "worlds": self.worlds,
            "playouts": self.playouts, "candidates": self.candidates,
        }
        if self.safe is not None:
            out["safe"] = self.safe
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> DecisionReview:
        """Return the decision of :meth:`to_json`'s object."""
        return cls(
            int(obj["index"]), int(obj["seat"]), str(obj["phase"]), str(obj["method"]), bool(obj["exact"]),
            dict(obj["played"]), str(obj["played_words"]), tuple(dict(a) for a in obj["best"]), str(obj["best_words"]),
            float(obj["played_value"]), float(obj["best_value"]), float(obj["drop"]), float(obj["stderr"]),
            str(obj["mark"]), int(obj.get("worlds", 0)), int(obj.get("playouts", 0)), int(obj.get("candidates", 1)),
            obj.get("safe"),
        )


@dataclass(frozen=True)
class SeatReview:
    """One seat over the deal: its accuracy, its marks and its figure after each of its decisions.

    ``accuracy`` is ``None`` when every decision of the seat was forced.
    ``series`` pairs each decision's record index with the played action's
    figure (the seat's loss chance or expected points from its view then).
    """

    seat: int
    accuracy: float | None
    decisions: int
    forced: int
    marks: Mapping[str, int] = field(default_factory=dict)
    series: tuple[tuple[int, float], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return the seat's summary as a JSON object."""
        return {"seat": self.seat, "accuracy": self.accuracy, "decisions": self.decisions, "forced": self.forced,
                "marks": dict(self.marks), "series": [[i, v] for i, v in self.series]}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> SeatReview:
        """Return the seat's summary of :meth:`to_json`'s object."""
        acc = obj.get("accuracy")
        return cls(int(obj["seat"]), None if acc is None else float(acc), int(obj["decisions"]), int(obj["forced"]),
                   {str(k): int(v) for k, v in obj["marks"].items()},
                   tuple((int(i), float(v)) for i, v in obj["series"]))


@dataclass(frozen=True)
class Review:
    """The review of a record: every judged decision in order and every reviewed seat's summary.

    ``measure`` names the figures (:data:`MEASURES`); ``thresholds`` are the
    counted drops of an inaccuracy, a mistake and a blunder; ``iters``,
    ``worlds`` and ``seed`` are the budget and seed it was made with;
    ``actions`` is the record's length and ``outcome`` how the deal stands
    after it.
    """

    game: str
    players: int
    result_kind: str
    measure: str
    thresholds: tuple[float, float, float]
    iters: int
    worlds: int
    seed: int
    actions: int
    outcome: str
    decisions: tuple[DecisionReview, ...]
    seats: tuple[SeatReview, ...]

    def seat(self, seat: int) -> SeatReview:
        """Return the summary of ``seat``; raise ``KeyError`` if it was not reviewed."""
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(seat)

    def to_json(self) -> dict[str, Any]:
        """Return the review as one JSON object (see docs/play.md)."""
        return {
            "review": 1, "game": self.game, "players": self.players, "result_kind": self.result_kind,
            "measure": self.measure, "thresholds": list(self.thresholds), "iters": self.iters, "worlds": self.worlds,
            "seed": self.seed, "actions": self.actions, "outcome": self.outcome,
            "decisions": [d.to_json() for d in self.decisions], "seats": [s.to_json() for s in self.seats],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Review:
        """Return the review of :meth:`to_json`'s object."""
        low, mid, high = (float(x) for x in obj["thresholds"])
        return cls(str(obj["game"]), int(obj["players"]), str(obj["result_kind"]), str(obj["measure"]), (low, mid, high),
                   int(obj["iters"]), int(obj["worlds"]), int(obj["seed"]), int(obj["actions"]), str(obj["outcome"]),
                   tuple(DecisionReview.from_json(d) for d in obj["decisions"]),
                   tuple(SeatReview.from_json(s) for s in obj["seats"]))


# -- marks and accuracy --------------------------------------------------------------------------------


def mark_of(counted_drop: float, result_kind: str = "loss") -> str:
    """Return the mark of a non-forced decision from its counted drop (:data:`THRESHOLDS`).

    >>> [mark_of(d) for d in (0.0, 0.05, 0.1, 0.5)], mark_of(4.0, "points")
    (['best', 'inaccuracy', 'mistake', 'blunder'], 'mistake')
    """
    low, mid, high = THRESHOLDS.get(result_kind, THRESHOLDS["loss"])
    if counted_drop < low:
        return "best"
    if counted_drop < mid:
        return "inaccuracy"
    return "mistake" if counted_drop < high else "blunder"


def accuracy(counted_drop: float, result_kind: str = "loss") -> float:
    """Return a decision's accuracy, 0 to 100, from its counted drop (lichess's formula; see the module docstring).

    >>> [round(accuracy(d), 1) for d in (0.0, 0.02, 0.08, 0.2, 1.0)], round(accuracy(6.0, "points"), 1)
    ([100.0, 91.4, 69.7, 40.0, 0.0], 40.0)
    """
    d = 100.0 * counted_drop / ACCURACY_SCALE.get(result_kind, 1.0)
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * d) - 3.1669))


# -- the review ----------------------------------------------------------------------------------------


def review(game: str | Game, record: Any, *, iters: int = DEFAULT_ITERS, worlds: int | None = None, seed: int = 0,
           seats: Collection[int] | None = None, seconds: float | None = None,
           progress: Callable[[int, int], None] | None = None) -> Review:
    """Return the review of every decision of ``record`` (a record of ``game``, or its JSON object or text).

    ``seats`` limits the review to those seats' decisions (the others are
    replayed, not judged); ``iters`` and ``worlds`` are each decision's
    budget (``worlds`` defaults to half of ``iters``: :data:`DEFAULT_WORLDS`
    at the default); ``seconds`` caps each decision's time; ``progress(done,
    total)`` is called after each judged decision. An illegal action in the
    record raises the :class:`~mustamaija.core.errors.RecordError` that
    names it.
    """
    g = get_game(game)
    if not hasattr(record, "start"):
        record = g.load_record(record)
    worlds = _budget(iters, worlds)
    players = int(record.players)
    chosen = set(range(players)) if seats is None else set(seats)
    bad = [s for s in chosen if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players]
    if bad:
        raise MustamaijaError(f"no seat {bad[0]!r} with {players} players")
    points, end = decision_points(g, record, chosen)
    decisions = []
    for i, view, action in points:
        decisions.append(review_decision(g, view, action, index=i, iters=iters, worlds=worlds, seed=seed, seconds=seconds))
        if progress is not None:
            progress(len(decisions), len(points))
    return assemble(g, record, end, decisions, chosen, iters=iters, worlds=worlds, seed=seed)


def decision_points(game: Game, record: Any, seats: Collection[int]) -> tuple[list[tuple[int, Any, Any]], Any]:
    """Return each decision of ``seats`` to judge, as (index, the acting seat's view, the action), and the final state.

    A server judges the decisions one at a time, so that no review holds a search worker for long.
    """
    state = record.start()
    points = []
    for i, action in enumerate(record.actions):
        seat = action.seat
        view = state.view(seat) if seat in seats and not state.is_over and state.to_act == seat else None
        play_indexed(state, i, action)  # A bad record fails here, naming the action, before any search on it.
        if view is not None:
            points.append((i, view, action))
    return points, state


def assemble(game: Game, record: Any, end: Any, decisions: Sequence[DecisionReview], seats: Collection[int], *,
             iters: int, worlds: int | None = None, seed: int) -> Review:
    """Return the review of judged ``decisions`` of ``record`` (ending in state ``end``): marks, accuracy, series.

    ``iters`` and ``worlds`` are the budget the decisions were judged with (``worlds`` by default as
    :func:`review_decision` takes it).
    """
    worlds = _budget(iters, worlds)
    kind = game.result_kind
    low, mid, high = THRESHOLDS.get(kind, THRESHOLDS["loss"])
    return Review(game.name, int(record.players), kind, MEASURES.get(kind, "loss chance"), (low, mid, high), iters,
                  worlds, seed, len(record.actions), game.outcome_text(end), tuple(decisions),
                  tuple(_seat_summary(s, decisions, kind) for s in sorted(seats)))


def _budget(iters: int, worlds: int | None) -> int:
    for name, value in (("iters", iters), ("worlds", worlds)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise MustamaijaError(f"the budget {name} must be at least 1, got {value!r}")
    return worlds if worlds is not None else max(1, iters // 2)


def _seat_summary(seat: int, decisions: Sequence[DecisionReview], kind: str) -> SeatReview:
    mine = [d for d in decisions if d.seat == seat]
    judged = [d for d in mine if not d.forced]
    marks = {m: sum(1 for d in judged if d.mark == m) for m in MARKS[:4]}
    acc = round(sum(accuracy(d.counted_drop, kind) for d in judged) / len(judged), 2) if judged else None
    return SeatReview(seat, acc, len(mine), len(mine) - len(judged), marks, tuple((d.index, d.played_value) for d in mine))


def review_decision(game: str | Game, view: Any, action: Any, *, index: int = 0, iters: int = DEFAULT_ITERS,
                    worlds: int | None = None, seed: int = 0, seconds: float | None = None) -> DecisionReview:
    """Judge one decision: the compound ``action`` that ``view.seat``, who is to act, took (see the module docstring).

    Only ``view`` is read, never the true state: the judgement is the same in
    every world the seat cannot tell apart from the real one.
    """
    g = get_game(game)
    worlds = _budget(iters, worlds)
    if view.seat is None or view.is_over or view.to_act != view.seat:
        raise MustamaijaError("a decision is judged for the seat to act, from its own view")
    if action.seat != view.seat:
        raise MustamaijaError(f"the action is seat {action.seat}'s, but the view is seat {view.seat}'s")
    base = g.sample(view, random.Random(0))  # As the hint does: only the seat's own cards decide its own actions.
    base.verify(action)
    forced = _only_action(base, view.seat)
    kind = g.result_kind
    half = seconds / 2 if seconds is not None else None  # The search's share; the judgement takes the rest.
    found: HintResult | None
    if forced:
        solver = g.search_kit().solver() if kind == "loss" else None
        found = solver.hint(g, view, False) if solver is not None else None  # The hint's own solver call, no search.
    else:
        found = hint(g, view, iters=iters, seconds=half, seed=seed)
        if found.exact and kind != "loss":  # A proof of safety says nothing of points: estimate instead.
            found = hint(g, view, method="pimc", iters=iters, seconds=half, seed=seed)
    if found is not None and found.exact:
        proven = _proven(g, found, action, index, forced)
        if proven is not None:
            return proven
        found = None if forced else hint(g, view, method="pimc", iters=iters, seconds=half, seed=seed)
    return _estimated(g, view, action, index, found, forced, base.phase_name, worlds, seed, seconds)


def _starts_with(c: Candidate, action: Any) -> bool:
    """Return whether the candidate (or one of its equivalents) begins with ``action``."""
    return any(group and group[0] == action for group in (c.actions, *c.also))


def _words(game: Game, actions: Sequence[Any]) -> str:
    return "; then ".join(game.action_words(a) for a in actions)  # As a player says them: "lead 8♣", not "seat 1 leads 8C".


def _proven(game: Game, found: HintResult, action: Any, index: int, forced: bool) -> DecisionReview | None:
    """Return the solver's verdict on the played action; ``None`` if the solver did not list it."""
    mine = [c for c in found.candidates if _starts_with(c, action)]
    best = found.best
    if not mine or best is None or any(c.safe is None for c in found.candidates):
        return None
    safe = any(bool(c.safe) for c in mine)  # A first action is safe if some way on from it is (a declaration, then...).
    best_safe = bool(best.safe)
    if forced:
        mark, best_actions = "forced", (action,)
    else:
        mark, best_actions = ("blunder" if best_safe and not safe else "best"), best.actions
    value = 0.0 if safe else 1.0
    return DecisionReview(
        index, action.seat, found.phase, "forced" if forced else "solver", True, action.to_json(),
        game.action_words(action), tuple(a.to_json() for a in best_actions), _words(game, best_actions),
        value, value if forced else (0.0 if best_safe else 1.0), 1.0 if mark == "blunder" else 0.0, 0.0, mark,
        candidates=len(found.candidates), safe=safe)


def _estimated(game: Game, view: Any, action: Any, index: int, found: HintResult | None, forced: bool, phase: str,
               worlds: int, seed: int, seconds: float | None) -> DecisionReview:
    """Play the played and the best actions out side by side; return the figures, the drop and its error."""
    best_actions: tuple[Any, ...] = (action,)
    if found is not None and found.best is not None and found.best.actions:
        best_actions = found.best.actions
    same = forced or best_actions[0] == action or (found is not None and found.best is not None
                                                   and _starts_with(found.best, action))
    if same:
        best_actions = (action,)
    groups = [(action,)] if same else [(action,), best_actions]
    budget = seconds / 2 if seconds is not None and not forced else seconds
    values = judge_actions(game, view, groups, worlds=worlds, seed=seed + 1, seconds=budget)  # Fresh worlds: not the search's.
    lo, hi = game.utility_range(view.players, getattr(view, "rules", None))
    span = hi - lo if hi > lo else 1.0
    loss = game.result_kind == "loss"

    def figure(r: float) -> float:
        return (hi - r) / span if loss else -r

    played = [figure(r) for r in values[0]]
    best = [figure(r) for r in values[-1]]
    n = len(played)
    diffs = [p - b for p, b in zip(played, best, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    stderr = round(math.sqrt(var / n), 4)
    drop = round(max(0.0, mean), 4)
    counted = max(0.0, drop - stderr)
    mark = "forced" if forced else mark_of(counted, game.result_kind)
    method = "forced" if forced else (found.method if found is not None else "pimc")
    searched = int(found.extra.get("iterations", found.worlds)) if found is not None and not found.exact else 0
    return DecisionReview(
        index, action.seat, found.phase if found is not None else phase, method, False, action.to_json(),
        game.action_words(action), tuple(a.to_json() for a in best_actions), _words(game, best_actions),
        round(sum(played) / n, 4), round(sum(best) / n, 4), drop, stderr, mark, worlds=n,
        playouts=searched + n * len(groups), candidates=len(found.candidates) if found is not None and not forced else 1)


def _only_action(base: Any, seat: int) -> bool:
    """Return whether the seat to act in ``base`` has exactly one legal compound action.

    The actions are walked step by step on copies, stopping at the second
    distinct one found (or after :data:`_MAX_WALK` steps, taken as a choice).
    """
    n0 = len(base.actions())
    found: set[tuple[Any, ...]] = set()
    tried = 0

    def walk(t: Any) -> bool:
        """Walk on from ``t``; return whether a second action was found (or the walk gave up)."""
        nonlocal tried
        mask = t.legal_mask()
        while mask:
            step = (mask & -mask).bit_length() - 1
            mask &= mask - 1
            tried += 1
            if tried > _MAX_WALK:
                return True
            u = t.copy()
            u.apply(step)
            if u.is_over or u.to_act != seat or (len(u.actions()) > n0 and not u.in_progress):
                found.add(tuple(u.actions()[n0:]))
                if len(found) > 1:
                    return True
            elif walk(u):
                return True
        return False

    return not walk(base.copy()) and len(found) == 1


# -- words ---------------------------------------------------------------------------------------------


def _figure(value: float, kind: str) -> str:
    return f"{value:.2f}" if kind == "loss" else f"{value:.1f}"


def _plural(n: int, word: str) -> str:
    if n == 1 or word == "best":  # "best" counts as an adjective: "20 best".
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def sparkline(values: Sequence[float], top: float) -> str:
    """Return the values as a line of bar characters, from 0 (the lowest bar) to ``top`` (the highest).

    >>> sparkline([0.0, 0.5, 1.0, 0.25], 1.0)
    '▁▅█▃'
    """
    top = top if top > 0 else 1.0
    return "".join(_BARS[min(len(_BARS) - 1, max(0, round(v / top * (len(_BARS) - 1))))] for v in values)


def describe_review(r: Review, title: str | None = None, names: Sequence[str] | None = None) -> Iterator[str]:
    """Yield the review told for people: one line per decision with its mark, each seat's accuracy, and a chart.

    ``names`` name the seats (a record's players: ``DealRecord.seat_names``); by default ``seat N``.
    """
    who = list(names) if names is not None and len(names) == r.players else [f"seat {s}" for s in range(r.players)]
    wide = max(len(w) for w in who)
    kind = r.result_kind
    unit = "loss" if kind == "loss" else "points"
    yield f"{title or r.game}: {r.players} players, {r.actions} actions; {r.outcome}."
    yield (f"Each decision is judged from its seat's own view only: the exact solver where it settles the position, "
           f"else a search of {r.iters} playouts for the best action, then the played and the best actions played "
           f"out in the same {r.worlds} worlds. Figures: {r.measure}, lower is better.")
    low, mid, high = r.thresholds
    yield (f"Marks by the drop less one standard error: inaccuracy from {low:g}, mistake from {mid:g}, "
           f"blunder from {high:g}; a proven blunder loses a safe position.")
    yield ""
    width = max([len(who[d.seat]) + 2 + len(d.played_words) for d in r.decisions] + [10])
    yield f"  {'#':>4}  {'played':{width}}  {'mark':10}  {unit:>6}  {'best':>6}  drop"
    for d in r.decisions:
        drop = ""
        if d.drop > 0:
            drop = f"{_figure(d.drop, kind)}" + ("" if d.exact else f" ± {_figure(d.stderr, kind)}")
        said = f"{who[d.seat]}: {d.played_words}"
        line = (f"  {d.index + 1:>4}  {said:{width}}  {d.mark + ('!' if d.exact and d.mark != 'forced' else ''):10}"
                f"  {_figure(d.played_value, kind):>6}  {_figure(d.best_value, kind):>6}  {drop}")
        if d.mark in ("inaccuracy", "mistake", "blunder"):
            line += f"  better: {d.best_words}"
        yield line.rstrip()
    if any(d.exact for d in r.decisions):
        yield "  (!: proven by the exact solver; figures 0 and 1 are safe and not safe against best play)"
    yield ""
    yield "Accuracy (100: every decision as good as the best found; forced decisions not counted):"
    for s in r.seats:
        acc = f"{s.accuracy:5.1f}" if s.accuracy is not None else "    -"
        counts = ", ".join(_plural(s.marks.get(m, 0), m) for m in MARKS[:4])
        yield f"  {who[s.seat]:{wide}}  {acc}  over {_plural(s.decisions - s.forced, 'decision')} (+{s.forced} forced): {counts}"
    top = 1.0 if kind == "loss" else max([v for s in r.seats for _, v in s.series] + [1.0])
    yield ""
    yield f"{r.measure.capitalize()} after each of the seat's decisions (▁ 0 … █ {_figure(top, kind)}):"
    for s in r.seats:
        yield f"  {who[s.seat]:{wide}}  {sparkline([v for _, v in s.series], top)}"
