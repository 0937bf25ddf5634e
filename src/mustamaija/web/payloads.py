"""The JSON a client gets for a deal: built from one seat's :class:`~mustamaija.games.mustamaija.view.View` only.

Nothing here takes a :class:`~mustamaija.games.mustamaija.state.State`: the state
object a client receives is a function of ``view_of(state, seat)`` (or of the
spectator's view), so it cannot hold a card that seat does not know.

>>> from mustamaija import State
>>> s = State.from_seed(players=3, seed=2)
>>> out = state_json(s.view(None), deal=1)
>>> out["seat"], out["hand"], out["legal"], out["hand_sizes"]
(None, [], None, [5, 5, 5])
>>> mine = state_json(s.view(s.to_act), deal=1)
>>> mine["legal"]["kind"], len(mine["hand"]), mine["legal"]["complete"]
('lead', 5, True)
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Final

from mustamaija.core.cards import SUITS, card_name, cards_of
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import Action, Beat, Declare, Lead
from mustamaija.games.mustamaija.view import View

__all__ = ["MAX_LISTED_ACTIONS", "action_body", "action_event_facts", "legal_json", "state_json"]

MAX_LISTED_ACTIONS: Final = 200
"""The most legal actions listed in ``legal.actions``; beyond that ``complete`` is false."""

_PHASES: Final = ("lead", "defend", "over")


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def _card(c: int) -> str | None:
    return card_name(c) if c >= 0 else None


def action_body(action: Action) -> dict[str, Any]:
    """Return an action in the API's form: the FORMATS.md record action without its seat."""
    body = action.to_json()
    del body["seat"]
    return body


def action_event_facts(action: Action, led_before: int) -> dict[str, Any]:
    """Return the public facts an action event adds: the cards a defender picked up.

    >>> from mustamaija.core.cards import mask_of, parse_cards
    >>> action_event_facts(Beat(1, ((20, 22),)), mask_of(parse_cards("9H 4H")))
    {'taken': ['4H']}
    """
    if isinstance(action, Beat):
        taken = led_before & ~action.beaten
        return {"taken": _names(taken)} if taken else {}
    return {}


def _last_turn(view: View) -> dict[str, Any] | None:
    history = view.history
    for i in range(len(history) - 1, -1, -1):
        beat = history[i]
        if not isinstance(beat, Beat):
            continue
        for j in range(i - 1, -1, -1):
            lead = history[j]
            if isinstance(lead, Lead):
                return {
                    "attacker": lead.seat,
                    "defender": beat.seat,
                    "led": _names(lead.cards),
                    "beat": action_body(beat)["beat"],
                    "taken": _names(lead.cards & ~beat.beaten),
                }
        return None
    return None


def legal_json(view: View) -> dict[str, Any] | None:
    """Return the viewer's legal actions (docs/web.md, "The state a seat sees"), or ``None`` if it is not to act."""
    if not view.my_turn or view.phase == 2:
        return None
    seat = view.seat
    assert seat is not None
    decl = L.declarable_suits(view.rules, view.hand, view.declarer)
    declare = [SUITS[s] for s in range(4) if decl >> s & 1]
    actions: list[dict[str, Any]] = [{"declare": s} for s in declare]
    out: dict[str, Any]
    if view.phase == 0:
        leads = L.iter_leads(view.hand, view.limit)
        actions += [{"lead": _names(m)} for m in islice(leads, MAX_LISTED_ACTIONS + 1)]
        out = {"kind": "lead", "cards": _names(view.hand), "max_cards": min(view.limit, 13), "declare": declare}
    else:
        beats = L.iter_beats(view.hand, view.led, view.trump)
        actions += [action_body(Beat(seat, p)) for p in islice(beats, MAX_LISTED_ACTIONS + 1)]
        out = {
            "kind": "beat",
            "led": _names(view.led),
            "beaters": {card_name(c): _names(view.beaters(c)) for c in cards_of(view.led)},
            "declare": declare,
        }
    out["actions"] = actions[:MAX_LISTED_ACTIONS]
    out["complete"] = len(actions) <= MAX_LISTED_ACTIONS
    return out


def state_json(view: View, *, deal: int) -> dict[str, Any]:
    """Return the deal as ``view`` sees it (docs/web.md), for the deal numbered ``deal`` at its table."""
    over = view.phase == 2
    beaten = dict(view.pairs)
    return {
        "deal": deal,
        "actions": len(view.history),
        "seat": view.seat,
        "phase": _PHASES[view.phase],
        "attacker": None if over else view.attacker,
        "defender": None if over else view.defender,
        "to_act": None if over else view.to_act,
        "dealer": view.dealer,
        "hand": _names(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "known": [_names(k) for k in view.known],
        "talon": view.talon_size,
        "talon_known": [{"depth": d, "card": card_name(c)} for d, c in view.talon_known],
        "trump_suit": SUITS[view.trump] if view.trump >= 0 else None,
        "trump_card": _card(view.trump_card),
        "declarer": view.declarer if 0 <= view.declarer < view.players else None,
        "discard": _names(view.discard),
        "table": [{"led": card_name(c), "beater": _card(beaten.get(c, -1))} for c in cards_of(view.led)],
        "last_turn": _last_turn(view),
        "limit": min(view.limit, 13),
        "out": list(view.out),
        "loser": view.loser if view.loser >= 0 else None,
        "stopped": view.stopped,
        "turns": view.turns,
        "legal": legal_json(view),
    }


def describe(action: Action) -> str:
    """Return an action in a few words, such as ``"seat 1 leads 4H 9H"``."""
    if isinstance(action, Declare):
        return f"seat {action.seat} declares the marriage in {SUITS[action.suit]}"
    return str(action)
