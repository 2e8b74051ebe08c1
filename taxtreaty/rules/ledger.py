"""Evaluate a payments ledger: millions of rows, each treaty's rules compiled once.

A ledger is a table whose columns are scenario keys (income, source, residence, date, amount,
beneficial_owner, recipient, capital_pct, held_months, pe_connected, payer, days_present,
employer_resident, nationality); other columns pass through untouched. `evaluate` adds:

    treaty, status, source_taxation, max_rate_pct, withholding_minor, article, eid,
    missing_facts, reason

How it scales (all steps are numpy/pandas column operations, no Python loop over rows):
1. every column is read into small integer codes (-1 = not given); values that cannot be read
   mark the row malformed, with its line number and the column at fault;
2. each row finds its treaty by the unordered (source, residence) pair;
3. numbers and dates are bucketed by the thresholds that appear in any rule (a cap "at least
   25 per cent" splits capital_pct at 25), because a decision only compares facts with them;
4. facts that no rule of that treaty and income type reads are blanked, so they do not split
   groups; the remaining codes form one integer key per row;
5. each distinct key is decided once by the ordinary engine (`decide_compiled`), on a scenario
   built from the bucket's representative values, and the outcome is broadcast back.
The result is identical to deciding each row on its own (tests/test_ledger.py checks it).
"""

from __future__ import annotations

import datetime as dt
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from taxtreaty.rules.compile import CompiledTreaty
from taxtreaty.rules.engine import decide_compiled
from taxtreaty.rules.scenario import MINOR_UNITS, Scenario, format_minor
from taxtreaty.rules.tables import tables
from taxtreaty.text import InputError

OUTPUT_COLUMNS = (
    "treaty", "status", "source_taxation", "max_rate_pct", "withholding_minor", "article", "eid",
    "missing_facts", "reason",
)
_TRUE = ("true", "yes", "y", "1", "sim", "si", "sí")
_FALSE = ("false", "no", "n", "0", "nao", "não")
_UNKNOWN = ("", "unknown", "null", "none", "nan", "?")
_EPOCH = dt.date(1970, 1, 1)
#: facts bucketed by the thresholds of the rules
_NUMERIC_FACTS = ("capital_pct", "held_months", "days_present", "date")
_CATEGORY_FACTS = ("beneficial_owner", "pe_connected", "recipient", "payer", "employer_resident", "nationality")


