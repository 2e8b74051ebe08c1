"""Turn what names a treaty in memory or on disk (a compiled rule set, a parsed Document, a file)
into a `CompiledTreaty`, compiling each one once.

Compiling needs the treaty's provisions; they come from `taxtreaty.provisions.extract_provisions`
(or are passed in with the document). Parsed files are cached by path, size and modification
time, so deciding many scenarios against one file parses it once.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

from taxtreaty.provisions.model import ProvisionSet
from taxtreaty.rules.compile import CompiledTreaty, compile_treaty
from taxtreaty.structure import Document, parse_file
from taxtreaty.text import InputError

InForceWindow = tuple[dt.date | None, dt.date | None]
_CACHE: dict[tuple[Any, ...], CompiledTreaty] = {}
_CACHE_SIZE = 64


def extract(doc: Document, parties: list[str] | None) -> ProvisionSet:
    """The document's provisions, from the provisions stage."""
    try:
        from taxtreaty.provisions import extract_provisions  # type: ignore[attr-defined]
    except ImportError:
        try:
            from taxtreaty.provisions.extract import extract_provisions  # type: ignore[no-redef]
        except ImportError:
            raise InputError(
                "cannot read rules from a treaty text: the provisions extractor "
                "(taxtreaty.provisions.extract_provisions) is not installed"
            ) from None
    return extract_provisions(doc, parties)


def _parties(doc: Document, parties: list[str] | tuple[str, ...] | None) -> list[str] | None:
    codes = list(parties or doc.parties or [])
    return codes or None


def compile_document(
    doc: Document,
    parties: list[str] | tuple[str, ...] | None = None,
    provisions: ProvisionSet | None = None,
    in_force: InForceWindow | None = None,
    name: str | None = None,
    dates: Any = None,
) -> CompiledTreaty:
    if doc.instrument is not None and doc.instrument.amending:
        base = doc.instrument.base
        named = f" of {base.date}" if base is not None and base.date else ""
        raise InputError(f"{doc.source.path or 'the text'} is an {doc.instrument.kind.replace('_', ' ')} of the convention{named}, "
                         "not a convention: decide on the convention with it (ingest both, or ask --amendment)")
    codes = _parties(doc, parties)
    if codes:
        doc.parties = list(codes)
    found = provisions if provisions is not None else extract(doc, codes)
    from taxtreaty.versions.mli import attach  # the MLI positions shipped for its parties, if any

    return attach(compile_treaty(doc, found, codes, in_force=in_force, name=name, dates=dates))


def _remember(key: tuple[Any, ...], treaty: CompiledTreaty) -> None:
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = treaty


def load_treaty(
    treaty: Any,
    parties: list[str] | tuple[str, ...] | None = None,
    in_force: InForceWindow | None = None,
    dates: Any = None,
) -> CompiledTreaty:
    """A CompiledTreaty from a CompiledTreaty, a Document, a (Document, ProvisionSet) pair or a
    file path (a stored treaty id: `taxtreaty.pipeline.load_treaty`)."""
    if isinstance(treaty, CompiledTreaty):
        return treaty
    if isinstance(treaty, tuple) and len(treaty) == 2 and isinstance(treaty[0], Document):
        return compile_document(treaty[0], parties, treaty[1], in_force, dates=dates)
    if isinstance(treaty, Document):
        key = (treaty.source.sha256, tuple(parties or treaty.parties or ()), in_force, dates)
        cached = _CACHE.get(key) if treaty.source.sha256 else None
        if cached is None:
            cached = compile_document(treaty, parties, None, in_force, dates=dates)
            _remember(key, cached)
        return cached
    if isinstance(treaty, str | os.PathLike):
        path = Path(treaty)
        if not path.exists():
            raise InputError(f"{path}: no such file")
        if path.is_dir():
            raise InputError(f"{path} is a directory; give one treaty file")
        stat = path.stat()
        key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns, tuple(parties or ()), in_force, dates)
        cached = _CACHE.get(key)
        if cached is None:
            cached = compile_document(parse_file(str(path)), parties, None, in_force, name=path.name, dates=dates)
            _remember(key, cached)
        return cached
    raise InputError(f"cannot read a treaty from a {type(treaty).__name__}")
