"""Mustamaija at web tables: what the beating-game layout draws, built from one seat's view only (docs/web.md).

The web app finds this through ``game.renderer("web")``. Nothing here hands a
:class:`~mustamaija.games.mustamaija.state.State` to a client: the state a seat
receives is a function of ``view_of(state, seat)`` (or of the spectator's
view), and an action's event is built from the spectator's views before and
after it, so neither can hold a card that seat does not know.

>>> from mustamaija import State
>>> s = State.from_seed(players=3, seed=2)
>>> out = RENDERER.state_json(s.view(None), deal=1)
>>> out["seat"], out["hand"], out["legal"], out["hand_sizes"]
(None, [], None, [5, 5, 5])
>>> mine = RENDERER.state_json(s.view(s.to_act), deal=1)
>>> mine["legal"]["kind"], len(mine["hand"]), mine["legal"]["complete"]
('lead', 5, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import islice
from typing import Any, Final

from mustamaija.core.cards import SUITS, card_name, cards_of
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import Action, Beat, Lead
from mustamaija.games.mustamaija.match import Match
from mustamaija.games.mustamaija.record import state_to_json
from mustamaija.games.mustamaija.rules import LEAD, OVER, Rules
from mustamaija.games.mustamaija.state import State
from mustamaija.games.mustamaija.view import View

__all__ = ["MAX_LISTED_ACTIONS", "RENDERER", "MustamaijaTable", "legal_json"]

MAX_LISTED_ACTIONS: Final = 200
"""The most legal actions listed in ``legal.actions``; beyond that ``complete`` is false."""

_PHASES: Final = ("lead", "defend", "over")
_SUIT_CHOICES: Final = [["H", "♥ hearts"], ["D", "♦ diamonds"], ["C", "♣ clubs"], ["S", "♠ spades"]]


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def _card(c: int) -> str | None:
    return card_name(c) if c >= 0 else None


def _body(action: Action) -> dict[str, Any]:
    """Return an action in the API's form: the docs/formats.md record action without its seat."""
    body = action.to_json()
    del body["seat"]
    return body


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
                    "beat": _body(beat)["beat"],
                    "taken": _names(lead.cards & ~beat.beaten),
                }
        return None
    return None


def legal_json(view: View) -> dict[str, Any] | None:
    """Return the viewer's legal actions (docs/web.md, "The state a seat sees"), or ``None`` if it is not to act."""
    if not view.my_turn or view.phase == OVER:
        return None
    seat = view.seat
    assert seat is not None
    decl = L.declarable_suits(view.rules, view.hand, view.declarer)
    declare = [SUITS[s] for s in range(4) if decl >> s & 1]
    actions: list[dict[str, Any]] = [{"declare": s} for s in declare]
    out: dict[str, Any]
    if view.phase == LEAD:
        leads = L.iter_leads(view.hand, view.limit)
        actions += [{"lead": _names(m)} for m in islice(leads, MAX_LISTED_ACTIONS + 1)]
        out = {"kind": "lead", "cards": _names(view.hand), "max_cards": min(view.limit, 13), "declare": declare}
    else:
        beats = L.iter_beats(view.hand, view.led, view.trump)
        actions += [_body(Beat(seat, p)) for p in islice(beats, MAX_LISTED_ACTIONS + 1)]
        out = {
            "kind": "beat",
            "led": _names(view.led),
            "beaters": {card_name(c): _names(view.beaters(c)) for c in cards_of(view.led)},
            "declare": declare,
        }
    out["actions"] = actions[:MAX_LISTED_ACTIONS]
    out["complete"] = len(actions) <= MAX_LISTED_ACTIONS
    return out


LOBBY: Final[Mapping[str, Any]] = {
    "blurb": "The Finnish beating game for 2 to 8 players: lead, beat or pick up, and don't be the one "
             "left holding Maija, the queen of spades.",
    "preset_labels": {"standard": "Standard (McLeod)", "wikipedia": "Wikipedia", "french": "French sheet",
                      "kurki-suonio": "Kurki-Suonio, 3 cards", "kurki-suonio-marriage": "Kurki-Suonio, marriage",
                      "salmi": "Salmi, 6 cards"},
    "rules": [
        {"key": "hand_size", "label": "Hand size (V1)", "choices": [[3, "3"], [5, "5"], [6, "6"]]},
        {"key": "trump", "label": "Trumps (V2)",
         "choices": [["turned", "turned from the talon"], ["fixed", "one fixed suit"],
                     ["marriage", "by marriage (K+Q)"], ["none", "no trumps"]]},
        {"key": "trump_suit", "label": "Fixed trump suit", "choices": _SUIT_CHOICES},
        {"key": "trump_turn", "label": "Trump turned (M6)",
         "choices": [["after_first_lead", "after the first lead"], ["after_deal", "right after the deal"]]},
        {"key": "attack_limit", "label": "Lead limit (M11)",
         "choices": [["after_talon", "once the talon is empty"], ["always", "all game"]]},
        {"key": "max_lead", "label": "Most cards a lead", "number": [1, 13], "blank": "no cap"},
        {"key": "next_dealer", "label": "Next dealer (M5)",
         "choices": [["left", "the player to the left"], ["loser", "the loser"]]},
        {"key": "spades_can_be_trump", "label": "Spades may be trumps (M7)", "check": True},
    ],
    "ends": [
        {"key": "deals", "in": "table", "label": "a number of deals", "count": "Deals", "default": 5},
        {"key": "max_losses", "in": "table", "label": "until someone has lost", "count": "Losses that end the match",
         "default": 3},
    ],
}
"""The lobby's form for this game (docs/web.md, ``GET /api/games``)."""


