"""The store's tables (SQLAlchemy 2 declarative models).

A *treaty* (one convention) groups the *documents* (source files) that hold its text: language
versions and fragments. Each document keeps its decoded text, its parse tree and its provisions
as JSON, so any answer can be re-derived and quoted; *articles* and *passages* (paragraphs, or
whole articles without numbered paragraphs) are the rows that search and `show` read, each with
its Akoma Ntoso eId and its span in the document's text. *provisions* holds one row per
extracted provision for the rate table and comparisons.

The full-text indexes are not models: they are backend-specific (an FTS5 table on SQLite, a
GIN expression index on PostgreSQL) and are created by the migrations (see `fts.py`).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Treaty(Base):
    __tablename__ = "treaties"

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    title: Mapped[str] = mapped_column(Text)
    #: "PT,TL" (sorted ISO codes) or null when the texts do not name the parties
    parties: Mapped[str | None] = mapped_column(String(40), index=True)
    signed_date: Mapped[str | None] = mapped_column(String(10))
    prevailing_language: Mapped[str | None] = mapped_column(String(8))
    #: why the documents were put together ("explicit --treaty", "same parties and date", ...)
    grouping: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    #: dates of effect a user gave (`ingest --in-force`, `edit --in-force`), YYYY-MM-DD
    in_force_from: Mapped[str | None] = mapped_column(String(10), nullable=True)
    in_force_until: Mapped[str | None] = mapped_column(String(10), nullable=True)

    documents: Mapped[list[Document]] = relationship(back_populates="treaty", order_by="Document.id")


class TreatyHistory(Base):
    """One change of a treaty's facts (parties, signature, dates of effect): before, after, how."""

    __tablename__ = "treaty_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    treaty_id: Mapped[str] = mapped_column(ForeignKey("treaties.id"), index=True)
    field: Mapped[str] = mapped_column(String(40))
    old_value: Mapped[str | None] = mapped_column(Text, nullable=True)
    new_value: Mapped[str | None] = mapped_column(Text, nullable=True)
    how: Mapped[str] = mapped_column(String(80))
    changed_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)


class Document(Base):
    __tablename__ = "documents"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    treaty_id: Mapped[str] = mapped_column(ForeignKey("treaties.id"), index=True)
    path: Mapped[str | None] = mapped_column(Text)
    folder: Mapped[str | None] = mapped_column(Text)
    size: Mapped[int] = mapped_column(Integer)
    #: "pt,en": the language versions in this file, in order
    languages: Mapped[str] = mapped_column(String(40))
    parties: Mapped[str | None] = mapped_column(String(40))
    signed_date: Mapped[str | None] = mapped_column(String(10))
    first_article: Mapped[str | None] = mapped_column(String(16))
    last_article: Mapped[str | None] = mapped_column(String(16))
    #: the last article is cut off (the next file may continue it)
    ends_truncated: Mapped[bool] = mapped_column(Boolean, default=False)
    original: Mapped[str] = mapped_column(Text)
    tree: Mapped[str] = mapped_column(Text)
    provisions_json: Mapped[str | None] = mapped_column(Text)
    #: rows written with the document: a consistency check compares them with the tables
    n_articles: Mapped[int] = mapped_column(Integer)
    n_passages: Mapped[int] = mapped_column(Integer)
    n_provisions: Mapped[int] = mapped_column(Integer)
    ingested_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)

    treaty: Mapped[Treaty] = relationship(back_populates="documents")


class ArticleRow(Base):
    __tablename__ = "articles"
    __table_args__ = (Index("ix_articles_treaty_lang_number", "treaty_id", "language", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), index=True)
    treaty_id: Mapped[str] = mapped_column(String(80))
    language: Mapped[str] = mapped_column(String(8))
    eid: Mapped[str] = mapped_column(String(120))
    number: Mapped[str] = mapped_column(String(16))
    heading: Mapped[str | None] = mapped_column(Text)
    topic: Mapped[str | None] = mapped_column(String(60), index=True)
    complete: Mapped[bool] = mapped_column(Boolean)
    position: Mapped[int] = mapped_column(Integer)
    span_start: Mapped[int] = mapped_column(Integer)
    span_end: Mapped[int] = mapped_column(Integer)


