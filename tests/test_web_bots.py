"""Bots at web tables: levels, checks, and choices made off the event loop (threads, or processes for search)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from mustamaija.games.mustamaija.actions import action_from_json
from mustamaija.games.mustamaija.record import Record
from mustamaija.web.bots import BotRunner, bot_action, check_bot, levels_json
from mustamaija.web.errors import ApiError


def test_levels_and_checks() -> None:
    levels = levels_json()
    assert [lv["spec"] for lv in levels["levels"]][:2] == ["random", "heuristic"]
    assert check_bot(" medium ") == "medium" and check_bot("heuristic") == "heuristic"
    for bad in ("", "nobody", "open-hand", 3, "x" * 300):
        with pytest.raises(ApiError) as info:
            check_bot(bad)
        assert info.value.code == "bad_bot"


def test_a_bot_plays_one_legal_compound_action_from_its_views() -> None:
    record = Record.from_seed(players=3, seed=8)
    state = record.start()
    for seed in range(5):
        body = bot_action(record.to_json(), state.to_act, "medium", seed)
        action = action_from_json(body, 3)
        assert action.seat == state.to_act and state.can_play(action)


def test_cheap_bots_think_in_threads_and_search_bots_in_processes() -> None:
    record = Record.from_seed(players=2, seed=3)
    seat = record.start().to_act
    runner = BotRunner(workers=1)

    async def both() -> tuple[dict[str, object], dict[str, object]]:
        return (await runner.choose(record.to_json(), seat, "easy", 1),
                await runner.choose(record.to_json(), seat, "ismcts:iters=30", 1))

    try:
        cheap, searched = asyncio.run(both())
        assert isinstance(runner._threads, ThreadPoolExecutor)
        assert isinstance(runner._processes, ProcessPoolExecutor)
    finally:
        runner.close()
    state = record.start()
    for body in (cheap, searched):
        assert state.can_play(action_from_json(body, 2))
