"""The table manager: every live table, their actions, bots, presence, subscribers and recovery.

Everything that changes a table runs on the event loop, one change at a
time, and is committed to the store before any client hears of it: the
changes of one turn of the loop are staged and written in one transaction
(a group commit) at the end of that turn, and every message queued
meanwhile waits in an :class:`Outbox` until the write is done. A client
therefore never hears of a change a killed server could forget, and the
store pays one transaction for many actions. Bots think in a
:class:`~mustamaija.web.bots.BotRunner` pool; when a bot's answer comes
back, it is played only if the table is still at the version the bot
looked at.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mustamaija.core.errors import MustamaijaError
from mustamaija.web.bots import BotRunner, cheap_action, is_cheap
from mustamaija.web.chat import ChatRoom, channel_of
from mustamaija.web.cluster import SWEEP_SECONDS, Cluster
from mustamaija.web.config import ServerConfig
from mustamaija.web.errors import ApiError, Elsewhere
from mustamaija.web.jsontext import dumps
from mustamaija.web.live import LiveTable, Seat, check_config, deal_bot_action, deal_of, hash_token, new_token
from mustamaija.web.relay import Relay
from mustamaija.web.shared_work import SharedWork
from mustamaija.web.store import FlushError, Store

__all__ = ["Message", "Outbox", "Subscriber", "TableManager", "hint_json"]

log = logging.getLogger("mustamaija.web")

_MAX_MISSED = 500
_QUEUE_LIMIT = 2000
_MAX_HINTS = 2  # Hints run at once; each takes under a second of a core (at most hint_seconds).
_MAX_REVIEWS = 2  # Deal reviews made at once (each decision a short search, in turn with the other searches).
_KEEP_REVIEWS = 64


Message = dict[str, Any] | str | None
"""What a subscriber's queue holds: a message, a message already encoded as JSON text, or ``None`` (close)."""


class Outbox:
    """Messages held back while changes they may tell of are staged but not yet in the store.

    Holding every message (not only those of the changed tables) keeps each subscriber's messages in
    the order they were sent; the hold lasts until the end of the loop's turn.
    """

    def __init__(self) -> None:
        self.holding = False
        self.held: list[tuple[Subscriber, Message]] = []

    def release(self) -> None:
        """Deliver the held messages, in order, and stop holding."""
        held, self.held, self.holding = self.held, [], False
        for sub, message in held:
            sub.put(message)


@dataclass(eq=False)
class Subscriber:
    """One open WebSocket or stream: its table, its seat (``None``: spectator) and its outgoing messages."""

    table_id: str
    seat: int | None
    outbox: Outbox | None = None
    queue: asyncio.Queue[Message] = field(default_factory=asyncio.Queue)
    overflow: bool = False
    chat_name: str | None = None
    """The name a spectator chats under, given when it first speaks."""

    def send(self, message: Message) -> None:
        """Queue a message (``None`` asks the connection to close), after the changes being written."""
        if self.outbox is not None and self.outbox.holding:
            self.outbox.held.append((self, message))
        else:
            self.put(message)

    def put(self, message: Message) -> None:
        """Queue a message now; a client that falls far behind is dropped."""
        if self.queue.qsize() >= _QUEUE_LIMIT:
            self.overflow = True
            return
        self.queue.put_nowait(message)


def _clean_name(name: object, fallback: str) -> str:
    if name is None:
        return fallback
    if not isinstance(name, str):
        raise ApiError("bad_request", f"'name' must be a string, not {name!r}")
    text = " ".join(name.split())[:40]
    return text or fallback


def _review_point(game_name: str, view: Any, action: Any, index: int, iters: int) -> Any:
    """Judge one decision of a deal review from the acting seat's view (in a worker process)."""
    from mustamaija.core.registry import get_game
    from mustamaija.search.review import review_decision

    return review_decision(get_game(game_name), view, action, index=index, iters=iters, seed=0)


