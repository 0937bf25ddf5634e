"""The puzzle page in real Chromium driven by Playwright, against a real ``mustamaija serve`` (as test_web_browser.py).

A person opens /puzzles from the lobby, solves the first puzzle by clicking the cards the page highlights (a
lead, and a defence when the solver attacks), sees the streak go to 1, opens the next unsolved puzzle, then a
puzzle found in real play, fails it with a wrong first lead made by keyboard, and sees the streak start again,
the refutation in words and the solution line move by move. The streak, the best streak and the marks survive a
reload (localStorage). With ``MUSTAMAIJA_SCREENSHOTS=1`` it saves ``docs/screenshots/web-puzzles.png`` at
1280x800. The fixtures are test_web_browser.py's: skipped without Chromium or Playwright, except under
``CI=true``, where they fail.
"""

# ruff: noqa: F811 - the fixtures imported from test_web_browser are named again as the tests' arguments.

from __future__ import annotations

from typing import TYPE_CHECKING

from mustamaija.core.cards import card_name, cards_of
from mustamaija.games.mustamaija.actions import Action, Beat, Lead
from mustamaija.games.mustamaija.puzzles import Puzzle, PuzzleGame, load_puzzles
from test_web_browser import (  # pytest finds the fixtures (server, browser) by name
    _shot,
    _watch_errors,
    browser,  # noqa: F401
    server,  # noqa: F401
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

SCREEN: ViewportSize = {"width": 1280, "height": 800}
PUZZLES = load_puzzles()


def _dataset(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.evaluate("() => ({...document.body.dataset})")
    return data


def _wait_answer(page: Page, moves: int) -> None:
    """Wait until the page has the server's answer to its ``moves``-th move."""
    page.wait_for_function(
        f"() => document.body.dataset.moves === '{moves}' && !window.puzzles.pending", timeout=60000)


def _open(page: Page, puzzle_id: str) -> None:
    page.wait_for_function(f"() => document.body.dataset.puzzle === '{puzzle_id}' && !window.puzzles.pending",
                           timeout=30000)
    page.wait_for_selector("#hand button.card.playable")


def _click_lead(page: Page, lead: Lead) -> None:
    for c in cards_of(lead.cards):
        page.click(f'#hand button.card[data-card="{card_name(c)}"]')
    page.click("#btn-lead")


def _click_defence(page: Page, beat: Beat) -> None:
    for led, beater in beat.pairs:
        # The led card on the table first, then the card of the hand that beats it.
        page.click(f'#battle .fight[data-led="{card_name(led)}"] button.card')
        page.click(f'#hand button.card[data-card="{card_name(beater)}"]')
    page.click("#btn-defend")


def _defends(p: Puzzle) -> bool:
    """Return whether the judge's safe line has you beat a card (a defence to put together by clicks)."""
    game = PuzzleGame(p)
    while game.status == "solving":
        st = game.state
        move = game.judge.safe_leads(st)[0] if st.phase == 0 else game.judge.best_defence(st)
        assert move is not None
        if isinstance(move, Beat) and move.pairs:
            return True
        game.play(move)
    return False


def _single_wrong(p: Puzzle) -> Lead | None:
    """Return a losing first lead of one card (one key to choose), if the puzzle has one."""
    return next((lead for lead in p.start().legal_leads() if lead.cards not in p.solution and lead.cards.bit_count() == 1),
                None)


def _solve_by_clicking(page: Page, puzzle: Puzzle) -> int:
    """Play the puzzle out with the judge's safe moves, clicking them (the server must agree at every move);
    return how many were defences."""
    game = PuzzleGame(puzzle)
    defences = 0
    while game.status == "solving":
        st = game.state
        move: Action
        if st.phase == 0:
            move = game.judge.safe_leads(st)[0]
            _click_lead(page, move)
        else:
            beat = game.judge.best_defence(st)
            assert beat is not None
            move = beat
            _click_defence(page, beat)
            defences += 1
        assert game.play(move).ok
        _wait_answer(page, game.moves)
        assert _dataset(page)["status"] == game.status
        state = page.evaluate("() => window.puzzles.state")
        assert state["hands"] == [[card_name(c) for c in cards_of(h)] for h in game.state.hands]
    return defences


def test_a_puzzle_solved_by_clicking_and_one_failed_by_keyboard(server: str, browser: Browser) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    _watch_errors(page, errors)
    page.goto(server + "/")
    page.click("#puzzles-link")
    page.wait_for_url("**/puzzles**")
    first = PUZZLES[0]
    _open(page, first.id)
    assert page.locator("#game-title").inner_text() == "Mustamaija puzzles"
    assert page.locator("#streak-now").inner_text() == "0"
    # An open endgame: the others' cards lie face up at their seats; yours are in your hand.
    other = [card_name(c) for c in cards_of(first.hands[1])]
    assert sorted(page.locator('#seats .seat[data-seat="1"] .open-hand .card').evaluate_all(
        "(cards) => cards.map((c) => c.dataset.card)")) == sorted(other)
    assert page.locator("#moves li").first.inner_text() == "No moves yet: you lead."

    defences = _solve_by_clicking(page, first)
    assert _dataset(page)["status"] == "solved"
    assert page.locator("#streak-now").inner_text() == "1" and page.locator("#streak-best").inner_text() == "1"
    assert "Solved at the first try: streak 1 (best 1)." in page.locator("#result-news").inner_text()
    assert page.locator("#solution-line li").count() > 0  # The solution comes at the end, solved or not.
    assert page.locator(f'#puzzle-list [data-id="{first.id}"]').get_attribute("data-mark") == "solved"

    # Next unsolved: the next puzzle of the list not tried yet.
    page.click("#btn-result-next")
    _open(page, PUZZLES[1].id)
    assert page.evaluate("location.hash") == f"#{PUZZLES[1].id}"

    # A puzzle found in real play, chosen in the list, failed with a wrong first lead made by keyboard.
    played = next(p for p in PUZZLES if p.source == "play" and _single_wrong(p) and _defends(p))
    page.click(f'#puzzle-list [data-id="{played.id}"]')
    _open(page, played.id)
    assert "real play" in page.locator("#puzzle-level").inner_text().lower()
    assert "Found in: " in page.locator("#puzzle-origin").inner_text()
    wrong = _single_wrong(played)
    assert wrong is not None
    card = card_name(cards_of(wrong.cards)[0])
    order = page.locator("#hand button.card").evaluate_all("(cards) => cards.map((c) => c.dataset.card)")
    page.keyboard.press(str(order.index(card) + 1))  # The n-th card of the hand.
    page.keyboard.press("Enter")
    _wait_answer(page, 1)
    assert _dataset(page)["status"] == "failed"
    assert page.locator("#streak-now").inner_text() == "0" and page.locator("#streak-best").inner_text() == "1"
    assert "The streak starts again (best 1)." in page.locator("#result-news").inner_text()
    assert page.locator("#verdict").inner_text().startswith("✗ That first lead loses")
    # The refutation in words, then the solution line move by move.
    moves = page.locator("#moves li").all_inner_texts()
    assert moves[0].startswith("You lead ") and "Their answer, and the best play after it:" in moves
    assert any(m.startswith("Eero ") for m in moves[moves.index("Their answer, and the best play after it:"):])
    assert page.locator("#solution-panel").is_visible()
    solution = PuzzleGame(played).solution_line()
    line = page.locator("#solution-line li").all_inner_texts()
    assert len(line) == len(solution) and line[0].startswith("You lead ")
    answer = page.evaluate("() => window.puzzles.answer")
    assert [m["action"] for m in answer["solution"]["line"]] == [
        {k: v for k, v in a.to_json().items() if k != "seat"} for a in solution]
    assert page.locator("#solution-leads").inner_text().startswith("Safe first lead: ")
    _shot(page, "web-puzzles.png")

    # The streak and the marks are kept in the browser.
    page.reload()
    _open(page, played.id)
    assert page.locator("#streak-now").inner_text() == "0" and page.locator("#streak-best").inner_text() == "1"
    marks = {p.id: page.locator(f'#puzzle-list [data-id="{p.id}"]').get_attribute("data-mark")
             for p in (first, PUZZLES[1], played)}
    assert marks == {first.id: "solved", PUZZLES[1].id: "", played.id: "failed"}
    # Trying again is not the first try: solving it now marks it, and the streak stays.
    page.keyboard.press("r")
    page.wait_for_function("() => document.body.dataset.status === 'solving' && document.body.dataset.moves === '0'")
    defences += _solve_by_clicking(page, played)
    assert defences > 0  # Some move of yours was a defence, paired on the table by clicks.
    assert page.locator("#streak-now").inner_text() == "0"
    assert "Not your first try" in page.locator("#result-news").inner_text()
    assert page.locator(f'#puzzle-list [data-id="{played.id}"]').get_attribute("data-mark") == "later"
    assert not errors, errors
    context.close()


def test_the_solution_asked_for_at_the_first_try_ends_the_streak(server: str, browser: Browser) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 375, "height": 740})  # A phone, as well.
    page = context.new_page()
    _watch_errors(page, errors)
    p = PUZZLES[2]
    page.goto(f"{server}/puzzles#{p.id}")
    _open(page, p.id)
    page.evaluate("""() => localStorage.setItem("mustamaija:puzzles",
                     JSON.stringify({streak: 4, best: 6, marks: {}}))""")
    page.reload()
    _open(page, p.id)
    assert page.locator("#streak-now").inner_text() == "4"
    assert page.locator("#solution-warning").is_visible()
    page.click("#btn-solution")
    page.wait_for_selector("#solution-panel:not([hidden])")
    assert page.locator("#streak-now").inner_text() == "0" and page.locator("#streak-best").inner_text() == "6"
    assert _dataset(page)["status"] == "solving"  # The puzzle can still be played out, but it no longer counts.
    assert page.locator("#solution-leads").inner_text().startswith("Safe first lead")
    page.evaluate("window.scrollTo(0, 0)")
    _shot(page, "web-puzzles-phone.png", full_page=False)
    box = page.locator("#hand").bounding_box()
    assert box is not None and box["width"] <= 375
    assert not errors, errors
    context.close()
