"""The Textual screens driven by keyboard through Textual's pilot: the table, a whole deal, saving, undo, replays, puzzles."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from mustamaija.core.cards import card_name, card_symbol, cards_of
from mustamaija.games.mustamaija import Lead, State
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.state import DEFEND, LEAD
from mustamaija.players import RandomPlayer
from mustamaija.tui.app import DealOverScreen, GameScreen, HintScreen, MustamaijaApp, PuzzleScreen, ReplayScreen, SetupScreen, TextScreen
from mustamaija.tui.puzzles import load_puzzles
from mustamaija.tui.session import GameSession, MatchConfig

SIZE = (120, 40)
CARD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


async def moved(pilot: object, s: GameSession, n: int) -> None:
    """Wait until the deal has more than ``n`` actions."""
    await until(pilot, lambda: s.state.nlog > n)


async def until(pilot: object, cond: Callable[[], bool], timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out waiting for the game"
        await pilot.pause(0.02)  # type: ignore[attr-defined]


def hand_cards(app: MustamaijaApp) -> list[str]:
    return CARD.findall(app.screen.query_one("#hand").text)


def expected_hand(s: GameSession) -> list[str]:
    """The hand by suit (♠ ♥ ♣ ♦, trumps moved last), low to high, written out here independently."""
    order = [0, 1, 3, 2]
    if s.state.trump >= 0:
        order.remove(s.state.trump)
        order.append(s.state.trump)
    cards = sorted(cards_of(s.state.hands[s.human]), key=lambda c: (order.index(c // 13), c % 13))
    return [card_symbol(c) for c in cards]


def message(app: MustamaijaApp) -> str:
    screen = app.screen
    assert isinstance(screen, (GameScreen, PuzzleScreen))
    return screen.last_message


def new_session(**kw: object) -> GameSession:
    config = {"players": 3, "bots": ("easy",), "seed": 24, "deals": 1, **kw}
    return GameSession(MatchConfig(**config))  # type: ignore[arg-type]


async def type_line(pilot: object, text: str) -> None:
    """Type a line into the command line (which always has the keyboard) and press Enter."""
    await pilot.press(*[{" ": "space", ":": "colon", "/": "slash", "-": "minus"}.get(ch, ch) for ch in text],  # type: ignore[attr-defined]
                      "enter")


# -- the table -----------------------------------------------------------------------------------------


def test_the_table_shows_the_right_hand_and_the_seats() -> None:
    async def go() -> None:
        s = new_session(players=4, bots=("medium",), seed=7)
        app = MustamaijaApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            assert hand_cards(app) == expected_hand(s)
            seats = app.screen.query_one("#seats").text
            for name in ("You", "Aino", "Eero", "Helmi"):
                assert name in seats
            assert "attacks" in seats and "defends" in seats
            info = app.screen.query_one("#info").text
            assert "Trump" in info and f"{s.state.talon_size} cards" in info
            memory = app.screen.query_one("#memory").text
            assert "Known to be held" in memory
            svg = app.export_screenshot()
            assert "Your&#160;hand" in svg or "Your hand" in svg
            if s.state.phase == DEFEND:
                table = app.screen.query_one("#table").text
                assert all(card_symbol(c) in table for c in cards_of(s.state.led))

    run(go)


def test_illegal_input_is_rejected_with_the_rule() -> None:
    async def go() -> None:
        s = new_session()
        app = MustamaijaApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act and s.state.phase == LEAD)
            before = s.state.copy()
            foreign = next(c for c in range(52) if not s.state.hands[0] >> c & 1)
            await type_line(pilot, card_name(foreign).lower())
            assert message(app) == f"M10 (leading): you do not hold {card_name(foreign)}"
            assert "✗ M10 (leading)" in app.export_screenshot().replace("&#160;", " ")
            box = app.screen.query_one("#command")
            assert box.value == card_name(foreign).lower()  # Kept, to be corrected.
            await pilot.press("escape")
            await type_line(pilot, "9H:JH")
            assert "M10 (leading): you lead now" in message(app)
            await pilot.press("escape")
            await type_line(pilot, "ZZ")
            assert message(app) == "bad card 'ZZ': rank must be one of 2 3 4 5 6 7 8 9 T J Q K A (or 10)"
            await pilot.press("escape")
            # Choosing a second card of another suit with the keys is refused too.
            order = app.screen.selection.order  # type: ignore[attr-defined]
            first = order[0]
            other = next(i for i, c in enumerate(order) if c // 13 != first // 13)
            await pilot.press("space")
            await pilot.press(*["right"] * other, "space")
            assert message(app).startswith("M10 (leading): a lead must be all one suit")
            assert s.state == before and s.human_to_act

    run(go)


def test_a_complete_deal_by_keyboard() -> None:
    async def go() -> None:
        s = new_session()
        app = MustamaijaApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            leads = beats = 0
            while not isinstance(app.screen, DealOverScreen):
                await until(pilot, lambda: s.human_to_act or isinstance(app.screen, DealOverScreen))
                if isinstance(app.screen, DealOverScreen):
                    break
                n = s.state.nlog
                if s.state.phase == LEAD:
                    leads += 1
                    await pilot.press("enter")  # Lead the card under the cursor.
                else:
                    beats += 1
                    # Pair the first led card with the first card that beats it, if any; else pick up all.
                    await pilot.press("space")
                    await pilot.press("enter")
                await moved(pilot, s, n)
            assert s.state.finished and s.match.played == 1 and leads and beats
            over = app.screen.query_one("Static").render()
            assert "Mustamaija" in str(over)
            record = s.record()
            assert record.replay() == s.state
            assert any(isinstance(a, Lead) and a.seat == 0 for a in record.actions)
            await pilot.press("enter")  # The match is over: leave.
            await until(pilot, lambda: app.return_code is not None)
        assert "Match over after 1 deal(s)" in app.exit_note

    run(go)


def test_defending_by_keys_pairs_and_beats() -> None:
    async def go() -> None:
        s = new_session(players=2, seed=5, deals=1)
        app = MustamaijaApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            # Play until a defence where some card can beat the target.
            while True:
                await until(pilot, lambda: s.human_to_act)
                st = s.state
                screen = app.screen
                assert isinstance(screen, GameScreen)
                if st.phase == DEFEND and screen.selection.target >= 0:
                    from mustamaija.games.mustamaija.legality import BEATERS

                    beaters = st.hands[0] & BEATERS[st.trump][screen.selection.target]
                    if beaters:
                        break
                n = st.nlog
                await pilot.press("enter")
                await moved(pilot, s, n)
            target = screen.selection.target
            order = screen.selection.order
            want = next(i for i, c in enumerate(order) if beaters >> c & 1)
            cant = [i for i, c in enumerate(order) if not beaters >> c & 1]
            if cant:  # A card that cannot beat the marked led card is refused with the rule.
                await pilot.press(*["right"] * ((cant[0] - screen.selection.cursor) % len(order)), "space")
                assert message(app).startswith(("M13", "M2")), message(app)
            await pilot.press(*["right"] * ((want - screen.selection.cursor) % len(order)), "space")
            assert screen.selection.pairs.get(target) == order[want]
            assert f"beat {card_symbol(target)} with {card_symbol(order[want])}" in \
                str(app.screen.query_one("#preview").render())
            n = s.state.nlog
            await pilot.press("enter")
            await until(pilot, lambda: s.state.nlog > n)
            done = s.state.actions()[n]
            assert done.seat == 0 and (target, order[want]) in done.pairs  # type: ignore[union-attr]

    run(go)


# -- saving, loading, quitting -------------------------------------------------------------------------


def test_save_and_load_round_trip_through_the_screens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)

    async def play_and_save() -> GameSession:
        s = new_session(players=4, bots=("medium",), seed=7, deals=3)
        app = MustamaijaApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            n = s.state.nlog
            await pilot.press("enter")
            await until(pilot, lambda: s.human_to_act and s.state.nlog > n)
            await pilot.press("f5")
            assert message(app).startswith("✓ saved to mustamaija-7-deal1.json")
        return s

    saved = asyncio.run(play_and_save())
    path = tmp_path / "mustamaija-7-deal1.json"
    assert Record.load(path).replay() == saved.state

    async def resume() -> None:
        s = GameSession.load(str(path))
        assert s.state == saved.state and s.config.deals == 3 and s.names == saved.names
        app = MustamaijaApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            assert hand_cards(app) == expected_hand(saved)
            assert app.screen.query_one("#log").lines_written == saved.log  # type: ignore[attr-defined]

    run(resume)


def test_ctrl_c_saves_the_game_in_progress(tmp_path: Path) -> None:
    autosave = tmp_path / "auto.json"

    async def go() -> GameSession:
        s = new_session()
        app = MustamaijaApp(session=s, pace=0, autosave=str(autosave))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: app.return_code is not None)
        assert app.exit_note == f"Game saved to {autosave}. Resume with: mustamaija play --load {autosave}"
        return s

    s = asyncio.run(go())
    assert GameSession.load(str(autosave)).state == s.state


def test_undo_in_practice_and_refused_when_rated() -> None:
    async def go(rated: bool) -> None:
        s = new_session(rated=rated)
        app = MustamaijaApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            before = s.state.copy()
            await pilot.press("enter")
            await until(pilot, lambda: s.human_to_act and s.state.nlog > before.nlog)
            after = s.state.copy()
            await type_line(pilot, "u")
            if rated:
                assert message(app) == "undo is not available in rated matches"
                assert s.state == after
                await pilot.press("f2")
                assert message(app) == "hints are not available in rated matches"
            else:
                assert message(app).startswith("✓ took back: your lead of")
                assert s.state == before
                assert hand_cards(app) == expected_hand(s)

    asyncio.run(go(False))
    asyncio.run(go(True))


def test_hint_rules_and_help_dialogs() -> None:
    async def go() -> None:
        s = new_session()
        app = MustamaijaApp(session=s, pace=0, hint_seconds=0.1)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            await type_line(pilot, "hint")
            await until(pilot, lambda: isinstance(app.screen, HintScreen), timeout=30)
            hint = app.screen.hint  # type: ignore[attr-defined]
            assert hint.action is not None and s.state.can_play(hint.action)
            await pilot.press("enter")  # Choose it in the hand.
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            assert message(app).startswith("chosen: ")
            await pilot.press("f4")
            assert isinstance(app.screen, TextScreen) and app.screen.heading == "Rules"
            await pilot.press("escape")
            await pilot.press("question_mark")
            assert isinstance(app.screen, TextScreen) and app.screen.heading == "Help"
            await pilot.press("escape")
            n = s.state.nlog
            await pilot.press("enter")  # Play the hint.
            await until(pilot, lambda: s.state.nlog > n)
            assert s.state.actions()[n] == hint.action

    run(go)


def test_setup_screen_starts_a_match() -> None:
    async def go() -> None:
        app = MustamaijaApp(setup=MatchConfig(players=3, bots=("easy", "medium"), seed=5, deals=2), pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.1)
            assert isinstance(app.screen, SetupScreen)
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            s = app.session
            assert s is not None and s.config.players == 3 and s.config.bots == ("easy", "medium")
            assert s.config.seed == 5 and s.config.deals == 2 and s.labels[1:] == ["random", "heuristic"]

    run(go)


# -- replays and puzzles ----------------------------------------------------------------------------------


def test_replay_steps_forwards_and_backwards() -> None:
    st = State.from_seed(3, 4)
    bots = [RandomPlayer(seed=i) for i in range(3)]
    while not st.is_over:
        st.apply(bots[st.to_act].act(st.view(st.to_act)))
    record = Record.from_state(st)

    async def go() -> None:
        app = MustamaijaApp(record=record, record_title="test")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.1)
            screen = app.screen
            assert isinstance(screen, ReplayScreen) and screen.index == 0
            seats = screen.query_one("#seats").text
            for seat in range(3):  # Every hand is shown.
                assert all(card_symbol(c) in seats for c in cards_of(record.start().hands[seat]))
            await pilot.press("right", "right")
            assert screen.index == 2
            await pilot.press("left")
            assert screen.index == 1
            await pilot.press("end")
            assert screen.index == len(record.actions)
            assert "Mustamaija" in screen.query_one("#seats").text
            assert f"Seat {st.loser} is the Mustamaija." in str(screen.query_one("#message").render())
            await pilot.press("home")
            assert screen.index == 0

    run(go)


def test_a_puzzle_is_accepted_when_solved_and_refuted_when_not() -> None:
    puzzles = load_puzzles()
    p = puzzles[1]

    async def go() -> None:
        app = MustamaijaApp(puzzles=puzzles, puzzle_index=1)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.1)
            screen = app.screen
            assert isinstance(screen, PuzzleScreen) and screen.game.puzzle.id == p.id
            wrong = next(lead for lead in p.start().legal_leads() if lead.cards not in p.solution)
            await type_line(pilot, " ".join(card_name(c) for c in cards_of(wrong.cards)))
            assert screen.game.status == "failed"
            assert message(app).startswith("That first lead loses")
            assert "Refutation:" in screen.query_one("#log").lines_written  # type: ignore[attr-defined]
            await type_line(pilot, "r")
            assert screen.game.status == "solving"
            judge = screen.game.judge
            while screen.game.status == "solving":
                st = screen.game.state
                if st.phase == LEAD:
                    move = judge.safe_leads(st)[0]
                    text = " ".join(card_name(c) for c in cards_of(move.cards))
                else:
                    beat = judge.best_defence(st)
                    assert beat is not None
                    text = " ".join(f"{card_name(a)}:{card_name(b)}" for a, b in beat.pairs) or "take"
                await type_line(pilot, text)
            assert screen.game.status == "solved"
            assert message(app).startswith("✓ Solved")
            await pilot.press("escape")
            menu = app.screen
            assert p.id in menu.solved  # type: ignore[attr-defined]

    run(go)
