"""Page furniture: lines a gazette or a printer adds to every page (date lines, page numbers,
series lines, running headers and footers). The rules are in `data/furniture.yaml`; the month
and weekday names of date lines come from the language data.
"""

from __future__ import annotations

from functools import cache, lru_cache

import regex

from taxtreaty import patterns, vocab
from taxtreaty.text.lines import line_kind


@cache
def _date_words() -> str:
    """A printed date with its optional weekday ("Lunes 23 de mayo de 2016", "12 DE MARÇO DE 2003",
    "March 4, 2019"), from the language data's month and weekday names."""
    # the month keys are folded: "12 DE MARÇO DE 2003" must match the key "marco"
    months = vocab.accent_insensitive_alternation(vocab.all_months())
    weekday = rf"(?:(?:{vocab.accent_insensitive_alternation(vocab.all_words('weekdays'))})[^\S\n]*[,.—–-]?[^\S\n]*)?"
    return (rf"{weekday}(?:\d{{1,2}}[^\S\n]+(?:de[^\S\n]+)?(?:{months})[^\S\n]+(?:de[^\S\n]+)?\d{{4}}"
            rf"|(?:{months})[^\S\n]+\d{{1,2}},?[^\S\n]+\d{{4}})")


@cache
def _leading_date() -> regex.Pattern[str]:
    # the date a running header prints before the gazette's title on every other page
    # ("12 de janeiro de 2015 Diário da República, 1.ª série — N.º 7 255")
    return regex.compile(rf"^(?:{_date_words()})[^\S\n]*[-—–,]?[^\S\n]+(?=\S)", regex.IGNORECASE)


@cache
def _furniture_line_patterns() -> list[tuple[str, regex.Pattern[str]]]:
    rules = [("date_line", regex.compile(rf"^{_date_words()}$", regex.IGNORECASE))]
    for rule in vocab.furniture_patterns():
        if not rule.get("prefix"):
            rules.append((rule["name"], regex.compile(rf"^(?:{rule['regex']})$", regex.IGNORECASE)))
    return rules


@cache
def _furniture_line_matcher() -> tuple[regex.Pattern[str], regex.Pattern[str]]:
    """The date line alone, and every other whole-line rule as one alternation in the table's order
    (group `r<k>` is rule k + 1 of `_furniture_line_patterns`): the first alternative that matches is
    the rule the loop over them would find first, at one call instead of one per rule."""
    rules = [rule for rule in vocab.furniture_patterns() if not rule.get("prefix")]
    alternatives = "|".join(f"(?P<r{k}>(?:{rule['regex']})$)" for k, rule in enumerate(rules))
    return (regex.compile(rf"^{_date_words()}$", regex.IGNORECASE),
            regex.compile(rf"^(?:{alternatives or '(?!)'})", regex.IGNORECASE))


#: a printed date has its year: a line without four digits in a row is never a date line
_YEAR = regex.compile(r"\d{4}")


@cache
def _after_furniture_rules() -> frozenset[str]:
    """Rules that hold only right under another furniture line (`after_furniture: true`)."""
    return frozenset(rule["name"] for rule in vocab.furniture_patterns() if rule.get("after_furniture"))


@cache
def prefix_rules_after() -> dict[str, frozenset[str]]:
    """Prefix rules that hold only on the line right under a line of the rules they name (`after: [...]`):
    a web copy's page title under its section line, and nowhere else."""
    return {rule["name"]: frozenset(rule["after"]) for rule in vocab.furniture_patterns()
            if rule.get("prefix") and rule.get("after")}


@cache
def furniture_prefix_patterns() -> list[tuple[str, str, regex.Pattern[str]]]:
    """(name, characters a match can start with or "" for any, pattern) of the prefix rules."""
    return [
        (rule["name"], rule.get("first_chars", ""), regex.compile(rf"^(?:{rule['regex']})", regex.IGNORECASE))
        for rule in vocab.furniture_patterns()
        if rule.get("prefix")
    ]



