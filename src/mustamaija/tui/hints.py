"""``hint``: what to play now, and why, from the person's view only (M22).

In order of preference:

1. the project's analysis library (``mustamaija.analysis.hint``), when installed;
2. the exact solver, once the view pins down every card (talon empty, every
   hand known by counting): a proof that a move is safe, or that none is;
3. the search bot (ISMCTS) on the view, with its estimate of the chance of
   not losing;
4. the heuristic player, with the rule of thumb behind its move.

A hint never looks at cards the person cannot know: the search and the
heuristic act on views, and the solver is used only when the view already
determines every hand.

>>> from mustamaija.game import State
>>> s = State.from_seed(players=3, seed=2)
>>> h = suggest(s, s.to_act, seconds=0.05, use_library=False, use_search=False)
>>> h.source, isinstance(h.action, Lead)
('heuristic', True)
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..cards import QS, SUIT_MASKS, CardSet, cards_of
from ..errors import MustamaijaError
from ..game.actions import Action, Beat, Declare, Lead
from ..game.sampling import sample_state
from ..game.state import DEFEND, LEAD, State
from ..game.view import View
from ..players.base import Player
from .describe import cards_text

__all__ = ["Hint", "action_words", "suggest"]


@dataclass
class Hint:
    """A suggested action (``None`` if there is nothing to suggest), the reasons, and where they come from."""

    action: Action | None
    text: str
    source: str


def action_words(action: Action) -> str:
    """Describe an action in a few words, such as ``"lead 4♥ 9♥"``."""
    if isinstance(action, Lead):
        return f"lead {cards_text(action.cards)}"
    if isinstance(action, Declare):
        return f"declare the marriage in {'SHDC'[action.suit]}"
    if not action.pairs:
        return "pick up everything"
    return "beat " + ", ".join(f"{cards_text(1 << a)} with {cards_text(1 << b)}" for a, b in action.pairs)


def _run_player(state: State, seat: int, player: Player, first: dict[str, Any] | None = None) -> Action:
    """Return the compound action the player builds step by step from the seat's views.

    ``first`` receives the player's ``stats`` after its first decision (the search's estimate of the
    action as a whole; later steps only finish it).
    """
    s = state.copy()
    n0 = s.nlog
    while s.nlog == n0:
        s.apply(player.act(s.view(seat)))
        if first is not None and not first:
            first.update(getattr(player, "stats", {}) or {"none": True})
    return s.actions()[-1]


# -- 1. the analysis library -------------------------------------------------------------------------


def _library(state: State, seat: int, seconds: float) -> Hint | None:
    try:
        module = importlib.import_module("mustamaija.analysis")
    except ImportError:
        return None
    fn: Callable[..., Any] | None = getattr(module, "hint", None)
    if fn is None:
        return None
    # The library is handed a state drawn from the seat's view, so that it cannot see a hidden card
    # even if it looked (M22); once the view knows every card, this is the true position.
    guess = sample_state(state.view(seat), random.Random(0))
    try:
        result = fn(guess, seat=seat, time=seconds)
    except TypeError:
        try:
            result = fn(guess, seat)
        except Exception:
            return None
    except Exception:
        return None
    return _adapt(result, state)


def _adapt(result: Any, state: State) -> Hint | None:
    """Turn whatever the analysis library returns into a :class:`Hint` (best effort)."""
    action = getattr(result, "action", None) or getattr(result, "best", None)
    if action is None:
        candidates = getattr(result, "candidates", None)
        if candidates:
            first = candidates[0]
            action = getattr(first, "action", first)
    if isinstance(action, dict):
        from ..game.actions import action_from_json

        try:
            action = action_from_json(action, state.n)
        except MustamaijaError:
            action = None
    if not isinstance(action, (Lead, Beat, Declare)) or not state.can_play(action):
        return None
    text = ""
    for attr in ("text", "explanation", "why", "summary"):
        value = getattr(result, attr, None)
        if isinstance(value, str) and value:
            text = value
            break
    if not text:
        text = str(result)
    return Hint(action, text, "analysis")


# -- 2. the solver, when the view knows every card ----------------------------------------------------


def _known_hands(view: View) -> list[int] | None:
    if view.talon_size or view.unseen or view.seat is None:
        return None
    hands = list(view.known)
    hands[view.seat] = view.hand
    if any(hands[s].bit_count() != view.hand_sizes[s] for s in range(view.players)):
        return None
    holders = sum(1 for h in hands if h)
    if sum(h.bit_count() for h in hands) > (24 if holders == 2 else 12):
        return None  # Keep the hint quick: bigger positions go to the search bot.
    return hands


def _hero_safe(hands: list[int], attacker: int, hero: int, state: State) -> bool | None:
    """Return whether ``hero`` can make sure of not losing with ``attacker`` to lead (``None``: unknown)."""
    from ..search.solver import solve

    if not hands[hero]:
        return True
    if sum(1 for h in hands if h) <= 1:
        return False
    pos = State.from_position([CardSet(h) for h in hands], attacker, None if state.trump < 0 else state.trump, state.rules)
    result = solve(pos, all_leads=False)
    if attacker == hero:
        return result.attacker_safe
    if sum(1 for h in hands if h) == 2:
        return not result.attacker_safe
    return None


def _solver(state: State, seat: int) -> Hint | None:
    view = state.view(seat)
    hands = _known_hands(view)
    if hands is None or (state.rules.trump == "marriage" and state.declarer == -1):
        return None
    from ..search.solver import solve

    if state.phase == LEAD:
        pos = State.from_position([CardSet(h) for h in hands], seat, None if state.trump < 0 else state.trump, state.rules)
        result = solve(pos)
        if not result.attacker_safe:
            return Hint(None, "The solver proves that no lead makes sure you are not the Mustamaija: against "
                              "best play you lose. Make it hard for them.", "solver")
        lead = Lead(seat, result.safe_leads[0])
        others = [cards_text(m) for m in result.safe_leads[1:]]
        also = f" Other safe leads: {', '.join(others)}." if others else ""
        return Hint(lead, f"The solver proves that {action_words(lead)} makes sure you are not the Mustamaija, "
                          f"whatever the others do.{also}", "solver")
    if state.phase != DEFEND:
        return None
    safe: list[Beat] = []
    unknown = False
    for i, beat in enumerate(state.legal_beats()):
        if i >= 400:
            return None
        after = state.copy()
        after.play(beat)
        if after.is_over:
            ok: bool | None = after.loser != seat
        else:
            ok = _hero_safe(list(after.hands), after.attacker, seat, state)
        if ok is None:
            unknown = True
        elif ok:
            safe.append(beat)
    if unknown and not safe:
        return None
    if not safe:
        return Hint(None, "The solver proves that no defence saves you against best play.", "solver")
    best = max(safe, key=lambda b: len(b.pairs))
    return Hint(best, f"The solver proves that you are safe if you {action_words(best)}"
                      f" ({len(safe)} safe defence{'s' if len(safe) > 1 else ''} in all).", "solver")


# -- 3. the search bot, 4. the heuristic --------------------------------------------------------------


def _search(state: State, seat: int, seconds: float) -> Hint | None:
    try:
        from ..players.registry import make_bot

        bot = make_bot(f"ismcts:time={seconds}", 12345)
    except (ImportError, MustamaijaError):
        return None
    stats: dict[str, Any] = {}
    try:
        action = _run_player(state, seat, bot, stats)
    except Exception:
        return None
    root = stats.get("root") or {}
    iters = stats.get("iterations", 0)
    share = ""
    if root:
        n_total = sum(n for n, _ in root.values())
        best = max(root.items(), key=lambda kv: kv[1][0])
        n, w = best[1]
        if n:
            share = (f" In the deals it imagined, this keeps you from losing about {100 * w / n:.0f}% of the time "
                     f"({n} of {n_total} playouts went this way).")
    why = _why(state, seat, action)
    return Hint(action, f"The search bot ({iters} playouts, from what you can see) would {action_words(action)}."
                        f"{share}{why}", "search")


def _heuristic(state: State, seat: int) -> Hint:
    try:
        from ..players.heuristic import HeuristicPlayer

        player: Player = HeuristicPlayer(seed=0)
    except ImportError:  # pragma: no cover - the heuristic player ships with the package
        from ..players.random import RandomPlayer

        player = RandomPlayer(seed=0)
    action = _run_player(state, seat, player)
    return Hint(action, f"The heuristic player would {action_words(action)}.{_why(state, seat, action)}", "heuristic")


def _why(state: State, seat: int, action: Action) -> str:
    """Return a rule of thumb (RULES.md's strategy notes) that fits the action, if one does."""
    hand = state.hands[seat]
    if isinstance(action, Declare):
        return " Declaring fixes trumps in a suit you hold: the K and Q are trumps in your hand."
    if isinstance(action, Lead):
        k = action.cards.bit_count()
        suit = cards_of(action.cards)[0] // 13
        if state.talon_size:
            if action.cards == hand & SUIT_MASKS[suit] and k > 1:
                return f" Leading the whole suit lets you draw {min(k, state.talon_size)} fresh cards."
            if action.cards >> QS & 1:
                return " Q♠ can never be beaten: leading her early risks seeing her come back."
            return " Early on, shed cards you do not need and keep trumps for the endgame."
        if action.cards >> QS & 1:
            return " Q♠ can never be beaten: she stays with the defender."
        if action.cards == hand:
            return " These are your last cards: you are out the moment you lead them."
        return " In the endgame, lead the smallest cards first, so they cannot be used against your higher ones."
    taken = state.led & ~action.beaten
    if not taken:
        return " Beating everything gives you the lead."
    if not action.pairs:
        return " Beating is never compulsory: keeping your beaters may be worth more than the cards you pick up."
    return ""


def suggest(state: State, seat: int, *, seconds: float = 1.0, use_library: bool = True,
            use_search: bool = True) -> Hint:
    """Return a hint for ``seat``, who must be to act in ``state``; see the module docstring for the sources."""
    if state.is_over or state.to_act != seat:
        raise MustamaijaError("a hint is for the seat to act")
    if use_library:
        hint = _library(state, seat, seconds)
        if hint is not None:
            return hint
    try:
        hint = _solver(state, seat)
    except MustamaijaError:
        hint = None
    if hint is not None:
        if hint.action is not None or not use_search:
            return hint
        fallback = _search(state, seat, seconds) or _heuristic(state, seat)
        return Hint(fallback.action, hint.text + " " + fallback.text, "solver")
    if use_search:
        hint = _search(state, seat, seconds)
        if hint is not None:
            return hint
    return _heuristic(state, seat)
