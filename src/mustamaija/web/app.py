"""The FastAPI application: the HTTP API, the WebSocket, the stream for bots, and the pages.

Every refusal has the shape ``{"error": {"code": ..., "message": ...}}``
(docs/web.md lists the codes); nothing a client sends can make it answer
500 or crash the server.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi import Path as ApiPath
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from mustamaija import __version__
from mustamaija.core.errors import MustamaijaError, RulesError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME, game_for_position, game_for_record, games
from mustamaija.web.bots import levels_json
from mustamaija.web.config import ServerConfig
from mustamaija.web.errors import ApiError, Elsewhere
from mustamaija.web.jsontext import dumps
from mustamaija.web.limits import TokenBucket
from mustamaija.web.live import deal_of, table_game
from mustamaija.web.manager import TableManager
from mustamaija.web.pages import PAGE_METHODS, page
from mustamaija.web.positions_api import register_positions
from mustamaija.web.puzzles_api import register_puzzles
from mustamaija.web.ratings_api import add_rating_routes
from mustamaija.web.relay import relayed_client
from mustamaija.web.renderer import renderer_of
from mustamaija.web.replays import replay_json
from mustamaija.web.table_socket import serve_socket

__all__ = ["STATIC_DIR", "create_app"]

log = logging.getLogger("mustamaija.web")

STATIC_DIR = Path(__file__).parent / "static"
"""The front end: plain ES modules, CSS and SVG, served as they are."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


# -- request bodies (they also document the API in /openapi.json) ------------------------------

MAX_NUMBER: Final = 2**53
"""The largest number a request may hold where a count or a version is meant: every such number is bounded,
so that a huge one gets a clear 400 instead of failing in the database."""
MAX_SEATS: Final = 63
"""The largest seat number a request may name."""


class SeatSpec(BaseModel):
    """One seat of a new table."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["person", "bot"] = "person"
    bot: str | None = Field(default=None, max_length=200, description="a level (easy, medium, hard, expert) or a bot spec")
    name: str | None = Field(default=None, max_length=40)


class CreateTable(BaseModel):
    """A new table; every key is optional (docs/web.md gives the defaults)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str | None = Field(default=None, max_length=60, description="the game the table plays (GET /api/games)")
    name: str | None = Field(default=None, max_length=60)
    players: int | None = Field(default=None, ge=2, le=16)
    preset: str | None = Field(default=None, max_length=40)
    rules: dict[str, Any] | None = None
    seats: list[SeatSpec] | None = Field(default=None, max_length=16)
    deals: int | None = Field(default=None, ge=1, le=100)
    max_losses: int | None = Field(default=None, ge=1, le=100)
    private: bool = False
    hints: bool = True
    takeover_after: float | None = Field(default=None, ge=0, le=3600)
    turn_seconds: float | None = Field(default=None, ge=3, le=600,
                                       description="a clock for each person's turn: when it runs out, a bot makes the move")
    sit: bool = True
    player_name: str | None = Field(default=None, max_length=40)
    player_key: str | None = Field(default=None, max_length=100, description="the player key of a signed-in name")


class CheckRules(BaseModel):
    """A rule set to check: a game, a preset and rule keys that override it."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str | None = Field(default=None, max_length=60)
    preset: str | None = Field(default=None, max_length=40)
    rules: dict[str, Any] | None = None


class JoinTable(BaseModel):
    """Taking a seat: a seat number (or none for the first free one) and a name."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int | None = Field(default=None, ge=0, le=MAX_SEATS)
    name: str | None = Field(default=None, max_length=40)
    player_key: str | None = Field(default=None, max_length=100, description="the player key of a signed-in name")


class PostAction(BaseModel):
    """An action: the version it is based on and the docs/formats.md action without its seat."""

    model_config = ConfigDict(extra="forbid", strict=True)
    version: int = Field(ge=0, le=MAX_NUMBER)
    action: dict[str, Any] = Field(description="the game's record action without its seat (docs/web.md)")


DealNumber = Annotated[int, ApiPath(ge=0, le=MAX_NUMBER, description="the deal's number at its table")]
"""A deal number in a path."""


# -- helpers --------------------------------------------------------------------------------------


def _error(code: str, message: str) -> JSONResponse:
    err = ApiError(code, message)
    return JSONResponse(err.to_json(), status_code=err.status)


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError("unauthorized", "the Authorization header must be 'Bearer <seat token>'")
    return token.strip()


