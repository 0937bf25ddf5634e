"""The table WebSocket against hostile and hurried clients: a real uvicorn server, real WebSockets on loopback.

Regressions of the issue on the socket: a lone surrogate in an id dropped the
connection (and every field of every message is now checked); replies to
rate-limited messages lost their id; a reply could overtake the welcome; a hint
was not tied to a position; a silent connection was kept for a minute and an
idle one was never pinged.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from mustamaija.web import table_socket
from web_live import http, serving

BASE: dict[str, Any] = {"bot_pace": 0.0, "deal_pause": 0.0, "hint_seconds": 0.3, "http_burst": 100000,
                        "ws_rate": 1000.0, "ws_burst": 1000}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("hostile") / "web.sqlite3", BASE) as base:
        yield base


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose sockets may send 20 messages at once, then nearly none; 10 refusals in a row close them."""
    config = {**BASE, "ws_burst": 20, "ws_rate": 0.001, "ws_max_refused": 10}
    with serving(tmp_path_factory.mktemp("strict") / "web.sqlite3", config) as base:
        yield base


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def no_server_errors() -> Iterator[None]:
    """Fail a test whose server logged an error (a traceback, a UnicodeEncodeError) or a warning of its own."""
    handler = Collect()
    logging.getLogger().addHandler(handler)
    try:
        yield
    finally:
        logging.getLogger().removeHandler(handler)
    bad = [r for r in handler.records if r.levelno >= logging.ERROR or r.name.startswith("mustamaija")]
    assert not bad, [f"{r.name}: {r.getMessage()} {r.exc_info}" for r in bad]


def two_people(base: str, **extra: Any) -> tuple[str, list[str]]:
    body = {"players": 2, "seats": [{"kind": "person"}] * 2, "sit": False, **extra}
    tid = http(base, "POST", "/api/tables", body)["table"]["id"]
    return tid, [http(base, "POST", f"/api/tables/{tid}/join", {"seat": s})["token"] for s in (0, 1)]


def connect(base: str, path: str) -> Any:
    return websockets.connect(f"ws://{base}{path}", open_timeout=10, max_size=2**22)


async def recv(ws: ClientConnection) -> dict[str, Any]:
    """Return the next message that is not a table update (presence updates may come at any time)."""
    while True:
        text = await asyncio.wait_for(ws.recv(), 20)
        assert isinstance(text, str)
        message: dict[str, Any] = json.loads(text)
        if message["type"] != "update":
            return message


async def hello(ws: ClientConnection, token: str | None) -> dict[str, Any]:
    await ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
    assert (await recv(ws))["type"] == "welcome"
    return await recv(ws)


async def closed(ws: ClientConnection) -> int:
    """Return the code of the close frame the server sent (the connection must not just drop)."""
    with pytest.raises(ConnectionClosed) as info:
        for _ in range(100):
            await recv(ws)
    assert info.value.rcvd is not None, "the server dropped the connection without a close frame"
    return info.value.rcvd.code


async def ask(ws: ClientConnection, text: str) -> dict[str, Any]:
    await ws.send(text)
    return await recv(ws)


# -- 1. every field of every message is checked; nothing unencodable is echoed -----------------------------


