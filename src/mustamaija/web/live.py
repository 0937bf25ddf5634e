"""One table in play: the engine's state of the current deal, the match, the seats and the event numbering.

A :class:`LiveTable` holds the whole truth of its table but hands out only
views: :meth:`LiveTable.state_for` builds a seat's state from
``view_of(state, seat)``. It does no I/O; the manager stores what it changes.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mustamaija.core.cards import card_name
from mustamaija.core.errors import FormatError, IllegalActionError, MustamaijaError, RulesError
from mustamaija.games import black_maria as bm_engine
from mustamaija.games.black_maria.match import Match as BmMatch
from mustamaija.games.black_maria.record import Record as BmRecord
from mustamaija.games.mustamaija.actions import Action, Beat, Declare, Lead, action_from_json
from mustamaija.games.mustamaija.deals import shuffled_deck
from mustamaija.games.mustamaija.match import Match
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.state import State
from mustamaija.web import bm
from mustamaija.web.errors import ApiError
from mustamaija.web.payloads import action_body, action_event_facts, describe, state_json

__all__ = ["LiveTable", "Seat", "check_config", "hash_token", "new_token"]


def new_token() -> str:
    """Return a fresh seat token (never stored: only its hash is)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """Return the stored form of a seat token.

    >>> len(hash_token("abc")), hash_token("abc") == hash_token("abc")
    (64, True)
    """
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Seat:
    """A seat: a ``"person"`` seat (taken once it has a token) or a ``"bot"`` seat."""

    kind: str
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    connections: int = 0
    gone_since: float | None = None

    @property
    def taken(self) -> bool:
        """Return whether somebody sits here (a bot seat always is)."""
        return self.kind == "bot" or self.token_hash is not None

    def row(self, seat: int) -> dict[str, Any]:
        """Return the seat's database row."""
        return {"seat": seat, "kind": self.kind, "bot": self.bot, "name": self.name, "token_hash": self.token_hash}


