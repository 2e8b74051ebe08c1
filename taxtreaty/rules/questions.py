"""The missing facts of an indeterminate decision, asked in the user's words, each answer with the
outcome it leads to.

`explain(treaty, scenario, decision)` decides the scenario again once per possible answer of each
missing fact (a choice's values, yes and no, a number on each side of every bound the article's
rules compare it with) and groups the answers that lead to the same outcome: "25% or more → at
most 5% (art_10__para_2__point_a)". The candidates of the decision then say which values of a
fact select them (`Candidate.fact` / `values`). The questions come from `data/rules/facts.yaml`
(`question`, and the choices' labels). The ledger does not call this (it decides each distinct
case once and needs no questions).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal
from typing import Any

from taxtreaty.rules import labels
from taxtreaty.rules.compile import CompiledTreaty
from taxtreaty.rules.decision import Decision
from taxtreaty.rules.engine import decide_compiled
from taxtreaty.rules.facts import Fact, fact_schema
from taxtreaty.rules.scenario import Scenario

#: a representative just above a strict bound ("more than 25 per cent"), per kind of number
_ABOVE = {"decimal": Decimal("0.01"), "int": 1}
#: answers shown for a State fact besides the two Contracting States
_ANOTHER_STATE = "another State"
#: a name that is none of the names a list prints (the recipient is another institution)
_ANOTHER_NAME = "another institution"


@dataclasses.dataclass(frozen=True)
class _Cut:
    """A point where a number's answer may change: below `value` / from `value` (strict False), or
    up to and including `value` / above it (strict True)."""

    value: Any
    strict: bool


def _conditions(treaty: CompiledTreaty, scenario: Scenario) -> list[Any]:
    rules = [treaty.topic(scenario.topic), treaty.topic("other_income")]
    return [c for r in rules if r is not None
            for rule in (*r.allocations, *r.pe_overrides, *r.exemptions, *r.caps, *r.gaps) for c in rule.conditions]


def _cuts(fact: str, treaty: CompiledTreaty, scenario: Scenario) -> list[_Cut]:
    cuts: set[_Cut] = set()
    for c in _conditions(treaty, scenario):
        if c.op == "period" and fact in ("held_days", "held_months"):
            unit, count = c.value
            if (unit == "days") == (fact == "held_days"):
                cuts.add(_Cut(count, False))
            elif fact == "held_months":  # a period of days, in months: certain from / possible from
                cuts.update(_Cut(m, False) for m in c.bounds)
        elif c.op == "invested" and fact == "invested_amount":
            amount, _, strict = c.value
            cuts.add(_Cut(amount, strict))
        elif c.fact == fact and c.op in ("ge", "lt", "ge_maybe"):
            cuts.update(_Cut(b, False) for b in (c.value if c.op == "ge_maybe" else (c.value,)))
        elif c.fact == fact and c.op in ("gt", "le"):
            cuts.add(_Cut(c.value, True))
    if fact == "date":
        window = treaty.in_force
        for day in (window.effect_from, window.effect_until and window.effect_until + dt.timedelta(days=1)):
            if day is not None:
                cuts.add(_Cut(day, False))
    return sorted(cuts, key=lambda c: (c.value, c.strict))


def _number_text(value: Any) -> str:
    return f"{value.normalize():f}" if isinstance(value, Decimal) else str(value)


def _ranges(fact: Fact, cuts: list[_Cut]) -> list[tuple[Any, str, str]]:
    """(representative, lower words, upper words) of each interval between the cuts."""
    if fact.type == "date":
        low: Any = dt.date(1900, 1, 1)
    else:
        low = fact.low if fact.low is not None else Decimal(0)
        low = int(low) if fact.type == "int" else low
    step = _ABOVE.get(fact.type, Decimal("0.01"))
    out: list[tuple[Any, str, str]] = []
    lower_words = ""
    start = low
    for cut in cuts:
        value = int(cut.value) if fact.type == "int" else cut.value
        upper = f"not more than {_number_text(value)}" if cut.strict else f"less than {_number_text(value)}"
        if cut.strict or value > start:
            out.append((start, lower_words, upper))
        if cut.strict:
            start = value + (dt.timedelta(days=1) if fact.type == "date" else step)
            lower_words = f"more than {_number_text(value)}"
        else:
            start = value
            lower_words = f"at least {_number_text(value)}"
    out.append((start, lower_words, ""))
    return out


def _answers(fact: Fact, treaty: CompiledTreaty, scenario: Scenario) -> list[tuple[Any, str, str]]:
    """(value to try, how the answer reads, how the upper end of a range reads) for each possible
    answer of `fact` (the last is empty but for numbers and dates)."""
    if fact.type == "choice":
        return [(value, label, "") for value, label in fact.choices.items()]
    if fact.type == "bool":
        return [(True, "yes", ""), (False, "no", "")]
    if fact.type == "state":
        states = [s for s in (scenario.source, scenario.residence) if s]
        return [*((s, s, "") for s in states), ("ZZ", _ANOTHER_STATE, "")]
    if fact.type == "text":
        op = "lender_named" if fact.key == "lender_name" else "named"
        names = [n for c in _conditions(treaty, scenario) if c.op == op for n in c.value]
        return [*((n, n, "") for n in dict.fromkeys(names)), (_ANOTHER_NAME, _ANOTHER_NAME, "")]
    if fact.type == "currency":
        currencies = [c.value[1] for c in _conditions(treaty, scenario) if c.op == "invested"]
        return [(c, c, "") for c in dict.fromkeys(currencies)]
    if fact.type in ("decimal", "int", "date"):
        cuts = _cuts(fact.key, treaty, scenario)
        return [(v.isoformat() if isinstance(v, dt.date) else v, lower, upper) for v, lower, upper in _ranges(fact, cuts)] if cuts else []
    return []


def _with(scenario: Scenario, key: str, value: Any) -> Scenario:
    return dataclasses.replace(scenario, **{key: dt.date.fromisoformat(value) if key == "date" else value})


def outcome(decision: Decision) -> dict[str, Any]:
    """What an answer leads to, in the decision's own terms and in words."""
    data: dict[str, Any] = {"status": decision.status, "source_taxation": decision.source_taxation,
                            "max_rate_pct": None if decision.max_rate_pct is None else str(decision.max_rate_pct),
                            "eid": decision.eid}
    if decision.status == "determined":
        rate = f"at most {decision.max_rate_pct.normalize():f}%" if decision.source_taxation == "limited" and decision.max_rate_pct is not None else ""
        words = labels.label("source_taxation", decision.source_taxation or "unlimited")
        data["summary"] = f"{words}{': ' + rate if rate else ''}" + (f" ({decision.eid})" if decision.eid else "")
    elif decision.status == "not_covered":
        data["summary"] = labels.label("statuses", "not_covered")
    else:
        data["summary"] = "still open: " + (", ".join(fact_schema()[f].label.replace("{value}", "…") for f in decision.missing_facts)
                                            if decision.missing_facts else "words of the text the engine could not read")
        data["missing_facts"] = list(decision.missing_facts)
    return data


