"""`--as-of DATE` for `show`, `compare` and `export`: the text of a stored treaty in effect on that day.

The treaty is compiled as every decision compiles it (`pipeline.load_store` -> `compile_stored`:
its amending instruments applied), and `versions.as_of.version_on` picks the version of that day.
A treaty with no stored amending instrument has one version, the stored text: the commands then
say so on stderr and show it as without `--as-of`.

`export_text` is `taxtreaty export`: Akoma Ntoso (each expression with its lifecycle and passive
modifications, `versions.history`), JSON or CSV, of the stored text or of the version of a day.
The CSV of a version has the stored export's columns and `words_from`: each passage's sha256 and
span are those of the stored text its words come from (the base convention or the instrument
that gave them), so a span quotes that file.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from taxtreaty.text import InputError


def read_day(value: str, option: str = "--as-of") -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise InputError(f"{option} takes a date as YYYY-MM-DD (got {value!r})") from None


def version_for(db: str | None, treaty: str, value: str) -> tuple[Any, str]:
    """(the version in effect on the day, or None when the stored text is the only one; the treaty id)."""
    from taxtreaty.pipeline import load_store
    from taxtreaty.versions.as_of import version_on

    day = read_day(value)
    found = load_store(db, lambda _m: None, treaty)
    if not found:
        raise InputError(f"{treaty}: no convention stored to show as of {day} (an amending instrument waiting for its base)")
    return version_on(found[0], day), found[0].name


def export_version(version: Any, treaty: str, fmt: str, language: str | None, history: Any = None,
                   shas: dict[str, str] | None = None) -> str:
    """The version as `export` prints it: Akoma Ntoso, JSON (its tree, what it applies) or CSV
    (its passages; `shas`: stored text name -> sha256, "base" the convention's)."""
    import json

    if fmt == "akn":
        from taxtreaty.structure.akn import to_akn

        return to_akn([version.document], language=language, history=history)
    if fmt == "json":
        return json.dumps({"treaty": treaty, "version": version.describe(),
                           "documents": [{"tree": version.document.model_dump(mode="json")}]}, ensure_ascii=False, indent=2)
    return _version_csv(version, treaty, shas or {})


def _version_csv(version: Any, treaty: str, shas: dict[str, str]) -> str:
    import csv
    import io

    from taxtreaty.csvsafe import csv_cell
    from taxtreaty.store.export import CSV_COLUMNS
    from taxtreaty.store.rows import article_passages, protocol_passages
    from taxtreaty.versions.consolidate import BASE

    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*CSV_COLUMNS, "words_from"])
    consolidated = version.consolidated
    for part in version.document.versions:
        rows = [row for article in part.articles for row in article_passages(part.language, article)]
        rows += [row for protocol in part.protocols for row in protocol_passages(part.language, protocol)]
        for row in rows:
            start, end = row["span_start"], row["span_end"]
            found = consolidated.source_span(start, end) if consolidated is not None else (BASE, (start, end))
            source, span = found if found is not None else (consolidated.source_at(start), ("", ""))
            source = source or BASE
            writer.writerow([csv_cell(v) for v in (
                treaty, shas.get(source, ""), row["language"], row["eid"], row["article_number"],
                row["paragraph_number"] or "", row["topic"] or "", row["complete"], span[0], span[1], row["text"],
                "base" if source == BASE else source)])
    return out.getvalue()


def export_text(db: str | None, treaty: str, fmt: str, language: str | None, as_of: str | None) -> tuple[str, str | None]:
    """(`taxtreaty export`'s output, a note for stderr or None)."""
    from pathlib import Path

    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from taxtreaty.pipeline import load_store
    from taxtreaty.store import Store
    from taxtreaty.store.export import FORMATS
    from taxtreaty.store.queries import resolve_treaty
    from taxtreaty.store.schema import Document
    from taxtreaty.versions.as_of import version_on
    from taxtreaty.versions.history import akn_history

    if fmt not in FORMATS:
        raise InputError(f"unknown export format {fmt!r} (one of: {', '.join(FORMATS)})")
    if language is not None and fmt != "akn":
        raise InputError("--language goes with --format akn")
    day = read_day(as_of) if as_of is not None else None
    compiled = None
    if day is not None or fmt == "akn":
        found = load_store(db, lambda _m: None, treaty)
        compiled = found[0] if found else None
        if day is not None and compiled is None:
            raise InputError(f"{treaty}: no convention stored to show as of {day} "
                             "(an amending instrument waiting for its base)")
    version = version_on(compiled, day) if day is not None and compiled is not None else None
    note = None
    if day is not None and version is None:
        note = f"{compiled.name if compiled else treaty}: no amending instrument is stored: the stored text is its only version"
    history = akn_history(compiled, day if version is not None else None) if fmt == "akn" and compiled else None
    with Store.open(db, create=False) as store:
        if version is None:
            return store.export(treaty, fmt, language, history=history), note
        shas: dict[str, str] = {}
        with Session(store.engine) as session:
            stored = resolve_treaty(session, treaty)
            for row in session.execute(select(Document).where(Document.treaty_id == stored.id)).scalars():
                shas[Path(row.path or f"document-{row.id}").name] = row.sha256
    from taxtreaty.versions.consolidate import BASE

    timeline = compiled.timeline  # type: ignore[union-attr]
    shas[BASE] = timeline.versions[0].doc.source.sha256
    return export_version(version, compiled.name, fmt, language, history, shas), note  # type: ignore[union-attr]


def compared_text(db: str | None, treaty: str, value: str) -> tuple[str, Any]:
    """(treaty id, ((the version's document, its provisions), what the version is) or None) for
    `compare --as-of`: the provisions read from the version's own text."""
    from taxtreaty.provisions import extract_provisions

    version, name = version_for(db, treaty, value)
    if version is None:
        return name, None
    doc = version.document
    return name, ((doc, extract_provisions(doc, list(doc.parties) or None)), {**version.describe(), "note": version.note()})
