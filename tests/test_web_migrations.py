"""The web schema's Alembic migrations: a database with games from before migrations upgrades in place, losing nothing.

Run on SQLite and on a real PostgreSQL server. "Before migrations" is the
schema of revision 0001 with no ``alembic_version`` table, as the servers of
that time left it.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import mustamaija.web.store as store_module
from mustamaija.web import ServerConfig, create_app
from mustamaija.web.store import HEAD, METADATA, Store

FAST: dict[str, Any] = {"bot_pace": 0.0, "deal_pause": 0.0, "http_burst": 100000}


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'web.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


def _alembic(conn: sa.Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(Path(store_module.__file__).with_name("migrations")))
    config.attributes["connection"] = conn
    return config


def _back_to_before_migrations(url: str) -> None:
    """Downgrade to revision 0001 and drop Alembic's table: the database an old server left behind."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            command.downgrade(_alembic(conn), "0001")
            conn.execute(sa.text("DROP TABLE alembic_version"))
            assert not sa.inspect(conn).has_table("mm_servers")
    finally:
        engine.dispose()


def _play(c: TestClient) -> tuple[str, str, str]:
    """Create a finished table and one in play (a person's turn); return their ids and the person's token."""
    over = c.post("/api/tables", json={"players": 3, "deals": 1, "sit": False,
                                       "seats": [{"kind": "bot", "bot": "easy"}] * 3}).json()["table"]["id"]
    created = c.post("/api/tables", json={"players": 2, "deals": 3, "seats": [
        {"kind": "person"}, {"kind": "bot", "bot": "easy"}]}).json()
    live, token = created["table"]["id"], created["token"]
    deadline = time.monotonic() + 30
    while c.get(f"/api/tables/{over}").json()["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots' match did not end"
        time.sleep(0.02)
    state = c.get(f"/api/tables/{live}/state", headers={"Authorization": f"Bearer {token}"}).json()
    for _ in range(3):
        if not state["state"]["legal"]:
            break
        c.post(f"/api/tables/{live}/actions", headers={"Authorization": f"Bearer {token}"},
               json={"version": state["table"]["version"], "action": state["state"]["legal"]["actions"][0]})
        state = c.get(f"/api/tables/{live}/state", headers={"Authorization": f"Bearer {token}"}).json()
    return over, live, token


def test_a_database_from_before_migrations_upgrades_in_place_and_keeps_every_game(db_url: str) -> None:
    config = ServerConfig(db_url=db_url, **FAST)
    with TestClient(create_app(config)) as c:
        over, live, token = _play(c)
        before_live = c.get(f"/api/tables/{live}/state", headers={"Authorization": f"Bearer {token}"}).json()
        before_deals = c.get(f"/api/tables/{over}/deals").json()
        record = c.get(f"/api/tables/{over}/deals/1/record").json()
        assert before_deals["deals"][0]["finished"]
    _back_to_before_migrations(db_url)

    with TestClient(create_app(config)) as c:  # The new server migrates the old database when it opens it.
        after_live = c.get(f"/api/tables/{live}/state", headers={"Authorization": f"Bearer {token}"}).json()
        assert after_live["state"] == before_live["state"]
        assert after_live["table"]["version"] == before_live["table"]["version"]
        assert c.get(f"/api/tables/{over}/deals").json() == before_deals
        assert c.get(f"/api/tables/{over}/deals/1/record").json() == record
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == HEAD
    finally:
        engine.dispose()


def test_the_migrations_build_exactly_the_schema_the_store_declares(db_url: str) -> None:
    Store(db_url).close()
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), METADATA)
        assert differences == []
        Store(db_url).close()  # Opening an up-to-date database again changes nothing.
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == HEAD
    finally:
        engine.dispose()


def _head_of(url: str) -> str:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return str(conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar())
    finally:
        engine.dispose()


def test_games_stored_before_ratings_upgrade_through_0004_and_new_deals_are_rated(db_url: str) -> None:
    config = ServerConfig(db_url=db_url, **FAST)
    with TestClient(create_app(config)) as c:
        over, live, token = _play(c)
        before_deals = c.get(f"/api/tables/{over}/deals").json()
        before_live = c.get(f"/api/tables/{live}/state", headers={"Authorization": f"Bearer {token}"}).json()
        record = c.get(f"/api/tables/{over}/deals/1/record").json()
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:  # The schema of the servers before ratings, with these games in it.
            command.downgrade(_alembic(conn), "0003")
            assert not sa.inspect(conn).has_table("mm_ratings")
            assert "player" not in {col["name"] for col in sa.inspect(conn).get_columns("mm_seats")}
    finally:
        engine.dispose()
    assert _head_of(db_url) == "0003"

    with TestClient(create_app(config)) as c:  # Through 0004 (and on): every game as it was, and ratings from now on.
        assert _head_of(db_url) == HEAD == "0005"
        assert c.get(f"/api/tables/{over}/deals").json() == before_deals
        assert c.get(f"/api/tables/{over}/deals/1/record").json() == record
        after_live = c.get(f"/api/tables/{live}/state", headers={"Authorization": f"Bearer {token}"}).json()
        assert after_live["state"] == before_live["state"]
        assert [s["player"] for s in after_live["table"]["seats"]] == [None, None]
        assert c.get("/api/ratings").json()["ratings"] == [], "deals finished before ratings existed are not rated"
        assert c.post("/api/players", json={"name": "Ann"}).status_code == 201
        fresh = c.post("/api/tables", json={"players": 2, "deals": 2, "sit": False, "seats": [
            {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"}]}).json()["table"]["id"]
        deadline = time.monotonic() + 30
        while c.get(f"/api/tables/{fresh}").json()["table"]["status"] != "over":
            assert time.monotonic() < deadline, "the bots' match did not end"
            time.sleep(0.02)
        finished = [d for d in c.get(f"/api/tables/{fresh}/deals").json()["deals"] if d["loser"] is not None]
        games = {r["name"]: r["games"] for r in c.get("/api/ratings").json()["ratings"]}
        assert games == ({"easy": len(finished), "medium": len(finished)} if finished else {})
