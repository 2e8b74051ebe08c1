"""Load the per-language vocabularies and reference tables from ``taxtreaty/data``.

Everything that differs between Portuguese, English and Spanish (heading words, month names,
stop words, topic headings, the small words of dates and signatures) lives in YAML files; code
reads it through this module only, so a new language is a new data file, not new code. Every
file is checked here: an unknown key, a key YAML read as a boolean or a value of the wrong type
is refused with the file's name.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import regex
import yaml

DATA_PACKAGE = "taxtreaty.data"
_LANGUAGE_KEYS = {
    "code", "name", "supported", "stopwords", "article_words", "chapter_words", "protocol_words",
    "convention_words", "between_words", "months", "signature_lead", "language_names", "prevail_words",
    "testimonium", "day_words",
}
#: word lists a language file may leave out (each a list of text)
_OPTIONAL_WORD_LISTS = (
    "weekdays", "text_words", "prevail_over_words", "ocr_article_words", "inserted_suffixes", "day_suffixes",
    "date_days_of_month", "date_month_lead", "date_year_lead", "signature_duplicate", "place_articles",
    "place_joiners", "enacting_words", "year_joiners", "not_title_after_between", "reference_words",
    "reference_lead_words", "list_joiners", "compilation_marks",
)
#: keys a language file may leave out
_OPTIONAL_LANGUAGE_KEYS = {"iso639_2", "ordinal_words", "year_words", "month_abbreviations", *_OPTIONAL_WORD_LISTS}


class DataFileError(ValueError):
    """A data file is malformed; the message names the file and the key."""


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    supported: bool
    stopwords: frozenset[str]
    article_words: tuple[str, ...]
    chapter_words: tuple[str, ...]
    protocol_words: tuple[str, ...]
    #: the words a convention's title opens with ("Convention", "Convenção"), then one of `between_words`
    convention_words: tuple[str, ...]
    between_words: tuple[str, ...]
    months: dict[str, int]
    signature_lead: tuple[str, ...]
    language_names: dict[str, str]
    prevail_words: tuple[str, ...]
    testimonium: tuple[str, ...] = ()
    day_words: dict[str, int] = field(default_factory=dict)
    #: months as dates abbreviate them, each followed by a full stop ("Dec. 5, 1990"), folded
    month_abbreviations: dict[str, int] = field(default_factory=dict)
    #: ISO 639-2 code, for Akoma Ntoso's FRBRlanguage ("por")
    iso639_2: str | None = None
    #: names of the days of the week, as gazettes print them before a date line
    weekdays: tuple[str, ...] = ()
    #: words for "the text" of a language version, as the prevailing-language clause names it
    text_words: tuple[str, ...] = ()
    #: ordinal number words of article headings ("ARTIGO DÉCIMO PRIMEIRO"), folded, to their value
    ordinal_words: dict[str, int] = field(default_factory=dict)
    #: "shall prevail over the Portuguese text": the language named after these words is the one
    #: that does not prevail
    prevail_over_words: tuple[str, ...] = ()
    #: the word "article" in lower case, as OCR may damage it: found in any case with one error
    ocr_article_words: tuple[str, ...] = ()
    #: the suffix of an article inserted later ("10 bis", "Xter")
    inserted_suffixes: tuple[str, ...] = ()
    #: what follows a day's number in a date ("25th day of September"), words only
    day_suffixes: tuple[str, ...] = ()
    #: a date's words between the day and the month or the year ("27 dias do mês de Setembro de 2011",
    #: "25th day of September", "5 del mes de marzo del 2000")
    date_days_of_month: tuple[str, ...] = ()
    date_month_lead: tuple[str, ...] = ()
    date_year_lead: tuple[str, ...] = ()
    #: a signature's words between its lead and the place ("Done in duplicate at", "Hecho en la Ciudad")
    signature_duplicate: tuple[str, ...] = ()
    place_articles: tuple[str, ...] = ()
    #: the small words inside a place's name ("Rio de Janeiro", "Cidade da Praia")
    place_joiners: tuple[str, ...] = ()
    #: the words an approving instrument's own article opens with, on its heading's line ("ARTICULO 2º —
    #: Comuníquese al Poder Ejecutivo"): a law's article before the convention, never one of its articles
    enacting_words: tuple[str, ...] = ()
    #: a year in words ("mil novecientos ochenta"): each word's value, the thousand multiplying what
    #: comes before it ("dos mil uno"), and the words that join them ("noventa y nueve")
    year_words: dict[str, int] = field(default_factory=dict)
    year_joiners: tuple[str, ...] = ()
    #: words after a convention word and a "between" word that make them a sentence, not a title
    #: ("Acuerdo entre en vigor": the verb "entrar")
    not_title_after_between: tuple[str, ...] = ()
    #: the words a cross-reference names a division with ("sub-paragraph", "inciso"): a label at the start
    #: of a line right after one of them is the reference going on, not a marker
    reference_words: tuple[str, ...] = ()
    #: the small words a sentence never ends on, right before a cross-reference ("dispuesto en el",
    #: "referred to in paragraph 1 of"): a heading or a title at the start of the next line is the
    #: sentence going on (structure/lines.py, text/join.py)
    reference_lead_words: tuple[str, ...] = ()
    #: the words a list puts between its last two points ("...; or (b) the", "...; y b) los"): a
    #: lettered list printed on one line is split at its labels in sequence (text/inline.py)
    list_joiners: tuple[str, ...] = ()
    #: the mark a compilation prints after the number of its own article ("Artículo 211-T2": Title 2)
    compilation_marks: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


_COMBINING = regex.compile(r"\p{M}+")
_ISO_3166_ALPHA2 = regex.compile(r"[A-Z]{2}")


def fold(text: str) -> str:
    """Lower-case and strip accents: the key used for every vocabulary comparison."""
    if text.isascii():
        return text.casefold()
    return _COMBINING.sub("", unicodedata.normalize("NFKD", text.casefold()))


@cache
def _accented_variants() -> dict[str, str]:
    """Folded letter -> every Latin letter that folds to it ("c" -> "cCçÇćĆ..."), for patterns
    that must find a folded vocabulary word in unfolded text ("março" for the key "marco")."""
    variants: dict[str, set[str]] = {}
    for code in range(0x41, 0x250):
        ch = chr(code)
        folded = fold(ch)
        # letters only: "º" and "ª" fold to o and a but are ordinal signs ("1.º"), not letters
        if len(folded) == 1 and folded.isascii() and folded.isalpha() and unicodedata.category(ch) in ("Lu", "Ll"):
            forms = {ch, ch.lower(), ch.upper()}
            variants.setdefault(folded, {folded, folded.upper()}).update(f for f in forms if len(f) == 1)
    # a letter with no accented form needs no class: the caller's IGNORECASE covers its case
    return {base: "".join(sorted(chars)) for base, chars in variants.items() if len(chars) > 2}


def accent_insensitive(word: str) -> str:
    """A regex source matching `word` with or without its accents and in any case of accent
    ("março", "marco", "MARÇO", "Marc\u0327o" all match `accent_insensitive("marco")`); combine
    with IGNORECASE for the case of the plain letters. Vocabulary keys are folded (`fold`), so
    every pattern built from them to search unfolded text goes through here."""
    table = _accented_variants()
    parts = []
    for ch in fold(word):
        chars = table.get(ch)
        parts.append(f"[{regex.escape(chars)}]\\p{{M}}*" if chars else regex.escape(ch))
    return "".join(parts)


def accent_insensitive_alternation(words: Iterable[str]) -> str:
    """`accent_insensitive` over several words, longest first, duplicates once."""
    folded = sorted({fold(w) for w in words}, key=lambda w: (-len(w), w))
    return "|".join(accent_insensitive(w) for w in folded)


def phrase_alternation(phrases: Iterable[str], *, accents: bool = False) -> str:
    """A regex alternation of phrases, longest first, with any run of blanks between their words
    ("day of" finds "day  of"); with `accents`, each word with or without its accents (see
    `accent_insensitive`), else as written. Never empty: no phrase gives a pattern that matches
    nothing."""
    unique = sorted({fold(p) if accents else p for p in phrases}, key=lambda p: (-len(p), p))
    word = accent_insensitive if accents else regex.escape
    return "|".join(r"\s+".join(word(w) for w in p.split()) for p in unique) or "(?!)"


def _data_text(*parts: str) -> str:
    """The text of a data file (one place, so tests can substitute a damaged file)."""
    return resources.files(DATA_PACKAGE).joinpath(*parts).read_text(encoding="utf-8")


def _read_yaml(*parts: str) -> Any:
    return read_yaml_text(_data_text(*parts), "/".join(parts))


def read_yaml_text(text: str, name: str, *, text_scalars: bool = False, keys: Iterable[str] | None = None) -> Any:
    """YAML text parsed, errors naming `name`: see `read_data_file`. Also the reader of a file a
    user gives in a data file's shape (`ask --mli FILE`)."""
    try:
        # BaseLoader: every scalar a string ("NO" is Norway, "2021-01-01" text); the caller types them
        raw = yaml.load(text, Loader=yaml.BaseLoader) if text_scalars else yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError) as exc:
        raise DataFileError(f"{name}: {exc}") from None
    _reject_non_text_keys(raw, name, "")
    if keys is not None:
        allowed = set(keys)
        if not isinstance(raw, dict):
            raise DataFileError(f"{name}: expected a mapping with the keys {sorted(allowed)}")
        unknown = set(raw) - allowed
        if unknown:
            raise DataFileError(f"{name}: unknown keys {sorted(unknown)} (the file takes {sorted(allowed)})")
    return raw


