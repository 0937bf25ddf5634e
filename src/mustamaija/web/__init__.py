"""The web app behind ``mustamaija serve``: lobby, tables, bots, replays and the bot API (see docs/web.md).

=================  ==================================================================
module             what it holds
=================  ==================================================================
``errors``         :class:`ApiError`, the one error shape of the HTTP and WebSocket API
``config``         :class:`ServerConfig` and the default database location
``store``          storage through SQLAlchemy Core: tables, seats, deals, events (JSON)
``renderer``       :class:`TableRenderer`: the one game-specific piece, ``game.renderer("web")``
``replays``        replay frames of finished deals and imported records, of any game
``bots``           bot levels of each game and running bots off the event loop
``limits``         the token bucket of the rate limits
``live``           :class:`LiveTable`: one table's engine state, match, events and seats
``manager``        :class:`TableManager`: every live table, actions, bots, hints, presence, recovery
``app``            :func:`create_app`: the FastAPI application (routes, WebSocket, pages)
=================  ==================================================================

Every layer here works through the game protocol and the registry; a game's
own web piece (what its layout draws, its match, its lobby form) lives in its
package and is found through ``game.renderer("web")``.

FastAPI, uvicorn and SQLAlchemy come with the ``web`` extra and are imported
only here, so the rest of the package does not need them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mustamaija.web.app import create_app as create_app
    from mustamaija.web.config import ServerConfig as ServerConfig

__all__ = ["ServerConfig", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from mustamaija.web.app import create_app

        return create_app
    if name == "ServerConfig":
        from mustamaija.web.config import ServerConfig

        return ServerConfig
    raise AttributeError(name)
