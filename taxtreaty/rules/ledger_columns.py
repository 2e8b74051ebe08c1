"""Read the columns of a ledger chunk into numpy arrays, flagging the first bad value of each row.

Each reader takes a pandas column (text as printed, or typed values from Parquet) and returns
codes or numbers, one per row, with "not given" as -1 / NaN. A value that cannot be read marks
its row in a `Codes` collector with the column and what was wrong; the evaluator (ledger.py)
turns those rows into `malformed` output rows. Text columns are read through their distinct
values (each read once), so a million rows cost a few thousand reads.

Numbers are read with one decimal mark (`.` or `,`) and the other mark, a space or a no-break
space as optional thousands grouping: with `,` as the decimal mark, `1.000,50` and `1 000,50`
are 1000.5; `1,000.50` is not a number (the run's mark was given or detected for the file, see
ledger_read.py).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd

from taxtreaty.rules.scenario import _UNKNOWN, MAX_AMOUNT, MINOR_UNITS, ScenarioError, read_amount, read_date
from taxtreaty.text import InputError

_EPOCH = dt.date(1970, 1, 1)
#: days since 1970 of a date not given
MISSING_DAY = np.int64(-(2**62))
#: a column the ledger does not have: every row "not given" (a scalar, broadcast where used)
ABSENT = np.int64(-1)
_UNKNOWN_SPELLINGS = sorted({v for u in _UNKNOWN for v in (u, u.upper(), u.capitalize())})
#: at most this share of distinct values: read each distinct value once instead of every row
_FEW_DISTINCT = 20
_SAMPLE_ROWS = 10_000
DECIMAL_MARKS = (".", ",")
#: thousands grouping allowed besides the other decimal mark: space, no-break and narrow no-break
_GROUP_SPACES = " \u00a0\u202f"


@dataclass
class Malformed:
    line: int
    column: str
    message: str
    #: "line" for CSV (the header is line 1), "row" for Parquet (the first row is row 1)
    unit: str = "line"

    def __str__(self) -> str:
        column = f"{self.column}: " if self.column else ""
        return f"{self.unit} {self.line}: {column}{self.message}"


class Codes:
    """The first error found on each row of a chunk (kept only for the rows that have one)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.bad = np.zeros(n, dtype=bool)
        self.errors: dict[int, tuple[str, str]] = {}

    def merge(self, other: Codes) -> None:
        """Take `other`'s errors for the rows that have none yet."""
        if not other.errors:
            return
        fresh = other.bad & ~self.bad
        self.bad |= fresh
        for i in np.flatnonzero(fresh):
            self.errors[int(i)] = other.errors[int(i)]

    def flag(self, bad: np.ndarray, column: str, messages: np.ndarray | str) -> None:
        if not bad.any():
            return
        fresh = bad & ~self.bad
        self.bad |= fresh
        for i in np.flatnonzero(fresh):
            message = messages[i] if isinstance(messages, np.ndarray) else messages
            self.errors[int(i)] = (column, str(message))

    def flag_rows(self, rows: dict[int, tuple[str, str]]) -> None:
        """Errors found before the columns were read (a line with too many fields)."""
        for i, error in rows.items():
            if not self.bad[i]:
                self.bad[i] = True
                self.errors[i] = error


# -- numbers as printed ---------------------------------------------------------------------------

def number_pattern(decimal: str) -> str:
    """A number written with `decimal` as its decimal mark (RE2 and Python `re` syntax alike)."""
    if decimal not in DECIMAL_MARKS:
        raise InputError(f"the decimal mark is '.' or ',' (got {decimal!r})")
    group = "[" + re.escape(DECIMAL_MARKS[1 - DECIMAL_MARKS.index(decimal)] + _GROUP_SPACES) + "]"
    mark = re.escape(decimal)
    return rf"^[+-]?([0-9]+|[0-9]{{1,3}}({group}[0-9]{{3}})+)?({mark}[0-9]+)?$"


def _groups(decimal: str) -> str:
    return DECIMAL_MARKS[1 - DECIMAL_MARKS.index(decimal)] + _GROUP_SPACES