@dataclass
class LiveTable:
    """A table's truth: config, seats, match, current deal, version and event counter."""

    id: str
    config: dict[str, Any]
    seats: list[Seat]
    status: str = "waiting"
    version: int = 0
    seq: int = 0
    match_no: int = 1
    deal_no: int = 0
    created: float = field(default_factory=time.time)
    match: Match | BmMatch | None = None
    state: State | bm_engine.State | None = None
    match_first_deal: int = 1
    result_deals: list[int] = field(default_factory=list)

    # -- derived -----------------------------------------------------------------------------

    @property
    def game(self) -> str:
        """Return the game the table plays: ``"mustamaija"`` or ``"black-maria"``."""
        return str(self.config.get("game") or "mustamaija")

    @property
    def rules(self) -> Rules:
        """Return the table's Mustamaija rules (a Black Maria table has :attr:`bm_rules`)."""
        return Rules.from_json(self.config["rules"])

    @property
    def bm_rules(self) -> bm_engine.Rules:
        """Return the table's Black Maria rules."""
        return bm_engine.Rules.from_json(self.config["rules"])

    @property
    def players(self) -> int:
        """Return the number of seats."""
        return int(self.config["players"])

    @property
    def takeover_after(self) -> float:
        """Return the seconds after which a bot plays for a person who is gone."""
        return float(self.config["takeover_after"])

    def seat_of(self, token: str | None) -> int | None:
        """Return the seat a token opens, ``None`` for no token; a wrong token is :class:`ApiError`."""
        if token is None:
            return None
        if not isinstance(token, str) or not token or len(token) > 200:
            raise ApiError("unauthorized", "the seat token is malformed")
        digest = hash_token(token)
        for s, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return s
        raise ApiError("unauthorized", f"this token opens no seat at table {self.id}")

    def free_seats(self) -> list[int]:
        """Return the person seats nobody has taken yet."""
        return [s for s, seat in enumerate(self.seats) if not seat.taken]

    def taken_over(self, s: int, now: float) -> bool:
        """Return whether a bot plays for seat ``s`` now, its person being gone long enough."""
        seat = self.seats[s]
        return (seat.kind == "person" and seat.taken and seat.gone_since is not None
                and now - seat.gone_since >= self.takeover_after)

    def bot_for(self, s: int, now: float) -> tuple[str, str] | None:
        """Return (bot spec, ``"bot"`` or ``"takeover"``) when a bot acts for seat ``s``, else ``None``."""
        seat = self.seats[s]
        if seat.kind == "bot":
            return seat.bot or "medium", "bot"
        if self.taken_over(s, now):
            return str(self.config.get("takeover_bot") or "medium"), "takeover"
        return None

    def meta(self, now: float | None = None) -> dict[str, Any]:
        """Return the table's public metadata (docs/web.md, "Table metadata")."""
        t = time.time() if now is None else now
        seats = []
        for s, seat in enumerate(self.seats):
            online = seat.kind == "bot" or seat.connections > 0
            gone = seat.gone_since if seat.kind == "person" and seat.taken and not online else None
            seats.append({
                "seat": s,
                "kind": seat.kind,
                "name": seat.name,
                "taken": seat.taken,
                "online": online,
                "gone_for": None if gone is None else round(max(0.0, t - gone), 1),
                "takeover": self.taken_over(s, t),
                "bot": seat.bot,
            })
        match = self.match
        results = []
        if isinstance(match, BmMatch):
            return self._bm_meta(t, seats, match)
        if match is not None:
            for number, r in zip(self.result_deals, match.results, strict=False):
                results.append({"deal": number, "dealer": r.dealer, "loser": r.loser,
                                "stopped": r.loser is None, "turns": r.turns})
        c = self.config
        return {
            "id": self.id,
            "game": self.game,
            "name": c.get("name"),
            "players": self.players,
            "preset": c.get("preset"),
            "rules": c["rules"],
            "status": self.status,
            "private": bool(c.get("private")),
            "hints": bool(c.get("hints")),
            "takeover_after": self.takeover_after,
            "version": self.version,
            "seq": self.seq,
            "deal": self.deal_no or None,
            "match": {
                "number": self.match_no,
                "deals": c.get("deals"),
                "max_losses": c.get("max_losses"),
                "played": match.played if match is not None else 0,
                "losses": list(match.losses) if match is not None else [0] * self.players,
                "over": bool(match is not None and match.over),
                "results": results,
            },
            "seats": seats,
            "created": self.created,
        }

    def _bm_meta(self, now: float, seats: list[dict[str, Any]], match: BmMatch) -> dict[str, Any]:
        c = self.config
        rules = match.rules
        return {
            "id": self.id, "game": bm.GAME, "name": c.get("name"), "players": self.players, "preset": None,
            "rules": c["rules"], "status": self.status, "private": bool(c.get("private")),
            "hints": bool(c.get("hints")), "takeover_after": self.takeover_after, "version": self.version,
            "seq": self.seq, "deal": self.deal_no or None,
            "match": {
                "number": self.match_no, "hands": rules.hands, "target_score": rules.target_score,
                "played": match.played, "totals": list(match.totals), "over": match.over,
                "winners": match.winners() if match.over else None,
                "results": [{"deal": number, "dealer": r.dealer, "points": list(r.points)}
                            for number, r in zip(self.result_deals, match.results, strict=False)],
            },
            "seats": seats,
            "created": self.created,
        }

    def state_for(self, seat: int | None) -> dict[str, Any] | None:
        """Return the current deal as ``seat`` (``None``: a spectator) sees it, built from its view only."""
        if self.state is None:
            return None
        if isinstance(self.state, bm_engine.State):
            return bm.state_json(self.state.view(seat), deal=self.deal_no)
        return state_json(self.state.view(seat), deal=self.deal_no)

    def record(self) -> Record | BmRecord:
        """Return the FORMATS.md record of the current deal, with the seat names."""
        assert self.state is not None
        names = [s.name for s in self.seats]
        if isinstance(self.state, bm_engine.State):
            return BmRecord.from_state(self.state, names=names, table=self.id, deal=self.deal_no)
        return Record.from_state(self.state, names=names, table=self.id, deal=self.deal_no)

    def action_from_record(self, body: Mapping[str, Any]) -> Action | bm_engine.Action:
        """Parse a record action of this table's game (a bot's answer)."""
        if self.game == bm.GAME:
            return bm_engine.action_from_json(body, self.players)
        return action_from_json(body, self.players)

    def deal_row(self) -> dict[str, Any]:
        """Return the database row of the current deal (a Black Maria hand stores its tricks as ``turns``)."""
        assert self.state is not None
        s = self.state
        if isinstance(s, bm_engine.State):
            return {"deal_no": self.deal_no, "match_no": self.match_no, "record": self.record().to_json(),
                    "finished": s.is_over, "loser": None, "stopped": False, "turns": sum(s.tricks)}
        return {"deal_no": self.deal_no, "match_no": self.match_no, "record": self.record().to_json(),
                "finished": s.is_over, "loser": s.loser if s.loser >= 0 else None,
                "stopped": s.stopped, "turns": s.turns}

    def table_row(self) -> dict[str, Any]:
        """Return the table's database row (the columns that change)."""
        return {"status": self.status, "private": bool(self.config.get("private")), "config": self.config,
                "version": self.version, "seq": self.seq, "match_no": self.match_no,
                "deal_no": self.deal_no, "created": self.created}

    # -- changes -------------------------------------------------------------------------------

    def event(self, kind: str, **facts: Any) -> dict[str, Any]:
        """Return a new numbered event of this table."""
        self.seq += 1
        return {"seq": self.seq, "kind": kind, **facts}

    def start_match(self) -> None:
        """Begin a match with a dealer drawn at random (M4)."""
        c = self.config
        if self.game == bm.GAME:
            self.match = BmMatch(self.players, self.bm_rules, first_dealer=secrets.randbelow(self.players))
        else:
            self.match = Match(self.players, self.rules, deals=c.get("deals"), max_losses=c.get("max_losses"),
                               first_dealer=secrets.randbelow(self.players))
        self.match_first_deal = self.deal_no + 1
        self.result_deals = []
        self.state = None

    def start_deal(self) -> list[dict[str, Any]]:
        """Deal the next deal of the match from a deck shuffled with :mod:`secrets`; return its event."""
        assert self.match is not None
        if isinstance(self.match, BmMatch):
            self.state = self.match.next_hand(bm_engine.shuffled_deck(self.players, secrets.SystemRandom()))
        else:
            self.state = self.match.next_deal(shuffled_deck(secrets.SystemRandom()))
        self.deal_no += 1
        self.version += 1
        self.status = "playing"
        return [self.event("deal_start", deal=self.deal_no, match=self.match_no,
                           dealer=self.state.dealer, version=self.version)]

    def parse_action(self, seat: int, body: object) -> Action | bm_engine.Action:
        """Parse a client's action (FORMATS.md form without the seat) for ``seat``."""
        example = '{"play": "QS"}' if self.game == bm.GAME else '{"lead": ["9H"]}'
        if not isinstance(body, Mapping):
            raise ApiError("bad_request", f"'action' must be a JSON object such as {example}, not {body!r}")
        if "seat" in body and body["seat"] != seat:
            raise ApiError("bad_request", f"the action names seat {body['seat']!r}, but this token is seat {seat}")
        try:
            if self.game == bm.GAME:
                return bm_engine.action_from_json({**body, "seat": seat}, self.players)
            return action_from_json({**body, "seat": seat}, self.players)
        except (FormatError, TypeError) as e:
            raise ApiError("bad_request", f"bad action: {e}") from None

    def check_turn(self, seat: int, version: object) -> State | bm_engine.State:
        """Return the deal if ``seat`` may act on ``version`` now; otherwise raise the matching :class:`ApiError`."""
        if isinstance(version, bool) or not isinstance(version, int):
            raise ApiError("bad_request", f"'version' must be the integer version the action is based on, not {version!r}")
        state = self.state
        if self.status != "playing" or state is None or state.is_over:
            raise ApiError("not_playing", f"table {self.id} is not playing a deal now (status {self.status})")
        if version != self.version:
            raise ApiError("stale", f"the action is based on version {version}, but the table is at version {self.version}")
        if state.to_act != seat:
            if isinstance(state, bm_engine.State):
                role = "pass" if state.phase == 0 else "play"
            else:
                role = "lead" if state.phase == 0 else "defend"
            raise ApiError("not_your_turn", f"seat {seat} cannot act now: seat {state.to_act} is to {role}")
        return state

    def apply(self, action: Action | bm_engine.Action, by: str) -> list[dict[str, Any]]:
        """Play a checked-for-turn action through the engine; return the new events (illegal: :class:`ApiError`)."""
        state = self.state
        assert state is not None and self.match is not None
        if isinstance(state, bm_engine.State):
            assert isinstance(action, (bm_engine.Pass, bm_engine.Play)) and isinstance(self.match, BmMatch)
            return self._bm_apply(state, self.match, action, by)
        assert isinstance(action, (Lead, Beat, Declare)) and isinstance(self.match, Match)
        led_before = state.led
        trump_before = state.trump_card
        try:
            state.play(action)
        except IllegalActionError as e:
            raise ApiError("illegal", str(e), rule=e.rule) from None
        except MustamaijaError as e:
            raise ApiError("bad_request", f"bad action: {e}") from None
        self.version += 1
        facts = action_event_facts(action, led_before)
        if isinstance(action, Lead) and trump_before < 0 <= state.trump_card:
            facts["turned"] = card_name(state.trump_card)
        events = [self.event("action", deal=self.deal_no, version=self.version, seat=action.seat,
                             action=action_body(action), by=by, text=describe(action), **facts)]
        if state.is_over:
            result = self.match.finish_deal(state)
            self.result_deals.append(self.deal_no)
            events.append(self.event("deal_over", deal=self.deal_no, loser=result.loser, stopped=state.stopped,
                                     turns=state.turns, losses=list(self.match.losses)))
            if self.match.over:
                self.status = "over"
                events.append(self.event("match_over", match=self.match_no, losses=list(self.match.losses),
                                         standings=[list(p) for p in self.match.standings()]))
        return events

    def _bm_apply(self, state: bm_engine.State, match: BmMatch, action: bm_engine.Action,
                  by: str) -> list[dict[str, Any]]:
        broken = state.broken
        try:
            state.play(action)
        except IllegalActionError as e:
            raise ApiError("illegal", str(e), rule=e.rule) from None
        except MustamaijaError as e:
            raise ApiError("bad_request", f"bad action: {e}") from None
        self.version += 1
        base = {"deal": self.deal_no, "version": self.version, "seat": action.seat, "by": by, "text": bm.describe(action)}
        if isinstance(action, bm_engine.Pass):
            # A pass is face down: the event tells how many cards, never which (B3).
            events = [self.event("pass", **base, cards=action.cards.bit_count())]
            if state.phase != bm_engine.PASS:
                events.append(self.event("exchange", deal=self.deal_no, leader=state.to_act))
        else:
            events = [self.event("action", **base, action=bm.action_body(action), **bm.play_facts(state, broken))]
        if state.is_over:
            result = match.finish_hand(state)
            self.result_deals.append(self.deal_no)
            events.append(self.event("deal_over", deal=self.deal_no, points=list(result.points),
                                     reneges=list(state.reneges), totals=list(match.totals)))
            if match.over:
                self.status = "over"
                events.append(self.event("match_over", match=self.match_no, totals=list(match.totals),
                                         standings=[list(p) for p in match.standings()], winners=match.winners()))
        return events

    def rematch(self) -> list[dict[str, Any]]:
        """Begin a new match at the table once the match is over; return its event."""
        if self.status != "over":
            raise ApiError("match_not_over", f"table {self.id} is still playing match {self.match_no}")
        self.match_no += 1
        self.start_match()
        self.status = "playing"
        return [self.event("rematch", match=self.match_no)]

    # -- recovery ------------------------------------------------------------------------------

    def restore(self, deals: list[dict[str, Any]]) -> None:
        """Rebuild the match and the current deal from the stored deals of the current match."""
        if self.status == "waiting" and not deals:
            return
        self.start_match()
        assert self.match is not None
        if self.game == bm.GAME:
            self._bm_restore(deals)
            return
        assert isinstance(self.match, Match)
        if deals:
            first = Record.from_json(deals[0]["record"])
            c = self.config
            self.match = Match(self.players, self.rules, deals=c.get("deals"), max_losses=c.get("max_losses"),
                               first_dealer=first.dealer)
            self.match_first_deal = deals[0]["deal_no"]
        for row in deals:
            rec = Record.from_json(row["record"])
            state = self.match.next_deal(rec.deck)
            for action in rec.actions:
                state.play(action)
            self.state = state
            if state.is_over:
                self.match.finish_deal(state)
                self.result_deals.append(row["deal_no"])


    def _bm_restore(self, deals: list[dict[str, Any]]) -> None:
        if deals:
            first = BmRecord.from_json(deals[0]["record"])
            self.match = BmMatch(self.players, self.bm_rules, first_dealer=first.dealer)
            self.match_first_deal = deals[0]["deal_no"]
        assert isinstance(self.match, BmMatch)
        for row in deals:
            rec = BmRecord.from_json(row["record"])
            state = self.match.next_hand(rec.deck)
            for action in rec.actions:
                state.play(action)
            self.state = state
            if state.is_over:
                self.match.finish_hand(state)
                self.result_deals.append(row["deal_no"])


