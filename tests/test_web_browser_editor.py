"""The position editor in real Chromium driven by Playwright, against a real ``mustamaija serve`` (as test_web_browser.py).

A person opens /editor from the lobby, clears the example, builds a small endgame by clicking cards of the
palette and typing a hand, sees the server validate it, copies the link and opens it again in a new page (the
same position comes back), solves it (the verdict and the line are the server's solver's), then plays it out
against a bot at the table page, animations on, to the end of the deal. A dealt position with a talon offers a
hint instead of the solver. The page is checked at a phone's size too. With ``MUSTAMAIJA_SCREENSHOTS=1`` it
saves ``docs/screenshots/web-editor.png`` at 1280x800. The fixtures are test_web_browser.py's: skipped without
Chromium or Playwright, except under ``CI=true``, where they fail.
"""

# ruff: noqa: F811 - the fixtures imported from test_web_browser are named again as the tests' arguments.

from __future__ import annotations

import json
import urllib.request
from typing import TYPE_CHECKING, Any

from mustamaija.games.mustamaija import Position
from test_web_browser import (  # pytest finds the fixtures (server, browser) by name
    _defend,
    _lead,
    _shot,
    _state,
    _wait_turn_or_end,
    _watch_errors,
    browser,  # noqa: F401
    server,  # noqa: F401
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

SCREEN: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


def _valid(page: Page) -> str:
    """Wait for the server's answer to the newest change to be a valid position; return the summary line."""
    page.wait_for_function("() => document.body.classList.contains('ed-valid') && "
                           "!document.querySelector('#ed-status').textContent.startsWith('Checking')", timeout=15000)
    return page.locator("#ed-status").inner_text()


def _real(errors: list[str]) -> list[str]:
    """Return the page errors but the browser's notes of the refusals the page shows (a position being built is)."""
    return [e for e in errors if "status of 400" not in e]


def _post(server: str, path: str, body: object) -> Any:
    req = urllib.request.Request(server + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def test_build_share_solve_and_play_a_position(server: str, browser: Browser) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    _watch_errors(page, errors)
    page.goto(server + "/")
    page.locator("#editor-link").click()
    page.wait_for_url("**/editor**")
    _valid(page)  # The example endgame.

    # Build: seat 0 holds Q♠ 5♥ (clicked), seat 1 K♥ 2♦ 7♣ (typed), clubs are trumps; every other card out of play.
    page.locator("#ed-clear").click()
    page.wait_for_function("() => !document.body.classList.contains('ed-valid')")
    assert "Q♠" in page.locator("#ed-error").inner_text()  # The format's own message: she must be somewhere.
    page.locator('#palette [data-card="2S"]').focus()
    page.keyboard.press("0")
    page.locator('#palette [data-card="QS"]').click()
    page.locator('#palette [data-card="5H"]').click()
    page.locator("#ed-hand-1").fill("kh 2D 7♣")
    page.locator("#ed-hand-1").press("Enter")
    page.locator("#ed-trump").select_option("C")
    summary = _valid(page)
    assert "seat 0 attacks, seat 1 defends; hands 2, 3; talon empty; trump ♣" in summary
    assert page.locator('#palette [data-card="QS"] .ed-tag').inner_text() == "0"
    # Make 2♦ public: everybody knows seat 1 holds it.
    page.locator('#ed-seats [data-card="2D"]').click()
    _valid(page)
    assert page.locator('#ed-seats [data-card="2D"]').get_attribute("aria-pressed") == "true"
    text = page.locator("#ed-text").inner_text()
    assert text == "5_sQh5-hKc7.d2__c_l0"
    assert Position.parse(text).to_json()["public"] == ["2D"]

    # Copy the link (the clipboard, or the selected link) and open it in a new page: the same position.
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page.locator("#ed-copy").click()
    link = page.locator("#ed-link").input_value()
    assert link == f"{server}/editor?p={text}"
    other = context.new_page()
    _watch_errors(other, errors)
    other.goto(link)
    assert _valid(other) == _valid(page) and "1 public card" in _valid(other)
    assert other.locator("#ed-hand-1").input_value() == "KH 2D 7C" and other.locator("#ed-text").inner_text() == text
    other.close()

    # Solve: the verdict and the line are the server solver's.
    expected = _post(server, "/api/positions/solve", {"text": text})["solution"]
    page.locator("#ed-solve").click()
    page.wait_for_selector("#ed-solution .ed-verdict")
    verdict = page.locator("#ed-solution .ed-verdict").inner_text()
    assert ("is safe" in verdict) == expected["result"]["attacker_safe"]
    # The line turn by turn, in the solver's own account.
    turns = [line.split(". ", 1)[1] for line in expected["lines"] if line.strip()[:1].isdigit()]
    assert turns and page.locator("#ed-solution .ed-line li").all_inner_texts() == turns
    _shot(page, "web-editor.png")

    # Play it out against a bot, at the table page, with animations on.
    page.locator("#ed-bots").select_option("easy")
    page.locator("#ed-name").fill("Editor")
    page.locator("#ed-play").click()
    page.wait_for_url("**/t/**")
    page.wait_for_function("() => window.mustamaija && window.mustamaija.state")
    snap = _state(page)
    assert snap["state"]["hand"] == ["QS", "5H"] and snap["meta"]["position"] is True
    # The talon is empty and every other card is out of play, so seat 0 knows seat 1's hand by elimination (M22).
    assert sorted(snap["state"]["known"][1]) == ["2D", "7C", "KH"]
    for _ in range(20):
        if _wait_turn_or_end(page) == "over":
            break
        if _state(page)["state"]["phase"] == "lead":
            _lead(page, by_keyboard=False)
        else:
            _defend(page)
    assert int(page.evaluate("document.body.dataset.played")) == 1
    assert _state(page)["meta"]["status"] == "over"
    assert not _real(errors), errors
    context.close()


def test_an_answer_for_an_older_edit_is_never_shown(server: str, browser: Browser) -> None:
    """The server's answers are held back and let through out of order: the status only ever shows the newest edit."""
    page = browser.new_page()
    page.goto(server + "/editor")
    _valid(page)
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)  # Every check waits until the test lets it through.

    page.route("**/api/positions/check", hold)
    page.locator("#ed-players").select_option("3")
    while not held:
        page.wait_for_timeout(20)
    stale = held.pop(0)
    answer = stale.fetch()  # The server's answer to the older edit, kept back from the page for now.
    # Every status line the page shows from the newer edit on, however briefly.
    page.evaluate("""() => {
        window.statuses = [];
        const status = document.querySelector('#ed-status');
        new MutationObserver(() => window.statuses.push(status.textContent))
            .observe(status, {childList: true, characterData: true, subtree: true});
    }""")
    page.locator("#ed-random").click()  # A newer edit, while the older one's check is on its way.
    stale.fulfill(response=answer)  # The older edit's answer arrives, before the newer edit's check is even sent.
    while not held:
        page.wait_for_timeout(20)
    held.pop(0).continue_()  # Then the newest edit's.
    summary = _valid(page)
    assert "talon" in summary and "order unknown" in summary
    shown = [s for s in page.evaluate("window.statuses") if s.startswith("Valid")]
    assert shown and all("order unknown" in s for s in shown), shown
    page.close()


def test_a_dealt_position_offers_a_hint_and_fits_a_phone(server: str, browser: Browser) -> None:
    errors: list[str] = []
    page = browser.new_page(viewport=PHONE)
    _watch_errors(page, errors)
    page.goto(server + "/editor")
    _valid(page)
    page.locator("#ed-players").select_option("3")
    page.locator("#ed-random").click()
    summary = _valid(page)
    assert "talon" in summary and "order unknown" in summary
    assert not page.locator("#ed-hint").is_hidden()
    page.locator("#ed-solve").click()
    assert "talon" in page.locator("#ed-solution").inner_text()
    page.locator("#ed-hint").click()
    page.wait_for_selector("#ed-solution .ed-verdict", timeout=30000)
    assert "Hint for seat" in page.locator("#ed-solution .ed-verdict").inner_text()
    # Nothing is wider than the phone.
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], wide
    _shot(page, "web-editor-phone.png", full_page=False)
    # A talon card moves down with its button, and the position stays valid.
    first = page.locator("#ed-talon li").first.locator(".card").get_attribute("data-card")
    page.locator("#ed-talon li").first.locator("button", has_text="↓").click()
    _valid(page)
    assert page.locator("#ed-talon li").nth(1).locator(".card").get_attribute("data-card") == first
    # A bad link says what is wrong.
    page.goto(server + "/editor?p=5_sQ-hK__c_l7")
    page.wait_for_function("() => document.querySelector('#ed-error').textContent.length > 0")
    assert "attacker" in page.locator("#ed-error").inner_text()
    assert not _real(errors), errors
    page.close()
