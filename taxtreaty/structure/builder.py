"""The tree builder: one pass over a version's lines that opens articles, paragraphs and points
as their markers are accepted. A marker is accepted only when it fits the sequence (article 9
after 8, paragraph 3 after 2, point "b" after "a"), so cross-references that happen to start a
line ("Article 7 or Article 14, as the case may be...") stay text. What cannot be placed is kept
as text of the enclosing node and reported.
"""

from __future__ import annotations

import regex

from taxtreaty import patterns, vocab
from taxtreaty.structure import eids
from taxtreaty.structure.assemble import Assembler
from taxtreaty.structure.languages import detect_language
from taxtreaty.structure.lines import Line, heading_number, heading_value
from taxtreaty.structure.lists import ListLabels
from taxtreaty.structure.model import Article, Chapter, Protocol, Warning
from taxtreaty.structure.nodes import ArticleNode, Node, ParaNode, PointNode, ProtocolNode
from taxtreaty.structure.numbers import (
    article_number_value,
    clean_article_number,
    clean_label,
    int_to_roman,
    label_for,
    label_value,
)
from taxtreaty.text import CleanText
from taxtreaty.text.clean import heading_title_ok, is_known_heading, title_like
from taxtreaty.text.lines import enacting_after_title
from taxtreaty.text.lines import title_cased as _title_cased

#: a letter O printed right after an article number ("11O", "1 1 O"): a zero, or the ordinal mark "º" a scanner
#: read as a letter; which one, the sequence says
_ORDINAL_O = regex.compile(r"[ ]?[Oo]$")
#: how much of the end of an open point is looked at to tell whether it goes on
_TAIL = 200
#: what a title under a heading never holds: a sentence's commas, a figure, a second sentence
_SENTENCE_MARKS = regex.compile(r"[,;:\d]|\.\s")
#: a line that ends a sentence, then one that starts another with a capital
_SENTENCE_BREAK = regex.compile(r"(?<=[.!?][\"'»”)]*)\n(?=[«\"“(]?\p{Lu})")


def _is_upper_division(text: str, label: str) -> bool:
    """The point marker is an upper-case letter and a dot ("A. In Kenya:"), not "A)" nor "(A)"."""
    return len(label) == 1 and label.isupper() and text[1:2] == "."



