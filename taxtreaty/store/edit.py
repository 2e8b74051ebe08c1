"""What a user says about a treaty that its texts do not: parties, signature date, dates of effect.

`ingest --parties PT,CZ --signed 1994-07-01 --effect 1997-01-01[:2030-12-31]` applies them to
every file of that run before its provisions are extracted (so the rules know which State is
which); `taxtreaty edit TREATY --parties ...` changes them later: the treaty row, the stored
parse trees and the provisions (extracted again with the new parties). Either way every change
is a row of `treaty_history` with the value before and after, when, and how, so nothing a user
said is lost or silent. `list`, `rates`, `ask` and ledgers then find the treaty by its States.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, delete, insert, select, update

from taxtreaty.store.schema import Document, ProvisionRow, Treaty, TreatyHistory
from taxtreaty.text import InputError

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_STATE = re.compile(r"^[A-Z]{2}$")


@dataclass(frozen=True)
class TreatyFacts:
    """Facts given by the user; None = not given (the text's own, if any, stands)."""

    parties: tuple[str, ...] | None = None
    signed: str | None = None
    in_force_from: str | None = None
    in_force_until: str | None = None

    @property
    def empty(self) -> bool:
        return self.parties is None and self.signed is None and self.in_force_from is None and self.in_force_until is None


def parse_parties(value: str | None, option: str = "--parties") -> tuple[str, ...] | None:
    if value is None:
        return None
    codes = tuple(c.strip().upper() for c in value.split(",") if c.strip())
    if len(codes) != 2 or not all(_STATE.match(c) for c in codes) or codes[0] == codes[1]:
        raise InputError(f"{option} takes two different ISO 3166 codes such as PT,CZ (got {value!r})")
    return tuple(sorted(codes))


def parse_date(value: str | None, option: str) -> str | None:
    if value is None:
        return None
    text = value.strip()
    try:
        if not _ISO_DATE.match(text):
            raise ValueError(text)
        dt.date.fromisoformat(text)
    except ValueError:
        raise InputError(f"{option} takes a date as YYYY-MM-DD (got {value!r})") from None
    return text


def parse_in_force(value: str | None, option: str = "--effect") -> tuple[str | None, str | None]:
    """`FROM`, `FROM:UNTIL` or `:UNTIL`."""
    if value is None:
        return None, None
    start, _, end = value.partition(":")
    found = parse_date(start, option) if start.strip() else None, parse_date(end, option) if end.strip() else None
    if found == (None, None):
        raise InputError(f"{option} takes FROM, FROM:UNTIL or :UNTIL as YYYY-MM-DD dates (got {value!r})")
    if found[0] and found[1] and found[1] < found[0]:
        raise InputError(f"{option}: the end {found[1]} is before the start {found[0]}")
    return found


def facts_from_options(parties: str | None, signed: str | None, in_force: str | None) -> TreatyFacts:
    start, end = parse_in_force(in_force)
    return TreatyFacts(parse_parties(parties), parse_date(signed, "--signed"), start, end)


def apply_to_document(doc: Any, facts: TreatyFacts | None) -> None:
    """Set the given facts on a parsed Document, before its provisions are read."""
    if facts is None:
        return
    if facts.parties is not None:
        doc.parties = list(facts.parties)
    if facts.signed is not None:
        from taxtreaty.structure.model import Signed

        if doc.signed is None:
            doc.signed = Signed(date=facts.signed, place=None)
        else:
            doc.signed.date = facts.signed


def record(connection: Connection, treaty_id: str, field: str, old: str | None, new: str | None, how: str) -> None:
    connection.execute(insert(TreatyHistory).values(treaty_id=treaty_id, field=field, old_value=old, new_value=new,
                                                    how=how, changed_at=dt.datetime.now(dt.UTC).replace(tzinfo=None)))


def set_facts(connection: Connection, treaty_id: str, facts: TreatyFacts, how: str) -> list[tuple[str, str | None, str | None]]:
    """Write the given facts onto the treaty row, each change recorded; returns the changes."""
    row = connection.execute(select(Treaty).where(Treaty.id == treaty_id)).mappings().first()
    if row is None:
        raise InputError(f"no treaty {treaty_id!r} in the store")
    wanted = {
        "parties": ",".join(facts.parties) if facts.parties is not None else None,
        "signed_date": facts.signed,
        "in_force_from": facts.in_force_from,
        "in_force_until": facts.in_force_until,
    }
    changes = [(field, row[field], value) for field, value in wanted.items() if value is not None and value != row[field]]
    if changes:
        connection.execute(update(Treaty).where(Treaty.id == treaty_id).values({f: new for f, _old, new in changes}))
        for field, old, new in changes:
            record(connection, treaty_id, field, old, new, how)
    return changes


def edit(engine: Engine, treaty_id: str, facts: TreatyFacts) -> list[tuple[str, str | None, str | None]]:
    """`taxtreaty edit`: change a stored treaty's facts in one transaction. With new parties, each
    document's tree and provisions are made again with them (the rules read which State is which)."""
    if facts.empty:
        raise InputError("nothing to change: give --parties, --signed or --effect")
    with engine.begin() as connection:
        changes = set_facts(connection, treaty_id, facts, "edit")
        if any(field in ("parties", "signed_date") for field, _old, _new in changes):
            _redo_documents(connection, treaty_id, facts)
    return changes


def _redo_documents(connection: Connection, treaty_id: str, facts: TreatyFacts) -> None:
    from taxtreaty.store.export import load_parsed
    from taxtreaty.store.rows import provision_rows

    documents = connection.execute(select(Document.id, Document.tree, Document.original)
                                   .where(Document.treaty_id == treaty_id).order_by(Document.id)).all()
    for stored in documents:
        doc = load_parsed(stored)  # type: ignore[arg-type]  # a row with .tree and .original
        apply_to_document(doc, facts)
        provisions_json, _error, rows = provision_rows(doc)
        connection.execute(update(Document).where(Document.id == stored.id).values(
            tree=doc.model_dump_json(), provisions_json=provisions_json,
            parties=",".join(sorted(doc.parties)) or None,
            signed_date=doc.signed.date if doc.signed else None, n_provisions=len(rows)))
        connection.execute(delete(ProvisionRow).where(ProvisionRow.document_id == stored.id))
        if rows:
            connection.execute(insert(ProvisionRow), [{**r, "document_id": stored.id, "treaty_id": treaty_id} for r in rows])


def history(engine: Engine, treaty_id: str) -> list[dict[str, Any]]:
    with engine.connect() as connection:
        rows = connection.execute(select(TreatyHistory).where(TreatyHistory.treaty_id == treaty_id)
                                  .order_by(TreatyHistory.id)).mappings().all()
    return [{"field": r["field"], "old": r["old_value"], "new": r["new_value"], "how": r["how"],
             "at": r["changed_at"].isoformat(timespec="seconds")} for r in rows]
