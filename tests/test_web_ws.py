"""The web app's WebSocket, in process: every message type, reconnection, presence, takeover and every error."""

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
    from starlette.websockets import WebSocketDisconnect

from mustamaija.web import ServerConfig, create_app

FAST: dict[str, Any] = {"bot_pace": 0.0, "deal_pause": 0.0, "hint_seconds": 0.2, "http_burst": 100000,
                        "ws_rate": 1000.0}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(**FAST))) as c:
        yield c


def two_people(c: TestClient, **extra: Any) -> tuple[str, list[str]]:
    r = c.post("/api/tables", json={"players": 2, "seats": [{"kind": "person"}] * 2, "sit": False, **extra})
    tid = r.json()["table"]["id"]
    return tid, [c.post(f"/api/tables/{tid}/join", json={"seat": s}).json()["token"] for s in (0, 1)]


def hello(ws: WebSocketTestSession, token: str | None, since: int | None = None) -> dict[str, Any]:
    """Say hello; return the first catch-up message (after checking the welcome)."""
    ws.send_json({"type": "hello", "token": token, "since": since})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    message: dict[str, Any] = ws.receive_json()
    return message


def until(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
        assert message["type"] != "error", message


def closed_with(ws: WebSocketTestSession) -> int:
    with pytest.raises(WebSocketDisconnect) as info:
        for _ in range(50):
            ws.receive_json()
    return info.value.code


def test_hello_gives_welcome_and_sync_for_seats_and_spectators(client: TestClient) -> None:
    tid, tokens = two_people(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "token": tokens[1], "since": None, "id": "hi"})
        welcome = ws.receive_json()
        sync = ws.receive_json()
        assert welcome == {"type": "welcome", "seat": 1, "table_id": tid, "id": "hi", "version": sync["table"]["version"]}
        assert sync["type"] == "sync" and sync["state"]["seat"] == 1 and len(sync["state"]["hand"]) == 5
        assert [e["kind"] for e in sync["log"]] == ["deal_start"] and sync["seq"] == sync["table"]["seq"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        sync = hello(ws, None)
        assert sync["state"]["seat"] is None and sync["state"]["hand"] == [] and sync["state"]["legal"] is None


def test_actions_are_acked_and_broadcast_to_every_seat(client: TestClient) -> None:
    tid, tokens = two_people(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as a, client.websocket_connect(f"/ws/tables/{tid}") as b, \
            client.websocket_connect(f"/ws/tables/{tid}") as spectator:
        syncs = [hello(a, tokens[0]), hello(b, tokens[1]), hello(spectator, None)]
        actor = syncs[0]["state"]["to_act"]
        ws, sync = ((a, syncs[0]), (b, syncs[1]))[actor]
        action = sync["state"]["legal"]["actions"][-1]
        ws.send_json({"type": "action", "version": sync["table"]["version"], "action": action, "id": "c1"})
        update = until(ws, "update")
        while not update["events"]:  # Seat 0 also hears of seat 1 coming online.
            update = until(ws, "update")
        event = update["events"][0]
        assert event["kind"] == "action" and event["seat"] == actor and event["action"] == action
        assert event["by"] == "person" and event["text"].startswith(f"seat {actor} leads")
        assert until(ws, "ack") == {"type": "ack", "id": "c1", "version": sync["table"]["version"] + 1}
        other = until((b, a)[actor], "update")
        while not other["events"]:
            other = until((b, a)[actor], "update")
        assert other["events"] == update["events"] and other["state"]["legal"]["kind"] == "beat"
        watched = until(spectator, "update")
        while not watched["events"]:
            watched = until(spectator, "update")
        assert watched["state"]["hand"] == [] and watched["state"]["table"] == other["state"]["table"]


def test_action_errors(client: TestClient) -> None:
    tid, tokens = two_people(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as a, client.websocket_connect(f"/ws/tables/{tid}") as b:
        syncs = [hello(a, tokens[0]), hello(b, tokens[1])]
        version = syncs[0]["table"]["version"]
        actor = syncs[0]["state"]["to_act"]
        me, them = (a, b)[actor], (b, a)[actor]
        legal = syncs[actor]["state"]["legal"]["actions"][0]

        def refused(ws: WebSocketTestSession, message: dict[str, Any], ref: object = None) -> dict[str, Any]:
            ws.send_json(message)
            answer = until(ws, "error")
            assert answer["id"] == ref
            return answer["error"]  # type: ignore[no-any-return]

        assert refused(them, {"type": "action", "version": version, "action": legal, "id": 1}, 1)["code"] == "not_your_turn"
        assert refused(me, {"type": "action", "version": version + 5, "action": legal, "id": 2}, 2)["code"] == "stale"
        assert refused(me, {"type": "action", "version": "x", "action": legal, "id": 3}, 3)["code"] == "bad_request"
        assert refused(me, {"type": "action", "version": version, "action": "lead", "id": 4}, 4)["code"] == "bad_request"
        hand = syncs[actor]["state"]["hand"]
        absent = next(c for c in ("2C", "3C", "4C", "5C", "6C", "7C") if c not in hand)
        illegal = refused(me, {"type": "action", "version": version, "action": {"lead": [absent]}, "id": "x"}, "x")
        assert illegal["code"] == "illegal" and illegal["rule"] and absent in illegal["message"]
        assert refused(me, {"type": "frobnicate"})["code"] == "unknown_type"
        assert refused(me, {"type": "hello", "token": tokens[actor]})["code"] == "bad_request"
        assert refused(me, {"type": "ping", "id": [1]})["code"] == "bad_request"
        me.send_text("{not json")
        assert until(me, "error")["error"]["code"] == "bad_json"
        me.send_text("[1, 2]")
        assert until(me, "error")["error"]["code"] == "bad_json"
        me.send_bytes(b"\xff\xfe")
        assert until(me, "error")["error"]["code"] == "bad_json"
        me.send_text('{"type": "ping", "pad": "' + "x" * 9000 + '"}')
        assert until(me, "error")["error"]["code"] == "too_large"
        me.send_json({"type": "ping"})
        assert until(me, "pong") == {"type": "pong", "id": None, "version": version}
        me.send_json({"type": "action", "version": version, "action": legal, "id": "ok"})
        assert until(me, "ack")["version"] == version + 1
    with client.websocket_connect(f"/ws/tables/{tid}") as spectator:
        hello(spectator, None)
        spectator.send_json({"type": "action", "version": version + 1, "action": {"beat": {}}})
        assert until(spectator, "error")["error"]["code"] == "not_seated"
        spectator.send_json({"type": "hint"})
        assert until(spectator, "error")["error"]["code"] == "not_seated"
        spectator.send_json({"type": "rematch"})
        assert until(spectator, "error")["error"]["code"] == "not_seated"


def test_hello_errors_close_the_connection(client: TestClient) -> None:
    tid, _ = two_people(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "ping"})
        error = ws.receive_json()
        assert error["error"]["code"] == "hello_first"
        assert closed_with(ws) == 4400
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-token"})
        assert ws.receive_json()["error"]["code"] == "unauthorized"
        assert closed_with(ws) == 4401
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "token": 12})
        assert ws.receive_json()["error"]["code"] == "unauthorized"
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "token": None, "since": "yesterday"})
        assert ws.receive_json()["error"]["code"] == "bad_request"
        assert closed_with(ws) == 4400
    with client.websocket_connect("/ws/tables/nosuchtable") as ws:
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["error"]["code"] == "not_found"
        assert closed_with(ws) == 4404
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_text("nonsense")
        assert ws.receive_json()["error"]["code"] == "bad_json"
        assert closed_with(ws) == 4400


