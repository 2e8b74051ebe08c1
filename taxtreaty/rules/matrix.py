"""The rate matrix: decisions of the engine over canonical scenarios, by direction.

Every cell is the answer of `decide_compiled` to one scenario, so the matrix can never say what
`ask` would not (issue 13): a cell is `{treaty, source, residence, income, variant, scenario,
status, source_taxation, max_rate_pct, eid, missing_facts, applies_from}`, and anyone can check
it with `taxtreaty ask --treaty ID --scenario` on its `scenario`.

The canonical scenarios per income are built from what the treaty itself distinguishes, never
from a fixed list of rates:
- dividends: a portfolio holding (an individual, the beneficial owner); a qualifying holding at
  each threshold the text gives (`capital_pct` at the bound, with the holding period the text
  asks for); each recipient kind a rule names (a government, a central bank);
- interest and royalties: the general case; each kind of recipient, loan or royalty a rule names;
- other income: an individual.
Exemptions come out as 0% (`source_taxation: none`) because that is what the decision says.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from taxtreaty.rules.compile import CompiledTreaty, TopicRules
from taxtreaty.rules.engine import decide_compiled
from taxtreaty.rules.facts import fact_schema
from taxtreaty.rules.scenario import scenario_from

#: the incomes of the matrix, in column order, with the facts of their general case
INCOMES: dict[str, dict[str, Any]] = {
    "dividends": {"beneficial_owner": True, "recipient": "individual"},
    "interest": {"beneficial_owner": True, "recipient": "company", "payer": "company"},
    "royalties": {"beneficial_owner": True, "recipient": "company"},
    "other_income": {"recipient": "individual"},
}
#: choice facts whose values a rule may single out, each giving a variant of its own
_VARIANT_FACTS = ("recipient", "loan_kind", "royalty_kind", "income_subtype")
#: recipient kinds that are not a variant of their own (the general case covers them)
_PLAIN_RECIPIENTS = {"individual", "company", "partnership"}


@dataclass(frozen=True)
class Cell:
    treaty: str
    source: str
    residence: str
    income: str
    variant: str
    scenario: dict[str, Any]
    status: str
    source_taxation: str | None
    max_rate_pct: str | None
    eid: str | None
    article: str | None
    missing_facts: list[str] = field(default_factory=list)
    applies_from: str | None = None
    reasons: list[str] = field(default_factory=list)
    language: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "treaty": self.treaty, "source": self.source, "residence": self.residence, "income": self.income,
            "variant": self.variant, "scenario": dict(self.scenario), "status": self.status,
            "source_taxation": self.source_taxation, "max_rate_pct": self.max_rate_pct, "eid": self.eid,
            "article": self.article, "missing_facts": list(self.missing_facts), "applies_from": self.applies_from,
            "reasons": list(self.reasons), "language": self.language, "shown": self.shown,
        }

    @property
    def shown(self) -> str:
        """The cell as a practitioner reads it: "5%", "0% (no source tax)", "no limit", "? (depends on: Share
        of the payer’s capital held (%))" (the missing facts by their short labels, facts.yaml `field`)."""
        if self.status == "not_covered":
            return "not covered"
        if self.status == "indeterminate":
            if not self.missing_facts:
                return "?"
            schema = fact_schema()
            return "? (depends on: " + "; ".join(schema[f].field if f in schema else f for f in self.missing_facts) + ")"
        if self.source_taxation == "none":
            return "0% (no source tax)"
        if self.source_taxation == "unlimited":
            return "no limit"
        return f"{self.max_rate_pct}%" if self.max_rate_pct is not None else "?"


def _rules(topic: TopicRules) -> list[Any]:
    return [*topic.allocations, *topic.exemptions, *topic.caps, *topic.gaps]


def _bounds(topic: TopicRules, fact: str) -> list[Any]:
    """The thresholds rules of a topic test a numeric fact against (`ge`, or the sure bound of
    a three-valued range)."""
    found = set()
    for rule in _rules(topic):
        for condition in rule.conditions:
            if condition.op == "period" and fact in ("held_months", "held_days"):
                unit, count = condition.value  # a holding period, in months or in days
                if (unit == "days") == (fact == "held_days"):
                    found.add(count)
                continue
            if condition.fact != fact:
                continue
            if condition.op in ("ge", "gt"):
                found.add(condition.value)
            elif condition.op == "ge_maybe":
                found.add(condition.value[0])
    return sorted(found)


def _singled_out(topic: TopicRules, fact: str) -> list[str]:
    """Values of a choice fact that some rule of the topic tests for."""
    values: set[str] = set()
    for rule in _rules(topic):
        for condition in rule.conditions:
            if condition.fact != fact:
                continue
            if condition.op == "eq" and isinstance(condition.value, str):
                values.add(condition.value)
            elif condition.op == "in" and not set(condition.value) & _PLAIN_RECIPIENTS:
                # a rule for named kinds only (government, central bank), not one that widens the
                # general case (a company, which a bank also is)
                values.update(str(v) for v in condition.value)
    return sorted(values)


#: how a variant that singles out a value of a choice fact is headed ("loan: a sale on credit ...")
_VARIANT_HEADS = {"recipient": "recipient", "loan_kind": "loan", "royalty_kind": "royalty for"}


def _variant_words(fact: str, value: str) -> str:
    """"recipient: the central bank", "royalty for: computer software": the value by its label in facts.yaml."""
    choices = fact_schema()[fact].choices
    return f"{_VARIANT_HEADS.get(fact, fact.replace('_', ' '))}: {choices.get(value, value.replace('_', ' '))}"


