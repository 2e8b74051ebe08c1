"""The lines of a cleaned text, each with its kind (article heading, paragraph marker, point ...)
and the match that found it; what a heading match prints as the article's number.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from taxtreaty import vocab
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
_LAST_WORD = regex.compile(r"(?:^|[^\p{L}])(\p{Ll}+)$")


def _goes_on(previous: Line | None, line: Line, following: Line | None) -> bool:
    """Does `previous` end a sentence that this heading-like line goes on? A heading word in lower case
    ("artículo 1. Las informaciones") after any mid-sentence end; a capitalised one only after a word
    that leads into a cross-reference ("dispuesto en el"), and then a bare heading ("Artículo 8")
    only when the line under it goes on in lower case ("o el apartado 4 ..."); a title ("Acuerdo
    entre", "Convention between that State and a third State") after any word in lower case."""
    if previous is None or previous.kind not in ("text", "paragraph", "point"):
        return False
    if line.kind == "article":
        word = line.match.group("word")  # type: ignore[union-attr]
        if word[:1].islower():
            return _MID_SENTENCE.search(previous.text) is not None
        title = (line.match.group("title") or "").strip()  # type: ignore[union-attr]
        if title or following is None or not following.text[:1].islower():
            return False
    last = _LAST_WORD.search(previous.text.rstrip())
    if line.kind == "title":
        # "... relaxed or overridden by any" then "Convention between that State and a third State":
        # a version's title never follows a sentence cut after a word in lower case
        return last is not None or previous.text.rstrip().endswith(",")
    return last is not None and vocab.fold(last.group(1)) in vocab.reference_lead_words()


def split_lines(text: str) -> list[Line]:
    lines: list[Line] = []
    pos = 0
    for raw in text.split("\n"):
        if raw:
            kind, m = classify(raw)
            lines.append(Line(pos, pos + len(raw), raw, kind, m))
        pos += len(raw) + 1
    for k, line in enumerate(lines):
        if line.kind in ("article", "title") and _goes_on(lines[k - 1] if k else None, line,
                                                         lines[k + 1] if k + 1 < len(lines) else None):
            # "... dispuesto en el" then "Artículo 8" then "o el apartado 4", "... en que el" then
            # "Acuerdo entre": a reference (or a sentence) that wrapped, not a heading nor a title
            line.kind, line.match = "text", None
    # a compilation's own article that holds the protocol ("Artículo 194-T2" then "Protocolo.-"): no
    # article of the convention, so not a line of its structure
    return [line for k, line in enumerate(lines)
            if not (line.kind == "article" and _compilation_article(line)
                    and k + 1 < len(lines) and lines[k + 1].kind == "protocol")
            and not _printed_again(lines, k)]


def _printed_again(lines: list[Line], k: int) -> bool:
    """A bare heading printed again right below, with at most a chapter line between ("Art. 10", "Capítulo
    III - TRIBUTAÇÃO DA RENDA (Ir para)", "Art. 10": a site's heading of the page, then the article's own):
    one article, whose text is under the second."""
    line = lines[k]
    if line.kind != "article" or (line.match.groupdict().get("title") or "").strip():  # type: ignore[union-attr]
        return False
    j = k + 1
    if j < len(lines) and lines[j].kind == "chapter":
        j += 1
    if j >= len(lines) or lines[j].kind != "article":
        return False
    number = heading_number(line.match)
    return number is not None and number == heading_number(lines[j].match)


def _compilation_article(line: Line) -> bool:
    groups = line.match.groupdict()  # type: ignore[union-attr]
    return bool(groups.get("compilation")) and not (groups.get("title") or "").strip()


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
