"""Settings, motion and sound on the table page, in real Chromium driven by Playwright (as test_web_browser.py).

The player's settings (card size, animation speed, four-colour suits, sound) are kept in localStorage, change
the page at once, survive a reload and hold on the replay viewer too. With motion on, whole deals of both
layouts play to their end with cards moving and sounds asked for, no error in the console, and no copy of a
card in flight that the seat was never shown; with the system asking for reduced motion nothing moves until
the player picks a speed; and a click while cards move is taken at once.

The fixtures are test_web_browser.py's: a real ``mustamaija serve`` and Debian's Chromium, skipped without
them except under ``CI=true``, where they fail.
"""

# ruff: noqa: F811 - the fixtures imported from test_web_browser are named again as the tests' arguments.

from __future__ import annotations

import json
import urllib.request
from typing import TYPE_CHECKING, Any

from test_web_browser import (  # pytest finds the fixtures (server, browser) by name
    DESKTOP,
    PHONE,
    _defend,
    _lead,
    _seat_page,
    _state,
    _tap,
    _watch_errors,
    browser,  # noqa: F401
    server,  # noqa: F401
)

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
except ImportError:  # The fixtures then fail (or skip outside CI) before any test body runs.
    PlaywrightTimeoutError = TimeoutError

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

# Records, in the page, every card the seat's states ever showed, and every card face that flew as a copy
# (js/motion.js "ghosts"): a copy of a card never shown would give a hidden card away.
_RECORD = """() => {
    const app = window.mustamaija;
    const seen = new Set();
    const shown = (s) => {
        if (!s) return;
        const add = (cards) => (cards || []).forEach((c) => seen.add(c));
        add(s.hand); add(s.discard); add(s.passed); add(s.received);
        if (s.trump_card) seen.add(s.trump_card);
        (s.known || []).forEach(add); (s.won || []).forEach(add);
        (s.talon_known || []).forEach((k) => seen.add(k.card));
        (s.table || []).forEach((t) => { seen.add(t.led); if (t.beater) seen.add(t.beater); });
        if (s.last_turn) { add(s.last_turn.led); add(Object.values(s.last_turn.beat)); }
        (s.trick || []).forEach((p) => seen.add(p.card));
        if (s.last_trick) s.last_trick.cards.forEach((p) => seen.add(p.card));
    };
    let current = app.state;
    shown(current);
    Object.defineProperty(app, "state", { get: () => current, set: (s) => { current = s; shown(s); }, configurable: true });
    window.__flown = []; window.__leaks = []; window.__peak = 0;
    new MutationObserver((changes) => {
        for (const c of changes) for (const n of c.addedNodes) {
            if (!(n instanceof Element) || !n.classList.contains("ghost")) continue;
            const card = n.dataset.card;
            if (!card) continue;
            window.__flown.push(card);
            if (!seen.has(card)) window.__leaks.push(card);
        }
    }).observe(document.body, { childList: true, subtree: true });
    const sample = () => { window.__peak = Math.max(window.__peak, document.getAnimations().length); requestAnimationFrame(sample); };
    sample();
}"""


def _create(base: str, body: dict[str, Any]) -> tuple[str, str]:
    req = urllib.request.Request(f"{base}/api/tables", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        created = json.load(r)
    return created["table"]["id"], created["token"]


def _open(base: str, context: BrowserContext, body: dict[str, Any]) -> Page:
    """Create a table over HTTP and open it in `context` as seat 0."""
    table_id, token = _create(base, body)
    page = context.new_page()
    page.goto(f"{base}/t/{table_id}#seat=0&token={token}")
    page.wait_for_selector("body[data-phase]")
    return page


def _two_players(deals: int = 1) -> dict[str, Any]:
    return {"players": 2, "deals": deals, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "easy"}]}


