"""Bots at web tables: strength levels, spec checks, and running a bot's choice off the event loop.

A bot decides from the deal's record replayed in a worker: it is given
``state.view(seat)`` at every step, never the state, exactly as in the
tournament. Bots come from :func:`mustamaija.players.levels.make_player` for
the table's game, levels from :func:`~mustamaija.players.levels.levels`. The
cheap bots (``random``, ``heuristic``: a tenth of a millisecond a move) choose
at once on the event loop, from a copy of the live state; the search bots run
in a process pool so their thinking never holds the event loop or the
interpreter lock.

>>> from mustamaija.core.registry import games
>>> for game in games():
...     rec = game.record_of(game.deal(3, seed=1))
...     assert bot_action(game.name, rec.to_json(), rec.start().to_act, "easy", seed=5)["seat"] == rec.start().to_act
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Mapping
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import get_game
from mustamaija.players.levels import describe_bot, levels, make_player, resolve_level
from mustamaija.players.play import next_action
from mustamaija.players.registry import bot_names, parse_bot_spec
from mustamaija.web.config import MOVE_TIMEOUT, SEARCH_TIMEOUT
from mustamaija.web.errors import ApiError
from mustamaija.workers import WorkerPool

__all__ = ["CHEAP_BOTS", "BotRunner", "bot_action", "cheap_action", "check_bot", "fair_bots", "is_cheap", "levels_json"]

log = logging.getLogger("mustamaija.web")

CHEAP_BOTS: Final = ("random", "heuristic")
"""Bots quick enough to choose on the event loop: about 0.1 ms a move as a rule. The heuristic's exact play of small
two-seat endgames took at most 1.1 ms a move compiled, 7.7 ms in the pure build (a fresh player each move, as here, over
the endgames of 600 two-player deals)."""


BOT_BOUNDS: Final = {"time": 2.0, "iters": 5000, "samples": 100}
"""The default bounds of the budget parameters a client may give a bot: seconds, playouts, sampled deals."""


def check_bot(spec: object, game: Game, bounds: Mapping[str, float] = BOT_BOUNDS) -> str:
    """Return a bot level or spec of ``game`` if a fair bot can be made from it; otherwise raise ``bad_bot``.

    A client may name a level, or a registered bot of the game with budget parameters within ``bounds``:
    code named by a client (``module:Class``) is never loaded, and no table may buy a long think.

    >>> from mustamaija.core.registry import DEFAULT_GAME
    >>> check_bot("hard", get_game(DEFAULT_GAME)), check_bot("pimc:iters=500", get_game(DEFAULT_GAME))
    ('hard', 'pimc:iters=500')
    >>> check_bot("pimc:time=100000", get_game(DEFAULT_GAME))
    Traceback (most recent call last):
    ...
    mustamaija.web.errors.ApiError: bad bot 'pimc:time=100000': time may be at most 2.0 at this server
    """
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 200:
        raise ApiError("bad_bot", f"a {game.title} bot must be a level ({', '.join(levels(game))}) or a bot spec, "
                                  f"not {spec!r}")
    if spec.strip().lower() not in levels(game):
        _check_network_spec(spec.strip(), game, bounds)
    try:
        make_player(spec, 0, game)
    except (MustamaijaError, ImportError, TypeError, ValueError) as e:
        raise ApiError("bad_bot", f"bad bot {spec!r}: {e}") from None
    return spec.strip()


def _check_network_spec(spec: str, game: Game, bounds: Mapping[str, float]) -> None:
    try:
        parsed = parse_bot_spec(resolve_level(spec, game))
    except MustamaijaError as e:
        raise ApiError("bad_bot", f"bad bot {spec!r}: {e}") from None
    if parsed.name not in fair_bots(game) or ":" in parsed.name:
        raise ApiError("bad_bot", f"bad bot {spec!r}: a table's bots are a level ({', '.join(levels(game))}) or a "
                                  f"bot of this server ({', '.join(fair_bots(game))})")
    for key, value in parsed.params.items():
        if key not in bounds:
            raise ApiError("bad_bot", f"bad bot {spec!r}: a table may set only {', '.join(sorted(bounds))}, not {key!r}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= bounds[key]:
            raise ApiError("bad_bot", f"bad bot {spec!r}: {key} may be at most {bounds[key]} at this server")


def fair_bots(game: Game) -> list[str]:
    """Return the registered bots of ``game`` that may sit at a table: not those that see every card.

    >>> from mustamaija.core.registry import DEFAULT_GAME
    >>> names = fair_bots(get_game(DEFAULT_GAME))
    >>> "pimc" in names, [n for n in names if n.startswith("open-hand")]
    (True, [])
    """
    fair = []
    for name in bot_names(game):
        try:
            make_player(name, 0, game)
        except (MustamaijaError, ImportError, TypeError, ValueError):
            continue  # Open-hand, or needs parameters no client may give, or broken: not offered.
        fair.append(name)
    return fair


def levels_json(game: Game) -> dict[str, Any]:
    """Return the bot levels of ``game`` and the bots a table may seat (``GET /api/bots``, ``GET /api/games``)."""
    return {
        "levels": [{"level": k, "spec": v, "label": describe_bot(k, game)} for k, v in levels(game).items()],
        "bots": fair_bots(game),
    }


def bot_action(game_name: str, record: dict[str, Any], seat: int, spec: str, seed: int) -> dict[str, Any]:
    """Return the next compound action (record JSON) the bot ``spec`` plays for ``seat`` in the deal ``record``.

    The bot acts step by step on views of a replayed copy of the deal until
    one compound action is complete.
    """
    game = get_game(game_name)
    state = game.load_record(record).replay()
    if state.is_over or state.to_act != seat:
        raise MustamaijaError(f"seat {seat} is not to act in this deal")
    action: dict[str, Any] = next_action(state, make_player(spec, seed, game)).to_json()
    return action


def is_cheap(spec: str, game: str | Game) -> bool:
    """Return whether the bot ``spec`` chooses at once (on the event loop) rather than in the process pool.

    >>> from mustamaija.core.registry import DEFAULT_GAME
    >>> is_cheap("easy", DEFAULT_GAME), is_cheap("heuristic", DEFAULT_GAME), is_cheap("hard", DEFAULT_GAME)
    (True, True, False)
    """
    return resolve_level(spec, game).partition(":")[0] in CHEAP_BOTS


def cheap_action(game: Game, state: Any, spec: str, seed: int) -> Any:
    """Return the next compound action of the cheap bot ``spec`` for the seat to act, from its views of a copy of ``state``."""
    return next_action(state, make_player(spec, seed, game))


class BotRunner:
    """Runs searches (search bots and hints) in a process pool.

    Each table has at most one search in the process pool at a time, so the pool's queue takes the
    tables in turn and no table can starve another, however many hints or bots it asks for.
    """

    def __init__(self, workers: int = 1, timeout: float = SEARCH_TIMEOUT, move_timeout: float = MOVE_TIMEOUT) -> None:
        self.workers = max(1, workers)
        self.timeout = timeout
        """Seconds of wall-clock time a search may run before its pool is taken for stuck (:meth:`search`)."""
        self.move_timeout = min(move_timeout, timeout)
        """The same for a search bot's move (:meth:`choose`), which is bounded far more tightly than a review's."""
        self._processes: WorkerPool | None = None
        self._turns: dict[str, tuple[asyncio.Lock, int]] = {}  # A table's lock, and the searches using it.
        self._tags = itertools.count()
        self._began: dict[int, float | None] = {}  # The searches waited for: when this process heard a worker begin it.

    def _process_pool(self) -> WorkerPool:
        if self._processes is None:
            self._processes = WorkerPool(self.workers, starts=True)
        return self._processes

    async def choose(self, game: str, record: dict[str, Any], seat: int, spec: str, seed: int,
                     table: str = "") -> dict[str, Any]:
        """Return a search bot's next action in a deal of ``game`` (record JSON), thought out in the process pool."""
        result: dict[str, Any] = await self.search(table, bot_action, game, record, seat, spec, seed,
                                                   timeout=self.move_timeout)
        return result

    async def search(self, table: str, func: Any, *args: Any, timeout: float | None = None) -> Any:
        """Run a search (a search bot's choice, a hint) for ``table`` in the process pool, one at a time per table.

        A worker that died (killed by the system for memory, say) breaks the whole pool, and every later search
        would fail with it: the broken pool is stopped and a new one started, and the search is run once more.
        A search still running after ``timeout`` seconds (default :attr:`timeout`) means a stuck worker, which would
        hold its table (and, with one worker, every table) for good: its pool is stopped and replaced, and the search
        raises ``TimeoutError`` (the searches of other tables in that pool run once more in the new one). The time
        counts from when a worker begins the search, as the worker tells, not while it waits behind other tables'
        searches, so a busy server's queue is never taken for a stuck worker.
        """
        limit = self.timeout if timeout is None else timeout
        turn, count = self._turns.get(table) or (asyncio.Lock(), 0)
        self._turns[table] = (turn, count + 1)
        try:
            async with turn:
                pool = self._process_pool()
                try:
                    return await self._run(pool, limit, func, *args)
                except BrokenProcessPool:
                    self._replace(pool, "a search worker died")
                    return await self._run(self._process_pool(), limit, func, *args)
        finally:
            turn, count = self._turns[table]
            if count <= 1:  # Forget idle tables, so that finished ones leave nothing behind.
                del self._turns[table]
            else:
                self._turns[table] = (turn, count - 1)

    async def _run(self, pool: WorkerPool, limit: float, func: Any, *args: Any) -> Any:
        """Return ``func(*args)`` run in ``pool``; past ``limit`` seconds of running, replace the pool and raise."""
        tag = next(self._tags)
        self._began[tag] = None
        waiting = asyncio.wrap_future(pool.submit_reported(tag, func, *args))
        # Once given up on, its outcome (the error of a stopped worker, say) is read, so that nobody is warned of it.
        waiting.add_done_callback(lambda f: f.cancelled() or f.exception())
        watch = min(1.0, limit / 4)
        try:
            while True:
                done, _ = await asyncio.wait({waiting}, timeout=watch)
                if done:
                    return waiting.result()
                now = time.monotonic()
                for begun in pool.started():
                    if begun in self._began:  # Not a search that ended before anyone heard it begin.
                        self._began[begun] = now
                began = self._began.get(tag)
                if began is not None and now - began > limit:
                    self._replace(pool, f"a search ran past {limit:g} s")
                    raise TimeoutError(f"the search ran past {limit:g} s: its worker was stopped")
        finally:
            self._began.pop(tag, None)

    def _replace(self, broken: WorkerPool, why: str) -> None:
        """Stop a broken pool, unless another search has replaced it already; the next search starts a new one."""
        if self._processes is broken:
            log.warning("%s: its pool is replaced", why)
            self.close()

    def close(self) -> None:
        """Stop the pool: queued work is dropped, and search workers are stopped, not waited for."""
        if self._processes is not None:
            # A worker deep in a search would keep the server process waiting for it at exit.
            self._processes.stop()
            self._processes = None
            self._began.clear()  # Tags of the stopped pool's searches, told or not: none will end here now.