def read_data_file(*parts: str, text_scalars: bool = False, keys: Iterable[str] | None = None) -> Any:
    """A YAML file under taxtreaty/data, parsed; a `DataFileError` naming the file when it is not
    YAML, holds a key YAML read as a boolean or null, or (with `keys`) a top-level key not in
    `keys`. With `text_scalars` every value is read as text (YAML's BaseLoader), so no unquoted
    `NO`, `on` or date changes type. The one reader of every data file."""
    return read_yaml_text(_data_text(*parts), "/".join(parts), text_scalars=text_scalars, keys=keys)


def _reject_non_text_keys(node: Any, name: str, where: str) -> None:
    """YAML 1.1 reads an unquoted `NO:` (Norway), `on:` or `yes:` as a boolean and `null:` / `~:`
    as None: such a key is always a typing slip in our data, never meant, and it silently loses
    the entry. Refuse it, naming the file and the place."""
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(key, bool) or key is None:
                raise DataFileError(
                    f"{name}: key {key!r} at {where or 'top level'} was read as {type(key).__name__}, "
                    "not text (YAML reads NO, no, on, off, yes, y, n, null unquoted that way: quote it)"
                )
            _reject_non_text_keys(value, name, f"{where}.{key}" if where else str(key))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            _reject_non_text_keys(item, name, f"{where}[{i}]")


