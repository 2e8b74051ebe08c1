"""`Backend` over the corpus store (`taxtreaty.store.Store`): SQLite by default, PostgreSQL by URL.

The store's public API gives lists, search and rates; the reader and the rules engine need the
parsed documents themselves, which the store keeps as JSON trees next to their source text. They
are loaded once per content hash and cached (a document never changes: new text, new hash).
"""

from __future__ import annotations

import gc
import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import func, select

from taxtreaty.interfaces.http.backend import (
    NotFound,
    document_summary,
    known_provisions,
    remember_provisions,
    treaty_status,
)
from taxtreaty.pipeline import StoredText, StoredTreaty, stored_window
from taxtreaty.provisions.model import ProvisionSet
from taxtreaty.store import Store
from taxtreaty.store import positions as mli_positions
from taxtreaty.store.schema import ArticleRow, InstrumentRow, TreatyHistory
from taxtreaty.store.schema import Document as DocumentRow
from taxtreaty.store.schema import Treaty as TreatyRow
from taxtreaty.structure import Document, eids
from taxtreaty.structure.conventions import CHOOSE_OPTION
from taxtreaty.text import InputError
from taxtreaty.versions import mli

#: the store marks matched words in snippets with this (see taxtreaty.store.search)
_MARK = "**"


class _View(NamedTuple):
    """What the server knows of the store, reused until the store changes."""

    generation: Any
    summaries: dict[str, dict[str, Any]]
    #: document hashes by treaty id, in ingest order
    shas: dict[str, list[str]]
    #: what ingest recorded of each document, by hash: (file name, instrument kind, status, entry into force)
    files: dict[str, tuple[Any, ...]]
    #: the dates of effect a user gave, by treaty id (ingest/edit --effect)
    windows: dict[str, Any]
    #: the MLI positions the store keeps (ingest --mli), by their two States
    positions: dict[frozenset[str], Any]


