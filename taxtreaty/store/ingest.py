"""Ingest: files -> parsed documents -> one transaction per document.

Idempotent by content: a file whose sha256 is already stored is skipped, whatever its name. A file
holding several conventions (an Act's schedules) is refused naming them; `convention` chooses one,
stored by a key of its own (`rows.convention_sha256`), so each convention of it can be ingested.
Each document (its treaty row if new, articles, passages, index entries, provisions) is written
in a single transaction, so a crash or `kill -9` leaves either the whole document or nothing;
the next run skips what is there and adds the rest. Parsing runs in a process pool when there
are many files; only the parent process writes.
"""

from __future__ import annotations

import glob
import multiprocessing
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from pydantic import BaseModel, Field
from sqlalchemy import Engine, insert, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

from taxtreaty.store import champions, fts, instruments
from taxtreaty.store.edit import TreatyFacts, set_facts
from taxtreaty.store.grouping import TREATY_ID, place
from taxtreaty.store.rows import PreparedDocument, Rejected, keys, prepare
from taxtreaty.store.schema import ArticleRow, Document, Passage, ProvisionRow, Term, Treaty
from taxtreaty.structure.conventions import CHOOSE_OPTION, convention_sha256
from taxtreaty.text import InputError

_GLOB_CHARS = set("*?[")
#: the N of `--convention N` or `--convention FILE=N`
_NUMBER = re.compile(r"[0-9]+")
#: below this many files a process pool costs more than it saves
_POOL_THRESHOLD = 8


class IngestItem(BaseModel):
    path: str | None
    treaty: str | None = None
    sha256: str | None = None
    reason: str | None = None


class IngestReport(BaseModel):
    added: list[IngestItem] = Field(default_factory=list)
    skipped: list[IngestItem] = Field(default_factory=list)
    rejected: list[IngestItem] = Field(default_factory=list)
    warnings: list[IngestItem] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.rejected


def expand_paths(paths: Iterable[str], exclude: Iterable[Path] = ()) -> tuple[list[Path], list[IngestItem]]:
    """Files named, found under folders (recursively), or matched by globs; missing ones rejected.

    `exclude` holds files never to read (the store's own database files when it sits in the folder).
    """
    excluded = {p.resolve() for p in exclude}
    files: list[Path] = []
    rejected: list[IngestItem] = []
    for raw in paths:
        if any(c in raw for c in _GLOB_CHARS) and not Path(raw).exists():
            matches = sorted(glob.glob(raw, recursive=True))
            if not matches:
                rejected.append(IngestItem(path=raw, reason="the pattern matches no file"))
            files.extend(Path(m) for m in matches if Path(m).is_file())
            continue
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and not any(
                part.startswith(".") for part in p.relative_to(path).parts))
            if not found:
                rejected.append(IngestItem(path=raw, reason="the folder holds no files"))
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            rejected.append(IngestItem(path=raw, reason="no such file or folder"))
    seen: set[Path] = set()
    unique = []
    for f in files:
        key = f.resolve()
        if key not in seen and key not in excluded:
            seen.add(key)
            unique.append(f)
    return unique, rejected


#: (path, the file's bytes, the facts given, the convention chosen of it)
Job = tuple[str, bytes, TreatyFacts | None, int | None]


def _prepare_job(job: Job) -> PreparedDocument | Rejected:
    return prepare(job[0], job[1], job[2], job[3])


def _prepared(jobs: list[Job], processes: int) -> Iterator[PreparedDocument | Rejected]:
    if processes <= 1 or len(jobs) < _POOL_THRESHOLD:
        for job in jobs:
            yield _prepare_job(job)
        return
    # workers come from a fork server, never from this process: a fork of a process with threads (the
    # terminal's progress display, a database driver, Dask) can copy a lock some thread holds, and the
    # worker then hangs on it for ever (seen as an ingest that never ends); each worker warms the
    # parser's and extractor's caches once when it starts
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["taxtreaty.store.ingest"])
    with context.Pool(processes, initializer=_warm) as pool:
        yield from pool.imap(_prepare_job, jobs, chunksize=2)


def _warm() -> None:
    """Build the parser's and extractor's caches (compiled patterns, vocabularies) in a new worker."""
    from taxtreaty.store.synthetic import convention, languages

    for language in languages():
        prepare(None, convention(0, language=language).text.encode())


