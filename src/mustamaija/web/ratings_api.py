"""The ratings' routes: claiming a name, signing in, the leaderboard of each game, a player's ratings, the page.

:func:`add_rating_routes` adds them to the app. A name is claimed once
(``POST /api/players``) and answered with a secret *player key*, shown once:
the server keeps only its hash, as it keeps seat tokens. A seat taken with
the name and its key is rated (docs/web.md, "Ratings"); the ratings
themselves are written by the store when a deal ends. Everything a client
sends is checked: bounded lengths, names by :func:`mustamaija.ratings.names.check_name`,
and claiming and signing in are rate-limited per client address on top of
the server's limit on every request.
"""

from __future__ import annotations

import math
import secrets
import time
from typing import Annotated, Any, Final, Literal

from fastapi import FastAPI, Query, Request, Response
from fastapi import Path as ApiPath
from pydantic import BaseModel, ConfigDict, Field

from mustamaija.core.registry import get_game
from mustamaija.players.levels import describe_bot
from mustamaija.ratings.names import (
    BOT,
    MAX_NAME,
    PlayerNameError,
    check_name,
    identity_kind,
    identity_name,
    player_identity,
)
from mustamaija.ratings.standings import PROVISIONAL_RD
from mustamaija.web.errors import ApiError
from mustamaija.web.limits import TokenBucket
from mustamaija.web.live import hash_token, new_token, table_game
from mustamaija.web.manager import TableManager
from mustamaija.web.pages import PAGE_METHODS, page

__all__ = ["SIGN_IN", "SIGN_UP", "add_rating_routes"]

SIGN_UP: Final = (5, 1 / 60)
"""Names one client address may claim: 5 at once, then one a minute."""
SIGN_IN: Final = (10, 0.5)
"""Sign-in checks one client address may make: 10 at once, then one every 2 s (a key cannot be guessed anyway)."""
MAX_PAGE: Final = 200
"""The most rows of a leaderboard one request may ask for."""


class SignUp(BaseModel):
    """Claiming a name."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(max_length=100, description=f"2 to {MAX_NAME} characters: Latin letters, digits, _ - . and spaces")


class SignIn(BaseModel):
    """Checking a name's player key."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(max_length=100)
    key: str = Field(max_length=100, description="the player key given when the name was claimed")


PlayerName = Annotated[str, ApiPath(max_length=260, description="a claimed name, or bot:<level or spec>")]


class _Limiter:
    """Token buckets by client address, for one kind of request."""

    def __init__(self, burst: int, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.buckets: dict[str, TokenBucket] = {}

    def check(self, address: str, what: str) -> None:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) > 10000:
                self.buckets.clear()
            bucket = self.buckets[address] = TokenBucket(self.burst, self.rate)
        if not bucket.take():
            raise ApiError("rate_limited", f"too many {what} from this address: try again later")


def _number(x: float | None, digits: int = 1) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, digits)


def rating_json(row: dict[str, Any]) -> dict[str, Any]:
    """Return a stored rating row as the API gives it (docs/web.md, "Ratings")."""
    return {
        "rating": _number(row["rating"]),
        "rd": _number(row["rd"]),
        "provisional": row["rd"] > PROVISIONAL_RD,
        "games": row["games"],
        "wins": row["wins"],
        "losses": row["losses"],
        "draws": row["draws"],
        "updated": _number(row["updated"], 3),
    }


def _label(identity: str, game_name: str) -> str | None:
    """Return a bot's label (``"hard · search 0.5 s"``); ``None`` for a person or a bot this server lacks."""
    if identity_kind(identity) != "bot":
        return None
    try:
        return describe_bot(identity_name(identity), game_name)
    except Exception:  # A spec of bots that are no longer installed: shown by its spec alone.
        return None


def add_rating_routes(app: FastAPI, manager: TableManager) -> None:
    """Add the ratings' routes and the leaderboard page to the app."""
    from mustamaija.web.app import client_address  # Here: the app module imports this one.

    store = manager.store
    sign_up_limit, sign_in_limit = _Limiter(*SIGN_UP), _Limiter(*SIGN_IN)

    @app.api_route("/ratings", methods=PAGE_METHODS, include_in_schema=False)
    async def ratings_page(request: Request) -> Response:
        return page("ratings.html", request)

    @app.get("/api/ratings", tags=["ratings"])
    async def leaderboard(game: Annotated[str | None, Query(max_length=60)] = None,
                          kind: Literal["human", "bot"] | None = None,
                          limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
                          offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0) -> dict[str, Any]:
        """Return a game's leaderboard (default: the default game): established ratings first, provisional after."""
        g = table_game(game)
        total, rows = store.leaderboard(g.name, kind, limit, offset)
        return {
            "game": g.name, "title": g.title, "total": total, "offset": offset, "provisional_rd": PROVISIONAL_RD,
            "ratings": [{"rank": offset + i + 1, "name": row["name"], "kind": row["kind"],
                         "label": _label(row["identity"], g.name), **rating_json(row)} for i, row in enumerate(rows)],
        }

    def _ratings(identity: str) -> list[dict[str, Any]]:
        out = []
        for row in store.ratings_of(identity):
            try:
                title = get_game(row["game"]).title
            except Exception:  # A game no longer installed keeps its ratings, under its name.
                title = row["game"]
            out.append({"game": row["game"], "title": title, "rank": row["rank"], **rating_json(row)})
        return out

    @app.get("/api/players/{name}", tags=["ratings"])
    async def player(name: PlayerName) -> dict[str, Any]:
        """Return a claimed name's ratings in every game (or a bot's, named ``bot:<level or spec>``)."""
        if name.startswith(BOT):
            ratings = _ratings(name)
            if not ratings:
                raise ApiError("not_found", f"the bot {identity_name(name)[:40]!r} has no rating yet")
            return {"name": identity_name(name), "kind": "bot", "created": None, "ratings": ratings}
        row = store.player(name)
        if row is None:
            raise ApiError("not_found", f"nobody has claimed the name {name.strip()[:40]!r}")
        return {"name": row["name"], "kind": "human", "created": _number(row["created"], 3),
                "ratings": _ratings(player_identity(row["name"]))}

    @app.post("/api/players", tags=["ratings"], status_code=201)
    async def sign_up(body: SignUp, request: Request) -> dict[str, Any]:
        """Claim a name; the answer holds its player key, shown this once (keep it: it is the name)."""
        sign_up_limit.check(client_address(request.scope, manager), "names claimed")
        try:
            name = check_name(body.name)
        except PlayerNameError as e:
            raise ApiError("bad_request", f"name: {e}") from None
        key = new_token()
        if not store.add_player(name, hash_token(key)):
            raise ApiError("name_taken", f"the name {name!r} is taken (names are the same in any case)")
        return {"name": name, "key": key, "created": round(time.time(), 3)}

    @app.post("/api/players/signin", tags=["ratings"])
    async def sign_in(body: SignIn, request: Request) -> dict[str, Any]:
        """Check a name's player key; answer the name as claimed and its ratings (a wrong pair is ``unauthorized``)."""
        sign_in_limit.check(client_address(request.scope, manager), "sign-in attempts")
        row = store.player(body.name)
        # The digest is compared even for a name nobody claimed, so that the answer's time tells nothing.
        expected = row["key_hash"] if row is not None else hash_token(secrets.token_urlsafe(24))
        if not secrets.compare_digest(expected, hash_token(body.key)) or row is None:
            raise ApiError("unauthorized", "that name and player key do not match")
        return {"name": row["name"], "ratings": _ratings(player_identity(row["name"]))}
