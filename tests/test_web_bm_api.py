"""Black Maria tables over the HTTP API and the WebSocket, in process: create, pass, play, hints, replays, errors."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from starlette.testclient import WebSocketTestSession

from mustamaija.games.black_maria.record import Record
from mustamaija.web import ServerConfig, create_app

FAST: dict[str, Any] = {"bot_pace": 0.0, "deal_pause": 0.0, "hint_seconds": 0.2, "http_burst": 100000,
                        "ws_rate": 1000.0}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(**FAST))) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def people(c: TestClient, n: int, **extra: Any) -> tuple[str, list[str]]:
    """Create a Black Maria table of ``n`` person seats and take them all; return (table id, tokens)."""
    r = c.post("/api/tables", json={"game": "black-maria", "players": n, "seats": [{"kind": "person"}] * n,
                                    "sit": False, **extra})
    assert r.status_code == 201, r.json()
    tid = r.json()["table"]["id"]
    return tid, [c.post(f"/api/tables/{tid}/join", json={"seat": s}).json()["token"] for s in range(n)]


def state(c: TestClient, tid: str, token: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = c.get(f"/api/tables/{tid}/state", headers=auth(token) if token else {}).json()
    return body


def act(c: TestClient, tid: str, token: str, action: dict[str, Any], version: int | None = None) -> Any:
    if version is None:
        version = state(c, tid)["table"]["version"]
    return c.post(f"/api/tables/{tid}/actions", json={"version": version, "action": action}, headers=auth(token))


def hello(ws: WebSocketTestSession, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, "since": None})
    assert ws.receive_json()["type"] == "welcome"
    message: dict[str, Any] = ws.receive_json()
    return message


def next_events(ws: WebSocketTestSession) -> dict[str, Any]:
    """Return the next update that carries events (presence updates carry none)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "update" and message["events"]:
            return message


def pass_all(c: TestClient, tid: str, tokens: list[str], times: int | None = None) -> dict[int, list[str]]:
    """Let the seats to pass pass their first cards, in turn (``times`` passes, default all); return the passes."""
    passes = {}
    for _ in range(len(tokens) if times is None else times):
        seat = state(c, tid)["state"]["to_act"]
        mine = state(c, tid, tokens[seat])["state"]
        passes[seat] = mine["hand"][: mine["legal"]["count"]]
        assert act(c, tid, tokens[seat], {"pass": passes[seat]}).json()["ok"]
    return passes


def test_create_a_black_maria_table_with_defaults_and_bots(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "black-maria", "player_name": "Ann"})
    assert r.status_code == 201
    body = r.json()
    meta = body["table"]
    assert meta["game"] == "black-maria" and meta["players"] == 4 and body["seat"] == 0
    assert meta["rules"] == {"target_score": 50, "hands": None, "allow_renege": False}
    assert [s["bot"] for s in meta["seats"]] == [None, "medium", "medium", "medium"]
    assert [s["name"] for s in meta["seats"]] == ["Ann", "bot 1 · medium", "bot 2 · medium", "bot 3 · medium"]
    assert meta["title"] == "Black Maria" and meta["layout"] == "trick" and meta["preset"] == "standard"
    assert meta["match"]["totals"] == [0, 0, 0, 0] and meta["match"]["target_score"] == 50
    assert body["url"].startswith(f"/t/{meta['id']}#seat=0&token=")
    r = client.post("/api/tables", json={"game": "black-maria", "players": 5, "rules": {"hands": 2, "allow_renege": True},
                                         "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": b} for b in
                                                                           ("random", "heuristic", "pimc:samples=4", "hard")]})
    meta = r.json()["table"]
    assert meta["rules"] == {"target_score": None, "hands": 2, "allow_renege": True}
    assert meta["match"]["hands"] == 2 and meta["deal"] == 1 and meta["status"] == "playing"
    assert client.get(f"/t/{meta['id']}").text.count("/static/js/table.js") == 1
    bots = client.get("/api/bots", params={"game": "black-maria"}).json()
    assert [lv["spec"] for lv in bots["levels"]] == ["random", "heuristic", "pimc:samples=20", "pimc:samples=60"]


