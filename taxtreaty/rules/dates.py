"""When a convention applies to a payment: its dates of effect, resolved from what the text,
the official collection and the user say.

`window(doc, provisions, prevailing, given)` builds the `InForce` the engine checks:

- the final clauses' dates of effect, absolute ("1 January 2004") or relative to the entry into
  force ("the first day of January of the calendar year next following that in which the
  Convention enters into force");
- the entry into force itself: given by the user (`--in-force DATE`, `entry_into_force:` in the
  metadata file, `ingest --in-force`), from the collection's status line ("Treedt in werking per
  31-08-2014"), from the gazette's note outside the articles ("El presente Convenio entró en vigor el
  15 de enero de 2021"), or printed in the text; with it, relative dates become days;
- the signature as a lower bound: no relative date of effect can fall before it, and a text whose
  dates are not known at all applies to nothing before it (PT–TL, signed 2011, does not decide a
  2005 payment). A date of effect the text prints before the signature (retroactive effect, AR–DE
  1976) is the text's word and is kept, with a note;
- dates that are not this convention's entry into force are dropped: "the Convention ... signed
  at The Hague on 12 March 1968, shall terminate upon the entry into force of this Convention"
  names the old convention's signature (NL–SE).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cache

import regex

from taxtreaty.patterns import compiled
from taxtreaty.provisions.model import Provision
from taxtreaty.structure.instrument import words
from taxtreaty.structure.model import Document
from taxtreaty.text import clean

#: how far before a date a signature word makes it a signature date
_SIGNED_WINDOW = 60
#: a status line of an official collection: the words, then a day as DD-MM-YYYY
#: "31-08-2014" (wetten.overheid.nl), "23/12/2003" (the BOE's consolidated page, on the line under its label)
_STATUS_DATE = r"\s*(?P<d>\d{1,2})[-/](?P<m>\d{1,2})[-/](?P<y>\d{4})"


@dataclass(frozen=True)
class GivenDates:
    """Dates the user gives for a convention whose text leaves them open."""

    entry_into_force: dt.date | None = None
    #: the last day the convention has effect (after a termination)
    effect_until: dt.date | None = None


@dataclass
class Resolved:
    """What the dates module adds to the text's own dates (kept on `InForce.resolved`)."""

    entry_into_force: dt.date | None = None
    entry_source: str | None = None  # "given by the user", "the collection's status line", "the text"
    not_before: dt.date | None = None
    not_before_why: str = ""
    notes: list[str] = field(default_factory=list)
    #: what a decision must say (the collection prints the convention as not yet in force, or lapsed)
    warnings: list[str] = field(default_factory=list)
    #: the dates of effect are relative to an entry into force nobody gave: what the assumption says
    open_entry: str | None = None
    #: the collection prints the convention as not yet in force ("Treedt in werking op een nader te
    #: bepalen tijdstip") and no entry into force is known: a dated payment is not covered
    pending: bool = False
    #: the first day of application the collection prints above the convention ("Aplicable desde : 1 de Enero de 2015")
    effect_stated: dt.date | None = None

    def describe(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.entry_into_force:
            out["entry_into_force"] = self.entry_into_force.isoformat()
            out["entry_into_force_from"] = self.entry_source
        if self.not_before:
            out["not_before"] = self.not_before.isoformat()
            out["not_before_why"] = self.not_before_why
        if self.effect_stated:
            out["effect_stated"] = self.effect_stated.isoformat()
        if self.notes or self.warnings:
            out["notes"] = [*self.warnings, *self.notes]
        return out


def _pattern(key: str) -> regex.Pattern[str] | None:
    found: list[str] = []
    from taxtreaty.structure.instrument import _data

    for language in _data()["languages"]:
        w = words(language)
        if w is not None:
            found += w.words(key)
    if not found:
        return None
    from taxtreaty.vocab import accent_insensitive_alternation

    body = accent_insensitive_alternation(found).replace(r"\ ", r"\s+")
    return regex.compile(rf"(?<![\p{{L}}])(?:{body})(?![\p{{L}}])", regex.IGNORECASE)


@cache
def _patterns() -> dict[str, regex.Pattern[str] | None]:
    return {k: _pattern(k) for k in ("signed_words", "terminates_words", "status_in_force", "status_lapsed",
                                      "status_pending", "stated_in_force", "stated_effect")}


def status_lines(original: str, before: int | None = None) -> tuple[dt.date | None, dt.date | None, bool]:
    """(in force from, lapsed from, pending) from an official collection's status lines printed
    before offset `before` (the convention's own status, above its first article)."""
    pats = _patterns()
    head = original[: before if before is not None else len(original)]
    result: list[dt.date | None] = [None, None]
    for i, key in enumerate(("status_in_force", "status_lapsed")):
        pattern = pats[key]
        m = compiled(rf"(?m)^\s*(?:{pattern.pattern}){_STATUS_DATE}", regex.IGNORECASE).search(head) if pattern else None
        if m:
            try:
                result[i] = dt.date(int(m.group("y")), int(m.group("m")), int(m.group("d")))
            except ValueError:
                result[i] = None
    pending = pats["status_pending"]
    return result[0], result[1], bool(pending and compiled(rf"(?m)^\s*(?:{pending.pattern})", regex.IGNORECASE).search(head))


#: how far after the words of a stated entry into force its date may come ("entrou em vigor para a República
#: Federativa do Brasil, no plano jurídico externo, em 15 de fevereiro de 2024")
_STATED_WINDOW = 120


#: how much of a note after the text may name the article it applies
_NOTE_SENTENCE = 300


@cache
def _article_reference() -> regex.Pattern[str]:
    from taxtreaty.vocab import accent_insensitive_alternation, all_words

    body = accent_insensitive_alternation(all_words("article_words")).replace(r"\ ", r"\s+")
    return regex.compile(rf"(?<![\p{{L}}])(?:{body})\s+\d{{1,3}}", regex.IGNORECASE)


def _cites_own_article(words: str) -> bool:
    """The note's sentence (to its first full stop) names an article by number: the convention's final clause."""
    end = compiled(r"\.(?:\s|$)").search(words)
    return _article_reference().search(words[: end.start() if end else len(words)]) is not None


def stated_entry(original: str, before: int | None = None, after: int | None = None) -> dt.date | None:
    """The entry into force the instrument printed above the convention states as a fact: the promulgating
    decree's "Considerando que a Convenção entrou em vigor ... em 5 de outubro de 2001", a notice's "the
    Convention entered into force on 1 March 2016" (`stated_in_force` words, in the past: never "shall enter
    into force"); also the gazette's note printed after the convention's last article (`after`): the BOE's
    "El presente Convenio entró en vigor el 15 de enero de 2021, ..., según se establece en su artículo 26"
    under the text (a note that names the final clause it applies). One date only: two different ones (a
    protocol's and the convention's) decide nothing."""
    pattern = _patterns()["stated_in_force"]
    if pattern is None:
        return None
    from taxtreaty.structure.metadata import find_date

    # read cleaned, as the convention is: a date the page hyphenated ("em 15 de fev-" + "ereiro de 2024")
    # or a page's furniture inside the decree's sentence leaves it whole
    head = clean(original[: before if before is not None else len(original)]).text
    regions = [head] + ([clean(original[after:]).text] if after is not None and before is not None and after > before else [])
    days = set()
    for k, region in enumerate(regions):
        for m in pattern.finditer(region):
            if k and not _cites_own_article(region[m.start(): m.start() + _NOTE_SENTENCE]):
                continue  # after the text, only a note that names the final clause it applies ("según ... su artículo 26")
            window = region[m.end() : m.end() + _STATED_WINDOW]
            effect = _patterns()["stated_effect"]
            if effect is not None and (label := effect.search(window)) is not None:
                window = window[: label.start()]  # "Entrada en vigencia :" with no date, then "Aplicable desde : ..."
            date, _at = find_date(window)
            if date is not None:
                days.add(date)
    return _day(days.pop()) if len(days) == 1 else None


#: how far after its label the first date of application may come ("Aplicable desde : 1 de Enero de 2015")
_EFFECT_LABEL_WINDOW = 40


def stated_effect(original: str, before: int | None = None) -> dt.date | None:
    """The first day of application an official collection prints above the convention, under its own label
    (`stated_effect` words at a line's start: SUNAT's "Aplicable desde : 1 de Enero de 2015"), never read as
    the entry into force; one date only."""
    pattern = _patterns()["stated_effect"]
    if pattern is None:
        return None
    from taxtreaty.structure.metadata import find_date

    head = clean(original[: before if before is not None else len(original)]).text
    days = set()
    for m in pattern.finditer(head):
        if head[head.rfind("\n", 0, m.start()) + 1: m.start()].strip():
            continue  # the label opens its line: in a sentence, the words are the text's
        date, _at = find_date(head[m.end(): m.end() + _EFFECT_LABEL_WINDOW])
        if date is not None:
            days.add(date)
    return _day(days.pop()) if len(days) == 1 else None


def is_foreign_date(provision: Provision) -> bool:
    """An entry-into-force date that is not this convention's: a signature date ("signed at The Hague
    on 12 March 1968"), or in a sentence about a convention that terminates."""
    if provision.kind != "date" or provision.values.get("event") != "entry_into_force" or "date" not in provision.values:
        return False
    pats = _patterns()
    quote = provision.cite.quote
    terminates = pats["terminates_words"]
    if terminates is not None and terminates.search(quote):
        return True
    signed = pats["signed_words"]
    if signed is None:
        return False
    from taxtreaty.structure.metadata import find_date

    for m in signed.finditer(quote):
        date, _at = find_date(quote[m.end(): m.end() + _SIGNED_WINDOW])
        if date == str(provision.values["date"]):
            return True
    return False


def _first_article_offset(doc: Document) -> int | None:
    starts = [v.articles[0].span[0] for v in doc.versions if v.articles]
    return min(starts) if starts else None


def _last_article_end(doc: Document) -> int | None:
    ends = [v.articles[-1].span[1] for v in doc.versions if v.articles]
    return max(ends) if ends else None


def _day(value: object) -> dt.date | None:
    try:
        return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))
    except ValueError:
        return None


