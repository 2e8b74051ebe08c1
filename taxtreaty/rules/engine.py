"""Decide one scenario against a compiled treaty, the way the treaty reads.

The order of application mirrors the text (Catala style: a base rule plus labelled exceptions):

1. the treaty must bind the two States and be in force on the payment date, else `not_covered`;
2. the article for the income type (by topic, not number); when the fragment lacks it, the
   decision is `indeterminate` and says which articles the file holds;
3. the PE exception ("paragraphs 1 and 2 shall not apply if ... effectively connected with a
   permanent establishment ... article 7 or article 14 shall apply") before anything else;
4. exemptions before caps ("notwithstanding paragraph 2 ... shall be exempt");
5. of the caps whose conditions all hold, the most favourable; a cap or exemption that would
   be more favourable but depends on a fact the scenario does not give makes the decision
   `indeterminate`, with the candidates and the missing facts, never a guess;
6. a paragraph whose words are missing (lost list items, unknown values, an article cut off
   inside a list of rates) is a gap: unless the answer is already the most favourable possible
   (an exemption), the decision is `indeterminate` and cites the gap;
7. relief in the residence State from the elimination-of-double-taxation article.
"""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal

from taxtreaty.rules.compile import CompiledTreaty, Rule, TopicRules, article_of, paragraph_of
from taxtreaty.rules.conditions import Condition
from taxtreaty.rules.decision import Candidate, Decision, TraceEntry
from taxtreaty.rules.scenario import Scenario
from taxtreaty.rules.tables import tables
from taxtreaty.structure import eids

_ALLOCATION_OUTCOME = {
    # allocation -> (source taxation, residence taxation, assumption the outcome rests on)
    "residence_only": ("none", "exclusive", None),
    "effective_management_only": ("none", "exclusive", "effective_management"),
    "source_may_tax": ("unlimited", "shared", None),
    "source_only": ("unlimited", "none", None),
    "paying_state_only": ("unlimited", "none", "paying_state"),
    "exempt_in_host": ("none", "exclusive", None),
}
_ALLOCATION_EFFECT = {
    "residence_only": "only the residence State may tax",
    "effective_management_only": "only the State of the place of effective management may tax",
    "source_may_tax": "the source State may tax",
    "source_only": "only the source State may tax",
    "paying_state_only": "only the paying State may tax",
    "exempt_in_host": "the host (source) State exempts this income",
}


class _Check:
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

    def describe(self) -> str:
        if self.failed:
            return "not met: " + "; ".join(c.label for c in self.failed)
        if self.unknown:
            return "unknown: " + "; ".join(c.label for c in self.unknown)
        return "met"


def _pct(rate: Decimal) -> str:
    return f"{rate.normalize():f}%"


def _when(rule: Rule) -> str:
    return " and ".join(c.label for c in rule.conditions) or "always"


def _displaces(rule: Rule, other: Rule) -> bool:
    """`rule` names `other`'s paragraph or item among those it overrides ("*" is any provision of
    the convention, which is not a displacement of one cap by another)."""
    eid = other.cite.eid
    return any(eids.within(eid, o) for o in rule.overrides if o != "*")


def _otherwise_after_siblings(evaluated: list[tuple[Rule, _Check]]) -> None:
    """"(c) 10 per cent in all other cases" holds only where no other item of its list does. A
    higher-rate item that holds rules it out ("(b) 15 per cent where those dividends are paid out of
    income ... by an investment vehicle"); one whose conditions are unknown leaves it unknown. Lower-rate
    items need nothing: the most favourable cap that holds is chosen anyway."""
    for rule, check in evaluated:
        if rule.kind != "withholding_cap" or "otherwise" not in rule.notes or rule.rate is None or check.holds is False:
            continue
        higher = [(r, c) for r, c in evaluated if r is not rule and r.kind == "withholding_cap" and r.status == "determined"
                  and "otherwise" not in r.notes and r.rate is not None and r.rate > rule.rate
                  and r.paragraph_eid == rule.paragraph_eid]
        held = [r for r, c in higher if c.holds]
        if held:
            check.failed.append(Condition("otherwise", "eq", False, f"the case of {held[0].cite.eid} holds"))
            check.holds = False
            continue
        for _, other in higher:
            check.unknown.extend(c for c in other.unknown if c not in check.unknown)
        if check.unknown:
            check.holds = None


