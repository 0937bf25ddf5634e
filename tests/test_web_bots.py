"""Bots at web tables, for every game: levels, checks, and choices made off the event loop (threads or processes)."""

from __future__ import annotations

import asyncio

import pytest

from mustamaija.core.protocol import Game
from mustamaija.core.registry import games, get_game
from mustamaija.web.bots import BotRunner, bot_action, cheap_action, check_bot, is_cheap, levels_json
from mustamaija.web.errors import ApiError
from mustamaija.workers import WorkerPool, pool_processes

GAMES = [g.name for g in games()]
SEARCH = {"mustamaija": "ismcts:iters=30", "black-maria": "pimc:samples=2"}


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> Game:
    return get_game(request.param)


def test_levels_and_checks(game: Game) -> None:
    levels = levels_json(game)
    assert [lv["level"] for lv in levels["levels"]] == ["easy", "medium", "hard", "expert"]
    assert [lv["spec"] for lv in levels["levels"]][:2] == ["random", "heuristic"]
    assert "heuristic" in levels["bots"] and "random" in levels["bots"]
    assert check_bot(" medium ", game) == "medium" and check_bot("heuristic", game) == "heuristic"
    for bad in ("", "nobody", "open-hand", 3, "x" * 300):
        with pytest.raises(ApiError) as info:
            check_bot(bad, game)
        assert info.value.code == "bad_bot"
    with pytest.raises(ApiError) as info:
        check_bot("nobody", game)
    assert "a table's bots are a level (easy, medium, hard, expert) or a bot of this server" in info.value.message


@pytest.mark.parametrize("spec, words", [
    ("pimc:time=100000", "time may be at most 2.0"),
    ("pimc:iters=1000000", "iters may be at most 5000"),
    ("pimc:samples=0", "samples may be at most"),
    ("pimc:workers=8", "may set only"),
    ("pimc:time=true", "time may be at most"),
    ("mustamaija.players.random:RandomPlayer", "a bot of this server"),
    ("os:system", "a bot of this server"),
])
def test_a_client_cannot_buy_a_long_think_or_load_code(game: Game, spec: str, words: str) -> None:
    with pytest.raises(ApiError) as info:
        check_bot(spec, game)
    assert info.value.code == "bad_bot" and words in info.value.message
    assert check_bot("pimc:time=1", game) == "pimc:time=1"
    assert check_bot("pimc:time=100", game, {"time": 120.0}) == "pimc:time=100"  # A server may allow more.


def test_a_bot_plays_one_legal_compound_action_from_its_views(game: Game) -> None:
    record = game.record_of(game.deal(3, seed=8))
    state = record.start()
    for seed in range(5):
        body = bot_action(game.name, record.to_json(), state.to_act, "medium", seed)
        action = game.action_from_json(body, 3)
        assert action.seat == state.to_act and state.can_play(action)


def test_cheap_bots_choose_at_once_and_search_bots_in_processes(game: Game) -> None:
    record = game.record_of(game.deal(3, seed=3))
    state = record.start()
    before = state.copy()
    for level in ("easy", "medium"):
        assert is_cheap(level, game)
        action = cheap_action(game, state, level, 1)
        assert action.seat == state.to_act and state.can_play(action)
    assert state == before  # The bot played its steps on a copy.
    assert not is_cheap(SEARCH[game.name], game)
    runner = BotRunner(workers=1)
    try:
        searched = asyncio.run(runner.choose(game.name, record.to_json(), state.to_act, SEARCH[game.name], 1))
        pool = runner._processes
        assert isinstance(pool, WorkerPool)
        workers = pool_processes(pool.executor, pool.spared)
        assert len(workers) == 1 and workers[0].is_alive()
    finally:
        runner.close()
    assert runner._processes is None and not workers[0].is_alive() and workers[0].exitcode is not None
    assert state.can_play(game.action_from_json(searched, 3))
