"""Storage through SQLAlchemy Core: tables, seats (with hashed tokens), deals as docs/formats.md records, events.

Everything is JSON text or plain columns, never pickles, so that any
database SQLAlchemy speaks (SQLite by default, PostgreSQL) holds the same
rows. Every accepted action is written in one transaction (the action, the
table's version and the new events) before anyone hears of it, which is
what lets a killed server continue every table.

A deal in play is stored as its record so far plus the actions appended
since (one small row each), so that an action costs a few short rows, not a
rewrite of the whole record; when a full record is written, the actions it
holds are deleted. Readers get whole records either way.

>>> store = Store("sqlite://")
>>> store.commit("t1", table={"status": "waiting", "private": False, "config": {"players": 2}, "version": 0,
...                          "seq": 0, "match_no": 1, "deal_no": 0, "created": 1.0},
...              seats=[{"seat": 0, "kind": "person", "bot": None, "name": None, "token_hash": None}])
>>> store.load_table("t1")["config"]
{'players': 2}
>>> store.commit("t1", table={"seq": 1}, events=[{"seq": 1, "deal": 0, "kind": "join"}])
>>> store.events_since("t1", 0)
[{'seq': 1, 'deal': 0, 'kind': 'join'}]
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

from mustamaija.ratings.glicko2 import Rating
from mustamaija.ratings.names import identity_kind, identity_name, name_key
from mustamaija.ratings.outcomes import Outcome
from mustamaija.ratings.standings import PROVISIONAL_RD, Standing, rate_deal
from mustamaija.web.jsontext import dumps, loads

__all__ = ["FlushError", "Store", "StoreInUse"]

METADATA = sa.MetaData()
"""The schema the migrations (:mod:`mustamaija.web.migrations`) build, as SQLAlchemy tables."""
_meta = METADATA

TABLES = sa.Table(
    "mm_tables", _meta,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("private", sa.Boolean, nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("match_no", sa.Integer, nullable=False),
    sa.Column("deal_no", sa.Integer, nullable=False),
)

SEATS = sa.Table(
    "mm_seats", _meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    # Text, not String(n): PostgreSQL enforces lengths and a bot's default name is its spec plus " bot".
    sa.Column("bot", sa.Text),
    sa.Column("name", sa.Text),
    sa.Column("token_hash", sa.String(64)),
    sa.Column("player", sa.String(64)),  # The signed-in name that sits here (docs/web.md, "Ratings"), or NULL.
)

DEALS = sa.Table(
    "mm_deals", _meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("deal_no", sa.Integer, primary_key=True),
    sa.Column("match_no", sa.Integer, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("finished", sa.Boolean, nullable=False),
    sa.Column("loser", sa.Integer),
    sa.Column("stopped", sa.Boolean, nullable=False),
    sa.Column("turns", sa.Integer, nullable=False),
)

EVENTS = sa.Table(
    "mm_events", _meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("deal_no", sa.Integer, nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
)

SERVERS = sa.Table(
    "mm_servers", _meta,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("address", sa.Text, nullable=False),  # Where the other servers reach this one (its --advertise URL).
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("heartbeat", sa.Float, nullable=False),
)

OWNERS = sa.Table(
    "mm_owners", _meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("server_id", sa.String(32), nullable=False),  # Valid only while that server holds the table's lock.
    sa.Column("since", sa.Float, nullable=False),
)

SETTINGS = sa.Table(
    "mm_settings", _meta,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

ACTIONS = sa.Table(
    "mm_actions", _meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("deal_no", sa.Integer, primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),  # The action's index in the deal's record.
    sa.Column("action", sa.Text, nullable=False),  # A docs/formats.md record action: private, never an event.
)

PLAYERS = sa.Table(
    "mm_players", _meta,
    sa.Column("name_key", sa.String(64), primary_key=True),  # The name as it is unique: NFKC, case folded.
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("key_hash", sa.String(64), nullable=False),  # The player key's hash, as seat tokens are kept.
    sa.Column("created", sa.Float, nullable=False),
)

RATINGS = sa.Table(
    "mm_ratings", _meta,
    sa.Column("identity", sa.String(255), primary_key=True),  # player:<name key> or bot:<level or spec>
    sa.Column("game", sa.String(60), primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),  # human or bot
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("rd", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("losses", sa.Integer, nullable=False),
    sa.Column("draws", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float),
)

RATED_DEALS = sa.Table(
    "mm_rated_deals", _meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("deal_no", sa.Integer, primary_key=True),
    sa.Column("game", sa.String(60), nullable=False),
    sa.Column("rated", sa.Float, nullable=False),
    sa.Column("changes", sa.Text, nullable=False),  # Each rated seat's identity and rating before and after.
)

REVIEWS = sa.Table(
    "mm_reviews", _meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("deal_no", sa.Integer, primary_key=True),
    sa.Column("iters", sa.Integer, nullable=False),  # The budget it was made with: another budget makes it again.
    sa.Column("review", sa.Text, nullable=False),  # The review's JSON, as GET …/deals/{n}/review gives it.
    sa.Column("made", sa.Float, nullable=False),
)

sa.Index("ix_mm_tables_status", TABLES.c.status)
sa.Index("ix_mm_ratings_game_rating", RATINGS.c.game, RATINGS.c.rating)

HEAD: Final = "0005"
"""The newest revision of the schema."""


def migrate(engine: Engine) -> None:
    """Bring the database's schema to :data:`HEAD` with the Alembic revisions, in place (a new one is built).

    A database made before there were migrations (the tables, no ``alembic_version``) is taken to be at
    revision 0001, the schema of that time. Servers starting together on PostgreSQL migrate one at a time.
    """
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(7010001)"))  # Held until this transaction ends.
        inspector = sa.inspect(conn)
        if inspector.has_table("mm_tables") and not inspector.has_table("alembic_version"):
            config.attributes["connection"] = conn
            command.stamp(config, "0001")
        config.attributes["connection"] = conn
        command.upgrade(config, "head")

def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        if url in ("sqlite://", "sqlite:///:memory:"):
            # One shared connection, so that every thread sees the same in-memory database.
            return sa.create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if path:
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")  # Readers never wait for the writer.
            # With WAL, NORMAL loses nothing when the process is killed (only a power cut could cost the last commits).
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

        return engine
    try:
        return sa.create_engine(url, pool_pre_ping=True)
    except ModuleNotFoundError as e:
        raise ModuleNotFoundError(f"the database URL {sa.make_url(url).render_as_string()!r} needs the driver {e.name!r}, "
                                  "which is not installed (for PostgreSQL: pip install 'mustamaija[postgres]')", name=e.name) from e


class StoreInUse(RuntimeError):
    """Another server holds this SQLite file."""


class FlushError(RuntimeError):
    """Some tables' staged changes could not be written (the others were): their errors by table id."""

    def __init__(self, failures: dict[str, Exception]) -> None:
        first = next(iter(failures.values()))
        super().__init__(f"the changes of {len(failures)} table(s) could not be written: {first}")
        self.failures = failures


