"""The player interface: a view goes in, one step comes out."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from mustamaija.games.mustamaija.view import View


@runtime_checkable
class Player(Protocol):
    """Something that chooses a legal step for the seat whose view it is given (M22: views only)."""

    name: str

    def act(self, view: View) -> int:
        """Return a legal step (see :mod:`mustamaija.games.mustamaija.actions`) for ``view.seat``."""
        ...
