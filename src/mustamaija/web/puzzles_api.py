"""The puzzle page's API: the list of a game's endgame puzzles, a puzzle's position, and moves judged by its solver.

``GET /api/puzzles`` lists them, ``GET /api/puzzles/{id}`` gives a puzzle's
position as the table draws it, and ``POST /api/puzzles/{id}/moves`` takes
the whole list of the player's moves so far: the server keeps nothing
between calls, replays the moves from the puzzle's start and answers with
the verdict, the others' reply and, once the puzzle is over (or when asked),
the solution (docs/web.md, "Puzzles"). Only the puzzles a game ships are
served, so the solver's work a request can cause is bounded; it runs in the
search pool, one puzzle request at a time, never in the event loop, and each
answer is kept, so a line of moves is judged once.

A game offers puzzles through its web renderer's ``puzzles``: the
``module:attribute`` of an object satisfying :class:`PuzzleService`, which
refuses a request by raising an error with a ``code`` of
:data:`~mustamaija.web.errors.STATUS` (and a ``rule`` for an illegal move).
This module names no game.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any, Final, Protocol, runtime_checkable

from fastapi import FastAPI, Query
from fastapi import Path as ApiPath
from pydantic import BaseModel, ConfigDict, Field

from mustamaija.core.protocol import Game
from mustamaija.core.registry import load_target
from mustamaija.web.errors import STATUS, ApiError
from mustamaija.web.live import table_game
from mustamaija.web.manager import TableManager
from mustamaija.web.renderer import renderer_of
from mustamaija.web.shared_work import SharedWork

__all__ = ["MAX_MOVES", "PostMoves", "PuzzleService", "judge_moves", "register_puzzles", "service_of"]

MAX_MOVES: Final = 40
"""The most moves a request may hold (a puzzle takes far fewer)."""
_KEEP_ANSWERS: Final = 4096
"""Answers kept, by game, puzzle and line of moves."""
_MAX_KEY: Final = 4096
"""Answers to requests longer than this (as JSON) are not kept: a real line of moves is far shorter."""
_MAX_WAITING: Final = 16
"""Puzzle requests waiting for the search pool at once; more are asked to come back in a moment."""
_POOL_KEY: Final = "puzzles"
"""The search pool's key for puzzle requests: they take their turns with the tables' searches, one at a time."""


@runtime_checkable
class PuzzleService(Protocol):
    """What a game's puzzles give the page: a list, positions, and judged lines of moves (docs/web.md, "Puzzles")."""

    layout: str
    """The browser layout that draws a position (``static/js/layouts/<layout>.js``)."""

    def catalogue(self) -> list[dict[str, Any]]:
        """Return the puzzles: ``id``, ``key``, ``title``, ``level``, ``source``, ``origin``, ``note``, ``players``."""

    def position(self, puzzle_id: str) -> dict[str, Any]:
        """Return the puzzle and its starting position: ``puzzle``, ``layout``, ``rules``, ``state``, ``hands``."""

    def answer(self, puzzle_id: str, moves: Sequence[object], solution: bool = False) -> dict[str, Any]:
        """Replay the moves from the start; return the status, the verdict, the reply and maybe the solution."""


_SERVICES: dict[str, PuzzleService] = {}


def service_of(game: Game) -> PuzzleService | None:
    """Return the puzzles of ``game`` (its web renderer's ``puzzles``), or None if it has none.

    >>> from mustamaija.core.registry import games
    >>> found = [service_of(g) for g in games()]
    >>> any(found), None in found, all(s.catalogue() for s in found if s)
    (True, True, True)
    """
    target = _target(game)
    return _load(target) if target else None


def _target(game: Game) -> str | None:
    target = getattr(renderer_of(game), "puzzles", None)
    return target if isinstance(target, str) and target else None


def _load(target: str) -> PuzzleService:
    found = _SERVICES.get(target)
    if found is None:
        obj = load_target(target, "SERVICE")
        if not isinstance(obj, PuzzleService):
            raise TypeError(f"{target} is not a puzzle service (see mustamaija.web.puzzles_api.PuzzleService)")
        found = _SERVICES[target] = obj
    return found


