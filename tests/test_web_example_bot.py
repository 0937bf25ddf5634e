"""The example bot client (examples/bot_client.py) plays whole matches against a real server process."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from mustamaija.games.mustamaija.record import Record
from mustamaija.web.testing import ServerProcess

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "examples" / "bot_client.py"


def get(url: str) -> dict:  # type: ignore[type-arg]
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


def test_the_example_bot_plays_a_match_through_the_bot_api(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "web.sqlite3") as server:
        run = subprocess.run([sys.executable, str(CLIENT), server.url, "--create", "--players", "3", "--deals", "2",
                              "--bots", "medium"], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "match over at table" in run.stdout and run.stdout.count("deal ") >= 2
        table_id = run.stdout.split("playing seat 0 at table ")[1].split()[0]
        meta = get(f"{server.url}api/tables/{table_id}")["table"]
        assert meta["status"] == "over" and meta["match"]["played"] == 2
        assert meta["seats"][0]["name"] == "example bot"
        for deal in (1, 2):
            record = Record.from_json(get(f"{server.url}api/tables/{table_id}/deals/{deal}/record"))
            assert record.replay().is_over
            assert any(a.seat == 0 for a in record.actions)  # The example bot really played its seat.


def test_the_example_bot_joins_a_free_seat_and_reports_errors(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "web.sqlite3") as server:
        body = json.dumps({"players": 2, "deals": 1, "sit": False,
                           "seats": [{"kind": "bot", "bot": "easy"}, {"kind": "person"}]}).encode()
        request = urllib.request.Request(f"{server.url}api/tables", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            table_id = json.loads(answer.read())["table"]["id"]
        run = subprocess.run([sys.executable, str(CLIENT), server.url, f"--join={table_id}", "--quiet"],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr
        assert f"match over at table {table_id}: seat 1" in run.stdout
        again = subprocess.run([sys.executable, str(CLIENT), server.url, "--join", table_id],
                               capture_output=True, text=True, timeout=60)
        assert again.returncode == 1 and "no_free_seat" in again.stderr
        wrong = subprocess.run([sys.executable, str(CLIENT), server.url, "--table", table_id, "--token", "nope"],
                               capture_output=True, text=True, timeout=60)
        assert wrong.returncode == 1 and "unauthorized" in wrong.stderr
