"""Final clauses and procedure: the time limit for presenting a mutual-agreement case, the dates
of entry into force and of effect (each State's own), when notice of termination may be given
and from when it takes effect, and the language that prevails in case of divergence."""

from __future__ import annotations

from functools import cache
from typing import Any

import regex

from taxtreaty import vocab
from taxtreaty.patterns import compiled
from taxtreaty.provisions import figures
from taxtreaty.provisions.citing import Unit
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.reading import Emitted, Reading, number
from taxtreaty.provisions.states import states_named
from taxtreaty.provisions.vocabulary import Phrases, all_words, word_alternation
from taxtreaty.structure.instrument_dates import nth_month_after


def read_time_limits(reading: Reading, units: list[Unit], ph: Phrases) -> list[Provision]:
    """The time limits of the article on the mutual agreement procedure."""
    out = Emitted(reading)
    for unit in units:
        for s_start, s_end in unit.sentences():
            sentence = unit.folded[s_start:s_end]
            for d in figures.find_durations(sentence, ph):
                before = sentence[max(0, d.start - 30) : d.start]
                if ph.find("map_time_limit", before) is None:
                    continue
                out.add(unit, "time_limit", reading.cite(unit, s_start, s_end),
                        values={d.unit: number(d.value), "event": "mutual_agreement_case"})
                break
    return out


def read_dates(reading: Reading, units: list[Unit], ph: Phrases) -> list[Provision]:
    """Entry into force (days or months after notification, or a printed date) and effect (1 January, or a printed date)."""
    out = Emitted(reading)
    for unit in units:
        context = " ".join(c.folded for c in unit.context)
        # "...y sus disposiciones se aplicarán: I - Con respecto a ...; II - ...": items the text does
        # not set apart as points are sentences of one unit, announced by the one that ends in ":"
        announced = False
        for s_start, s_end in unit.sentences():
            sentence = unit.folded[s_start:s_end]
            effect = ph.find("effect", sentence)
            entry = ph.find("entry_into_force", sentence)
            # "shall enter into force 30 days after ... and shall have effect ...": the words
            # before "have effect" are about entry into force
            entry_part = sentence[: effect.start()] if effect is not None and entry is not None \
                and entry.start() < effect.start() else sentence
            if entry is not None and (effect is None or entry_part is not sentence):
                values: dict[str, Any] = {"event": "entry_into_force"}
                days = [d for d in figures.find_durations(entry_part, ph) if d.unit in ("days", "months")]
                ordinal = _ordinal_day(entry_part)
                if days:
                    values[f"{days[0].unit}_after"] = number(days[0].value)
                elif ordinal:
                    values["days_after"] = ordinal  # "on the thirtieth day after"
                if (days or ordinal) and ph.has("notification", entry_part):
                    values["after"] = "last_notification"
                dates = figures.find_dates(entry_part)
                if dates:
                    values["date"] = dates[0].date.isoformat()
                if len(values) > 1:
                    out.add(unit, "date", reading.cite(unit, s_start, s_start + len(entry_part.rstrip(" ,"))), values=values)
            in_effect = effect is not None or announced or ph.has("effect", context)
            if effect is not None:
                announced = sentence.rstrip().endswith(":")
            # "produzirão efeitos a partir de 1 de Janeiro de 2001": the day itself, when printed
            printed = figures.find_dates(sentence[effect.start():] if effect is not None else sentence) \
                if in_effect else []
            january = ph.has("january_first", sentence)
            months_after = nth_month_after(sentence, unit.language) if in_effect and not printed else None
            if months_after is not None:
                # "for amounts paid or credited on or after the first day of the second month next following
                # the date on which the Convention enters into force" (the US Model's words)
                out.add(unit, "date", reading.cite(unit, s_start, s_end),
                        values={"event": "effect", "from": "month_n_after_entry_into_force", "months": months_after},
                        state=_effect_state(reading, unit))
                continue
            day_of = _day_of_month(sentence, unit, ph) if in_effect and not printed and "following_date" in ph.patterns \
                and ph.has("following_date", sentence) else None
            if day_of is not None and not (january and day_of == (1, 1)):
                # "(b) in the United Kingdom: (i) in respect of income tax, for any year of assessment beginning on or
                # after 6th April next following the date on which this Convention enters into force": the first such
                # day after the entry into force (in the same year when it falls later in it)
                out.add(unit, "date", reading.cite(unit, s_start, s_end),
                        values={"event": "effect", "from": "day_after_entry_into_force", "month": day_of[0], "day": day_of[1]},
                        state=_effect_state(reading, unit))
                continue
            month = None if january or printed else _first_of_month(sentence, unit, ph)
            if in_effect and month is not None and ph.has("following_year", sentence):
                # "(a) in India, ... on or after the first day of April next following the calendar year in which
                # the Agreement enters into force": the first of that month, in the year after the entry into force
                out.add(unit, "date", reading.cite(unit, s_start, s_end),
                        values={"event": "effect", "from": "month_1_of_year_after_entry_into_force", "month": month},
                        state=_effect_state(reading, unit))
                continue
            if in_effect and (january or (printed and unit.context)):
                following = ph.has("following_year", sentence)
                values = {"event": "effect",
                          "from": ("january_1_of_year_after_entry_into_force" if following else "january_1")
                          if january else "printed_date"}
                if printed and not following:
                    values["effect_from"] = printed[0].date.isoformat()
                # "(a) in India, ... 1 April 2024; (b) in Spain: (i) ... 1 January 2024": each State's
                # date is its own, never the other's
                out.add(unit, "date", reading.cite(unit, s_start, s_end), values=values,
                        state=_effect_state(reading, unit))
    return out