def _missing(checks: list[_Check]) -> list[str]:
    facts: list[str] = []
    for check in checks:
        for condition in check.unknown:
            if condition.fact not in facts:
                facts.append(condition.fact)
    return facts


def decide_compiled(treaty: CompiledTreaty, scenario: Scenario) -> Decision:
    if treaty.timeline is not None:  # amended: the version in effect on the payment date decides
        from taxtreaty.versions.timeline import decide_in_time

        return decide_in_time(treaty, scenario)
    defaults_used: set[str] = set()
    decision = Decision(status="determined")

    # 1. the States and the dates
    if len(treaty.parties) == 2:
        if {scenario.source, scenario.residence} != set(treaty.parties):
            decision.status = "not_covered"
            decision.reasons.append(
                f"the convention is between {treaty.parties[0]} and {treaty.parties[1]}; "
                f"it does not cover income from {scenario.source} to a resident of {scenario.residence}"
            )
            return decision
    else:
        decision.assumptions.append({
            "fact": "parties", "value": [scenario.source, scenario.residence],
            "why": "the text does not name its Contracting States; taken to be the source and residence States",
        })
    if not _in_force(treaty, scenario, decision):
        return decision

    # 2. the article for this income
    rules = treaty.topic(scenario.topic)
    if rules is None or rules.article_eid is None:
        fallback = treaty.topic("other_income")
        if treaty.complete and fallback is not None and fallback.article_eid and scenario.topic != "other_income":
            decision.reasons.append(f"the convention has no article on {scenario.topic}; the other-income article applies")
            rules = fallback
        else:
            return _missing_article(treaty, scenario, rules, decision)
    decision.language = rules.language
    decision.article_applied = rules.article

    # 3. the PE exception, 4-6. the article's own rules
    if not _pe_exception(treaty, rules, scenario, decision, defaults_used):
        if rules.caps or rules.exemptions or any(g.kind in ("withholding_cap", "exemption") for g in rules.gaps):
            _withholding(rules, scenario, decision, defaults_used)
        elif _day_threshold(rules) is not None and not rules.gaps:
            _short_stay(rules, scenario, decision, defaults_used)
        else:
            _allocation(treaty, rules, scenario, decision, defaults_used)
    _divergences(rules, decision)

    # 7. relief and amounts
    if decision.status == "determined":
        _relief(treaty, scenario, decision)
        if scenario.amount_minor is not None:
            if decision.source_taxation == "none":
                decision.withholding_minor = 0
            elif decision.source_taxation == "limited" and decision.max_rate_pct is not None:
                decision.withholding_minor = withholding_minor(scenario.amount_minor, decision.max_rate_pct)
    defaults = tables().defaults
    for fact in sorted(defaults_used):
        decision.assumptions.append({"fact": fact, "value": defaults[fact].value, "why": defaults[fact].why})
    return decision


def _divergences(rules: TopicRules, decision: Decision) -> None:
    """A figure that differs between the language versions of a paragraph the decision applied:
    noted when one text prevails (and the decision cites it), indeterminate when none does."""
    applied = {paragraph_of(t.cite.eid) for t in decision.trace}
    for eid, message, prevailing in rules.divergences:
        if paragraph_of(eid) not in applied:
            continue
        if prevailing and prevailing == rules.language:
            decision.reasons.append(f"the language versions differ ({message}); the {prevailing} text prevails and is applied")
        elif decision.status == "determined":
            decision.status = "indeterminate"
            decision.candidates.append(Candidate(decision.source_taxation or "unknown", decision.max_rate_pct, decision.eid,
                                                 f"the {rules.language} text is the one that applies"))
            decision.source_taxation = decision.max_rate_pct = decision.residence_taxation = None
            decision.reasons.append(f"the language versions differ ({message}) and no applied text prevails")
        else:
            decision.reasons.append(f"the language versions differ: {message}")


def withholding_minor(amount_minor: int, rate_pct: Decimal) -> int:
    """The most the source State may withhold, in minor units, rounded down (never above the cap)."""
    return int((Decimal(amount_minor) * rate_pct / 100).to_integral_value(rounding=ROUND_FLOOR))