def _claim(url: str) -> IO[bytes] | None:
    """Lock a SQLite file for this server; raise :class:`StoreInUse` if another server holds it.

    Two servers on one SQLite file would each keep their own copy of a table's state and
    overwrite each other's versions; several servers share PostgreSQL instead.
    """
    if not url.startswith("sqlite") or ":///" not in url or url.endswith(":memory:"):
        return None
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: the lock is advisory, and there is none to take.
        return None
    lock = open(f"{Path(url.split(':///', 1)[1]).expanduser()}.lock", "ab")  # noqa: SIM115
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise StoreInUse(f"another mustamaija serve is using {url.split(':///', 1)[1]}: stop it first, or give this "
                         "server its own --db (several servers share one PostgreSQL database, not a SQLite file)") from None
    return lock


class Store:
    """The database of the web app; every method is one short transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _make_engine(url)
        self._lock = _claim(url)
        self._pending: dict[str, _Change] = {}
        migrate(self.engine)

    def close(self) -> None:
        """Write what is staged, then release the database connections and the file lock."""
        try:
            self.flush()
        finally:
            self._release()

    def _release(self) -> None:
        self.engine.dispose()
        if self._lock is not None:
            self._lock.close()  # Closing the file releases the lock.
            self._lock = None

    # -- writing ----------------------------------------------------------------------------

    def commit(
        self,
        table_id: str,
        *,
        table: Mapping[str, Any] | None = None,
        seats: Iterable[Mapping[str, Any]] = (),
        deal: Mapping[str, Any] | None = None,
        actions: Iterable[Mapping[str, Any]] = (),
        events: Iterable[Mapping[str, Any]] = (),
        rating: Mapping[str, Any] | None = None,
    ) -> None:
        """Write a table's changed columns, seats, one deal, appended actions and new events in one transaction, now.

        Changes staged before are written first, in their own transaction; a failure of this change raises
        and writes none of it.
        """
        self.flush()
        self.stage(table_id, table=table, seats=seats, deal=deal, actions=actions, events=events, rating=rating)
        batch, self._pending = self._pending, {}
        with self.engine.begin() as conn:
            _write(conn, batch)

    def stage(
        self,
        table_id: str,
        *,
        table: Mapping[str, Any] | None = None,
        seats: Iterable[Mapping[str, Any]] = (),
        deal: Mapping[str, Any] | None = None,
        actions: Iterable[Mapping[str, Any]] = (),
        events: Iterable[Mapping[str, Any]] = (),
        rating: Mapping[str, Any] | None = None,
    ) -> None:
        """Add a change to the batch that :meth:`flush` writes (every read flushes first).

        ``deal`` is a deal's whole row, its record so far included; each of ``actions`` (``deal_no``,
        ``ply``, ``action``) appends one record action to a deal in play, to be written after ``deal``.
        The rows are turned into text now, so that later changes to the objects given do not reach the
        batch. Changes to one table merge: the last value of a column, seat or deal wins; events and
        actions add up, and a deal's record replaces the actions it holds.

        ``rating`` rates a finished deal in the same transaction, once (:func:`_rate`): its ``deal_no``,
        ``game``, the ``seats``' identities (``None``: not rated), their display ``names`` by identity, the
        pairwise ``outcomes`` as ``[a, b, score]`` and the time ``at``.
        """
        change = self._pending.get(table_id)
        if change is None:
            change = self._pending[table_id] = _Change()
        if table is not None:
            values = {k: dumps(v) if k == "config" else v for k, v in table.items()}
            values["updated"] = time.time()
            change.table.update(values)
        for seat in seats:
            row = dict(seat)
            change.seats.setdefault(row.pop("seat"), {}).update(row)
        if deal is not None:
            row = dict(deal)
            deal_no, held = row.pop("deal_no"), len(row["record"].get("actions", ()))
            row["record"] = dumps(row["record"])
            change.deals.setdefault(deal_no, {}).update(row)
            if held:
                change.actions = {k: a for k, a in change.actions.items() if k[0] != deal_no or k[1] >= held}
                change.held[deal_no] = held
        for a in actions:
            change.actions[a["deal_no"], a["ply"]] = dumps(a["action"])
        change.events.extend({"seq": e["seq"], "deal_no": e.get("deal") or 0,
                              "payload": dumps(e)} for e in events)
        if rating is not None:
            change.ratings.append(loads(dumps(rating)))  # A copy: later changes to the objects do not reach it.

    @property
    def pending(self) -> bool:
        """Return whether changes are staged and not yet written."""
        return bool(self._pending)

    def flush(self) -> None:
        """Write every staged change in one transaction (a group commit).

        If the batch fails, each table's change is tried in a transaction of its own, so that one bad
        change (a bug, or a table another server took over) costs only itself; :class:`FlushError` names
        the tables whose changes failed, once the others are written.
        """
        if not self._pending:
            return
        batch, self._pending = self._pending, {}
        try:
            with self.engine.begin() as conn:
                _write(conn, batch)
            return
        except Exception as e:
            if len(batch) == 1:
                raise FlushError({next(iter(batch)): e}) from e
        failures: dict[str, Exception] = {}
        for table_id, change in batch.items():
            try:
                with self.engine.begin() as conn:
                    _write(conn, {table_id: change})
            except Exception as e:
                failures[table_id] = e
        if failures:
            raise FlushError(failures)

    # -- reading ----------------------------------------------------------------------------

    def load_table(self, table_id: str) -> dict[str, Any] | None:
        """Return a table's row (``config`` parsed) with its ``seats``, or ``None``."""
        self.flush()
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(TABLES).where(TABLES.c.id == table_id)).mappings().first()
            if row is None:
                return None
            out = dict(row)
            out["config"] = loads(out["config"])
            seats = conn.execute(
                sa.select(SEATS).where(SEATS.c.table_id == table_id).order_by(SEATS.c.seat)
            ).mappings()
            out["seats"] = [dict(s) for s in seats]
            return out

    def table_ids(self, statuses: Iterable[str]) -> list[str]:
        """Return the ids of the tables in any of ``statuses``, oldest first."""
        self.flush()
        with self.engine.connect() as conn:
            q = sa.select(TABLES.c.id).where(TABLES.c.status.in_(list(statuses))).order_by(TABLES.c.created)
            return [r[0] for r in conn.execute(q)]

    def public_table_ids(self, status: str, limit: int) -> list[str]:
        """Return the ids of the newest public tables in ``status``, newest first, at most ``limit``."""
        self.flush()
        with self.engine.connect() as conn:
            q = (sa.select(TABLES.c.id).where(TABLES.c.status == status, TABLES.c.private.is_(False))
                 .order_by(TABLES.c.created.desc()).limit(limit))
            return [r[0] for r in conn.execute(q)]

    def deals(self, table_id: str, match_no: int | None = None) -> list[dict[str, Any]]:
        """Return a table's deals in order (``record`` parsed), optionally of one match only."""
        self.flush()
        with self.engine.connect() as conn:
            q = sa.select(DEALS).where(DEALS.c.table_id == table_id)
            if match_no is not None:
                q = q.where(DEALS.c.match_no == match_no)
            return [_whole(conn, table_id, row) for row in conn.execute(q.order_by(DEALS.c.deal_no)).mappings()]

    def deal(self, table_id: str, deal_no: int) -> dict[str, Any] | None:
        """Return one deal (``record`` parsed), or ``None``."""
        self.flush()
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(DEALS).where(DEALS.c.table_id == table_id, DEALS.c.deal_no == deal_no)
            ).mappings().first()
            return None if row is None else _whole(conn, table_id, row)

    def events_since(self, table_id: str, seq: int, deal_no: int | None = None,
                     limit: int | None = None) -> list[dict[str, Any]]:
        """Return the events after ``seq`` in order (only those of ``deal_no`` and later, if given; at most ``limit``)."""
        self.flush()
        with self.engine.connect() as conn:
            q = sa.select(EVENTS.c.payload).where(EVENTS.c.table_id == table_id, EVENTS.c.seq > seq)
            if deal_no is not None:
                q = q.where(EVENTS.c.deal_no >= deal_no)
            q = q.order_by(EVENTS.c.seq)
            if limit is not None:
                q = q.limit(limit)
            return [loads(r[0]) for r in conn.execute(q)]

    # -- players and ratings (docs/web.md, "Ratings") ---------------------------------------------

    def add_player(self, name: str, key_hash: str) -> bool:
        """Claim a checked name with its key's hash; return False if the name is taken (in any case or form)."""
        row = {"name_key": name_key(name), "name": name, "key_hash": key_hash, "created": time.time()}
        try:
            with self.engine.begin() as conn:
                conn.execute(PLAYERS.insert().values(**row))
        except sa.exc.IntegrityError:  # The primary key: another request claimed the name first.
            return False
        return True

    def player(self, name: str) -> dict[str, Any] | None:
        """Return the claimed name ``name`` stands for (any case or form): ``name``, ``key_hash``, ``created``; or None."""
        key = name_key(name)
        if not key or len(key) > 64 or "\0" in key:  # No claimed name is that long or holds a NUL (PostgreSQL refuses it).
            return None
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(PLAYERS).where(PLAYERS.c.name_key == key)).mappings().first()
            return None if row is None else dict(row)

    def leaderboard(self, game: str, kind: str | None = None, limit: int = 100,
                    offset: int = 0) -> tuple[int, list[dict[str, Any]]]:
        """Return how many identities ``game`` rates (of ``kind``, if given) and the rows of one page of its board.

        The order is :func:`mustamaija.ratings.standings.ranked`'s: established ratings first, highest first,
        then the provisional ones.
        """
        self.flush()
        where = [RATINGS.c.game == game] + ([RATINGS.c.kind == kind] if kind is not None else [])
        with self.engine.connect() as conn:
            total = conn.execute(sa.select(sa.func.count()).select_from(RATINGS).where(*where)).scalar_one()
            q = (sa.select(RATINGS).where(*where)
                 .order_by(sa.case((RATINGS.c.rd > PROVISIONAL_RD, 1), else_=0), RATINGS.c.rating.desc(),
                           RATINGS.c.identity)
                 .limit(limit).offset(offset))
            return int(total), [dict(r) for r in conn.execute(q).mappings()]

    def ratings_of(self, identity: str) -> list[dict[str, Any]]:
        """Return an identity's rating rows, one per game it was rated in, each with its ``rank`` on that board."""
        if "\0" in identity or len(identity) > 255:  # No identity is; PostgreSQL would refuse the NUL.
            return []
        self.flush()
        provisional = sa.case((RATINGS.c.rd > PROVISIONAL_RD, 1), else_=0)
        with self.engine.connect() as conn:
            q = sa.select(RATINGS).where(RATINGS.c.identity == identity).order_by(RATINGS.c.game)
            out = []
            for row in conn.execute(q).mappings():
                mine = 1 if row["rd"] > PROVISIONAL_RD else 0
                ahead = sa.or_(provisional < mine, sa.and_(provisional == mine, sa.or_(
                    RATINGS.c.rating > row["rating"],
                    sa.and_(RATINGS.c.rating == row["rating"], RATINGS.c.identity < identity))))
                count = conn.execute(sa.select(sa.func.count()).select_from(RATINGS)
                                     .where(RATINGS.c.game == row["game"], ahead)).scalar_one()
                out.append({**row, "rank": int(count) + 1})
            return out

    def rated_deal(self, table_id: str, deal_no: int) -> dict[str, Any] | None:
        """Return how a deal changed its seats' ratings (``changes`` parsed), or None if it was not rated."""
        self.flush()
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(RATED_DEALS).where(
                RATED_DEALS.c.table_id == table_id, RATED_DEALS.c.deal_no == deal_no)).mappings().first()
        if row is None:
            return None
        out = dict(row)
        out["changes"] = loads(out["changes"])
        return out

    # -- deal reviews (docs/web.md, "Replays") ----------------------------------------------------

    def review(self, table_id: str, deal_no: int, iters: int) -> dict[str, Any] | None:
        """Return the stored review of a deal made with ``iters`` playouts a decision, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(REVIEWS.c.review).where(
                REVIEWS.c.table_id == table_id, REVIEWS.c.deal_no == deal_no, REVIEWS.c.iters == iters)).first()
        return None if row is None else dict(loads(row[0]))

    def save_review(self, table_id: str, deal_no: int, iters: int, review: Mapping[str, Any]) -> None:
        """Keep a deal's review (made with ``iters`` playouts a decision) in place of any it had.

        Reviews cost seconds of search and never change, so every server of a cluster, and a server after
        a restart, gives the one made. Two servers that made the same review at once keep either.
        """
        with self.engine.begin() as conn:
            _upsert(conn, REVIEWS, ("table_id", "deal_no"), ("iters", "review", "made"),
                    [{"table_id": table_id, "deal_no": deal_no, "iters": iters, "review": dumps(review),
                      "made": time.time()}])


def _whole(conn: Connection, table_id: str, row: sa.RowMapping) -> dict[str, Any]:
    """Return a deal's row with its whole record: the stored record, then the actions appended since."""
    d = dict(row)
    record = d["record"] = loads(d["record"])
    if d["finished"]:  # A finished deal's record is written whole, and its appended actions deleted.
        return d
    appended = conn.execute(
        sa.select(ACTIONS.c.ply, ACTIONS.c.action)
        .where(ACTIONS.c.table_id == table_id, ACTIONS.c.deal_no == d["deal_no"]).order_by(ACTIONS.c.ply))
    actions = record.setdefault("actions", [])
    for ply, action in appended:
        if ply > len(actions):
            raise LookupError(f"deal {d['deal_no']} of table {table_id} lacks its actions {len(actions)} to {ply - 1}")
        if ply == len(actions):
            actions.append(loads(action))
    return d


