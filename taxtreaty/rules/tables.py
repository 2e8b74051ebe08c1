"""The rules engine's reference tables, read from ``taxtreaty/data/rules/scenario.yaml``.

Law-independent vocabulary lives there (income values, recipient kinds, documented defaults), so
changing what a scenario may say is a data change. The loader rejects unknown keys and names the
file in every error.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from taxtreaty.vocab import DataFileError, read_data_file

_FILE = "rules/scenario.yaml"
_KEYS = {"income_topics", "income_facts", "recipient_equivalents", "recipient_aliases", "recipient_refinements", "defaults"}


@dataclass(frozen=True)
class Default:
    """A documented assumption for a rare-exception fact the scenario did not give."""

    fact: str
    value: Any
    why: str


@dataclass(frozen=True)
class Tables:
    income_topics: dict[str, str]
    #: an income value that is a kind of another income -> the facts it implies ("technical_services":
    #: royalty_kind technical_services)
    income_facts: dict[str, dict[str, str]]
    recipient_equivalents: dict[str, tuple[str, ...]]
    recipient_aliases: dict[str, tuple[str, ...]]
    #: provisions' recipient kinds that a yes/no fact settles for the scenario kinds that may be one
    #: ("a bank" may be wholly owned by its government: recipient_government_owned)
    recipient_refinements: dict[str, tuple[str, tuple[str, ...]]]
    defaults: dict[str, Default]

    @property
    def recipient_kinds(self) -> tuple[str, ...]:
        """The recipient kinds a scenario may name (the fact schema's choices)."""
        from taxtreaty.rules.facts import fact_schema

        return fact_schema().choices("recipient")

    @property
    def payer_kinds(self) -> tuple[str, ...]:
        from taxtreaty.rules.facts import fact_schema

        return fact_schema().choices("payer")


def _refinements(raw: dict[str, Any]) -> dict[str, tuple[str, tuple[str, ...]]]:
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for kind, entry in raw.items():
        if not isinstance(entry, dict) or set(entry) != {"fact", "kinds"}:
            raise DataFileError(f"{_FILE}: recipient_refinements.{kind} needs exactly 'fact' and 'kinds'")
        out[str(kind)] = (str(entry["fact"]), tuple(str(k) for k in entry["kinds"]))
    return out


@cache
def tables() -> Tables:
    raw = read_data_file("rules", "scenario.yaml", keys=_KEYS)
    if not isinstance(raw, dict):
        raise DataFileError(f"{_FILE}: expected a mapping")
    unknown = set(raw) - _KEYS
    if unknown:
        raise DataFileError(f"{_FILE}: unknown keys {sorted(unknown)}")
    missing = _KEYS - set(raw)
    if missing:
        raise DataFileError(f"{_FILE}: missing keys {sorted(missing)}")
    defaults: dict[str, Default] = {}
    for fact, entry in raw["defaults"].items():
        if not isinstance(entry, dict) or set(entry) != {"value", "why"}:
            raise DataFileError(f"{_FILE}: defaults.{fact} needs exactly 'value' and 'why'")
        defaults[fact] = Default(fact, entry["value"], str(entry["why"]))
    return Tables(
        income_topics={str(k): str(v) for k, v in raw["income_topics"].items()},
        income_facts={str(k): {str(f): str(v) for f, v in (facts or {}).items()} for k, facts in (raw["income_facts"] or {}).items()},
        recipient_equivalents={str(k): tuple(v) for k, v in raw["recipient_equivalents"].items()},
        recipient_aliases={str(k): tuple(v) for k, v in raw["recipient_aliases"].items()},
        recipient_refinements=_refinements(raw["recipient_refinements"] or {}),
        defaults=defaults,
    )
