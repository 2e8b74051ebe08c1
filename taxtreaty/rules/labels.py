"""The practitioner's words of a decision, read from ``taxtreaty/data/rules/labels.yaml``.

Every condition, effect, allocation, caveat kind, status and relief method a decision can name
has a label there; the engine, the CLI, the HTTP API, the web pages, the ledger and the memo
show those words, never a raw key. `label(section, key, **values)` fills a template; an unknown
key is a `KeyError` (a data bug the tests catch), never a key shown to a reader.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from taxtreaty.vocab import DataFileError, read_data_file

_FILE = "rules/labels.yaml"
SECTIONS = ("kinds", "bases", "conditions", "subtype_facts", "effects", "allocations", "caveat_kinds", "statuses",
            "source_taxation", "residence_taxation", "relief_methods", "provision_kinds", "topics")


@dataclass(frozen=True)
class SubtypeFact:
    """A provision's income_subtype as the scenario fact that tells it."""

    fact: str
    values: tuple[str, ...]
    maybe: tuple[str, ...] = ()
    #: the article topics the fact is asked in (empty: any)
    topics: tuple[str, ...] = ()


@cache
def _raw() -> dict[str, Any]:
    raw = read_data_file("rules", "labels.yaml", keys=SECTIONS)
    if not isinstance(raw, dict) or set(raw) != set(SECTIONS):
        found = sorted(set(raw) if isinstance(raw, dict) else ())
        raise DataFileError(f"{_FILE}: expected the sections {', '.join(SECTIONS)} (got {', '.join(found)})")
    for section, entries in raw.items():
        if not isinstance(entries, dict):
            raise DataFileError(f"{_FILE}: {section} must be a mapping")
    return raw


def label(section: str, key: str, **values: Any) -> str:
    """The words for `key` of `section`, with its {placeholders} filled."""
    template = _raw()[section][key]
    if not isinstance(template, str):
        raise DataFileError(f"{_FILE}: {section}.{key} must be text")
    for name, value in values.items():
        template = template.replace("{" + name + "}", str(value))
    return template


def has(section: str, key: str) -> bool:
    return key in _raw()[section]


def kinds(values: Any, joiner: str = " or ") -> str:
    """'a company (other than a partnership) or a bank': kinds in words (facts.yaml's labels for the
    scenario's own choices of recipient, payer, loan, royalty and profits, this file's for the others)."""
    from taxtreaty.rules.facts import fact_schema

    schema = fact_schema()
    words = []
    for value in [values] if isinstance(values, str) else list(values):
        value = str(value)
        if has("kinds", value):
            words.append(label("kinds", value))
            continue
        for fact in ("recipient", "payer", "loan_kind", "royalty_kind", "profits_kind"):
            if value in schema[fact].choices:
                words.append(schema[fact].choices[value])
                break
        else:
            raise KeyError(f"{_FILE}: no label for the kind {value!r}")
    return joiner.join(dict.fromkeys(words))


@cache
def subtype_facts() -> dict[str, SubtypeFact]:
    out: dict[str, SubtypeFact] = {}
    for subtype, entry in _raw()["subtype_facts"].items():
        if not isinstance(entry, dict) or not {"fact", "values"} <= set(entry) <= {"fact", "values", "maybe", "topics"}:
            raise DataFileError(f"{_FILE}: subtype_facts.{subtype} needs 'fact' and 'values' (optionally 'maybe', 'topics')")
        out[str(subtype)] = SubtypeFact(str(entry["fact"]), tuple(str(v) for v in entry["values"]),
                                        tuple(str(v) for v in entry.get("maybe") or ()),
                                        tuple(str(v) for v in entry.get("topics") or ()))
    return out


def topic(key: str) -> str:
    """An OECD Model topic in words (this file's `topics`: "Capital gains")."""
    topics = _raw()["topics"]
    return str(topics[key]) if key in topics else key.replace("_", " ")


def section(name: str) -> dict[str, Any]:
    return dict(_raw()[name])


__all__ = ["SECTIONS", "SubtypeFact", "has", "kinds", "label", "section", "subtype_facts", "topic"]
