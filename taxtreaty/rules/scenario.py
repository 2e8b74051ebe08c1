"""A scenario: the facts of one payment, with exactly the keys of issue 4.

    income, source, residence, date, amount, beneficial_owner, recipient, capital_pct,
    held_months, pe_connected, payer, days_present, employer_resident, nationality

Only `income`, `source` and `residence` are required; every other fact may be absent (None),
and the engine decides whether its absence matters. Validation turns any bad input into a
one-line `ScenarioError` (an `InputError`) naming the key. Money is held as an integer number of
minor units (cents): `amount="1000.50"` -> `amount_minor=100050`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict, dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from taxtreaty.rules.tables import tables
from taxtreaty.text import InputError

SCENARIO_KEYS = (
    "income", "source", "residence", "date", "amount", "beneficial_owner", "recipient", "capital_pct",
    "held_months", "pe_connected", "payer", "days_present", "employer_resident", "nationality",
)
#: minor units per unit of currency (amounts are taken as having two decimals)
MINOR_UNITS = 100
_ISO_CODE = re.compile(r"^[A-Z]{2}$")
_TRUE = {"true", "yes", "y", "1", "sim", "si", "sí"}
_FALSE = {"false", "no", "n", "0", "nao", "não"}
_UNKNOWN = {"", "unknown", "null", "none", "nan", "?"}


class ScenarioError(InputError):
    """A scenario the engine cannot read; the message names the key and the value."""


@dataclass(frozen=True, slots=True)
class Scenario:
    income: str
    source: str
    residence: str
    date: dt.date | None = None
    amount_minor: int | None = None
    beneficial_owner: bool | None = None
    recipient: str | None = None
    capital_pct: Decimal | None = None
    held_months: int | None = None
    pe_connected: bool | None = None
    payer: str | None = None
    days_present: int | None = None
    employer_resident: str | None = None
    nationality: str | None = None

    @property
    def topic(self) -> str:
        return tables().income_topics[self.income]

    def to_dict(self) -> dict[str, Any]:
        """The scenario in its JSON form (the keys of issue 4; amount as a decimal string)."""
        data = asdict(self)
        minor = data.pop("amount_minor")
        data["amount"] = None if minor is None else format_minor(minor)
        data["date"] = None if self.date is None else self.date.isoformat()
        data["capital_pct"] = None if self.capital_pct is None else str(self.capital_pct)
        return {key: data[key] for key in SCENARIO_KEYS if data[key] is not None}


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
    try:
        return dt.date.fromisoformat(str(value).strip())
    except ValueError:
        raise ScenarioError(f"scenario: {key} must be a date as YYYY-MM-DD (got {value!r})") from None


def read_decimal(key: str, value: Any, low: Decimal, high: Decimal | None) -> Decimal | None:
    if _is_unknown(value):
        return None
    if isinstance(value, bool):
        raise ScenarioError(f"scenario: {key} must be a number (got {value!r})")
    try:
        number = Decimal(str(value).strip().replace(",", "."))
    except InvalidOperation:
        raise ScenarioError(f"scenario: {key} must be a number (got {value!r})") from None
    if not number.is_finite() or number < low or (high is not None and number > high):
        bound = f"between {low} and {high}" if high is not None else f"at least {low}"
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
    number = read_decimal(key, value, Decimal(0), None)
    if number is None:
        return None
    minor = number * MINOR_UNITS
    if minor != minor.to_integral_value():
        raise ScenarioError(f"scenario: {key} has more than two decimals (got {value!r})")
    return int(minor)


def scenario_from(data: Scenario | dict[str, Any]) -> Scenario:
    """Validate a mapping with the keys of issue 4 (or pass a Scenario through)."""
    if isinstance(data, Scenario):
        return data
    if not isinstance(data, dict):
        raise ScenarioError(f"scenario: expected a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(SCENARIO_KEYS))
    if unknown:
        raise ScenarioError(f"scenario: unknown key {unknown[0]!r} (allowed: {', '.join(SCENARIO_KEYS)})")
    t = tables()
    source = read_state("source", data.get("source"), required=True)
    residence = read_state("residence", data.get("residence"), required=True)
    if source == residence:
        raise ScenarioError(f"scenario: source and residence are the same State ({source}); a treaty covers cross-border income")
    return Scenario(
        income=read_choice("income", data.get("income"), tuple(t.income_topics), required=True),  # type: ignore[arg-type]
        source=source,  # type: ignore[arg-type]
        residence=residence,  # type: ignore[arg-type]
        date=read_date("date", data.get("date")),
        amount_minor=read_amount("amount", data.get("amount")),
        beneficial_owner=read_bool("beneficial_owner", data.get("beneficial_owner")),
        recipient=read_choice("recipient", data.get("recipient"), t.recipient_kinds),
        capital_pct=read_decimal("capital_pct", data.get("capital_pct"), Decimal(0), Decimal(100)),
        held_months=read_int("held_months", data.get("held_months"), 0, 12 * 200),
        pe_connected=read_bool("pe_connected", data.get("pe_connected")),
        payer=read_choice("payer", data.get("payer"), t.payer_kinds),
        days_present=read_int("days_present", data.get("days_present"), 0, 366 * 3),
        employer_resident=read_state("employer_resident", data.get("employer_resident")),
        nationality=read_state("nationality", data.get("nationality")),
    )
