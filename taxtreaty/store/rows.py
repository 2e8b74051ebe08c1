"""From a parsed Document to the plain rows the store writes (runs in worker processes).

Everything here is pure: bytes in, a `PreparedDocument` (picklable dicts and strings) out, so
parsing and provision extraction can run in parallel while one process writes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import regex

from taxtreaty import vocab
from taxtreaty.structure import Document, parse
from taxtreaty.structure.conventions import CHOOSE_OPTION, SeveralConventionsError, convention_sha256, refusal
from taxtreaty.structure.model import Paragraph, iter_points
from taxtreaty.text import InputError

#: words that go into the fuzzy-match vocabulary: letters only, long enough to be worth fixing
_TERM = regex.compile(r"\p{L}{4,40}")


@dataclass
class PreparedDocument:
    path: str | None
    sha256: str
    size: int
    original: str
    tree: str
    provisions_json: str | None
    provisions_error: str | None
    languages: list[str]
    parties: list[str]
    signed_date: str | None
    prevailing_language: str | None
    first_article: str | None
    last_article: str | None
    ends_truncated: bool
    articles: list[dict[str, Any]] = field(default_factory=list)
    #: one list of passage dicts per article, same order as `articles`
    passages: list[list[dict[str, Any]]] = field(default_factory=list)
    provisions: list[dict[str, Any]] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)
    #: the kind of instrument and, for an amending one, its base ({kind, base_parties, base_date})
    instrument: dict[str, Any] = field(default_factory=dict)


@dataclass
class Rejected:
    path: str | None
    reason: str


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def keys(data: bytes, convention: int | None) -> set[str]:
    """The keys a file (the convention chosen of it) may already be stored by, before it is parsed: its own
    sha256 (a file of one convention), and with `convention` the chosen convention's."""
    return {sha256(data)} if convention is None else {sha256(data), convention_sha256(data, convention)}


def document_key(data: bytes, doc: Document) -> str:
    """The key a parsed document is stored by: its file's sha256, or of a convention chosen from a file
    holding several, that convention's (`conventions.convention_sha256`)."""
    if doc._convention is not None:
        return convention_sha256(data, doc._convention)
    return doc.source.sha256 or sha256(data)


def _extractor():  # type: ignore[no-untyped-def]
    try:
        from taxtreaty.provisions import extract_provisions
    except ImportError:
        return None
    return extract_provisions


def _paragraph_text(para: Paragraph) -> str:
    return para.text or " ".join(p.text for p in iter_points(para.points))


