"""A Black Maria table in a real browser: Chromium, driven by Playwright, against a real ``mustamaija serve``.

From the lobby a person chooses Black Maria, four players and one hand,
with three bots; passes three cards by clicking them (one by keyboard) and
confirming; sees the received cards highlighted; and plays the complete
hand by clicking the cards the page highlights, checking that they are
exactly the legal cards, sorted, and that the trick, the hearts marker and the
scores are drawn. With ``MUSTAMAIJA_SCREENSHOTS=1`` it saves
``docs/screenshots/web-bm-pass.png`` and ``web-bm-table.png``. Chromium must
be Debian's ``/usr/bin/chromium``; without it or Playwright the test is
skipped, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 375, "height": 740}
SUIT_ORDER = "SHCD"  # The page's order: black and red suits alternating.
RANKS = "23456789TJQKA"


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"the browser test cannot run under CI: {reason}")
    pytest.skip(reason)


try:
    from playwright.sync_api import Browser, Page, sync_playwright

    HAVE_PLAYWRIGHT = True
except ImportError:  # pragma: no cover - depends on the environment
    HAVE_PLAYWRIGHT = False


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start ``mustamaija serve`` on a free port with a fresh SQLite file; yield its base URL."""
    tmp = tmp_path_factory.mktemp("web-bm")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mustamaija", "serve", "--port", "0", "--db", f"sqlite:///{tmp / 'web.sqlite3'}",
         "--bot-pace", "0", "--deal-pause", "0.5", "--takeover-after", "600"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp,
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    try:
        url = None
        end = time.monotonic() + 30
        while url is None and time.monotonic() < end:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                assert proc.poll() is None, "mustamaija serve exited before printing its URL"
                continue
            m = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
            url = m.group(1) if m else None
        assert url, "mustamaija serve did not print its URL within 30 s"
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - a hung server
            proc.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Launch Debian's Chromium headless through Playwright."""
    if not HAVE_PLAYWRIGHT:
        _missing("the playwright package is not installed (it comes with the dev extra)")
    if not CHROMIUM.exists():
        _missing(f"{CHROMIUM} is missing (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _shot(page: Page, name: str) -> None:
    if os.environ.get("MUSTAMAIJA_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / name))


def _snap(page: Page) -> dict[str, Any]:
    snap: dict[str, Any] = page.evaluate(
        "() => ({state: window.mustamaija.state, meta: window.mustamaija.meta, pending: window.mustamaija.pending})")
    return snap


def _wait_turn_or_over(page: Page) -> str:
    """Wait until this seat is to act (and nothing is being sent) or the game is over."""
    page.wait_for_function(
        "() => { const a = window.mustamaija; return a.meta && a.state && !a.pending"
        " && ((a.state.legal && a.meta.version !== a.sentAt) || a.meta.status === 'over'); }", timeout=30000)
    snap = _snap(page)
    return "over" if snap["meta"]["status"] == "over" else "turn"


def _hand_order(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c[1]), RANKS.index(c[0])))


