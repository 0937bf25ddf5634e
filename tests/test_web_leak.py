"""No hidden card reaches a seat, in any game: complete deals through a real uvicorn server and real WebSockets.

Every message each seat (and a spectator) receives is checked against what
that seat can know, computed here from the true deal by an oracle of each
game, independently of the views the server builds its messages from:

* Mustamaija: its own hand, the cards whose place is public, the discard
  pile, the cards on the table, the talon cards whose place is public, the
  cards named in the actions so far, and what counting pins down.
* Black Maria: its own hand, its own pass, the cards played so far, and (B3)
  what it received only once every seat has passed; by counting, everything
  once a single other seat holds cards it cannot place. Received cards must
  never show before the last pass, another seat's reneges never before the
  end of the hand (B7).

Messages are also scanned for every seat token and for the deck.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mustamaija.core.cards import card_name, cards_of, parse_card
from mustamaija.core.protocol import Game
from mustamaija.core.registry import get_game
from mustamaija.games import black_maria as bm
from mustamaija.games import mustamaija as mm
from mustamaija.games.black_maria.rules import in_play
from web_live import cards_in, http, live_server, play_seat


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from live_server(tmp_path_factory.mktemp("leak") / "web.sqlite3")


# -- Mustamaija's oracle -------------------------------------------------------------------------------


def beating_knowledge(state: mm.State, seat: int | None) -> int:
    """Return the mask of cards whose place ``seat`` may know, derived from the true state (not from view_of)."""
    known = state.discard | state.led | state.public
    if seat is not None:
        known |= state.hands[seat]
    for i, c in enumerate(state.talon):
        if i >= state.tpos and state.tknown >> c & 1:
            known |= 1 << c
    for action in state.actions():
        for key, value in action.to_json().items():
            if key != "seat":
                known |= sum(1 << parse_card(c) for c in cards_in(value))
    hidden_talon = any(not state.tknown >> c & 1 for c in state.talon[state.tpos:])
    holders = [s for s in range(state.n) if s != seat and state.hands[s] & ~known]
    if not hidden_talon and len(holders) <= 1:
        known = (1 << 52) - 1  # Counting: every card not seen must be in the one place left.
    return known


# -- Black Maria's oracle ------------------------------------------------------------------------------


def trick_knowledge(state: bm.State, seat: int | None) -> int:
    """Return the mask of cards whose place ``seat`` may know, from the true hand and its actions (not view_of)."""
    n = state.n
    known = 0
    for action in state.actions():
        if isinstance(action, bm.Play):
            known |= 1 << action.card
        elif isinstance(action, bm.Pass) and action.seat == seat:
            known |= action.cards
    if seat is None:
        return known
    known |= state.hands[seat]  # After the exchange this holds what the seat received.
    exchanged = sum(isinstance(a, bm.Pass) for a in state.actions()) == n
    if exchanged:
        holders = [s for s in range(n) if s != seat and state.hands[s] & ~known]
        if len(holders) <= 1:
            known |= in_play(n)  # Counting: every card not seen must be in the one place left.
    return known


def trick_checks(truth: bm.State, state_json: dict[str, Any], message: dict[str, Any], seat: int | None) -> None:
    """Check what a Black Maria state may never show: received cards before the last pass, others' reneges."""
    n = truth.n
    if seat is not None and truth.phase == 0:
        incoming = truth.passed[(seat - 1) % n]
        assert state_json["received"] == [] and not cards_in(message) & {card_name(c) for c in cards_of(incoming)}
    if not truth.is_over:
        assert all(r == 0 for s, r in enumerate(state_json["reneges"]) if s != seat)
    assert state_json["points"] == [p if truth.is_over else p - 10 * truth.reneges[s] * (s != seat)
                                    for s, p in enumerate(truth.points())]


def trick_choice(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if legal["kind"] == "pass":
        return {"pass": rng.sample(legal["cards"], legal["count"])}
    return {"play": rng.choice(legal["cards"])}


@dataclass(frozen=True)
class Oracle:
    """One game's side of the test: what a seat may know, what else its state must hide, and the tables played."""

    knowledge: Callable[[Any, int | None], int]
    choose: Callable[[dict[str, Any], random.Random], dict[str, Any]]
    setups: list[dict[str, Any]]
    deals: int
    least_checked: int
    checks: Callable[[Any, dict[str, Any], dict[str, Any], int | None], None] = field(default=lambda *_: None)


ORACLES = {
    "mustamaija": Oracle(
        beating_knowledge, lambda legal, rng: rng.choice(legal["actions"]),
        [
            {"players": 4, "deals": 4, "seats": [{"kind": "person"}] * 4},
            {"players": 3, "deals": 4, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "easy"},
                                                  {"kind": "bot", "bot": "medium"}]},
            {"players": 2, "deals": 4, "rules": {"hand_size": 3}, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "medium"}]},
            {"players": 3, "deals": 2, "preset": "wikipedia", "rules": {"trump": "marriage"}, "seats": [{"kind": "person"}] * 3},
        ],
        deals=14, least_checked=1000),
    "black-maria": Oracle(
        trick_knowledge, trick_choice,
        [
            {"players": 4, "rules": {"hands": 2}, "seats": [{"kind": "person"}] * 4},
            {"players": 5, "rules": {"hands": 2, "allow_renege": True},
             "seats": [{"kind": "person"}] * 3 + [{"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"}]},
            {"players": 3, "rules": {"hands": 1}, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "medium"},
                                                            {"kind": "person"}]},
            {"players": 7, "rules": {"hands": 1, "allow_renege": True}, "seats": [{"kind": "person"}] * 7},
        ],
        deals=6, least_checked=800, checks=trick_checks),
}


