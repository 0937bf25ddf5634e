"""One table in play: the engine's state of the current deal, the match, the seats and the event numbering.

A :class:`LiveTable` plays any game of the registry through the game protocol
and the game's web renderer (:mod:`mustamaija.web.renderer`). It holds the
whole truth of its table but hands out only views: :meth:`LiveTable.state_for`
builds a seat's state from ``state.view(seat)``, and action events from the
spectator's views. It does no I/O; the manager stores what it changes.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mustamaija.core.cards import cards_of
from mustamaija.core.errors import FormatError, IllegalActionError, MustamaijaError, RulesError, UnknownGameError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME, get_game
from mustamaija.players.levels import LEVEL_NAMES, make_player, seat_label
from mustamaija.players.play import next_action
from mustamaija.ratings.names import bot_identity, identity_name, player_identity
from mustamaija.ratings.outcomes import deal_outcomes
from mustamaija.web.bots import BOT_BOUNDS, check_bot
from mustamaija.web.errors import ApiError
from mustamaija.web.renderer import TableRenderer, renderer_of

__all__ = ["DEFAULT_BOT", "LiveTable", "Seat", "check_config", "deal_bot_action", "deal_of", "hash_token", "new_token",
           "table_game"]

DEFAULT_BOT = LEVEL_NAMES[1]
"""The level of a bot seat created without one, and of a bot playing for a person who is gone (``medium``)."""


def new_token() -> str:
    """Return a fresh seat token (never stored: only its hash is)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """Return the stored form of a seat token.

    >>> len(hash_token("abc")), hash_token("abc") == hash_token("abc")
    (64, True)
    """
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def table_game(name: object) -> Game:
    """Return the game a create request names (none: the default game); an unknown one is ``bad_request``."""
    if name is None:
        return get_game(DEFAULT_GAME)
    if not isinstance(name, str):
        raise ApiError("bad_request", f"'game' must be the name of a game, not {name!r}")
    try:
        return get_game(name)
    except UnknownGameError as e:
        raise ApiError("bad_request", f"'game': {e}") from None


def deal_of(game: Game, obj: Any) -> Any:
    """Return the deal of a stored record: the game's record, or a deal played from a position (``game.positions()``).

    A table set up from a position stores its deal as the position with the actions played since
    (docs/formats.md, "Games played from a position"): it replays as a record does.
    """
    positions = game.positions()
    if positions is not None and not game.is_record(obj) and positions.reads(obj):
        return positions.load(obj)
    return game.load_record(obj)


def deal_bot_action(game_name: str, record: dict[str, Any], seat: int, spec: str, seed: int) -> dict[str, Any]:
    """Return the next action (record JSON) of the bot ``spec`` for ``seat`` in a stored deal of any kind (in a worker).

    As :func:`mustamaija.web.bots.bot_action`, for deals played from a position too.
    """
    game = get_game(game_name)
    state = deal_of(game, record).replay()
    if state.is_over or state.to_act != seat:
        raise MustamaijaError(f"seat {seat} is not to act in this deal")
    action: dict[str, Any] = next_action(state, make_player(spec, seed, game)).to_json()
    return action


