"""Comparing what a case expects with what the engine or the extractor gave.

Numbers compare as decimals ("10", 10, 10.0 and Decimal("10.00") are the same rate), dates as
dates (a YAML date equals its ISO string), lists of names without regard to order, and an
expected `null` matches a value that is absent or null. Condition and value mappings are checked
as subsets: every key the case names must match; keys it does not name are not checked.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

import regex

from taxtreaty.structure.numbers import article_eid_number

#: the article number inside "10", "art_10", "art_10__para_3", "Article 10(3)", "Art. 8A", "10 bis"
_ARTICLE_NUMBER = regex.compile(r"(?i)(?:^|art(?:igo|icle|[íi]culo)?[._ ]*)(?P<num>\d{1,3}(?:[ ]?(?:bis|ter|quater|[a-z](?![a-z])))?)")


def as_plain(value: Any) -> Any:
    """A decision or provision as plain data: pydantic models, dataclasses and mappings alike."""
    if hasattr(value, "model_dump"):
        return value.model_dump()
    if callable(getattr(value, "to_dict", None)):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


def decimal_or_none(value: Any) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        number = Decimal(str(value).strip().rstrip("%").strip())
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _date_or_none(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            return None
    return None


def same(expected: Any, actual: Any) -> bool:
    """Whether an expected value (as written in a cases file) matches an actual one."""
    actual = as_plain(actual)
    if expected is None:
        return actual is None or actual == [] or actual == {}
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual or (isinstance(actual, str) and str(expected).lower() == actual.lower())
    if isinstance(expected, int | float | Decimal):
        number = decimal_or_none(actual)
        return number is not None and number == Decimal(str(expected))
    expected_date = _date_or_none(expected)
    if expected_date is not None:
        return _date_or_none(actual) == expected_date
    if isinstance(expected, dict):
        return isinstance(actual, dict) and subset_mismatches(expected, actual) == []
    if isinstance(expected, list):
        if not isinstance(actual, list | tuple | set) or len(expected) != len(actual):
            return False
        remaining = list(actual)
        for item in expected:
            match = next((i for i, a in enumerate(remaining) if same(item, a)), None)
            if match is None:
                return False
            remaining.pop(match)
        return True
    if isinstance(expected, str):
        number = decimal_or_none(expected)
        if number is not None and not isinstance(actual, str):
            return decimal_or_none(actual) == number
        return isinstance(actual, str) and expected.strip() == actual.strip()
    return bool(expected == actual)


def subset_mismatches(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """The keys of `expected` whose values `actual` does not match."""
    return [key for key, value in expected.items() if not same(value, actual.get(key))]


def article_key(value: Any) -> str | None:
    """The article number a reference names, lower-cased without spaces ("Art. 8 A" -> "8a"); an
    article numbered in roman numerals as printed ("XVIII") by its arabic value ("18"), as cases
    write it."""
    if value is None:
        return None
    text = article_eid_number(str(value).strip())
    match = _ARTICLE_NUMBER.search(text)
    return match.group("num").replace(" ", "").lower() if match else None


def show(value: Any) -> str:
    """A value as a case writer would type it: 10 rather than Decimal('10'), dates as ISO."""
    value = as_plain(value)
    if isinstance(value, Decimal):
        return format(value.normalize(), "f") if value == value.to_integral_value() else str(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if value is None:
        return "null"
    return str(value)
