"""Storage through SQLAlchemy Core: tables, seats (with hashed tokens), deals as docs/formats.md records, events.

Everything is JSON text or plain columns, never pickles, so that any
database SQLAlchemy speaks (SQLite by default, PostgreSQL) holds the same
rows. Every accepted action is written in one transaction (the deal's
record, the table's version and the new events) before anyone hears of it,
which is what lets a killed server continue every table.

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

import json
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

__all__ = ["Store", "StoreInUse"]

_meta = sa.MetaData()

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
        _meta.create_all(self.engine)

    def close(self) -> None:
        """Release the database connections and the file lock."""
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
        events: Iterable[Mapping[str, Any]] = (),
    ) -> None:
        """Write a table's changed columns, seats, one deal and new events in one transaction."""
        with self.engine.begin() as conn:
            if table is not None:
                values = {k: json.dumps(v) if k == "config" else v for k, v in table.items()}
                values["updated"] = time.time()
                _upsert(conn, TABLES, {"id": table_id}, values)
            for seat in seats:
                row = dict(seat)
                _upsert(conn, SEATS, {"table_id": table_id, "seat": row.pop("seat")}, row)
            if deal is not None:
                row = dict(deal)
                row["record"] = json.dumps(row["record"], ensure_ascii=False)
                _upsert(conn, DEALS, {"table_id": table_id, "deal_no": row.pop("deal_no")}, row)
            rows = [
                {"table_id": table_id, "seq": e["seq"], "deal_no": e.get("deal") or 0,
                 "payload": json.dumps(e, ensure_ascii=False)}
                for e in events
            ]
            if rows:
                conn.execute(EVENTS.insert(), rows)

    # -- reading ----------------------------------------------------------------------------

    def load_table(self, table_id: str) -> dict[str, Any] | None:
        """Return a table's row (``config`` parsed) with its ``seats``, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(TABLES).where(TABLES.c.id == table_id)).mappings().first()
            if row is None:
                return None
            out = dict(row)
            out["config"] = json.loads(out["config"])
            seats = conn.execute(
                sa.select(SEATS).where(SEATS.c.table_id == table_id).order_by(SEATS.c.seat)
            ).mappings()
            out["seats"] = [dict(s) for s in seats]
            return out

    def table_ids(self, statuses: Iterable[str]) -> list[str]:
        """Return the ids of the tables in any of ``statuses``, oldest first."""
        with self.engine.connect() as conn:
            q = sa.select(TABLES.c.id).where(TABLES.c.status.in_(list(statuses))).order_by(TABLES.c.created)
            return [r[0] for r in conn.execute(q)]

    def deals(self, table_id: str, match_no: int | None = None) -> list[dict[str, Any]]:
        """Return a table's deals in order (``record`` parsed), optionally of one match only."""
        with self.engine.connect() as conn:
            q = sa.select(DEALS).where(DEALS.c.table_id == table_id)
            if match_no is not None:
                q = q.where(DEALS.c.match_no == match_no)
            out = []
            for row in conn.execute(q.order_by(DEALS.c.deal_no)).mappings():
                d = dict(row)
                d["record"] = json.loads(d["record"])
                out.append(d)
            return out

    def deal(self, table_id: str, deal_no: int) -> dict[str, Any] | None:
        """Return one deal (``record`` parsed), or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(DEALS).where(DEALS.c.table_id == table_id, DEALS.c.deal_no == deal_no)
            ).mappings().first()
        if row is None:
            return None
        d = dict(row)
        d["record"] = json.loads(d["record"])
        return d

    def events_since(self, table_id: str, seq: int, deal_no: int | None = None,
                     limit: int | None = None) -> list[dict[str, Any]]:
        """Return the events after ``seq`` in order (only those of ``deal_no`` and later, if given; at most ``limit``)."""
        with self.engine.connect() as conn:
            q = sa.select(EVENTS.c.payload).where(EVENTS.c.table_id == table_id, EVENTS.c.seq > seq)
            if deal_no is not None:
                q = q.where(EVENTS.c.deal_no >= deal_no)
            q = q.order_by(EVENTS.c.seq)
            if limit is not None:
                q = q.limit(limit)
            return [json.loads(r[0]) for r in conn.execute(q)]


def _upsert(conn: Connection, table: sa.Table, key: Mapping[str, Any], values: Mapping[str, Any]) -> None:
    """Insert a row or update the given columns of the existing one, atomically where the database can."""
    values = {k: _plain(v) for k, v in values.items()}
    required = {c.name for c in table.columns if not c.nullable and not c.primary_key}
    dialect = conn.dialect
    if required <= values.keys() and (dialect.name == "postgresql"
                                      or (dialect.name == "sqlite" and (dialect.server_version_info or ()) >= (3, 24))):
        # One INSERT ... ON CONFLICT statement: no window in which another writer can insert the same key.
        insert = (postgresql.insert if dialect.name == "postgresql" else sqlite.insert)(table).values(**key, **values)
        conn.execute(insert.on_conflict_do_update(index_elements=list(key), set_={k: insert.excluded[k] for k in values}))
        return
    where = [table.c[k] == v for k, v in key.items()]
    if values:
        found = conn.execute(table.update().where(*where).values(**values)).rowcount > 0
    else:
        found = conn.execute(sa.select(*[table.c[k] for k in key]).where(*where)).first() is not None
    if found:
        return
    # A partial row (only some columns) can only update an existing one.
    missing = sorted(required - values.keys())
    if missing:
        raise LookupError(f"there is no row {dict(key)} in {table.name} to update, and a new row needs {', '.join(missing)}")
    conn.execute(table.insert().values(**key, **values))


def _plain(value: Any) -> Any:
    # PostgreSQL text cannot hold NUL characters (SQLite can): store the replacement character instead.
    return value.replace("\0", "\ufffd") if isinstance(value, str) else value
