"""The lines of a cleaned text, each with its kind (article heading, paragraph marker, point ...)
and the match that found it; what a heading match prints as the article's number.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from taxtreaty.structure.numbers import article_number_value, clean_article_number, ordinal_value
from taxtreaty.text.lines import classify


@dataclass
class Line:
    start: int  # offsets in the cleaned text
    end: int
    text: str
    kind: str  # article, chapter, protocol, title, closing, paragraph, point, bullet, text
    match: object | None = None


#: the end of a line whose sentence goes on below ("... no está limitado por el")
_MID_SENTENCE = regex.compile(r"[\p{Ll}\d,]$")


def split_lines(text: str) -> list[Line]:
    lines: list[Line] = []
    pos = 0
    for raw in text.split("\n"):
        if raw:
            kind, m = classify(raw)
            if kind == "article" and m is not None and m.group("word")[:1].islower() and lines \
                    and lines[-1].kind in ("text", "paragraph", "point") and _MID_SENTENCE.search(lines[-1].text):
                # "... no está limitado por el" then "artículo 1. Las informaciones ...": a reference
                # that wrapped, not a heading (headings are not printed in lower case mid-sentence)
                kind, m = "text", None
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