def read_number(text: str, decimal: str) -> float:
    """`text` (already stripped) as a float; ValueError when it is not a number in that notation."""
    if not text or not re.fullmatch(number_pattern(decimal), text) or not any(c.isdigit() for c in text):
        raise ValueError(text)
    for mark in _groups(decimal):
        text = text.replace(mark, "")
    return float(text.replace(",", "."))


def is_text(series: pd.Series) -> bool:
    return series.dtype == object or isinstance(series.dtype, pd.StringDtype) or str(series.dtype) == "str"


def _is_text_unknown(values: pd.Series) -> np.ndarray:
    stripped = values.astype("string").str.strip()
    return (values.isna() | stripped.isin(_UNKNOWN_SPELLINGS)).to_numpy(dtype=bool)


def _by_distinct(series: pd.Series, reader: Any, missing: Any, dtype: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Read each distinct value of a low-cardinality text column once: (values, unknown, bad)."""
    raw_codes, uniques = pd.factorize(series, use_na_sentinel=True)
    if len(uniques) * _FEW_DISTINCT > max(len(series), 1000):
        return None
    values = np.full(len(uniques) + 1, missing, dtype=dtype)
    unknown = np.zeros(len(uniques) + 1, dtype=bool)
    bad = np.zeros(len(uniques) + 1, dtype=bool)
    unknown[-1] = True
    for i, raw in enumerate(uniques):
        text = str(raw).strip()
        if text.casefold() in _UNKNOWN:
            unknown[i] = True
            continue
        try:
            values[i] = reader(text)
        except (ValueError, ArithmeticError):
            bad[i] = True
    return values[raw_codes], unknown[raw_codes], bad[raw_codes]


def _numbers_of_text(raw: pd.Series, decimal: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(values, unknown, bad) of a text column of many distinct numbers, in column operations."""
    import pyarrow as pa
    import pyarrow.compute as pc

    unknown = _is_text_unknown(raw)
    text = pc.utf8_trim_whitespace(pa.array(raw.astype("string").to_numpy(dtype=object, na_value=None), type=pa.string()))
    valid = pc.and_(pc.match_substring_regex(text, number_pattern(decimal)), pc.match_substring_regex(text, "[0-9]"))
    plain = text
    for mark in _groups(decimal):
        plain = pc.replace_substring(plain, mark, "")
    if decimal == ",":
        plain = pc.replace_substring(plain, ",", ".")
    chosen = pc.if_else(pc.fill_null(valid, False), plain, pa.scalar(None, pa.string()))
    values = pc.cast(chosen, pa.float64()).to_numpy(zero_copy_only=False)
    values = np.where(unknown, np.nan, values)
    bad = ~unknown & np.isnan(values)
    return values, unknown, bad


def factorize(series: pd.Series) -> tuple[np.ndarray, Any]:
    """Codes (-1 for NA) and distinct values of a text column.

    Arrow-backed text is looked up in the distinct values of a leading sample (a small hash
    set, about twice as fast as encoding the whole column); values the sample missed are
    added in a second pass, so the result is exact whatever the sample.
    """
    arrow = getattr(series.array, "_pa_array", None)
    if arrow is None:
        return pd.factorize(series, use_na_sentinel=True)
    import pyarrow as pa
    import pyarrow.compute as pc

    column = pa.chunked_array(arrow)
    values = column.slice(0, _SAMPLE_ROWS).unique().drop_null()
    for _ in range(2):
        found = pc.index_in(column, value_set=values)
        if found.null_count == column.null_count:  # every non-null value is in the set
            codes = pc.fill_null(found, -1).to_numpy() if found.null_count else found.to_numpy()
            break
        codes = pc.fill_null(found, -1).to_numpy()
        unseen = (codes < 0) & column.is_valid().to_numpy()
        extra = column.filter(pa.array(unseen)).unique().drop_null()
        values = pa.concat_arrays([values, extra.combine_chunks() if isinstance(extra, pa.ChunkedArray) else extra])
    return codes, values.to_pylist()


# -- the column readers ---------------------------------------------------------------------------

def categorical(df: pd.DataFrame, column: str, reader: Any, codes: Codes, choices: list[Any]) -> np.ndarray:
    """Factorize a text column, read each distinct value once, return indexes into `choices`."""
    if column not in df.columns:
        return ABSENT
    raw_codes, uniques = factorize(df[column])
    lookup = np.full(len(uniques) + 1, -1, dtype=np.int16)  # last slot: NA
    errors: dict[int, str] = {}
    for i, raw in enumerate(uniques):
        try:
            value = reader(raw)
        except InputError as exc:
            errors[i] = str(exc).removeprefix("scenario: ")
            continue
        if value is None:
            continue
        if value not in choices:
            choices.append(value)
        lookup[i] = choices.index(value)
    result = lookup[raw_codes]
    for code, message in errors.items():
        codes.flag(raw_codes == code, column, message)
    return result


def _bound_text(low: Any, high: Any) -> str:
    return f"between {low:f} and {high:f}" if high is not None else f"at least {low:f}"


def numeric(df: pd.DataFrame, column: str, codes: Codes, low: Any, high: Any | None, whole: bool,
            decimal: str = ".") -> np.ndarray:
    """A number column as floats (NaN = not given); `low`/`high` are the schema's bounds."""
    if column not in df.columns:
        return np.full(codes.n, np.nan)
    raw = df[column]
    if is_text(raw):
        few = _by_distinct(raw, lambda t: read_number(t, decimal), np.nan, float)
        values, unknown, bad = few if few is not None else _numbers_of_text(raw, decimal)
        codes.flag(bad | (~unknown & ~np.isfinite(values) & ~np.isnan(values)), column,
                   f"not a number (with {decimal!r} as the decimal mark)")
        values = np.where(np.isfinite(values), values, np.nan)
    else:
        values = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
    known = ~np.isnan(values)
    out_of_range = known & ((values < float(low)) | (values > float(high) if high is not None else False))
    codes.flag(out_of_range, column, f"must be {_bound_text(low, high)}")
    if whole:
        codes.flag(known & (values != np.floor(values)), column, "must be a whole number")
    return values


def dates(df: pd.DataFrame, codes: Codes, column: str = "date") -> np.ndarray:
    """Days since 1970-01-01 as int64; MISSING_DAY when not given. Text dates are YYYY-MM-DD
    only (as the scenario reader takes them: 20240501 is not a date)."""
    if column not in df.columns:
        return np.full(codes.n, MISSING_DAY, dtype=np.int64)
    raw = df[column]
    if not is_text(raw):
        days = pd.to_datetime(raw, errors="coerce").to_numpy(dtype="datetime64[D]")
        return np.where(np.isnat(days), MISSING_DAY, days.astype(np.int64))

    def one(text: str) -> int:
        try:
            day = read_date(column, text)
        except ScenarioError:
            raise ValueError(text) from None
        return (day - _EPOCH).days if day is not None else int(MISSING_DAY)

    few = _by_distinct(raw, one, MISSING_DAY, np.int64)
    if few is not None:
        values, _unknown, bad = few
    else:
        unknown = _is_text_unknown(raw)
        as_text = raw.astype("string").str.strip()
        iso = as_text.str.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}").fillna(False).to_numpy(dtype=bool)
        parsed = pd.to_datetime(as_text.where(pd.Series(~unknown & iso, index=raw.index)), format="%Y-%m-%d", errors="coerce")
        days = parsed.to_numpy(dtype="datetime64[D]")
        bad = ~unknown & np.isnat(days)
        values = np.where(np.isnat(days), MISSING_DAY, days.astype(np.int64))
    codes.flag(bad, column, "must be a date as YYYY-MM-DD")
    return values


