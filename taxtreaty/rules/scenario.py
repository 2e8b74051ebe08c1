"""A scenario: the facts of one payment, as the fact schema defines them.

The keys, their types, bounds and choices come from `taxtreaty/data/rules/facts.yaml` (see
`rules/facts.py`): `Scenario` is built from that file, and `scenario_from` validates against it,
so the CLI, HTTP, the ledger and check cases accept exactly the same facts. Only `income`,
`source` and `residence` are required; every other fact may be absent (None), and the engine
decides whether its absence matters. Validation turns any bad input into a one-line
`ScenarioError` (an `InputError`) naming the key. Money is held as an integer number of minor
units (cents): `amount="1000.50"` -> `amount_minor=100050`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from taxtreaty.rules.facts import Fact, fact_schema
from taxtreaty.rules.tables import tables
from taxtreaty.text import InputError

SCENARIO_KEYS: tuple[str, ...] = fact_schema().keys
#: minor units per unit of currency (amounts are taken as having two decimals)
MINOR_UNITS = 100
#: the longest number a scenario may give, in characters (a 100,000-digit integer is refused
#: before Decimal or int parse it)
MAX_NUMBER_CHARS = 40
#: the largest amount a payment may state (as the HTTP API has always refused more)
MAX_AMOUNT = Decimal("1e15")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_ISO_CODE = re.compile(r"^[A-Z]{2}$")
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_TRUE = {"true", "yes", "y", "1", "sim", "si", "sí"}
_FALSE = {"false", "no", "n", "0", "nao", "não"}
#: a float NaN (pandas' empty cell) is unknown too; the text "NaN" is not a number anyone
#: means, so it is refused rather than read as unknown
_UNKNOWN = {"", "unknown", "null", "none", "?"}


class ScenarioError(InputError):
    """A scenario the engine cannot read; the message names the key and the value."""


def _field_name(fact: Fact) -> str:
    """The attribute a fact is held in: money as integer minor units (`amount_minor`)."""
    return f"{fact.key}_minor" if fact.type == "amount" else fact.key


_PY_TYPES = {"choice": str, "state": str, "text": str, "currency": str, "date": dt.date, "amount": int,
             "decimal": Decimal, "int": int, "bool": bool}


def _build_scenario_type() -> type:
    fields: list[Any] = []
    for fact in fact_schema().facts.values():
        kind = _PY_TYPES[fact.type]
        if fact.required:
            fields.append((_field_name(fact), kind))
        else:
            fields.append((_field_name(fact), kind | None, dataclasses.field(default=None)))

    def topic(self: Any) -> str:
        return tables().income_topics[self.income]

    def to_dict(self: Any) -> dict[str, Any]:
        """The scenario in its JSON form (the schema's keys; amounts as decimal strings)."""
        out: dict[str, Any] = {}
        for fact in fact_schema().facts.values():
            value = getattr(self, _field_name(fact))
            if value is None:
                continue
            if fact.type == "amount":
                value = format_minor(value)
            elif fact.type == "date":
                value = value.isoformat()
            elif fact.type == "decimal":
                value = str(value)
            out[fact.key] = value
        return out

    made = dataclasses.make_dataclass(
        "Scenario", fields, frozen=True, slots=True,
        namespace={"topic": property(topic), "to_dict": to_dict,
                   "__doc__": "The facts of one payment (keys from data/rules/facts.yaml)."},
    )
    made.__module__ = __name__  # pickled by the Dask ledger: found again as rules.scenario.Scenario
    return made


#: the facts of one payment; its fields are the fact schema's keys (`amount` as `amount_minor`)
Scenario: Any = _build_scenario_type()


def format_minor(minor: int) -> str:
    sign = "-" if minor < 0 else ""
    units, cents = divmod(abs(minor), MINOR_UNITS)
    return f"{sign}{units}.{cents:02d}"


# -- field readers: each takes the raw value and returns the typed value or raises -------------

def _is_unknown(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and value != value:  # NaN from pandas
        return True
    return isinstance(value, str) and value.strip().casefold() in _UNKNOWN


def read_bool(key: str, value: Any) -> bool | None:
    if _is_unknown(value):
        return None
    if isinstance(value, bool):
        return value
    text = str(value).strip().casefold()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ScenarioError(f"scenario: {key} must be yes, no or unknown (got {value!r})")


def read_state(key: str, value: Any, required: bool = False) -> str | None:
    if _is_unknown(value):
        if required:
            raise ScenarioError(f"scenario: {key} is required (an ISO 3166 alpha-2 code such as PT)")
        return None
    code = str(value).strip().upper()
    if not _ISO_CODE.match(code):
        raise ScenarioError(f"scenario: {key} must be an ISO 3166 alpha-2 code such as PT (got {value!r})")
    return code


def read_choice(key: str, value: Any, choices: tuple[str, ...], required: bool = False) -> str | None:
    if _is_unknown(value):
        if required:
            raise ScenarioError(f"scenario: {key} is required (one of {', '.join(choices)})")
        return None
    text = str(value).strip().casefold().replace("-", "_").replace(" ", "_")
    if text not in choices:
        raise ScenarioError(f"scenario: {key} must be one of {', '.join(choices)} (got {value!r})")
    return text


def read_date(key: str, value: Any) -> dt.date | None:
    if _is_unknown(value):
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    text = str(value).strip()
    try:
        if not _ISO_DATE.match(text):
            raise ValueError(text)
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ScenarioError(f"scenario: {key} must be a date as YYYY-MM-DD (got {value!r})") from None


def read_decimal(key: str, value: Any, low: Decimal, high: Decimal | None) -> Decimal | None:
    if _is_unknown(value):
        return None
    if isinstance(value, bool):
        raise ScenarioError(f"scenario: {key} must be a number (got {value!r})")
    text = str(value).strip().replace(",", ".")
    if len(text) > MAX_NUMBER_CHARS:
        raise ScenarioError(f"scenario: {key} must be a number of at most {MAX_NUMBER_CHARS} characters")
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise ScenarioError(f"scenario: {key} must be a number (got {value!r})") from None
    if not number.is_finite() or number < low or (high is not None and number > high):
        bound = f"between {low:f} and {high:f}" if high is not None else f"at least {low:f}"
        raise ScenarioError(f"scenario: {key} must be {bound} (got {value!r})")
    return number


def read_int(key: str, value: Any, low: int, high: int) -> int | None:
    number = read_decimal(key, value, Decimal(low), Decimal(high))
    if number is None:
        return None
    if number != number.to_integral_value():
        raise ScenarioError(f"scenario: {key} must be a whole number (got {value!r})")
    return int(number)


def read_amount(key: str, value: Any) -> int | None:
    number = read_decimal(key, value, Decimal(0), MAX_AMOUNT)
    if number is None:
        return None
    minor = number * MINOR_UNITS
    if minor != minor.to_integral_value():
        raise ScenarioError(f"scenario: {key} has more than two decimals (got {value!r})")
    return int(minor)


def read_text(key: str, value: Any, max_length: int) -> str | None:
    if _is_unknown(value):
        return None
    text = " ".join(str(value).split())
    if len(text) > max_length:
        raise ScenarioError(f"scenario: {key} must be at most {max_length} characters")
    return text


def read_currency(key: str, value: Any) -> str | None:
    if _is_unknown(value):
        return None
    code = str(value).strip().upper()
    if not _CURRENCY.match(code):
        raise ScenarioError(f"scenario: {key} must be an ISO 4217 code such as USD (got {value!r})")
    return code


def read_fact(fact: Fact, value: Any) -> Any:
    """One fact's raw value -> its typed value (None when unknown), or a `ScenarioError`."""
    key = fact.key
    if fact.type == "choice":
        return read_choice(key, value, tuple(fact.choices), required=fact.required)
    if fact.type == "state":
        return read_state(key, value, required=fact.required)
    if fact.type == "date":
        return read_date(key, value)
    if fact.type == "amount":
        return read_amount(key, value)
    if fact.type == "bool":
        return read_bool(key, value)
    if fact.type == "text":
        return read_text(key, value, fact.max_length or 200)
    if fact.type == "currency":
        return read_currency(key, value)
    low = fact.low if fact.low is not None else Decimal(0)
    if fact.type == "int":
        high = fact.high if fact.high is not None else Decimal(10**9)
        return read_int(key, value, int(low), int(high))
    return read_decimal(key, value, low, fact.high)


_FIELDS: dict[int, tuple[tuple[str, str, Fact], ...]] = {}


def _fields(schema: Any) -> tuple[tuple[str, str, Fact], ...]:
    """(attribute, key, fact) of every fact of the schema, computed once per schema."""
    found = _FIELDS.get(id(schema))
    if found is None:
        found = _FIELDS[id(schema)] = tuple((_field_name(f), k, f) for k, f in schema.facts.items())
    return found


def scenario_from(data: Any) -> Any:
    """Validate a mapping of the fact schema's keys (or pass a Scenario through)."""
    if isinstance(data, Scenario):
        return data
    if not isinstance(data, dict):
        raise ScenarioError(f"scenario: expected a JSON object, got {type(data).__name__}")
    schema = fact_schema()
    unknown = sorted(str(k) for k in set(data) - set(schema.keys))
    if unknown:
        raise ScenarioError(f"scenario: unknown key {unknown[0]!r} (allowed: {', '.join(schema.keys)})")
    # a fact the mapping does not give is unknown (None) unless it is required (then read_fact says so)
    values = {name: read_fact(fact, data.get(key)) if key in data or fact.required else None
              for name, key, fact in _fields(schema)}
    for key, implied in tables().income_facts.get(values["income"], {}).items():
        # "technical_services": royalties paid for technical services (the kind the royalties article reads)
        given = values.get(key)
        if given is not None and given != implied:
            raise ScenarioError(f"scenario: income {values['income']} is {key} {implied} (got {key} {given!r})")
        values[key] = implied
    if values["source"] == values["residence"]:
        raise ScenarioError(f"scenario: source and residence are the same State ({values['source']}); a treaty covers cross-border income")
    if values.get("invested_amount") is not None and values.get("invested_currency") is None:
        raise ScenarioError("scenario: invested_amount needs invested_currency (an ISO 4217 code such as USD)")
    kind = values.get("gain_property")
    if values.get("gain_on_shares") is None and kind is not None and kind != "other":
        # the property alienated says what the MLI's fact asks: shares are shares; immovable property, a permanent
        # establishment's property or a ship is none ("other property" may be a partnership's interest: unsaid)
        values["gain_on_shares"] = kind == "shares"
    return Scenario(**values)