def _in_force(treaty: CompiledTreaty, scenario: Scenario, decision: Decision) -> bool:
    window = treaty.in_force
    if not window.known:
        decision.assumptions.append({"fact": "in_force", "value": True, "why": tables().defaults["in_force"].why})
        return True
    if scenario.date is None:
        decision.status = "indeterminate"
        decision.missing_facts.append("date")
        decision.reasons.append("whether the convention applies depends on the payment date")
        return False
    own = window.effect_from_by_state.get(scenario.source or "")
    if own is None and window.effect_from is None and window.effect_until is None:
        # the clause gives dates of effect for the other State only: this one's are not known
        decision.assumptions.append({"fact": "in_force", "value": True, "why": tables().defaults["in_force"].why})
        return True
    if own is not None and own[0] <= scenario.date < own[1]:
        # one State's taxes start on different days ("taxes withheld at source" and "other taxes")
        decision.status = "indeterminate"
        decision.missing_facts.append("tax")
        decision.reasons.append(f"the convention has effect in {scenario.source} from {own[0]} for some taxes "
                                f"and from {own[1]} for others; which applies to this payment is not decided")
        decision.trace.extend(TraceEntry(c, "dates of effect") for c in window.state_cites[scenario.source or ""])
        return False
    if own is not None and scenario.date < own[0]:
        decision.status = "not_covered"
        decision.reasons.append(f"the convention has effect in {scenario.source} (the source State) only from "
                                f"{own[0]}, after the payment on {scenario.date} (from the final clauses)")
        decision.trace.extend(TraceEntry(c, "dates of effect") for c in window.state_cites[scenario.source or ""])
        return False
    if own is None and window.effect_from is not None and window.effect_from_latest is not None \
            and window.effect_from <= scenario.date < window.effect_from_latest:
        decision.status = "indeterminate"
        decision.reasons.append(f"the language versions give different dates of effect ({window.effect_from} and "
                                f"{window.effect_from_latest}) and none prevails; a payment on {scenario.date} "
                                "falls between them")
        decision.trace.extend(TraceEntry(c, "dates of effect") for c in window.cites)
        return False
    before = own is None and window.effect_from is not None and scenario.date < window.effect_from
    after = window.effect_until is not None and scenario.date > window.effect_until
    if before or after:
        decision.status = "not_covered"
        which = "given by the user" if window.given_by_user else "from the final clauses"
        span = f"{window.effect_from or '…'} to {window.effect_until or '…'}"
        decision.reasons.append(f"the convention does not apply to payments on {scenario.date} (it has effect {span}, {which})")
        decision.trace.extend(TraceEntry(c, "dates of effect") for c in window.cites)
        return False
    return True


def _missing_article(treaty: CompiledTreaty, scenario: Scenario, rules: TopicRules | None, decision: Decision) -> Decision:
    decision.status = "indeterminate"
    held = "; ".join(f"[{lang}] articles {', '.join(nums) or 'none'}" for lang, nums in treaty.articles_present.items())
    if rules is not None and rules.gaps:
        decision.trace.extend(TraceEntry(g.cite, f"gap: {g.reason or 'the words are missing'}") for g in rules.gaps)
    decision.reasons.append(
        f"the article on {scenario.topic} is not in the source text (the file holds {held}); "
        "source text incomplete"
    )
    return decision


def _pe_exception(treaty: CompiledTreaty, rules: TopicRules, scenario: Scenario, decision: Decision,
                  defaults_used: set[str]) -> bool:
    """Paragraph 4/5 of articles 10-12: income connected with a PE goes to article 7 or 14."""
    if not rules.pe_overrides and rules.truncated is not None:
        # the article is cut off: its PE paragraph (usually after the rates) may be in the lost part
        if scenario.pe_connected:
            decision.status = "indeterminate"
            decision.trace.append(TraceEntry(rules.truncated, "the article is cut off here"))
            decision.reasons.append(
                f"the income is connected with a permanent establishment, but article {rules.article} is cut off at "
                f"{rules.truncated.eid} before any paragraph on that case; source text incomplete"
            )
            return True
        if scenario.pe_connected is None:
            defaults_used.add("pe_connected")
    for rule in rules.pe_overrides:
        check = _Check(rule, scenario, defaults_used)
        if check.holds is not True:
            decision.trace.append(TraceEntry(rule.cite, "PE exception " + check.describe()))
            continue
        independent = scenario.recipient == "individual"
        topic = "independent_services" if independent else "business_profits"
        targets = rule.refers_to
        number = targets[1] if independent and len(targets) > 1 else (targets[0] if targets else ("14" if independent else "7"))
        decision.trace.append(TraceEntry(rule.cite, f"income connected with a permanent establishment or fixed base: article {number} applies instead"))
        decision.article_applied = number
        decision.eid = rule.cite.eid
        decision.source_taxation = "unlimited"
        decision.residence_taxation = "shared"
        target = treaty.pe_articles.get(topic)
        if target is not None:
            decision.trace.append(TraceEntry(target, "profits attributable to the permanent establishment may be taxed in the source State"))
            decision.eid = target.eid
        else:
            decision.reasons.append(f"article {number} is not in the source text; the source State taxes the income as profits of the permanent establishment or fixed base, with no treaty cap")
        return True
    return False


