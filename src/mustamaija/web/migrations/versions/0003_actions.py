"""A deal in play appends its actions as rows instead of rewriting its whole record at each action.

Revision ID: 0003
Revises: 0002

Records stored before hold every action, and no action rows belong to them, so
nothing is moved.
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.create_table(
        "mm_actions",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("deal_no", sa.Integer, primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("action", sa.Text, nullable=False),
    )


def downgrade() -> None:
    # The deals in play take their appended actions back into their records, so that nothing is lost.
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT table_id, deal_no, ply, action FROM mm_actions ORDER BY table_id, deal_no, ply"))
    appended: dict[tuple[str, int], list[tuple[int, str]]] = {}
    for table_id, deal_no, ply, action in rows:
        appended.setdefault((table_id, deal_no), []).append((ply, action))
    for (table_id, deal_no), actions in appended.items():
        found = conn.execute(sa.text("SELECT record FROM mm_deals WHERE table_id = :t AND deal_no = :d"),
                             {"t": table_id, "d": deal_no}).scalar()
        if found is None:
            continue
        record = json.loads(found)
        held = record.setdefault("actions", [])
        for ply, action in actions:
            if ply == len(held):
                held.append(json.loads(action))
        conn.execute(sa.text("UPDATE mm_deals SET record = :r WHERE table_id = :t AND deal_no = :d"),
                     {"r": json.dumps(record, ensure_ascii=False), "t": table_id, "d": deal_no})
    op.drop_table("mm_actions")