@pytest.mark.parametrize(("body", "code", "words"), [
    ({"players": 2}, "bad_rules", "B1: Black Maria is for 3 to 7 players, not 2"),
    ({"players": 8}, "bad_rules", "B1: Black Maria is for 3 to 7 players, not 8"),
    ({"rules": {"hands": None, "target_score": None}}, "bad_rules", "B8"),
    ({"rules": {"target": 50}}, "bad_rules", "unknown rule key 'target'"),
    ({"max_losses": 2}, "bad_rules", "not after losses"),
    ({"players": 3, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "grandmaster"}, {"kind": "bot"}]}, "bad_bot",
     "a table's bots are a level"),
    ({"players": 3, "seats": [{"kind": "person"}]}, "bad_request", "lists 1 seats"),
    ({"game": "chess"}, "bad_request", "game"),
])
def test_bad_black_maria_tables_are_refused_with_the_reason(client: TestClient, body: dict[str, Any], code: str,
                                                             words: str) -> None:
    r = client.post("/api/tables", json={"game": "black-maria", **body})
    assert r.json()["error"]["code"] == code and words in r.json()["error"]["message"], r.json()


def test_passing_is_hidden_until_every_seat_has_passed(client: TestClient) -> None:
    tid, tokens = people(client, 4, rules={"hands": 1})
    s = state(client, tid)["state"]
    assert s["phase"] == "pass" and s["hand"] == [] and s["legal"] is None
    first = s["to_act"]
    left = (first + 1) % 4
    mine = state(client, tid, tokens[first])["state"]
    assert mine["legal"] == {"kind": "pass", "cards": mine["hand"], "count": 3}
    passed = mine["hand"][:3]
    assert act(client, tid, tokens[first], {"pass": passed}).json()["ok"]
    before = state(client, tid, tokens[left])["state"]
    assert before["received"] == [] and not set(passed) & set(before["hand"])
    assert before["passed_seats"][first] and sum(before["passed_seats"]) == 1
    assert state(client, tid, tokens[first])["state"]["passed"] == passed
    events = client.get(f"/api/tables/{tid}/state").json()
    assert events["state"]["passed_seats"][first]
    rest = pass_all(client, tid, tokens, times=3)
    assert len(rest) == 3
    after = state(client, tid, tokens[left])["state"]
    assert after["phase"] == "play" and after["received"] == passed and set(passed) <= set(after["hand"])
    assert state(client, tid, tokens[first])["state"]["known"][left] == passed  # Where its passed cards are (B3).


def test_a_whole_hand_by_http_and_its_replay_and_record(client: TestClient) -> None:
    tid, tokens = people(client, 3, rules={"hands": 1})
    pass_all(client, tid, tokens)
    plays = 0
    while True:
        spectator = state(client, tid)
        if spectator["table"]["status"] == "over":
            break
        seat = spectator["state"]["to_act"]
        mine = state(client, tid, tokens[seat])["state"]
        assert mine["legal"]["kind"] == "play" and set(mine["legal"]["cards"]) <= set(mine["hand"])
        assert act(client, tid, tokens[seat], {"play": mine["legal"]["cards"][0]}).json()["ok"]
        plays += 1
    assert plays == 51
    meta = spectator["table"]
    points = meta["match"]["results"][0]["points"]
    assert meta["match"]["over"] and meta["match"]["totals"] == points and sum(points) == 43
    assert meta["match"]["winners"] == [s for s in range(3) if points[s] == min(points)]
    assert spectator["state"]["phase"] == "over" and spectator["state"]["points"] == points
    deals = client.get(f"/api/tables/{tid}/deals").json()["deals"]
    assert deals == [{"deal": 1, "match": 1, "finished": True, "loser": None, "stopped": False, "turns": 17,
                      "scores": points}]
    r = client.get(f"/api/tables/{tid}/deals/1/record")
    assert "black-maria-" in r.headers["content-disposition"]
    record = Record.from_json(r.json())
    assert record.replay().points() == points and len(record.actions) == 54
    replay = client.get(f"/api/tables/{tid}/deals/1/replay").json()
    assert replay["game"] == "black-maria" and len(replay["frames"]) == 55 and replay["scores"] == points
    assert replay["layout"] == "trick" and replay["outcome"].startswith("points: seat 0 ")
    assert all(len(h) == 17 for h in replay["frames"][0]["hands"])
    assert replay["names"] == ["player 0", "player 1", "player 2"]
    imported = client.post("/api/replay", json=r.json()).json()
    assert imported["frames"] == replay["frames"]
    bad = dict(r.json(), actions=[{"seat": 0, "play": "AS"}])
    err = client.post("/api/replay", json=bad).json()["error"]
    assert err["code"] == "bad_record" and "action 0 (seat 0): B3" in err["message"]
    # A rematch starts a new game with a new first hand.
    assert client.post(f"/api/tables/{tid}/rematch", headers=auth(tokens[0])).json()["table"]["match"]["number"] == 2
    assert state(client, tid)["state"]["deal"] == 2


