"""The schema the web app had before migrations: tables, seats, deals (records) and events.

Revision ID: 0001
Revises: none
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "mm_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("deal_no", sa.Integer, nullable=False),
    )
    op.create_table(
        "mm_seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("bot", sa.Text),
        sa.Column("name", sa.Text),
        sa.Column("token_hash", sa.String(64)),
    )
    op.create_table(
        "mm_deals",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("deal_no", sa.Integer, primary_key=True),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("loser", sa.Integer),
        sa.Column("stopped", sa.Boolean, nullable=False),
        sa.Column("turns", sa.Integer, nullable=False),
    )
    op.create_table(
        "mm_events",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("deal_no", sa.Integer, nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for name in ("mm_events", "mm_deals", "mm_seats", "mm_tables"):
        op.drop_table(name)