def hint_json(game_name: str, view: Any, cap: float, you: bool = True) -> dict[str, Any]:
    """Return the tables' hint (:func:`~mustamaija.search.hints.table_hint`) for the view's seat, as JSON.

    It runs in a worker process (it is given the game's name and the seat's view, which pickle). ``cap`` is the
    wall-clock safety net in seconds. With ``you`` (a table's seat) it is worded for the seat's player: "you",
    and moves as a player says them; without (the position editor), for an onlooker.
    """
    from mustamaija.core.registry import get_game
    from mustamaija.search.hints import table_hint

    result: dict[str, Any] = table_hint(get_game(game_name), view, cap=cap, you=you).to_json()
    return result


class TableManager:
    """Owns the live tables; the app's routes and sockets call its methods."""

    def __init__(self, config: ServerConfig, store: Store | None = None) -> None:
        self.config = config
        self.store = store or Store(config.db_url)
        self.runner = BotRunner(config.bot_workers, config.search_timeout, config.move_timeout)
        self.tables: dict[str, LiveTable] = {}
        self.subscribers: dict[str, set[Subscriber]] = {}
        self.chats: dict[str, ChatRoom] = {}  # In memory only: chat leaves with its table.
        self._reviews: SharedWork[tuple[str, int], dict[str, Any]] = SharedWork(
            _KEEP_REVIEWS, _MAX_REVIEWS, f"the server is making {_MAX_REVIEWS} reviews already: ask again in a minute")
        self._review_progress: dict[tuple[str, int], tuple[int, int]] = {}  # Decisions judged, of all, by review.
        self._spectators_seen = 0
        self._wake: dict[str, asyncio.Event] = {}
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._closing = False
        self._hints = 0
        self.outbox = Outbox()
        self._written: asyncio.Future[None] | None = None  # Done when the staged changes are in the store.
        # On PostgreSQL every server is one of a cluster (of one, or more): it owns only the tables it has claimed.
        self.cluster: Cluster | None = None
        if self.store.engine.dialect.name == "postgresql":
            self.cluster = Cluster(self.store, config.advertise or "")
        self._sweeper: asyncio.Task[None] | None = None
        self.relay: Relay | None = None
        """Passes requests for other servers' tables on to them (in a cluster, once started)."""
        self._lobby: tuple[float, dict[str, Any]] | None = None

    # -- life cycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Load every unfinished table from the store (in a cluster: that no server owns) and let its bots go on."""
        if self.cluster is not None:
            self.cluster.start()
            self.relay = Relay(self.cluster.secret)
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self._adopt(self.store.table_ids(["waiting", "playing"]))

    def _adopt(self, table_ids: list[str]) -> None:
        """Load and drive the given tables (in a cluster, those of them no server owns, which this one claims)."""
        if self.cluster is not None:
            table_ids = self.cluster.orphans(t for t in table_ids if t not in self.tables)
        for table_id in table_ids:
            if self.cluster is not None and not self.cluster.claim(table_id):
                continue  # Another server claimed it first.
            try:
                table = self._load(table_id)
            except Exception:  # One broken row must not keep the other tables from running.
                log.exception("table %s could not be restored", table_id)
                continue
            if table is not None:
                self._drive(table)

    async def _sweep(self) -> None:
        """Keep this server's membership alive, and claim the tables in play that no server owns (a dead one's)."""
        assert self.cluster is not None
        while not self._closing:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                if not self.cluster.alive():
                    self._drop(list(self.tables))
                    continue
                self._adopt(self.store.table_ids(["playing"]))
            except Exception:  # The database may be down for a moment: try again at the next sweep.
                log.exception("the cluster sweep failed")

    def _drop(self, table_ids: list[str]) -> None:
        """Let go of tables this server no longer owns: their clients are disconnected and reconnect to the owner."""
        for table_id in table_ids:
            for sub in self._unload(table_id):
                sub.send(None)

    def _unload(self, table_id: str) -> set[Subscriber]:
        """Take a table out of memory and stop its driver (in a cluster, give up its lock); return its subscribers."""
        self.tables.pop(table_id, None)
        self.chats.pop(table_id, None)
        self._wake.pop(table_id, None)
        driver = self._drivers.pop(table_id, None)
        if driver is not None and driver is not asyncio.current_task():
            driver.cancel()
        if self.cluster is not None:
            self.cluster.release(table_id)
        return self.subscribers.pop(table_id, set())

    async def close(self) -> None:
        """Stop the drivers, close every subscriber and release the pools and the database."""
        self._closing = True
        for task in self._drivers.values():
            task.cancel()
        for task in self._drivers.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for subs in self.subscribers.values():
            for sub in subs:
                sub.send(None)
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        self.runner.close()
        self._flush()
        if self.relay is not None:
            await self.relay.close()
        if self.cluster is not None:
            self.cluster.close()  # After the last write: the tables' next owners must find every change.
        self.store.close()

    # -- the group commit ------------------------------------------------------------------------

    def _write(self, table_id: str, **rows: Any) -> None:
        """Stage a table's change; it is written, with the others of this turn of the loop, before any message."""
        self.store.stage(table_id, **rows)
        if self.outbox.holding:
            return
        self.outbox.holding = True
        try:
            asyncio.get_running_loop().call_soon(self._flush)
        except RuntimeError:  # No loop (a script driving the manager): write at once.
            self._flush()

    def _flush(self) -> None:
        """Write the staged changes in one transaction, then deliver the messages held meanwhile."""
        try:
            self.store.flush()
        except FlushError as e:
            for table_id, error in e.failures.items():
                log.error("writing the changes of table %s failed: %s", table_id, error)
            if self.cluster is not None:
                # In a cluster, a failed write most likely means that another server owns the table now.
                self._drop(list(e.failures))
        except Exception:  # A failed write is logged; the tables carry on, as after any bug.
            log.exception("writing the tables' changes failed")
        finally:
            self.outbox.release()
            written, self._written = self._written, None
            if written is not None and not written.done():
                written.set_result(None)

    async def settled(self) -> None:
        """Return once every change made so far is in the store.

        An HTTP answer that shows a table waits for this: no client may hear of a change a killed server
        could forget. (WebSocket messages wait in the outbox instead.)
        """
        if not self.outbox.holding:
            return
        if self._written is None:
            self._written = asyncio.get_running_loop().create_future()
        await asyncio.shield(self._written)

    def _stored(self, table_id: str, gone_since: float | None) -> LiveTable | None:
        """Return a table rebuilt from the store (its people gone since ``gone_since``), or None if there is none."""
        row = self.store.load_table(table_id)
        if row is None:
            return None
        seats = [Seat(r["kind"], bot=r["bot"], name=r["name"], token_hash=r["token_hash"],
                      gone_since=gone_since if r["kind"] == "person" else None, player=r.get("player"))
                 for r in row["seats"]]
        table = LiveTable(table_id, row["config"], seats, status=row["status"], version=row["version"],
                          seq=row["seq"], match_no=row["match_no"], deal_no=row["deal_no"], created=row["created"])
        table.restore(self.store.deals(table_id, row["match_no"]))
        return table

    def _load(self, table_id: str) -> LiveTable | None:
        table = self._stored(table_id, time.time())
        if table is not None:
            self.tables[table_id] = table
        return table

    def get(self, table_id: str) -> LiveTable:
        """Return a table, loading it from the store if needed; an unknown id is ``not_found``.

        In a cluster, a table another server owns raises :class:`Elsewhere` (the app relays the request).
        """
        table = self.tables.get(table_id)
        if table is None and isinstance(table_id, str) and 0 < len(table_id) <= 32:
            if self.cluster is not None and not self.cluster.claim(table_id):
                raise Elsewhere(table_id, self.cluster.owner(table_id))
            table = self._load(table_id)
            if table is not None:
                self._drive(table)
            elif self.cluster is not None:
                self.cluster.release(table_id)
        if table is None:
            raise ApiError("not_found", f"there is no table {table_id[:40]!r}")
        return table

    # -- lobby and seats ----------------------------------------------------------------------

    def lobby(self) -> dict[str, Any]:
        """Return the public tables waiting for people and those in play (in a cluster: every server's)."""
        now = time.time()
        if self.cluster is not None:
            return self._cluster_lobby(now)
        tables = sorted(self.tables.values(), key=lambda t: -t.created)
        public = [t for t in tables if not t.config.get("private")]
        return {
            "open": [t.meta(now) for t in public if t.status == "waiting"][:100],
            "running": [t.meta(now) for t in public if t.status == "playing"][:100],
        }

    def _cluster_lobby(self, now: float) -> dict[str, Any]:
        """Return the lobby of every server's tables, read from the store at most once a second."""
        if self._lobby is not None and now - self._lobby[0] < 1.0:
            return self._lobby[1]
        shown: dict[str, list[dict[str, Any]]] = {"open": [], "running": []}
        for status, key in (("waiting", "open"), ("playing", "running")):
            for table_id in self.store.public_table_ids(status, limit=100):
                table = self.tables.get(table_id) or self._peek(table_id)
                if table is not None:
                    shown[key].append(table.meta(now))
        self._lobby = (now, shown)
        return shown

    def _peek(self, table_id: str) -> LiveTable | None:
        """Return a table as stored, to show it: not kept, not driven (another server may own it)."""
        try:
            return self._stored(table_id, None)
        except Exception:  # A table that cannot be shown is left out of the lobby, not the lobby out of service.
            log.exception("table %s could not be read for the lobby", table_id)
            return None

    def create(self, body: Mapping[str, Any]) -> tuple[LiveTable, int | None, str | None]:
        """Create a table; with ``sit`` the creator takes the first person seat. Return (table, seat, token)."""
        player = self.signed_in(body.get("player_name"), body.get("player_key")) if body.get("sit", True) else None
        config, seats = check_config(body, self.config.takeover_after, self.config.bot_bounds)
        for s in seats:  # A bot may be given a name, but not a signed-in person's.
            if s.kind == "bot" and s.name is not None:
                self._unclaimed(s.name)
        table_id = secrets.token_urlsafe(9)
        while table_id.startswith("-"):  # An id that looks like an option would trip command lines (--join -x…).
            table_id = secrets.token_urlsafe(9)
        if self.cluster is not None and not self.cluster.claim(table_id):
            raise ApiError("internal", "a fresh table id was taken: try again")
        table = LiveTable(table_id, config, seats)
        events: list[dict[str, Any]] = []
        seat = token = None
        if body.get("sit", True) and table.free_seats():
            seat = table.free_seats()[0]
            token = new_token()
            name = player or _clean_name(body.get("player_name"), f"player {seat}")
            table.seats[seat].token_hash = hash_token(token)
            table.seats[seat].name = name
            table.seats[seat].player = player
            table.seats[seat].gone_since = time.time()
            events.append(table.event("join", seat=seat, name=name))
        events += self._maybe_begin(table)
        self.tables[table_id] = table
        self._write(table_id, table=table.table_row(), seats=[s.row(i) for i, s in enumerate(table.seats)],
                          deal=table.deal_row() if table.state is not None else None, events=events)
        self._drive(table)
        return table, seat, token

    def join(self, table_id: str, seat: object, name: object, player_key: object = None) -> tuple[LiveTable, int, str]:
        """Take a free person seat (``seat`` ``None``: the first free one); return (table, seat, token).

        With ``player_key`` the seat is the signed-in ``name``'s, and rated (:meth:`signed_in`).
        """
        player = self.signed_in(name, player_key)
        table = self.get(table_id)
        free = table.free_seats()
        if seat is None:
            if not free:
                raise ApiError("no_free_seat", f"every person seat at table {table_id} is taken")
            seat = free[0]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.players:
            raise ApiError("bad_request", f"'seat' must be a seat from 0 to {table.players - 1}, not {seat!r}")
        if seat not in free:
            what = "a bot's seat" if table.seats[seat].kind == "bot" else "taken"
            raise ApiError("seat_taken", f"seat {seat} at table {table_id} is {what}")
        token = new_token()
        s = table.seats[seat]
        s.token_hash = hash_token(token)
        s.name = player or _clean_name(name, f"player {seat}")
        s.player = player
        s.gone_since = time.time()
        events = [table.event("join", seat=seat, name=s.name)]
        events += self._maybe_begin(table)
        self._write(table_id, table=table.table_row(), seats=[s.row(seat)],
                          deal=table.deal_row() if table.state is not None else None, events=events)
        self._broadcast(table, events)
        self._wake_up(table)
        return table, seat, token

    def signed_in(self, name: object, key: object) -> str | None:
        """Return the claimed name a seat sits as when ``key`` is its player key, or ``None`` without a key.

        A wrong key is ``unauthorized``; a name taken by a claimed one (in any case) without its key is
        ``name_taken``: nobody sits under a signed-in person's name but that person (docs/web.md, "Ratings").
        """
        if key is None:
            if isinstance(name, str):
                self._unclaimed(_clean_name(name, ""))
            return None
        if not isinstance(key, str) or not 0 < len(key) <= 100:
            raise ApiError("unauthorized", "the player key is malformed")
        if not isinstance(name, str) or not name.strip():
            raise ApiError("bad_request", "a player key is sent with the name it was given for")
        row = self.store.player(name)
        if row is None or not secrets.compare_digest(row["key_hash"], hash_token(key)):
            raise ApiError("unauthorized", f"this player key does not sign in as {name.strip()[:40]!r}")
        return str(row["name"])

    def _unclaimed(self, name: str) -> None:
        """Refuse (``name_taken``) a name given without a key that is a claimed name."""
        if name and self.store.player(name) is not None:
            raise ApiError("name_taken", f"{name[:40]!r} is a signed-in player's name: sign in with its key, "
                                         "or choose another name")

    def _maybe_begin(self, table: LiveTable) -> list[dict[str, Any]]:
        if table.status != "waiting" or table.free_seats():
            return []
        table.start_match()
        return table.start_deal()

    # -- acting --------------------------------------------------------------------------------

    def act(self, table_id: str, seat: int | None, version: object, body: object, by: str = "person") -> int:
        """Play a client's action for ``seat``; return the new version (refusals: :class:`ApiError`)."""
        table = self.get(table_id)
        if seat is None:
            raise ApiError("not_seated", "spectators cannot act: use a seat token")
        table.check_turn(seat, version)
        action = table.parse_action(seat, body)
        self._play(table, action, by)
        return table.version

    def _play(self, table: LiveTable, action: Any, by: str) -> None:
        plies = table.state.nlog
        events = table.apply(action, by)
        # A move no choice could change is played at once, in the same change: nobody is ever shown it to make.
        while not table.state.is_over and (decided := table.game.decided_action(table.state)) is not None:
            events += table.apply(decided, "rule")
        if table.state.is_over and not table.match.over and self.config.deal_pause > 0:
            table.next_deal_at = time.time() + self.config.deal_pause  # The result is shown until then, or all are ready.
        # A finished deal is rated in the transaction that stores it, once (docs/web.md, "Ratings").
        self._write(table.id, table=table.table_row(), **table.stored_rows(plies), events=events,
                    rating=table.rating_row())
        self._broadcast(table, events)
        self._wake_up(table)
        self._forget_if_idle(table)

    def _forget_if_idle(self, table: LiveTable) -> None:
        """Let a table whose match is over and that nobody watches leave memory.

        It stays in the store: :meth:`get` loads it again for a replay, a rematch or a late visitor.
        """
        if table.status != "over" or self.subscribers.get(table.id) or self._closing:
            return
        if self.cluster is not None:
            self._flush()  # Its last change must be stored before another server may claim it.
        self._unload(table.id)

    def rematch(self, table_id: str, seat: int | None) -> LiveTable:
        """Begin a new match at a table whose match is over."""
        table = self.get(table_id)
        if seat is None:
            raise ApiError("not_seated", "spectators cannot ask for a rematch: use a seat token")
        events = table.rematch()
        events += table.start_deal()
        self._write(table.id, table=table.table_row(), deal=table.deal_row(), events=events)
        self._broadcast(table, events)
        self._wake_up(table)
        return table

    def next_deal(self, table_id: str, seat: int | None) -> LiveTable:
        """Say that ``seat`` is ready for the next deal: it starts once every connected person is, or when the pause ends."""
        table = self.get(table_id)
        if seat is None:
            raise ApiError("not_seated", "spectators do not start deals: use a seat token")
        if table.next_deal_at is None or table.status != "playing":
            raise ApiError("not_between_deals", f"table {table_id} is not between two deals of a match")
        if seat not in table.ready:
            table.ready.add(seat)
            self._broadcast(table, [])  # The others see who is ready.
        self._wake_up(table)
        return table

    async def review(self, table_id: str, deal: int, record: Any) -> dict[str, Any]:
        """Return the review of a finished deal (its stored ``record`` JSON): every decision judged from its seat's view.

        The decisions are judged one at a time in the search pool, so a review never holds a worker for long
        and other tables' searches take their turns in between. Asking again while a review is being made
        waits for it. A review made is stored with the deal (and the last :data:`_KEEP_REVIEWS` kept in memory).
        """
        return await self._reviews.get((table_id, deal), lambda: self._make_review(table_id, deal, record),
                                       found=lambda: self._stored_review(table_id, deal))

    def review_or_progress(self, table_id: str, deal: int, record: Any) -> dict[str, Any]:
        """Return ``{"review": …}`` if the deal's review is made, else ``{"progress": {"done", "total"}}``.

        A review not yet asked for is started in the background, so that a page can show how far it is and
        ask again, rather than wait half a minute for one answer. A review that failed is told once.
        """
        key = (table_id, deal)
        review = self._reviews.start(key, lambda: self._make_review(table_id, deal, record),
                                     found=lambda: self._stored_review(table_id, deal))
        if review is not None:
            return {"review": review}
        done, total = self._review_progress.get(key, (0, 0))
        return {"progress": {"done": done, "total": total}}

    def _stored_review(self, table_id: str, deal: int) -> dict[str, Any] | None:
        """Return the deal's review made before with this server's budget, here before a restart or by another server."""
        return self.store.review(table_id, deal, self.config.review_iters)

    async def _make_review(self, table_id: str, deal: int, record_json: Any) -> dict[str, Any]:
        """Judge every decision of a deal in the search pool, and store the review (the callers asked the store first)."""
        from mustamaija.search.review import assemble, decision_points

        iters = self.config.review_iters
        table = self.get(table_id)
        game = table.game
        record = deal_of(game, record_json)
        seats = range(record.players)
        points, end = decision_points(game, record, seats)
        key = (table_id, deal)
        decisions: list[Any] = []
        try:
            for index, view, action in points:
                self._review_progress[key] = (len(decisions), len(points))
                decisions.append(await self.runner.search(table_id, _review_point, game.name, view, action, index, iters))
        finally:
            self._review_progress.pop(key, None)
        out = assemble(game, record, end, decisions, seats, iters=iters, seed=0).to_json()
        out["names"] = record.seat_names()
        self.store.save_review(table_id, deal, iters, out)
        return out

    async def hint(self, table_id: str, seat: int | None) -> dict[str, Any]:
        """Return a hint for ``seat``, from its view only, if the table allows hints."""
        table = self.get(table_id)
        if seat is None:
            raise ApiError("not_seated", "spectators cannot ask for hints: use a seat token")
        if not table.config.get("hints"):
            raise ApiError("hints_disabled", f"table {table_id} does not allow hints")
        state = table.state
        if table.status != "playing" or state is None or state.is_over:
            raise ApiError("not_playing", f"table {table_id} is not playing a deal now")
        if state.to_act != seat:
            raise ApiError("not_your_turn", f"hints are for the seat to act: seat {state.to_act} is to act")
        if self._hints >= _MAX_HINTS:
            raise ApiError("rate_limited", f"the server is computing {_MAX_HINTS} hints already: ask again in a moment")
        self._hints += 1
        try:
            result: dict[str, Any] = await self.runner.search(table.id, hint_json, table.game.name, state.view(seat),
                                                              self.config.hint_seconds, timeout=self.runner.move_timeout)
        except MustamaijaError as e:  # The search cannot judge this position: say so, as any refusal.
            raise ApiError("not_playing", f"no hint for this position: {e}") from None
        finally:
            self._hints -= 1
        return result

    # -- subscribers and presence ----------------------------------------------------------------

    def subscribe(self, table_id: str, token: object, since: object) -> Subscriber:
        """Open a subscription for a token's seat (``None``: spectator); queue the welcome and what was missed."""
        table = self.get(table_id)
        if token is not None and not isinstance(token, str):
            raise ApiError("unauthorized", "the seat token must be a string or null")
        if since is not None and (isinstance(since, bool) or not isinstance(since, int)):
            raise ApiError("bad_request", f"'since' must be an event number or null, not {since!r}")
        seat = table.seat_of(token)
        sub = Subscriber(table.id, seat, self.outbox)
        sub.send({"type": "welcome", "seat": seat, "table_id": table.id})
        self.subscribers.setdefault(table.id, set()).add(sub)
        changed = False
        if seat is not None:
            s = table.seats[seat]
            s.connections += 1
            changed = s.gone_since is not None
            s.gone_since = None
        sub.send(self.catch_up(table, seat, since))
        if changed:
            self._broadcast(table, [], skip=sub)
            self._wake_up(table)
        return sub

    def catch_up(self, table: LiveTable, seat: int | None, since: object) -> dict[str, Any]:
        """Return an ``update`` with the events after ``since``, or a full ``sync`` when that is not possible."""
        if isinstance(since, int) and not isinstance(since, bool) and 0 <= since <= table.seq:
            missed = self.store.events_since(table.id, since, limit=_MAX_MISSED + 1) if since < table.seq else []
            if len(missed) <= _MAX_MISSED:
                return {"type": "update", "seq": table.seq, "events": missed,
                        "table": table.meta(), "state": table.state_for(seat)}
        return self.sync(table, seat)

    def sync(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        """Return the full ``sync`` message for a seat."""
        events = self.store.events_since(table.id, 0, deal_no=table.deal_no) if table.deal_no else []
        room = self.chats.get(table.id)
        return {"type": "sync", "seq": table.seq, "table": table.meta(), "state": table.state_for(seat),
                "log": events[-_MAX_MISSED:], "chat": room.recent(channel_of(seat)) if room is not None else []}

    def chat(self, sub: Subscriber, text: object = None, emote: object = None) -> None:
        """Say a line (or an emote) in the subscriber's channel: seats at the table, spectators among themselves."""
        table = self.get(sub.table_id)
        room = self.chats.setdefault(table.id, ChatRoom())
        channel = channel_of(sub.seat)
        if sub.seat is not None:
            name = table.seats[sub.seat].name or f"seat {sub.seat}"
            speaker: object = None  # A seat is limited across its connections.
        else:
            if sub.chat_name is None:
                self._spectators_seen += 1
                sub.chat_name = f"spectator {self._spectators_seen}"
            name, speaker = sub.chat_name, sub
        line = room.say(channel, seat=sub.seat, name=name, text=text, emote=emote, now=time.time(), speaker=speaker)
        text_of = dumps(line)
        for other in list(self.subscribers.get(table.id, ())):
            if channel_of(other.seat) == channel:
                other.send(text_of)

    def unsubscribe(self, sub: Subscriber) -> None:
        """Close a subscription; a person seat left without connections becomes gone."""
        subs = self.subscribers.get(sub.table_id)
        if subs is None or sub not in subs:
            return
        subs.discard(sub)
        room = self.chats.get(sub.table_id)
        if room is not None:
            room.forget(sub)
        table = self.tables.get(sub.table_id)
        if table is not None and not subs:
            self._forget_if_idle(table)
        if table is None or sub.seat is None or self._closing:
            return
        s = table.seats[sub.seat]
        s.connections = max(0, s.connections - 1)
        if s.connections == 0:
            s.gone_since = time.time()
            self._broadcast(table, [])
            self._wake_up(table)  # The driver times the takeover.

    def _broadcast(self, table: LiveTable, events: list[dict[str, Any]], skip: Subscriber | None = None) -> None:
        subs = self.subscribers.get(table.id)
        if not subs:
            return
        meta = table.meta()
        texts: dict[int | None, str] = {}  # One message per audience (a seat, or the spectators), encoded once.
        for sub in list(subs):
            if sub is skip:
                continue
            text = texts.get(sub.seat)
            if text is None:
                text = texts[sub.seat] = dumps({"type": "update", "seq": table.seq, "events": events, "table": meta,
                                                "state": table.state_for(sub.seat)})
            sub.send(text)

    # -- bots -----------------------------------------------------------------------------------

    def _wake_up(self, table: LiveTable) -> None:
        event = self._wake.get(table.id)
        if event is not None:
            event.set()

    def _drive(self, table: LiveTable) -> None:
        if table.id in self._drivers or self._closing:
            return
        event = asyncio.Event()
        event.set()
        self._wake[table.id] = event
        self._drivers[table.id] = asyncio.get_running_loop().create_task(self._driver(table, event))

    async def _driver(self, table: LiveTable, wake: asyncio.Event) -> None:
        while self.tables.get(table.id) is table:  # A forgotten table's driver ends with it.
            await wake.wait()
            wake.clear()
            try:
                while await self._advance(table):
                    await asyncio.sleep(0)  # A table of bots choosing at once must let the others have their turn.
            except asyncio.CancelledError:
                raise
            except Exception:  # A bug must not stop the table: log it and wait for the next change.
                log.exception("table %s: the bot driver failed", table.id)
                await asyncio.sleep(1.0)
                wake.set()

    async def _advance(self, table: LiveTable) -> bool:
        """Make one automatic move (a new deal or a bot's action); return whether something happened."""
        if table.status != "playing" or table.match is None:
            return False
        state = table.state
        if state is None or state.is_over:
            if table.match.over:
                return False
            if state is not None and self.config.deal_pause > 0:
                now = time.time()
                if table.next_deal_at is None:  # A table loaded between deals.
                    table.next_deal_at = now + self.config.deal_pause
                if not table.everyone_ready() and now < table.next_deal_at:
                    asyncio.get_running_loop().call_later(table.next_deal_at - now + 0.01, self._wake_up, table)
                    return False
            events = table.start_deal()
            self._write(table.id, table=table.table_row(), deal=table.deal_row(), events=events)
            self._broadcast(table, events)
            return True
        decided = table.game.decided_action(state)
        if decided is not None:  # A table loaded in such a position: no choice of the seat's could change the result.
            self._play(table, decided, "rule")
            return True
        seat = state.to_act
        now = time.time()
        bot = table.bot_for(seat, now)
        if bot is None:
            clock = table.clock(now)
            if clock is not None:
                # Come back when the turn clock or the takeover time is up, unless something happens first.
                asyncio.get_running_loop().call_later(clock["at"] - now + 0.05, self._wake_up, table)
            return False
        version = table.version
        if self.config.bot_pace > 0:
            await asyncio.sleep(self.config.bot_pace)
            if table.version != version or table.bot_for(seat, time.time()) is None:
                return True
        spec, by = bot
        game = table.game
        try:
            if is_cheap(spec, game):
                action = cheap_action(game, state, spec, secrets.randbits(32))
            elif table.from_position:  # Its record is the position's: the worker reads it as such.
                body = await self.runner.search(table.id, deal_bot_action, game.name, table.record().to_json(), seat,
                                                spec, secrets.randbits(32))
            else:
                body = await self.runner.choose(game.name, table.record().to_json(), seat, spec, secrets.randbits(32),
                                                table.id)
                if table.version != version or table.bot_for(seat, time.time()) is None:
                    return True  # The table moved on while the bot thought (its person came back, say).
                action = table.action_from_record(body)
        except Exception as e:  # A broken bot or pool must not stall the table: a random bot plays this action.
            log.warning("table %s: bot %s failed (%s: %s); a random bot plays instead", table.id, spec, type(e).__name__, e)
            if table.version != version or table.bot_for(seat, time.time()) is None:
                return True
            action = cheap_action(game, state, "random", secrets.randbits(32))
        self._play(table, action, by)
        return True
