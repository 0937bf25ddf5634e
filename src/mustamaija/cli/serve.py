"""``mustamaija serve``: the web app (lobby, tables with people and bots, replays, the bot API).

    mustamaija serve                       # http://127.0.0.1:8000/, games in the per-user data directory
    mustamaija serve --port 0 --db sqlite:///games.sqlite3 --bot-pace 0.5

The web extra provides FastAPI, uvicorn and SQLAlchemy
(``pip install 'mustamaija[web]'``); docs/web.md describes the app and its API.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import socket
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Final

from mustamaija.build import describe, which
from mustamaija.core.errors import MustamaijaError

GC_THRESHOLDS: Final = (10_000, 20, 100)
"""The server's cycle-collector thresholds (Python's are 700, 10, 10): young passes less often, full ones rarely."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    from mustamaija.search.review import DEFAULT_ITERS
    from mustamaija.web.config import MOVE_TIMEOUT, SEARCH_TIMEOUT  # Without the web extra: the config needs none of it.

    p = sub.add_parser("serve", help="start the web app: tables in the browser with friends and bots",
                       description="Start the web app and print its URL. Games are kept in a database "
                                   "(SQLite by default) and continue after a restart.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on; 0 picks a free one (default 8000)")
    p.add_argument("--db", default=None, metavar="URL|FILE",
                   help="database URL, such as sqlite:///games.sqlite3 or postgresql+psycopg://user@host/db, or the "
                        "path of a SQLite file (default: $DATABASE_URL, else web.sqlite3 in the data directory)")
    p.add_argument("--data-dir", default=None, metavar="DIR",
                   help="directory of the default SQLite file (default: $MUSTAMAIJA_DATA_DIR, else the per-user data directory)")
    p.add_argument("--bot-pace", type=float, default=1.0, metavar="SECONDS", help="pause before each bot action (default 1)")
    p.add_argument("--deal-pause", type=float, default=15.0, metavar="SECONDS",
                   help="longest pause between deals, to read the result; the next deal starts sooner once every "
                        "connected person asks for it (default 15)")
    p.add_argument("--takeover-after", type=float, default=60.0, metavar="SECONDS",
                   help="default time after which a bot plays for a person who left (default 60)")
    p.add_argument("--bot-workers", type=int, default=1, metavar="N", help="processes for the search bots (default 1)")
    p.add_argument("--hint-seconds", type=float, default=2.0, metavar="SECONDS",
                   help="the most wall-clock time a hint may take, a safety net: a hint is a fixed number of "
                   "playouts, under a second of a core (default 2)")
    p.add_argument("--review-iters", type=int, default=DEFAULT_ITERS, metavar="N",
                   help=f"playouts of a deal review's search at each decision (default {DEFAULT_ITERS}, the expert "
                   "level's, as mustamaija review's)")
    p.add_argument("--search-timeout", type=float, default=SEARCH_TIMEOUT, metavar="SECONDS",
                   help="the most wall-clock time one search in the pool may take before its worker is taken for "
                   f"stuck and replaced, a safety net (default {SEARCH_TIMEOUT:g}; a large --review-iters may need more)")
    p.add_argument("--move-timeout", type=float, default=MOVE_TIMEOUT, metavar="SECONDS",
                   help="the same for a search bot's move or a hint, which are bounded far more tightly "
                   f"(default {MOVE_TIMEOUT:g}; at most --search-timeout)")
    p.add_argument("--open-browser", dest="open_browser", action="store_true", default=False,
                   help="open the lobby in a web browser")
    p.add_argument("--no-browser", dest="open_browser", action="store_false", help="do not open a browser (the default)")
    p.add_argument("--trust-proxy", default="", metavar="ADDRESSES",
                   help="comma-separated addresses of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto "
                        "headers are believed (default: none: every client is known by its own address)")
    p.add_argument("--advertise", default=None, metavar="URL",
                   help="with PostgreSQL, the URL at which the other servers reach this one (default: the URL it "
                        "prints; give it when the servers run on several machines, docs/web.md)")
    p.add_argument("--head-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="seconds a connection has to send a request's line and headers (default 10)")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"],
                   help="server log level (default warning)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start the server and serve until interrupted."""
    try:
        import uvicorn

        from mustamaija.web import ServerConfig, create_app
        from mustamaija.web.config import default_db_url
        from mustamaija.web.protocol import protocol_class
    except ImportError as e:
        raise MustamaijaError(f"the web app needs its extra: pip install 'mustamaija[web]' ({e})") from None
    for name in ("bot_pace", "deal_pause", "takeover_after"):
        if getattr(args, name) < 0:
            raise MustamaijaError(f"--{name.replace('_', '-')} must not be negative")
    if args.bot_workers < 1:
        raise MustamaijaError("--bot-workers must be at least 1")
    if not 1 <= args.review_iters <= 100_000:
        raise MustamaijaError("--review-iters must be from 1 to 100000")
    if not 0.1 <= args.hint_seconds <= 60:
        raise MustamaijaError("--hint-seconds must be from 0.1 to 60")
    if not 10 <= args.search_timeout <= 86_400:
        raise MustamaijaError("--search-timeout must be from 10 to 86400")
    if not 10 <= args.move_timeout <= args.search_timeout:
        raise MustamaijaError("--move-timeout must be from 10 to --search-timeout")
    db = database_url(args.db) if args.db else default_db_url(Path(args.data_dir) if args.data_dir else None)
    try:
        sock = socket.create_server((args.host, args.port), reuse_port=False)
    except OSError as e:
        raise MustamaijaError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    port = sock.getsockname()[1]
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"
    config = ServerConfig(db_url=db, bot_pace=args.bot_pace, deal_pause=args.deal_pause,
                          takeover_after=args.takeover_after, bot_workers=args.bot_workers, review_iters=args.review_iters,
                          hint_seconds=args.hint_seconds, search_timeout=args.search_timeout,
                          move_timeout=args.move_timeout, advertise=args.advertise or url)
    try:
        app = create_app(config)
    except Exception as e:  # A bad database URL or an unreachable server: say which.
        sock.close()
        raise MustamaijaError(f"cannot open the database {_safe(db)!r}: {e}") from None
    print(f"mustamaija is served at {url}  (database: {_safe(db)}; Ctrl-C stops it)", flush=True)
    if which() != "compiled":
        print(describe(), file=sys.stderr, flush=True)  # The install's notice, where the user sees it.
    if args.open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    proxies = [a.strip() for a in args.trust_proxy.split(",") if a.strip()]
    # uvicorn believes X-Forwarded-For from loopback by default; a client on this machine could then pose as
    # any address and slip past the per-address limits, so forwarded headers count only from named proxies.
    server = uvicorn.Server(uvicorn.Config(app, log_level=args.log_level, ws_max_size=64 * 1024,
                                           timeout_graceful_shutdown=3, proxy_headers=bool(proxies),
                                           forwarded_allow_ips=proxies or None,
                                           # A dead peer is found by pings; an idle HTTP connection is closed.
                                           ws_ping_interval=20.0, ws_ping_timeout=20.0, timeout_keep_alive=5,
                                           # Messages are a few kB: compressing each cost a twentieth of the
                                           # server's time an action (docs/web.md, "Load testing").
                                           ws_per_message_deflate=False,
                                           # Past this many connections and tasks the server answers 503.
                                           limit_concurrency=config.ws_total + 500,
                                           # A connection must send each request head in time (no slowloris).
                                           http=protocol_class(args.head_timeout)))
    # The cycle collector's full passes are the worst of the latencies at a busy server (a pass over every
    # table and connection). What exists now (the code, the app) lives as long as the server: it is left out
    # of the passes. Young garbage is collected as usual, but less often, and a full pass comes rarely.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    print("stopped", file=sys.stderr)
    return 0


def database_url(value: str) -> str:
    """Return a database URL for ``--db``: a URL as it is, a file path as a SQLite URL.

    >>> database_url("postgresql+psycopg://ann@db/games")
    'postgresql+psycopg://ann@db/games'
    >>> database_url("/srv/games.db")
    'sqlite:////srv/games.db'
    """
    if "://" in value:
        return value
    return f"sqlite:///{Path(value).expanduser().resolve()}"


def _safe(url: str) -> str:
    """Return a database URL with any password hidden.

    >>> _safe("postgresql://ann:secret@db/games")
    'postgresql://ann:***@db/games'
    """
    head, sep, rest = url.partition("://")
    creds, at, host = rest.rpartition("@")
    if not at or ":" not in creds:
        return url
    return f"{head}{sep}{creds.split(':', 1)[0]}:***@{host}"
