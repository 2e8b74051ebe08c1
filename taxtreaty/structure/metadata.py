"""Facts about the convention as a whole: the Contracting States, signature, prevailing language.

Parties are read only where a text names them as parties: the convention's title, its
preamble (or the gazette's approval text before it) and the signature block; a State named in
the body ("In China: ...") is not enough. Nothing is filled in when the text does not say.
"""

from __future__ import annotations

import datetime as dt
from functools import cache
from typing import TYPE_CHECKING

import regex

from taxtreaty import vocab
from taxtreaty.patterns import compiled
from taxtreaty.structure.model import Document, Signed

if TYPE_CHECKING:
    from taxtreaty.structure.lines import Line
    from taxtreaty.text import CleanText


@cache
def _country_pattern() -> tuple[regex.Pattern[str], dict[str, str]]:
    names: dict[str, str] = {}
    for code, variants in vocab.countries().items():
        for name in variants:
            names[vocab.fold(name)] = code
    alternation = "|".join(regex.escape(n) for n in sorted(names, key=len, reverse=True))
    return regex.compile(rf"(?<![\p{{L}}])(?:{alternation})(?![\p{{L}}])"), names


def state_mentions(text: str) -> list[str]:
    """ISO codes of every mention of a State in `text`, in order, repeats included."""
    pattern, names = _country_pattern()
    return [names[m.group()] for m in pattern.finditer(vocab.fold(text))]


def states_named(text: str) -> list[str]:
    """ISO codes of the States named in `text`, in order of first mention."""
    pattern, names = _country_pattern()
    found: list[str] = []
    for m in pattern.finditer(vocab.fold(text)):
        code = names[m.group()]
        if code not in found:
            found.append(code)
    return found


@cache
def _date_patterns() -> list[regex.Pattern[str]]:
    # full month names with or without their accents (the keys are folded: "marco" finds "março"),
    # and the abbreviations a language file gives, with their full stop ("Dec.")
    abbreviations = "|".join(regex.escape(m) + r"\." for m in sorted(vocab.all_month_abbreviations(), key=lambda m: (-len(m), m)))
    months = f"{vocab.accent_insensitive_alternation(vocab.all_months())}" + (f"|{abbreviations}" if abbreviations else "")
    day_words = vocab.accent_insensitive_alternation(vocab.all_day_words())
    suffixes = vocab.phrase_alternation(vocab.all_words("day_suffixes"))
    day = rf"(?P<day>\d{{1,2}}|{day_words})(?:\s*-?(?:<sup>)?(?:{suffixes}|º|°)(?:</sup>)?)?"
    # "1986", or in words: "mil novecientos ochenta", "mil novecientos noventa y nueve"
    year_words = vocab.accent_insensitive_alternation(vocab.all_year_words()) if vocab.all_year_words() else "(?!)"
    year_joiners = vocab.phrase_alternation(vocab.all_words("year_joiners")) if vocab.all_words("year_joiners") else "(?!)"
    year = (rf"(?:(?P<year>\d{{4}})|(?P<year_words>(?:{year_words})(?:\s+(?:(?:{year_joiners})\s+)?(?:{year_words}))"
            r"{0,5})(?![\p{L}\d]))")
    # the words between the day, the month and the year ("dias do mês de", "day of", "del")
    days_of_month = vocab.phrase_alternation(vocab.all_words("date_days_of_month"), accents=True)
    month_lead = vocab.phrase_alternation(vocab.all_words("date_month_lead"), accents=True)
    year_lead = vocab.phrase_alternation(vocab.all_words("date_year_lead"), accents=True)
    return [
        # 27 de setembro de 2011 / 27 dias do mês de Setembro de 2011 / 16 July 1981 / 25th day of September, 1997
        regex.compile(
            rf"{day}\s+(?:(?:{days_of_month})\s+)?(?:(?:{month_lead})\s+)?(?P<month>{months}),?\s+(?:(?:{year_lead})\s+)?{year}",
            regex.IGNORECASE,
        ),
        # September 27, 2011
        regex.compile(rf"(?P<month>{months})\s+{day},?\s+{year}", regex.IGNORECASE),
    ]


