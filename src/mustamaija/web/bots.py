"""Bots at web tables: strength levels, spec checks, and running a bot's choice off the event loop.

A bot decides from the deal's record replayed in a worker: it is given
``view_of(state, seat)`` at every step, never the state, exactly as in the
tournament. The cheap bots (``random``, ``heuristic``) run in threads; the
search bots run in a process pool so their thinking never holds the event
loop or the interpreter lock.

>>> from mustamaija.games.mustamaija import Record
>>> rec = Record.from_seed(players=3, seed=1)
>>> bot_action(rec.to_json(), rec.start().to_act, "easy", seed=5)["seat"] == rec.start().to_act
True
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Final

from mustamaija.core.errors import MustamaijaError
from mustamaija.games.black_maria.record import is_record as is_bm_record
from mustamaija.games.mustamaija.record import Record
from mustamaija.players.levels import describe_bot, levels, make_player, resolve_level
from mustamaija.web.errors import ApiError

__all__ = ["CHEAP_BOTS", "BotRunner", "bot_action", "check_bot", "levels_json"]

CHEAP_BOTS: Final = ("random", "heuristic")
"""Bots quick enough to run in a thread."""


def check_bot(spec: object) -> str:
    """Return a bot level or spec if a bot can be made from it; otherwise raise ``bad_bot``."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 200:
        raise ApiError("bad_bot", f"a bot must be a level ({', '.join(levels())}) or a bot spec, not {spec!r}")
    try:
        make_player(spec, 0)
    except (MustamaijaError, ImportError, TypeError, ValueError) as e:
        raise ApiError("bad_bot", f"bad bot {spec!r}: {e}") from None
    return spec.strip()


def levels_json() -> dict[str, Any]:
    """Return the bot levels and the registered bot names for ``GET /api/bots``."""
    from mustamaija.players.registry import bot_names

    return {
        "levels": [{"level": k, "spec": v, "label": describe_bot(k)} for k, v in levels().items()],
        "bots": bot_names(),
    }


def bot_action(record: dict[str, Any], seat: int, spec: str, seed: int) -> dict[str, Any]:
    """Return the next compound action (record JSON) the bot ``spec`` plays for ``seat`` in the deal ``record``.

    The bot acts step by step on views of a replayed copy of the deal until
    one compound action is complete.
    """
    if is_bm_record(record):
        from mustamaija.web.bm import bot_action as bm_bot_action

        return bm_bot_action(record, seat, spec, seed)
    state = Record.from_json(record).replay()
    if state.is_over or state.to_act != seat:
        raise MustamaijaError(f"seat {seat} is not to act in this deal")
    player = make_player(spec, seed)
    start = state.nlog
    while state.nlog == start:
        state.apply(player.act(state.view(seat)))
    return state.actions()[-1].to_json()


class BotRunner:
    """Runs bot choices in a thread pool (cheap bots) or a process pool (search bots)."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self._threads: ThreadPoolExecutor | None = None
        self._processes: ProcessPoolExecutor | None = None

    def _executor(self, spec: str) -> Executor:
        if resolve_level(spec).partition(":")[0].removeprefix("bm-") in CHEAP_BOTS:
            if self._threads is None:
                self._threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="mustamaija-bot")
            return self._threads
        if self._processes is None:
            # Spawn, not fork: the server has threads, and a forked child would inherit their locks.
            self._processes = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._processes

    async def choose(self, record: dict[str, Any], seat: int, spec: str, seed: int) -> dict[str, Any]:
        """Return the bot's next action without blocking the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(spec), bot_action, record, seat, spec, seed)

    async def run(self, func: Any, *args: Any) -> Any:
        """Run another slow function (a hint) in the thread pool."""
        loop = asyncio.get_running_loop()
        if self._threads is None:
            self._threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="mustamaija-bot")
        return await loop.run_in_executor(self._threads, func, *args)

    def close(self) -> None:
        """Stop the pools (running choices are abandoned)."""
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
