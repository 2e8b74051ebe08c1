"""The parser's entry points, with the instrument recognised (`instrument.py`).

`parse`, `parse_file` and `parse_text` are those of `parse.py`, plus `Document.instrument`. A text
without any article of a convention that amends one ("Sustitúyese el apartado 4 del Artículo 23 del
Convenio por el siguiente: ...") is an amending instrument, not a refusal: it comes back as a
Document with no language versions and its modifications.
"""

from __future__ import annotations

import hashlib
import importlib
import os

from taxtreaty.structure import instrument as instruments
from taxtreaty.structure.model import Document, Source
from taxtreaty.text import clean, decode_bytes
from taxtreaty.text.decode import read_page

_parse = importlib.import_module("taxtreaty.structure.parse")


def _instrument_only(text: str, raw: bytes, path: str | os.PathLike[str] | None, encoding: str) -> Document | None:
    ct = clean(text)
    found = instruments.recognise(ct, text, None)
    if not found.amending:
        return None
    doc = Document(source=Source(path=path, sha256=hashlib.sha256(raw).hexdigest(), bytes=len(raw), encoding=encoding),
                   instrument=found)
    doc._original = text
    doc._clean = ct
    from taxtreaty.structure.metadata import states_named

    found.base = found.base or instruments.BaseReference()
    if not found.base.parties:
        named = states_named(ct.text[: instruments._HEAD])
        found.base.parties = named[:2] if len(named) >= 2 else []
    doc.parties = list(found.base.parties)
    return doc


def parse_text(original: str, *, path: str | os.PathLike[str] | None = None, data: bytes | None = None,
               encoding: str = "utf-8", decode_warnings: list[str] | None = None,
               convention: int | None = None) -> Document:
    try:
        doc = _parse.parse_text(original, path=path, data=data, encoding=encoding, decode_warnings=decode_warnings,
                                convention=convention)
    except _parse.NoArticlesError:
        doc = _instrument_only(original, data if data is not None else original.encode("utf-8"), path, encoding)
        if doc is None:
            raise
        return doc
    return instruments.annotate(doc)


def parse(source: str | bytes, *, path: str | os.PathLike[str] | None = None,
          convention: int | None = None) -> Document:
    """Parse a treaty text (str, or bytes in any common encoding) into a `Document`; of a file
    holding several conventions, the one numbered `convention` (else it is refused, naming them).
    A path (`pathlib.Path`) is read as the file it names, as `parse_file` does."""
    if isinstance(source, os.PathLike):
        return parse_file(source, convention=convention)
    if not isinstance(source, str | bytes):
        raise TypeError(f"parse() takes the text (str), its bytes or a path, not {type(source).__name__}")
    try:
        return instruments.annotate(_parse.parse(source, path=path, convention=convention))
    except _parse.NoArticlesError:
        if isinstance(source, bytes):
            decoded = decode_bytes(source)
            doc = _instrument_only(decoded.text, source, path, decoded.encoding)
        else:
            text = read_page(source[1:] if source.startswith("\ufeff") else source, [])
            doc = _instrument_only(text, source.encode("utf-8"), path, "utf-8")
        if doc is None:
            raise
        return doc


def parse_file(path: str | os.PathLike[str], convention: int | None = None) -> Document:
    """Parse the file at `path` (a `str` or any path-like object; the document keeps it as text);
    `convention` chooses one of a file holding several."""
    name, data = _parse.read_file(path)
    return parse(data, path=name, convention=convention)
