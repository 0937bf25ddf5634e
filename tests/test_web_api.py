"""The web app's HTTP API, in process: every endpoint and its error paths (docs/web.md)."""

from __future__ import annotations

import json
import re
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mustamaija.games.mustamaija.record import Record
from mustamaija.web import ServerConfig, create_app
from mustamaija.web import app as app_module
from mustamaija.web import pages as pages_module
from mustamaija.web.pages import PAGES, page

FAST: dict[str, Any] = {"bot_pace": 0.0, "deal_pause": 0.0, "hint_seconds": 0.2}
QUICK: dict[str, Any] = {**FAST, "http_burst": 100000}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(**QUICK))) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    assert message
    return message


def wait_turn(c: TestClient, tid: str, token: str, timeout: float = 20.0) -> dict[str, Any]:
    """Return the seat's state answer once it is that seat's turn or the match is over."""
    deadline = time.monotonic() + timeout
    while True:
        body: dict[str, Any] = c.get(f"/api/tables/{tid}/state", headers=auth(token)).json()
        if body["table"]["status"] == "over" or (body["state"] and body["state"]["legal"]):
            return body
        assert time.monotonic() < deadline, "the bots did not act in time"
        time.sleep(0.01)


def two_seat_table(c: TestClient, **extra: Any) -> tuple[str, str]:
    r = c.post("/api/tables", json={"players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "easy"}], **extra})
    assert r.status_code == 201, r.text
    return r.json()["table"]["id"], r.json()["token"]


def play_out(c: TestClient, tid: str, token: str) -> dict[str, Any]:
    """Play the person's seat with its first legal action until the match is over."""
    while True:
        body = wait_turn(c, tid, token)
        if body["table"]["status"] == "over":
            return body
        action = body["state"]["legal"]["actions"][0]
        r = c.post(f"/api/tables/{tid}/actions", headers=auth(token),
                   json={"version": body["table"]["version"], "action": action})
        assert r.status_code == 200, r.text


# -- server facts ------------------------------------------------------------------------------


def test_health_bots_presets_and_openapi(client: TestClient) -> None:
    assert client.get("/api/health").json()["ok"] is True
    bots = client.get("/api/bots").json()
    assert [lv["level"] for lv in bots["levels"]] == ["easy", "medium", "hard", "expert"]
    assert "heuristic" in bots["bots"]
    presets = client.get("/api/presets").json()["presets"]
    assert presets["standard"]["hand_size"] == 5
    spec = client.get("/openapi.json").json()
    for path in ("/api/tables", "/api/tables/{table_id}/actions", "/api/tables/{table_id}/stream", "/api/replay"):
        assert path in spec["paths"], path


def test_pages_come_from_their_templates_and_files_from_the_static_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "base.html").write_text("<!doctype html><title>{% block title %}{% endblock %}</title>{% block main %}{% endblock %}")
    for name in ("index.html", "table.html", "replay.html"):
        (pages / name).write_text('{% extends "base.html" %}{% block title %}' + name + "{% endblock %}"
                                  "{% block main %}<p>{{ '<b>' }}</p>{% endblock %}")
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "app.js").write_text("export const x = 1;\n")
    monkeypatch.setattr(app_module, "STATIC_DIR", tmp_path)
    monkeypatch.setattr(pages_module, "PAGES_DIR", pages)
    with TestClient(create_app(ServerConfig(**QUICK))) as c:
        for path, name in (("/", "index.html"), ("/t/abc", "table.html"), ("/replay", "replay.html"),
                           ("/replay/abc/3", "replay.html")):
            r = c.get(path)
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
            assert r.text == f"<!doctype html><title>{name}</title><p>&lt;b&gt;</p>"  # Rendered, and escaped.
        js = c.get("/static/js/app.js")
        assert js.status_code == 200 and "javascript" in js.headers["content-type"]
        assert c.get("/static/nope.js").status_code == 404
        assert c.get("/puzzles").status_code == 404 and "puzzles.html is missing" in c.get("/puzzles").text


