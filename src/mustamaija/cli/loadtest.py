"""``mustamaija loadtest``: load a web server on this machine with WebSocket clients and measure it.

    mustamaija loadtest                                  # its own server; 10, 50 and 100 clients, 10 s each
    mustamaija loadtest --clients 3 --seconds 2 --json
    mustamaija loadtest --url http://127.0.0.1:8000/ --server-pid 1234

For each level of ``--clients`` it creates that many private two-player
tables (a person seat for the client, an ``easy`` bot), opens each table's
WebSocket with the seat's token and plays: whenever its seat is to act, a
client sends a legal action from its state and times the wait until the
``update`` holding that action (or the ``ack``) arrives. A level runs for
``--seconds`` of wall time; then the clients close. It reports accepted
actions a second, latency percentiles, errors, the server's resident memory
and the machine's load average.

Only loopback servers are loaded (127.0.0.0/8, ``localhost``, ``::1``), with
at most :data:`MAX_CLIENTS` clients and :data:`MAX_SECONDS` a level. The
server limits sockets and HTTP requests per client address, so on Linux the
clients of a level are spread over source addresses of 127.0.0.0/8 (at most
:data:`PER_ADDRESS` each); each client keeps under the server's per-socket
message rate (``--client-rate``). Needs the ``websockets`` package.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import http.client
import ipaddress
import json
import os
import random
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from mustamaija.core.errors import MustamaijaError

MAX_CLIENTS: Final = 1000
"""The most clients of one level."""

MAX_SECONDS: Final = 3600.0
"""The longest a level may run (an hour: a soak)."""

SAMPLES: Final = 12
"""How many times in a level the server's memory is read (evenly spaced), to show whether it stays flat."""

CONNECT_SECONDS: Final = 60.0
"""The longest the clients of a level may take to connect before play is measured without the late ones."""

MAX_SERVERS: Final = 16
"""The most servers it starts."""

PER_ADDRESS: Final = 30
"""The most clients sharing one source address (the server allows 32 sockets an address)."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("loadtest", help="load a web server on this machine with WebSocket clients and measure it",
                       description="Play many tables of a loopback web server at once through WebSockets (each "
                                   "client against an easy bot) and report accepted actions/s, latency percentiles, "
                                   "errors and the server's memory for each number of clients.")
    p.add_argument("--clients", default="10,50,100",
                   help=f"comma-separated numbers of clients, one level each (default 10,50,100; at most {MAX_CLIENTS})")
    p.add_argument("--seconds", type=float, default=10.0,
                   help=f"wall time of each level (default 10; at most {MAX_SECONDS:g})")
    p.add_argument("--url", default=None,
                   help="load these running servers (comma-separated; loopback addresses only) instead of starting one")
    p.add_argument("--server-pid", default=None, metavar="PID[,PID...]",
                   help="the processes of the --url servers, for their memory and CPU time (default: unknown)")
    p.add_argument("--servers", type=int, default=1, metavar="N",
                   help=f"start N servers (at most {MAX_SERVERS}) on the --db PostgreSQL database; clients are spread "
                        "over them, each playing at the server that made its table (default 1)")
    p.add_argument("--db", default=None, metavar="URL",
                   help="the database of the servers it starts (default: a temporary SQLite file)")
    p.add_argument("--client-rate", type=float, default=8.0, metavar="N",
                   help="most actions a second of one client, 0 for no pacing (default 8: the server allows a "
                        "socket 10 messages a second after a burst of 20)")
    p.add_argument("--deals", type=int, default=100, metavar="N",
                   help="deals in a table's match (default 100); a client asks for a rematch when one ends, so short "
                        "matches let a soak reach a steady state")
    p.add_argument("--seed", type=int, default=0, help="seed of the clients' choices (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def parse_levels(text: str) -> list[int]:
    """Return the levels of ``--clients``.

    >>> parse_levels("10, 50,100")
    [10, 50, 100]
    """
    try:
        levels = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise MustamaijaError(f"--clients must be comma-separated numbers, not {text!r}") from None
    if not levels or any(not 1 <= n <= MAX_CLIENTS for n in levels):
        raise MustamaijaError(f"--clients must be numbers from 1 to {MAX_CLIENTS}")
    return levels


def loopback_url(url: str) -> tuple[str, str, int]:
    """Return the scheme-less ``(host, connect address, port)`` of a loopback server URL; refuse any other.

    >>> loopback_url("http://127.0.0.1:8000/")
    ('127.0.0.1', '127.0.0.1', 8000)
    >>> loopback_url("http://localhost:9/")
    ('localhost', '127.0.0.1', 9)
    >>> loopback_url("http://example.com:8000/")
    Traceback (most recent call last):
    ...
    mustamaija.core.errors.MustamaijaError: --url must be a loopback address (127.0.0.0/8, localhost, ::1), not 'example.com'
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "http":
        raise MustamaijaError(f"--url must be an http:// URL, not {url!r}")
    host = parts.hostname or ""
    if host == "localhost":
        address = "127.0.0.1"
    else:
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            ip = None
        if ip is None or not ip.is_loopback:
            raise MustamaijaError(f"--url must be a loopback address (127.0.0.0/8, localhost, ::1), not {host!r}")
        address = host
    try:
        port = parts.port or 80
    except ValueError:
        raise MustamaijaError(f"--url has a bad port: {url!r}") from None
    return host, address, port


