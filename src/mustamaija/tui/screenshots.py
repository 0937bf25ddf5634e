"""Make the screenshots of the docs: ``python -m mustamaija.tui.screenshots docs/screenshots``.

Each screen is driven through Textual's pilot, as the tests do, and saved
as SVG. Every game with a terminal table is played by its hints (a fixed
number of playouts, so the same on every machine) and shot where its
renderer says (:attr:`~mustamaija.tui.plugin.Renderer.screenshots`), the
hinted move chosen in the hand; the default game also gives the hint
dialog, the end of a deal, a replay and the setup form.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from typing import Any

from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME, get_game
from mustamaija.tui.app import DealOverScreen, GameScreen, HintScreen, TableApp
from mustamaija.tui.plugin import table_of
from mustamaija.tui.session import GameSession, MatchConfig
from mustamaija.tui.setup_screen import table_games

SIZE = (120, 40)


async def wait(pilot: Any, cond: Callable[[], bool], limit: int = 3000) -> None:
    """Wait until ``cond`` holds (the bots play in worker threads)."""
    for _ in range(limit):
        if cond():
            return
        await pilot.pause(0.02)
    raise TimeoutError("the screen did not get there")


async def _enter(pilot: Any, s: GameSession) -> None:
    """Press Enter and wait for the move it makes."""
    done = len(s.state.actions())
    await pilot.press("enter")
    await wait(pilot, lambda: len(s.state.actions()) > done)


async def table(game: Game, out: str) -> Any:
    """Play a seeded match of ``game`` by its hints, saving the renderer's shots (and, for the default game, the end)."""
    s = GameSession(MatchConfig(game.name, players=4, bots=("medium",), seed=7))
    shots = dict(s.plugin.renderer.screenshots)
    last = game.name == get_game(DEFAULT_GAME).name
    app = TableApp(session=s, pace=0, hint_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        while shots or last:
            await wait(pilot, lambda: s.human_to_act or isinstance(app.screen, DealOverScreen))
            if isinstance(app.screen, DealOverScreen):
                if last:
                    app.save_screenshot("deal-over.svg", out)
                break
            screen = app.screen
            assert isinstance(screen, GameScreen)
            hint = s.hint(0)
            screen.choice.preselect(s.state, s.human, hint.action)
            screen.redraw()
            for name, when in list(shots.items()):
                if when(s):
                    await pilot.pause(0.2)
                    app.save_screenshot(name, out)
                    del shots[name]
            await _enter(pilot, s)
        return s.record()


async def hint(out: str) -> None:
    """The hint dialog of the default game, a few moves into a deal."""
    s = GameSession(MatchConfig(players=4, bots=("medium",), seed=7))
    app = TableApp(session=s, pace=0, hint_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):  # A few moves in, so that the panels have news.
            await wait(pilot, lambda: s.human_to_act)
            await _enter(pilot, s)
        await wait(pilot, lambda: s.human_to_act)
        await pilot.press("f2")
        await wait(pilot, lambda: isinstance(app.screen, HintScreen))
        await pilot.pause(0.2)
        app.save_screenshot("hint.svg", out)


async def replay(out: str, record: Any) -> None:
    """A saved deal being stepped through, every hand shown."""
    app = TableApp(record=record, record_title="deal.json")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        await pilot.press(*["right"] * 9)
        await pilot.pause(0.2)
        app.save_screenshot("replay.svg", out)


async def setup(out: str) -> None:
    """The setup form."""
    app = TableApp(setup=MatchConfig(players=4, seed=7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        app.save_screenshot("setup.svg", out)


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots into the directory given (default ``docs/screenshots``)."""
    args = sys.argv[1:] if argv is None else argv
    out = args[0] if args else os.path.join("docs", "screenshots")
    os.makedirs(out, exist_ok=True)
    record = None
    for game in table_games():
        if table_of(game).renderer.screenshots or game.name == get_game(DEFAULT_GAME).name:
            played = asyncio.run(table(game, out))
            record = played if game.name == get_game(DEFAULT_GAME).name else record
    asyncio.run(hint(out))
    if record is not None:
        asyncio.run(replay(out, record))
    asyncio.run(setup(out))
    print(f"screenshots written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