@dataclass
class TreatyBook:
    """The compiled treaties a ledger is matched against, by their unordered pair of parties."""

    treaties: list[CompiledTreaty]
    by_pair: dict[frozenset[str], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for index, treaty in enumerate(self.treaties):
            if len(treaty.parties) != 2:
                raise InputError(f"{treaty.name}: the Contracting States are not known; name them (treaties.yaml)")
            pair = frozenset(treaty.parties)
            if pair in self.by_pair:
                other = self.treaties[self.by_pair[pair]].name
                raise InputError(f"two treaties between {'-'.join(sorted(pair))}: {other} and {treaty.name}")
            self.by_pair[pair] = index


@dataclass
class Malformed:
    line: int
    column: str
    message: str
    #: "line" for CSV (the header is line 1), "row" for Parquet (the first row is row 1)
    unit: str = "line"

    def __str__(self) -> str:
        return f"{self.unit} {self.line}: {self.column}: {self.message}"


def _is_text_unknown(values: pd.Series) -> np.ndarray:
    stripped = values.astype("string").str.strip()
    return (values.isna() | stripped.isin(_UNKNOWN_SPELLINGS)).to_numpy(dtype=bool)


_UNKNOWN_SPELLINGS = sorted({v for u in _UNKNOWN for v in (u, u.upper(), u.capitalize())} | {"NaN"})
#: at most this share of distinct values: read each distinct value once instead of every row
_FEW_DISTINCT = 20


def _is_text(series: pd.Series) -> bool:
    return series.dtype == object or isinstance(series.dtype, pd.StringDtype) or str(series.dtype) == "str"


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


class _Codes:
    """The first error found on each row of a chunk (kept only for the rows that have one)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.bad = np.zeros(n, dtype=bool)
        self.errors: dict[int, tuple[str, str]] = {}

    def merge(self, other: _Codes) -> None:
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


def _factorize(series: pd.Series) -> tuple[np.ndarray, Any]:
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


_SAMPLE_ROWS = 10_000


def _index(values: list[str], value: str) -> int:
    if value not in values:
        values.append(value)
    return values.index(value)


#: chunks at least this long are read with two threads
_PARALLEL_ROWS = 50_000

#: a column the ledger does not have: every row "not given" (a scalar, broadcast where used)
_ABSENT = np.int64(-1)


def _categorical(df: pd.DataFrame, column: str, reader: Any, codes: _Codes, choices: list[Any]) -> np.ndarray:
    """Factorize a text column, read each distinct value once, return indexes into `choices`."""
    if column not in df.columns:
        return _ABSENT
    raw_codes, uniques = _factorize(df[column])
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


def _numeric(df: pd.DataFrame, column: str, codes: _Codes, low: float, high: float | None, whole: bool) -> np.ndarray:
    if column not in df.columns:
        return np.full(codes.n, np.nan)
    raw = df[column]
    if _is_text(raw):
        few = _by_distinct(raw, lambda t: float(t.replace(",", ".")), np.nan, float)
        if few is not None:
            values, unknown, bad = few
        else:
            unknown = _is_text_unknown(raw)
            text = raw.astype("string").str.strip().str.replace(",", ".", regex=False)
            values = pd.to_numeric(text.where(~pd.Series(unknown, index=raw.index)), errors="coerce").to_numpy(dtype=float)
            bad = ~unknown & np.isnan(values)
        codes.flag(bad | (~unknown & ~np.isfinite(values) & ~np.isnan(values)), column, "not a number")
        values = np.where(np.isfinite(values), values, np.nan)
    else:
        values = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
    known = ~np.isnan(values)
    out_of_range = known & ((values < low) | (values > high if high is not None else False))
    codes.flag(out_of_range, column, f"must be {'between ' + str(low) + ' and ' + str(high) if high is not None else 'at least ' + str(low)}")
    if whole:
        codes.flag(known & (values != np.floor(values)), column, "must be a whole number")
    return values


def date_bounds(treaty: Any) -> set[dt.date]:
    """Every day on which a decision of `treaty` may change: its dates of effect (per State too),
    the signature's lower bound, and the days its versions begin."""
    window = treaty.in_force
    days = {d for d in (window.effect_from, window.effect_from_latest) if d is not None}
    if window.effect_until is not None:
        days.add(window.effect_until + dt.timedelta(days=1))
    for low, high in window.effect_from_by_state.values():
        days |= {low, high}
    resolved = window.resolved
    if resolved is not None and resolved.not_before is not None:
        days.add(resolved.not_before)
    if treaty.timeline is not None:
        days |= set(treaty.timeline.boundaries())
    return days


def _dates(df: pd.DataFrame, codes: _Codes) -> np.ndarray:
    """Days since 1970-01-01 as int64; -2**62 when not given."""
    missing = np.int64(-(2**62))
    if "date" not in df.columns:
        return np.full(codes.n, missing, dtype=np.int64)
    raw = df["date"]
    if not _is_text(raw):
        days = pd.to_datetime(raw, errors="coerce").to_numpy(dtype="datetime64[D]")
        return np.where(np.isnat(days), missing, days.astype(np.int64))
    few = _by_distinct(raw, lambda t: (dt.date.fromisoformat(t) - _EPOCH).days, missing, np.int64)
    if few is not None:
        values, _unknown, bad = few
    else:
        unknown = _is_text_unknown(raw)
        as_text = raw.astype("string").str.strip()
        parsed = pd.to_datetime(as_text.where(~pd.Series(unknown, index=raw.index)), format="%Y-%m-%d", errors="coerce")
        days = parsed.to_numpy(dtype="datetime64[D]")
        bad = ~unknown & np.isnat(days)
        values = np.where(np.isnat(days), missing, days.astype(np.int64))
    codes.flag(bad, "date", "must be a date as YYYY-MM-DD")
    return values


def _amount_minor(df: pd.DataFrame, codes: _Codes) -> np.ndarray:
    """Amounts in minor units (int64); -1 when not given. Exact for amounts with at most two
    decimals below 10**13: the float product is rounded to the nearest integer."""
    values = _numeric(df, "amount", codes, 0.0, None, whole=False)
    scaled = values * MINOR_UNITS
    rounded = np.round(scaled)
    codes.flag(~np.isnan(values) & (np.abs(scaled - rounded) > 1e-6), "amount", "has more than two decimals")
    codes.flag(~np.isnan(values) & (values >= 1e13), "amount", "too large")
    return np.where(np.isnan(rounded) | (rounded >= 1e15), -1, rounded).astype(np.int64)


def _bucket(values: np.ndarray, bounds: np.ndarray, missing: np.ndarray) -> np.ndarray:
    """Number of bounds <= value (so `value >= bounds[k]` iff bucket > k); -1 when not given."""
    if missing.all():
        return _ABSENT
    if len(bounds) <= 16:  # a few thresholds: one vectorised comparison each beats a binary search
        buckets = np.zeros(len(values), dtype=np.int16)
        for bound in bounds:
            buckets += values >= bound
    else:
        buckets = np.searchsorted(bounds, values, side="right").astype(np.int16, copy=False)
    buckets[missing] = -1
    return buckets


@dataclass(frozen=True)
class Outcome:
    status: str
    source_taxation: str | None
    max_rate_pct: str | None
    rate: Fraction | None
    article: str | None
    eid: str | None
    missing_facts: str
    reason: str


class LedgerEvaluator:
    """Compiled once for a TreatyBook; `evaluate(chunk)` is called for every chunk of rows."""

    def __init__(self, book: TreatyBook) -> None:
        self.book = book
        self.income_values = list(tables().income_topics)
        self.recipients = list(tables().recipient_kinds)
        self.payers = list(tables().payer_kinds)
        self._bounds = self._collect_bounds()
        self._relevant = self._relevance()
        #: the same table as one integer per (treaty, income) group, a bit per fact
        self._fact_bit = {fact: bit for bit, fact in enumerate(self._relevant)}
        self._relevant_bits = np.zeros(len(self.book.treaties) * len(self.income_values), dtype=np.int16)
        for fact, bit in self._fact_bit.items():
            self._relevant_bits |= self._relevant[fact].astype(np.int16) << bit
        #: outcomes by (treaty, codes): a case seen in one chunk is not decided again in the next
        self._memo: dict[tuple[int, ...], Outcome] = {}
        self.decided = 0

    # -- preparation, once per treaty book ----------------------------------------------------
    def _collect_bounds(self) -> dict[str, list[Any]]:
        bounds: dict[str, set[Any]] = {fact: set() for fact in _NUMERIC_FACTS}
        for treaty in (v for t in self.book.treaties for v in t.all_versions()):
            for rules in treaty.topics.values():
                for rule in (*rules.allocations, *rules.pe_overrides, *rules.exemptions, *rules.caps, *rules.gaps):
                    for condition in rule.conditions:
                        if condition.fact in bounds:
                            bounds[condition.fact].update(condition.bounds)
                for threshold in rules.thresholds:  # "not exceeding 183 days": splits at 184
                    if isinstance(threshold.values.get("days"), int):
                        bounds["days_present"].add(int(threshold.values["days"]) + 1)
            bounds["date"].update(date_bounds(treaty))
        return {fact: sorted(values) for fact, values in bounds.items()}

    def _relevance(self) -> dict[str, np.ndarray]:
        """relevant[fact][treaty * n_income + income] -> does any rule read that fact?"""
        n_income = len(self.income_values)
        relevant = {f: np.zeros(len(self.book.treaties) * n_income, dtype=bool) for f in (*_NUMERIC_FACTS, *_CATEGORY_FACTS)}
        topics_of = tables().income_topics
        for t, treaty in enumerate(self.book.treaties):
            for i, income in enumerate(self.income_values):
                facts: set[str] = set()
                for version in treaty.all_versions():
                    for topic in (topics_of[income], "other_income"):
                        rules = version.topic(topic)
                        if rules is not None:
                            facts |= rules.facts()
                if any(date_bounds(v) for v in treaty.all_versions()):
                    facts.add("date")
                facts.add("recipient")  # the PE exception picks article 7 or 14 by recipient kind
                for fact in facts & set(relevant):
                    relevant[fact][t * n_income + i] = True
        return relevant

    def _numeric_bounds(self, fact: str) -> np.ndarray:
        values = self._bounds[fact]
        if fact == "date":
            return np.array([(v - _EPOCH).days for v in values], dtype=np.int64)
        return np.array([float(v) for v in values], dtype=float)

    def _representative(self, fact: str, bucket: int) -> Any:
        if bucket < 0:
            return None
        values = self._bounds[fact]
        if not values:
            return None
        if bucket == 0:
            first = values[0]
            return first - dt.timedelta(days=1) if fact == "date" else first - 1
        return values[bucket - 1]

    # -- evaluation ----------------------------------------------------------------------------
    def evaluate(self, df: pd.DataFrame, first_line: int = 2, unit: str = "line") -> tuple[pd.DataFrame, list[Malformed]]:
        """The chunk with the output columns added; `first_line` is the line (CSV) or row
        (Parquet) number of its first row, `unit` says which."""
        n = len(df)
        codes = _Codes(n)
        from taxtreaty.rules.scenario import read_bool, read_choice, read_state

        # 1. read the columns, two at a time (Arrow and numpy release the GIL); each task flags
        # errors in its own collector, merged below in a fixed column order so that a row with
        # several bad values always reports the same one
        def categorical(column: str, reader: Any, choices: list[Any]) -> Any:
            def task() -> tuple[Any, _Codes, list[Any]]:
                own = _Codes(n)
                return _categorical(df, column, reader, own, choices), own, choices
            return task

        def numeric(parse: Any, *args: Any) -> Any:
            def task() -> tuple[Any, _Codes, None]:
                own = _Codes(n)
                return parse(df, *args, own) if args else parse(df, own), own, None
            return task

        tasks = {
            "income": categorical("income", lambda v: read_choice("income", v, tuple(self.income_values)), list(self.income_values)),
            "source": categorical("source", lambda v: read_state("source", v), []),
            "residence": categorical("residence", lambda v: read_state("residence", v), []),
            "beneficial_owner": categorical("beneficial_owner", lambda v: read_bool("beneficial_owner", v), [False, True]),
            "pe_connected": categorical("pe_connected", lambda v: read_bool("pe_connected", v), [False, True]),
            "recipient": categorical("recipient", lambda v: read_choice("recipient", v, tuple(self.recipients)), list(self.recipients)),
            "payer": categorical("payer", lambda v: read_choice("payer", v, tuple(self.payers)), list(self.payers)),
            "employer_resident": categorical("employer_resident", lambda v: read_state("employer_resident", v), []),
            "nationality": categorical("nationality", lambda v: read_state("nationality", v), []),
            "capital_pct": numeric(lambda d, c: _numeric(d, "capital_pct", c, 0.0, 100.0, whole=False)),
            "held_months": numeric(lambda d, c: _numeric(d, "held_months", c, 0.0, 2400.0, whole=True)),
            "days_present": numeric(lambda d, c: _numeric(d, "days_present", c, 0.0, 1098.0, whole=True)),
            "date": numeric(_dates),
            "amount": numeric(_amount_minor),
        }
        if n >= _PARALLEL_ROWS:
            with ThreadPoolExecutor(max_workers=2) as pool:
                futures = {name: pool.submit(task) for name, task in tasks.items()}
                parsed = {name: future.result() for name, future in futures.items()}
        else:
            parsed = {name: task() for name, task in tasks.items()}

        # one list of States for every State column (codes are remapped into it)
        states: list[str] = []
        for name in ("source", "residence", "employer_resident", "nationality"):
            values, own, local = parsed[name]
            if np.ndim(values) == 0:
                continue
            remap = np.array([*(_index(states, s) for s in local), -1], dtype=np.int16)
            parsed[name] = (remap[values], own, states)

        def value(name: str) -> Any:
            return parsed[name][0]

        for name in ("income", "source", "residence"):
            codes.merge(parsed[name][1])
        income, source, residence = value("income"), value("source"), value("residence")
        if np.ndim(income) == 0 or np.ndim(source) == 0 or np.ndim(residence) == 0:
            raise InputError(f"ledger: missing column {'income' if np.ndim(income) == 0 else 'source' if np.ndim(source) == 0 else 'residence'!r}")
        codes.flag(income < 0, "income", "is required")
        codes.flag(source < 0, "source", "is required (an ISO 3166 alpha-2 code)")
        codes.flag(residence < 0, "residence", "is required (an ISO 3166 alpha-2 code)")
        codes.flag((source >= 0) & (source == residence), "residence", "is the same State as source")
        for name in ("beneficial_owner", "pe_connected", "recipient", "payer", "employer_resident", "nationality",
                     "capital_pct", "held_months", "days_present", "date", "amount"):
            codes.merge(parsed[name][1])
        bo, pe, recipient, payer = value("beneficial_owner"), value("pe_connected"), value("recipient"), value("payer")
        employer, nationality = value("employer_resident"), value("nationality")
        capital, held, days = value("capital_pct"), value("held_months"), value("days_present")
        date_days, amount_minor = value("date"), value("amount")
        malformed = codes.bad
        income, source, residence = (np.broadcast_to(v, (n,)) if np.ndim(v) == 0 else v for v in (income, source, residence))

        # 2. the treaty of each row, through a small (source, residence) table
        n_states = len(states)
        pair_table = np.full((n_states + 1, n_states + 1), -1, dtype=np.int64)
        for a in range(n_states):
            for b in range(n_states):
                pair_table[a, b] = self.book.by_pair.get(frozenset((states[a], states[b])), -1) if a != b else -1
        treaty = pair_table[source, residence]
        covered = (treaty >= 0) & ~malformed

        # 3-4. bucket, blank irrelevant facts, build one integer key
        n_income = len(self.income_values)
        group = np.where(covered, treaty * n_income + income, 0)

        def relation(values: np.ndarray) -> np.ndarray:
            # employer residence / nationality matter only as "the source State", "the residence
            # State" or "another State"
            if np.ndim(values) == 0:
                return values
            return np.where(values < 0, -1, np.where(values == source, 0, np.where(values == residence, 1, 2)))

        def bucketed(fact: str, values: np.ndarray, missing: np.ndarray) -> tuple[np.ndarray, int]:
            return _bucket(values, self._numeric_bounds(fact), missing), len(self._bounds[fact]) + 1

        columns: dict[str, tuple[np.ndarray, int]] = {
            "capital_pct": bucketed("capital_pct", capital, np.isnan(capital)),
            "held_months": bucketed("held_months", held, np.isnan(held)),
            "days_present": bucketed("days_present", days, np.isnan(days)),
            "date": bucketed("date", date_days, date_days == -(2**62)),
            "beneficial_owner": (bo, 2),
            "pe_connected": (pe, 2),
            "recipient": (recipient, len(self.recipients)),
            "payer": (payer, len(self.payers)),
            "employer_resident": (relation(employer), 3),
            "nationality": (relation(nationality), 3),
        }
        key = group.astype(np.int64)
        span = 1
        masked: dict[str, Any] = {}
        #: facts some but not all of this chunk's (treaty, income) groups read: blanked per row
        partly: list[str] = []
        row_bits: np.ndarray | None = None
        present = np.bincount(group, minlength=len(self.book.treaties) * n_income) > 0
        for fact, (values, cardinality) in columns.items():
            if np.ndim(values) == 0:  # a column the ledger lacks: "not given" on every row, no split
                masked[fact] = values
                continue
            table = self._relevant[fact][present]
            if not table.any():  # no rule of any treaty and income in this chunk reads it
                masked[fact] = np.int64(-2)
                continue
            masked[fact] = values
            # the digit of this fact in the key: its code + 2, or 0 (= blanked, -2 + 2) where the
            # group does not read it; one gather of every group's relevance bits serves all facts
            digit = values + 2
            if not table.all():
                partly.append(fact)
                if row_bits is None:
                    row_bits = self._relevant_bits[group]
                digit *= (row_bits >> self._fact_bit[fact]) & 1
            span *= cardinality + 2
            key *= cardinality + 2
            key += digit
        if span * max(1, len(self.book.treaties) * n_income) >= 2**62:  # pragma: no cover - huge vocabularies
            raise InputError("ledger: too many distinct thresholds to evaluate in one pass")
        key[~covered] = -1

        # 5. decide each distinct key once
        row_codes, uniques = pd.factorize(key)
        representative = np.empty(len(uniques), dtype=np.int64)
        representative[row_codes] = np.arange(n)
        # the codes of each representative row, taken column by column (not row by row)
        picked = {
            name: (np.full(len(representative), values, dtype=np.int64) if np.ndim(values) == 0 else values[representative]).tolist()
            for name, values in (*masked.items(), ("treaty", treaty), ("income", income), ("source", source),
                                 ("residence", residence))
        }
        if partly:  # blank, on the representatives only, the facts their group does not read
            picked_group = group[representative]
            for fact in partly:
                picked[fact] = np.where(self._relevant[fact][picked_group], masked[fact][representative], -2).tolist()
        outcomes: list[Outcome] = []
        names = tuple(picked)
        source_at, residence_at = names.index("source"), names.index("residence")
        for u, codes_of_case in enumerate(zip(*picked.values(), strict=True)):
            if uniques[u] < 0:  # rows without a treaty or malformed: outputs stay empty
                outcomes.append(_NO_OUTCOME)
                continue
            # state codes are per chunk: the memo keys on the codes and the States they stand for
            memo = (*codes_of_case, states[codes_of_case[source_at]], states[codes_of_case[residence_at]])
            outcome = self._memo.get(memo)
            if outcome is None:
                outcome = self._memo[memo] = self._decide(dict(zip(names, codes_of_case, strict=True)), states)
                self.decided += 1
            outcomes.append(outcome)

        status = _Column([o.status for o in outcomes], row_codes)
        reason = _Column([o.reason for o in outcomes], row_codes)
        no_treaty = ~malformed & (treaty < 0)
        if no_treaty.any():
            status.set(no_treaty, "not_covered")
            pair = np.where(no_treaty, source * (n_states + 1) + residence, -1)
            for code in np.unique(pair[no_treaty]):
                a, b = divmod(int(code), n_states + 1)
                reason.set(pair == code, f"no treaty between {states[a]} and {states[b]} in the treaty set")
        bad_rows: list[Malformed] = []
        if malformed.any():
            status.set(malformed, "malformed")
            for i in np.flatnonzero(malformed):
                column, message = codes.errors[int(i)]
                bad_rows.append(Malformed(first_line + int(i), column, message, unit))
                reason.set_row(int(i), str(bad_rows[-1]))

        group_numerators = np.array([o.rate.numerator if o.rate is not None else -1 for o in outcomes], dtype=np.int64)
        group_denominators = np.array([o.rate.denominator if o.rate is not None else 1 for o in outcomes], dtype=np.int64)
        numerators = group_numerators[row_codes]
        limited = (numerators >= 0) & (amount_minor >= 0)
        np.maximum(numerators, 0, out=numerators)
        if (group_denominators == 1).all():  # whole-number rates: amount × rate // 100
            withholding = amount_minor * numerators // 100
        else:
            withholding = amount_minor * numerators // (group_denominators[row_codes] * 100)
        withholding[~limited] = 0
        added: dict[str, Any] = {
            "treaty": _Column([t.name for t in self.book.treaties], np.where(covered, treaty, -1)).categorical(),
            "status": status.categorical(),
            "withholding_minor": pd.arrays.IntegerArray(withholding, ~limited),
            "reason": reason.categorical(),
        }
        for name in ("source_taxation", "max_rate_pct", "article", "eid", "missing_facts"):
            added[name] = _Column([getattr(o, name) for o in outcomes], row_codes).categorical()
        result = df.copy(deep=False)
        for name in OUTPUT_COLUMNS:
            result[name] = added[name]
        return result, bad_rows

    def _decide(self, facts: dict[str, int], states: list[str]) -> Outcome:
        """Decide one distinct case from its codes (bucket representatives, None when blanked)."""
        source, residence = states[facts["source"]], states[facts["residence"]]

        def category(fact: str, choices: list[Any]) -> Any:
            value = facts[fact]
            return choices[value] if value >= 0 else None

        def relation(fact: str) -> str | None:
            value = facts[fact]
            return None if value < 0 else (source, residence, "ZZ")[value]

        scenario = Scenario(
            income=self.income_values[facts["income"]],
            source=source,
            residence=residence,
            date=self._representative("date", facts["date"]),
            beneficial_owner=category("beneficial_owner", [False, True]),
            recipient=category("recipient", self.recipients),
            capital_pct=self._representative("capital_pct", facts["capital_pct"]),
            held_months=self._representative("held_months", facts["held_months"]),
            pe_connected=category("pe_connected", [False, True]),
            payer=category("payer", self.payers),
            days_present=self._representative("days_present", facts["days_present"]),
            employer_resident=relation("employer_resident"),
            nationality=relation("nationality"),
        )
        return outcome_of(decide_compiled(self.book.treaties[facts["treaty"]], scenario))


class _Column:
    """An output column as codes into a short list of distinct values (a pandas Categorical):
    broadcasting one value per decided group to a million rows costs one integer take."""

    def __init__(self, values: list[Any], row_codes: np.ndarray) -> None:
        index: dict[Any, int] = {None: -1}
        # one code per group, and a last slot -1 that a row code of -1 (no group) picks
        listed = [index.setdefault(value, len(index) - 1) for value in values]
        listed.append(-1)
        group_codes = np.array(listed, dtype=np.int32 if len(values) > 30000 else np.int16)
        del index[None]
        self.categories: list[Any] = list(index)
        self._index = index
        self.codes = group_codes[row_codes]

    def _code(self, value: Any) -> int:
        if value is None:
            return -1
        if value not in self._index:
            self._index[value] = len(self.categories)
            self.categories.append(value)
            if len(self.categories) > np.iinfo(self.codes.dtype).max:  # one reason per malformed row
                self.codes = self.codes.astype(np.int32)
        return self._index[value]

    def set(self, rows: np.ndarray, value: Any) -> None:
        self.codes[rows] = self._code(value)

    def set_row(self, row: int, value: Any) -> None:
        self.codes[row] = self._code(value)

    def categorical(self) -> pd.Categorical:
        return pd.Categorical.from_codes(self.codes, categories=pd.Index(self.categories, dtype=object))


_NO_OUTCOME = Outcome("", None, None, None, None, None, None, "")


@lru_cache(maxsize=1024)
def _fraction(rate: Decimal) -> Fraction:
    """The exact rate as a fraction (a few distinct rates in any treaty set: each converted once)."""
    return Fraction(Decimal(rate))


def outcome_of(decision: Any) -> Outcome:
    rate = decision.max_rate_pct if decision.status == "determined" and decision.source_taxation in ("limited", "none") else None
    reasons = list(decision.reasons)
    return Outcome(
        status=decision.status,
        source_taxation=decision.source_taxation,
        max_rate_pct=None if decision.max_rate_pct is None else str(decision.max_rate_pct),
        rate=None if rate is None else _fraction(rate),
        article=decision.article_applied,
        eid=decision.eid,
        missing_facts=",".join(decision.missing_facts),
        reason="; ".join(reasons),
    )


def withholding_text(minor: pd.Series) -> pd.Series:
    """Int64 minor units -> decimal strings ("150.00"); empty when not computed."""
    known = minor.notna()
    out = pd.Series("", index=minor.index, dtype=object)
    if known.any():
        values = minor[known].astype(np.int64)
        out[known] = [format_minor(int(v)) for v in values] if len(values) < 1000 else (
            (values // MINOR_UNITS).astype(str) + "." + (values % MINOR_UNITS).astype(str).str.zfill(2)
        ).to_numpy(dtype=object)
    return out
