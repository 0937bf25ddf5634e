"""The WebSocket of a table (``/ws/tables/{table_id}``): hello, then actions, hints, rematches, syncs and pings.

Every message is checked before it reaches the table manager; a bad one gets an
``error`` reply naming the request, and a connection that keeps sending bad
ones is closed. Messages for the seat come from its subscriber's queue, built
from the seat's view only (docs/web.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from mustamaija.web.config import ServerConfig
from mustamaija.web.errors import ApiError
from mustamaija.web.limits import TokenBucket
from mustamaija.web.manager import Subscriber, TableManager

__all__ = ["serve_socket"]

log = logging.getLogger("mustamaija.web")


async def _send_error(ws: WebSocket, err: ApiError, ref: object = None) -> None:
    await ws.send_json({"type": "error", "id": ref, **err.to_json()})


async def _read(ws: WebSocket, cfg: ServerConfig) -> dict[str, Any] | None:
    """Receive one message; ``None`` when the client has gone. Bad messages raise :class:`ApiError`."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        if len(data) > cfg.max_message:
            raise ApiError("too_large", f"a message may hold at most {cfg.max_message} bytes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError("bad_json", "a message must be UTF-8 JSON text") from None
    if len(text) > cfg.max_message:
        raise ApiError("too_large", f"a message may hold at most {cfg.max_message} bytes")
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise ApiError("bad_json", f"the message is not valid JSON: {e.msg} at position {e.pos}") from None
    if not isinstance(obj, dict):
        raise ApiError("bad_json", f"a message must be a JSON object, not {type(obj).__name__}")
    return obj


async def serve_socket(ws: WebSocket, table_id: str, manager: TableManager, cfg: ServerConfig) -> None:
    """Serve one accepted WebSocket of a table until it closes (the messages of docs/web.md)."""
    bucket = TokenBucket(cfg.ws_burst, cfg.ws_rate)
    try:
        hello = await asyncio.wait_for(_read(ws, cfg), 60)
        if hello is None:
            return
        if hello.get("type") != "hello":
            raise ApiError("hello_first", f"the first message must be hello, not {str(hello.get('type'))[:40]!r}")
        sub = manager.subscribe(table_id, hello.get("token"), hello.get("since"))
    except (ApiError, TimeoutError, WebSocketDisconnect) as e:
        if isinstance(e, ApiError) and ws.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await _send_error(ws, e)
                codes = {"not_found": 4404, "unauthorized": 4401}
                await ws.close(codes.get(e.code, 4400), e.message[:120])
        return
    sender = asyncio.create_task(_pump(ws, sub))
    refused = 0
    tasks: set[asyncio.Task[None]] = set()
    try:
        while not sender.done():
            ref = None
            try:
                msg = await _read(ws, cfg)
                if msg is None:
                    break
                if not bucket.take():
                    raise ApiError("rate_limited", "too many messages: at most 10 a second after a burst of 20")
                ref = msg.get("id")
                if ref is not None and (not isinstance(ref, (str, int)) or isinstance(ref, bool) or len(str(ref)) > 64):
                    ref = None
                    raise ApiError("bad_request", "'id' must be a short string or integer")
                await _dispatch(msg, sub, manager, ref, tasks)
                refused = 0
            except ApiError as e:
                refused += 1
                await _send_error(ws, e, ref)
                if refused >= cfg.ws_max_refused:
                    await ws.close(1008, "too many refused messages")
                    break
    except WebSocketDisconnect:
        pass
    except Exception:  # A bug must cost at most this connection.
        log.exception("websocket of table %s failed", table_id)
    finally:
        manager.unsubscribe(sub)
        sender.cancel()
        for task in tasks:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _pump(ws: WebSocket, sub: Subscriber) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await sub.queue.get()
            if message is None or sub.overflow:
                await ws.close(1001 if message is None else 1008)
                return
            await ws.send_json(message)


async def _dispatch(msg: dict[str, Any], sub: Subscriber, manager: TableManager, ref: object,
                    tasks: set[asyncio.Task[None]]) -> None:
    kind = msg.get("type")
    if kind == "action":
        version = manager.act(sub.table_id, sub.seat, msg.get("version"), msg.get("action"))
        sub.send({"type": "ack", "id": ref, "version": version})
    elif kind == "hint":
        async def run() -> None:
            try:
                sub.send({"type": "hint", "id": ref, "hint": await manager.hint(sub.table_id, sub.seat)})
            except ApiError as e:
                sub.send({"type": "error", "id": ref, **e.to_json()})
            except Exception as e:  # A failed hint is reported, never fatal.
                log.exception("hint failed")
                sub.send({"type": "error", "id": ref, **ApiError("internal", f"the hint failed ({type(e).__name__})").to_json()})

        task = asyncio.create_task(run())
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    elif kind == "rematch":
        manager.rematch(sub.table_id, sub.seat)
    elif kind == "sync":
        sub.send(manager.sync(manager.get(sub.table_id), sub.seat))
    elif kind == "ping":
        sub.send({"type": "pong"})
    elif kind == "hello":
        raise ApiError("bad_request", "this connection has already said hello")
    else:
        raise ApiError("unknown_type", f"unknown message type {str(kind)[:40]!r}: expected action, hint, rematch, sync or ping")