def _seat_url(table_id: str, seat: int | None, token: str | None) -> str | None:
    return None if seat is None or token is None else f"/t/{table_id}#seat={seat}&token={token}"


def _browses(request: Request) -> bool:
    """Return whether ``request`` is a browser asking for a page: a GET or HEAD outside the API that accepts HTML."""
    path = request.url.path
    return (request.method in ("GET", "HEAD") and not path.startswith(("/api/", "/static/"))
            and "text/html" in request.headers.get("accept", ""))


def game_json(game: Game) -> dict[str, Any]:
    """Return what the lobby needs of a game (``GET /api/games``): its rules, presets, players, levels and form."""
    renderer = renderer_of(game)
    presets = {name: game.make_rules(name) for name in game.presets}
    return {
        "name": game.name,
        "title": game.title,
        "layout": renderer.layout,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "default_players": renderer.default_players,
        "presets": {name: rules.to_json() for name, rules in presets.items()},
        "preset_texts": {name: _rules_text(rules) for name, rules in presets.items()},
        "rule_defaults": dict(game.rule_defaults),
        **levels_json(game),
        "lobby": renderer.lobby,
    }


def _rules_text(rules: Any) -> str | None:
    describe = getattr(rules, "describe", None)
    return str(describe()) if callable(describe) else None


SECURITY_HEADERS: Final = [
    # Scripts, styles, images and sockets come from this server only, and no other site may frame a page.
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                 b"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                                 b"form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]
"""Headers every HTTP answer carries (docs/security.md)."""


def relayed_from(scope: Scope, manager: TableManager) -> str | None:
    """Return the client's address if another server of the cluster relayed this request or socket; else None."""
    if manager.cluster is None:
        return None
    return relayed_client(scope.get("headers", []), manager.cluster.secret)


def client_address(scope: Scope, manager: TableManager) -> str:
    """Return the address a request or socket counts against: the client's, also when another server relays it."""
    relayed = relayed_from(scope, manager)
    if relayed is not None:
        return relayed
    client = scope.get("client")
    return str(client[0]) if client else "?"


class LimitsMiddleware:
    """Refuses HTTP bodies over the size limit and too many requests from one client address."""

    def __init__(self, app: Any, config: ServerConfig, manager: TableManager) -> None:
        self.app = app
        self.config = config
        self.manager = manager
        self.buckets: dict[str, TokenBucket] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = client_address(scope, self.manager)
        bucket = self.buckets.get(host)
        if bucket is None:
            if len(self.buckets) > 10000:
                self.buckets.clear()
            bucket = self.buckets[host] = TokenBucket(self.config.http_burst, self.config.http_rate)
        if not bucket.take():
            await _error("rate_limited", "too many requests: slow down")(scope, receive, send)
            return
        limit = self.config.max_body
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                await _error("too_large", f"the body is over {limit} bytes")(scope, receive, send)
                return
        # Bodies are small: read the whole body first, so that an oversized one is refused before any parsing.
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return
            body += message.get("body", b"")
            if len(body) > limit:
                await _error("too_large", f"the body is over {limit} bytes")(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        scope["mustamaija.body"] = body  # Kept for a relay to another server of the cluster.
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, replay, send_with_headers)


