"""Black Maria at web tables: what the trick-taking layout draws, built from one seat's view only (docs/web.md).

The web app finds this through ``game.renderer("web")``. The state a seat
receives is a function of ``view_of(state, seat)``, so a seat never sees
another seat's hand, nor what it receives before every seat has passed (B3),
nor another seat's reneges before the hand is over (B7); events are built
from the spectator's views, so a pass names no card.

>>> from mustamaija.games.black_maria import State
>>> s = State.from_seed(players=4, seed=2)
>>> mine = RENDERER.state_json(s.view(s.to_act), deal=1)
>>> mine["phase"], mine["legal"]["kind"], mine["legal"]["count"], len(mine["hand"])
('pass', 'pass', 3, 13)
>>> RENDERER.state_json(s.view(None), deal=1)["hand"], RENDERER.state_json(s.view(None), deal=1)["legal"]
([], None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mustamaija.core.cards import SUITS, card_name, cards_of
from mustamaija.core.errors import RulesError
from mustamaija.games.black_maria import legality as L
from mustamaija.games.black_maria.actions import Action, Pass, Play
from mustamaija.games.black_maria.match import Match
from mustamaija.games.black_maria.record import state_to_json
from mustamaija.games.black_maria.rules import PLAY, Rules
from mustamaija.games.black_maria.state import PASS, State
from mustamaija.games.black_maria.view import View

__all__ = ["RENDERER", "BlackMariaTable", "legal_json"]

_PHASES: Final = ("pass", "play", "over")
_PENALTY_CARDS: Final = sum(1 << c for c in range(52) if L.PENALTY[c])


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def _trick(plays: tuple[Play, ...] | list[Play], players: int) -> dict[str, Any]:
    """Return a completed trick (public): who led, the cards by seat, the winner and its penalty points."""
    cards = tuple(p.card for p in plays)
    return {"leader": plays[0].seat, "cards": [{"seat": p.seat, "card": card_name(p.card)} for p in plays],
            "winner": L.trick_winner(cards, plays[0].seat, players), "points": L.penalty_of(sum(1 << c for c in cards))}


def legal_json(view: View) -> dict[str, Any] | None:
    """Return what the viewer may do now, or ``None`` if it is not to act.

    Passing: ``{"kind": "pass", "cards": hand, "count": k}`` (any ``k`` cards
    of the hand). Playing: ``{"kind": "play", "cards": [the legal cards]}``.
    """
    if not view.my_turn or view.is_over:
        return None
    if view.phase == PASS:
        return {"kind": "pass", "cards": _names(view.hand), "count": view.pass_count}
    return {"kind": "play", "cards": _names(L.play_mask(view.hand, view.led, view.broken, view.rules.allow_renege))}


LOBBY: Final[Mapping[str, Any]] = {
    "blurb": "The British game of the Hearts family for 3 to 7 players: pass cards to your left, follow suit, "
             "and dodge the hearts and the queen of spades. The lowest total wins.",
    "preset_labels": {"standard": "Standard"},
    "rules": [{"key": "allow_renege", "label": "Reneging allowed, 10 points each (B7)", "check": True}],
    "ends": [
        {"key": "target_score", "in": "rules", "label": "at a target score", "count": "Target score", "default": 50},
        {"key": "hands", "in": "rules", "label": "after a number of hands", "count": "Hands", "default": 4},
    ],
}
"""The lobby's form for this game (docs/web.md, ``GET /api/games``)."""


