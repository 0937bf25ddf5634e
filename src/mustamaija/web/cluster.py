"""Several servers on one PostgreSQL database: each table is owned by one server at a time.

A server owns a table while it holds the table's PostgreSQL advisory lock,
taken on a connection of its own that lives as long as the server. Only the
owner holds the table in memory, plays its bots and writes its changes;
the others relay the table's requests and WebSockets to it (see
:mod:`mustamaija.web.relay`), so every client of a table hears the same
server. When a server dies, even by ``kill -9``, its connection closes,
PostgreSQL releases its locks at once, and the other servers claim its
tables: at the next request for one, and every :data:`SWEEP_SECONDS` for the
tables still in play (their bots go on). Every accepted action was
committed before anyone heard of it (the group commit), so the new owner
continues from the last one.

A server that loses its lock connection (the database restarted, the
network failed) has lost every lock: it drops all its tables at once, and
their clients reconnect and find the new owners. A late write of a server
that lost a table cannot land either: the next event number of the table is
taken by its new owner, and the events' primary key refuses the second one.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Iterable
from typing import Any, Final

import sqlalchemy as sa

from mustamaija.web.store import OWNERS, SERVERS, SETTINGS, Store

__all__ = ["SWEEP_SECONDS", "Cluster", "lock_key"]

log = logging.getLogger("mustamaija.web")

SWEEP_SECONDS: Final = 1.0
"""How often a server looks for tables in play that no server owns (a dead server's) and claims them."""

RELAY_SECRET: Final = "relay_secret"
"""The settings row of the secret with which servers relay requests to each other (never sent to clients)."""


def lock_key(table_id: str) -> int:
    """Return the 64-bit advisory lock key of a table (signed, as PostgreSQL's ``bigint``).

    >>> lock_key("abc") == lock_key("abc") != lock_key("abd")
    True
    >>> -2**63 <= lock_key("abc") < 2**63
    True
    """
    digest = hashlib.sha256(b"mustamaija table " + table_id.encode("utf-8", "replace")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _unsigned(key: int) -> int:
    return key & 0xFFFFFFFFFFFFFFFF


class Cluster:
    """A server's membership of a cluster: its advisory locks, its row in ``mm_servers``, the relay secret."""

    def __init__(self, store: Store, address: str) -> None:
        if store.engine.dialect.name != "postgresql":
            raise ValueError("several servers share a PostgreSQL database only")
        self.store = store
        self.address = address
        """The URL at which the other servers reach this one (``--advertise``)."""
        self.server_id = secrets.token_hex(8)
        self.held: set[str] = set()
        """The tables this server owns."""
        self.secret = ""
        self._conn: Any = None

    # -- life cycle ---------------------------------------------------------------------------

    def start(self) -> None:
        """Open the lock connection, join the cluster and read (or make) the relay secret."""
        self._connect()
        now = time.time()
        with self.store.engine.begin() as conn:
            conn.execute(SERVERS.insert().values(id=self.server_id, address=self.address, started=now, heartbeat=now))
            stmt = sa.dialects.postgresql.insert(SETTINGS).values(key=RELAY_SECRET, value=secrets.token_urlsafe(32))
            conn.execute(stmt.on_conflict_do_nothing(index_elements=["key"]))
            self.secret = str(conn.execute(sa.select(SETTINGS.c.value).where(SETTINGS.c.key == RELAY_SECRET)).scalar())

    def _connect(self) -> None:
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        # Autocommit: session locks outlive any transaction; keepalives find a dead database within seconds.
        self._conn = psycopg.connect(url, autocommit=True, keepalives=1, keepalives_idle=5, keepalives_interval=2,
                                     keepalives_count=3)
        # And the database finds a dead server as soon: its locks go when this connection does.
        self._conn.execute("SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3")

    def close(self) -> None:
        """Leave the cluster: remove this server's rows, release every lock and close the lock connection."""
        try:
            with self.store.engine.begin() as conn:
                conn.execute(OWNERS.delete().where(OWNERS.c.server_id == self.server_id))
                conn.execute(SERVERS.delete().where(SERVERS.c.id == self.server_id))
        except Exception:  # The database may be gone: the locks go with the connection all the same.
            log.warning("could not remove this server from the cluster's tables", exc_info=True)
        if self._conn is not None:
            # Released here, before the connection closes: PostgreSQL frees a closed session's locks only once its
            # backend has ended, a moment later, and a server started at once on the same database found its tables
            # still locked by nobody it could relay to.
            with contextlib.suppress(Exception):  # The database may be gone: then so are the locks.
                self._conn.execute("SELECT pg_advisory_unlock_all()")
            self._conn.close()
            self._conn = None
        self.held.clear()

    def alive(self) -> bool:
        """Check the lock connection and beat the heart; False when the locks are lost (drop every table)."""
        try:
            self._conn.execute("SELECT 1")
        except Exception:
            log.error("the cluster's lock connection failed: this server no longer owns its tables")
            self.held.clear()
            with contextlib.suppress(Exception):  # It is broken already; a new one is opened below.
                self._conn.close()
            try:
                self._connect()
            except Exception:
                log.exception("cannot reconnect to the database")
            return False
        with self.store.engine.begin() as conn:
            conn.execute(SERVERS.update().where(SERVERS.c.id == self.server_id).values(heartbeat=time.time()))
        return True

    # -- ownership ----------------------------------------------------------------------------

    def claim(self, table_id: str) -> bool:
        """Take the table's lock if no server holds it; return whether this server owns the table now."""
        if table_id in self.held:
            return True
        got = self._conn.execute("SELECT pg_try_advisory_lock(%s)", (lock_key(table_id),)).fetchone()[0]
        if not got:
            return False
        self.held.add(table_id)
        stmt = sa.dialects.postgresql.insert(OWNERS).values(table_id=table_id, server_id=self.server_id, since=time.time())
        with self.store.engine.begin() as conn:
            conn.execute(stmt.on_conflict_do_update(index_elements=["table_id"],
                                                    set_={"server_id": stmt.excluded.server_id,
                                                          "since": stmt.excluded.since}))
        return True

    def release(self, table_id: str) -> None:
        """Give up a table (it left memory): another server may claim it when it is next asked for."""
        if table_id not in self.held:
            return
        self.held.discard(table_id)
        try:
            self._conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key(table_id),))
            with self.store.engine.begin() as conn:
                conn.execute(OWNERS.delete().where(OWNERS.c.table_id == table_id,
                                                   OWNERS.c.server_id == self.server_id))
        except Exception:  # The connection is gone: so is the lock.
            log.warning("releasing table %s failed", table_id, exc_info=True)

    def _held_keys(self) -> set[int]:
        rows = self._conn.execute(
            "SELECT classid::bigint, objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 "
            "AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())").fetchall()
        return {(int(hi) << 32) | int(lo) for hi, lo in rows}

    def owner(self, table_id: str) -> str | None:
        """Return the address of the server that owns a table, or None when no server does."""
        if table_id in self.held:
            return self.address
        if _unsigned(lock_key(table_id)) not in self._held_keys():
            return None
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(SERVERS.c.address).join(OWNERS, OWNERS.c.server_id == SERVERS.c.id)
                               .where(OWNERS.c.table_id == table_id)).first()
        return None if row is None else str(row[0])

    def orphans(self, table_ids: Iterable[str]) -> list[str]:
        """Return those of ``table_ids`` that no server owns."""
        held = self._held_keys()
        return [t for t in table_ids if t not in self.held and _unsigned(lock_key(t)) not in held]