def amount_minor(df: pd.DataFrame, codes: Codes, decimal: str = ".") -> np.ndarray:
    """Amounts in exact minor units (int64); -1 when not given. Text is read digit by digit (no
    float in between), up to the scenario's largest amount; a typed (Parquet) column is rounded
    to the cent from its float."""
    if "amount" not in df.columns:
        return np.full(codes.n, -1, dtype=np.int64)
    raw = df["amount"]
    limit = int(MAX_AMOUNT * MINOR_UNITS)
    if not is_text(raw):
        values = numeric(df, "amount", codes, Decimal(0), MAX_AMOUNT, whole=False)
        scaled = values * MINOR_UNITS
        rounded = np.round(scaled)
        codes.flag(~np.isnan(values) & (np.abs(scaled - rounded) > 1e-6 * np.maximum(1, np.abs(scaled))),
                   "amount", "has more than two decimals")
        return np.where(np.isnan(rounded) | (rounded > limit), -1, rounded).astype(np.int64)

    def one(text: str) -> int:
        if not re.fullmatch(number_pattern(decimal), text) or not any(c.isdigit() for c in text):
            raise ValueError(text)
        for mark in _groups(decimal):
            text = text.replace(mark, "")
        try:
            minor = read_amount("amount", text.replace(",", "."))
        except ScenarioError as exc:
            raise ArithmeticError(str(exc)) from None
        return -1 if minor is None else minor

    found = _by_distinct(raw, one, -1, np.int64)
    if found is None:
        found = _amounts_of_text(raw, decimal)
    values, unknown, bad = found
    codes.flag(bad, "amount", f"not an amount from 0 to {MAX_AMOUNT:f} with at most two decimals "
                              f"(with {decimal!r} as the decimal mark)")
    return np.where(unknown | bad, -1, values).astype(np.int64)