@dataclass
class Seat:
    """A seat: a ``"person"`` seat (taken once it has a token) or a ``"bot"`` seat."""

    kind: str
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    connections: int = 0
    gone_since: float | None = None
    player: str | None = None
    """The signed-in name that sits here (it is rated), or ``None`` (docs/web.md, "Ratings")."""

    @property
    def taken(self) -> bool:
        """Return whether somebody sits here (a bot seat always is)."""
        return self.kind == "bot" or self.token_hash is not None

    def row(self, seat: int) -> dict[str, Any]:
        """Return the seat's database row."""
        return {"seat": seat, "kind": self.kind, "bot": self.bot, "name": self.name, "token_hash": self.token_hash,
                "player": self.player}

    def identity(self, game: Game) -> str | None:
        """Return the identity this seat is rated under: its bot level or spec, its signed-in name, or ``None``.

        A person who is gone still answers for a deal a bot finished for them.
        """
        if self.kind == "bot":
            return bot_identity(self.bot or DEFAULT_BOT, game)
        return None if self.player is None else player_identity(self.player)


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
    match: Any = None
    state: Any = None
    match_first_deal: int = 1
    result_deals: list[int] = field(default_factory=list)
    turn_started: float = field(default_factory=time.time)
    """When the seat to act got its turn (the turn clock counts from here)."""
    next_deal_at: float | None = None
    """When the next deal of the match starts at the latest (epoch seconds), while a finished deal is shown."""
    ready: set[int] = field(default_factory=set)
    """The person seats that asked for the next deal: it starts once every connected person has."""
    _public: tuple[tuple[int, int, int], Any] | None = field(default=None, repr=False, compare=False)
    start: Any = None
    """The current deal's state before its first action, at a table that plays a position (its record starts there)."""

    # -- derived -----------------------------------------------------------------------------

    # A table's config never changes: its game, renderer and rules are read once.

    @functools.cached_property
    def game(self) -> Game:
        """Return the game the table plays (tables stored before games were named play the default game)."""
        return get_game(str(self.config.get("game") or DEFAULT_GAME))

    @functools.cached_property
    def renderer(self) -> TableRenderer:
        """Return the game's web renderer."""
        return renderer_of(self.game)

    @functools.cached_property
    def rules(self) -> Any:
        """Return the table's rules."""
        return self.game.rules_from_json(self.config["rules"])

    @property
    def players(self) -> int:
        """Return the number of seats."""
        return int(self.config["players"])

    @property
    def from_position(self) -> bool:
        """Return whether the table plays a position out (``POST /api/positions/play``) rather than dealt deals."""
        return self.config.get("position") is not None

    def _position_deal(self, seed: int | None) -> Any:
        """Return the deal the table's position sets up; ``seed`` orders what the position leaves unknown."""
        positions = self.game.positions()
        assert positions is not None
        return positions.load(self.config["position"], seed)

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
        """Return (bot spec, ``"bot"``, ``"takeover"`` or ``"clock"``) when a bot acts for seat ``s``, else ``None``.

        ``"clock"``: the seat's person let the table's turn clock run out, so a bot makes this one move.
        """
        seat = self.seats[s]
        if seat.kind == "bot":
            return seat.bot or DEFAULT_BOT, "bot"
        if self.taken_over(s, now):
            return str(self.config.get("takeover_bot") or DEFAULT_BOT), "takeover"
        deadline = self.turn_deadline(s)
        if deadline is not None and now >= deadline:
            return str(self.config.get("takeover_bot") or DEFAULT_BOT), "clock"
        return None

    def turn_deadline(self, s: int) -> float | None:
        """Return when seat ``s``'s turn clock runs out, if the table has one and ``s`` is a person to act now."""
        limit = self.config.get("turn_seconds")
        state = self.state
        if not limit or self.status != "playing" or state is None or state.is_over or state.to_act != s:
            return None
        return self.turn_started + float(limit) if self.seats[s].kind == "person" else None

    def clock(self, now: float) -> dict[str, Any] | None:
        """Return the clock the seat to act plays against: its turn clock, or the time until a bot takes over."""
        state = self.state
        if self.status != "playing" or state is None or state.is_over:
            return None
        s = state.to_act
        seat = self.seats[s]
        if seat.kind != "person":
            return None
        found = []
        turn = self.turn_deadline(s)
        if turn is not None:
            found.append((turn, "turn"))
        if seat.taken and seat.gone_since is not None:
            found.append((seat.gone_since + self.takeover_after, "takeover"))
        if not found:
            return None
        at, kind = min(found)
        return {"seat": s, "kind": kind, "at": round(at, 3), "in": round(max(0.0, at - now), 1)}

    def _match(self) -> Any:
        """Return the match, or an empty one to show while the table waits for people."""
        if self.match is not None:
            return self.match
        return self.renderer.new_match(self.players, self.rules, self.config, 0)

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
                "player": seat.player,
            })
        c = self.config
        game, renderer, rules = self.game, self.renderer, self.rules
        describe = getattr(rules, "describe", None)
        return {
            "id": self.id,
            "game": game.name,
            "title": game.title,
            "layout": renderer.layout,
            "name": c.get("name"),
            "players": self.players,
            "preset": c.get("preset"),
            "rules": c["rules"],
            "rules_text": describe() if callable(describe) else None,
            "position": self.from_position,
            "status": self.status,
            "private": bool(c.get("private")),
            "hints": bool(c.get("hints")),
            "takeover_after": self.takeover_after,
            "turn_seconds": self.config.get("turn_seconds"),
            "clock": self.clock(t),
            "next_deal": ({"at": self.next_deal_at, "in": round(max(0.0, self.next_deal_at - t), 1),
                           "ready": sorted(self.ready)} if self.next_deal_at is not None else None),
            "version": self.version,
            "seq": self.seq,
            "deal": self.deal_no or None,
            "match": {"number": self.match_no, **renderer.match_json(self._match(), c, self.result_deals)},
            "seats": seats,
            "created": self.created,
        }

    def public_view(self) -> Any:
        """Return the spectator's view of the current deal.

        It is kept until the table changes: the events and the spectators' state of one change share it.
        """
        key = (self.version, self.deal_no, id(self.state))
        if self._public is None or self._public[0] != key:
            self._public = (key, self.state.view(None))
        return self._public[1]

    def state_for(self, seat: int | None) -> dict[str, Any] | None:
        """Return the current deal as ``seat`` (``None``: a spectator) sees it, built from its view only."""
        if self.state is None:
            return None
        return self.renderer.state_json(self.public_view() if seat is None else self.state.view(seat), self.deal_no)

    def record(self) -> Any:
        """Return the docs/formats.md record of the current deal, with the seat names."""
        assert self.state is not None
        extra = {"names": [s.name for s in self.seats], "table": self.id, "deal": self.deal_no,
                 "bots": [s.bot if s.kind == "bot" else None for s in self.seats],
                 "signed_in": [s.player for s in self.seats]}
        if self.from_position:  # No deck to record: the position as dealt (its talon in order) and the actions since.
            positions = self.game.positions()
            assert positions is not None and self.start is not None
            extra["table_id"] = extra.pop("table")  # A position's own "table" is the cards on the table.
            return positions.record(self.start, self.state, **extra)
        return self.game.record_of(self.state, **extra)

    def deal_row(self) -> dict[str, Any]:
        """Return the database row of the current deal."""
        assert self.state is not None
        return {"deal_no": self.deal_no, "match_no": self.match_no, "record": self.record().to_json(),
                "finished": self.state.is_over, **self.renderer.deal_columns(self.state)}

    def stored_rows(self, since: int) -> dict[str, Any]:
        """Return the deal's rows to store after the actions played since it held ``since`` actions.

        They are those actions as its record holds them, or the whole record once the deal is over.
        """
        state = self.state
        assert state is not None
        if state.is_over:
            return {"deal": self.deal_row()}
        new = state.actions()[since:] if state.nlog - since > 1 else [state.last_action()]
        return {"actions": [{"deal_no": self.deal_no, "ply": since + i, "action": a.to_json()} for i, a in enumerate(new)]}

    def rating_row(self) -> dict[str, Any] | None:
        """Return what rates the finished deal (the store's ``rating``), or ``None`` when it rates nobody.

        The results are those of the pairwise rule (:mod:`mustamaija.ratings.outcomes`) between the seats'
        identities (:meth:`Seat.identity`).
        """
        state = self.state
        if state is None or not state.is_over or self.from_position:
            return None  # A position is made up, not dealt: its result says nothing fair of the seats' strength.
        seats = [seat.identity(self.game) for seat in self.seats]
        outcomes = [o for o in deal_outcomes(self.game, state)
                    if seats[o.a] is not None and seats[o.b] is not None and seats[o.a] != seats[o.b]]
        if not outcomes:
            return None
        names = {who: seat.player or identity_name(who) for who, seat in zip(seats, self.seats, strict=True) if who}
        return {"deal_no": self.deal_no, "game": self.game.name, "seats": seats, "names": names,
                "outcomes": [[o.a, o.b, o.score] for o in outcomes], "at": time.time()}

    @property
    def in_match(self) -> int:
        """Return the current deal's number within its match (1 for the match's first), as people count deals."""
        return self.deal_no - self.match_first_deal + 1

    def everyone_ready(self) -> bool:
        """Return whether someone asked for the next deal and so did every person connected to the table."""
        here = {s for s, seat in enumerate(self.seats) if seat.kind == "person" and seat.connections > 0}
        return bool(self.ready) and here <= self.ready

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

    def start_match(self, first_dealer: int | None = None) -> None:
        """Begin a match, with a dealer drawn at random unless given."""
        dealer = secrets.randbelow(self.players) if first_dealer is None else first_dealer
        if self.from_position:  # The match scores the position's deal, so it is the position's dealer's.
            dealer = self._position_deal(0).dealer
        self.match = self.renderer.new_match(self.players, self.rules, self.config, dealer)
        self.match_first_deal = self.deal_no + 1
        self.result_deals = []
        self.state = None

    def start_deal(self) -> list[dict[str, Any]]:
        """Deal the next deal of the match from a deck shuffled with :mod:`secrets`; return its event."""
        assert self.match is not None
        if self.from_position:
            # What the position leaves unknown (a talon's order) is shuffled with a seed no client ever sees.
            self.state = self._position_deal(secrets.randbits(64)).start()
            self.start = self.state.copy()
        else:
            deck = list(cards_of(self.game.deck(self.players)))
            secrets.SystemRandom().shuffle(deck)
            self.state = self.renderer.next_deal(self.match, tuple(deck))
        self.turn_started = time.time()
        self.next_deal_at = None
        self.ready.clear()
        self.deal_no += 1
        self.version += 1
        self.status = "playing"
        return [self.event("deal_start", deal=self.deal_no, match=self.match_no, in_match=self.in_match,
                           dealer=self.state.dealer, version=self.version,
                           **self.renderer.deal_facts(self.public_view()))]

    def parse_action(self, seat: int, body: object) -> Any:
        """Parse a client's action (the docs/formats.md record action without the seat) for ``seat``."""
        if not isinstance(body, Mapping):
            raise ApiError("bad_request", f"'action' must be a JSON object: a record action without its seat "
                                          f"(docs/web.md), not {body!r}")
        if "seat" in body:  # The token says who acts; a seat in the body could only disagree (or be a bool).
            raise ApiError("bad_request", "an action names no seat: the seat token says who acts")
        if len(body) != 1:
            keys = ", ".join(repr(str(k)[:20]) for k in list(body)[:5]) or "none"
            raise ApiError("bad_request", f"an action holds exactly one key, its kind (docs/web.md), not {keys}")
        return self.action_from_record({**body, "seat": seat})

    def action_from_record(self, body: Mapping[str, Any]) -> Any:
        """Parse a record action of this table's game (a client's, or a bot's answer)."""
        try:
            return self.game.action_from_json(body, self.players)
        except (FormatError, TypeError) as e:
            raise ApiError("bad_request", f"bad action: {e}") from None

    def check_turn(self, seat: int, version: object) -> Any:
        """Return the deal if ``seat`` may act on ``version`` now; otherwise raise the matching :class:`ApiError`."""
        if isinstance(version, bool) or not isinstance(version, int):
            raise ApiError("bad_request", f"'version' must be the integer version the action is based on, not {version!r}")
        state = self.state
        if self.status != "playing" or state is None or state.is_over:
            raise ApiError("not_playing", f"table {self.id} is not playing a deal now (status {self.status})")
        if version != self.version:
            raise ApiError("stale", f"the action is based on version {version}, but the table is at version {self.version}")
        if state.to_act != seat:
            raise ApiError("not_your_turn", f"seat {seat} cannot act now: seat {state.to_act} is to {state.phase_name}")
        return state

    def apply(self, action: Any, by: str) -> list[dict[str, Any]]:
        """Play a checked-for-turn action through the engine; return the new events (illegal: :class:`ApiError`)."""
        state, match, renderer = self.state, self.match, self.renderer
        assert state is not None and match is not None
        before = self.public_view()
        try:
            state.play(action)
        except IllegalActionError as e:
            raise ApiError("illegal", str(e), rule=e.rule) from None
        except MustamaijaError as e:
            raise ApiError("bad_request", f"bad action: {e}") from None
        self.version += 1
        self.turn_started = time.time()
        own, *more = renderer.events(before, self.public_view(), action)
        events = [self.event(own.pop("kind"), deal=self.deal_no, version=self.version, seat=action.seat, by=by, **own)]
        events += [self.event(e.pop("kind"), deal=self.deal_no, **e) for e in more]
        if state.is_over:
            facts = renderer.finish_deal(match, state)
            self.result_deals.append(self.deal_no)
            events.append(self.event("deal_over", deal=self.deal_no, in_match=self.in_match, **facts))
            if match.over:
                self.status = "over"
                events.append(self.event("match_over", match=self.match_no, **renderer.match_over(match)))
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
        """Rebuild the match and the current deal from the stored deals (records) of the current match."""
        if self.status == "waiting" and not deals:
            return
        game, renderer = self.game, self.renderer
        records = [deal_of(game, row["record"]) for row in deals]
        self.start_match(records[0].dealer if records else None)
        if deals:
            self.match_first_deal = deals[0]["deal_no"]
        for row, rec in zip(deals, records, strict=True):
            if self.from_position:  # Stored with its talon in the order it was shuffled to.
                state = rec.start()
                self.start = state.copy()
            else:
                state = renderer.next_deal(self.match, rec.deck)
            for action in rec.actions:
                state.play(action)
            self.state = state
            if state.is_over:
                renderer.finish_deal(self.match, state)
                self.result_deals.append(row["deal_no"])