def _variants(income: str, topic: TopicRules | None) -> list[tuple[str, dict[str, Any]]]:
    general = dict(INCOMES[income])
    variants: list[tuple[str, dict[str, Any]]] = [("portfolio" if income == "dividends" else "general", general)]
    if topic is None:
        return variants
    if income == "dividends":
        held = {"held_months": max(_bounds(topic, "held_months"), default=None),
                "held_days": max(_bounds(topic, "held_days"), default=None)}
        for bound in _bounds(topic, "capital_pct") + [b for b in _bounds(topic, "voting_pct")
                                                    if b not in _bounds(topic, "capital_pct")]:
            facts = {"beneficial_owner": True, "recipient": "company", "capital_pct": str(bound),
                     "voting_pct": str(bound), **{k: v for k, v in held.items() if v is not None}}
            variants.append((f"qualifying holding {bound}%", facts))
    for fact in _VARIANT_FACTS:
        for value in _singled_out(topic, fact):
            if fact == "recipient" and value in _PLAIN_RECIPIENTS:
                continue
            if fact == "income_subtype":
                variants.append((f"kind: {value.replace('_', ' ')}", {**general, "income_subtype": value}))
            else:
                variants.append((_variant_words(fact, value), {**general, fact: value}))
    return variants


def _applies_from(treaty: CompiledTreaty, source: str) -> str | None:
    window = treaty.in_force
    by_state = window.effect_from_by_state.get(source)
    if by_state is not None:
        return by_state[0].isoformat()
    return window.effect_from.isoformat() if window.effect_from else None


Decide = Callable[[dict[str, Any]], dict[str, Any]]


def _engine(treaty: CompiledTreaty) -> Decide:
    return lambda scenario: decide_compiled(treaty, scenario_from(scenario)).to_dict()


def treaty_cells(treaty: CompiledTreaty, as_of: dt.date | None = None, decide: Decide | None = None,
                 name: str | None = None) -> list[Cell]:
    """Every cell of one treaty, in both directions. `decide` is the surface's own way to answer
    a scenario (HTTP's `/ask`, say), so its matrix shows exactly what it answers; by default the
    engine on `treaty`."""
    if len(treaty.parties) != 2:
        return []
    decide = decide or _engine(treaty)
    date = (as_of or dt.date.today()).isoformat()
    cells: list[Cell] = []
    for source, residence in (treaty.parties, tuple(reversed(treaty.parties))):
        for income in INCOMES:
            topic = treaty.topic(income)
            for variant, facts in _variants(income, topic):
                if "income_subtype" in facts:
                    continue  # a kind the scenario cannot state (yet): no cell claims to answer it
                scenario = {"income": income, "source": source, "residence": residence, "date": date, **facts}
                decision = decide(scenario)
                rate = decision.get("max_rate_pct")
                cells.append(Cell(
                    treaty=name or treaty.name, source=source, residence=residence, income=income, variant=variant,
                    scenario=scenario, status=decision["status"], source_taxation=decision.get("source_taxation"),
                    max_rate_pct=None if rate is None else str(rate), eid=decision.get("eid"),
                    article=decision.get("article_applied"), missing_facts=list(decision.get("missing_facts") or []),
                    applies_from=_applies_from(treaty, source), reasons=list(decision.get("reasons") or []),
                    language=decision.get("language"),
                ))
    return cells


def rate_matrix(treaties: Iterable[CompiledTreaty], as_of: dt.date | None = None,
                country: str | None = None) -> list[Cell]:
    """The cells of every treaty (of `country` only, when given)."""
    out: list[Cell] = []
    for treaty in treaties:
        if country and country.upper() not in treaty.parties:
            continue
        out.extend(treaty_cells(treaty, as_of))
    return out


COLUMNS = ("dividends: portfolio", "dividends: qualifying holding", "interest", "royalties", "other income")


def column_of(cell: Cell) -> str:
    """The summary column a cell belongs in (special recipients and kinds go in the notes)."""
    if cell.income == "dividends":
        if cell.variant == "portfolio":
            return COLUMNS[0]
        if cell.variant.startswith("qualifying holding"):
            return COLUMNS[1]
        return "notes"
    if cell.variant == "general":
        return {"interest": COLUMNS[2], "royalties": COLUMNS[3], "other_income": COLUMNS[4]}[cell.income]
    return "notes"


def to_csv_rows(cells: Iterable[Cell]) -> tuple[list[str], list[list[str]]]:
    """One line per cell (a long table a spreadsheet can pivot)."""
    header = ["treaty", "source", "residence", "income", "variant", "status", "max_rate_pct", "source_taxation",
              "eid", "article", "missing_facts", "applies_from", "scenario"]
    rows = []
    for c in cells:
        rows.append([c.treaty, c.source, c.residence, c.income, c.variant, c.status, c.max_rate_pct or "",
                     c.source_taxation or "", c.eid or "", c.article or "", " ".join(c.missing_facts),
                     c.applies_from or "", ";".join(f"{k}={v}" for k, v in c.scenario.items())])
    return header, rows


def grouped(cells: Iterable[Cell]) -> list[dict[str, Any]]:
    """Cells as rows of treaty × direction, with the summary columns and the other variants as
    notes: the shape of `GET /rates`, the web table and `rates --format table`."""
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    for cell in cells:
        key = (cell.treaty, cell.source, cell.residence)
        row = rows.setdefault(key, {"treaty": cell.treaty, "source": cell.source, "residence": cell.residence,
                                    "cells": {}, "notes": []})
        column = column_of(cell)
        if column == "notes" or column in row["cells"]:
            row["notes"].append(cell.to_dict())
        else:
            row["cells"][column] = cell.to_dict()
    return list(rows.values())
