"""Instruments: the kind of each stored document and, for an amending protocol, the convention it
amends (or that it waits for its base), with the entry into force the user gave.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "instruments",
        sa.Column("document_id", sa.Integer(), sa.ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("treaty_id", sa.String(80), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("base_parties", sa.String(40), nullable=True),
        sa.Column("base_date", sa.String(10), nullable=True),
        sa.Column("entry_into_force", sa.String(10), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
    )
    op.create_index("ix_instruments_treaty_id", "instruments", ["treaty_id"])


def downgrade() -> None:
    op.drop_index("ix_instruments_treaty_id", table_name="instruments")
    op.drop_table("instruments")
