"""One web stack for every game of the registry, in process: the game list, tables, named bots, hints, replays, rematch.

Every test runs for each registered game; none of them knows a game's rules
beyond what the registry and the game protocol say.
"""

from __future__ import annotations

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

from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME, game_names, get_game
from mustamaija.players.levels import levels, seat_label
from mustamaija.web import ServerConfig, create_app
from mustamaija.web.renderer import renderer_of
from web_live import auth

WEB = Path(__file__).resolve().parents[1] / "src" / "mustamaija" / "web"
FAST: dict[str, Any] = {"bot_pace": 0.0, "deal_pause": 0.0, "hint_seconds": 0.2, "http_burst": 100000, "ws_rate": 1000.0}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(**FAST))) as c:
        yield c


@pytest.fixture(params=game_names())
def game(request: pytest.FixtureRequest) -> Game:
    return get_game(request.param)


def wait_for(c: TestClient, tid: str, predicate: Any, what: str, token: str | None = None) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while True:
        body: dict[str, Any] = c.get(f"/api/tables/{tid}/state", headers=auth(token) if token else {}).json()
        if predicate(body):
            return body
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def test_the_game_list_comes_from_the_registry(client: TestClient) -> None:
    answer = client.get("/api/games").json()
    assert answer["default"] == DEFAULT_GAME
    assert [g["name"] for g in answer["games"]] == game_names()
    for entry in answer["games"]:
        game = get_game(entry["name"])
        assert entry["title"] == game.title and entry["layout"] == renderer_of(game).layout
        assert (entry["min_players"], entry["max_players"]) == (game.min_players, game.max_players)
        assert game.min_players <= entry["default_players"] <= game.max_players
        assert list(entry["presets"]) == list(game.presets)
        assert entry["presets"][game.presets[0]] == game.make_rules(game.presets[0]).to_json()
        assert entry["rule_defaults"] == dict(game.rule_defaults)
        assert [lv["level"] for lv in entry["levels"]] == list(levels(game))
        assert {"blurb", "preset_labels", "rules", "ends"} <= set(entry["lobby"])
        for field in entry["lobby"]["rules"]:
            assert field["key"] in game.rule_defaults
        assert entry["lobby"]["ends"], "the lobby offers a way to end the match"


def test_every_bot_the_lobby_offers_can_sit_at_a_table(client: TestClient) -> None:
    # Issue 16, bug 4: the lobby offered "open-hand-pimc", which sees every card, and creating the table failed.
    for entry in client.get("/api/games").json()["games"]:
        assert entry["bots"] and not [b for b in entry["bots"] if b.startswith("open-hand")]
        for bot in entry["bots"] + [lv["level"] for lv in entry["levels"]]:
            r = client.post("/api/tables", json={"game": entry["name"], "players": entry["min_players"], "sit": False,
                                                 "seats": [{"kind": "bot", "bot": bot}]
                                                 + [{"kind": "person"}] * (entry["min_players"] - 1)})
            assert r.status_code == 201, (entry["name"], bot, r.json())
        r = client.post("/api/tables", json={"game": entry["name"], "players": entry["min_players"], "sit": False, "seats": [
            {"kind": "bot", "bot": "open-hand-pimc"}] + [{"kind": "person"}] * (entry["min_players"] - 1)})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_bot"


def test_bots_presets_and_rules_of_each_game(client: TestClient, game: Game) -> None:
    bots = client.get("/api/bots", params={"game": game.name}).json()
    assert [lv["spec"] for lv in bots["levels"]] == list(levels(game).values())
    presets = client.get("/api/presets", params={"game": game.name}).json()["presets"]
    assert list(presets) == list(game.presets)
    checked = client.post("/api/rules", json={"game": game.name, "rules": {}}).json()
    assert checked["rules"] == game.make_rules(None).to_json() and checked["text"]
    bad = client.post("/api/rules", json={"game": game.name, "rules": {"colour": "red"}}).json()["error"]
    assert bad["code"] == "bad_rules" and "colour" in bad["message"]
    for path in ("/api/bots", "/api/presets"):
        error = client.get(path, params={"game": "chess"}).json()["error"]
        assert error["code"] == "bad_request" and "unknown game 'chess'" in error["message"]


