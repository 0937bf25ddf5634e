"""Hints: what to play now, and why, from one seat's view only (M22).

:func:`hint` looks at the position a record ends in (or a state, or a view)
through the eyes of one seat, by default the seat to act, and judges every
candidate action:

* **Exactly, with the solver**, when the view pins the position down: the
  talon is empty and every hand is known to the seat (with two players this is
  always so, by counting; with more, when the view's ``known`` cards fill
  every hand). Each lead is proved safe or not (safe: the seat makes sure of
  not being the Mustamaija whatever the others do); as defender, each class
  of defences (defences that leave the same position up to renaming cards)
  is proved safe or not. With ``method="auto"`` this is done up to
  :data:`MAX_EXACT_TWO` cards in hand with two holders and
  :data:`MAX_EXACT_MORE` with more (bigger positions could take the solver
  long, so they are sampled); ``method="solver"`` always uses it.
* **By sampling** otherwise: ``iters`` worlds are dealt from the view
  (:func:`~mustamaija.games.mustamaija.sampling.sample_state`, the cards the seat cannot
  see dealt uniformly over the places it cannot see into), every candidate
  is played in each world and the deal is played out by the heuristic for
  every seat (:func:`mustamaija.games.mustamaija.players.pimc.playout`, as the ``pimc``
  search bot does), the same random numbers for every candidate in a world (common
  random numbers, so that differences between candidates are not noise from
  the worlds). The result is each candidate's expected loss rate with its
  standard error. Candidates are the legal leads, or the legal defences,
  merged where they are equivalent (leads: only the lowest cards of a run
  of the seat's hand with no card between that may still be in play;
  defences: beaters with no such card between them, which give the same
  position up to renaming) and capped at ``max_candidates`` by a simple
  preference order.
* ``method="pimc"`` (what ``"auto"`` does when the solver cannot settle the
  position) asks the strongest search bot (:mod:`mustamaija.games.mustamaija.players.pimc`):
  its candidate actions, each played out by the heuristic for every seat in
  worlds dealt from the view, the budget spent by sequential halving. Each
  candidate gets the seat's loss rate over its playouts; the bot's choice
  comes first. (A marriage that could be declared now, or an action already
  begun, goes to ``"ismcts"``.)
* ``method="ismcts"`` asks the ISMCTS search bot (:mod:`mustamaija.games.mustamaija.players.ismcts`)
  instead. It decides card by card, so its statistics are per first step of
  the action: each step's visit count and the loss rate of the seat
  (1 - mean reward) below it.

Nothing here reads a card the seat cannot see: the exact path starts from a
view that determines every hand, the sampled path from worlds dealt from the
view; with a fixed ``seed`` and no ``time`` limit, the same view gives the
same hint whatever the hidden cards are.

>>> from mustamaija import State
>>> s = State.from_position([["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], attacker=0, trump_suit=3)
>>> h = hint(s)
>>> h.method, h.exact, str(h.action)
('solver', True, 'seat 0 leads 3C AC')
>>> sorted(" ".join(c.names()) for c in h.candidates if c.safe)
['3C', '3C AC', '5H 6H', 'QS']
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from mustamaija.core.cards import ALL_CARDS, QS, SUIT_MASKS, card_name, cards_of
from mustamaija.core.errors import MustamaijaError
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import DECLARE, Action, Beat, Declare, Lead, step_name
from mustamaija.games.mustamaija.players.pimc import playout
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.sampling import sample_state
from mustamaija.games.mustamaija.solver import Solver
from mustamaija.games.mustamaija.state import DEFEND, LEAD, State
from mustamaija.games.mustamaija.view import View

__all__ = ["DEFAULT_ITERS", "MAX_EXACT_MORE", "MAX_EXACT_TWO", "Candidate", "HintResult", "describe_candidates", "hint"]

DEFAULT_ITERS: Final = 200
"""Sampled worlds per hint (each candidate is played out once in each)."""

DEFAULT_MAX_CANDIDATES: Final = 24
MAX_EXACT_TWO: Final = 20
"""The solver is used for two holders up to this many cards in hand (beyond, sampling: the solver could take long)."""
MAX_EXACT_MORE: Final = 9
"""The solver is used for three or more holders up to this many cards in hand."""
_MAX_DEFENCES: Final = 100_000

_SUIT_WORDS: Final = ("spades", "hearts", "diamonds", "clubs")


@dataclass(frozen=True)
class Candidate:
    """One candidate action (or, with ``method="ismcts"``, first step) and its verdict.

    ``actions`` is the action, preceded by a marriage declaration when one is
    part of it; ``also`` lists actions of the same class (equivalent to
    this one). ``safe`` is the solver's proof (exact hints); ``loss_rate``
    and ``stderr`` are the sampled estimate of the chance that the seat ends
    up the loser, over ``samples`` worlds; ``visits`` is the search bot's
    count.
    """

    actions: tuple[Action, ...] = ()
    safe: bool | None = None
    loss_rate: float | None = None
    stderr: float | None = None
    samples: int = 0
    visits: int | None = None
    step: int | None = None
    also: tuple[tuple[Action, ...], ...] = ()

    @property
    def action(self) -> Action | None:
        """Return the first action to take (a declaration, when the candidate starts with one)."""
        return self.actions[0] if self.actions else None

    def names(self) -> list[str]:
        """Return the cards of the candidate's lead, or of its beating cards, in rising order."""
        for a in self.actions:
            if isinstance(a, Lead):
                return [card_name(c) for c in cards_of(a.cards)]
            if isinstance(a, Beat):
                return [f"{card_name(t)}:{card_name(b)}" for t, b in a.pairs]
        return []

    def words(self) -> str:
        """Return the candidate in a few words, such as ``"lead 3♣ A♣"``."""
        if self.step is not None and not self.actions:
            return f"first step {step_name(self.step)}"
        return "; then ".join(_action_words(a) for a in self.actions)

    def to_json(self) -> dict[str, Any]:
        """Return the candidate as a JSON object (only the keys that apply)."""
        out: dict[str, Any] = {}
        if self.actions:
            out["actions"] = [a.to_json() for a in self.actions]
        if self.step is not None:
            out["step"] = step_name(self.step)
        if self.safe is not None:
            out["safe"] = self.safe
        if self.loss_rate is not None:
            out["loss_rate"] = round(self.loss_rate, 4)
            out["stderr"] = round(self.stderr or 0.0, 4)
            out["samples"] = self.samples
        if self.visits is not None:
            out["visits"] = self.visits
        if self.also:
            out["also"] = [[a.to_json() for a in group] for group in self.also]
        return out


