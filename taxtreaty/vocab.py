"""Load the per-language vocabularies and reference tables from ``taxtreaty/data``.

Everything that differs between Portuguese, English and Spanish (heading words, month names,
stop words, topic headings) lives in YAML files; code reads it through this module only, so a
new language is a new data file, not new code.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import regex
import yaml

DATA_PACKAGE = "taxtreaty.data"
_LANGUAGE_KEYS = {
    "code", "name", "supported", "stopwords", "article_words", "chapter_words", "protocol_words",
    "convention_title_words", "months", "signature_lead", "language_names", "prevail_words",
    "testimonium", "day_words",
}
#: keys a language file may leave out
_OPTIONAL_LANGUAGE_KEYS = {"iso639_2"}


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
    convention_title_words: tuple[str, ...]
    months: dict[str, int]
    signature_lead: tuple[str, ...]
    language_names: dict[str, str]
    prevail_words: tuple[str, ...]
    testimonium: tuple[str, ...] = ()
    day_words: dict[str, int] = field(default_factory=dict)
    #: ISO 639-2 code, for Akoma Ntoso's FRBRlanguage ("por")
    iso639_2: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


_COMBINING = regex.compile(r"\p{M}+")


def fold(text: str) -> str:
    """Lower-case and strip accents: the key used for every vocabulary comparison."""
    if text.isascii():
        return text.casefold()
    return _COMBINING.sub("", unicodedata.normalize("NFKD", text.casefold()))


def _read_yaml(*parts: str) -> Any:
    path = resources.files(DATA_PACKAGE).joinpath(*parts)
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:  # pragma: no cover - data files are tested
        raise DataFileError(f"{'/'.join(parts)}: {exc}") from exc


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
        for key in ("stopwords", "article_words", "chapter_words", "protocol_words",
                    "convention_title_words", "signature_lead", "prevail_words", "testimonium"):
            bad = [w for w in raw[key] if not isinstance(w, str)]
            if bad:
                raise DataFileError(f"languages/{entry.name}: {key} has non-text entries {bad} (quote them)")
        result[raw["code"]] = Language(
            code=raw["code"],
            name=raw["name"],
            supported=bool(raw["supported"]),
            stopwords=frozenset(fold(w) for w in raw["stopwords"]),
            article_words=tuple(raw["article_words"]),
            chapter_words=tuple(raw["chapter_words"]),
            protocol_words=tuple(raw["protocol_words"]),
            convention_title_words=tuple(raw["convention_title_words"]),
            months={fold(k): int(v) for k, v in raw["months"].items()},
            signature_lead=tuple(raw["signature_lead"]),
            language_names={fold(k): v for k, v in raw["language_names"].items()},
            prevail_words=tuple(raw["prevail_words"]),
            testimonium=tuple(raw["testimonium"]),
            day_words={fold(k): int(v) for k, v in (raw["day_words"] or {}).items()},
            iso639_2=raw.get("iso639_2"),
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


def all_day_words() -> dict[str, int]:
    words: dict[str, int] = {}
    for lang in languages().values():
        words.update(lang.day_words)
    return words


def all_months() -> dict[str, int]:
    months: dict[str, int] = {}
    for lang in languages().values():
        months.update(lang.months)
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


def topic_keys() -> list[str]:
    return [t["key"] for t in topics()]


@cache
def countries() -> dict[str, tuple[str, ...]]:
    raw = _read_yaml("countries.yaml")
    if not isinstance(raw, dict):
        raise DataFileError("countries.yaml: expected a mapping of ISO code to names")
    return {code: tuple(names or ()) for code, names in raw.items()}


@cache
def furniture_patterns() -> list[dict[str, Any]]:
    raw = _read_yaml("furniture.yaml")
    return list(raw["patterns"])