def test_a_lone_surrogate_anywhere_gets_an_error_and_the_socket_stays_open(server: str) -> None:
    tid, tokens = two_people(server)

    async def main() -> None:
        async with connect(server, f"/ws/tables/{tid}") as ws:
            version = (await hello(ws, tokens[0]))["table"]["version"]
            # The message: the id is a lone surrogate, sent as JSON text with the escape.
            answer = await ask(ws, '{"type":"rematch","id":"\\ud800"}')
            assert answer == {"type": "error", "id": None, "version": version,
                              "error": {"code": "bad_request", "message": answer["error"]["message"]}}
            for text, ref in [('{"type":"rematch","id":"\\udfff\\ud800"}', None),
                              ('{"type":"\\ud800","id":"s1"}', "s1"),
                              ('{"type":"action","version":1,"action":{"lead":["\\udc00"]},"id":"s2"}', "s2"),
                              ('{"type":"ping","\\ud800":1,"id":"s3"}', "s3"),
                              ('{"type":"sync","id":"s4","x":["\\ud83d"]}', "s4")]:
                answer = await ask(ws, text)
                assert answer["type"] == "error" and answer["id"] == ref, (text, answer)
                assert answer["error"]["code"] in ("bad_json", "bad_request"), answer
            await ws.send(b'{"type":"rematch","id":"\\ud800"}')  # A binary frame, the same way.
            assert (await recv(ws))["error"]["code"] == "bad_request"
            assert await ask(ws, '{"type":"ping","id":"still"}') == {"type": "pong", "id": "still", "version": version}
            # A pair of surrogates is one character: fine anywhere but in an id.
            answer = await ask(ws, f'{{"type":"action","version":{version},"action":{{"lead":["\\ud83d\\ude00"]}},"id":"e"}}')
            assert answer["id"] == "e" and answer["error"]["code"] in ("bad_request", "not_your_turn", "illegal")
        async with connect(server, f"/ws/tables/{tid}") as ws:  # In the hello: an error, then a close frame.
            await ws.send('{"type":"hello","token":"\\ud800","since":null}')
            answer = await recv(ws)
            assert answer["type"] == "error" and answer["error"]["code"] == "bad_json"
            assert await closed(ws) == 4400

    asyncio.run(main())


def test_every_field_is_checked_and_extra_fields_are_refused(server: str) -> None:
    tid, tokens = two_people(server)
    bad_ids: list[object] = ["", "a b", "x" * 65, "é", "a\u0000", 1.5, True, [1], {"a": 1}, 2**60, -(2**60)]
    refused: list[tuple[dict[str, Any], object, str]] = [
        *[({"type": "ping", "id": i}, None, "bad_request") for i in bad_ids],
        *[({"type": kind, "id": f"x-{kind}", "extra": 1}, f"x-{kind}", "bad_request")
          for kind in ("ping", "sync", "hint", "rematch")],
        ({"type": "action", "version": 1, "action": {"beat": {}}, "seat": 0, "id": 1}, 1, "bad_request"),
        ({"type": "action", "action": {"beat": {}}, "id": 2}, 2, "bad_request"),
        ({"type": "action", "version": 1, "id": 3}, 3, "bad_request"),
        *[({"type": "action", "version": v, "action": {"beat": {}}, "id": 4}, 4, "bad_request")
          for v in ("1", 1.5, True, None, -1, 2**60, [1])],
        *[({"type": "action", "version": 1, "action": a, "id": 5}, 5, "bad_request") for a in ("lead", [1], None, 3)],
        ({"id": 6}, 6, "bad_request"),
        ({"type": 7, "id": 7}, 7, "bad_request"),
        ({"type": None, "id": 8}, 8, "bad_request"),
        ({"type": "PING", "id": 9}, 9, "unknown_type"),
        ({"type": "hello", "token": tokens[0], "id": 10}, 10, "bad_request"),
    ]

    async def main() -> None:
        async with connect(server, f"/ws/tables/{tid}") as ws:
            version = (await hello(ws, tokens[0]))["table"]["version"]
            for n, (message, ref, code) in enumerate(refused):
                answer = await ask(ws, json.dumps(message))
                assert answer["type"] == "error" and answer["id"] == ref, (message, answer)
                assert answer["error"]["code"] == code and answer["version"] == version, (message, answer)
                if n % 20 == 19:  # Stay below the refusals that close a connection.
                    assert (await ask(ws, '{"type":"ping"}'))["type"] == "pong"
            for text in ['{"type":"ping","id":1,"id":2}', '{"type":"ping","id":NaN}', '{"type":"ping","n":Infinity}',
                         '{"type":"ping","n":' + "9" * 5000 + "}", '{"type":"ping","n":' + "[" * 4000 + "]" * 4000 + "}",
                         '{"type":"ping","n":' + "[" * 9 + "]" * 9 + "}", "[]", '"ping"', "{", "\u00e9"]:
                answer = await ask(ws, text)
                assert answer["type"] == "error" and answer["error"]["code"] == "bad_json", (text[:40], answer)
            await ws.send(b"\xff\xfe")
            assert (await recv(ws))["error"]["code"] == "bad_json"
            await ws.send('{"type":"ping","id":"' + "x" * 9000 + '"}')
            assert (await recv(ws))["error"]["code"] == "too_large"
            # The good forms of every message, with ids of every kind: each reply carries its id and version.
            assert await ask(ws, '{"type":"ping","id":"A-z_0.9:~+/=@#"}') == {
                "type": "pong", "id": "A-z_0.9:~+/=@#", "version": version}
            assert await ask(ws, json.dumps({"type": "ping", "id": -(2**53 - 1)})) == {
                "type": "pong", "id": -(2**53 - 1), "version": version}
            sync = await ask(ws, '{"type":"sync","id":"s"}')
            assert sync["type"] == "sync" and sync["id"] == "s" and sync["version"] == sync["table"]["version"] == version
            answer = await ask(ws, '{"type":"rematch","id":"r"}')
            assert answer["id"] == "r" and answer["version"] == version and answer["error"]["code"] == "match_not_over"

    asyncio.run(main())