def _settings(page: Page, **choices: str | bool) -> None:
    """Open the settings dialog, make the choices, and close it with Escape."""
    page.click("#btn-settings")
    assert page.locator("#settings-dialog").evaluate("(d) => d.open")
    for key, value in choices.items():
        field = f"#set-{key.replace('_', '-')}"
        if isinstance(value, bool):
            page.locator(field).set_checked(value)
        else:
            page.select_option(field, value)
    page.keyboard.press("Escape")
    assert not page.locator("#settings-dialog").evaluate("(d) => d.open")


def _act_and_wait(page: Page, act: Any) -> None:
    version = _state(page)["meta"]["version"]
    act()
    try:
        page.wait_for_function(f"() => window.mustamaija.meta.version > {version} && !window.mustamaija.pending",
                               timeout=60000)
    except PlaywrightTimeoutError as e:
        # Say what the page was waiting for, so that a failure on a loaded machine can be told apart.
        seen = page.evaluate("""() => ({version: window.mustamaija.meta.version, pending: window.mustamaija.pending,
            myTurn: document.body.dataset.myTurn, conn: document.getElementById("conn").textContent,
            welcomes: window.mustamaija.welcomes, toast: document.querySelector(".toast")?.textContent ?? null,
            legal: window.mustamaija.state && window.mustamaija.state.legal})""")
        raise AssertionError(f"the action after version {version} was not taken: {seen}") from e


def _turn_or_over(page: Page) -> str:
    page.wait_for_function(
        "() => { const a = window.mustamaija; return a.meta && a.state && !a.pending"
        " && (document.body.dataset.myTurn === '1' || a.meta.match.over); }", timeout=60000)
    return "over" if page.evaluate("window.mustamaija.meta.match.over") else "turn"


def _play_beating_deal(page: Page) -> int:
    """Play seat 0's part of a deal to its end by clicking what the page highlights; return the actions."""
    actions = 0
    while _turn_or_over(page) == "turn":
        legal = _state(page)["state"]["legal"]
        _act_and_wait(page, (lambda: _lead(page, by_keyboard=False)) if legal["kind"] == "lead" else (lambda: _defend(page)))
        actions += 1
    return actions


def _play_trick_hand(page: Page) -> int:
    """Pass the first three cards, then play the first highlighted card of each trick; return the plays."""
    plays = 0
    while _turn_or_over(page) == "turn":
        legal = _state(page)["state"]["legal"]
        if legal["kind"] == "pass":
            def pass_cards(count: int = legal["count"]) -> None:
                for card in page.locator("#hand button.card").all()[:count]:
                    _tap(card)
                page.click("#btn-pass")
            _act_and_wait(page, pass_cards)
        else:
            _act_and_wait(page, lambda: _tap(page.locator("#hand button.card.playable:not([disabled])").first))
            plays += 1
    return plays


