"""A finished table leaves memory (it stays in the database), as the web hardening issue asks.

Regression test: each finished table used to keep about 32 kB for good, so a
server that had run 500 tables in a row held them all.
"""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from mustamaija.core.registry import games
from mustamaija.web import ServerConfig, create_app


def test_finished_tables_leave_memory_and_come_back_from_the_store() -> None:
    app = create_app(ServerConfig(bot_pace=0, deal_pause=0))
    manager = app.state.manager
    with TestClient(app) as client:
        ids = []
        for game in games():
            for i in range(6):
                seats = [{"kind": "bot", "bot": "easy"}] * game.min_players
                body = {"game": game.name, "players": game.min_players, "seats": seats, "sit": False,
                        "name": f"memory {i}", **({"deals": 1} if game.result_kind == "loss" else {"rules": {"hands": 1}})}
                r = client.post("/api/tables", json=body)
                assert r.status_code == 201, r.text
                ids.append(r.json()["table"]["id"])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(t in manager.tables for t in ids):
            time.sleep(0.05)
        assert not [t for t in ids if t in manager.tables], "finished tables are still held in memory"
        assert not [t for t in ids if t in manager._drivers or t in manager._wake or t in manager.subscribers]
        for table_id in ids:  # They are still there for replays and rematches.
            meta = client.get(f"/api/tables/{table_id}").json()["table"]
            assert meta["status"] == "over", meta
            deals = client.get(f"/api/tables/{table_id}/deals").json()
            assert deals["deals"], deals
        assert client.get(f"/api/tables/{ids[0]}/deals/1/record").status_code == 200
