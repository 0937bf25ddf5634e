"""Several servers on one PostgreSQL database: the servers, which owns which table, settings, a status index.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.create_table(
        "mm_servers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("address", sa.Text, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("heartbeat", sa.Float, nullable=False),
    )
    op.create_table(
        "mm_owners",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("server_id", sa.String(32), nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_table(
        "mm_settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_index("ix_mm_tables_status", "mm_tables", ["status"])


def downgrade() -> None:
    op.drop_index("ix_mm_tables_status", "mm_tables")
    op.drop_table("mm_settings")
    op.drop_table("mm_owners")
    op.drop_table("mm_servers")
