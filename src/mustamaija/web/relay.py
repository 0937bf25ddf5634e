"""Relaying a table's requests and WebSockets to the server of the cluster that owns it.

Any server of a cluster accepts any client; when the table belongs to
another server (:class:`~mustamaija.web.errors.Elsewhere`), the request or
the socket is passed on to that server unchanged and its answer passed back,
so a load balancer needs no sticky sessions (routing a table's requests to
its owner only saves the extra hop). A relayed request carries the
cluster's secret and the client's address: the owner then counts the client,
not the relaying server, in its per-address limits. A relayed request that
meets a table its server does not own either is not relayed again: it is
answered ``moving`` (503), and the client tries again.

The secret never reaches a client: it travels only between the servers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Iterable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect

__all__ = ["RELAY_HEADER", "Relay", "relayed_client"]

log = logging.getLogger("mustamaija.web")

RELAY_HEADER: Final = "x-mustamaija-relay"
"""The header of a relayed request: the cluster's secret."""
CLIENT_HEADER: Final = "x-mustamaija-client"
"""The header of a relayed request: the address of the client that made it."""
_PASSED: Final = ("authorization", "content-type", "accept")
_RETURNED: Final = ("content-type", "content-disposition")


def relayed_client(headers: Iterable[tuple[bytes, bytes]], secret: str) -> str | None:
    """Return the client address a relayed request names, if it carries the cluster's secret; else None.

    >>> relayed_client([(b"x-mustamaija-relay", b"s3"), (b"x-mustamaija-client", b"10.0.0.7")], "s3")
    '10.0.0.7'
    >>> relayed_client([(b"x-mustamaija-relay", b"guess"), (b"x-mustamaija-client", b"10.0.0.7")], "s3") is None
    True
    """
    if not secret:
        return None
    found = dict(headers)
    given = found.get(RELAY_HEADER.encode())
    if given is None or not secrets.compare_digest(given, secret.encode()):
        return None
    return found.get(CLIENT_HEADER.encode(), b"?").decode("latin-1")[:64]


class Relay:
    """Passes requests and sockets on to other servers of the cluster (one HTTP client, reused)."""

    def __init__(self, secret: str) -> None:
        self.secret = secret
        self._client: Any = None

    def _headers(self, client: str) -> dict[str, str]:
        return {RELAY_HEADER: self.secret, CLIENT_HEADER: client}

    async def http(self, request: Request, address: str, body: bytes) -> Response:
        """Send an HTTP request on to the server at ``address`` and return its answer."""
        import httpx

        if self._client is None:
            self._client = httpx.AsyncClient(timeout=30.0)
        client = request.client.host if request.client else "?"
        headers = {k: v for k, v in request.headers.items() if k.lower() in _PASSED} | self._headers(client)
        url = address.rstrip("/") + request.url.path + (f"?{request.url.query}" if request.url.query else "")
        answer = await self._client.request(request.method, url, content=body, headers=headers)
        return Response(answer.content, status_code=answer.status_code,
                        headers={k: v for k, v in answer.headers.items() if k.lower() in _RETURNED})

    async def socket(self, ws: WebSocket, address: str, table_id: str, hello: str | bytes) -> None:
        """Connect the accepted socket ``ws`` to the table's socket at ``address`` (saying its hello) until one closes.

        When the owner goes away, the client's socket is closed with 1012 (service restart): it reconnects,
        with its ``since``, and reaches the table's next owner.
        """
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        client = ws.client.host if ws.client else "?"
        url = address.replace("http://", "ws://", 1).replace("https://", "wss://", 1).rstrip("/") + f"/ws/tables/{table_id}"
        try:
            upstream = await connect(url, additional_headers=self._headers(client), open_timeout=10,
                                     max_size=2**22, ping_interval=None)
        except (OSError, TimeoutError, ConnectionClosed, ValueError) as e:
            log.warning("relaying table %s to %s failed: %s", table_id, address, e)
            await ws.close(1012, "the table is moving to another server: reconnect")
            return
        code, reason = 1012, "the table's server went away: reconnect"
        async with upstream:
            await upstream.send(hello)

            async def down() -> None:
                async for message in upstream:
                    if isinstance(message, str):
                        await ws.send_text(message)
                    else:
                        await ws.send_bytes(message)

            async def up() -> None:
                while True:
                    message = await ws.receive()
                    if message["type"] == "websocket.disconnect":
                        return
                    if message.get("text") is not None:
                        await upstream.send(message["text"])
                    elif message.get("bytes") is not None:
                        await upstream.send(message["bytes"])

            tasks = {asyncio.create_task(down()), asyncio.create_task(up())}
            try:
                await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in tasks:
                    task.cancel()
                for task in tasks:
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
            if upstream.close_code is not None and upstream.close_code not in (1006, 1011, 1001):
                code, reason = upstream.close_code, upstream.close_reason or ""
        with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
            await ws.close(code, reason[:120])

    async def close(self) -> None:
        """Close the HTTP client."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None
