"""What kind of instrument a text is, and the textual modifications an amending one makes.

A treaty is a chain of instruments: the convention (often with its protocol), later protocols and
exchanges of notes that amend it, and the Multilateral Instrument. This module reads, from the
cleaned text of one file:

- the kind: `convention`, `protocol`, `amending_protocol`, `exchange_of_notes` or `mli`;
- for an amending one, the convention it amends (its parties and the date it names: "el Convenio
  del 13 de julio de 1978", "the Convention ... signed at Lisbon on 14 March 1995");
- each textual modification: `substitution` ("Paragraph 2 of Article 10 of the Convention shall be
  deleted and replaced by the following", "Sustitúyese el apartado 1 del Artículo 4 del Convenio
  por el siguiente", "O n.º 2 do artigo 10.º da Convenção passa a ter a seguinte redacção"),
  `insertion` ("shall be added", "se añade", "é aditado"), `repeal` and `renumbering`, with the
  target's Akoma Ntoso eId and the new words with their span in the original text;
- its own dates: entry into force and the date (or rule) from which it has effect.

The words are data (`taxtreaty/data/instruments.yaml`); nothing here applies a modification
(`taxtreaty.versions` does). A text with the articles of a whole convention is a convention: words
that look like amendments inside it are never read as amending anything.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

import regex
from pydantic import BaseModel, ConfigDict, Field

from taxtreaty import patterns, vocab
from taxtreaty.patterns import compiled
from taxtreaty.structure.numbers import article_eid_number, clean_article_number

if TYPE_CHECKING:
    from taxtreaty.structure.model import Document
    from taxtreaty.text import CleanText

Span = tuple[int, int]
InstrumentKind = Literal["convention", "protocol", "amending_protocol", "exchange_of_notes", "mli"]
ModificationType = Literal["substitution", "insertion", "repeal", "renumbering"]
AMENDING_KINDS = {"amending_protocol", "exchange_of_notes"}

#: a document with articles on at least this many Model topics is a convention, whatever it says
CONVENTION_TOPICS = 6
#: how far after the words naming the base convention its date may be printed
_BASE_DATE_WINDOW = 400
#: how much of the text is the head where the title and preamble are read
_HEAD = 4000
_QUOTES = "\"'“”«»‘’„"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class InstrumentCite(_Model):
    """Words of the instrument, as printed: `quote == original[span[0]:span[1]]`."""

    eid: str | None
    quote: str
    span: Span


class Modification(_Model):
    type: ModificationType
    #: the eId of the provision changed in the base convention (for an insertion: the new one)
    target_eid: str
    #: the reference as printed ("el apartado 4 del Artículo 23")
    target: str
    #: renumbering: the new number and eId
    new_number: str | None = None
    new_eid: str | None = None
    #: substitution and insertion: the new words (cleaned) and their span in the original
    text: str | None = None
    span: Span | None = None
    #: the instruction itself ("Sustitúyese el apartado 4 del Artículo 23 del Convenio por el siguiente:")
    cite: InstrumentCite


class BaseReference(_Model):
    """The convention an amending instrument amends, as the instrument names it."""

    parties: list[str] = Field(default_factory=list)
    date: str | None = None
    cite: InstrumentCite | None = None


class InstrumentDates(_Model):
    """An instrument's own final clause: when it enters into force and from when it has effect."""

    entry_into_force: str | None = None
    #: "un mes después del canje": {"months_after": 1}; {"days_after": 30}
    entry_rule: dict[str, int] = Field(default_factory=dict)
    effect_from: str | None = None
    #: "january_1_of_year_after_entry_into_force", "entry_into_force"
    effect_rule: str | None = None
    cite: InstrumentCite | None = None


class Instrument(_Model):
    kind: InstrumentKind
    language: str | None = None
    signed: str | None = None
    base: BaseReference | None = None
    modifications: list[Modification] = Field(default_factory=list)
    dates: InstrumentDates | None = None
    warnings: list[str] = Field(default_factory=list)

    @property
    def amending(self) -> bool:
        return self.kind in AMENDING_KINDS


# -- vocabulary -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Words:
    language: str
    raw: dict[str, Any]

    def words(self, key: str) -> list[str]:
        value = self.raw.get(key) or []
        return [value] if isinstance(value, str) else list(value)

    def pattern(self, key: str) -> regex.Pattern[str] | None:
        words = self.words(key)
        if not words:
            return None
        body = vocab.accent_insensitive_alternation(words).replace(r"\ ", r"\s+")
        return regex.compile(rf"(?<![\p{{L}}\d])(?:{body})(?![\p{{L}}])", regex.IGNORECASE)