def test_a_table_names_its_game_and_its_bots(client: TestClient, game: Game) -> None:
    r = client.post("/api/tables", json={"game": game.name, "player_name": "Ann"})
    assert r.status_code == 201, r.json()
    meta = r.json()["table"]
    renderer = renderer_of(game)
    assert (meta["game"], meta["title"], meta["layout"]) == (game.name, game.title, renderer.layout)
    assert meta["players"] == renderer.default_players and meta["preset"] == game.presets[0]
    assert meta["rules_text"] == game.make_rules(None).describe()
    names = [s["name"] for s in meta["seats"]]
    assert names == ["Ann"] + [seat_label(s, "medium", game) for s in range(1, meta["players"])]
    assert names[1] == "bot 1 · medium"
    page = client.get(f"/t/{meta['id']}").text
    assert "/static/js/table.js" in page and client.get(f"/static/js/layouts/{renderer.layout}.js").status_code == 200
    # The seat names travel with the table's messages and into the records of its deals.
    tid, token = meta["id"], r.json()["token"]
    mine = client.get(f"/api/tables/{tid}/state", headers=auth(token)).json()
    assert [s["name"] for s in mine["table"]["seats"]] == names


def test_hints_of_every_game_come_from_the_seat_s_view(client: TestClient, game: Game) -> None:
    players = renderer_of(game).default_players
    r = client.post("/api/tables", json={"game": game.name, "players": players,
                                         "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "easy"}] * (players - 1)})
    tid, token = r.json()["table"]["id"], r.json()["token"]
    body = wait_for(client, tid, lambda b: b["state"]["legal"] is not None, "the person's turn", token)
    hint = client.get(f"/api/tables/{tid}/hint", headers=auth(token)).json()["hint"]
    assert hint["seat"] == 0 and hint["text"] and hint["candidates"]
    best = hint["best"]["actions"][0]
    state = game.load_record(_record_so_far(client, tid)).replay()
    assert state.to_act == 0 and state.can_play(game.action_from_json(best, players))
    assert body["table"]["version"] == client.get(f"/api/tables/{tid}").json()["table"]["version"]


def _record_so_far(c: TestClient, tid: str) -> dict[str, Any]:
    manager = c.app.state.manager  # type: ignore[attr-defined]
    record: dict[str, Any] = manager.get(tid).record().to_json()
    return record


def test_a_whole_match_then_its_replay_scores_and_rematch(client: TestClient, game: Game) -> None:
    players = game.min_players
    # The person is gone from the start and a bot plays for them (takeover after 0 s): a match of bots, with a seat.
    r = client.post("/api/tables", json={"game": game.name, "players": players, "deals": 1, "takeover_after": 0,
                                         "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "easy"}] * (players - 1)})
    tid, token = r.json()["table"]["id"], r.json()["token"]
    over = wait_for(client, tid, lambda b: b["table"]["status"] == "over", "the end of the match")
    meta = over["table"]
    assert meta["match"]["over"] and meta["match"]["played"] == 1 and len(meta["match"]["results"]) == 1
    deals = client.get(f"/api/tables/{tid}/deals").json()["deals"]
    record = game.load_record(client.get(f"/api/tables/{tid}/deals/1/record").json())
    assert record.extra["names"][1] == "bot 1 · easy" and record.extra["table"] == tid
    end = record.replay()
    assert deals[0]["finished"] and deals[0]["scores"] == game.scores(end)
    replay = client.get(f"/api/tables/{tid}/deals/1/replay").json()
    assert (replay["game"], replay["title"], replay["layout"]) == (game.name, game.title, renderer_of(game).layout)
    assert replay["names"] == record.extra["names"] and replay["outcome"] == game.outcome_text(end)
    assert len(replay["frames"]) == len(record.actions) + 1 and replay["frames"][0]["text"] == "the deal"
    assert replay["frames"][-1]["text"] == game.describe_action(record.actions[-1])
    assert client.post("/api/replay", json=record.to_json()).json()["frames"] == replay["frames"]
    events = client.app.state.manager.store.events_since(tid, 0)  # type: ignore[attr-defined]
    assert [e["kind"] for e in events][-2:] == ["deal_over", "match_over"]
    # "rule": a move no choice could change, played by the table (the last holder's pick-up in Mustamaija).
    assert {"bot", "takeover"} <= {e["by"] for e in events if "by" in e} <= {"bot", "takeover", "rule"}
    again = client.post(f"/api/tables/{tid}/rematch", headers=auth(token)).json()["table"]
    assert again["status"] == "playing" and again["match"]["number"] == 2 and again["deal"] == 2


def test_the_web_package_names_no_game() -> None:
    # Games are found through the registry; their own web pieces live in their packages (game.renderer("web")).
    # The package's own name (imports, its data directory, its error class) is not a game's.
    forbidden = [re.compile(r"black[-_ ]?maria", re.IGNORECASE), re.compile(r"\bbm\b", re.IGNORECASE),
                 re.compile("Mustamaija(?!Error)"), re.compile(r"game.*[\"']mustamaija[\"']")]
    files = [p for p in WEB.rglob("*") if p.suffix in (".py", ".js", ".html", ".css")]
    assert len(files) > 10
    for path in files:
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern in forbidden:
                assert not pattern.search(text), f"{path.relative_to(WEB)}:{number} names a game: {text.strip()}"