def test_a_missing_page_is_a_clear_404(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages_module, "PAGES_DIR", tmp_path)
    with TestClient(create_app(ServerConfig(**QUICK))) as c:
        r = c.get("/")
        assert r.status_code == 404 and "index.html is missing" in r.text


@pytest.mark.parametrize("name", PAGES)
def test_every_page_renders_with_the_shared_layout(name: str) -> None:
    # Every page: one head with the page's own module, one top bar whose first link is the brand, and the
    # shared pieces it uses expanded (a macro call left as text, or an unset name, would show or fail here).
    html = page(name).body.decode()
    assert html.startswith("<!doctype html>") and html.count("<header class=\"topbar\">") == 1
    assert '<a class="brand" href="/"><img class="logo" src="/static/img/logo.svg" alt="">Card tables</a>' in html
    assert "{{" not in html and "{%" not in html and "parts." not in html
    scripts = re.findall(r'<script type="module" src="/static/js/([a-z]+\.js)"></script>', html)
    assert len(scripts) == (0 if name == "404.html" else 1)
    for script in scripts:
        assert (app_module.STATIC_DIR / "js" / script).is_file()
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "an id appears twice"
    for target in re.findall(r'href="#([^"]+)"', html) + re.findall(r'aria-controls="([^"]+)"', html):
        assert target in ids, f"{name} points at #{target}, which it does not have"


def test_pages_answer_head_as_they_answer_get(client: TestClient) -> None:
    # Link checkers and uptime monitors send HEAD: they get GET's status and headers, without the body.
    for path in ("/", "/t/abc", "/replay", "/replay/abc/3", "/puzzles", "/editor", "/ratings"):
        got, head = client.get(path), client.head(path)
        assert got.status_code == head.status_code == 200, path
        assert head.headers["content-type"] == got.headers["content-type"] and head.content == b""
        assert head.headers["content-length"] == str(len(got.content))
    assert "does not take POST" in error(client.post("/"), 405, "method_not_allowed")


def test_a_browser_that_has_a_page_is_told_it_has_not_changed(client: TestClient) -> None:
    # Pages carry an ETag of their bytes and must be revalidated (no-cache), so a browser asks each time, and
    # gets 304 with no body for a page it has: a new version of the app reaches it at once, and costs nothing else.
    seen = set()
    for path in ("/", "/t/abc", "/replay", "/replay/abc/3", "/puzzles", "/editor", "/ratings"):
        got = client.get(path)
        etag = got.headers["etag"]
        assert got.status_code == 200 and got.headers["cache-control"] == "no-cache" and etag.startswith('"'), path
        seen.add(etag)
        for asked in (etag, f'"other", W/{etag}', "*"):
            again = client.get(path, headers={"if-none-match": asked})
            assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag, (path, asked)
        assert client.head(path, headers={"if-none-match": etag}).status_code == 304
        assert client.get(path, headers={"if-none-match": '"stale"'}).text == got.text
    assert len(seen) == 6  # One page serves /replay and /replay/…; the others differ.
    # A missing page is never "not modified", even when asked with its page's tag.
    missing = client.get("/nothing", headers={"accept": "text/html"})
    assert client.get("/nothing", headers={"accept": "text/html", "if-none-match": missing.headers["etag"]}).status_code == 404
    # The static files have their own validators (Starlette's).
    js = client.get("/static/js/api.js")
    assert client.get("/static/js/api.js", headers={"if-none-match": js.headers["etag"]}).status_code == 304


def test_unknown_routes_and_methods(client: TestClient) -> None:
    assert "GET /api/nothing" in error(client.get("/api/nothing"), 404, "not_found")
    error(client.put("/api/tables"), 405, "method_not_allowed")


def test_a_browser_at_an_unknown_address_gets_a_page_back_to_the_lobby(client: TestClient) -> None:
    html = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    for path in ("/nothing", "/t", "/replays/x", "/t/abc/extra"):
        r = client.get(path, headers=html)
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html"), path
        assert "Page not found" in r.text and 'id="missing-lobby" href="/"' in r.text
        assert "nothing" not in r.text.replace("<!doctype", "")  # The address is not echoed into the page.
    # Programs get the API's JSON error, and so do the API and static files whatever they accept.
    assert "GET /nothing" in error(client.get("/nothing"), 404, "not_found")
    error(client.get("/api/nothing", headers=html), 404, "not_found")
    assert client.get("/static/nope.js", headers=html).headers["content-type"].startswith("application/json")