class VersionBuilder(ListLabels):
    def __init__(self, lines: list[Line], ct: CleanText, language: str | None, supported: bool):
        self.lines = lines
        self.ct = ct
        self.language = language
        self.supported = supported
        self.articles: list[ArticleNode] = []
        self.chapters: list[Chapter] = []
        self.protocols: list[ProtocolNode] = []
        self.warnings: list[Warning] = []
        self.title: str | None = None
        self.chapter: str | None = None
        self.preamble: list[Line] = []
        self.closed = False  # after the closing formula: no article content until a protocol
        self.saw_closing = False
        self.article: ArticleNode | None = None
        self.protocol: ProtocolNode | None = None
        self.para: ParaNode | None = None
        self.stack: list[PointNode] = []
        self.index = 0  # of the line being read
        #: the version numbers its articles in roman numerals ("ARTICLE IV")
        self.roman = any(ln.kind == "article" and ln.match.group("roman") for ln in lines)  # type: ignore[union-attr]

    # -- warnings
    def warn(self, code: str, eid: str | None, message: str) -> None:
        self.warnings.append(Warning(code=code, eid=eid, language=self.language, message=message))

    # -- containers
    def _container_paragraphs(self) -> list[ParaNode] | None:
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
        if not self.articles and self._approving_article(index):
            return None
        last = self._last_number()
        if m.group("damaged"):  # type: ignore[union-attr]
            expected = (last + 1) if last is not None else self._number_from_next(index)
            if expected is None:
                return None
            return self._format_number(expected), True
        number = heading_number(m)  # type: ignore[assignment]
        assert number is not None
        ordinal_o = _ORDINAL_O.sub("", m.group("num") or "")  # type: ignore[union-attr]
        if last is not None and ordinal_o != (m.group("num") or "") and clean_article_number(ordinal_o) == str(last + 1):  # type: ignore[union-attr]
            return str(last + 1), False  # the ordinal mark a scanner read as a letter O ("ARTIGO 11O", "ARTIGO 1 1 O")
        value = article_number_value(number)
        if last is None or value is None:
            return number, False
        if value == last + 1 or (value == last and number != self.articles[-1].number):
            return number, False
        if last + 1 < value <= last + 3 and not self._expected_comes_later(index, last, value):
            self._warn_gap(number, last, value)
            return number, False
        # a longer jump forward only for a real heading (a title on its line or the next), not a
        # cross-reference that happens to start a line; the gap is reported
        has_title = bool((m.group("title") or "").strip()) or (  # type: ignore[union-attr]
            index + 1 < len(self.lines) and self._is_title_line(self.lines[index + 1], index)
        )
        if value > last and has_title:
            self._warn_gap(number, last, value)
            return number, False
        if has_title and self._digits_lost(number, last + 1) and self._next_value(index) == last + 2:
            # "ARTIGO 1" and its title between articles 11 and 13: the "12" a scanner cut, not a reference
            return self._format_number(last + 1), True
        return None

    def _approving_article(self, index: int) -> bool:
        """Before any article of the convention, a heading whose sentence goes on on the next line and opens with an
        approving instrument's words ("Art. 1o  A" / "Convenção ..., apensa por cópia ao presente Decreto, será
        executada"; "Art. 2o" / "São sujeitos à aprovação do Congresso Nacional ..."): the decree's article, text."""
        line = self.lines[index]
        title = (line.match.group("title") or "").strip()  # type: ignore[union-attr]
        if title and title_like(title) and len(title) > 3:
            return False
        # the next line of the text, wherever the versions were split ("Convenção entre ..." reads like a title)
        following = self.ct.text[line.end:].lstrip("\n").split("\n", 2)
        return enacting_after_title(title, following)

    @staticmethod
    def _digits_lost(printed: str, expected: int) -> bool:
        """Could `printed` be `expected` with digits lost ("1" of "12", "2" of "12")? Its digits
        are a part of the expected number's, in order."""
        digits = "".join(c for c in printed if c.isdigit())
        return bool(digits) and digits != str(expected) and digits in str(expected)

    def _next_value(self, index: int) -> int | None:
        """The number of the next undamaged article heading after `index`."""
        for line in self.lines[index + 1 :]:
            if line.kind == "article" and not line.match.group("damaged"):  # type: ignore[union-attr]
                return heading_value(line.match)
            if line.kind in ("protocol", "title"):
                return None
        return None

    def _expected_comes_later(self, index: int, last: int, value: int) -> bool:
        """A short jump ("Article 14" after 12) is a cross-reference starting a line when the next heading is 13 or 14."""
        for line in self.lines[index + 1 :]:
            if line.kind == "article" and not line.match.group("damaged"):  # type: ignore[union-attr]
                later = heading_value(line.match)
                return later is not None and last < later <= value
        return False

    def _format_number(self, value: int) -> str:
        """An inferred article number, in the style the version prints its numbers."""
        return int_to_roman(value).upper() if self.roman else str(value)

    def _warn_gap(self, number: str, last: int, value: int) -> None:
        self.warn("articles_missing", eids.article(number),
                  f"article {number} follows article {self.articles[-1].number}: "
                  f"{self._missing_range(last + 1, value - 1)} not in the text")

    def _missing_range(self, first: int, last: int) -> str:
        """The articles a gap leaves out, readable: "article 13 is", "articles 13 to 17 are"; in
        roman numbering with their values too ("articles III to IX (3 to 9) are")."""
        if first == last:
            value = f" ({first})" if self.roman else ""
            return f"article {self._format_number(first)}{value} is"
        values = f" ({first} to {last})" if self.roman else ""
        return f"articles {self._format_number(first)} to {self._format_number(last)}{values} are"

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
            self.index = i
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
                end = line.end
                # "PROTOCOLO AL CONVENIO ... PARA" / "EVITAR LA DOBLE IMPOSICION ...": a heading in
                # capitals hard-wrapped over several lines
                titled = bool((line.match.group("title") or "").strip()) if line.match else False  # type: ignore[union-attr]
                while (titled and heading.isupper() and i + 1 < len(lines) and lines[i + 1].kind == "text"
                       and lines[i + 1].text.isupper() and len(heading) < 400):
                    i += 1
                    heading += " " + lines[i].text.strip()
                    end = lines[i].end
                self.protocol = ProtocolNode(line.start, end, heading)
                self.protocols.append(self.protocol)
                self.closed = False
            elif kind == "chapter" and self.protocol is None:
                self._close_article()
                m = line.match
                title = (m.group("title") or "").strip()  # type: ignore[union-attr]
                if not title and i + 1 < len(lines) and self._is_title_line(lines[i + 1], i):
                    i += 1
                    title = lines[i].text.lstrip("#").strip().rstrip(".")
                number = m.group("num")  # type: ignore[union-attr]
                self.chapter = eids.chapter(number)
                span = self.ct.original_span(line.start, lines[i].end)
                self.chapters.append(Chapter(eid=self.chapter, number=number, heading=title or None, span=span))
                self.closed = False
            elif kind == "article" and self.protocol is not None and self._accept_protocol_article(line):
                pass
            elif kind == "article" and self.protocol is None and (accepted := self._accept_article(line, i)):
                number, inferred = accepted
                self._open_article(line, number, inferred)
                m = line.match
                # "Artículo 10. Dividendos.": the title without its full stop, as when it stands on the next line
                title = (m.group("title") or "").strip().strip("()").strip().rstrip(".").rstrip()  # type: ignore[union-attr]
                if not title and i + 1 < len(lines) and self._is_title_line(lines[i + 1], i):
                    i += 1
                    # "(Pensões)" on its own line; "Dividendos." under "Artículo 10." (the BOE)
                    title = patterns.RUN_IN_TITLE_END.sub("", lines[i].text.lstrip("#").strip()).strip("()").strip().rstrip(".").rstrip()
                    self.article.end = lines[i].end  # type: ignore[union-attr]
                    # "Estudiantes, Aprendices de Actividades / Comerciales, Profesores, Maestros e /
                    # Investigadores": a title in title case wrapped over several lines
                    while (i + 1 < len(lines) and self._is_title_line(lines[i + 1]) and _title_cased(title)
                           and _title_cased(lines[i + 1].text) and len(title) + len(lines[i + 1].text) <= 200):
                        i += 1
                        title += " " + lines[i].text.lstrip("#").strip()
                        self.article.end = lines[i].end  # type: ignore[union-attr]
                self.article.heading = title or None  # type: ignore[union-attr]
                if inferred:
                    self.warn(
                        "article_number_inferred", eids.article(number),
                        f"heading {line.text[:40]!r} has a damaged number; read as {number} from its neighbours",
                    )
            elif kind in ("paragraph", "point") and self.closed:
                pass  # after the signatures: a footnote's "(3)" under an Order is no paragraph of the protocol
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
        para = ParaNode(line.start + line.match.end("num") if line.match.group("num") else line.end,  # type: ignore[union-attr]
                         line.end, number=number, protocol_article=True)
        self.protocol.paragraphs.append(para)
        self.para = para
        self.stack = []
        self.protocol.end = line.end
        return True

    def _is_title_line(self, line: Line, heading_index: int | None = None) -> bool:
        """Is `line`, right under the heading at `heading_index`, that heading's title? A line that
        ends a sentence is one only as the BOE prints titles ("Artículo 10." then "Dividendos."):
        a usual article title, or a short title-like line under a heading whose number ends with a
        stop, with the article's text still to come (a one-sentence article is not its own title)."""
        text = line.text.lstrip("#").strip()
        if not (line.kind == "text" and 0 < len(text) <= 100
                and heading_title_ok("", text)):  # "Pensões", "(Pensões)", "(remunerações públicas)"
            return False
        if not text.endswith((".", ":")):
            return True
        if heading_index is None or text.endswith(":") or text.endswith(".."):
            return False
        bare = text[:-1].rstrip()
        if is_known_heading(bare):
            return True
        heading = self.lines[heading_index]
        after = self.lines[heading_index + 2] if heading_index + 2 < len(self.lines) else None
        return (
            heading.text.rstrip("*_ ").endswith(".") and not (heading.match and (heading.match.group("title") or "").strip())
            and len(bare) <= 80 and len(bare.split()) <= 10 and not _SENTENCE_MARKS.search(bare)
            and title_like(bare) and after is not None and after.kind in ("text", "paragraph", "point")
            # "Los dividendos sólo pueden ...": a sentence opens on an article, a title never does
            and vocab.fold(bare.split()[0]) not in vocab.reference_lead_words()
        )

    def _open_article(self, line: Line, number: str, inferred: bool) -> None:
        self._close_article()
        self.closed = False
        art = ArticleNode(line.start, line.end, number, inferred, chapter=self.chapter)
        self.articles.append(art)
        self.article = art

    def _ensure_fragment_article(self, line: Line) -> ArticleNode | None:
        """Text before the first heading of a version that starts mid-article."""
        first = next((ln for ln in self.lines if ln.kind == "article" and not ln.match.group("damaged")), None)  # type: ignore[union-attr]
        if first is None:
            return None
        value = heading_value(first.match)
        if not value or value <= 1:
            return None
        art = ArticleNode(line.start, line.end, self._format_number(value - 1), number_inferred=True, complete=False,
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
            elif value == last + 2 and last_numbered is container[-1] and self._lost_number(container, last + 1):
                pass  # "1. ...", "Sin embargo, ...", "3. ...": paragraph 2 lost its number, not its text
            elif last + 1 < value <= last + 3:
                owner = self._owner_eid()
                self.warn("paragraphs_missing", owner, f"paragraph {value} follows paragraph {last}: text is missing")
            else:
                return False
        elif value > 6 and not (self.article and self.article.fragment):
            return False
        content_start = line.start + m.end()  # type: ignore[union-attr]
        para = ParaNode(content_start, line.end, number=number)
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

    def _lost_number(self, container: list[ParaNode], number: int) -> bool:
        """Paragraph N+2 follows paragraph N, and N holds one more line that starts a sentence of its
        own after N's last one ("... en este otro Estado." then "Sin embargo, dichas regalías ..."):
        that line is paragraph N+1, printed without its number. Only with no list in N and exactly
        one such line (two or more could be any of them: the text is then reported as missing)."""
        para = container[-1]
        if para.children or self.stack:
            return False
        text = self.ct.text[para.start:para.end]
        breaks = [m.start() for m in _SENTENCE_BREAK.finditer(text)]
        if len(breaks) != 1:
            return False
        cut = para.start + breaks[0] + 1
        lost = ParaNode(cut, para.end, number=str(number), number_inferred=True)
        para.end = cut - 1
        container.append(lost)
        self.warn("paragraph_number_inferred", eids.paragraph(self._owner_eid() or "", str(number)),
                  f"paragraph {number + 1} follows paragraph {number - 1}; the text between them, which starts "
                  f"a sentence on a line of its own, is read as paragraph {number}")
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
        para = ParaNode(content_start, line.end, number=label, bracket=True)
        container.append(para)
        self.para = para
        self.stack = []
        return True

    def _fragment_start_allowed(self, line: Line) -> bool:
        return not self.articles and self.protocol is None

    def _owner_eid(self) -> str | None:
        if self.article is not None:
            return eids.article(self.article.number)
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
        para = ParaNode(line.start, line.end, number=None)
        container.append(para)
        self.para = para
        self.stack = []
        return True

    def _open_point(self, line: Line, content_start: int, placed: tuple[int, str, str, bool], printed: str) -> None:
        depth, label, kind, repaired = placed
        assert self.para is not None
        del self.stack[depth:]
        parent: Node = self.stack[-1] if self.stack else self.para
        if parent.pending_wrap_start is not None:
            # text between two items of a list belongs to the item before it
            parent.pending_wrap_start = None
        point = PointNode(content_start, line.end, label=label, kind=kind, printed=printed if repaired else None)
        point.marker_start = line.start  # type: ignore[attr-defined]
        parent.children.append(point)
        parent.child_labels.add(label)
        self.stack.append(point)
        for node in [self.para, *self.stack]:
            node.extend(line.end)

    # -- text lines
    def _text(self, line: Line) -> None:
        if self.closed:
            return
        if self.protocol is not None:
            if self.para is None:
                para = ParaNode(line.start, line.end, number=None)
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
                    para = ParaNode(line.start, line.end, number=None, complete=False)
                    art.paragraphs.append(para)
                    self.para = para
                    return
            self.preamble.append(line)
            return
        if self.para is None:
            para = ParaNode(line.start, line.end, number=None)
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
            ) or (not innermost.children and innermost_text.endswith(":") and (
                # "a) En la República Argentina:" then "el Impuesto a las ganancias ...": the items
                # printed without markers are the point's own text, not a wrap-up of the list
                innermost.kind == "upper" or line.text[:1].islower()))
            if open_point and innermost.pending_wrap_start is None:
                for node in self.stack:
                    node.extend(line.end)
            else:
                # the list is over (or paused): wrap-up of the list's owner
                owner: Node = self.stack[-2] if len(self.stack) > 1 else self.para
                if owner.pending_wrap_start is None:
                    owner.pending_wrap_start = line.start
                del self.stack[self.stack.index(innermost):]
                for node in [*self.stack]:
                    node.extend(line.end)
        self.para.extend(line.end)
        if self.article is not None:
            self.article.end = max(self.article.end, line.end)

    def _last_line_was_bullet(self, node: Node) -> bool:
        text = self.ct.text
        line_start = text.rfind("\n", node.start, node.end)
        return line_start >= 0 and bool(patterns.BULLET.match(text[line_start + 1:node.end]))

    # -- finish
    def finish(self) -> tuple[list[Article], list[Protocol]]:
        """The version's articles and protocols as model nodes (with the checks of the whole tree)."""
        assembler = Assembler(self.ct, self.language, self.supported, self.warn)
        return assembler.finish(self.articles, self.protocols, self.saw_closing)
