"""The fact schema: what a scenario may state, read from ``taxtreaty/data/rules/facts.yaml``.

One definition serves every surface (issue 13): the engine's `Scenario` type and its validation
(`rules/scenario.py`), the CLI's options, the HTTP request model, the ledger columns, the keys of
check cases and the web form are all derived from `fact_schema()`. Adding a fact is one entry in
the data file. The loader rejects unknown keys and names the file in every error.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from taxtreaty.vocab import DataFileError, read_data_file

_FILE = "rules/facts.yaml"
TYPES = ("choice", "state", "date", "amount", "decimal", "int", "bool", "text", "currency")
GROUPS = ("payment", "recipient", "holding", "loan", "royalty", "gains", "person", "proviso")
_ENTRY_KEYS = {"type", "required", "choices", "choices_from", "min", "max", "max_length", "label", "label_false",
               "question", "help", "group", "field", "exact"}


@dataclass(frozen=True)
class Fact:
    """One fact a scenario may state."""

    key: str
    type: str
    required: bool
    #: value -> practitioner's label, for `choice` facts (in the file's order)
    choices: dict[str, str]
    low: Decimal | None
    high: Decimal | None
    max_length: int | None
    label: str
    label_false: str | None
    question: str
    help: str
    group: str
    #: the short label of its field on the web form (the question when the file gives none)
    field: str = ""
    #: a number the engine uses as a value (a rate), not one compared with a threshold: the ledger
    #: reads each distinct value as it is, never by buckets
    exact: bool = False

    def describe(self, value: Any) -> str:
        """The fact and its value in a practitioner's words ("the recipient is a bank")."""
        if self.type == "bool":
            if value is False and self.label_false:
                return self.label_false
            return self.label if value else f"not: {self.label}"
        shown = self.choices.get(str(value), value) if self.choices else value
        return self.label.replace("{value}", str(shown))

    def choice_label(self, value: str) -> str:
        return self.choices.get(value, value)


@dataclass(frozen=True)
class FactSchema:
    facts: dict[str, Fact]

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self.facts)

    def __getitem__(self, key: str) -> Fact:
        return self.facts[key]

    def __contains__(self, key: object) -> bool:
        return key in self.facts

    def choices(self, key: str) -> tuple[str, ...]:
        return tuple(self.facts[key].choices)

    def describe(self, key: str, value: Any) -> str:
        fact = self.facts.get(key)
        return fact.describe(value) if fact is not None else f"{key} = {value}"

    def question(self, key: str) -> str | None:
        fact = self.facts.get(key)
        return fact.question if fact is not None else None


def _number(raw: Any, where: str) -> Decimal | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        raise DataFileError(f"{_FILE}: {where} must be a number")
    return Decimal(str(raw))


def _fact(key: str, raw: Any, income_topics: dict[str, str]) -> Fact:
    where = f"facts.{key}"
    if not isinstance(raw, dict):
        raise DataFileError(f"{_FILE}: {where} must be a mapping")
    unknown = sorted(set(raw) - _ENTRY_KEYS)
    if unknown:
        raise DataFileError(f"{_FILE}: {where}: unknown key {unknown[0]!r} (allowed: {', '.join(sorted(_ENTRY_KEYS))})")
    kind = raw.get("type")
    if kind not in TYPES:
        raise DataFileError(f"{_FILE}: {where}.type must be one of {', '.join(TYPES)} (got {kind!r})")
    if "field" in raw and (not isinstance(raw["field"], str) or not raw["field"].strip()):
        raise DataFileError(f"{_FILE}: {where}.field must be a short label")
    for needed in ("label", "question", "help", "group"):
        if not isinstance(raw.get(needed), str) or not raw[needed].strip():
            raise DataFileError(f"{_FILE}: {where} needs a '{needed}'")
    if raw["group"] not in GROUPS:
        raise DataFileError(f"{_FILE}: {where}.group must be one of {', '.join(GROUPS)}")
    choices: dict[str, str] = {}
    if kind == "choice":
        if "choices_from" in raw:
            if raw["choices_from"] != "income_topics":
                raise DataFileError(f"{_FILE}: {where}.choices_from can only be income_topics")
            choices = {value: value.replace("_", " ") for value in income_topics}
        elif isinstance(raw.get("choices"), dict) and raw["choices"]:
            choices = {str(k): str(v) for k, v in raw["choices"].items()}
        else:
            raise DataFileError(f"{_FILE}: {where}: a choice needs 'choices' (value: label) or 'choices_from'")
    elif "choices" in raw or "choices_from" in raw:
        raise DataFileError(f"{_FILE}: {where}: only a choice has choices")
    if "exact" in raw and (raw["exact"] is not True or kind != "decimal"):
        raise DataFileError(f"{_FILE}: {where}.exact can only be true, and only for a decimal")
    max_length = raw.get("max_length")
    if max_length is not None and (not isinstance(max_length, int) or max_length < 1):
        raise DataFileError(f"{_FILE}: {where}.max_length must be a positive whole number")
    return Fact(
        key=key, type=kind, required=bool(raw.get("required", False)), choices=choices,
        low=_number(raw.get("min"), f"{where}.min"), high=_number(raw.get("max"), f"{where}.max"),
        max_length=max_length, label=raw["label"], label_false=raw.get("label_false"),
        question=raw["question"], help=raw["help"], group=raw["group"],
        field=str(raw.get("field") or raw["question"]), exact=bool(raw.get("exact", False)),
    )


@cache
def fact_schema() -> FactSchema:
    from taxtreaty.rules.tables import tables

    raw = read_data_file("rules", "facts.yaml")
    if not isinstance(raw, dict) or set(raw) != {"facts"} or not isinstance(raw["facts"], dict):
        raise DataFileError(f"{_FILE}: expected a mapping with the one key 'facts'")
    income_topics = tables().income_topics
    facts = {str(key): _fact(str(key), entry, income_topics) for key, entry in raw["facts"].items()}
    required = [key for key, fact in facts.items() if fact.required]
    if required != ["income", "source", "residence"]:
        raise DataFileError(f"{_FILE}: income, source and residence (only) are required, in that order (got {required})")
    return FactSchema(facts=facts)