@dataclass
class _Change:
    """One table's staged rows, all as text.

    The columns of its row; seats and deals by number; record actions by (deal, ply); for each deal
    whose record was staged, how many actions that record holds (their rows are deleted); new events;
    finished deals to rate.
    """

    table: dict[str, Any] = field(default_factory=dict)
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)
    deals: dict[int, dict[str, Any]] = field(default_factory=dict)
    actions: dict[tuple[int, int], str] = field(default_factory=dict)
    held: dict[int, int] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    ratings: list[dict[str, Any]] = field(default_factory=list)


def _write(conn: Connection, batch: Mapping[str, _Change]) -> None:
    """Write a batch of changes: rows with the same columns go to the database in one statement each."""
    groups: dict[tuple[sa.Table, tuple[str, ...], tuple[str, ...]], list[dict[str, Any]]] = {}

    def add(table: sa.Table, key: dict[str, Any], values: Mapping[str, Any]) -> None:
        row = {k: _plain(v) for k, v in values.items()}
        groups.setdefault((table, tuple(key), tuple(sorted(row))), []).append({**key, **row})

    events: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    held: list[dict[str, Any]] = []
    for table_id, change in batch.items():
        if change.table:
            add(TABLES, {"id": table_id}, change.table)
        for seat, row in change.seats.items():
            add(SEATS, {"table_id": table_id, "seat": seat}, row)
        for deal_no, row in change.deals.items():
            add(DEALS, {"table_id": table_id, "deal_no": deal_no}, row)
        held.extend({"table_id": table_id, "deal_no": deal_no, "held": n} for deal_no, n in change.held.items())
        actions.extend({"table_id": table_id, "deal_no": deal_no, "ply": ply, "action": _plain(action)}
                       for (deal_no, ply), action in change.actions.items())
        events.extend({"table_id": table_id, **e} for e in change.events)
    for (table, key, columns), rows in groups.items():
        _upsert(conn, table, key, columns, rows)
    if held:
        _execute_many(conn, _DELETE_HELD, ("table_id", "deal_no", "held"), held)
    if actions:
        _execute_many(conn, _INSERT_ACTIONS, ("table_id", "deal_no", "ply", "action"), actions)
    if events:
        _execute_many(conn, _INSERT_EVENTS, ("table_id", "seq", "deal_no", "payload"), events)
    locked = False
    for table_id, change in batch.items():
        for rating in change.ratings:
            if not locked and conn.dialect.name == "postgresql":
                # Servers of a cluster rate one deal at a time: a bot level's standing is read, then written.
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(7010002)"))  # Held until the commit.
                locked = True
            _rate(conn, table_id, rating)


