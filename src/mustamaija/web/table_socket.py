"""The WebSocket of a table (``/ws/tables/{table_id}``): hello, then actions, hints, rematches, syncs and pings.

Every message is checked in full before it reaches the table manager: it must
be UTF-8 JSON text of at most ``max_message`` bytes holding one object, with
no lone surrogate, no duplicate key and no deep nesting; its ``type`` names one
of the messages of docs/web.md, it holds that message's fields and no others,
and each field has its type and range. A request ``id`` is a short string of
:data:`ID_CHARS` or a safe integer, checked before anything is echoed. A bad
message gets an ``error`` reply (never a dropped socket), and a connection
that keeps sending bad ones is closed with 1008.

One task, :func:`_pump`, writes to the socket, in order, from the seat's
subscriber queue: the welcome and catch-up of the hello, the table's updates,
and every reply (``ack``, ``error``, ``pong``, ``hint``, ``sync``), so that
replies come in the order of the messages they answer, after the welcome.
Every reply carries the request's ``id`` (``null`` when it had none or a bad
one) and the table ``version`` it is about. A hint is computed while later
messages are served, so its reply may come after theirs: it names the version
it was computed for, and a hint overtaken by a change of the table is never
sent: the reply is an ``error`` ``stale`` instead.

A connection that sends no hello within :data:`HELLO_TIMEOUT` seconds is
closed (4408). Idle connections are kept honest by the server's WebSocket
pings (uvicorn's ``ws_ping_interval`` and ``ws_ping_timeout``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from typing import Any, Final

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from mustamaija.web.config import ServerConfig
from mustamaija.web.errors import ApiError, Elsewhere
from mustamaija.web.jsontext import dumps
from mustamaija.web.limits import TokenBucket
from mustamaija.web.manager import Subscriber, TableManager
from mustamaija.web.relay import Relay

__all__ = ["HELLO_TIMEOUT", "ID_CHARS", "MAX_ID_LENGTH", "check_id", "serve_socket"]

log = logging.getLogger("mustamaija.web")

HELLO_TIMEOUT: Final = 10.0
"""Seconds a new connection has, after the upgrade, to send its hello; then it gets an error and is closed (4408)."""
CLOSE_TIMEOUT: Final = 5.0
"""Seconds the replies still queued may take to go out before a connection the server closes is dropped."""
MAX_ID_LENGTH: Final = 64
"""The longest request ``id`` string."""
ID_CHARS: Final = "A-Z a-z 0-9 _ - . : ~ + / = @ #"
"""The characters a request ``id`` string may hold (an id may also be a safe integer)."""
MAX_NESTING: Final = 8
"""How deep arrays and objects may nest in a message (an action needs three levels)."""
MAX_SAFE_INT: Final = 2**53 - 1
"""The largest integer a message may hold where an id, a version or an event number is meant."""
MAX_TOKEN_LENGTH: Final = 200
"""The longest seat token a hello may hold (tokens are ``secrets.token_urlsafe`` text)."""

HELLO_CLOSE: Final[dict[str, int]] = {"not_found": 4404, "unauthorized": 4401}
"""The close code of a refused hello, by error code (any other: 4400)."""
HELLO_TIMEOUT_CLOSE: Final = 4408
"""The close code of a connection that sent no hello in time."""

_ID = re.compile(rf"[A-Za-z0-9_\-.:~+/=@#]{{1,{MAX_ID_LENGTH}}}")
_TOKEN = re.compile(r"[A-Za-z0-9_\-]+")
_TABLE_ID = re.compile(r"[A-Za-z0-9_\-]{1,32}")
_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_DIGITS = 20

_FIELDS: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    "hello": (frozenset({"type"}), frozenset({"token", "since", "id"})),
    "action": (frozenset({"type", "version", "action"}), frozenset({"id"})),
    "hint": (frozenset({"type"}), frozenset({"id"})),
    "rematch": (frozenset({"type"}), frozenset({"id"})),
    "next": (frozenset({"type"}), frozenset({"id"})),
    "chat": (frozenset({"type"}), frozenset({"id", "text", "emote"})),
    "sync": (frozenset({"type"}), frozenset({"id"})),
    "ping": (frozenset({"type"}), frozenset({"id"})),
}
"""Each message type's required fields, then its optional ones; any other field is refused."""

_CLOSE: Final = "\x00close"
"""The key of the queue entry that asks :func:`_pump` to close the socket (no server message has it)."""


# -- checking messages -------------------------------------------------------------------------------------