def _seats(specs: Any, players: int, game: Game, bot_bounds: Mapping[str, float]) -> list[Seat]:
    if specs is None:
        specs = [{"kind": "person"}] + [{"kind": "bot", "bot": DEFAULT_BOT}] * (players - 1)
    if len(specs) != players:
        raise ApiError("bad_request", f"'seats' lists {len(specs)} seats, but the table has {players} players")
    seats = []
    for i, spec in enumerate(specs):
        kind = spec.get("kind", "person")
        if kind == "bot":
            bot = check_bot(spec.get("bot") or DEFAULT_BOT, game, bot_bounds)
            seats.append(Seat("bot", bot=bot, name=spec.get("name") or seat_label(i, bot, game)))
        elif kind == "person":
            # Said, not dropped: a person names themselves when they sit down, and a person seat runs no bot.
            if spec.get("name") is not None:
                raise ApiError("bad_request", f"seat {i}: a person seat takes no name here; the person gives it on "
                               "sitting down ('player_name' for the table's creator, 'name' when joining)")
            if spec.get("bot") is not None:
                raise ApiError("bad_request", f"seat {i}: 'bot' is for a bot seat (\"kind\": \"bot\")")
            seats.append(Seat("person"))
        else:
            raise ApiError("bad_request", f"seat {i}: 'kind' must be 'person' or 'bot', not {kind!r}")
    return seats