@dataclass
class HintResult:
    """The hint: the seat, how the candidates were judged, the candidates best first, and an explanation."""

    seat: int
    phase: str
    method: str
    exact: bool
    candidates: list[Candidate]
    text: str
    worlds: int = 0
    seconds: float = 0.0
    dropped: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> Candidate | None:
        """Return the recommended candidate."""
        return self.candidates[0] if self.candidates else None

    @property
    def action(self) -> Action | None:
        """Return the first action to take now (a declaration when the best candidate starts with one)."""
        best = self.best
        return best.action if best is not None else None

    def to_json(self) -> dict[str, Any]:
        """Return the hint as a JSON object."""
        best = self.best
        out: dict[str, Any] = {
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
            out["dropped"] = self.dropped
        out["seconds"] = round(self.seconds, 3)
        out.update(self.extra)
        return out


def _cards_text(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask))


def _action_words(a: Action) -> str:
    if isinstance(a, Lead):
        return f"lead {_cards_text(a.cards)}"
    if isinstance(a, Declare):
        return f"declare the marriage in {_SUIT_WORDS[a.suit]}"
    if not a.pairs:
        return "pick up everything"
    return "beat " + ", ".join(f"{card_name(t)} with {card_name(b)}" for t, b in a.pairs)


# -- the entry point ------------------------------------------------------------------------------


