"""Storage: the same code and the same tests on SQLite and on PostgreSQL.

Every test taking ``db_url`` runs twice: on a SQLite file and on PostgreSQL.
PostgreSQL is the server named by ``MUSTAMAIJA_TEST_DATABASE_URL`` (for
example ``postgresql+psycopg://user:pw@host/db``) if set, else a throw-away
cluster started from the local PostgreSQL binaries (see ``pg_server.py``).
Each test gets a schema of its own, so that an app never loads another
test's tables. Without PostgreSQL those runs are skipped, except under
``CI=true``, where they fail.
"""

from __future__ import annotations

import json
import os
import secrets
import time
import urllib.request
import warnings
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mustamaija.games.mustamaija.record import Record
from mustamaija.web import ServerConfig, create_app
from mustamaija.web.config import data_dir, default_db_url
from mustamaija.web.store import Store
from mustamaija.web.testing import ServerProcess


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'nested' / 'web.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


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


def _action_rows(db_url: str, tid: str) -> list[tuple[int, int]]:
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(sa.text(  # type: ignore[misc]
                "SELECT deal_no, ply FROM mm_actions WHERE table_id = :t ORDER BY deal_no, ply"), {"t": tid})]
    finally:
        engine.dispose()


def test_a_review_is_stored_by_deal_and_budget(db_url: str) -> None:
    store = Store(db_url)
    try:
        tid = "t" + secrets.token_hex(6)  # Unique, so that a shared PostgreSQL database can be reused.
        assert store.review(tid, 1, 1500) is None
        first = {"review": 1, "iters": 1500, "decisions": [{"mark": "best", "played_words": "lead 9♥ ✓"}]}
        store.save_review(tid, 1, 1500, first)
        assert store.review(tid, 1, 1500) == first
        assert store.review(tid, 1, 200) is None and store.review(tid, 2, 1500) is None  # Another budget, deal.
        second = {**first, "iters": 200}
        store.save_review(tid, 1, 200, second)  # In place of the first: one review a deal.
        assert store.review(tid, 1, 200) == second and store.review(tid, 1, 1500) is None
    finally:
        store.close()


def test_a_deal_in_play_appends_its_actions_and_reads_back_whole(db_url: str) -> None:
    store = Store(db_url)
    try:
        tid = "t" + secrets.token_hex(6)
        full = Record.from_seed(players=3, seed=4).with_actions(())
        state = full.start()
        steps = 0
        while not state.is_over and state.nlog < 12:
            legal = state.legal_actions()  # Steps: a compound action is logged once its last step is taken.
            state.apply(legal[steps % len(legal)])
            steps += 1
        actions = [a.to_json() for a in state.actions()]
        row = {"deal_no": 1, "match_no": 1, "finished": False, "loser": None, "stopped": False, "turns": 0}
        head = full.to_json()
        store.commit(tid, deal={**row, "record": head})
        for ply in range(5):  # Each action is its own small row; the stored record is not rewritten.
            store.commit(tid, actions=[{"deal_no": 1, "ply": ply, "action": actions[ply]}])
        assert store.deal(tid, 1)["record"] == {**head, "actions": actions[:5]}  # type: ignore[index]
        assert _action_rows(db_url, tid) == [(1, p) for p in range(5)]

        # A whole record (a seat joined, say) replaces the rows it holds; later actions append to it.
        store.stage(tid, actions=[{"deal_no": 1, "ply": 5, "action": actions[5]}])
        store.stage(tid, deal={**row, "record": {**head, "actions": actions[:6]}})
        store.stage(tid, actions=[{"deal_no": 1, "ply": 6, "action": actions[6]}])
        store.flush()
        assert _action_rows(db_url, tid) == [(1, 6)]
        assert store.deals(tid)[0]["record"] == {**head, "actions": actions[:7]}

        # The deal's end writes the whole record and leaves no action rows behind.
        store.commit(tid, deal={**row, "finished": True, "loser": 2, "record": {**head, "actions": actions}})
        assert _action_rows(db_url, tid) == []
        assert store.deal(tid, 1)["record"]["actions"] == actions  # type: ignore[index]

        # A gap in the actions is a damaged store: reading it says so rather than return a wrong deal.
        store.commit(tid, deal={**row, "deal_no": 2, "record": head},
                     actions=[{"deal_no": 2, "ply": 1, "action": actions[1]}])
        with pytest.raises(LookupError, match="lacks its actions 0 to 0"):
            store.deal(tid, 2)
    finally:
        store.close()


