"""The position editor's API (docs/web.md, "Position editor"): check, solve, hint, and tables that play a position out.

A checked position comes back normalised, with a text form that reads back to
the same position; the solver answers as ``mustamaija solve`` does, within its
bounds; a table set up from a position shows each seat only what the position
says it knows, plays to the end, and keeps a record that replays.
"""

from __future__ import annotations

import json
import random
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mustamaija import State
from mustamaija.core.cards import card_name, cards_of
from mustamaija.core.registry import get_game
from mustamaija.games.mustamaija import Position, PositionRecord, Rules
from mustamaija.games.mustamaija.rules import PRESETS
from mustamaija.web import ServerConfig, create_app
from mustamaija.web.live import deal_bot_action
from mustamaija.web.positions_api import SOLVE_MAX_TWO, solve_json
from test_web_api import auth, error, wait_turn
from test_web_ratings import play_out

FAST: dict[str, Any] = {"bot_pace": 0.0, "deal_pause": 0.0, "hint_seconds": 0.2}
QUICK: dict[str, Any] = {**FAST, "http_burst": 100000, "review_iters": 4}

ENDGAME = {"format": "mustamaija-position/1", "rules": {}, "trump_suit": "C",
           "hands": [["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], "attacker": 0}
"""The endgame of docs/formats.md, whose solution is printed there."""
LATE = {"format": "mustamaija-position/2", "dealer": 2, "public": ["4C", "QD"],
        "hands": [["QS", "9H", "JH", "4C", "8C"], ["2S", "KS", "3H", "TD", "QD"], ["5H", "AH", "JD", "6C", "AC"]],
        "talon": ["8H", "3S", "7D"], "trump_card": "7D", "revealed": ["3S"], "attacker": 1, "turns": 14}
"""The /2 example of docs/formats.md: three seats late in a deal."""


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(**QUICK))) as c:
        yield c


def check(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/positions/check", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def midgame(seed: int = 11, players: int = 3, moves: int = 6) -> Position:
    s = State.from_seed(players=players, seed=seed)
    rng = random.Random(seed)
    while s.nlog < moves and not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    while s.sel or s.phase_name != "lead":  # Between whole actions, at a lead.
        s.apply(rng.choice(s.legal_actions()))
    return Position.from_state(s)


# -- check -------------------------------------------------------------------------------------------


def test_check_a_v1_endgame(client: TestClient) -> None:
    out = check(client, position=ENDGAME)
    assert out["format"] == "mustamaija-position/1" and Position.from_json(out["position"]) == Position.from_json(ENDGAME)
    assert out["position"]["hands"] == [["QS", "5H", "6H", "3C", "AC"], ["KH", "2D"]]  # Normalised: suit by suit.
    assert out["text"] == "5_.sQh56c3A-.hKd2__c_l0" and out["link"] == "/editor?p=5_.sQh56c3A-.hKd2__c_l0"
    assert out["summary"] == "seat 0 attacks, seat 1 defends; hands 5, 2; talon empty; trump ♣; every hand public; seat 0 to lead"
    assert out["solve"] == {"ok": True} and out["to_act"] == 0 and out["hand_sizes"] == [5, 2]
    # The text form reads back to the same answer.
    assert check(client, text=out["text"]) == out


def test_check_a_v2_position_and_an_unknown_talon(client: TestClient) -> None:
    out = check(client, position=LATE)
    assert out["format"] == "mustamaija-position/2" and out["text"] == "5_sQh9Jc8.c4-s2Kh3dT.dQ-h5AdJc6A_h8s3d7_d7.s3_l1_d2.t14"
    assert "talon 3 cards, order known" in out["summary"] and "trump ♦ (turned 7♦)" in out["summary"]
    assert out["solve"]["ok"] is False and "talon" in out["solve"]["why"] and out["solve"]["hint"] is True
    assert "mustamaija hint" not in out["solve"]["why"]  # The page offers its Hint button instead.
    unknown = check(client, position={**LATE, "talon_order": "unknown"})
    assert unknown["text"].split("_")[2] == "~h8s3d7" and "order unknown" in unknown["summary"]
    assert Position.parse(unknown["text"]) == Position.from_json({**LATE, "talon_order": "unknown"})


def test_check_refusals_name_the_fault(client: TestClient) -> None:
    post = lambda body: client.post("/api/positions/check", json=body)  # noqa: E731
    assert "Q♠" in error(post({"position": {"hands": [["AC"], ["2D"]], "attacker": 0}}), 400, "bad_position")
    assert "ZZ" in error(post({"position": {**ENDGAME, "hands": [["ZZ", "QS"], ["2D"]]}}), 400, "bad_position")
    assert "twice" in error(post({"position": {**ENDGAME, "hands": [["QS", "QS"], ["2D"]]}}), 400, "bad_position")
    assert "depth 1" in error(post({"position": {**LATE, "talon": ["3S", "7D", "8H"]}}), 400, "bad_position")
    assert "exactly one" in error(post({}), 400, "bad_request")
    assert "exactly one" in error(post({"position": ENDGAME, "text": "5_sQ-hK__c_l0"}), 400, "bad_request")
    assert "attacker" in error(post({"text": "5_sQ-hK__c_l2"}), 400, "bad_position")
    assert "fields" in error(post({"text": "hello"}), 400, "bad_position")
    error(post({"text": "5_" + "s" * 500}), 400, "bad_request")  # Over the text form's size bound.
    error(post({"text": "   "}), 400, "bad_position")
    error(post({"position": [1, 2]}), 400, "bad_request")
    error(post({"position": ENDGAME, "game": "nosuch"}), 400, "bad_request")
    error(post({"position": ENDGAME, "game": "black-maria"}), 404, "not_found")  # A game without positions.
    error(post({"position": {**ENDGAME, "actions": [{"seat": 0, "lead": ["QS"]}]}}), 400, "bad_position")


def test_garbage_never_gets_a_500(client: TestClient) -> None:
    bodies: list[Any] = [None, "x", 5, [], {"position": None}, {"text": 5}, {"position": {"hands": "QS"}},
                         {"position": {"hands": [[None]], "attacker": "0"}}, {"position": {"hands": [[]] * 40}},
                         {"position": {**LATE, "rules": {"hand_size": 4}}}, {"position": {**LATE, "talon": [[[]]]}},
                         {"position": {**LATE, "format": "mustamaija-position/9"}}, {"text": "5_sQ-hK__c_l0_zz"},
                         {"text": "_____"}, {"text": "9_sQ-hK__c_l0"}, {"text": "5_sQ-hK__c_l99999999999999999999"},
                         {"position": {**LATE, "phase": "defend", "table": {"led": "8H"}}}]
    for route in ("check", "solve", "hint", "play"):
        for body in bodies:
            r = client.post(f"/api/positions/{route}", content=json.dumps(body),
                            headers={"Content-Type": "application/json"})
            assert 400 <= r.status_code < 500, (route, body, r.text)
            assert set(r.json()) == {"error"}


# -- solve and hint ---------------------------------------------------------------------------------


def test_solve_gives_the_solvers_answer(client: TestClient) -> None:
    r = client.post("/api/positions/solve", json={"position": ENDGAME})
    assert r.status_code == 200, r.text
    sol = r.json()["solution"]
    result = sol["result"]
    # As docs/formats.md prints it for `mustamaija solve position.json --json`.
    assert result["attacker"] == 0 and result["attacker_safe"] is True
    assert sorted(result["safe_leads"]) == [["3C"], ["3C", "AC"], ["5H", "6H"], ["QS"]]
    assert result["line"] == [{"seat": 0, "lead": ["3C", "AC"]}, {"seat": 1, "beat": {}}, {"seat": 0, "lead": ["QS"]},
                              {"seat": 1, "beat": {}}, {"seat": 0, "lead": ["5H", "6H"]},
                              {"seat": 1, "beat": {"5H": "3C", "6H": "AC"}}]
    assert [m["action"] for m in sol["line"]] == result["line"] and all(m["text"] for m in sol["line"])
    assert any("Principal line" in line for line in sol["lines"]) and "seat 1" in sol["outcome"]
    again = client.post("/api/positions/solve", json={"text": r.json()["text"]}).json()
    assert again["solution"] == sol  # Kept: the same position is not solved twice.


def test_solve_refuses_what_the_solver_does_not_take(client: TestClient) -> None:
    message = error(client.post("/api/positions/solve", json={"position": LATE}), 422, "not_solvable")
    assert "talon" in message and "hint" in message
    # Two hands of 12 cards (24 > the bound): refused before any search, saying the bound.
    rng = random.Random(4)
    cards = [c for c in range(52) if card_name(c) != "QS"]
    rng.shuffle(cards)
    big = [["QS", *[card_name(c) for c in cards[:11]]], [card_name(c) for c in cards[11:23]]]
    started = time.monotonic()
    message = error(client.post("/api/positions/solve", json={"position": {**ENDGAME, "hands": big}}), 422, "not_solvable")
    assert f"at most {SOLVE_MAX_TWO}" in message and time.monotonic() - started < 2.0
    over = {"format": "mustamaija-position/2", "hands": [["QS"], []], "public": ["QS"], "phase": "over",
            "attacker": None, "out": [1]}
    out = check(client, position=over)
    assert out["over"] and out["solve"]["ok"] is False and out["solve"]["hint"] is False
    error(client.post("/api/positions/hint", json={"position": over}), 409, "not_playing")


def test_a_solve_over_its_time_is_abandoned() -> None:
    rng = random.Random(9)
    cards = [c for c in range(52) if card_name(c) != "QS"]
    rng.shuffle(cards)
    big = [["QS", *[card_name(c) for c in cards[:12]]], [card_name(c) for c in cards[12:25]]]
    # This first call also loads the solver, so that the time below is the search's alone.
    assert solve_json("mustamaija", LATE, 5.0)["error"].startswith("the position cannot be solved: the talon")
    started = time.monotonic()
    out = solve_json("mustamaija", {**ENDGAME, "hands": big}, 0.2)
    # Solved, 12 cards against 13 would take minutes: the alarm stops it at 0.2 s, also in the compiled solver, which
    # polls for signals (mustamaija.core.interrupt); the slack is for a loaded machine.
    assert "did not finish within 0.2 seconds" in out["error"] and time.monotonic() - started < 2.0


def test_hint_for_a_position_with_a_talon(client: TestClient) -> None:
    r = client.post("/api/positions/hint", json={"position": {**LATE, "talon_order": "unknown"}})
    assert r.status_code == 200, r.text
    hint = r.json()["hint"]
    assert hint["seat"] == 1 and hint["candidates"] and hint["text"]


def test_solves_and_hints_are_rate_limited() -> None:
    with TestClient(create_app(ServerConfig(**FAST))) as c:
        codes = [c.post("/api/positions/hint", json={"position": ENDGAME}).status_code for _ in range(9)]
    assert codes[:6] == [200] * 6 and 429 in codes[6:]


# -- playing a position out ---------------------------------------------------------------------------


def test_a_table_plays_a_position_out_fairly_and_replays(client: TestClient) -> None:
    p = midgame()
    doc = {**p.to_json(), "talon_order": "unknown"}
    me = p.attacker
    r = client.post("/api/positions/play", json={"position": doc, "bot": "easy", "player_name": "Ann"})
    assert r.status_code == 201, r.text
    made = r.json()
    tid, token = made["table"]["id"], made["token"]
    assert made["seat"] == me and made["url"].startswith(f"/t/{tid}#seat={me}&token=")
    assert made["table"]["position"] is True and made["table"]["match"]["deals"] == 1
    assert made["table"]["private"] is True and made["table"]["players"] == 3
    body = client.get(f"/api/tables/{tid}/state", headers=auth(token)).json()
    state = body["state"]
    assert state["hand"] == [card_name(c) for c in cards_of(p.hands[me])] and state["to_act"] == me
    for seat in range(3):
        expect = p.public & p.hands[seat]
        assert set(state["known"][seat]) == {card_name(c) for c in cards_of(expect)}
    assert state["talon"] == len(p.talon) and state["hand_sizes"] == [bin(h).count("1") for h in p.hands]
    # No card this seat cannot know reaches it, in any answer it can get.
    hidden = {card_name(c) for s, h in enumerate(p.hands) if s != me for c in cards_of(h & ~p.public)}
    hidden |= {card_name(c) for c in p.talon if c != p.trump_card}
    seen = json.dumps([body, client.get(f"/api/tables/{tid}").json(), client.get("/api/tables").json()])
    assert not [c for c in hidden if f'"{c}"' in seen]
    final = play_out(client, tid, token)
    assert final["table"]["status"] == "over" and final["table"]["match"]["played"] == 1
    deals = client.get(f"/api/tables/{tid}/deals").json()["deals"]
    assert len(deals) == 1 and deals[0]["finished"] and deals[0]["scores"] is not None
    record = client.get(f"/api/tables/{tid}/deals/1/record").json()
    assert record["format"] == "mustamaija-position/2" and record["talon_order"] == "known"
    assert record["names"][me] == "Ann"
    rec = PositionRecord.from_json(record)
    end = rec.replay()
    assert end.is_over and sorted(card_name(c) for c in rec.position.talon) == sorted(card_name(c) for c in p.talon)
    start = rec.position
    assert start.hands == p.hands and start.public == p.public and start.discard == p.discard
    replay = client.get(f"/api/tables/{tid}/deals/1/replay").json()
    assert len(replay["frames"]) == len(rec.actions) + 1 and replay["finished"] is True
    imported = client.post("/api/replay", json=record).json()
    assert len(imported["frames"]) == len(replay["frames"])
    review = client.get(f"/api/tables/{tid}/deals/1/review").json()["review"]
    assert review["names"][me] == "Ann" and review["decisions"]
    # The rematch plays the same position again, shuffled anew.
    again = client.post(f"/api/tables/{tid}/rematch", headers=auth(token)).json()["table"]
    assert again["status"] == "playing" and again["deal"] == 2
    state = client.get(f"/api/tables/{tid}/state", headers=auth(token)).json()["state"]
    assert state["hand"] == [card_name(c) for c in cards_of(p.hands[me])] and state["talon"] == len(p.talon)


def test_a_position_table_is_not_rated_and_its_defender_seat_can_be_chosen(client: TestClient) -> None:
    p = Position.from_json(ENDGAME)
    r = client.post("/api/positions/play", json={"text": p.to_text(), "seat": 1, "bots": ["easy", "easy"]})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["seat"] == 1
    final = play_out(client, made["table"]["id"], made["token"])
    assert final["table"]["status"] == "over"
    post = lambda body: client.post("/api/positions/play", json=body)  # noqa: E731
    assert "seat" in error(post({"position": ENDGAME, "seat": 2}), 400, "bad_request")
    assert "bots" in error(post({"position": ENDGAME, "bots": ["easy"]}), 400, "bad_request")
    error(post({"position": ENDGAME, "bot": "open-hand"}), 400, "bad_bot")
    over = {"format": "mustamaija-position/2", "hands": [["QS"], []], "public": ["QS"], "phase": "over",
            "attacker": None, "out": [1]}
    assert "over" in error(post({"position": over}), 400, "bad_position")
    partway = midgame(seed=3, players=2).to_json()
    hand = partway["hands"][partway["attacker"]]
    suit = hand[0][1]
    low = [c for c in hand if c[1] == suit]
    if len(low) > 1:
        error(post({"position": {**partway, "selected": low[:1]}}), 400, "bad_position")


def test_the_bot_worker_reads_a_position_deal() -> None:
    game = get_game("mustamaija")
    positions = game.positions()
    deal = positions.load(LATE)
    start = deal.start()
    record = positions.record(start, start.copy()).to_json()
    action = deal_bot_action(game.name, record, start.to_act, "medium", 3)
    assert action["seat"] == 1 and "lead" in action


def test_a_position_table_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    doc = {**midgame(seed=5, players=2).to_json(), "talon_order": "unknown"}
    with TestClient(create_app(ServerConfig(db_url=url, **QUICK))) as c:
        made = c.post("/api/positions/play", json={"position": doc, "bot": "easy"}).json()
        tid, token = made["table"]["id"], made["token"]
        before = wait_turn(c, tid, token)
    with TestClient(create_app(ServerConfig(db_url=url, **QUICK))) as c:
        after = c.get(f"/api/tables/{tid}/state", headers=auth(token)).json()
        assert after["state"] == before["state"] and after["table"]["position"] is True
        assert play_out(c, tid, token)["table"]["status"] == "over"


# -- the round trip through the web ---------------------------------------------------------------------


def test_positions_of_random_deals_round_trip_through_check(client: TestClient) -> None:
    """200 positions from seeded random play, over presets and player counts: check's text parses back to each."""
    rng = random.Random(2024)
    presets = list(PRESETS)
    done = 0
    for k in range(200):
        preset = presets[k % len(presets)]
        rules = Rules.preset(preset)
        players = 2 + k % (min(5, rules.max_players) - 1)
        s = State.from_seed(players=players, seed=k, rules=rules)
        for _ in range(rng.randrange(0, 60)):
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
        p = Position.from_state(s)
        if k % 3 == 0 and p.talon:
            p = Position.from_json({**p.to_json(), "talon_order": "unknown"})
        out = check(client, position=p.to_json())
        assert Position.parse(out["text"]) == p, (k, out["text"])
        assert Position.from_json(out["position"]) == p
        done += 1
    assert done == 200
