"""Protocol points: a protocol's words cut into its points, each with the articles its heading names.

A protocol prints its points in many shapes: a numeral alone on a line then "Ad Article 11"
(NL-BD), "IV. *Ad Article 4* A company ..." (NL-KE), numbered paragraphs "1. Con referencia al
artículo 12: a) ... b) ..." (Boletín Oficial), "Ad artigo 10.º ..." (Diário da República). The
parser may keep several points in one paragraph; `points` cuts a protocol's words into points
again, each with the articles its heading names ("Ad Articles 10, 11 and 12" -> 10, 11, 12). The
helpers the point readers share: the article a point names (`only_home`), its sentences, its words
as a paragraph of that article (`units_as_article`).

The words are the language file's `protocol_heading`, `article_words`, `paragraph_words` and
`point_words` phrases.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import regex

from taxtreaty.patterns import compiled
from taxtreaty.provisions.citing import Unit
from taxtreaty.provisions.reading import Reading
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length
from taxtreaty.structure import eids
from taxtreaty.structure.model import Article, Paragraph, Protocol, Version

#: a line that is only a point's numeral ("II", "4.", "(iii)")
_LABEL_LINE = regex.compile(r"\s*\(?(?P<label>[IVXLC]{1,6}|\d{1,2})[.)]?\s*")
#: a line that opens with a roman numeral and a dot ("IV. *Ad Article 4* A company ...")
_ROMAN_LEAD = regex.compile(r"\s*(?P<label>[IVXLC]{1,6})\.\s+")
#: markdown emphasis around a heading ("*Ad Article 4*")
_EMPHASIS = regex.compile(r"[*_]+")


@dataclass
class ProtocolPoint:
    """One point of a protocol: its label, the articles its heading names, its words (cleaned offsets)."""

    language: str
    eid: str  # the protocol paragraph the point's words start in, or the point's label under it
    label: str | None
    articles: list[str]
    start: int
    end: int
    text: str
    heading: str = ""


def _heading_articles(line: str, ph: Phrases) -> tuple[list[str], int] | None:
    """The article numbers a heading at the start of a line names, and where the heading ends:
    "Ad Articles 10, 11 and 12" -> (["10", "11", "12"], 25); "Con referencia al artículo XI, apartado
    3 a." -> (["XI"], ...); "With reference to paragraph (3) of Article 11" -> (["11"], ...); None when the line does not open with a heading."""
    if "protocol_heading" not in ph.patterns:
        return None
    folded = fold_same_length(_EMPHASIS.sub(lambda m: " " * len(m.group()), line))
    lead = ph.patterns["protocol_heading"].match(folded.lstrip())
    if lead is None:
        return None
    offset = len(folded) - len(folded.lstrip())
    # the heading runs to the end of its references: numbers, article/paragraph words, joiners
    words = ph.word_group("and_words", "of_words")
    article = ph.raw["article_words"]
    paragraph = ph.raw["paragraph_words"] + ph.raw["point_words"]
    word_alts = "|".join(regex.escape(fold_same_length(w)) for w in sorted({*article, *paragraph}, key=len, reverse=True))
    piece = rf"(?:\s*(?:,|{words}|{word_alts}|[ivxlc]{{1,6}}\b|\d{{1,3}}(?:\.?[º°o])?|\(?[a-z]\)|\(\d{{1,3}}\)|[a-z]\.(?!\p{{L}})))"
    tail = compiled(rf"(?:{piece})*").match(folded, offset + lead.end())
    end = tail.end() if tail else offset + lead.end()
    heading = folded[:end]
    numbers = compiled(rf"(?:{'|'.join(regex.escape(fold_same_length(w)) for w in article)})\s+((?:[ivxlc]{{1,6}}|\d{{1,3}})\b(?:\s*(?:,|{words})\s*(?:[ivxlc]{{1,6}}|\d{{1,3}})\b)*)").findall(heading)
    found: list[str] = []
    for group in numbers:
        for n in compiled(r"\b(?:[ivxlc]{1,6}|\d{1,3})\b").findall(group):
            value = n.upper() if not n.isdigit() else n
            if value not in found:
                found.append(value)
    return found, end


def points(reading: Reading, version: Version, ph: Phrases) -> list[ProtocolPoint]:
    """The points of every protocol of a version, in order: cut once per version of the reading (the
    protocol readers, the one-State definitions, the MFN pass and the kinds outside a definition all
    read them; none changes them)."""
    key = (id(version), ph.code)
    if key not in reading.protocol_points:
        out: list[ProtocolPoint] = []
        for protocol in version.protocols:
            out += _protocol_points(reading, version, protocol, ph)
        reading.protocol_points[key] = out
    return list(reading.protocol_points[key])


