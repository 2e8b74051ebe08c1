"""Read queries: the treaty list, one treaty, one article or paragraph with citations."""

from __future__ import annotations

import re

from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from taxtreaty.store.schema import ArticleRow, Document, Passage, Treaty
from taxtreaty.store.search import citation
from taxtreaty.structure.model import Document as ParsedDocument
from taxtreaty.text import InputError

_ARTICLE_REF = re.compile(r"^\s*(?:art(?:icle|igo|ículo|iculo)?\.?\s*)?(\d+[A-Za-z]?)\s*(?:\(\s*(\w+)\s*\))?\s*$", re.I)


class TreatySummary(BaseModel):
    id: str
    title: str
    parties: list[str]
    signed_date: str | None
    prevailing_language: str | None
    languages: list[str]
    documents: int
    articles: int
    grouping: str


class DocumentInfo(BaseModel):
    path: str | None
    sha256: str
    languages: list[str]
    first_article: str | None
    last_article: str | None
    ends_truncated: bool


class ArticleInfo(BaseModel):
    language: str
    number: str
    eid: str
    heading: str | None
    topic: str | None
    complete: bool


class TreatyDetail(TreatySummary):
    files: list[DocumentInfo] = Field(default_factory=list)
    article_list: list[ArticleInfo] = Field(default_factory=list)


class ParagraphView(BaseModel):
    eid: str
    number: str | None
    text: str
    complete: bool
    cite: str
    span: tuple[int, int]
    sha256: str


class VersionView(BaseModel):
    language: str
    eid: str
    heading: str | None
    topic: str | None
    complete: bool
    paragraphs: list[ParagraphView]


class ArticleView(BaseModel):
    treaty: str
    title: str
    article: str
    paragraph: str | None
    prevailing_language: str | None
    versions: list[VersionView]


def resolve_treaty(connection: Session, ref: str) -> Treaty:
    """A treaty by id, or by a unique prefix of its id ("000" for "000_4a31...")."""
    ref = (ref or "").strip()
    if not ref:
        raise InputError("give a treaty id (taxtreaty list shows them)")
    row = connection.execute(select(Treaty).where(Treaty.id == ref)).scalars().first()
    if row is not None:
        return row
    escaped = ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows = connection.execute(
        select(Treaty).where(func.lower(Treaty.id).like(escaped.lower() + "%", escape="\\")).order_by(Treaty.id)
    ).scalars().all()
    if len(rows) == 1:
        return rows[0]
    if not rows:
        raise InputError(f"no treaty {ref!r} in the store (taxtreaty list shows them)")
    raise InputError(f"{ref!r} is ambiguous: {', '.join(r.id for r in rows[:5])}")


def _languages(connection: Session, treaty_id: str) -> list[str]:
    seen: list[str] = []
    for (langs,) in connection.execute(select(Document.languages).where(Document.treaty_id == treaty_id)
                                       .order_by(Document.id)):
        for lang in langs.split(","):
            if lang and lang not in seen:
                seen.append(lang)
    return seen


def _summary(connection: Session, t: Treaty) -> dict:
    documents = connection.execute(select(func.count()).select_from(Document).where(Document.treaty_id == t.id)).scalar()
    articles = connection.execute(
        select(func.count(func.distinct(ArticleRow.number))).where(ArticleRow.treaty_id == t.id,
                                                                   ArticleRow.topic.is_not(None))
    ).scalar()
    return {
        "id": t.id, "title": t.title, "parties": t.parties.split(",") if t.parties else [],
        "signed_date": t.signed_date, "prevailing_language": t.prevailing_language,
        "languages": _languages(connection, t.id), "documents": documents or 0, "articles": articles or 0,
        "grouping": t.grouping,
    }


def list_treaties(connection: Session, country: str | None = None) -> list[TreatySummary]:
    if country is not None and not re.fullmatch(r"[A-Za-z]{2}", country):
        raise InputError(f"--country takes an ISO 3166 code such as PT (got {country!r})")
    stmt = select(Treaty).order_by(Treaty.id)
    treaties = connection.execute(stmt).scalars().all()
    if country:
        treaties = [t for t in treaties if t.parties and country.upper() in t.parties.split(",")]
    return [TreatySummary(**_summary(connection, t)) for t in treaties]