# -- creating, listing and joining ----------------------------------------------------------------


def test_create_with_defaults_sits_the_creator(client: TestClient) -> None:
    r = client.post("/api/tables", json={"player_name": "Ann"})
    assert r.status_code == 201
    body = r.json()
    meta = body["table"]
    assert meta["players"] == 3 and meta["preset"] == "standard" and meta["match"]["deals"] == 5
    assert [s["kind"] for s in meta["seats"]] == ["person", "bot", "bot"]
    assert meta["seats"][0]["name"] == "Ann" and meta["seats"][1]["bot"] == "medium"
    assert body["seat"] == 0 and body["url"] == f"/t/{meta['id']}#seat=0&token={body['token']}"
    assert meta["status"] == "playing" and meta["deal"] == 1
    assert body["token"] not in str(meta)


def test_lobby_lists_open_and_running_public_tables_only(client: TestClient) -> None:
    open_id = client.post("/api/tables", json={"players": 2, "seats": [{"kind": "person"}] * 2}).json()["table"]["id"]
    running_id = two_seat_table(client)[0]
    private_id = two_seat_table(client, private=True)[0]
    lobby = client.get("/api/tables").json()
    assert [t["id"] for t in lobby["open"]] == [open_id]
    running = [t["id"] for t in lobby["running"]]
    assert running_id in running and private_id not in running
    assert client.get(f"/api/tables/{private_id}").json()["table"]["private"] is True


def test_create_errors_name_the_fault(client: TestClient) -> None:
    assert "players" in error(client.post("/api/tables", json={"players": 1}), 400, "bad_request")
    assert "players" in error(client.post("/api/tables", json={"players": "3"}), 400, "bad_request")
    assert "V1" in error(client.post("/api/tables", json={"players": 7}), 400, "bad_rules")
    assert "nope" in error(client.post("/api/tables", json={"preset": "nope"}), 400, "bad_rules")
    assert "hand_size" in error(client.post("/api/tables", json={"rules": {"hand_size": 4}}), 400, "bad_rules")
    assert "colour" in error(client.post("/api/tables", json={"rules": {"colour": 1}}), 400, "bad_rules")
    seats = [{"kind": "bot", "bot": "grandmaster"}] * 3
    assert "grandmaster" in error(client.post("/api/tables", json={"seats": seats}), 400, "bad_bot")
    assert "2 seats" in error(client.post("/api/tables", json={"seats": [{"kind": "person"}] * 2}), 400, "bad_request")
    error(client.post("/api/tables", json={"seats": [{"kind": "alien"}] * 3}), 400, "bad_request")
    # What a person seat cannot use is refused, not quietly dropped.
    named = [{"kind": "person", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}]
    assert "player_name" in error(client.post("/api/tables", json={"seats": named}), 400, "bad_request")
    botted = [{"kind": "bot"}, {"kind": "person", "bot": "hard"}, {"kind": "bot"}]
    assert "seat 1" in error(client.post("/api/tables", json={"seats": botted}), 400, "bad_request")
    assert "wat" in error(client.post("/api/tables", json={"wat": 1}), 400, "bad_request")
    error(client.post("/api/tables", json={"deals": 0}), 400, "bad_request")
    headers = {"content-type": "application/json"}
    assert "not valid JSON" in error(client.post("/api/tables", content="{", headers=headers), 400, "bad_json")
    error(client.post("/api/tables", content="[1, 2]", headers=headers), 400, "bad_json")
    big = '{"name": "' + "x" * 70000 + '"}'
    error(client.post("/api/tables", content=big, headers=headers), 413, "too_large")


