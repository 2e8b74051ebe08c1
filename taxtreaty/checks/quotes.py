"""Quotes of a cases file checked against the treaty's own text.

A case pack rests every expectation on the words it quotes. The check compares the quote with
the source file after the same light normalisation on both sides: markdown emphasis and
escapes (`**`, `\\.`), hashes that open a heading line, and runs of whitespace (line breaks of a
hard-wrapped text) are not words. Anything else must be there as printed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from taxtreaty.text import InputError, decode_bytes

_ESCAPE = re.compile(r"\\(?=[^\w\s])")
_EMPHASIS = re.compile(r"\*\*|__")
_HEADING_HASHES = re.compile(r"(?m)^\s*#+\s*")
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    text = _HEADING_HASHES.sub(" ", text)
    text = _ESCAPE.sub("", text)
    text = _EMPHASIS.sub("", text)
    return _SPACE.sub(" ", text).strip()


class QuoteChecker:
    """Normalised source texts, read once per file."""

    def __init__(self) -> None:
        self._texts: dict[Path, str | None] = {}

    def text(self, path: Path) -> str | None:
        path = path.resolve()
        if path not in self._texts:
            try:
                self._texts[path] = normalise(decode_bytes(path.read_bytes()).text)
            except (OSError, InputError):
                self._texts[path] = None
        return self._texts[path]

    def check(self, folder: Path, treaty: str, quotes: list[str], err: Any) -> None:
        """Raise `err(...)` for the first quote that is not in the treaty's file. A treaty given
        as a stored id (no such file) cannot be checked here and is let through."""
        path = Path(treaty) if Path(treaty).is_absolute() else folder / treaty
        if not path.is_file():
            return
        text = self.text(path)
        if text is None:
            raise err(f"cannot read {path} to check the quotes")
        for quote in quotes:
            if normalise(quote) not in text:
                shown = quote if len(quote) <= 80 else quote[:77] + "..."
                raise err(f"quote not found in {path.name}: {shown!r}")