@cache
def _misread_digits() -> tuple[regex.Pattern[str], regex.Pattern[str], dict[int, str]]:
    letters = vocab.ocr_furniture_digits()
    chars = regex.escape("".join(letters)) or "(?!)"
    run = regex.compile(rf"(?<!\p{{L}})(?=[\d{chars}]*\d)[\d{chars}]+(?!\p{{L}})")
    touching = regex.compile(rf"\d[{chars}]|[{chars}]\d|^[{chars}]$")
    return run, touching, str.maketrans(letters)


def read_misread_digits(line: str) -> str:
    """`line` with the letters a scanner prints for digits read as digits, inside runs of digits
    ("l945" -> "1945", "4l60" -> "4160"): for matching furniture only; same length as `line`."""
    run, touching, table = _misread_digits()
    if not touching.search(line):  # the common case: no such letter next to a digit
        return line
    return run.sub(lambda m: m.group().translate(table), line)


@lru_cache(maxsize=8192)  # gazettes repeat their running lines; pathological inputs repeat everything
def furniture_rule(line: str, previous: str = "") -> str | None:
    """The name of the furniture rule a whole (stripped) line matches, or None (page numbers as a
    scanner misreads them, "l945", count as read)."""
    name, whole = line_furniture(line)
    if name is None or not whole:
        return name
    if name == "page_number" and _expects_number(previous):
        return None
    if name == "date_line" and _expects_date(previous):
        return None
    if name in _after_furniture_rules() and not (previous and furniture_rule(previous.strip())):
        return None
    return name


@lru_cache(maxsize=8192)
def line_furniture(line: str) -> tuple[str | None, bool]:
    """The furniture rule `line` matches by itself, whatever line is above it: (name or None, whether
    the whole line matched it, so that the line above may still undo it, `furniture_rule`; False for a
    date that opens a running header, "12 de janeiro de 2015 Diário da República ..."). One cache for
    the running-header count (`repeated_lines`) and the cleaner, which look at each line apart."""
    if not line or len(line) > 120:
        return None, False
    line = read_misread_digits(line)
    date_line, others = _furniture_line_matcher()
    has_year = _YEAR.search(line) is not None
    if has_year and date_line.match(line):
        return "date_line", True
    if found := others.match(line):
        return _furniture_line_patterns()[int(found.lastgroup[1:]) + 1][0], True  # type: ignore[index]
    dated = _leading_date().match(line) if has_year else None
    if dated and dated.end() < len(line):
        rest = furniture_rule(line[dated.end():])
        if rest is not None and rest != "page_number":
            return rest, False
    return None, False


#: what a note's words are compared without: blanks of any kind, soft hyphens
_NOT_COMPARED = regex.compile(r"[\s\u00ad]+")
#: a note's first line read without the line before being furniture: this long at least (normalised)
_NOTE_START_ALONE = 40


@cache
def _notes() -> tuple[str, ...]:
    return tuple(_NOT_COMPARED.sub("", vocab.fold(note)) for note in vocab.furniture_notes())


def note_piece(line: str, at: tuple[int, int] | None, after_furniture: bool) -> tuple[int, int] | None:
    """Where a page's note stands after `line`, when `line` is a piece of it: (note, offset in its
    words compared without blanks), else None. A piece goes on the note exactly where the line before
    left it (`at`), or opens it from its first word right under other furniture (or, alone, with
    at least `_NOTE_START_ALONE` characters of it): "Este documento ha sido firmado electrónicamente
    de acuerdo con la ley" / "N°19.799 e incluye sello de tiempo y firma" / "electrónica avanzada. Para
    verificar la autenticidad de una repres-" / "entación impresa del mismo, ...", the Chilean Diario
    Oficial's foot wrapped at another width. A word cut at the line's end by a hyphen goes on below."""
    notes = _notes()
    if not notes or not line:
        return None
    words = _NOT_COMPARED.sub("", vocab.fold(line))
    if not words:
        return None
    tries = [words[:-1], words] if words[-1:] in "-‐" and len(words) > 1 else [words]
    for piece in tries:
        if at is not None and notes[at[0]].startswith(piece, at[1]):
            return at[0], at[1] + len(piece)
        for k, note in enumerate(notes):
            if (after_furniture or len(piece) >= _NOTE_START_ALONE) and note.startswith(piece):
                return k, len(piece)
    return None