def test_join_fills_seats_and_starts_the_match(client: TestClient) -> None:
    body = {"players": 3, "seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "easy"}], "sit": False}
    r = client.post("/api/tables", json=body)
    tid = r.json()["table"]["id"]
    assert r.json()["token"] is None and r.json()["table"]["status"] == "waiting"
    assert client.get(f"/api/tables/{tid}").json()["state"] is None
    assert "bot" in error(client.post(f"/api/tables/{tid}/join", json={"seat": 2}), 409, "seat_taken")
    error(client.post(f"/api/tables/{tid}/join", json={"seat": 5}), 400, "bad_request")
    error(client.post(f"/api/tables/{tid}/join", json={"seat": "1"}), 400, "bad_request")
    first = client.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "  Bea \n  B "}).json()
    assert first["seat"] == 1 and first["table"]["seats"][1]["name"] == "Bea B"
    assert first["table"]["status"] == "waiting"
    error(client.post(f"/api/tables/{tid}/join", json={"seat": 1}), 409, "seat_taken")
    second = client.post(f"/api/tables/{tid}/join").json()
    assert second["seat"] == 0 and second["table"]["status"] == "playing"
    assert first["token"] != second["token"]
    error(client.post(f"/api/tables/{tid}/join", json={}), 409, "no_free_seat")
    error(client.post("/api/tables/nosuchtable/join", json={}), 404, "not_found")


# -- state and actions --------------------------------------------------------------------------------


def test_state_shows_the_seat_its_own_view(client: TestClient) -> None:
    tid, token = two_seat_table(client)
    mine = client.get(f"/api/tables/{tid}/state", headers=auth(token)).json()
    assert mine["seat"] == 0 and len(mine["state"]["hand"]) == 5 and mine["state"]["seat"] == 0
    spectator = client.get(f"/api/tables/{tid}/state").json()
    assert spectator["seat"] is None and spectator["state"]["hand"] == [] and spectator["state"]["legal"] is None
    public = client.get(f"/api/tables/{tid}").json()["state"]
    assert public["hand"] == [] and public["hand_sizes"] == mine["state"]["hand_sizes"]
    error(client.get(f"/api/tables/{tid}/state", headers=auth("wrong")), 401, "unauthorized")
    error(client.get(f"/api/tables/{tid}/state", headers={"Authorization": "Basic abc"}), 401, "unauthorized")
    error(client.get("/api/tables/nosuchtable/state"), 404, "not_found")


def test_actions_are_checked_for_version_turn_shape_and_legality(client: TestClient) -> None:
    r = client.post("/api/tables", json={"players": 2, "seats": [{"kind": "person"}, {"kind": "person"}], "sit": False})
    tid = r.json()["table"]["id"]
    tokens = [client.post(f"/api/tables/{tid}/join", json={"seat": s}).json()["token"] for s in (0, 1)]
    body = client.get(f"/api/tables/{tid}/state", headers=auth(tokens[0])).json()
    state, version = body["state"], body["table"]["version"]
    actor = state["to_act"]
    me, other = tokens[actor], tokens[1 - actor]
    mine = client.get(f"/api/tables/{tid}/state", headers=auth(me)).json()["state"]
    lead = mine["legal"]["actions"][0]
    url = f"/api/tables/{tid}/actions"
    assert "seat" in error(client.post(url, headers=auth(other), json={"version": version, "action": lead}), 409,
                           "not_your_turn")
    assert f"version {version}" in error(client.post(url, headers=auth(me), json={"version": version - 1, "action": lead}),
                                          409, "stale")
    error(client.post(url, json={"version": version, "action": lead}), 401, "unauthorized")
    error(client.post(url, headers=auth("nope"), json={"version": version, "action": lead}), 401, "unauthorized")
    error(client.post(url, headers=auth(me), json={"version": version, "action": {"lead": ["XX"]}}), 400, "bad_request")
    error(client.post(url, headers=auth(me), json={"version": version, "action": {"fold": True}}), 400, "bad_request")
    error(client.post(url, headers=auth(me), json={"version": version, "action": {"seat": 1 - actor, **lead}}), 400,
          "bad_request")
    error(client.post(url, headers=auth(me), json={"version": version}), 400, "bad_request")
    absent = next(c for c in ("2C", "3C", "4C", "5C", "6C", "7C") if c not in mine["hand"])
    r = client.post(url, headers=auth(me), json={"version": version, "action": {"lead": [absent]}})
    error(r, 422, "illegal")
    assert r.json()["error"]["rule"]
    r = client.post(url, headers=auth(me), json={"version": version, "action": lead})
    assert r.json() == {"ok": True, "version": version + 1}
    after = client.get(f"/api/tables/{tid}/state", headers=auth(other)).json()
    assert after["state"]["phase"] == "defend" and after["state"]["legal"]["kind"] == "beat"
    assert [t["led"] for t in after["state"]["table"]] == lead["lead"]


