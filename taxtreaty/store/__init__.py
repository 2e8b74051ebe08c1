"""The corpus store: many treaties in SQLite or PostgreSQL, searched, compared and tabulated.

    from taxtreaty.store import Store
    store = Store.open()                      # $TAXTREATY_DB or ~/.local/share/taxtreaty/taxtreaty.sqlite
    store.ingest(["gazette/"])                # IngestReport: added / skipped / rejected
    store.search("beneficial owner", lang="en")

Every method returns pydantic models (or strings for exports) that serialise to JSON; user
errors raise `taxtreaty.text.InputError` with a one-line message. See docs/store.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from taxtreaty import vocab
from taxtreaty.store import compare as _compare
from taxtreaty.store import edit as _edit
from taxtreaty.store import export as _export
from taxtreaty.store import ingest as _ingest
from taxtreaty.store import positions as _positions
from taxtreaty.store import queries as _queries
from taxtreaty.store import search as _search
from taxtreaty.store.database import connect
from taxtreaty.store.schema import ArticleRow, Document, Passage, ProvisionRow, Treaty
from taxtreaty.store.urls import resolve_url, sqlite_path
from taxtreaty.text import InputError

__all__ = ["InputError", "Store"]


class Store:
    def __init__(self, engine: Engine, url: str) -> None:
        self.engine = engine
        self.url = url
        self._vocabulary: _search.Vocabulary | None = None

    @classmethod
    def open(cls, url: str | None = None, *, create: bool = True) -> Store:
        """Open (migrating as needed) the store at `url`, a path, or the default location.

        With `create=False` a missing SQLite file is an error instead of a new empty store, so a
        query with a mistyped `--db` does not leave a file behind.
        """
        resolved = resolve_url(url)
        path = sqlite_path(resolved)
        if not create and path is not None and not path.exists():
            raise InputError(f"no store at {path} (add texts with: taxtreaty ingest PATH --db {path})")
        return cls(connect(resolved), resolved)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------------
    def ingest(self, paths: Iterable[str], *, treaty: str | None = None, processes: int | None = None,
               progress: Callable[[str, str], None] | None = None, in_force: str | None = None,
               given: _edit.TreatyFacts | None = None, convention: int | None = None,
               conventions: Mapping[str, int] | None = None) -> _ingest.IngestReport:
        """`in_force`: the entry into force of the texts; `given`: parties, signature date, dates of
        effect the texts do not say (ingest --parties/--signed/--effect), kept in the history;
        `convention`: of a file holding several conventions, the one numbered so (ingest --convention N);
        `conventions`: FILE (its path or name) -> N, for those files in place of `convention` (--convention FILE=N)."""
        report = _ingest.ingest(self.engine, paths, treaty=treaty, processes=processes, progress=progress,
                                exclude=self.own_files(), in_force=in_force, given=given, convention=convention,
                                conventions=conventions)
        self._vocabulary = None
        return report

    def edit(self, ref: str, facts: _edit.TreatyFacts) -> list[tuple[str, str | None, str | None]]:
        """Change a stored treaty's parties / signature date / dates of effect (kept in its history)."""
        with Session(self.engine) as c:
            treaty_id = _queries.resolve_treaty(c, ref).id
        return _edit.edit(self.engine, treaty_id, facts)

    def history(self, ref: str) -> list[dict[str, object]]:
        with Session(self.engine) as c:
            treaty_id = _queries.resolve_treaty(c, ref).id
        return _edit.history(self.engine, treaty_id)

    def store_mli(self, entries: list[dict[str, Any]], source: str) -> list[str]:
        """Keep MLI positions (entries of a positions file, checked by `taxtreaty.versions.mli`) for every
        surface that decides on a stored treaty; an entry replaces the one of the same States."""
        return _positions.store_entries(self.engine, entries, source)

    def mli_entries(self) -> list[dict[str, Any]]:
        """The MLI positions the store keeps, in a positions file's shape."""
        with self.engine.connect() as c:
            return _positions.entries(c)

    def ingest_bytes(self, data: bytes, path: str | None = None, treaty: str | None = None,
                     convention: int | None = None, choose: str = _ingest.CHOOSE_OPTION) -> _ingest.IngestReport:
        """One text given in memory; `convention` chooses one of a text holding several (`choose`: how the
        caller chooses, named when it is refused)."""
        report = _ingest.ingest_bytes(self.engine, data, path, treaty, convention, choose)
        self._vocabulary = None
        return report

    def own_files(self) -> list[Path]:
        """The files of a SQLite store (never ingested, even when they sit among the texts)."""
        path = sqlite_path(self.url)
        return [] if path is None else [Path(f"{path}{suffix}") for suffix in ("", "-wal", "-shm", "-journal")]

    # -- reading -----------------------------------------------------------------------------
    def list_treaties(self, country: str | None = None) -> list[_queries.TreatySummary]:
        with Session(self.engine) as c:
            return _queries.list_treaties(c, country)

    def get_treaty(self, ref: str) -> _queries.TreatyDetail:
        with Session(self.engine) as c:
            return _queries.get_treaty(c, ref)

    def article(self, ref: str, article: str, lang: str | None = None) -> _queries.ArticleView:
        with Session(self.engine) as c:
            return _queries.article(c, ref, article, lang)

    def search(self, query: str, lang: str | None = None, topic: str | None = None, treaty: str | None = None,
               limit: int = 20) -> list[_search.SearchHit]:
        if lang is not None and lang not in vocab.languages():
            raise InputError(f"unknown language {lang!r} (one of: {', '.join(vocab.languages())})")
        if topic is not None and topic not in vocab.topic_keys():
            raise InputError(f"unknown topic {topic!r} (one of: {', '.join(vocab.topic_keys())})")
        with Session(self.engine) as c:
            treaty_id = _queries.resolve_treaty(c, treaty).id if treaty else None
            if self._vocabulary is None:
                self._vocabulary = _search.Vocabulary.load(c)
            return _search.search(c, query, language=lang, topic=topic, treaty=treaty_id, limit=limit,
                                  vocabulary=self._vocabulary)

    def compare(self, a: str, b: str, topic: str | None = None, texts: dict | None = None) -> _compare.Comparison:
        """`texts`: treaty id -> (parsed document, provisions) to compare instead of its stored text."""
        with Session(self.engine) as c:
            return _compare.compare(c, a, b, topic, texts)

    def export(self, ref: str, fmt: str = "json", language: str | None = None, history: Any = None) -> str:
        with Session(self.engine) as c:
            return _export.export(c, ref, fmt, language, history)

    # -- health ------------------------------------------------------------------------------
    def counts(self) -> dict[str, int]:
        with Session(self.engine) as c:
            return {
                name: c.execute(select(func.count()).select_from(model)).scalar() or 0
                for name, model in (("treaties", Treaty), ("documents", Document), ("articles", ArticleRow),
                                    ("passages", Passage), ("provisions", ProvisionRow))
            }

    def check(self) -> list[str]:
        """Inconsistencies (a document whose rows are not all there); empty when the store is sound."""
        problems = []
        with Session(self.engine) as c:
            for doc in c.execute(select(Document)).scalars():
                for label, model, expected in (("articles", ArticleRow, doc.n_articles),
                                               ("passages", Passage, doc.n_passages),
                                               ("provisions", ProvisionRow, doc.n_provisions)):
                    found = c.execute(select(func.count()).select_from(model)
                                      .where(model.document_id == doc.id)).scalar()
                    if found != expected:
                        problems.append(f"{doc.path}: {found} {label}, expected {expected}")
                if c.execute(select(Treaty.id).where(Treaty.id == doc.treaty_id)).first() is None:
                    problems.append(f"{doc.path}: treaty {doc.treaty_id} missing")
            orphans = c.execute(select(func.count()).select_from(Treaty).where(
                ~select(Document.id).where(Document.treaty_id == Treaty.id).exists())).scalar()
            if orphans:
                problems.append(f"{orphans} treaties without documents")
            if c.get_bind().dialect.name == "sqlite":
                from sqlalchemy import text

                indexed = c.execute(text("SELECT count(*) FROM passages_fts")).scalar()
                total = c.execute(select(func.count()).select_from(Passage)).scalar()
                if indexed != total:
                    problems.append(f"full-text index holds {indexed} passages, table {total}")
        return problems