def _month_number(name: str) -> int:
    folded = vocab.fold(name).rstrip(".")
    months = vocab.all_months()
    if folded in months:
        return months[folded]
    return vocab.all_month_abbreviations()[folded]


def _year_number(m: regex.Match[str]) -> int:
    """The year a date match holds, in digits or in words ("mil novecientos ochenta" -> 1980: the
    thousand multiplies what comes before it, the other words add up)."""
    if m.group("year"):
        return int(m.group("year"))
    values = vocab.all_year_words()
    total = current = 0
    for word in compiled(r"\p{L}+").findall(vocab.fold(m.group("year_words"))):
        value = values.get(word)
        if value is None:
            continue  # a joiner ("y", "e")
        if value == 1000:
            total += (current or 1) * 1000
            current = 0
        else:
            current += value
    return total + current


def _day_number(day: str) -> int:
    return int(day) if day.isdigit() else vocab.all_day_words()[vocab.fold(day)]


def find_date(text: str) -> tuple[str | None, int]:
    """The first full date in `text` as ISO 8601, and where it starts (-1 when none)."""
    best: tuple[str | None, int] = (None, -1)
    for pattern in _date_patterns():
        m = pattern.search(text)
        if not m:
            continue
        try:
            date = dt.date(_year_number(m), _month_number(m.group("month")), _day_number(m.group("day")))
        except (ValueError, KeyError):
            continue
        if best[1] < 0 or m.start() < best[1]:
            best = (date.isoformat(), m.start())
    return best


@cache
def _signature_pattern() -> regex.Pattern[str]:
    leads = vocab.phrase_alternation(vocab.all_words("signature_lead"))  # "DONE in  duplicate at" too
    joiners = vocab.phrase_alternation(vocab.all_words("place_joiners"))
    place = rf"(?P<place>\p{{Lu}}[\p{{L}}'’-]+(?:[ ](?:(?:{joiners})[ ])?\p{{Lu}}[\p{{L}}'’-]+){{0,2}})"
    # "Hecho en la Ciudad de México", "Done at the City of Washington": an article before the place
    article = rf"(?:(?:{vocab.phrase_alternation(vocab.all_words('place_articles'))})\s+)?"
    duplicate = rf"(?:(?:{vocab.phrase_alternation(vocab.all_words('signature_duplicate'))})\s+)?"
    return regex.compile(rf"(?:{leads})\s+{duplicate}{article}{place}")


def find_signature(text: str) -> Signed | None:
    for m in _signature_pattern().finditer(text):
        window = text[m.end() : m.end() + 160]
        date, _ = find_date(window)
        if date:
            return Signed(date=date, place=m.group("place"))
    return None


@cache
def _prevail_vocabulary() -> tuple[dict[str, str], regex.Pattern[str], regex.Pattern[str], regex.Pattern[str],
                                   regex.Pattern[str]]:
    """(language name -> code, names, prevail verbs, "text" words, "over"), all over folded text."""
    names: dict[str, str] = {}
    prevail: set[str] = set()
    text_words: set[str] = set()
    over: set[str] = set()
    for lang in vocab.languages().values():
        names.update(lang.language_names)
        prevail.update(vocab.fold(w) for w in lang.prevail_words)
        text_words.update(vocab.fold(w) for w in lang.text_words)
        over.update(vocab.fold(w) for w in lang.prevail_over_words)

    def words(items: object) -> regex.Pattern[str]:
        ordered = sorted(items, key=len, reverse=True)  # type: ignore[arg-type]
        return regex.compile(r"(?<!\p{L})(?:" + "|".join(regex.escape(w) for w in ordered) + r")(?!\p{L})")

    return names, words(names), words(prevail), words(text_words), words(over or {"\uffff"})


