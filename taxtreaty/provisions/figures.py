"""The figures of a text: rates, periods, amounts, dates and cross-references, with their offsets.

Every finder takes the *folded* text (`vocabulary.fold_same_length`) and returns matches whose
offsets are offsets in that text, hence in the cleaned text it was folded from. Numbers may be
digits ("10", "7.5", "7,5", "9 000", "9,000") or words ("ten", "dez", "veinticinco",
"nove mil"); the number words come from the language's data file.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache

import regex

from taxtreaty import vocab
from taxtreaty.patterns import compiled
from taxtreaty.provisions.vocabulary import Phrases, all_words, alternation, require_phrases, word_alternation
from taxtreaty.structure.numbers import roman_to_int

#: digits, with a decimal part ("7.5", "7,5"); not a thousands group
DECIMAL_NUMBER = r"\d{1,3}(?:[.,]\d{1,2}(?!\d))?"
#: a whole number and a half or a quarter: "7 1/2", "12½" (a rate; never read as its last digit alone)
FRACTION_NUMBER = r"\d{1,2}(?:\s*[½¼¾]|(?:\s+|-)[13][/⁄][24](?!\d))"
_VULGAR = {"½": Decimal("0.5"), "¼": Decimal("0.25"), "¾": Decimal("0.75")}
#: an amount: "9000", "9 000", "9,000", "9.000", "150,000.50"
AMOUNT_NUMBER = r"\d{1,3}(?:[ ,.]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?"


@dataclass(frozen=True)
class Figure:
    start: int
    end: int
    value: Decimal


@dataclass(frozen=True)
class Duration(Figure):
    unit: str  # days | months | years


@dataclass(frozen=True)
class Amount(Figure):
    currency: str


@dataclass(frozen=True)
class DateFigure:
    start: int
    end: int
    date: dt.date


@cache
def _fraction_words(language: str) -> dict[str, Decimal]:
    """The language's fractions in words with their numerators ("a half": 0.5), folded, blanks as one space."""
    raw = require_phrases(language).raw.get("fraction_words") or {}
    return {" ".join(vocab.fold(str(k)).split()): Decimal(str(v)) for k, v in raw.items()}


def _fraction_piece(language: str) -> str:
    """A fraction in words as a regex piece ("a half", "one-half", "three quarters"), or one that never matches."""
    fractions = sorted(_fraction_words(language), key=len, reverse=True)
    pieces = [r"\s*-\s*".join(r"\s+".join(regex.escape(w) for w in part.split()) for part in f.split("-"))
              for f in fractions]
    return "(?:" + "|".join(pieces) + ")" if pieces else "(?!)"


def _joiners(ph: Phrases) -> str:
    """The words that join the parts of a number ("and"), the hyphen apart, as a regex alternation ("" if none)."""
    return "|".join(regex.escape(vocab.fold(j)) for j in ph.raw["number_joiners"] if j != "-")


@cache
def _word_number(language: str) -> str:
    ph = require_phrases(language)
    words = sorted(ph.number_words, key=len, reverse=True)
    word = "(?:" + "|".join(regex.escape(w) for w in words) + ")"
    joiners = _joiners(ph)
    sep = rf"(?:\s*-\s*|\s+(?:(?:{joiners})\s+)?)" if joiners else r"(?:\s*-\s*|\s+)"
    # "twelve and a half", "two and one-half": a whole number, a joiner and a fraction with its numerator; "one
    # half" alone is the fraction (never 1 + 0.5); tried first, so "twelve" is not read without its half
    fraction = _fraction_piece(language)
    # (possessive runs: a run of number words is read whole or not at all, never retried shorter, so a long run
    # of words followed by no "per cent" fails at once; the run before a fraction stops at its numerator)
    whole_and = rf"(?:{word}(?:{sep}(?!{fraction}){word})*+\s+(?:{joiners})\s+)?" if joiners else ""
    return rf"(?<![\p{{L}}\d])(?:{whole_and}{fraction}|{word}(?:{sep}{word})*+)(?![\p{{L}}])"


