"""Clean gazette text: what is true after `clean(original)`.

- Every logical block (heading, numbered paragraph, point, free sentence block) is one line;
  lines are separated by a single "\\n" and carry no leading or trailing blanks.
- Page furniture is gone wherever it fell: date lines, page numbers, series lines, running
  headers at the start of a line, markdown heading marks and simple HTML tags, and any short
  non-structural line printed three times or more (a running header the tables do not know).
- Lines broken by the page or the typesetter are joined again: "mon-" + "tante" -> "montante";
  "owner of the" + "dividends the tax" -> "owner of the dividends the tax".
- Points and article headings run into the previous line ("...local; ii) Ao Banco",
  "...this Agreement. Article 12 ROYALTIES") start a line of their own.
- Mojibake ("ConvenÃ§Ã£o") is repaired with ftfy.
- Accented letters a copy lost with its encoding ("Artculo", "Art?culo" for "Artículo") are written again
  where the language data knows the one word they stand for (`text/accents.py`; `CleanText.accents`).
- `CleanText.map` takes any range of the cleaned text back to the original characters.

Nothing is guessed about structure here beyond where a line may be joined; markers are kept
as printed (OCR repairs of numbers and labels happen in the structure parser, which reports
them).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

import ftfy
import regex

from taxtreaty import patterns, vocab
from taxtreaty.text import accents
from taxtreaty.text.accents import Restoration
from taxtreaty.text.footnotes import Footnotes, find_footnotes, footnote_marker_edits
from taxtreaty.text.furniture import (
    RUNNING_HEADER_MIN_REPEATS,
    furniture_prefix_patterns,
    furniture_rule,
    note_piece,
    prefix_rules_after,
    read_misread_digits,
    repeated_lines,
    running_key,
)
from taxtreaty.text.inline import (
    heading_run_in_gap,
    inline_article_split,
    inline_list_gaps,
    inline_point_split,
    inline_structure_gaps,
    next_paragraph_gaps,
    next_point_gaps,
    paragraph_opened,
    point_opened,
)
from taxtreaty.text.join import (
    heading_title_of,
    join_mode,
    label_wrapped,
    reference_wrapped,
    title_like_short,
)
from taxtreaty.text.lines import (
    LINE,
    article_heading_match,
    heading_title_ok,
    is_known_heading,
    line_kind,
    title_like,
)
from taxtreaty.text.runon import CONTINUED, RUNON_MIN, runon_pieces
from taxtreaty.text.spanmap import SpanMap, TextBuilder

#: the cleaner's steps live in their own modules; these names are imported from here too
__all__ = [
    "RUNNING_HEADER_MIN_REPEATS", "CleanText", "Footnotes", "article_heading_match", "clean", "find_footnotes",
    "furniture_rule", "heading_run_in_gap", "heading_title_ok", "inline_structure_gaps", "is_known_heading",
    "line_kind", "repeated_lines", "title_like", "title_like_short",
]


@dataclass
class CleanText:
    text: str
    map: SpanMap
    original: str
    #: original ranges dropped as page furniture, with the name of the rule
    furniture: list[tuple[int, int, str]] = field(default_factory=list)
    #: the words written again with the accented letters the copy lost (None: no word had lost one)
    accents: Restoration | None = None

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        return self.map.to_original(start, end)


# -- named pieces -------------------------------------------------------------------------------

_MOJIBAKE_HINT = regex.compile(r"Ã[\x80-\xBF¡-ÿ]|Â[\x80-\xBF]|â€|â[\x80-\x9F]|Ãƒ")
_MD_HEADING = regex.compile(r"^\#{1,6}[^\S\n]*")
_MD_EMPHASIS_ONLY = regex.compile(r"^[*_ \t]+$")
#: a backslash before ASCII punctuation (markdown's escape, CommonMark: never the treaty's text), a soft
#: hyphen not at the line's end, the spaces that do not break a line
_SPACES = frozenset("\u00a0\u2007\u202f")
_INVISIBLE_CHARS = ("\\", "\u00ad", *_SPACES)
_INVISIBLE = regex.compile(r"\\(?=[!-/:-@\[-`{-~])|\u00ad(?!$)|[\u00a0\u2007\u202f]")
#: bold around a line, or opening or closing one ("**ARTICULO 10**", "**Dividendos**", "**ARTICULO 1° -** Apruébase")
_MD_BOLD_OPEN = regex.compile(r"^(?:\*\*|__)(?=\S)")
_MD_BOLD_CLOSE = regex.compile(r"(?<=\S)(?:\*\*|__)$")


@cache
def _html_tag() -> regex.Pattern[str]:
    """The simple HTML tags a converted text carries ("<sup>", "</b>"; names in `furniture.yaml`)."""
    return regex.compile(rf"</?(?:{vocab.phrase_alternation(vocab.html_tags())})\b[^<>]{{0,40}}>", regex.IGNORECASE)
#: how much of the previous line the joiner looks at
_TAIL = 200


def clean(original: str) -> CleanText:
    """Clean `original` (see the module docstring for the guarantees). The words that lost their accented
    letters are written again first (`accents.restore`), and the map goes through those edits to `original`."""
    restored = accents.restore(original)
    if restored is None:
        return _clean(original)
    edits = restored.edits
    edited = accents.apply(original, edits)
    ct = _clean(edited)
    identity = SpanMap()
    identity.add(0, len(edited), 0, len(edited), True)
    edited_to_original = identity.through(edits)  # for the furniture's ranges
    furniture = [(*edited_to_original.to_original(start, end), rule) for start, end, rule in ct.furniture]
    return CleanText(text=ct.text, map=ct.map.through(edits), original=original, furniture=furniture,
                     accents=restored)


def _clean(original: str) -> CleanText:
    builder = TextBuilder(original)
    furniture: list[tuple[int, int, str]] = []
    prefix_rules = furniture_prefix_patterns()
    rules_after = prefix_rules_after()
    misread = "".join(vocab.ocr_furniture_digits())
    point_split = inline_point_split()
    article_split = inline_article_split()

    #: (marker, number) of the next paragraph of the article being read ("3-", 3): a line of its text that
    #: holds it after a sentence end is cut there (a paragraph printed without its line breaks)
    expected: tuple[str, int] | None = None
    #: ("(" or "", letter) of the next point of the list being read, the same way ("; (c) an office")
    expected_point: tuple[str, str] | None = None
    prev_end = 0  # original offset just after the last kept line
    prev_kind = ""  # kind of the last kept line ("" before the first)
    prev_line = ""  # the end (at most _TAIL characters) of the last kept cleaned line
    title_pending = False  # the last line was a heading whose title is on the next line
    raw_prev = ""  # previous non-blank raw line, for furniture context
    prev_furniture = False  # whether that line was furniture
    note_at: tuple[int, int] | None = None  # where a page's note the last lines printed stands
    last_rule: str | None = None  # the furniture rule of the last non-blank line, when the whole line was furniture
    running = repeated_lines(original)
    notes = find_footnotes(original)

    for line_start, line_end, forced_rule in _pieces(original):
        continued = forced_rule == CONTINUED  # the rest of a heading a copy broke across a line break
        if continued:
            forced_rule = ""
        raw = original[line_start:line_end].rstrip("\n").rstrip("\r")
        # -- strip the line and its furniture prefix, remember where the content starts
        lstrip = len(raw) - len(raw.lstrip())
        content_start = line_start + lstrip
        content_end = line_start + len(raw.rstrip())
        content = original[content_start:content_end]
        if not content:
            continue
        md = _MD_HEADING.match(content) if content[0] == "#" else None
        marked = md is not None  # a heading by its markup ("### Article 13", "**ARTICULO 8**")
        if md:
            furniture.append((content_start, content_start + md.end(), "markdown_heading"))
            content_start += md.end()
            content = original[content_start:content_end]
        if content[:1] in "*_" and (bold := _MD_BOLD_OPEN.match(content)):
            marked = True
            furniture.append((content_start, content_start + bold.end(), "markdown_emphasis"))
            content_start += bold.end()
            content = original[content_start:content_end]
        if content[-1:] in "*_" and (bold := _MD_BOLD_CLOSE.search(content)):
            furniture.append((content_start + bold.start(), content_end, "markdown_emphasis"))
            content_end = content_start + bold.start()
            content = original[content_start:content_end]
        probe = ""
        probed = None  # the content `probe` was made of (made again only when a prefix went)
        for name, first_chars, pattern in prefix_rules:
            if probed is not content:
                # "4l60 United Nations ...": a page number at the start as a scanner misread it
                probe = (read_misread_digits(content[:8]) + content[8:]
                         if content[:1] in misread or content[:1].isdigit() else content)
                probed = content
            if not probe or (first_chars and probe[0] not in first_chars):
                continue
            if name in rules_after and last_rule not in rules_after[name]:
                continue
            pm = pattern.match(probe)
            if pm and pm.end() > 0:
                furniture.append((content_start, content_start + pm.end(), name))
                content_start += pm.end()
                content = original[content_start:content_end]
                if not content:
                    last_rule = name
        if title_pending and content[:1] in "-–—" and (dash := patterns.TITLE_DASH.match(content)) \
                and title_like(content[dash.end():]):
            # "Art. 10" then "- Dividendos": the title behind a dash, not a list's bullet
            furniture.append((content_start, content_start + dash.end(), "title_dash"))
            content_start += dash.end()
            content = original[content_start:content_end]
        if not content or (content[0] in "*_" and _MD_EMPHASIS_ONLY.match(content)):
            if content:
                last_rule = None
            continue
        rule = forced_rule or furniture_rule(content, raw_prev)
        if rule is None and running and running_key(content) in running:
            rule = "running_header"
        if rule is None and line_start in notes.line_starts:
            rule = "footnote"
        piece = note_piece(content, note_at, prev_furniture) if rule is not None or prev_furniture else None
        if rule is None and piece is not None:
            rule = "page_note"  # a page's note wrapped at another width: a piece of it, where the last one stopped
        raw_prev, prev_furniture, note_at = content, rule is not None, piece if rule is not None else None
        last_rule = rule
        if rule:
            furniture.append((content_start, content_end, rule))
            continue

        # -- edits inside the line: tag removal, mojibake, inline splits (original coordinates)
        # (cheap literal tests first: most lines have no tag, no mojibake, no inline marker)
        edits: list[tuple[int, int, str]] = [
            (content_start + t.start(), content_start + t.end(), "") for t in _html_tag().finditer(content)
        ] if "<" in content else []
        if not content.isascii() and _MOJIBAKE_HINT.search(content):
            fixed = ftfy.fix_text(content)
            if fixed != content:
                edits = [(content_start, content_end, fixed)]
        repaired = bool(edits and edits[0][2])  # the whole line was replaced by its repaired text
        if len(edits) <= 1 and not repaired:
            if ")" in content:
                for sm in point_split.finditer(content):
                    edits.append((content_start + sm.start("gap"), content_start + sm.end("gap"), "\n"))
                known = {e[0] for e in edits}
                edits += [(content_start + a, content_start + b, "\n") for a, b in inline_list_gaps(content)
                          if content_start + a not in known]
            for sm in article_split.finditer(content):
                edits.append((content_start + sm.start("gap"), content_start + sm.end("gap"), "\n"))
            for gap_start, gap_end in inline_structure_gaps(content):
                edits.append((content_start + gap_start, content_start + gap_end, "\n"))
            for state, gaps_of in ((expected, next_paragraph_gaps), (expected_point, next_point_gaps)):
                if state is not None:
                    known = {e[0] for e in edits}
                    edits += [(content_start + a, content_start + b, "\n")
                              for a, b in gaps_of(content, *state)[0] if content_start + a not in known]
            edits += footnote_marker_edits(content, content_start, notes)
            if title_pending and (run_in := patterns.RUN_IN_TITLE.match(content)) and title_like(run_in.group("title")):
                # "Empresas asociadas.- Cuando": the title under a bare heading, then the article's text
                edits.append((content_start + run_in.start("gap"), content_start + run_in.end("gap"), "\n"))
            edits.sort()
        if not repaired and (not content.isascii() or "\\" in content) and any(c in content for c in _INVISIBLE_CHARS):
            # a markdown escape ("1\\.", "a\\)", "\\(i)"): the backslash goes, the character it escapes
            # stays; a soft hyphen inside a line goes (at its end it joins the word cut there, see
            # join.py); a no-break or figure space is a space
            # (not inside a gap already cut for a new line: "dividendos;\u00a0 b) 12" keeps one line break)
            gaps = [(a, b) for a, b, new in edits if new == "\n"]
            edits += [(content_start + e.start(), content_start + e.end(), " " if e.group() in _SPACES else "")
                      for e in _INVISIBLE.finditer(content)
                      if not any(a <= content_start + e.start() < b for a, b in gaps)]
            edits.sort()
        visible = _apply_to_string(content, content_start, edits)
        first_line = visible.split("\n", 1)[0]
        kind = line_kind(first_line)
        if kind in ("article", "title") and not marked and builder.length and reference_wrapped(
                prev_kind, prev_line, first_line):
            kind = "text"  # "... paragraph 1 of" + "Article 14.", "... en que el" + "Acuerdo entre": it goes on
        elif kind in ("paragraph", "point") and builder.length and label_wrapped(prev_kind, prev_line):
            kind = "text"  # "... and subparagraph" + "a) of paragraph 3 shall not apply": the reference goes on

        # -- join with the previous line, or start a new one
        if builder.length:
            join = "space" if continued else join_mode(prev_kind, prev_line, kind, first_line)
            if join == "hyphen":
                builder.drop_last_char()
                builder.insert("", prev_end, content_start)
            elif join == "space":
                builder.insert(" ", prev_end, content_start)
            else:
                builder.insert("\n", prev_end, content_start)
        else:
            join = "newline"
        _emit(builder, content_start, content_end, edits)

        # -- state for the next line
        for piece in visible.split("\n")[(0 if join == "newline" else 1):]:
            piece_kind = line_kind(piece)
            if piece_kind in ("article", "chapter", "protocol", "title", "closing"):
                expected = expected_point = None
            elif piece_kind == "paragraph" and (opened := paragraph_opened(piece)) is not None:
                expected, expected_point = (opened[0].strip(), opened[1] + 1), None
            elif piece_kind == "point" and (opened := paragraph_opened(piece)) is not None:
                expected = (opened[0].strip(), opened[1] + 1)  # "1) Respecto al artículo 10": points numbered so
            elif piece_kind == "point":
                expected_point = point_opened(piece)
        last_line = visible.rsplit("\n", 1)[-1]
        if "\n" in visible:
            kind = line_kind(last_line)
        elif continued:
            # the line the two pieces make is the heading: its state, as for a line of its own
            last_line = (prev_line + " " + last_line)[-_TAIL:]
            kind = line_kind(last_line)
            if kind in ("article", "chapter", "protocol", "title", "closing"):
                expected = expected_point = None
            join = "newline"
        if join == "newline" or "\n" in visible:
            if kind == "text" and title_pending:
                kind = "heading_title"  # the title of a heading printed on its own line
            title_pending = kind in ("article", "chapter") and not heading_title_of(kind, last_line)
            prev_kind = kind
            prev_line = last_line[-_TAIL:]
        else:
            # only the end of a joined line is ever looked at: keep it short so that a text of
            # a million joined lines stays linear
            prev_line = ((prev_line[:-1] if join == "hyphen" else prev_line + " ") + last_line)[-_TAIL:]
        prev_end = content_end

    text = builder.text()
    return CleanText(text=text, map=builder.map, original=original, furniture=furniture)



def _pieces(original: str) -> Iterator[tuple[int, int, str]]:
    """The lines of `original` as (start, end, ""); a run of lines printed without their line breaks (a
    long line, and each line after a long one: a copy that runs a convention onto a few long lines breaks
    them anywhere, "... similar. Artigo" / "5.º Estabelecimento estável 1 — ...") is cut where the
    gazette's lines started and around the page furniture inside it (`runon.runon_pieces`, the furniture
    pieces with the name of their rule, never across a line break): each piece is read as a line of its own."""
    lines = LINE.finditer(original)
    pending: regex.Match[str] | None = None
    while True:
        m = pending or next(lines, None)
        pending = None
        if m is None or m.start() == m.end():
            return
        if m.end() - m.start() < RUNON_MIN:
            yield m.start(), m.end(), ""
            continue
        start, end, last = m.start(), m.end(), m
        while last.end() - last.start() >= RUNON_MIN:
            after = next(lines, None)
            if after is None or after.start() == after.end() or not original[after.start():after.end()].strip():
                pending = after
                break
            end, last = after.end(), after
        for piece_start, piece_end, rule in runon_pieces(original[start:end]):
            yield start + piece_start, start + piece_end, rule
        if pending is not None and pending.start() == pending.end():
            return


def _apply_to_string(content: str, base: int, edits: list[tuple[int, int, str]]) -> str:
    out, pos = [], 0
    for s, e, rep in edits:
        out.append(content[pos : s - base])
        out.append(rep)
        pos = e - base
    out.append(content[pos:])
    return "".join(out)


def _emit(builder: TextBuilder, start: int, end: int, edits: list[tuple[int, int, str]]) -> None:
    pos = start
    for s, e, rep in edits:
        builder.copy(pos, s)
        builder.insert(rep, s, e)
        pos = e
    builder.copy(pos, end)
