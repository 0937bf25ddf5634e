"""The Textual screens driven by keyboard through Textual's pilot, for every game with a terminal table.

The same screens, dialogs and commands serve every game: the tests that
do not depend on a game's moves run over all of them. The Mustamaija table's
own keys (defending, typed leads), replays and puzzles follow.
"""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from mustamaija.core.cards import card_name, card_symbol, cards_of
from mustamaija.core.registry import DEFAULT_GAME, get_game
from mustamaija.games.mustamaija.puzzles import load_puzzles
from mustamaija.games.mustamaija.puzzles.screen import PuzzleMenu, PuzzleScreen
from mustamaija.games.mustamaija.state import DEFEND, LEAD
from mustamaija.players import RandomPlayer
from mustamaija.tui.app import DealOverScreen, GameScreen, HintScreen, ReplayScreen, SetupScreen, TableApp, TextScreen
from mustamaija.tui.plugin import table_of
from mustamaija.tui.session import GameSession, MatchConfig
from mustamaija.tui.setup_screen import table_games

SIZE = (120, 40)
CARD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")
GAMES = [g.name for g in table_games()]


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


async def until(pilot: Any, cond: Callable[[], bool], timeout: float = 120.0) -> None:
    # A guard against a hang, not a speed test: a busy machine (the CI runs two workers) may be slow.
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out waiting for the game"
        await pilot.pause(0.02)


async def moved(pilot: Any, s: GameSession, n: int) -> None:
    """Wait until the deal has more than ``n`` actions."""
    await until(pilot, lambda: len(s.state.actions()) > n)


def hand_cards(app: TableApp) -> list[str]:
    return CARD.findall(app.screen.query_one("#hand").text)  # type: ignore[attr-defined]


