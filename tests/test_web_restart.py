"""A real ``mustamaija serve`` killed with SIGKILL mid-deal continues every table of every game when started again."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from mustamaija.core.registry import get_game
from mustamaija.web.testing import ServerProcess


def call(base: str, method: str, path: str, body: object = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path.lstrip("/"), data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def state(base: str, table: str, token: str | None = None) -> dict[str, Any]:
    return call(base, "GET", f"/api/tables/{table}/state", token=token)  # type: ignore[no-any-return]


def first_action(legal: dict[str, Any]) -> dict[str, Any]:
    """Return the first legal action the server lists, or a pass of the first cards, or the first legal card."""
    if "actions" in legal:
        return legal["actions"][0]  # type: ignore[no-any-return]
    return {"pass": legal["cards"][: legal["count"]]} if legal["kind"] == "pass" else {"play": legal["cards"][0]}


def act_first(base: str, table: str, token: str) -> int:
    """Play the seat's first legal action; return the new version."""
    body = state(base, table, token)
    action = first_action(body["state"]["legal"])
    answer = call(base, "POST", f"/api/tables/{table}/actions", {"version": body["table"]["version"], "action": action}, token)
    return int(answer["version"])


def wait(predicate: Any, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def my_turn(base: str, table: str, token: str) -> bool:
    body = state(base, table, token)
    return bool(body["state"] and body["state"]["legal"])


def without_presence(body: dict[str, Any]) -> dict[str, Any]:
    table = {k: v for k, v in body["table"].items() if k not in ("seats", "clock")}  # The clock counts presence too.
    seats = [{k: v for k, v in s.items() if k not in ("online", "gone_for")} for s in body["table"]["seats"]]
    return {"table": table, "seats": seats, "state": body["state"], "seq": body["seq"]}


def test_every_table_continues_from_its_last_accepted_action(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    first = ServerProcess(db, bot_pace=0.02).start()
    try:
        url = first.url
        # A: two people, five actions played over HTTP.
        a = call(url, "POST", "/api/tables", {"players": 2, "seats": [{"kind": "person"}] * 2, "sit": False})["table"]["id"]
        a_tokens = [call(url, "POST", f"/api/tables/{a}/join", {"seat": s})["token"] for s in (0, 1)]
        for _ in range(5):
            actor = state(url, a)["state"]["to_act"]
            act_first(url, a, a_tokens[actor])
        # B: a person and two bots; the bots wait whenever it is the person's turn.
        answer = call(url, "POST", "/api/tables", {"players": 3, "deals": 3, "seats": [
            {"kind": "person"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"}]})
        b, b_token = answer["table"]["id"], answer["token"]
        for _ in range(3):
            wait(lambda: my_turn(url, b, b_token), "the person's turn at B")
            act_first(url, b, b_token)
        wait(lambda: my_turn(url, b, b_token), "the person's turn at B")
        # C: bots only, playing a long match while the server is killed.
        c = call(url, "POST", "/api/tables", {"players": 3, "deals": 100, "sit": False,
                                             "seats": [{"kind": "bot", "bot": "easy"}] * 3})["table"]["id"]
        wait(lambda: call(url, "GET", f"/api/tables/{c}")["table"]["version"] >= 30, "the bots at C")
        before_a = [without_presence(state(url, a, t)) for t in a_tokens]
        before_b = without_presence(state(url, b, b_token))
        seen_c = call(url, "GET", f"/api/tables/{c}")["table"]["version"]
    finally:
        first.kill()
    assert first.proc is not None and first.proc.returncode == -9

    with ServerProcess(db, bot_pace=0.0) as second:
        url = second.url
        # A is exactly where it was, and play goes on.
        assert [without_presence(state(url, a, t)) for t in a_tokens] == before_a
        assert before_a[0]["state"]["actions"] == 5
        seats = state(url, a)["table"]["seats"]
        assert all(s["taken"] and not s["online"] and s["gone_for"] is not None for s in seats)
        for _ in range(3):
            actor = state(url, a)["state"]["to_act"]
            act_first(url, a, a_tokens[actor])
        assert state(url, a)["state"]["actions"] == 8
        # B waits for its person exactly where it was; once the person acts, the bots resume.
        assert without_presence(state(url, b, b_token)) == before_b
        version = act_first(url, b, b_token)
        # Online deals are shuffled with secrets, so the person may be to act again (say, after beating
        # everything): act until a bot acts.
        deadline = time.monotonic() + 30.0
        while (body := state(url, b, b_token))["table"]["version"] == version and body["table"]["status"] != "over":
            if body["state"] and body["state"]["legal"]:
                version = act_first(url, b, b_token)
            assert time.monotonic() < deadline, "timed out waiting for the bots at B to resume"
            time.sleep(0.05)
        # C kept every action it announced, its records replay, and its bots resume.
        meta = call(url, "GET", f"/api/tables/{c}")["table"]
        assert meta["version"] >= seen_c
        wait(lambda: call(url, "GET", f"/api/tables/{c}")["table"]["version"] > meta["version"] + 10, "the bots at C")
        for deal in call(url, "GET", f"/api/tables/{c}/deals")["deals"]:
            if deal["finished"]:
                record = get_game("mustamaija").load_record(call(url, "GET", f"/api/tables/{c}/deals/{deal['deal']}/record"))
                assert record.replay().is_over
        try:
            call(url, "GET", "/api/tables/unknown")
        except urllib.error.HTTPError as e:
            assert e.code == 404 and json.loads(e.read())["error"]["code"] == "not_found"
        else:
            raise AssertionError("an unknown table was found")


def test_black_maria_tables_continue_from_their_last_accepted_action(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    first = ServerProcess(db, bot_pace=0.02).start()
    try:
        url = first.url
        # A: a person and three bots, in the middle of the first hand (passes made, tricks under way).
        answer = call(url, "POST", "/api/tables", {"game": "black-maria", "players": 4, "rules": {"hands": 2},
                                                   "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "easy"}] * 3})
        a, a_token = answer["table"]["id"], answer["token"]
        for _ in range(4):
            wait(lambda: my_turn(url, a, a_token), "the person's turn at A")
            act_first(url, a, a_token)
        wait(lambda: my_turn(url, a, a_token), "the person's turn at A")
        # B: heuristic bots only, a long game while the server is killed.
        b = call(url, "POST", "/api/tables", {"game": "black-maria", "players": 3, "rules": {"hands": 50}, "sit": False,
                                             "seats": [{"kind": "bot", "bot": "medium"}] * 3})["table"]["id"]
        wait(lambda: call(url, "GET", f"/api/tables/{b}")["table"]["version"] >= 60, "the bots at B")
        before_a = without_presence(state(url, a, a_token))
        seen_b = call(url, "GET", f"/api/tables/{b}")["table"]["version"]
    finally:
        first.kill()
    assert first.proc is not None and first.proc.returncode == -9
    assert before_a["state"]["phase"] == "play" and before_a["state"]["actions"] >= 4 + 3

    with ServerProcess(db, bot_pace=0.0) as second:
        url = second.url
        # A waits for its person exactly where it was (hand, received cards, trick, totals); then the bots resume.
        assert without_presence(state(url, a, a_token)) == before_a
        version = act_first(url, a, a_token)
        # The deal is shuffled with secrets, so the person may win the trick and lead again: act until a bot acts.
        deadline = time.monotonic() + 30.0
        while (body := state(url, a, a_token))["table"]["version"] == version:
            if body["state"]["legal"]:
                version = act_first(url, a, a_token)
            assert time.monotonic() < deadline, "timed out waiting for the bots at A to resume"
            time.sleep(0.05)
        # B kept every action it announced, its finished hands replay, and its bots resume.
        meta = call(url, "GET", f"/api/tables/{b}")["table"]
        assert meta["version"] >= seen_b and meta["game"] == "black-maria"
        assert meta["match"]["totals"] == [sum(r["points"][s] for r in meta["match"]["results"]) for s in range(3)]
        wait(lambda: call(url, "GET", f"/api/tables/{b}")["table"]["version"] > meta["version"] + 10, "the bots at B")
        finished = [d for d in call(url, "GET", f"/api/tables/{b}/deals")["deals"] if d["finished"]]
        assert finished
        for deal in finished:
            record = get_game("black-maria").load_record(call(url, "GET", f"/api/tables/{b}/deals/{deal['deal']}/record"))
            assert record.replay().points() == deal["scores"]
