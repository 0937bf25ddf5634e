"""Every game of the registry in OpenSpiel: importing this package registers them with ``pyspiel``.

Needs the optional ``rl`` extra (``pip install 'mustamaija[rl]'``)::

    import pyspiel
    import mustamaija.openspiel
    game = pyspiel.load_game("<env_name>(players=4)")   # a game's Game.env_name

:func:`~mustamaija.openspiel.game.resampler` gives OpenSpiel's ISMCTS bot a
sampler of the hidden cards; :mod:`mustamaija.openspiel.versus` pits our
search player against it.
"""

from __future__ import annotations

from mustamaija.openspiel.game import OpenSpielGame, OpenSpielState, class_name, register, resampler

__all__ = ["OpenSpielGame", "OpenSpielState", "class_name", "register", "resampler"]