def check_id(value: object) -> str | int | None:
    r"""Return a request id fit to echo: ``None``, a short string of :data:`ID_CHARS` or a safe integer.

    Anything else is :class:`ApiError` ``bad_request`` (naming the fault, never echoing the value).

    >>> check_id("c1"), check_id(7), check_id(None)
    ('c1', 7, None)
    >>> check_id("\ud800")
    Traceback (most recent call last):
    ...
    mustamaija.web.errors.ApiError: 'id' must be 1 to 64 characters of A-Z a-z 0-9 _ - . : ~ + / = @ #, or an integer
    """
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
        return value
    if isinstance(value, str) and _ID.fullmatch(value):
        return value
    raise ApiError("bad_request", f"'id' must be 1 to {MAX_ID_LENGTH} characters of {ID_CHARS}, or an integer")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise ValueError(f"a number of {len(text)} digits")
    return int(text)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"the key {key[:20]!r} appears twice")
        obj[key] = value
    return obj


def _check_text(obj: object) -> None:
    """Refuse lone surrogates (they cannot be sent back as UTF-8) and deep nesting, anywhere in a message."""
    stack: list[tuple[object, int]] = [(obj, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                raise ApiError("bad_json", "the message holds a lone surrogate (\\ud800 to \\udfff): it is not Unicode text")
        elif isinstance(value, (dict, list)):
            if depth > MAX_NESTING:
                raise ApiError("bad_json", f"the message nests arrays and objects more than {MAX_NESTING} deep")
            if isinstance(value, dict):
                stack.extend((k, depth) for k in value)
                stack.extend((v, depth + 1) for v in value.values())
            else:
                stack.extend((v, depth + 1) for v in value)


def _parse(frame: str | bytes, cfg: ServerConfig) -> dict[str, Any]:
    """Return the JSON object of one frame (not yet checked by :func:`_check_text`); a bad one is ``too_large`` or ``bad_json``."""
    too_large = ApiError("too_large", f"a message may hold at most {cfg.max_message} bytes")
    if isinstance(frame, bytes):
        if len(frame) > cfg.max_message:
            raise too_large
        try:
            text = frame.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError("bad_json", "a message must be UTF-8 JSON text") from None
    else:
        if len(frame) > cfg.max_message or len(frame.encode("utf-8", "surrogatepass")) > cfg.max_message:
            raise too_large
        text = frame
    try:
        obj = json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as e:
        raise ApiError("bad_json", f"the message is not valid JSON: {e.msg} at position {e.pos}") from None
    except (ValueError, RecursionError) as e:
        raise ApiError("bad_json", f"the message is not valid JSON: {str(e)[:80]}") from None
    if not isinstance(obj, dict):
        raise ApiError("bad_json", f"a message must be a JSON object, not {type(obj).__name__}")
    return obj


def _check_fields(msg: dict[str, Any]) -> str:
    """Return the message's type once its fields are those of the type and each has its type and range."""
    kind = msg.get("type")
    if kind is None:
        raise ApiError("bad_request", "a message must have a 'type'")
    if not isinstance(kind, str):
        raise ApiError("bad_request", f"'type' must be a string, not {type(kind).__name__}")
    if kind not in _FIELDS:
        raise ApiError("unknown_type", f"unknown message type {kind[:40]!r}: expected {', '.join(_FIELDS)}")
    required, optional = _FIELDS[kind]
    extra = sorted(set(msg) - required - optional)
    if extra:
        allowed = ", ".join(sorted(required | optional))
        raise ApiError("bad_request", f"a {kind} message has no field {extra[0][:20]!r} (its fields: {allowed})")
    missing = sorted(required - set(msg))
    if missing:
        raise ApiError("bad_request", f"a {kind} message needs the field {missing[0]!r}")
    if kind == "action":
        version = msg["version"]
        if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version <= MAX_SAFE_INT:
            raise ApiError("bad_request", "'version' must be the integer version the action is based on")
        if not isinstance(msg["action"], dict):
            raise ApiError("bad_request", "'action' must be a JSON object: a record action without its seat (docs/web.md)")
    elif kind == "hello":
        token = msg.get("token")
        if token is not None and (not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_LENGTH
                                  or not _TOKEN.fullmatch(token)):
            raise ApiError("unauthorized", "the seat token is malformed: it must be the token's text, or null")
        since = msg.get("since")
        if since is not None and (isinstance(since, bool) or not isinstance(since, int) or not 0 <= since <= MAX_SAFE_INT):
            raise ApiError("bad_request", "'since' must be an event number (an integer from 0) or null")
    return kind


# -- the one writer ----------------------------------------------------------------------------------------


def _close_request(code: int, reason: str) -> dict[str, Any]:
    """Return the queue entry that makes :func:`_pump` close the socket after what is queued before it."""
    return {_CLOSE: (code, reason.encode("utf-8", "replace")[:120].decode("utf-8", "ignore"))}


async def _pump(ws: WebSocket, sub: Subscriber) -> None:
    """Write the subscriber's queue to the socket, in order, until the queue asks to close (the socket's one writer)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            message = await sub.queue.get()
            if message is None:
                await ws.close(1001, "the server is closing")
                return
            if sub.overflow:
                await ws.close(1008, "too many messages waiting: reconnect with since")
                return
            if isinstance(message, str):  # An update, encoded once for everyone who sees the same.
                await ws.send_text(message)
                continue
            close = message.get(_CLOSE)
            if close is not None:
                await ws.close(*close)
                return
            await ws.send_text(dumps(message))


async def _finish(ws: WebSocket, sender: asyncio.Task[None], flush: bool) -> None:
    """Stop the writer (first letting it send what is queued, for at most :data:`CLOSE_TIMEOUT` s, when ``flush``).

    Then make sure the socket is closed with a close frame, whatever happened.
    """
    if flush:
        await asyncio.wait({sender}, timeout=CLOSE_TIMEOUT)
    sender.cancel()
    await asyncio.wait({sender})
    if not sender.cancelled() and sender.exception() is not None:
        log.error("the writer of a websocket failed", exc_info=sender.exception())
    if ws.application_state == WebSocketState.CONNECTED and ws.client_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(1011, "the connection could not be closed in order"), CLOSE_TIMEOUT)


def _error(err: ApiError, ref: object, version: int | None) -> dict[str, Any]:
    return {"type": "error", "id": ref, "version": version, **err.to_json()}


# -- the session -------------------------------------------------------------------------------------------


async def _receive(ws: WebSocket) -> str | bytes | None:
    """Return the next frame's text or bytes; ``None`` when the client has gone."""
    try:
        message = await ws.receive()
    except (WebSocketDisconnect, RuntimeError):
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    return bytes(message.get("bytes") or b"")


async def _refuse(ws: WebSocket, table_id: str, err: ApiError, ref: object, version: int | None, code: int) -> None:
    """Answer a connection that will not be served with an error, then close it (through the one writer)."""
    sub = Subscriber(table_id, None)
    sub.send(_error(err, ref, version))
    sub.send(_close_request(code, err.message))
    await _finish(ws, asyncio.create_task(_pump(ws, sub)), flush=True)


async def serve_socket(ws: WebSocket, table_id: str, manager: TableManager, cfg: ServerConfig,
                       relay: Relay | None = None) -> None:
    """Serve one accepted WebSocket of a table until it closes (the messages of docs/web.md).

    In a cluster, the socket of a table another server owns is relayed to it with ``relay`` (None: the
    socket is itself relayed, and is refused ``moving`` rather than relayed twice).
    """
    try:
        frame = await asyncio.wait_for(_receive(ws), HELLO_TIMEOUT)
    except TimeoutError:
        err = ApiError("hello_first", f"no hello within {HELLO_TIMEOUT:g} seconds of connecting")
        await _refuse(ws, table_id, err, None, None, HELLO_TIMEOUT_CLOSE)
        return
    if frame is None:
        return
    ref: str | int | None = None
    try:
        hello = _parse(frame, cfg)
        ref = check_id(hello.get("id"))
        _check_text(hello)
        if hello.get("type") != "hello":
            shown = hello.get("type")
            what = repr(shown[:40]) if isinstance(shown, str) else type(shown).__name__
            raise ApiError("hello_first", f"the first message must be hello, not {what}")
        _check_fields(hello)
        if not _TABLE_ID.fullmatch(table_id):
            raise ApiError("not_found", f"there is no table {table_id[:40]!r}")
        sub = manager.subscribe(table_id, hello.get("token"), hello.get("since"))
    except Elsewhere as e:
        if relay is None or e.address is None:
            err = ApiError("moving", f"table {table_id} is moving to another server: reconnect in a moment")
            await _refuse(ws, table_id, err, ref, None, 1012)
        else:
            await relay.socket(ws, e.address, table_id, frame)
        return
    except ApiError as e:
        table = manager.tables.get(table_id)
        await _refuse(ws, table_id, e, ref, table.version if table else None, HELLO_CLOSE.get(e.code, 4400))
        return
    except Exception as e:  # A bug must cost at most this connection, and say so.
        log.exception("websocket of table %s: the hello failed", table_id)
        await _refuse(ws, table_id, ApiError("internal", f"the hello failed ({type(e).__name__})"), ref, None, 1011)
        return
    await _Session(ws, sub, manager, cfg).run(ref)


class _Session:
    """A connection after its hello: reads messages, checks them, and queues every reply on the subscriber."""

    def __init__(self, ws: WebSocket, sub: Subscriber, manager: TableManager, cfg: ServerConfig) -> None:
        self.ws = ws
        self.sub = sub
        self.manager = manager
        self.cfg = cfg
        self.bucket = TokenBucket(cfg.ws_burst, cfg.ws_rate)
        self.hint: asyncio.Task[None] | None = None

    def version(self) -> int | None:
        """Return the table's version now."""
        table = self.manager.tables.get(self.sub.table_id)
        return table.version if table is not None else None

    def welcome(self, ref: object) -> None:
        """Give the queued welcome of the hello its id and version (the queue holds only the hello's messages now)."""
        queued = [self.sub.queue.get_nowait() for _ in range(self.sub.queue.qsize())]
        for message in queued:
            if isinstance(message, dict) and message.get("type") == "welcome":
                message = {**message, "id": ref, "version": self.version()}
            self.sub.queue.put_nowait(message)

    async def run(self, hello_ref: object) -> None:
        """Serve messages until the client goes, the writer stops or the connection is closed for refusals."""
        self.welcome(hello_ref)
        sender = asyncio.create_task(_pump(self.ws, self.sub))
        refused = 0
        closing = False
        try:
            while not sender.done():
                frame = await _receive(self.ws)
                if frame is None:
                    break
                ref: str | int | None = None
                msg: dict[str, Any] = {}
                fault: ApiError | None = None
                try:
                    msg = _parse(frame, self.cfg)
                    ref = check_id(msg.get("id"))
                    _check_text(msg)
                except ApiError as e:
                    fault = e
                try:
                    if not self.bucket.take():  # Every frame counts, good or bad.
                        raise ApiError("rate_limited", f"too many messages: at most {self.cfg.ws_rate:g} a second "
                                                       f"after a burst of {self.cfg.ws_burst}")
                    if fault is not None:
                        raise fault
                    if msg.get("type") == "hello":
                        raise ApiError("bad_request", "this connection has already said hello")
                    self.dispatch(_check_fields(msg), msg, ref)
                    refused = 0
                except ApiError as e:
                    refused += 1
                    self.sub.send(_error(e, ref, self.version()))
                except Exception as e:  # A bug costs this message only: it is logged and answered.
                    log.exception("websocket of table %s: a message failed", self.sub.table_id)
                    self.sub.send(_error(ApiError("internal", f"the message failed ({type(e).__name__})"), ref, self.version()))
                if refused >= self.cfg.ws_max_refused:
                    self.sub.send(_close_request(1008, "too many refused messages"))
                    closing = True
                    break
        except Exception:  # A bug must cost at most this connection.
            log.exception("websocket of table %s failed", self.sub.table_id)
            self.sub.send(_close_request(1011, "internal error"))
            closing = True
        finally:
            self.manager.unsubscribe(self.sub)
            if self.hint is not None:
                self.hint.cancel()
            await _finish(self.ws, sender, flush=closing)

    def dispatch(self, kind: str, msg: dict[str, Any], ref: str | int | None) -> None:
        """Do what a checked message asks; every answer goes to the subscriber's queue."""
        sub, manager = self.sub, self.manager
        if kind == "action":
            version = manager.act(sub.table_id, sub.seat, msg["version"], msg["action"])
            sub.send({"type": "ack", "id": ref, "version": version})
        elif kind == "hint":
            self.start_hint(ref)
        elif kind == "rematch":
            table = manager.rematch(sub.table_id, sub.seat)
            sub.send({"type": "ack", "id": ref, "version": table.version})
        elif kind == "chat":
            manager.chat(sub, msg.get("text"), msg.get("emote"))
            sub.send({"type": "ack", "id": ref, "version": self.version()})
        elif kind == "next":
            table = manager.next_deal(sub.table_id, sub.seat)
            sub.send({"type": "ack", "id": ref, "version": table.version})
        elif kind == "sync":
            table = manager.get(sub.table_id)
            sub.send({**manager.sync(table, sub.seat), "id": ref, "version": table.version})
        else:  # ping
            sub.send({"type": "pong", "id": ref, "version": self.version()})

    def start_hint(self, ref: str | int | None) -> None:
        """Compute a hint for the table's version now, while later messages are served; answer when it is done."""
        if self.hint is not None and not self.hint.done():
            raise ApiError("rate_limited", "this connection is waiting for a hint already: one at a time")
        table = self.manager.get(self.sub.table_id)
        version = table.version

        def overtaken() -> ApiError | None:
            if table.version == version:
                return None
            return ApiError("stale", f"the hint was asked for version {version}, but the table is at version "
                                     f"{table.version}: ask again")

        async def run() -> None:
            try:
                stale = overtaken()
                if stale is not None:
                    raise stale
                hint = await self.manager.hint(self.sub.table_id, self.sub.seat)
                stale = overtaken()
                if stale is not None:
                    raise stale
                self.sub.send({"type": "hint", "id": ref, "version": version, "hint": hint})
            except ApiError as e:
                self.sub.send(_error(e, ref, table.version))
            except Exception as e:  # A failed hint is reported, never fatal.
                log.exception("hint failed")
                self.sub.send(_error(ApiError("internal", f"the hint failed ({type(e).__name__})"), ref, table.version))

        self.hint = asyncio.create_task(run())
