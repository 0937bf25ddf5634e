"""Ratings: claimed names with their hashed keys, Glicko-2 standings, the deals rated, and the name a seat signed in as.

Revision ID: 0004
Revises: 0003

Deals finished before this revision are not rated: their seats were never
signed in, and rating only their bots afterwards, in no order of time, would
tell nothing the ``mustamaija ratings`` command cannot tell from records.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.create_table(
        "mm_players",
        sa.Column("name_key", sa.String(64), primary_key=True),  # The name as it is unique: NFKC, case folded.
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "mm_ratings",
        sa.Column("identity", sa.String(255), primary_key=True),
        sa.Column("game", sa.String(60), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float),
    )
    op.create_index("ix_mm_ratings_game_rating", "mm_ratings", ["game", "rating"])
    op.create_table(
        "mm_rated_deals",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("deal_no", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(60), nullable=False),
        sa.Column("rated", sa.Float, nullable=False),
        sa.Column("changes", sa.Text, nullable=False),
    )
    with op.batch_alter_table("mm_seats") as batch:
        batch.add_column(sa.Column("player", sa.String(64)))


def downgrade() -> None:
    with op.batch_alter_table("mm_seats") as batch:
        batch.drop_column("player")
    op.drop_table("mm_rated_deals")
    op.drop_index("ix_mm_ratings_game_rating", "mm_ratings")
    op.drop_table("mm_ratings")
    op.drop_table("mm_players")