_DIGIT_RUN = regex.compile(r"\d+")
_HAS_LETTER = regex.compile(r"\p{L}")
#: a running line that opens with a date ("8/3/2019 DTC agreement between ..."), not a number of a list
_DATE_LEAD = regex.compile(r"\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\s")
#: a running header or footer is printed on every page: at least this many times
RUNNING_HEADER_MIN_REPEATS = 3


def running_key(line: str) -> str:
    """Lines equal up to their numbers ("TAX TREATY 12" / "TAX TREATY 13") share a key."""
    return _DIGIT_RUN.sub("#", " ".join(read_misread_digits(line).split()))


def repeated_lines(original: str) -> frozenset[str]:
    """Keys of short lines printed again and again at page breaks, not part of the treaty's
    structure: running headers and footers the furniture table does not know ("AGREEMENT -
    ITALY / IRELAND" next to "- 2 -"). A heading title that merely repeats ("Dividends" in three
    versions) is not one: at least two of its occurrences must touch known page furniture."""
    lines = [raw.strip() for raw in original.split("\n")]
    lines = [line for line in lines if line]
    # each line's key and whether it is known furniture, once (both passes look at every line's neighbours)
    keys = [running_key(line) if len(line) <= 120 else "" for line in lines]
    furnished = [len(line) <= 120 and furniture_rule(line) is not None for line in lines]
    found: set[str] = set()
    # twice: a running line next to another running line the first pass found is at a page break too (a PDF
    # copy's "8/3/2019 DTC agreement between ..." above its "http://slidepdf.com/reader/full/... 2/12")
    for _ in range(2):
        found |= _running(lines, keys, furnished, found)
    return frozenset(found)


def _running(lines: list[str], keys: list[str], furnished: list[bool], known: set[str]) -> set[str]:
    counts: dict[str, int] = {}
    at_page_break: dict[str, int] = {}
    samples: dict[str, str] = {}  # a line of each key as printed: "8/3/2019 ..." is no list item "#/#/# ..."
    last = len(lines) - 1
    for i, line in enumerate(lines):
        if 3 <= len(line) <= 100:
            key = keys[i]
            counts[key] = counts.get(key, 0) + 1
            samples.setdefault(key, line)
            if any(furnished[j] or (keys[j] and keys[j] in known) for j in (i - 1, i + 1) if 0 <= j <= last):
                at_page_break[key] = at_page_break.get(key, 0) + 1
    heading_words = _heading_words()
    found = set()
    for key, n in counts.items():
        if n < RUNNING_HEADER_MIN_REPEATS or not _HAS_LETTER.search(key) or key[-1] in ".;:,":
            continue
        if at_page_break.get(key, 0) < 2:
            continue
        if line_kind(key) != "text" or (key.startswith(("#", "*", "(", "-", "–", "—", "•"))
                                        and not _DATE_LEAD.match(samples[key])):
            continue  # structure, markdown and list items repeat legitimately
        if vocab.fold(key).rstrip(".").split(" ")[0] in heading_words:
            continue  # a bare "ARTIGO" with its number on the next line
        found.add(key)
    return found



@cache
def _heading_words() -> frozenset[str]:
    """The words of article and chapter headings, folded: a bare "ARTIGO" repeats, yet is no running header."""
    return frozenset(vocab.fold(w).rstrip(".") for w in vocab.all_words("article_words") + vocab.all_words("chapter_words"))


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
    return previous.strip().casefold().rstrip(".") in _article_word_keys()


@cache
def _article_word_keys() -> frozenset[str]:
    return frozenset(w.casefold().rstrip(".") for w in vocab.all_words("article_words"))