def prepare(path: str | None, data: bytes, given: Any = None, convention: int | None = None,
            choose: str = CHOOSE_OPTION) -> PreparedDocument | Rejected:
    """Parse one file and build its rows; a text that is not a treaty is `Rejected` with the reason.
    `given` (store.edit.TreatyFacts) sets what the text does not say before provisions are read;
    `convention` chooses one of a file holding several (refused without it, naming them and `choose`)."""
    if not data.strip():
        return Rejected(path, "the file is empty")
    try:
        doc = parse(data, path=path, convention=convention)
    except SeveralConventionsError as exc:
        return Rejected(path, str(refusal(exc.conventions, choose)))
    except InputError as exc:
        return Rejected(path, str(exc))
    except RecursionError:
        return Rejected(path, "the text is nested too deeply to read")
    if given is not None:
        from taxtreaty.store.edit import apply_to_document

        apply_to_document(doc, given)
    articles = [a for v in doc.versions for a in v.articles]
    amending = doc.instrument is not None and doc.instrument.amending
    if not articles and not amending:
        return Rejected(path, "no articles found: not the text of a convention")
    # an amending instrument's own articles are instructions, not rules: nothing is extracted
    # from them (its new words are read in the consolidated versions of its base)
    provisions_json, provisions_error, provisions = (None, None, []) if amending else _provisions(doc)
    first = doc.versions[0].articles if doc.versions else []
    prepared = PreparedDocument(
        path=path,
        sha256=document_key(data, doc),
        size=len(data),
        original=doc.original,
        tree=doc.model_dump_json(),
        provisions_json=provisions_json,
        provisions_error=provisions_error,
        languages=[v.language for v in doc.versions],
        parties=sorted(doc.parties),
        signed_date=doc.signed.date if doc.signed else None,
        prevailing_language=doc.prevailing_language,
        first_article=first[0].number if first else None,
        last_article=first[-1].number if first else None,
        ends_truncated=not first[-1].complete if first else False,
        provisions=provisions,
    )
    if doc.instrument is not None:
        base = doc.instrument.base
        prepared.instrument = {"kind": doc.instrument.kind,
                               "base_parties": ",".join(sorted(base.parties)) if base and base.parties else None,
                               "base_date": base.date if base else None}
    terms: set[str] = set()
    for version in doc.versions:
        position = 0
        for article in version.articles:
            position += 1
            prepared.articles.append({
                "language": version.language, "eid": article.eid, "number": article.number,
                "heading": article.heading, "topic": article.topic, "complete": article.complete,
                "position": position, "span_start": article.span[0], "span_end": article.span[1],
            })
            prepared.passages.append(article_passages(version.language, article))
        for protocol in version.protocols:
            position += 1
            prepared.articles.append({
                "language": version.language, "eid": protocol.eid, "number": protocol.eid,
                "heading": protocol.heading, "topic": None, "complete": True,
                "position": position, "span_start": protocol.span[0], "span_end": protocol.span[1],
            })
            prepared.passages.append(protocol_passages(version.language, protocol))
    for rows in prepared.passages:
        for row in rows:
            terms.update(_TERM.findall(row["folded"]))
    prepared.terms = sorted(terms)
    return prepared


def article_passages(language: str, article: Any) -> list[dict[str, Any]]:
    """The passages (one a paragraph; the heading alone for an article without paragraphs) of an article."""
    rows = [_passage(language, article.number, article.topic, i, p) for i, p in enumerate(article.paragraphs)]
    if not rows and article.heading:
        rows = [_article_passage(language, article)]
    return rows


def protocol_passages(language: str, protocol: Any) -> list[dict[str, Any]]:
    return [_passage(language, protocol.eid, None, i, p) for i, p in enumerate(protocol.paragraphs)]


def _passage(language: str, article_number: str, topic: str | None, index: int, para: Paragraph) -> dict[str, Any]:
    text = _paragraph_text(para)
    return {
        "language": language, "eid": para.eid, "article_number": article_number,
        "paragraph_number": para.number, "topic": topic, "position": index, "complete": para.complete,
        "text": text, "folded": vocab.fold(text), "span_start": para.span[0], "span_end": para.span[1],
    }


def _article_passage(language: str, article: Any) -> dict[str, Any]:
    text = article.heading or ""
    return {
        "language": language, "eid": article.eid, "article_number": article.number, "paragraph_number": None,
        "topic": article.topic, "position": 0, "complete": article.complete, "text": text,
        "folded": vocab.fold(text), "span_start": article.span[0], "span_end": article.span[1],
    }


def provision_rows(doc: Document) -> tuple[str | None, str | None, list[dict[str, Any]]]:
    """(the ProvisionSet as JSON, why there is none, one provisions-table row per provision)."""
    return _provisions(doc)


def _provisions(doc: Document) -> tuple[str | None, str | None, list[dict[str, Any]]]:
    extract = _extractor()
    if extract is None:
        return None, "the provisions extractor is not installed", []
    try:
        result = extract(doc)
    except Exception as exc:  # one bad extraction must not lose the text: keep it, say why
        return None, f"provision extraction failed: {type(exc).__name__}: {exc}", []
    rows = [
        {
            "language": p.cite.language, "topic": p.topic, "kind": p.kind, "status": p.status,
            "rate_pct": None if p.rate_pct is None else str(p.rate_pct), "eid": p.cite.eid,
            "data": p.model_dump_json(),
        }
        for p in result.provisions
    ]
    return result.model_dump_json(), None, rows


def read_file(path: Path) -> bytes | Rejected:
    try:
        return path.read_bytes()
    except OSError as exc:
        return Rejected(str(path), f"cannot read: {exc.strerror}")