def expected_hand(s: GameSession) -> list[str]:
    """The hand by suit (♠ ♥ ♣ ♦, trumps moved last), low to high, written out here independently."""
    order = [0, 1, 3, 2]
    trump = getattr(s.state, "trump", -1)
    if trump >= 0:
        order.remove(trump)
        order.append(trump)
    cards = sorted(cards_of(s.state.hands[s.human]), key=lambda c: (order.index(c // 13), c % 13))
    return [card_symbol(c) for c in cards]


def message(app: TableApp) -> str:
    screen = app.screen
    assert isinstance(screen, (GameScreen, PuzzleScreen))
    return screen.last_message


def new_session(game: str = DEFAULT_GAME, **kw: Any) -> GameSession:
    """Return a match of one deal of ``game`` (three seats where the game allows), easy bots."""
    g = get_game(game)
    rules, options = table_of(g).controller.one_deal(g.make_rules())
    config: dict[str, Any] = {"players": max(3, g.min_players), "bots": ("easy",), "seed": 24, "rules": rules,
                              "options": options, **kw}
    return GameSession(MatchConfig(game, **config))


async def type_line(pilot: Any, text: str) -> None:
    """Type a line into the command line (which always has the keyboard) and press Enter."""
    await pilot.press(*[{" ": "space", ":": "colon", "/": "slash", "-": "minus"}.get(ch, ch) for ch in text], "enter")


async def move_by_keys(pilot: Any, s: GameSession) -> None:
    """Make the person's move with the hand's keys: choose (a pass's cards, a beater) with space, then Enter."""
    n = len(s.state.actions())
    phase = s.state.phase_name
    if phase == "pass":
        keys: list[str] = []
        for i in range(s.state.pass_count):
            keys += (["right"] if i else []) + ["space"]
        await pilot.press(*keys)
    elif phase == "defend":
        await pilot.press("space")  # Pair the marked led card with the cursor's card, if it beats it.
    await pilot.press("enter")
    await moved(pilot, s, n)


# -- every game ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_table_shows_the_game_the_hand_and_the_named_bots(game: str) -> None:
    async def go() -> None:
        s = new_session(game, players=4, bots=("easy", "medium", "hard"), seed=7)
        app = TableApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert screen.title == get_game(game).title  # The header names the game.
            assert f"{s.controller.words.deal} 1" in screen.sub_title and "seed 7" in screen.sub_title
            assert hand_cards(app) == expected_hand(s)
            seats = screen.query_one("#seats").text  # type: ignore[attr-defined]
            for name in ("You", "Aino", "Eero", "Helmi", "bot 1 · easy", "bot 2 · medium", "bot 3 · hard"):
                assert name in seats
            assert app.screen.query_one("#log").lines_written == s.log  # type: ignore[attr-defined]
            svg = app.export_screenshot()
            assert "Your&#160;hand" in svg or "Your hand" in svg

    run(go)


@pytest.mark.parametrize("game", GAMES)
def test_a_complete_deal_by_keyboard(game: str) -> None:
    async def go() -> None:
        s = new_session(game)
        app = TableApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            moves = 0
            while True:
                await until(pilot, lambda: s.human_to_act or isinstance(app.screen, DealOverScreen))
                if isinstance(app.screen, DealOverScreen):
                    break
                assert hand_cards(app) == expected_hand(s)
                await move_by_keys(pilot, s)
                moves += 1
            assert s.result is not None and s.played == 1 and moves
            assert any(a.seat == s.human for a in s.state.actions())
            texts = " ".join(str(w.render()) for w in app.screen.query("Static"))
            assert f"{s.controller.words.deal.capitalize()} 1 played" in texts or "over:" in texts
            assert get_game(game).load_record(s.record().to_json()).replay() == s.state
            await pilot.press("enter")  # The match is over: leave.
            await until(pilot, lambda: app.return_code is not None)
        assert app.exit_note.startswith(f"{s.controller.words.match.capitalize()} over after 1 {s.controller.words.deal}(s)")

    run(go)


@pytest.mark.parametrize("game", GAMES)
def test_save_and_load_round_trip_through_the_screens(game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    name = f"{get_game(game).name}-7-{new_session(game).controller.words.deal}1.json"

    async def play_and_save() -> GameSession:
        s = new_session(game, players=4, bots=("medium",), seed=7)
        app = TableApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            await move_by_keys(pilot, s)
            await until(pilot, lambda: s.human_to_act)
            await pilot.press("f5")
            assert message(app) == f"✓ saved to {name}; resume with: mustamaija play --load {name}"
        return s

    saved = asyncio.run(play_and_save())
    assert get_game(game).load_record((tmp_path / name).read_text(encoding="utf-8")).replay() == saved.state

    async def resume() -> None:
        s = GameSession.load(name)
        assert s.state == saved.state and s.names == saved.names and s.labels == saved.labels
        app = TableApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            assert hand_cards(app) == expected_hand(saved)
            assert app.screen.query_one("#log").lines_written == saved.log  # type: ignore[attr-defined]

    run(resume)


@pytest.mark.parametrize("game", GAMES)
def test_ctrl_c_saves_the_game_in_progress(game: str, tmp_path: Path) -> None:
    autosave = tmp_path / "auto.json"

    async def go() -> GameSession:
        s = new_session(game)
        app = TableApp(session=s, pace=0, autosave=str(autosave))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: app.return_code is not None)
        assert app.exit_note == f"Game saved to {autosave}. Resume with: mustamaija play --load {autosave}"
        return s

    s = asyncio.run(go())
    assert GameSession.load(str(autosave)).state == s.state


@pytest.mark.parametrize("game", GAMES)
def test_undo_in_practice_and_refused_when_rated(game: str) -> None:
    async def go(rated: bool) -> None:
        s = new_session(game, rated=rated)
        app = TableApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            before = s.state.copy()
            await move_by_keys(pilot, s)
            await until(pilot, lambda: s.human_to_act)
            after = s.state.copy()
            await type_line(pilot, "u")
            if rated:
                assert message(app) == "undo is not available in rated matches"
                assert s.state == after
                await pilot.press("f2")
                assert message(app) == "hints are not available in rated matches"
            else:
                assert message(app).startswith("✓ took back: your ")
                assert s.state == before
                assert hand_cards(app) == expected_hand(s)

    asyncio.run(go(False))
    asyncio.run(go(True))


@pytest.mark.parametrize("game", GAMES)
def test_hint_rules_and_help_dialogs(game: str) -> None:
    async def go() -> None:
        s = new_session(game)
        app = TableApp(session=s, pace=0, hint_seconds=0.1)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            await type_line(pilot, "hint")
            await until(pilot, lambda: isinstance(app.screen, HintScreen), timeout=30)
            hint = app.screen.hint  # type: ignore[attr-defined]
            assert hint.action is not None and s.state.can_play(hint.action)
            await pilot.press("enter")  # Choose it in the hand.
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            assert message(app).startswith(f"chosen: {s.controller.action_words(hint.action)}")
            await pilot.press("f4")
            assert isinstance(app.screen, TextScreen) and app.screen.heading == "Rules"
            await pilot.press("escape")
            await pilot.press("question_mark")
            assert isinstance(app.screen, TextScreen) and app.screen.heading == "Help"
            assert f"## {get_game(game).title}" in app.screen.markdown
            await pilot.press("escape")
            n = len(s.state.actions())
            await pilot.press("enter")  # Make the hinted move.
            await moved(pilot, s, n)
            assert s.state.actions()[n] == hint.action

    run(go)


@pytest.mark.parametrize("game", GAMES)
def test_setup_screen_starts_a_match(game: str) -> None:
    async def go() -> None:
        players = max(3, get_game(game).min_players)
        config = MatchConfig(game, players=players, bots=("easy", "medium"), seed=5)
        app = TableApp(setup=config, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.1)
            assert isinstance(app.screen, SetupScreen) and app.screen.title == get_game(game).title
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            s = app.session
            assert s is not None and s.game.name == game and s.config.players == players
            assert s.config.bots == ("easy", "medium") and s.config.seed == 5
            assert s.labels[1:] == ["bot 1 · easy", "bot 2 · medium"]
            assert s.rules == get_game(game).make_rules()

    run(go)


def test_the_setup_screen_offers_every_game() -> None:
    async def go() -> None:
        app = TableApp(setup=MatchConfig(players=4, seed=5), pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.1)
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            from textual.widgets import Select

            select = screen.query_one("#game", Select)
            other = next(name for name in GAMES if name != DEFAULT_GAME)
            select.value = other
            await until(pilot, lambda: isinstance(app.screen, SetupScreen) and app.screen.game.name == other)
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            keys = list(get_game(other).rule_defaults)  # The other game's rules, with their own widgets.
            # The form is rebuilt for the new game; on a loaded machine that takes a few frames.
            await until(pilot, lambda: all(len(app.screen.query(f"#{name}")) == 1 for name in ["players", *map("rule-{}".format, keys)]))
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            assert app.session is not None and app.session.game.name == other

    run(go)


@pytest.mark.parametrize("game", GAMES)
def test_replay_steps_forwards_and_backwards(game: str) -> None:
    g = get_game(game)
    st = g.deal(4, 4)
    bots = [RandomPlayer(seed=i) for i in range(4)]
    while not st.is_over:
        st.apply(bots[st.to_act].act(st.view(st.to_act)))
    record = g.record_of(st)

    async def go() -> None:
        app = TableApp(record=record, record_title="test")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.1)
            screen = app.screen
            assert isinstance(screen, ReplayScreen) and screen.index == 0 and screen.title == f"{g.title} replay"
            seats = screen.query_one("#seats").text  # type: ignore[attr-defined]
            for seat in range(4):  # Every hand is shown.
                assert all(card_symbol(c) in seats for c in cards_of(record.start().hands[seat]))
            await pilot.press("right", "right")
            assert screen.index == 2
            await pilot.press("left")
            assert screen.index == 1
            await pilot.press("end")
            assert screen.index == len(record.actions)
            end = screen.plugin.controller.deal_end(st, screen.names, None)[-1]
            assert end in str(screen.query_one("#message").render())
            await pilot.press("home")
            assert screen.index == 0

    run(go)


# -- the Mustamaija table -------------------------------------------------------------------------------


def test_illegal_input_is_rejected_with_the_rule() -> None:
    async def go() -> None:
        s = new_session()
        app = TableApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act and s.state.phase == LEAD)
            before = s.state.copy()
            foreign = next(c for c in range(52) if not s.state.hands[0] >> c & 1)
            await type_line(pilot, card_name(foreign).lower())
            assert message(app) == f"M10 (leading): you do not hold {card_name(foreign)}"
            assert "✗ M10 (leading)" in app.export_screenshot().replace("&#160;", " ")
            box = app.screen.query_one("#command")
            assert box.value == card_name(foreign).lower()  # type: ignore[attr-defined]  # Kept, to be corrected.
            await pilot.press("escape")
            await type_line(pilot, "9H:JH")
            assert "M10 (leading): you lead now" in message(app)
            await pilot.press("escape")
            await type_line(pilot, "ZZ")
            assert message(app) == "bad card 'ZZ': rank must be one of 2 3 4 5 6 7 8 9 T J Q K A (or 10)"
            await pilot.press("escape")
            # Choosing a second card of another suit with the keys is refused too.
            order = app.screen.choice.order  # type: ignore[attr-defined]
            first = order[0]
            other = next(i for i, c in enumerate(order) if c // 13 != first // 13)
            await pilot.press("space")
            await pilot.press(*["right"] * other, "space")
            assert message(app).startswith("M10 (leading): a lead must be all one suit")
            assert s.state == before and s.human_to_act

    run(go)


def test_defending_by_keys_pairs_and_beats() -> None:
    async def go() -> None:
        s = new_session(players=2, seed=5)
        app = TableApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            # Play until a defence where some card can beat the target.
            while True:
                await until(pilot, lambda: s.human_to_act)
                st = s.state
                screen = app.screen
                assert isinstance(screen, GameScreen)
                if st.phase == DEFEND and screen.choice.target >= 0:  # type: ignore[attr-defined]
                    from mustamaija.games.mustamaija.legality import BEATERS

                    beaters = st.hands[0] & BEATERS[st.trump][screen.choice.target]  # type: ignore[attr-defined]
                    if beaters:
                        break
                n = st.nlog
                await pilot.press("enter")
                await moved(pilot, s, n)
            sel: Any = screen.choice
            target = sel.target
            order = sel.order
            want = next(i for i, c in enumerate(order) if beaters >> c & 1)
            cant = [i for i, c in enumerate(order) if not beaters >> c & 1]
            if cant:  # A card that cannot beat the marked led card is refused with the rule.
                await pilot.press(*["right"] * ((cant[0] - sel.cursor) % len(order)), "space")
                assert message(app).startswith(("M13", "M2")), message(app)
            await pilot.press(*["right"] * ((want - sel.cursor) % len(order)), "space")
            assert sel.pairs.get(target) == order[want]
            assert f"beat {card_symbol(target)} with {card_symbol(order[want])}" in \
                str(app.screen.query_one("#preview").render())
            n = len(s.state.actions())
            await pilot.press("enter")
            await moved(pilot, s, n)
            done = s.state.actions()[n]
            assert done.seat == 0 and (target, order[want]) in done.pairs

    run(go)


def test_the_memory_panel_shows_and_hides() -> None:
    async def go() -> None:
        s = new_session(players=4, bots=("medium",), seed=7)
        app = TableApp(session=s, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: s.human_to_act)
            side = app.screen.query_one("#side")
            assert side.border_title == "Memory" and "Known to be held" in side.text  # type: ignore[attr-defined]
            info = app.screen.query_one("#info").text  # type: ignore[attr-defined]
            assert "Trump" in info and f"{s.state.talon_size} cards" in info
            await pilot.press("f6")
            assert not side.display
            await type_line(pilot, "memory")
            assert side.display

    run(go)


def test_a_puzzle_is_accepted_when_solved_and_refuted_when_not() -> None:
    puzzles = load_puzzles()
    p = puzzles[1]

    async def go() -> None:
        menu = PuzzleMenu(puzzles)
        app = TableApp(screens=[menu, PuzzleScreen(menu, 1)])
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
            assert p.id in menu.solved

    run(go)


# -- small terminals ---------------------------------------------------------------------------------

SMALL = (80, 24)


def _visible(app: TableApp, selector: str) -> Any:
    """Return the widget if it is shown whole on the screen, else fail."""
    widget = app.screen.query_one(selector)
    region = widget.region
    assert widget.display and region.width > 0, f"{selector} is hidden"
    assert region.right <= SMALL[0] and region.bottom <= SMALL[1], f"{selector} is off screen: {region}"
    return widget


@pytest.mark.parametrize("game", GAMES)
def test_every_screen_works_at_80_by_24(game: str) -> None:
    # Issue 16, bug 5: F6 squeezed the table to four columns, card counts were cut, the talon and the log were
    # hidden, and the setup screen cut its values, showed snake_case and put Start off screen.
    async def go() -> None:
        s = new_session(game, players=4, bots=("easy",), seed=7)
        app = TableApp(session=s, pace=0)
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: s.human_to_act)
            seats = _visible(app, "#seats")
            assert seats.region.width >= 30
            table = _visible(app, "#table")
            assert table.region.width >= 30
            console = Console(width=seats.region.width - 4, record=True, file=io.StringIO())  # Less border, padding.
            console.print(s.plugin.renderer.seats(app.screen.scene()))  # type: ignore[attr-defined]
            lines = console.export_text().splitlines()
            for seat in range(s.n):
                # Each seat's card count shows in full: the names give way, never the figures.
                row = next(line for line in lines if line[2:].lstrip().startswith(s.names[seat][:3]))
                assert re.search(rf"\s{s.state.hands[seat].bit_count()}(\s|$)", row), (s.names[seat], row)
            if game == "mustamaija":
                assert f"talon {s.state.talon_size}" in str(table.border_title)
            seen = {"table"}
            for _ in range(len(app.screen.views()) - 1):  # type: ignore[attr-defined]
                await pilot.press("f6")
                await pilot.pause(0.1)
                view = app.screen.view  # type: ignore[attr-defined]
                seen.add(view)
                if view == "side":
                    assert not app.screen.query_one("#centre").display
                    assert _visible(app, "#side").region.width >= 30
                elif view == "log":
                    log = _visible(app, "#log")
                    assert log.region.width >= 30 and log.lines_written == s.log
                else:
                    assert _visible(app, "#table").region.width >= 30
                assert app.screen.query_one("#table").region.width in (0,) or \
                    app.screen.query_one("#table").region.width >= 30
            assert "log" in seen
            await pilot.press("f6")
            await pilot.pause(0.1)
            assert app.screen.view == "table" and _visible(app, "#table")  # type: ignore[attr-defined]

        setup = TableApp(setup=MatchConfig(game))
        async with setup.run_test(size=SMALL) as pilot:
            await pilot.pause(0.3)
            _visible(setup, "#start")
            shown = setup.export_screenshot().replace("&#160;", " ")
            assert not re.search(r"\b[a-z]+_[a-z_]+\b", shown), "a raw snake_case value is shown"
            for select in setup.screen.query("Select"):
                if select.display and select.region.height:
                    assert select.region.width >= 20, select.id

    run(go)
