"""Alembic's environment: migrations run on the connection the store hands over (there is no alembic.ini)."""

from __future__ import annotations

from alembic import context

from mustamaija.web.store import METADATA

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=METADATA, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