def _parse_fraction(text: str, ph: Phrases) -> Decimal | None:
    """"twelve and a half" -> 12.5, "one-half" -> 0.5: a number in words ending in one of `fraction_words`."""
    fractions = _fraction_words(ph.code)
    if not fractions:
        return None
    folded = " ".join(vocab.fold(text).split())
    for fraction, value in sorted(fractions.items(), key=lambda f: -len(f[0])):
        spaced = compiled(r"\s*-\s*").sub("-", folded)
        if not spaced.endswith(fraction) or (len(spaced) > len(fraction) and spaced[-len(fraction) - 1] != " "):
            continue
        whole = spaced[: -len(fraction)].strip()
        if not whole:
            return value
        joiners = _joiners(ph)
        head = compiled(rf"(?P<whole>.+?)\s+(?:{joiners})").fullmatch(whole) if joiners else None
        if head is None:
            return None
        number = parse_number(head.group("whole"), ph)
        return None if number is None else number + value
    return None


def number_pattern(ph: Phrases) -> str:
    """A number in digits or in words of the language."""
    # a digit glued to a letter ("l5" for "15" in OCR) does not start a number
    return rf"(?:(?<![\d.,\p{{L}}]){DECIMAL_NUMBER}|{_word_number(ph.code)})"


def parse_number(text: str, ph: Phrases) -> Decimal | None:
    """"10" -> 10, "7,5" -> 7.5, "twenty-five" -> 25, "nove mil" -> 9000, "one hundred and eighty-three" -> 183."""
    text = text.strip()
    fraction = compiled(r"(\d{1,2})(?:\s*([½¼¾])|(?:\s+|-)([13])[/⁄]([24]))").fullmatch(text)
    if fraction is not None:
        whole, vulgar, top, bottom = fraction.groups()
        part = _VULGAR[vulgar] if vulgar else Decimal(top) / Decimal(bottom)
        return Decimal(whole) + part
    if compiled(AMOUNT_NUMBER).fullmatch(text):
        digits = text
        if compiled(r"\d{1,3}(?:[ ,.]\d{3})+").fullmatch(digits):
            digits = compiled(r"[ ,.]").sub("", digits)
        elif compiled(r"\d{1,3}(?:[ ,.]\d{3})+[.,]\d{1,2}").fullmatch(digits):
            digits = compiled(r"[ ,.]").sub("", digits[:-3]) + "." + digits[-2:]
        try:
            return Decimal(digits.replace(",", "."))
        except InvalidOperation:
            return None
    fraction = _parse_fraction(text, ph)
    if fraction is not None:
        return fraction
    joiners = {vocab.fold(j) for j in ph.raw["number_joiners"]}
    tokens = [t for t in compiled(r"[\s\-]+").split(vocab.fold(text)) if t and t not in joiners]
    total, current = Decimal(0), Decimal(0)
    for token in tokens:
        value = ph.number_words.get(token)
        if value is None:
            return None
        if token in ph.multipliers:
            if value >= 1000:
                total += (current or Decimal(1)) * value
                current = Decimal(0)
            else:
                current = (current or Decimal(1)) * value
        else:
            current += value
    result = total + current
    return result if tokens else None


@cache
def _rate_regex(language: str) -> regex.Pattern[str]:
    ph = require_phrases(language)
    percent = alternation(ph.raw["percent"], whole_word=False)
    # "diez (10) por ciento": the figure repeated in brackets between the words and "per cent"; "10 (ten) per
    # cent": the words in brackets after the figure
    fraction = rf"(?<![\d.,\p{{L}}]){FRACTION_NUMBER}"
    # "twelve and a half (12 1/2) per cent": a fraction repeated in brackets too
    bracket = rf"(?:\s*\(\s*(?P<bracket>{FRACTION_NUMBER}|\d{{1,3}}(?:[.,]\d{{1,2}})?|{_word_number(language)})\s*\))?"
    # "the rate of *1½* per cent": markdown emphasis around the figure is no part of it
    emphasis = r"(?:[*_]{1,3})?"
    return regex.compile(rf"(?P<num>{fraction}|{number_pattern(ph)}){emphasis}{bracket}\s*(?:{percent})(?![\p{{L}}])")


