"""The Black Maria table driven by keyboard through Textual's pilot: passing, a whole hand, errors, saving."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from mustamaija.core.cards import card_name, card_symbol, cards_of
from mustamaija.games.black_maria.record import Record
from mustamaija.tui.bm_app import BlackMariaApp, BmScreen, HandOverScreen
from mustamaija.tui.bm_session import BmConfig, BmGame

SIZE = (120, 40)
CARD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


async def until(pilot: object, cond: Callable[[], bool], timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out waiting for the game"
        await pilot.pause(0.02)  # type: ignore[attr-defined]


async def type_line(pilot: object, text: str) -> None:
    """Type a line into the command line, key by key, and press Enter."""
    await pilot.press(*[{" ": "space"}.get(ch, ch) for ch in text], "enter")  # type: ignore[attr-defined]


def shown_hand(app: BlackMariaApp) -> list[str]:
    return CARD.findall(app.screen.query_one("#hand").text)  # type: ignore[attr-defined]


def expected_hand(g: BmGame) -> list[str]:
    """The person's hand by suit ♠ ♥ ♣ ♦, low to high, worked out here independently of the screen."""
    suit_order = {0: 0, 1: 1, 3: 2, 2: 3}
    cards = sorted(cards_of(g.state.hands[g.human]), key=lambda c: (suit_order[c // 13], c % 13))
    return [card_symbol(c) for c in cards]


def message(app: BlackMariaApp) -> str:
    screen = app.screen
    assert isinstance(screen, BmScreen)
    return screen.last_message


def game(**kw: object) -> BmGame:
    settings: dict[str, object] = {"players": 4, "bots": ("heuristic",), "seed": 7, "hands": 1, "target_score": None}
    settings.update(kw)
    return BmGame(BmConfig(**settings))  # type: ignore[arg-type]


async def pass_by_keys(pilot: object, app: BlackMariaApp, g: BmGame) -> None:
    """Choose the first pass_count cards of the hand with space and the arrows, then Enter."""
    k = g.state.pass_count
    keys = []
    for i in range(k):
        keys += (["right"] if i else []) + ["space"]
    await pilot.press(*keys)  # type: ignore[attr-defined]
    screen = app.screen
    assert isinstance(screen, BmScreen)
    assert screen.chosen.bit_count() == k
    await pilot.press("enter")  # type: ignore[attr-defined]


def test_the_passing_screen_hides_what_you_receive_until_everyone_has_passed() -> None:
    async def go() -> None:
        g = game(players=5, seed=11)
        dealer = g.state.dealer
        order = [(dealer + 1 + i) % 5 for i in range(5)]
        assert order.index(g.human) < 4, "the person should not pass last in this deal"
        app = BlackMariaApp(g, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: g.human_to_act)
            screen = app.screen
            assert isinstance(screen, BmScreen)
            seen: list[tuple[int, str, str]] = []
            draw = screen.redraw

            def spy() -> None:
                draw()
                seen.append((g.state.npassed, screen.query_one("#hand").text,  # type: ignore[attr-defined]
                             screen.query_one("#table").text))  # type: ignore[attr-defined]

            screen.redraw = spy  # type: ignore[method-assign]
            before = set(shown_hand(app))
            assert shown_hand(app) == expected_hand(g)
            assert "0 of 5 have passed" not in screen.query_one("#table").text  # type: ignore[attr-defined]
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


def test_a_complete_hand_by_keyboard() -> None:
    async def go() -> None:
        g = game(seed=3)
        app = BlackMariaApp(g, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            plays = 0
            while True:
                await until(pilot, lambda: g.human_to_act or isinstance(app.screen, HandOverScreen))
                if isinstance(app.screen, HandOverScreen):
                    break
                await pilot.pause(0.05)
                assert shown_hand(app) == expected_hand(g)
                n = g.state.nlog
                if g.state.phase == 0:
                    await pass_by_keys(pilot, app, g)
                else:
                    view = g.view()
                    # The legal cards are the bright ones, and Enter plays one of them.
                    assert "Enter: play" in app.screen.query_one("#preview").render().plain  # type: ignore[attr-defined]
                    await pilot.press("enter")
                    plays += 1
                    assert g.state.nlog > n or g.hand_over
                    last = g.state.actions()[n]
                    assert last.seat == g.human and view.legal_mask() >> last.card & 1  # type: ignore[union-attr]
                await until(pilot, lambda n=n: g.state.nlog > n)
            assert plays == 13
            assert g.hand_over and g.game_over
            assert sum(g.table.totals) == 43
            assert any(line.startswith("Hand 1 over. Points:") for line in g.log)
            await pilot.press("enter")  # The game is over: leave.
            await until(pilot, lambda: app.return_code is not None)
        assert app.exit_note.startswith("Game over after 1 hand(s)")

    run(go)


def test_illegal_input_is_rejected_with_the_rule() -> None:
    async def go() -> None:
        g = game(seed=5, hands=2)
        app = BlackMariaApp(g, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: g.human_to_act)
            await type_line(pilot, "ZZ")
            assert "ZZ" in message(app)
            await pilot.press("escape")  # A refused line stays, to be corrected; Esc clears it.
            k = g.state.pass_count
            await type_line(pilot, " ".join(card_name(c) for c in cards_of(g.view().hand)[:k - 1]))
            assert message(app).startswith("B3:"), message(app)
            assert g.state.npassed < 4 or g.view().passed == 0
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
                    checked = True
                    await pilot.press("escape")
                n = g.state.nlog
                await pilot.press("enter")
                await until(pilot, lambda n=n: g.state.nlog > n)

    run(go)


def test_save_load_and_ctrl_c(tmp_path: Path) -> None:
    async def go() -> None:
        g = game(seed=9, hands=2)
        autosave = str(tmp_path / "auto.json")
        app = BlackMariaApp(g, pace=0, save_dir=str(tmp_path), autosave=autosave)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: g.human_to_act)
            await pass_by_keys(pilot, app, g)
            await until(pilot, lambda: g.human_to_act and g.state.phase == 1)
            await pilot.press("f5")
            assert message(app).startswith("✓ saved to"), message(app)
            saved = tmp_path / "black-maria-9-hand1.json"
            record = Record.load(saved)
            assert record.replay() == g.state
            assert record.extra["match"]["seed"] == 9
            n = g.state.nlog
            await pilot.press("enter")
            await until(pilot, lambda: g.state.nlog > n)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: app.return_code is not None)
        assert "Game saved to" in app.exit_note
        resumed = BmGame.load(autosave)
        assert resumed.state == g.state
        assert resumed.table.totals == g.table.totals and resumed.hand_no == 1
        assert resumed.human_to_act or resumed.bot_to_act

    run(go)


def test_a_resumed_game_plays_the_same_hands() -> None:
    # Saving mid-game and loading brings back the totals and the shuffles of the hands to come.
    def play(g: BmGame, stop: Callable[[BmGame], bool] | None = None) -> None:
        from mustamaija.games.black_maria.players import HeuristicPlayer
        from mustamaija.tui.bm_session import BotTurn

        me = HeuristicPlayer()
        while not g.game_over:
            if stop is not None and stop(g):
                return
            if g.hand_over:
                g.next_hand()
            elif g.bot_to_act:
                g.apply_bot(g.bot_job().run())
            else:
                choice = BotTurn(g.human, me, g.state.copy(), g.generation).run().choice
                g.act(choice if g.phase == "pass" else choice[-1])

    whole = game(seed=21, hands=3)
    play(whole)
    part = game(seed=21, hands=3)
    play(part, lambda g: g.hand_no == 2 and g.state.nlog > 10 and g.human_to_act)
    resumed = BmGame.from_record(part.record())
    assert resumed.state == part.state and resumed.table.totals == part.table.totals
    play(resumed)
    assert resumed.table.totals == whole.table.totals
    assert [r.points for r in resumed.table.results] == [r.points for r in whole.table.results][1:]