def ingest(
    engine: Engine,
    paths: Iterable[str],
    *,
    treaty: str | None = None,
    processes: int | None = None,
    progress: Callable[[str, str], None] | None = None,
    exclude: Iterable[Path] = (),
    in_force: str | None = None,
    given: TreatyFacts | None = None,
    convention: int | None = None,
    conventions: Mapping[str, int] | None = None,
) -> IngestReport:
    """Add the files under `paths`; `progress(path, outcome)` is called once per file; `convention`
    chooses that convention of each file holding several (a file of one convention is read whole with 1);
    `conventions` (FILE -> N, FILE a path or a file's name) chooses one for those files, in place of `convention`."""
    if treaty is not None and not TREATY_ID.match(treaty):
        raise InputError(f"--treaty takes an id of letters, digits, '.', '_' and '-' (got {treaty!r})")
    if in_force is not None:
        in_force = checked_date(in_force, "--in-force")
    files, rejected = expand_paths(paths, exclude)
    report = IngestReport(rejected=rejected)
    notify = progress or (lambda _path, _outcome: None)
    with engine.connect() as connection:
        known = {row[0] for row in connection.execute(select(Document.sha256))}
    if convention is not None and convention < 1:
        raise InputError(f"--convention takes a number from 1 (got {convention})")
    chosen = chosen_per_file(files, conventions or {})
    jobs: list[Job] = []
    for path in files:
        convention_of = chosen.get(path.resolve(), convention)
        try:
            data = path.read_bytes()
        except OSError as exc:
            report.rejected.append(IngestItem(path=str(path), reason=f"cannot read: {exc.strerror}"))
            notify(str(path), "rejected")
            continue
        stored = keys(data, convention_of) & known
        if stored:
            report.skipped.append(IngestItem(path=str(path), sha256=min(stored), reason="already in the store"))
            notify(str(path), "skipped")
            continue
        # what this run stores: a file's own key, or the chosen convention's (a copy of the same bytes may choose
        # another of its conventions: `--convention a.txt=1 --convention b.txt=2`)
        known |= keys(data, None) if convention_of is None else {convention_sha256(data, convention_of)}
        jobs.append((str(path), data, given, convention_of))
    processes = processes or min(os.cpu_count() or 1, 8)
    for result in _prepared(jobs, processes):
        if isinstance(result, Rejected):
            report.rejected.append(IngestItem(path=result.path, reason=result.reason))
            notify(result.path or "-", "rejected")
            continue
        try:
            treaty_id = _write_retrying(engine, result, treaty, in_force or _metadata_entry_into_force(result.path), given)
        except _AlreadyStored:
            report.skipped.append(IngestItem(path=result.path, sha256=result.sha256, reason="already in the store"))
            notify(result.path or "-", "skipped")
            continue
        if instruments.is_amending(result.instrument):
            with engine.connect() as connection:
                row = connection.execute(select(instruments.InstrumentRow.status, instruments.InstrumentRow.reason).where(
                    instruments.InstrumentRow.treaty_id == treaty_id)).all()
            waiting = [r for s_, r in row if s_ == "waiting"]
            if waiting:
                report.warnings.append(IngestItem(path=result.path, treaty=treaty_id, reason=waiting[-1]))
        report.added.append(IngestItem(path=result.path, treaty=treaty_id, sha256=result.sha256))
        if result.provisions_error:
            report.warnings.append(IngestItem(path=result.path, treaty=treaty_id, reason=result.provisions_error))
        notify(result.path or "-", "added")
    champions.refresh_if_stale(engine)
    return report


def convention_choices(values: Iterable[str]) -> tuple[int | None, dict[str, int]]:
    """`--convention` as given, each value N (every file) or FILE=N (that file: a path, or a file's name):
    (N for every file or None, {FILE: N}); a one-line `InputError` for a value of neither shape."""
    every: int | None = None
    per_file: dict[str, int] = {}
    for value in values:
        name, equals, number = value.rpartition("=")
        if _NUMBER.fullmatch(number) is None or int(number) < 1 or (equals and not name.strip()):
            raise InputError(f"--convention {value}: give N or FILE=N, N a number from 1 (the convention of a file "
                             "holding several, as the refusal lists them)")
        if not name:
            if every is not None and every != int(number):
                raise InputError(f"--convention {value}: a second N for every file (give FILE=N for one file)")
            every = int(number)
        elif per_file.setdefault(name, int(number)) != int(number):
            raise InputError(f"--convention {value}: {name} is given another convention already")
    return every, per_file


