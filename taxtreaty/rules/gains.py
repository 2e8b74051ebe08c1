"""The tests of a capital gains paragraph (OECD article 13) on a scenario's facts.

A paragraph of the article is for one kind of property (`gain_property`: immovable property, the movable
property of a permanent establishment or fixed base, ships or aircraft, shares, or any other property), read
from its subject words by `provisions/gains.py`; a paragraph on shares may turn on the share of their value
derived from immovable property (`immovable_value_pct`) or on the alienator's participation in the company
(`participation_pct`, the share keys of a capital gains article). None of these facts is ever defaulted: the
decision asks for it.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from taxtreaty.rules import labels
from taxtreaty.rules.facts import fact_schema

if TYPE_CHECKING:
    from taxtreaty.rules.conditions import Condition

#: provision condition keys of a capital gains paragraph, and the rules fact each tests
GAIN_KEYS = ("gain_property", "over_immovable_value_pct", "min_immovable_value_pct", "former_resident",
             "former_resident_within_years", "company_in_source")
#: the share keys of the provisions (a participation in a capital gains article), by how they compare
_PARTICIPATION_OPS = {"min_capital_pct": "ge", "over_capital_pct": "gt", "under_capital_pct": "lt", "max_capital_pct": "le"}
_OPPOSITE_OPS = {"ge": "lt", "gt": "le", "lt": "ge", "le": "gt"}
#: the period, counted back from the alienation, in which a test is met at any time ("at any time during the 12 months
#: preceding the alienation"): no test of its own, the words of the test's labels (its fact is the highest in the period)
LOOKBACK_KEYS = ("lookback_months", "lookback_days")


def _lookback(conditions: dict[str, Any] | None) -> str:
    for key in LOOKBACK_KEYS:
        if conditions and key in conditions:
            unit = "months" if key == "lookback_months" else "days"
            return labels.label("conditions", "lookback", value=conditions[key], unit=unit)
    return ""


def _number(value: Any) -> Decimal:
    return Decimal(str(value))


def _words(number: Decimal) -> str:
    return f"{number.normalize():f}"


def property_words(kinds: list[str]) -> str:
    """The kinds of property in the practitioner's words (facts.yaml's choices of `gain_property`)."""
    choices = fact_schema()["gain_property"].choices
    return " or ".join(choices.get(k, k.replace("_", " ")) for k in kinds)


def gain_test(key: str, value: Any, conditions: dict[str, Any] | None = None) -> Condition:
    """The test of one of `GAIN_KEYS`."""
    from taxtreaty.rules.conditions import Condition

    if key == "gain_property":
        kinds = [str(v) for v in ([value] if isinstance(value, str) else value)]
        words = property_words(kinds)
        # a fact that chooses the paragraph: never defaulted (in_given)
        return Condition("gain_property", "in_given", frozenset(kinds), labels.label("conditions", "gain_property", kinds=words),
                         labels.label("conditions", "gain_property_not", kinds=words))
    if key in _EMIGRANT_TESTS:
        return _emigrant_test(key, value)
    number = _number(value)
    which = "over" if key.startswith("over_") else "min"
    period = _lookback(conditions)
    return Condition("immovable_value_pct", "gt" if which == "over" else "ge", number,
                     labels.label("conditions", f"immovable_value_{which}", value=_words(number)) + period,
                     labels.label("conditions", f"immovable_value_{which}_not", value=_words(number)) + period)


#: the tests of a right kept on a former resident's gains ("derived by an individual who ... has been a resident of
#: the first-mentioned State in the course of the last five years preceding the alienation", "a company ... which
#: under the laws of that State is a resident of that State"): (fact, operator, label key)
_EMIGRANT_TESTS = {"former_resident": ("former_source_resident", "eq", "former_resident"),
                   "former_resident_within_years": ("source_residence_ended_years", "le", "former_resident_within"),
                   "company_in_source": ("company_state", "eq_source", "company_in_source")}


def _emigrant_test(key: str, value: Any) -> Condition:
    from taxtreaty.rules.conditions import Condition

    fact, op, words = _EMIGRANT_TESTS[key]
    operand: Any = _number(value) if op == "le" else True
    shown = _words(operand) if op == "le" else ""
    return Condition(fact, op, operand, labels.label("conditions", words, value=shown),
                     labels.label("conditions", f"{words}_not", value=shown))


def participation_test(key: str, value: Any, conditions: dict[str, Any] | None = None) -> Condition:
    """A share held in a capital gains article: the alienator's participation in the company whose shares
    are alienated ("if the recipient of the gain ... had a participation ... of at least 25 per cent in the
    capital of that company", "participación directa en el capital de al menos el 25 por ciento")."""
    from taxtreaty.rules.conditions import Condition

    op = _PARTICIPATION_OPS[key]
    number = _number(value)
    period = _lookback(conditions)
    return Condition("participation_pct", op, number,
                     labels.label("conditions", f"participation_{op}", value=_words(number)) + period,
                     labels.label("conditions", f"participation_{_OPPOSITE_OPS[op]}", value=_words(number)) + period)



def capped(rules: Any, chosen: Any, scenario: Any, decision: Any, defaults_used: set[str]) -> None:
    """The caps of the paragraph whose right the decision applies ("Las ganancias derivadas de la enajenación de
    acciones ... pueden someterse a imposición en este Estado. Sin embargo, el impuesto así exigido no podrá exceder:
    a) del 10 por ciento ... b) del 15 por ciento ..."): a gain capped like a payment, by the paragraph's own caps
    only (a cap of the paragraph on shares says nothing of a gain on immovable property). The participation a cap
    asks is the alienator's, whoever it is: the kind of recipient a holding implies for dividends is no condition."""
    from dataclasses import replace

    from taxtreaty.rules.rates import withholding

    caps = [replace(c, conditions=tuple(x for x in c.conditions if x.fact != "recipient"))
            for c in rules.caps if c.paragraph_eid == chosen.paragraph_eid]
    if not caps:
        return
    withholding(replace(rules, caps=caps, allocations=[], exemptions=[], gaps=[]), scenario, decision, defaults_used)