def test_a_bad_hello_is_answered_then_closed_with_a_close_frame(server: str) -> None:
    tid, tokens = two_people(server)
    cases: list[tuple[str, str, str, int]] = [
        (f"/ws/tables/{tid}", json.dumps({"type": "hello", "token": tokens[0], "extra": 1, "id": "h"}), "bad_request", 4400),
        (f"/ws/tables/{tid}", json.dumps({"type": "hello", "token": "a b", "id": "h"}), "unauthorized", 4401),
        (f"/ws/tables/{tid}", json.dumps({"type": "hello", "token": "x" * 201, "id": "h"}), "unauthorized", 4401),
        (f"/ws/tables/{tid}", json.dumps({"type": "hello", "since": -1, "id": "h"}), "bad_request", 4400),
        (f"/ws/tables/{tid}", json.dumps({"type": "ping", "id": "h"}), "hello_first", 4400),
        (f"/ws/tables/{tid}", '{"type":"hello","id":"\\ud800"}', "bad_request", 4400),
        ("/ws/tables/%ED%A0%80", json.dumps({"type": "hello", "token": None, "id": "h"}), "not_found", 4404),
        ("/ws/tables/%FF%FE", json.dumps({"type": "hello", "token": None, "id": "h"}), "not_found", 4404),
        ("/ws/tables/" + "a" * 300, json.dumps({"type": "hello", "token": None, "id": "h"}), "not_found", 4404),
    ]

    async def main() -> None:
        for path, text, code, close in cases:
            async with connect(server, path) as ws:
                await ws.send(text)
                answer = await recv(ws)
                assert answer["type"] == "error" and answer["error"]["code"] == code, (path, text, answer)
                assert answer["id"] == (None if "ud800" in text else "h")
                assert tokens[0] not in json.dumps(answer)
                assert await closed(ws) == close, (path, text)

    asyncio.run(main())


# -- 2. replies to refused messages keep their ids --------------------------------------------------------


def test_rate_limited_replies_carry_their_ids_in_order_then_the_flood_is_closed(strict: str) -> None:
    tid, tokens = two_people(strict)

    async def main() -> None:
        async with connect(strict, f"/ws/tables/{tid}") as ws:
            version = (await hello(ws, tokens[0]))["table"]["version"]
            ids: list[object] = [n if n % 2 else f"p{n}" for n in range(25)]
            for ref in ids:  # 25 pings at once.
                await ws.send(json.dumps({"type": "ping", "id": ref}))
            answers = [await recv(ws) for _ in ids]
            assert [a["id"] for a in answers] == ids
            assert answers[:20] == [{"type": "pong", "id": ref, "version": version} for ref in ids[:20]]
            assert all(a["type"] == "error" and a["error"]["code"] == "rate_limited" for a in answers[20:])
            for n in range(5):  # Five more refusals make ten in a row: the connection is closed, after the errors.
                await ws.send(json.dumps({"type": "sync", "id": f"late{n}"}))
            assert [(await recv(ws))["id"] for _ in range(5)] == [f"late{n}" for n in range(5)]
            assert await closed(ws) == 1008

    asyncio.run(main())


# -- 3. replies come in order, after the welcome ------------------------------------------------------------