@cache
def _first_of_month_pattern(language: str, day_nouns: tuple[str, ...]) -> regex.Pattern[str] | None:
    """"first day of April", "1st day of July", "1 April", "primeiro dia de abril", "1 de julio": the first
    day of a month named in words (the language's months, its words for day one, its day noun and leads)."""
    lang = vocab.languages().get(language)
    if lang is None or not lang.months:
        return None
    ones = [w for w, v in lang.day_words.items() if v == 1]
    one = "|".join([*(regex.escape(w) for w in sorted(ones, key=len, reverse=True)), r"1(?:st|\.?[º°o])?"])
    leads = sorted({w for lead in lang.date_month_lead for w in lead.split()} | {vocab.fold(n) for n in day_nouns},
                   key=len, reverse=True)
    months = "|".join(regex.escape(m) for m in sorted(lang.months, key=len, reverse=True))
    lead = "|".join(regex.escape(w) for w in leads)
    return regex.compile(rf"\b(?:{one})\s+(?:(?:{lead})\s+){{0,3}}(?P<month>{months})\b")


@cache
def _day_of_month_pattern(language: str) -> regex.Pattern[str] | None:
    """"6th April", "6 April", "April 6": a day of a month named in words (the language's months)."""
    lang = vocab.languages().get(language)
    if lang is None or not lang.months:
        return None
    months = "|".join(regex.escape(m) for m in sorted(lang.months, key=len, reverse=True))
    # "6th", "6.º": the figure and the letters or signs of an ordinal that may follow it (not a word of the language)
    day = r"(?P<day>[12]\d|3[01]|0?[1-9])\p{L}{0,2}\.?[º°]?"
    leads = sorted({w for lead in lang.date_month_lead for w in lead.split()}, key=len, reverse=True)
    lead = "|".join(regex.escape(w) for w in leads) or "(?!)"
    return regex.compile(rf"(?<!\d){day}\s+(?:(?:{lead})\s+){{0,3}}(?P<month>{months})\b"
                         rf"|\b(?P<month2>{months})\s+(?P<day2>[12]\d|3[01]|0?[1-9])(?!\d)")


def _day_of_month(sentence: str, unit: Unit, ph: Phrases) -> tuple[int, int] | None:
    """(month, day) of a day of a month the sentence names in figures and words, or None."""
    pattern = _day_of_month_pattern(unit.language)
    found = pattern.search(vocab.fold(sentence)) if pattern is not None else None
    if found is None:
        return None
    months = vocab.languages()[unit.language].months
    month = months.get(found.group("month") or found.group("month2"))
    day = int(found.group("day") or found.group("day2"))
    return (month, day) if month else None


def _first_of_month(sentence: str, unit: Unit, ph: Phrases) -> int | None:
    """The month whose first day the sentence names, or None."""
    pattern = _first_of_month_pattern(unit.language, tuple(ph.words("day_nouns")))
    found = pattern.search(vocab.fold(sentence)) if pattern is not None else None
    if found is None:
        return None
    return vocab.languages()[unit.language].months.get(found.group("month"))


def _effect_state(reading: Reading, unit: Unit) -> str | None:
    """The State an item of the clause on dates of effect speaks of: the one its own first words
    name ("(a) in India, ...") or, for a sub-item, its introduction's ("(b) in Spain: (i) ...")."""
    if not unit.context:
        return None
    for text in (unit.folded[:60], *(c.folded[:60] for c in reversed(unit.context))):
        named = [c for c in states_named(text) if not reading.parties or c in reading.parties]
        if len(named) == 1:
            return named[0]
        if named:
            return None
    return None