@cache
def languages() -> dict[str, Language]:
    """All known languages, supported or only recognised, keyed by ISO 639-1 code."""
    result: dict[str, Language] = {}
    folder = resources.files(DATA_PACKAGE).joinpath("languages")
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if not entry.name.endswith(".yaml"):
            continue
        raw = _read_yaml("languages", entry.name)
        unknown = set(raw) - _LANGUAGE_KEYS - _OPTIONAL_LANGUAGE_KEYS
        if unknown:
            raise DataFileError(f"languages/{entry.name}: unknown keys {sorted(unknown)}")
        missing = _LANGUAGE_KEYS - set(raw)
        if missing:
            raise DataFileError(f"languages/{entry.name}: missing keys {sorted(missing)}")
        for key in ("stopwords", "article_words", "chapter_words", "protocol_words", "convention_words",
                    "between_words", "signature_lead", "prevail_words", "testimonium", *_OPTIONAL_WORD_LISTS):
            if raw.get(key) is not None and not isinstance(raw[key], list):
                raise DataFileError(f"languages/{entry.name}: {key} must be a list of words")
            bad = [w for w in raw.get(key) or () if not isinstance(w, str)]
            if bad:
                raise DataFileError(f"languages/{entry.name}: {key} has non-text entries {bad} (quote them)")
        # language codes and month numbers: "no" (Norwegian) unquoted would read as False
        bad_names = {k: v for k, v in raw["language_names"].items() if not isinstance(v, str)}
        if bad_names:
            raise DataFileError(f"languages/{entry.name}: language_names has non-text codes {bad_names} (quote them)")
        for key in ("months", "day_words", "ordinal_words", "year_words", "month_abbreviations"):
            bad_numbers = {k: v for k, v in (raw.get(key) or {}).items() if isinstance(v, bool) or not isinstance(v, int)}
            if bad_numbers:
                raise DataFileError(f"languages/{entry.name}: {key} must map words to whole numbers, not {bad_numbers}")
        result[raw["code"]] = Language(
            code=raw["code"],
            name=raw["name"],
            supported=bool(raw["supported"]),
            stopwords=frozenset(fold(w) for w in raw["stopwords"]),
            article_words=tuple(raw["article_words"]),
            chapter_words=tuple(raw["chapter_words"]),
            protocol_words=tuple(raw["protocol_words"]),
            convention_words=tuple(raw["convention_words"]),
            between_words=tuple(raw["between_words"]),
            months={fold(k): int(v) for k, v in raw["months"].items()},
            signature_lead=tuple(raw["signature_lead"]),
            language_names={fold(k): v for k, v in raw["language_names"].items()},
            prevail_words=tuple(raw["prevail_words"]),
            testimonium=tuple(raw["testimonium"]),
            day_words={fold(k): int(v) for k, v in (raw["day_words"] or {}).items()},
            iso639_2=raw.get("iso639_2"),
            ordinal_words={fold(k): int(v) for k, v in (raw.get("ordinal_words") or {}).items()},
            year_words={fold(k): int(v) for k, v in (raw.get("year_words") or {}).items()},
            month_abbreviations={fold(k): int(v) for k, v in (raw.get("month_abbreviations") or {}).items()},
            **{key: tuple(raw.get(key) or ()) for key in _OPTIONAL_WORD_LISTS},
        )
    return result