def _key(result: dict[str, Any]) -> tuple[Any, ...]:
    return result["status"], result["source_taxation"], result["max_rate_pct"], result["eid"]


def _invested_currency(treaty: CompiledTreaty, scenario: Scenario) -> str | None:
    return next((c.value[1] for c in _conditions(treaty, scenario) if c.op == "invested"), None)


def question(treaty: CompiledTreaty, scenario: Scenario, key: str) -> dict[str, Any] | None:
    """The question for one missing fact, each answer with the outcome it leads to (answers that lead
    to the same outcome are merged: the values of a choice, adjacent ranges of a number)."""
    schema = fact_schema()
    if key not in schema:
        return None
    fact = schema[key]
    ranged = fact.type in ("decimal", "int", "date")
    answers: list[dict[str, Any]] = []
    for value, lower, upper in _answers(fact, treaty, scenario):
        trial = _with(scenario, key, value)
        if key == "invested_amount" and scenario.invested_currency is None:
            trial = dataclasses.replace(trial, invested_currency=_invested_currency(treaty, scenario))
        result = outcome(decide_compiled(treaty, trial))
        shown = ("true" if value else "false") if isinstance(value, bool) else _number_text(value)
        if ranged:
            last = answers[-1] if answers else None
            if last is not None and _key(last["leads_to"]) == _key(result):
                last["values"].append(shown)
                last["upper"] = upper
            else:
                answers.append({"value": shown, "values": [shown], "lower": lower, "upper": upper, "leads_to": result})
            continue
        same = next((a for a in answers if _key(a["leads_to"]) == _key(result)), None)
        if same is not None:
            same["values"].append(shown)
            same["label"] += f"; {lower}"
            continue
        answers.append({"value": shown, "values": [shown], "label": lower, "leads_to": result})
    for answer in answers:
        if ranged:
            answer["label"] = " and ".join(w for w in (answer.pop("lower"), answer.pop("upper")) if w) or "any"
    if not answers:
        return None
    asked = {"fact": key, "question": fact.question, "help": fact.help, "type": fact.type, "answers": answers}
    if key == "invested_amount" and scenario.invested_currency is None:
        # the sums are in the text's currency: an answer is that sum with that currency
        asked["assumes"] = {"invested_currency": _invested_currency(treaty, scenario)}
    return asked


def explain(treaty: CompiledTreaty, scenario: Scenario, decision: Decision | None = None) -> Decision:
    """The decision with its questions (one per missing fact) and the values of a fact each
    candidate needs."""
    decision = decision if decision is not None else decide_compiled(treaty, scenario)
    if decision.status != "indeterminate" or not decision.missing_facts:
        return decision
    decision.questions = [q for q in (question(treaty, scenario, f) for f in decision.missing_facts) if q]
    annotated = []
    for candidate in decision.candidates:
        found = None
        for q in decision.questions:
            wanted = (candidate.source_taxation, None if candidate.max_rate_pct is None else str(candidate.max_rate_pct), candidate.eid)
            # a choice's values; a number's range in words ("less than 25")
            ranged = q["type"] in ("decimal", "int", "date")
            values = [v for a in q["answers"] if a["leads_to"]["status"] == "determined"
                      and (a["leads_to"]["source_taxation"], a["leads_to"]["max_rate_pct"], a["leads_to"]["eid"]) == wanted
                      for v in ([a["label"]] if ranged else a["values"])]
            if values:
                found = dataclasses.replace(candidate, fact=q["fact"], values=tuple(values))
                break
        annotated.append(found or candidate)
    decision.candidates = annotated
    return decision


__all__ = ["explain", "outcome", "question"]
