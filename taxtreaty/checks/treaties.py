"""Finding the treaty a case names: a file path, a file in `--treaties DIR`, or a stored id.

A treaty reference is tried, in order, as:
1. an absolute path (after expanding `$VARS` and `~`, so `$TAXTREATY_SHARED/seeds/x.txt` works);
2. a path relative to the cases file's folder (issue 7);
3. a path relative to `--treaties DIR`, or a file in DIR whose name or stem is the reference;
4. a path relative to the working directory;
5. an id in the store, when `--treaties` is a database (a file that is not a folder, or a URL).
A reference found nowhere is a failure of the case with the places looked in, never a skip.
"""

from __future__ import annotations

import os
from pathlib import Path

from taxtreaty.structure import Document, parse
from taxtreaty.text import InputError


class TreatyNotLoaded(Exception):
    """The case's treaty could not be found or read; the message says why."""


def _is_database(treaties: str) -> bool:
    return "://" in treaties or (Path(treaties).exists() and not Path(treaties).is_dir())


def resolve_path(reference: str, cases_dir: Path, treaties: str | None) -> Path | None:
    expanded = Path(os.path.expanduser(os.path.expandvars(reference)))
    candidates: list[Path] = []
    if expanded.is_absolute():
        candidates.append(expanded)
    else:
        candidates.append(cases_dir / expanded)
        if treaties and not _is_database(treaties):
            folder = Path(treaties)
            candidates.append(folder / expanded)
            if folder.is_dir():
                candidates.extend(sorted(p for p in folder.iterdir() if p.is_file() and reference in (p.name, p.stem)))
        candidates.append(Path.cwd() / expanded)
    return next((c for c in candidates if c.is_file()), None)


def _stored_document(database: str, reference: str) -> Document:
    """The stored parse of treaty `reference` (its id, as `taxtreaty list` shows it); of a treaty
    stored as several files, the one with the most articles."""
    try:  # the store stage is optional for file-based cases
        from sqlalchemy import select
        from sqlalchemy.orm import Session

        from taxtreaty.store import Store
        from taxtreaty.store.export import load_parsed
        from taxtreaty.store.queries import resolve_treaty
        from taxtreaty.store.schema import Document as StoredDocument
    except ImportError as exc:
        raise TreatyNotLoaded(f"treaty {reference!r} is not a file and the store is not available ({exc})") from None
    try:
        with Store.open(database, create=False) as store, Session(store.engine) as session:
            treaty = resolve_treaty(session, reference)
            rows = session.execute(
                select(StoredDocument).where(StoredDocument.treaty_id == treaty.id).order_by(StoredDocument.id)
            ).scalars().all()
            documents = [load_parsed(row) for row in rows]
            parties = treaty.parties.split(",") if treaty.parties else []
    except InputError as exc:
        raise TreatyNotLoaded(f"treaty {reference!r}: {exc}") from None
    except Exception as exc:
        raise TreatyNotLoaded(f"cannot load treaty {reference!r} from the store {database}: {exc}") from None
    if not documents:
        raise TreatyNotLoaded(f"treaty {reference!r} has no stored text in {database}")
    document = max(documents, key=lambda d: sum(len(v.articles) for v in d.versions))
    if parties and len(document.parties) != 2:
        document.parties = parties
    return document


class TreatyLoader:
    """Parses each treaty once per run, whatever the number of cases that use it."""

    def __init__(self, treaties: str | None = None) -> None:
        self.treaties = treaties
        self._documents: dict[tuple[str, str, int | None], Document | TreatyNotLoaded] = {}

    def load(self, reference: str, cases_dir: Path, convention: int | None = None) -> Document:
        path = resolve_path(reference, cases_dir, self.treaties)
        key = (str(path) if path else f"id:{reference}", str(cases_dir), convention)
        if key not in self._documents:
            try:
                self._documents[key] = self._read(reference, path, cases_dir, convention)
            except TreatyNotLoaded as exc:
                self._documents[key] = exc
        found = self._documents[key]
        if isinstance(found, TreatyNotLoaded):
            raise found
        # a copy, so one case's parties never leak into another's
        return found.model_copy(deep=False)

    def _read(self, reference: str, path: Path | None, cases_dir: Path, convention: int | None = None) -> Document:
        if path is None:
            if self.treaties and _is_database(self.treaties):
                return _stored_document(self.treaties, reference)
            looked = [str(cases_dir / reference)]
            if self.treaties:
                looked.append(str(Path(self.treaties) / reference))
            raise TreatyNotLoaded(f"treaty not found: {reference} (looked at {', '.join(looked)})")
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise TreatyNotLoaded(f"cannot read treaty {path}: {exc.strerror or exc}") from None
        try:
            return parse(data, path=str(path), convention=convention)
        except InputError as exc:
            raise TreatyNotLoaded(f"cannot parse treaty {path}: {exc}") from None
