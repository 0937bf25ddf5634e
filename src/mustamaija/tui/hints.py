"""``hint`` in the game: what to play now, and why, from the person's view only (M22).

The judging is :func:`mustamaija.games.mustamaija.analysis.hint`, handed the person's
:class:`~mustamaija.games.mustamaija.view.View` (never the state):

* the exact solver, when the view pins down every card (the talon is empty
  and every hand is known, as it always is with two players left): each
  candidate is proved safe or not;
* else the search bot (ISMCTS) on the view: each whole move it tried, with
  its estimated chance of losing and the number of playouts behind it.

This module words the result for the hint dialog, adds a rule of thumb
for the suggested move, and falls back to the heuristic player if the
search cannot run.

>>> from mustamaija.games.mustamaija import State
>>> s = State.from_position([["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], attacker=0, trump_suit=3)
>>> h = suggest(s, 0)
>>> h.source, action_words(h.action)
('solver', 'lead 3♣ A♣')
>>> print(h.text.splitlines()[0])
**Proved by the exact solver**: the talon is empty and you know every hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mustamaija.core.cards import QS, SUIT_MASKS, SUIT_SYMBOLS, card_symbol, cards_of
from mustamaija.core.errors import MustamaijaError
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import STOP, Action, Beat, Declare, Lead
from mustamaija.games.mustamaija.analysis import Candidate, HintResult, hint
from mustamaija.games.mustamaija.state import LEAD, State
from mustamaija.games.mustamaija.view import View
from mustamaija.tui.describe import cards_text

__all__ = ["Hint", "action_words", "suggest"]

_SHOWN = 8
"""Candidates listed in the dialog."""
_FIXED_PLAYOUTS = 200
"""Playouts of a hint asked for with no time limit."""


@dataclass
class Hint:
    """A suggested action (``None`` if there is nothing to suggest), the reasons in Markdown, and their source."""

    action: Action | None
    text: str
    source: str
    result: HintResult | None = field(default=None, repr=False)
    header: tuple[str, ...] = ()
    rows: list[tuple[str, ...]] = field(default_factory=list)
    """The candidates as a table (the dialog draws it under the text)."""
    note: str = ""
    """A rule of thumb for the suggested move (under the table)."""


def action_words(action: Action | None) -> str:
    """Describe an action in a few words, such as ``"lead 4♥ 9♥"``."""
    if action is None:
        return "nothing"
    if isinstance(action, Lead):
        return f"lead {cards_text(action.cards)}"
    if isinstance(action, Declare):
        return f"declare the marriage in {SUIT_SYMBOLS[action.suit]}"
    if not action.pairs:
        return "pick up everything"
    return "beat " + ", ".join(f"{cards_text(1 << a)} with {cards_text(1 << b)}" for a, b in action.pairs)


def _move_words(c: Candidate) -> str:
    return ", then ".join(action_words(a) for a in c.actions) or "?"


def suggest(state: State, seat: int, *, seconds: float = 1.0, seed: int = 0) -> Hint:
    """Return a hint for ``seat``, who must be to act in ``state``; only the seat's view is looked at.

    The search runs for ``seconds``, or (with 0) a fixed number of playouts.
    """
    if state.is_over or state.to_act != seat:
        raise MustamaijaError("a hint is for the seat to act")
    view = state.view(seat)
    try:
        # With no time limit, a fixed number of playouts: the same hint on every machine.
        result = hint(view, time=seconds, seed=seed) if seconds > 0 else hint(view, iters=_FIXED_PLAYOUTS, seed=seed)
    except MustamaijaError:
        return _heuristic(view)
    return _worded(result, view)


def _worded(result: HintResult, view: View) -> Hint:
    best = result.best
    action = best.action if best is not None else None
    lines: list[str] = []
    rows: list[tuple[str, ...]] = []
    if result.exact:
        n_safe = sum(1 for c in result.candidates if c.safe)
        lines.append("**Proved by the exact solver**: the talon is empty and you know every hand.")
        lines.append("")
        if best is not None and best.safe:
            words = _move_words(best)
            lines.append(f"**{words[0].upper() + words[1:]}** makes sure you are not the Mustamaija, whatever "
                         f"the others do ({n_safe} of {len(result.candidates)} moves do).")
        else:
            lines.append("No move makes sure you escape: against best play you are the Mustamaija. "
                         f"The suggestion, **{_move_words(best) if best else 'nothing'}**, only hopes they go wrong.")
        header: tuple[str, ...] = ("move", "against best play")
        for c in result.candidates[:_SHOWN]:
            same = f" (+{len(c.also)} alike)" if c.also else ""
            rows.append((_move_words(c) + same, "safe ✓" if c.safe else "you lose"))
        more = len(result.candidates) - _SHOWN
        source = "solver"
    else:
        lines.append(f"**The search bot would {_move_words(best) if best else 'pass'}.** It ran {result.worlds} "
                     "playouts from your view, each with the cards you cannot see dealt at random: it uses "
                     "nothing hidden.")
        lines.append("")
        rated = [c for c in result.candidates if c.loss_rate is not None]
        if best is not None and best.loss_rate is not None:
            lines.append(f"Through that move you ended up the Mustamaija in about **{100 * best.loss_rate:.0f}%** "
                         f"of {best.visits} playouts.{_card_by_card(best, rated, view)} The search gives most playouts to "
                         "the moves that look best, so the rates are estimates.")
        header = ("move", "chance of losing", "playouts")
        for c in rated[:_SHOWN]:
            rows.append((_move_words(c), f"{100 * (c.loss_rate or 0):.0f}% ± {100 * (c.stderr or 0):.0f}",
                         str(c.visits)))
        more = len(rated) - _SHOWN
        source = "search"
    if more > 0:
        rows.append((f"… and {more} more", *[""] * (len(header) - 1)))
    why = _why(view, best.actions[-1]) if best is not None and best.actions else ""
    return Hint(action, "\n".join(lines), source, result, header, rows, why)


def _card_by_card(best: Candidate, rated: list[Candidate], view: View) -> str:
    """Explain a suggestion with fewer playouts than another move: the bot decides one card (one step) at a time."""
    if best.step is None or (best.visits or 0) >= max(c.visits or 0 for c in rated):
        return ""
    through = sum(c.visits or 0 for c in rated if c.step == best.step)
    if view.phase == LEAD:
        first = f"{card_symbol(best.step)} first"
    else:
        led = L.current_led(view.rem, view.hand & ~view.used, view.trump)
        first = (f"leaving {card_symbol(led)} unbeaten" if best.step == STOP else
                 f"beating {card_symbol(led)} with {card_symbol(best.step)}") + " first" if led >= 0 else "its first step"
    return (f" The bot decides one card at a time: {first} was its most searched first step ({through} playouts "
            "through the moves starting so), then the most searched way on from there.")


def _heuristic(view: View) -> Hint:
    """Return the heuristic player's move (when the search cannot run)."""
    import random

    from mustamaija.games.mustamaija.players.heuristic import HeuristicPlayer
    from mustamaija.games.mustamaija.sampling import sample_state

    player = HeuristicPlayer(seed=0)
    s = sample_state(view, random.Random(0))
    seat = view.to_act
    n0 = s.nlog
    while s.nlog == n0:
        s.apply(player.act(s.view(seat)))
    action = s.actions()[-1]
    return Hint(action, f"**The heuristic player would {action_words(action)}.**", "heuristic", note=_why(view, action))


def _why(view: View, action: Action) -> str:
    """Return a rule of thumb (RULES.md's strategy notes) that fits the action, from what the view shows."""
    hand = view.hand
    if isinstance(action, Declare):
        return "declaring fixes trumps in a suit you hold: your K and Q become trumps."
    if isinstance(action, Lead):
        k = action.cards.bit_count()
        suit = cards_of(action.cards)[0] // 13
        if view.talon_size:
            if action.cards == hand & SUIT_MASKS[suit] and k > 1:
                return f"leading a whole suit lets you draw {min(k, view.talon_size)} fresh cards."
            if action.cards >> QS & 1:
                return "Q♠ can never be beaten: leading her early risks seeing her come back."
            return "early on, shed the cards you do not need and keep trumps for the endgame."
        if action.cards >> QS & 1:
            return "Q♠ can never be beaten: she stays with the defender."
        if action.cards == hand:
            return "these are your last cards: you are out the moment you lead them."
        return "in the endgame, lead low cards first, so they cannot be used against your higher ones."
    assert isinstance(action, Beat)
    if not view.led & ~action.beaten:
        return "beating everything gives you the lead."
    if not action.pairs:
        return "beating is never compulsory: keeping your beaters may be worth more than the cards you pick up."
    return ""
