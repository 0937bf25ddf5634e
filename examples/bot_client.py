#!/usr/bin/env python3
"""A small Mustamaija bot for the web app's bot API, using only the standard library.

It takes a seat with its token, streams the table's messages
(``GET /api/tables/{id}/stream``, newline-delimited JSON) and, whenever the
state says it is its turn, posts an action (``POST /api/tables/{id}/actions``).
Its strategy is simple: lead the lowest card (a non-trump if it can), beat
each led card with the lowest card that beats it, and pick up the rest.

    python examples/bot_client.py http://127.0.0.1:8000 --create           # a new table with bots; play seat 0
    python examples/bot_client.py http://127.0.0.1:8000 --join TABLE_ID    # take a free seat
    python examples/bot_client.py http://127.0.0.1:8000 --table TABLE_ID --token TOKEN

See docs/web.md for the API.
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    """Return a card's rank index (2 lowest, ace highest)."""
    return RANKS.index(card[0])


def choose(state: dict[str, Any]) -> dict[str, Any]:
    """Return the action to play from a seat's state (its ``legal`` part must not be null)."""
    legal = state["legal"]
    trump = state["trump_suit"]
    listed = legal["actions"]
    if legal["kind"] == "lead":
        cards = sorted(legal["cards"], key=lambda c: (c[1] == trump, c == "QS", rank(c)))
        return {"lead": [cards[0]]}
    used: set[str] = set()
    pairs: dict[str, str] = {}
    for led in sorted(legal["led"], key=rank, reverse=True):
        options = [c for c in sorted(legal["beaters"][led], key=lambda c: (c[1] == trump, rank(c))) if c not in used]
        if options:
            pairs[led] = options[0]
            used.add(options[0])
    action = {"beat": pairs}
    if legal["complete"] and action not in listed:
        beats = [a for a in listed if "beat" in a]
        action = max(beats, key=lambda a: len(a["beat"])) if beats else listed[0]
    return action


class Client:
    """The bot API over plain HTTP: a base URL, a table and a seat token."""

    def __init__(self, base: str, table: str | None = None, token: str | None = None) -> None:
        self.base = base.rstrip("/")
        self.table = table
        self.token = token

    def call(self, method: str, path: str, body: object = None) -> dict[str, Any]:
        """Send a request and return its JSON answer; an API error raises ``RuntimeError`` with its code."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                result: dict[str, Any] = json.loads(answer.read())
                return result
        except urllib.error.HTTPError as e:
            try:
                error = json.loads(e.read() or b"{}").get("error", {})
            except ValueError:
                error = {}
            raise RuntimeError(f"{error.get('code', e.code)}: {error.get('message', e.reason)}") from None

    def stream(self) -> Any:
        """Yield the table's messages as they come (a blank keep-alive line is skipped)."""
        url = urllib.parse.urlsplit(self.base)
        conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port or 80, timeout=120)
        conn.request("GET", f"/api/tables/{self.table}/stream", headers={"Authorization": f"Bearer {self.token}"})
        answer = conn.getresponse()
        if answer.status != 200:
            raise RuntimeError(f"the stream was refused: {answer.status} {answer.read().decode()}")
        try:
            while True:
                line = answer.readline()
                if not line:
                    return
                if line.strip():
                    yield json.loads(line)
        finally:
            conn.close()


def play(client: Client, seat: int, quiet: bool = False) -> dict[str, Any]:
    """Play the seat until the match is over; return the final table metadata."""
    acted_on = -1
    for message in client.stream():
        if message["type"] not in ("sync", "update"):
            continue
        table, state = message["table"], message["state"]
        for event in message.get("events", []):
            if event["kind"] == "deal_over" and not quiet:
                print(f"deal {event['deal']} over: loser {event['loser']}, losses {event['losses']}", flush=True)
        if table["status"] == "over":
            return dict(table)
        if state is None or state["legal"] is None or table["version"] == acted_on:
            continue
        action = choose(state)
        try:
            client.call("POST", f"/api/tables/{client.table}/actions", {"version": table["version"], "action": action})
            acted_on = table["version"]
        except RuntimeError as e:
            if not str(e).startswith(("stale", "not_your_turn")):
                raise  # Stale or out of turn: the next update tells what changed.
    raise RuntimeError("the stream ended before the match was over")


def main(argv: list[str] | None = None) -> int:
    """Run the bot from the command line."""
    p = argparse.ArgumentParser(description="A simple bot for a Mustamaija web table (docs/web.md).")
    p.add_argument("server", help="the server's base URL, such as http://127.0.0.1:8000")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--create", action="store_true", help="create a table with bots and play its seat 0")
    how.add_argument("--join", metavar="TABLE", help="take a free seat at this table")
    how.add_argument("--table", metavar="TABLE", help="play the seat of --token at this table")
    p.add_argument("--token", help="the seat token (with --table)")
    p.add_argument("--players", type=int, default=3, help="players at a created table (default 3)")
    p.add_argument("--bots", default="easy", help="level of the other seats at a created table (default easy)")
    p.add_argument("--deals", type=int, default=1, help="deals in a created table's match (default 1)")
    p.add_argument("--name", default="example bot", help="the seat's name")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    args = p.parse_args(argv)
    client = Client(args.server)
    try:
        if args.create:
            seats = [{"kind": "person"}] + [{"kind": "bot", "bot": args.bots}] * (args.players - 1)
            answer = client.call("POST", "/api/tables", {"players": args.players, "seats": seats, "deals": args.deals,
                                                         "player_name": args.name, "private": True})
            client.table, client.token, seat = answer["table"]["id"], answer["token"], answer["seat"]
        elif args.join:
            client.table = args.join
            answer = client.call("POST", f"/api/tables/{args.join}/join", {"name": args.name})
            client.token, seat = answer["token"], answer["seat"]
        else:
            if not args.token:
                p.error("--table needs --token")
            client.table, client.token = args.table, args.token
            seat = client.call("GET", f"/api/tables/{args.table}/state")["seat"]
        if not args.quiet:
            print(f"playing seat {seat} at table {client.table}", flush=True)
        start = time.monotonic()
        table = play(client, seat, args.quiet)
    except (RuntimeError, OSError, KeyError, ValueError) as e:
        print(f"bot_client: {e}", file=sys.stderr)
        return 1
    losses = table["match"]["losses"]
    print(f"match over at table {client.table}: seat {seat} lost {losses[seat]} of {table['match']['played']} deals "
          f"(losses {losses}) in {time.monotonic() - start:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
