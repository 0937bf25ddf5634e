"""Shared by the leak tests: a real uvicorn server in a thread, plain HTTP calls, and card names in JSON."""

from __future__ import annotations

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


def live_server(db: Path) -> Iterator[str]:
    """Serve the app on a free loopback port with bots at full speed; yield ``host:port`` until closed."""
    config = ServerConfig(db_url=f"sqlite:///{db}", bot_pace=0.0, deal_pause=0.0, ws_rate=1000.0, http_burst=100000)
    srv = uvicorn.Server(uvicorn.Config(create_app(config), log_level="warning", lifespan="on"))
    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    yield f"127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(15)


def http(base: str, method: str, path: str, body: object = None) -> Any:
    """Call the server at ``host:port`` and return the decoded JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://{base}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
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
