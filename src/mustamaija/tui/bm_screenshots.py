"""Make the Black Maria screenshots of the docs: ``python -m mustamaija.tui.bm_screenshots docs/screenshots``.

The table is driven by keyboard through Textual's pilot, as the tests do:
the passing screen with three cards chosen (``bm-pass.svg``) and the table
in the middle of a trick, penalty cards taken (``bm-table.svg``).
"""

from __future__ import annotations

import asyncio
import os
import sys

from mustamaija.tui.bm_app import BlackMariaApp, BmScreen
from mustamaija.tui.bm_session import BmConfig, BmGame

SIZE = (120, 40)


async def _wait(pilot: object, cond: object, limit: int = 3000) -> None:
    for _ in range(limit):
        if callable(cond) and cond():
            return
        await pilot.pause(0.02)  # type: ignore[attr-defined]
    raise TimeoutError("the screen did not get there")


async def shots(out: str) -> None:
    """Play a seeded hand with the heuristic's hints, saving the passing screen and a trick in progress."""
    g = BmGame(BmConfig(players=4, bots=("medium", "hard", "medium"), seed=7, hands=3, target_score=None))
    app = BlackMariaApp(g, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await _wait(pilot, lambda: g.human_to_act)
        await pilot.press("right", "space", "right", "right", "space", "right", "right", "right", "space")
        await pilot.pause(0.2)
        app.save_screenshot("bm-pass.svg", out)
        await pilot.press("escape", "f2", "enter")
        while True:
            await _wait(pilot, lambda: g.human_to_act)
            v = g.view()
            if sum(v.tricks) >= 5 and len(v.trick) >= 2 and any(v.points()):
                break
            n = g.state.nlog
            await pilot.press("f2", "enter")
            await _wait(pilot, lambda n=n: g.state.nlog > n)
        screen = app.screen
        assert isinstance(screen, BmScreen)
        await pilot.pause(0.2)
        app.save_screenshot("bm-table.svg", out)


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots into the directory given (default ``docs/screenshots``)."""
    args = sys.argv[1:] if argv is None else argv
    out = args[0] if args else os.path.join("docs", "screenshots")
    os.makedirs(out, exist_ok=True)
    asyncio.run(shots(out))
    print(f"screenshots written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