def test_settings_apply_at_once_persist_and_hold_on_the_replay_page(server: str, browser: Browser) -> None:
    errors: list[str] = []
    page, _ = _seat_page(server, browser, _two_players())
    _watch_errors(page, errors)
    page.wait_for_selector("#hand button.card")
    card_width = "() => document.querySelector('#hand button.card').offsetWidth"
    medium = page.evaluate(card_width)
    root = "document.documentElement"
    assert page.evaluate(f"{root}.dataset.cardSize") == "medium"
    assert page.evaluate(f"{root}.classList.contains('four-colour')"), "four colours are the default"
    assert page.evaluate(f"{root}.dataset.sound") == "off", "sound is off until the player switches it on"

    # The dialog is reached from the top bar and works with the keyboard: focus lands in it, Escape closes it.
    page.focus("#btn-settings")
    page.keyboard.press("Enter")
    assert page.locator("#settings-dialog").evaluate("(d) => d.open")
    assert page.evaluate("document.activeElement.id") == "set-card-size"
    page.keyboard.press("Escape")
    assert not page.locator("#settings-dialog").evaluate("(d) => d.open")

    _settings(page, card_size="large", speed="slow", four_colour=False, sound=True)
    large = page.evaluate(card_width)
    assert large > medium * 1.1, (medium, large)
    assert page.evaluate(f"{root}.dataset.cardSize") == "large"
    assert page.evaluate(f"{root}.dataset.motion") == "slow"
    assert page.evaluate(f"{root}.classList.contains('two-colour') && !{root}.classList.contains('four-colour')")
    colours = "() => { const s = getComputedStyle(document.documentElement); " \
              "return ['S', 'H', 'D', 'C'].map((x) => s.getPropertyValue('--suit-' + x).trim()); }"
    spades, hearts, diamonds, clubs = page.evaluate(colours)
    assert diamonds == hearts and clubs == spades, "the classic two colours"
    # The faces drawn take the colours at once: a diamond is drawn as red as a heart.
    face = """(suit) => { const e = document.createElement('span'); document.body.append(e);
        return import('/static/js/cards.js').then((m) => { e.append(m.cardEl('9' + suit));
            const c = getComputedStyle(e.querySelector('.card-face')).color; e.remove(); return c; }); }"""
    assert page.evaluate(face, "D") == page.evaluate(face, "H")
    assert page.evaluate(f"{root}.dataset.sound") == "on"
    assert page.evaluate("window.mustamaija.sound.cues") >= 1, "switching sound on plays a sample"
    stored = json.loads(page.evaluate("localStorage.getItem('mustamaija:settings')"))
    assert stored == {"cardSize": "large", "speed": "slow", "fourColour": False, "sound": True}

    # A reload keeps them, and the dialog shows them.
    page.reload()
    page.wait_for_selector("#hand button.card")
    assert abs(page.evaluate(card_width) - large) <= 1
    assert page.evaluate(f"[{root}.dataset.cardSize, {root}.dataset.motion, {root}.dataset.sound]") == ["large", "slow", "on"]
    assert page.evaluate(f"{root}.classList.contains('two-colour')")
    page.click("#btn-settings")
    assert page.input_value("#set-card-size") == "large" and page.input_value("#set-speed") == "slow"
    assert not page.is_checked("#set-four-colour") and page.is_checked("#set-sound")
    page.select_option("#set-card-size", "small")
    page.locator("#set-four-colour").check()
    page.click("#settings-close")
    assert page.evaluate(card_width) < medium, "small cards"
    assert page.evaluate(f"{root}.classList.contains('four-colour')")
    _, hearts, diamonds, _ = page.evaluate(colours)
    assert diamonds != hearts

    # The replay viewer honours the same settings, and has the same dialog.
    page.goto(f"{server}/replay")
    page.wait_for_selector("#btn-settings")
    assert page.evaluate(f"[{root}.dataset.cardSize, {root}.dataset.motion]") == ["small", "slow"]
    assert page.evaluate(f"{root}.classList.contains('four-colour')")
    page.click("#btn-settings")
    assert page.input_value("#set-card-size") == "small"
    page.keyboard.press("Escape")
    page.close()
    assert not errors, errors


