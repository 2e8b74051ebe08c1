"""Which convention a new document belongs to.

Rules, in order (the first that applies wins; the reason is stored on the treaty):
1. `--treaty ID` given: that treaty, created if new.
2. The text names its parties: the treaty with the same parties and the same signature date
   (a missing date on either side matches), so language versions and fragments that carry the
   preamble or signature block come together. Otherwise a new treaty `PT-TL-2011`.
3. The text names no parties: a *continuation*, i.e. a stored document from the same folder,
   same languages, with no parties either, whose last article is cut off or numbered just
   before this document's first article (article 10 ends truncated / this file starts at 10 or
   11). Anything less certain stays apart: joining two conventions is worse than leaving two
   fragments of one unjoined (`--treaty` joins them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import Connection, select

from taxtreaty import vocab
from taxtreaty.store.rows import PreparedDocument
from taxtreaty.store.schema import Document, Treaty

_SLUG = re.compile(r"[^A-Za-z0-9_.]+")
TREATY_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")


@dataclass
class Placement:
    treaty_id: str
    new: bool
    title: str
    reason: str


def _number(value: str | None) -> int | None:
    if value is None:
        return None
    digits = re.match(r"\d+", value)
    return int(digits.group()) if digits else None


def title_for(parties: list[str], signed: str | None, path: str | None) -> str:
    if parties:
        names = [vocab.countries().get(code, (code,))[0] for code in parties]
        title = "Convention " + "–".join(names)
        return f"{title} ({signed})" if signed else title
    name = path.rsplit("/", 1)[-1] if path else "standard input"
    return f"Convention (parties not named in the text; from {name})"


def _unique_id(connection: Connection, base: str) -> str:
    base = _SLUG.sub("-", base).strip("-")[:70] or "treaty"
    candidate, n = base, 1
    while connection.execute(select(Treaty.id).where(Treaty.id == candidate)).first():
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def place(connection: Connection, doc: PreparedDocument, folder: str | None, explicit: str | None) -> Placement:
    parties = ",".join(doc.parties) or None
    if explicit:
        found = connection.execute(select(Treaty.id).where(Treaty.id == explicit)).first()
        return Placement(explicit, found is None, title_for(doc.parties, doc.signed_date, doc.path), "explicit --treaty")
    if parties:
        for treaty_id, signed in connection.execute(
            select(Treaty.id, Treaty.signed_date).where(Treaty.parties == parties).order_by(Treaty.created_at)
        ):
            if signed is None or doc.signed_date is None or signed == doc.signed_date:
                return Placement(treaty_id, False, "", "same parties and signature date")
        base = "-".join(doc.parties) + (f"-{doc.signed_date[:4]}" if doc.signed_date else "")
        return Placement(_unique_id(connection, base), True, title_for(doc.parties, doc.signed_date, doc.path),
                         "parties and date named in the text")
    continued = _continuation(connection, doc, folder)
    if continued:
        return Placement(continued, False, "", "continues the previous fragment (same folder and language)")
    stem = (doc.path or "stdin").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return Placement(_unique_id(connection, stem), True, title_for([], None, doc.path), "parties not named: on its own")


def _continuation(connection: Connection, doc: PreparedDocument, folder: str | None) -> str | None:
    first = _number(doc.first_article)
    if first is None or folder is None:
        return None
    rows = connection.execute(
        select(Document.treaty_id, Document.last_article, Document.ends_truncated)
        .where(Document.folder == folder, Document.parties.is_(None), Document.languages == ",".join(doc.languages))
        .order_by(Document.id.desc())
    ).all()
    for treaty_id, last_article, truncated in rows:
        last = _number(last_article)
        if last is None:
            continue
        adjacent = last + 1 == first or (truncated and last == first)
        # the treaty must not already hold this article in this language (no overlap)
        if adjacent and not _has_article(connection, treaty_id, doc):
            return treaty_id
    return None


def _has_article(connection: Connection, treaty_id: str, doc: PreparedDocument) -> bool:
    from taxtreaty.store.schema import ArticleRow

    numbers = {(a["language"], a["number"]) for a in doc.articles if a["complete"]}
    stored = connection.execute(
        select(ArticleRow.language, ArticleRow.number, ArticleRow.complete).where(ArticleRow.treaty_id == treaty_id)
    ).all()
    return any((lang, num) in numbers and complete for lang, num, complete in stored)