def test_a_table_in_play_stores_actions_not_records(db_url: str) -> None:
    config = ServerConfig(db_url=db_url, bot_pace=0.0, deal_pause=0.0, http_burst=100000)
    with TestClient(create_app(config)) as c:
        created = c.post("/api/tables", json={"players": 3, "deals": 1,
                                              "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "easy"}] * 2}).json()
        tid, token = created["table"]["id"], created["token"]
        mine = _wait_turn(c, tid, token)
        c.post(f"/api/tables/{tid}/actions", headers={"Authorization": f"Bearer {token}"},
               json={"version": mine["table"]["version"], "action": mine["state"]["legal"]["actions"][0]})
        played = _wait_turn(c, tid, token)["state"]["actions"]
        rows = _action_rows(db_url, tid)
        assert rows == [(1, p) for p in range(played)]
        deals = c.get(f"/api/tables/{tid}/deals").json()["deals"]
        assert deals[0]["finished"] is False and deals[0]["turns"] == c.get(f"/api/tables/{tid}").json()["state"]["turns"]


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


def test_upserts_odd_text_and_partial_rows(db_url: str) -> None:
    store = Store(db_url)
    try:
        row = {"status": "waiting", "private": False, "config": {"name": "zero\x00day ☃"}, "version": 0, "seq": 0,
               "match_no": 1, "deal_no": 0, "created": 1.0}
        long_bot = "mcts:" + "x" * 190  # A bot's default name is its spec plus " bot": longer than any short column.
        seats = [{"seat": 0, "kind": "person", "bot": None, "name": "nul\x00name", "token_hash": None},
                 {"seat": 1, "kind": "bot", "bot": long_bot, "name": long_bot + " bot", "token_hash": None}]
        store.commit("odd", table=row, seats=seats)
        store.commit("odd", table={**row, "status": "playing", "version": 1}, seats=[{**seats[0], "name": "Ann"}])
        loaded = store.load_table("odd")
        assert loaded is not None and loaded["status"] == "playing" and loaded["version"] == 1
        assert loaded["config"] == {"name": "zero\x00day ☃"}  # JSON text escapes the NUL, so it survives.
        assert [s["name"] for s in loaded["seats"]] == ["Ann", long_bot + " bot"]
        store.commit("odd", seats=[{**seats[0], "token_hash": None}])
        assert store.load_table("odd")["seats"][0]["name"] == "nul\ufffdname"  # type: ignore[index]
        with pytest.raises(LookupError, match=r"no row \{'id': 'ghost'\} in mm_tables .* needs config, created"):
            store.commit("ghost", table={"seq": 1})
        assert store.load_table("ghost") is None  # The failed transaction left nothing behind.
        events = [{"seq": 1, "kind": "join"}]
        store.commit("odd", table={"seq": 1}, events=events)
        with pytest.raises(sa.exc.IntegrityError):
            store.commit("odd", table={"seq": 2}, events=events)  # The same event twice is a bug: nothing is written.
        assert store.load_table("odd")["seq"] == 1  # type: ignore[index]
    finally:
        store.close()


def _wait_turn(c: TestClient, tid: str, token: str) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while True:
        body: dict[str, Any] = c.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {token}"}).json()
        if body["state"] and body["state"]["legal"]:
            return body
        assert time.monotonic() < deadline, f"the bots at table {tid} never let seat {body['seat']} play"
        time.sleep(0.01)


def test_a_table_with_bots_continues_after_the_manager_is_reloaded(db_url: str) -> None:
    config = ServerConfig(db_url=db_url, bot_pace=0.0, deal_pause=0.0, http_burst=100000)
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"}]
    with TestClient(create_app(config)) as c:
        answer = c.post("/api/tables", json={"players": 3, "deals": 3, "seats": seats}).json()
        tid, token = answer["table"]["id"], answer["token"]
        for _ in range(3):
            mine = _wait_turn(c, tid, token)
            c.post(f"/api/tables/{tid}/actions", headers={"Authorization": f"Bearer {token}"},
                   json={"version": mine["table"]["version"], "action": mine["state"]["legal"]["actions"][0]})
        before = _wait_turn(c, tid, token)
    with TestClient(create_app(config)) as c:
        after = _wait_turn(c, tid, token)
        assert after["state"] == before["state"] and after["table"]["version"] == before["table"]["version"]
        version = after["table"]["version"]
        c.post(f"/api/tables/{tid}/actions", headers={"Authorization": f"Bearer {token}"},
               json={"version": version, "action": after["state"]["legal"]["actions"][0]})
        later = _wait_turn(c, tid, token)
        assert later["table"]["version"] > version + 1  # The bots played on after the person.


def _call(base: str, path: str, body: object = None, token: str | None = None) -> Any:
    request = urllib.request.Request(base + path.lstrip("/"), data=None if body is None else json.dumps(body).encode(),
                                     method="GET" if body is None else "POST", headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def _my_turn(base: str, tid: str, token: str) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while True:
        body: dict[str, Any] = _call(base, f"/api/tables/{tid}/state", token=token)
        if body["state"] and body["state"]["legal"]:
            return body
        assert time.monotonic() < deadline, f"the bot at table {tid} never let seat {body['seat']} play"
        time.sleep(0.01)


def _play_first(base: str, tid: str, token: str) -> int:
    mine = _my_turn(base, tid, token)
    action = mine["state"]["legal"]["actions"][0]
    return int(_call(base, f"/api/tables/{tid}/actions", {"version": mine["table"]["version"], "action": action}, token)["version"])


def test_a_killed_server_process_continues_its_tables_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    # The last --db on the command line wins, so the helper's SQLite file is never created.
    unused = tmp_path / "unused.sqlite3"
    first = ServerProcess(unused, extra=("--db", pg_url)).start()
    try:
        answer = _call(first.url, "/api/tables", {"players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "easy"}]})
        tid, token = answer["table"]["id"], answer["token"]
        for _ in range(3):
            _play_first(first.url, tid, token)
        before = _my_turn(first.url, tid, token)
    finally:
        first.kill()
    with ServerProcess(unused, extra=("--db", pg_url)) as second:
        after = _my_turn(second.url, tid, token)
        assert after["state"] == before["state"] and after["table"]["version"] == before["table"]["version"]
        version = _play_first(second.url, tid, token)
        assert _my_turn(second.url, tid, token)["table"]["version"] > version  # The bot played on.
    assert not unused.exists()