def _protocol_points(reading: Reading, version: Version, protocol: Protocol, ph: Phrases) -> list[ProtocolPoint]:
    found: list[ProtocolPoint] = []
    current: ProtocolPoint | None = None
    pending_label: str | None = None
    roman = False  # the current point was opened by a roman numeral: numbered paragraphs are its sub-points

    def close(at: int) -> None:
        if current is not None:
            current.end = max(current.start, at)
            current.text = reading.source.text[current.start : current.end]
            if current.text.strip():
                found.append(current)

    previous_end: int | None = None  # where the words of the paragraph before end (not its successor's number)
    for paragraph in protocol.paragraphs:
        base = reading.source.locate(paragraph.text, paragraph.span)
        if base is None:
            continue
        offset = 0
        for k, line in enumerate(paragraph.text.split("\n")):
            at = base + offset
            offset += len(line) + 1
            if not line.strip():
                continue
            # a point closed by the next numbered paragraph ends with its own words, not with "4." after them
            close_at = previous_end if k == 0 and previous_end is not None and previous_end <= at else at
            label = _LABEL_LINE.fullmatch(line)
            if label is not None:
                close(close_at)
                current, pending_label, roman = None, label.group("label"), not label.group("label").isdigit()
                continue
            lead = _ROMAN_LEAD.match(line)
            body_at = at + (lead.end() if lead else 0)
            heading = _heading_articles(line[lead.end():] if lead else line, ph)
            numbered = k == 0 and paragraph.number is not None
            if lead is None and pending_label is None and heading is None and not (numbered and not roman):
                continue  # the words go on in the current point (its sub-points "1.", "a)")
            close(close_at)
            if lead is not None:
                roman = True
            label_text = lead.group("label") if lead else pending_label or (paragraph.number if numbered else None)
            articles, heading_end = heading if heading is not None else ([], 0)
            start = body_at + heading_end
            while start < len(reading.source.text) and reading.source.text[start] in " \t*_:\n":
                start += 1  # the emphasis and blanks that close the heading
            # a point of its own paragraph is cited by the paragraph's eId; one of several in a paragraph by
            # its label under it ("protocol_1__para_nn_1__point_ii")
            own = numbered and label_text == paragraph.number and lead is None
            eid = paragraph.eid if own or not label_text else eids.point(paragraph.eid, label_text.lower())
            current = ProtocolPoint(version.language, eid, label_text, articles, start, start, "",
                                    heading=(line[lead.end():] if lead else line)[:heading_end])
            pending_label = None
        previous_end = base + len(paragraph.text)
    if current is not None:
        last = protocol.paragraphs[-1] if protocol.paragraphs else None
        base = reading.source.locate(last.text, last.span) if last is not None else None
        close((base + len(last.text)) if base is not None and last is not None else current.start)
    return found


def _articles_by_number(version: Version) -> dict[str, Article]:
    out: dict[str, Article] = {}
    for article in version.articles:
        out[eids.article(article.number)] = article
    return out


def article_numbered(version: Version, number: str) -> Article | None:
    return _articles_by_number(version).get(eids.article(number))


def only_home(version: Version, point: ProtocolPoint, topics: frozenset[str]) -> Article | None:
    """The one article a point names, when its topic is one of `topics`; None for none or several."""
    homes = [a for n in point.articles if (a := article_numbered(version, n)) is not None]
    return homes[0] if len(homes) == 1 and homes[0].topic in topics else None


#: how far into a point its "Notwithstanding" may stand
NOTWITHSTANDING_LEAD = 40


def notwithstanding_points(version: Version, found: list[ProtocolPoint], topics: frozenset[str], ph: Phrases,
                           key: str) -> Iterator[tuple[ProtocolPoint, Article, str, regex.Match[str], regex.Match[str]]]:
    """(point, its one article, folded text, the "notwithstanding" match, the `key` phrase's match) of each point
    headed by one article of `topics` that opens with "Notwithstanding the provisions of Article 17, ..." and holds
    the phrase `key` ("shall be taxable only in", "may apply its national legislation")."""
    for point in found:
        home = only_home(version, point, topics)
        if home is None:
            continue
        folded = fold_same_length(point.text)
        lead = ph.find("notwithstanding", folded)
        phrase = ph.find(key, folded)
        if lead is None or lead.start() > NOTWITHSTANDING_LEAD or phrase is None:
            continue
        yield point, home, folded, lead, phrase


def point_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence ranges of a point's words (offsets into `text`)."""
    out, start = [], 0
    for m in compiled(r"(?<=[.;])\s+(?=[\p{Lu}(\d])|\n+").finditer(text):
        if text[start : m.start()].strip():
            out.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        out.append((start, len(text)))
    return out


def units_as_article(reading: Reading, version: Version, point: ProtocolPoint, home: Article) -> list[Unit]:
    """A protocol point's words as one paragraph of the article it names, read by that article's readers."""
    span = reading.source.clean.original_span(point.start, point.end)
    paragraph = Paragraph(eid=point.eid, number=None, text=point.text, span=span)
    article = Article(eid=home.eid, number=home.number, heading=home.heading, topic=home.topic, span=span,
                      paragraphs=[paragraph])
    return reading.source.units(version.language, article, paragraph)
