"""What the deciding modules share: a rule's three-valued check on a scenario, the outcomes of the
allocations, and how a pending rule's unknowns become missing facts or unread words.

`missing_facts` only ever holds keys of the fact schema that the scenario does not give (a user can
state them); words of the text that no fact answers go to `Decision.unread` with their eId.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from taxtreaty.rules import labels
from taxtreaty.rules.compile import Rule, TopicRules
from taxtreaty.rules.conditions import Condition
from taxtreaty.rules.decision import Decision, TraceEntry
from taxtreaty.rules.scenario import Scenario
from taxtreaty.structure import eids

ALLOCATION_OUTCOME = {
    # allocation -> (source taxation, residence taxation, assumption the outcome rests on)
    "residence_only": ("none", "exclusive", None),
    "effective_management_only": ("none", "exclusive", "effective_management"),
    "source_may_tax": ("unlimited", "shared", None),
    # "pueden someterse a imposición en ese Estado" (the residence State, not exclusively): the source State
    # keeps its own right
    "residence_may_tax": ("unlimited", "shared", None),
    "source_only": ("unlimited", "none", None),
    "paying_state_only": ("unlimited", "none", "paying_state"),
    "exempt_in_host": ("none", "exclusive", None),
}
SOURCE_ALLOCATIONS = ("source_may_tax", "source_only")


def allocation_effect(allocation: str | None) -> str:
    return labels.label("allocations", allocation) if allocation and labels.has("allocations", allocation) else "rule"


class Check:
    """The three-valued result of a rule's conditions on a scenario."""

    __slots__ = ("failed", "holds", "unknown")

    def __init__(self, rule: Rule, scenario: Scenario, defaults_used: set[str]) -> None:
        self.failed: list[Condition] = []
        self.unknown: list[Condition] = []
        for condition in rule.conditions:
            value = condition.evaluate(scenario, defaults_used)
            if value is False:
                self.failed.append(condition)
            elif value is None:
                self.unknown.append(condition)
        self.holds: bool | None = False if self.failed else (None if self.unknown else True)

    def failed_words(self) -> str:
        return "; ".join(dict.fromkeys(c.failed_label for c in self.failed))

    def unknown_words(self) -> str:
        return " and ".join(dict.fromkeys(c.label for c in self.unknown))


def effect(kind: str, check: Check, **words: str) -> str:
    """The trace's words for a rule of `kind` (exemption, cap, pe, allocation) by its check."""
    if check.failed:
        return labels.label("effects", f"{kind}_not_met", conditions=check.failed_words(), **words)
    if check.unknown:
        return labels.label("effects", f"{kind}_pending", conditions=check.unknown_words(), **words)
    if labels.has("effects", f"{kind}_held"):
        return labels.label("effects", f"{kind}_held", **words)
    return labels.label("effects", f"{kind}_pending", conditions="its conditions are met", **words)


def pct(rate: Decimal | None) -> str:
    return "?" if rate is None else f"{rate.normalize():f}%"


def when(rule: Rule) -> str:
    return " and ".join(c.label for c in rule.conditions) or "always"


def missing(checks: Iterable[Check], scenario: Scenario) -> list[str]:
    """The schema facts the scenario does not give that the checks' unknowns wait on."""
    facts: list[str] = []
    for check in checks:
        for condition in check.unknown:
            fact = condition.missing_fact(scenario)
            if fact is not None and fact not in facts:
                facts.append(fact)
    return facts


def note_unknowns(decision: Decision, pending: Iterable[tuple[Rule, Check]], scenario: Scenario) -> None:
    """Missing facts (schema keys only) and the words no fact answers (`unread`, with their eId), for
    the rules an indeterminate decision waits on."""
    pending = list(pending)
    for fact in missing((c for _, c in pending), scenario):
        if fact not in decision.missing_facts:
            decision.missing_facts.append(fact)
    for rule, check in pending:
        for condition in check.unknown:
            if condition.missing_fact(scenario) is not None:
                continue
            # words not read, or a test the facts given cannot settle: named, never a fact to give
            quote = str(condition.value) if condition.fact == "unread_condition" else condition.label
            decision.add_unread(rule.cite.eid, quote)


def depends_on(decision: Decision, pending: Iterable[tuple[Rule, Check]]) -> None:
    """One reason saying what the answer depends on, in words."""
    words = dict.fromkeys(c.label for _, check in pending for c in check.unknown)
    if words:
        decision.reasons.append("the answer depends on whether " + "; or whether ".join(words))


def displaces(rule: Rule, other: Rule) -> bool:
    """`rule` names `other`'s paragraph or item among those it overrides ("*" is any provision of
    the convention, which is not a displacement of one cap by another)."""
    eid = other.cite.eid
    return any(eids.within(eid, o) for o in rule.overrides if o != "*")


def exempting(rule: Rule) -> bool:
    """An exemption, or a residence-only exception of a rate article (the same effect at source)."""
    return rule.kind == "exemption" or rule.allocation == "residence_only"


def truncation_note(rules: TopicRules, decision: Decision) -> None:
    if rules.truncated is not None:
        where = "at" if rules.truncated_inside else "after"
        decision.trace.append(TraceEntry(rules.truncated, f"the article is cut off {'here' if rules.truncated_inside else 'after this paragraph'}; the rest is not in the source"))
        decision.reasons.append(
            f"article {rules.article} is cut off {where} {rules.truncated.eid}; the rest of the article is missing, "
            "but the paragraphs that decide this case are complete"
        )


def apply_caveats(decision: Decision, rule: Rule) -> None:
    """The provisos of the rule the answer rests on (and the trace step that quotes them)."""
    decision.add_caveats(rule.caveats)


def gap_reason(rule: Rule, decision: Decision) -> str:
    """Why a gap keeps the answer open: text missing from the source, or words that are there but
    that no reader could turn into a rate or rule (those are also the decision's `unread` words)."""
    if rule.values.get("words_unread"):
        decision.add_unread(rule.cite.eid, rule.cite.quote)
        return f"{rule.cite.eid} [{rule.cite.language}]: {rule.reason or 'its words could not be read'}"
    return f"{rule.cite.eid} [{rule.cite.language}]: {rule.reason or 'the words are missing'}; source text incomplete"
