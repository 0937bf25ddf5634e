"""The position editor's API: check a position, solve it, ask for a hint, and play it out at a table (docs/web.md).

``POST /api/positions/check`` reads a position document (the game's
position formats of docs/formats.md) or its one-line text form and answers
with the normalised document, its text form and share link, and a summary in
plain words, or refuses it with the format's own message (``bad_position``).
``POST /api/positions/solve`` runs the game's exact solver (its search kit's
:class:`~mustamaija.search.kit.ExactSolver`) on a position it takes, within
a bound on the cards in hand and a wall-clock limit, in the search pool;
``POST /api/positions/hint`` gives the seat to act the hint of the tables'
hint machinery (from that seat's view only); ``POST /api/positions/play``
creates a table that plays the position out (docs/web.md, "Position
editor").

Everything goes through the game's positions (``game.positions()``, the
protocol's :class:`~mustamaija.core.protocol.GamePositions`); this module
names no game. What it reads of a document to summarise it are the keys the
position formats share (``hands``, ``attacker``, ``talon``...), each used
only when present.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any, Final

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from mustamaija.core.errors import FormatError, MustamaijaError
from mustamaija.core.protocol import Game
from mustamaija.search.time_limit import OutOfTime, time_limit
from mustamaija.web.errors import ApiError
from mustamaija.web.limits import TokenBucket
from mustamaija.web.live import table_game
from mustamaija.web.manager import TableManager, hint_json

__all__ = [
    "MAX_TEXT",
    "SOLVE_MAX_MORE",
    "SOLVE_MAX_TWO",
    "SOLVE_SECONDS",
    "PositionBody",
    "check_position",
    "register_positions",
    "summary",
]

MAX_TEXT: Final = 400
"""The longest one-line text a request may send (every position's text is well under 200 characters)."""
SOLVE_MAX_TWO: Final = 22
"""The most cards in hand the server solves with two seats holding cards (about a second at worst, measured)."""
SOLVE_MAX_MORE: Final = 8
"""The most cards in hand the server solves with three or more seats holding cards (the solver's time grows far
faster with more seats)."""
SOLVE_SECONDS: Final = 10.0
"""The wall-clock limit of one solve in a worker; past it the solve is abandoned and refused."""
_POOL_KEY: Final = "positions"
"""The search pool's key for this API's work: it takes its turns with the tables' searches, one at a time."""
_MAX_WAITING: Final = 4
"""Solves and hints waiting for the search pool at once; more are asked to come back in a moment."""
_KEEP_ANSWERS: Final = 256
"""Solutions kept, by game and normalised document."""
_COSTLY_BURST: Final = 6
_COSTLY_RATE: Final = 0.5
"""Solves and hints one client address may ask for: a burst, then one every two seconds."""


class PositionBody(BaseModel):
    """A position: a document of the game's position formats, or its one-line text (exactly one of them)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str | None = Field(default=None, max_length=60, description="the game (default: the default game)")
    position: dict[str, Any] | None = Field(default=None, description="a position document (docs/formats.md)")
    text: str | None = Field(default=None, max_length=MAX_TEXT, description="a position's one-line text form")


class PlayBody(PositionBody):
    """A table that plays a position out: your seat, the bots in the others, your name."""

    seat: int | None = Field(default=None, ge=0, le=15, description="your seat (default: the seat to act)")
    bot: str | None = Field(default=None, max_length=200, description="the level (or bot spec) of every other seat")
    bots: list[str] | None = Field(default=None, max_length=16, description="a level or bot spec for each seat "
                                                                             "(yours is ignored)")
    preset: str | None = Field(default=None, max_length=40, description="the preset the position's rules come from")
    player_name: str | None = Field(default=None, max_length=40)
    player_key: str | None = Field(default=None, max_length=100)
    hints: bool = True
    private: bool = True


# -- reading -----------------------------------------------------------------------------------------


def _positions(game: Game) -> Any:
    positions = game.positions()
    if positions is None:
        raise ApiError("not_found", f"{game.title} has no positions to edit")
    return positions


def _source(body: PositionBody) -> object:
    if (body.position is None) == (body.text is None):
        raise ApiError("bad_request", "send exactly one of 'position' (a position document) and 'text' (its "
                                      "one-line text form)")
    if body.text is not None:
        text = body.text.strip()
        if not text:
            raise ApiError("bad_position", "the position's text is empty")
        return text
    return body.position


def _load(game: Game, source: object, seed: int = 0) -> tuple[Any, Any]:
    """Return the game's deal of a position and its starting state (``seed`` orders what the position leaves unknown)."""
    try:
        deal = _positions(game).load(source, seed)
        if getattr(deal, "actions", ()):
            raise FormatError("a position for the editor has no 'actions': it is where a deal stands, not a game "
                              "played on from it")
        return deal, deal.start()
    except (MustamaijaError, TypeError, ValueError, RecursionError) as e:
        # A document deep or odd enough to trip the reader in an unforeseen way is still the client's fault.
        raise ApiError("bad_position", str(e) or type(e).__name__) from None


def _document(deal: Any) -> dict[str, Any]:
    doc: dict[str, Any] = deal.to_json()
    if not doc.get("actions"):
        doc.pop("actions", None)
    return doc


def _text(positions: Any, deal: Any, state: Any) -> str:
    """Return the one-line text of the position itself (a talon of unknown order stays unknown).

    The protocol's ``text(state)`` writes a state's position, where a
    shuffled talon has an order; a deal loaded from a position keeps its
    position, whose own ``to_text`` says what is unknown.
    """
    position = getattr(deal, "position", None)
    to_text = getattr(position, "to_text", None)
    return str(to_text()) if callable(to_text) else str(positions.text(state))


def check_position(game: Game, source: object) -> dict[str, Any]:
    """Return the check of a position: the normalised document, its text and link, the summary and what applies."""
    positions = _positions(game)
    deal, state = _load(game, source)
    doc = _document(deal)
    text = _text(positions, deal, state)
    view = state.view(None)
    sizes = list(view.hand_sizes)
    return {
        "game": game.name,
        "format": doc.get("format"),
        "position": doc,
        "text": text,
        "link": f"/editor?p={text}" + ("" if game.name == _default_name() else f"&game={game.name}"),
        "players": len(sizes),
        "hand_sizes": sizes,
        "to_act": None if state.is_over else state.to_act,
        "over": bool(state.is_over),
        "summary": summary(doc, sizes, None if state.is_over else state.to_act),
        "solve": _solvable(game, doc, sizes, bool(state.is_over)),
    }


def _default_name() -> str:
    from mustamaija.core.registry import DEFAULT_GAME

    return DEFAULT_GAME


_SIGNS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _card(name: object) -> str:
    if not isinstance(name, str) or len(name) != 2:
        return str(name)
    rank = "10" if name[0] == "T" else name[0]
    return rank + _SIGNS.get(name[1], name[1])


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(doc: Mapping[str, Any], sizes: list[int], to_act: int | None) -> str:
    """Return a position in plain words, from the keys its document has.

    >>> summary({"hands": [["QS"], ["2D", "3D"]], "attacker": 0, "trump_suit": "C"}, [1, 2], 0)
    'seat 0 attacks, seat 1 defends; hands 1, 2; talon empty; trump ♣; every hand public; seat 0 to lead'
    >>> doc = {"attacker": 2, "defender": 0, "talon": ["2C"] * 7, "talon_order": "unknown", "trump_suit": "C",
    ...        "trump_card": "7C", "public": ["4H"], "phase": "defend", "table": {"led": ["9H"]}}
    >>> for part in summary(doc, [5, 4, 6], 0).split("; "):
    ...     print(part)
    seat 2 attacks, seat 0 defends
    hands 5, 4, 6
    talon 7 cards, order unknown
    trump ♣ (turned 7♣)
    1 public card
    on the table 9♥
    seat 0 to defend
    """
    parts = []
    phase = doc.get("phase", "lead")
    attacker, defender = doc.get("attacker"), doc.get("defender")
    if phase == "over" or attacker is None:
        parts.append("the deal is over")
    else:
        who = f"seat {attacker} attacks"
        if isinstance(defender, int):
            who += f", seat {defender} defends"
        elif to_act is not None and len(sizes) > 1:
            holders = [s for s in range(len(sizes)) if sizes[s] and s != attacker]
            nxt = next((s for s in [*range(attacker + 1, len(sizes)), *range(attacker)] if s in holders), None)
            if nxt is not None:
                who += f", seat {nxt} defends"
        parts.append(who)
    parts.append("hands " + ", ".join(str(n) for n in sizes))
    talon = doc.get("talon")
    if isinstance(talon, list) and talon:
        parts.append(f"talon {_count(len(talon), 'card')}, order {doc.get('talon_order', 'known')}")
    else:
        parts.append("talon empty")
    if doc.get("turn_pending"):
        parts.append("no trump yet: the first lead turns the bottom card")
    else:
        suit = doc.get("trump_suit")
        trump = "no trumps" if suit is None else f"trump {_SIGNS.get(str(suit), suit)}"
        if doc.get("trump_card"):
            trump += f" (turned {_card(doc['trump_card'])})"
        parts.append(trump)
    public = doc.get("public")
    if "hands" in doc and public is None:  # A format without 'public' shows every hand (an open endgame).
        parts.append("every hand public")
    elif isinstance(public, list) and public:
        parts.append(f"{_count(len(public), 'public card')}")
    table = doc.get("table")
    if isinstance(table, Mapping) and table.get("led"):
        parts.append("on the table " + " ".join(_card(c) for c in table["led"]))
    if to_act is not None:
        parts.append(f"seat {to_act} to {'defend' if phase == 'defend' else 'lead'}")
    return "; ".join(parts)


# -- solving -----------------------------------------------------------------------------------------


def _plain(message: str) -> str:
    """Return a solver's refusal for the page: the command line's pointer (after "; `") is the page's Hint button."""
    return message.split("; `", 1)[0]


def _solvable(game: Game, doc: dict[str, Any], sizes: list[int], over: bool) -> dict[str, Any]:
    """Return whether the server's solver takes the position (``ok``), and if not, why (``why``) and if a hint may."""
    solver = game.search_kit().solver()
    if solver is None:
        return {"ok": False, "why": f"{game.title} has no exact solver", "hint": not over}
    try:
        solver.load(doc)
    except MustamaijaError as e:
        return {"ok": False, "why": _plain(str(e)), "hint": not over}
    holders = sum(1 for n in sizes if n)
    total = sum(sizes)
    bound = SOLVE_MAX_TWO if holders <= 2 else SOLVE_MAX_MORE
    if total > bound:
        return {"ok": False, "hint": True,
                "why": f"{total} cards are in {holders} hands: this server solves at most {SOLVE_MAX_TWO} cards in "
                       f"hand when two seats hold cards, and {SOLVE_MAX_MORE} with three or more (the exact search "
                       "grows fast beyond, to minutes)"}
    return {"ok": True}


def solve_json(game_name: str, doc: dict[str, Any], seconds: float) -> dict[str, Any]:
    """Return the solver's result and its account for people, or ``{"error": ...}`` (in a worker process).

    The solve is abandoned after ``seconds`` of wall-clock time: an alarm
    interrupts the search, which is plain Python, so the worker is free
    again for the tables' bots.
    """
    from mustamaija.core.registry import get_game

    game = get_game(game_name)
    solver = game.search_kit().solver()
    if solver is None:
        return {"error": f"{game.title} has no exact solver"}
    try:
        state = solver.load(doc)
    except MustamaijaError as e:
        return {"error": _plain(str(e))}
    try:
        with time_limit(seconds):
            result = solver.solve(state)
    except OutOfTime:
        return {"error": f"the solver did not finish within {seconds:g} seconds: try a smaller position"}
    out: dict[str, Any] = result.to_json()
    line = []
    t = state.copy()
    players = len(state.view(None).hand_sizes)
    for obj in out.get("line", []):
        action = game.action_from_json(obj, players)
        line.append({"action": obj, "text": game.describe_action(action)})
        t.play(action)
    return {"result": out, "line": line, "lines": solver.describe(state, result),
            "outcome": game.outcome_text(t) if t.is_over else None}


# -- the routes --------------------------------------------------------------------------------------


def register_positions(app: FastAPI, manager: TableManager,
                       address_of: Callable[[MutableMapping[str, Any], TableManager], str]) -> None:
    """Add the position editor's routes to ``app``; solves and hints go to ``manager``'s search pool.

    ``address_of`` gives the client address a request counts against (the app's, which knows relays).
    """
    answers: OrderedDict[str, dict[str, Any]] = OrderedDict()
    waiting = [0]
    buckets: dict[str, TokenBucket] = {}

    def costly(request: Request) -> None:
        host = address_of(request.scope, manager)
        bucket = buckets.get(host)
        if bucket is None:
            if len(buckets) > 10000:
                buckets.clear()
            bucket = buckets[host] = TokenBucket(_COSTLY_BURST, _COSTLY_RATE)
        if not bucket.take():
            raise ApiError("rate_limited", "too many solves and hints: wait a few seconds")
        if waiting[0] >= _MAX_WAITING:
            raise ApiError("rate_limited", "the server is solving many positions already: try again in a moment")

    async def in_pool(func: Any, *args: Any) -> Any:
        waiting[0] += 1
        try:
            return await manager.runner.search(_POOL_KEY, func, *args)
        finally:
            waiting[0] -= 1

    @app.post("/api/positions/check", tags=["positions"])
    async def check(body: PositionBody) -> dict[str, Any]:
        """Check a position (document or one-line text): its normalised document, text, link and summary.

        A position the game's formats refuse is ``bad_position``, with the message naming the key and the rule.
        """
        return check_position(table_game(body.game), _source(body))

    @app.post("/api/positions/solve", tags=["positions"])
    async def solve(body: PositionBody, request: Request) -> dict[str, Any]:
        """Solve a position exactly with the game's solver: whether the attacker is safe, the safe leads, the line.

        A position the solver does not take (cards in the talon, a defence, too many cards) is ``not_solvable``,
        saying why.
        """
        game = table_game(body.game)
        checked = check_position(game, _source(body))
        verdict = checked["solve"]
        if not verdict["ok"]:
            raise ApiError("not_solvable", f"the solver does not apply: {verdict['why']}" +
                           ("; ask for a hint instead" if verdict.get("hint") else ""))
        doc = checked["position"]
        key = json.dumps([game.name, doc], sort_keys=True, separators=(",", ":"))
        done = answers.get(key)
        if done is None:
            costly(request)
            done = await in_pool(solve_json, game.name, doc, SOLVE_SECONDS)
            if "error" in done:
                raise ApiError("not_solvable", str(done["error"]))
            answers[key] = done
            while len(answers) > _KEEP_ANSWERS:
                answers.popitem(last=False)
        else:
            answers.move_to_end(key)
        return {**checked, "solution": done}

    @app.post("/api/positions/hint", tags=["positions"])
    async def hint(body: PositionBody, request: Request) -> dict[str, Any]:
        """Return the hint for the seat to act, from its view of the position only (as the tables' hints)."""
        game = table_game(body.game)
        source = _source(body)
        checked = check_position(game, source)
        _, state = _load(game, source, seed=0)
        if state.is_over:
            raise ApiError("not_playing", "the deal of this position is over: there is no move to hint")
        costly(request)
        view = state.view(state.to_act)  # The seat's view is the same whatever the seed orders of what it cannot see.
        try:
            result = await in_pool(hint_json, game.name, view, manager.config.hint_seconds, False)  # For an onlooker.
        except MustamaijaError as e:
            raise ApiError("not_playing", f"no hint for this position: {e}") from None
        return {**checked, "hint": result}

    @app.post("/api/positions/play", tags=["positions"], status_code=201)
    async def play(body: PlayBody) -> dict[str, Any]:
        """Create a table that plays the position out: you in ``seat``, bots in the others; one deal.

        The server sets the deal up with a seed nobody sees (a talon of unknown order is shuffled), and each
        seat sees only what the position says it knows. A rematch plays the same position, shuffled anew.
        """
        game = table_game(body.game)
        checked = check_position(game, _source(body))
        if checked["over"]:
            raise ApiError("bad_position", "the deal of this position is over: there is nothing to play")
        players = checked["players"]
        seat = checked["to_act"] if body.seat is None else body.seat
        if not 0 <= seat < players:
            raise ApiError("bad_request", f"'seat' must be a seat from 0 to {players - 1}, not {seat}")
        if body.bots is not None and len(body.bots) != players:
            raise ApiError("bad_request", f"'bots' lists {len(body.bots)} seats, but the position has {players}")
        seats: list[dict[str, Any]] = []
        for s in range(players):
            if s == seat:
                seats.append({"kind": "person"})
            else:
                seats.append({"kind": "bot", "bot": body.bots[s] if body.bots is not None else body.bot})
        data = {"game": game.name, "position": checked["position"], "seats": seats, "preset": body.preset,
                "hints": body.hints, "private": body.private, "player_name": body.player_name,
                "player_key": body.player_key, "name": "a position"}
        table, sat, token = manager.create({k: v for k, v in data.items() if v is not None})
        await manager.settled()
        url = None if sat is None or token is None else f"/t/{table.id}#seat={sat}&token={token}"
        return {"table": table.meta(), "seat": sat, "token": token, "url": url, "text": checked["text"]}
