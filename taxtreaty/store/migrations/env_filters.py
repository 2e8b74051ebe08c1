"""What schema comparison ignores: the backend-specific full-text index (see `fts.py`)."""

from __future__ import annotations

from typing import Any

from taxtreaty.store.fts import FTS_OBJECTS


def include_object(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    return not (name and (name in FTS_OBJECTS or name.startswith("passages_fts") or name == "alembic_version"))