class BlackMariaTable:
    """Black Maria's web tables: the trick-taking layout, games of B8, and the lobby's rule form.

    A table's match is a game of B8 (:class:`~mustamaija.games.black_maria.match.Match`), ended by its
    rules (``hands``, ``target_score``); a create request's ``deals`` is read as ``hands``.
    """

    layout = "trick"
    default_players = 4
    lobby = LOBBY

    def match_settings(self, body: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Return the rule overrides (``deals`` is taken as ``hands``; ``hands`` alone drops the target score)."""
        if body.get("max_losses") is not None:
            raise RulesError("a Black Maria game ends after a number of hands or at a target score "
                             "('rules': {\"hands\": N} or {\"target_score\": N}), not after losses")
        overrides = dict(body.get("rules") or {})
        if body.get("deals") is not None:
            overrides.setdefault("hands", body["deals"])
        if overrides.get("hands") is not None and "target_score" not in overrides:
            overrides["target_score"] = None  # A number of hands alone ends the game.
        return overrides, {"deals": overrides.get("hands"), "max_losses": None}

    def new_match(self, players: int, rules: Rules, settings: Mapping[str, Any], first_dealer: int) -> Match:
        """Return a game of B8 (its end is in the rules: ``hands``, ``target_score``)."""
        return Match(players, rules, first_dealer=first_dealer)

    def next_deal(self, match: Match, deck: tuple[int, ...]) -> State:
        """Deal the game's next hand (the cards in play, top first)."""
        state: State = match.next_hand(deck)
        return state

    def finish_deal(self, match: Match, state: State) -> dict[str, Any]:
        """Score the hand (B6, B7): every seat's points, its reneges and the running totals."""
        result = match.finish_hand(state)
        return {"points": list(result.points), "reneges": list(state.reneges), "totals": list(match.totals)}

    def match_over(self, match: Match) -> dict[str, Any]:
        """Return the totals, the standings (lowest first) and the winners (B8)."""
        return {"totals": list(match.totals), "standings": [list(p) for p in match.standings()],
                "winners": match.winners()}

    def match_json(self, match: Match, settings: Mapping[str, Any], deals: list[int]) -> dict[str, Any]:
        """Return the game: its end, the hands played, the totals, the winners once over, and each hand's points."""
        rules = match.rules
        return {"hands": rules.hands, "target_score": rules.target_score, "played": match.played,
                "totals": list(match.totals), "over": match.over, "winners": match.winners() if match.over else None,
                "results": [{"deal": number, "dealer": r.dealer, "points": list(r.points)}
                            for number, r in zip(deals, match.results, strict=False)]}

    def deal_columns(self, state: State) -> dict[str, Any]:
        """Return no loser, never stopped, and the tricks played as the turns."""
        return {"loser": None, "stopped": False, "turns": sum(state.tricks)}

    def state_json(self, view: View, deal: int) -> dict[str, Any]:
        """Return the hand as ``view`` sees it (docs/web.md, "Black Maria tables")."""
        n = view.players
        over = view.is_over
        first = (view.dealer + 1) % n
        done = len(view.plays) // n
        return {
            "deal": deal,
            "actions": view.npassed + len(view.plays),
            "seat": view.seat,
            "phase": _PHASES[view.phase],
            "to_act": None if over else view.to_act,
            "dealer": view.dealer,
            "leader": view.leader if view.phase == PLAY else None,
            "pass_count": view.pass_count,
            "passed_seats": [(s - first) % n < view.npassed for s in range(n)],
            "hand": _names(view.hand),
            "hand_sizes": list(view.hand_sizes),
            "passed": _names(view.passed),
            "received": _names(view.received),
            "known": [[] if s == view.seat else _names(k) for s, k in enumerate(view.known)],
            "voids": ["".join(SUITS[i] for i in range(4) if v >> i & 1) for v in view.voids],
            "trick": [{"seat": s, "card": card_name(c)} for s, c in zip(view.trick_seats, view.trick, strict=True)],
            "led": SUITS[view.led] if view.led >= 0 else None,
            "hearts_broken": view.broken,
            "last_trick": _trick(view.plays[(done - 1) * n:done * n], n) if done else None,
            "tricks": list(view.tricks),
            "won": [_names(w & _PENALTY_CARDS) for w in view.won],
            "points": view.points(),
            "reneges": list(view.reneges),
            "allow_renege": view.rules.allow_renege,
            "legal": legal_json(view),
        }

    def deal_facts(self, view: View) -> dict[str, Any]:
        """Return nothing: a new hand has no public facts beyond its number and dealer."""
        return {}

    def events(self, before: View, after: View, action: Action) -> list[dict[str, Any]]:
        """Return a pass's event (how many cards, never which: B3) and the exchange, or a play's event.

        A play's event says when it broke hearts and, when it completed a
        trick, who won it and its penalty points.

        >>> s = State.from_seed(players=3, seed=1)
        >>> seat, before = s.to_act, s.view(None)
        >>> s.play(Pass(seat, sum(1 << c for c in list(cards_of(s.hands[seat]))[:4])))
        >>> RENDERER.events(before, s.view(None), s.last_action())
        [{'kind': 'pass', 'text': 'seat 1 passes 4 cards', 'cards': 4}]
        """
        if isinstance(action, Pass):
            events: list[dict[str, Any]] = [
                {"kind": "pass", "text": f"seat {action.seat} passes {action.cards.bit_count()} cards",
                 "cards": action.cards.bit_count()}]
            if after.phase != PASS:
                events.append({"kind": "exchange", "leader": after.to_act})
            return events
        body = action.to_json()
        del body["seat"]
        event: dict[str, Any] = {"kind": "action", "action": body, "text": str(action)}
        if after.broken and not before.broken:
            event["hearts_broken"] = True
        if not after.trick:  # The play completed a trick; its winner leads the next.
            n = after.players
            event["trick"] = {k: v for k, v in _trick(after.plays[-n:], n).items() if k != "leader"}
        return [event]

    def frame_json(self, state: State) -> dict[str, Any]:
        """Return the ``replay --json`` object of docs/black-maria.md."""
        return state_to_json(state)


RENDERER: Final = BlackMariaTable()
"""The object ``RENDERERS["web"]`` names."""
