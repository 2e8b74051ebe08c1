"""The pipeline: from a text, a file, a directory or a stored treaty to a compiled treaty.

The stages run one way, each on the output of the one before it: text (cleanup) -> structure
(parse) -> provisions (extract) -> rules (compile, decide); the store keeps what the first three
made. This module sits above rules and store and is the one place that reads from both:

    compile_text(b"...")                           # a text -> CompiledTreaty
    load_treaty("pt-cz.txt")                       # a file, a Document, or a stored treaty id
    decide("pt-cz.txt", {"income": "dividends", "source": "PT", "residence": "CZ"})
    load_book("treaties/", warn)                   # every treaty of a directory or a store (ledger)

Compiling in memory (a `Document`, a (Document, ProvisionSet) pair, a file) is
`taxtreaty.rules.load`; what this module adds is whatever needs the store, the directory layout
of a ledger's treaties and hand-written provisions.

Directory layout (DIR):

    DIR/
      pt-cz.txt                  # one convention per file (.txt, .md, .html)
      pt-cz.provisions.yaml      # optional hand-written provisions (see taxtreaty/rules/handwritten.py)
      treaties.yaml              # optional: what the files do not say themselves

    # treaties.yaml: one entry per file name
    pt-cz.txt:
      parties: [PT, CZ]          # needed when the text does not name its Contracting States
      in_force: {from: 1997-01-01, until: 2030-12-31}
      provisions: rules/pt-cz.yaml   # hand-written provisions, relative to DIR
    old-draft.txt: {skip: true}

A fragment whose parties are neither in the text nor in treaties.yaml cannot be matched to a
ledger row (rows are matched by their source and residence States), so it is skipped with a
warning naming the file and the fix. A stored treaty (DB: an SQLite file or database URL made
by `taxtreaty ingest`) is read with its stored parse tree and provisions.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from taxtreaty.provisions.model import ProvisionSet
from taxtreaty.rules.compile import CompiledTreaty, compile_treaty, merge_treaties
from taxtreaty.rules.decision import Decision
from taxtreaty.rules.handwritten import date_field, load_handwritten
from taxtreaty.rules.ledger import TreatyBook
from taxtreaty.rules.load import InForceWindow, compile_document
from taxtreaty.rules.load import load_treaty as compile_in_memory
from taxtreaty.rules.scenario import Scenario, scenario_from
from taxtreaty.structure import Document, parse, parse_file
from taxtreaty.text import InputError
from taxtreaty.versions import mli
from taxtreaty.versions.timeline import amendment, build

TREATY_SUFFIXES = {".txt", ".md", ".html", ".htm", ".xml"}
MAPPING_FILE = "treaties.yaml"
_ENTRY_KEYS = {"parties", "in_force", "provisions", "skip", "entry_into_force", "effect_until", "amends"}
Warn = Callable[[str], None]


# -- one treaty ------------------------------------------------------------------------------------


def compile_text(source: str | bytes, parties: list[str] | tuple[str, ...] | None = None,
                 in_force: InForceWindow | None = None, name: str | None = None) -> CompiledTreaty:
    """A convention's text (str, or bytes in any common encoding) parsed, its provisions extracted
    and compiled into rules."""
    return compile_document(parse(source), parties, None, in_force, name=name)


def load_treaty(treaty: Any, parties: list[str] | tuple[str, ...] | None = None,
                in_force: InForceWindow | None = None, db: str | None = None, dates: Any = None) -> CompiledTreaty:
    """A CompiledTreaty from a CompiledTreaty, a Document, a (Document, ProvisionSet) pair, a file
    path or, when no file has that name, a stored treaty id (in the store `db`, or the default one)."""
    if isinstance(treaty, str | os.PathLike) and not Path(treaty).exists():
        if in_force is not None or dates is not None:
            raise InputError("dates of effect can only be given with a treaty file")
        try:
            found = load_store(db, lambda _message: None, str(treaty), parties)
        except InputError as exc:
            raise InputError(f"{treaty}: no such file, and {exc}") from None
        if not found:  # pragma: no cover - load_store raises when the id is unknown
            raise InputError(f"{treaty}: no such file or stored treaty")
        return found[0]
    return compile_in_memory(treaty, parties, in_force, dates)


def with_amendments(base: CompiledTreaty, doc: Document, paths: list[str],
                    entry_into_force: dt.date | None = None) -> CompiledTreaty:
    """The convention in `doc` (compiled as `base`) with the amending instruments in `paths`."""
    found = []
    for path in paths:
        parsed = parse_file(path)
        if parsed.instrument is None or not parsed.instrument.amending:
            raise InputError(f"{path}: not an amending instrument (no modification of the convention found)")
        found.append(amendment(Path(path).name, parsed, entry_into_force=entry_into_force))
    return build(base, doc, found, base.parties)


def decide(treaty: Any, scenario: Scenario | dict[str, Any], *, parties: list[str] | tuple[str, ...] | None = None,
           in_force: InForceWindow | None = None) -> Decision:
    """Who may tax this income, at what rate, with what relief, and the words that say so, for
    whatever names the treaty (see `load_treaty`); an indeterminate answer asks its missing facts
    (`Decision.questions`), each answer with the outcome it leads to."""
    from taxtreaty.rules.questions import explain

    facts = scenario_from(scenario)
    return explain(load_treaty(treaty, parties, in_force), facts)


# -- a directory of treaty files -------------------------------------------------------------------

def _mapping(folder: Path, path: Path | None = None) -> dict[str, dict[str, Any]]:
    path = path or folder / MAPPING_FILE
    if not path.exists():
        return {}
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(raw, dict):
        raise InputError(f"{path}: expected a mapping of file name -> settings")
    for name, entry in raw.items():
        if not isinstance(entry, dict):
            raise InputError(f"{path}: {name}: expected a mapping")
        unknown = set(entry) - _ENTRY_KEYS
        if unknown:
            raise InputError(f"{path}: {name}: unknown key {sorted(unknown)[0]!r}")
        if not (folder / str(name)).is_file():
            raise InputError(f"{path}: {name}: no such file in {folder}")
    return {str(k): v for k, v in raw.items()}


def _parties(value: Any, where: str) -> list[str] | None:
    if value is None:
        return None
    # YAML 1.1 reads an unquoted NO (Norway) as false: the only ISO code it turns into a boolean
    codes = ([("NO" if c is False else str(c)).strip().upper() for c in value] if isinstance(value, list)
             else str(value).upper().split(","))
    if len(codes) != 2 or not all(len(c) == 2 and c.isalpha() for c in codes):
        raise InputError(f"{where}: parties takes two ISO 3166 codes such as [PT, CZ]")
    return codes


def given_dates(entry: dict[str, Any], where: str) -> Any:
    """`entry_into_force:` / `effect_until:` of a metadata entry, for `rules.dates`."""
    from taxtreaty.rules.dates import GivenDates

    eif = date_field(entry.get("entry_into_force"), where) if entry.get("entry_into_force") is not None else None
    until = date_field(entry.get("effect_until"), where) if entry.get("effect_until") is not None else None
    return GivenDates(eif, until) if eif or until else None


def compile_file(path: Path, entry: dict[str, Any] | None = None, folder: Path | None = None,
                 doc: Any = None) -> CompiledTreaty:
    entry = entry or {}
    where = f"{folder / MAPPING_FILE if folder else path}: {path.name}"
    parties = _parties(entry.get("parties"), where)
    window = entry.get("in_force")
    in_force = None
    if window is not None:
        if not isinstance(window, dict) or set(window) - {"from", "until"}:
            raise InputError(f"{where}: in_force takes 'from' and 'until' dates")
        in_force = (date_field(window.get("from"), where), date_field(window.get("until"), where))
    doc = doc if doc is not None else parse_file(str(path))
    dates = given_dates(entry, where)
    handwritten = Path(folder or path.parent) / str(entry["provisions"]) if entry.get("provisions") else None
    sibling = path.with_name(path.stem + ".provisions.yaml")
    if handwritten is None and sibling.exists():
        handwritten = sibling
    if handwritten is not None:
        provisions, file_window = load_handwritten(handwritten, doc)
        parties = parties or provisions.parties or None
        return compile_document(doc, parties, provisions, in_force or file_window, name=path.name, dates=dates)
    return compile_document(doc, parties, None, in_force, name=path.name, dates=dates)


def load_directory(folder: Path, warn: Warn, meta: Path | None = None,
                   unnamed: list[str] | None = None) -> list[CompiledTreaty]:
    """Every treaty file of `folder`; `meta` is the metadata file to read instead of
    folder/treaties.yaml; the names of files skipped for want of their parties go to `unnamed`."""
    mapping = _mapping(folder, meta)
    treaties: list[CompiledTreaty] = []
    amending: list[tuple[Path, Any, dict[str, Any]]] = []
    bases: dict[str, tuple[CompiledTreaty, Any]] = {}
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.suffix.lower() not in TREATY_SUFFIXES or path.name.startswith("."):
            continue
        entry = mapping.get(path.name, {})
        if entry.get("skip"):
            continue
        try:
            doc = parse_file(str(path))
            if doc.instrument is not None and doc.instrument.amending:
                amending.append((path, doc, entry))
                continue
            treaty = compile_file(path, entry, folder, doc)
        except InputError as exc:
            warn(f"{path.name}: skipped: {exc}")
            continue
        bases[path.name] = (treaty, doc)
        if len(treaty.parties) != 2:
            warn(f"{path.name}: skipped: the text does not name its Contracting States; "
                 f"add '{path.name}: {{parties: [XX, YY]}}' to {meta or folder / MAPPING_FILE}")
            if unnamed is not None:
                unnamed.append(path.name)
            continue
        treaties.append(treaty)
    return _with_amendments(folder, treaties, bases, amending, warn)


def _with_amendments(folder: Path, treaties: list[CompiledTreaty], bases: dict[str, tuple[CompiledTreaty, Any]],
                     amending: list[tuple[Path, Any, dict[str, Any]]], warn: Warn) -> list[CompiledTreaty]:
    """Each amending instrument of the folder attached to its base convention (by parties and the date
    it names, or `amends: FILE`); one whose base is not there is applied to nothing."""
    from taxtreaty.versions.attach import Candidate, find_base
    from taxtreaty.versions.timeline import amendment, build

    candidates = [Candidate(name, tuple(t.parties), d.signed.date if d.signed else None) for name, (t, d) in bases.items()]
    found: dict[str, list[Any]] = {}
    for path, doc, entry in amending:
        where = f"{folder / MAPPING_FILE}: {path.name}"
        named = entry.get("amends")
        if named is not None and str(named) not in bases:
            warn(f"{path.name}: not applied: amends {named}, which is not a convention of {folder}")
            continue
        key, why = (str(named), "amends: given") if named is not None else find_base(doc.instrument, candidates)
        if key is None:
            warn(f"{path.name}: not applied: {why}")
            continue
        dates = given_dates(entry, where)
        found.setdefault(key, []).append(amendment(path.name, doc, entry_into_force=dates.entry_into_force if dates else None))
    out = []
    for treaty in treaties:
        base = next((name for name, (t, _d) in bases.items() if t is treaty), None)
        if base in found:
            treaty = build(treaty, bases[base][1], found[base], treaty.parties)
        out.append(treaty)
    return out


def load_store(location: str | None, warn: Warn, ref: str | None = None,
               parties: list[str] | tuple[str, ...] | None = None) -> list[CompiledTreaty]:
    try:
        from sqlalchemy import select
        from sqlalchemy.orm import Session

        from taxtreaty.store import Store
        from taxtreaty.store.export import load_parsed
        from taxtreaty.store.instruments import of_treaty
        from taxtreaty.store.positions import entries as mli_entries
        from taxtreaty.store.queries import resolve_treaty
        from taxtreaty.store.schema import Document, Treaty
    except ImportError:  # pragma: no cover - the store ships with the package
        raise InputError("the treaty store is not available in this installation") from None
    result: list[CompiledTreaty] = []
    with Store.open(location, create=False) as store, Session(store.engine) as session:
        positions = mli.from_entries(mli_entries(session), "the store's MLI positions")
        rows = [resolve_treaty(session, ref)] if ref else session.execute(select(Treaty).order_by(Treaty.id)).scalars().all()
        for treaty in rows:
            docs = session.execute(select(Document).where(Document.treaty_id == treaty.id).order_by(Document.id)).scalars().all()
            kinds = of_treaty(session, treaty.id)
            texts = []
            for row in docs:
                meta = kinds.get(row.id)
                texts.append(StoredText(
                    load_parsed(row),
                    ProvisionSet.model_validate_json(row.provisions_json) if row.provisions_json else None,
                    meta.kind if meta is not None else None, meta.status if meta is not None else None,
                    meta.entry_into_force if meta is not None else None, Path(row.path or f"document-{row.id}").name))
            codes = tuple(treaty.parties.split(",")) if treaty.parties else ()
            stored = StoredTreaty(treaty.id, codes, tuple(texts), stored_window(treaty),
                                  positions.get(frozenset(parties or codes)))
            merged = compile_stored(stored, parties)
            if merged is None:
                if texts:
                    warn(f"{treaty.id}: skipped: an amending instrument waiting for its base convention")
                continue
            if len(merged.parties) != 2 and not ref:
                warn(f"{treaty.id}: skipped: the stored texts do not name their Contracting States")
                continue
            result.append(merged)
    return result

def suggest_metadata(unnamed: list[str], folder: Path, meta: Path | None) -> Path | None:
    """A metadata file to fill in for the treaty files that do not name their States, written
    where the user can write (beside the output, never into the treaty folder); its path, or
    None when there is nowhere to write it."""
    target = folder / "treaties-suggested.yaml"
    if meta is not None and meta.resolve() == target.resolve():
        return None
    existing = _mapping(folder, meta) if meta is not None else {}
    lines = ["# Contracting States (ISO 3166 codes) of the treaty files that do not name them;",
             "# fill them in and give this file to taxtreaty ledger --meta."]
    for name, entry in existing.items():
        lines.append(yaml.safe_dump({name: entry}, default_flow_style=None, allow_unicode=True).strip())
    lines += [f"{name}: {{parties: [XX, YY]}}" for name in unnamed if name not in existing]
    try:
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    except OSError:
        return None
    return target


def stored_window(treaty: Any) -> InForceWindow | None:
    """The dates of effect a user gave the stored treaty (ingest/edit --in-force), if any."""
    start, end = getattr(treaty, "in_force_from", None), getattr(treaty, "in_force_until", None)
    if not start and not end:
        return None
    return (date_field(start, treaty.id) if start else None, date_field(end, treaty.id) if end else None)


@dataclass(frozen=True)
class StoredText:
    """One stored file of a treaty, as the store keeps it (or a server holds it in memory)."""

    document: Document
    #: the provisions stored with it (None: extracted when compiled)
    provisions: ProvisionSet | None = None
    #: what ingest recorded of it (store/instruments.py): the instrument's kind (None: read from
    #: the text), "applied" or "waiting", the entry into force given with `ingest --in-force`
    kind: str | None = None
    status: str | None = None
    entry_into_force: str | None = None
    name: str | None = None

    def amending(self) -> bool:
        if self.kind is not None:
            return self.kind in _AMENDING
        return self.document.instrument is not None and bool(self.document.instrument.amending)


@dataclass(frozen=True)
class StoredTreaty:
    """A stored treaty: its id, its Contracting States, its files in ingest order and the dates of
    effect a user gave it (`ingest/edit --effect`)."""

    name: str
    parties: tuple[str, ...]
    texts: tuple[StoredText, ...]
    in_force: InForceWindow | None = None
    #: the MLI positions the store keeps for its parties (`ingest --mli FILE`): they win over the shipped ones
    mli: Any = None

    def key(self, parties: list[str] | tuple[str, ...] | None = None) -> tuple[Any, ...]:
        """What the compiled treaty depends on: equal keys, equal rule sets (a cache key)."""
        positions = None if self.mli is None else json.dumps(self.mli.to_entry(), sort_keys=True)
        return (self.name, tuple(parties or self.parties), self.in_force, positions,
                tuple((t.document.source.sha256, t.kind, t.status, t.entry_into_force) for t in self.texts))


_AMENDING = {"amending_protocol", "exchange_of_notes"}


def compile_stored(stored: StoredTreaty, parties: list[str] | tuple[str, ...] | None = None) -> CompiledTreaty | None:
    """A stored treaty as one rule set: THE decision every surface gives on a stored treaty
    (`ask --treaty ID`, the CLI ledger and rates over a store, `POST /ask`, `POST /ledger`,
    `GET /rates` and the web all compile it here). Its conventions' files are compiled with the
    treaty's parties (or `parties`), the dates of effect a user gave and the entry into force
    given at ingest, and merged (`merge_treaties`: for each topic, the file that holds its
    article with the most rules); the amending instruments applied to it make its versions over
    time. None when no file is a convention (an instrument waiting for its base)."""
    codes = list(parties or stored.parties) or None
    dates = None
    for text in stored.texts:
        if not text.amending() and text.entry_into_force:
            from taxtreaty.rules.dates import GivenDates

            dates = GivenDates(entry_into_force=dt.date.fromisoformat(text.entry_into_force))
    compiled, amendments, base_doc = [], [], None
    for text in stored.texts:
        if text.amending():
            if text.status in (None, "applied"):
                eif = dt.date.fromisoformat(text.entry_into_force) if text.entry_into_force else None
                amendments.append(amendment(text.name or text.document.source.sha256[:12], text.document,
                                            entry_into_force=eif))
            continue
        base_doc = base_doc or text.document
        if text.provisions is not None:
            compiled.append(compile_treaty(text.document, text.provisions, codes, stored.in_force, name=stored.name,
                                           dates=dates))
        else:
            compiled.append(compile_document(text.document, codes, None, stored.in_force, name=stored.name, dates=dates))
    if not compiled:
        return None
    merged = merge_treaties(compiled)
    if amendments and base_doc is not None:
        merged = build(merged, base_doc, amendments, merged.parties)
    stored_positions = {stored.mli.parties: stored.mli} if stored.mli is not None else None
    return mli.attach(merged, stored=stored_positions)  # again: the merged rules, not the first file's


def load_book(location: str, warn: Warn, parties_required: bool = True, *, meta: Path | None = None,
              unnamed: list[str] | None = None, mli_file: str | None = None) -> TreatyBook:
    """Every treaty of a directory or a store, keyed by the pair of its Contracting States; `mli_file`:
    MLI positions (a positions file) that win over the store's and the shipped ones for their pairs."""
    path = Path(location)
    if meta is not None and not path.is_dir():
        raise InputError("--meta goes with a directory of treaty files (a store keeps the parties itself: taxtreaty edit)")
    if path.is_dir():
        treaties = load_directory(path, warn, meta, unnamed)
        where = f"directory {location}"
    elif "://" in location or path.suffix.lower() in (".sqlite", ".db", ".sqlite3"):
        treaties = load_store(location, warn)
        where = f"store {location}"
    elif path.exists():
        raise InputError(f"--treaties takes a directory of treaty files or a store (got the file {location})")
    else:
        raise InputError(f"--treaties: no such directory or store: {location}")
    if not treaties:
        raise InputError(f"no treaty with known Contracting States in {where}")
    if mli_file is not None:
        given = mli.read_positions(mli_file)
        treaties = [mli.with_positions(t, p) if (p := given.get(frozenset(t.parties))) is not None else t for t in treaties]
    return TreatyBook(treaties)

__all__ = [
    "MAPPING_FILE",
    "TREATY_SUFFIXES",
    "StoredText",
    "StoredTreaty",
    "compile_document",
    "compile_file",
    "compile_stored",
    "compile_text",
    "decide",
    "load_book",
    "load_directory",
    "load_store",
    "load_treaty",
    "stored_window",
    "suggest_metadata",
    "with_amendments",
]
