"""`--as-of DATE` for `show`, `compare` and `export`: the text of a stored treaty in effect on that day.

The treaty is compiled as every decision compiles it (`pipeline.load_store` -> `compile_stored`:
its amending instruments applied), and `versions.as_of.version_on` picks the version of that day.
A treaty with no stored amending instrument has one version, the stored text: the commands then
say so on stderr and show it as without `--as-of`.
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


def export_version(version: Any, treaty: str, fmt: str, language: str | None) -> str:
    """The version as `export` prints it: Akoma Ntoso or JSON (its tree, what it applies)."""
    import json

    if fmt == "akn":
        from taxtreaty.structure.akn import to_akn

        return to_akn([version.document], language=language)
    if fmt == "json":
        return json.dumps({"treaty": treaty, "version": version.describe(),
                           "documents": [{"tree": version.document.model_dump(mode="json")}]}, ensure_ascii=False, indent=2)
    raise InputError("--as-of goes with --format akn or json (the passages of csv are the stored texts')")


def compared_text(db: str | None, treaty: str, value: str) -> tuple[str, Any]:
    """(treaty id, ((the version's document, its provisions), what the version is) or None) for
    `compare --as-of`: the provisions read from the version's own text."""
    from taxtreaty.provisions import extract_provisions

    version, name = version_for(db, treaty, value)
    if version is None:
        return name, None
    doc = version.document
    return name, ((doc, extract_provisions(doc, list(doc.parties) or None)), {**version.describe(), "note": version.note()})
