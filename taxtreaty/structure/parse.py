"""Parse cleaned treaty text into the document tree.

Pipeline: lines of the cleaned text -> language versions (split at a new convention title or an
article numbering that restarts) -> per version, a single pass that opens articles, paragraphs
and points as their markers are accepted. A marker is accepted only when it fits the sequence
(article 9 after 8, paragraph 3 after 2, point "b" after "a"), so cross-references that happen
to start a line ("Article 7 or Article 14, as the case may be...") stay text. The parser never
refuses input: what it cannot place is kept as text of the enclosing node and reported.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import lru_cache

import regex

from taxtreaty import patterns, vocab
from taxtreaty.structure import metadata
from taxtreaty.structure.languages import detect_language
from taxtreaty.structure.model import (
    Article,
    Chapter,
    Document,
    Paragraph,
    Point,
    Protocol,
    Source,
    Version,
    Warning,
)
from taxtreaty.structure.numbers import (
    article_eid_number,
    article_number_value,
    clean_article_number,
    clean_label,
    int_to_roman,
    label_for,
    label_kinds,
    label_value,
    ocr_candidates,
    ordinal_value,
)
from taxtreaty.structure.topics import classify_article
from taxtreaty.text import CleanText, InputError, check_lines, clean, decode_bytes
from taxtreaty.text.clean import article_heading_match, heading_title_ok, title_like

#: deepest nesting of points accepted (a) i) 1) A) ...); deeper labels stay text
MAX_POINT_DEPTH = 6


#: how much of the end of an open point is looked at to tell whether it goes on
_TAIL = 200
#: the end of a text cut inside a hyphenated word ("mon-")
_CUT_WORD = regex.compile(r"\p{L}[-‐]$")


def _article_eid(number: str) -> str:
    return f"art_{article_eid_number(number)}"


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


def _number_style(lines: list[Line]) -> None:
    """Roman article numbers ("ARTICLE IV") are read only when the document numbers its
    articles that way: the style most headings use wins, and headings of the other style are
    demoted to text (in an arabic treaty "Article I" is not a heading, and vice versa). Headings
    inside a protocol do not vote: a protocol's "Article 1", "Article 2" never open articles, and
    must not outvote a convention numbered "ARTICLE I" ... "ARTICLE XI"."""
    headings = []
    in_protocol = False
    for ln in lines:
        if ln.kind == "protocol":
            in_protocol = True
        elif ln.kind == "title":
            in_protocol = False
        elif ln.kind == "article" and not in_protocol and not ln.match.group("damaged"):  # type: ignore[union-attr]
            headings.append(ln)
    roman = sum(1 for ln in headings if ln.match.group("roman"))  # type: ignore[union-attr]
    roman_style = roman > len(headings) - roman
    for ln in headings:
        if bool(ln.match.group("roman")) != roman_style:  # type: ignore[union-attr]
            ln.kind, ln.match = "text", None


#: the page a table of contents gives after a heading: "Dividends 7", "Dividends ........ 7"
_CONTENTS_PAGE = regex.compile(r"(?:[^\S\n]|\.{2,}|…)[^\S\n]*\d{1,4}$")
#: a table of contents lists at least this many headings, one under the other
_CONTENTS_MIN_ENTRIES = 2


def _contents_table(lines: list[Line]) -> None:
    """A table of contents before the articles ("Article 1 Persons covered 2", "Article 10 Dividends
    ........ 7"): article headings one right under the other, each ending with its page, are not the
    articles (read as headings they take the real articles' text, and article 11 of the contents
    swallows articles 10 and 11 of the convention). They are left as text."""
    run: list[Line] = []
    for line in [*lines, None]:
        title = (line.match.group("title") or "") if line is not None and line.kind == "article" else None  # type: ignore[union-attr]
        if title is not None and _CONTENTS_PAGE.search(title.rstrip()):
            run.append(line)  # type: ignore[arg-type]
            continue
        if len(run) >= _CONTENTS_MIN_ENTRIES:
            for entry in run:
                entry.kind, entry.match = "text", None
        run = []


class NoArticlesError(InputError):
    """The text was read but holds no article of a convention."""


# -- lines --------------------------------------------------------------------------------------


@dataclass
class Line:
    start: int  # offsets in the cleaned text
    end: int
    text: str
    kind: str  # article, chapter, protocol, title, closing, paragraph, point, bullet, text
    match: object | None = None


@lru_cache(maxsize=8192)  # a line's kind depends on its text only; repeated lines are classified once
def _classify(text: str) -> tuple[str, object | None]:
    m = article_heading_match(text)
    if m:
        return "article", m
    m = patterns.chapter_heading().match(text)
    if m and (not m.group("title") or title_like(m.group("title"))):
        return "chapter", m
    m = patterns.protocol_heading().match(text)
    # "Protocol to the Convention between ... with respect to taxes on income" runs long and may
    # go on in lower case; it still may not read as a sentence
    if m and (not m.group("title") or title_like(m.group("title")[:1].upper() + m.group("title")[1:], max_length=300)):
        return "protocol", m
    if patterns.convention_title().match(text):
        return "title", None
    if patterns.closing_formula().match(text):
        return "closing", None
    m = patterns.PARAGRAPH_MARKER.match(text)
    if m:
        return "paragraph", m
    m = patterns.POINT_MARKER.match(text)
    if m:
        return "point", m
    if patterns.BULLET.match(text):
        return "bullet", None
    return "text", None


def split_lines(text: str) -> list[Line]:
    lines, pos = [], 0
    for raw in text.split("\n"):
        if raw:
            kind, m = _classify(raw)
            lines.append(Line(pos, pos + len(raw), raw, kind, m))
        pos += len(raw) + 1
    return lines


def _is_upper_division(text: str, label: str) -> bool:
    """The point marker is an upper-case letter and a dot ("A. In Kenya:"), not "A)" nor "(A)"."""
    return len(label) == 1 and label.isupper() and text[1:2] == "."


# -- mutable nodes used while building ------------------------------------------------------------


@dataclass
class _Node:
    start: int  # content start (after the marker), cleaned offsets
    end: int
    children: list[_PointNode] = field(default_factory=list)
    child_labels: set[str] = field(default_factory=set)
    pending_wrap_start: int | None = None  # text after the last child, not yet known to be a wrap-up

    def extend(self, end: int) -> None:
        self.end = max(self.end, end)


@dataclass
class _PointNode(_Node):
    label: str = ""
    printed: str | None = None
    kind: str = "letter"


@dataclass
class _ParaNode(_Node):
    number: str | None = None
    eid_hint: str | None = None
    number_inferred: bool = False
    complete: bool = True
    #: numbered "1)" rather than "1." (a later "2)" is the next paragraph, not a point)
    bracket: bool = False
    #: an "Article 1" division of a protocol: its own "1 —", "2." lines stay in its text
    protocol_article: bool = False


@dataclass
class _ArticleNode:
    start: int
    end: int
    number: str
    number_inferred: bool = False
    heading: str | None = None
    chapter: str | None = None
    complete: bool = True
    paragraphs: list[_ParaNode] = field(default_factory=list)
    fragment: bool = False


@dataclass
class _ProtocolNode:
    start: int
    end: int
    heading: str
    paragraphs: list[_ParaNode] = field(default_factory=list)


# -- the builder ---------------------------------------------------------------------------------


class _VersionBuilder:
    def __init__(self, lines: list[Line], ct: CleanText, language: str | None, supported: bool):
        self.lines = lines
        self.ct = ct
        self.language = language
        self.supported = supported
        self.articles: list[_ArticleNode] = []
        self.chapters: list[Chapter] = []
        self.protocols: list[_ProtocolNode] = []
        self.warnings: list[Warning] = []
        self.title: str | None = None
        self.chapter: str | None = None
        self.preamble: list[Line] = []
        self.closed = False  # after the closing formula: no article content until a protocol
        self.saw_closing = False
        self.article: _ArticleNode | None = None
        self.protocol: _ProtocolNode | None = None
        self.para: _ParaNode | None = None
        self.stack: list[_PointNode] = []
        #: the version numbers its articles in roman numerals ("ARTICLE IV")
        self.roman = any(ln.kind == "article" and ln.match.group("roman") for ln in lines)  # type: ignore[union-attr]

    # -- warnings
    def warn(self, code: str, eid: str | None, message: str) -> None:
        self.warnings.append(Warning(code=code, eid=eid, language=self.language, message=message))

    # -- containers
    def _container_paragraphs(self) -> list[_ParaNode] | None:
        if self.protocol is not None:
            return self.protocol.paragraphs
        if self.article is not None:
            return self.article.paragraphs
        return None

    def _close_article(self) -> None:
        self.article = None
        self.para = None
        self.stack = []

    def _last_number(self) -> int | None:
        for art in reversed(self.articles):
            value = article_number_value(art.number)
            if value is not None:
                return value
        return None

    # -- acceptance of an article heading in sequence
    def _accept_article(self, line: Line, index: int) -> tuple[str, bool] | None:
        m = line.match
        last = self._last_number()
        if m.group("damaged"):  # type: ignore[union-attr]
            expected = (last + 1) if last is not None else self._number_from_next(index)
            if expected is None:
                return None
            return self._format_number(expected), True
        number = heading_number(m)  # type: ignore[assignment]
        assert number is not None
        value = article_number_value(number)
        if last is None or value is None:
            return number, False
        if value == last + 1 or (value == last and number != self.articles[-1].number):
            return number, False
        if last + 1 < value <= last + 3:
            return number, False
        # a longer jump forward only for a real heading (a title on its line or the next), not a
        # cross-reference that happens to start a line; the gap is reported
        has_title = bool((m.group("title") or "").strip()) or (  # type: ignore[union-attr]
            index + 1 < len(self.lines) and self._is_title_line(self.lines[index + 1])
        )
        if value > last and has_title:
            self.warn("articles_missing", _article_eid(number),
                      f"article {number} follows article {self.articles[-1].number}: articles "
                      f"{self._format_number(last + 1)}-{self._format_number(value - 1)} are not in the text")
            return number, False
        return None

    def _format_number(self, value: int) -> str:
        """An inferred article number, in the style the version prints its numbers."""
        return int_to_roman(value).upper() if self.roman else str(value)

    def _number_from_next(self, index: int) -> int | None:
        for line in self.lines[index + 1 :]:
            if line.kind == "article" and not line.match.group("damaged"):  # type: ignore[union-attr]
                value = heading_value(line.match)
                return value - 1 if value and value > 1 else None
        return None

    # -- main loop
    def build(self) -> None:
        i = 0
        lines = self.lines
        while i < len(lines):
            line = lines[i]
            kind = line.kind
            if kind == "title":
                if not self.articles and self.title is None:
                    self.title = line.text
                    self.preamble.append(line)
                    # a title in capitals hard-wrapped over several lines
                    while (
                        i + 1 < len(lines) and lines[i + 1].kind == "text" and lines[i + 1].text.isupper()
                        and len(self.title) < 400
                    ):
                        i += 1
                        self.title += " " + lines[i].text
                        self.preamble.append(lines[i])
                elif not self.articles and self.language and detect_language(self.title)[0] != self.language \
                        and detect_language(line.text)[0] == self.language:
                    # a collection's title in another language first ("Verdrag tussen ...", then
                    # "Convention between ..."): the version's own title is the one in its language
                    self.title = line.text
                    self.preamble.append(line)
                else:
                    self._text(line)
            elif kind == "closing" and self.articles and self.protocol is None:
                self._close_article()
                self.closed = True
                self.saw_closing = True
            elif kind == "closing" and self.protocol is not None:
                self.protocol.end = line.end
                self.para = None
                self.stack = []
                self.closed = True
            elif kind == "protocol":
                self._close_article()
                heading = line.text.lstrip("#").strip()
                self.protocol = _ProtocolNode(line.start, line.end, heading)
                self.protocols.append(self.protocol)
                self.closed = False
            elif kind == "chapter" and self.protocol is None:
                self._close_article()
                m = line.match
                title = (m.group("title") or "").strip()  # type: ignore[union-attr]
                if not title and i + 1 < len(lines) and self._is_title_line(lines[i + 1]):
                    i += 1
                    title = lines[i].text.lstrip("#").strip()
                number = m.group("num")  # type: ignore[union-attr]
                self.chapter = f"chp_{number}"
                span = self.ct.original_span(line.start, lines[i].end)
                self.chapters.append(Chapter(eid=self.chapter, number=number, heading=title or None, span=span))
                self.closed = False
            elif kind == "article" and self.protocol is not None and self._accept_protocol_article(line):
                pass
            elif kind == "article" and self.protocol is None and (accepted := self._accept_article(line, i)):
                number, inferred = accepted
                self._open_article(line, number, inferred)
                m = line.match
                title = (m.group("title") or "").strip().strip("()").strip()  # type: ignore[union-attr]
                if not title and i + 1 < len(lines) and self._is_title_line(lines[i + 1]):
                    i += 1
                    title = lines[i].text.lstrip("#").strip().strip("()").strip()  # "(Pensões)" on its own line
                    self.article.end = lines[i].end  # type: ignore[union-attr]
                self.article.heading = title or None  # type: ignore[union-attr]
                if inferred:
                    self.warn(
                        "article_number_inferred", _article_eid(number),
                        f"heading {line.text[:40]!r} has a damaged number; read as {number} from its neighbours",
                    )
            elif (kind == "paragraph" and (self._accept_numbered_item(line) or self._accept_paragraph(line))) or (
                kind == "point" and (self._accept_bracket_paragraph(line) or self._accept_point(line))
            ):
                pass  # accepted markers open their node as a side effect
            else:
                self._text(line)
            i += 1

    def _accept_protocol_article(self, line: Line) -> bool:
        """"Article 1", "Artigo 2" inside a protocol, numbered from 1 in sequence, is a division of
        the protocol: paragraph N of it (eId protocol_K__para_N), whose heading ("Ad artigo 10.º")
        and numbered sentences stay in its text. A cross-reference that starts a line ("Article 10
        of the Convention ...") is out of sequence and stays text."""
        assert self.protocol is not None
        value = heading_value(line.match)
        numbered = [p for p in self.protocol.paragraphs if p.number is not None]
        if self.closed or value is None or value != len(numbered) + 1 or any(not p.protocol_article for p in numbered):
            return False
        number = str(value)
        para = _ParaNode(line.start + line.match.end("num") if line.match.group("num") else line.end,  # type: ignore[union-attr]
                         line.end, number=number, protocol_article=True)
        self.protocol.paragraphs.append(para)
        self.para = para
        self.stack = []
        self.protocol.end = line.end
        return True

    def _is_title_line(self, line: Line) -> bool:
        text = line.text.lstrip("#").strip()
        return (
            line.kind == "text"
            and 0 < len(text) <= 100
            and heading_title_ok("", text)  # "Pensões", "(Pensões)", "(remunerações públicas)"
            and not text.endswith((".", ":"))
        )

    def _open_article(self, line: Line, number: str, inferred: bool) -> None:
        self._close_article()
        self.closed = False
        art = _ArticleNode(line.start, line.end, number, inferred, chapter=self.chapter)
        self.articles.append(art)
        self.article = art

    def _ensure_fragment_article(self, line: Line) -> _ArticleNode | None:
        """Text before the first heading of a version that starts mid-article."""
        first = next((ln for ln in self.lines if ln.kind == "article" and not ln.match.group("damaged")), None)  # type: ignore[union-attr]
        if first is None:
            return None
        value = heading_value(first.match)
        if not value or value <= 1:
            return None
        art = _ArticleNode(line.start, line.end, self._format_number(value - 1), number_inferred=True, complete=False,
                           fragment=True)
        self.articles.append(art)
        self.article = art
        return art

    # -- paragraphs
    def _accept_paragraph(self, line: Line) -> bool:
        container = self._container_paragraphs()
        m = line.match
        number = m.group("num") or m.group("pnum")  # type: ignore[union-attr]
        if self.para is not None and self.para.protocol_article:
            return False  # "1 — ..." inside a protocol's "Article 2" is that article's text
        if container is None:
            if self.closed or self.articles or not self._fragment_start_allowed(line):
                return False
            self._ensure_fragment_article(line)
            container = self._container_paragraphs()
            if container is None:
                return False
        # the last numbered paragraph, found from the end (linear over a whole text)
        last_numbered = next((p for p in reversed(container) if p.number is not None), None)
        value = int(number)
        if last_numbered is not None:
            last = int(last_numbered.number)  # type: ignore[arg-type]
            if value == last + 1:
                pass
            elif last + 1 < value <= last + 3:
                owner = self._owner_eid()
                self.warn("paragraphs_missing", owner, f"paragraph {value} follows paragraph {last}: text is missing")
            else:
                return False
        elif value > 6 and not (self.article and self.article.fragment):
            return False
        content_start = line.start + m.end()  # type: ignore[union-attr]
        para = _ParaNode(content_start, line.end, number=number)
        # leading unnumbered text of a fragment article is the end of the previous paragraph
        if last_numbered is None and container and container[-1].number is None and self.article and self.article.fragment:
            if value > 1:
                container[-1].number = str(value - 1)
                container[-1].number_inferred = True
            container[-1].complete = False
        container.append(para)
        self.para = para
        self.stack = []
        # "4 - a) Com ressalva ...": a point starts right after the paragraph number
        rest = line.text[m.end():]  # type: ignore[union-attr]
        pm = patterns.POINT_MARKER.match(rest)
        if pm:
            sub = Line(content_start, line.end, rest, "point", pm)
            self._accept_point(sub)
        return True

    def _accept_bracket_paragraph(self, line: Line) -> bool:
        """Paragraphs numbered "1)", "2)" (as points are elsewhere): "1)" is paragraph 1 when it
        opens an article (nothing before it but the heading), and "N)" is paragraph N right
        after paragraph N-1 numbered that way, unless it continues a numbered list inside it."""
        m = line.match
        label = m.group("label")  # type: ignore[union-attr]
        container = self._container_paragraphs()
        if m.group("open") or not label.isdigit() or container is None:  # type: ignore[union-attr]
            return False
        value = int(label)
        last = next((p for p in reversed(container) if p.number is not None), None)
        if last is None:
            if value != 1 or container:
                return False
        elif not (last.bracket and last.number and value == int(last.number) + 1) or any(
            node.kind == "number" for node in self.stack
        ):
            return False
        content_start = line.start + m.end()  # type: ignore[union-attr]
        para = _ParaNode(content_start, line.end, number=label, bracket=True)
        container.append(para)
        self.para = para
        self.stack = []
        return True

    def _fragment_start_allowed(self, line: Line) -> bool:
        return not self.articles and self.protocol is None

    def _owner_eid(self) -> str | None:
        if self.article is not None:
            return _article_eid(self.article.number)
        return None

    # -- points
    def _accept_point(self, line: Line) -> bool:
        m = line.match
        printed = m.group("label")  # type: ignore[union-attr]
        division = _is_upper_division(line.text, printed)
        if division and not self._division_fits(line, printed):
            return False  # "A. Smith" under a signature, "B. JONES": a name, not a division
        if self.para is None and not (division and self._open_division_paragraph(line)):
            return False
        raw = clean_label(printed)
        placed = self._place_label(raw)
        if placed is None:
            return False
        self._open_point(line, line.start + m.end(), placed, printed)  # type: ignore[union-attr]
        return True

    def _division_fits(self, line: Line, label: str) -> bool:
        """An upper-case division "A. In the case of the Netherlands:" opens a list only when it
        announces what follows (its line ends with ":"); "B." and later continue an open list of
        such divisions. Anything else with that shape is a name or an initial ("A. Smith")."""
        if label == "A" and line.text.rstrip().endswith(":"):
            return True
        expected = label_for("upper", label_value(label, "upper") - 1) if label_value(label, "upper") else None
        nodes = [*self.stack, *(self.para.children[-1:] if self.para is not None else [])]
        return expected is not None and any(node.kind == "upper" and node.label == expected for node in nodes)

    def _open_division_paragraph(self, line: Line) -> bool:
        """An article (or protocol) that opens with "A. In the case of ...:" holds its paragraphs
        inside divisions: an unnumbered paragraph holds the divisions as its points, and the
        numbered paragraphs under each ("1. ...", "2. ...") become that division's items."""
        container = self._container_paragraphs()
        if container is None or container or self.closed:
            return False
        para = _ParaNode(line.start, line.end, number=None)
        container.append(para)
        self.para = para
        self.stack = []
        return True

    def _open_point(self, line: Line, content_start: int, placed: tuple[int, str, str, bool], printed: str) -> None:
        depth, label, kind, repaired = placed
        assert self.para is not None
        del self.stack[depth:]
        parent: _Node = self.stack[-1] if self.stack else self.para
        if parent.pending_wrap_start is not None:
            # text between two items of a list belongs to the item before it
            parent.pending_wrap_start = None
        point = _PointNode(content_start, line.end, label=label, kind=kind, printed=printed if repaired else None)
        point.marker_start = line.start  # type: ignore[attr-defined]
        parent.children.append(point)
        parent.child_labels.add(label)
        self.stack.append(point)
        for node in [self.para, *self.stack]:
            node.extend(line.end)

    # -- numbered list items ("1.is a national ...") that look like paragraph numbers
    def _accept_numbered_item(self, line: Line) -> bool:
        """A "N." line inside a paragraph is an item of a numbered list, not paragraph N, when
        it opens a list an open point announces ("... who:" then "1. is a national"), or
        continues such a list ("2." after "1. ...; or"). A "2." after an item that ends its
        sentence, where paragraph 2 fits, is paragraph 2."""
        m = line.match
        number = m.group("num")  # type: ignore[union-attr]
        if self.para is None or number is None or line.text[len(number):len(number) + 1] != ".":
            return False
        value = int(number)
        placed: tuple[int, str, str, bool] | None = None
        # the next item of an open numbered list, innermost first
        for depth in range(len(self.stack) - 1, -1, -1):
            item = self.stack[depth]
            if item.kind == "number":
                if value == int(item.label) + 1:
                    ends_sentence = self.ct.text[item.start:item.end].rstrip().endswith(".")
                    if not ends_sentence or not self._paragraph_fits(value):
                        placed = (depth, number, "number", False)
                break
        # a new list that the open point announces ("b) ... who:" then "1.is a national"); under a
        # paragraph itself, "1." stays ambiguous with the paragraph numbering and is left as it was
        if placed is None and value == 1 and self.stack and self._announces_list(self.stack[-1]) and (
            self.stack[-1].kind != "number" and len(self.stack) < MAX_POINT_DEPTH
        ):
            placed = (len(self.stack), number, "number", False)
        if placed is None:
            return False
        self._open_point(line, line.start + m.end(), placed, number)  # type: ignore[union-attr]
        return True

    def _paragraph_fits(self, value: int) -> bool:
        container = self._container_paragraphs() or []
        last = next((p for p in reversed(container) if p.number is not None), None)
        return last is not None and last.number is not None and value == int(last.number) + 1

    def _place_label(self, raw: str) -> tuple[int, str, str, bool] | None:
        """(depth, label, kind, repaired) for a point label, or None when it is not a point here."""

        def expected_at(depth: int) -> list[tuple[str, str]]:
            siblings = (self.stack[depth - 1].children if depth > 0 else self.para.children)  # type: ignore[union-attr]
            if siblings:
                last = siblings[-1]
                value = label_value(last.label, last.kind)
                return [(label_for(last.kind, value + 1), last.kind)] if value else []
            return [("a", "letter"), ("i", "roman"), ("A", "upper"), ("1", "number"), ("aa", "double")]

        candidates = [(raw, False)] + [(c, True) for c in ocr_candidates(raw)]
        # 1. the label expected next at some open level, innermost first, or a new nested list
        for depth in range(len(self.stack), -1, -1):
            for label, repaired in candidates:
                for exp_label, exp_kind in expected_at(depth):
                    if label != exp_label:
                        continue
                    # opening a nested list needs a kind different from its parent's, and the
                    # nesting is bounded (treaties go four deep; a thousand is damage, not law)
                    if depth == len(self.stack) and depth > 0 and (
                        exp_kind == self.stack[-1].kind or depth >= MAX_POINT_DEPTH
                    ):
                        continue
                    # "i)" after "h) ...;" continues the letters; it opens a roman list only
                    # after an item that announces one ("...means:")
                    if depth == len(self.stack) and depth > 0 and not self._announces_list(self.stack[-1]) and any(
                        label == other for d in range(depth) for other, _ in expected_at(d)
                    ):
                        continue
                    return depth, label, exp_kind, repaired
        # 2. a valid label that skips ahead within the innermost list (lost items)
        if self.stack:
            depth = len(self.stack) - 1
            siblings = self.stack[-2].children if depth > 0 else self.para.children  # type: ignore[union-attr]
            last = siblings[-1]
            if last.kind in label_kinds(raw):
                value, last_value = label_value(raw, last.kind), label_value(last.label, last.kind)
                if value and last_value and last_value + 1 < value <= last_value + 3:
                    self.warn("list_items_missing", self._owner_eid(),
                              f"point {raw}) follows point {last.label}): items are missing")
                    return depth, raw, last.kind, False
        # 3. a list that starts mid-way (its first items lost), only at the paragraph level
        if not self.stack and not self.para.children:  # type: ignore[union-attr]
            kinds = label_kinds(raw)
            if kinds and raw not in ("a", "i", "A", "1"):
                kind = "roman" if "roman" in kinds and len(raw) > 1 else kinds[0]
                value = label_value(raw, kind)
                if value and value <= 4:
                    return 0, raw, kind, False
        # 4. the same list restarting: earlier items or a parent list were lost
        if not self.stack or len(self.stack) == 1:
            siblings = self.para.children  # type: ignore[union-attr]
            if siblings and raw in self.para.child_labels:  # type: ignore[union-attr]
                kind = siblings[-1].kind
                if kind in label_kinds(raw):
                    self.warn("list_items_missing", self._point_eid_hint(),
                              f"point {raw}) appears again in the same list: the items of an enclosing list are missing")
                    return 0, raw, kind, False
        return None

    def _announces_list(self, node: _Node) -> bool:
        return self.ct.text[node.start:node.end].rstrip().endswith((":", "—", "-", "–"))

    def _point_eid_hint(self) -> str | None:
        """The eId the current paragraph will get (numbered, or the n-th unnumbered one)."""
        owner = self._owner_eid() if self.protocol is None else f"protocol_{len(self.protocols)}"
        container = self._container_paragraphs()
        if owner is None or self.para is None or container is None:
            return owner
        if self.para.number is not None:
            return f"{owner}__para_{self.para.number}"
        if self.para.eid_hint is None:  # computed once per paragraph
            position = next(i for i in range(len(container) - 1, -1, -1) if container[i] is self.para)
            unnumbered = sum(1 for p in container[: position + 1] if p.number is None)
            self.para.eid_hint = f"{owner}__para_nn_{unnumbered}"
        return self.para.eid_hint

    # -- text lines
    def _text(self, line: Line) -> None:
        if self.closed:
            return
        if self.protocol is not None:
            if self.para is None:
                para = _ParaNode(line.start, line.end, number=None)
                self.protocol.paragraphs.append(para)
                self.para = para
            else:
                self._append(line)
            self.protocol.end = line.end
            return
        if self.article is None:
            if not self.articles and self._starts_mid_article(line):
                art = self._ensure_fragment_article(line)
                if art is not None:
                    para = _ParaNode(line.start, line.end, number=None, complete=False)
                    art.paragraphs.append(para)
                    self.para = para
                    return
            self.preamble.append(line)
            return
        if self.para is None:
            para = _ParaNode(line.start, line.end, number=None)
            self.article.paragraphs.append(para)
            self.para = para
            self.article.end = line.end
            return
        self._append(line)

    def _starts_mid_article(self, line: Line) -> bool:
        """The file begins inside an article: text before the first heading that is not a preamble."""
        if self.title is not None or self.preamble:
            return False
        first = line.text.lstrip("«\"'(")
        return bool(first) and (first[0].islower() or line.kind in ("paragraph", "point"))

    def _append(self, line: Line) -> None:
        assert self.para is not None
        if self.stack:
            innermost = self.stack[-1]
            # only the end of the point is looked at: a point of ten thousand lines stays linear
            innermost_text = self.ct.text[max(innermost.start, innermost.end - _TAIL):innermost.end].rstrip()
            # dash items under "a) in the Netherlands:" are that point's own list, not a wrap-up
            # a division that announces its text ("B. In the case of Greece:") and holds no items
            # goes on in the unmarked sentences after it
            open_point = not patterns.SENTENCE_END.search(innermost_text) or (
                line.kind == "bullet" and (innermost_text.endswith(":") or self._last_line_was_bullet(innermost))
            ) or (innermost.kind == "upper" and not innermost.children and innermost_text.endswith(":"))
            if open_point and innermost.pending_wrap_start is None:
                for node in self.stack:
                    node.extend(line.end)
            else:
                # the list is over (or paused): wrap-up of the list's owner
                owner: _Node = self.stack[-2] if len(self.stack) > 1 else self.para
                if owner.pending_wrap_start is None:
                    owner.pending_wrap_start = line.start
                del self.stack[self.stack.index(innermost):]
                for node in [*self.stack]:
                    node.extend(line.end)
        self.para.extend(line.end)
        if self.article is not None:
            self.article.end = max(self.article.end, line.end)

    def _last_line_was_bullet(self, node: _Node) -> bool:
        text = self.ct.text
        line_start = text.rfind("\n", node.start, node.end)
        return line_start >= 0 and bool(patterns.BULLET.match(text[line_start + 1:node.end]))

    # -- finish
    def finish(self, version_end_of_file: bool) -> tuple[list[Article], list[Protocol]]:
        ct = self.ct
        # a version that ends without its closing formula ends mid-document
        if self.articles and not self.saw_closing:
            last = self.articles[-1]
            last.complete = False
            last_end = max([last.end] + [p.end for p in last.paragraphs])
            tail = ct.text[last.start:last_end].rstrip()
            cut_mid_sentence = not patterns.SENTENCE_END.search(tail)
            if last.paragraphs and cut_mid_sentence:
                last.paragraphs[-1].complete = False
            self.warn(
                "text_truncated", _article_eid(last.number),
                "the text stops " + ("mid-sentence " if cut_mid_sentence else "")
                + f"in article {last.number} before the convention's closing clause; the rest is not in the source",
            )
        for art in self.articles[:-1]:
            self._check_cut_inside_a_word(art)
        articles = [self._article_model(a) for a in self.articles]
        protocols = [
            Protocol(
                eid=f"protocol_{k}",
                heading=p.heading,
                span=ct.original_span(p.start, max([p.end] + [q.end for q in p.paragraphs])),
                paragraphs=self._paragraph_models(f"protocol_{k}", p.paragraphs),
            )
            for k, p in enumerate(self.protocols, start=1)
        ]
        for art in articles:
            if not art.complete and not art.number_inferred:
                continue
            if art.number_inferred and art.heading is None:
                self.warn("article_incomplete", art.eid,
                          f"the text starts inside an article; numbered {art.number} from the next heading")
        return articles, protocols

    def _check_cut_inside_a_word(self, art: _ArticleNode) -> None:
        """An article whose text ends in half a word ("10 % do mon-") right before the next
        heading lost the rest of its text with a page: it is incomplete, whatever it said."""
        end = max([art.end] + [p.end for p in art.paragraphs])
        tail = self.ct.text[max(art.start, end - 40):end].rstrip()
        if not art.paragraphs or not _CUT_WORD.search(tail):
            return
        art.complete = False
        art.paragraphs[-1].complete = False
        self.warn("text_truncated", _article_eid(art.number),
                  f"article {art.number} stops inside a word ({tail.split()[-1]!r}) before the next heading; "
                  "the rest of it is not in the source")

    def _article_model(self, a: _ArticleNode) -> Article:
        eid = _article_eid(a.number)
        paragraphs = self._paragraph_models(eid, a.paragraphs)
        end = max([a.end] + [p.end for p in a.paragraphs])
        body = "\n".join(p.text for p in paragraphs)
        topic = classify_article(a.heading, body, self.language) if self.supported else None
        if self.supported and topic is None:
            self.warn("topic_unknown", eid, f"article {a.number} ({a.heading or 'no heading'}) matches no Model topic")
        return Article(
            eid=eid, number=a.number, number_inferred=a.number_inferred, heading=a.heading, topic=topic,
            complete=a.complete, chapter=a.chapter, span=self.ct.original_span(a.start, end), paragraphs=paragraphs,
        )

    def _paragraph_models(self, owner: str, paras: list[_ParaNode]) -> list[Paragraph]:
        out, unnumbered = [], 0
        for p in paras:
            if p.number is None:
                unnumbered += 1
                eid = f"{owner}__para_nn_{unnumbered}"
            else:
                eid = f"{owner}__para_{p.number}"
            points = self._point_models(eid, p.children)
            intro, wrap = self._intro_wrap(p)
            out.append(Paragraph(
                eid=eid, number=p.number, number_inferred=p.number_inferred, complete=p.complete,
                text=self.ct.text[p.start:p.end].strip(), span=self._span(p.start, p.end),
                intro=intro, wrap_up=wrap, points=points,
            ))
            if not (p.number is None and any(q.protocol_article for q in paras)):
                # "... agreed upon the following provisions:" then the protocol's articles
                self._check_missing_items(eid, p, points)
        return out

    def _point_models(self, owner: str, points: list[_PointNode]) -> list[Point]:
        out = []
        for p in points:
            eid = f"{owner}__point_{p.label}"
            intro, wrap = self._intro_wrap(p)
            out.append(Point(
                eid=eid, label=p.label, label_printed=p.printed, text=self.ct.text[p.start:p.end].strip(),
                span=self._span(p.start, p.end), intro=intro, wrap_up=wrap,
                points=self._point_models(eid, p.children),
            ))
            if p.printed is not None:
                self.warn("ocr_repaired", eid, f"point label {p.printed!r} read as {p.label!r} from the list's sequence")
        return out

    def _span(self, start: int, end: int) -> tuple[int, int]:
        text = self.ct.text
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        return self.ct.original_span(start, end)

    def _intro_wrap(self, node: _Node) -> tuple[str | None, str | None]:
        if not node.children:
            return None, None
        first = node.children[0]
        intro = self.ct.text[node.start:getattr(first, "marker_start", first.start)].strip() or None
        last_end = node.children[-1].end
        wrap = self.ct.text[last_end:node.end].strip() or None
        return intro, wrap

    def _check_missing_items(self, eid: str, para: _ParaNode, points: list[Point]) -> None:
        """A paragraph or point that announces a list (ends a line with ":") and has none after it."""
        text = self.ct.text[para.start:para.end]
        own = text if not para.children else (self._intro_wrap(para)[0] or "")
        lines = own.split("\n")
        for k, ln in enumerate(lines):
            if k + 1 < len(lines) and patterns.BULLET.match(lines[k + 1].strip()):
                continue  # the items are dash bullets ("to wit:" then "– the Agreement of ...")
            if ln.rstrip().endswith(":") and (k + 1 < len(lines) or not para.children):
                if _announced_text_follows(lines[k + 1 :]):
                    continue
                self.warn("list_items_missing", eid,
                          f"{eid} announces a list ({ln.strip()[-40:]!r}) but no items follow in the source text")
                return
        for point in points:
            if point.text.rstrip().endswith(":") and not point.points:
                self.warn("list_items_missing", point.eid,
                          f"{point.eid} announces a list but no items follow in the source text")


#: "... shall be eliminated as follows:" then the rule itself in sentences: the text a colon
#: announces is there when at least this much follows it, in this many sentences
_ANNOUNCED_TEXT_MIN_CHARS = 300
_ANNOUNCED_TEXT_MIN_SENTENCES = 3
_SENTENCE_STOP = regex.compile(r"[.;!?](?=\s|$)")


def _announced_text_follows(lines: list[str]) -> bool:
    """Is what a colon announces present as running text ("In India double taxation shall be
    eliminated as follows:" then paragraphs of sentences), rather than lost list items with at
    most a wrap-up sentence after them? A following line that starts in lower case, or too little
    text, is not enough."""
    following = [ln.strip() for ln in lines if ln.strip()]
    if not following or not following[0][:1].isupper():
        return False
    text = " ".join(following)
    return len(text) >= _ANNOUNCED_TEXT_MIN_CHARS and len(_SENTENCE_STOP.findall(text)) >= _ANNOUNCED_TEXT_MIN_SENTENCES


# -- versions -------------------------------------------------------------------------------------


def _segment_versions(lines: list[Line]) -> list[list[Line]]:
    """Split lines into language versions: at a convention title once articles were seen, or where
    the article numbering restarts at 1 outside a protocol."""
    segments: list[list[Line]] = [[]]
    seen_article = False
    max_number = 0
    in_protocol = False
    for line in lines:
        restart = False
        if line.kind == "title" and (seen_article or in_protocol):
            restart = True
        elif line.kind == "article" and not in_protocol and not line.match.group("damaged"):  # type: ignore[union-attr]
            value = heading_value(line.match)
            if value == 1 and max_number >= 3:
                restart = True
        if restart:
            segments.append([])
            seen_article, max_number, in_protocol = False, 0, False
        segments[-1].append(line)
        if line.kind == "article" and not in_protocol:
            seen_article = True
            if not line.match.group("damaged"):  # type: ignore[union-attr]
                max_number = max(max_number, heading_value(line.match) or 0)
        elif line.kind == "protocol" and seen_article:
            in_protocol = True
    return [s for s in segments if s]


@lru_cache(maxsize=1)
def _article_word_languages() -> dict[str, str]:
    """Article words that belong to one supported language only ("Artigo" pt, "Artículo" es,
    "Article" en); a word two supported languages share ("Art.") tells nothing."""
    owners: dict[str, set[str]] = {}
    for code, lang in vocab.languages().items():
        for word in lang.article_words:
            owners.setdefault(vocab.fold(word).rstrip("."), set()).add(code)
    supported = {code for code, lang in vocab.languages().items() if lang.supported}
    out = {}
    for word, codes in owners.items():
        own = codes & supported
        if len(own) == 1:
            out[word] = next(iter(own))
    return out


#: headings a language needs in a segment before its pages are told apart from another's
_MIN_HEADINGS_PER_LANGUAGE = 2


def _split_interleaved_pages(segment: list[Line]) -> list[list[Line]]:
    """A bilingual text printed a page of each ("Artigo 10.º", "Artigo 11.º", then "Article 10",
    "Article 11", then "Artigo 12.º" ...): the numbering never restarts at 1, so the second
    language's headings would be refused as out of sequence and its text swallowed by the first.
    Blocks are cut where the heading word changes language, and each language's blocks are put
    back together. A segment whose headings use one language's words is returned as it is."""
    words = _article_word_languages()
    marks: list[tuple[int, str]] = []  # (index of the heading line, its language)
    for k, line in enumerate(segment):
        if line.kind == "article":
            language = words.get(vocab.fold(line.match.group("word")).rstrip("."))  # type: ignore[union-attr]
            if language:
                marks.append((k, language))
    counts: dict[str, int] = {}
    for _, language in marks:
        counts[language] = counts.get(language, 0) + 1
    if len([n for n in counts.values() if n >= _MIN_HEADINGS_PER_LANGUAGE]) < 2:
        return [segment]
    groups: dict[str, list[Line]] = {}
    current = marks[0][1]
    cuts = [k for k in range(1, len(marks)) if marks[k][1] != marks[k - 1][1]]
    start = 0
    for cut in [*cuts, len(marks)]:
        end = marks[cut][0] if cut < len(marks) else len(segment)
        current = marks[cut - 1][1]
        groups.setdefault(current, []).extend(segment[start:end])
        start = end
    return [group for group in groups.values() if group]


def parse_text(original: str, *, path: str | os.PathLike[str] | None = None, data: bytes | None = None,
               encoding: str = "utf-8", decode_warnings: list[str] | None = None) -> Document:
    """Parse decoded text. Raises `NoArticlesError` when no article could be found at all."""
    raw = data if data is not None else original.encode("utf-8")
    ct = clean(original)
    lines = split_lines(ct.text)
    _contents_table(lines)
    _number_style(lines)
    warnings: list[Warning] = [Warning(code="encoding", eid=None, language=None, message=w) for w in decode_warnings or []]
    versions: list[Version] = []
    for segment in [part for seg in _segment_versions(lines) for part in _split_interleaved_pages(seg)]:
        seg_text = "\n".join(line.text for line in segment)
        language, _margin = detect_language(seg_text)
        lang_info = vocab.languages().get(language or "")
        supported = bool(lang_info and lang_info.supported)
        builder = _VersionBuilder(segment, ct, language, supported)
        builder.build()
        articles, protocols = builder.finish(True)
        if language is None:
            warnings.append(Warning(code="language_unknown", eid=None, language=None,
                                    message="could not tell the language of a part of the text"))
        elif not supported:
            warnings.append(Warning(
                code="unsupported_language", eid=None, language=language,
                message=f"a version in {lang_info.name if lang_info else language} ({language}) was found; "
                "this language is not supported, so no topics or provisions are inferred from it",
            ))
        if not articles and not protocols:
            continue
        warnings += builder.warnings
        start, end = segment[0].start, segment[-1].end
        versions.append(Version(
            language=language or "und", supported=supported, title=builder.title,
            span=ct.original_span(start, end), chapters=builder.chapters, articles=articles, protocols=protocols,
        ))
    if not any(v.articles for v in versions):
        raise NoArticlesError("no articles found: the text does not look like a tax convention")
    _dedupe_eids(versions, warnings)
    doc = Document(
        source=Source(path=path, sha256=hashlib.sha256(raw).hexdigest(), bytes=len(raw), encoding=encoding),
        versions=versions,
        warnings=warnings,
    )
    doc._original = original
    doc._clean = ct
    metadata.fill(doc, ct, lines)
    return doc


def parse(source: str | bytes, *, path: str | os.PathLike[str] | None = None) -> Document:
    """Parse a treaty text (str, or bytes in any common encoding) into a `Document`."""
    if isinstance(source, bytes):
        decoded = decode_bytes(source)
        return parse_text(decoded.text, path=path, data=source, encoding=decoded.encoding,
                          decode_warnings=decoded.warnings)
    if not source.strip():
        raise InputError("input is empty")
    check_lines(source)
    text = source[1:] if source.startswith("\ufeff") else source
    return parse_text(text, path=path)


def parse_file(path: str | os.PathLike[str]) -> Document:
    """Parse the file at `path` (a `str` or any path-like object; the document keeps it as text)."""
    path = os.fsdecode(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    return parse(data, path=path)


def _dedupe_eids(versions: list[Version], warnings: list[Warning]) -> None:
    """eIds must be unique within a version: a repeated one gets a suffix (and a warning)."""
    from taxtreaty.structure.model import iter_nodes

    for version in versions:
        seen: dict[str, int] = {}
        for node in iter_nodes(version):
            if node.eid in seen:
                seen[node.eid] += 1
                new = f"{node.eid}_{seen[node.eid]}"
                warnings.append(Warning(code="duplicate_eid", eid=new, language=version.language,
                                        message=f"{node.eid} occurs more than once; this one is {new}"))
                _rename(node, node.eid, new)
            else:
                seen[node.eid] = 1


def _rename(node: Article | Paragraph | Point, old: str, new: str) -> None:
    node.eid = new
    children = node.paragraphs if isinstance(node, Article) else node.points
    for child in children:
        _rename(child, child.eid, new + child.eid[len(old):])