def _trace_allocations(rules: TopicRules, decision: Decision) -> None:
    for rule in rules.allocations:
        if rule.allocation in ("source_may_tax", "source_only"):
            decision.trace.append(TraceEntry(rule.cite, _ALLOCATION_EFFECT.get(rule.allocation or "", "allocation")))


_SOURCE_ALLOCATIONS = ("source_may_tax", "source_only")


def _residence_only_base(rules: TopicRules, scenario: Scenario, decision: Decision, defaults_used: set[str]) -> bool:
    """True (and the decision made) when the article gives the income to the residence State only
    and no rule letting the source State tax holds; indeterminate when one might."""
    checks = [(rule, _Check(rule, scenario, defaults_used)) for rule in rules.allocations]
    residence = [r for r, c in checks if c.holds and r.allocation == "residence_only"]
    source = [r for r, c in checks if c.holds and r.allocation in _SOURCE_ALLOCATIONS]
    if not residence or source:
        return False
    pending = [(r, c) for r, c in checks if c.holds is None and r.allocation in _SOURCE_ALLOCATIONS]
    base = residence[0]
    decision.trace.append(TraceEntry(base.cite, _ALLOCATION_EFFECT["residence_only"]))
    for rule, check in checks:
        if rule.allocation in _SOURCE_ALLOCATIONS:
            decision.trace.append(TraceEntry(rule.cite, f"{_ALLOCATION_EFFECT[rule.allocation or '']} — {check.describe()}"))
    if pending:
        decision.status = "indeterminate"
        decision.missing_facts.extend(_missing([c for _, c in pending]))
        decision.candidates.append(Candidate("none", Decimal(0), base.cite.eid, "none of the exceptions applies"))
        for rule, _ in pending:
            decision.candidates.append(Candidate("limited", None, rule.cite.eid, _when(rule)))
        return True
    decision.source_taxation, decision.max_rate_pct, decision.residence_taxation = "none", Decimal(0), "exclusive"
    decision.eid = base.cite.eid
    _truncation_note(rules, decision)
    return True


def _for_some_payments(rule: Rule) -> bool:
    """A residence-only rule of a rate article for some payments only (its recipients, loans, ...),
    not the article's base: beneficial ownership alone ("Royalties ... beneficially owned by a
    resident of the other Contracting State shall be taxable only in that other Contracting State")
    is a condition of the base, as it is of every cap."""
    return any(c.fact != "beneficial_owner" for c in rule.conditions)


def _exempting(rule: Rule) -> bool:
    """An exemption, or a residence-only exception of a rate article (the same effect at source)."""
    return rule.kind == "exemption" or rule.allocation == "residence_only"


def _truncation_note(rules: TopicRules, decision: Decision) -> None:
    if rules.truncated is not None:
        where = "at" if rules.truncated_inside else "after"
        decision.trace.append(TraceEntry(rules.truncated, f"the article is cut off {'here' if rules.truncated_inside else 'after this paragraph'}; the rest is not in the source"))
        decision.reasons.append(
            f"article {rules.article} is cut off {where} {rules.truncated.eid}; the rest of the article is missing, "
            "but the paragraphs that decide this case are complete"
        )


