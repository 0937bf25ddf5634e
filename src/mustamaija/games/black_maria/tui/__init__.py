"""The Black Maria table of the terminal game (``mustamaija play --game black-maria``), found through ``RENDERERS["tui"]``.

The stack in :mod:`mustamaija.tui` runs the game, the screens and the
dialogs for every game; this package is what is Black Maria's own:
``controller`` (the game of hands, the log of passes and tricks, typed
cards, hints, the choice of cards: no UI) and ``layout`` (the renderer: the
passing, the trick and the scores).

>>> from mustamaija.core.registry import get_game
>>> plugin = table(get_game("black-maria"))
>>> plugin.controller.words.deal, plugin.renderer.titles["table"]
('hand', 'Trick')
"""

from __future__ import annotations

from typing import Final

from mustamaija.games.black_maria.tui.controller import BlackMariaController
from mustamaija.games.black_maria.tui.layout import BlackMariaRenderer
from mustamaija.tui.plugin import table_factory

__all__ = ["table"]

table: Final = table_factory(BlackMariaController, BlackMariaRenderer)
"""Build the Black Maria terminal table (its controller and its renderer) for the game."""