class Passage(Base):
    """A searchable unit: one paragraph (with its points), or an article without paragraphs."""

    __tablename__ = "passages"
    __table_args__ = (
        UniqueConstraint("document_id", "language", "eid", name="uq_passages_doc_lang_eid"),
        # the topic tier of search: a topic's passages in reading order, read up to the limit
        Index("ix_passages_topic_order", "topic", "treaty_id", "language", "article_id", "position"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), index=True)
    article_id: Mapped[int] = mapped_column(ForeignKey("articles.id", ondelete="CASCADE"), index=True)
    treaty_id: Mapped[str] = mapped_column(String(80), index=True)
    language: Mapped[str] = mapped_column(String(8))
    eid: Mapped[str] = mapped_column(String(160))
    article_number: Mapped[str] = mapped_column(String(16))
    paragraph_number: Mapped[str | None] = mapped_column(String(16))
    topic: Mapped[str | None] = mapped_column(String(60))
    position: Mapped[int] = mapped_column(Integer)
    complete: Mapped[bool] = mapped_column(Boolean)
    text: Mapped[str] = mapped_column(Text)
    #: the text case- and accent-folded: what the full-text index reads
    folded: Mapped[str] = mapped_column(Text)
    span_start: Mapped[int] = mapped_column(Integer)
    span_end: Mapped[int] = mapped_column(Integer)


class ProvisionRow(Base):
    __tablename__ = "provisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), index=True)
    treaty_id: Mapped[str] = mapped_column(String(80), index=True)
    language: Mapped[str] = mapped_column(String(8))
    topic: Mapped[str] = mapped_column(String(60))
    kind: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(20))
    #: the rate as printed in Decimal form ("15", "7.5"): text, so no backend rounds it
    rate_pct: Mapped[str | None] = mapped_column(String(20))
    eid: Mapped[str] = mapped_column(String(160))
    #: the whole `taxtreaty.provisions.model.Provision` as JSON
    data: Mapped[str] = mapped_column(Text)


class Term(Base):
    """Every folded word in the index once: the vocabulary for OCR-tolerant (fuzzy) query terms."""

    __tablename__ = "terms"

    term: Mapped[str] = mapped_column(String(120), primary_key=True)
    #: how many documents use the word: OCR-damaged forms are rare, real words are not
    documents: Mapped[int] = mapped_column(Integer, server_default="1")


class InstrumentRow(Base):
    """What kind of instrument a stored document is, and for an amending one the convention it
    amends (linked when that convention is stored, else waiting for it) and its dates (0005).
    Documents without a row are conventions (stores made before 0005)."""

    __tablename__ = "instruments"

    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True)
    #: convention, protocol, amending_protocol, exchange_of_notes, mli
    kind: Mapped[str] = mapped_column(String(40))
    #: the treaty the document belongs to (for an amending one: the convention it amends, when linked)
    treaty_id: Mapped[str] = mapped_column(String(80), index=True)
    #: "applied" (linked to its base), "waiting" (its base is not in the store), "" for a convention
    status: Mapped[str] = mapped_column(String(20), default="")
    base_parties: Mapped[str | None] = mapped_column(String(40))
    base_date: Mapped[str | None] = mapped_column(String(10))
    #: the entry into force given by the user (`ingest --in-force`, the metadata file)
    entry_into_force: Mapped[str | None] = mapped_column(String(10))
    reason: Mapped[str] = mapped_column(Text, default="")



class MliPositionRow(Base):
    """MLI positions a user gave for one covered tax agreement (`ingest --mli FILE`, 0007): the entry in
    a positions file's shape (taxtreaty/data/mli/positions.yaml), read by every surface that decides."""

    __tablename__ = "mli_positions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: "EE,NO": the two States, sorted
    parties: Mapped[str] = mapped_column(String(40), unique=True)
    #: the entry as JSON (parties, status, reference, articles, options, dates of effect)
    entry: Mapped[str] = mapped_column(Text)
    #: the file it was read from
    source: Mapped[str] = mapped_column(Text)
    stored_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