def find_prevailing_language(text: str) -> str | None:
    """From a final clause: "...in case of divergence the Portuguese text shall prevail". Only a
    sentence that names a text ("text", "texto", "versão") and says it prevails counts: "the
    meaning under the laws of that State prevailing over ..." does not."""
    folded = vocab.fold(text)
    names, name_re, prevail_re, text_re, over_re = _prevail_vocabulary()
    for m in prevail_re.finditer(folded):
        sentence_start = max(folded.rfind(".", 0, m.start()), folded.rfind("\n", 0, m.start())) + 1
        sentence_end_candidates = [i for i in (folded.find(".", m.end()), folded.find("\n", m.end())) if i >= 0]
        sentence_end = min(sentence_end_candidates) if sentence_end_candidates else len(folded)
        if not text_re.search(folded, sentence_start, sentence_end):
            continue
        # the language named nearest the verb, before it ("o texto em língua portuguesa prevalecerá")
        # or after it ("prevalecerá o texto em língua portuguesa")
        before = list(name_re.finditer(folded, sentence_start, m.start()))
        after = name_re.search(folded, m.end(), sentence_end)
        if after and over_re.search(folded, m.end(), after.start()):
            after = None  # "the English text shall prevail over the Portuguese text"
        if after and (not before or after.start() - m.end() < 40):
            return names[after.group()]
        if before:
            return names[before[-1].group()]
    return None


def fill(doc: Document, ct: CleanText, lines: list[Line], bounds: tuple[int, int] | None = None) -> None:
    """The parties, signature and prevailing language, read from `lines`; `bounds` (cleaned
    offsets) is the part of the text that is the document's, when a file holds several conventions."""
    text = ct.text if bounds is None else ct.text[: bounds[1]]
    start = 0 if bounds is None else bounds[0]
    first_article = next((ln.start for ln in lines if ln.kind == "article"), len(text))
    head = text[start:first_article]
    # the title / preamble / approval text, then the signature blocks at the end of each version
    parties = states_named(head)
    closing_text = ""
    for ln in lines:
        if ln.kind == "closing":
            closing_text += text[ln.start : min(len(text), ln.end + 600)] + "\n"
    if len(parties) < 2:
        # a compilation's chapter title, dropped as furniture on every page, still names the States
        naming = vocab.party_naming_furniture()
        for start, end, rule in ct.furniture:
            if rule in naming:
                for code in states_named(ct.original[start:end]):
                    if code not in parties:
                        parties.append(code)
                break
    if len(parties) < 2:
        for code in states_named(closing_text):
            if code not in parties:
                parties.append(code)
    for version in doc.versions:
        if len(parties) >= 2:
            break
        if version.title:
            for code in states_named(version.title):
                if code not in parties:
                    parties.append(code)
    doc.parties = parties[:2] if len(parties) >= 2 else parties[:1] if parties else []
    doc.signed = find_signature(closing_text) or find_signature(head)
    if doc.signed is None:
        # "assinada em Lisboa em 27 de setembro de 2011" in a gazette's approval text
        doc.signed = find_signature(text[start:])
    doc.prevailing_language = prevailing_language(doc, closing_text)


#: how many articles at the end of a version may hold the final clauses (entry into force,
#: termination, "final provisions" with the authentic texts)
FINAL_ARTICLES = 3


def prevailing_language(doc: Document, closing_text: str) -> str | None:
    """The language whose text prevails, from the first place that says so: the closing block
    (testimonium, "DONE at ..."), then the final articles of each version, then its protocols.
    Only a sentence that both says a text prevails and names its language counts."""
    places = [closing_text]
    for version in doc.versions:
        places += ["\n".join(p.text for p in art.paragraphs) for art in version.articles[-FINAL_ARTICLES:]]
    for version in doc.versions:
        places += ["\n".join(p.text for p in protocol.paragraphs) for protocol in version.protocols]
    for text in places:
        language = find_prevailing_language(text) if text else None
        if language:
            return language
    return None
