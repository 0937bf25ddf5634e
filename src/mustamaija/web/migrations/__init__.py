"""The web database's schema migrations (Alembic): each revision in ``versions/`` upgrades it one step.

:func:`mustamaija.web.store.migrate` runs them when a server opens its store,
so a deployment upgrades in place. To write a new revision, add a file to
``versions/`` whose ``down_revision`` is the current head; the schema in
:mod:`mustamaija.web.store` must then match what the revisions build
(``tests/test_web_migrations.py`` checks that).
"""
