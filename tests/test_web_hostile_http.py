"""Hostile HTTP requests get a clear 4xx and change nothing (the defects of the web hardening issue).

Each test is a regression test of one reproduction: huge numbers in paths and
bodies, extra or wrongly typed fields in an action, a long-thinking bot asked
for by a client, forwarded addresses believed from anybody, a second server
on one SQLite file, a plain file path for ``--db`` and unknown methods.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mustamaija.cli.serve import database_url
from mustamaija.web import ServerConfig, create_app
from mustamaija.web.store import Store, StoreInUse
from mustamaija.web.testing import ServerProcess

HUGE = 10**30


@pytest.fixture
def client() -> Any:
    app = create_app(ServerConfig(bot_pace=0, deal_pause=0))
    with TestClient(app) as c:
        yield c


def _table(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    """Return a playing two-person table, the token of the seat to act, and the creation's answer."""
    r = client.post("/api/tables", json={"players": 2, "seats": [{"kind": "person"}, {"kind": "person"}]})
    assert r.status_code == 201, r.text
    body = r.json()
    table = body["table"]["id"]
    other = client.post(f"/api/tables/{table}/join", json={"seat": 1 - body["seat"]}).json()
    for token in (body["token"], other["token"]):
        state = client.get(f"/api/tables/{table}/state", headers={"Authorization": f"Bearer {token}"}).json()
        if state["state"]["to_act"] == state["seat"]:
            return table, token, body
    raise AssertionError("nobody is to act")


def test_huge_numbers_in_paths_and_bodies_get_a_400_not_a_500(client: TestClient) -> None:
    table, token, _ = _table(client)
    for url in (f"/api/tables/{table}/deals/{HUGE}/record", f"/api/tables/{table}/deals/{HUGE}/replay",
                f"/api/tables/{table}/deals/-1/record"):
        r = client.get(url)
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request", (url, r.text)
    r = client.get(f"/api/tables/{table}/stream?since={HUGE}")
    assert r.status_code == 400
    auth = {"Authorization": f"Bearer {token}"}
    r = client.post(f"/api/tables/{table}/actions", headers=auth, json={"version": HUGE, "action": {"lead": ["AS"]}})
    assert r.status_code == 400 and "version" in r.json()["error"]["message"]
    r = client.post(f"/api/tables/{table}/join", json={"seat": HUGE})
    assert r.status_code == 400
    assert client.get("/api/health").status_code == 200  # Nothing broke.


@pytest.mark.parametrize("action", [
    {"lead": ["AS"], "seat": True},
    {"lead": ["AS"], "seat": 0},
    {"lead": ["AS"], "comment": "hi"},
    {"lead": "AS"},
    {"lead": [7]},
    {},
])
def test_an_action_with_extra_or_wrongly_typed_fields_is_refused(client: TestClient, action: dict[str, Any]) -> None:
    table, token, _ = _table(client)
    auth = {"Authorization": f"Bearer {token}"}
    before = client.get(f"/api/tables/{table}/state", headers=auth).json()["table"]["version"]
    r = client.post(f"/api/tables/{table}/actions", headers=auth, json={"version": before, "action": action})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request", r.text
    assert client.get(f"/api/tables/{table}/state", headers=auth).json()["table"]["version"] == before


def test_a_table_cannot_ask_for_a_long_thinking_bot(client: TestClient) -> None:
    r = client.post("/api/tables", json={"players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "pimc:time=100000"}]})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_bot"
    assert "time may be at most" in r.json()["error"]["message"]
    r = client.post("/api/tables", json={"players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "expert"}]})
    assert r.status_code == 201


def test_an_unknown_method_gets_the_json_error_shape(client: TestClient) -> None:
    for method, url in (("BREW", "/api/tables"), ("DELETE", "/api/health"), ("PUT", "/static/js/api.js"), ("PATCH", "/")):
        r = client.request(method, url)
        assert 400 <= r.status_code < 500 and r.headers["content-type"].startswith("application/json"), (method, url, r.text)
        assert "code" in r.json()["error"]


def test_a_plain_path_is_a_sqlite_database(tmp_path: Path) -> None:
    assert database_url(str(tmp_path / "x.db")) == f"sqlite:///{tmp_path / 'x.db'}"
    assert database_url("sqlite:///y.db") == "sqlite:///y.db"


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    first = Store(url)
    try:
        with pytest.raises(StoreInUse, match="another mustamaija serve is using"):
            Store(url)
    finally:
        first.close()
    Store(url).close()  # Once the first has gone, the file is free again.
    with ServerProcess(tmp_path / "served.sqlite3"):
        second = subprocess.run([sys.executable, "-m", "mustamaija", "serve", "--port", "0", "--db",
                                 str(tmp_path / "served.sqlite3")], capture_output=True, text=True, timeout=60)
        assert second.returncode != 0 and "another mustamaija serve is using" in second.stderr


def test_forwarded_addresses_are_not_believed_from_an_unknown_proxy(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "fwd.sqlite3") as server:
        port = int(server.url.rstrip("/").rsplit(":", 1)[1])
        limited = 0
        for i in range(120):  # The burst is 60 requests; a new forwarded address each time must not reset it.
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/api/health", headers={"X-Forwarded-For": f"10.0.{i // 250}.{i % 250}"})
            response = conn.getresponse()
            response.read()
            conn.close()
            limited += response.status == 429
        assert limited > 0, "a client changing X-Forwarded-For slipped past the per-address limit"



def test_a_connection_slow_with_its_request_head_is_closed(tmp_path: Path) -> None:
    import socket
    import time

    with ServerProcess(tmp_path / "slow.sqlite3", extra=("--head-timeout", "1")) as server:
        port = int(server.url.rstrip("/").rsplit(":", 1)[1])
        partial = socket.create_connection(("127.0.0.1", port))
        partial.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # Slowloris: the head never ends.
        silent = socket.create_connection(("127.0.0.1", port))
        start = time.monotonic()
        for sock in (partial, silent):
            sock.settimeout(10)
            assert sock.recv(100) == b"", "the server answered instead of closing"
        assert time.monotonic() - start < 8, "slow connections were kept"
        # A client that sends its requests in time is served, and twice on one keep-alive connection.
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for _ in range(2):
            conn.request("GET", "/api/health")
            response = conn.getresponse()
            assert response.status == 200 and b'"ok"' in response.read()
        conn.close()


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for url in ("/", "/api/health", "/static/js/api.js", "/nowhere"):
        headers = client.get(url).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"] and "script-src 'self'" in headers[
            "content-security-policy"], url
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"


def test_the_database_holds_no_usable_seat_token(client: TestClient) -> None:
    import hashlib

    table, token, _ = _table(client)
    row = client.app.state.manager.store.load_table(table)  # type: ignore[attr-defined]
    dumped = json.dumps(row, default=str)
    assert token not in dumped
    assert hashlib.sha256(token.encode()).hexdigest() in [seat["token_hash"] for seat in row["seats"]]