def test_acting_at_a_waiting_table_is_not_playing(client: TestClient) -> None:
    r = client.post("/api/tables", json={"players": 2, "seats": [{"kind": "person"}] * 2})
    tid, token = r.json()["table"]["id"], r.json()["token"]
    r = client.post(f"/api/tables/{tid}/actions", headers=auth(token), json={"version": 0, "action": {"lead": ["2C"]}})
    error(r, 409, "not_playing")


def test_hints_follow_the_table_setting(client: TestClient) -> None:
    tid, token = two_seat_table(client)
    body = wait_turn(client, tid, token)
    hint = client.get(f"/api/tables/{tid}/hint", headers=auth(token)).json()["hint"]
    assert hint["seat"] == 0 and hint["best"]["actions"]
    kinds = {"lead", "beat"}
    assert set(hint["best"]["actions"][0]) & kinds and body["state"]["legal"]["kind"] in kinds
    error(client.get(f"/api/tables/{tid}/hint"), 403, "not_seated")
    manager = client.app.state.manager  # type: ignore[attr-defined]
    manager._hints = 2  # As if two hints were being computed.
    assert "hints" in error(client.get(f"/api/tables/{tid}/hint", headers=auth(token)), 429, "rate_limited")
    manager._hints = 0
    tid2, token2 = two_seat_table(client, hints=False)
    error(client.get(f"/api/tables/{tid2}/hint", headers=auth(token2)), 403, "hints_disabled")


def test_hint_out_of_turn_is_refused(client: TestClient) -> None:
    r = client.post("/api/tables", json={"players": 2, "seats": [{"kind": "person"}] * 2, "sit": False})
    tid = r.json()["table"]["id"]
    tokens = [client.post(f"/api/tables/{tid}/join", json={"seat": s}).json()["token"] for s in (0, 1)]
    actor = client.get(f"/api/tables/{tid}").json()["state"]["to_act"]
    error(client.get(f"/api/tables/{tid}/hint", headers=auth(tokens[1 - actor])), 409, "not_your_turn")


# -- matches, rematch, records and replays ----------------------------------------------------------


def test_a_match_ends_then_exports_replays_and_rematches(client: TestClient) -> None:
    tid, token = two_seat_table(client, deals=1)
    deals = client.get(f"/api/tables/{tid}/deals").json()["deals"]
    assert deals[0]["finished"] is False
    error(client.get(f"/api/tables/{tid}/deals/1/record"), 409, "deal_not_finished")
    error(client.get(f"/api/tables/{tid}/deals/1/replay"), 409, "deal_not_finished")
    error(client.post(f"/api/tables/{tid}/rematch", headers=auth(token)), 409, "match_not_over")
    final = play_out(client, tid, token)
    meta = final["table"]
    assert meta["status"] == "over" and meta["match"]["over"] and meta["match"]["played"] == 1
    result = meta["match"]["results"][0]
    assert result["deal"] == 1 and sum(meta["match"]["losses"]) == (0 if result["stopped"] else 1)
    r = client.get(f"/api/tables/{tid}/deals/1/record")
    assert "attachment" in r.headers["content-disposition"]
    record = Record.from_json(r.json())
    end = record.replay()
    assert end.is_over and r.json()["names"][1] == "bot 1 · easy"
    replay = client.get(f"/api/tables/{tid}/deals/1/replay").json()
    assert len(replay["frames"]) == len(record.actions) + 1 and replay["finished"] is True
    assert replay["names"][1] == "bot 1 · easy"
    assert sum(len(h) for h in replay["frames"][0]["hands"]) == 10 and len(replay["frames"][0]["talon"]) == 42
    error(client.get(f"/api/tables/{tid}/deals/9/record"), 404, "not_found")
    error(client.get("/api/tables/nosuch/deals/1/replay"), 404, "not_found")
    error(client.post(f"/api/tables/{tid}/rematch"), 403, "not_seated")
    again = client.post(f"/api/tables/{tid}/rematch", headers=auth(token)).json()["table"]
    assert again["status"] == "playing" and again["match"]["number"] == 2 and again["deal"] == 2
    assert again["match"]["played"] == 0 and again["match"]["losses"] == [0, 0]
    assert [d["deal"] for d in client.get(f"/api/tables/{tid}/deals").json()["deals"]] == [1, 2]