def test_replies_come_in_the_order_of_the_messages_after_the_welcome(server: str) -> None:
    tid, tokens = two_people(server)

    async def main() -> None:
        async with connect(server, f"/ws/tables/{tid}") as ws:
            # The case: hello and an unknown type at once.
            await ws.send(json.dumps({"type": "hello", "token": tokens[0], "since": None, "id": 0}))
            await ws.send(json.dumps({"type": "frobnicate", "id": 1}))
            first, second, third = await recv(ws), await recv(ws), await recv(ws)
            assert first["type"] == "welcome" and first["id"] == 0 and first["seat"] == 0
            assert second["type"] == "sync"
            assert third["type"] == "error" and third["id"] == 1 and third["error"]["code"] == "unknown_type"
            version = second["table"]["version"]
            assert first["version"] == third["version"] == version
        async with connect(server, f"/ws/tables/{tid}") as ws:
            batch = [{"type": "hello", "token": tokens[1], "since": None}, {"type": "ping", "id": 1}, {"type": "nope", "id": 2},
                     {"type": "sync", "id": 3}, "{bad", {"type": "ping", "id": 4}, {"type": "rematch", "id": 5},
                     {"type": "hello", "id": 6}, {"type": "ping", "id": 7}]
            for message in batch:
                await ws.send(message if isinstance(message, str) else json.dumps(message))
            answers = [await recv(ws) for _ in range(len(batch) + 1)]
            assert [(a["type"], a.get("id")) for a in answers] == [
                ("welcome", None), ("sync", None), ("pong", 1), ("error", 2), ("sync", 3), ("error", None),
                ("pong", 4), ("error", 5), ("error", 6), ("pong", 7)]

    asyncio.run(main())


# -- 4. every reply names its version; a hint overtaken by an action is never sent -----------------------------


def test_a_hint_names_its_version_and_an_overtaken_hint_is_refused_as_stale(server: str) -> None:
    tid, tokens = two_people(server)

    async def main() -> None:
        async with connect(server, f"/ws/tables/{tid}") as a, connect(server, f"/ws/tables/{tid}") as b:
            syncs = [await hello(a, tokens[0]), await hello(b, tokens[1])]
            actor = syncs[0]["state"]["to_act"]
            ws, state = (a, b)[actor], syncs[actor]
            version = state["table"]["version"]
            hint = await ask(ws, '{"type":"hint","id":"h1"}')
            assert hint["type"] == "hint" and hint["id"] == "h1" and hint["version"] == version
            assert hint["hint"]["seat"] == actor
            # A hint, then at once an action: the ack comes first, and the hint (for the version it was asked
            # for) is refused as stale rather than sent for a position that is gone.
            await ws.send('{"type":"hint","id":"h2"}')
            lead = next(x for x in state["state"]["legal"]["actions"] if "lead" in x)  # Then the other seat is to act.
            await ws.send(json.dumps({"type": "action", "version": version, "action": lead, "id": "act"}))
            answers = {m["id"]: m for m in [await recv(ws), await recv(ws)]}
            assert answers["act"] == {"type": "ack", "id": "act", "version": version + 1}
            assert answers["h2"]["type"] == "error" and answers["h2"]["error"]["code"] == "stale"
            assert answers["h2"]["version"] == version + 1 and f"version {version}," in answers["h2"]["error"]["message"]
            # One hint at a time on a connection.
            other = (b, a)[actor]
            await other.send('{"type":"hint","id":"h3"}')
            await other.send('{"type":"hint","id":"h4"}')
            replies = {m["id"]: m for m in [await recv(other), await recv(other)]}
            assert replies["h4"]["error"]["code"] == "rate_limited"
            assert replies["h3"]["type"] == "hint" and replies["h3"]["version"] == version + 1

    asyncio.run(main())


# -- 5. silent and idle connections ------------------------------------------------------------------------


def test_the_hello_timeout_is_short() -> None:
    assert 0 < table_socket.HELLO_TIMEOUT <= 10


