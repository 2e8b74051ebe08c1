"""Conditions of a provision, compiled into tests on a scenario's facts.

Each provision condition key (see `taxtreaty/provisions/model.py`) becomes one or more
`Condition`s: a fact of the scenario, an operator and a value. Evaluation is three-valued:
True, False, or None when the scenario does not give the fact. Facts that only matter in rare
exceptions take the documented default from `data/rules/scenario.yaml` instead of None, and the
evaluation records that it used it, so the decision can list the assumption.

Every comparison is normalised to `fact >= bound` or `fact < bound`, so the ledger can bucket a
column by the sorted bounds and decide each bucket once (see `ledger.py`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from taxtreaty.rules.scenario import Scenario
from taxtreaty.rules.tables import tables

#: condition keys that only describe how to read a fact; they become assumptions, not tests
DESCRIPTIVE_KEYS = {"capital_basis", "holding_direct"}
#: facts that no scenario key carries; a condition on them is unknown unless it has a default
EXTERNAL_FACTS = {"income_subtype", "guaranteed_by_government"}


@dataclass(frozen=True, slots=True)
class Condition:
    fact: str
    op: str  # "eq" | "in" | "ge" | "lt" | "unknown"
    value: Any
    label: str

    def evaluate(self, scenario: Scenario, defaults_used: set[str]) -> bool | None:
        if self.op == "unknown":
            return None
        actual = getattr(scenario, self.fact, None)
        if actual is None:
            default = tables().defaults.get(self.fact)
            if default is None:
                return None
            defaults_used.add(self.fact)
            actual = default.value
        if self.op == "eq":
            return bool(actual == self.value)
        if self.op == "in":
            return actual in self.value
        if self.op == "in_maybe":  # (kinds that satisfy it, kinds that may or may not)
            sure, maybe = self.value
            return True if actual in sure else (None if actual in maybe else False)
        if self.op == "ge_maybe":  # (certainly met from, possibly met from)
            sure, maybe = self.value
            return True if actual >= sure else (None if actual >= maybe else False)
        if self.op == "ge":
            return bool(actual >= self.value)
        if self.op == "lt":
            return bool(actual < self.value)
        raise AssertionError(f"unknown operator {self.op}")  # pragma: no cover

    @property
    def bound(self) -> Any | None:
        """The threshold a ledger column is bucketed on (numbers and dates only)."""
        return self.value if self.op in ("ge", "lt") else None

    @property
    def bounds(self) -> tuple[Any, ...]:
        """Every threshold a ledger column must be split at for this test to be constant
        within a bucket (a three-valued range has two)."""
        if self.op == "ge_maybe":
            return tuple(self.value)
        return () if self.bound is None else (self.bound,)


def _next_day(value: Any) -> dt.date:
    day = value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))
    return day + dt.timedelta(days=1)


def _as_date(value: Any) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


def _kind_test(fact: str, kinds: Iterable[str], label: str) -> Condition:
    """A test on the recipient's (payer's) kind. Kinds the scenario vocabulary has are matched
    exactly, with the kinds that certainly are one (a bank is a company); the kinds that may be
    one are *unknown* (a company may or may not be a pension fund), never silently true."""
    table = tables()
    vocabulary = set(table.recipient_kinds) | set(table.payer_kinds)
    sure: set[str] = set()
    maybe: set[str] = set()
    for kind in kinds:
        if kind in vocabulary:
            sure.add(kind)
        sure.update(table.recipient_equivalents.get(kind, ()))
        maybe.update(table.recipient_aliases.get(kind, ()))
    maybe -= sure
    if maybe:
        return Condition(fact, "in_maybe", (frozenset(sure), frozenset(maybe)), label)
    return Condition(fact, "in", frozenset(sure), label)


#: the shortest and longest calendar month, in days
_MONTH_DAYS = (28, 31)


def _held_days_test(days: int) -> Condition:
    """A holding period in days ("365 days that include the day of payment") against the
    scenario's whole months held: n months are at least 28n days, and less than 31(n+1)
    days. So the period is certainly met from ceil(days/28) months, certainly not met below
    floor(days/31) months, and between the two the answer depends on the calendar: unknown,
    so the decision asks for the fact instead of guessing."""
    shortest, longest = _MONTH_DAYS
    sure = -(-days // shortest)
    maybe = days // longest
    return Condition("held_months", "ge_maybe", (sure, maybe),
                     f"held ≥ {days} days (certain from {sure} months; {maybe}-{sure - 1} months: ask for the days)")


def compile_conditions(conditions: dict[str, Any], parties: tuple[str, ...]) -> tuple[list[Condition], list[str]]:
    """Provision conditions -> (tests, descriptive notes). Unknown keys become unknown tests."""
    tests: list[Condition] = []
    notes: list[str] = []
    for key, value in conditions.items():
        if key in DESCRIPTIVE_KEYS:
            if key == "holding_direct" and value:
                notes.append("holding_direct")
            continue
        if key == "otherwise":
            if value:
                notes.append("otherwise")  # the residual cap of a list: no test of its own
            continue
        if key == "beneficial_owner":
            tests.append(Condition("beneficial_owner", "eq", bool(value), f"beneficial owner = {'yes' if value else 'no'}"))
        elif key == "recipient":
            if value != "any":
                tests.append(_kind_test("recipient", [value], f"recipient is {value}"))
        elif key == "recipient_kinds":
            tests.append(_kind_test("recipient", value, f"recipient is {' or '.join(value)}"))
        elif key == "recipient_names":
            names = "; ".join(str(v) for v in value)
            # a recipient said to be a named institution is taken to be one of these; a central
            # bank may be one of them (unknown); other kinds are not
            tests.append(Condition("recipient", "in_maybe", (frozenset({"named_institution"}), frozenset({"central_bank"})),
                                   f"recipient is one of: {names}"))
        elif key == "payer_kinds":
            tests.append(_kind_test("payer", value, f"payer is {' or '.join(value)}"))
        elif key == "min_capital_pct":
            tests.append(Condition("capital_pct", "ge", Decimal(str(value)), f"capital_pct ≥ {value}"))
        elif key == "min_holding_months":
            tests.append(Condition("held_months", "ge", int(value), f"held_months ≥ {value}"))
        elif key == "min_holding_days":
            tests.append(_held_days_test(int(value)))
        elif key == "paid_after":
            tests.append(Condition("date", "ge", _next_day(value), f"paid after {_as_date(value).isoformat()}"))
        elif key == "paid_from":
            tests.append(Condition("date", "ge", _as_date(value), f"paid on or after {_as_date(value).isoformat()}"))
        elif key == "paid_until":
            tests.append(Condition("date", "lt", _next_day(value), f"paid on or before {_as_date(value).isoformat()}"))
        elif key in ("source_state", "residence_state"):
            fact = key.removesuffix("_state")
            code = _placeholder_state(str(value), parties)
            if code is None:
                tests.append(Condition(fact, "unknown", value, f"{fact} is the {value} (parties not known)"))
            else:
                tests.append(Condition(fact, "eq", code, f"{fact} is {code}"))
        elif key == "pe_connected":
            tests.append(Condition("pe_connected", "eq", bool(value), "effectively connected with a PE or fixed base"))
        elif key == "guaranteed_by_government":
            tests.append(Condition("guaranteed_by_government", "eq", bool(value), "loan guaranteed or financed by a government"))
        elif key == "income_subtype":
            tests.append(Condition("income_subtype", "eq", value, f"income is of the kind {value!r}"))
        elif key == "unread_condition":
            # words of a condition the extractor could not turn into data: never assumed met
            tests.append(Condition(key, "unknown", value, f"the text also requires: \u201c{value}\u201d (condition not read into data)"))
        else:
            tests.append(Condition(key, "unknown", value, f"condition {key}={value!r} (not understood by the engine)"))
    return tests, notes


def _placeholder_state(value: str, parties: tuple[str, ...]) -> str | None:
    if value == "first_state":
        return parties[0] if len(parties) == 2 else None
    if value == "second_state":
        return parties[1] if len(parties) == 2 else None
    return value.upper() if len(value) == 2 else None
