"""Bytes to text, refusing what is not text.

After `decode_bytes` the text is a `str` without a byte-order mark; offsets in spans count the
characters of this string ("the original"). Encodings tried, in order: UTF-8 (with or without
BOM), UTF-16/32 with BOM (or UTF-16 recognised by its NUL pattern), then Windows-1252 / Latin-1,
which is reported as a warning because the guess may be wrong.
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass, field

from taxtreaty.text.markup import html_to_text, looks_like_html

#: Treaties are well under 1 MB; 16 MB leaves room for whole gazette issues and still bounds time.
MAX_INPUT_BYTES = int(os.environ.get("TAXTREATY_MAX_BYTES", 16 * 1024 * 1024))


#: A convention runs to a few thousand lines, a whole gazette issue to tens of thousands. Every
#: step is linear, but at some microseconds a line a million-line input would still take tens of
#: seconds: such input is refused at once, with the limit named.
MAX_INPUT_LINES = int(os.environ.get("TAXTREATY_MAX_LINES", 200_000))


class InputError(ValueError):
    """The input cannot be read as a treaty text. The message is one line, for the user."""


@dataclass
class DecodedText:
    text: str
    encoding: str
    warnings: list[str] = field(default_factory=list)


_BOMS = [
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
]


#: control characters that no text file holds (C0 except tab and line breaks, DEL, C1)
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")


def _control_ratio(text: str) -> float:
    if not text:
        return 0.0
    sample = text[:65536]
    # counted by the regex engine: a Python loop over 64K characters cost more than parsing them
    return len(_CONTROL.findall(sample)) / len(sample)


def _utf16_without_bom(data: bytes) -> str | None:
    sample = data[:4096]
    if len(sample) < 4:
        return None
    even_nul = sample[0::2].count(0) / max(1, len(sample[0::2]))
    odd_nul = sample[1::2].count(0) / max(1, len(sample[1::2]))
    if odd_nul > 0.3 and even_nul < 0.05:
        return "utf-16-le"
    if even_nul > 0.3 and odd_nul < 0.05:
        return "utf-16-be"
    return None


#: documents that are not text, by their first bytes: named, so the user knows what to do
_DOCUMENT_MAGIC = [
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (a DOCX or ODT document?)"),
    (b"\xd0\xcf\x11\xe0", "a Word 97-2003 document"),
    (b"{\\rtf", "an RTF document"),
]
_SAVE_AS_TEXT = "save or extract its text first (e.g. `pdftotext -layout file.pdf`, or Save As plain text)"


PAGE_WARNING = "input is a web page (HTML)"


def read_page(text: str, warnings: list[str]) -> str:
    """A web page's text (`markup.html_to_text`), with a warning that says so; other text as it is."""
    if not looks_like_html(text):
        return text
    page_text = html_to_text(text)
    if not page_text.strip():
        raise InputError("input is a web page (HTML) that shows no text")
    warnings.append(PAGE_WARNING + ": its text was read without the markup, scripts and styles, "
                    "and spans count the characters of that text")
    return page_text


def check_lines(text: str, *, max_lines: int | None = None) -> None:
    """Refuse, in one line, a text with more lines than any treaty or gazette issue has."""
    limit = MAX_INPUT_LINES if max_lines is None else max_lines
    lines = text.count("\n") + 1
    if lines > limit:
        raise InputError(
            f"input has {lines:,} lines, over the {limit:,} line limit (set TAXTREATY_MAX_LINES to raise it)"
        )


def decode_bytes(data: bytes, *, max_bytes: int | None = None) -> DecodedText:
    """Decode a file's bytes, or raise `InputError` with a one-line reason."""
    limit = MAX_INPUT_BYTES if max_bytes is None else max_bytes
    if len(data) > limit:
        raise InputError(
            f"input is {len(data) / 1e6:.1f} MB, over the {limit / 1e6:.1f} MB limit "
            "(set TAXTREATY_MAX_BYTES to raise it)"
        )
    if not data.strip():
        raise InputError("input is empty")
    warnings: list[str] = []
    encoding = None
    body = data
    for bom, name in _BOMS:
        if data.startswith(bom):
            encoding, body = name, data[len(bom):]
            break
    if encoding is None:
        encoding = _utf16_without_bom(data)
    if encoding is None:
        for magic, what in _DOCUMENT_MAGIC:
            if data.startswith(magic):
                raise InputError(f"input is {what}, not text: {_SAVE_AS_TEXT}")
        if b"\x00" in data[:65536]:
            raise InputError("input is binary (it contains NUL bytes), not a treaty text")
        try:
            text = data.decode("utf-8")
            encoding = "utf-8"
        except UnicodeDecodeError:
            try:
                text = data.decode("cp1252")
                encoding = "cp1252"
            except UnicodeDecodeError:
                text = data.decode("latin-1")
                encoding = "latin-1"
            warnings.append(f"input is not UTF-8; decoded as {encoding}")
    else:
        try:
            text = body.decode(encoding)
        except UnicodeDecodeError as exc:
            raise InputError(f"input looks like {encoding} but does not decode: {exc.reason}") from None
        if encoding != "utf-8":
            warnings.append(f"input decoded as {encoding}")
    text = read_page(text, warnings)
    check_lines(text)
    if _control_ratio(text) > 0.02:
        raise InputError("input is binary (too many control characters), not a treaty text")
    if not text.strip():
        raise InputError("input is empty")
    return DecodedText(text=text, encoding=encoding, warnings=warnings)