@cache
def _data() -> dict[str, Any]:
    data = vocab.read_data_file("instruments.yaml", keys={"languages"}) or {}
    if not isinstance(data.get("languages"), dict):
        raise vocab.DataFileError("instruments.yaml: expected a mapping 'languages'")
    return data


@cache
def words(language: str) -> _Words | None:
    raw = _data()["languages"].get(language)
    return _Words(language, raw) if isinstance(raw, dict) else None


@cache
def _patterns(language: str) -> dict[str, regex.Pattern[str] | None]:
    w = words(language)
    keys = ("amending_title", "notes_title", "mli_title", "base_words", "substitution", "insertion", "repeal",
            "renumbering", "renumber_to", "partial", "effect", "entry_into_force", "first_day", "following_year",
            "fiscal_year", "month_unit", "day_unit", "signed_words", "terminates_words")
    return {k: (w.pattern(k) if w else None) for k in keys}


@cache
def _reference_patterns(language: str) -> tuple[regex.Pattern[str], regex.Pattern[str], regex.Pattern[str]] | None:
    """(article, paragraph, point) references: "Artículo 23", "apartado 4", "subparagraph (a)"."""
    w = words(language)
    if w is None or not w.words("article"):
        return None

    def alt(key: str) -> str:
        # the words as printed too: "n.º" folds to "n.o", and no Latin letter variant prints "º"
        printed = "|".join(regex.escape(x) for x in sorted(w.words(key), key=len, reverse=True))
        return (vocab.accent_insensitive_alternation(w.words(key)) + "|" + printed).replace(r"\ ", r"\s*")

    number = (r"(?P<num>\d{1,3}(?:\s?[º°ª]|\.\s?[º°ª]|\.(?!\d))?(?:\s?[-‐]?\s?(?P<suffix>[A-Z])(?![\p{L}\d])|"
              r"\s?(?P<latin>" + "|".join(map(regex.escape, vocab.all_words("inserted_suffixes"))) + r")\b)?|(?P<roman>[IVXLC]{1,7})(?:\s?[-‐]?\s?(?P<rsuffix>[A-Z])(?![\p{L}\d]))?(?![\p{L}\d]))")
    article = regex.compile(rf"(?<![\p{{L}}])(?:{alt('article')})\s*{number}", regex.IGNORECASE)
    paragraph = regex.compile(rf"(?<![\p{{L}}])(?:{alt('paragraph')})\s*(?P<num>\d{{1,2}})(?![\d])", regex.IGNORECASE)
    point = regex.compile(rf"(?<![\p{{L}}])(?:{alt('point')})\s*\(?(?P<label>[a-z]{{1,4}}|\d{{1,2}})\)?(?![\p{{L}}\d])",
                          regex.IGNORECASE)
    return article, paragraph, point


def _article_label(m: regex.Match[str]) -> str:
    if m.group("roman") and not m.group("num"):
        roman = m.group("roman").upper()
        return roman + (m.group("rsuffix") or "").lower()
    number = clean_article_number(compiled(r"[^\d]").sub("", m.group("num").split(".")[0]) or m.group("num"))
    return number + (m.group("suffix") or m.group("latin") or "").lower()


def _article_eid(label: str) -> str:
    return f"art_{article_eid_number(label)}"


# -- recognising ------------------------------------------------------------------------------------


@dataclass
class _Line:
    start: int
    end: int
    text: str


def _lines(text: str) -> list[_Line]:
    out, pos = [], 0
    for raw in text.split("\n"):
        if raw.strip():
            out.append(_Line(pos, pos + len(raw), raw))
        pos += len(raw) + 1
    return out


def _language(doc: Document | None, text: str) -> str | None:
    if doc is not None:
        for version in doc.versions:
            if words(version.language) is not None:
                return version.language
    from taxtreaty.structure.languages import detect_language

    language, _ = detect_language(text[:_HEAD * 4])
    return language if language and words(language) is not None else None


def _is_convention(doc: Document | None) -> bool:
    if doc is None:
        return False
    topics = {a.topic for v in doc.versions for a in v.articles if a.topic}
    return len(topics) >= CONVENTION_TOPICS