def test_whole_deals_of_both_layouts_play_with_motion_and_sound(server: str, browser: Browser) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport=DESKTOP)
    page = _open(server, context, _two_players())
    _watch_errors(page, errors)
    page.evaluate(_RECORD)
    assert page.evaluate("document.documentElement.dataset.motion") == "normal", "motion is on by default"
    _settings(page, speed="fast", sound=True)
    assert _play_beating_deal(page) >= 3
    page.wait_for_selector("#replay-link")
    motion = page.evaluate("window.mustamaija.motion")
    assert motion["animations"] > 0 and motion["runs"] > 0, motion
    assert motion["ghosts"] > 0, "cards that left the view (drawn, picked up, discarded) flew as copies"
    assert page.evaluate("window.__peak") > 0, "document.getAnimations() saw cards moving"
    assert page.evaluate("window.__leaks") == [], "a copy in flight showed a card the seat was never shown"
    sounds = page.evaluate("window.mustamaija.sound")
    assert sounds["cues"] > 3 and sounds["last"] in ("win", "lose", "over"), sounds
    # A rematch deals again, and the new hand is dealt on the screen card by card.
    page.click("#btn-rematch")
    page.wait_for_function(f"() => window.mustamaija.motion.deals === {motion['deals'] + 1}", timeout=30000)
    assert page.evaluate("window.__leaks") == []
    # The replay steps move the cards too.
    page.goto(f"{server}/replay/{page.evaluate('window.mustamaija.meta.id')}/1")
    page.wait_for_selector("body[data-frames]")
    page.click("#next")
    page.click("#next")
    assert page.evaluate("window.mustamaija.motion.runs") >= 1
    page.close()

    # A hand of the trick layout: passing, the tricks going to their winners, the hand's end.
    body = {"game": "black-maria", "players": 4, "rules": {"hands": 1},
            "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "easy"}] * 3}
    page = _open(server, context, body)
    _watch_errors(page, errors)
    page.evaluate(_RECORD)
    assert _play_trick_hand(page) == 13
    motion = page.evaluate("window.mustamaija.motion")
    assert motion["animations"] > 0 and motion["ghosts"] >= 13, motion
    flown = page.evaluate("window.__flown")
    assert len(flown) >= 13, "the tricks' cards flew to their winners"
    assert page.evaluate("window.__leaks") == [], "a copy in flight showed a card the seat was never shown"
    assert page.evaluate("window.mustamaija.sound.last") in ("win", "lose", "over")
    context.close()
    assert not errors, errors


def test_reduced_motion_moves_nothing_until_the_player_picks_a_speed(server: str, browser: Browser) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    page = _open(server, context, _two_players())
    _watch_errors(page, errors)
    page.evaluate(_RECORD)
    assert page.evaluate("document.documentElement.dataset.motion") == "off"
    for _ in range(4):
        if _turn_or_over(page) == "over":
            break
        legal = _state(page)["state"]["legal"]
        _act_and_wait(page, (lambda: _lead(page, by_keyboard=False)) if legal["kind"] == "lead" else (lambda: _defend(page)))
    assert page.evaluate("window.mustamaija.motion") == {"runs": 0, "animations": 0, "ghosts": 0, "deals": 0}
    assert page.evaluate("window.__peak") == 0, "nothing moved"
    # The dialog says why, and a speed chosen by the player is obeyed.
    page.click("#btn-settings")
    assert "reduced motion" in page.inner_text("#set-speed-note")
    page.select_option("#set-speed", "normal")
    page.keyboard.press("Escape")
    assert page.evaluate("document.documentElement.dataset.motion") == "normal"
    for _ in range(4):
        if _turn_or_over(page) == "over" or page.evaluate("window.mustamaija.motion.animations") > 0:
            break
        legal = _state(page)["state"]["legal"]
        _act_and_wait(page, (lambda: _lead(page, by_keyboard=False)) if legal["kind"] == "lead" else (lambda: _defend(page)))
    assert page.evaluate("window.mustamaija.motion.animations") > 0
    context.close()
    assert not errors, errors


def test_a_click_while_cards_move_is_taken_at_once(server: str, browser: Browser) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script("localStorage.setItem('mustamaija:settings', JSON.stringify({speed: 'slow'}))")
    page = _open(server, context, _two_players(deals=3))
    _watch_errors(page, errors)
    tried = False
    for _ in range(60):
        if _turn_or_over(page) == "over":
            break
        legal = _state(page)["state"]["legal"]
        if legal["kind"] != "lead":
            _act_and_wait(page, lambda: _defend(page))
            continue
        page.locator("#actions").scroll_into_view_if_needed()
        version = _state(page)["meta"]["version"]
        # Choosing a card lifts it (an animation); the Lead button is clicked with the mouse while it rises.
        page.locator("#hand button.card.playable").first.click()
        moving = page.evaluate("document.getAnimations().length")
        box = page.locator("#btn-lead").bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function(f"() => window.mustamaija.meta.version > {version} && !window.mustamaija.pending",
                               timeout=10000)
        if moving:
            tried = True
            break
    assert tried, "no lead came while a card was moving"
    page.close()
    context.close()
    assert not errors, errors
