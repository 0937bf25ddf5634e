"""What the screens need from the application, without importing it (the app imports the screens)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from mustamaija.tui.session import GameSession

__all__ = ["Host", "host"]


class Host(Protocol):
    """The application seen from a screen: settings, the game in play, saving and leaving."""

    pace: float
    hint_seconds: float
    save_dir: str | None
    session: GameSession | None
    autosave: str | None

    def save_deal(self, path: str | None = None) -> str:
        """Save the current deal; return where."""
        ...

    def start_game(self, session: GameSession) -> None:
        """Leave the setup for the table."""
        ...

    def finish(self) -> None:
        """Leave at the end of the match."""
        ...

    def action_save_quit(self) -> None:
        """Save the game in progress and leave."""
        ...


def host(node: DOMNode) -> Host:
    """Return the application of a screen or widget as a :class:`Host`."""
    return cast("Host", node.app)