@cache
def _prefilter(language: str, key: str) -> regex.Pattern[str]:
    """A cheap test run before a costly pattern: the percent sign or words, the unit words..."""
    ph = require_phrases(language)
    if key == "units":
        return regex.compile("|".join(regex.escape(u) for u in ph.units))
    if key == "currencies":
        return regex.compile("|".join(regex.escape(c) for c in ph.currencies))
    return regex.compile(alternation(ph.raw[key], whole_word=False))


_YEAR = regex.compile(r"\d{4}")


def find_rates(text: str, ph: Phrases) -> list[Figure]:
    """Percentages: "10 per cent", "10%", "ten per cent", "dez por cento". A figure repeated in
    brackets right after its words ("ten per cent (10%)") counts once."""
    out: list[Figure] = []
    if not _prefilter(ph.code, "percent").search(text):
        return sorted(_zero_rates(text, ph) + _rates_without_percent(text, ph), key=lambda f: f.start)
    for m in _rate_regex(ph.code).finditer(text):
        value = parse_number(m.group("num"), ph)
        if value is None:
            continue
        if m.group("bracket") is not None and parse_number(m.group("bracket"), ph) != value:
            continue  # "diez (15) por ciento": words and figure disagree, neither is read as the rate
        if out and out[-1].value == value and compiled(r"\s*\(\s*").fullmatch(text[out[-1].end : m.start()]):
            continue
        out.append(Figure(m.start(), m.end(), value))
    zeros = [z for z in _zero_rates(text, ph) + _rates_without_percent(text, ph)
             if not any(f.start <= z.start < f.end for f in out)]
    return sorted(out + zeros, key=lambda f: f.start) if zeros else out


def _rates_without_percent(text: str, ph: Phrases) -> list[Figure]:
    """A rate printed without its "per cent" right before the base it is a rate of ("shall not
    exceed 10 of the gross amount of the royalties"): the language's `rate_without_percent` words."""
    pattern = ph.patterns.get("rate_without_percent")
    if pattern is None:
        return []
    out = []
    for m in pattern.finditer(text):
        number = compiled(r"(?<![\d.,\p{L}])(\d{1,2}(?:[.,]\d{1,2})?)\s+$").search(text[max(0, m.start() - 12) : m.start()])
        if number is None:
            continue
        value = parse_number(number.group(1), ph)
        if value is not None:
            start = m.start() - (len(number.group(0)))
            out.append(Figure(start, start + len(number.group(1)), value))
    return out


def _zero_rates(text: str, ph: Phrases) -> list[Figure]:
    """A rate of 0 said in a word of its own, with no "per cent" ("(a) nil if the beneficial owner
    is a company ..."; "the tax so charged shall be nil"): the language's `zero_rate` words."""
    pattern = ph.patterns.get("zero_rate")
    if pattern is None:
        return []
    # whole words only: "nil" is not the end of "anvil"
    return [Figure(m.start(), m.end(), Decimal(0)) for m in pattern.finditer(text)
            if not (m.start() and text[m.start() - 1].isalnum())]


@cache
def _damaged_rate_regex(language: str) -> regex.Pattern[str]:
    ph = require_phrases(language)
    percent = alternation(ph.raw["percent"], whole_word=False)
    # digits mixed with the letters OCR reads for them (l, i, o, s): "l5 %", "1o per cent"; or a
    # figure split by a stray blank ("1 0 por cento" would read as 0): never a group of thousands
    mixed = r"(?=[lios]*\d)(?=\d*[lios])[\dlios]{2,3}"
    split = r"\d{1,2} \d{1,2}(?!\d)"
    return regex.compile(rf"(?<![\p{{L}}\d])(?:{mixed}|{split})\s*(?:{percent})(?![\p{{L}}])")