def _refusal(e: Exception) -> dict[str, Any]:
    """Return an error the service raised as the API's error object (an unknown kind of error is the server's fault)."""
    code = getattr(e, "code", None)
    if not isinstance(code, str) or code not in STATUS:
        raise e
    rule = getattr(e, "rule", None)
    return {"error": {"code": code, "message": str(e), **({"rule": rule} if isinstance(rule, str) else {})}}


def judge_moves(target: str, puzzle_id: str, moves: list[Any], solution: bool) -> dict[str, Any]:
    """Return the service's answer to a line of moves, or its refusal as an error object (in a worker process)."""
    try:
        return {"answer": _load(target).answer(puzzle_id, moves, solution)}
    except ValueError as e:
        try:
            return _refusal(e)
        except ValueError:
            # An error of the service's own making: told as it is, since an exception class that cannot be
            # pickled back from the worker would break the pool for every table.
            raise RuntimeError(f"{type(e).__name__}: {e}") from None


class PostMoves(BaseModel):
    """Your moves so far in a puzzle, from its start: record actions without the seat (docs/web.md, "Puzzles")."""

    model_config = ConfigDict(extra="forbid", strict=True)
    moves: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_MOVES,
                                        description="your moves from the start, such as {\"lead\": [\"9H\", \"4H\"]}")
    solution: bool = Field(default=False, description="also send the solution while the puzzle is still on")


PuzzleId = Annotated[str, ApiPath(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$",
                                  description="a puzzle's id (GET /api/puzzles)")]
GameName = Annotated[str | None, Query(max_length=60, description="the game (default: the default game)")]


def register_puzzles(app: FastAPI, manager: TableManager) -> None:
    """Add the puzzle API's routes to ``app``; solver work goes to ``manager``'s search pool."""
    answers: SharedWork[str, dict[str, Any]] = SharedWork(
        _KEEP_ANSWERS, _MAX_WAITING, "the server is judging many puzzle moves already: try again in a moment")

    def service(game: str | None) -> tuple[Game, PuzzleService, str]:
        g = table_game(game)
        target = _target(g)
        if target is None:
            raise ApiError("not_found", f"{g.title} has no puzzles")
        return g, _load(target), target

    def checked(result: dict[str, Any]) -> dict[str, Any]:
        if "error" in result:
            err = result["error"]
            raise ApiError(err["code"], err["message"], rule=err.get("rule"))
        out: dict[str, Any] = result["answer"]
        return out

    @app.get("/api/puzzles", tags=["puzzles"])
    async def list_puzzles(game: GameName = None) -> dict[str, Any]:
        """Return a game's endgame puzzles, easiest first: id, key, title, level, source (made or play), origin, note."""
        g, svc, _ = service(game)
        return {"game": g.name, "title": g.title, "layout": svc.layout, "puzzles": svc.catalogue()}

    @app.get("/api/puzzles/{puzzle_id}", tags=["puzzles"])
    async def get_puzzle(puzzle_id: PuzzleId, game: GameName = None) -> dict[str, Any]:
        """Return a puzzle and its position as the table draws it, every hand open (an endgame with every card known)."""
        g, svc, _ = service(game)
        try:
            return {"game": g.name, **svc.position(puzzle_id)}
        except ValueError as e:
            raise ApiError(**_refusal(e)["error"]) from None

    @app.post("/api/puzzles/{puzzle_id}/moves", tags=["puzzles"])
    async def post_moves(puzzle_id: PuzzleId, body: PostMoves, game: GameName = None) -> dict[str, Any]:
        """Judge your moves from the puzzle's start: the verdict on the last, the others' reply, and at the end the solution.

        Nothing is kept between calls: send the whole list of your moves each time. A malformed move is
        ``bad_request``, an illegal one ``illegal`` (with its rule), a move after the end ``not_playing``.
        """
        g, _, target = service(game)
        key = json.dumps([g.name, puzzle_id, body.moves, body.solution], sort_keys=True, separators=(",", ":"))
        keep = len(key) <= _MAX_KEY
        result = await answers.get(key, lambda: manager.runner.search(_POOL_KEY, judge_moves, target, puzzle_id,
                                                                     body.moves, body.solution), keep=keep)
        return checked(result)
