"""Initial store: treaties, documents, articles, passages, provisions, terms, full-text index.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

from taxtreaty.store import fts

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "treaties",
        sa.Column("id", sa.String(80), primary_key=True),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("parties", sa.String(40), nullable=True),
        sa.Column("signed_date", sa.String(10), nullable=True),
        sa.Column("prevailing_language", sa.String(8), nullable=True),
        sa.Column("grouping", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_treaties_parties", "treaties", ["parties"])
    op.create_table(
        "documents",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("treaty_id", sa.String(80), sa.ForeignKey("treaties.id"), nullable=False),
        sa.Column("path", sa.Text(), nullable=True),
        sa.Column("folder", sa.Text(), nullable=True),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("languages", sa.String(40), nullable=False),
        sa.Column("parties", sa.String(40), nullable=True),
        sa.Column("signed_date", sa.String(10), nullable=True),
        sa.Column("first_article", sa.String(16), nullable=True),
        sa.Column("last_article", sa.String(16), nullable=True),
        sa.Column("ends_truncated", sa.Boolean(), nullable=False),
        sa.Column("original", sa.Text(), nullable=False),
        sa.Column("tree", sa.Text(), nullable=False),
        sa.Column("provisions_json", sa.Text(), nullable=True),
        sa.Column("n_articles", sa.Integer(), nullable=False),
        sa.Column("n_passages", sa.Integer(), nullable=False),
        sa.Column("n_provisions", sa.Integer(), nullable=False),
        sa.Column("ingested_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_documents_treaty_id", "documents", ["treaty_id"])
    op.create_table(
        "articles",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("document_id", sa.Integer(), sa.ForeignKey("documents.id", ondelete="CASCADE"), nullable=False),
        sa.Column("treaty_id", sa.String(80), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("eid", sa.String(120), nullable=False),
        sa.Column("number", sa.String(16), nullable=False),
        sa.Column("heading", sa.Text(), nullable=True),
        sa.Column("topic", sa.String(60), nullable=True),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("span_start", sa.Integer(), nullable=False),
        sa.Column("span_end", sa.Integer(), nullable=False),
    )
    op.create_index("ix_articles_document_id", "articles", ["document_id"])
    op.create_index("ix_articles_topic", "articles", ["topic"])
    op.create_index("ix_articles_treaty_lang_number", "articles", ["treaty_id", "language", "number"])
    op.create_table(
        "passages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("document_id", sa.Integer(), sa.ForeignKey("documents.id", ondelete="CASCADE"), nullable=False),
        sa.Column("article_id", sa.Integer(), sa.ForeignKey("articles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("treaty_id", sa.String(80), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("eid", sa.String(160), nullable=False),
        sa.Column("article_number", sa.String(16), nullable=False),
        sa.Column("paragraph_number", sa.String(16), nullable=True),
        sa.Column("topic", sa.String(60), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("folded", sa.Text(), nullable=False),
        sa.Column("span_start", sa.Integer(), nullable=False),
        sa.Column("span_end", sa.Integer(), nullable=False),
        sa.UniqueConstraint("document_id", "language", "eid", name="uq_passages_doc_lang_eid"),
    )
    op.create_index("ix_passages_document_id", "passages", ["document_id"])
    op.create_index("ix_passages_article_id", "passages", ["article_id"])
    op.create_index("ix_passages_treaty_id", "passages", ["treaty_id"])
    op.create_index("ix_passages_topic", "passages", ["topic"])
    op.create_table(
        "provisions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("document_id", sa.Integer(), sa.ForeignKey("documents.id", ondelete="CASCADE"), nullable=False),
        sa.Column("treaty_id", sa.String(80), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("topic", sa.String(60), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("rate_pct", sa.String(20), nullable=True),
        sa.Column("eid", sa.String(160), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
    )
    op.create_index("ix_provisions_document_id", "provisions", ["document_id"])
    op.create_index("ix_provisions_treaty_id", "provisions", ["treaty_id"])
    op.create_table("terms", sa.Column("term", sa.String(120), primary_key=True))
    fts.create(op.get_bind())


def downgrade() -> None:
    fts.drop(op.get_bind())
    for table in ("terms", "provisions", "passages", "articles", "documents", "treaties"):
        op.drop_table(table)
