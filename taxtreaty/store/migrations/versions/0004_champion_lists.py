"""Champion lists for very common words (SQLite), and one index for the topic tier of search.

- SQLite: the two tables of `taxtreaty/store/champions.py` (DDL frozen here). They start
  empty; the next ingest builds them, and until then search ranks every match as before.
- Both backends: passages(topic, treaty_id, language, article_id, position) replaces the
  index on topic alone, so "passages on this topic, in reading order" stops at the limit
  instead of sorting every passage of the topic.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_SQLITE_DDL = (
    "CREATE TABLE IF NOT EXISTS passages_fts_champion_terms ("
    "term VARCHAR(120) NOT NULL, language VARCHAR(8) NOT NULL, passages INTEGER NOT NULL, "
    "complete BOOLEAN NOT NULL, floor_score FLOAT NOT NULL, floor_id INTEGER NOT NULL, "
    "PRIMARY KEY (term, language))",
    "CREATE TABLE IF NOT EXISTS passages_fts_champions ("
    "term VARCHAR(120) NOT NULL, language VARCHAR(8) NOT NULL, passage_id INTEGER NOT NULL, "
    "score FLOAT NOT NULL, PRIMARY KEY (term, language, passage_id))",
)
_TOPIC_ORDER = ["topic", "treaty_id", "language", "article_id", "position"]


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for statement in _SQLITE_DDL:
            op.execute(statement)
    op.create_index("ix_passages_topic_order", "passages", _TOPIC_ORDER)
    op.drop_index("ix_passages_topic", table_name="passages")


def downgrade() -> None:
    op.create_index("ix_passages_topic", "passages", ["topic"])
    op.drop_index("ix_passages_topic_order", table_name="passages")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE IF EXISTS passages_fts_champions")
        op.execute("DROP TABLE IF EXISTS passages_fts_champion_terms")
