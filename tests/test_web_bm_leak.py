"""No hidden Black Maria card reaches a seat: complete hands through a real uvicorn server and real WebSockets.

Every message each seat (and a spectator) receives is checked against what
that seat can know, computed here from the true hand, independently of
``view_of``: its own hand, its own pass, the cards played so far, and (B3)
what it received only once every seat has passed; by counting, everything
once a single other seat holds cards it cannot place. Received cards must
never show before the last pass, another seat's reneges never before the
end of the hand (B7), and no message may hold a seat token or the deck.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
import websockets

from mustamaija.core.cards import card_name, cards_of
from mustamaija.games.black_maria.actions import Pass, Play
from mustamaija.games.black_maria.record import Record
from mustamaija.games.black_maria.rules import in_play
from mustamaija.games.black_maria.state import State
from web_live import cards_in, http, live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from live_server(tmp_path_factory.mktemp("bm-leak") / "web.sqlite3")


def knowledge(state: State, seat: int | None) -> int:
    """Return the mask of cards whose place ``seat`` may know, from the true hand and its actions (not view_of)."""
    n = state.n
    known = 0
    for action in state.actions():
        if isinstance(action, Play):
            known |= 1 << action.card
        elif isinstance(action, Pass) and action.seat == seat:
            known |= action.cards
    if seat is None:
        return known
    known |= state.hands[seat]  # After the exchange this holds what the seat received.
    exchanged = sum(isinstance(a, Pass) for a in state.actions()) == n
    if exchanged:
        holders = [s for s in range(n) if s != seat and state.hands[s] & ~known]
        if len(holders) <= 1:
            known |= in_play(n)  # Counting: every card not seen must be in the one place left.
    return known


async def play_seat(base: str, table: str, token: str | None, seed: int, log: list[str]) -> None:
    """Connect, say hello, and pass and play random legal cards until the game is over, keeping every message."""
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
            if token is None or state is None or state["legal"] is None or version == acted:
                continue
            acted = version
            legal = state["legal"]
            if legal["kind"] == "pass":
                action: dict[str, Any] = {"pass": rng.sample(legal["cards"], legal["count"])}
            else:
                action = {"play": rng.choice(legal["cards"])}
            await ws.send(json.dumps({"type": "action", "version": version, "action": action}))


def check(base: str, table: str, seat: int | None, log: list[str], tokens: list[str],
          states: dict[tuple[int, int], State], records: dict[int, Record]) -> int:
    """Check every message of one connection; return how many held a state."""
    checked = 0
    for text in log:
        for token in tokens:
            assert token not in text, "a seat token was sent to a client"
        message = json.loads(text)
        assert '"deck"' not in text and "seed" not in text
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
            states[key] = Record(rec.players, rec.deck, rec.dealer, rec.rules, rec.actions[:count]).replay()
        truth = states[key]
        allowed = {card_name(c) for c in cards_of(knowledge(truth, seat))}
        leaked = cards_in(message) - allowed
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} in {message['type']} at hand {deal}, action {count}"
        n = truth.n
        if seat is not None and truth.phase == 0:
            incoming = truth.passed[(seat - 1) % n]
            assert state_json["received"] == [] and not cards_in(message) & {card_name(c) for c in cards_of(incoming)}
        if not truth.is_over:
            assert all(r == 0 for s, r in enumerate(state_json["reneges"]) if s != seat)
        expected = [] if seat is None else [card_name(c) for c in cards_of(truth.hands[seat])]
        assert state_json["hand"] == expected
        assert state_json["hand_sizes"] == [truth.hands[s].bit_count() for s in range(n)]
        assert state_json["points"][:] == [p if truth.is_over else p - 10 * truth.reneges[s] * (s != seat)
                                           for s, p in enumerate(truth.points())]
        checked += 1
    return checked


def test_no_black_maria_message_carries_a_card_its_seat_cannot_know(server: str) -> None:
    setups: list[dict[str, Any]] = [
        {"players": 4, "rules": {"hands": 2}, "seats": [{"kind": "person"}] * 4},
        {"players": 5, "rules": {"hands": 2, "allow_renege": True},
         "seats": [{"kind": "person"}] * 3 + [{"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"}]},
        {"players": 3, "rules": {"hands": 1}, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "medium"},
                                                        {"kind": "person"}]},
        {"players": 7, "rules": {"hands": 1, "allow_renege": True}, "seats": [{"kind": "person"}] * 7},
    ]
    tables = []
    for n, setup in enumerate(setups):
        table = http(server, "POST", "/api/tables", {"game": "black-maria", **setup, "sit": False, "private": True})["table"]
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

    total = hands = 0
    for _, table_id, tokens in tables:
        meta = http(server, "GET", f"/api/tables/{table_id}")["table"]
        assert meta["status"] == "over" and meta["match"]["over"]
        hands += meta["match"]["played"]
        states: dict[tuple[int, int], State] = {}
        records: dict[int, Record] = {}
        for seat in [*tokens, None]:
            total += check(server, table_id, seat, logs[(table_id, seat)], list(tokens.values()), states, records)
    assert hands == 6
    assert total > 800, total


def test_the_knowledge_oracle_agrees_with_the_views() -> None:
    # The independent oracle and view_of must agree on what a seat may know (else one of them is wrong).
    for seed in range(12):
        state = State.from_seed(players=3 + seed % 5, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in [*range(state.n), None]:
                view = state.view(seat)
                shown = view.hand | view.passed | view.received | view.played
                for k in view.known:
                    shown |= k
                assert shown & ~knowledge(state, seat) == 0
            state.apply(rng.choice(state.legal_actions()))