def resolve(doc: Document, provisions: list[Provision], given: GivenDates | None) -> tuple[list[Provision], Resolved]:
    """The date provisions with relative dates turned into days where the entry into force is known
    (and foreign dates dropped), and what was resolved."""
    given = given or GivenDates()
    resolved = Resolved()
    kept = [p for p in provisions if not is_foreign_date(p)]
    if len(kept) != len(provisions):
        resolved.notes.append("a date naming another convention's signature or termination is not this convention's entry into force")
    in_force, lapsed, pending = status_lines(doc.original, _first_article_offset(doc))
    stated = stated_entry(doc.original, _first_article_offset(doc), _last_article_end(doc))
    resolved.effect_stated = stated_effect(doc.original, _first_article_offset(doc))
    text_eif = next((_day(p.values["date"]) for p in kept if p.kind == "date" and p.status == "determined"
                     and p.values.get("event") == "entry_into_force" and "date" in p.values), None)
    if given.entry_into_force:
        resolved.entry_into_force, resolved.entry_source = given.entry_into_force, "given by the user"
    elif in_force:
        resolved.entry_into_force, resolved.entry_source = in_force, "the collection's status line"
    elif stated:
        resolved.entry_into_force, resolved.entry_source = stated, "the instrument or note printed with the convention"
    elif text_eif:
        resolved.entry_into_force, resolved.entry_source = text_eif, "the text"
    if pending and not resolved.entry_into_force:
        resolved.pending = True
        resolved.warnings.append("the collection prints the convention as not yet in force (to enter into force at a date "
                              "still to be set); give its entry into force if it has since entered into force")
    if lapsed:
        resolved.warnings.append(f"the collection prints the convention as lapsed from {lapsed}")
    signed = _day(doc.signed.date) if doc.signed is not None and doc.signed.date else None
    eif = resolved.entry_into_force
    out: list[Provision] = []
    relative = False
    days_after = 0
    for p in kept:
        if p.kind == "date" and p.values.get("event") == "entry_into_force":
            days_after = max(days_after, int(p.values.get("days_after") or 0) + 30 * int(p.values.get("months_after") or 0))
    for p in kept:
        rule = p.values.get("from") if p.kind == "date" and p.values.get("event") == "effect" else None
        if rule == "day_after_entry_into_force" and "effect_from" not in p.values:
            relative = True
            if eif is not None:
                day = dt.date(eif.year, int(p.values["month"]), int(p.values["day"]))
                day = day if day > eif else dt.date(eif.year + 1, day.month, day.day)
                p = p.model_copy(update={"values": {**p.values, "effect_from": day.isoformat(),
                                                    "resolved_from": f"entry into force on {eif} ({resolved.entry_source})"}})
        elif rule == "month_n_after_entry_into_force" and "effect_from" not in p.values:
            relative = True
            if eif is not None:
                index = eif.month + int(p.values.get("months") or 1) - 1
                p = p.model_copy(update={"values": {**p.values, "effect_from": dt.date(eif.year + index // 12, index % 12 + 1, 1).isoformat(),
                                                    "resolved_from": f"entry into force on {eif} ({resolved.entry_source})"}})
        elif rule in ("january_1_of_year_after_entry_into_force", "january_1", "month_1_of_year_after_entry_into_force") \
                and "effect_from" not in p.values:
            relative = True
            if eif is not None:
                year = eif.year + (0 if rule == "january_1" else 1)
                month = int(p.values.get("month") or 1) if rule == "month_1_of_year_after_entry_into_force" else 1
                p = p.model_copy(update={"values": {**p.values, "effect_from": dt.date(year, month, 1).isoformat(),
                                                    "resolved_from": f"entry into force on {eif} ({resolved.entry_source})"}})
        out.append(p)
    out = _apply_stated_effect(out, resolved, relative)
    if eif is not None and not any(p.kind == "date" and "effect_from" in p.values for p in out):
        # the text gives no date of effect apart from the entry into force itself
        out = [p for p in out if not (p.kind == "date" and p.values.get("event") == "entry_into_force")]
        out.append(_synthetic_entry(eif, resolved.entry_source or "", provisions))
    if signed is not None:
        if relative and eif is None:
            earliest = signed + dt.timedelta(days=days_after)
            resolved.not_before = dt.date(earliest.year + 1, 1, 1) if _year_after(kept) else dt.date(earliest.year, 1, 1)
            resolved.not_before_why = (f"its dates of effect follow its entry into force, which cannot be before its "
                                       f"signature on {signed}")
        if relative and eif is None and resolved.effect_stated is None:
            resolved.open_entry = ("the dates of effect follow the entry into force, which the text leaves open (after the "
                                   "notifications); the convention is taken to have effect on the payment date: give its "
                                   "entry into force (--in-force DATE, or the metadata file) to apply them")
        else:
            resolved.not_before = signed
            resolved.not_before_why = f"no convention applies before its signature on {signed}"
        absolute = [_day(p.values["effect_from"]) for p in out if p.kind == "date" and "effect_from" in p.values
                    and "resolved_from" not in p.values]
        early = [d for d in absolute if d is not None and d < signed]
        if early:
            # the text itself gives effect before its signature: retroactive, and its own word
            resolved.not_before = min(early)
            resolved.notes.append(f"the text gives effect from {min(early)}, before its signature on {signed} (retroactive)")
    return out, resolved


#: where the first day of application a collection states comes from, as a decision cites it
_STATED_EFFECT_SOURCE = "the first day of application the collection prints above the convention"


def _apply_stated_effect(out: list[Provision], resolved: Resolved, relative: bool) -> list[Provision]:
    """The first day of application the collection states (`stated_effect`): where the entry into force is not
    known, the dates of effect relative to it are that day (or, without any date of effect, the convention
    applies from it); where the text's own dates give another day, a decision says so."""
    stated = resolved.effect_stated
    if stated is None:
        return out
    if resolved.entry_into_force is None:
        if relative:
            return [p.model_copy(update={"values": {**p.values, "effect_from": stated.isoformat(),
                                                    "resolved_from": _STATED_EFFECT_SOURCE}})
                    if p.kind == "date" and p.values.get("event") == "effect" and "effect_from" not in p.values else p
                    for p in out]
        if not any(p.kind == "date" and "effect_from" in p.values for p in out):
            model = _synthetic_entry(stated, _STATED_EFFECT_SOURCE, out)
            return [*out, model.model_copy(update={"id": "given:effect_from",
                                                   "values": {"event": "effect", "effect_from": stated.isoformat(),
                                                              "given": _STATED_EFFECT_SOURCE}})]
        return out
    days = sorted({str(p.values["effect_from"]) for p in out if p.kind == "date" and "effect_from" in p.values})
    if days and stated.isoformat() not in days:
        resolved.warnings.append(f"the collection prints {stated} as the first day of application; the text's dates of "
                                 f"effect give {', '.join(days)}")
    return out


def _year_after(provisions: list[Provision]) -> bool:
    return all(p.values.get("from") != "january_1" for p in provisions if p.kind == "date" and p.values.get("event") == "effect")


def _synthetic_entry(eif: dt.date, source: str, provisions: list[Provision]) -> Provision:
    """A date provision for an entry into force the text leaves open: cited where the text says it
    enters into force (or, without such words, at the first date provision)."""
    model = next((p for p in provisions if p.kind == "date" and p.values.get("event") == "entry_into_force"), None)
    model = model or next((p for p in provisions if p.kind == "date"), None)
    if model is None:
        from taxtreaty.provisions.model import Citation

        cite = Citation(language="und", eid="entry_into_force", quote="", span=(0, 0))
        return Provision(id="given:entry_into_force", topic="entry_into_force", kind="date", status="determined",
                         values={"event": "entry_into_force", "date": eif.isoformat(), "given": source}, cite=cite)
    return model.model_copy(update={"values": {"event": "entry_into_force", "date": eif.isoformat(), "given": source},
                                    "status": "determined"})