def test_a_connection_that_sends_no_hello_is_closed(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    tid, _ = two_people(server)
    monkeypatch.setattr(table_socket, "HELLO_TIMEOUT", 0.5)

    async def main() -> None:
        start = time.monotonic()
        async with connect(server, f"/ws/tables/{tid}") as ws:
            answer = await recv(ws)
            assert answer["type"] == "error" and answer["error"]["code"] == "hello_first" and answer["id"] is None
            assert await closed(ws) == 4408
        assert time.monotonic() - start < 5

    asyncio.run(main())


def _frame(opcode: int, payload: bytes) -> bytes:
    """Return a masked client frame."""
    key = os.urandom(4)
    size = len(payload)
    head = bytes([0x80 | opcode]) + (bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + size.to_bytes(2, "big"))
    return head + key + bytes(c ^ key[i % 4] for i, c in enumerate(payload))


def _read_frame(sock: socket.socket) -> tuple[int, bytes]:
    """Return the opcode and payload of the server's next frame; ``(-1, b"")`` at the end of the stream."""
    def exactly(n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    try:
        b0, b1 = exactly(2)
        size = b1 & 0x7F
        if size == 126:
            size = int.from_bytes(exactly(2), "big")
        elif size == 127:
            size = int.from_bytes(exactly(8), "big")
        return b0 & 0x0F, exactly(size)
    except (EOFError, ConnectionResetError):
        return -1, b""


def test_idle_connections_get_websocket_pings_and_silent_peers_are_dropped(tmp_path: Path) -> None:
    with serving(tmp_path / "web.sqlite3", BASE, ws_ping_interval=0.3, ws_ping_timeout=1.5) as base:
        tid, tokens = two_people(base)
        host, port = base.split(":")
        with socket.create_connection((host, int(port)), timeout=5) as sock:
            key = base64.b64encode(os.urandom(16)).decode()
            sock.sendall((f"GET /ws/tables/{tid} HTTP/1.1\r\nHost: {base}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
            head = b""
            while b"\r\n\r\n" not in head:
                head += sock.recv(1)
            assert head.startswith(b"HTTP/1.1 101")
            sock.sendall(_frame(0x1, json.dumps({"type": "hello", "token": tokens[0], "since": None}).encode()))
            seen: list[int] = []
            pinged = time.monotonic()
            while True:  # Idle after the hello: pings come; the first is answered.
                opcode, payload = _read_frame(sock)
                seen.append(opcode)
                if opcode == 0x9:
                    sock.sendall(_frame(0xA, payload))
                    pinged = time.monotonic()
                    break
            assert seen.count(0x1) >= 2  # The welcome and the sync came first.
            while True:  # The next ping goes unanswered: the server closes with 1011 within its ping timeout.
                opcode, payload = _read_frame(sock)
                if opcode in (0x8, -1):
                    break
                assert opcode in (0x1, 0x9)
            assert time.monotonic() - pinged < 6
            if opcode == 0x8:
                assert int.from_bytes(payload[:2], "big") == 1011

        async def polite() -> None:  # A client that answers pings (as browsers and websockets do) stays connected.
            async with connect(base, f"/ws/tables/{tid}") as ws:
                version = (await hello(ws, tokens[1]))["table"]["version"]
                await asyncio.sleep(1.5)
                assert await ask(ws, '{"type":"ping","id":1}') == {"type": "pong", "id": 1, "version": version}

        asyncio.run(polite())


def test_one_address_may_hold_only_so_many_sockets(tmp_path: Path) -> None:
    async def go(base: str) -> None:
        table = http(base, "POST", "/api/tables", {"players": 2})
        url = f"ws://{base}/ws/tables/{table['table']['id']}"
        held = [await websockets.connect(url) for _ in range(3)]
        with pytest.raises(websockets.exceptions.InvalidStatus):  # The upgrade itself is refused.
            await websockets.connect(url)
        await held.pop().close()
        for _ in range(100):  # Its place comes back once the server has seen it go.
            try:
                again = await websockets.connect(url)
            except websockets.exceptions.InvalidStatus:
                await asyncio.sleep(0.05)
                continue
            await again.close()
            break
        else:
            raise AssertionError("a closed socket's place never came back")
        for ws in held:
            await ws.close()

    with serving(tmp_path / "caps.sqlite3", {**BASE, "ws_per_address": 3}) as base:
        asyncio.run(go(base))