def check(base: str, game: Game, oracle: Oracle, table: str, seat: int | None, log: list[str], tokens: list[str],
          states: dict[tuple[int, int], Any], records: dict[int, Any]) -> int:
    """Check every message of one connection; return how many held a state."""
    checked = 0
    for text in log:
        for token in tokens:
            assert token not in text, "a seat token was sent to a client"
        message = json.loads(text)
        assert "deck" not in text and "seed" not in text
        state_json = message.get("state")
        if state_json is None:
            assert not cards_in(message), message
            continue
        deal, count = state_json["deal"], state_json["actions"]
        if deal not in records:
            records[deal] = game.load_record(http(base, "GET", f"/api/tables/{table}/deals/{deal}/record"))
        key = (deal, count)
        if key not in states:
            rec = records[deal]
            states[key] = rec.with_actions(rec.actions[:count]).replay()
        truth = states[key]
        allowed = {card_name(c) for c in cards_of(oracle.knowledge(truth, seat))}
        leaked = cards_in(message) - allowed
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} in {message['type']} at deal {deal}, action {count}"
        expected = [] if seat is None else [card_name(c) for c in cards_of(truth.hands[seat])]
        assert state_json["hand"] == expected
        assert state_json["hand_sizes"] == [truth.hands[s].bit_count() for s in range(truth.n)]
        oracle.checks(truth, state_json, message, seat)
        checked += 1
    return checked


@pytest.mark.parametrize("name", list(ORACLES))
def test_no_message_carries_a_card_its_seat_cannot_know(server: str, name: str) -> None:
    game, oracle = get_game(name), ORACLES[name]
    tables = []
    for n, setup in enumerate(oracle.setups):
        table = http(server, "POST", "/api/tables", {"game": name, **setup, "sit": False, "private": True})["table"]
        people = [s["seat"] for s in table["seats"] if s["kind"] == "person"]
        tokens = {s: http(server, "POST", f"/api/tables/{table['id']}/join", {"seat": s})["token"] for s in people}
        tables.append((n, table["id"], tokens))

    logs: dict[tuple[str, int | None], list[str]] = {}

    async def main() -> None:
        jobs = []
        for n, table_id, tokens in tables:
            for seat, token in [*tokens.items(), (None, None)]:
                log = logs.setdefault((table_id, seat), [])
                jobs.append(play_seat(server, table_id, token, oracle.choose, 100 * n + (seat or 0), log))
        await asyncio.gather(*jobs)

    asyncio.run(main())

    total = deals = 0
    for _, table_id, tokens in tables:
        meta = http(server, "GET", f"/api/tables/{table_id}")["table"]
        assert meta["status"] == "over" and meta["match"]["over"] and meta["game"] == name
        deals += meta["match"]["played"]
        states: dict[tuple[int, int], Any] = {}
        records: dict[int, Any] = {}
        for seat in [*tokens, None]:
            total += check(server, game, oracle, table_id, seat, logs[(table_id, seat)], list(tokens.values()),
                           states, records)
    assert deals == oracle.deals
    assert total > oracle.least_checked, total


def test_the_beating_oracle_agrees_with_the_views() -> None:
    # The independent oracle and the views must agree on what a seat may know (else one of them is wrong).
    for seed in range(8):
        state = mm.State.from_seed(players=2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in [*range(state.n), None]:
                view = state.view(seat)
                shown = view.hand | view.discard | view.led
                for k in view.known:
                    shown |= k
                for _, c in view.talon_known:
                    shown |= 1 << c
                assert shown & ~beating_knowledge(state, seat) == 0
            state.apply(rng.choice(state.legal_actions()))


def test_the_trick_oracle_agrees_with_the_views() -> None:
    for seed in range(12):
        state = bm.State.from_seed(players=3 + seed % 5, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in [*range(state.n), None]:
                view = state.view(seat)
                shown = view.hand | view.passed | view.received | view.played
                for k in view.known:
                    shown |= k
                assert shown & ~trick_knowledge(state, seat) == 0
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", list(ORACLES))
def test_online_deals_are_shuffled_with_secrets(server: str, tmp_path: Path, name: str) -> None:
    decks = set()
    players = get_game(name).min_players
    for _ in range(3):
        table = http(server, "POST", "/api/tables", {"game": name, "players": players, "deals": 1, "sit": False,
                                                     "seats": [{"kind": "bot", "bot": "easy"}] * players})["table"]
        deadline = time.monotonic() + 30
        while http(server, "GET", f"/api/tables/{table['id']}")["table"]["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        record = http(server, "GET", f"/api/tables/{table['id']}/deals/1/record")
        decks.add(tuple(record["deck"]))
        assert "seed" not in record
    assert len(decks) == 3