def get_treaty(connection: Session, ref: str) -> TreatyDetail:
    t = resolve_treaty(connection, ref)
    docs = connection.execute(select(Document).where(Document.treaty_id == t.id).order_by(Document.id)).scalars()
    files = [DocumentInfo(path=d.path, sha256=d.sha256, languages=d.languages.split(","), first_article=d.first_article,
                          last_article=d.last_article, ends_truncated=d.ends_truncated) for d in docs]
    arts = connection.execute(select(ArticleRow).where(ArticleRow.treaty_id == t.id)
                              .order_by(ArticleRow.language, ArticleRow.document_id, ArticleRow.position)).scalars()
    article_list = [ArticleInfo(language=a.language, number=a.number, eid=a.eid, heading=a.heading, topic=a.topic,
                                complete=a.complete) for a in arts]
    return TreatyDetail(**_summary(connection, t), files=files, article_list=article_list)


def parse_article_ref(ref: str) -> tuple[str, str | None]:
    match = _ARTICLE_REF.match(ref or "")
    if not match:
        raise InputError(f"cannot read the article reference {ref!r} (use 10 or 10(2))")
    return match.group(1).lower(), match.group(2)


def article(connection: Session, treaty_ref: str, ref: str, language: str | None = None) -> ArticleView:
    t = resolve_treaty(connection, treaty_ref)
    number, paragraph = parse_article_ref(ref)
    languages = _languages(connection, t.id)
    if language and language not in languages:
        raise InputError(f"treaty {t.id} has no {language!r} text (it has {', '.join(languages)})")
    wanted = [language] if language else languages
    versions = []
    for lang in wanted:
        art = connection.execute(
            select(ArticleRow, Document.sha256).join(Document, Document.id == ArticleRow.document_id)
            .where(ArticleRow.treaty_id == t.id, ArticleRow.language == lang, ArticleRow.number == number)
            .order_by(ArticleRow.complete.desc(), ArticleRow.document_id)
        ).first()
        if art is None:
            continue
        row, sha = art
        stmt = select(Passage).where(Passage.article_id == row.id).order_by(Passage.position)
        if paragraph:
            stmt = stmt.where(Passage.paragraph_number == paragraph)
        paragraphs = [
            ParagraphView(eid=p.eid, number=p.paragraph_number, text=p.text, complete=p.complete,
                          cite=citation(p.article_number, p.paragraph_number, t.title),
                          span=(p.span_start, p.span_end), sha256=sha)
            for p in connection.execute(stmt).scalars()
        ]
        if paragraph and not paragraphs:
            continue
        versions.append(VersionView(language=lang, eid=row.eid, heading=row.heading, topic=row.topic,
                                    complete=row.complete, paragraphs=paragraphs))
    if not versions:
        what = f"article {number}" + (f" paragraph {paragraph}" if paragraph else "")
        raise InputError(f"{what} is not in the stored text of {t.id}")
    return ArticleView(treaty=t.id, title=t.title, article=number, paragraph=paragraph,
                       prevailing_language=t.prevailing_language, versions=versions)


def document_article(doc: ParsedDocument, treaty: str, title: str, ref: str, language: str | None = None,
                     sources: dict[str, str] | None = None) -> ArticleView:
    """`article`'s view of one parsed document (the text in effect on a day, `show --as-of`):
    a paragraph whose words an amending instrument gave says so in its citation (`sources`:
    eId -> instrument)."""
    number, paragraph = parse_article_ref(ref)
    languages = [v.language for v in doc.versions]
    if language and language not in languages:
        raise InputError(f"treaty {treaty} has no {language!r} text (it has {', '.join(languages)})")
    sources = sources or {}
    versions = []
    for version in doc.versions:
        art = version.article(number)
        if art is None or (language and version.language != language):
            continue
        paragraphs = []
        for p in art.paragraphs:
            if paragraph and p.number != paragraph:
                continue
            given = next((src for eid, src in sources.items() if p.eid == eid or p.eid.startswith(eid + "__")
                          or eid.startswith(p.eid + "__")), None)
            cite = citation(number, p.number) + (f" (words of {given})" if given else "") + (f", {title}" if title else "")
            paragraphs.append(ParagraphView(eid=p.eid, number=p.number, text=p.text, complete=p.complete, cite=cite,
                                            span=p.span, sha256=doc.source.sha256))
        if paragraph and not paragraphs:
            continue
        versions.append(VersionView(language=version.language, eid=art.eid, heading=art.heading, topic=art.topic,
                                    complete=art.complete, paragraphs=paragraphs))
    if not versions:
        what = f"article {number}" + (f" paragraph {paragraph}" if paragraph else "")
        raise InputError(f"{what} is not in the text of {treaty} in effect on that day")
    return ArticleView(treaty=treaty, title=title, article=number, paragraph=paragraph,
                       prevailing_language=doc.prevailing_language, versions=versions)