def _withholding(rules: TopicRules, scenario: Scenario, decision: Decision, defaults_used: set[str]) -> None:
    """Articles with rates: exemptions before caps, the most favourable cap whose conditions hold.

    Caps only matter where the article lets the source State tax at all: when the only
    allocation that holds is "taxable only in the residence State" (other income, with a
    capped exception for a kind of income), the answer is that allocation."""
    if _residence_only_base(rules, scenario, decision, defaults_used):
        return
    _trace_allocations(rules, decision)
    # "...sólo pueden someterse a imposición en el otro Estado si [conditions]": a residence-only exception
    # of a rate article takes the source State's tax away as an exemption does, whether its conditions
    # hold or are not known (then a candidate, never ignored)
    exceptions = tuple(r for r in rules.allocations if r.allocation == "residence_only" and _for_some_payments(r))
    evaluated: list[tuple[Rule, _Check]] = [
        (rule, _Check(rule, scenario, defaults_used)) for rule in (*rules.exemptions, *exceptions, *rules.caps, *rules.gaps)
    ]
    evaluated.sort(key=lambda rc: rc[0].cite.span[0])
    _otherwise_after_siblings(evaluated)
    exempt = next((r for r, c in evaluated if _exempting(r) and r.status == "determined" and c.holds), None)
    held_caps = [r for r, c in evaluated if r.kind == "withholding_cap" and r.status == "determined" and c.holds]
    # "Notwithstanding subparagraph a) of paragraph 2, ... shall not exceed 15 per cent": a cap that
    # displaces another (its `overrides`) replaces it when both hold, even at a higher rate
    displaced = [r for r in held_caps if any(_displaces(other, r) for other in held_caps if other is not r)]
    # the list's "in all other cases" rate is not for the displaced item's case either
    held_caps = [r for r in held_caps if r not in displaced and not (
        "otherwise" in r.notes and any(r.paragraph_eid == d.paragraph_eid for d in displaced))]
    best = min(held_caps, key=lambda r: r.rate if r.rate is not None else Decimal(100), default=None)

    pending: list[tuple[Rule, _Check]] = []
    for rule, check in evaluated:
        if exempt is not None or check.holds is False:
            continue
        more_favourable = _exempting(rule) or (
            rule.kind == "withholding_cap" and (best is None or (rule.rate or 0) < (best.rate or 0))
        ) or (best is not None and _displaces(rule, best))  # it may displace the chosen cap
        if rule.status != "determined" or (check.holds is None and more_favourable):
            pending.append((rule, check))
    # cut inside a paragraph of rates (mid-sentence): its list may go on with other rates or
    # exemptions; cut after a complete paragraph: the rates it states are whole
    cut_in_rates = rules.truncated is not None and rules.truncated_inside and rules.truncated.eid in rules.rate_paragraphs

    for rule, check in evaluated:
        if rule.status != "determined":
            effect = f"gap: {rule.reason or 'the words that give the value are missing'}"
        elif rule is exempt:
            effect = "exemption applies: the source State may not tax"
        elif _exempting(rule):
            effect = "exemption " + check.describe()
        elif rule is best:
            effect = f"cap {_pct(rule.rate)} applies (the most favourable whose conditions are met)" if rule.rate is not None else "cap applies"
        else:
            effect = f"cap {_pct(rule.rate) if rule.rate is not None else '?'} " + check.describe()
        decision.trace.append(TraceEntry(rule.cite, effect))

    if exempt is not None:
        decision.source_taxation, decision.max_rate_pct, decision.residence_taxation = "none", Decimal(0), "exclusive"
        decision.eid = exempt.cite.eid
        if rules.truncated is not None:
            _truncation_note(rules, decision)
        return
    if pending or (cut_in_rates and rules.truncated is not None):
        decision.status = "indeterminate"
        decision.missing_facts.extend(f for f in _missing([c for _, c in pending]) if f not in decision.missing_facts)
        base = next((r for r in rules.allocations if r.allocation == "residence_only" and not _for_some_payments(r)), None)
        if best is not None:
            decision.candidates.append(Candidate("limited", best.rate, best.cite.eid, "none of the other candidates applies"))
        elif base is not None:
            # "interest ... may be taxed only in that other State" and a cap for some interest only
            # ("determined with reference to receipts, sales, income, profits"): the rest is not taxed at source
            decision.candidates.append(Candidate("none", Decimal(0), base.cite.eid, "none of the other candidates applies"))
        elif not any(c.holds is None for r, c in evaluated if r.status == "determined"):
            decision.candidates.append(Candidate("unlimited", None, None, "no cap applies"))
        for rule, _ in pending:
            if rule.status != "determined":
                decision.candidates.append(Candidate("unknown", None, rule.cite.eid, "the missing text provides for this case"))
                decision.reasons.append(f"{rule.cite.eid} [{rule.cite.language}]: {rule.reason or 'the words are missing'}; source text incomplete")
            elif _exempting(rule):
                decision.candidates.append(Candidate("none", Decimal(0), rule.cite.eid, _when(rule)))
            else:
                decision.candidates.append(Candidate("limited", rule.rate, rule.cite.eid, _when(rule)))
        if cut_in_rates and rules.truncated is not None:
            decision.trace.append(TraceEntry(rules.truncated, "the article is cut off inside this paragraph"))
            decision.candidates.append(Candidate("unknown", None, rules.truncated.eid, "the cut-off text provides for this case"))
            decision.reasons.append(
                f"{rules.truncated.eid} [{rules.truncated.language}] is cut off by the end of the source text; "
                "it may list further exemptions or rates; source text incomplete"
            )
        if decision.missing_facts:
            labels = dict.fromkeys(c.label for _, check in pending for c in check.unknown)
            decision.reasons.append(
                "the answer depends on facts not given: " + ", ".join(decision.missing_facts)
                + " (whether " + "; ".join(labels) + ")"
            )
        return
    if best is not None:
        decision.source_taxation, decision.max_rate_pct, decision.residence_taxation = "limited", best.rate, "shared"
        decision.eid = best.cite.eid
    elif not rules.caps and not any(r.allocation in _SOURCE_ALLOCATIONS for r in rules.allocations):
        # only exemptions, none of which applies (students, teachers): the income then falls
        # under another article, which the text does not name here
        decision.status = "indeterminate"
        decision.reasons.append(
            f"no exemption of article {rules.article} applies; the income then falls under another article "
            "(employment, other income) that this article does not name"
        )
        return
    else:
        decision.source_taxation, decision.residence_taxation = "unlimited", "shared"
        decision.eid = rules.allocations[-1].cite.eid if rules.allocations else None
        decision.reasons.append("no cap's conditions are met; the source State may tax under its own law")
    _truncation_note(rules, decision)


