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
- `CleanText.map` takes any range of the cleaned text back to the original characters.

Nothing is guessed about structure here beyond where a line may be joined; markers are kept
as printed (OCR repairs of numbers and labels happen in the structure parser, which reports
them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache

import ftfy
import regex

from taxtreaty import patterns, vocab
from taxtreaty.text.spanmap import SpanMap, TextBuilder


@dataclass
class CleanText:
    text: str
    map: SpanMap
    original: str
    #: original ranges dropped as page furniture, with the name of the rule
    furniture: list[tuple[int, int, str]] = field(default_factory=list)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        return self.map.to_original(start, end)


# -- named pieces -------------------------------------------------------------------------------

_LINE = regex.compile(r"[^\n]*(?:\n|$)")
_MOJIBAKE_HINT = regex.compile(r"Ã[\x80-\xBF¡-ÿ]|Â[\xA0-\xBF]|â€|Ãƒ")
_HTML_TAG = regex.compile(r"</?(?:sup|sub|i|b|em|strong|u|span|br)\b[^<>]{0,40}>", regex.IGNORECASE)
_MD_HEADING = regex.compile(r"^\#{1,6}[^\S\n]*")
_MD_EMPHASIS_ONLY = regex.compile(r"^[*_ \t]+$")
#: a line ending in one of these after a letter may be a word cut in two ("mon-" + "tante")
_HYPHENS = frozenset("-‐")
#: a line ending in a letter, digit or one of these is open: the sentence may go on below
_OPEN_END_PUNCTUATION = frozenset(",)]»”'-–")
_TITLE_PUNCTUATION = regex.compile(r"[,;.:]")
#: how much of the previous line the joiner looks at
_TAIL = 200


@cache
def _furniture_line_patterns() -> list[tuple[str, regex.Pattern[str]]]:
    rules = []
    # the month keys are folded: "12 DE MARÇO DE 2003" must match the key "marco"
    months = vocab.accent_insensitive_alternation(vocab.all_months())
    weekday = rf"(?:(?:{vocab.accent_insensitive_alternation(vocab.all_words('weekdays'))})[^\S\n]*[,.—–-]?[^\S\n]*)?"
    rules.append((
        "date_line",
        regex.compile(
            rf"^{weekday}(?:\d{{1,2}}[^\S\n]+(?:de[^\S\n]+)?(?:{months})[^\S\n]+(?:de[^\S\n]+)?\d{{4}}"
            rf"|(?:{months})[^\S\n]+\d{{1,2}},?[^\S\n]+\d{{4}})$",
            regex.IGNORECASE,
        ),
    ))
    for rule in vocab.furniture_patterns():
        if not rule.get("prefix"):
            rules.append((rule["name"], regex.compile(rf"^(?:{rule['regex']})$", regex.IGNORECASE)))
    return rules


@cache
def _furniture_prefix_patterns() -> list[tuple[str, str, regex.Pattern[str]]]:
    """(name, characters a match can start with or "" for any, pattern) of the prefix rules."""
    return [
        (rule["name"], rule.get("first_chars", ""), regex.compile(rf"^(?:{rule['regex']})", regex.IGNORECASE))
        for rule in vocab.furniture_patterns()
        if rule.get("prefix")
    ]


@cache
def _inline_point_split() -> regex.Pattern[str]:
    # "...autoridade local; ii) Ao Banco" -> split before "ii)". Only after ";" or ":" and before a
    # capital or a digit, so references such as "alínea i) do artigo" stay in the text.
    # (the gap is a group after a literal, not a lookbehind: much faster to scan for)
    return regex.compile(r"[;:](?P<gap>[^\S\n]+)(?=\(?(?:[a-z]{1,2}|[ivx]{1,5}|Hi|í)\)[^\S\n]*[\p{Lu}\d])")


def _article_words() -> str:
    """Every language's word for "article", as one regex alternation."""
    return "|".join(regex.escape(w) for w in vocab.all_words("article_words"))


@cache
def _inline_article_split() -> regex.Pattern[str]:
    words = _article_words()
    # "...of this Agreement. Article 12 ROYALTIES": a heading in capitals running on after a sentence.
    return regex.compile(rf"[.;:](?P<gap>[^\S\n]+)(?=(?:{words})[^\S\n]+\d{{1,3}}[^\S\n]+\p{{Lu}}[\p{{Lu}} ,'’-]{{2,}}$)")


#: a gap before a first paragraph's number: " 1. Interest", " 1) The", " (1) Los", " 1 — Os"
_FIRST_PARAGRAPH_GAP = regex.compile(r"(?<=\S)[^\S\n]+(?=(?:1[.)]|\(1\)|1[^\S\n]*[—–-])[^\S\n]*[\p{Lu}«\"“(])")
#: how far into a line a heading that runs on into its first paragraph is looked for
_RUN_IN_HEADING_MAX = 160


def heading_run_in_gap(content: str) -> tuple[int, int] | None:
    """The gap between an article heading and its first paragraph printed on the same line
    ("Article 11 Interest 1. Interest arising ...", "Artículo 11. Intereses. 1. Los intereses"),
    or None. The part before the gap must read as a whole heading (a title, not a sentence)."""
    if not patterns.article_heading_prefix().match(content):
        return None
    for gap in _FIRST_PARAGRAPH_GAP.finditer(content, 0, _RUN_IN_HEADING_MAX):
        if article_heading_match(content[: gap.start()]):
            return gap.start(), gap.end()
    return None


@cache
def _inline_heading_break() -> regex.Pattern[str]:
    words = _article_words()
    # "... in that other State. Article 11 Interest 1. Interest ...": a text printed without line breaks
    return regex.compile(rf"[.;:](?P<gap>[^\S\n]+)(?=(?:{words})[^\S\n]*\S)")


#: the paragraph marker a run-in first paragraph uses, as a template for the next ones
_FIRST_MARKER = regex.compile(r"1[.)]|\(1\)|1[^\S\n]*[—–-]")
#: paragraphs looked for on one line after a run-in first paragraph
_MAX_INLINE_PARAGRAPHS = 60


def _next_paragraph_pattern(marker: str, number: int) -> regex.Pattern[str]:
    """The gap before paragraph `number` after a sentence end, numbered like `marker` ("1." -> "2.")."""
    if marker.startswith("("):
        printed = rf"\({number}\)"
    elif marker.endswith((".", ")")):
        printed = rf"{number}{regex.escape(marker[-1])}"
    else:
        printed = rf"{number}[^\S\n]*[—–-]"
    return _paragraph_gap_pattern(printed)


@lru_cache(maxsize=512)
def _paragraph_gap_pattern(printed: str) -> regex.Pattern[str]:
    return regex.compile(rf"(?<=[.;:])[^\S\n]+(?={printed}[^\S\n]+[\p{{Lu}}«\"“(])")


def inline_structure_gaps(content: str) -> list[tuple[int, int]]:
    """Gaps where a line printed without its line breaks holds a new heading or paragraph:
    "Article 10 Dividends 1. Dividends ... State. 2. However, ... dividends. Article 11 Interest
    1. Interest ...". A heading inside the line counts only after a sentence end and when its
    first paragraph follows it on the line; paragraphs count only in sequence after it (2. after
    1., then 3.), each after a sentence end, so "paragraph 2. However" stays text."""
    starts: list[tuple[int, tuple[int, int] | None]] = []
    if patterns.article_heading_prefix().match(content):
        starts.append((0, None))
    if len(content) > _RUN_IN_HEADING_MAX:
        for b in _inline_heading_break().finditer(content):
            starts.append((b.end("gap"), (b.start("gap"), b.end("gap"))))
    gaps: list[tuple[int, int]] = []
    headings: list[tuple[int, int]] = []  # (heading start, first paragraph start)
    for start, break_gap in starts:
        run_in = heading_run_in_gap(content[start:])
        if run_in is None:
            continue
        if break_gap:
            gaps.append(break_gap)
        gaps.append((start + run_in[0], start + run_in[1]))
        headings.append((start, start + run_in[1]))
    for k, (_, first) in enumerate(headings):
        end = headings[k + 1][0] if k + 1 < len(headings) else len(content)
        marker = _FIRST_MARKER.match(content, first)
        if marker is None:
            continue
        pos = first
        for number in range(2, _MAX_INLINE_PARAGRAPHS):
            m = _next_paragraph_pattern(marker.group(), number).search(content, pos, end)
            if m is None:
                break
            gaps.append((m.start(), m.end()))
            pos = m.end()
    return sorted(set(gaps))


@lru_cache(maxsize=8192)  # gazettes repeat their running lines; pathological inputs repeat everything
def furniture_rule(line: str, previous: str = "") -> str | None:
    """The name of the furniture rule a whole (stripped) line matches, or None."""
    if not line or len(line) > 120:
        return None
    for name, pattern in _furniture_line_patterns():
        if pattern.match(line):
            if name == "page_number" and _expects_number(previous):
                return None
            if name == "date_line" and _expects_date(previous):
                return None
            return name
    return None


_DIGIT_RUN = regex.compile(r"\d+")
_HAS_LETTER = regex.compile(r"\p{L}")
#: a running header or footer is printed on every page: at least this many times
RUNNING_HEADER_MIN_REPEATS = 3


def _running_key(line: str) -> str:
    """Lines equal up to their numbers ("TAX TREATY 12" / "TAX TREATY 13") share a key."""
    return _DIGIT_RUN.sub("#", " ".join(line.split()))


def repeated_lines(original: str) -> frozenset[str]:
    """Keys of short lines printed again and again at page breaks, not part of the treaty's
    structure: running headers and footers the furniture table does not know ("AGREEMENT -
    ITALY / IRELAND" next to "- 2 -"). A heading title that merely repeats ("Dividends" in three
    versions) is not one: at least two of its occurrences must touch known page furniture."""
    lines = [raw.strip() for raw in original.split("\n")]
    lines = [line for line in lines if line]
    counts: dict[str, int] = {}
    at_page_break: dict[str, int] = {}
    for i, line in enumerate(lines):
        if 3 <= len(line) <= 100:
            key = _running_key(line)
            counts[key] = counts.get(key, 0) + 1
            neighbours = lines[max(i - 1, 0) : i] + lines[i + 1 : i + 2]
            if any(len(n) <= 120 and furniture_rule(n) for n in neighbours):
                at_page_break[key] = at_page_break.get(key, 0) + 1
    heading_words = {vocab.fold(w).rstrip(".") for w in vocab.all_words("article_words") + vocab.all_words("chapter_words")}
    found = set()
    for key, n in counts.items():
        if n < RUNNING_HEADER_MIN_REPEATS or not _HAS_LETTER.search(key) or key[-1] in ".;:,":
            continue
        if at_page_break.get(key, 0) < 2:
            continue
        if line_kind(key) != "text" or key.startswith(("#", "*", "(", "-", "–", "—", "•")):
            continue  # structure, markdown and list items repeat legitimately
        if vocab.fold(key).rstrip(".").split(" ")[0] in heading_words:
            continue  # a bare "ARTIGO" with its number on the next line
        found.add(key)
    return frozenset(found)


# -- footnotes ----------------------------------------------------------------------------------

_SUPERSCRIPT_DIGITS = "¹²³⁴⁵⁶⁷⁸⁹⁰"
#: the rule a printer sets above a page's footnotes: "__________", "----------", "——————"
_FOOTNOTE_RULE = regex.compile(r"^[_—–-]{5,}$")
#: a footnote's own line starts with its marker: "¹ Paragraph 2 as replaced ...", "(*) Article 11
#: as amended ...", "1 As amended by the Protocol ..." (a bare number before a capital: never a
#: paragraph marker, which takes "." or a dash)
_FOOTNOTE_LINE = regex.compile(
    rf"^(?:(?P<sup>[{_SUPERSCRIPT_DIGITS}]{{1,2}})|(?P<star>\(\*{{1,3}}\))|(?P<num>\d{{1,2}})(?=[^\S\n]+\p{{Lu}}))"
    r"[^\S\n]*\S"
)
#: a footnote marker printed after a word or a stop: "cases.²", "Interest (*)"
_INLINE_SUPERSCRIPT = regex.compile(rf"(?<=[\p{{L}}.,;:)\]])[{_SUPERSCRIPT_DIGITS}]{{1,2}}(?![\p{{L}}\d])")
_INLINE_STAR = regex.compile(r"[^\S\n]?\(\*{1,3}\)(?=\s|$|[.,;:])")
#: a footnote number glued to the word it annotates ("Dividends1"); looked for only when a
#: footnote line with that number is there
_INLINE_NUMBER_BEFORE = r"(?<=\p{Ll})"
_INLINE_NUMBER_AFTER = r"(?![\p{L}\d])"


@dataclass(frozen=True)
class Footnotes:
    #: original offsets of the lines that are footnote text (page furniture)
    line_starts: frozenset[int]
    #: the numbers of the footnotes found ("1", "12"): a word glued to one ("Dividends1") is marked
    numbers: frozenset[str]
    #: a "(*)" footnote was found: "(*)" after a word is its marker
    star: bool
    #: the text holds a superscript digit somewhere (else no line is searched for one)
    superscripts: bool = True


_NO_FOOTNOTES = Footnotes(frozenset(), frozenset(), star=False, superscripts=False)
#: a line that could start a footnote or its rule (the cheap test before the line loop)
#: (the standard `re` module: a literal "\n" first lets it skip through a text far faster)
_FOOTNOTE_HINT = re.compile(rf"\n[ \t]*(?:[{_SUPERSCRIPT_DIGITS}]|\(\*|\d{{1,2}}[ \t]+[A-ZÀ-ÖØ-Þ]|[_—–-]{{5}})")


def find_footnotes(original: str) -> Footnotes:
    """Footnote lines: after a rule of underscores or dashes, lines that start with a footnote
    marker (and the lower-case lines that go on one left without a stop); without a rule, a line
    starting with a superscript or "(*)" whose marker is printed
    earlier in the text, or "1 As amended ..." when a word earlier carries that number glued
    to it ("Dividends1") and the line before ends a sentence (so that "15 per cent of ..." that
    goes on from the line before is never taken). Nothing else is removed."""
    superscripts = any(digit in original for digit in _SUPERSCRIPT_DIGITS)
    if not _FOOTNOTE_HINT.search("\n" + original[:200]) and not _FOOTNOTE_HINT.search(original):
        # most texts: one scan, no line loop
        return _NO_FOOTNOTES if not superscripts else Footnotes(frozenset(), frozenset(), False, True)
    starts: set[int] = set()
    numbers: set[str] = set()
    star = False
    after_rule = False
    in_note = False  # the previous line was footnote text that did not end its sentence
    previous = ""
    for m in _LINE.finditer(original):
        if m.start() == m.end():
            break
        content = m.group().strip()
        if not content:
            after_rule = after_rule and not in_note
            in_note = False
            continue
        if _FOOTNOTE_RULE.match(content):
            after_rule, previous = True, content
            continue
        fm = _FOOTNOTE_LINE.match(content) if content[0] in _SUPERSCRIPT_DIGITS or content[0] in "(0123456789" else None
        note = False
        if fm is not None:
            before = original[max(0, m.start() - 20_000):m.start()]
            if fm.group("sup"):
                note = after_rule or fm.group("sup") in before
            elif fm.group("star"):
                note = after_rule or bool(_INLINE_STAR.search(before))
                star = star or note
            else:
                number = fm.group("num")
                glued = regex.search(_INLINE_NUMBER_BEFORE + regex.escape(number) + _INLINE_NUMBER_AFTER, before)
                note = after_rule or (glued is not None and bool(patterns.SENTENCE_END.search(previous)))
                if note:
                    numbers.add(number)
        elif in_note and after_rule and content[0].islower():
            # only inside a block under a rule: elsewhere a lower-case line after a footnote that
            # ends without a stop is the paragraph going on from the page before
            note = True
        if note:
            starts.add(m.start())
            in_note = not patterns.SENTENCE_END.search(content)
        else:
            after_rule = in_note = False
        previous = content
    return Footnotes(frozenset(starts), frozenset(numbers), star, superscripts)


def footnote_marker_edits(content: str, base: int, notes: Footnotes) -> list[tuple[int, int, str]]:
    """Edits (original offsets) that drop the footnote markers printed inside a line."""
    edits = []
    if notes.superscripts and not content.isascii():
        edits += [(base + x.start(), base + x.end(), "") for x in _INLINE_SUPERSCRIPT.finditer(content)]
    if notes.star and "(*" in content:
        edits += [(base + x.start(), base + x.end(), "") for x in _INLINE_STAR.finditer(content)]
    for number in notes.numbers:
        if number in content:
            pattern = regex.compile(_INLINE_NUMBER_BEFORE + regex.escape(number) + _INLINE_NUMBER_AFTER)
            edits += [(base + x.start(), base + x.end(), "") for x in pattern.finditer(content)]
    return edits


def _expects_date(previous: str) -> bool:
    """A date right under "DONE at Lisbon, this" / "Feito em Lisboa, em" (a signature lead whose
    sentence goes on, with no date of its own) is the signature date, not a page's date line."""
    previous = previous.strip()
    return (
        bool(_signature_lead().match(previous))
        and not _DIGIT_RUN.search(previous)
        and not patterns.SENTENCE_END.search(previous)
    )


@cache
def _signature_lead() -> regex.Pattern[str]:
    words = "|".join(regex.escape(w) for w in vocab.all_words("signature_lead"))
    return regex.compile(rf"^[*_]*(?i:{words})\b")


def _expects_number(previous: str) -> bool:
    """A bare number right after a lone "ARTIGO" / "Article" is the article's number, not a page."""
    words = {w.casefold() for w in vocab.all_words("article_words")}
    return previous.strip().casefold().rstrip(".") in {w.rstrip(".") for w in words}


def heading_title_ok(word: str, title: str | None) -> bool:
    """Is `title` (what follows an article heading's number on its line) the heading's title,
    and not the rest of a sentence that cites the article ("Article 7 shall apply ...")?"""
    if not title or title_like(title):
        return True
    t = title.strip()
    # "ARTIGO 18.° (remunerações públicas)": a title in brackets is never running text
    if t.startswith("(") and t.endswith(")") and "(" not in t[1:-1] and len(t) <= 120:
        return True
    # "Article 18 pensions": the whole rest of the line is an article title the topic table knows
    if is_known_heading(t):
        return True
    # "ARTIGO 18.° remunerações públicas": running text never cites an article in capitals
    return word.isupper() and len(t) <= 80 and not _TITLE_PUNCTUATION.search(t.rstrip("."))


_NOT_WORD = regex.compile(r"[^\p{L}\d]+")


def _heading_key(text: str) -> str:
    return " ".join(_NOT_WORD.sub(" ", vocab.fold(text)).split())


@cache
def _known_headings() -> frozenset[str]:
    """Every usual article title of `topics.yaml` in every language, folded ("pensions", "juros")."""
    return frozenset(
        _heading_key(heading)
        for topic in vocab.topics()
        for headings in (topic.get("headings") or {}).values()
        for heading in headings
    )


def is_known_heading(title: str) -> bool:
    """Is `title`, whole, a usual article title ("pensions", "Capital gains", "juros")? A line
    "Article 18 pensions" is a heading however it is cased; "Article 7 shall apply" is not."""
    return len(title) <= 80 and _heading_key(title) in _known_headings()


@lru_cache(maxsize=8192)
def article_heading_match(line: str) -> regex.Match[str] | None:
    """The article heading a whole line is, or None (one definition for the cleaner and the parser)."""
    m = patterns.article_heading().match(line)
    return m if m and heading_title_ok(m.group("word"), m.group("title")) else None


@lru_cache(maxsize=8192)
def line_kind(line: str) -> str:
    """Classify a cleaned line for joining purposes."""
    if article_heading_match(line):
        return "article"
    m = patterns.chapter_heading().match(line)
    if m and (not m.group("title") or title_like(m.group("title"))):
        return "chapter"
    if patterns.protocol_heading().match(line):
        return "protocol"
    if patterns.convention_title().match(line):
        return "title"
    if patterns.PARAGRAPH_MARKER.match(line):
        return "paragraph"
    if patterns.POINT_MARKER.match(line):
        return "point"
    if patterns.BULLET.match(line):
        return "bullet"
    return "text"


def title_like(title: str, max_length: int = 120) -> bool:
    """Could this be the title part of a heading, rather than running text?"""
    t = title.strip().strip("()[]").strip()
    if not t:
        return True
    if len(t) > max_length or t[0].islower() or t[0] in ",;":
        return False
    if t.endswith((",", ";")):
        return False
    return t.count(". ") == 0


def clean(original: str) -> CleanText:
    """Clean `original` (see the module docstring for the guarantees)."""
    builder = TextBuilder(original)
    furniture: list[tuple[int, int, str]] = []
    prefix_rules = _furniture_prefix_patterns()
    point_split = _inline_point_split()
    article_split = _inline_article_split()

    prev_end = 0  # original offset just after the last kept line
    prev_kind = ""  # kind of the last kept line ("" before the first)
    prev_line = ""  # the end (at most _TAIL characters) of the last kept cleaned line
    title_pending = False  # the last line was a heading whose title is on the next line
    raw_prev = ""  # previous non-blank raw line, for furniture context
    running = repeated_lines(original)
    notes = find_footnotes(original)

    for m in _LINE.finditer(original):
        if m.start() == m.end():
            break
        line_start, line_end = m.start(), m.end()
        raw = original[line_start:line_end].rstrip("\n").rstrip("\r")
        # -- strip the line and its furniture prefix, remember where the content starts
        lstrip = len(raw) - len(raw.lstrip())
        content_start = line_start + lstrip
        content_end = line_start + len(raw.rstrip())
        content = original[content_start:content_end]
        if not content:
            continue
        md = _MD_HEADING.match(content) if content[0] == "#" else None
        if md:
            furniture.append((content_start, content_start + md.end(), "markdown_heading"))
            content_start += md.end()
            content = original[content_start:content_end]
        for name, first_chars, pattern in prefix_rules:
            if not content or (first_chars and content[0] not in first_chars):
                continue
            pm = pattern.match(content)
            if pm and pm.end() > 0:
                furniture.append((content_start, content_start + pm.end(), name))
                content_start += pm.end()
                content = original[content_start:content_end]
        if not content or (content[0] in "*_" and _MD_EMPHASIS_ONLY.match(content)):
            continue
        rule = furniture_rule(content, raw_prev)
        if rule is None and running and _running_key(content) in running:
            rule = "running_header"
        if rule is None and line_start in notes.line_starts:
            rule = "footnote"
        raw_prev = content
        if rule:
            furniture.append((content_start, content_end, rule))
            continue

        # -- edits inside the line: tag removal, mojibake, inline splits (original coordinates)
        # (cheap literal tests first: most lines have no tag, no mojibake, no inline marker)
        edits: list[tuple[int, int, str]] = [
            (content_start + t.start(), content_start + t.end(), "") for t in _HTML_TAG.finditer(content)
        ] if "<" in content else []
        if not content.isascii() and _MOJIBAKE_HINT.search(content):
            fixed = ftfy.fix_text(content)
            if fixed != content:
                edits = [(content_start, content_end, fixed)]
        if len(edits) <= 1 and not (edits and edits[0][2]):
            if ")" in content:
                for sm in point_split.finditer(content):
                    edits.append((content_start + sm.start("gap"), content_start + sm.end("gap"), "\n"))
            for sm in article_split.finditer(content):
                edits.append((content_start + sm.start("gap"), content_start + sm.end("gap"), "\n"))
            for gap_start, gap_end in inline_structure_gaps(content):
                edits.append((content_start + gap_start, content_start + gap_end, "\n"))
            edits += footnote_marker_edits(content, content_start, notes)
            edits.sort()
        visible = _apply_to_string(content, content_start, edits)
        first_line = visible.split("\n", 1)[0]
        kind = line_kind(first_line)

        # -- join with the previous line, or start a new one
        if builder.length:
            join = _join_mode(prev_kind, prev_line, kind, first_line)
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
        last_line = visible.rsplit("\n", 1)[-1]
        if "\n" in visible:
            kind = line_kind(last_line)
        if join == "newline" or "\n" in visible:
            if kind == "text" and title_pending:
                kind = "heading_title"  # the title of a heading printed on its own line
            title_pending = kind in ("article", "chapter") and not _heading_title(kind, last_line)
            prev_kind = kind
            prev_line = last_line[-_TAIL:]
        else:
            # only the end of a joined line is ever looked at: keep it short so that a text of
            # a million joined lines stays linear
            prev_line = ((prev_line[:-1] if join == "hyphen" else prev_line + " ") + last_line)[-_TAIL:]
        prev_end = content_end

    text = builder.text()
    return CleanText(text=text, map=builder.map, original=original, furniture=furniture)


def _heading_title(kind: str, line: str) -> str:
    pattern = patterns.article_heading() if kind == "article" else patterns.chapter_heading()
    m = pattern.match(line)
    return (m.group("title") or "").strip() if m else ""


def _join_mode(prev_kind: str, prev_line: str, kind: str, line: str) -> str:
    """'hyphen', 'space' or 'newline' between the previous kept line and this one."""
    if kind != "text" or prev_kind not in ("paragraph", "point", "text", "bullet"):
        return "newline"
    last = prev_line[-1:]
    if last in _HYPHENS and patterns.article_heading_start().match(line):
        # "b) 10 % do mon-" then "ARTIGO 18.° ...": the cut word is lost with the page, and the
        # heading starts a line of its own whatever follows its number
        return "newline"
    if last in _HYPHENS and prev_line[-2:-1].isalpha() and line[:1].islower():
        return "hyphen"
    if last in _HYPHENS and prev_line[:-1].isalpha() and article_heading_match(prev_line[:-1] + line):
        # "ARTI-" alone on its line, then "CLE 12": an article heading cut in two
        return "hyphen"
    if not (last.isalnum() or last in _OPEN_END_PUNCTUATION):
        return "newline"
    first = line[:1]
    if first.islower() or first.isdigit() or first in "(«\"“'":
        return "space"
    if first.isupper() and prev_line[-1:].islower() and not title_like_short(line):
        return "space"
    return "newline"


def title_like_short(line: str) -> bool:
    """A short capitalised line with no sentence punctuation: a title, never a continuation."""
    return len(line) <= 60 and not _TITLE_PUNCTUATION.search(line) and line[:1].isupper() and line.isupper()


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