def test_importing_a_record_gives_its_replay(client: TestClient) -> None:
    record = Record.from_seed(players=3, seed=11)
    state = record.start()
    actions = []
    for _ in range(6):
        action = next(iter(state.legal_leads())) if state.phase == 0 else next(iter(state.legal_beats()))
        state.play(action)
        actions.append(action)
    obj = record.with_actions(tuple(actions)).to_json()
    replay = client.post("/api/replay", json=obj).json()
    assert len(replay["frames"]) == 7 and replay["finished"] is False
    assert replay["frames"][1]["action"] == actions[0].to_json() and replay["frames"][1]["table"]
    bad = dict(obj, actions=[{"seat": 0, "lead": ["AS"]}, *obj["actions"]])
    assert "action 0" in error(client.post("/api/replay", json=bad), 400, "bad_record")
    assert "deck" in error(client.post("/api/replay", json={"players": 3}), 400, "bad_record")
    error(client.post("/api/replay", json=[1]), 400, "bad_json")


def test_http_requests_are_rate_limited_per_client() -> None:
    with TestClient(create_app(ServerConfig(http_burst=5, http_rate=0.01, **FAST))) as c:
        codes = [c.get("/api/health").status_code for _ in range(8)]
        assert codes[:5] == [200] * 5 and codes[5:] == [429] * 3
        error(c.get("/api/health"), 429, "rate_limited")


def test_garbage_never_gets_a_500(client: TestClient) -> None:
    tid, token = two_seat_table(client)
    bodies: list[Any] = [None, 0, "x", [], {}, {"version": True, "action": {"lead": 5}}, {"seat": -1},
                         {"players": 2.5}, {"seats": [None]}, {"rules": []}, {"actions": "x", "players": 2, "deck": []},
                         {"version": 10**30, "action": {"beat": {"XX": "YY"}}}, {"action": {"declare": ["H"]}, "version": 1}]
    paths = ["/api/tables", f"/api/tables/{tid}/join", f"/api/tables/{tid}/actions", f"/api/tables/{tid}/rematch",
             "/api/replay", f"/api/tables/{tid}/actions?x=%00", "/api/tables/%00/join"]
    for path in paths:
        for body in bodies:
            for headers in (auth(token), {"Authorization": "Bearer"}):
                r = client.post(path, json=body, headers=headers)
                assert r.status_code < 500, (path, body, r.text)
                assert "error" in r.json() or r.status_code in (200, 201)
    for path in (f"/api/tables/{tid}/stream?since=x", f"/api/tables/{tid}/deals/x/record", "/api/tables/" + "x" * 100,
                 f"/api/tables/{tid}/hint"):
        r = client.get(path, headers=auth("wrong"))
        assert 400 <= r.status_code < 500 and "error" in r.json(), (path, r.text)


def test_stream_errors_come_before_the_stream(client: TestClient) -> None:
    tid, _ = two_seat_table(client)
    error(client.get(f"/api/tables/{tid}/stream", headers=auth("wrong")), 401, "unauthorized")
    error(client.get("/api/tables/nosuch/stream"), 404, "not_found")
    error(client.get(f"/api/tables/{tid}/stream?since=soon"), 400, "bad_request")


