"""Shared by the leak tests: a real uvicorn server in a thread, plain HTTP calls, and card names in JSON."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn

from mustamaija.web import ServerConfig, create_app

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")


@contextlib.contextmanager
def serving(db: Path, config: dict[str, Any], **options: Any) -> Iterator[str]:
    """Serve the app with ``config`` (and uvicorn ``options``) on a free loopback port; yield ``host:port``."""
    app = create_app(ServerConfig(db_url=f"sqlite:///{db}", **config))
    srv = uvicorn.Server(uvicorn.Config(app, log_config=None, log_level="warning", lifespan="on", **options))
    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(15)


def live_server(db: Path) -> Iterator[str]:
    """Serve the app on a free loopback port with bots at full speed; yield ``host:port`` until closed."""
    with serving(db, {"bot_pace": 0.0, "deal_pause": 0.0, "ws_rate": 1000.0, "http_burst": 100000}) as base:
        yield base


def http(base: str, method: str, path: str, body: object = None, token: str | None = None) -> Any:
    """Call the server at ``host:port`` (as the seat of ``token``, if given) and return the decoded JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"http://{base}{path}", data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def cards_in(obj: object) -> set[str]:
    """Return every string in a JSON value that is a card name."""
    if isinstance(obj, str):
        return {obj} if CARD.match(obj) else set()
    if isinstance(obj, dict):
        return set().union(*(cards_in(k) | cards_in(v) for k, v in obj.items())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(cards_in(v) for v in obj)) if obj else set()
    return set()


def auth(token: str) -> dict[str, str]:
    """Return the header that authenticates a seat token."""
    return {"Authorization": f"Bearer {token}"}


async def play_seat(base: str, table: str, token: str | None, choose: Any, seed: int, log: list[str]) -> None:
    """Connect, say hello, and play ``choose(legal, rng)`` until the match is over, keeping every message received."""
    import asyncio
    import random

    import websockets

    rng = random.Random(seed)
    acted = -1
    async with websockets.connect(f"ws://{base}/ws/tables/{table}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        while True:
            text = await asyncio.wait_for(ws.recv(), 60)
            assert isinstance(text, str)
            log.append(text)
            message = json.loads(text)
            assert message["type"] != "error", message
            if message["type"] not in ("sync", "update"):
                continue
            if message["table"]["status"] == "over":
                return
            state, version = message["state"], message["table"]["version"]
            if token is not None and state is not None and state["legal"] is not None and version != acted:
                acted = version
                action = choose(state["legal"], rng)
                await ws.send(json.dumps({"type": "action", "version": version, "action": action}))
