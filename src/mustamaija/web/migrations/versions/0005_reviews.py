"""Deal reviews: kept in the database, so that a restart or another server of a cluster gives the one made.

Revision ID: 0005
Revises: 0004

A review costs seconds of search at every decision of a deal (docs/web.md, "Replays"); before this
revision each server kept the last 64 it made in memory.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "mm_reviews",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("deal_no", sa.Integer, primary_key=True),
        sa.Column("iters", sa.Integer, nullable=False),
        sa.Column("review", sa.Text, nullable=False),
        sa.Column("made", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("mm_reviews")