def _check_bm_config(body: Mapping[str, Any], takeover_default: float) -> tuple[dict[str, Any], list[Seat]]:
    """Validate a create-table request for Black Maria (B1-B8): players, rules, the end of the game, seats."""
    players = body.get("players") or 4
    rules_body = dict(body.get("rules") or {})
    if body.get("max_losses") is not None:
        raise ApiError("bad_rules", "a Black Maria game ends after a number of hands or at a target score "
                                    "('rules': {\"hands\": N} or {\"target_score\": N}), not after losses")
    if body.get("deals") is not None:
        rules_body.setdefault("hands", body["deals"])
    if rules_body.get("hands") is not None and "target_score" not in rules_body:
        rules_body["target_score"] = None  # A number of hands alone ends the game.
    try:
        rules = bm_engine.Rules.from_json(rules_body)
        BmMatch(players, rules)
    except (RulesError, TypeError) as e:
        raise ApiError("bad_rules", str(e)) from None
    seats = _seats(body.get("seats"), players, "heuristic", bm.check_bot)
    takeover = body.get("takeover_after")
    config = {
        "game": bm.GAME,
        "name": body.get("name"),
        "players": players,
        "preset": None,
        "rules": rules.to_json(),
        "deals": rules.hands,
        "max_losses": None,
        "private": bool(body.get("private")),
        "hints": body.get("hints", True) is not False,
        "takeover_after": float(takeover_default if takeover is None else takeover),
    }
    return config, seats


