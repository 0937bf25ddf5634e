"""Storage: the same code on SQLite (default) and on PostgreSQL when ``MUSTAMAIJA_TEST_DATABASE_URL`` names one.

Set ``MUSTAMAIJA_TEST_DATABASE_URL=postgresql+psycopg://user:pw@host/db`` (with
the ``postgres`` extra installed) to run these tests against PostgreSQL;
without it they use a SQLite file.
"""

from __future__ import annotations

import os
import secrets
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mustamaija.formats.record import Record
from mustamaija.web import ServerConfig, create_app
from mustamaija.web.config import data_dir, default_db_url
from mustamaija.web.store import Store


@pytest.fixture
def db_url(tmp_path: Path) -> Iterator[str]:
    yield os.environ.get("MUSTAMAIJA_TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'nested' / 'web.sqlite3'}"


def test_rows_round_trip_as_json(db_url: str) -> None:
    store = Store(db_url)
    try:
        tid = "t" + secrets.token_hex(6)  # Unique, so that a shared PostgreSQL database can be reused.
        row = {"status": "playing", "private": True, "config": {"players": 2, "rules": {"hand_size": 3}}, "version": 3,
               "seq": 2, "match_no": 1, "deal_no": 1, "created": 5.0}
        record = Record.from_seed(players=2, seed=1).to_json()
        store.commit(tid, table=row, seats=[{"seat": 0, "kind": "person", "bot": None, "name": "Ann", "token_hash": "ab"},
                                             {"seat": 1, "kind": "bot", "bot": "easy", "name": "easy bot", "token_hash": None}],
                     deal={"deal_no": 1, "match_no": 1, "record": record, "finished": False, "loser": None,
                           "stopped": False, "turns": 0},
                     events=[{"seq": 1, "kind": "join", "seat": 0, "name": "Ann"}, {"seq": 2, "kind": "deal_start", "deal": 1}])
        loaded = store.load_table(tid)
        assert loaded is not None and loaded["config"] == row["config"] and loaded["version"] == 3
        assert [s["name"] for s in loaded["seats"]] == ["Ann", "easy bot"]
        assert store.deal(tid, 1)["record"] == record  # type: ignore[index]
        assert store.deal(tid, 2) is None and store.load_table("nothing") is None
        assert [e["kind"] for e in store.events_since(tid, 0)] == ["join", "deal_start"]
        assert [e["kind"] for e in store.events_since(tid, 0, deal_no=1)] == ["deal_start"]
        store.commit(tid, table={"version": 4, "status": "over"},
                     deal={"deal_no": 1, "match_no": 1, "record": record, "finished": True, "loser": 1, "stopped": False,
                           "turns": 9})
        assert store.load_table(tid)["version"] == 4  # type: ignore[index]
        assert store.deals(tid)[0]["loser"] == 1 and tid not in store.table_ids(["playing"])
    finally:
        store.close()


def test_an_app_on_the_same_database_continues_a_table(db_url: str) -> None:
    config = ServerConfig(db_url=db_url, bot_pace=0.0, deal_pause=0.0, http_burst=100000)
    seats = {"players": 2, "seats": [{"kind": "person"}] * 2, "sit": False}
    with TestClient(create_app(config)) as c:
        tid = c.post("/api/tables", json=seats).json()["table"]["id"]
        tokens = [c.post(f"/api/tables/{tid}/join", json={"seat": s}).json()["token"] for s in (0, 1)]
        for _ in range(4):
            body = c.get(f"/api/tables/{tid}").json()
            token = tokens[body["state"]["to_act"]]
            mine = c.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {token}"}).json()
            action = mine["state"]["legal"]["actions"][-1]
            c.post(f"/api/tables/{tid}/actions", headers={"Authorization": f"Bearer {token}"},
                   json={"version": mine["table"]["version"], "action": action})
        before = c.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        # A deal nobody has acted in yet is kept too: the same cards after the restart.
        fresh = c.post("/api/tables", json={"players": 2, "seats": [{"kind": "person"}] * 2}).json()
        fresh_id = fresh["table"]["id"]
        fresh_token = c.post(f"/api/tables/{fresh_id}/join", json={}).json()["token"]
        dealt = c.get(f"/api/tables/{fresh_id}/state", headers={"Authorization": f"Bearer {fresh_token}"}).json()
    with TestClient(create_app(config)) as c:
        after = c.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        assert after["state"] == before["state"] and after["table"]["version"] == before["table"]["version"]
        assert after["state"]["actions"] == 4
        again = c.get(f"/api/tables/{fresh_id}/state", headers={"Authorization": f"Bearer {fresh_token}"}).json()
        assert again["state"] == dealt["state"] and again["table"]["deal"] == 1


def test_the_default_database_lives_in_the_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("MUSTAMAIJA_DATA_DIR", str(tmp_path / "data"))
    assert data_dir() == tmp_path / "data"
    assert default_db_url() == f"sqlite:///{tmp_path / 'data' / 'web.sqlite3'}"
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert default_db_url() == "postgresql+psycopg://u@h/db"
    assert default_db_url(tmp_path) == f"sqlite:///{tmp_path / 'web.sqlite3'}"
    monkeypatch.delenv("MUSTAMAIJA_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if os.name == "posix" and os.uname().sysname == "Linux":
        assert data_dir() == tmp_path / "xdg" / "mustamaija"