def test_refusals_name_the_rule_the_version_and_the_seat(client: TestClient) -> None:
    tid, tokens = people(client, 4, rules={"hands": 1})
    s = state(client, tid)
    first, version = s["state"]["to_act"], s["table"]["version"]
    other = (first + 2) % 4
    hand = state(client, tid, tokens[first])["state"]["hand"]
    err = act(client, tid, tokens[first], {"pass": hand[:2]}).json()["error"]
    assert err == {"code": "illegal", "rule": "B3",
                   "message": f"B3: with 4 players each seat passes 3 cards, but seat {first} passes 2"}
    err = act(client, tid, tokens[first], {"play": hand[0]}).json()["error"]
    assert err["code"] == "illegal" and err["message"].startswith("B3:")
    err = act(client, tid, tokens[other], {"pass": state(client, tid, tokens[other])["state"]["hand"][:3]}).json()["error"]
    assert err["code"] == "not_your_turn" and err["message"] == f"seat {other} cannot act now: seat {first} is to pass"
    err = act(client, tid, tokens[first], {"pass": hand[:3]}, version=version - 1).json()["error"]
    assert err["code"] == "stale" and f"table is at version {version}" in err["message"]
    r = client.post(f"/api/tables/{tid}/actions", json={"version": version, "action": {"pass": hand[:3]}},
                    headers=auth("not-a-token"))
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    err = act(client, tid, tokens[first], {"lead": hand[:1]}).json()["error"]
    assert err["code"] == "bad_request" and "exactly one of 'pass' or 'play'" in err["message"]
    pass_all(client, tid, tokens)
    # Play: follow suit (B4) and hearts (B5), with the legal cards in the message.
    leader = state(client, tid)["state"]["to_act"]
    mine = state(client, tid, tokens[leader])["state"]
    hearts = [c for c in mine["hand"] if c[1] == "H"]
    if hearts and len(hearts) < len(mine["hand"]):
        err = act(client, tid, tokens[leader], {"play": hearts[0]}).json()["error"]
        assert err["rule"] == "B5" and "hearts are not broken" in err["message"] and "legal:" in err["message"]
    led = mine["legal"]["cards"][0]
    assert act(client, tid, tokens[leader], {"play": led}).json()["ok"]
    follower = (leader + 1) % 4
    theirs = state(client, tid, tokens[follower])["state"]
    off = [c for c in theirs["hand"] if c[1] != led[1]]
    if off and len(theirs["legal"]["cards"]) < len(theirs["hand"]):
        err = act(client, tid, tokens[follower], {"play": off[0]}).json()["error"]
        assert err["rule"] == "B4" and "must follow suit" in err["message"]
    # The deal is shuffled with secrets: any card the follower does not hold will do.
    missing = next(r + s for s in "SHDC" for r in "23456789TJQKA" if r + s not in theirs["hand"])
    err = act(client, tid, tokens[follower], {"play": missing}).json()["error"]
    assert err["rule"] == "B4" and f"does not hold {missing}" in err["message"]