def hint(
    target: Record | State | View,
    seat: int | None = None,
    budget: int | None = None,
    *,
    iters: int | None = None,
    time: float | None = None,
    seed: int = 0,
    method: str = "auto",
    max_candidates: int = DEFAULT_MAX_CANDIDATES,
) -> HintResult:
    """Return what ``seat`` (default: the seat to act) should play now, and why (see the module docstring).

    ``target`` is a record (its final position), a state or the seat's view.
    ``budget`` (or ``iters``) is the number of sampled worlds, or of search
    iterations with ``method="ismcts"``; ``time`` caps the seconds spent
    (then the result may depend on the machine's speed). ``method`` is
    ``"auto"`` (the solver when the view determines every hand, else
    ``"pimc"``), ``"solver"``, ``"pimc"``, ``"sampled"`` or ``"ismcts"``.
    """
    start = _time.perf_counter()
    view = _view_of(target, seat)
    assert view.seat is not None
    if method not in ("auto", "solver", "pimc", "sampled", "ismcts"):
        raise MustamaijaError(f"unknown hint method {method!r}: expected auto, solver, pimc, sampled or ismcts")
    n_iters = iters if iters is not None else budget
    if n_iters is not None and n_iters < 1:
        raise MustamaijaError(f"the budget must be at least 1, got {n_iters}")
    hands = _known_hands(view)
    if method == "solver" and hands is None:
        raise MustamaijaError("the solver needs a talon-empty position where the seat knows every hand")
    if method in ("auto", "solver") and hands is not None and (method == "solver" or _small_enough(hands)):
        result = _exact(view, hands)
    elif method == "sampled":
        result = _sampled(view, n_iters or DEFAULT_ITERS, time, seed, max_candidates)
    elif method in ("auto", "pimc") and _pimc_can(view):
        result = _pimc(view, n_iters, time, seed)
    else:
        result = _ismcts(view, n_iters, time, seed)
    result.seconds = _time.perf_counter() - start
    return result


def _view_of(target: Record | State | View, seat: int | None) -> View:
    if isinstance(target, View):
        if seat is not None and seat != target.seat:
            raise MustamaijaError(f"this is seat {target.seat}'s view, not seat {seat}'s")
        view = target
    else:
        state = target.replay() if isinstance(target, Record) else target
        if state.is_over:
            why = "stopped unfinished (M21)" if state.stopped else f"over: seat {state.loser} lost"
            raise MustamaijaError(f"the deal is {why}: there is nothing to play")
        if seat is None:
            seat = state.to_act
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n:
            raise MustamaijaError(f"no seat {seat!r} with {state.n} players")
        view = state.view(seat)  # From here on only the view is used.
    if view.is_over:
        raise MustamaijaError("the deal is over: there is nothing to play")
    if view.seat is None or view.seat != view.to_act:
        role = "lead" if view.phase == LEAD else "defend"
        raise MustamaijaError(f"seat {view.seat} is not to act: seat {view.to_act} is to {role}")
    if (view.phase == LEAD and view.sel) or (view.phase == DEFEND and view.rem != view.led):
        raise MustamaijaError("the seat is part way through a card-at-a-time action: a hint starts between actions")
    return view


def _known_hands(view: View) -> tuple[int, ...] | None:
    """Return every hand when the view determines them (talon empty, every card placed), else ``None``."""
    if view.talon_size or view.unseen or view.seat is None:
        return None
    hands = list(view.known)
    hands[view.seat] = view.hand
    if any(hands[s].bit_count() != view.hand_sizes[s] for s in range(view.players)):
        return None
    return tuple(hands)


def _small_enough(hands: tuple[int, ...]) -> bool:
    holders = sum(1 for h in hands if h)
    total = sum(h.bit_count() for h in hands)
    return total <= (MAX_EXACT_TWO if holders <= 2 else MAX_EXACT_MORE)


def _state_of(view: View) -> State:
    """Return a state consistent with the view (the only one, when the view determines every hand)."""
    return sample_state(view, random.Random(0))


# -- exact hints ---------------------------------------------------------------------------------


def _exact(view: View, hands: tuple[int, ...]) -> HintResult:
    st = _state_of(view)
    seat = st.to_act
    solver = Solver(st.rules, st.trump, st.n)
    if st.phase == LEAD:
        return _exact_lead(st, solver, seat)
    return _exact_defence(st, solver, seat)