def recognise(ct: CleanText, original: str, doc: Document | None = None) -> Instrument:
    from taxtreaty.structure import instrument_dates  # it reads this module's words and models
    """The kind of instrument the cleaned text `ct` is (spans into `original`) and, for an amending
    one, its base reference, modifications and dates."""
    text = ct.text
    language = _language(doc, text)
    if language is None:
        return Instrument(kind="convention" if doc is not None else "protocol")
    pats = _patterns(language)
    head = text[:_HEAD]
    if pats["mli_title"] is not None and pats["mli_title"].search(head):
        return Instrument(kind="mli", language=language)
    if _is_convention(doc):
        return Instrument(kind="convention", language=language, signed=_signed(doc))
    lines = _lines(text)
    modifications = _modifications(lines, ct, original, language, doc)
    if not modifications:
        kind: InstrumentKind = "convention" if doc is not None and any(v.articles for v in doc.versions) else "protocol"
        if kind == "convention" and not any(a.topic for v in doc.versions for a in v.articles):  # type: ignore[union-attr]
            kind = "protocol"
        return Instrument(kind=kind, language=language, signed=_signed(doc))
    notes = pats["notes_title"] is not None and pats["notes_title"].search(head) is not None
    first = modifications[0].cite.span[0]
    last = max(m.span[1] if m.span else m.cite.span[1] for m in modifications)
    signed = _own_signature(text, _clean_offset(ct, last)) or _own_date(text, ct, original, lines, language)
    instrument = Instrument(
        kind="exchange_of_notes" if notes else "amending_protocol",
        language=language,
        signed=signed,
        base=_base(text, ct, original, language, doc, before=_clean_offset(ct, first), own=signed),
        modifications=modifications,
        dates=instrument_dates.final_clause(lines, ct, original, language, modifications),
    )
    if instrument.base is None or instrument.base.date is None:
        instrument.warnings.append("the instrument does not name the date of the convention it amends")
    return instrument


def _clean_offset(ct: CleanText, original_offset: int) -> int:
    """The first cleaned offset whose original position is at or after `original_offset`."""
    low, high = 0, len(ct.text)
    while low < high:
        mid = (low + high) // 2
        if ct.original_span(mid, mid + 1)[0] < original_offset:
            low = mid + 1
        else:
            high = mid
    return low


def _signed(doc: Document | None) -> str | None:
    return doc.signed.date if doc is not None and doc.signed is not None else None


def _own_signature(text: str, after: int) -> str | None:
    """The signature block after the last modification ("DONE at Santiago, this 3rd day of May 2010"):
    the title before the articles names the base convention's signature, not the instrument's."""
    from taxtreaty.structure.metadata import find_signature

    found = find_signature(text[after:])
    return found.date if found is not None else None


def _own_date(text: str, ct: CleanText, original: str, lines: list[_Line], language: str) -> str | None:
    """The instrument's own signature date: the first date after a signature word ("suscripto en
    Buenos Aires el 16 de setiembre de 1996", "Done at Lisbon on ..."), read before the base's."""
    from taxtreaty.structure.metadata import find_date

    signed = _patterns(language)["signed_words"]
    if signed is None:
        return None
    for m in signed.finditer(text):
        date, _at = find_date(text[m.end() : m.end() + 120])
        if date:
            return date
    return None


def _base(text: str, ct: CleanText, original: str, language: str, doc: Document | None, before: int,
          own: str | None = None) -> BaseReference | None:
    """The convention amended: the first place before the first modification where the text names
    it ("el Convenio del 13 de julio de 1978") with a date; the signature words of the instrument
    itself are skipped ("suscripto en Buenos Aires el 16 de setiembre de 1996")."""
    from taxtreaty.structure.metadata import find_date

    base_words = _patterns(language)["base_words"]
    parties = list(doc.parties) if doc is not None else []
    if base_words is None:
        return BaseReference(parties=parties)
    for m in base_words.finditer(text, 0, max(before, 0) or len(text)):
        window = text[m.end() : m.end() + _BASE_DATE_WINDOW]
        date, at = find_date(window)
        # "el Convenio del 13 de julio de 1978 ..., suscripto en Buenos Aires el 16 de setiembre de
        # 1996": the instrument's own date is never the base's
        if not date or date == own:
            continue
        start, end = m.start(), m.end() + at + 40
        span = ct.original_span(start, min(end, len(text)))
        return BaseReference(parties=parties, date=date, cite=InstrumentCite(eid=None, quote=original[span[0]:span[1]], span=span))
    return BaseReference(parties=parties)


