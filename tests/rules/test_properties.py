"""Invariants of the engine, over generated scenarios (hypothesis), on seed and synthetic treaties:
- adding a satisfied condition never raises the rate;
- a determined rate is never above the article's general (highest) cap;
- every trace step quotes words that are in the source at its span."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from conftest import FIXTURES, seed_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import taxtreaty
from taxtreaty.provisions import extract_provisions
from taxtreaty.rules import compile_treaty, decide_compiled
from taxtreaty.rules.scenario import Scenario
from taxtreaty.rules.tables import tables


def _compile(path, parties, in_force=None):
    doc = taxtreaty.parse_file(str(path))
    return doc, compile_treaty(doc, extract_provisions(doc, parties), parties, in_force=in_force)


TREATIES = [
    _compile(seed_path("000"), ["PT", "CZ"]),
    _compile(seed_path("002"), None),
    _compile(seed_path("003"), ["PT", "VE"]),
    _compile(FIXTURES / "rules" / "synthetic_pt.txt", ["PT", "BR"], (dt.date(2001, 1, 1), None)),
]
INCOMES = list(tables().income_topics)


def maybe(strategy):
    return st.one_of(st.none(), strategy)


@st.composite
def cases(draw):
    index = draw(st.integers(0, len(TREATIES) - 1))
    _, treaty = TREATIES[index]
    a, b = treaty.parties
    source, residence = draw(st.sampled_from([(a, b), (b, a)]))
    scenario = Scenario(
        income=draw(st.sampled_from(INCOMES)),
        source=source,
        residence=residence,
        date=draw(maybe(st.dates(dt.date(1990, 1, 1), dt.date(2030, 12, 31)))),
        amount_minor=draw(maybe(st.integers(0, 10**12))),
        beneficial_owner=draw(maybe(st.booleans())),
        recipient=draw(maybe(st.sampled_from(tables().recipient_kinds))),
        capital_pct=draw(maybe(st.decimals(0, 100, places=2))),
        held_months=draw(maybe(st.integers(0, 120))),
        pe_connected=draw(maybe(st.booleans())),
        payer=draw(maybe(st.sampled_from(tables().payer_kinds))),
        days_present=draw(maybe(st.integers(0, 366))),
    )
    return index, scenario


def _burden(decision) -> Decimal:
    """How much the source State may take: none 0, a cap its rate, unlimited 100."""
    if decision.source_taxation == "none":
        return Decimal(0)
    if decision.source_taxation == "limited":
        return decision.max_rate_pct
    return Decimal(100)


def _satisfy(scenario: Scenario, rule) -> Scenario | None:
    """`scenario` with the facts of `rule`'s conditions made true where they were not given, or
    raised to the threshold (holdings only grow); None when a condition cannot be added."""
    changes: dict = {}
    for c in rule.conditions:
        current = getattr(scenario, c.fact, None)
        if c.fact == "pe_connected" or c.op == "unknown" or not hasattr(scenario, c.fact):
            return None
        if c.op == "eq" and current is None:
            changes[c.fact] = c.value
        elif c.op == "in" and current is None:
            changes[c.fact] = sorted(c.value)[0]
        elif c.op == "ge" and c.fact in ("capital_pct", "held_months"):
            changes[c.fact] = c.value if current is None else max(current, c.value)
        elif c.op in ("ge", "lt") and c.fact == "date" and current is None:
            changes["date"] = c.value if c.op == "ge" else c.value - dt.timedelta(days=1)
    fields = {name: getattr(scenario, name) for name in scenario.__slots__}
    fields.update(changes)
    return Scenario(**fields)


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(cases(), st.data())
def test_adding_a_satisfied_condition_never_raises_the_rate(case, data):
    index, scenario = case
    _, treaty = TREATIES[index]
    before = decide_compiled(treaty, scenario)
    rules = treaty.topic(scenario.topic)
    if before.status != "determined" or rules is None or not (rules.caps or rules.exemptions):
        return
    rule = data.draw(st.sampled_from([*rules.caps, *rules.exemptions]))
    changed = _satisfy(scenario, rule)
    if changed is None:
        return
    after = decide_compiled(treaty, changed)
    if after.status == "determined":
        assert _burden(after) <= _burden(before), (scenario, changed, rule.cite.eid)


@SETTINGS
@given(cases())
def test_rate_never_above_the_general_cap(case):
    index, scenario = case
    _, treaty = TREATIES[index]
    decision = decide_compiled(treaty, scenario)
    if decision.status == "determined" and decision.source_taxation == "limited":
        rules = treaty.topic(scenario.topic)
        assert rules is not None
        general = max(r.rate for r in rules.caps if r.rate is not None)
        assert decision.max_rate_pct <= general


@SETTINGS
@given(cases())
def test_every_trace_quote_is_in_the_source_at_its_span(case):
    index, scenario = case
    doc, treaty = TREATIES[index]
    decision = decide_compiled(treaty, scenario)
    assert decision.status in ("determined", "indeterminate", "not_covered")
    for step in decision.trace:
        start, end = step.cite.span
        assert doc.original[start:end] == step.cite.quote
        assert step.cite.quote.strip()
    if decision.status == "indeterminate":
        assert decision.missing_facts or decision.reasons


@pytest.mark.parametrize("index", range(len(TREATIES)))
def test_property_treaties_compile_with_their_parties(index):
    _, treaty = TREATIES[index]
    assert len(treaty.parties) == 2
    assert treaty.topic("dividends") is not None
