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

from taxtreaty.rules import ledger_columns as col
from taxtreaty.rules.compile import CompiledTreaty
from taxtreaty.rules.engine import decide_compiled
from taxtreaty.rules.facts import fact_schema
from taxtreaty.rules.ledger_columns import Codes, Malformed
from taxtreaty.rules.scenario import MINOR_UNITS, Scenario, format_minor, read_fact
from taxtreaty.rules.tables import tables
from taxtreaty.text import InputError

OUTPUT_COLUMNS = (
    "treaty", "status", "source_taxation", "max_rate_pct", "withholding_minor", "article", "eid",
    "missing_facts", "reason",
)
#: every status a row can have: the engine's three, and a row that could not be read
STATUSES = ("determined", "indeterminate", "not_covered", "malformed")
_EPOCH = dt.date(1970, 1, 1)
#: chunks at least this long are read with two threads
_PARALLEL_ROWS = 50_000
_ABSENT = col.ABSENT


#: a threshold just above a bound, for strict comparisons (below any amount's cent)
_JUST_ABOVE = Decimal("1e-9")
#: the shortest and longest calendar month in days: a period of n months is 28n to 31n days
_MONTH_DAYS = (28, 31)


def date_bounds(treaty: Any) -> set[dt.date]:
    """Every day on which a decision of `treaty` may change: its dates of effect (per State too),
    the signature's lower bound, the days its versions begin and those the MLI takes effect."""
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
    if treaty.mli is not None:  # the days the MLI takes effect (versions/mli.py)
        days |= treaty.mli.boundaries()
    return days