def _day_threshold(rules: TopicRules) -> Rule | None:
    """The "183 days in any twelve-month period" test of the employment article, if read."""
    if rules.topic != "employment":
        return None
    return next((r for r in rules.thresholds if isinstance(r.values.get("days"), int)), None)


def _short_stay(rules: TopicRules, scenario: Scenario, decision: Decision, defaults_used: set[str]) -> None:
    """Employment (OECD 15(1)-(2)): the source State - where the work is done - may tax, unless
    the employee is present there no more than N days, the employer is not a resident of it and
    no permanent establishment there bears the pay; then only the residence State may."""
    threshold = _day_threshold(rules)
    assert threshold is not None
    days = int(threshold.values["days"])
    paragraph = threshold.paragraph_eid
    base_source = next((r for r in rules.allocations if r.allocation in _SOURCE_ALLOCATIONS
                        and r.paragraph_eid != paragraph and not r.conditions), None)
    exception = next((r for r in rules.allocations if r.allocation == "residence_only" and r.paragraph_eid == paragraph), None)
    if base_source is None or exception is None:
        decision.status = "indeterminate"
        decision.reasons.append(f"article {rules.article}: the day test of {threshold.cite.eid} was read but not the rules it qualifies")
        return
    defaults = tables().defaults
    others = [r for r in rules.allocations if r.paragraph_eid not in (base_source.paragraph_eid, paragraph)]
    if others:
        decision.assumptions.append({"fact": "international_traffic", "value": False, "why": defaults["international_traffic"].why,
                                     "eid": others[0].cite.eid})
    decision.assumptions.append({"fact": "place_of_work", "value": scenario.source, "why": defaults["place_of_work"].why})
    decision.trace.append(TraceEntry(base_source.cite, "the source State (where the employment is exercised) may tax"))
    missing = [f for f, v in (("days_present", scenario.days_present), ("employer_resident", scenario.employer_resident)) if v is None]
    if scenario.days_present is not None and scenario.days_present > days:
        decision.trace.append(TraceEntry(threshold.cite, f"exception not met: present {scenario.days_present} days, more than {days}"))
        missing = []
        outcome = base_source
    elif scenario.employer_resident is not None and scenario.employer_resident == scenario.source:
        decision.trace.append(TraceEntry(exception.cite, "exception not met: the employer is a resident of the source State"))
        missing = []
        outcome = base_source
    elif missing:
        decision.status = "indeterminate"
        decision.missing_facts.extend(missing)
        decision.trace.append(TraceEntry(threshold.cite, f"exception: present no more than {days} days"))
        decision.candidates.append(Candidate("unlimited", None, base_source.cite.eid, f"days_present > {days} or the employer is a resident of the source State"))
        decision.candidates.append(Candidate("none", Decimal(0), exception.cite.eid, f"days_present ≤ {days} and the employer is not a resident of the source State"))
        decision.reasons.append("the answer depends on facts not given: " + ", ".join(missing))
        return
    else:
        if scenario.pe_connected is None:
            defaults_used.add("pe_connected")
        if scenario.pe_connected:
            decision.trace.append(TraceEntry(exception.cite, "exception not met: the pay is borne by a permanent establishment in the source State"))
            outcome = base_source
        else:
            decision.trace.append(TraceEntry(threshold.cite, f"present {scenario.days_present} days, no more than {days}"))
            decision.trace.append(TraceEntry(exception.cite, "exception applies: only the residence State may tax"))
            outcome = exception
    source, residence, _ = _ALLOCATION_OUTCOME[outcome.allocation or ""]
    decision.source_taxation, decision.residence_taxation = source, residence  # type: ignore[assignment]
    decision.max_rate_pct = Decimal(0) if source == "none" else None
    decision.eid = outcome.cite.eid
    _truncation_note(rules, decision)