class MustamaijaTable:
    """Mustamaija's web tables: the beating-game layout, matches of M20, and the lobby's rule form."""

    layout = "beating"
    default_players = 3
    lobby = LOBBY
    puzzles = "mustamaija.games.mustamaija.puzzles.web:SERVICE"
    """The endgame puzzles of the ``/puzzles`` page (:mod:`mustamaija.web.puzzles_api`), as ``module:attribute``."""

    def match_settings(self, body: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Return the rule overrides and the match length: ``deals`` deals (5 if neither is given) or ``max_losses``."""
        deals, max_losses = body.get("deals"), body.get("max_losses")
        if deals is None and max_losses is None:
            deals = 5
        return dict(body.get("rules") or {}), {"deals": deals, "max_losses": max_losses}

    def new_match(self, players: int, rules: Rules, settings: Mapping[str, Any], first_dealer: int) -> Match:
        """Return a match of M20 that ends after ``deals`` deals or at ``max_losses`` losses."""
        return Match(players, rules, deals=settings.get("deals"), max_losses=settings.get("max_losses"),
                     first_dealer=first_dealer)

    def next_deal(self, match: Match, deck: tuple[int, ...]) -> State:
        """Deal the match's next deal (the whole pack, top first)."""
        state: State = match.next_deal(deck)
        return state

    def finish_deal(self, match: Match, state: State) -> dict[str, Any]:
        """Score the deal (M19, M20): its loser, whether M21 stopped it, its turns and the match's losses."""
        result = match.finish_deal(state)
        return {"loser": result.loser, "stopped": state.stopped, "turns": state.turns, "losses": list(match.losses)}

    def match_over(self, match: Match) -> dict[str, Any]:
        """Return the losses and the standings, fewest losses first."""
        return {"losses": list(match.losses), "standings": [list(p) for p in match.standings()]}

    def match_json(self, match: Match, settings: Mapping[str, Any], deals: list[int]) -> dict[str, Any]:
        """Return the match: its length, the deals played, every seat's losses and each deal's result."""
        results = [{"deal": number, "dealer": r.dealer, "loser": r.loser, "stopped": r.loser is None, "turns": r.turns}
                   for number, r in zip(deals, match.results, strict=False)]
        return {"deals": settings.get("deals"), "max_losses": settings.get("max_losses"), "played": match.played,
                "losses": list(match.losses), "over": match.over, "results": results}

    def deal_columns(self, state: State) -> dict[str, Any]:
        """Return the loser, whether M21 stopped the deal, and its turns."""
        return {"loser": state.loser if state.loser >= 0 else None, "stopped": state.stopped, "turns": state.turns}

    def state_json(self, view: View, deal: int) -> dict[str, Any]:
        """Return the deal as ``view`` sees it (docs/web.md, "The state a seat sees")."""
        over = view.phase == OVER
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

    def events(self, before: View, after: View, action: Action) -> list[dict[str, Any]]:
        """Return the action's event: every compound action is public; add the cards picked up and the trump turned.

        >>> from mustamaija.core.cards import mask_of, parse_cards
        >>> s = State.from_position([["9H", "4H", "QS"], ["JH", "2C"]], attacker=0, trump_suit=3)
        >>> lead = Lead(0, mask_of(parse_cards("9H 4H")))
        >>> before = s.view(None)
        >>> s.play(lead)
        >>> mid = s.view(None)
        >>> s.play(Beat(1, ((parse_cards("9H")[0], parse_cards("JH")[0]),)))
        >>> RENDERER.events(mid, s.view(None), s.last_action())[0]["taken"]
        ['4H']
        """
        event: dict[str, Any] = {"kind": "action", "action": _body(action), "text": str(action)}
        if isinstance(action, Beat):
            taken = before.led & ~action.beaten
            if taken:
                event["taken"] = _names(taken)
                if after.phase != OVER and after.defender == action.seat:
                    event["defends_again"] = True  # M16: who picks up does not attack next (told to new players).
        if isinstance(action, Lead) and before.trump_card < 0 <= after.trump_card:
            event.update(self.deal_facts(after))
        return [event]

    def deal_facts(self, view: View) -> dict[str, Any]:
        """Return the trump card once turned, and the spades turned and put back into the talon before it (M7).

        >>> s = State.from_seed(players=3, seed=4, rules=Rules(trump_turn="after_deal"))
        >>> RENDERER.deal_facts(s.view(None))
        {'turned': '8D', 'put_back': ['4S', 'QS', 'AS']}
        """
        if view.trump_card < 0:
            return {}
        facts: dict[str, Any] = {"turned": card_name(view.trump_card)}
        if view.revealed:
            facts["put_back"] = _names(view.revealed)
        return facts

    def frame_json(self, state: State) -> dict[str, Any]:
        """Return the ``replay --json`` object with the led cards of a defence and the marriage's declarer."""
        return {**state_to_json(state),
                "table": [{"led": card_name(c), "beater": None} for c in cards_of(state.led)],
                "declarer": state.declarer if 0 <= state.declarer < state.n else None}


RENDERER: Final = MustamaijaTable()
"""The object ``RENDERERS["web"]`` names."""