def test_a_chunked_body_over_the_limit_is_refused(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(80):
            yield b"x" * 1024
        yield b'"}'

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    error(r, 413, "too_large")



def test_spades_put_back_are_told_at_the_deal_and_at_the_lead() -> None:
    # Issue 16, bug 6: a spade turned and put back (M7) was in no event, so the log never told it.
    from mustamaija.core.cards import card_name, cards_of
    from mustamaija.web.bots import cheap_action
    from mustamaija.web.live import LiveTable, check_config

    for turn in ("after_deal", "after_first_lead"):
        config, seats = check_config({"players": 3, "rules": {"trump_turn": turn}, "deals": 500,
                                      "seats": [{"kind": "bot", "bot": "easy"}] * 3}, 60.0)
        table = LiveTable("t", config, seats)
        told = 0
        for deal in range(200):  # About one deal in four turns a spade first.
            table.start_match()
            event = table.start_deal()[0]
            if turn == "after_first_lead":
                assert "turned" not in event
                event = table.apply(cheap_action(table.game, table.state, "random", deal), "bot")[0]
            state = table.state
            assert event["turned"] == card_name(state.trump_card)
            assert event.get("put_back", []) == [card_name(c) for c in cards_of(state.revealed)]
            told += bool(state.revealed)
            if told >= 3:
                break
        assert told >= 3, f"{turn}: no spade was turned in 200 deals"


def _a_deal_of_bots_finished(c: TestClient, players: int) -> str:
    """Create a table of easy bots and return its id once its first deal is finished."""
    tid: str = c.post("/api/tables", json={"players": players, "deals": 2, "sit": False, "seats": [
        {"kind": "bot", "bot": "easy"}] * players}).json()["table"]["id"]
    deadline = time.monotonic() + 60
    while not any(d["finished"] for d in c.get(f"/api/tables/{tid}/deals").json()["deals"]):
        assert time.monotonic() < deadline, "no deal finished"
        time.sleep(0.02)
    return tid


def test_a_finished_deal_can_be_reviewed_and_the_review_is_kept() -> None:
    # Issue 16: game review in the web replay viewer, from GET .../deals/N/review.
    from mustamaija.core.registry import get_game

    config = ServerConfig(bot_pace=0.0, deal_pause=0.0, http_burst=100000, review_iters=8)
    with TestClient(create_app(config)) as c:
        tid = _a_deal_of_bots_finished(c, 2)
        record = c.get(f"/api/tables/{tid}/deals/1/record").json()
        review = c.get(f"/api/tables/{tid}/deals/1/review").json()["review"]
        game = get_game("mustamaija")
        assert review["game"] == "mustamaija" and review["iters"] == 8 and review["names"] == record["names"]
        assert [d["index"] for d in review["decisions"]] == list(range(len(record["actions"])))
        assert {d["mark"] for d in review["decisions"]} <= {"best", "inaccuracy", "mistake", "blunder", "forced"}
        assert [s["seat"] for s in review["seats"]] == [0, 1]
        assert review["outcome"] == game.outcome_text(game.load_record(record).replay())
        started = time.monotonic()
        assert c.get(f"/api/tables/{tid}/deals/1/review").json()["review"] == review  # Kept: not made again.
        assert time.monotonic() - started < 1.0
        assert error(c.get(f"/api/tables/{tid}/deals/99/review"), 404, "not_found")


def test_a_review_asked_without_waiting_says_how_far_it_is_until_it_is_made() -> None:
    # A review at the strongest bot's budget takes up to half a minute: a page asks with wait=false and gets 202
    # with the decisions judged so far, the review being made in the background, until it gets the review.
    config = ServerConfig(bot_pace=0.0, deal_pause=0.0, http_burst=100000, review_iters=200)
    with TestClient(create_app(config)) as c:
        tid = _a_deal_of_bots_finished(c, 3)
        deadline = time.monotonic() + 60
        # The server deals from its own entropy: a failure shows the record, to review again offline.
        record = c.get(f"/api/tables/{tid}/deals/1/record").json()
        actions = len(record["actions"])
        url = f"/api/tables/{tid}/deals/1/review?wait=false"
        first = c.get(url)
        assert first.status_code == 202 and first.json() == {"progress": {"done": 0, "total": 0}}  # Just started.
        seen = []
        while (r := c.get(url)).status_code == 202:
            progress = r.json()["progress"]
            seen.append(progress["done"])
            assert progress["total"] in (0, actions) and 0 <= progress["done"] <= progress["total"]
            assert time.monotonic() < deadline + 120, (
                f"the review never came: {progress} of {actions} decisions judged; record {json.dumps(record)}")
            time.sleep(0.05)
        assert r.status_code == 200 and seen == sorted(seen) and any(seen), seen
        review = r.json()["review"]
        assert review["iters"] == 200 and len(review["decisions"]) == actions
        assert c.get(f"/api/tables/{tid}/deals/1/review").json()["review"] == review  # The same review, kept.
        assert c.get(url).json() == {"review": review}
        assert error(c.get(f"/api/tables/{tid}/deals/1/review?wait=maybe"), 400, "bad_request")
        assert error(c.get(f"/api/tables/{tid}/deals/99/review?wait=false"), 404, "not_found")


def test_a_review_is_kept_in_the_database_and_given_after_a_restart(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # A review costs seconds of search at every decision: once made it is stored, so a restarted server (or
    # another server of a cluster) gives it without searching again; a server with another budget makes its own.
    import mustamaija.web.manager as manager_module

    db = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    config = ServerConfig(db_url=db, bot_pace=0.0, deal_pause=0.0, http_burst=100000, review_iters=8)
    with TestClient(create_app(config)) as c:
        tid = _a_deal_of_bots_finished(c, 2)
        review = c.get(f"/api/tables/{tid}/deals/1/review").json()["review"]

    def no_search(*_args: object) -> None:
        raise AssertionError("the stored review was made again")

    monkeypatch.setattr(manager_module, "_review_point", no_search)
    with TestClient(create_app(config)) as c:  # A new server on the same database.
        assert c.get(f"/api/tables/{tid}/deals/1/review?wait=false").json() == {"review": review}
        assert c.get(f"/api/tables/{tid}/deals/1/review").json() == {"review": review}
    monkeypatch.undo()
    with TestClient(create_app(ServerConfig(**{**config.__dict__, "review_iters": 12}))) as c:
        again = c.get(f"/api/tables/{tid}/deals/1/review").json()["review"]
        assert again["iters"] == 12 and len(again["decisions"]) == len(review["decisions"])


def test_a_turn_clock_lets_a_bot_move_for_a_person_who_runs_out_of_time() -> None:
    # Issue 16: a visible turn clock for people, when the table has one, and the take-over countdown.
    config = ServerConfig(bot_pace=0.0, deal_pause=0.0, http_burst=100000)
    with TestClient(create_app(config)) as c:
        assert error(c.post("/api/tables", json={"turn_seconds": 1}), 400, "bad_request")  # At least 3 s.
        created = c.post("/api/tables", json={"players": 2, "turn_seconds": 3, "seats": [
            {"kind": "person"}, {"kind": "bot", "bot": "easy"}]}).json()
        tid, token = created["table"]["id"], created["token"]
        mine = wait_turn(c, tid, token)
        clock = mine["table"]["clock"]
        assert mine["table"]["turn_seconds"] == 3 and clock["seat"] == 0 and clock["kind"] == "turn"
        assert 0 < clock["in"] <= 3
        version = mine["table"]["version"]
        deadline = time.monotonic() + 10
        while c.get(f"/api/tables/{tid}").json()["table"]["version"] == version:
            assert time.monotonic() < deadline, "the turn clock ran out and nobody moved"
            time.sleep(0.05)
        events = c.app.state.manager.store.events_since(tid, 0)  # type: ignore[attr-defined]
        mine_moves = [e for e in events if e["kind"] == "action" and e["seat"] == 0]
        assert mine_moves[0]["by"] == "clock"
        # Without a clock, nobody moves for a person who is here.
        calm = c.post("/api/tables", json={"players": 2, "seats": [
            {"kind": "person"}, {"kind": "bot", "bot": "easy"}]}).json()
        calm_state = wait_turn(c, calm["table"]["id"], calm["token"])
        assert calm_state["table"]["clock"] is None or calm_state["table"]["clock"]["kind"] == "takeover"
