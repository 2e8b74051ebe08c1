"""PostgreSQL: keep each passage's tsvector in a stored generated column (ranking reads it, not recomputes it).

SQLite is unchanged (its FTS5 table already stores the index). The column is not a model
attribute: it is backend-specific, like the FTS5 table (see `fts.py`).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("ALTER TABLE passages ADD COLUMN fts_vector tsvector "
               "GENERATED ALWAYS AS (to_tsvector('simple', folded)) STORED")
    op.execute("CREATE INDEX ix_passages_fts_vector ON passages USING gin (fts_vector)")
    op.execute("DROP INDEX IF EXISTS ix_passages_fts")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("CREATE INDEX IF NOT EXISTS ix_passages_fts ON passages USING gin (to_tsvector('simple', folded))")
    op.execute("DROP INDEX IF EXISTS ix_passages_fts_vector")
    op.execute("ALTER TABLE passages DROP COLUMN fts_vector")