def _seats(specs: Any, players: int, default_bot: str, check: Any) -> list[Seat]:
    if specs is None:
        specs = [{"kind": "person"}] + [{"kind": "bot", "bot": default_bot}] * (players - 1)
    if len(specs) != players:
        raise ApiError("bad_request", f"'seats' lists {len(specs)} seats, but the table has {players} players")
    seats = []
    for i, spec in enumerate(specs):
        kind = spec.get("kind", "person")
        if kind == "bot":
            bot = check(spec.get("bot") or default_bot)
            seats.append(Seat("bot", bot=bot, name=spec.get("name") or f"{bot} bot"))
        elif kind == "person":
            seats.append(Seat("person"))
        else:
            raise ApiError("bad_request", f"seat {i}: 'kind' must be 'person' or 'bot', not {kind!r}")
    return seats


def check_config(body: Mapping[str, Any], takeover_default: float) -> tuple[dict[str, Any], list[Seat]]:
    """Validate a create-table request; return the table's config and seats (errors: :class:`ApiError`)."""
    from mustamaija.web.bots import check_bot

    game = body.get("game") or "mustamaija"
    if game == bm.GAME:
        return _check_bm_config(body, takeover_default)
    if game != "mustamaija":
        raise ApiError("bad_request", f"'game' must be 'mustamaija' or 'black-maria', not {game!r}")
    preset = body.get("preset") or "standard"
    try:
        base = Rules.preset(preset)
        rules = base.replace(**body["rules"]) if body.get("rules") else base
    except (RulesError, TypeError) as e:
        raise ApiError("bad_rules", str(e)) from None
    players = body.get("players") or 3
    try:
        rules.check_players(players)
    except RulesError as e:
        raise ApiError("bad_rules", str(e)) from None
    deals, max_losses = body.get("deals"), body.get("max_losses")
    if deals is None and max_losses is None:
        deals = 5
    try:
        Match(players, rules, deals=deals, max_losses=max_losses)
    except RulesError as e:
        raise ApiError("bad_rules", str(e)) from None
    seats = _seats(body.get("seats"), players, "medium", check_bot)
    takeover = body.get("takeover_after")
    config = {
        "name": body.get("name"),
        "players": players,
        "preset": preset,
        "rules": rules.to_json(),
        "deals": deals,
        "max_losses": max_losses,
        "private": bool(body.get("private")),
        "hints": body.get("hints", True) is not False,
        "takeover_after": float(takeover_default if takeover is None else takeover),
    }
    return config, seats
