"""No hidden card reaches a seat: complete deals through a real uvicorn server and real WebSockets over loopback.

Every message each seat (and a spectator) receives is checked against what
that seat can know, computed here from the true deal, independently of
``view_of``: its own hand, the cards whose place is public, the discard pile,
the cards on the table, the talon cards whose place is public, the cards
named in the actions so far, and what counting pins down. Messages are also
scanned for every seat token and for the deck.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets

from mustamaija.core.cards import card_name, cards_of, parse_card
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.state import State
from web_live import cards_in, http, live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from live_server(tmp_path_factory.mktemp("leak") / "web.sqlite3")


def knowledge(state: State, seat: int | None) -> int:
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


async def play_seat(base: str, table: str, token: str | None, seed: int, log: list[str]) -> None:
    """Connect, say hello, and play random legal actions until the match is over, keeping every message."""
    rng = random.Random(seed)
    acted = -1
    async with websockets.connect(f"ws://{base}/ws/tables/{table}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        while True:
            text = await asyncio.wait_for(ws.recv(), 60)
            assert isinstance(text, str)
            log.append(text)
            message = json.loads(text)
            assert message["type"] != "error", message
            if message["type"] not in ("sync", "update"):
                continue
            if message["table"]["status"] == "over":
                return
            state, version = message["state"], message["table"]["version"]
            if token is not None and state is not None and state["legal"] is not None and version != acted:
                acted = version
                action = rng.choice(state["legal"]["actions"])
                await ws.send(json.dumps({"type": "action", "version": version, "action": action}))


def check(base: str, table: str, seat: int | None, log: list[str], tokens: list[str],
          states: dict[tuple[int, int], State], records: dict[int, Record]) -> int:
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
            records[deal] = Record.from_json(http(base, "GET", f"/api/tables/{table}/deals/{deal}/record"))
        key = (deal, count)
        if key not in states:
            rec = records[deal]
            states[key] = rec.with_actions(rec.actions[:count]).replay()
        truth = states[key]
        allowed = {card_name(c) for c in cards_of(knowledge(truth, seat))}
        leaked = cards_in(message) - allowed
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} in {message['type']} at deal {deal}, action {count}"
        expected = [] if seat is None else [card_name(c) for c in cards_of(truth.hands[seat])]
        assert state_json["hand"] == expected
        assert state_json["hand_sizes"] == [truth.hands[s].bit_count() for s in range(truth.n)]
        checked += 1
    return checked


def test_no_message_carries_a_card_its_seat_cannot_know(server: str) -> None:
    setups = [
        {"players": 4, "deals": 4, "seats": [{"kind": "person"}] * 4},
        {"players": 3, "deals": 4, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"}]},
        {"players": 2, "deals": 4, "rules": {"hand_size": 3}, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "medium"}]},
        {"players": 3, "deals": 2, "preset": "wikipedia", "rules": {"trump": "marriage"}, "seats": [{"kind": "person"}] * 3},
    ]
    tables = []
    for n, setup in enumerate(setups):
        table = http(server, "POST", "/api/tables", {**setup, "sit": False, "private": True})["table"]
        people = [s["seat"] for s in table["seats"] if s["kind"] == "person"]
        tokens = {s: http(server, "POST", f"/api/tables/{table['id']}/join", {"seat": s})["token"] for s in people}
        tables.append((n, table["id"], tokens))

    logs: dict[tuple[str, int | None], list[str]] = {}

    async def main() -> None:
        jobs = []
        for n, table_id, tokens in tables:
            for seat, token in [*tokens.items(), (None, None)]:
                log = logs.setdefault((table_id, seat), [])
                jobs.append(play_seat(server, table_id, token, 100 * n + (seat or 0), log))
        await asyncio.gather(*jobs)

    asyncio.run(main())

    total = 0
    deals = 0
    for _, table_id, tokens in tables:
        meta = http(server, "GET", f"/api/tables/{table_id}")["table"]
        assert meta["status"] == "over" and meta["match"]["over"]
        deals += meta["match"]["played"]
        states: dict[tuple[int, int], State] = {}
        records: dict[int, Record] = {}
        for seat in [*tokens, None]:
            total += check(server, table_id, seat, logs[(table_id, seat)], list(tokens.values()), states, records)
    assert deals == 14
    assert total > 1000, total


def test_the_knowledge_oracle_agrees_with_the_views() -> None:
    # The independent oracle and view_of must agree on what a seat may know (else one of them is wrong).
    for seed in range(8):
        state = State.from_seed(players=2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in [*range(state.n), None]:
                view = state.view(seat)
                shown = view.hand | view.discard | view.led
                for k in view.known:
                    shown |= k
                for _, c in view.talon_known:
                    shown |= 1 << c
                assert shown & ~knowledge(state, seat) == 0
            state.apply(rng.choice(state.legal_actions()))


def test_online_deals_are_shuffled_with_secrets(server: str, tmp_path: Path) -> None:
    decks = set()
    for _ in range(3):
        table = http(server, "POST", "/api/tables",
                     {"players": 2, "seats": [{"kind": "bot", "bot": "easy"}] * 2, "deals": 1, "sit": False})["table"]
        deadline = time.monotonic() + 30
        while http(server, "GET", f"/api/tables/{table['id']}")["table"]["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        record = http(server, "GET", f"/api/tables/{table['id']}/deals/1/record")
        decks.add(tuple(record["deck"]))
        assert "seed" not in record
    assert len(decks) == 3