def supported_languages() -> list[str]:
    return [code for code, lang in languages().items() if lang.supported]


def all_words(attribute: str) -> list[str]:
    """The union of one vocabulary list over every known language, longest first."""
    words: set[str] = set()
    for lang in languages().values():
        words.update(getattr(lang, attribute))
    return sorted(words, key=lambda w: (-len(w), w))


@cache
def reference_lead_words() -> frozenset[str]:
    """The folded `reference_lead_words` of every language ("el", "of", "van")."""
    return frozenset(fold(w) for w in all_words("reference_lead_words"))


def all_day_words() -> dict[str, int]:
    words: dict[str, int] = {}
    for lang in languages().values():
        words.update(lang.day_words)
    return words


def all_year_words() -> dict[str, int]:
    """Words of years written out ("mil novecientos ochenta") over every known language (folded keys)."""
    words: dict[str, int] = {}
    for lang in languages().values():
        words.update(lang.year_words)
    return words


def all_ordinal_words() -> dict[str, int]:
    """Ordinal words of article headings over every known language (folded keys)."""
    words: dict[str, int] = {}
    for lang in languages().values():
        words.update(lang.ordinal_words)
    return words


def all_months() -> dict[str, int]:
    months: dict[str, int] = {}
    for lang in languages().values():
        months.update(lang.months)
    return months


def all_month_abbreviations() -> dict[str, int]:
    """The abbreviated months of every known language ("dec" -> 12), folded, without their full stop."""
    months: dict[str, int] = {}
    for lang in languages().values():
        months.update(lang.month_abbreviations)
    return months


@cache
def topics() -> list[dict[str, Any]]:
    raw = _read_yaml("topics.yaml")
    entries = raw.get("topics") if isinstance(raw, dict) else None
    if not isinstance(entries, list):
        raise DataFileError("topics.yaml: expected a top-level 'topics' list")
    allowed = {"key", "model", "headings", "heading_keywords", "content"}
    for entry in entries:
        unknown = set(entry) - allowed
        if unknown:
            raise DataFileError(f"topics.yaml: topic {entry.get('key')!r} has unknown keys {sorted(unknown)}")
    return entries


def no_topic_headings() -> dict[str, list[str]]:
    """Article headings that name no Model topic ("Source of income", "Fuente de la renta"), per
    language: their body is not read for a topic either (its words speak of other articles' incomes)."""
    raw = _read_yaml("topics.yaml")
    value = raw.get("no_topic_headings") or {}
    if not isinstance(value, dict) or not all(isinstance(v, list) for v in value.values()):
        raise DataFileError("topics.yaml: no_topic_headings must map a language to a list of headings")
    return value


def topic_keys() -> list[str]:
    return [t["key"] for t in topics()]


@cache
def countries() -> dict[str, tuple[str, ...]]:
    raw = _read_yaml("countries.yaml")
    if not isinstance(raw, dict):
        raise DataFileError("countries.yaml: expected a mapping of ISO code to names")
    result: dict[str, tuple[str, ...]] = {}
    for code, names in raw.items():
        if not isinstance(code, str) or not _ISO_3166_ALPHA2.fullmatch(code):
            raise DataFileError(f"countries.yaml: key {code!r} is not a two-letter ISO 3166 code in text (quote it)")
        if not isinstance(names, list) or not names or not all(isinstance(n, str) and n.strip() for n in names):
            raise DataFileError(f"countries.yaml: {code} must map to a list of names in text")
        result[code] = tuple(names)
    return result