def chosen_per_file(files: list[Path], conventions: Mapping[str, int]) -> dict[Path, int]:
    """The convention chosen for each file `conventions` names (by its path, or by its name when that is one
    file's only); a one-line `InputError` for a FILE that names no file to ingest, or several."""
    chosen: dict[Path, int] = {}
    for name, number in conventions.items():
        if number < 1:
            raise InputError(f"--convention {name}={number}: N is a number from 1")
        given = Path(name).resolve()
        matches = [f for f in files if f.resolve() == given] or [f for f in files if f.name == name]
        if not matches:
            raise InputError(f"--convention {name}={number}: {name} is none of the files to ingest")
        if len(matches) > 1:
            raise InputError(f"--convention {name}={number}: {len(matches)} files to ingest are named {name} "
                             f"({', '.join(str(m) for m in matches[:3])}); give its path")
        chosen[matches[0].resolve()] = number
    return chosen


class _AlreadyStored(Exception):
    pass


def _metadata_entry_into_force(path: str | None) -> str | None:
    """`entry_into_force:` for this file in the `treaties.yaml` beside it (the metadata file)."""
    if not path:
        return None
    meta = Path(path).parent / "treaties.yaml"
    if not meta.is_file():
        return None
    import yaml

    try:
        data = yaml.safe_load(meta.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(f"{meta}: not valid YAML ({str(exc).splitlines()[0]})") from None
    entry = data.get(Path(path).name) if isinstance(data, dict) else None
    value = entry.get("entry_into_force") if isinstance(entry, dict) else None
    return checked_date(str(value), f"{meta}: {Path(path).name}: entry_into_force") if value is not None else None


def checked_date(value: str, where: str) -> str:
    import datetime as dt

    try:
        return dt.date.fromisoformat(value).isoformat()
    except ValueError:
        raise InputError(f"{where} takes a date as YYYY-MM-DD (got {value!r})") from None


def _write_retrying(engine: Engine, doc: PreparedDocument, treaty: str | None, in_force: str | None = None,
                    given: TreatyFacts | None = None) -> str:
    """Write; a concurrent ingest may have stored the same bytes (skip) or taken a new treaty id (retry)."""
    for _attempt in range(3):
        try:
            return write_document(engine, doc, treaty, in_force, given)
        except IntegrityError:
            with engine.connect() as connection:
                if connection.execute(select(Document.id).where(Document.sha256 == doc.sha256)).first():
                    raise _AlreadyStored from None
    return write_document(engine, doc, treaty, in_force, given)


def ingest_bytes(engine: Engine, data: bytes, path: str | None = None, treaty: str | None = None,
                 convention: int | None = None, choose: str = CHOOSE_OPTION) -> IngestReport:
    """Ingest one text given in memory (the HTTP API's upload); `convention` chooses one of a text holding
    several (refused without it, naming them and `choose`, the way the caller chooses)."""
    report = IngestReport()
    with engine.connect() as connection:
        stored = connection.execute(select(Document.sha256).where(Document.sha256.in_(keys(data, convention)))).scalar()
    if stored:
        report.skipped.append(IngestItem(path=path, sha256=stored, reason="already in the store"))
        return report
    result = prepare(path, data, convention=convention, choose=choose)
    if isinstance(result, Rejected):
        report.rejected.append(IngestItem(path=path, reason=result.reason))
        return report
    try:
        treaty_id = _write_retrying(engine, result, treaty)
    except _AlreadyStored:
        report.skipped.append(IngestItem(path=path, sha256=result.sha256, reason="already in the store"))
        return report
    report.added.append(IngestItem(path=path, treaty=treaty_id, sha256=result.sha256))
    champions.refresh_if_stale(engine)
    return report


def _count_terms(dialect: str):  # type: ignore[no-untyped-def]
    """Insert words, or add one to the document count of words already there."""
    statement = (sqlite_insert if dialect == "sqlite" else pg_insert)(Term)
    return statement.on_conflict_do_update(index_elements=[Term.term], set_={"documents": Term.documents + 1})


def write_document(engine: Engine, doc: PreparedDocument, explicit_treaty: str | None = None,
                   entry_into_force: str | None = None, given: TreatyFacts | None = None) -> str:
    """Write one document and everything derived from it in one transaction; return its treaty id."""
    folder = str(Path(doc.path).resolve().parent) if doc.path else None
    with engine.begin() as connection:
        status, why = "", ""
        if instruments.is_amending(doc.instrument):
            placement, status, why = instruments.place_amending(connection, doc.instrument, explicit_treaty, doc.signed_date)
        else:
            placement = place(connection, doc, folder, explicit_treaty)
        amending = instruments.is_amending(doc.instrument)
        if placement.new:
            connection.execute(insert(Treaty).values(
                # a holder of an instrument waiting for its base is never matched as a convention
                # (facts the user gave are set below, each change in the history)
                id=placement.treaty_id, title=placement.title,
                parties=None if amending or (given is not None and given.parties) else ",".join(doc.parties) or None,
                signed_date=None if amending or (given is not None and given.signed) else doc.signed_date,
                prevailing_language=doc.prevailing_language, grouping=placement.reason,
            ))
        elif amending:
            pass  # an instrument says nothing about its base's own facts
        else:
            _merge_treaty_facts(connection, placement.treaty_id, doc, placement.reason)
        if given is not None and not given.empty and not amending:  # what the user said, kept in the history
            set_facts(connection, placement.treaty_id, given, "ingest")
        document_id = connection.execute(insert(Document).values(
            sha256=doc.sha256, treaty_id=placement.treaty_id, path=doc.path, folder=folder, size=doc.size,
            languages=",".join(doc.languages), parties=",".join(doc.parties) or None, signed_date=doc.signed_date,
            first_article=doc.first_article, last_article=doc.last_article, ends_truncated=doc.ends_truncated,
            original=doc.original, tree=doc.tree, provisions_json=doc.provisions_json,
            n_articles=len(doc.articles), n_passages=sum(len(p) for p in doc.passages),
            n_provisions=len(doc.provisions),
        )).inserted_primary_key[0]
        common = {"document_id": document_id, "treaty_id": placement.treaty_id}
        article_ids = [row[0] for row in connection.execute(
            insert(ArticleRow).returning(ArticleRow.id, sort_by_parameter_order=True),
            [{**a, **common} for a in doc.articles],
        )] if doc.articles else []  # an amending instrument printed without articles has none
        passage_rows = [
            {**p, **common, "article_id": article_id}
            for article_id, rows in zip(article_ids, doc.passages, strict=True)
            for p in rows
        ]
        if passage_rows:
            passage_ids = [row[0] for row in connection.execute(
                insert(Passage).returning(Passage.id, sort_by_parameter_order=True), passage_rows)]
            fts.index_passages(connection, list(zip(passage_ids, (p["folded"] for p in passage_rows), strict=True)))
            champions.invalidate(connection)
        if doc.provisions:
            connection.execute(insert(ProvisionRow), [{**p, **common} for p in doc.provisions])
        instruments.record(connection, document_id, placement.treaty_id, doc.instrument, status, why, entry_into_force)
        if not amending:
            instruments.link_waiting(connection, placement.treaty_id, ",".join(doc.parties) or None, doc.signed_date)
        if doc.terms:
            # sorted words: concurrent writers take row locks in the same order (no deadlock)
            connection.execute(_count_terms(connection.dialect.name), [{"term": t, "documents": 1} for t in doc.terms])
    return placement.treaty_id


def _merge_treaty_facts(connection, treaty_id: str, doc: PreparedDocument, reason: str) -> None:  # type: ignore[no-untyped-def]
    """A later file may name what the first did not (the parties, the date, the prevailing text)."""
    row = connection.execute(select(Treaty).where(Treaty.id == treaty_id)).mappings().first()
    if row is None:
        return
    updates = {}
    if not row["parties"] and doc.parties:
        updates["parties"] = ",".join(doc.parties)
    if not row["signed_date"] and doc.signed_date:
        updates["signed_date"] = doc.signed_date
    if not row["prevailing_language"] and doc.prevailing_language:
        updates["prevailing_language"] = doc.prevailing_language
    if reason and reason not in row["grouping"]:
        updates["grouping"] = f"{row['grouping']}; {reason}".strip("; ")
    if updates:
        from sqlalchemy import update

        connection.execute(update(Treaty).where(Treaty.id == treaty_id).values(**updates))
