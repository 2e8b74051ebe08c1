"""MLI positions a user gave the store (`taxtreaty ingest --mli FILE`): one row per covered tax
agreement, the entry in the shape of a positions file (taxtreaty/data/mli/positions.yaml), read by
every surface that decides on a stored treaty.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mli_positions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("parties", sa.String(40), nullable=False, unique=True),
        sa.Column("entry", sa.Text, nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("stored_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("mli_positions")