def _heading(line: _Line) -> str | None:
    m = patterns.article_heading().match(line.text.strip())
    if not m:
        return None
    from taxtreaty.structure.parse import heading_number

    return heading_number(m)


def _instruction(line: str, pats: dict[str, regex.Pattern[str] | None]) -> tuple[ModificationType, regex.Match[str]] | None:
    """The kind of modification a line orders, by the first operative words it holds."""
    found: list[tuple[int, ModificationType, regex.Match[str]]] = []
    for kind in ("substitution", "repeal", "insertion", "renumbering"):
        pattern = pats[kind]
        m = pattern.search(line) if pattern is not None else None
        if m:
            found.append((m.start(), kind, m))  # type: ignore[arg-type]
    if not found:
        return None
    # "shall be deleted and replaced by the following" is a substitution, not a repeal
    subst = next((f for f in found if f[1] == "substitution"), None)
    if subst is not None:
        return subst[1], subst[2]
    found.sort(key=lambda f: f[0])
    return found[0][1], found[0][2]


def _target(instruction: str, language: str, kind: ModificationType) -> tuple[str, str, str | None, str | None] | None:
    """(target eId, as printed, new number, new eId) from an instruction's words."""
    refs = _reference_patterns(language)
    if refs is None:
        return None
    article_re, paragraph_re, point_re = refs
    articles = list(article_re.finditer(instruction))
    if not articles:
        return None
    art = articles[0]
    label = _article_label(art)
    eid = _article_eid(label)
    para = paragraph_re.search(instruction)
    point = point_re.search(instruction)
    pieces = [art]
    if para:
        eid += f"__para_{int(para.group('num'))}"
        pieces.append(para)
        if point:
            eid += f"__point_{point.group('label').lower()}"
            pieces.append(point)
    start = min(p.start() for p in pieces)
    end = max(p.end() for p in pieces)
    new_number = new_eid = None
    if kind == "renumbering":
        to = _patterns(language)["renumber_to"]
        after = [a for a in articles[1:]] if not para else []
        if para:
            m = to.search(instruction, para.end()) if to is not None else None
            number = compiled(r"\d{1,2}").search(instruction[m.end():]) if m else None
            if number:
                new_number = number.group()
                new_eid = eid.rsplit("__para_", 1)[0] + f"__para_{int(new_number)}"
        elif after:
            new_number = _article_label(after[0])
            new_eid = _article_eid(new_number)
    return eid, instruction[start:end], new_number, new_eid


def _modifications(lines: list[_Line], ct: CleanText, original: str, language: str, doc: Document | None) -> list[Modification]:
    pats = _patterns(language)
    base_words = pats["base_words"]
    out: list[Modification] = []
    headings = [(i, _heading(ln)) for i, ln in enumerate(lines)]
    heading_at = {i: label for i, label in headings if label is not None and _instruction(lines[i].text, pats) is None}
    i = 0
    while i < len(lines):
        line = lines[i]
        if i in heading_at:
            i += 1
            continue
        found = _instruction(line.text, pats)
        if found is None:
            i += 1
            continue
        kind, verb = found
        # the instruction's own words: up to the colon that opens the new text, if any
        colon = line.text.find(":", verb.end())
        instruction = line.text[: colon + 1] if colon >= 0 else line.text
        target = _target(instruction, language, kind)
        names_base = base_words is not None and base_words.search(instruction) is not None
        if target is None or not (names_base or kind in ("insertion", "renumbering")):
            i += 1
            continue
        eid, printed, new_number, new_eid = target
        own_article = next((heading_at[j] for j in range(i, -1, -1) if j in heading_at), None)
        cite_span = ct.original_span(line.start, line.start + len(instruction.rstrip()))
        cite = InstrumentCite(eid=_node_eid(doc, cite_span) or (f"art_{article_eid_number(own_article)}" if own_article else None),
                              quote=original[cite_span[0]:cite_span[1]], span=cite_span)
        # the new text: the rest of the line after the colon, then the lines up to the next
        # heading or instruction
        j = _text_end(lines, i, colon, heading_at, pats)
        modification = Modification(type=kind, target_eid=eid, target=printed, new_number=new_number, new_eid=new_eid, cite=cite)
        partial = pats["partial"]
        if partial is not None and partial.search(instruction) is not None:
            # "is amended by omitting the last sentence of paragraph 1 and substituting the following
            # sentence": words inside the provision, which no consolidation can place; the provision
            # is left without new text, so it is reported and decided as a gap from the effect date
            out.append(modification)
            i += 1
            continue
        if kind in ("substitution", "insertion"):
            start = line.start + colon + 1 if colon >= 0 and line.text[colon + 1:].strip() else (lines[i + 1].start if i + 1 < j else None)
            if start is not None:
                end = lines[j - 1].end if j - 1 > i else line.end
                start, end = _unquote(ct.text, start, end)
                if end > start:
                    span = ct.original_span(start, end)
                    modification.text = ct.text[start:end]
                    modification.span = span
            if modification.text is None:
                j = i + 1
            elif kind == "insertion" and "__para_" not in eid:
                _place_new_paragraph(modification, instruction, verb.end(), language)
        out.append(modification)
        i = j if modification.text is not None else i + 1
    return out


