"""Server settings and where the default SQLite database lives."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import platformdirs

from mustamaija.search.review import DEFAULT_ITERS as DEFAULT_REVIEW_ITERS

__all__ = ["MOVE_TIMEOUT", "SEARCH_TIMEOUT", "ServerConfig", "data_dir", "default_db_url"]


def data_dir() -> Path:
    """Return the per-user data directory: ``$MUSTAMAIJA_DATA_DIR``, else the platform's usual place (platformdirs).

    >>> import os
    >>> os.environ["MUSTAMAIJA_DATA_DIR"] = "games"
    >>> data_dir().name
    'games'
    >>> del os.environ["MUSTAMAIJA_DATA_DIR"]
    """
    explicit = os.environ.get("MUSTAMAIJA_DATA_DIR")
    if explicit:
        return Path(explicit)
    return Path(platformdirs.user_data_dir("mustamaija", appauthor=False))


SEARCH_TIMEOUT: Final = 300.0
"""Seconds a search may run in the pool before it is taken for stuck: far beyond any bounded search (a bot's or a
hint's at most a few seconds, a review's decision seconds at the default budget)."""

MOVE_TIMEOUT: Final = 60.0
"""Seconds a search bot's move may run in the pool before it is taken for stuck: a move's budget is at most a few
seconds (the ``expert`` level's about one idle, a client's bot at most :attr:`ServerConfig.bot_bounds`), and a
stuck one holds its table, so it is found long before a review's :data:`SEARCH_TIMEOUT`."""


def default_db_url(directory: Path | None = None) -> str:
    """Return ``$DATABASE_URL``, else a SQLite file ``web.sqlite3`` in ``directory`` (default :func:`data_dir`)."""
    url = os.environ.get("DATABASE_URL")
    if url and directory is None:
        return url
    folder = directory if directory is not None else data_dir()
    return f"sqlite:///{folder / 'web.sqlite3'}"


@dataclass
class ServerConfig:
    """How the server runs: its database, the bots' pace and pool, presence, and limits.

    Tests set ``bot_pace`` and ``deal_pause`` to 0 so that bots play at once.
    """

    db_url: str = "sqlite://"
    bot_pace: float = 1.0
    deal_pause: float = 15.0
    takeover_after: float = 60.0
    bot_workers: int = 1
    takeover_bot: str = "medium"
    hint_seconds: float = 2.0
    """The most wall-clock time a hint may take: a safety net only, as a hint is a number of playouts
    (:data:`~mustamaija.search.hints.TABLE_PLAYOUTS`), about 0.1–0.7 s of a core."""
    search_timeout: float = SEARCH_TIMEOUT
    """Seconds a search in the pool may run before its worker is taken for stuck and replaced (a safety net)."""
    move_timeout: float = MOVE_TIMEOUT
    """The same for a search bot's move: shorter, as a move is bounded far more tightly than a review."""
    review_iters: int = DEFAULT_REVIEW_ITERS
    """Playouts of a deal review's search at each decision: ``mustamaija review``'s budget, the ``expert`` level's."""
    max_body: int = 64 * 1024
    max_message: int = 8 * 1024
    ws_burst: int = 20
    ws_rate: float = 10.0
    ws_max_refused: int = 100
    http_burst: int = 60
    http_rate: float = 30.0
    keepalive: float = 10.0
    ws_per_address: int = 32
    """The most WebSockets one client address may hold open at once."""
    ws_total: int = 2000
    """The most WebSockets the server holds open at once."""
    bot_bounds: dict[str, float] = field(default_factory=lambda: {"time": 2.0, "iters": 5000, "samples": 100})
    """The most a client may ask of a bot's budget: seconds a decision, playouts, sampled deals."""
    advertise: str | None = None
    """The URL at which the other servers of a cluster reach this one (PostgreSQL only; docs/web.md)."""
