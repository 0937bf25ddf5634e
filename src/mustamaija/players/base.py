"""The player interface: a view goes in, one step comes out (see :class:`mustamaija.core.protocol.Player`)."""

from __future__ import annotations

from mustamaija.core.protocol import Player

__all__ = ["Player"]
