"""The final clause of an instrument: its entry into force and its date of effect, absolute or
relative ("on the first day of January of the year following", "the first day of the second month
next following the date on which this Protocol enters into force"). Words in
`taxtreaty/data/instruments.yaml`; the instrument itself is read by `instrument.py`."""

from __future__ import annotations

import datetime as dt
from functools import cache
from typing import TYPE_CHECKING

import regex

from taxtreaty import vocab
from taxtreaty.patterns import compiled
from taxtreaty.structure.instrument import (
    InstrumentCite,
    InstrumentDates,
    Modification,
    _Line,
    _patterns,
    words,
)

if TYPE_CHECKING:
    from taxtreaty.text import CleanText

def final_clause(lines: list[_Line], ct: CleanText, original: str, language: str, modifications: list[Modification]) -> InstrumentDates | None:
    """The instrument's final clause, outside the new texts it inserts."""
    from taxtreaty.structure.metadata import find_date

    pats = _patterns(language)
    inside = [m.span for m in modifications if m.span]
    result = InstrumentDates()
    for line in lines:
        span = ct.original_span(line.start, line.end)
        if any(a <= span[0] < b for a, b in inside):
            continue
        folded = line.text
        effect = pats["effect"].search(folded) if pats["effect"] is not None else None
        entry = pats["entry_into_force"].search(folded) if pats["entry_into_force"] is not None else None
        if effect is None and entry is None:
            continue
        if entry is not None and (effect is None or entry.start() < effect.start()):
            part = folded[entry.end() : effect.start() if effect is not None and effect.start() > entry.start() else len(folded)]
            date, _ = find_date(part)
            if date:
                result.entry_into_force = date
            rule = _entry_rule(part, pats, language)
            if rule:
                result.entry_rule = rule
        if effect is not None:
            part = folded[effect.end():]
            date, _ = find_date(part)
            year = compiled(r"(?<!\d)(1[89]\d\d|2[01]\d\d)(?!\d)").search(part)
            fiscal = pats["fiscal_year"].search(part) if pats["fiscal_year"] is not None else None
            following = pats["following_year"].search(part) if pats["following_year"] is not None else None
            if date:
                result.effect_from = date
            elif fiscal and year and year.start() >= fiscal.start():
                result.effect_from = dt.date(int(year.group(1)), 1, 1).isoformat()
            elif following and (months := _nth_month(part, following.start(), language)) is not None:
                result.effect_rule = f"month_{months}_after_entry_into_force"
            elif following and pats["first_day"] is not None and pats["first_day"].search(part):
                result.effect_rule = "january_1_of_year_after_entry_into_force"
        result.cite = InstrumentCite(eid=None, quote=original[span[0]:span[1]], span=span)
    if result.cite is None:
        return None
    return result


def nth_month_after(sentence: str, language: str) -> int | None:
    """"on or after the first day of the second month next following the date on which the Convention
    enters into force": 2, the months counted from the month of entry into force (None when the
    sentence does not say so). For the final clauses of conventions and of amending instruments."""
    pats = _patterns(language)
    following = pats["following_year"].search(sentence) if pats["following_year"] is not None else None
    first = pats["first_day"].search(sentence) if pats["first_day"] is not None else None
    if following is None or first is None:
        return None
    return _nth_month(sentence, following.start(), language)


def _nth_month(part: str, following_at: int, language: str) -> int | None:
    """"the first day of the second month next following the date on which it enters into force": 2
    (the months counted from the month of entry into force), when the words before "following" say so."""
    w = words(language)
    month = _patterns(language)["month_unit"]
    if w is None or month is None:
        return None
    ordinals = {vocab.fold(str(k)): int(v) for k, v in (w.raw.get("ordinals") or {}).items()}
    for m in compiled(r"(?P<ord>[\p{L}\d]+)\s+(?=(?P<unit>\p{L}+))").finditer(part[:following_at]):
        if month.fullmatch(m.group("unit")) and vocab.fold(m.group("ord")) in ordinals:
            return ordinals[vocab.fold(m.group("ord"))]
    return None


@cache
def _count_unit(language: str) -> regex.Pattern[str]:
    """A count and its unit: "30 days", "three months", "the 30th day", "no 30.º dia", "el trigésimo día"; the
    marks an ordinal figure may carry are the language's (instruments.yaml `ordinal_marks`)."""
    w = words(language)
    marks = [str(m) for m in ((w.raw.get("ordinal_marks") if w else None) or [])]
    mark = "(?:" + "|".join(regex.escape(m) for m in sorted(marks, key=len, reverse=True)) + ")?" if marks else ""
    return regex.compile(rf"(?<![\p{{L}}\d])(?P<n>\d{{1,3}}{mark}|\p{{L}}++)\s+(?P<unit>\p{{L}}+)(?!\p{{L}})")


def _entry_rule(part: str, pats: dict[str, regex.Pattern[str] | None], language: str) -> dict[str, int]:
    """"shall enter into force thirty days after ...", "a los tres meses de la fecha de recepción", "no 30.º dia
    após": the first count of months or days in the words after the entry-into-force phrase."""
    numbers = _number_words(language)
    # the count stands next to the phrase; a hostile line of megabytes is not searched to its end
    for found in _count_unit(language).finditer(part[:300], overlapped=True):  # "el trigésimo día": each word a count
        figure = compiled(r"\d+").match(found.group("n"))
        n = int(figure.group()) if figure else numbers.get(vocab.fold(found.group("n")))
        if not n:
            continue
        for key, name in (("month_unit", "months_after"), ("day_unit", "days_after")):
            pattern = pats[key]
            if pattern is not None and pattern.fullmatch(found.group("unit")):
                return {name: n}
    return {}


def _number_words(language: str) -> dict[str, int]:
    """"one month after", "treinta días": the language's number words (instruments.yaml `number_words`), folded."""
    w = words(language)
    return {vocab.fold(str(k)): int(v) for k, v in ((w.raw.get("number_words") if w else None) or {}).items()}