def find_damaged_rates(text: str, ph: Phrases) -> list[tuple[int, int]]:
    """Spans of percentages whose figure OCR damaged ("l5 %"): a rate is there but cannot be read."""
    if not _prefilter(ph.code, "percent").search(text):
        return []
    spans = [m.span() for m in _damaged_rate_regex(ph.code).finditer(text)]
    # "diez (15) por ciento": the words and the bracketed figure disagree
    spans += [m.span() for m in _rate_regex(ph.code).finditer(text)
              if m.group("bracket") is not None and parse_number(m.group("bracket"), ph) != parse_number(m.group("num"), ph)]
    return sorted(spans)


@cache
def _duration_regex(language: str) -> regex.Pattern[str]:
    ph = require_phrases(language)
    units = "|".join(regex.escape(u) for u in sorted(ph.units, key=len, reverse=True))
    # "two years", "183 days", "dois (2) anos", "twelve-month period"
    return regex.compile(
        rf"(?P<num>{number_pattern(ph)})(?:\s*\(\s*\d{{1,4}}\s*\))?(?:\s+|\s*-\s*)(?P<unit>{units})(?![\p{{L}}])"
    )


def find_durations(text: str, ph: Phrases) -> list[Duration]:
    out: list[Duration] = []
    if not _prefilter(ph.code, "units").search(text):
        return out
    for m in _duration_regex(ph.code).finditer(text):
        value = parse_number(m.group("num"), ph)
        if value is None:
            continue
        out.append(Duration(m.start(), m.end(), value, ph.units[m.group("unit")]))
    return out


@cache
def _amount_regex(language: str) -> regex.Pattern[str]:
    ph = require_phrases(language)
    cur = "|".join(regex.escape(c) for c in sorted(ph.currencies, key=len, reverse=True))
    words = _word_number(language)
    # "twenty thousand (20,000) Euro", "20.000 (veinte mil) euros": the sum in words and in figures, one sum
    twice = (rf"(?P<words3>{words})\s*\(\s*(?P<num3>{AMOUNT_NUMBER})\s*\)"
             rf"|(?<![\d.,])(?P<num4>{AMOUNT_NUMBER})\s*\(\s*(?P<words4>{words})\s*\)")
    return regex.compile(
        rf"(?:(?:{twice})\s*(?P<cur3>{cur})(?![\p{{L}}])"
        rf"|(?P<cur1>{cur})\s*(?P<num1>{AMOUNT_NUMBER})"
        rf"|(?<![\d.,])(?P<num2>{AMOUNT_NUMBER}|{words})\s*(?P<cur2>{cur})(?![\p{{L}}]))"
    )


def find_amounts(text: str, ph: Phrases) -> list[Amount]:
    """Sums of money: "USD 9000", "US$ 9,000", "9 000 euros", "nove mil dólares americanos"."""
    out: list[Amount] = []
    if not _prefilter(ph.code, "currencies").search(text):
        return out
    for m in _amount_regex(ph.code).finditer(text):
        num = m.group("num1") or m.group("num2") or m.group("num3") or m.group("num4")
        cur = m.group("cur1") or m.group("cur2") or m.group("cur3")
        value = parse_number(num, ph)
        spelt = m.group("words3") or m.group("words4")
        if spelt is not None and parse_number(spelt, ph) != value:
            continue  # the words and the figures give two sums: neither is read as the sum

        if value is None or value < 10:
            continue
        amount = Amount(m.start(), m.end(), value, ph.currencies[cur])
        # "nove mil dólares americanos (USD 9000)": the same sum twice is one figure
        if out and out[-1].value == amount.value and out[-1].currency == amount.currency and m.start() - out[-1].end < 4:
            continue
        out.append(amount)
    return out


def _months_alternation() -> str:
    """Every language's month names, longest first, as one regex alternation."""
    return "|".join(sorted((regex.escape(m) for m in vocab.all_months()), key=len, reverse=True))