def test_websocket_pass_and_play_with_acks_events_and_errors(client: TestClient) -> None:
    tid, tokens = people(client, 3, rules={"hands": 1})
    with client.websocket_connect(f"/ws/tables/{tid}") as spectator:
        sync = hello(spectator, None)
        assert sync["table"]["game"] == "black-maria" and sync["state"]["hand"] == []
        for _ in range(3):
            seat = state(client, tid)["state"]["to_act"]
            with client.websocket_connect(f"/ws/tables/{tid}") as ws:
                mine = hello(ws, tokens[seat])
                version = mine["table"]["version"]
                ws.send_json({"type": "action", "version": version, "action": {"pass": mine["state"]["hand"][:3]},
                              "id": "p"})
                err = ws.receive_json()
                assert err["type"] == "error" and err["id"] == "p" and err["error"]["rule"] == "B3"
                ws.send_json({"type": "action", "version": version - 1, "action": {"pass": mine["state"]["hand"][:4]},
                              "id": "s"})
                assert ws.receive_json()["error"]["code"] == "stale"
                ws.send_json({"type": "action", "version": version, "action": {"pass": mine["state"]["hand"][:4]},
                              "id": "ok"})
                update = ws.receive_json()
                assert update["type"] == "update" and update["state"]["passed"] == mine["state"]["hand"][:4]
                assert ws.receive_json() == {"type": "ack", "id": "ok", "version": version + 1}
            update = next_events(spectator)
            kinds = [e["kind"] for e in update["events"]]
            assert kinds[0] == "pass" and update["events"][0]["cards"] == 4 and update["events"][0]["seat"] == seat
            assert "pass" not in str(update["events"][0].get("action"))  # The passed cards stay hidden.
        assert kinds == ["pass", "exchange"] and update["state"]["phase"] == "play"
        # Three plays make a trick: the event says who won it and its points.
        for _ in range(3):
            seat = state(client, tid)["state"]["to_act"]
            card = state(client, tid, tokens[seat])["state"]["legal"]["cards"][-1]
            assert act(client, tid, tokens[seat], {"play": card}).json()["ok"]
            update = next_events(spectator)
        event = update["events"][0]
        assert event["kind"] == "action" and "trick" in event
        trick = event["trick"]
        assert len(trick["cards"]) == 3 and update["state"]["last_trick"]["winner"] == trick["winner"]
        assert update["state"]["to_act"] == trick["winner"] and update["state"]["tricks"][trick["winner"]] == 1
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": "wrong", "since": None})
            assert ws.receive_json()["error"]["code"] == "unauthorized"


def test_bots_play_black_maria_hands_in_series_and_hints_come_from_the_view(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "black-maria", "players": 4, "rules": {"hands": 2},
                                         "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "easy"}] * 3})
    tid, token = r.json()["table"]["id"], r.json()["token"]
    hints = 0
    deadline = time.monotonic() + 30
    while state(client, tid)["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the game did not finish"
        mine = state(client, tid, token)["state"]
        if mine["legal"] is None:
            time.sleep(0.01)
            continue
        if hints < 3:
            hint = client.get(f"/api/tables/{tid}/hint", headers=auth(token)).json()["hint"]
            assert hint["seat"] == 0 and hint["phase"] == mine["phase"] and hint["text"]
            assert hint["method"] == "pimc"  # The pass is searched too, among the sets the heuristic most wants to pass.
            hints += 1
            action = {k: v for k, v in hint["best"]["actions"][0].items() if k != "seat"}
        else:
            action = ({"pass": mine["hand"][-mine["legal"]["count"]:]} if mine["legal"]["kind"] == "pass"
                      else {"play": mine["legal"]["cards"][0]})
        assert act(client, tid, token, action).json()["ok"]
    meta = state(client, tid)["table"]
    results = meta["match"]["results"]
    assert [r["deal"] for r in results] == [1, 2] and results[1]["dealer"] == (results[0]["dealer"] + 1) % 4
    assert meta["match"]["totals"] == [a + b for a, b in zip(results[0]["points"], results[1]["points"], strict=True)]
