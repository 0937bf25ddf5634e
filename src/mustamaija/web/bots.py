"""Bots at web tables: strength levels, spec checks, and running a bot's choice off the event loop.

A bot decides from the deal's record replayed in a worker: it is given
``state.view(seat)`` at every step, never the state, exactly as in the
tournament. Bots come from :func:`mustamaija.players.levels.make_player` for
the table's game, levels from :func:`~mustamaija.players.levels.levels`. The
cheap bots (``random``, ``heuristic``) run in threads; the search bots run in
a process pool so their thinking never holds the event loop or the
interpreter lock.

>>> from mustamaija.core.registry import games
>>> for game in games():
...     rec = game.record_of(game.deal(3, seed=1))
...     assert bot_action(game.name, rec.to_json(), rec.start().to_act, "easy", seed=5)["seat"] == rec.start().to_act
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Final

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import get_game
from mustamaija.players.levels import describe_bot, levels, make_player, resolve_level
from mustamaija.players.registry import bot_names, parse_bot_spec
from mustamaija.web.errors import ApiError

__all__ = ["CHEAP_BOTS", "BotRunner", "bot_action", "check_bot", "levels_json"]

CHEAP_BOTS: Final = ("random", "heuristic")
"""Bots quick enough to run in a thread."""


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
    if parsed.name not in bot_names(game) or ":" in parsed.name:
        raise ApiError("bad_bot", f"bad bot {spec!r}: a table's bots are a level ({', '.join(levels(game))}) or a "
                                  f"bot of this server ({', '.join(bot_names(game))})")
    for key, value in parsed.params.items():
        if key not in bounds:
            raise ApiError("bad_bot", f"bad bot {spec!r}: a table may set only {', '.join(sorted(bounds))}, not {key!r}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= bounds[key]:
            raise ApiError("bad_bot", f"bad bot {spec!r}: {key} may be at most {bounds[key]} at this server")


def levels_json(game: Game) -> dict[str, Any]:
    """Return the bot levels of ``game`` and its registered bot names (``GET /api/bots``, ``GET /api/games``)."""
    return {
        "levels": [{"level": k, "spec": v, "label": describe_bot(k, game)} for k, v in levels(game).items()],
        "bots": bot_names(game),
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
    player = make_player(spec, seed, game)
    done = len(state.actions())
    while len(state.actions()) == done:
        state.apply(player.act(state.view(seat)))
    action: dict[str, Any] = state.actions()[-1].to_json()
    return action


class BotRunner:
    """Runs bot choices in a thread pool (cheap bots) or a process pool (searches: search bots and hints).

    Each table has at most one search in the process pool at a time, so the pool's queue takes the
    tables in turn and no table can starve another, however many hints or bots it asks for.
    """

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self._threads: ThreadPoolExecutor | None = None
        self._processes: ProcessPoolExecutor | None = None
        self._turns: dict[str, tuple[asyncio.Lock, int]] = {}  # A table's lock, and the searches using it.

    def _thread_pool(self) -> ThreadPoolExecutor:
        if self._threads is None:
            self._threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="mustamaija-bot")
        return self._threads

    def _process_pool(self) -> ProcessPoolExecutor:
        if self._processes is None:
            # Spawn, not fork: the server has threads, and a forked child would inherit their locks.
            self._processes = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._processes

    async def choose(self, game: str, record: dict[str, Any], seat: int, spec: str, seed: int,
                     table: str = "") -> dict[str, Any]:
        """Return the bot's next action in a deal of ``game`` without blocking the event loop."""
        if resolve_level(spec, game).partition(":")[0] in CHEAP_BOTS:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._thread_pool(), bot_action, game, record, seat, spec, seed)
        result: dict[str, Any] = await self.search(table, bot_action, game, record, seat, spec, seed)
        return result

    async def search(self, table: str, func: Any, *args: Any) -> Any:
        """Run a search (a search bot's choice, a hint) for ``table`` in the process pool, one at a time per table."""
        turn, count = self._turns.get(table) or (asyncio.Lock(), 0)
        self._turns[table] = (turn, count + 1)
        try:
            async with turn:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self._process_pool(), func, *args)
        finally:
            turn, count = self._turns[table]
            if count <= 1:  # Forget idle tables, so that finished ones leave nothing behind.
                del self._turns[table]
            else:
                self._turns[table] = (turn, count - 1)

    def close(self) -> None:
        """Stop the pools: queued work is dropped, and search workers are stopped, not waited for."""
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            workers = list(getattr(self._processes, "_processes", {}).values())
            self._processes.shutdown(wait=False, cancel_futures=True)
            # A worker deep in a search would keep the server process waiting for it at exit.
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.join(5)
            self._processes = None