def _rate(conn: Connection, table_id: str, deal: Mapping[str, Any]) -> None:
    """Rate a finished deal in the current transaction, unless it was rated before (by this or another server).

    The rated deal's row (table id and deal number) is the key that makes it once only: a deal written
    again, by a retried batch, a restart or another server, finds it and changes nothing.
    """
    key = (RATED_DEALS.c.table_id == table_id) & (RATED_DEALS.c.deal_no == deal["deal_no"])
    if conn.execute(sa.select(RATED_DEALS.c.deal_no).where(key)).first() is not None:
        return
    game, seats, at = deal["game"], list(deal["seats"]), float(deal["at"])
    who = sorted({s for s in seats if s is not None})
    rows = conn.execute(sa.select(RATINGS).where(RATINGS.c.game == game, RATINGS.c.identity.in_(who))).mappings()
    before = {r["identity"]: _standing(r) for r in rows}
    after = rate_deal(before, seats, [Outcome(int(a), int(b), float(score)) for a, b, score in deal["outcomes"]], at)
    if after:
        names = deal.get("names") or {}
        _upsert(conn, RATINGS, ("identity", "game"), _RATING_COLUMNS, [
            {"identity": identity, "game": game, "kind": identity_kind(identity),
             "name": str(names.get(identity) or identity_name(identity)), "rating": s.rating.rating, "rd": s.rating.rd,
             "volatility": s.rating.volatility, "games": s.games, "wins": s.wins, "losses": s.losses, "draws": s.draws,
             "updated": s.updated} for identity, s in sorted(after.items())])
    changes = [{"seat": seat, "identity": identity,
                "before": _pair(before.get(identity, Standing())), "after": _pair(after[identity])}
               for seat, identity in enumerate(seats) if identity in after]
    conn.execute(RATED_DEALS.insert().values(table_id=table_id, deal_no=deal["deal_no"], game=game, rated=at,
                                             changes=dumps(changes)))