def test_reconnecting_with_since_gets_what_was_missed(client: TestClient) -> None:
    tid, tokens = two_people(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        sync = hello(ws, tokens[0])
    seq = sync["seq"]
    actor = sync["state"]["to_act"]
    state = client.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {tokens[actor]}"}).json()
    action = state["state"]["legal"]["actions"][0]
    r = client.post(f"/api/tables/{tid}/actions", headers={"Authorization": f"Bearer {tokens[actor]}"},
                    json={"version": state["table"]["version"], "action": action})
    assert r.status_code == 200
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        update = hello(ws, tokens[0], since=seq)
        assert update["type"] == "update" and [e["kind"] for e in update["events"]] == ["action"]
        assert update["events"][0]["seq"] == seq + 1 and update["state"]["actions"] == 1
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        update = hello(ws, tokens[0], since=seq + 1)
        assert update["type"] == "update" and update["events"] == []
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert hello(ws, tokens[0], since=10**6)["type"] == "sync"
        ws.send_json({"type": "sync"})
        assert until(ws, "sync")["state"]["actions"] == 1


def test_presence_shows_who_is_gone(client: TestClient) -> None:
    tid, tokens = two_people(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as a:
        first = hello(a, tokens[0])
        assert first["table"]["seats"][0]["online"] is True and first["table"]["seats"][1]["online"] is False
        assert first["table"]["seats"][1]["gone_for"] is not None
        with client.websocket_connect(f"/ws/tables/{tid}") as b:
            hello(b, tokens[1])
            back = until(a, "update")
            assert back["events"] == [] and back["table"]["seats"][1]["online"] is True
            assert back["table"]["seats"][1]["gone_for"] is None
        gone = until(a, "update")
        assert gone["table"]["seats"][1]["online"] is False and gone["table"]["seats"][1]["gone_for"] >= 0
        assert gone["table"]["seats"][1]["takeover"] is False


def test_a_bot_takes_over_a_gone_seat_until_its_person_returns() -> None:
    with TestClient(create_app(ServerConfig(**{**FAST, "takeover_after": 0.2}))) as c:
        tid, tokens = two_people(c, deals=1)
        with c.websocket_connect(f"/ws/tables/{tid}") as spectator:
            hello(spectator, None)
            seen: list[dict[str, Any]] = []
            while len(seen) < 6:
                seen += [e for e in until(spectator, "update")["events"] if e["kind"] == "action"]
            assert {e["by"] for e in seen} == {"takeover"}
            # Asked while watched: a finished table nobody watches leaves memory, and a reload starts its clocks anew.
            table = c.get(f"/api/tables/{tid}").json()["table"]
            assert any(s["takeover"] for s in table["seats"])
        # Both come back: the bots stop, and the table waits for its people.
        with c.websocket_connect(f"/ws/tables/{tid}") as a, c.websocket_connect(f"/ws/tables/{tid}") as b:
            hello(a, tokens[0])
            hello(b, tokens[1])
            time.sleep(0.3)
            before = c.get(f"/api/tables/{tid}").json()["table"]
            time.sleep(0.5)
            after = c.get(f"/api/tables/{tid}").json()["table"]
            assert not any(s["takeover"] for s in after["seats"])
            assert after["version"] == before["version"] or after["status"] == "over"


def test_hints_and_rematch_over_the_socket(client: TestClient) -> None:
    r = client.post("/api/tables", json={"players": 2, "deals": 1,
                                        "seats": [{"kind": "person"}, {"kind": "bot", "bot": "easy"}]})
    tid, token = r.json()["table"]["id"], r.json()["token"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        message = hello(ws, token)
        asked = False
        while message["table"]["status"] != "over":
            state = message["state"]
            if state and state["legal"]:
                if not asked:
                    ws.send_json({"type": "hint", "id": "h"})
                    hint = until(ws, "hint")
                    assert hint["id"] == "h" and hint["hint"]["seat"] == 0 and hint["hint"]["candidates"]
                    asked = True
                    ws.send_json({"type": "rematch"})
                    assert until(ws, "error")["error"]["code"] == "match_not_over"
                ws.send_json({"type": "action", "version": message["table"]["version"], "action": state["legal"]["actions"][0]})
            message = until(ws, "update")
            while message["state"] and message["state"]["legal"] is None and message["table"]["status"] != "over":
                message = until(ws, "update")
        assert message["events"][-1]["kind"] == "match_over"
        ws.send_json({"type": "hint"})
        assert until(ws, "error")["error"]["code"] == "not_playing"
        ws.send_json({"type": "rematch"})
        update = until(ws, "update")
        assert [e["kind"] for e in update["events"]] == ["rematch", "deal_start"]
        assert update["table"]["status"] == "playing" and update["table"]["match"]["number"] == 2
        # Issue 16, bug 7: the first deal of the new match is its deal 1, as the page's header counts.
        start = update["events"][1]
        assert start["in_match"] == 1 and start["deal"] == update["table"]["deal"] > 1


def test_hints_disabled_over_the_socket(client: TestClient) -> None:
    tid, tokens = two_people(client, hints=False)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws, tokens[0])
        ws.send_json({"type": "hint", "id": 7})
        answer = until(ws, "error")
        assert answer["id"] == 7 and answer["error"]["code"] == "hints_disabled"


def test_floods_are_limited_then_closed() -> None:
    config = ServerConfig(**{**FAST, "ws_burst": 3, "ws_rate": 0.01, "ws_max_refused": 5})
    with TestClient(create_app(config)) as c:
        tid, tokens = two_people(c)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            hello(ws, tokens[0])
            for _ in range(3):
                ws.send_json({"type": "ping"})
            for _ in range(3):
                assert until(ws, "pong") == {"type": "pong", "id": None, "version": 1}
            for _ in range(5):
                ws.send_json({"type": "ping"})
            for _ in range(5):
                assert until(ws, "error")["error"]["code"] == "rate_limited"
            assert closed_with(ws) == 1008


def test_too_many_missed_events_give_a_full_sync(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from mustamaija.web import manager as manager_module

    tid, tokens = two_people(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        seq = hello(ws, tokens[0])["seq"]
    monkeypatch.setattr(manager_module, "_MAX_MISSED", 1)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert hello(ws, tokens[0], since=seq - 2)["type"] == "sync"
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert hello(ws, tokens[0], since=seq - 1)["type"] == "update"


def _play_deal_over_http(c: TestClient, tid: str, tokens: list[str]) -> None:
    for _ in range(2000):
        public = c.get(f"/api/tables/{tid}").json()
        state = public["state"]
        if state is None or state["phase"] == "over":
            return
        token = tokens[state["to_act"]]
        mine = c.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {token}"}).json()
        c.post(f"/api/tables/{tid}/actions", headers={"Authorization": f"Bearer {token}"},
               json={"version": mine["table"]["version"], "action": mine["state"]["legal"]["actions"][-1]})
    raise AssertionError("the deal did not end")


def test_the_next_deal_waits_for_every_connected_person_or_the_pause() -> None:
    # Issue 16, bug 9: the result vanished after 3 s. Now it stays until everyone asks for the next deal.
    with TestClient(create_app(ServerConfig(**{**FAST, "deal_pause": 120.0}))) as c:
        tid, tokens = two_people(c, deals=2)
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        assert c.post(f"/api/tables/{tid}/next", headers=auth[0]).json()["error"]["code"] == "not_between_deals"
        with c.websocket_connect(f"/ws/tables/{tid}") as a, c.websocket_connect(f"/ws/tables/{tid}") as b:
            hello(a, tokens[0])
            hello(b, tokens[1])
            _play_deal_over_http(c, tid, tokens)
            meta = c.get(f"/api/tables/{tid}").json()["table"]
            assert meta["deal"] == 1 and meta["next_deal"]["ready"] == [] and 100 < meta["next_deal"]["in"] <= 120
            meta = c.post(f"/api/tables/{tid}/next", headers=auth[0]).json()["table"]
            assert meta["next_deal"]["ready"] == [0] and meta["deal"] == 1  # Seat 1 is connected: it is waited for.
            time.sleep(0.2)
            assert c.get(f"/api/tables/{tid}").json()["table"]["deal"] == 1
            assert c.post("/api/tables/" + tid + "/next").json()["error"]["code"] in ("unauthorized", "not_seated")
            b.send_json({"type": "next", "id": "n1"})
            assert until(b, "ack")["id"] == "n1"
            deadline = time.monotonic() + 10
            while c.get(f"/api/tables/{tid}").json()["table"]["deal"] != 2:
                assert time.monotonic() < deadline, "the next deal did not start once both were ready"
                time.sleep(0.02)
            assert c.get(f"/api/tables/{tid}").json()["table"]["next_deal"] is None


def test_a_defender_left_alone_with_cards_is_not_kept_waiting() -> None:
    # Issue 16, bug 9: the last player holding cards had to click "Take it" after everyone else was out.
    from mustamaija.core.registry import get_game

    game = get_game("mustamaija")
    with TestClient(create_app(ServerConfig(**FAST))) as c:
        created = c.post("/api/tables", json={"players": 2, "deals": 4, "seats": [
            {"kind": "person"}, {"kind": "bot", "bot": "easy"}]}).json()
        tid, token = created["table"]["id"], created["token"]
        while c.get(f"/api/tables/{tid}").json()["table"]["status"] != "over":
            mine = c.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {token}"}).json()
            if mine["state"] and mine["state"]["legal"]:
                c.post(f"/api/tables/{tid}/actions", headers={"Authorization": f"Bearer {token}"},
                       json={"version": mine["table"]["version"], "action": mine["state"]["legal"]["actions"][-1]})
            else:
                time.sleep(0.005)
        events = c.app.state.manager.store.events_since(tid, 0)  # type: ignore[attr-defined]
        decided = 0
        for deal in range(1, 5):
            record = game.load_record(c.get(f"/api/tables/{tid}/deals/{deal}/record").json())
            by = [e["by"] for e in events if e["kind"] == "action" and e["deal"] == deal]
            state = record.start()
            for action, who in zip(record.actions, by, strict=True):
                auto = game.decided_action(state)
                assert (auto is not None) == (who == "rule"), (deal, action, who)
                if auto is not None:
                    assert action == auto and not action.pairs  # Everything picked up, by the table.
                    decided += 1
                state.play(action)
        assert decided, "no deal ended with a defender left alone: the test proves nothing"


def test_chat_has_a_players_channel_and_a_spectators_channel_with_limits(client: TestClient) -> None:
    # Issue 16: chat and quick emotes between people at a table; spectators get their own channel.
    tid, tokens = two_people(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as a, client.websocket_connect(f"/ws/tables/{tid}") as b, \
            client.websocket_connect(f"/ws/tables/{tid}") as watcher, client.websocket_connect(f"/ws/tables/{tid}") as fan:
        hello(a, tokens[0])
        hello(b, tokens[1])
        hello(watcher, None)
        hello(fan, None)
        a.send_json({"type": "chat", "id": "c1", "text": " good\u202e luck\x07 "})
        line = until(b, "chat")
        assert (line["channel"], line["seat"], line["text"]) == ("table", 0, "good luck")
        assert until(a, "chat")["text"] == "good luck" and until(a, "ack")["id"] == "c1"
        b.send_json({"type": "chat", "emote": "gg"})
        assert until(a, "chat")["emote"] == "gg"
        watcher.send_json({"type": "chat", "text": "nice lead"})
        heard = until(fan, "chat")
        assert (heard["channel"], heard["seat"], heard["name"]) == ("spectators", None, "spectator 1")
        # The players never hear the spectators (no coaching), and the spectators never hear the players.
        a.send_json({"type": "ping", "id": "p"})
        assert until(a, "pong")["id"] == "p"
        watcher.send_json({"type": "ping", "id": "p"})
        while True:
            message = watcher.receive_json()
            assert not (message["type"] == "chat" and message["channel"] == "table"), message
            if message["type"] == "pong":
                break
        for bad, code in (({"text": "x" * 201}, "bad_request"), ({"emote": "insult"}, "bad_request"),
                          ({"text": "hi", "emote": "gg"}, "bad_request"), ({}, "bad_request"),
                          ({"text": 7}, "bad_request"), ({"text": " \u200b "}, "bad_request")):
            a.send_json({"type": "chat", "id": "bad", **bad})
            error = until_error(a)
            assert error["id"] == "bad" and error["error"]["code"] == code, (bad, error)
        for i in range(4):  # One line said already by seat 0, and refused ones do not count: 4 more reach 5.
            a.send_json({"type": "chat", "text": f"line {i}"})
            until(b, "chat")
        a.send_json({"type": "chat", "id": "flood", "text": "one too many"})
        assert until_error(a)["error"]["code"] == "rate_limited"
        # Who joins later gets the channel's recent lines, and only its own channel's.
    with client.websocket_connect(f"/ws/tables/{tid}") as late, client.websocket_connect(f"/ws/tables/{tid}") as seen:
        sync = hello(late, tokens[1])
        assert [m.get("text") or m.get("emote") for m in sync["chat"]][:2] == ["good luck", "gg"]
        assert [m["text"] for m in hello(seen, None)["chat"]] == ["nice lead"]


def until_error(ws: WebSocketTestSession) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "error":
            return message
