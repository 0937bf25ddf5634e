"""Make the screenshots of the docs: ``python -m mustamaija.tui.screenshots docs/screenshots``.

Each screen is driven by keyboard through Textual's pilot, as the tests do,
and saved as SVG: the table mid-deal (a defence being chosen), a hint, the
end of a deal, a three-player puzzle refuted, a replay and the setup form.
"""

from __future__ import annotations

import asyncio
import os
import sys

from mustamaija.games.mustamaija.legality import BEATERS
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.state import DEFEND
from mustamaija.tui.app import DealOverScreen, GameScreen, HintScreen, MustamaijaApp
from mustamaija.tui.puzzles import load_puzzles
from mustamaija.tui.session import GameSession, MatchConfig

SIZE = (120, 40)


async def _wait(pilot: object, cond: object, limit: int = 2000) -> None:
    for _ in range(limit):
        if callable(cond) and cond():
            return
        await pilot.pause(0.02)  # type: ignore[attr-defined]
    raise TimeoutError("the screen did not get there")


async def table(out: str) -> Record:
    """The table during a defence, a beater chosen; then the end of the deal."""
    s = GameSession(MatchConfig(players=4, bots=("medium",), seed=7, deals=3))
    app = MustamaijaApp(session=s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        shot = False
        while True:
            await _wait(pilot, lambda: s.human_to_act or isinstance(app.screen, DealOverScreen))
            if isinstance(app.screen, DealOverScreen):
                app.save_screenshot("deal-over.svg", out)
                break
            screen = app.screen
            assert isinstance(screen, GameScreen)
            st = s.state
            n = st.nlog
            if not shot and st.turns >= 6 and st.phase == DEFEND and screen.selection.target >= 0:
                beaters = st.hands[0] & BEATERS[st.trump][screen.selection.target]
                order = screen.selection.order
                want = next((i for i, c in enumerate(order) if beaters >> c & 1), None)
                if want is not None:
                    await pilot.press(*["right"] * ((want - screen.selection.cursor) % len(order)), "space")
                    app.save_screenshot("table.svg", out)
                    shot = True
            await pilot.press("enter")
            await _wait(pilot, lambda n=n: s.state.nlog > n)
        return s.record()


async def hint(out: str) -> None:
    """The hint dialog: the search bot's move and its statistics (a fixed number of playouts, so reproducible)."""
    s = GameSession(MatchConfig(players=4, bots=("medium",), seed=7, deals=3))
    app = MustamaijaApp(session=s, pace=0, hint_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        while s.state.turns < 2 or not s.human_to_act:  # A few turns in, so that the memory panel has news.
            await _wait(pilot, lambda: s.human_to_act)
            if s.state.turns >= 2:
                break
            n = s.state.nlog
            await pilot.press("enter")
            await _wait(pilot, lambda n=n: s.state.nlog > n)
        await pilot.press("f2")
        await _wait(pilot, lambda: isinstance(app.screen, HintScreen))
        await pilot.pause(0.2)
        app.save_screenshot("hint.svg", out)


async def puzzle(out: str) -> None:
    """A three-player puzzle after a wrong first lead: the refutation in the log."""
    puzzles = load_puzzles()
    index = next(i for i, p in enumerate(puzzles) if len(p.hands) == 3)
    p = puzzles[index]
    app = MustamaijaApp(puzzles=puzzles, puzzle_index=index)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        wrong = next(lead for lead in p.start().legal_leads() if lead.cards not in p.solution)
        screen = app.screen
        screen.act(wrong)  # type: ignore[attr-defined]
        await pilot.pause(0.2)
        app.save_screenshot("puzzle.svg", out)


async def replay(out: str, record: Record) -> None:
    """A saved deal being stepped through, every hand shown."""
    app = MustamaijaApp(record=record, record_title="deal.json")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        await pilot.press(*["right"] * 9)
        await pilot.pause(0.2)
        app.save_screenshot("replay.svg", out)


async def setup(out: str) -> None:
    """The setup form."""
    app = MustamaijaApp(setup=MatchConfig(players=4, seed=7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        app.save_screenshot("setup.svg", out)


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots into the directory given (default ``docs/screenshots``)."""
    args = sys.argv[1:] if argv is None else argv
    out = args[0] if args else os.path.join("docs", "screenshots")
    os.makedirs(out, exist_ok=True)
    record = asyncio.run(table(out))
    asyncio.run(hint(out))
    asyncio.run(puzzle(out))
    asyncio.run(replay(out, record))
    asyncio.run(setup(out))
    print(f"screenshots written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
