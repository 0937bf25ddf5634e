"""The terminal game: ``mustamaija play``, ``mustamaija puzzle`` and the interactive ``mustamaija replay``.

The package is split so that everything but the screens can be tested
without a terminal:

=================  ==============================================================
module             what it holds
=================  ==============================================================
``bots``           strength levels and bot specs, with fallbacks
``commands``       the typed command language (``9H 4H``, ``9H:JH 4H:-``, ``take``)
``session``        :class:`~mustamaija.tui.session.GameSession`, the UI-free match controller
``selection``      choosing cards by keyboard (cursor, chosen cards, defence pairs)
``describe``       words for actions, seats, trumps and rules
``hints``          ``hint``: what to play and why, from the seat's view only
``puzzles``        endgame problems checked by the solver (data in ``puzzles.json``)
``puzzle_maker``   how the puzzles were made (``python -m mustamaija.tui.puzzle_maker``)
``render``         Rich renderables: cards, hands, the table, seats, the memory panel
``widgets``        the Textual widgets of the table
``table``          the screen the game and the puzzles share: the hand and the command line
``play_screen``    the match; ``setup_screen``, ``replay_screen``, ``puzzle_screen``, ``dialogs``
``host``           what the screens need from the application
``app``            the Textual application (styles, start-up, Ctrl-C)
``screenshots``    the docs' screenshots (``python -m mustamaija.tui.screenshots``)
``bm_session``     :class:`~mustamaija.tui.bm_session.BmGame`, Black Maria over ``blackmaria.session.Table``
``bm_render``      Black Maria's passing, trick and scores panels
``bm_screen``      the Black Maria table; ``bm_dialogs`` the end of a hand; ``bm_app`` its application
``bm_screenshots`` the Black Maria screenshots (``python -m mustamaija.tui.bm_screenshots``)
=================  ==============================================================

Textual is imported only by the screens and ``app`` (and so only when a
screen is opened), which keeps ``mustamaija`` quick to start.
"""
