"""The lines of a cleaned text, each with its kind (article heading, paragraph marker, point ...)
and the match that found it; what a heading match prints as the article's number.
"""

from __future__ import annotations

from dataclasses import dataclass

from taxtreaty.structure.numbers import article_number_value, clean_article_number, ordinal_value
from taxtreaty.text.lines import classify


@dataclass
class Line:
    start: int  # offsets in the cleaned text
    end: int
    text: str
    kind: str  # article, chapter, protocol, title, closing, paragraph, point, bullet, text
    match: object | None = None


def split_lines(text: str) -> list[Line]:
    lines, pos = [], 0
    for raw in text.split("\n"):
        if raw:
            kind, m = classify(raw)
            lines.append(Line(pos, pos + len(raw), raw, kind, m))
        pos += len(raw) + 1
    return lines


def heading_number(match: object) -> str | None:
    """The article number a heading match prints: "10", "8a", "IV"; None for a damaged one."""
    if match.group("roman"):  # type: ignore[attr-defined]
        # "X bis" -> "Xbis": roman numerals in capitals, the suffix in lower case
        return match.group("roman").upper() + (match.group("roman_suffix") or "")  # type: ignore[attr-defined]
    if match.group("ordinal"):  # type: ignore[attr-defined]
        value = ordinal_value(match.group("ordinal"))  # type: ignore[attr-defined]
        return str(value) if value else None
    num = match.group("num")  # type: ignore[attr-defined]
    if not num:
        return None
    # "10.º-A" -> "10a", as "10A" and "10 A" are
    return clean_article_number(num) + (match.group("num_suffix") or "").lower()  # type: ignore[attr-defined]


def heading_value(match: object) -> int | None:
    number = heading_number(match)
    return article_number_value(number) if number else None
