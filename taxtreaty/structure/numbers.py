"""Cleaning of article numbers and point labels (bluebell's "number cleaning" in one place).

    clean_article_number("10.º") == "10"      clean_article_number("8 A") == "8a"
    clean_label("(ii)") == "ii"                label_candidates("£>") == ["b"] (OCR)
"""

from __future__ import annotations

from functools import cache

import regex

from taxtreaty import vocab

ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
LETTERS = "abcdefghijklmnopqrstuvwxyz"


_NOT_ALNUM = regex.compile(r"[^0-9A-Za-z]")
#: OCR reads a zero as the letter O right after a digit ("1O" for "10"); no article is "1 O"
_OCR_ZERO = regex.compile(r"(?<=\d)[Oo](?![A-Za-z])")
#: OCR reads a leading one as "l" or "I" before a digit or an O read for a zero ("l0", "I2", "IO"), or alone before an ordinal mark ("l.º")
_OCR_ONE = regex.compile(r"^[lI](?=\d|[Oo]$|$)")
_DIGITS = regex.compile(r"\d+")


@cache
def _roman_number() -> regex.Pattern[str]:
    """An article number in roman numerals as the parser keeps it: "IV", "Xbis" (the suffixes are
    the languages' `inserted_suffixes`)."""
    suffixes = "|".join(regex.escape(w) for w in vocab.all_words("inserted_suffixes"))
    return regex.compile(rf"^(?P<roman>[IVXLC]+)(?P<suffix>{suffixes}|)$")


def clean_article_number(raw: str) -> str:
    return _NOT_ALNUM.sub("", _OCR_ZERO.sub("0", _OCR_ONE.sub("1", raw.strip()))).lower()


_ORDINAL_PART = regex.compile(r"\p{L}+")


def ordinal_value(words: str) -> int | None:
    """The value of an article number written in ordinal words, tens then units:
    "DÉCIMO PRIMEIRO" -> 11, "decimotercero" -> 13, "Vigésimo-Segundo" -> 22; None when the words
    are not a well-formed ordinal ("primeiro décimo")."""
    ordinals = vocab.all_ordinal_words()
    # greedy split of each run of letters into known words, longest first ("decimotercero")
    keys = sorted(ordinals, key=len, reverse=True)
    values: list[int] = []
    for run in _ORDINAL_PART.findall(vocab.fold(words)):
        while run:
            key = next((k for k in keys if run.startswith(k)), None)
            if key is None:
                return None
            values.append(ordinals[key])
            run = run[len(key):]
    if not values or len(values) > 2 or (len(values) == 2 and not (values[0] >= 10 and values[1] < 10)):
        return None
    return sum(values)


def article_number_value(number: str) -> int | None:
    """10 for "10" and "10a"; 4 for "IV", 10 for "Xbis" (an article number in roman numerals is
    kept in capitals as printed, while `clean_article_number` lower-cases letters after digits)."""
    m = _DIGITS.match(number)
    if m:
        return int(m.group())
    roman = _roman_number().match(number)
    return roman_to_int(roman.group("roman")) if roman else None


def article_eid_number(number: str) -> str:
    """The number an article's eId carries: as printed, except roman numerals, which take their
    arabic value ("IV" -> "4", "Xbis" -> "10bis") so that eIds align across treaties (`art_4`), and
    a letter after digits is in lower case ("8A" -> "8a")."""
    roman = _roman_number().match(number)
    if roman:
        value = roman_to_int(roman.group("roman"))
        if value is not None:
            return f"{value}{roman.group('suffix')}"
    # "8A" as a case pack or a citation prints it is article "8a" (`clean_article_number`)
    return number.lower() if _DIGITS.match(number) else number


def roman_to_int(label: str) -> int | None:
    label = label.lower()
    if not label or any(c not in ROMAN_VALUES for c in label):
        return None
    total = 0
    for i, c in enumerate(label):
        v = ROMAN_VALUES[c]
        total += -v if i + 1 < len(label) and ROMAN_VALUES[label[i + 1]] > v else v
    return total if int_to_roman(total) == label else None


def int_to_roman(n: int) -> str:
    out = []
    for value, numeral in ((100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= value:
            out.append(numeral)
            n -= value
    return "".join(out)


def letter_value(label: str) -> int | None:
    """a=1 ... z=26, aa=27 ("aa)" follows "z)" in long lists)."""
    if len(label) == 1 and label in LETTERS:
        return LETTERS.index(label) + 1
    if len(label) == 2 and label[0] == label[1] and label[0] in LETTERS:
        return 26 + LETTERS.index(label[0]) + 1
    return None


def letter_label(n: int) -> str:
    return LETTERS[n - 1] if n <= 26 else LETTERS[n - 27] * 2


def clean_label(raw: str) -> str:
    return raw.strip().strip("()").strip()


def label_kinds(label: str) -> list[str]:
    """The list kinds a clean label can belong to: 'letter', 'roman', 'upper', 'number'."""
    kinds = []
    if label.isdigit():
        kinds.append("number")
    if label.islower() and letter_value(label) is not None:
        kinds.append("letter")
    if label.islower() and roman_to_int(label) is not None:
        kinds.append("roman")
    if len(label) == 1 and label.isupper() and label.isalpha():
        kinds.append("upper")
    if len(label) == 2 and label[0] == label[1] and label[0] in LETTERS:
        kinds.append("double")  # "(aa)", "(bb)": a list nested under roman points
    return kinds


def label_value(label: str, kind: str) -> int | None:
    if kind == "letter":
        return letter_value(label)
    if kind == "roman":
        return roman_to_int(label)
    if kind == "upper":
        return letter_value(label.lower())
    if kind == "number":
        return int(label)
    if kind == "double":
        return letter_value(label[0]) if len(label) == 2 and label[0] == label[1] else None
    return None


def label_for(kind: str, value: int) -> str:
    if kind == "letter":
        return letter_label(value)
    if kind == "roman":
        return int_to_roman(value)
    if kind == "upper":
        return letter_label(value).upper()
    if kind == "double":
        return LETTERS[value - 1] * 2 if value <= 26 else ""
    return str(value)


def ocr_candidates(raw: str) -> list[str]:
    """Readings of an OCR-damaged label, best first (empty when the label is not a known confusion)."""
    return vocab.ocr_point_labels().get(raw, [])