_RATING_COLUMNS: Final = ("kind", "name", "rating", "rd", "volatility", "games", "wins", "losses", "draws", "updated")


def _standing(row: sa.RowMapping) -> Standing:
    return Standing(Rating(row["rating"], row["rd"], row["volatility"]), row["games"], row["wins"], row["losses"],
                    row["draws"], row["updated"])


def _pair(s: Standing) -> list[float]:
    return [round(s.rating.rating, 2), round(s.rating.rd, 2)]


_INSERT_EVENTS: Final = EVENTS.insert()
_INSERT_ACTIONS: Final = ACTIONS.insert()
_DELETE_HELD: Final = ACTIONS.delete().where(ACTIONS.c.table_id == sa.bindparam("table_id"),
                                              ACTIONS.c.deal_no == sa.bindparam("deal_no"),
                                              ACTIONS.c.ply < sa.bindparam("held"))

_COMPILED: dict[tuple[Any, str, tuple[str, ...]], tuple[str, tuple[str, ...] | None]] = {}
"""The SQL text of each statement by dialect and columns, and the order of its parameters (None: by name)."""


def _execute_many(conn: Connection, statement: Any, columns: tuple[str, ...], rows: list[dict[str, Any]]) -> None:
    """Run a statement for many rows straight through the driver's ``executemany``, in the transaction.

    ``statement`` is one of the module's statements (its SQL text is kept for good).

    SQLAlchemy compiles the statement once; the rows skip its per-execution work, which was most of the
    cost of a commit at a busy server. The columns are plain strings, numbers and booleans, which every
    driver binds as they are.
    """
    name = (statement, conn.dialect.name, columns)
    compiled = _COMPILED.get(name)
    if compiled is None:
        sql = statement.compile(dialect=conn.dialect, column_keys=list(columns))
        order = tuple(sql.positiontup or ()) if sql.positional else None
        compiled = _COMPILED[name] = (sql.string, order)
    text, order = compiled
    params = [tuple(row[k] for k in order) for row in rows] if order is not None else rows
    cursor = conn.connection.cursor()
    try:
        cursor.executemany(text, params)
    except conn.dialect.loaded_dbapi.Error as e:  # As SQLAlchemy would raise it: IntegrityError and the like.
        raise sa.exc.DBAPIError.instance(text, params[:3], e, conn.dialect.loaded_dbapi.Error,
                                         dialect=conn.dialect) from e
    finally:
        cursor.close()


