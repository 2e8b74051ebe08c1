"""MLI positions kept in the store (`taxtreaty ingest --mli FILE`, migration 0007).

Which MLI articles modify a covered tax agreement, and from when, is data the user gives
(`taxtreaty.versions.mli` reads and checks it); the store keeps each agreement's entry, in the
shape of a positions file, so that every surface deciding on a stored treaty (`ask --treaty ID`,
`ledger`, `rates`, `compare`, `POST /ask`, `POST /ledger`, `GET /rates`, the web) applies the same
positions: `taxtreaty.pipeline.load_store` and the HTTP store backend read them here. An entry for
the same pair of States replaces the one before it.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, select

from taxtreaty.store.schema import MliPositionRow


def store_entries(engine: Engine, entries: list[dict[str, Any]], source: str) -> list[str]:
    """Keep these agreements' positions (checked by the caller); the pairs stored, as "EE,NO"."""
    stored = []
    with engine.begin() as connection:
        for entry in entries:
            parties = ",".join(sorted(str(p).upper() for p in entry["parties"]))
            connection.execute(delete(MliPositionRow).where(MliPositionRow.parties == parties))
            connection.execute(MliPositionRow.__table__.insert().values(
                parties=parties, entry=json.dumps(entry, sort_keys=True), source=source))
            stored.append(parties)
    return stored


def entries(connection: Connection | Any) -> list[dict[str, Any]]:
    """Every stored agreement's entry, in a positions file's shape."""
    rows = connection.execute(select(MliPositionRow.entry).order_by(MliPositionRow.parties)).scalars().all()
    return [json.loads(row) for row in rows]


def generation(connection: Connection | Any) -> tuple[Any, ...]:
    """Changes whenever positions are stored (a replaced entry gets a new id)."""
    return tuple(connection.execute(select(func.count(MliPositionRow.id), func.max(MliPositionRow.id))).one())