def _date_words() -> tuple[str, str, str]:
    """The ordinal suffixes of a day ("1st"), the words between a day and its month ("day of", "de")
    and between a month and its year ("de"), of every language with a phrase file, folded."""
    def words(key: str) -> str:
        return word_alternation([vocab.fold(w) for w in all_words(key)])
    return words("ordinal_suffixes"), words("day_month_joiners"), words("month_year_joiners")


@cache
def _date_regexes() -> list[regex.Pattern[str]]:
    months = _months_alternation()
    suffixes, day_month, month_year = _date_words()
    day = rf"(?P<day>\d{{1,2}})(?:\s*\.?\s*[º°o](?![\p{{L}}])|{suffixes})?"
    year = r"(?P<year>\d{4})"
    return [
        # 31 December 1996, 31 de dezembro de 1996, 1.° de enero de 1997, 1st day of January, 1997
        regex.compile(rf"(?<!\d){day}\s+(?:{day_month}\s+)?(?P<month>{months}),?\s+(?:{month_year}\s+)?{year}"),
        # December 31, 1996
        regex.compile(rf"(?P<month>{months})\s+{day},?\s+{year}"),
    ]


def find_dates(text: str) -> list[DateFigure]:
    out: list[DateFigure] = []
    if not _YEAR.search(text):
        return out
    months = vocab.all_months()
    for pattern in _date_regexes():
        for m in pattern.finditer(text):
            try:
                date = dt.date(int(m.group("year")), months[m.group("month")], int(m.group("day")))
            except (ValueError, KeyError):
                continue
            out.append(DateFigure(m.start(), m.end(), date))
    out.sort(key=lambda d: d.start)
    return out


@cache
def _reference_regex(language: str, bracketed: bool = False) -> regex.Pattern[str]:
    ph = require_phrases(language)
    art = alternation(ph.raw["article_words"])
    para = alternation(ph.raw["paragraph_words"], whole_word=False)
    # "7", "7.º" (folded "7.o"), "8A"; the ordinal or letter is attached to the number
    num = r"\d{1,3}(?:\.?\s?[º°o](?![\p{L}]))?(?:[a-z](?![\p{L}]))?"
    # an article numbered in roman numerals ("del artículo VII o del artículo XIV", folded to lower case)
    num = rf"(?:{num}|[ivxlc]{{1,7}}(?![\p{{L}}\d]))"
    if bracketed:  # a number in brackets ("the provisions of paragraph (4)", "paragraphs (1), (2) and (3)")
        num = rf"(?:{num}|\(\d{{1,3}}\))"
    joiners = ph.word_group("and_words", "or_words")
    nums = rf"{num}(?:\s*(?:,|{joiners})\s*{num})*"
    return regex.compile(rf"(?P<kind>{art}|{para})\s*(?P<nums>{nums})")


def find_references(text: str, ph: Phrases, bracketed: bool = False) -> list[tuple[str, str]]:
    """Cross-references as (kind, number): ("article", "7"), ("paragraph", "2"), in order; with `bracketed`, numbers in
    brackets too ("paragraph (4)": the capital gains reader's; the rate passes do not yet read the list a bracketed
    switch may introduce, AR-GB 11(8) "los apartados (2) y (3) ... no se aplicará si ...: a) ...; y b) ...")."""
    out = []
    arts = {vocab.fold(w) for w in ph.raw["article_words"]}
    for m in _reference_regex(ph.code, bracketed).finditer(text):
        kind = "article" if compiled(r"\s+").sub(" ", m.group("kind")) in arts else "paragraph"
        for n in compiled(r"\d{1,3}|(?<![\p{L}])[ivxlc]+(?![\p{L}])").findall(m.group("nums")):
            if not n.isdigit():
                value = roman_to_int(n) if kind == "article" else None
                if value is None:
                    continue  # "paragraph ii", or letters that are no numeral
                n = str(value)
            out.append((kind, n))
    return out


