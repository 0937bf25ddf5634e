"""Ratings in a real browser: claim a name in the lobby, play a rated deal against bots, find it on /ratings.

The same Chromium and server as tests/test_web_browser.py (Debian's
``/usr/bin/chromium`` through Playwright; under ``CI=true`` a missing browser
fails the test instead of skipping it).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from test_web_browser import (  # pytest finds the fixtures (server, browser) by name
    DESKTOP,
    PHONE,
    _defend,
    _lead,
    _shot,
    _state,
    _wait_turn_or_end,
    _watch_errors,
    browser,  # noqa: F401
    server,  # noqa: F401
)

if TYPE_CHECKING:  # Playwright's types, for the annotations only (the fixtures skip or fail without it).
    from playwright.sync_api import Browser, Page


def _play_the_deal(page: Page) -> int:
    """Play the seat's part of the deal by clicking the highlighted cards; return how many actions it took."""
    actions = 0
    while _wait_turn_or_end(page) == "turn":
        snap: dict[str, Any] = _state(page)
        version = snap["meta"]["version"]
        if snap["state"]["legal"]["kind"] == "lead":
            _lead(page, by_keyboard=False)
        else:
            _defend(page)
        actions += 1
        page.wait_for_function(f"() => window.mustamaija.meta.version > {version} && !window.mustamaija.pending")
    return actions


def test_a_signed_in_player_plays_a_rated_deal_and_finds_it_on_the_leaderboard(server: str, browser: Browser) -> None:  # noqa: F811
    errors: list[str] = []
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")  # No cards in flight: a quicker deal.
    page = context.new_page()
    _watch_errors(page, errors)

    # The lobby: claim a name; the key is shown once, and the name becomes the player's at every table.
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#account-name", "Ruth")
    page.click("#btn-signup")
    page.wait_for_selector("#account-in:not([hidden])")
    assert page.inner_text("#account-who") == "Ruth"
    key = page.input_value("#account-new-key")
    assert len(key) >= 32
    assert page.input_value("#player-name") == "Ruth" and page.get_attribute("#player-name", "readonly") is not None
    stored = page.evaluate("JSON.parse(localStorage.getItem('mustamaija:player'))")
    assert stored == {"name": "Ruth", "key": key}

    # A one-deal match against two bots.
    page.select_option("#players", "3")
    page.select_option("#seat-1", "bot:easy")
    page.select_option("#seat-2", "bot:medium")
    page.fill("#match-count", "1")
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector("body[data-phase]")
    assert _state(page)["meta"]["seats"][0]["player"] == "Ruth"
    assert _play_the_deal(page) >= 1
    page.wait_for_selector("#btn-rematch")
    final = _state(page)
    assert final["state"]["phase"] == "over" and not final["state"]["stopped"]
    lost = final["state"]["loser"] == 0

    # The leaderboard: the player's row, marked as theirs and provisional, and the bot's.
    page.goto(f"{server}/ratings")
    page.wait_for_selector("body[data-ready='1']")
    mine = page.locator("#ratings-rows tr.mine")
    assert mine.count() == 1 and mine.get_attribute("data-name") == "Ruth"
    cells = mine.locator("td").all_inner_texts()
    rating = int(cells[2].rstrip("?"))
    assert cells[2].endswith("?"), "one deal: the rating is provisional"
    # The loser lost to each other seat; a seat that did not lose beat the loser only (docs/web.md, "Ratings").
    assert (rating < 1500) == lost and cells[4] == "1" and cells[5] == ("0 / 2 / 0" if lost else "1 / 0 / 0")
    assert page.locator('#ratings-rows tr[data-kind="bot"]').count() == 2
    assert "Ruth" in page.inner_text("#ratings-me") and "#" in page.inner_text("#ratings-me")
    _shot(page, "web-ratings.png")
    # The people-only board, and the other game's board (nobody yet), switched in place.
    page.select_option("#ratings-kind", "human")
    page.wait_for_function("() => document.body.dataset.rows === '1'")
    other = page.locator("#ratings-game option").evaluate_all("(os) => os.map((o) => o.value)")
    page.select_option("#ratings-game", other[1] if other[0] == final["meta"]["game"] else other[0])
    page.wait_for_selector("#ratings-empty:not([hidden])")
    # The player's standing is asked for after the board: wait for it rather than read it at once.
    page.wait_for_function("() => document.getElementById('ratings-me').textContent.includes('no rated deal')")
    assert "game=" in page.url
    phone = context.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(f"{server}/ratings?game={final['meta']['game']}")
    phone.wait_for_selector("body[data-ready='1']")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "the board fits a phone"
    _shot(phone, "web-ratings-phone.png", full_page=False)
    phone.close()

    # Signing out and in again with the key; a wrong key is refused with the server's words.
    page.goto(f"{server}/")
    page.wait_for_selector("#account-in:not([hidden])")
    assert "Ruth" in page.inner_text("#account-in") and "1 deal" in page.inner_text("#account-ratings")
    page.click("#btn-signout")
    assert page.is_visible("#account-out") and page.get_attribute("#player-name", "readonly") is None
    page.fill("#account-name", "ruth")
    page.fill("#account-key", "not the key")
    page.click("#btn-signin")
    page.wait_for_function("() => document.getElementById('account-error').textContent.includes('do not match')")
    page.fill("#account-key", key)
    page.click("#btn-signin")
    page.wait_for_selector("#account-in:not([hidden])")
    assert page.inner_text("#account-who") == "Ruth"
    # Without the key nobody sits under the name.
    page.click("#btn-signout")
    page.fill("#player-name", "RUTH")
    page.click("#create")
    page.wait_for_function("() => document.getElementById('create-error').textContent.includes('signed-in')")
    context.close()
    # The refused key and name show up as failed requests in the console; anything else is a bug.
    assert all(re.search(r"status of (401|409)", e) for e in errors), errors
