"""Count the documents each indexed word occurs in (fuzzy expansion prefers rare, OCR-damaged forms).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # existing words get 1: "rare", so fuzzy expansion keeps finding them until re-counted
    with op.batch_alter_table("terms") as batch:
        batch.add_column(sa.Column("documents", sa.Integer(), nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("terms") as batch:
        batch.drop_column("documents")