def _subject_to(treaty: CompiledTreaty, rule: Rule, scenario: Scenario, decision: Decision,
                defaults_used: set[str]) -> bool:
    """'Subject to article 19(2)' (pensions, salaries): a reference to the government-service
    article matters only when a government pays; otherwise the rule stands, noting the default."""
    for eid in rule.overrides:
        if treaty.article_topics.get(article_of(eid)) != "government_service":
            continue
        if scenario.payer is None:
            defaults_used.add("payer")
        elif scenario.payer in ("government", "local_authority", "central_bank"):
            decision.status = "indeterminate"
            decision.candidates.append(Candidate("unknown", None, eid, "paid by a State or its authority"))
            decision.reasons.append(f"{rule.cite.eid} is subject to {eid} (government service), which applies when a State or its authority pays")
            return False
    return True


def _clashing(chosen: Rule, ordered: list[Rule], scenario: Scenario, defaults_used: set[str]) -> list[Rule]:
    """Other unconditional allocations of the article that give the income elsewhere: two rules
    that both apply and disagree are not resolved silently (Catala's conflict error)."""
    outcome = _ALLOCATION_OUTCOME.get(chosen.allocation or "", (None,))[0]
    return [
        rule for rule in ordered
        if rule is not chosen and not rule.conditions and rule.allocation in _ALLOCATION_OUTCOME
        and _ALLOCATION_OUTCOME[rule.allocation or ""][0] != outcome
    ]