def _amounts_of_text(raw: pd.Series, decimal: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(minor units, unknown, bad) of a text column of many distinct amounts, exactly: the
    integer and the decimal digits are cast to integers separately."""
    import pyarrow as pa
    import pyarrow.compute as pc

    unknown = _is_text_unknown(raw)
    text = pc.utf8_trim_whitespace(pa.array(raw.astype("string").to_numpy(dtype=object, na_value=None), type=pa.string()))
    valid = pc.fill_null(pc.and_(pc.match_substring_regex(text, number_pattern(decimal)),
                                 pc.match_substring_regex(text, "[0-9]")), False)
    plain = text
    for mark in _groups(decimal):
        plain = pc.replace_substring(plain, mark, "")
    plain = pc.if_else(valid, plain, pa.scalar("0", pa.string()))
    plain = pc.replace_substring_regex(plain, "^[+]", "")
    negative = pc.starts_with(plain, "-").to_numpy(zero_copy_only=False)
    parts = pc.split_pattern(plain, decimal, max_splits=1)
    whole = pc.list_element(parts, 0)
    fraction = pc.list_element(pc.if_else(pc.greater(pc.list_value_length(parts), 1), parts,
                                          pa.scalar(["", ""], pa.list_(pa.string()))), 1)
    fraction = pc.utf8_rtrim(fraction, "0")
    too_precise = pc.greater(pc.utf8_length(fraction), 2).to_numpy(zero_copy_only=False)
    whole = pc.if_else(pc.equal(pc.utf8_length(whole), 0), pa.scalar("0", pa.string()), whole)
    too_long = pc.greater(pc.utf8_length(whole), 18).to_numpy(zero_copy_only=False)
    whole = pc.if_else(pc.greater(pc.utf8_length(whole), 18), pa.scalar("0", pa.string()), whole)
    units = pc.cast(whole, pa.int64()).to_numpy(zero_copy_only=False)
    cents = pc.cast(pc.utf8_rpad(pc.if_else(too_precise, pa.scalar("", pa.string()), fraction), 2, "0"),
                    pa.int64()).to_numpy(zero_copy_only=False)
    minor = np.abs(units) * MINOR_UNITS + cents
    bad = ~unknown & (~valid.to_numpy(zero_copy_only=False) | too_precise | too_long | negative
                      | (minor > int(MAX_AMOUNT * MINOR_UNITS)))
    return minor, unknown, bad


def bucket(values: np.ndarray, bounds: np.ndarray, missing: np.ndarray) -> np.ndarray:
    """Number of bounds <= value (so `value >= bounds[k]` iff bucket > k); -1 when not given."""
    if missing.all():
        return ABSENT
    if len(bounds) <= 16:  # a few thresholds: one vectorised comparison each beats a binary search
        buckets = np.zeros(len(values), dtype=np.int16)
        for bound in bounds:
            buckets += values >= bound
    else:
        buckets = np.searchsorted(bounds, values, side="right").astype(np.int16, copy=False)
    buckets[missing] = -1
    return buckets
