"""The HTTP protocol the server speaks: uvicorn's, with a deadline for a request's head.

uvicorn closes idle keep-alive connections, but not a connection that sends
nothing, or a request line and headers a byte at a time (slowloris): each
would hold a socket for ever. Here every connection must deliver a whole
request head within :data:`HEAD_TIMEOUT` seconds of connecting, or of the
end of its previous request, or it is closed.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

__all__ = ["HEAD_TIMEOUT", "protocol_class"]

HEAD_TIMEOUT: Final = 10.0
"""Seconds a connection has to send a request's line and headers."""


def protocol_class(head_timeout: float = HEAD_TIMEOUT) -> type[asyncio.Protocol] | str:
    """Return uvicorn's httptools protocol with a deadline for each request head ("auto" without httptools)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools comes with uvicorn[standard], the web extra.
        return "auto"

    class DeadlineProtocol(HttpToolsProtocol):
        """uvicorn's protocol, with a deadline for each request head."""

        _head_deadline: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._head_deadline = self.loop.call_later(head_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._head_deadline is not None:
                self._head_deadline.cancel()
                self._head_deadline = None

        def _too_slow(self) -> None:
            self._head_deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_headers_complete(self) -> None:  # The head is in.
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:  # A keep-alive connection has a new head to send.
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

    return DeadlineProtocol