def _allocation(treaty: CompiledTreaty, rules: TopicRules, scenario: Scenario, decision: Decision,
                defaults_used: set[str]) -> None:
    """Articles without rates: exceptions (allocations with conditions) before the base rule."""
    ordered = sorted(rules.allocations, key=lambda r: (not r.conditions, r.cite.span[0]))
    chosen: Rule | None = None
    unknown: list[_Check] = []
    for rule in ordered:
        check = _Check(rule, scenario, defaults_used)
        if check.holds is None:
            unknown.append(check)
            decision.trace.append(TraceEntry(rule.cite, f"{_ALLOCATION_EFFECT.get(rule.allocation or '', 'rule')} — " + check.describe()))
            continue
        if check.holds is False:
            decision.trace.append(TraceEntry(rule.cite, f"{_ALLOCATION_EFFECT.get(rule.allocation or '', 'rule')} — " + check.describe()))
            continue
        chosen = rule
        break
    if chosen is not None and not chosen.conditions:
        clash = _clashing(chosen, ordered, scenario, defaults_used)
        if clash:
            decision.status = "indeterminate"
            for rule in (chosen, *clash):
                decision.trace.append(TraceEntry(rule.cite, _ALLOCATION_EFFECT.get(rule.allocation or "", "rule")))
                source = _ALLOCATION_OUTCOME.get(rule.allocation or "", ("unknown", None, None))[0]
                decision.candidates.append(Candidate(source, None, rule.cite.eid, "this paragraph is the one that fits the case"))
            decision.reasons.append(
                f"article {rules.article} gives this income to different States in "
                f"{', '.join(dict.fromkeys(r.cite.eid for r in (chosen, *clash)))}, by circumstances the scenario does not state "
                "(the kind of property, where the work is done, ...)"
            )
            return
    live_gaps = [g for g in rules.gaps]
    if chosen is None or unknown or live_gaps:
        decision.status = "indeterminate"
        for gap in live_gaps:
            decision.trace.append(TraceEntry(gap.cite, f"gap: {gap.reason or 'the words are missing'}"))
            decision.reasons.append(f"{gap.cite.eid} [{gap.cite.language}]: {gap.reason or 'the words are missing'}; source text incomplete")
        decision.missing_facts.extend(_missing(unknown))
        if chosen is None and not live_gaps and not unknown:
            if rules.truncated is not None:
                decision.trace.append(TraceEntry(rules.truncated, "the article is cut off here"))
                decision.reasons.append(f"article {rules.article} is incomplete in the source text and no paragraph that allocates this income is present; source text incomplete")
            else:
                decision.reasons.append(f"no rule of article {rules.article} allocating this income was found")
        if chosen is not None:
            source, residence, _ = _ALLOCATION_OUTCOME.get(chosen.allocation or "", ("unknown", None, None))
            decision.candidates.append(Candidate(source, None, chosen.cite.eid, "none of the exceptions applies"))
        return
    source, residence, assumption = _ALLOCATION_OUTCOME.get(chosen.allocation or "", (None, None, None))
    if source is None:
        decision.status = "indeterminate"
        decision.reasons.append(f"{chosen.cite.eid}: allocation {chosen.allocation!r} is not understood by the engine")
        return
    decision.trace.append(TraceEntry(chosen.cite, _ALLOCATION_EFFECT[chosen.allocation or ""]))
    if not _subject_to(treaty, chosen, scenario, decision, defaults_used):
        return
    decision.source_taxation = source  # type: ignore[assignment]
    decision.residence_taxation = residence
    decision.max_rate_pct = Decimal(0) if source == "none" else None
    decision.eid = chosen.cite.eid
    if assumption:
        default = tables().defaults[assumption]
        decision.assumptions.append({"fact": assumption, "value": default.value, "why": default.why})
    _truncation_note(rules, decision)


def _relief(treaty: CompiledTreaty, scenario: Scenario, decision: Decision) -> None:
    if decision.source_taxation == "none":
        decision.relief = {"method": "none_needed", "reason": "the source State may not tax this income"}
        return
    if decision.residence_taxation == "none":
        decision.relief = {"method": "none_needed", "reason": "the residence State may not tax this income"}
        return
    own = [r for r in treaty.relief if r.state == scenario.residence]
    general = [r for r in treaty.relief if r.state is None or r.state not in treaty.parties]
    chosen = own or general
    credit = next((r for r in chosen if _method(r).startswith("credit")), None)
    rule = credit or (chosen[0] if chosen else None)
    if rule is None:
        decision.relief = {
            "method": "unknown",
            "reason": "the article on the elimination of double taxation is not in the source text",
        }
        return
    method = _method(rule)
    decision.relief = {"method": method, "article": eids.article_number(rule.cite.eid), "eid": rule.cite.eid,
                       "language": rule.cite.language, "quote": rule.cite.quote}
    progression = next((r for r in (*own, *general) if "progression" in _method(r)), None)
    if progression is not None and progression is not rule:
        decision.relief["progression_eid"] = progression.cite.eid
    decision.trace.append(TraceEntry(rule.cite, f"relief in {scenario.residence}: {method.replace('_', ' ')}"))


def _method(rule: Rule) -> str:
    """credit | exemption | exemption_with_progression, from the relief provision's values."""
    method = str(rule.values.get("method") or "unknown")
    if method == "exemption" and rule.values.get("progression"):
        return "exemption_with_progression"
    return method