@cache
def ocr_point_labels() -> dict[str, list[str]]:
    """OCR confusions of point labels (`ocr.yaml`): printed label -> readings, best first."""
    raw = _read_yaml("ocr.yaml")
    table = raw.get("point_labels") if isinstance(raw, dict) else None
    if not isinstance(table, dict):
        raise DataFileError("ocr.yaml: expected a 'point_labels' mapping")
    result: dict[str, list[str]] = {}
    for printed, readings in table.items():
        if not isinstance(printed, str) or not isinstance(readings, list) or not all(isinstance(r, str) for r in readings):
            raise DataFileError(f"ocr.yaml: point_labels entry {printed!r} must map a quoted label to a list of labels")
        result[printed] = readings
    return result


@cache
def ocr_furniture_digits() -> dict[str, str]:
    """Letters a scanner prints for digits in page numbers (`ocr.yaml`): letter -> digit."""
    raw = _read_yaml("ocr.yaml")
    table = (raw.get("furniture_digits") if isinstance(raw, dict) else None) or {}
    if not isinstance(table, dict) or not all(
            isinstance(k, str) and len(k) == 1 and isinstance(v, str) and v.isdigit() and len(v) == 1
            for k, v in table.items()):
        raise DataFileError("ocr.yaml: furniture_digits must map single letters to single digits, quoted")
    return dict(table)


_FURNITURE_KEYS = {"patterns", "html_tags", "notes", "inline"}
_FURNITURE_RULE_KEYS = {"name", "doc", "regex", "prefix", "first_chars", "after_furniture", "after", "names_parties"}


@cache
def _furniture() -> dict[str, Any]:
    raw = _read_yaml("furniture.yaml")
    if not isinstance(raw, dict) or not isinstance(raw.get("patterns"), list):
        raise DataFileError("furniture.yaml: expected a top-level 'patterns' list")
    unknown = set(raw) - _FURNITURE_KEYS
    if unknown:
        raise DataFileError(f"furniture.yaml: unknown keys {sorted(unknown)}")
    for rule in raw["patterns"]:
        if not isinstance(rule, dict) or not isinstance(rule.get("name"), str) or not isinstance(rule.get("regex"), str):
            raise DataFileError(f"furniture.yaml: pattern {rule!r} needs a 'name' and a 'regex' in text")
        unknown = set(rule) - _FURNITURE_RULE_KEYS
        if unknown:
            raise DataFileError(f"furniture.yaml: pattern {rule['name']!r} has unknown keys {sorted(unknown)}")
        after = rule.get("after")
        if after is not None and (not rule.get("prefix") or not isinstance(after, list)
                                  or not all(isinstance(name, str) for name in after)):
            raise DataFileError(f"furniture.yaml: pattern {rule['name']!r}: 'after' is a list of rule names, for a prefix rule")
    tags = raw.get("html_tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) and t.isalnum() for t in tags):
        raise DataFileError("furniture.yaml: html_tags must be a list of tag names in text")
    notes = raw.get("notes") or []
    if not isinstance(notes, list) or not all(isinstance(n, str) and len(n) >= 20 for n in notes):
        raise DataFileError("furniture.yaml: notes must be a list of texts (a page's note, word for word)")
    for rule in raw.get("inline") or []:
        if not isinstance(rule, dict) or not isinstance(rule.get("name"), str) or not isinstance(rule.get("regex"), str) \
                or set(rule) - {"name", "doc", "regex", "names_parties", "literals"} \
                or not all(isinstance(w, str) and w for w in rule.get("literals") or []):
            raise DataFileError(f"furniture.yaml: inline pattern {rule!r} needs a 'name', a 'doc' and a 'regex'"
                                " (and may name the parties, and list its literals), no more")
    return raw


def inline_furniture_patterns() -> list[dict[str, Any]]:
    """The page furniture a copy printed without its line breaks leaves inside a line (`inline` of
    `furniture.yaml`), in order."""
    return list(_furniture().get("inline") or [])


def furniture_patterns() -> list[dict[str, Any]]:
    """The page furniture rules of `furniture.yaml`, in order."""
    return list(_furniture()["patterns"])


def furniture_notes() -> list[str]:
    """The long notes a gazette prints word for word at the foot of its pages (`notes` of `furniture.yaml`)."""
    return list(_furniture().get("notes") or [])


def party_naming_furniture() -> frozenset[str]:
    """The furniture rules whose lines name the convention's States (`names_parties: true`): a
    compilation's chapter title printed on every page goes, but the parties are read from it."""
    rules = furniture_patterns() + inline_furniture_patterns()
    return frozenset(rule["name"] for rule in rules if rule.get("names_parties"))


def html_tags() -> list[str]:
    """The simple HTML tags a converted text may carry ("sup", "br"), dropped by the cleaner."""
    return list(_furniture().get("html_tags") or [])