def _exact_lead(st: State, solver: Solver, seat: int) -> HintResult:
    hands = tuple(st.hands)
    safe = set(solver.safe_leads(hands, seat))
    order = {m: i for i, m in enumerate(solver.leads(hands[seat], hands[st.defender], _others(hands, seat)))}
    cands = [Candidate((Lead(seat, m),), safe=m in safe) for m in L.iter_leads(hands[seat], st.limit)]
    cands.sort(key=lambda c: (not c.safe, order.get(_lead_mask(c), len(order)), _lead_mask(c).bit_count()))
    decls = []
    for s in solver._declarable(hands[seat]):
        after = solver.sub(s).safe_leads(hands, seat, all_leads=False)
        decls.append(Candidate((Declare(seat, s),), safe=bool(after)))
    if decls and not safe:
        cands = sorted(decls, key=lambda c: not c.safe) + cands
    else:
        cands += decls
    n_safe = sum(1 for c in cands if c.safe)
    best = cands[0]
    if best.safe:
        text = (f"Exact: the talon is empty and seat {seat} knows every hand, so the solver decides. "
                f"{n_safe} of {len(cands)} candidate{'s' if len(cands) != 1 else ''} make sure seat {seat} is not the "
                f"Mustamaija, whatever the others do; {best.words()} is one of them.")
    else:
        text = (f"Exact: the talon is empty and seat {seat} knows every hand, so the solver decides. "
                f"No lead makes sure seat {seat} is not the Mustamaija: against best play the others can force "
                "it, so the hint can only hope they go wrong.")
    return HintResult(seat, "lead", "solver", True, cands, text)


def _lead_mask(c: Candidate) -> int:
    a = c.actions[-1]
    return a.cards if isinstance(a, Lead) else 0


def _others(hands: tuple[int, ...], seat: int) -> int:
    m = 0
    for s, h in enumerate(hands):
        if s != seat:
            m |= h
    return m


def _outcome_safe(solver: Solver, t: State, seat: int) -> bool:
    if t.is_over:
        return t.loser != seat
    if not t.hands[seat]:
        return True
    return solver.safe(tuple(t.hands), t.attacker, seat)


def _exact_defence(st: State, solver: Solver, seat: int) -> HintResult:
    classes: dict[object, list[tuple[Action, ...]]] = {}
    verdict: dict[object, bool] = {}
    options: list[tuple[Solver, tuple[Action, ...]]] = [(solver, ())]
    for s in solver._declarable(st.hands[seat]):
        options.append((solver.sub(s), (Declare(seat, s),)))
    for sv, prefix in options:
        base = st.copy()
        for a in prefix:
            base.play(a)
        seen: set[tuple[int, int]] = set()
        for i, pairs in enumerate(L.iter_beats(base.hands[seat], base.led, base.trump)):
            if i >= _MAX_DEFENCES:
                raise MustamaijaError(f"too many defences to judge one by one (more than {_MAX_DEFENCES})")
            beat = Beat(seat, pairs)
            sig = (beat.beaten, beat.beaters)
            if sig in seen:
                continue
            seen.add(sig)
            t = base.copy()
            t.play(beat)
            if t.is_over or not t.hands[seat]:
                key: object = (prefix, "end", t.loser == seat)
            else:
                key = (prefix, sv.trump, sv.key(tuple(t.hands), t.attacker, seat))
            if key not in verdict:
                verdict[key] = _outcome_safe(sv, t, seat)
                classes[key] = []
            classes[key].append((*prefix, beat))
    cands = []
    for key, group in classes.items():
        group.sort(key=lambda acts: len(acts[-1].pairs) if isinstance(acts[-1], Beat) else 0, reverse=True)
        cands.append(Candidate(group[0], safe=verdict[key], also=tuple(group[1:])))
    cands.sort(key=lambda c: (not c.safe, len(c.actions), -_beaten(c)))
    n_safe = sum(1 for c in cands if c.safe)
    best = cands[0]
    head = f"Exact: the talon is empty and seat {seat} knows every hand, so the solver decides. "
    if best.safe:
        text = (head + f"{n_safe} of {len(cands)} classes of defence (defences leaving the same position up to "
                f"renaming cards) keep seat {seat} safe whatever the others do; {best.words()} is one of them.")
    else:
        text = head + f"No defence keeps seat {seat} safe against best play: the others can force seat {seat} to lose."
    return HintResult(seat, "defend", "solver", True, cands, text)


