"""The Mustamaija table of the terminal game (``mustamaija play``): found through ``RENDERERS["tui"]`` in ``game.py``.

The stack in :mod:`mustamaija.tui` runs the match, the screens and the
dialogs for every game; this package is what is Mustamaija's own:

==============  ==============================================================
module          what it holds
==============  ==============================================================
``controller``  matches (M20), the deal log, typed moves, hints: no UI
``commands``    the typed move language (``9H 4H``, ``9H:JH 4H:-``, ``take``)
``selection``   choosing a lead or a defence by keyboard
``describe``    words for actions, trumps, rule ids and the rules in force
``hints``       what to play and why, from the seat's view only
``render``      Rich renderables: the table, the seats, the memory panel
``layout``      the renderer: the panels of the table
==============  ==============================================================

The endgame puzzles of ``mustamaija puzzle`` are :mod:`mustamaija.games.mustamaija.puzzles`.

>>> from mustamaija.core.registry import get_game
>>> plugin = table(get_game("mustamaija"))
>>> plugin.controller.words.deal, plugin.renderer.titles["side"]
('deal', 'Memory')
"""

from __future__ import annotations

from typing import Final

from mustamaija.games.mustamaija.tui.controller import MustamaijaController
from mustamaija.games.mustamaija.tui.layout import MustamaijaRenderer
from mustamaija.tui.plugin import table_factory

__all__ = ["table"]

table: Final = table_factory(MustamaijaController, MustamaijaRenderer, puzzles="mustamaija.games.mustamaija.puzzles.cli:run")
"""Build the Mustamaija terminal table (its controller, its renderer, its puzzles) for the game."""
