"""The group commit: no client hears of a change before it is in the store, and busy tables share transactions."""

from __future__ import annotations

import asyncio
import json
import warnings
from typing import Any

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mustamaija.web import ServerConfig, create_app
from mustamaija.web.manager import Message, Subscriber, TableManager
from mustamaija.web.store import TABLES

FAST: dict[str, Any] = {"bot_pace": 0.0, "deal_pause": 0.0, "http_burst": 100000, "ws_rate": 1000.0}


def stored_version(manager: TableManager, table_id: str) -> int | None:
    """Read a table's version from the database itself (the store's own reads would first write what is staged)."""
    with manager.store.engine.connect() as conn:
        return conn.execute(sa.select(TABLES.c.version).where(TABLES.c.id == table_id)).scalar()


def test_every_message_and_answer_comes_after_its_change_is_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, int, int | None]] = []  # (message type, table version told, version stored then)
    with TestClient(create_app(ServerConfig(**FAST))) as c:
        manager: TableManager = c.app.state.manager  # type: ignore[attr-defined]
        put = Subscriber.put

        def checked_put(self: Subscriber, message: Message) -> None:
            body = json.loads(message) if isinstance(message, str) else message
            if isinstance(body, dict) and isinstance(body.get("table"), dict):
                seen.append((body["type"], body["table"]["version"], stored_version(manager, self.table_id)))
            elif isinstance(body, dict) and body.get("type") == "ack":
                seen.append(("ack", body["version"], stored_version(manager, self.table_id)))
            put(self, message)

        monkeypatch.setattr(Subscriber, "put", checked_put)
        created = c.post("/api/tables", json={"players": 2, "deals": 2, "seats": [
            {"kind": "person"}, {"kind": "bot", "bot": "easy"}]}).json()
        tid, token = created["table"]["id"], created["token"]
        assert stored_version(manager, tid) == created["table"]["version"]  # The answer came after the write.
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": token, "since": None})
            acted = 0
            while acted < 12:
                message = ws.receive_json()
                if message["type"] == "error":
                    continue  # A stale action: the next update brings the state to act on.
                state = message.get("state")
                if message["type"] in ("sync", "update") and message["table"]["status"] == "over":
                    break
                if message["type"] in ("sync", "update") and state and state["legal"]:
                    ws.send_json({"type": "action", "version": message["table"]["version"],
                                  "action": state["legal"]["actions"][0], "id": acted})
                    acted += 1
        # HTTP: the answer to an action and every read show only stored versions.
        body = c.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {token}"}).json()
        assert stored_version(manager, tid) == body["table"]["version"]
    assert len(seen) > 12
    assert all(stored is not None and stored >= told for _, told, stored in seen), seen


def test_changes_of_many_tables_in_one_turn_of_the_loop_share_one_transaction() -> None:
    async def run() -> tuple[int, int]:
        manager = TableManager(ServerConfig(db_url="sqlite://", **FAST))
        commits = 0

        @sa.event.listens_for(manager.store.engine, "commit")
        def count(_conn: Any) -> None:
            nonlocal commits
            commits += 1

        await manager.start()
        try:
            tables = [manager.create({"players": 3, "deals": 50, "sit": False,
                                      "seats": [{"kind": "bot", "bot": "easy"}] * 3})[0] for _ in range(20)]
            await manager.settled()
            start = commits
            before = sum(t.version for t in tables)
            await asyncio.sleep(0.5)
            await manager.settled()
            return commits - start, sum(t.version for t in tables) - before
        finally:
            await manager.close()

    commits, changes = asyncio.run(run())
    # Twenty bot tables move once each per turn of the loop: one transaction carries all their moves.
    assert changes > 200 and commits * 5 < changes, (commits, changes)