# -- the application -------------------------------------------------------------------------------


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """Return the web app for ``config`` (default: an in-memory SQLite database)."""
    cfg = config or ServerConfig()
    manager = TableManager(cfg)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await manager.start()
        try:
            yield
        finally:
            await manager.close()

    app = FastAPI(
        title="mustamaija serve",
        version=__version__,
        description="Online card tables of every game of the registry (GET /api/games): people, bots and spectators. "
                    "docs/web.md describes the WebSocket messages and the bot API; seats authenticate with "
                    "'Authorization: Bearer <seat token>'.",
        lifespan=lifespan,
    )
    app.state.manager = manager
    app.state.config = cfg
    app.add_middleware(LimitsMiddleware, config=cfg, manager=manager)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(Elsewhere)
    async def _elsewhere(request: Request, exc: Elsewhere) -> Response:
        relay = manager.relay
        if relay is not None and exc.address is not None and relayed_from(request.scope, manager) is None:
            try:
                return await relay.http(request, exc.address, request.scope.get("mustamaija.body", b""))
            except Exception as e:  # The owner is unreachable (it may have just died): the client tries again.
                log.warning("relaying a request for table %s to %s failed: %s", exc.table_id, exc.address, e)
        # Never relayed twice: a relayed request that meets a table its server does not own waits for the move.
        return _error("moving", f"table {exc.table_id} is moving to another server: try again in a moment")

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {}
        kind = str(first.get("type", ""))
        loc = [str(p) for p in first.get("loc", ()) if p != "body"]
        if kind == "json_invalid":
            return _error("bad_json", f"the body is not valid JSON: {first.get('ctx', {}).get('error', 'parse error')}")
        if not loc and kind in ("model_attributes_type", "dict_type", "missing"):
            return _error("bad_json", "the body must be a JSON object, sent as application/json")
        where = ".".join(loc) or "body"
        return _error("bad_request", f"{where}: {first.get('msg', 'invalid')}")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404:
            if _browses(request):  # A person at a mistyped or stale address: a page that leads back to the lobby.
                return page("404.html", status_code=404)
            return _error("not_found", f"there is no route {request.method} {request.url.path}")
        if exc.status_code == 405:
            return _error("method_not_allowed", f"{request.url.path} does not take {request.method}")
        return _error("bad_request", str(exc.detail))

    @app.exception_handler(Exception)
    async def _internal(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return _error("internal", f"internal error ({type(exc).__name__}); the server carries on")

    # -- pages --------------------------------------------------------------------------------

    @app.api_route("/", methods=PAGE_METHODS, include_in_schema=False)
    async def lobby_page(request: Request) -> Response:
        return page("index.html", request)

    @app.api_route("/t/{table_id}", methods=PAGE_METHODS, include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> Response:
        return page("table.html", request)  # One page for every game: it loads the layout the table's metadata names.

    @app.api_route("/replay", methods=PAGE_METHODS, include_in_schema=False)
    async def replay_import_page(request: Request) -> Response:
        return page("replay.html", request)

    @app.api_route("/replay/{rest:path}", methods=PAGE_METHODS, include_in_schema=False)
    async def replay_page(request: Request, rest: str) -> Response:
        return page("replay.html", request)

    @app.api_route("/puzzles", methods=PAGE_METHODS, include_in_schema=False)
    async def puzzles_page(request: Request) -> Response:
        return page("puzzles.html", request)

    @app.api_route("/editor", methods=PAGE_METHODS, include_in_schema=False)
    async def editor_page(request: Request) -> Response:
        return page("editor.html", request)

    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
    register_puzzles(app, manager)  # Endgame puzzles judged by a game's solver (docs/web.md, "Puzzles").
    register_positions(app, manager, client_address)  # The position editor's API (docs/web.md, "Position editor").
    add_rating_routes(app, manager)  # Names, ratings and the leaderboard (docs/web.md, "Ratings").

    # -- the HTTP API --------------------------------------------------------------------------------

    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, Any]:
        """Return that the server is up, and its version."""
        return {"ok": True, "version": __version__}

    @app.get("/api/games", tags=["server"])
    async def list_games() -> dict[str, Any]:
        """Return every game of the registry: title, players, presets, rule defaults, bot levels and lobby form."""
        return {"default": DEFAULT_GAME, "games": [game_json(g) for g in games()]}

    @app.get("/api/bots", tags=["server"])
    async def bots(game: str | None = None) -> dict[str, Any]:
        """Return the bot levels and the registered bots of a game (default: the default game)."""
        return levels_json(table_game(game))

    @app.get("/api/presets", tags=["server"])
    async def presets(game: str | None = None) -> dict[str, Any]:
        """Return the rule presets of a game (default: the default game) and their rules."""
        g = table_game(game)
        return {"presets": {name: g.make_rules(name).to_json() for name in g.presets}}

    @app.post("/api/rules", tags=["server"])
    async def check_rules(body: CheckRules) -> dict[str, Any]:
        """Return a game's rules of a preset with some keys changed, and their summary; bad rules are ``bad_rules``."""
        g = table_game(body.game)
        try:
            rules = g.make_rules(body.preset, body.rules)
        except (RulesError, TypeError) as e:
            raise ApiError("bad_rules", str(e)) from None
        return {"game": g.name, "rules": rules.to_json(), "text": _rules_text(rules)}

    @app.get("/api/tables", tags=["tables"])
    async def list_tables() -> dict[str, Any]:
        """Return the public tables waiting for people (``open``) and those in play (``running``)."""
        await manager.settled()
        return manager.lobby()

    @app.post("/api/tables", tags=["tables"], status_code=201)
    async def create_table(body: CreateTable) -> dict[str, Any]:
        """Create a table; with ``sit`` the creator takes the first person seat and gets its token."""
        data = body.model_dump(exclude_none=True)
        if body.seats is not None:
            data["seats"] = [s.model_dump() for s in body.seats]
        table, seat, token = manager.create(data)
        await manager.settled()
        return {"table": table.meta(), "seat": seat, "token": token, "url": _seat_url(table.id, seat, token)}

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def get_table(table_id: str) -> dict[str, Any]:
        """Return a table's metadata and the spectator's view of its deal."""
        await manager.settled()
        table = manager.get(table_id)
        return {"table": table.meta(), "state": table.state_for(None)}

    @app.post("/api/tables/{table_id}/join", tags=["tables"])
    async def join_table(table_id: str, body: JoinTable | None = None) -> dict[str, Any]:
        """Take a free person seat; the answer holds the seat token (keep it: it is the seat)."""
        body = body or JoinTable()
        table, seat, token = manager.join(table_id, body.seat, body.name, body.player_key)
        await manager.settled()
        return {"table": table.meta(), "seat": seat, "token": token, "url": _seat_url(table.id, seat, token)}

    @app.get("/api/tables/{table_id}/state", tags=["play"])
    async def get_state(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """Return the deal as the token's seat sees it (a spectator's view without a token)."""
        await manager.settled()
        table = manager.get(table_id)
        seat = table.seat_of(_bearer(authorization))
        return {"table": table.meta(), "seat": seat, "state": table.state_for(seat), "seq": table.seq}

    @app.post("/api/tables/{table_id}/actions", tags=["play"])
    async def post_action(table_id: str, body: PostAction, authorization: str | None = Header(None)) -> dict[str, Any]:
        """Play an action for the token's seat, based on the table version ``version``."""
        table = manager.get(table_id)
        token = _bearer(authorization)
        if token is None:
            raise ApiError("unauthorized", "acting needs the seat token: 'Authorization: Bearer <seat token>'")
        version = manager.act(table_id, table.seat_of(token), body.version, body.action)
        await manager.settled()
        return {"ok": True, "version": version}

    @app.get("/api/tables/{table_id}/stream", tags=["play"])
    async def stream(table_id: str, since: Annotated[int | None, Query(ge=0, le=MAX_NUMBER)] = None,
                     authorization: str | None = Header(None)) -> StreamingResponse:
        """Stream the table's messages as newline-delimited JSON (``sync``, then ``update`` after each change)."""
        sub = manager.subscribe(table_id, _bearer(authorization), since)

        async def lines() -> AsyncIterator[bytes]:
            try:
                while True:
                    try:
                        message = await asyncio.wait_for(sub.queue.get(), cfg.keepalive)
                    except TimeoutError:
                        yield b"\n"
                        continue
                    if message is None or sub.overflow:
                        return
                    yield (message if isinstance(message, str) else dumps(message)).encode() + b"\n"
            finally:
                manager.unsubscribe(sub)

        return StreamingResponse(lines(), media_type="application/x-ndjson")

    def _seated(table_id: str, authorization: str | None, what: str) -> int | None:
        """Return the seat of the request's token; no token is ``not_seated`` (``what`` says who may ask)."""
        table = manager.get(table_id)
        token = _bearer(authorization)
        if token is None:
            raise ApiError("not_seated", f"{what}: send 'Authorization: Bearer <seat token>'")
        return table.seat_of(token)

    @app.get("/api/tables/{table_id}/hint", tags=["play"])
    async def get_hint(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """Return a hint for the token's seat (from its view only), if the table allows hints."""
        return {"hint": await manager.hint(table_id, _seated(table_id, authorization, "hints are for seats"))}

    @app.post("/api/tables/{table_id}/rematch", tags=["play"])
    async def post_rematch(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """Begin a new match at the table once the match is over."""
        seat = _seated(table_id, authorization, "a rematch is asked for by a seat")
        table = manager.rematch(table_id, seat)
        await manager.settled()
        return {"table": table.meta()}

    @app.post("/api/tables/{table_id}/next", tags=["play"])
    async def post_next(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """Say the seat is ready for the next deal of the match (it starts once every connected person is)."""
        seat = _seated(table_id, authorization, "the next deal is asked for by a seat")
        table = manager.next_deal(table_id, seat)
        await manager.settled()
        return {"table": table.meta()}

    @app.get("/api/tables/{table_id}/deals", tags=["replays"])
    async def list_deals(table_id: str) -> dict[str, Any]:
        """Return the deals played at a table, with each finished deal's scores (the game's figure, lower better)."""
        table = manager.get(table_id)
        game = table.game
        deals = manager.store.deals(table_id)
        for d in deals:
            if d["deal_no"] == table.deal_no and table.state is not None:
                # The stored summary of a deal in play is as of its last whole record; the table knows it now.
                d.update(table.renderer.deal_columns(table.state))
        return {"deals": [{"deal": d["deal_no"], "match": d["match_no"], "finished": d["finished"], "loser": d["loser"],
                           "stopped": d["stopped"], "turns": d["turns"],
                           "scores": game.scores(deal_of(game, d["record"]).replay()) if d["finished"] else None}
                          for d in deals]}

    def _finished(table_id: str, deal: int) -> dict[str, Any]:
        manager.get(table_id)
        row = manager.store.deal(table_id, deal)
        if row is None:
            raise ApiError("not_found", f"table {table_id} has no deal {deal}")
        if not row["finished"]:
            raise ApiError("deal_not_finished", f"deal {deal} of table {table_id} is still in play")
        return row

    @app.get("/api/tables/{table_id}/deals/{deal}/record", tags=["replays"])
    async def deal_record(table_id: str, deal: DealNumber) -> JSONResponse:
        """Return the docs/formats.md record of a finished deal."""
        row = _finished(table_id, deal)
        game = manager.get(table_id).game.name
        return JSONResponse(row["record"], headers={
            "Content-Disposition": f'attachment; filename="{game}-{table_id}-{deal}.json"'})

    @app.get("/api/tables/{table_id}/deals/{deal}/review", tags=["replays"], response_model=None)
    async def deal_review(table_id: str, deal: DealNumber, wait: bool = True) -> dict[str, Any] | JSONResponse:
        """Return the review of a finished deal (``mustamaija review``): every decision judged from its seat's view.

        Making one takes a while (a search at each decision); it is kept once made. With ``wait=false`` the
        answer comes at once: the review if it is made, else ``202`` with ``{"progress": {"done", "total"}}``
        (the decisions judged so far, of all), the review being made meanwhile; ask again for more.
        """
        row = _finished(table_id, deal)
        if wait:
            return {"review": await manager.review(table_id, deal, row["record"])}
        answer = manager.review_or_progress(table_id, deal, row["record"])
        return answer if "review" in answer else JSONResponse(answer, status_code=202)

    @app.get("/api/tables/{table_id}/deals/{deal}/replay", tags=["replays"])
    async def deal_replay(table_id: str, deal: DealNumber) -> dict[str, Any]:
        """Return every position of a finished deal, all hands shown."""
        row = _finished(table_id, deal)
        return _replay(row["record"])

    @app.post("/api/replay", tags=["replays"])
    async def import_replay(record: dict[str, Any]) -> dict[str, Any]:
        """Return every position of a docs/formats.md record sent by the client (nothing is stored)."""
        try:
            return _replay(record)
        except MustamaijaError as e:
            raise ApiError("bad_record", str(e)) from None

    # -- the WebSocket --------------------------------------------------------------------------------

    sockets: dict[str, int] = {}  # Open WebSockets by client address.

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        # Upgrades skip the HTTP rate limit, so sockets have caps of their own: per address and in all.
        host = client_address(websocket.scope, manager)
        relayed = relayed_from(websocket.scope, manager) is not None
        if sockets.get(host, 0) >= cfg.ws_per_address or sum(sockets.values()) >= cfg.ws_total:
            await websocket.close(code=1013, reason="too many connections: try again later")
            return
        sockets[host] = sockets.get(host, 0) + 1
        try:
            await websocket.accept()
            await serve_socket(websocket, table_id, manager, cfg, None if relayed else manager.relay)
        finally:
            sockets[host] -= 1
            if not sockets[host]:
                del sockets[host]

    return app


def _replay(obj: dict[str, Any]) -> dict[str, Any]:
    """Return the replay object of a record of any game (docs/web.md); a bad record raises its error."""
    owner = game_for_position(obj)  # A deal played from a position is stored as the position and its actions.
    game = owner if owner is not None else game_for_record(obj)
    rec = deal_of(game, obj)
    names = rec.extra.get("names")
    good = names if isinstance(names, list) and len(names) == rec.players else None
    return replay_json(game, rec, good)