def _place_new_paragraph(modification: Modification, instruction: str, after: int, language: str) -> None:
    """"Article 12 of the Convention is amended by adding the following paragraph: '8. ...'": the
    insertion is of paragraph 8 of article 12 (the number the new text opens with), not of article 12."""
    refs = _reference_patterns(language)
    w = words(language)
    if refs is None or w is None or modification.text is None:
        return
    said = compiled(r"(?<!\p{L})(?:" + "|".join(regex.escape(x) for x in w.words("paragraph")) + r")(?!\p{L})", regex.IGNORECASE).search(vocab.fold(instruction[after:]))  # words are folded: "numero"
    # "8. ...", "8) ...", and the Portuguese "5 — ..." (a dash after the number)
    number = compiled(r"\s*[\"'“«]?\s*(\d{1,2})\s*(?:[.)]|[—–-](?=\s))").match(modification.text)
    if said is None or number is None:
        return
    modification.target_eid += f"__para_{int(number.group(1))}"
    modification.target = f"{modification.target}, paragraph {int(number.group(1))}"


def _text_end(lines: list[_Line], i: int, colon: int, heading_at: dict[int, str], pats: dict[str, regex.Pattern[str] | None]) -> int:
    """The line after the last line of the new text that follows the instruction on line `i`. A quoted
    text runs to its closing quote, headings included ('"Article 10A ...'), but never over the next
    instruction (a quote left open by the print); an unquoted one runs to the next heading or
    instruction."""
    rest = lines[i].text[colon + 1:].strip() if colon >= 0 else ""
    first = rest or (lines[i + 1].text.strip() if i + 1 < len(lines) else "")
    if first[:1] in _QUOTES:
        j = i if rest else i + 1
        while j < len(lines):
            if j > i and _instruction(lines[j].text, pats) is not None:
                return j - 1 if j - 1 in heading_at and j - 1 > i else j
            end = lines[j].text.rstrip().rstrip(".;")
            if end[-1:] in _QUOTES and (j > i or len(rest) > 1):
                return j + 1
            j += 1
        return j
    j = i + 1
    while j < len(lines) and j not in heading_at and _instruction(lines[j].text, pats) is None:
        j += 1
    return j


def _unquote(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (text[start].isspace() or text[start] in _QUOTES):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in _QUOTES + ".;"):
        # a final period after the closing quote belongs to the instruction ('... análoga".')
        if text[end - 1] in ".;" and not (end - 2 >= start and text[end - 2] in _QUOTES):
            break
        end -= 1
    return start, end


def _node_eid(doc: Document | None, span: Span) -> str | None:
    if doc is None:
        return None
    from taxtreaty.structure.model import iter_nodes

    best = None
    for version in doc.versions:
        for node in iter_nodes(version):
            inside = node.span[0] <= span[0] and span[1] <= node.span[1] + 1
            if inside and (best is None or node.span[1] - node.span[0] < best[1]):
                best = (node.eid, node.span[1] - node.span[0])
    return best[0] if best else None


def annotate(doc: Document) -> Document:
    """Set `doc.instrument` from the document's own cleaned text."""
    ct = doc._clean
    if ct is None:
        from taxtreaty.text import clean

        ct = clean(doc.original)
    doc.instrument = recognise(ct, doc.original, doc)  # type: ignore[arg-type]
    return doc


def dates_of(instrument: Instrument) -> tuple[dt.date | None, dt.date | None]:
    """(entry into force, effect from) as dates, when the instrument prints them."""
    d = instrument.dates
    if d is None:
        return None, None
    eif = dt.date.fromisoformat(d.entry_into_force) if d.entry_into_force else None
    effect = dt.date.fromisoformat(d.effect_from) if d.effect_from else None
    return eif, effect