@cache
def _point_reference_regex(language: str) -> regex.Pattern[str]:
    ph = require_phrases(language)
    words = alternation(ph.raw["point_words"], whole_word=False)
    of = ph.word_group("of_words")
    # "subparagraph a)", "(a)"; a bare letter only where "of" follows ("sub-paragraph a of paragraph 2")
    letter = rf"(?:\(?(?P<letter>[a-z]{{1,2}})\)|(?P<bare>[a-z])(?=\s+{of}\s))"
    joiners = ph.word_group("and_words", "or_words")
    # "letras a) a c)", "subparagraphs a) to c)": a run of items, from the first to the last (`item_range`)
    run = alternation(ph.raw["item_range"]) if "item_range" in ph.raw else "(?!)"
    return regex.compile(rf"(?:{words})\s*{letter}(?:\s*(?:,|{joiners})\s*\(?(?P<more>[a-z]{{1,2}})\)"
                         rf"|\s*{run}\s*\(?(?P<to>[a-z])\))?")


def find_point_references(text: str, ph: Phrases) -> list[str]:
    """Lettered items named in a cross-reference: "subparagraph a)" -> ["a"]; "alíneas a) e b)" -> ["a", "b"];
    a run, "letras a) a c)" -> ["a", "b", "c"]."""
    out: list[str] = []
    for m in _point_reference_regex(ph.code).finditer(text):
        first = m.group("letter") or m.group("bare")
        letters = [first, m.group("more")]
        if m.group("to") and len(first) == 1 and first < m.group("to"):
            letters = [chr(c) for c in range(ord(first), ord(m.group("to")) + 1)]
        for letter in letters:
            if letter and letter not in out:
                out.append(letter)
    return out


@cache
def _paragraph_item_regex(language: str) -> regex.Pattern[str]:
    ph = require_phrases(language)
    words = alternation(ph.raw["paragraph_words"], whole_word=False)
    # "apartado 2 c)", "apartado 2.c)", "paragraph 2(c)": a paragraph's number with its item's letter right after
    return regex.compile(rf"(?:{words})\s*(?P<number>\d{{1,3}})\s*\.?\s*\(?(?P<letter>[a-z])\)")


def find_paragraph_items(text: str, ph: Phrases) -> list[tuple[str, str]]:
    """(paragraph, letter) of an item named by its paragraph's number and its letter run together ("lo
    dispuesto por el apartado 2 c)" -> ("2", "c"); "paragraph 2(c)")."""
    return [(m.group("number"), m.group("letter")) for m in _paragraph_item_regex(ph.code).finditer(text)]


@cache
def _day_of_year_regexes() -> list[regex.Pattern[str]]:
    months = _months_alternation()
    suffixes, day_month, month_year = _date_words()
    no_year = rf"(?!,?\s*(?:{month_year}\s+)?\d{{4}})"
    return [
        # "30 June", "30 de Junho", "dia 30 de junio" (no year follows: "of any calendar year")
        regex.compile(rf"(?<![\d.])(?P<day>\d{{1,2}})(?:\s*\.?\s*[º°o](?![\p{{L}}])|{suffixes})?\s+(?:{day_month}\s+)?"
                      rf"(?P<month>{months})(?![\p{{L}}]){no_year}"),
        # "June 30"
        regex.compile(rf"(?<![\p{{L}}])(?P<month>{months})\s+(?P<day>\d{{1,2}})(?!\d){no_year}"),
    ]


def find_day_of_year(text: str) -> tuple[int, int] | None:
    """(month, day) of a day named without a year ("by 30 June of any calendar year"), or None."""
    months = vocab.all_months()
    found = []
    for pattern in _day_of_year_regexes():
        for m in pattern.finditer(text):
            month, day = months[m.group("month")], int(m.group("day"))
            try:
                dt.date(2000, month, day)
            except ValueError:
                continue
            found.append((m.start(), month, day))
    if not found:
        return None
    _, month, day = min(found)
    return month, day