def splits(condition: Any) -> dict[str, tuple[Any, ...]]:
    """Every fact a condition reads, with the thresholds its outcome can change at: a ledger
    column split there has one outcome per bucket. Most tests read their own fact
    (`condition.bounds`); a holding period reads the months or the days held, an investment its
    amount and currency, a named institution the recipient's kind and name."""
    op = condition.op
    if op == "period":
        unit, count = condition.value
        shortest, longest = _MONTH_DAYS
        months = (count, count) if unit == "months" else (-(-count // shortest), count // longest)
        days = (count,) if unit == "days" else (count * shortest, count * longest)
        return {"held_months": tuple(sorted(set(months))), "held_days": days}
    if op == "invested":
        amount, _currency, strict = condition.value
        return {"invested_amount": (amount, amount + _JUST_ABOVE) if strict else (amount,), "invested_currency": ()}
    if op == "named":
        return {"recipient": (), "recipient_name": ()}
    if op == "lender_named":
        return {"lender_name": ()}
    if op == "guaranteed":
        return {"loan_guaranteed": (), "loan_kind": ()}
    if op == "eq_where_resident":
        return {condition.fact: (), "residence": ()}
    if op == "eq_where_source":
        return {condition.fact: (), "source": ()}
    return {condition.fact: tuple(condition.bounds)}


def _index(values: list[str], value: str) -> int:
    if value not in values:
        values.append(value)
    return values.index(value)


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


#: fact types read as numbers or dates and bucketed by the rules' thresholds
_BUCKETED = ("decimal", "int", "date")
#: fact types read as codes into a list of values
_CODED = ("bool", "choice", "state", "text", "currency")
#: coded types whose values are not known in advance: one list per evaluator, shared by chunks
_OPEN_VOCABULARY = ("text", "currency")


class LedgerEvaluator:
    """Compiled once for a TreatyBook; `evaluate(chunk)` is called for every chunk of rows.

    The columns it reads are the facts of the fact schema (data/rules/facts.yaml): numbers and
    dates are bucketed, yes/no facts, choices, States, texts and currencies are read as codes;
    `amount` gives the withholding. Other columns pass through.
    """

    def __init__(self, book: TreatyBook) -> None:
        self.book = book
        self.schema = fact_schema()
        self.income_values = list(self.schema["income"].choices)
        facts = self.schema.facts
        self.bucketed = [k for k, f in facts.items() if f.type in _BUCKETED and not f.exact]
        # a number used as a value (a rate given for a "lesser of" limb) is read value by value, as a code
        self.coded = [k for k, f in facts.items() if (f.type in _CODED or f.exact) and not f.required]
        self._choices: dict[str, list[Any]] = {
            k: [False, True] if facts[k].type == "bool" else list(facts[k].choices) if facts[k].type == "choice" else []
            for k in self.coded}
        self._bounds = self._collect_bounds()
        self._relevant = self._relevance()
        if len(self._relevant) > 62:  # pragma: no cover - a schema of more than 62 facts
            raise InputError("ledger: the fact schema has more facts than one relevance word holds")
        #: the same table as one integer per (treaty, income) group, a bit per fact
        self._fact_bit = {fact: bit for bit, fact in enumerate(self._relevant)}
        self._relevant_bits = np.zeros(len(self.book.treaties) * len(self.income_values), dtype=np.int64)
        for fact, bit in self._fact_bit.items():
            self._relevant_bits |= self._relevant[fact].astype(np.int64) << bit
        #: outcomes by (treaty, codes): a case seen in one chunk is not decided again in the next
        self._memo: dict[tuple[Any, ...], Outcome] = {}
        self.decided = 0

    # -- preparation, once per treaty book ----------------------------------------------------
    def _collect_bounds(self) -> dict[str, list[Any]]:
        bounds: dict[str, set[Any]] = {fact: set() for fact in self.bucketed}
        for treaty in (v for t in self.book.treaties for v in t.all_versions()):
            for rules in treaty.topics.values():
                for rule in (*rules.allocations, *rules.pe_overrides, *rules.exemptions, *rules.caps, *rules.gaps):
                    for condition in rule.conditions:
                        for fact, found in splits(condition).items():
                            if fact in bounds:
                                bounds[fact].update(found)
                for threshold in rules.thresholds:  # "not exceeding 183 days": splits at 184
                    if isinstance(threshold.values.get("days"), int) and "days_present" in bounds:
                        bounds["days_present"].add(int(threshold.values["days"]) + 1)
            bounds["date"].update(date_bounds(treaty))
        return {fact: sorted(values) for fact, values in bounds.items()}

    def _relevance(self) -> dict[str, np.ndarray]:
        """relevant[fact][treaty * n_income + income] -> does any rule read that fact?"""
        n_income = len(self.income_values)
        relevant = {f: np.zeros(len(self.book.treaties) * n_income, dtype=bool) for f in (*self.bucketed, *self.coded)}
        topics_of = tables().income_topics
        for t, treaty in enumerate(self.book.treaties):
            for i, income in enumerate(self.income_values):
                facts: set[str] = set()
                for version in treaty.all_versions():
                    for topic in (topics_of[income], "other_income"):
                        rules = version.topic(topic)
                        if rules is not None:
                            facts |= rules.facts()
                            facts |= {fact for rule in (*rules.allocations, *rules.pe_overrides, *rules.exemptions,
                                                        *rules.caps, *rules.gaps)
                                      for condition in rule.conditions for fact in splits(condition)}
                if any(date_bounds(v) for v in treaty.all_versions()):
                    facts.add("date")
                facts.add("recipient")  # the PE exception picks article 7 or 14 by recipient kind
                for fact in facts & set(relevant):
                    relevant[fact][t * n_income + i] = True
        return relevant

    def _numeric_bounds(self, fact: str) -> np.ndarray:
        values = self._bounds[fact]
        if self.schema[fact].type == "date":
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
            return first - dt.timedelta(days=1) if self.schema[fact].type == "date" else first - 1
        return values[bucket - 1]

    # -- evaluation ----------------------------------------------------------------------------
    def _tasks(self, df: pd.DataFrame, decimal: str) -> dict[str, Any]:
        """One reader per fact column (and the amount), each with its own error collector."""
        n = len(df)
        facts = self.schema.facts

        def coded(column: str, choices: list[Any]) -> Any:
            fact = facts[column]

            def read(value: Any) -> Any:
                if fact.exact and isinstance(value, str) and decimal != ".":
                    value = value.replace(decimal, ".")
                return read_fact(fact, value)

            def task() -> tuple[Any, Codes, list[Any]]:
                own = Codes(n)
                return col.categorical(df, column, read, own, choices), own, choices
            return task

        def numeric(column: str) -> Any:
            fact = facts[column]

            def task() -> tuple[Any, Codes, None]:
                own = Codes(n)
                if fact.type == "date":
                    return col.dates(df, own, column), own, None
                low = fact.low if fact.low is not None else Decimal(0)
                high = fact.high if fact.high is not None else (Decimal(10**9) if fact.type == "int" else None)
                return col.numeric(df, column, own, low, high, fact.type == "int", decimal), own, None
            return task

        def amount() -> tuple[Any, Codes, None]:
            own = Codes(n)
            return col.amount_minor(df, own, decimal), own, None

        tasks: dict[str, Any] = {"income": coded("income", list(self.income_values)), "source": coded("source", []),
                                 "residence": coded("residence", [])}
        for key in self.coded:
            kind = facts[key].type
            tasks[key] = coded(key, [] if kind == "state" else self._choices[key])
        for key in self.bucketed:
            tasks[key] = numeric(key)
        tasks["amount"] = amount
        return tasks

    def evaluate(self, df: pd.DataFrame, first_line: int | np.ndarray = 2, unit: str = "line", *,
                 decimal: str = ".", rejected: dict[int, tuple[str, str]] | None = None,
                 ) -> tuple[pd.DataFrame, list[Malformed]]:
        """The chunk with the output columns added.

        `first_line` is the line (CSV) or row (Parquet) number of its first row, or an array of
        every row's number (a CSV record may span lines); `unit` says which. `decimal` is the
        decimal mark of numbers written as text. `rejected` (row index -> (column, message))
        marks rows found bad before their values were read (a line with too many fields).
        """
        n = len(df)
        codes = Codes(n)
        if rejected:
            codes.flag_rows(rejected)

        # 1. read the columns, two at a time (Arrow and numpy release the GIL); each task flags
        # errors in its own collector, merged below in a fixed column order so that a row with
        # several bad values always reports the same one
        tasks = self._tasks(df, decimal)
        if n >= _PARALLEL_ROWS:
            with ThreadPoolExecutor(max_workers=2) as pool:
                futures = {name: pool.submit(task) for name, task in tasks.items()}
                parsed = {name: future.result() for name, future in futures.items()}
        else:
            parsed = {name: task() for name, task in tasks.items()}

        # one list of States for every State column (codes are remapped into it)
        states: list[str] = []
        state_facts = ["source", "residence", *(k for k in self.coded if self.schema[k].type == "state")]
        for name in state_facts:
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
        for name, values in (("income", income), ("source", source), ("residence", residence)):
            if np.ndim(values) == 0:
                raise InputError(f"ledger: missing column {name!r}")
        codes.flag(income < 0, "income", "is required")
        codes.flag(source < 0, "source", "is required (an ISO 3166 alpha-2 code)")
        codes.flag(residence < 0, "residence", "is required (an ISO 3166 alpha-2 code)")
        codes.flag((source >= 0) & (source == residence), "residence", "is the same State as source")
        for name in (*self.coded, *self.bucketed, "amount"):
            codes.merge(parsed[name][1])
        amount_minor = value("amount")
        malformed = codes.bad

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
            # another State column (employer, nationality) matters only as "the source State",
            # "the residence State" or "another State"
            if np.ndim(values) == 0:
                return values
            return np.where(values < 0, -1, np.where(values == source, 0, np.where(values == residence, 1, 2)))

        columns: dict[str, tuple[np.ndarray, int]] = {}
        for fact in self.bucketed:
            values = value(fact)
            missing = values == col.MISSING_DAY if self.schema[fact].type == "date" else np.isnan(values)
            columns[fact] = col.bucket(values, self._numeric_bounds(fact), missing), len(self._bounds[fact]) + 1
        for fact in self.coded:
            kind = self.schema[fact].type
            if kind == "state":
                columns[fact] = relation(value(fact)), 3
            else:
                columns[fact] = value(fact), max(len(parsed[fact][2]), 1)
        key = group.astype(np.int64)
        span = max(1, len(self.book.treaties) * n_income)
        masked: dict[str, Any] = {}
        #: facts some but not all of this chunk's (treaty, income) groups read: blanked per row
        partly: list[str] = []
        row_bits: np.ndarray | None = None
        present = np.bincount(group[covered], minlength=len(self.book.treaties) * n_income) > 0
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
            digit = values.astype(np.int64) + 2
            if not table.all():
                partly.append(fact)
                if row_bits is None:
                    row_bits = self._relevant_bits[group]
                digit *= (row_bits >> self._fact_bit[fact]) & 1
            if span * (cardinality + 2) >= 2**62:  # the key would overflow: number its distinct values again
                key, distinct = pd.factorize(key)
                key, span = key.astype(np.int64), max(1, len(distinct))
            span *= cardinality + 2
            key *= cardinality + 2
            key += digit
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
                outcome = self._memo[memo] = self._decide(dict(zip(names, codes_of_case, strict=True)), states,
                                                          {k: parsed[k][2] for k in self.coded})
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
                line = int(first_line[i]) if isinstance(first_line, np.ndarray) else first_line + int(i)
                bad_rows.append(Malformed(line, column, message, unit))
                reason.set_row(int(i), str(bad_rows[-1]))

        withholding, limited = _withholding(outcomes, row_codes, amount_minor)
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

    def _decide(self, facts: dict[str, int], states: list[str], vocabularies: dict[str, Any]) -> Outcome:
        """Decide one distinct case from its codes (bucket representatives, None when blanked)."""
        source, residence = states[facts["source"]], states[facts["residence"]]
        given: dict[str, Any] = {"income": self.income_values[facts["income"]], "source": source, "residence": residence}
        for fact in self.bucketed:
            given[fact] = self._representative(fact, facts[fact])
        for fact in self.coded:
            code = facts[fact]
            if code < 0:
                continue
            if self.schema[fact].type == "state":
                given[fact] = (source, residence, "ZZ")[code]
            else:
                given[fact] = vocabularies[fact][code]
        return outcome_of(decide_compiled(self.book.treaties[facts["treaty"]], Scenario(**given)))


def _withholding(outcomes: list[Outcome], row_codes: np.ndarray, amount_minor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """amount × rate / 100, rounded down to the minor unit (never above the cap), per row; and
    where it applies. `engine.withholding_minor` is the same rule for one decision."""
    numerators = np.array([o.rate.numerator if o.rate is not None else -1 for o in outcomes], dtype=np.int64)[row_codes]
    denominators = np.array([o.rate.denominator if o.rate is not None else 1 for o in outcomes], dtype=np.int64)
    limited = (numerators >= 0) & (amount_minor >= 0)
    np.maximum(numerators, 0, out=numerators)
    amounts = np.where(limited, amount_minor, 0)
    if (denominators == 1).all():  # whole-number rates: amount × rate // 100
        scale = np.full(len(row_codes), 100, dtype=np.int64)
    else:
        scale = denominators[row_codes] * 100
    safe = amounts <= (2**62) // np.maximum(numerators, 1)
    withholding = amounts * np.where(safe, numerators, 0) // scale
    for i in np.flatnonzero(~safe):  # a product past 64 bits: exact in Python integers
        withholding[i] = int(amounts[i]) * int(numerators[i]) // int(scale[i])
    withholding[~limited] = 0
    return withholding, limited


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
