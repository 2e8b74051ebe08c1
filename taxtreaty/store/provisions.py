"""Reading stored provisions back as `taxtreaty.provisions.model.Provision` objects."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from taxtreaty.provisions.model import Provision
from taxtreaty.rules.conditions import condition_words
from taxtreaty.store.schema import ArticleRow, Document, ProvisionRow


def treaty_provisions(connection: Session, treaty_id: str, topic: str | None = None,
                      language: str | None = None) -> list[Provision]:
    stmt = select(ProvisionRow.data).where(ProvisionRow.treaty_id == treaty_id).order_by(ProvisionRow.id)
    if topic:
        stmt = stmt.where(ProvisionRow.topic == topic)
    if language:
        stmt = stmt.where(ProvisionRow.language == language)
    return [Provision.model_validate_json(row[0]) for row in connection.execute(stmt)]


def extraction_missing(connection: Session, treaty_id: str) -> bool:
    """True when a document of the treaty was stored without its provisions (extractor absent or failed)."""
    return connection.execute(
        select(Document.id).where(Document.treaty_id == treaty_id, Document.provisions_json.is_(None))
    ).first() is not None


def topic_articles(connection: Session, treaty_id: str, language: str | None = None) -> dict[str, list[ArticleRow]]:
    stmt = select(ArticleRow).where(ArticleRow.treaty_id == treaty_id, ArticleRow.topic.is_not(None)) \
        .order_by(ArticleRow.document_id, ArticleRow.position)
    if language:
        stmt = stmt.where(ArticleRow.language == language)
    result: dict[str, list[ArticleRow]] = {}
    for row in connection.execute(stmt).scalars():
        result.setdefault(row.topic, []).append(row)
    return result


def pct(value: Decimal | None) -> str:
    if value is None:
        return "?"
    text = format(value.normalize(), "f")
    return f"{text}%"


def describe_conditions(conditions: dict, parties: tuple[str, ...] = (), topic: str | None = None) -> str:
    """The conditions of a cap in a practitioner's words ("the recipient is the beneficial owner of
    the income; the recipient holds at least 25% of the paying company's capital")."""
    return "; ".join(condition_words(conditions, parties, topic)) or "no conditions"
