"""The terminal game of every game of the registry: ``mustamaija play``, ``mustamaija puzzle``, ``mustamaija replay``.

One stack serves every game; what a game draws and reads at its table is
its own :class:`~mustamaija.tui.plugin.TablePlugin`, found through
``game.renderer("tui")`` and kept in the game's package. The package is
split so that everything but the screens can be tested without a terminal:

=================  ==============================================================
module             what it holds
=================  ==============================================================
``plugin``         what a game provides: a controller (no UI) and a renderer
``session``        :class:`~mustamaija.tui.session.GameSession`, the UI-free match controller
``commands``       the commands every table knows (``hint``, ``undo``, ``save``…)
``describe``       words for cards: card lists, hands sorted for people
``render``         Rich renderables every table shares: cards and the hand
``widgets``        the Textual widgets of the table
``table``          the screen the game and the puzzles share: the hand and the command line
``play_screen``    the match; ``setup_screen``, ``replay_screen``, ``dialogs``
``host``           what the screens need from the application
``app``            the Textual application (styles, start-up, Ctrl-C)
``screenshots``    the docs' screenshots (``python -m mustamaija.tui.screenshots``)
=================  ==============================================================

Textual is imported only by the screens and ``app`` (and so only when a
screen is opened), which keeps ``mustamaija`` quick to start.
"""
