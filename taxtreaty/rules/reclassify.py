"""A protocol point that sends a kind of payment to the articles of profits (or to another payment article).

"Payments received as a consideration for technical services ... are payments to which the
provisions of Article 7 or Article 14 apply": where the payment is of that kind, the payment
article's rates do not apply; the business-profits article (the independent-services article for
an individual, when the convention has one) decides, as it decides any profits (taxable only in the
residence State unless connected with a permanent establishment in the source State). Where the
kind is not given, the decision is indeterminate between the two, asking for it. A point treating interest on
profit-sharing bonds as dividends (`values.reclassified_topic`) sends it to the dividend article's own rules.
"""

from __future__ import annotations

import copy
from functools import cache

from taxtreaty.rules import labels
from taxtreaty.rules.allocate import allocation
from taxtreaty.rules.compile import CompiledTreaty, Rule, TopicRules
from taxtreaty.rules.decision import Candidate, Decision, TraceEntry
from taxtreaty.rules.evaluate import Check, depends_on, effect, note_unknowns, when
from taxtreaty.rules.rates import pe_exception, withholding
from taxtreaty.rules.scenario import Scenario


@cache
def _kind_facts() -> frozenset[str]:
    """The facts that tell a payment's kind (royalty_kind, loan_kind, ...): a point's kind, not a fact of its own."""
    return frozenset({"income_subtype", *(m.fact for m in labels.subtype_facts().values())})


def _target(treaty: CompiledTreaty, rule: Rule, scenario: Scenario) -> TopicRules | None:
    to_topic = rule.values.get("reclassified_topic")  # "article 10 is applicable to such income": the dividends
    if to_topic:
        found = treaty.topic(str(to_topic))
        return found if found is not None and found.article_eid is not None else None
    topics = ["independent_services", "business_profits"] if scenario.recipient == "individual" else ["business_profits"]
    numbers = [str(n) for n in rule.values.get("reclassified_to") or []]
    for topic in topics:
        target = treaty.topic(topic)
        if target is not None and target.article_eid is not None and (not numbers or target.article in numbers):
            return target
    return None


def _profits(treaty: CompiledTreaty, target: TopicRules, rule: Rule, scenario: Scenario, decision: Decision,
             defaults_used: set[str]) -> None:
    defined_for = rule.values.get("defined_for")  # "en el caso de Argentina, las regalías incluyen asimismo ..."
    effect_label = labels.label("effects", "defined_for_other", article=target.article, state=defined_for) if defined_for \
        else labels.label("effects", "outside_definition", article=target.article) if rule.values.get("outside_definition") \
        else labels.label("effects", "reclassified_topic", topic=labels.topic(target.topic).lower(), article=target.article) \
        if rule.values.get("reclassified_topic") else labels.label("effects", "reclassified", article=target.article)
    decision.trace.append(TraceEntry(rule.cite, effect_label))
    decision.article_applied = target.article
    decision.language = target.language
    decision.add_caveats(rule.caveats)  # "in case one of the States subjects the income ... to a tax on dividends"
    if rule.values.get("reclassified_topic") and (target.caps or target.exemptions):
        # a payment article's own rules, as the engine applies them (its PE switch, then its rates)
        if not pe_exception(treaty, target, scenario, decision, defaults_used):
            withholding(target, scenario, decision, defaults_used)
        return
    allocation(treaty, target, scenario, decision, defaults_used)


def pending_reclassification(treaty: CompiledTreaty, rules: TopicRules, scenario: Scenario, decision: Decision,
                             defaults_used: set[str]) -> tuple[Rule, Check, Decision] | bool | None:
    """True when a reclassification holds (the decision made under the profits article); the rule,
    its check and the profits answer when it may hold (the kind not given); None otherwise."""
    for rule in rules.allocations:
        if not rule.values.get("reclassified_to") and not rule.values.get("outside_definition"):
            continue
        used: set[str] = set()
        check = Check(rule, scenario, used)
        if check.holds is not False or all(c.fact in used for c in check.failed):
            defaults_used |= used  # (a default a failed condition of its own makes irrelevant is not assumed)
        target = _target(treaty, rule, scenario)
        if check.holds is True and target is None and rule.values.get("outside_definition"):
            # fees for technical services under an article whose definition of royalties does not name them, in a
            # text with no profits article (a fragment): no royalty, and the article that decides is not there
            decision.status = "indeterminate"
            decision.trace.append(TraceEntry(rule.cite, labels.label("effects", "outside_definition", article="7 of the OECD Model")))
            decision.reasons.append(f"{rule.cite.eid}: the definition of royalties does not name this kind of payment, so the "
                                    "business-profits article decides it, and that article is not in the source text; "
                                    "source text incomplete")
            return True
        if check.holds is False and target is not None and check.failed and not any(
                c.fact in _kind_facts() or c.fact in ("source", "residence") for c in check.failed):
            # the payment is of the kind the point names, and a fact given keeps it here ("the fee is computed on
            # production, sales, performance, profits"): the article's rates decide, the point cited
            decision.trace.append(TraceEntry(rule.cite, effect("pe", check)))
        if check.holds is False or target is None:
            if check.holds is not False and rule.values.get("reclassified_to"):
                decision.reasons.append(f"{rule.cite.eid} sends this income to article "
                                        f"{' or '.join(str(n) for n in rule.values['reclassified_to'])}, which is not in the source text")
            continue
        if check.holds:
            _profits(treaty, target, rule, scenario, decision, defaults_used)
            return True
        other = Decision(status="determined")
        _profits(treaty, target, rule, scenario, other, set())
        decision.trace.append(TraceEntry(rule.cite, effect("pe", check)))
        return rule, check, other
    return None


def settle(pending: tuple[Rule, Check, Decision], scenario: Scenario, decision: Decision) -> None:
    """The payment article's answer made one candidate beside the profits article's."""
    rule, check, other = pending
    if rule.values.get("outside_definition") and decision.status == "determined":
        return  # a kind the definition does not name, the kind not given: the user said royalties, the article's answer
    if decision.status == other.status == "determined" and (decision.source_taxation, decision.max_rate_pct) == (
            other.source_taxation, other.max_rate_pct):
        return  # both articles give the same answer (a payment connected with a permanent establishment)
    if decision.status == "determined":
        # not the kind the point names, or a fact it names the other way ("the fee is computed on production ...")
        other_way = "; or ".join(dict.fromkeys(c.failed_label for c in check.unknown
                                               if c.failed_label and c.fact not in _kind_facts()))
        decision.candidates.append(Candidate(decision.source_taxation or "unknown", decision.max_rate_pct, decision.eid,
                                             other_way or "the payment is not of the kind the protocol sends to the profits article"))
    decision.status = "indeterminate"
    decision.candidates.append(Candidate(other.source_taxation or "unknown", other.max_rate_pct, rule.cite.eid, when(rule)))
    decision.source_taxation = decision.max_rate_pct = decision.residence_taxation = None
    if any(c.fact in _kind_facts() for c in check.unknown):
        # the kind not given: asked first; a fact of that kind alone ("is the fee computed on production ...") follows it
        check = copy.copy(check)
        check.unknown = [c for c in check.unknown if c.fact in _kind_facts()]
    note_unknowns(decision, [(rule, check)], scenario)
    depends_on(decision, [(rule, check)])


__all__ = ["pending_reclassification", "settle"]