class StoreBackend:
    #: seconds between checks that the store has not changed under us
    FRESHNESS = 1.0
    #: `ready` says no this long before the view needs its freshness check
    READY_MARGIN = 0.01

    def __init__(self, store: Any) -> None:
        self.store = store
        self._docs: dict[str, Document] = {}
        self._lock = threading.Lock()
        self._view: _View | None = None
        self._checked_at = 0.0

    def generation(self) -> Any:
        return self._generation()

    def _generation(self) -> Any:
        """Changes whenever a document is added or removed, or a treaty's facts are edited (by
        this process or any other)."""
        with self.store.engine.connect() as c:
            documents = tuple(c.execute(select(func.count(DocumentRow.id), func.max(DocumentRow.id))).one())
            return (*documents, c.execute(select(func.max(TreatyHistory.id))).scalar(), *mli_positions.generation(c))

    def stored_treaty(self, treaty_id: str) -> StoredTreaty:
        """The treaty as `taxtreaty.pipeline.compile_stored` takes it, from the view of the store and
        the parsed documents (no store access when `ready(treaty_id)`): what the CLI reads from the
        store for `ask --treaty ID`, so both decide alike."""
        docs = self.documents(treaty_id)
        view = self._current()
        texts = []
        for doc in docs:
            name, kind, status, eif = view.files.get(doc.source.sha256, (None, None, None, None))
            texts.append(StoredText(doc, known_provisions(doc), kind, status, eif, name))
        summary = view.summaries.get(treaty_id)
        parties = tuple(summary["parties"]) if summary else tuple(docs[0].parties if docs else ())
        return StoredTreaty(treaty_id, parties, tuple(texts), view.windows.get(treaty_id),
                            view.positions.get(frozenset(parties)))

    def _current(self, force: bool = False) -> _View:
        """Treaty summaries and their documents, read again only when the store has changed.

        The change check is one small query, run at most every `FRESHNESS` seconds (or now, with
        `force`): an ingest by this server is seen at once, one by another process (the CLI)
        within that time.
        """
        view = self._view
        now = time.monotonic()
        if view is not None and now - self._checked_at < self.FRESHNESS and not force:
            return view
        generation = self._generation()
        self._checked_at = now
        if view is not None and view[0] == generation:
            return view
        shas: dict[str, list[str]] = {}
        files: dict[str, tuple[Any, ...]] = {}
        windows: dict[str, Any] = {}
        with self.store.engine.connect() as c:
            rows = c.execute(select(DocumentRow.treaty_id, DocumentRow.sha256, DocumentRow.id, DocumentRow.path,
                                    InstrumentRow.kind, InstrumentRow.status, InstrumentRow.entry_into_force)
                             .outerjoin(InstrumentRow, InstrumentRow.document_id == DocumentRow.id).order_by(DocumentRow.id))
            for treaty_id, sha, doc_id, path, kind, status, eif in rows:
                shas.setdefault(treaty_id, []).append(sha)
                files[sha] = (Path(path or f"document-{doc_id}").name, kind, status, eif)
            for row in c.execute(select(TreatyRow.id, TreatyRow.in_force_from, TreatyRow.in_force_until)
                                 .where((TreatyRow.in_force_from.is_not(None)) | (TreatyRow.in_force_until.is_not(None)))):
                windows[row.id] = stored_window(row)
            positions = mli.from_entries(mli_positions.entries(c), "the store's MLI positions")
        damaged = self._damaged_treaties()
        summaries = {s.id: self._summary_dict(s, damaged) for s in self.store.list_treaties()}
        self._view = _View(generation, summaries, shas, files, windows, positions)
        return self._view

    def refresh_view(self) -> None:
        """Check the store for changes now. The server calls this in the background every
        `FRESHNESS / 2` seconds (app.py), so the view never ages into `ready`'s margin under load:
        otherwise, once a second, every request in flight would take the thread path at once.
        After a change, the whole-store answers are prepared here too, off the request path: the
        treaty list encoded, the rates matrix started (`views`, `rates.RateTable.warm`)."""
        from taxtreaty.interfaces.http import views
        from taxtreaty.interfaces.http.rates import table_of

        self._current(force=True)
        views.treaty_list(self)
        table_of(self).warm(self)

    def fresh_generation(self) -> str | None:
        """The view's generation when the view may be used without asking the store (see `ready`)."""
        view = self._view
        if view is None or getattr(self.store, "documents", None) is not None:
            return None
        # The margin keeps the view from going stale (and `_current` from querying the store on
        # the loop) between this check and its use, microseconds later.
        if time.monotonic() - self._checked_at >= self.FRESHNESS - self.READY_MARGIN:
            return None
        return str(view.generation)

    def listing(self) -> tuple[str, list[dict[str, Any]]]:
        """The treaty list and the generation of the view it comes from (the view's own rows, not
        copies: read them, never change them)."""
        view = self._current()
        return str(view.generation), list(view.summaries.values())

    def ready(self, treaty_id: str | None) -> bool:
        """True when answering about `treaty_id` needs no store access: the view of the store is
        fresh and the treaty's documents are parsed (None: only the view, for a lookup by parties).

        The API decides a scenario on the event loop when this holds (see `service.decide_if_ready`):
        a thread hop costs more than such a decision; anything that may touch the store goes to a
        thread under the request time limit.
        """
        view = self._view
        if view is None or self.fresh_generation() is None:
            return False
        if treaty_id is None:
            return True
        shas = view.shas.get(treaty_id)
        return bool(shas) and all(s in self._docs for s in shas)

    @classmethod
    def open(cls, url: str | None) -> StoreBackend:
        return cls(Store.open(url))

    # -- documents ---------------------------------------------------------------------------
    def documents(self, treaty_id: str) -> list[Document]:
        getter = getattr(self.store, "documents", None)
        if getter is not None:
            try:
                return list(getter(treaty_id))
            except InputError as exc:
                raise NotFound(str(exc)) from None
        return self._load_documents(treaty_id)

    def _load_documents(self, treaty_id: str) -> list[Document]:
        view = self._view
        shas = view.shas.get(treaty_id) if view is not None else None
        if shas is None:
            shas = self._current().shas.get(treaty_id)
        if not shas:  # exact ids only: the web and API links always carry the full id
            raise NotFound(f"no treaty {treaty_id!r} in the corpus")
        with self._lock:
            missing = [s for s in shas if s not in self._docs]
        if missing:
            with self.store.engine.connect() as c:
                rows = c.execute(select(DocumentRow.sha256, DocumentRow.tree, DocumentRow.original,
                                        DocumentRow.provisions_json).where(DocumentRow.sha256.in_(missing))).all()
                for sha, tree, original, provisions_json in rows:
                    parsed = Document.model_validate_json(tree)
                    parsed._original = original
                    if provisions_json:
                        remember_provisions(parsed, ProvisionSet.model_validate_json(provisions_json))
                    with self._lock:
                        self._docs[sha] = parsed
            # Parsed documents live as long as the server: keep the cyclic garbage collector
            # from walking their (many) objects again and again, which showed as latency spikes.
            gc.collect()  # garbage first, so only live objects are frozen
            gc.freeze()
        with self._lock:
            return [self._docs[s] for s in shas if s in self._docs]

    # -- summaries ---------------------------------------------------------------------------
    def _summary_dict(self, s: Any, damaged: set[str]) -> dict[str, Any]:
        """A list row from the store's summary: no parsed document is loaded (a corpus may hold thousands)."""
        return {
            "id": s.id, "title": s.title, "parties": list(s.parties), "signed": s.signed_date, "signed_place": None,
            "languages": list(s.languages), "prevailing_language": s.prevailing_language, "articles": s.articles,
            "status": treaty_status(s.articles, s.id in damaged), "warnings": 0, "files": s.documents,
        }

    def _damaged_treaties(self) -> set[str]:
        """Treaties with an incomplete article or a file whose text stops before its end, in two queries."""
        with self.store.engine.connect() as c:
            cut = {t for (t,) in c.execute(select(DocumentRow.treaty_id).where(DocumentRow.ends_truncated.is_(True)))}
            partial = {t for (t,) in c.execute(select(ArticleRow.treaty_id).where(ArticleRow.complete.is_(False))
                                                .group_by(ArticleRow.treaty_id))}
        return cut | partial

    def summary(self, treaty_id: str) -> dict[str, Any]:
        """One treaty's row, completed from its parsed documents (place of signature, warnings)."""
        found = self._current().summaries.get(treaty_id)
        if found is None:
            raise NotFound(f"no treaty {treaty_id!r} in the corpus")
        derived = document_summary(treaty_id, self.documents(treaty_id))
        row = dict(found)
        row.update({
            "title": row["title"] or derived["title"], "parties": row["parties"] or derived["parties"],
            "signed": row["signed"] or derived["signed"], "signed_place": derived["signed_place"],
            "languages": row["languages"] or derived["languages"],
            "prevailing_language": row["prevailing_language"] or derived["prevailing_language"],
            "warnings": derived["warnings"],
            "status": derived["status"] if derived["status"] != "complete" else row["status"],
        })
        return row

    def list_treaties(self) -> list[dict[str, Any]]:
        return [dict(s) for s in self._current().summaries.values()]

    def treaty_for_parties(self, a: str, b: str) -> str | None:
        wanted = {a.upper(), b.upper()}
        return next((tid for tid, s in self._current().summaries.items() if set(s["parties"]) == wanted), None)

    # -- queries -----------------------------------------------------------------------------
    def search(self, q: str, lang: str | None, topic: str | None, treaty: str | None, limit: int) -> list[dict[str, Any]]:
        if treaty is not None and treaty not in self._current().summaries:
            raise NotFound(f"no treaty {treaty!r} in the corpus")
        hits = self.store.search(q, lang=lang, topic=topic, treaty=treaty, limit=limit)
        headings = self._headings({(h.treaty, h.language, h.article) for h in hits})
        out = []
        for h in hits:
            text, highlights = unmark(h.snippet)
            out.append({"treaty": h.treaty, "language": h.language, "eid": h.eid, "article": h.article,
                        "heading": headings.get((h.treaty, h.language, h.article)), "topic": h.topic,
                        "score": float(h.score), "snippet": text, "highlights": highlights})
        return out

    def _headings(self, wanted: set[tuple[str, str, str]]) -> dict[tuple[str, str, str], str | None]:
        """The heading of each (treaty, language, article number): the article of the first of the
        treaty's documents that has it (by number, else by eId), as `Version.article` finds it, read
        from the store's article rows in one query: a search never loads a parsed document."""
        if not wanted:
            return {}
        if getattr(self.store, "documents", None) is not None:  # a store that serves documents itself
            return {key: self._heading(*key) for key in wanted}
        by_eid = {eids.article(number): number for _, _, number in wanted}
        with self.store.engine.connect() as c:
            rows = c.execute(
                select(ArticleRow.treaty_id, ArticleRow.language, ArticleRow.document_id, ArticleRow.number,
                       ArticleRow.eid, ArticleRow.heading)
                .where(ArticleRow.treaty_id.in_({t for t, _, _ in wanted}),
                       ArticleRow.language.in_({lang for _, lang, _ in wanted}),
                       ArticleRow.number != ArticleRow.eid,  # a protocol's row: Version.article never finds it
                       ArticleRow.number.in_({n for _, _, n in wanted}) | ArticleRow.eid.in_(by_eid))
                .order_by(ArticleRow.document_id, ArticleRow.position)).all()
        # per key: {document: (heading by number, heading by eId)}, the first of each in reading order
        found: dict[tuple[str, str, str], dict[int, list[tuple[bool, str | None]]]] = {}
        for treaty_id, language, document_id, number, eid, heading in rows:
            for key in ((treaty_id, language, number), (treaty_id, language, by_eid.get(eid, ""))):
                if key in wanted:
                    found.setdefault(key, {}).setdefault(document_id, []).append((key[2] == number, heading))
        out: dict[tuple[str, str, str], str | None] = {}
        for key, documents in found.items():
            first = documents[min(documents)]
            out[key] = next((h for exact, h in first if exact), first[0][1])
        return out

    def _heading(self, treaty_id: str, language: str, number: str) -> str | None:
        try:
            docs = self.documents(treaty_id)
        except NotFound:
            return None
        for doc in docs:
            version = doc.version(language)
            article = version.article(number) if version else None
            if article is not None:
                return article.heading
        return None

    def rates(self, country: str | None) -> list[dict[str, Any]]:
        """The rate matrix of `/ask`'s decisions, built once per change of the corpus."""
        from taxtreaty.interfaces.http.rates import table_of

        return table_of(self).rows(self, country)

    def ingest(self, data: bytes, name: str | None, treaty_id: str | None, convention: int | None = None,
               choose: str = CHOOSE_OPTION) -> dict[str, Any]:
        report = self.store.ingest_bytes(data, name, treaty_id, convention, choose)
        self._view = None
        if report.rejected:
            raise InputError(f"the text was rejected: {report.rejected[0].reason}")
        if report.added:
            item = report.added[0]
            return {"treaty": item.treaty, "status": "added", "sha256": item.sha256, "reason": None}
        item = report.skipped[0]
        return {"treaty": item.treaty or self._treaty_of(item.sha256), "status": "skipped", "sha256": item.sha256,
                "reason": item.reason}

    def _treaty_of(self, sha: str | None) -> str:
        with self.store.engine.connect() as c:
            found = c.execute(select(DocumentRow.treaty_id).where(DocumentRow.sha256 == sha)).scalar()
        return found or ""

    def fingerprint(self) -> str:
        """What the store holds, as counts (tests prove failed requests change nothing)."""
        return repr(sorted(self.store.counts().items()))


def unmark(snippet: str) -> tuple[str, list[list[int]]]:
    """"a **b** c" -> ("a b c", [[2, 3]])."""
    parts = snippet.split(_MARK)
    if len(parts) % 2 == 0:  # unbalanced: a literal ** in the text; show it as it is
        return snippet, []
    text, highlights, pos = "", [], 0
    for i, part in enumerate(parts):
        if i % 2 == 1:
            highlights.append([pos, pos + len(part)])
        text += part
        pos += len(part)
    return text, highlights