def test_a_black_maria_hand_played_by_clicking(server: str, browser: Browser) -> None:
    errors: list[str] = []
    page = browser.new_page(viewport=DESKTOP)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", "black-maria")
    assert page.locator("#bm-options").is_visible() and not page.locator("#preset").is_visible()
    assert page.locator("#players option").first.inner_text() == "3 players"
    page.select_option("#players", "4")
    page.select_option("#bm-end", "hands")
    page.fill("#bm-count", "1")
    page.fill("#player-name", "Ann")
    for s, level in ((1, "easy"), (2, "medium"), (3, "easy")):
        page.select_option(f"#seat-{s}", f"bot:{level}")
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_function("() => window.mustamaija && window.mustamaija.meta && window.mustamaija.state")
    table_id = page.url.rstrip("/").split("/")[-1]
    with urllib.request.urlopen(f"{server}/api/tables/{table_id}", timeout=10) as r:
        meta = json.load(r)["table"]
    assert meta["game"] == "black-maria" and meta["rules"] == {"target_score": None, "hands": 1, "allow_renege": False}
    assert [s["bot"] for s in meta["seats"]] == [None, "easy", "medium", "easy"]

    # Passing: three cards, two by click and one by keyboard, then confirm.
    page.wait_for_function("() => window.mustamaija.state.legal && window.mustamaija.state.legal.kind === 'pass'",
                           timeout=30000)
    snap = _snap(page)
    hand = snap["state"]["hand"]
    shown = page.eval_on_selector_all("#hand button.card", "els => els.map(e => e.dataset.card)")
    assert shown == _hand_order(hand)
    assert page.locator("#btn-pass").is_disabled()
    to_pass = shown[:3]
    page.click(f'#hand [data-card="{to_pass[0]}"]')
    page.click(f'#hand [data-card="{to_pass[1]}"]')
    page.focus(f'#hand [data-card="{to_pass[1]}"]')
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert page.locator("#hand button.card.selected").count() == 3
    assert page.locator("#btn-pass").inner_text() == "Pass 3/3"
    _shot(page, "web-bm-pass.png")
    page.click("#btn-pass")
    page.wait_for_function("() => window.mustamaija.state.phase === 'play'", timeout=30000)
    snap = _snap(page)
    received = snap["state"]["received"]
    assert snap["state"]["passed"] == _hand_order(to_pass) or sorted(snap["state"]["passed"]) == sorted(to_pass)
    assert len(received) == 3 and not set(received) & set(to_pass)
    if sum(snap["state"]["tricks"]) == 0:
        highlighted = page.eval_on_selector_all("#hand button.card.received", "els => els.map(e => e.dataset.card)")
        assert sorted(highlighted) == sorted(received)
        assert "received" in page.inner_text("#pass-panel")

    # Play the whole hand by clicking highlighted cards.
    plays = 0
    shot_taken = False
    page.evaluate("() => { window.mustamaija.sentAt = -1; }")
    while _wait_turn_or_over(page) == "turn":
        snap = _snap(page)
        legal = snap["state"]["legal"]["cards"]
        playable = page.eval_on_selector_all("#hand button.card.playable:not([disabled])", "els => els.map(e => e.dataset.card)")
        assert sorted(playable) == sorted(legal)
        assert page.eval_on_selector_all("#hand button.card", "els => els.map(e => e.dataset.card)") == \
            _hand_order(snap["state"]["hand"])
        assert page.locator("#trick .bm-play").count() == len(snap["state"]["trick"])
        marker = page.inner_text("#hearts")
        assert marker == ("♥ hearts broken" if snap["state"]["hearts_broken"] else "♥ hearts not broken")
        if not shot_taken and snap["state"]["trick"] and snap["state"]["last_trick"]:
            _shot(page, "web-bm-table.png")
            shot_taken = True
        page.evaluate("() => { window.mustamaija.sentAt = window.mustamaija.meta.version; }")
        page.click(f'#hand [data-card="{playable[-1]}"]')
        plays += 1
    assert plays == 13
    snap = _snap(page)
    points = snap["meta"]["match"]["results"][0]["points"]
    assert snap["meta"]["match"]["over"] and sum(points) == 43
    page.wait_for_selector(".bm-banner")
    assert "Game over" in page.inner_text(".bm-banner")
    scores = page.inner_text("#scores")
    assert all(str(p) in scores for p in points)
    assert page.locator("#announcer p").count() > 0
    assert not errors, errors

    # The replay of the finished hand shows every hand, step by step.
    page.goto(f"{server}/replay/{table_id}/1")
    page.wait_for_selector("body[data-frames]", state="attached")
    assert page.evaluate("document.body.dataset.frames") == "57", errors
    assert page.locator("#r-hands .replay-seat").count() == 4
    assert page.locator("#r-hands .replay-seat .card").count() == 52
    page.click("#action-list li[data-index='56']")
    page.wait_for_selector("body[data-index='56']", state="attached")
    assert "Points:" in page.inner_text("#frame-text")
    assert not errors, errors

    # A phone in portrait shows the same table without sideways scrolling.
    phone = browser.new_page(viewport=PHONE)
    phone.goto(f"{server}/t/{table_id}")
    phone.wait_for_selector("#scores table")
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, width
    phone.close()
    page.close()
