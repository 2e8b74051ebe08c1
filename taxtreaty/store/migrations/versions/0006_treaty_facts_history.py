"""What a user says about a treaty that its texts do not: dates of effect, and every change kept.

- treaties.in_force_from / in_force_until (YYYY-MM-DD, null = not given): the dates of effect
  given with `ingest --in-force` or `edit --in-force` (the parties and the signature date
  already have their columns).
- treaty_history: one row per change of a treaty's facts (parties, signature date, dates of
  effect), with the value before and after, when, and how (`ingest --parties`, `edit`).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("treaties", sa.Column("in_force_from", sa.String(10), nullable=True))
    op.add_column("treaties", sa.Column("in_force_until", sa.String(10), nullable=True))
    op.create_table(
        "treaty_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("treaty_id", sa.String(80), sa.ForeignKey("treaties.id"), nullable=False, index=True),
        sa.Column("field", sa.String(40), nullable=False),
        sa.Column("old_value", sa.Text, nullable=True),
        sa.Column("new_value", sa.Text, nullable=True),
        sa.Column("how", sa.String(80), nullable=False),
        sa.Column("changed_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("treaty_history")
    with op.batch_alter_table("treaties") as batch:
        batch.drop_column("in_force_until")
        batch.drop_column("in_force_from")