def check_config(body: Mapping[str, Any], takeover_default: float,
                 bot_bounds: Mapping[str, float] = BOT_BOUNDS) -> tuple[dict[str, Any], list[Seat]]:
    """Validate a create-table request of any game; return the table's config and seats (errors: :class:`ApiError`).

    The game's renderer reads the match length (:meth:`TableRenderer.match_settings
    <mustamaija.web.renderer.TableRenderer.match_settings>`); the rules are the
    preset's (the game's first by default) with ``rules`` applied.
    """
    game = table_game(body.get("game"))
    renderer = renderer_of(game)
    players = body.get("players") or renderer.default_players
    preset = body.get("preset") or game.presets[0]
    position = body.get("position")
    try:
        if position is not None:
            # A position is played out as a match of one deal, under the position's own rules.
            deal = _checked_position(game, position)
            players = deal.players
            rules = deal.rules
            settings = renderer.match_settings({"deals": 1})[1]
        else:
            overrides, settings = renderer.match_settings(body)
            rules = game.make_rules(preset, overrides)
        game.check_players(rules, players)
        renderer.new_match(players, rules, settings, 0)
    except (RulesError, TypeError) as e:
        raise ApiError("bad_rules", str(e)) from None
    seats = _seats(body.get("seats"), players, game, bot_bounds)
    takeover = body.get("takeover_after")
    config = {
        "game": game.name,
        "name": body.get("name"),
        "players": players,
        "preset": preset,
        "rules": rules.to_json(),
        **settings,
        "private": bool(body.get("private")),
        "hints": body.get("hints", True) is not False,
        "takeover_after": float(takeover_default if takeover is None else takeover),
        "turn_seconds": float(body["turn_seconds"]) if body.get("turn_seconds") else None,
    }
    if position is not None:
        config["position"] = position
    return config, seats


def _checked_position(game: Game, position: object) -> Any:
    """Return the deal a table's position sets up, if it can be played out; otherwise raise ``bad_position``."""
    positions = game.positions()
    if positions is None:
        raise ApiError("bad_request", f"{game.title} has no positions to play from")
    try:
        deal = positions.load(position, 0)
        state = deal.start()
    except (MustamaijaError, TypeError, ValueError) as e:
        raise ApiError("bad_position", str(e)) from None
    if getattr(deal, "actions", ()):
        raise ApiError("bad_position", "a table plays a position from where it stands: send it without 'actions'")
    if state.is_over:
        raise ApiError("bad_position", "the deal of this position is over: there is nothing to play")
    if getattr(getattr(deal, "position", None), "in_progress", False):
        raise ApiError("bad_position", "the position is part way through an action chosen card by card, and a "
                                       "table plays whole actions: set it up before or after that action")
    return deal