def source_address(level: int, client: int, address: str) -> str | None:
    """Return the local address of a client (spread over 127.0.0.0/8 on Linux), or None for the system's choice.

    >>> source_address(0, 61, "127.0.0.1") if sys.platform.startswith("linux") else "127.1.0.3"
    '127.1.0.3'
    """
    if not sys.platform.startswith("linux") or ipaddress.ip_address(address).version != 4:
        return None
    group = client // PER_ADDRESS
    return f"127.{level + 1}.{group // 250}.{group % 250 + 1}"


def percentile(values: list[float], q: float) -> float | None:
    """Return the nearest-rank ``q`` percentile of ``values`` (None if empty).

    >>> percentile([3.0, 1.0, 2.0, 4.0], 50)
    2.0
    >>> percentile([3.0, 1.0, 2.0, 4.0], 99)
    4.0
    """
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def _pids(text: str | None, count: int) -> list[int | None]:
    """Return the ``--server-pid`` processes, one for each of ``count`` servers (None: unknown)."""
    if text is None:
        return [None] * count
    try:
        found: list[int | None] = [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise MustamaijaError(f"--server-pid must be comma-separated process ids, not {text!r}") from None
    if len(found) != count:
        raise MustamaijaError(f"--server-pid names {len(found)} processes for {count} --url servers")
    return found


def cpu_seconds(pid: int | None) -> float | None:
    """Return the CPU time (user and system) a process has used so far, or None when it cannot be read."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def rss_mb(pid: int | None) -> float | None:
    """Return the resident memory of a process in MB (``VmRSS``), or None when it cannot be read."""
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        return None
    return None


@dataclass
class Stats:
    """What the clients of one level measured."""

    latencies: list[float] = field(default_factory=list)
    memory: list[tuple[float, float | None]] = field(default_factory=list)  # (seconds into the level, server RSS MB)
    accepted: int = 0
    errors: int = 0
    codes: dict[str, int] = field(default_factory=dict)

    def error(self, code: str) -> None:
        """Count an error of kind ``code``."""
        self.errors += 1
        self.codes[code] = self.codes.get(code, 0) + 1


def create_table(address: str, port: int, local: str | None, deals: int = 100) -> tuple[str, str]:
    """Create a private two-player table (a person seat, an easy bot) for matches of ``deals``; return its id and token."""
    body = {"players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "easy"}], "deals": deals,
            "private": True, "hints": False, "player_name": "loadtest"}
    conn = http.client.HTTPConnection(address, port, timeout=30, source_address=(local, 0) if local else None)
    try:
        conn.request("POST", "/api/tables", json.dumps(body), {"Content-Type": "application/json"})
        answer = conn.getresponse()
        data = answer.read()
        if answer.status != 201:
            raise MustamaijaError(f"creating a table: {answer.status} {data[:200]!r}")
        created = json.loads(data)
        return str(created["table"]["id"]), str(created["token"])
    finally:
        conn.close()


class Window:
    """The measured time of a level: it opens once every client has connected and been synced, and lasts ``seconds``.

    Connecting is not measured: a thousand hellos at once would time the connection storm, not play.
    """

    def __init__(self, clients: int, seconds: float, on_open: Callable[[], None]) -> None:
        self.waiting = clients
        self.seconds = seconds
        self.on_open = on_open
        self.go = asyncio.Event()
        self.start = 0.0
        self.stop_at = time.monotonic() + CONNECT_SECONDS  # Until it opens: the most connecting may take.

    def ready(self) -> None:
        """Count a client as connected (or failed); the last one opens the window."""
        self.waiting -= 1
        if self.waiting <= 0 and not self.go.is_set():
            self.open()

    def open(self) -> None:
        """Start the measured time now."""
        self.on_open()
        self.start = time.monotonic()
        self.stop_at = self.start + self.seconds
        self.go.set()


async def open_seat(ws_url: str, token: str, local: str | None) -> Any:
    """Open a table's WebSocket from ``local`` and say hello with the seat's token."""
    from websockets.asyncio.client import connect

    extra: dict[str, Any] = {"local_addr": (local, 0)} if local else {}
    ws = await connect(ws_url, max_size=2**22, open_timeout=30, close_timeout=2, **extra)
    await ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
    return ws


async def play(ws: Any, window: Window, ready: Callable[[], None], interval: float, rng: random.Random,
               stats: Stats) -> None:
    """Play one seat until the window closes: act whenever the seat is to act, timing each action's answer.

    ``ready`` is called on the first sync: the seat is connected and knows its state.
    """
    seat: int | None = None
    acted = -1  # The version last acted on.
    sent = 0.0  # When the pending action was sent (0: none pending).
    timed = False  # Whether the pending action's latency is recorded.
    # Clients are not in step, as people are not: each starts at a random moment of the first interval
    # and waits a random 0.5 to 1.5 intervals between actions (a burst of all clients at once would time
    # the queue of the burst, not the server).
    next_at: float | None = None
    synced = False
    rematch = -1
    count = 0
    latest: tuple[int, list[Any]] | None = None  # The version and legal actions when this seat is to act.
    while True:
        remaining = window.stop_at - time.monotonic()
        if remaining <= 0:
            return
        try:
            text = await asyncio.wait_for(ws.recv(), remaining)
        except TimeoutError:
            return
        now = time.monotonic()
        message = json.loads(text)
        kind = message.get("type")
        if kind == "welcome":
            seat = message.get("seat")
        elif kind == "error":
            stats.error(str(message.get("error", {}).get("code", "error")))
            if sent:
                sent, acted, latest = 0.0, -1, None
                await ws.send(json.dumps({"type": "sync"}))  # Refused: start again from a fresh state.
        elif kind == "ack" and str(message.get("id", "")).startswith("a"):
            if sent:
                if not timed:
                    stats.latencies.append(now - sent)
                stats.accepted += 1
                sent = 0.0
        elif kind in ("sync", "update"):
            if not synced:
                synced = True
                ready()
            if sent and not timed and kind == "update":
                for event in message.get("events", []):
                    if event.get("kind") == "action" and event.get("seat") == seat and event.get("by") == "person":
                        stats.latencies.append(now - sent)
                        timed = True
            table, state = message["table"], message["state"]
            if table["status"] == "over":
                number = table["match"]["number"]
                if number != rematch:
                    rematch = number
                    await ws.send(json.dumps({"type": "rematch", "id": f"r{number}"}))
                latest = None
            else:
                legal = state.get("legal") if state is not None else None
                latest = (table["version"], legal["actions"]) if legal and legal.get("actions") else None
        # The update holding an action may already ask this seat to act again: act once it is acknowledged.
        if sent or latest is None or latest[0] == acted:
            continue
        if not window.go.is_set():
            await window.go.wait()
        if next_at is None:
            next_at = window.start + interval * rng.random()
        if interval:
            wait = next_at - time.monotonic()
            if wait > 0:
                if time.monotonic() + wait >= window.stop_at:
                    return
                await asyncio.sleep(wait)
        count += 1
        acted, timed = latest[0], False
        payload = json.dumps({"type": "action", "version": latest[0], "action": rng.choice(latest[1]),
                              "id": f"a{count}"})
        sent = time.monotonic()
        next_at = sent + interval * rng.uniform(0.5, 1.5)
        await ws.send(payload)


async def run_level(level: int, clients: int, endpoints: list[tuple[str, int]], seconds: float, interval: float,
                    seed: int, on_start: Callable[[], None] = lambda: None, pids: tuple[int | None, ...] = (None,),
                    progress: bool = False, deals: int = 100) -> tuple[Stats, float, int]:
    """Create the tables of one level, play them for ``seconds`` and return the stats, the time played and the tables.

    Client ``i`` creates its table at server ``i`` modulo the servers (``endpoints``: address, port) and
    plays it there (the table's owner, in a cluster). ``on_start`` is called when play begins, once the
    tables are made (to read the servers' CPU time). The memory of the servers ``pids`` is read
    :data:`SAMPLES` times in the level (with ``progress``, also printed).
    """
    from websockets.exceptions import WebSocketException

    stats = Stats()
    gate = asyncio.Semaphore(16)
    at = [endpoints[i % len(endpoints)] for i in range(clients)]
    locals_ = [source_address(level, i, at[i][0]) for i in range(clients)]

    async def make(i: int) -> tuple[str, str] | None:
        async with gate:
            try:
                return await asyncio.to_thread(create_table, at[i][0], at[i][1], locals_[i], deals)
            except (OSError, MustamaijaError, ValueError, KeyError, http.client.HTTPException):
                stats.error("create_table")
                return None

    tables = await asyncio.gather(*(make(i) for i in range(clients)))
    made = sum(t is not None for t in tables)
    window = Window(made, seconds, on_start)
    gate = asyncio.Semaphore(64)  # Connections are opened a few at a time, as a listen backlog expects.

    async def client(i: int, table: tuple[str, str]) -> None:
        rng = random.Random(seed * 1_000_003 + level * 10_007 + i)
        counted = False

        def ready() -> None:
            nonlocal counted
            if not counted:
                counted = True
                window.ready()

        try:
            async with gate:
                address, port = at[i]
                host = f"[{address}]" if ":" in address else address
                ws = await open_seat(f"ws://{host}:{port}/ws/tables/{table[0]}", table[1], locals_[i])
            async with ws:
                await play(ws, window, ready, interval, rng, stats)
        except (OSError, WebSocketException, TimeoutError, ValueError, KeyError, TypeError):
            stats.error("connection")
        finally:
            ready()  # A client that failed before its sync must not hold the window shut.

    async def open_late() -> None:  # Should some client never be synced, measure with those that are.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(window.go.wait(), CONNECT_SECONDS)
        if not window.go.is_set():
            window.open()

    async def sample() -> None:  # The server's memory through the level: flat, or growing?
        await window.go.wait()
        for k in range(1, SAMPLES + 1):
            await asyncio.sleep(max(0.0, window.start + seconds * k / SAMPLES - time.monotonic()))
            mb = _total(rss_mb(pid) for pid in pids)
            stats.memory.append((round(time.monotonic() - window.start, 1), mb))
            if progress:
                print(f"    {time.monotonic() - window.start:7.0f} s: {stats.accepted} actions, server RSS "
                      f"{'-' if mb is None else f'{mb:.1f}'} MB", file=sys.stderr, flush=True)

    opener = asyncio.create_task(open_late())
    sampler = asyncio.create_task(sample())
    await asyncio.gather(*(client(i, t) for i, t in enumerate(tables) if t is not None))
    opener.cancel()
    sampler.cancel()
    if not window.go.is_set():
        window.open()
    # Clients stop when the window closes (or before it, when the next action would come after it).
    return stats, max(time.monotonic() - window.start, seconds) if made else seconds, made


def _total(values: Any) -> float | None:
    """Return the sum of some figures of the servers, or None when one is unknown."""
    figures = list(values)
    return None if any(v is None for v in figures) else round(sum(figures), 3)


def _read_cpu(into: list[float | None], pids: tuple[int | None, ...]) -> None:
    into.append(_total(cpu_seconds(pid) for pid in pids))


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 2)


def run(args: argparse.Namespace) -> int:
    """Run the load test and print its report."""
    levels = parse_levels(args.clients)
    if not 0 < args.seconds <= MAX_SECONDS:
        raise MustamaijaError(f"--seconds must be more than 0 and at most {MAX_SECONDS:g}")
    if not 1 <= args.deals <= 1000:
        raise MustamaijaError("--deals must be from 1 to 1000")
    if not args.client_rate >= 0:
        raise MustamaijaError("--client-rate must not be negative")
    urls = [u.strip() for u in args.url.split(",") if u.strip()] if args.url is not None else []
    endpoints = [loopback_url(u)[1:] for u in urls]
    pids: tuple[int | None, ...] = tuple(_pids(args.server_pid, len(urls))) if urls else ()
    if not 1 <= args.servers <= MAX_SERVERS:
        raise MustamaijaError(f"--servers must be from 1 to {MAX_SERVERS}")
    if args.servers > 1 and (urls or not (args.db or "").startswith("postgresql")):
        raise MustamaijaError("--servers N > 1 starts servers that share a PostgreSQL database: give --db "
                              "postgresql+psycopg://... (and no --url)")
    try:
        import websockets  # noqa: F401
    except ImportError:
        raise MustamaijaError("loadtest needs the websockets package: pip install websockets") from None
    with contextlib.ExitStack() as stack:
        if not urls:
            from mustamaija.web.testing import ServerProcess

            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="mustamaija-loadtest-"))
            db = args.db or str(Path(folder) / "loadtest.sqlite3")
            started = []
            for _ in range(args.servers):
                try:
                    # No takeover: the tables of a finished level must not go on playing bot against bot.
                    server = ServerProcess(db, takeover_after=86400.0).start()
                except RuntimeError as e:
                    raise MustamaijaError(str(e)) from None
                stack.callback(server.stop)
                started.append(server)
            urls = [server.url for server in started]
            endpoints = [loopback_url(u)[1:] for u in urls]
            pids = tuple(server.proc.pid if server.proc is not None else None for server in started)
        url = ",".join(urls)
        pid = pids[0] if len(pids) == 1 else None
        results: list[dict[str, Any]] = []
        for index, clients in enumerate(levels):
            cpu: list[float | None] = []
            stats, played, tables = asyncio.run(run_level(index, clients, endpoints, args.seconds,
                                                          1.0 / args.client_rate if args.client_rate else 0.0, args.seed,
                                                          functools.partial(_read_cpu, cpu, pids), pids,
                                                          not args.json, args.deals))
            _read_cpu(cpu, pids)
            used = cpu[1] - cpu[0] if len(cpu) == 2 and cpu[0] is not None and cpu[1] is not None else None
            lat = stats.latencies
            results.append({
                "clients": clients, "tables": tables, "seconds": round(played, 3), "accepted": stats.accepted,
                "actions_per_s": round(stats.accepted / played, 1) if played > 0 else 0.0,
                "latency_ms": {"p50": _ms(percentile(lat, 50)), "p95": _ms(percentile(lat, 95)),
                               "p99": _ms(percentile(lat, 99)), "max": _ms(max(lat) if lat else None)},
                "errors": stats.errors, "error_codes": dict(sorted(stats.codes.items())),
                "server_rss_mb": _total(rss_mb(p) for p in pids),
                "server_rss_mb_samples": [[t, mb] for t, mb in stats.memory],
                "server_cpu_percent": round(100 * used / played, 1) if used is not None and played > 0 else None,
                "server_cpu_ms_per_action": round(1000 * used / stats.accepted, 3) if used is not None and stats.accepted else None,
                "loadavg": [round(x, 2) for x in os.getloadavg()],
            })
            if not args.json:
                print(f"  {clients} clients done", file=sys.stderr, flush=True)
    report = {"url": url, "server_pid": pid, "server_pids": list(pids), "servers": len(pids),
              "own_server": args.url is None, "seconds": args.seconds,
              "client_rate": args.client_rate, "cpus": os.cpu_count(), "levels": results,
              "loadavg": [round(x, 2) for x in os.getloadavg()]}
    if args.json:
        print(json.dumps(report))
        return 0
    pace = f"at most {args.client_rate:g} actions/s a client" if args.client_rate else "clients unpaced"
    print(f"mustamaija loadtest of {url} ({len(pids)} {'own' if args.url is None else 'given'} "
          f"server{'s' if len(pids) > 1 else ''}; "
          f"{args.seconds:g} s a level; {pace}; {os.cpu_count()} CPUs)")
    print(f"{'clients':>7} {'actions/s':>10} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>7} "
          f"{'RSS MB':>8} {'CPU %':>6} {'CPU ms/action':>13} {'load 1/5/15 min':>17}")

    def cell(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}"

    def cell3(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    for row in results:
        lat_ms = row["latency_ms"]
        print(f"{row['clients']:>7} {row['actions_per_s']:>10.1f} {cell(lat_ms['p50']):>8} {cell(lat_ms['p95']):>8} "
              f"{cell(lat_ms['p99']):>8} {row['errors']:>7} {cell(row['server_rss_mb']):>8} "
              f"{cell(row['server_cpu_percent']):>6} {cell3(row['server_cpu_ms_per_action']):>13} "
              f"{' '.join(f'{x:.2f}' for x in row['loadavg']):>17}")
        memory = [mb for _, mb in row["server_rss_mb_samples"] if mb is not None]
        if len(memory) > 1:
            print(f"{'':>7} server RSS at each of {len(memory)} even steps of the level: "
                  f"{' '.join(f'{mb:.0f}' for mb in memory)} MB")
        if row["error_codes"]:
            print(f"{'':>7} errors: {', '.join(f'{k} {v}' for k, v in row['error_codes'].items())}")
    print(f"load average now: {' '.join(f'{x:.2f}' for x in report['loadavg'])}")
    return 0
