"""Export a stored treaty: its parse trees and provisions (json), its passages (csv), or AKN XML."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from taxtreaty.csvsafe import csv_cell
from taxtreaty.store.queries import resolve_treaty
from taxtreaty.store.schema import Document, Passage
from taxtreaty.structure.model import Document as ParsedDocument
from taxtreaty.text import InputError

FORMATS = ("akn", "json", "csv")
#: the columns of `export --format csv` (one row a passage)
CSV_COLUMNS = ("treaty", "sha256", "language", "eid", "article", "paragraph", "topic", "complete",
               "span_start", "span_end", "text")
__all__ = ["CSV_COLUMNS", "FORMATS", "csv_cell", "export", "load_parsed"]


def load_parsed(doc: Document) -> ParsedDocument:
    parsed = ParsedDocument.model_validate_json(doc.tree)
    parsed._original = doc.original
    return parsed


def export(connection: Session, ref: str, fmt: str, language: str | None = None, history: Any = None) -> str:
    """The stored treaty `ref` as `fmt`; Akoma Ntoso with the lifecycle and passive modifications
    `history` (a `structure.akn_history.History`) gives."""
    if fmt not in FORMATS:
        raise InputError(f"unknown export format {fmt!r} (one of: {', '.join(FORMATS)})")
    if language is not None and fmt != "akn":
        raise InputError("--language goes with --format akn")
    t = resolve_treaty(connection, ref)
    docs = connection.execute(select(Document).where(Document.treaty_id == t.id).order_by(Document.id)).scalars().all()
    if fmt == "json":
        payload = {
            "treaty": {"id": t.id, "title": t.title, "parties": t.parties.split(",") if t.parties else [],
                       "signed_date": t.signed_date, "prevailing_language": t.prevailing_language},
            "documents": [
                {"path": d.path, "sha256": d.sha256, "tree": json.loads(d.tree),
                 "provisions": json.loads(d.provisions_json) if d.provisions_json else None}
                for d in docs
            ],
        }
        return json.dumps(payload, ensure_ascii=False, indent=2)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        rows = connection.execute(
            select(Passage, Document.sha256).join(Document, Document.id == Passage.document_id)
            .where(Passage.treaty_id == t.id).order_by(Passage.document_id, Passage.language, Passage.article_id,
                                                       Passage.position)
        ).all()
        for p, sha in rows:
            writer.writerow([csv_cell(v) for v in (t.id, sha, p.language, p.eid, p.article_number, p.paragraph_number or "",
                                                   p.topic or "", p.complete, p.span_start, p.span_end, p.text)])
        return out.getvalue()
    from taxtreaty.structure.akn import to_akn

    # one document: the version alone, or every version of every stored file as a collection
    return to_akn([load_parsed(d) for d in docs], language=language, history=history)