def _beaten(c: Candidate) -> int:
    a = c.actions[-1]
    return len(a.pairs) if isinstance(a, Beat) else 0


# -- sampled hints ---------------------------------------------------------------------------------


def _runs_lowest(hand_suit: int, others: int) -> list[list[int]]:
    runs: list[list[int]] = []
    last = -1
    for c in cards_of(hand_suit):
        if c == QS:
            runs.append([c])
            last = -1
        elif last >= 0 and not others & ((1 << c) - (2 << last)):
            runs[-1].append(c)
            last = c
        else:
            runs.append([c])
            last = c
    return runs


def _lead_candidates(view: View) -> tuple[list[tuple[Action, ...]], list[list[tuple[Action, ...]]], int]:
    """Return the lead candidates (lowest cards of each run), the leads each stands for, and how many were dropped."""
    seat = view.seat
    assert seat is not None
    hand = view.hand
    maybe = ALL_CARDS & ~hand & ~view.discard & ~(1 << QS)  # Cards that may still be in play elsewhere.
    groups: dict[int, list[tuple[Action, ...]]] = {}
    for m in L.iter_leads(hand, view.limit):
        suit = (m.bit_length() - 1) // 13
        rep = m & (1 << QS)
        for run in _runs_lowest(hand & SUIT_MASKS[suit] & ~(1 << QS), maybe):
            k = sum(1 for c in run if m >> c & 1)
            for c in run[:k]:
                rep |= 1 << c
        groups.setdefault(rep, []).append((Lead(seat, m),))
    reps = list(groups)
    # Preference order for the cap: whole suits first, then bigger leads, then lower cards.
    reps.sort(key=lambda m: (-(m == hand & SUIT_MASKS[(m.bit_length() - 1) // 13]), -m.bit_count(), m))
    decl = L.declarable_suits(view.rules, hand, view.declarer)
    out: list[tuple[Action, ...]] = [(Declare(seat, s),) for s in range(4) if decl >> s & 1]
    also: list[list[tuple[Action, ...]]] = [[] for _ in out]
    for m in reps:
        out.append((Lead(seat, m),))
        also.append([g for g in groups[m] if g[0] != Lead(seat, m)])
    return out, also, 0


def _defence_groups(view: View, trump: int, prefix: tuple[Action, ...]) -> list[tuple[tuple[Action, ...], list[tuple[Action, ...]]]]:
    """Return the defences under ``trump`` merged by equivalent beaters, most promising first, each with its group."""
    seat = view.seat
    assert seat is not None
    hand = view.hand
    maybe = ((ALL_CARDS & ~hand & ~view.discard) | view.led) & ~(1 << QS)
    groups: dict[tuple[int, int], list[tuple[Action, ...]]] = {}
    for i, pairs in enumerate(L.iter_beats(hand, view.led, trump)):
        if i >= _MAX_DEFENCES:
            break
        beat = Beat(seat, pairs)
        beaters = beat.beaters
        # Beaters with no card that may be in play between them are interchangeable: keep the lowest ones.
        lowest = 0
        for suit in range(4):
            used = beaters & SUIT_MASKS[suit]
            if not used:
                continue
            for run in _runs_lowest(hand & SUIT_MASKS[suit] & ~(1 << QS), maybe):
                n = sum(1 for c in run if used >> c & 1)
                for c in run[:n]:
                    lowest |= 1 << c
        groups.setdefault((beat.beaten, lowest), []).append((*prefix, beat))
    keys = sorted(groups, key=lambda k: (-(k[0] == view.led), -k[0].bit_count(), k[1].bit_count(), k))
    out: list[tuple[tuple[Action, ...], list[tuple[Action, ...]]]] = []
    for key in keys:
        group = groups[key]
        group.sort(key=lambda acts: acts[-1].pairs if isinstance(acts[-1], Beat) else ())
        first = next((g for g in group if isinstance(g[-1], Beat) and g[-1].beaters == key[1]), group[0])
        out.append((first, [g for g in group if g is not first]))
    return out


def _defence_candidates(view: View) -> tuple[list[tuple[Action, ...]], list[list[tuple[Action, ...]]], int]:
    """Return the defence candidates (and declarations followed by defences under the new trumps)."""
    seat = view.seat
    assert seat is not None
    pairs = _defence_groups(view, view.trump, ())
    decl = L.declarable_suits(view.rules, view.hand, view.declarer)
    for s in range(4):
        if decl >> s & 1:
            pairs += _defence_groups(view, s, (Declare(seat, s),))[:4]
    return [p[0] for p in pairs], [p[1] for p in pairs], 0


def _sampled(view: View, iters: int, seconds: float | None, seed: int, max_candidates: int) -> HintResult:
    seat = view.seat
    assert seat is not None
    if view.phase == LEAD:
        cands, also, _ = _lead_candidates(view)
    else:
        cands, also, _ = _defence_candidates(view)
    dropped = max(0, len(cands) - max_candidates)
    cands, also = cands[:max_candidates], also[:max_candidates]
    losses = [0] * len(cands)
    deadline = _time.perf_counter() + seconds if seconds is not None else math.inf
    worlds = 0
    world_rng = random.Random(f"hint:{seed}")
    for w in range(iters):
        if w >= 4 and _time.perf_counter() >= deadline:
            break
        world = sample_state(view, world_rng)
        roll_seed = world_rng.getrandbits(48)
        for i, acts in enumerate(cands):
            t = world.copy()
            for a in acts:
                t.play(a)
            playout(t, random.Random(roll_seed))
            losses[i] += t.loser == seat
        worlds += 1
    out = []
    for i, acts in enumerate(cands):
        p = losses[i] / worlds
        se = math.sqrt(p * (1 - p) / (worlds - 1)) if worlds > 1 else 1.0
        out.append(Candidate(acts, loss_rate=p, stderr=se, samples=worlds, also=tuple(also[i])))
    order = sorted(range(len(out)), key=lambda i: (out[i].loss_rate, i))
    ranked = [out[i] for i in order]
    best = ranked[0]
    text = (f"Estimate: seat {seat} cannot see every card, so {worlds} worlds were dealt from its view "
            f"(the unseen cards at random) and {_count(len(ranked), 'candidate')} played out in every world "
            f"by the heuristic for every seat. Best: {best.words()}, loss rate {best.loss_rate:.2f} ± {best.stderr:.2f}"
            + (f"; runner-up {ranked[1].words()}, {ranked[1].loss_rate:.2f} ± {ranked[1].stderr:.2f}" if len(ranked) > 1 else "")
            + "." + (f" ({dropped} further candidates were not tried.)" if dropped else ""))
    return HintResult(seat, "lead" if view.phase == LEAD else "defend", "sampled", False, ranked, text,
                      worlds=worlds, dropped=dropped)


def _count(n: int, word: str) -> str:
    return f"the only {word} was" if n == 1 else f"each of the {n} {word}s was"


# -- the search bots -------------------------------------------------------------------------------


DEFAULT_PIMC_ITERS: Final = 1000
"""Playouts of a ``pimc`` hint without a time limit (about a second on one core)."""


def _pimc_can(view: View) -> bool:
    """Return whether the pimc search can judge the view: at the start of an action, with no declaration to make."""
    if view.legal_mask() >> DECLARE:
        return False
    return not view.in_progress


def _pimc(view: View, iters: int | None, seconds: float | None, seed: int) -> HintResult:
    """Run the pimc search bot's candidates and playouts on the view; every candidate keeps its own statistics."""
    from mustamaija.games.mustamaija.players.heuristic import candidate_plans
    from mustamaija.games.mustamaija.players.pimc import rollouts, sequential_halving

    seat = view.seat
    assert seat is not None
    plans, mine = candidate_plans(view)
    budget = iters if iters is not None else (None if seconds is not None else DEFAULT_PIMC_ITERS)
    calls = [0]

    def run(arms: list[int], samples: int, secs: float | None) -> tuple[list[float], int]:
        calls[0] += 1
        return rollouts(view, [plans[a] for a in arms], seat, samples, seed * 7919 + calls[0], secs)

    best, stats = sequential_halving(run, len(plans), plans.index(mine), budget, seconds)
    cands = []
    for a, plan in enumerate(plans):
        n, w = stats[a]
        action: Action = Lead(seat, plan) if isinstance(plan, int) else Beat(seat, plan)
        rate = 1.0 - w / n if n else None
        cands.append(Candidate(actions=(action,), loss_rate=rate, stderr=_stderr(rate, n) if rate is not None else None,
                               samples=n, visits=n))
    chosen = cands[best]
    cands.sort(key=lambda c: (c is not chosen, -(c.visits or 0), c.loss_rate if c.loss_rate is not None else 2.0))
    done = sum(n for n, _ in stats.values())
    phase = "lead" if view.phase == LEAD else "defend"
    moves = "its only candidate move" if len(plans) == 1 else f"each of {len(plans)} candidate moves"
    text = (f"Search: the search bot (pimc) ran {done} playouts from seat {seat}'s view: {moves} "
            f"played out by the heuristic for every seat, in worlds with the cards "
            f"seat {seat} cannot see dealt at random, so it uses nothing hidden. It would {chosen.words()}")
    if chosen.loss_rate is not None:
        text += (f": in its {chosen.visits} playouts seat {seat} ended up the Mustamaija about "
                 f"{100 * chosen.loss_rate:.0f}% of the time (± {100 * (chosen.stderr or 0):.0f})")
    runner = next((c for c in cands[1:] if c.loss_rate is not None), None)
    if runner is not None:
        text += f"; next, {runner.words()}: {100 * (runner.loss_rate or 0):.0f}% over {runner.visits} playouts"
    text += (". The moves that look worse are dropped after fewer playouts (sequential halving), so the counts "
             "show where the search looked hardest; the rates are estimates.")
    return HintResult(seat, phase, "pimc", False, cands, text, worlds=done, extra={"iterations": done})


def _ismcts(view: View, iters: int | None, seconds: float | None, seed: int) -> HintResult:
    """Run the search bot's ISMCTS on the view and read whole actions, with their statistics, off its tree."""
    try:
        from mustamaija.games.mustamaija.players.ismcts import Determiniser, SearchConfig, grow_tree
    except ImportError:
        raise MustamaijaError("the search bot (mustamaija.games.mustamaija.players.ismcts) is not available") from None
    seat = view.seat
    assert seat is not None
    rng = random.Random(seed)
    det = Determiniser(view)
    root: dict[int, Any] = {}
    budget = iters if iters is not None else (None if seconds is not None else DEFAULT_SEARCH_ITERS)
    done, _ = grow_tree(lambda: det.draw(rng), root, SearchConfig(), rng, budget, seconds)
    base = _state_of(view)  # Only the seat's own cards decide how its action goes on; the rest is never read.
    paths = list(_tree_actions(root, base, seat, base.nlog))
    greedy = _greedy_actions(root, base, seat, base.nlog)
    cands = [Candidate(actions=acts, visits=n, loss_rate=1.0 - w / n, stderr=_stderr(1.0 - w / n, n), samples=n,
                       step=first) for acts, n, w, first in paths]
    cands.sort(key=lambda c: (c.actions != greedy, -(c.visits or 0), c.loss_rate or 0.0))
    if not cands or cands[0].actions != greedy:
        cands.insert(0, Candidate(actions=greedy, step=max(root, key=lambda k: root[k].n) if root else None))
    phase = "lead" if view.phase == LEAD else "defend"
    best = cands[0]
    text = (f"Search: the search bot (ISMCTS) ran {done} playouts from seat {seat}'s view, each in a world with the "
            f"cards it cannot see dealt at random, so it uses nothing hidden. It would {best.words()}")
    if best.loss_rate is not None:
        text += (f": in the {best.visits} playouts through that move, seat {seat} ended up the Mustamaija about "
                 f"{100 * best.loss_rate:.0f}% of the time (± {100 * (best.stderr or 0):.0f})")
    lead = greedy[0] if len(greedy) == 1 and isinstance(greedy[0], Lead) else None
    if lead is not None and (best.visits or 0) < max(c.visits or 0 for c in cands):
        step = (lead.cards & -lead.cards).bit_length() - 1  # A lead is chosen lowest card first.
        text += (f". It decides card by card: {card_name(step)} is its most searched first card "
                 f"({root[step].n} playouts in all), and this is its most searched way on from there")
    runner = next((c for c in cands[1:] if c.loss_rate is not None), None)
    if runner is not None:
        text += (f"; next, {runner.words()}: {100 * (runner.loss_rate or 0):.0f}% over {runner.visits} playouts")
    text += (". The search spends its playouts on the moves that look best, so the counts show its confidence; "
             "playouts end in its evaluation after a few turns, so the rates are estimates.")
    return HintResult(seat, phase, "ismcts", False, cands, text, worlds=done, extra={"iterations": done})


DEFAULT_SEARCH_ITERS: Final = 4000
"""Search iterations of a hint without a time limit (about half a second for four players)."""


def _stderr(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 0.0) / (n - 1)) if n > 1 else 1.0


def _completes(st: State, seat: int, n0: int) -> bool:
    """Return whether the seat's action is complete: a lead or a defence logged (a declaration is not the end)."""
    if st.is_over or st.to_act != seat:
        return True
    return st.nlog > n0 and not st.in_progress and not isinstance(st.actions()[-1], Declare)


def _tree_actions(node: dict[int, Any], st: State, seat: int, n0: int,
                  first: int = -1) -> Iterable[tuple[tuple[Action, ...], int, float, int]]:
    """Yield every whole action the tree has tried from ``st``: the visits and value of its last step, its first step."""
    from mustamaija.games.mustamaija.players.ismcts import state_context

    legal = st.legal_mask()
    for step in sorted(node):
        edge = node[step]
        if not legal >> step & 1 or not edge.n:
            continue
        t = st.copy()
        t.apply(step)
        root_step = step if first < 0 else first
        if _completes(t, seat, n0):
            yield tuple(t.actions()[n0:]), edge.n, edge.w, root_step
        else:
            yield from _tree_actions(edge.kids.get(state_context(t), {}), t, seat, n0, root_step)


def _greedy_actions(node: dict[int, Any], st: State, seat: int, n0: int) -> tuple[Action, ...]:
    """Return the action the search bot plays: the most visited step at every decision (its rule, ties alike)."""
    from mustamaija.games.mustamaija.players.ismcts import best_step, state_context

    t = st.copy()
    rollout_rng = random.Random(0)
    while not _completes(t, seat, n0):
        legal = t.legal_mask()
        stats = {s: (e.n, e.w) for s, e in node.items() if legal >> s & 1 and e.n}
        if stats:
            step = best_step(stats)
            edge = node[step]
            t.apply(step)
            node = edge.kids.get(state_context(t), {})
        else:  # Never searched this deep: finish the action as the search's rollout policy would.
            from mustamaija.games.mustamaija.players.ismcts_policy import fast_step

            step = fast_step(t, rollout_rng)
            t.apply(step if legal >> step & 1 else (legal & -legal).bit_length() - 1)
            node = {}
    return tuple(t.actions()[n0:])


def describe_candidates(result: HintResult, limit: int = 12) -> Iterable[str]:
    """Yield lines listing the candidates for people."""
    shown = result.candidates[:limit]
    for c in shown:
        if c.safe is not None:
            verdict = "safe" if c.safe else "not safe"
            extra = f" (and {len(c.also)} equivalent)" if c.also else ""
            yield f"  {c.words():40} {verdict}{extra}"
        elif c.visits is not None:
            rate = f"  loss rate {c.loss_rate:.2f} ± {c.stderr or 0.0:.2f}" if c.loss_rate is not None else ""
            yield f"  {c.words():40} {c.visits:6d} playouts{rate}"
        elif c.loss_rate is not None:
            yield f"  {c.words():40} loss rate {c.loss_rate:.2f} ± {c.stderr or 0.0:.2f}"
        else:
            yield f"  {c.words()}"
    if len(result.candidates) > limit:
        yield f"  … and {len(result.candidates) - limit} more"