def read_termination(reading: Reading, units: list[Unit], ph: Phrases) -> list[Provision]:
    """The final clause on termination: when notice may be given ("at least six months before the
    end of any calendar year", "até ao dia 30 de Junho de qualquer ano civil", after a waiting period
    from entry into force) and from when the convention then ceases to have effect ("for taxable
    years beginning after the end of the calendar year in which the notice is given")."""
    out = Emitted(reading)
    for unit in units:
        context = " ".join(c.folded for c in unit.context)
        for s_start, s_end in unit.sentences():
            sentence = unit.folded[s_start:s_end]
            effect = ph.has("termination_effect", sentence) or ph.has("termination_effect", context)
            # "...following the year in which the notice of termination has been given" speaks of the
            # effect of a notice, not of when one may be given; "either State may, on or before June 30
            # ..., give notice of termination ... and in such event the Convention shall cease to have
            # effect": the words before the effect say when notice may be given
            notice = ph.find("termination_notice", sentence)
            ceases = ph.find("termination_effect", sentence)
            part = sentence
            if notice is not None and ceases is not None and notice.end() <= ceases.start() \
                    and not ph.has("termination_effect", context):
                part = sentence[: ceases.start()]
            if notice is not None and not ph.has("termination_effect", part) and not ph.has("termination_effect", context):
                values = _notice_values(part, ph)
                if len(values) > 1:
                    out.add(unit, "date", reading.cite(unit, s_start, s_start + len(part.rstrip(" ,"))), values=values)
            if effect and (ph.has("after_year_end", sentence)
                           or (ph.has("january_first", sentence) and ph.has("following_year", sentence))):
                out.add(unit, "date", reading.cite(unit, s_start, s_end),
                        values={"event": "termination_effect", "from": "january_1_of_year_after_notice"})
    return out


def read_prevailing_language(reading: Reading) -> Provision | None:
    """The sentence of the whole text that says which language prevails, when the parser found one."""
    language = reading.doc.prevailing_language
    if not language:
        return None
    folded = reading.source.folded
    words = sorted({vocab.fold(w) for lang in vocab.languages().values() for w in lang.prevail_words}, key=len, reverse=True)
    names = sorted((n for lang in vocab.languages().values() for n, code in lang.language_names.items() if code == language),
                   key=len, reverse=True)
    if not names:
        return None
    pattern = compiled(r"(?<!\p{L})(?:" + "|".join(regex.escape(w) for w in words) + r")")
    name_re = compiled(r"(?<!\p{L})(?:" + "|".join(regex.escape(n) for n in names) + r")(?!\p{L})")
    for m in pattern.finditer(folded):
        start = max(folded.rfind(".", 0, m.start()), folded.rfind("\n", 0, m.start())) + 1
        ends = [i for i in (folded.find(".", m.end()), folded.find("\n", m.end())) if i >= 0]
        end = min(ends) + 1 if ends else len(folded)
        if not name_re.search(folded[start:end]):
            continue
        version = next((v for v in reading.doc.versions
                        if reading.source.clean.original_span(start, start)[0] >= v.span[0]
                        and reading.source.clean.original_span(start, start)[0] <= v.span[1] + 2000), None)
        cite = reading.source.cite(version.language if version else language, "final_clause", start, end)
        provision = Provision(
            id=f"{cite.language}:final_clause:prevailing_language:1", topic="final_clause",
            kind="prevailing_language", values={"language": language}, cite=cite,
        )
        return provision
    return None


@cache
def _ordinal_day_regex() -> regex.Pattern[str]:
    """"the thirtieth day", "trigésimo dia": an ordinal day word (language files) and a `day_nouns` word."""
    words = "|".join(regex.escape(w) for w in sorted(vocab.all_day_words(), key=len, reverse=True))
    days = word_alternation([vocab.fold(w) for w in all_words("day_nouns")])
    return regex.compile(rf"(?<![\p{{L}}])(?P<n>{words})\s+{days}(?![\p{{L}}])")


def _ordinal_day(text: str) -> int | None:
    """"the thirtieth day after" -> 30 (ordinal day words from the language files)."""
    m = _ordinal_day_regex().search(text)
    return vocab.all_day_words()[m.group("n")] if m else None


def _notice_values(sentence: str, ph: Phrases) -> dict[str, Any]:
    """{"event": "termination_notice"} with what the sentence says of the deadline: the months before
    the end of a calendar year, or a day of the year ("30 June" -> "by": "06-30"), and the years from
    entry into force before notice may be given."""
    values: dict[str, Any] = {"event": "termination_notice"}
    year_end = ph.find("before_year_end", sentence)
    for d in figures.find_durations(sentence, ph):
        if d.unit == "months" and year_end is not None and 0 <= year_end.start() - d.end < 12:
            values["months_before_year_end"] = number(d.value)
        elif d.unit == "years" and ph.has("entry_into_force", sentence[d.end :]):
            values["years_after_entry_into_force"] = number(d.value)
    day = figures.find_day_of_year(sentence)
    ordinal = _ordinal_day_regex().search(sentence)
    if day is None and ordinal is not None:  # "on or before the thirtieth day of June"
        month = compiled(rf"\s*{ph.word_group('of_words')}\s+(\p{{L}}+)").match(sentence[ordinal.end() : ordinal.end() + 20])
        if month is not None and month.group(1) in vocab.all_months():
            day = (vocab.all_months()[month.group(1)], vocab.all_day_words()[ordinal.group("n")])
    if day is not None:
        values["by"] = f"{day[0]:02d}-{day[1]:02d}"
    return values
