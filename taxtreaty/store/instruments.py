"""Amending instruments in the store: linked to the convention they amend, or waiting for it.

An amending protocol names its base by parties and the date of signature ("el Convenio del 13 de
julio de 1978"). On ingest it is put with the stored treaty of the same parties signed on that
date; `--treaty ID` puts it with that treaty explicitly. With no such treaty it is stored under a
treaty of its own marked as waiting for its base, and applied to nothing. When the base is
ingested later, the waiting instrument moves to it. `taxtreaty.pipeline.load_store` builds the
versions of a treaty from the instruments linked to it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, delete, select, update

from taxtreaty.store.grouping import Placement, _unique_id
from taxtreaty.store.schema import ArticleRow, Document, InstrumentRow, Passage, ProvisionRow, Treaty

AMENDING = {"amending_protocol", "exchange_of_notes"}


def is_amending(instrument: dict[str, Any]) -> bool:
    return instrument.get("kind") in AMENDING


def place_amending(connection: Connection, instrument: dict[str, Any], explicit: str | None,
                   signed: str | None) -> tuple[Placement, str, str]:
    """(placement, status, reason) for an amending instrument."""
    parties, date = instrument.get("base_parties"), instrument.get("base_date")
    if explicit:
        found = connection.execute(select(Treaty.id).where(Treaty.id == explicit)).first()
        if found is not None:
            return Placement(explicit, False, "", "explicit --treaty"), "applied", "amends the treaty named with --treaty"
    if parties and date:
        found = connection.execute(select(Treaty.id).where(Treaty.parties == parties, Treaty.signed_date == date)).first()
        if found is not None:
            why = f"amends the convention {parties.replace(',', '–')} signed on {date}"
            return Placement(found[0], False, "", why), "applied", why
    named = f"{parties.replace(',', '–')} signed on {date}" if parties and date else \
        "that it names (the text does not say which: give --treaty ID)"
    why = f"waiting for its base: the convention {named} is not in the store"
    base = explicit or "-".join(filter(None, [(parties or "").replace(",", "-"), (signed or "")[:4], "amendment"]))
    title = f"Amending instrument {('of the convention ' + named) if parties and date else '(base not named)'}"
    return Placement(_unique_id(connection, base), True, title, why), "waiting", why


def record(connection: Connection, document_id: int, treaty_id: str, instrument: dict[str, Any],
           status: str, reason: str, entry_into_force: str | None) -> None:
    if not instrument and not entry_into_force:
        return
    connection.execute(InstrumentRow.__table__.insert().values(
        document_id=document_id, kind=instrument.get("kind") or "convention", treaty_id=treaty_id, status=status,
        base_parties=instrument.get("base_parties"), base_date=instrument.get("base_date"),
        entry_into_force=entry_into_force, reason=reason,
    ))


def link_waiting(connection: Connection, treaty_id: str, parties: str | None, signed: str | None) -> list[str]:
    """Move the instruments waiting for this convention to it; the holders left empty are removed."""
    if not parties or not signed:
        return []
    rows = connection.execute(select(InstrumentRow.document_id, InstrumentRow.treaty_id).where(
        InstrumentRow.status == "waiting", InstrumentRow.base_parties == parties, InstrumentRow.base_date == signed)).all()
    moved = []
    for document_id, holder in rows:
        for table in (Document, ArticleRow, Passage, ProvisionRow):
            column = table.id if table is Document else table.document_id
            connection.execute(update(table).where(column == document_id).values(treaty_id=treaty_id))
        connection.execute(update(InstrumentRow).where(InstrumentRow.document_id == document_id).values(
            treaty_id=treaty_id, status="applied",
            reason=f"amends the convention {parties.replace(',', '–')} signed on {signed}"))
        if connection.execute(select(Document.id).where(Document.treaty_id == holder)).first() is None:
            connection.execute(delete(Treaty).where(Treaty.id == holder))
        moved.append(holder)
    return moved


def of_treaty(connection: Any, treaty_id: str) -> dict[int, Any]:
    """document id -> its instrument row, for the documents of a treaty."""
    rows = connection.execute(select(InstrumentRow).where(InstrumentRow.treaty_id == treaty_id)).scalars().all()
    return {row.document_id: row for row in rows}
