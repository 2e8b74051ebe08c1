"""What the HTTP API and the web pages need from a treaty corpus, as a protocol.

The app never talks to SQLAlchemy directly: it speaks to a `Backend`. `StoreBackend` adapts the
corpus store (`taxtreaty.store.Store`, issue 5); `MemoryBackend` keeps parsed documents in a
dict (tests, demos, `taxtreaty serve --memory`). Both return the plain dicts described by the
response models in `taxtreaty.interfaces.http.models`, so the routes do not care which is used.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from taxtreaty.structure import Document, parse
from taxtreaty.structure.conventions import CHOOSE_OPTION, SeveralConventionsError, convention_sha256, refusal
from taxtreaty.structure.model import iter_nodes
from taxtreaty.vocab import fold


class NotFound(LookupError):
    """The treaty, article or language asked for is not in the corpus."""


class Unavailable(RuntimeError):
    """A stage the request needs (rules engine, provisions) is not installed or not ready."""


@runtime_checkable
class Backend(Protocol):
    def list_treaties(self) -> list[dict[str, Any]]: ...
    def documents(self, treaty_id: str) -> list[Document]: ...
    def summary(self, treaty_id: str) -> dict[str, Any]: ...
    def search(self, q: str, lang: str | None, topic: str | None, treaty: str | None, limit: int) -> list[dict[str, Any]]: ...
    def rates(self, country: str | None) -> list[dict[str, Any]]: ...
    def ingest(self, data: bytes, name: str | None, treaty_id: str | None, convention: int | None = None,
               choose: str = CHOOSE_OPTION) -> dict[str, Any]: ...
    def treaty_for_parties(self, a: str, b: str) -> str | None: ...
    def stored_treaty(self, treaty_id: str) -> Any: ...


# ---------------------------------------------------------------------------------------------
# Helpers shared by both backends: summaries, provisions, decisions from parsed documents.


#: content hash -> ProvisionSet: a text's provisions never change, so extract them once
_PROVISIONS: dict[str, Any] = {}
_PROVISIONS_LOCK = threading.Lock()


def remember_provisions(doc: Document, provisions: Any) -> None:
    with _PROVISIONS_LOCK:
        _PROVISIONS[_provisions_key(doc)] = provisions


def _provisions_key(doc: Document) -> str:
    return doc.source.sha256 + ":" + ",".join(doc.parties)


def known_provisions(doc: Document) -> Any | None:
    """The ProvisionSet of `doc` when already known (stored or extracted before), else None."""
    with _PROVISIONS_LOCK:
        return _PROVISIONS.get(_provisions_key(doc))


def provisions_of(doc: Document) -> Any | None:
    """The ProvisionSet of `doc`, or None when the provisions stage is not available."""
    key = _provisions_key(doc)
    with _PROVISIONS_LOCK:
        if key in _PROVISIONS:
            return _PROVISIONS[key]
    try:
        from taxtreaty.provisions import extract_provisions  # type: ignore[attr-defined]
    except ImportError:
        return None
    found = extract_provisions(doc, list(doc.parties) or None)
    remember_provisions(doc, found)
    return found


def treaty_status(articles: int, incomplete: bool) -> str:
    """"complete" only when articles were read and none is cut: "no articles read" (a text in a
    language without reading data, say) and "fragment" say what is missing."""
    if articles == 0:
        return "no articles read"
    return "fragment" if incomplete else "complete"


def document_summary(treaty_id: str, docs: list[Document]) -> dict[str, Any]:
    """List-row facts of a treaty made of one or more parsed files."""
    parties: list[str] = []
    signed: str | None = None
    place: str | None = None
    title: str | None = None
    languages: list[str] = []
    articles = 0
    incomplete = False
    warnings = 0
    prevailing: str | None = None
    for doc in docs:
        parties = parties or list(doc.parties)
        if doc.signed:
            signed = signed or doc.signed.date
            place = place or doc.signed.place
        prevailing = prevailing or doc.prevailing_language
        warnings += len(doc.warnings)
        for version in doc.versions:
            if version.language not in languages:
                languages.append(version.language)
            title = title or version.title
            articles += len(version.articles)
            incomplete = incomplete or any(not a.complete for a in version.articles)
        incomplete = incomplete or any(w.code in _DAMAGE_CODES for w in doc.warnings)
    return {
        "id": treaty_id,
        "title": title,
        "parties": parties,
        "signed": signed,
        "signed_place": place,
        "languages": languages,
        "prevailing_language": prevailing,
        "articles": articles,
        "status": treaty_status(articles, incomplete),
        "warnings": warnings,
        "files": len(docs),
    }


#: warning codes that mean some of the treaty's words are not in the source
_DAMAGE_CODES = frozenset({"text_truncated", "list_items_missing", "article_incomplete", "paragraph_incomplete"})


def treaty_id_for(doc: Document) -> str:
    """A readable, stable id: parties and year when known, else the content hash."""
    if len(doc.parties) == 2:
        year = (doc.signed.date or "")[:4] if doc.signed and doc.signed.date else ""
        return "-".join([*(p.lower() for p in doc.parties), *([year] if year else [])])
    return "doc-" + doc.source.sha256[:12]


_WORD = re.compile(r"\w+")


def search_documents(
    items: Iterable[tuple[str, Document]], q: str, lang: str | None, topic: str | None, limit: int
) -> list[dict[str, Any]]:
    """Plain accent-folded term search: every query word must occur in the paragraph."""
    terms = [fold(t) for t in _WORD.findall(q)]
    if not terms:
        return []
    hits: list[dict[str, Any]] = []
    for treaty_id, doc in items:
        for version in doc.versions:
            if lang and version.language != lang:
                continue
            for article in version.articles:
                if topic and article.topic != topic:
                    continue
                for para in article.paragraphs:
                    folded = fold(para.text)
                    if not all(t in folded for t in terms):
                        continue
                    score = sum(folded.count(t) for t in terms)
                    hits.append({
                        "treaty": treaty_id,
                        "language": version.language,
                        "eid": para.eid,
                        "article": article.number,
                        "heading": article.heading,
                        "topic": article.topic,
                        "score": float(score),
                        **snippet(para.text, terms),
                    })
    hits.sort(key=lambda h: -h["score"])
    return hits[:limit]


def snippet(text: str, folded_terms: list[str], width: int = 220) -> dict[str, Any]:
    """A window of `text` around the first hit, with [start, end) offsets of every hit in it.

    Folding keeps string length for the Latin scripts treaties use, so folded offsets are text
    offsets; when it does not (rare ligatures), the snippet simply carries no highlights.
    """
    folded = fold(text)
    same_length = len(folded) == len(text)
    first = min((folded.find(t) for t in folded_terms if t in folded), default=0)
    start = max(0, first - width // 3)
    end = min(len(text), start + width)
    window = text[start:end]
    highlights: list[list[int]] = []
    if same_length:
        fw = folded[start:end]
        for t in folded_terms:
            for m in re.finditer(re.escape(t), fw):
                highlights.append([m.start(), m.end()])
    highlights.sort()
    return {
        "snippet": ("…" if start else "") + window + ("…" if end < len(text) else ""),
        "highlights": [[a + (1 if start else 0), b + (1 if start else 0)] for a, b in _merge(highlights)],
    }


def _merge(spans: list[list[int]]) -> list[list[int]]:
    out: list[list[int]] = []
    for a, b in spans:
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


# ---------------------------------------------------------------------------------------------


class MemoryBackend:
    """Parsed documents kept in memory, grouped into treaties by id. Thread-safe."""

    def __init__(self) -> None:
        self._treaties: dict[str, list[Document]] = {}
        self._lock = threading.Lock()
        #: (path, reason) of files `demo.memory_backend` could not take
        self.rejected: list[tuple[str, str]] = []

    def copy(self) -> MemoryBackend:
        """A backend holding the same (immutable) documents, grouped independently."""
        other = MemoryBackend()
        with self._lock:
            other._treaties = {tid: list(docs) for tid, docs in self._treaties.items()}
        return other

    def list_treaties(self) -> list[dict[str, Any]]:
        with self._lock:
            items = list(self._treaties.items())
        return [document_summary(tid, docs) for tid, docs in sorted(items)]

    def documents(self, treaty_id: str) -> list[Document]:
        with self._lock:
            docs = self._treaties.get(treaty_id)
        if not docs:
            raise NotFound(f"no treaty {treaty_id!r} in the corpus")
        return list(docs)

    def summary(self, treaty_id: str) -> dict[str, Any]:
        return document_summary(treaty_id, self.documents(treaty_id))

    def stored_treaty(self, treaty_id: str) -> Any:
        """The treaty as `taxtreaty.pipeline.compile_stored` takes it (its files as they were given:
        nothing recorded beside them, so an amending instrument is known by its text)."""
        from taxtreaty.pipeline import StoredText, StoredTreaty

        docs = self.documents(treaty_id)
        texts = tuple(StoredText(doc, known_provisions(doc), name=Path(doc.source.path).name if doc.source.path else None)
                      for doc in docs)
        return StoredTreaty(treaty_id, tuple(document_summary(treaty_id, docs)["parties"]), texts)

    def search(self, q: str, lang: str | None, topic: str | None, treaty: str | None, limit: int) -> list[dict[str, Any]]:
        with self._lock:
            items = [(tid, d) for tid, docs in self._treaties.items() if treaty in (None, tid) for d in docs]
        return search_documents(items, q, lang, topic, limit)

    def rates(self, country: str | None) -> list[dict[str, Any]]:
        """The rate matrix of `/ask`'s decisions, built once per change of the corpus."""
        from taxtreaty.interfaces.http.rates import table_of

        return table_of(self).rows(self, country)

    def ingest(self, data: bytes, name: str | None, treaty_id: str | None, convention: int | None = None,
               choose: str = CHOOSE_OPTION) -> dict[str, Any]:
        try:
            doc = parse(data, path=name, convention=convention)
        except SeveralConventionsError as exc:
            raise refusal(exc.conventions, choose) from None
        tid = treaty_id or treaty_id_for(doc)
        # each convention of a file holding several is a document of its own
        key = doc.source.sha256 if doc._convention is None else convention_sha256(data, doc._convention)
        with self._lock:
            docs = self._treaties.setdefault(tid, [])
            if any((d.source.sha256, d._convention) == (doc.source.sha256, doc._convention) for d in docs):
                return {"treaty": tid, "status": "skipped", "sha256": key, "reason": "already in the corpus"}
            docs.append(doc)
        return {"treaty": tid, "status": "added", "sha256": key, "reason": None}

    def treaty_for_parties(self, a: str, b: str) -> str | None:
        wanted = {a.upper(), b.upper()}
        with self._lock:
            for tid, docs in sorted(self._treaties.items()):
                if any(set(d.parties) == wanted for d in docs):
                    return tid
        return None

    def generation(self) -> str:
        return self.fingerprint()

    def fingerprint(self) -> str:
        """A digest of everything stored (tests use it to prove a failed request changed nothing)."""
        with self._lock:
            keys = sorted(f"{tid}:{d.source.sha256}" for tid, docs in self._treaties.items() for d in docs)
        return hashlib.sha256("\n".join(keys).encode()).hexdigest()


def node_index(doc: Document) -> dict[tuple[str, str], Any]:
    """(language, eid) -> node, for quick lookups when rendering links."""
    return {(v.language, n.eid): n for v in doc.versions for n in iter_nodes(v)}
