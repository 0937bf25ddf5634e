"""The Black Maria table driven by keyboard through Textual's pilot: what is its own (the passing, typed cards, tricks).

What every table shares (a whole deal by keyboard, saving, Ctrl-C, undo,
hints, the setup, replays) is tested for every game in ``test_tui_app.py``.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from mustamaija.core.cards import card_name, card_symbol, cards_of
from mustamaija.games.black_maria import Rules
from mustamaija.tui.app import GameScreen, TableApp
from mustamaija.tui.session import GameSession, MatchConfig

SIZE = (120, 40)
CARD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


async def until(pilot: Any, cond: Callable[[], bool], timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out waiting for the game"
        await pilot.pause(0.02)


async def type_line(pilot: Any, text: str) -> None:
    """Type a line into the command line, key by key, and press Enter."""
    await pilot.press(*[{" ": "space"}.get(ch, ch) for ch in text], "enter")


def shown_hand(app: TableApp) -> list[str]:
    return CARD.findall(app.screen.query_one("#hand").text)  # type: ignore[attr-defined]


def message(app: TableApp) -> str:
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen.last_message


def game(**kw: Any) -> GameSession:
    settings: dict[str, Any] = {"players": 4, "bots": ("heuristic",), "seed": 7, "rules": Rules(hands=1, target_score=None)}
    settings.update(kw)
    return GameSession(MatchConfig("black-maria", **settings))


async def pass_by_keys(pilot: Any, app: TableApp, g: GameSession) -> None:
    """Choose the first pass_count cards of the hand with space and the arrows, then Enter."""
    k = g.state.pass_count
    keys = []
    for i in range(k):
        keys += (["right"] if i else []) + ["space"]
    await pilot.press(*keys)
    screen = app.screen
    assert isinstance(screen, GameScreen)
    assert screen.choice.chosen.bit_count() == k
    preview = str(screen.query_one("#preview").render())
    assert preview.startswith("Enter: pass ") and preview.endswith(f" to {g.names[(g.human + 1) % g.n]}"), preview
    await pilot.press("enter")


def test_the_passing_screen_hides_what_you_receive_until_everyone_has_passed() -> None:
    async def go() -> None:
        g = game(players=5, seed=11)
        dealer = g.state.dealer
        order = [(dealer + 1 + i) % 5 for i in range(5)]
        assert order.index(g.human) < 4, "the person should not pass last in this deal"
        app = TableApp(session=g, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: g.human_to_act)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert screen.query_one("#table").border_title == "Passing"
            assert "choose 3 cards to pass to Aino" in str(screen.query_one("#hand").border_title)
            seen: list[tuple[int, str, str]] = []
            draw = screen.redraw

            def spy() -> None:
                draw()
                if g.view().passed:  # Between your pass and the exchange (choosing the cards redraws too).
                        seen.append((g.state.npassed, screen.query_one("#hand").text,  # type: ignore[attr-defined]
                                 screen.query_one("#table").text))  # type: ignore[attr-defined]

            screen.redraw = spy  # type: ignore[method-assign]
            before = set(shown_hand(app))
            await pass_by_keys(pilot, app, g)
            await until(pilot, lambda: g.state.phase == 1)
            await pilot.pause(0.1)
            passed = cards_of(g.view().passed)
            received = cards_of(g.view().received)
            assert len(passed) == len(received) == 3
            waiting = [(npassed, hand, table) for npassed, hand, table in seen if npassed < 5]
            assert waiting, "the screen was never drawn between your pass and the exchange"
            for _npassed, hand, table in waiting:
                # What you keep shows; what you receive does not, and nothing is marked new.
                assert set(CARD.findall(hand)) == before - {card_symbol(c) for c in passed}
                assert "new" not in hand
                assert "✓ you passed" in table
            # Once everyone has passed, the received cards are in the hand and marked.
            hand_text = screen.query_one("#hand").text  # type: ignore[attr-defined]
            assert {card_symbol(c) for c in received} <= set(CARD.findall(hand_text))
            assert hand_text.count("new") == len(received)
            suit_order = {0: 0, 1: 1, 3: 2, 2: 3}
            words = " ".join(card_symbol(c) for c in sorted(received, key=lambda c: (suit_order[c // 13], c % 13)))
            assert any(f"you receive {words} from " in line for line in g.log)

    run(go)


def test_illegal_input_is_rejected_with_the_rule() -> None:
    async def go() -> None:
        g = game(seed=5)
        app = TableApp(session=g, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: g.human_to_act)
            await type_line(pilot, "ZZ")
            assert "ZZ" in message(app)
            await pilot.press("escape")  # A refused line stays, to be corrected; Esc clears it.
            await pilot.press("enter")
            assert message(app).startswith("B3: choose 3 cards to pass"), message(app)
            k = g.state.pass_count
            await type_line(pilot, " ".join(card_name(c) for c in cards_of(g.view().hand)[:k - 1]))
            assert message(app).startswith("B3:"), message(app)
            assert g.view().passed == 0
            await pilot.press("escape")
            typed = cards_of(g.view().hand)[-k:]
            await type_line(pilot, " ".join(card_name(c) for c in typed))  # A typed pass.
            assert g.view().passed == sum(1 << c for c in typed)
            checked = False
            while not checked:
                await until(pilot, lambda: g.human_to_act)
                v = g.view()
                led = v.led
                if v.trick and v.hand & (0x1FFF << 13 * led) and v.hand & ~(0x1FFF << 13 * led):
                    off = next(c for c in cards_of(v.hand) if c // 13 != led)
                    n = g.state.nlog
                    await type_line(pilot, card_name(off).lower())
                    assert message(app).startswith("B4: seat 0 must follow suit"), message(app)
                    assert g.state.nlog == n  # Nothing was played.
                    await pilot.press("escape")
                    await type_line(pilot, "2C 3C")
                    assert "a play is one card" in message(app)
                    await pilot.press("escape")
                    await type_line(pilot, "legal")
                    assert message(app).startswith("legal: ") and all(card_symbol(c) in message(app) for c in
                                                                        cards_of(v.legal_mask() & v.hand))
                    checked = True
                n = g.state.nlog
                await pilot.press("enter")  # The cursor starts on a legal card: Enter always plays.
                await until(pilot, lambda n=n: g.state.nlog > n)

    run(go)


def test_the_last_trick_in_full() -> None:
    async def go() -> None:
        g = game(seed=3)
        app = TableApp(session=g, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            while sum(g.state.tricks) < 2 or not g.human_to_act:
                await until(pilot, lambda: g.human_to_act)
                if sum(g.state.tricks) >= 2:
                    break
                n = g.state.nlog
                if g.state.phase == 0:
                    await pass_by_keys(pilot, app, g)
                else:
                    await pilot.press("enter")
                await until(pilot, lambda n=n: g.state.nlog > n)
            table = app.screen.query_one("#table")
            assert "Last trick: " in table.text  # type: ignore[attr-defined]
            await pilot.press("f6")
            assert table.border_title == "Last trick"
            assert table.text.startswith(f"Last trick ({sum(g.state.tricks)}), led by ")  # type: ignore[attr-defined]
            await type_line(pilot, "last")
            assert table.border_title == "Trick"

    run(go)