_STATEMENTS: dict[tuple[str, str, tuple[str, ...], tuple[str, ...]], Any] = {}
"""Upsert statements by dialect, table, key and columns: built once, so SQLAlchemy's compiled cache serves them."""


def _upsert(conn: Connection, table: sa.Table, key: tuple[str, ...], columns: tuple[str, ...],
            rows: list[dict[str, Any]]) -> None:
    """Insert rows or update the given columns of the existing ones, atomically where the database can."""
    required = {c.name for c in table.columns if not c.nullable and not c.primary_key}
    dialect = conn.dialect
    if required <= set(columns) and (dialect.name == "postgresql"
                                     or (dialect.name == "sqlite" and (dialect.server_version_info or ()) >= (3, 24))):
        # One INSERT ... ON CONFLICT statement: no window in which another writer can insert the same key.
        name = (dialect.name, table.name, key, columns)
        statement = _STATEMENTS.get(name)
        if statement is None:
            insert = (postgresql.insert if dialect.name == "postgresql" else sqlite.insert)(table)
            statement = _STATEMENTS[name] = insert.on_conflict_do_update(
                index_elements=list(key), set_={k: insert.excluded[k] for k in columns})
        _execute_many(conn, statement, key + columns, rows)
        return
    for row in rows:  # A partial row (only some columns): rare, so written one at a time.
        where = [table.c[k] == row[k] for k in key]
        values = {k: row[k] for k in columns}
        if values:
            found = conn.execute(table.update().where(*where).values(**values)).rowcount > 0
        else:
            found = conn.execute(sa.select(*[table.c[k] for k in key]).where(*where)).first() is not None
        if found:
            continue
        missing = sorted(required - set(columns))
        if missing:
            raise LookupError(f"there is no row {({k: row[k] for k in key})} in {table.name} to update, and a new row "
                              f"needs {', '.join(missing)}")
        conn.execute(table.insert().values(**row))


def _plain(value: Any) -> Any:
    # PostgreSQL text cannot hold NUL characters (SQLite can): store the replacement character instead.
    return value.replace("\0", "\ufffd") if isinstance(value, str) and "\0" in value else value
