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

from ..cards import card_name
from ..errors import FormatError, IllegalActionError, MustamaijaError, RulesError
from ..formats.record import Record
from ..game.actions import Action, Lead, action_from_json
from ..game.deals import shuffled_deck
from ..game.match import Match
from ..game.rules import Rules
from ..game.state import State
from .errors import ApiError
from .payloads import action_body, action_event_facts, describe, state_json

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
    match: Match | None = None
    state: State | None = None
    match_first_deal: int = 1
    result_deals: list[int] = field(default_factory=list)

    # -- derived -----------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """Return the table's rules."""
        return Rules.from_json(self.config["rules"])

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
        if match is not None:
            for number, r in zip(self.result_deals, match.results, strict=False):
                results.append({"deal": number, "dealer": r.dealer, "loser": r.loser,
                                "stopped": r.loser is None, "turns": r.turns})
        c = self.config
        return {
            "id": self.id,
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

    def state_for(self, seat: int | None) -> dict[str, Any] | None:
        """Return the current deal as ``seat`` (``None``: a spectator) sees it, built from its view only."""
        if self.state is None:
            return None
        return state_json(self.state.view(seat), deal=self.deal_no)

    def record(self) -> Record:
        """Return the FORMATS.md record of the current deal, with the seat names."""
        assert self.state is not None
        return Record.from_state(self.state, names=[s.name for s in self.seats], table=self.id, deal=self.deal_no)

    def deal_row(self) -> dict[str, Any]:
        """Return the database row of the current deal."""
        assert self.state is not None
        s = self.state
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
        self.match = Match(self.players, self.rules, deals=c.get("deals"), max_losses=c.get("max_losses"),
                           first_dealer=secrets.randbelow(self.players))
        self.match_first_deal = self.deal_no + 1
        self.result_deals = []
        self.state = None

    def start_deal(self) -> list[dict[str, Any]]:
        """Deal the next deal of the match from a deck shuffled with :mod:`secrets`; return its event."""
        assert self.match is not None
        self.state = self.match.next_deal(shuffled_deck(secrets.SystemRandom()))
        self.deal_no += 1
        self.version += 1
        self.status = "playing"
        return [self.event("deal_start", deal=self.deal_no, match=self.match_no,
                           dealer=self.state.dealer, version=self.version)]

    def parse_action(self, seat: int, body: object) -> Action:
        """Parse a client's action (FORMATS.md form without the seat) for ``seat``."""
        if not isinstance(body, Mapping):
            raise ApiError("bad_request", f"'action' must be a JSON object such as {{\"lead\": [\"9H\"]}}, not {body!r}")
        if "seat" in body and body["seat"] != seat:
            raise ApiError("bad_request", f"the action names seat {body['seat']!r}, but this token is seat {seat}")
        try:
            return action_from_json({**body, "seat": seat}, self.players)
        except (FormatError, TypeError) as e:
            raise ApiError("bad_request", f"bad action: {e}") from None

    def check_turn(self, seat: int, version: object) -> State:
        """Return the deal if ``seat`` may act on ``version`` now; otherwise raise the matching :class:`ApiError`."""
        if isinstance(version, bool) or not isinstance(version, int):
            raise ApiError("bad_request", f"'version' must be the integer version the action is based on, not {version!r}")
        state = self.state
        if self.status != "playing" or state is None or state.is_over:
            raise ApiError("not_playing", f"table {self.id} is not playing a deal now (status {self.status})")
        if version != self.version:
            raise ApiError("stale", f"the action is based on version {version}, but the table is at version {self.version}")
        if state.to_act != seat:
            role = "lead" if state.phase == 0 else "defend"
            raise ApiError("not_your_turn", f"seat {seat} cannot act now: seat {state.to_act} is to {role}")
        return state

    def apply(self, action: Action, by: str) -> list[dict[str, Any]]:
        """Play a checked-for-turn action through the engine; return the new events (illegal: :class:`ApiError`)."""
        state = self.state
        assert state is not None and self.match is not None
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


def check_config(body: Mapping[str, Any], takeover_default: float) -> tuple[dict[str, Any], list[Seat]]:
    """Validate a create-table request; return the table's config and seats (errors: :class:`ApiError`)."""
    from .bots import check_bot

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
    seat_specs = body.get("seats")
    if seat_specs is None:
        seat_specs = [{"kind": "person"}] + [{"kind": "bot", "bot": "medium"}] * (players - 1)
    if len(seat_specs) != players:
        raise ApiError("bad_request", f"'seats' lists {len(seat_specs)} seats, but the table has {players} players")
    seats = []
    for i, spec in enumerate(seat_specs):
        kind = spec.get("kind", "person")
        if kind == "bot":
            bot = check_bot(spec.get("bot") or "medium")
            seats.append(Seat("bot", bot=bot, name=spec.get("name") or f"{bot} bot"))
        elif kind == "person":
            seats.append(Seat("person"))
        else:
            raise ApiError("bad_request", f"seat {i}: 'kind' must be 'person' or 'bot', not {kind!r}")
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
